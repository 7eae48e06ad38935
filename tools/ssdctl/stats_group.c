// SPDX-License-Identifier: GPL-2.0
/*
 * stats_group.c - `ssdctl stats DEV`, for people: struct ssdemu_stats in
 * the groups of the table of counters (SSDEMU_STATS_GROUPS: device, host,
 * flash by region and cause, GC, wear, faults, cache, dedup, power,
 * timing, RAM), each under its title, sizes in MiB, times in ms, ratios
 * beside the counts they come from (stats_derived.h).  A group whose
 * layer is off (no write cache, no dedup, no faults, no timed requests)
 * is left out.  A warning heads it all when a host request failed or was
 * refused (stats_faults.h).  Every counter keeps its name in `--raw` and `--json`
 * (stats_print.c); this view only arranges them.
 */
#include <string.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_faults.h"
#include "tools/report/stats_fields.h"
#include "tools/ssdctl/stats_group.h"

#define MIB (1024.0 * 1024.0)

static double mib(unsigned long long bytes)
{
	return (double)bytes / MIB;
}

static double ms(unsigned long long ns)
{
	return (double)ns / 1e6;
}

/* @num / @den as a percentage, or -1 if @den is 0. */
static double percent(unsigned long long num, unsigned long long den)
{
	return den ? 100.0 * (double)num / (double)den : -1.0;
}

#define ROW(out, key, ...) do {				\
	fprintf(out, "  %-24s ", key);				\
	fprintf(out, __VA_ARGS__);				\
	fputc('\n', out);					\
} while (0)

static void row_ratio(FILE *out, const char *key, unsigned long long num,
		      unsigned long long den, const char *what)
{
	double p = percent(num, den);

	if (p < 0)
		ROW(out, key, "n/a (no %s)", what);
	else
		ROW(out, key, "%.1f %% (%llu of %llu %s)", p, num, den, what);
}

static int cache_on(const struct ssdemu_stats *st)
{
	return st->cache_capacity_pages != 0;
}

static int slc_region(const struct ssdemu_stats *st)
{
	return cache_on(st) || st->slc_free_blocks || st->flash_program_slc_pages ||
	       st->slc_erase_count_total;
}

static int dedup_on(const struct ssdemu_stats *st)
{
	return st->dedup_store_capacity_entries || st->dedup_metadata_bytes ||
	       st->dedup_chunks_written;
}

static void print_device(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "logical capacity", "%.1f MiB", mib(st->logical_capacity_bytes));
	ROW(out, "flash", "%.1f MiB: %llu blocks of %llu pages of %llu bytes",
	    mib(st->physical_capacity_bytes), (unsigned long long)st->total_blocks,
	    (unsigned long long)st->pages_per_block,
	    (unsigned long long)st->page_size_bytes);
	ROW(out, "free blocks", "%llu (%.1f %%)", (unsigned long long)st->free_blocks,
	    percent(st->free_blocks, st->total_blocks));
	ROW(out, "valid pages", "%llu (%.1f MiB)", (unsigned long long)st->valid_pages,
	    mib(st->valid_pages * st->page_size_bytes));
}

static void print_host(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "written", "%.1f MiB (%llu pages, %llu read-modify-write)",
	    mib(st->host_write_bytes), (unsigned long long)st->host_write_pages,
	    (unsigned long long)st->host_rmw_pages);
	ROW(out, "read", "%.1f MiB (%llu pages)", mib(st->host_read_bytes),
	    (unsigned long long)st->host_read_pages);
	ROW(out, "trimmed", "%.1f MiB (%llu mapped pages unmapped)",
	    mib(st->host_trim_bytes), (unsigned long long)st->host_trim_pages);
	ROW(out, "flushes", "%llu", (unsigned long long)st->host_flush_count);
	if (stats_known(st, offsetof(struct ssdemu_stats, working_set_pages)))
		ROW(out, "working set", "%.1f MiB (%llu distinct pages read or written)",
		    mib(st->working_set_pages * st->page_size_bytes),
		    (unsigned long long)st->working_set_pages);
}

static void print_cause(FILE *out, const char *cause, unsigned long long programs,
			unsigned long long reads)
{
	if (programs || reads)
		fprintf(out, "    %-22s %12llu %12llu\n", cause, programs, reads);
}

static void print_flash(FILE *out, const struct ssdemu_stats *st)
{
	unsigned long long page = st->page_size_bytes;

	ROW(out, "programmed", "%.1f MiB (%llu pages)",
	    mib(st->flash_program_pages * page), (unsigned long long)st->flash_program_pages);
	ROW(out, "read", "%.1f MiB (%llu pages)", mib(st->flash_read_pages * page),
	    (unsigned long long)st->flash_read_pages);
	ROW(out, "erased", "%llu blocks", (unsigned long long)st->flash_erase_blocks);
	if (stats_waf(st) >= 0)
		ROW(out, "WAF", "%.3f (flash programmed / host written)", stats_waf(st));
	else
		ROW(out, "WAF", "n/a (no host writes)");
	if (slc_region(st)) {
		fprintf(out, "  %-24s %12s %12s %12s\n", "by region", "programs", "reads",
			"erases");
		fprintf(out, "    %-22s %12llu %12llu %12llu\n", "SLC (cache)",
			(unsigned long long)st->flash_program_slc_pages,
			(unsigned long long)st->flash_read_slc_pages,
			(unsigned long long)st->flash_erase_slc_blocks);
		fprintf(out, "    %-22s %12llu %12llu %12llu\n", "TLC",
			(unsigned long long)st->flash_program_tlc_pages,
			(unsigned long long)(st->flash_read_pages - st->flash_read_slc_pages),
			(unsigned long long)st->flash_erase_tlc_blocks);
	}
	fprintf(out, "  %-24s %12s %12s\n", "by cause (pages)", "programs", "reads");
	print_cause(out, "host", st->flash_program_host_pages, st->flash_read_host_pages);
	print_cause(out, "GC", st->flash_program_gc_pages, st->flash_read_gc_pages);
	print_cause(out, "cache destage", st->flash_program_destage_pages,
		    st->flash_read_destage_pages);
	print_cause(out, "cache read fill", st->flash_program_fill_pages, 0);
	print_cause(out, "FTL map", st->flash_program_map_pages, st->flash_read_map_pages);
	print_cause(out, "merge", st->flash_program_merge_pages, st->flash_read_merge_pages);
}

static void print_gc(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "victim blocks", "%llu", (unsigned long long)st->gc_victim_blocks);
	ROW(out, "pages relocated", "%llu (%.2f a victim; at most %llu in one host page write)",
	    (unsigned long long)st->gc_relocated_pages,
	    st->gc_victim_blocks ? (double)st->gc_relocated_pages / st->gc_victim_blocks : 0.0,
	    (unsigned long long)st->gc_relocated_pages_write_max);
	ROW(out, "foreground runs", "%llu (%llu blocking until a block was free)",
	    (unsigned long long)st->gc_foreground_runs,
	    (unsigned long long)st->gc_blocking_runs);
	if (st->gc_background_steps)
		ROW(out, "background", "%llu pages in %llu steps",
		    (unsigned long long)st->gc_background_pages,
		    (unsigned long long)st->gc_background_steps);
	if (st->wl_static_migrations)
		ROW(out, "static wear levelling", "%llu cold blocks, %llu pages moved",
		    (unsigned long long)st->wl_static_migrations,
		    (unsigned long long)st->wl_static_pages);
	if (st->ftl_switch_merges || st->ftl_partial_merges || st->ftl_full_merges)
		ROW(out, "merges", "%llu switch, %llu partial, %llu full (%llu erases)",
		    (unsigned long long)st->ftl_switch_merges,
		    (unsigned long long)st->ftl_partial_merges,
		    (unsigned long long)st->ftl_full_merges,
		    (unsigned long long)st->ftl_merge_erases);
	if (st->dftl_cmt_hits || st->dftl_cmt_misses) {
		row_ratio(out, "DFTL map cache hits", st->dftl_cmt_hits,
			  st->dftl_cmt_hits + st->dftl_cmt_misses, "lookups");
		ROW(out, "DFTL translation pages", "%llu read, %llu written, %llu moved by GC",
		    (unsigned long long)st->dftl_translation_reads,
		    (unsigned long long)st->dftl_translation_writes,
		    (unsigned long long)st->dftl_translation_gc_pages);
	}
}

/*
 * The erase-count histogram (stats version 9): one row per bucket, its
 * range of erase counts, its blocks and a bar scaled to the fullest
 * bucket.  An older writer (bucket width 0) has none: the spread line
 * then shows min, mean +- sd and max on one scale instead.
 */
static void print_erase_hist(FILE *out, const struct ssdemu_stats *st)
{
	const unsigned long long hist[16] = {
		st->erase_hist_0, st->erase_hist_1, st->erase_hist_2, st->erase_hist_3,
		st->erase_hist_4, st->erase_hist_5, st->erase_hist_6, st->erase_hist_7,
		st->erase_hist_8, st->erase_hist_9, st->erase_hist_10, st->erase_hist_11,
		st->erase_hist_12, st->erase_hist_13, st->erase_hist_14, st->erase_hist_15,
	};
	unsigned long long width = st->erase_hist_bucket_width, fullest = 0;
	const int bar_width = 40;
	char range[32], bar[41];
	int i, len;

	for (i = 0; i < 16; i++)
		if (hist[i] > fullest)
			fullest = hist[i];
	ROW(out, "erase-count histogram", "16 buckets of %llu erase%s, blocks in each",
	    width, width == 1 ? "" : "s");
	for (i = 0; i < 16; i++) {
		unsigned long long lo = i * width, hi = lo + width - 1;

		len = fullest ? (int)((hist[i] * bar_width + fullest - 1) / fullest) : 0;
		memset(bar, '#', len);
		bar[len] = '\0';
		if (width == 1)
			snprintf(range, sizeof(range), "%llu", lo);
		else
			snprintf(range, sizeof(range), "%llu-%llu", lo, hi);
		fprintf(out, "    %13s %10llu |%s\n", range, hist[i], bar);
	}
}

/*
 * The column of @v on a bar of @width columns spanning 0..@max, clamped to
 * the bar: stats read from a file may hold a min or mean beyond the max.
 */
static int spread_column(double v, unsigned long long max, int width)
{
	double column = v / max * (width - 1) + 0.5;

	if (!(column >= 0))	/* negative or NaN */
		return 0;
	return column >= width - 1 ? width - 1 : (int)column;
}

static void print_spread(FILE *out, const struct ssdemu_stats *st, double mean, double sd)
{
	unsigned long long max = st->erase_count_max;
	const int width = 40;
	char bar[41];
	int i;

	/* m: min, -: within a standard deviation of the mean, M: mean, X: max */
	for (i = 0; i < width; i++) {
		double v = (double)max * i / (width - 1);

		bar[i] = (v >= mean - sd && v <= mean + sd) ? '-' : '.';
	}
	bar[width] = '\0';
	bar[spread_column(st->erase_count_min, max, width)] = 'm';
	bar[spread_column(mean, max, width)] = 'M';
	bar[width - 1] = 'X';
	ROW(out, "spread 0..max", "|%s| (m min, M mean, - mean +- sd, X max)", bar);
}

static void print_wear(FILE *out, const struct ssdemu_stats *st)
{
	double mean = stats_erase_count_mean(st);
	double sd = st->erase_count_stddev_milli / 1000.0;

	ROW(out, "min / mean / max", "%llu / %.3f / %llu (standard deviation %.3f)",
	    (unsigned long long)st->erase_count_min, mean,
	    (unsigned long long)st->erase_count_max, sd);
	ROW(out, "erases in all", "%llu", (unsigned long long)st->erase_count_total);
	if (st->erase_hist_bucket_width)
		print_erase_hist(out, st);
	else if (st->erase_count_max)
		print_spread(out, st, mean, sd);
	if (slc_region(st))
		ROW(out, "SLC region", "%llu erases in all, max %llu a block",
		    (unsigned long long)st->slc_erase_count_total,
		    (unsigned long long)st->slc_erase_count_max);
}

static void print_cache(FILE *out, const struct ssdemu_stats *st)
{
	unsigned long long bypass = stats_cache_bypass_pages(st);
	unsigned long long writes = st->cache_write_hit_pages + st->cache_admit_pages + bypass;

	ROW(out, "holds", "%llu of %llu pages (%.1f of %.1f MiB)",
	    (unsigned long long)st->cache_pages, (unsigned long long)st->cache_capacity_pages,
	    mib(st->cache_pages * st->page_size_bytes),
	    mib(st->cache_capacity_pages * st->page_size_bytes));
	row_ratio(out, "write hit ratio", st->cache_write_hit_pages, writes, "page writes");
	ROW(out, "admitted", "%llu pages", (unsigned long long)st->cache_admit_pages);
	ROW(out, "bypassed to TLC", "%llu pages (size %llu, dice %llu, policy %llu, PLC %llu)",
	    bypass, (unsigned long long)st->cache_bypass_size_pages,
	    (unsigned long long)st->cache_bypass_dice_pages,
	    (unsigned long long)st->cache_bypass_policy_pages,
	    (unsigned long long)(st->cache_bypass_delay_pages + st->cache_bypass_inout_pages));
	ROW(out, "destaged", "%llu pages (%llu foreground, %llu background)",
	    (unsigned long long)st->cache_evict_pages,
	    (unsigned long long)st->cache_destage_foreground_pages,
	    (unsigned long long)st->cache_destage_background_pages);
	row_ratio(out, "read hit ratio", st->cache_read_hit_pages,
		  st->cache_read_hit_pages + st->cache_read_miss_pages, "page reads");
	if (st->cache_fill_pages)
		ROW(out, "read fills", "%llu pages", (unsigned long long)st->cache_fill_pages);
	if (st->cache_trim_pages)
		ROW(out, "trimmed", "%llu pages", (unsigned long long)st->cache_trim_pages);
}

static void print_dedup(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "chunks written", "%llu (%llu fingerprinted, %llu filtered unhashed)",
	    (unsigned long long)st->dedup_chunks_written,
	    (unsigned long long)st->dedup_fingerprinted_chunks,
	    (unsigned long long)st->dedup_filtered_chunks);
	row_ratio(out, "duplicates found", st->dedup_duplicate_chunks, st->dedup_chunks_written,
		  "chunks written");
	ROW(out, "programs avoided", "%llu pages (%.1f MiB)",
	    (unsigned long long)st->dedup_programs_avoided,
	    mib(st->dedup_programs_avoided * st->page_size_bytes));
	if (stats_dedup_ratio(st) >= 0)
		ROW(out, "dedup ratio", "%.3f (%llu logical pages on %llu stored)",
		    stats_dedup_ratio(st),
		    (unsigned long long)st->dedup_logical_pages,
		    (unsigned long long)st->dedup_physical_pages);
	row_ratio(out, "fingerprint store hits", st->dedup_store_hits,
		  st->dedup_store_hits + st->dedup_store_misses, "lookups");
	ROW(out, "fingerprint store", "%llu of %llu entries (%llu evicted)",
	    (unsigned long long)st->dedup_store_used_entries,
	    (unsigned long long)st->dedup_store_capacity_entries,
	    (unsigned long long)st->dedup_store_evictions);
	ROW(out, "engine busy", "%.3f ms (writes waited %.3f ms for fingerprints)",
	    ms(st->dedup_engine_busy_ns), ms(st->dedup_hash_wait_ns));
}

/* Completed requests and their latency, with the failed and refused beside. */
static void print_latency(FILE *out, const char *key, unsigned long long commands,
			  unsigned long long total_ns, unsigned long long failed,
			  unsigned long long refused)
{
	fprintf(out, "  %-24s %llu", key, commands);
	if (commands)
		fprintf(out, ", %.3f ms modeled in all, mean %.1f us", ms(total_ns),
			stats_mean_us(commands, total_ns));
	stats_print_not_timed(out, failed, refused);
	fputc('\n', out);
}

static void print_timing(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "device clock", "%.3f ms", ms(st->virtual_time_ns));
	print_latency(out, "requests", st->commands, st->command_latency_ns_total,
		      st->failed_commands, st->refused_commands);
	print_latency(out, "writes", st->write_commands, st->write_latency_ns_total,
		      st->write_failed_commands, st->write_refused_commands);
	print_latency(out, "reads", st->read_commands, st->read_latency_ns_total,
		      st->read_failed_commands, st->read_refused_commands);
	ROW(out, "queue wait", "%.3f ms", ms(st->queue_wait_ns_total));
	ROW(out, "busy", "controller %.3f ms, channels %.3f ms, chips %.3f ms (summed)",
	    ms(st->controller_busy_ns), ms(st->channel_busy_ns_total),
	    ms(st->chip_busy_ns_total));
	if (st->timed_completions)
		ROW(out, "late completions", "%llu of %llu (%.3f ms in all, max %.3f ms)",
		    (unsigned long long)st->late_completions,
		    (unsigned long long)st->timed_completions, ms(st->late_ns_total),
		    ms(st->late_ns_max));
}

static void print_ram(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "page data", "%.1f MiB (limit %.1f MiB, %.1f MiB spare buffers)",
	    mib(st->data_bytes), mib(st->data_limit_bytes), mib(st->spare_buffer_bytes));
	ROW(out, "FTL tables", "%.1f MiB (modeled mapping RAM %.1f MiB)",
	    mib(st->ftl_metadata_bytes), mib(st->ftl_map_ram_bytes));
	ROW(out, "flash page table", "%.1f MiB", mib(st->flash_metadata_bytes));
	if (cache_on(st))
		ROW(out, "cache tables", "%.1f MiB", mib(st->cache_metadata_bytes +
		    st->cache_policy_metadata_bytes + st->cache_refcount_metadata_bytes));
	if (dedup_on(st))
		ROW(out, "dedup tables", "%.1f MiB", mib(st->dedup_metadata_bytes));
}

/* Read errors and injection (issue 24): shown once any of them happened or is set. */
static void print_read_errors(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "codewords corrected", "%llu", (unsigned long long)st->read_corrected_codewords);
	ROW(out, "read retries", "%llu page reads", (unsigned long long)st->flash_read_retry_pages);
	ROW(out, "uncorrectable reads", "%llu pages (%llu host reads, %llu by GC and the cache)",
	    (unsigned long long)st->read_uncorrectable_pages,
	    (unsigned long long)st->read_uncorrectable_host_pages,
	    (unsigned long long)(st->read_uncorrectable_pages - st->read_uncorrectable_host_pages));
	ROW(out, "host pages failed", "%llu reads, %llu writes",
	    (unsigned long long)st->host_read_error_pages,
	    (unsigned long long)st->host_write_error_pages);
	ROW(out, "injected ranges", "%llu", (unsigned long long)st->injected_error_ranges);
}

/*
 * Bad blocks and wear-out (stats version 10): shown when a block is bad,
 * an operation failed or the device reached its end of life.
 */
static void print_faults(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "bad blocks", "%llu factory, %llu grown (%llu valid pages moved out)",
	    (unsigned long long)st->bad_blocks_factory,
	    (unsigned long long)st->bad_blocks_grown,
	    (unsigned long long)st->retire_relocated_pages);
	ROW(out, "spare blocks", "%llu of %llu left", (unsigned long long)st->spare_blocks,
	    (unsigned long long)st->spare_blocks_initial);
	ROW(out, "failures", "%llu programs, %llu erases",
	    (unsigned long long)st->flash_program_failures,
	    (unsigned long long)st->flash_erase_failures);
	ROW(out, "read-only", "%s (%llu host pages refused)",
	    st->read_only ? "yes: end of life" : "no",
	    (unsigned long long)st->host_write_refused_pages);
}

static int faults_on(const struct ssdemu_stats *st)
{
	return st->bad_blocks_factory || st->bad_blocks_grown || st->flash_program_failures ||
	       st->flash_erase_failures || st->read_only;
}

/* Power cuts and the volatile write cache: shown once either did anything. */
static int power_on(const struct ssdemu_stats *st)
{
	return st->power_cuts || st->write_cache_dirty_pages || st->write_cache_hit_pages ||
	       st->write_cache_flushes || st->fua_writes;
}

static void print_power(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "power cuts", "%llu (%llu acknowledged pages lost)",
	    (unsigned long long)st->power_cuts,
	    (unsigned long long)st->power_cut_lost_pages);
	ROW(out, "write cache dirty", "%llu pages",
	    (unsigned long long)st->write_cache_dirty_pages);
	ROW(out, "write cache reads", "%llu pages served",
	    (unsigned long long)st->write_cache_hit_pages);
	ROW(out, "flushes, FUA writes", "%llu, %llu",
	    (unsigned long long)st->write_cache_flushes, (unsigned long long)st->fua_writes);
}

/* Requests that failed or were refused (stats version 11). */
static int failures_on(const struct ssdemu_stats *st)
{
	return st->failed_commands || st->refused_commands;
}

static void print_failures(FILE *out, const struct ssdemu_stats *st)
{
	ROW(out, "failed", "%llu requests (%llu reads, %llu writes)",
	    (unsigned long long)st->failed_commands,
	    (unsigned long long)st->read_failed_commands,
	    (unsigned long long)st->write_failed_commands);
	ROW(out, "refused", "%llu requests (%llu reads, %llu writes)",
	    (unsigned long long)st->refused_commands,
	    (unsigned long long)st->read_refused_commands,
	    (unsigned long long)st->write_refused_commands);
}

static int read_errors_on(const struct ssdemu_stats *st)
{
	return st->read_corrected_codewords || st->flash_read_retry_pages ||
	       st->read_uncorrectable_pages || st->host_read_error_pages ||
	       st->host_write_error_pages || st->injected_error_ranges;
}

static int timing_on(const struct ssdemu_stats *st)
{
	return st->commands != 0;
}

/* A group of the table: when it is shown (NULL: always) and its rows. */
struct group_view {
	int (*on)(const struct ssdemu_stats *st);
	void (*print)(FILE *out, const struct ssdemu_stats *st);
};

static const struct group_view views[STATS_GROUPS] = {
	[STATS_GROUP_device] = { NULL, print_device },
	[STATS_GROUP_host] = { NULL, print_host },
	[STATS_GROUP_flash] = { NULL, print_flash },
	[STATS_GROUP_gc] = { NULL, print_gc },
	[STATS_GROUP_wear] = { NULL, print_wear },
	[STATS_GROUP_read_errors] = { read_errors_on, print_read_errors },
	[STATS_GROUP_wear_out] = { faults_on, print_faults },
	[STATS_GROUP_failures] = { failures_on, print_failures },
	[STATS_GROUP_cache] = { cache_on, print_cache },
	[STATS_GROUP_dedup] = { dedup_on, print_dedup },
	[STATS_GROUP_power] = { power_on, print_power },
	[STATS_GROUP_timing] = { timing_on, print_timing },
	[STATS_GROUP_ram] = { NULL, print_ram },
};

/* The groups in the table's order, each under its title, if it is on. */
void stats_print_grouped(FILE *out, const struct ssdemu_stats *st)
{
	enum stats_group g;

	stats_print_warning(out, st);
	for (g = 0; g < STATS_GROUPS; g++) {
		if (views[g].on && !views[g].on(st))
			continue;
		fprintf(out, "%s\n", stats_group_title(g));
		views[g].print(out, st);
	}
}

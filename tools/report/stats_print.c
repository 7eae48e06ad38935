// SPDX-License-Identifier: GPL-2.0
/*
 * stats_print.c - the field table of struct ssdemu_stats and its text and
 * JSON renderings.  Fields the writer did not know (an older module with a
 * smaller struct) are left out rather than printed as zero.
 */
#include <stddef.h>
#include <string.h>

#include "tools/report/stats_print.h"

struct stat_field {
	const char *name;
	size_t offset;
};

#define STAT(field) { #field, offsetof(struct ssdemu_stats, field) }

static const struct stat_field stat_fields[] = {
	STAT(logical_capacity_bytes), STAT(physical_capacity_bytes),
	STAT(page_size_bytes), STAT(pages_per_block), STAT(total_blocks),
	STAT(free_blocks), STAT(valid_pages),
	STAT(host_read_bytes), STAT(host_write_bytes), STAT(host_trim_bytes),
	STAT(host_read_pages), STAT(host_write_pages), STAT(host_trim_pages),
	STAT(host_rmw_pages), STAT(host_flush_count),
	STAT(flash_program_pages), STAT(flash_program_host_pages),
	STAT(flash_program_gc_pages), STAT(flash_read_pages),
	STAT(flash_read_host_pages), STAT(flash_read_gc_pages),
	STAT(flash_erase_blocks), STAT(erase_count_total), STAT(erase_count_min),
	STAT(erase_count_max), STAT(erase_count_mean_milli),
	STAT(gc_victim_blocks), STAT(gc_relocated_pages), STAT(gc_foreground_runs),
	STAT(ftl_metadata_bytes), STAT(flash_metadata_bytes), STAT(data_bytes),
	STAT(virtual_time_ns),
	STAT(commands), STAT(command_latency_ns_total), STAT(queue_wait_ns_total),
	STAT(controller_busy_ns), STAT(channel_busy_ns_total), STAT(chip_busy_ns_total),
	STAT(timed_completions), STAT(late_completions), STAT(late_ns_total),
	STAT(late_ns_max), STAT(spare_buffer_bytes),
	STAT(read_commands), STAT(read_latency_ns_total),
	STAT(write_commands), STAT(write_latency_ns_total),
	STAT(data_limit_bytes),
	STAT(flash_program_slc_pages), STAT(flash_read_slc_pages),
	STAT(flash_erase_slc_blocks), STAT(slc_erase_count_total),
	STAT(slc_erase_count_max), STAT(slc_free_blocks), STAT(slc_valid_pages),
	STAT(gc_blocking_runs), STAT(gc_relocated_pages_write_max),
	STAT(gc_background_pages), STAT(gc_background_steps),
	STAT(cache_write_hit_pages), STAT(cache_admit_pages),
	STAT(cache_bypass_size_pages), STAT(cache_bypass_dice_pages),
	STAT(cache_bypass_policy_pages), STAT(cache_evict_pages),
	STAT(cache_read_hit_pages), STAT(cache_pages), STAT(cache_capacity_pages),
	STAT(cache_metadata_bytes), STAT(cache_policy_metadata_bytes),
	STAT(flash_program_destage_pages), STAT(flash_read_destage_pages),
	STAT(flash_program_tlc_pages), STAT(flash_erase_tlc_blocks),
	STAT(dedup_chunks_written), STAT(dedup_fingerprinted_chunks),
	STAT(dedup_late_fingerprints), STAT(dedup_filtered_chunks),
	STAT(dedup_duplicate_chunks), STAT(dedup_store_hits),
	STAT(dedup_store_misses), STAT(dedup_store_evictions),
	STAT(dedup_buffer_rewrites), STAT(dedup_buffer_trims),
	STAT(dedup_buffer_reads), STAT(dedup_programs_avoided),
	STAT(dedup_logical_pages), STAT(dedup_physical_pages),
	STAT(dedup_buffered_pages), STAT(dedup_store_used_entries),
	STAT(dedup_store_capacity_entries), STAT(dedup_store_entry_bytes),
	STAT(dedup_metadata_bytes), STAT(dedup_break_even_ppm),
	STAT(dedup_engine_busy_ns),
	STAT(cache_bypass_delay_pages), STAT(cache_bypass_inout_pages),
	STAT(cache_read_miss_pages), STAT(cache_fill_pages),
	STAT(cache_written_host_bytes), STAT(cache_written_fill_bytes),
	STAT(cache_refcount_metadata_bytes), STAT(flash_program_fill_pages),
	STAT(cache_destage_foreground_pages), STAT(cache_destage_background_pages),
	STAT(cache_trim_pages), STAT(dedup_hash_wait_ns), STAT(dedup_engine_load_ppm),
	STAT(ftl_map_ram_bytes),
	STAT(erase_count_stddev_milli), STAT(wl_static_migrations), STAT(wl_static_pages),
	STAT(flash_program_map_pages), STAT(flash_read_map_pages),
	STAT(dftl_cmt_hits), STAT(dftl_cmt_misses), STAT(dftl_translation_reads),
	STAT(dftl_translation_writes), STAT(dftl_translation_gc_pages),
	STAT(ftl_switch_merges), STAT(ftl_partial_merges),
	STAT(ftl_full_merges), STAT(ftl_merge_erases), STAT(flash_program_merge_pages),
	STAT(flash_read_merge_pages),
	STAT(erase_hist_bucket_width),
	STAT(erase_hist_0), STAT(erase_hist_1), STAT(erase_hist_2), STAT(erase_hist_3),
	STAT(erase_hist_4), STAT(erase_hist_5), STAT(erase_hist_6), STAT(erase_hist_7),
	STAT(erase_hist_8), STAT(erase_hist_9), STAT(erase_hist_10), STAT(erase_hist_11),
	STAT(erase_hist_12), STAT(erase_hist_13), STAT(erase_hist_14), STAT(erase_hist_15),
	/* Read errors and injection (issue 24, i24-rber). */
	STAT(flash_read_retry_pages), STAT(read_corrected_codewords),
	STAT(read_uncorrectable_pages), STAT(read_uncorrectable_host_pages),
	STAT(host_read_error_pages), STAT(host_write_error_pages), STAT(injected_error_ranges),
	/* Bad blocks and wear-out (i24-wear). */
	STAT(bad_blocks_factory), STAT(bad_blocks_grown), STAT(spare_blocks),
	STAT(spare_blocks_initial), STAT(flash_program_failures), STAT(flash_erase_failures),
	STAT(read_only), STAT(host_write_refused_pages), STAT(retire_relocated_pages),
	/* Power cuts and the volatile write cache (i24-power). */
	STAT(power_cuts), STAT(power_cut_lost_pages), STAT(write_cache_dirty_pages),
	STAT(write_cache_hit_pages), STAT(write_cache_flushes), STAT(fua_writes),
};

/* Every u64 after the 8-byte header is in the table, and only once. */
_Static_assert(sizeof(stat_fields) / sizeof(stat_fields[0]) * sizeof(__u64) +
	       offsetof(struct ssdemu_stats, logical_capacity_bytes) ==
	       sizeof(struct ssdemu_stats), "stat_fields misses a field");

static int field_known(const struct ssdemu_stats *st, const struct stat_field *f)
{
	return f->offset + sizeof(__u64) <= st->struct_bytes;
}

static unsigned long long field_value(const struct ssdemu_stats *st,
				      const struct stat_field *f)
{
	return *(const __u64 *)((const char *)st + f->offset);
}

size_t stats_field_count(void)
{
	return sizeof(stat_fields) / sizeof(stat_fields[0]);
}

const char *stats_field_name(size_t i)
{
	return i < stats_field_count() ? stat_fields[i].name : NULL;
}

int stats_field_get(const struct ssdemu_stats *st, size_t i, unsigned long long *value)
{
	if (i >= stats_field_count() || !field_known(st, &stat_fields[i]))
		return 0;
	*value = field_value(st, &stat_fields[i]);
	return 1;
}

int stats_field_set(struct ssdemu_stats *st, const char *name, unsigned long long value)
{
	size_t i;

	for (i = 0; i < stats_field_count(); i++) {
		if (!strcmp(stat_fields[i].name, name)) {
			*(__u64 *)((char *)st + stat_fields[i].offset) = value;
			return 1;
		}
	}
	return 0;
}

/*
 * Mean latency in microseconds of @commands commands summing @total_ns;
 * < 0 if undefined (no such command, or a writer without these fields).
 */
static double stats_mean_us(const struct ssdemu_stats *st, size_t commands_offset,
			    __u64 commands, __u64 total_ns)
{
	if (commands_offset + 2 * sizeof(__u64) > st->struct_bytes || !commands)
		return -1.0;
	return (double)total_ns / 1000.0 / (double)commands;
}

static double stats_read_mean_us(const struct ssdemu_stats *st)
{
	return stats_mean_us(st, offsetof(struct ssdemu_stats, read_commands),
			     st->read_commands, st->read_latency_ns_total);
}

static double stats_write_mean_us(const struct ssdemu_stats *st)
{
	return stats_mean_us(st, offsetof(struct ssdemu_stats, write_commands),
			     st->write_commands, st->write_latency_ns_total);
}

/* WAF = bytes programmed into flash / bytes the host wrote; < 0 if undefined. */
static double stats_waf(const struct ssdemu_stats *st)
{
	if (!st->host_write_bytes)
		return -1.0;
	return (double)st->flash_program_pages * st->page_size_bytes /
	       (double)st->host_write_bytes;
}

/* Logical pages holding data per page stored (dedup=1); < 0 if undefined. */
static double stats_dedup_ratio(const struct ssdemu_stats *st)
{
	if (offsetof(struct ssdemu_stats, dedup_physical_pages) + sizeof(__u64) >
	    st->struct_bytes || !st->dedup_physical_pages)
		return -1.0;
	return (double)st->dedup_logical_pages / (double)st->dedup_physical_pages;
}

static void print_mean_text(FILE *out, const char *name, double mean_us)
{
	if (mean_us < 0)
		fprintf(out, "%-28s n/a\n", name);
	else
		fprintf(out, "%-28s %.3f\n", name, mean_us);
}

static void print_mean_json(FILE *out, const char *name, double mean_us)
{
	if (mean_us < 0)
		fprintf(out, ",\n  \"%s\": null", name);
	else
		fprintf(out, ",\n  \"%s\": %.3f", name, mean_us);
}

void stats_print_text(FILE *out, const struct ssdemu_stats *st)
{
	double waf = stats_waf(st);
	size_t i;

	fprintf(out, "%-28s %u\n", "stats_version", st->version);
	for (i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]); i++)
		if (field_known(st, &stat_fields[i]))
			fprintf(out, "%-28s %llu\n", stat_fields[i].name,
				field_value(st, &stat_fields[i]));
	fprintf(out, "%-28s %.3f\n", "erase_count_mean",
		st->erase_count_mean_milli / 1000.0);
	if (waf < 0)
		fprintf(out, "%-28s n/a (no host writes)\n", "waf");
	else
		fprintf(out, "%-28s %.3f\n", "waf", waf);
	print_mean_text(out, "read_latency_mean_us", stats_read_mean_us(st));
	print_mean_text(out, "write_latency_mean_us", stats_write_mean_us(st));
	if (stats_dedup_ratio(st) >= 0)
		fprintf(out, "%-28s %.3f\n", "dedup_ratio", stats_dedup_ratio(st));
}

void stats_print_json_fields(FILE *out, const struct ssdemu_stats *st)
{
	double waf = stats_waf(st);
	size_t i;

	fprintf(out, "{\n  \"stats_version\": %u", st->version);
	for (i = 0; i < sizeof(stat_fields) / sizeof(stat_fields[0]); i++)
		if (field_known(st, &stat_fields[i]))
			fprintf(out, ",\n  \"%s\": %llu", stat_fields[i].name,
				field_value(st, &stat_fields[i]));
	fprintf(out, ",\n  \"erase_count_mean\": %.3f",
		st->erase_count_mean_milli / 1000.0);
	if (waf < 0)
		fprintf(out, ",\n  \"waf\": null");
	else
		fprintf(out, ",\n  \"waf\": %.6f", waf);
	print_mean_json(out, "read_latency_mean_us", stats_read_mean_us(st));
	print_mean_json(out, "write_latency_mean_us", stats_write_mean_us(st));
	if (stats_dedup_ratio(st) >= 0)
		fprintf(out, ",\n  \"dedup_ratio\": %.6f", stats_dedup_ratio(st));
}

void stats_print_json(FILE *out, const struct ssdemu_stats *st)
{
	stats_print_json_fields(out, st);
	fprintf(out, "\n}\n");
}

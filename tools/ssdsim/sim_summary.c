// SPDX-License-Identifier: GPL-2.0
/*
 * sim_summary.c - the one-screen summary (sim_summary.h).
 */
#include <string.h>

#include "abi/ssd_abi.h"
#include "tools/report/stats_derived.h"
#include "tools/report/stats_faults.h"
#include "tools/ssdsim/sim_summary.h"

static double mib(u64 bytes)
{
	return (double)bytes / (1 << 20);
}

static double share(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

u64 sim_window_ns(const struct sim_run *run)
{
	const struct sim_window *w = &run->window;

	return w->last_completion_ns > w->from_ns ? w->last_completion_ns - w->from_ns : 0;
}

/* The keys not at their default, "key=value" wrapped under a heading. */
static void print_config(FILE *out, const struct ssd_config *cfg)
{
	struct ssd_config def;
	unsigned int col = 13, shown = 0;

	ssd_config_defaults(&def);
	fprintf(out, "%-13s", "config");
	for (unsigned int k = 0, nr = ssd_config_nr_keys(); k < nr; k++) {
		const struct ssd_config_key *key = ssd_config_key_at(k);
		char value[64], pair[160];
		int len;

		if (ssd_config_get(cfg, key) == ssd_config_get(&def, key))
			continue;
		ssd_config_show(cfg, key, value, sizeof(value));
		value[strcspn(value, "\n")] = '\0';
		len = snprintf(pair, sizeof(pair), "%s=%s", key->name, value);
		if (shown && col + 1 + len > 100) {
			fprintf(out, "\n%-13s", "");
			col = 13;
		} else if (shown) {
			fputc(' ', out);
			col++;
		}
		fputs(pair, out);
		col += len;
		shown++;
	}
	fprintf(out, "%s\n", shown ? "" : "every key at its default");
	fprintf(out, "%-13s(keys not at their default; --verbose or --json: all)\n", "");
}

static void print_replay(FILE *out, const struct sim_replay_result *r)
{
	fprintf(out, "%-13s", "replay");
	if (r->iodepth)
		fprintf(out, "closed loop, iodepth %u", r->iodepth);
	else
		fprintf(out, "open loop (the trace's times)");
	if (r->filled)
		fprintf(out, "; filled to %g first", r->fill_fraction);
	if (r->warmup)
		fprintf(out, "; %u warm-up pass%s", r->warmup, r->warmup > 1 ? "es" : "");
	if (r->measure_set)
		fprintf(out, "; measured from request %llu (%.3f s into the pass)",
			(unsigned long long)r->window_from_request, r->window_from_pass_ns / 1e9);
	fprintf(out, "\n");
}

static void print_host(FILE *out, const struct sim_replay_result *r,
		       const struct ssdemu_stats *st)
{
	double s = r->window_ns / 1e9;

	fprintf(out, "%-13sread %.1f MiB, written %.1f MiB, trimmed %.1f MiB; working set %.1f MiB",
		"host", mib(st->host_read_bytes), mib(st->host_write_bytes),
		mib(st->host_trim_bytes), mib(st->working_set_pages * st->page_size_bytes));
	if (s > 0)
		fprintf(out, "; %.3f s: %.0f IOPS, %.1f MB/s", s, r->requests / s,
			(st->host_read_bytes + st->host_write_bytes) / s / 1e6);
	fprintf(out, "\n");
}

static void print_flash(FILE *out, const struct ssdemu_stats *st)
{
	double waf = stats_waf(st), tlc = stats_waf_tlc(st);

	fprintf(out, "%-13s%llu pages: host %llu, GC %llu", "programs",
		(unsigned long long)st->flash_program_pages,
		(unsigned long long)st->flash_program_host_pages,
		(unsigned long long)st->flash_program_gc_pages);
	if (st->flash_program_destage_pages)
		fprintf(out, ", destage %llu", (unsigned long long)st->flash_program_destage_pages);
	if (st->flash_program_map_pages)
		fprintf(out, ", map %llu", (unsigned long long)st->flash_program_map_pages);
	if (st->flash_program_merge_pages)
		fprintf(out, ", merge %llu", (unsigned long long)st->flash_program_merge_pages);
	fprintf(out, "; SLC %llu, TLC %llu\n", (unsigned long long)st->flash_program_slc_pages,
		(unsigned long long)st->flash_program_tlc_pages);
	fprintf(out, "%-13s%llu blocks: SLC %llu, TLC %llu; erase count max %llu, mean %.3f\n",
		"erases", (unsigned long long)st->flash_erase_blocks,
		(unsigned long long)st->flash_erase_slc_blocks,
		(unsigned long long)st->flash_erase_tlc_blocks,
		(unsigned long long)st->erase_count_max, stats_erase_count_mean(st));
	if (waf < 0)
		fprintf(out, "%-13sn/a (no host writes)\n", "WAF");
	else
		fprintf(out, "%-13s%.3f (all programs), TLC-only %.3f\n", "WAF", waf, tlc);
	if (st->bad_blocks_factory || st->bad_blocks_grown || st->read_only)
		fprintf(out, "%-13s%llu bad blocks (%llu factory, %llu grown: %llu program, %llu erase failures), %llu of %llu spares left%s\n",
			"wear-out", (unsigned long long)(st->bad_blocks_factory + st->bad_blocks_grown),
			(unsigned long long)st->bad_blocks_factory,
			(unsigned long long)st->bad_blocks_grown,
			(unsigned long long)st->flash_program_failures,
			(unsigned long long)st->flash_erase_failures,
			(unsigned long long)st->spare_blocks,
			(unsigned long long)st->spare_blocks_initial,
			st->read_only ? "; READ-ONLY (end of life)" : "");
	if (st->host_write_refused_pages)
		fprintf(out, "%-13s%llu host pages written or trimmed after the end of life\n",
			"refused", (unsigned long long)st->host_write_refused_pages);
	fprintf(out, "%-13s%llu victim blocks, %llu pages relocated, %llu foreground runs, %llu background pages\n",
		"GC", (unsigned long long)st->gc_victim_blocks,
		(unsigned long long)st->gc_relocated_pages,
		(unsigned long long)st->gc_foreground_runs,
		(unsigned long long)st->gc_background_pages);
}

static void print_cache(FILE *out, const struct ssd_config *cfg, const struct ssdemu_stats *st)
{
	if (!cfg->cache_policy)
		return;
	fprintf(out, "%-13s%s/%s, %llu pages: write hit ratio %.4f, admitted %llu, bypassed %llu, evicted %llu, read hits %llu\n",
		"cache", ssd_config_choice_name(cfg, "cache_policy"),
		ssd_config_choice_name(cfg, "cache_replacement"),
		(unsigned long long)st->cache_capacity_pages, stats_cache_write_hit_ratio(st),
		(unsigned long long)st->cache_admit_pages, stats_cache_bypass_pages(st),
		(unsigned long long)st->cache_evict_pages,
		(unsigned long long)st->cache_read_hit_pages);
}

static void print_dedup(FILE *out, const struct ssd_config *cfg, const struct ssdemu_stats *st)
{
	if (!cfg->dedup)
		return;
	fprintf(out, "%-13s%llu chunks written, %llu duplicates, %llu programs avoided; %llu logical pages on %llu stored",
		"dedup", (unsigned long long)st->dedup_chunks_written,
		(unsigned long long)st->dedup_duplicate_chunks,
		(unsigned long long)st->dedup_programs_avoided,
		(unsigned long long)st->dedup_logical_pages,
		(unsigned long long)st->dedup_physical_pages);
	if (stats_dedup_ratio(st) >= 0)
		fprintf(out, " (ratio %.3f)", stats_dedup_ratio(st));
	fprintf(out, "\n");
}

/* Every fault, error and refusal counter that is not zero (stats_faults.h). */
static void print_faults(FILE *out, const struct ssdemu_stats *st)
{
	if (!stats_fault_count(st))
		return;
	fprintf(out, "%-13s", "faults");
	stats_print_faults(out, st, 13, 100);
}

void sim_print_summary(FILE *out, const struct sim_result *res)
{
	const struct sim_replay_result *r = &res->replay;
	const struct ssdemu_stats *st = &res->stats;
	const struct ssd_config *cfg = &res->cfg;

	/* A failed or refused request is said first: no figure below hides it. */
	stats_print_warning(out, st);
	fprintf(out, "%-13s%s (%s): %llu requests measured", "trace", r->trace_path,
		r->trace_format, (unsigned long long)r->requests);
	if (r->wrapped_requests)
		fprintf(out, ", %llu wrapped", (unsigned long long)r->wrapped_requests);
	if (r->zero_length_requests)
		fprintf(out, ", %llu skipped (no data)", (unsigned long long)r->zero_length_requests);
	fprintf(out, "\n");
	print_replay(out, r);
	print_config(out, cfg);
	fprintf(out, "%-13s%.1f MiB logical, %.1f MiB physical, %llu-byte pages; %.1f%% of the logical pages valid\n",
		"device", mib(st->logical_capacity_bytes), mib(st->physical_capacity_bytes),
		(unsigned long long)st->page_size_bytes,
		100 * share(st->valid_pages * st->page_size_bytes, st->logical_capacity_bytes));
	print_host(out, r, st);
	print_flash(out, st);
	print_cache(out, cfg, st);
	print_dedup(out, cfg, st);
	print_faults(out, st);
	sim_report_print_latency(out, "read latency", &r->read);
	sim_report_print_latency(out, "write latency", &r->write);
	fprintf(out, "(--verbose: every counter; --json: all of it; --fields a,b --csv: chosen ones)\n");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_results.c - what ssdsim prints at the end of a run (sim_run.h): the
 * device's statistics, the report, the write cache's figures and the
 * warnings about how the trace was placed.
 */
#include <string.h>

#include "abi/ssd_abi.h"
#include "host-tools/sim_run.h"
#include "host-tools/stats_print.h"

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* The write cache's figures: online hit ratio, and the off-line bound. */
static void print_cache_text(const struct ssd_stats *st, unsigned int warmup, int belady,
			     u64 capacity, u64 hits, u64 writes)
{
	printf("%-28s %u\n", "warmup_passes", warmup);
	printf("%-28s %.6f\n", "cache_write_hit_ratio",
	       ratio(st->cache_write_hit_pages, st->host_write_pages));
	if (!belady)
		return;
	printf("%-28s %llu\n", "belady_capacity_pages", (unsigned long long)capacity);
	printf("%-28s %llu\n", "belady_write_pages", (unsigned long long)writes);
	printf("%-28s %llu\n", "belady_write_hit_pages", (unsigned long long)hits);
	printf("%-28s %.6f\n", "belady_write_hit_ratio", ratio(hits, writes));
}

static void print_cache_json(const struct ssd_stats *st, unsigned int warmup, int belady,
			     u64 capacity, u64 hits, u64 writes)
{
	printf(",\n  \"warmup_passes\": %u", warmup);
	printf(",\n  \"cache_write_hit_ratio\": %.6f",
	       ratio(st->cache_write_hit_pages, st->host_write_pages));
	if (!belady)
		return;
	printf(",\n  \"belady\": {\"capacity_pages\": %llu, \"write_pages\": %llu, "
	       "\"write_hit_pages\": %llu, \"write_hit_ratio\": %.6f}",
	       (unsigned long long)capacity, (unsigned long long)writes,
	       (unsigned long long)hits, ratio(hits, writes));
}

/* The disks as "0 (437 requests), 1 (461 requests), ..." on stderr. */
void sim_list_disks(const struct trace_disks *disks)
{
	char name[48];
	size_t i;

	for (i = 0; i < disks->count; i++) {
		trace_disk_name(disks->pair, disks->v[i].device, name, sizeof(name));
		fprintf(stderr, "%s%s (%llu requests)", i ? ", " : "", name,
			(unsigned long long)disks->v[i].requests);
	}
}

/* @bytes in MiB or GiB, for messages. */
static void human(u64 bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, size, "%.1f MiB", (double)bytes / (1ULL << 20));
}

/* Say on stderr when the trace's addresses were bent to fit the device. */
static void warn_placement(const struct sim_run *run)
{
	const struct sim_report *r = &run->report;
	char cap[32], span[32], footprint[32];
	const char *one_disk = run->o->disk.set ? "" : "replay one disk with --disk, or ";

	human(run->place.capacity_bytes, cap, sizeof(cap));
	human(r->span_bytes, span, sizeof(span));
	human(r->remap_footprint_bytes, footprint, sizeof(footprint));
	if (r->wrapped_requests && !r->remap_dense)
		fprintf(stderr, "ssdsim: warning: %llu of %llu requests lay beyond the device's %s (the trace spans %s) and wrapped around it: rewrites, cache hits and GC are then the wrap's, not the trace's.  Pack the touched addresses with --remap dense, %suse a larger device.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, span, one_disk);
	else if (r->wrapped_requests)
		fprintf(stderr, "ssdsim: warning: %llu of %llu requests wrapped around the device's %s: the units the trace touches take %s even packed (--remap dense).  %s.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, footprint, run->o->disk.set ? "Use a larger device" :
			"Replay one disk with --disk, or use a larger device");
	if (!run->o->disk.set && !r->remap_dense && run->tr.disks.count > 1) {
		fprintf(stderr, "ssdsim: warning: the trace holds %zu disks, replayed into one address space (their requests share addresses): ",
			run->tr.disks.count);
		sim_list_disks(&run->tr.disks);
		fprintf(stderr, ".  Replay one with --disk, or keep them apart with --remap dense.\n");
	}
}

/* Statistics, the report and the write cache's figures on stdout. */
int sim_print_results(struct sim_run *run, const struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct sim_report *r = &run->report;
	u64 belady_hits = 0, belady_capacity = 0;
	struct ssdemu_stats st;
	struct ssd_stats core_st;

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (o->belady) {
		belady_capacity = core_st.cache_capacity_pages ? core_st.cache_capacity_pages :
				  cfg->cache_pages;
		if (belady_write_hits(&run->seq, belady_capacity, o->warmup, &belady_hits))
			{
			fprintf(stderr, "ssdsim: out of memory\n");
			return -1;
		}
	}
	r->requests = run->requests;
	r->trace_path = o->trace_path;
	r->trace_format = trace_format_name(run->tr.format);
	r->disks = &run->tr.disks;
	r->disk = o->disk;
	r->remap_dense = o->remap_dense;
	r->remap_unit_bytes = run->place.unit_bytes;
	r->remap_footprint_bytes = sim_place_footprint_bytes(&run->place);
	r->final_flush = o->final_flush;
	if (o->json) {
		stats_print_json_fields(stdout, &st);
		sim_report_print_json(stdout, r, cfg);
		print_cache_json(&core_st, o->warmup, o->belady, belady_capacity, belady_hits,
				 run->seq.count);
		printf("\n}\n");
	} else {
		stats_print_text(stdout, &st);
		sim_report_print_text(stdout, r, cfg);
		print_cache_text(&core_st, o->warmup, o->belady, belady_capacity, belady_hits,
				 run->seq.count);
	}
	warn_placement(run);
	return 0;
}

/* The device's statistics alone, then what aging did (@age, if any). */
void sim_print_device(struct sim_run *run, const struct sim_age_result *age)
{
	struct ssdemu_stats st;
	struct ssd_stats core_st;

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (run->o->json) {
		stats_print_json_fields(stdout, &st);
		if (age)
			sim_age_print_json(stdout, age);
		printf("\n}\n");
	} else {
		stats_print_text(stdout, &st);
		if (age)
			sim_age_print_text(stdout, age);
	}
}

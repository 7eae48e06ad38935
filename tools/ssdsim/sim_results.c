// SPDX-License-Identifier: GPL-2.0
/*
 * sim_results.c - what ssdsim prints at the end of a run (sim_run.h): the
 * device's statistics, the report, the write cache's figures and the
 * warnings about how the trace was placed.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/ssd_abi.h"
#include "tools/ssdsim/sim_fields.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_summary.h"
#include "tools/report/stats_derived.h"
#include "tools/report/stats_print.h"
#include "tools/msg/msg.h"

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* The write cache's figures: online hit ratio, and the off-line bound. */
static void print_cache_text(FILE *out, const struct ssdemu_stats *st, unsigned int warmup,
			     int belady, u64 capacity, u64 hits, u64 writes)
{
	fprintf(out, "%-28s %u\n", "warmup_passes", warmup);
	fprintf(out, "%-28s %.6f\n", "cache_write_hit_ratio", stats_cache_write_hit_ratio(st));
	if (!belady)
		return;
	fprintf(out, "%-28s %llu\n", "belady_capacity_pages", (unsigned long long)capacity);
	fprintf(out, "%-28s %llu\n", "belady_write_pages", (unsigned long long)writes);
	fprintf(out, "%-28s %llu\n", "belady_write_hit_pages", (unsigned long long)hits);
	fprintf(out, "%-28s %.6f\n", "belady_write_hit_ratio", ratio(hits, writes));
}

static void print_cache_json(FILE *out, const struct ssdemu_stats *st, unsigned int warmup,
			     int belady, u64 capacity, u64 hits, u64 writes)
{
	fprintf(out, ",\n  \"warmup_passes\": %u", warmup);
	fprintf(out, ",\n  \"cache_write_hit_ratio\": %.6f", stats_cache_write_hit_ratio(st));
	if (!belady)
		return;
	fprintf(out, ",\n  \"belady\": {\"capacity_pages\": %llu, \"write_pages\": %llu, "
		"\"write_hit_pages\": %llu, \"write_hit_ratio\": %.6f}",
		(unsigned long long)capacity, (unsigned long long)writes,
		(unsigned long long)hits, ratio(hits, writes));
}

/* The instrument's figures: TLC-only WAF, the loop, the fill, the window. */
static void print_instrument_json(FILE *out, const struct sim_run *run,
				  const struct ssdemu_stats *st, bool saturated)
{
	const struct sim_window *w = &run->window;
	double waf_tlc = stats_waf_tlc(st), s = sim_window_ns(run) / 1e9;

	if (waf_tlc < 0)
		fprintf(out, ",\n  \"waf_tlc\": null");
	else
		fprintf(out, ",\n  \"waf_tlc\": %.6f", waf_tlc);
	/* How the run measured, in one object (not a device counter). */
	if (run->o->iodepth)
		fprintf(out, ",\n  \"run\": {\"iodepth\": %u", run->o->iodepth);
	else
		fprintf(out, ",\n  \"run\": {\"iodepth\": null");
	if (run->filled)
		fprintf(out, ", \"fill\": {\"fraction\": %g, \"bytes\": %llu, \"requests\": %llu}",
			run->o->fill, (unsigned long long)run->fill.fill_bytes,
			(unsigned long long)run->fill.requests);
	else
		fprintf(out, ", \"fill\": null");
	fprintf(out, ", \"window\": {\"from_request\": %llu, \"from_ns\": %llu, \"from_pass_ns\": %llu, \"requests\": %llu, \"duration_ns\": %llu, \"iops\": %.3f, \"read_mb_per_s\": %.3f, \"write_mb_per_s\": %.3f}",
		(unsigned long long)w->from_request, (unsigned long long)w->from_ns,
		(unsigned long long)w->from_pass_ns, (unsigned long long)run->requests,
		(unsigned long long)sim_window_ns(run), s > 0 ? run->requests / s : 0.0,
		s > 0 ? st->host_read_bytes / s / 1e6 : 0.0,
		s > 0 ? st->host_write_bytes / s / 1e6 : 0.0);
	fprintf(out, ", \"time_scale\": %g, \"saturated\": %s}", run->o->time_scale,
		saturated ? "true" : "false");
}

/* The instrument's lines in --verbose text. */
static void print_instrument_text(FILE *out, const struct sim_run *run,
				  const struct ssdemu_stats *st, bool saturated)
{
	const struct sim_window *w = &run->window;
	double waf_tlc = stats_waf_tlc(st), s = sim_window_ns(run) / 1e9;

	if (waf_tlc < 0)
		fprintf(out, "%-28s n/a (no host writes)\n", "waf_tlc");
	else
		fprintf(out, "%-28s %.3f\n", "waf_tlc", waf_tlc);
	fprintf(out, "%-28s %u\n", "iodepth", run->o->iodepth);
	if (run->filled)
		fprintf(out, "%-28s %g (%llu bytes, %llu requests)\n", "fill", run->o->fill,
			(unsigned long long)run->fill.fill_bytes,
			(unsigned long long)run->fill.requests);
	fprintf(out, "%-28s %llu\n", "window_from_request", (unsigned long long)w->from_request);
	fprintf(out, "%-28s %llu\n", "window_from_pass_ns", (unsigned long long)w->from_pass_ns);
	fprintf(out, "%-28s %llu\n", "window_duration_ns",
		(unsigned long long)sim_window_ns(run));
	fprintf(out, "%-28s %.3f\n", "window_iops", s > 0 ? run->requests / s : 0.0);
	fprintf(out, "%-28s %d\n", "saturated", saturated);
}

/* The disks as "0 (437 requests), 1 (461 requests), ..." on stderr. */
void sim_list_disks(const struct trace_disks *disks)
{
	char name[48];
	size_t i;

	for (i = 0; i < disks->count; i++) {
		trace_disks_name(disks, disks->v[i].device, name, sizeof(name));
		msg_say("%s%s (%llu requests)", i ? ", " : "", name,
			(unsigned long long)disks->v[i].requests);
	}
}

/* Every key as "config.NAME value" lines (--verbose). */
static void print_config_text(FILE *out, const struct ssd_config *cfg)
{
	for (unsigned int k = 0, nr = ssd_config_nr_keys(); k < nr; k++) {
		const struct ssd_config_key *key = ssd_config_key_at(k);
		char value[64], name[80];

		ssd_config_show(cfg, key, value, sizeof(value));
		snprintf(name, sizeof(name), "config.%s", key->name);
		fprintf(out, "%-28s %s", name, value);
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
		msg_say("ssdsim: warning: %llu of %llu requests lay beyond the device's %s (the trace spans %s) and wrapped around it: rewrites, cache hits and GC are then the wrap's, not the trace's.  Pack the touched addresses with --remap dense, %suse a larger device.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, span, one_disk);
	else if (r->wrapped_requests)
		msg_say("ssdsim: warning: %llu of %llu requests wrapped around the device's %s: the units the trace touches take %s even packed (--remap dense).  %s.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, footprint, run->o->disk.set ? "Use a larger device" :
			"Replay one disk with --disk, or use a larger device");
	if (!run->o->disk.set && !r->remap_dense && run->tr.disks.count > 1) {
		msg_say("ssdsim: warning: the trace holds %zu disks, replayed into one address space (their requests share addresses): ",
			run->tr.disks.count);
		sim_list_disks(&run->tr.disks);
		msg_say(".  Replay one with --disk, or keep them apart with --remap dense.\n");
	}
}

/*
 * An open-loop replay saturates the device when its queue keeps growing:
 * the mean latency rises quarter after quarter of the requests, the last
 * quarter's is over 4 times the first's, and when the last request
 * arrived the device still had more than a tenth of the trace's span
 * (and over 1 ms) of work queued.  A slow device (GC starting halfway)
 * raises the latency to a new level instead and does not end that far
 * behind.
 */
bool sim_saturated(const struct sim_run *run, double q[4])
{
	const struct sim_window *w = &run->window;
	u64 span = w->last_arrival_ns - w->from_ns, backlog;

	if (run->o->iodepth || run->requests < 1000 || !sim_trend_quarters(&run->trend, q))
		return false;
	backlog = w->last_completion_ns > w->last_arrival_ns ?
		  w->last_completion_ns - w->last_arrival_ns : 0;
	return q[1] > q[0] && q[2] > q[1] && q[3] > q[2] && q[3] > 4 * q[0] &&
	       backlog > 1000000 && backlog > span / 10;
}

static void warn_saturated(const struct sim_run *run, const double q[4])
{
	const struct sim_window *w = &run->window;

	msg_say("ssdsim: warning: the trace arrives faster than the device serves it: the queue kept growing (mean latency by quarter of the requests %.3f, %.3f, %.3f, %.3f ms; %.3f s of work still queued when the last request arrived, %.3f s after the first).  The latencies measure that queue, and grow with the trace's length.  Keep N requests in flight instead (--iodepth N), or slow the trace down (--time-scale F, F > 1 stretches its times).\n",
		q[0] / 1e6, q[1] / 1e6, q[2] / 1e6, q[3] / 1e6,
		(w->last_completion_ns - w->last_arrival_ns) / 1e9,
		(w->last_arrival_ns - w->from_ns) / 1e9);
}

/* Names --fields takes that a run prints only when defined. */
static const char *const sometimes_fields[] = { "dedup_ratio", "belady.capacity_pages",
	"belady.write_pages", "belady.write_hit_pages", "belady.write_hit_ratio",
	"run.fill.fraction", "run.fill.bytes", "run.fill.requests", NULL };

/* The whole JSON object on @out. */
static void print_json(FILE *out, struct sim_run *run, const struct ssd_config *cfg,
		       const struct ssdemu_stats *st, u64 belady_capacity, u64 belady_hits,
		       bool saturated)
{
	const struct sim_options *o = run->o;

	stats_print_json_fields(out, st);
	sim_report_print_json(out, &run->report, cfg);
	print_cache_json(out, st, o->warmup, o->belady, belady_capacity, belady_hits,
			 run->seq.count);
	print_instrument_json(out, run, st, saturated);
	fprintf(out, "\n}\n");
}

/* --fields/--csv: the JSON rendered in memory, the chosen fields of it. */
static int print_fields(struct sim_run *run, const struct ssd_config *cfg,
			const struct ssdemu_stats *st, u64 belady_capacity, u64 belady_hits,
			bool saturated)
{
	char *json = NULL;
	size_t bytes = 0;
	FILE *mem = open_memstream(&json, &bytes);
	int ret;

	if (!mem) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	print_json(mem, run, cfg, st, belady_capacity, belady_hits, saturated);
	if (fclose(mem)) {
		free(json);
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	ret = sim_fields_print(stdout, json, run->o->fields, run->o->csv, sometimes_fields);
	free(json);
	return ret;
}

int sim_check_fields(struct sim_run *run, const struct ssd_config *cfg)
{
	struct ssdemu_stats st;
	struct ssd_stats core_st;
	char *json = NULL;
	size_t bytes = 0;
	FILE *mem;
	int ret;

	if (!run->o->fields)
		return 0;
	mem = open_memstream(&json, &bytes);
	if (!mem) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	run->report.trace_path = run->o->trace_path;
	run->report.trace_format = trace_format_name(run->o->format);
	print_json(mem, run, cfg, &st, 0, 0, false);
	ret = fclose(mem);
	ret = ret ? -1 : sim_fields_check(json, run->o->fields, sometimes_fields);
	free(json);
	return ret;
}

/* Statistics, the report and the write cache's figures on stdout. */
int sim_print_results(struct sim_run *run, const struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct sim_report *r = &run->report;
	u64 belady_hits = 0, belady_capacity = 0;
	struct ssdemu_stats st;
	struct ssd_stats core_st;
	bool saturated;
	double q[4];

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (o->belady) {
		belady_capacity = core_st.cache_capacity_pages ? core_st.cache_capacity_pages :
				  cfg->cache_pages;
		if (belady_write_hits(&run->seq, belady_capacity, o->warmup, &belady_hits)) {
			msg_say("ssdsim: out of memory\n");
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
	saturated = sim_saturated(run, q);
	if (o->fields || o->csv) {
		if (print_fields(run, cfg, &st, belady_capacity, belady_hits, saturated))
			return -1;
	} else if (o->json) {
		print_json(stdout, run, cfg, &st, belady_capacity, belady_hits,
			   saturated);
	} else if (o->verbose) {
		stats_print_text(stdout, &st);
		sim_report_print_text(stdout, r, cfg);
		print_cache_text(stdout, &st, o->warmup, o->belady, belady_capacity,
				 belady_hits, run->seq.count);
		print_instrument_text(stdout, run, &st, saturated);
		print_config_text(stdout, cfg);
	} else {
		sim_print_summary(stdout, run, cfg, &st);
	}
	warn_placement(run);
	if (saturated)
		warn_saturated(run, q);
	return 0;
}

/* The device's statistics alone, then what aging did (@age, if any). */
void sim_print_device(struct sim_run *run, const struct sim_age_result *age)
{
	struct ssdemu_stats st;
	struct ssd_stats core_st;
	char *json = NULL;
	size_t bytes = 0;
	FILE *out = stdout;

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (run->o->fields || run->o->csv)
		out = open_memstream(&json, &bytes);
	if (!out) {
		msg_say("ssdsim: out of memory\n");
		return;
	}
	if (run->o->json || out != stdout) {
		stats_print_json_fields(out, &st);
		if (age)
			sim_age_print_json(out, age);
		fprintf(out, "\n}\n");
	} else {
		stats_print_text(out, &st);
		if (age)
			sim_age_print_text(out, age);
	}
	if (out != stdout) {
		if (!fclose(out))
			run->fields_failed = sim_fields_print(stdout, json, run->o->fields,
							      run->o->csv, sometimes_fields);
		free(json);
	}
}

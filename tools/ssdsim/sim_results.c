// SPDX-License-Identifier: GPL-2.0
/*
 * sim_results.c - the end of a run (sim_run.h): its result filled from
 * the run (the device's statistics, the replay's report, the write
 * cache's off-line bound, how the run measured), --fields checked, the
 * result printed when the command line runs (sim_print.h), and the
 * warnings about how the trace was placed and whether it saturated the
 * device.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/sim_fields.h"
#include "tools/ssdsim/sim_print.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_summary.h"
#include "tools/msg/msg.h"

/* The disks as "0 (437 requests), 1 (461 requests), ..." as a message. */
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

/* @bytes in MiB or GiB, for messages. */
static void human(u64 bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, size, "%.1f MiB", (double)bytes / (1ULL << 20));
}

/* Say when the trace's addresses were bent to fit the device. */
static void warn_placement(const struct sim_run *run)
{
	const struct sim_report *r = &run->report;
	char cap[32], span[32], footprint[32];
	const char *one_disk = run->o->disk.set ? "" : "replay one disk with --disk, or ";
	bool smaller = run->place.unit_bytes > run->page_bytes;

	human(run->place.capacity_bytes, cap, sizeof(cap));
	human(r->span_bytes, span, sizeof(span));
	human(sim_place_footprint_bytes(&run->place), footprint, sizeof(footprint));
	if (r->wrapped_requests && !run->o->remap_dense)
		msg_say("ssdsim: warning: %llu of %llu requests lay beyond the device's %s (the trace spans %s) and wrapped around it: rewrites, cache hits and GC are then the wrap's, not the trace's.  Pack the touched addresses with --remap dense, %suse a larger device.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)run->requests,
			cap, span, one_disk);
	else if (r->wrapped_requests)
		msg_say("ssdsim: warning: %llu of %llu requests wrapped around the device's %s: the units the trace touches take %s even packed (--remap dense, %s units of %llu bytes).  %s%s.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)run->requests,
			cap, footprint, sim_remap_unit_name(run->o->remap_unit),
			(unsigned long long)run->place.unit_bytes, smaller ?
			"Smaller units pack tighter (--remap-unit page) but scatter what the trace keeps together, which only a page-mapped FTL does not mind; or " :
			"", run->o->disk.set ? (smaller ? "use a larger device" : "Use a larger device") :
			(smaller ? "replay one disk with --disk, or use a larger device" :
			 "Replay one disk with --disk, or use a larger device"));
	if (!run->o->disk.set && !run->o->remap_dense && run->tr.disks.count > 1) {
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

/* The device's statistics and configuration into @res, of @kind. */
static void fill_device(const struct sim_run *run, const struct ssd_config *cfg,
			enum sim_result_kind kind, struct sim_result *res)
{
	struct ssd_stats core_st;

	res->kind = kind;
	memset(&res->stats, 0, sizeof(res->stats));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &res->stats);
	res->cfg = *cfg;
}

/* The trace's disks into @r: 0, or -1 out of memory. */
static int fill_disks(const struct sim_run *run, struct sim_replay_result *r)
{
	const struct trace_disks *disks = &run->tr.disks;

	free(r->disks);
	r->nr_disks = 0;
	r->disks = calloc(disks->count ? disks->count : 1, sizeof(*r->disks));
	if (!r->disks)
		return -1;
	for (size_t i = 0; i < disks->count; i++) {
		trace_disks_name(disks, disks->v[i].device, r->disks[i].name,
				 sizeof(r->disks[i].name));
		r->disks[i].requests = disks->v[i].requests;
	}
	r->nr_disks = disks->count;
	r->disk_set = run->o->disk.set;
	trace_disk_spec_name(&run->o->disk, r->disk, sizeof(r->disk));
	return 0;
}

/* A replay's result (the statistics of now) into run->result: 0 or -1. */
static int fill_replay(struct sim_run *run, const struct ssd_config *cfg,
		       const char *format, bool saturated)
{
	const struct sim_options *o = run->o;
	struct sim_result *res = run->result;
	struct sim_replay_result *r = &res->replay;

	fill_device(run, cfg, SIM_RESULT_REPLAY, res);
	free(r->trace_path);
	r->trace_path = strdup(o->trace_path);
	if (!r->trace_path || fill_disks(run, r)) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	r->trace_format = format;
	r->requests = run->requests;
	r->span_bytes = run->report.span_bytes;
	r->wrapped_requests = run->report.wrapped_requests;
	r->zero_length_requests = run->report.zero_length_requests;
	r->split_requests = run->report.split_requests;
	r->unmapped_trims = run->report.unmapped_trims;
	r->remap_dense = o->remap_dense;
	r->remap_unit = sim_remap_unit_name(o->remap_unit);
	r->remap_unit_bytes = run->place.unit_bytes;
	r->remap_footprint_bytes = sim_place_footprint_bytes(&run->place);
	r->final_flush = o->final_flush;
	sim_report_summarise(&run->report.read, &run->report.read_not_done, &r->read);
	sim_report_summarise(&run->report.write, &run->report.write_not_done, &r->write);
	r->warmup = o->warmup;
	r->belady = o->belady;
	r->iodepth = o->iodepth;
	r->filled = run->filled;
	r->fill_fraction = o->fill;
	r->fill_bytes = run->fill.fill_bytes;
	r->fill_requests = run->fill.requests;
	r->measure_set = o->measure_set;
	r->window_from_request = run->window.from_request;
	r->window_from_ns = run->window.from_ns;
	r->window_from_pass_ns = run->window.from_pass_ns;
	r->window_ns = sim_window_ns(run);
	r->time_scale = o->time_scale;
	r->saturated = saturated;
	return 0;
}

int sim_check_fields(struct sim_run *run, const struct ssd_config *cfg)
{
	if (!run->o->fields)
		return 0;
	if (fill_replay(run, cfg, trace_format_name(run->o->format), false))
		return -1;
	if (sim_result_make_values(run->result))
		return -1;
	return sim_fields_check(&run->result->values, run->o->fields, sim_result_sometimes);
}

int sim_end_replay(struct sim_run *run, const struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct sim_replay_result *r = &run->result->replay;
	bool saturated;
	double q[4];

	saturated = sim_saturated(run, q);
	if (fill_replay(run, cfg, trace_format_name(run->tr.format), saturated))
		return -1;
	if (o->belady) {
		r->belady_capacity_pages = run->result->stats.cache_capacity_pages ?
					   run->result->stats.cache_capacity_pages :
					   cfg->cache_pages;
		r->belady_write_pages = run->seq.writes;
		if (belady_write_hits(&run->seq, r->belady_capacity_pages, o->warmup,
				      &r->belady_write_hit_pages)) {
			msg_say("ssdsim: out of memory\n");
			return -1;
		}
	}
	if (sim_result_make_values(run->result))
		return -1;
	if (run->out && sim_print_result(run->out, run->result, o))
		return -1;
	warn_placement(run);
	if (saturated)
		warn_saturated(run, q);
	return 0;
}

int sim_end_device(struct sim_run *run, const struct ssd_config *cfg,
		   const struct sim_age_result *age)
{
	struct sim_result *res = run->result;

	fill_device(run, cfg, SIM_RESULT_DEVICE, res);
	res->aged = age;
	if (age)
		res->age = *age;
	if (sim_result_make_values(res))
		return -1;
	/* --fields: names checked as a replay's are before it. */
	if (run->o->fields &&
	    sim_fields_check(&res->values, run->o->fields, sim_result_sometimes))
		return -1;
	return run->out ? sim_print_result(run->out, res, run->o) : 0;
}

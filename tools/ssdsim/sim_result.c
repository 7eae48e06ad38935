// SPDX-License-Identifier: GPL-2.0
/*
 * sim_result.c - a run's result (sim_result.h) and its values: the one
 * place that names, nests and formats what --json holds of a run, beside
 * the device's counters, which the stats field table names
 * (tools/report/stats_fields.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_fields.h"
#include "tools/report/stats_print.h"
#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/sim_summary.h"
#include "tools/msg/msg.h"

void sim_result_init(struct sim_result *res)
{
	memset(res, 0, sizeof(*res));
	sim_values_init(&res->values);
}

void sim_result_free(struct sim_result *res)
{
	free(res->replay.trace_path);
	free(res->replay.disks);
	sim_values_free(&res->values);
	memset(res, 0, sizeof(*res));
}

const char *const sim_result_sometimes[] = { "dedup_ratio", "belady.capacity_pages",
	"belady.write_pages", "belady.write_hit_pages", "belady.write_hit_ratio",
	"run.fill.fraction", "run.fill.bytes", "run.fill.requests", NULL };

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* The counters, by the stats field table, then the figures derived from them. */
static void stats_values(struct sim_values *vs, const struct ssdemu_stats *st)
{
	unsigned long long value;
	double figure;
	size_t i;

	sim_values_uint(vs, "stats_version", st->version);
	for (i = 0; i < stats_field_count(); i++)
		if (stats_field_get(st, i, &value))
			sim_values_uint(vs, stats_field_name(i), value);
	for (i = 0; i < stats_figure_count(); i++) {
		if (stats_figure_get(st, i, &figure))
			sim_values_real(vs, stats_figure_name(i), stats_figure_format(i), figure);
		else if (!stats_figure_optional(i))
			sim_values_null(vs, stats_figure_name(i));
	}
}

static void latency_values(struct sim_values *vs, const char *name,
			   const struct sim_latency_summary *s)
{
	sim_values_object(vs, name);
	sim_values_uint(vs, "count", s->count);
	if (s->count) {
		sim_values_real(vs, "mean_ns", "%.1f", s->mean_ns);
		sim_values_uint(vs, "p50_ns", s->p50_ns);
		sim_values_uint(vs, "p99_ns", s->p99_ns);
		sim_values_uint(vs, "max_ns", s->max_ns);
	} else {
		sim_values_null(vs, "mean_ns");
		sim_values_null(vs, "p50_ns");
		sim_values_null(vs, "p99_ns");
		sim_values_null(vs, "max_ns");
	}
	sim_values_end(vs);
}

static void not_completed_values(struct sim_values *vs, const char *name,
				 const struct sim_latency_summary *s)
{
	sim_values_object(vs, name);
	sim_values_uint(vs, "failed", s->failed);
	sim_values_uint(vs, "refused", s->refused);
	sim_values_end(vs);
}

static void trace_values(struct sim_values *vs, const struct sim_replay_result *r)
{
	sim_values_object(vs, "trace");
	sim_values_text(vs, "path", r->trace_path ? r->trace_path : "");
	sim_values_text(vs, "format", r->trace_format);
	sim_values_uint(vs, "requests", r->requests);
	sim_values_uint(vs, "span_bytes", r->span_bytes);
	sim_values_object(vs, "disks");
	for (size_t i = 0; i < r->nr_disks; i++)
		sim_values_uint(vs, r->disks[i].name, r->disks[i].requests);
	sim_values_end(vs);
	if (r->disk_set)
		sim_values_text(vs, "disk", r->disk);
	else
		sim_values_null(vs, "disk");
	sim_values_end(vs);
}

/* Every key with its value: an enum key's name, a number otherwise. */
static void config_values(struct sim_values *vs, const struct ssd_config *cfg)
{
	sim_values_object(vs, "config");
	for (unsigned int i = 0, nr = ssd_config_nr_keys(); i < nr; i++) {
		const struct ssd_config_key *key = ssd_config_key_at(i);
		char value[64];

		ssd_config_show(cfg, key, value, sizeof(value));
		value[strcspn(value, "\n")] = '\0';
		if (key->flags & SSD_KEY_ENUM)
			sim_values_text(vs, key->name, value);
		else
			sim_values_uint(vs, key->name, strtoull(value, NULL, 10));
	}
	sim_values_end(vs);
}

/* The replay's figures: census, latencies, trace, remap, configuration. */
static void report_values(struct sim_values *vs, const struct sim_replay_result *r,
			  const struct ssd_config *cfg)
{
	sim_values_uint(vs, "wrapped_requests", r->wrapped_requests);
	sim_values_uint(vs, "zero_length_requests", r->zero_length_requests);
	sim_values_object(vs, "latency");
	latency_values(vs, "read", &r->read);
	latency_values(vs, "write", &r->write);
	sim_values_end(vs);
	/* The requests in no latency: failed and refused, beside it. */
	sim_values_object(vs, "not_completed");
	not_completed_values(vs, "read", &r->read);
	not_completed_values(vs, "write", &r->write);
	sim_values_end(vs);
	trace_values(vs, r);
	sim_values_object(vs, "remap");
	sim_values_text(vs, "mode", r->remap_dense ? "dense" : "none");
	if (r->remap_dense) {
		sim_values_text(vs, "unit", r->remap_unit);
		sim_values_uint(vs, "unit_bytes", r->remap_unit_bytes);
		sim_values_uint(vs, "footprint_bytes", r->remap_footprint_bytes);
		sim_values_uint(vs, "split_requests", r->split_requests);
		sim_values_uint(vs, "unmapped_trims", r->unmapped_trims);
	}
	sim_values_end(vs);
	sim_values_bool(vs, "final_flush", r->final_flush);
	config_values(vs, cfg);
}

/* The write cache's online hit ratio and the off-line bound. */
static void cache_values(struct sim_values *vs, const struct sim_replay_result *r,
			 const struct ssdemu_stats *st)
{
	sim_values_uint(vs, "warmup_passes", r->warmup);
	sim_values_real(vs, "cache_write_hit_ratio", "%.6f", stats_cache_write_hit_ratio(st));
	if (!r->belady)
		return;
	sim_values_object(vs, "belady");
	sim_values_uint(vs, "capacity_pages", r->belady_capacity_pages);
	sim_values_uint(vs, "write_pages", r->belady_write_pages);
	sim_values_uint(vs, "write_hit_pages", r->belady_write_hit_pages);
	sim_values_real(vs, "write_hit_ratio", "%.6f",
			ratio(r->belady_write_hit_pages, r->belady_write_pages));
	sim_values_end(vs);
}

/* How the run measured: TLC-only WAF, the loop, the fill, the window. */
static void instrument_values(struct sim_values *vs, const struct sim_replay_result *r,
			      const struct ssdemu_stats *st)
{
	double s = r->window_ns / 1e9, waf_tlc = stats_waf_tlc(st);

	if (waf_tlc < 0)
		sim_values_null(vs, "waf_tlc");
	else
		sim_values_real(vs, "waf_tlc", "%.6f", waf_tlc);
	sim_values_object(vs, "run");
	if (r->iodepth)
		sim_values_uint(vs, "iodepth", r->iodepth);
	else
		sim_values_null(vs, "iodepth");
	if (r->filled) {
		sim_values_object(vs, "fill");
		sim_values_real(vs, "fraction", "%g", r->fill_fraction);
		sim_values_uint(vs, "bytes", r->fill_bytes);
		sim_values_uint(vs, "requests", r->fill_requests);
		sim_values_end(vs);
	} else {
		sim_values_null(vs, "fill");
	}
	sim_values_object(vs, "window");
	sim_values_uint(vs, "from_request", r->window_from_request);
	sim_values_uint(vs, "from_ns", r->window_from_ns);
	sim_values_uint(vs, "from_pass_ns", r->window_from_pass_ns);
	sim_values_uint(vs, "requests", r->requests);
	sim_values_uint(vs, "duration_ns", r->window_ns);
	sim_values_real(vs, "iops", "%.3f", s > 0 ? r->requests / s : 0.0);
	sim_values_real(vs, "read_mb_per_s", "%.3f", s > 0 ? st->host_read_bytes / s / 1e6 : 0.0);
	sim_values_real(vs, "write_mb_per_s", "%.3f",
			s > 0 ? st->host_write_bytes / s / 1e6 : 0.0);
	sim_values_end(vs);
	sim_values_real(vs, "time_scale", "%g", r->time_scale);
	sim_values_bool(vs, "saturated", r->saturated);
	sim_values_end(vs);
}

int sim_result_make_values(struct sim_result *res)
{
	struct sim_values *vs = &res->values;

	sim_values_free(vs);
	sim_values_object(vs, NULL);
	stats_values(vs, &res->stats);
	res->own_from = vs->count;
	if (res->kind == SIM_RESULT_REPLAY) {
		report_values(vs, &res->replay, &res->cfg);
		cache_values(vs, &res->replay, &res->stats);
		instrument_values(vs, &res->replay, &res->stats);
	} else if (res->aged) {
		sim_age_values(vs, &res->age);
	}
	sim_values_end(vs);
	if (vs->failed) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	return 0;
}

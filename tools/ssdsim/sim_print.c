// SPDX-License-Identifier: GPL-2.0
/*
 * sim_print.c - the command line's renderings of a result (sim_print.h).
 */
#include <string.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_print.h"
#include "tools/ssdsim/sim_fields.h"
#include "tools/ssdsim/sim_print.h"
#include "tools/ssdsim/sim_summary.h"

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* The disks as "0 (437) 1 (461) ...", or "none named". */
static void print_disks_text(FILE *out, const struct sim_replay_result *r)
{
	fprintf(out, "%-28s", "trace_disks");
	if (!r->nr_disks)
		fprintf(out, " none named");
	for (size_t i = 0; i < r->nr_disks; i++)
		fprintf(out, " %s (%llu)", r->disks[i].name,
			(unsigned long long)r->disks[i].requests);
	fprintf(out, "\n");
	fprintf(out, "%-28s %s\n", "disk", r->disk_set ? r->disk : "all");
}

/* The replay's report: the trace, its placement, the census, the latencies. */
static void print_report_text(FILE *out, const struct sim_replay_result *r,
			      const struct ssd_config *cfg)
{
	fprintf(out, "%-28s %s (%s)\n", "trace", r->trace_path, r->trace_format);
	fprintf(out, "%-28s %llu\n", "trace_span_bytes", (unsigned long long)r->span_bytes);
	print_disks_text(out, r);
	if (r->remap_dense)
		fprintf(out, "%-28s dense, unit %s (%llu B), footprint %llu B, split requests %llu, unmapped trims %llu\n",
			"remap", r->remap_unit, (unsigned long long)r->remap_unit_bytes,
			(unsigned long long)r->remap_footprint_bytes,
			(unsigned long long)r->split_requests,
			(unsigned long long)r->unmapped_trims);
	else
		fprintf(out, "%-28s none\n", "remap");
	fprintf(out, "%-28s %d\n", "final_flush", r->final_flush);
	fprintf(out, "%-28s %s\n", "data_store", ssd_config_choice_name(cfg, "data_store"));
	fprintf(out, "%-28s %llu\n", "requests", (unsigned long long)r->requests);
	fprintf(out, "%-28s %llu\n", "wrapped_requests",
		(unsigned long long)r->wrapped_requests);
	fprintf(out, "%-28s %llu\n", "zero_length_requests",
		(unsigned long long)r->zero_length_requests);
	sim_report_print_latency(out, "read_latency", &r->read);
	sim_report_print_latency(out, "write_latency", &r->write);
}

/* The write cache's figures: online hit ratio, and the off-line bound. */
static void print_cache_text(FILE *out, const struct sim_replay_result *r,
			     const struct ssdemu_stats *st)
{
	fprintf(out, "%-28s %u\n", "warmup_passes", r->warmup);
	fprintf(out, "%-28s %.6f\n", "cache_write_hit_ratio", stats_cache_write_hit_ratio(st));
	if (!r->belady)
		return;
	fprintf(out, "%-28s %llu\n", "belady_capacity_pages",
		(unsigned long long)r->belady_capacity_pages);
	fprintf(out, "%-28s %llu\n", "belady_write_pages",
		(unsigned long long)r->belady_write_pages);
	fprintf(out, "%-28s %llu\n", "belady_write_hit_pages",
		(unsigned long long)r->belady_write_hit_pages);
	fprintf(out, "%-28s %.6f\n", "belady_write_hit_ratio",
		ratio(r->belady_write_hit_pages, r->belady_write_pages));
}

/* The instrument's lines in --verbose text. */
static void print_instrument_text(FILE *out, const struct sim_replay_result *r,
				  const struct ssdemu_stats *st)
{
	double waf_tlc = stats_waf_tlc(st), s = r->window_ns / 1e9;

	if (waf_tlc < 0)
		fprintf(out, "%-28s n/a (no host writes)\n", "waf_tlc");
	else
		fprintf(out, "%-28s %.3f\n", "waf_tlc", waf_tlc);
	fprintf(out, "%-28s %u\n", "iodepth", r->iodepth);
	if (r->filled)
		fprintf(out, "%-28s %g (%llu bytes, %llu requests)\n", "fill", r->fill_fraction,
			(unsigned long long)r->fill_bytes, (unsigned long long)r->fill_requests);
	fprintf(out, "%-28s %llu\n", "window_from_request",
		(unsigned long long)r->window_from_request);
	fprintf(out, "%-28s %llu\n", "window_from_pass_ns",
		(unsigned long long)r->window_from_pass_ns);
	fprintf(out, "%-28s %llu\n", "window_duration_ns", (unsigned long long)r->window_ns);
	fprintf(out, "%-28s %.3f\n", "window_iops", s > 0 ? r->requests / s : 0.0);
	fprintf(out, "%-28s %d\n", "saturated", r->saturated);
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

/* The whole --json object: the counters by their printer, then the rest. */
static void print_json(FILE *out, const struct sim_result *res)
{
	const struct sim_values *vs = &res->values;

	stats_print_json_fields(out, &res->stats);
	if (vs->count > res->own_from)
		sim_values_print_members(out, vs->v + res->own_from, vs->count - res->own_from,
					 true);
	fprintf(out, "\n}\n");
}

int sim_print_result(FILE *out, const struct sim_result *res, const struct sim_options *o)
{
	const struct sim_replay_result *r = &res->replay;

	if (o->fields || o->csv)
		return sim_fields_print(out, &res->values, o->fields, o->csv,
					sim_result_sometimes);
	if (o->json) {
		print_json(out, res);
	} else if (res->kind == SIM_RESULT_DEVICE && res->aged && !o->verbose) {
		sim_age_print_summary(out, &res->age, &res->stats);
	} else if (res->kind == SIM_RESULT_DEVICE) {
		stats_print_text(out, &res->stats);
		if (res->aged)
			sim_age_print_text(out, &res->age);
	} else if (o->verbose) {
		stats_print_text(out, &res->stats);
		print_report_text(out, r, &res->cfg);
		print_cache_text(out, r, &res->stats);
		print_instrument_text(out, r, &res->stats);
		print_config_text(out, &res->cfg);
	} else {
		sim_print_summary(out, res);
	}
	return 0;
}

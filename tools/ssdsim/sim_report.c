// SPDX-License-Identifier: GPL-2.0
/*
 * sim_report.c - ssdsim's own report (see sim_report.h).  Latencies are
 * kept by sim_latency.c, so the percentiles are exact (nearest rank).
 */
#include <stdlib.h>
#include <string.h>

#include "device/ssd_device.h"
#include "tools/ssdsim/sim_report.h"
#include "include/ssdemu_ioctl.h"

int sim_report_latency(struct sim_report *r, unsigned int op, u64 latency_ns)
{
	if (op == SSDEMU_OP_READ)
		return sim_latency_add(&r->read, latency_ns);
	if (op == SSDEMU_OP_WRITE)
		return sim_latency_add(&r->write, latency_ns);
	return 0;
}

struct latency_summary {
	u64 count;
	double mean_ns;
	u64 p50_ns, p99_ns, max_ns;
};

static struct latency_summary summarise(const struct latency_set *set)
{
	struct latency_summary s = { .count = set->count };

	if (!set->count)
		return s;
	s.mean_ns = sim_latency_mean(set);
	s.p50_ns = sim_latency_percentile(set, 50);
	s.p99_ns = sim_latency_percentile(set, 99);
	s.max_ns = set->max_ns;
	return s;
}

static void print_latency_text(FILE *out, const char *name, struct latency_set *set)
{
	struct latency_summary s = summarise(set);

	fprintf(out, "%-28s count %llu", name, (unsigned long long)s.count);
	if (s.count)
		fprintf(out, " mean %.1f us p50 %.1f us p99 %.1f us max %.1f us",
			s.mean_ns / 1000, s.p50_ns / 1000.0, s.p99_ns / 1000.0,
			s.max_ns / 1000.0);
	fprintf(out, "\n");
}

void sim_report_print_latency(FILE *out, const char *name, struct latency_set *set)
{
	print_latency_text(out, name, set);
}

static void print_latency_json(FILE *out, const char *name, struct latency_set *set)
{
	struct latency_summary s = summarise(set);

	fprintf(out, "\"%s\": {\"count\": %llu", name, (unsigned long long)s.count);
	if (s.count)
		fprintf(out, ", \"mean_ns\": %.1f, \"p50_ns\": %llu, \"p99_ns\": %llu, \"max_ns\": %llu",
			s.mean_ns, (unsigned long long)s.p50_ns,
			(unsigned long long)s.p99_ns, (unsigned long long)s.max_ns);
	else
		fprintf(out, ", \"mean_ns\": null, \"p50_ns\": null, \"p99_ns\": null, \"max_ns\": null");
	fprintf(out, "}");
}

/* @key's value as ssd_config_show() writes it, without the newline. */
static void key_value(const struct ssd_config *cfg, const struct ssd_config_key *key,
		      char *buf, size_t bytes)
{
	ssd_config_show(cfg, key, buf, bytes);
	buf[strcspn(buf, "\n")] = '\0';
}

/* The disks as "0 (437) 1 (461) ...", or "none named". */
static void print_disks_text(FILE *out, const struct sim_report *r)
{
	char name[48];
	size_t i;

	fprintf(out, "%-28s", "trace_disks");
	if (!r->disks || !r->disks->count)
		fprintf(out, " none named");
	for (i = 0; r->disks && i < r->disks->count; i++) {
		trace_disks_name(r->disks, r->disks->v[i].device, name, sizeof(name));
		fprintf(out, " %s (%llu)", name, (unsigned long long)r->disks->v[i].requests);
	}
	fprintf(out, "\n");
	trace_disk_spec_name(&r->disk, name, sizeof(name));
	fprintf(out, "%-28s %s\n", "disk", r->disk.set ? name : "all");
}

void sim_report_print_text(FILE *out, struct sim_report *r, const struct ssd_config *cfg)
{
	fprintf(out, "%-28s %s (%s)\n", "trace", r->trace_path, r->trace_format);
	fprintf(out, "%-28s %llu\n", "trace_span_bytes", (unsigned long long)r->span_bytes);
	print_disks_text(out, r);
	if (r->remap_dense)
		fprintf(out, "%-28s dense, unit %llu B, footprint %llu B, split requests %llu, unmapped trims %llu\n",
			"remap", (unsigned long long)r->remap_unit_bytes,
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
	print_latency_text(out, "read_latency", &r->read);
	print_latency_text(out, "write_latency", &r->write);
}

/* ", "disks": {"0": 437, ...}, "disk": "3"" (null: every disk replayed). */
static void print_disks_json(FILE *out, const struct sim_report *r)
{
	char name[48];
	size_t i;

	fprintf(out, ", \"disks\": {");
	for (i = 0; r->disks && i < r->disks->count; i++) {
		trace_disks_name(r->disks, r->disks->v[i].device, name, sizeof(name));
		fprintf(out, "%s\"%s\": %llu", i ? ", " : "", name,
			(unsigned long long)r->disks->v[i].requests);
	}
	trace_disk_spec_name(&r->disk, name, sizeof(name));
	if (r->disk.set)
		fprintf(out, "}, \"disk\": \"%s\"", name);
	else
		fprintf(out, "}, \"disk\": null");
}

void sim_report_print_json(FILE *out, struct sim_report *r, const struct ssd_config *cfg)
{
	unsigned int i, nr = ssd_config_nr_keys();

	fprintf(out, ",\n  \"wrapped_requests\": %llu", (unsigned long long)r->wrapped_requests);
	fprintf(out, ",\n  \"zero_length_requests\": %llu",
		(unsigned long long)r->zero_length_requests);
	fprintf(out, ",\n  \"latency\": {");
	print_latency_json(out, "read", &r->read);
	fprintf(out, ", ");
	print_latency_json(out, "write", &r->write);
	fprintf(out, "}");
	fprintf(out, ",\n  \"trace\": {\"path\": \"");
	for (const char *c = r->trace_path; *c; c++)
		fprintf(out, *c == '"' || *c == '\\' ? "\\%c" : "%c", *c);
	fprintf(out, "\", \"format\": \"%s\", \"requests\": %llu, \"span_bytes\": %llu",
		r->trace_format, (unsigned long long)r->requests,
		(unsigned long long)r->span_bytes);
	print_disks_json(out, r);
	fprintf(out, "}");
	if (r->remap_dense)
		fprintf(out, ",\n  \"remap\": {\"mode\": \"dense\", \"unit_bytes\": %llu, \"footprint_bytes\": %llu, \"split_requests\": %llu, \"unmapped_trims\": %llu}",
			(unsigned long long)r->remap_unit_bytes,
			(unsigned long long)r->remap_footprint_bytes,
			(unsigned long long)r->split_requests,
			(unsigned long long)r->unmapped_trims);
	else
		fprintf(out, ",\n  \"remap\": {\"mode\": \"none\"}");
	fprintf(out, ",\n  \"final_flush\": %s", r->final_flush ? "true" : "false");
	fprintf(out, ",\n  \"config\": {");
	for (i = 0; i < nr; i++) {
		const struct ssd_config_key *key = ssd_config_key_at(i);
		char value[64];

		key_value(cfg, key, value, sizeof(value));
		fprintf(out, key->flags & SSD_KEY_ENUM ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s",
			i ? ", " : "", key->name, value);
	}
	fprintf(out, "}");
}

void sim_report_free(struct sim_report *r)
{
	sim_latency_free(&r->read);
	sim_latency_free(&r->write);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_report.c - ssdsim's own report (see sim_report.h).  Latencies are
 * kept whole, so the percentiles are exact (nearest rank).
 */
#include <stdlib.h>
#include <string.h>

#include "host-tools/sim_report.h"
#include "include/ssdemu_ioctl.h"

int sim_report_latency(struct sim_report *r, unsigned int op, u64 latency_ns)
{
	struct latency_set *set;

	if (op == SSDEMU_OP_READ)
		set = &r->read;
	else if (op == SSDEMU_OP_WRITE)
		set = &r->write;
	else
		return 0;
	if (set->count == set->room) {
		size_t room = set->room ? 2 * set->room : 4096;
		u64 *grown = realloc(set->ns, room * sizeof(*grown));

		if (!grown)
			return -1;
		set->ns = grown;
		set->room = room;
	}
	set->ns[set->count++] = latency_ns;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

struct latency_summary {
	size_t count;
	double mean_ns;
	u64 p50_ns, p99_ns, max_ns;
};

/* Nearest rank: the smallest value with at least @percent % at or below it. */
static u64 percentile(const struct latency_set *set, unsigned int percent)
{
	size_t rank = (set->count * percent + 99) / 100;

	return set->ns[rank ? rank - 1 : 0];
}

static struct latency_summary summarise(struct latency_set *set)
{
	struct latency_summary s = { .count = set->count };
	double sum = 0;
	size_t i;

	if (!set->count)
		return s;
	qsort(set->ns, set->count, sizeof(*set->ns), by_value);
	for (i = 0; i < set->count; i++)
		sum += (double)set->ns[i];
	s.mean_ns = sum / (double)set->count;
	s.p50_ns = percentile(set, 50);
	s.p99_ns = percentile(set, 99);
	s.max_ns = set->ns[set->count - 1];
	return s;
}

static void print_latency_text(FILE *out, const char *name, struct latency_set *set)
{
	struct latency_summary s = summarise(set);

	fprintf(out, "%-28s count %zu", name, s.count);
	if (s.count)
		fprintf(out, " mean %.1f us p50 %.1f us p99 %.1f us max %.1f us",
			s.mean_ns / 1000, s.p50_ns / 1000.0, s.p99_ns / 1000.0,
			s.max_ns / 1000.0);
	fprintf(out, "\n");
}

static void print_latency_json(FILE *out, const char *name, struct latency_set *set)
{
	struct latency_summary s = summarise(set);

	fprintf(out, "\"%s\": {\"count\": %zu", name, s.count);
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

void sim_report_print_text(FILE *out, struct sim_report *r, const struct ssd_config *cfg)
{
	fprintf(out, "%-28s %s (%s)\n", "trace", r->trace_path, r->trace_format);
	fprintf(out, "%-28s %llu\n", "requests", (unsigned long long)r->requests);
	fprintf(out, "%-28s %llu\n", "wrapped_requests",
		(unsigned long long)r->wrapped_requests);
	fprintf(out, "%-28s %llu\n", "zero_length_requests",
		(unsigned long long)r->zero_length_requests);
	print_latency_text(out, "read_latency", &r->read);
	print_latency_text(out, "write_latency", &r->write);
}

void sim_report_print_json(FILE *out, struct sim_report *r, const struct ssd_config *cfg)
{
	unsigned int i;

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
	fprintf(out, "\", \"format\": \"%s\", \"requests\": %llu}", r->trace_format,
		(unsigned long long)r->requests);
	fprintf(out, ",\n  \"config\": {");
	for (i = 0; i < ssd_config_nr_keys; i++) {
		const struct ssd_config_key *key = &ssd_config_keys[i];
		char value[64];

		key_value(cfg, key, value, sizeof(value));
		fprintf(out, key->flags & SSD_KEY_ENUM ? "%s\"%s\": \"%s\"" : "%s\"%s\": %s",
			i ? ", " : "", key->name, value);
	}
	fprintf(out, "}");
}

void sim_report_free(struct sim_report *r)
{
	free(r->read.ns);
	free(r->write.ns);
	r->read.ns = NULL;
	r->write.ns = NULL;
}

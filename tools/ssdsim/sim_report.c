// SPDX-License-Identifier: GPL-2.0
/*
 * sim_report.c - what a replay gathers (see sim_report.h).  Latencies are
 * kept by sim_latency.c, so the percentiles are exact (nearest rank).
 */
#include <string.h>

#include "device/ssd_device.h"
#include "tools/report/stats_faults.h"
#include "tools/ssdsim/sim_report.h"
#include "include/ssdemu_ioctl.h"

int sim_report_latency(struct sim_report *r, unsigned int op, enum sim_outcome outcome,
		       u64 latency_ns)
{
	struct latency_set *set;
	struct sim_uncompleted *not_done;

	if (op == SSDEMU_OP_READ) {
		set = &r->read;
		not_done = &r->read_not_done;
	} else if (op == SSDEMU_OP_WRITE) {
		set = &r->write;
		not_done = &r->write_not_done;
	} else {
		return 0;
	}
	if (outcome == SIM_FAILED)
		not_done->failed++;
	else if (outcome == SIM_REFUSED)
		not_done->refused++;
	else
		return sim_latency_add(set, latency_ns);
	return 0;
}

void sim_report_summarise(const struct latency_set *set, const struct sim_uncompleted *not_done,
			  struct sim_latency_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->count = set->count;
	s->failed = not_done->failed;
	s->refused = not_done->refused;
	if (!set->count)
		return;
	s->mean_ns = sim_latency_mean(set);
	s->p50_ns = sim_latency_percentile(set, 50);
	s->p99_ns = sim_latency_percentile(set, 99);
	s->max_ns = set->max_ns;
}

void sim_report_print_latency(FILE *out, const char *name, const struct sim_latency_summary *s)
{
	fprintf(out, "%-28s count %llu", name, (unsigned long long)s->count);
	if (s->count)
		fprintf(out, " mean %.1f us p50 %.1f us p99 %.1f us max %.1f us",
			s->mean_ns / 1000, s->p50_ns / 1000.0, s->p99_ns / 1000.0,
			s->max_ns / 1000.0);
	stats_print_not_timed(out, s->failed, s->refused);
	fprintf(out, "\n");
}

void sim_report_free(struct sim_report *r)
{
	sim_latency_free(&r->read);
	sim_latency_free(&r->write);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_report.h - what ssdsim reports beyond the device's statistics: the
 * latency of every read and write request (count, mean, p50, p99, max),
 * requests that wrapped around the capacity or had no data, the trace
 * replayed (its address span, its disks and the one chosen), how its
 * addresses were placed (the remap), whether each pass ended with a
 * FLUSH, and the configuration it ran with.
 */
#ifndef SSD_SIM_REPORT_H
#define SSD_SIM_REPORT_H

#include <stdio.h>

#include "common/ssd_config.h"
#include "tools/ssdsim/sim_latency.h"
#include "tools/trace/trace_disks.h"

struct sim_report {
	struct latency_set read;
	struct latency_set write;
	u64 requests;			/* replayed */
	u64 wrapped_requests;		/* beyond the capacity: wrapped around */
	u64 zero_length_requests;	/* data requests without data (or trims of
					 * no whole block): skipped */
	u64 span_bytes;			/* the highest byte a request reached, + 1 */
	u64 split_requests;		/* remapped into several extents */
	u64 unmapped_trims;		/* remapped TRIMs of nothing written: skipped */
	const char *trace_path;
	const char *trace_format;
	const struct trace_disks *disks;	/* the trace's disks (none: NULL) */
	struct trace_disk_spec disk;	/* the one replayed, if chosen */
	bool remap_dense;
	u64 remap_unit_bytes;
	u64 remap_footprint_bytes;	/* device bytes the remap handed out */
	bool final_flush;		/* each pass ended with a FLUSH */
};

/* Record a request's completion - arrival; -1 if out of memory. */
int sim_report_latency(struct sim_report *r, unsigned int op, u64 latency_ns);
/* "NAME count N mean ... p50 ... p99 ... max ..." in microseconds. */
void sim_report_print_latency(FILE *out, const char *name, struct latency_set *set);
void sim_report_print_text(FILE *out, struct sim_report *r, const struct ssd_config *cfg);
/* Fields to append inside the JSON object stats_print_json_fields() opened. */
void sim_report_print_json(FILE *out, struct sim_report *r, const struct ssd_config *cfg);
void sim_report_free(struct sim_report *r);

#endif /* SSD_SIM_REPORT_H */

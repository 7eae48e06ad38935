/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_report.h - what ssdsim gathers during a replay beyond the device's
 * statistics: the latency of every read and write request that completed
 * (the failed and refused ones counted beside, in none), requests that
 * wrapped around the capacity or had no data, were split by the remap or
 * were TRIMs of nothing remapped, and the trace's address span; and the
 * latency summary a result keeps of it (count, mean, p50, p99, max), with
 * its one-line text.  The result (sim_result.h) is made of this.
 */
#ifndef SSD_SIM_REPORT_H
#define SSD_SIM_REPORT_H

#include <stdio.h>

#include "tools/ssdsim/sim_latency.h"

/* How a request ended: only a completed one has a latency. */
enum sim_outcome {
	SIM_COMPLETED,
	SIM_FAILED,		/* an I/O error (-EIO: media, injected) */
	SIM_REFUSED,		/* declined (-EROFS: end of life) */
};

/* The requests of one op that did not complete. */
struct sim_uncompleted {
	u64 failed;
	u64 refused;
};

struct sim_report {
	struct latency_set read;
	struct latency_set write;
	struct sim_uncompleted read_not_done, write_not_done;
	u64 wrapped_requests;		/* beyond the capacity: wrapped around */
	u64 zero_length_requests;	/* data requests without data (or trims of
					 * no whole block): skipped */
	u64 span_bytes;			/* the highest byte a request reached, + 1 */
	u64 split_requests;		/* remapped into several extents */
	u64 unmapped_trims;		/* remapped TRIMs of nothing written: skipped */
};

/*
 * The latencies of one op's completed requests: count, mean, nearest-rank
 * percentiles, max; and its requests that failed or were refused.
 */
struct sim_latency_summary {
	u64 count;
	u64 failed, refused;
	double mean_ns;
	u64 p50_ns, p99_ns, max_ns;
};

/*
 * Record how a request ended: a completed one's completion - arrival, a
 * failed or refused one counted; -1 if out of memory.
 */
int sim_report_latency(struct sim_report *r, unsigned int op, enum sim_outcome outcome,
		       u64 latency_ns);
/* The summary of @set and @not_done (all 0 for an empty one). */
void sim_report_summarise(const struct latency_set *set, const struct sim_uncompleted *not_done,
			  struct sim_latency_summary *s);
/*
 * "NAME count N mean ... p50 ... p99 ... max ..." in microseconds, then
 * "(F failed, R refused: in no latency)" when there are any.
 */
void sim_report_print_latency(FILE *out, const char *name, const struct sim_latency_summary *s);
void sim_report_free(struct sim_report *r);

#endif /* SSD_SIM_REPORT_H */

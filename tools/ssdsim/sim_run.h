/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_run.h - one ssdsim run: its state, the replay of a trace through the
 * device (sim_replay.c: placing, filling and submitting each request,
 * warm-up passes, the final FLUSH) and its end (sim_results.c: the
 * result filled, printed by the command line, and the warnings about
 * placement and saturation).  ssdsim.c makes the device and decides what
 * the run does.  The instrument's options (--fill, --measure-from,
 * --iodepth, the saturation warning, progress) live in the replay;
 * docs/ssdsim.md says how to use them.
 */
#ifndef SSD_SIM_RUN_H
#define SSD_SIM_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "device/ssd_device.h"
#include "tools/ssdsim/belady.h"
#include "tools/ssdsim/sim_age.h"
#include "tools/ssdsim/sim_options.h"
#include "tools/ssdsim/sim_place.h"
#include "tools/ssdsim/sim_progress.h"
#include "tools/ssdsim/sim_report.h"
#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/sim_trend.h"
#include "tools/trace/trace_reader.h"

/*
 * The measured stretch of the last pass: all of it, or from
 * --measure-from on (counters and latencies reset there, state kept).
 */
struct sim_window {
	bool started;
	u64 from_request;		/* the pass's requests before it */
	u64 from_ns;			/* its first arrival, device time */
	u64 from_pass_ns;		/* the same, from the pass's first arrival */
	u64 last_arrival_ns;
	u64 last_completion_ns;		/* of its requests (not the final FLUSH) */
};

/* --iodepth N: the completion times of the requests outstanding. */
struct sim_loop {
	u64 *done_ns;			/* a min-heap of up to N */
	u32 count;
	u64 next_ns;			/* the earliest a request may arrive */
};

/* One replay: the device, the trace and what is gathered on the way. */
struct sim_run {
	const struct sim_options *o;
	struct sim_result *result;	/* what the run gives back */
	FILE *out;			/* the command line's stdout; NULL: print nothing */
	struct ssd_device *dev;
	struct trace_reader tr;
	struct sim_place place;
	struct sim_report report;
	struct belady_seq seq;
	FILE *completions;
	unsigned char *buf;
	u64 buf_bytes;
	u64 requests;			/* of the trace, in this pass (window) */
	u64 pass_requests;		/* of the trace, in this pass, all of it */
	u64 pass_start_ns;		/* this pass's first arrival, device time */
	u64 records;			/* read in the first pass, skipped or not */
	u64 offset_ns;			/* added to this pass's arrival times */
	struct sim_window window;
	struct sim_loop loop;
	struct sim_trend trend;		/* latencies of the window, in order */
	struct sim_progress progress;
	u64 requests_all;		/* every pass's, for the progress line */
	bool filled;			/* --fill ran: */
	struct sim_age_result fill;
	u32 page_bytes;
	enum ssd_data_store store;	/* data_store: what run->buf is made of */
	bool content_counts;		/* dedup=1: counters depend on the data */
	unsigned int pass;
	bool shift_pending;		/* --from: start after the snapshot's clock */
	u64 read_only_request;		/* end of life: the trace record it began at, 0: not */
};

/*
 * --fill: the device filled sequentially to the utilisation asked, then
 * its counters reset (as after --warmup): 0 or -1.
 */
int sim_fill_device(struct sim_run *run, const struct ssd_config *cfg);
/*
 * run->buf large enough for @bytes of request data (sim_replay.c): 0, or
 * -1 after saying so (run->buf is then NULL and run->buf_bytes 0).
 */
int sim_reserve_buffer(struct sim_run *run, u64 bytes);
/*
 * The data of write @rec placed in @pl into run->buf as run->store keeps
 * it (bytes, sector ids, nothing): 0, or -1 after saying why.
 */
int sim_make_data(struct sim_run *run, const struct trace_record *rec,
		  const struct sim_placing *pl, u64 seed);
struct flat_iter;
/* @req for extent @ext of @rec, its data (if the store keeps any) from run->buf. */
void sim_extent_request(const struct sim_run *run, const struct trace_record *rec,
			const struct sim_extent *ext, u64 arrival_ns, struct flat_iter *fi,
			struct ssd_request *req);
/* Replay the trace, every pass, and end it (sim_end_replay()): 0 or -1. */
int sim_replay_trace(struct sim_run *run, struct ssd_config *cfg);
/*
 * The replay's result into run->result (the statistics, the report, the
 * write cache's bound, how it measured), printed on run->out if the
 * command line runs, then the warnings about placement and saturation:
 * 0, or -1 after a message.
 */
int sim_end_replay(struct sim_run *run, const struct ssd_config *cfg);
/*
 * The device's statistics alone, then what aging did (@age, if any),
 * into run->result and printed on run->out if any: 0, or -1 after a
 * message (--fields refused).
 */
int sim_end_device(struct sim_run *run, const struct ssd_config *cfg,
		   const struct sim_age_result *age);
/*
 * --fields checked before the replay, against the names a replay's
 * result has: 0, or -1 after naming the unknown ones.
 */
int sim_check_fields(struct sim_run *run, const struct ssd_config *cfg);
/* Whether the measured pass looks saturated (sim_results.c). */
bool sim_saturated(const struct sim_run *run, double quarter_ns[4]);
/* The disks as "0 (437 requests), 1 (461 requests), ..." as a message. */
void sim_list_disks(const struct trace_disks *disks);

#endif /* SSD_SIM_RUN_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_run.h - one ssdsim run: its state, the replay of a trace through the
 * device (sim_replay.c: placing, filling and submitting each request,
 * warm-up passes, the final FLUSH) and what is printed at the end
 * (sim_results.c: the statistics, sim_report.h's figures, the write
 * cache's, and the warnings about placement).  ssdsim.c makes the device
 * and decides what the run does.
 */
#ifndef SSD_SIM_RUN_H
#define SSD_SIM_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "device/ssd_device.h"
#include "host-tools/belady.h"
#include "host-tools/sim_age.h"
#include "host-tools/sim_options.h"
#include "host-tools/sim_place.h"
#include "host-tools/sim_report.h"
#include "host-tools/trace_reader.h"

/* One replay: the device, the trace and what is gathered on the way. */
struct sim_run {
	const struct sim_options *o;
	struct ssd_device *dev;
	struct trace_reader tr;
	struct sim_place place;
	struct sim_report report;
	struct belady_seq seq;
	FILE *completions;
	unsigned char *buf;
	u64 buf_bytes;
	u64 requests;			/* of the trace, in this pass */
	u64 offset_ns;			/* added to this pass's arrival times */
	u32 page_bytes;
	enum ssd_data_store store;	/* data_store: what run->buf is made of */
	bool content_counts;		/* dedup=1: counters depend on the data */
	unsigned int pass;
	bool shift_pending;		/* --from: start after the snapshot's clock */
};

/* Replay the trace, every pass, and print the results: 0 or -1. */
int sim_replay_trace(struct sim_run *run, struct ssd_config *cfg);
/* The statistics, the report and the write cache's figures on stdout. */
int sim_print_results(struct sim_run *run, const struct ssd_config *cfg);
/* The device's statistics alone, then what aging did (@age, if any). */
void sim_print_device(struct sim_run *run, const struct sim_age_result *age);
/* The disks as "0 (437 requests), 1 (461 requests), ..." on stderr. */
void sim_list_disks(const struct trace_disks *disks);

#endif /* SSD_SIM_RUN_H */

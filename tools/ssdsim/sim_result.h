/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_result.h - what one ssdsim run gives back: the device's counters,
 * the latency summaries, the wrap and remap census, the trace's summary,
 * the configuration, how the run measured (warm-up, fill, window,
 * saturation), the write cache's off-line bound, what --age did; and all
 * of it as values in --json's order (sim_values.h).  A run fills it
 * (sim_results.c) and prints nothing of it; the command line prints it
 * (the text summary, --verbose, --json, --fields, --csv), libssdsim.so
 * hands its values to its caller (ssdsim_api.h).
 *
 * The counters are struct ssdemu_stats, the ABI's form, not the core's
 * struct ssd_stats: it is what the tools' printers and the stats field
 * table (tools/report/stats_fields.h) read, the same reading ssdctl gets
 * from the kernel, so ssdsim and ssdctl name and print a counter alike.
 */
#ifndef SSD_SIM_RESULT_H
#define SSD_SIM_RESULT_H

#include <stdbool.h>

#include "abi/ssd_abi.h"
#include "tools/ssdsim/sim_age.h"
#include "tools/ssdsim/sim_report.h"
#include "tools/ssdsim/sim_values.h"

enum sim_result_kind {
	SIM_RESULT_NONE,		/* refused before there was anything */
	SIM_RESULT_KEYS,		/* --list-keys: the values alone */
	SIM_RESULT_DEVICE,		/* a device's statistics (--from, --age, a handle's) */
	SIM_RESULT_REPLAY,		/* a trace replayed */
};

/* A disk the trace names, and its requests. */
struct sim_disk_count {
	char name[48];
	u64 requests;
};

/* A replay's own figures, beside the device's counters. */
struct sim_replay_result {
	/* The trace. */
	char *trace_path;
	const char *trace_format;
	u64 requests;			/* measured */
	u64 span_bytes;			/* the highest byte a request reached, + 1 */
	struct sim_disk_count *disks;	/* the disks it names */
	size_t nr_disks;
	bool disk_set;			/* --disk: the one replayed */
	char disk[48];
	/* The census: requests wrapped, skipped, split, dropped. */
	u64 wrapped_requests;
	u64 zero_length_requests;
	u64 split_requests;
	u64 unmapped_trims;
	bool remap_dense;
	const char *remap_unit;		/* sim_remap_unit_name() */
	u64 remap_unit_bytes;
	u64 remap_footprint_bytes;
	bool final_flush;
	struct sim_latency_summary read, write;
	/* The write cache: warm-up and the off-line bound (--belady). */
	unsigned int warmup;
	bool belady;
	u64 belady_capacity_pages;
	u64 belady_write_pages;
	u64 belady_write_hit_pages;
	/* How the run measured (docs/ssdsim.md). */
	u32 iodepth;			/* 0: the trace's times */
	bool filled;			/* --fill ran: */
	double fill_fraction;
	u64 fill_bytes;
	u64 fill_requests;
	bool measure_set;		/* --measure-from given: the window below */
	u64 window_from_request;
	u64 window_from_ns;
	u64 window_from_pass_ns;
	u64 window_ns;			/* first arrival to last completion */
	double time_scale;
	bool saturated;
};

struct sim_result {
	enum sim_result_kind kind;
	struct ssdemu_stats stats;	/* DEVICE, REPLAY */
	struct ssd_config cfg;		/* DEVICE, REPLAY: what it ran with */
	struct sim_replay_result replay;	/* REPLAY */
	bool aged;			/* DEVICE: --age ran, */
	struct sim_age_result age;	/* and did this */
	/*
	 * Everything above in --json's order.  values.v[0] opens the top
	 * object (a list for KEYS); for DEVICE and REPLAY the device's
	 * counters come first, up to own_from, then ssdsim's own fields.
	 */
	struct sim_values values;
	size_t own_from;
};

void sim_result_init(struct sim_result *res);
void sim_result_free(struct sim_result *res);
/*
 * res->values from the typed fields of @res (its kind DEVICE or REPLAY):
 * 0, or -1 after a message (out of memory: the values are incomplete).
 */
int sim_result_make_values(struct sim_result *res);
/* Names a replay's values hold only when defined (for --fields), NULL-ended. */
extern const char *const sim_result_sometimes[];

#endif /* SSD_SIM_RESULT_H */

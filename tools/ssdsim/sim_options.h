/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_options.h - ssdsim's command line: the configuration (a preset and
 * key=value overrides, applied in order, or a snapshot to start from),
 * how the trace is read and placed, what is reported, the aging to do and
 * the snapshot to save.  Options that contradict each other, or are given
 * twice, are refused with a message here; checks that need the device or
 * the trace's format are the callers'.
 */
#ifndef SSD_SIM_OPTIONS_H
#define SSD_SIM_OPTIONS_H

#include <stdbool.h>

#include "common/ssd_config.h"
#include "tools/ssdsim/belady.h"
#include "tools/ssdsim/sim_remap.h"
#include "tools/trace/trace_reader.h"

struct sim_options {
	const char *trace_path;
	const char *completions_path;
	enum trace_format format;
	unsigned int warmup;		/* passes before the measured one */
	bool json;
	bool check;
	bool belady;
	enum belady_next_use belady_next_use;	/* --belady-next-use (any) */
	bool final_flush;		/* a FLUSH ends each pass (default) */
	bool remap_dense;		/* --remap dense */
	enum sim_remap_unit remap_unit;	/* --remap-unit (the erase block) */
	u64 remap_unit_bytes;		/* SIM_REMAP_UNIT_BYTES: its bytes */
	struct trace_disk_spec disk;	/* --disk */
	const char *from_path;		/* --from: the device from a snapshot */
	const char *save_path;		/* --save: a snapshot at the end */
	const char *age_spec;		/* --age: precondition, no trace */
	const char *bad_blocks;		/* --bad-blocks "12 40-43": factory bad blocks */
	u64 seed;			/* --seed: the aging's random numbers */
	bool reset_stats;		/* --reset-stats: after --from */
	/* The instrument (docs/ssdsim.md). */
	double fill;			/* --fill: utilisation before the trace; 0 none */
	bool measure_set;		/* --measure-from given: */
	bool measure_is_time;		/* a time (ns into the pass), else a count */
	u64 measure_from;		/* requests, or ns */
	u32 iodepth;			/* --iodepth: closed loop; 0 = the trace's times */
	double time_scale;		/* --time-scale: arrival times x this (1) */
	const char *fields;		/* --fields a,b,c (names as in the JSON) */
	bool csv;			/* --csv: one header and one row */
	bool verbose;			/* --verbose/--all: every counter in text */
	int progress;			/* --progress 1, --no-progress 0, -1: a tty */
	bool data;			/* --data: keep page bytes (data_store=bytes) */
	/* --inject CMD (repeatable): error injection commands, in order. */
	char **injects;
	int nr_injects;
	u64 power_cut_at;		/* --power-cut-at N: before request N (1..), 0 none */
	/* The key=value arguments, in order (applied again after --from). */
	char **keys;
	int nr_keys;
};

/* The usage text on stderr; returns the exit status for it (2). */
int sim_usage(void);
/*
 * Parse @argv into @o, configuration keys into @cfg as they come: 0, or
 * the exit status after a message (1: refused, 2: usage).
 */
int sim_options_parse(int argc, char **argv, struct ssd_config *cfg, struct sim_options *o);
void sim_options_free(struct sim_options *o);

#endif /* SSD_SIM_OPTIONS_H */

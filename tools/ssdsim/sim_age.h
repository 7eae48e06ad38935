/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_age.h - preconditioning a device to a named state (ssdsim --age),
 * as the SNIA SSS PTS does before it measures: a sequential fill of the
 * logical space to a fill level, then random overwrites of the filled
 * range (bs-byte writes, 4 KiB by default, aligned, uniform) of N times
 * the filled bytes, and further random overwrites until the mean erase
 * count reaches a target, if one is given.  Requests go one at a time,
 * each arriving when the one before completed (queue depth 1), so the
 * device's clock advances as a host's would; a FLUSH ends it, as a
 * host's sync (a layer's write buffer drains).  Deterministic: the
 * offsets and the data come from one seed.
 *
 * The spec: fill=F (0 < F <= 1, of the logical capacity),
 * overwrite=N (>= 0, times the filled bytes; default 0),
 * erase_mean=E (>= 0; default none), bs=BYTES (a multiple of the logical
 * block; default 4096), comma-separated, each at most once.
 */
#ifndef SSD_SIM_AGE_H
#define SSD_SIM_AGE_H

#include <stdbool.h>
#include <stdio.h>

#include "device/ssd_device.h"

struct sim_age_spec {
	double fill;
	double overwrite;
	double erase_mean;
	bool has_erase_mean;
	u64 bs;
};

/* What aging did, and the state it left. */
struct sim_age_result {
	u64 seed;
	u64 fill_bytes;			/* written sequentially */
	u64 overwrite_bytes;		/* written at random, both targets */
	u64 requests;
	u64 host_write_pages;		/* this aging's, and its programs: */
	u64 flash_program_pages;
	u64 valid_pages;		/* after it */
	u64 logical_pages;
	u64 erase_count_mean_milli;
	u64 erase_count_max;
};

/* Parse @text into @spec: 0, or -1 after a message. */
int sim_age_parse(const char *text, struct sim_age_spec *spec);
/*
 * Age @dev (its logical blocks of @block_bytes) as @spec says, with
 * @seed, then (@final_flush) a FLUSH as a host's sync: 0, or -1 after a
 * message.
 */
int sim_age_run(struct ssd_device *dev, u32 block_bytes, const struct sim_age_spec *spec,
		u64 seed, bool final_flush, struct sim_age_result *res);
/* The result as "age_..." lines, or as the values of --json's "age" object. */
void sim_age_print_text(FILE *out, const struct sim_age_result *res);
/*
 * The text a person reads after aging (without --verbose): what aging
 * wrote, its WAF, and the state it left of the device of @stats (fill,
 * valid data, free blocks, erase counts), in a few lines.
 */
struct ssdemu_stats;
void sim_age_print_summary(FILE *out, const struct sim_age_result *res,
			   const struct ssdemu_stats *stats);
struct sim_values;
void sim_age_values(struct sim_values *vs, const struct sim_age_result *res);

#endif /* SSD_SIM_AGE_H */

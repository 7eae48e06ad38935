/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_summary.h - ssdsim's default text output: one screen with the trace
 * and how it was replayed, the configuration (the keys not at their
 * default), what the host did, programs and erases by region, WAF (total
 * and TLC-only), GC, the write cache and dedup when they are on, and the
 * latency percentiles.  --verbose prints every counter instead, --json
 * all of it.
 */
#ifndef SSD_SIM_SUMMARY_H
#define SSD_SIM_SUMMARY_H

#include <stdio.h>

#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/sim_run.h"

/* The summary of @res, a replay's result. */
void sim_print_summary(FILE *out, const struct sim_result *res);
/* The window's length (first arrival to last completion), ns. */
u64 sim_window_ns(const struct sim_run *run);

#endif /* SSD_SIM_SUMMARY_H */

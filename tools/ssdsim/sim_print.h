/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_print.h - how the ssdsim command line prints a result
 * (sim_result.h) on stdout: --json (the device's counters by the stats
 * printer, then the result's own values), --fields and --csv (chosen
 * values), --verbose (every counter, the replay's report, the write
 * cache's figures, how the run measured, every key), or the one-screen
 * summary (sim_summary.h).  libssdsim.so runs without it.
 */
#ifndef SSD_SIM_PRINT_H
#define SSD_SIM_PRINT_H

#include <stdio.h>

#include "tools/ssdsim/sim_options.h"
#include "tools/ssdsim/sim_result.h"

/* @res on @out as @o asks: 0, or -1 after a message (--fields refused). */
int sim_print_result(FILE *out, const struct sim_result *res, const struct sim_options *o);

#endif /* SSD_SIM_PRINT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_watch.h - what `ssdctl watch` prints: the counters that moved
 * between two readings of struct ssdemu_stats, and the JSON reader of
 * `ssdctl stats --json`'s output (a reading taken earlier: `--since`).
 */
#ifndef SSD_STATS_WATCH_H
#define SSD_STATS_WATCH_H

#include <stdio.h>

#include "include/ssdemu_ioctl.h"

/*
 * Print every counter of @after that differs from @before (name, signed
 * change, change a second over @interval_s, if > 0), then the interval's
 * host MiB written and WAF; "nothing moved" if none did.  Returns the
 * number of counters that moved.
 */
int stats_print_deltas(FILE *out, const struct ssdemu_stats *before,
		       const struct ssdemu_stats *after, double interval_s);

/*
 * Fill @st from @in, `ssdctl stats --json` output: every integer field by
 * name (others, such as waf, are derived and skipped).  Returns 0, or -1
 * with a message on stderr naming @what if no field was found or a line
 * is not a JSON field.
 */
int stats_read_json(FILE *in, const char *what, struct ssdemu_stats *st);

#endif /* SSD_STATS_WATCH_H */

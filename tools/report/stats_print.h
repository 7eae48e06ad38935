/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_print.h - prints struct ssdemu_stats as text ("name value" lines)
 * or JSON, the same way for `ssdctl stats --raw/--json` (from the kernel)
 * and `ssdsim --verbose/--json` (from the userspace core): every counter
 * of the table (stats_fields.h) under its name, then the derived figures
 * (stats_derived.h).
 */
#ifndef SSD_STATS_PRINT_H
#define SSD_STATS_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "include/ssdemu_ioctl.h"

void stats_print_text(FILE *out, const struct ssdemu_stats *st);
void stats_print_json(FILE *out, const struct ssdemu_stats *st);
/* The object's opening and fields, without the closing brace: for callers
 * that add fields of their own (ssdsim). */
void stats_print_json_fields(FILE *out, const struct ssdemu_stats *st);

/*
 * The figures the JSON derives from the counters and prints after them
 * (erase_count_mean, waf, the mean latencies, dedup_ratio), by index in
 * its order: for a tool that hands a reading on without printing it
 * (libssdsim).  stats_figure_get() is 1 with the value, or 0 if it is
 * undefined for @st: then the JSON has null, or leaves it out if
 * stats_figure_optional().  stats_figure_format() is how the JSON writes
 * it ("%.6f").
 */
size_t stats_figure_count(void);
const char *stats_figure_name(size_t i);
const char *stats_figure_format(size_t i);
bool stats_figure_optional(size_t i);
int stats_figure_get(const struct ssdemu_stats *st, size_t i, double *value);

#endif /* SSD_STATS_PRINT_H */

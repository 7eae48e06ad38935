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

#include <stdio.h>

#include "include/ssdemu_ioctl.h"

void stats_print_text(FILE *out, const struct ssdemu_stats *st);
void stats_print_json(FILE *out, const struct ssdemu_stats *st);
/* The object's opening and fields, without the closing brace: for callers
 * that add fields of their own (ssdsim). */
void stats_print_json_fields(FILE *out, const struct ssdemu_stats *st);

#endif /* SSD_STATS_PRINT_H */

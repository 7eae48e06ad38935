/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_print.h - prints struct ssdemu_stats as text or JSON, the same way
 * for `ssdctl stats` (from the kernel) and `ssdsim` (from the userspace
 * core), with WAF, mean wear and mean read and write latency derived here.
 */
#ifndef SSD_STATS_PRINT_H
#define SSD_STATS_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "include/ssdemu_ioctl.h"

void stats_print_text(FILE *out, const struct ssdemu_stats *st);
void stats_print_json(FILE *out, const struct ssdemu_stats *st);
/* The object's opening and fields, without the closing brace: for callers
 * that add fields of their own (ssdsim). */
void stats_print_json_fields(FILE *out, const struct ssdemu_stats *st);

/*
 * The counters by index, in the order of the table (for `ssdctl watch`):
 * stats_field_get() is 0 for a field the writer did not know.
 * stats_field_set() is 0 for an unknown name.
 */
size_t stats_field_count(void);
const char *stats_field_name(size_t i);
int stats_field_get(const struct ssdemu_stats *st, size_t i, unsigned long long *value);
int stats_field_set(struct ssdemu_stats *st, const char *name, unsigned long long value);

#endif /* SSD_STATS_PRINT_H */

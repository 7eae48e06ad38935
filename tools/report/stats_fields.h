/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_fields.h - the counters of struct ssdemu_stats for the tools, by
 * index in the order of the ABI's one table of counters
 * (SSDEMU_STATS_COUNTERS, include/ssdemu_ioctl.h): each one's name, unit,
 * group, meaning, the stats version that added it and its value in a
 * reading.  ssdctl and ssdsim print, watch and parse the counters through
 * it; it holds no list of its own.
 */
#ifndef SSD_STATS_FIELDS_H
#define SSD_STATS_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "include/ssdemu_ioctl.h"

/* The groups of SSDEMU_STATS_GROUPS, in their order (STATS_GROUP_gc, ...). */
enum stats_group {
#define STATS_GROUP_ENUM(group, title) STATS_GROUP_##group,
	SSDEMU_STATS_GROUPS(STATS_GROUP_ENUM)
#undef STATS_GROUP_ENUM
	STATS_GROUPS
};

/* The number of counters; indexes run from 0 to it. */
size_t stats_field_count(void);
/* A counter's name, unit ("pages", "ns", ...), one-line meaning; NULL past the end. */
const char *stats_field_name(size_t i);
const char *stats_field_unit(size_t i);
const char *stats_field_help(size_t i);
/* The group a counter is shown in (STATS_GROUPS past the end). */
enum stats_group stats_field_group(size_t i);
/* The stats version that added it (0 past the end). */
unsigned int stats_field_version(size_t i);
/* The index of the counter @name, or -1. */
long stats_field_find(const char *name);
/*
 * stats_field_get(): 1 and the value in *@value, or 0 for a counter the
 * writer of @st did not know (an older module) or past the end.
 * stats_field_set(): 1, or 0 for an unknown name.
 */
int stats_field_get(const struct ssdemu_stats *st, size_t i, unsigned long long *value);
int stats_field_set(struct ssdemu_stats *st, const char *name, unsigned long long value);
/* Whether the writer of @st knew the field at byte @offset of the struct. */
bool stats_known(const struct ssdemu_stats *st, size_t offset);

/* A group's name ("gc") and title as `ssdctl stats` heads it ("GC"). */
const char *stats_group_name(enum stats_group group);
const char *stats_group_title(enum stats_group group);

#endif /* SSD_STATS_FIELDS_H */

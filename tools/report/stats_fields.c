// SPDX-License-Identifier: GPL-2.0
/*
 * stats_fields.c - the tools' view of the table of counters
 * (stats_fields.h): one entry per row of SSDEMU_STATS_COUNTERS, made by
 * the preprocessor from the table itself.
 */
#include <string.h>

#include "tools/report/stats_fields.h"

struct stats_field {
	const char *name;
	const char *unit;
	const char *help;
	size_t offset;			/* in struct ssdemu_stats */
	enum stats_group group;
	unsigned int version;
};

#define STATS_FIELD(field, unit_, group_, since, source, vendor, help_) {	\
	.name = #field, .unit = unit_, .help = help_,				\
	.offset = offsetof(struct ssdemu_stats, field),				\
	.group = STATS_GROUP_##group_, .version = since },

static const struct stats_field fields[] = {
	SSDEMU_STATS_COUNTERS(STATS_FIELD)
};

#define STATS_GROUP_ROW(group, title) { #group, title },

static const struct {
	const char *name, *title;
} groups[STATS_GROUPS] = {
	SSDEMU_STATS_GROUPS(STATS_GROUP_ROW)
};

/* The struct is the table: nothing but its counters after the 8-byte header. */
_Static_assert(sizeof(fields) / sizeof(fields[0]) * sizeof(__u64) +
	       offsetof(struct ssdemu_stats, logical_capacity_bytes) ==
	       sizeof(struct ssdemu_stats), "a field of struct ssdemu_stats is not a counter");

size_t stats_field_count(void)
{
	return sizeof(fields) / sizeof(fields[0]);
}

static const struct stats_field *field(size_t i)
{
	return i < stats_field_count() ? &fields[i] : NULL;
}

const char *stats_field_name(size_t i)
{
	return field(i) ? field(i)->name : NULL;
}

const char *stats_field_unit(size_t i)
{
	return field(i) ? field(i)->unit : NULL;
}

const char *stats_field_help(size_t i)
{
	return field(i) ? field(i)->help : NULL;
}

enum stats_group stats_field_group(size_t i)
{
	return field(i) ? field(i)->group : STATS_GROUPS;
}

unsigned int stats_field_version(size_t i)
{
	return field(i) ? field(i)->version : 0;
}

long stats_field_find(const char *name)
{
	size_t i;

	for (i = 0; i < stats_field_count(); i++)
		if (!strcmp(fields[i].name, name))
			return (long)i;
	return -1;
}

bool stats_known(const struct ssdemu_stats *st, size_t offset)
{
	return offset + sizeof(__u64) <= st->struct_bytes;
}

int stats_field_get(const struct ssdemu_stats *st, size_t i, unsigned long long *value)
{
	if (!field(i) || !stats_known(st, fields[i].offset))
		return 0;
	*value = *(const __u64 *)((const char *)st + fields[i].offset);
	return 1;
}

int stats_field_set(struct ssdemu_stats *st, const char *name, unsigned long long value)
{
	long i = stats_field_find(name);

	if (i < 0)
		return 0;
	*(__u64 *)((char *)st + fields[i].offset) = value;
	return 1;
}

const char *stats_group_name(enum stats_group group)
{
	return group < STATS_GROUPS ? groups[group].name : NULL;
}

const char *stats_group_title(enum stats_group group)
{
	return group < STATS_GROUPS ? groups[group].title : NULL;
}

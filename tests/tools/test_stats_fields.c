// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats_fields.c - the tools' view of the table of counters
 * (tools/report/stats_fields.c) against struct ssdemu_stats itself: one
 * entry per u64 of the struct, in its order, names unique and found,
 * values read and written at their own offsets, a field an older writer
 * did not know left out; every group titled and holding counters, and
 * `ssdctl stats` (tools/ssdctl/stats_group.c) heading each group once, in
 * the table's order, when every counter is set.
 */
#include <stdio.h>
#include <string.h>

#include "tools/report/stats_fields.h"
#include "tools/ssdctl/stats_group.h"
#include "expect.h"

static void check_fields(void)
{
	size_t n = stats_field_count(), i, j;
	struct ssdemu_stats st;
	unsigned long long v;

	EXPECT(n * sizeof(__u64) + offsetof(struct ssdemu_stats, logical_capacity_bytes) ==
	       sizeof(st), "%zu counters in a struct of %zu bytes", n, sizeof(st));
	memset(&st, 0, sizeof(st));
	st.struct_bytes = sizeof(st);
	for (i = 0; i < n; i++) {
		const char *name = stats_field_name(i);

		EXPECT(name && *stats_field_unit(i) && *stats_field_help(i), "field %zu", i);
		EXPECT(stats_field_group(i) < STATS_GROUPS, "%s: group", name);
		EXPECT(stats_field_version(i) >= 1 &&
		       stats_field_version(i) <= SSDEMU_STATS_VERSION, "%s: version", name);
		EXPECT(i == 0 || stats_field_version(i) >= stats_field_version(i - 1),
		       "%s: a row of version %u after one of %u", name, stats_field_version(i),
		       stats_field_version(i - 1));
		EXPECT(stats_field_find(name) == (long)i, "%s: found at %ld", name,
		       stats_field_find(name));
		for (j = 0; j < i; j++)
			EXPECT(strcmp(stats_field_name(j), name), "%s twice", name);
		/* The value i + 1 set by name lands in the i-th u64 after the header. */
		EXPECT(stats_field_set(&st, name, i + 1), "%s: set", name);
		EXPECT(((const __u64 *)&st.logical_capacity_bytes)[i] == i + 1, "%s: offset", name);
		EXPECT(stats_field_get(&st, i, &v) && v == i + 1, "%s: get", name);
	}
	EXPECT(!stats_field_name(n) && stats_field_find("no_such_counter") == -1 &&
	       !stats_field_set(&st, "no_such_counter", 1) && !stats_field_get(&st, n, &v),
	       "past the end");
	EXPECT(*(const __u64 *)((const char *)&st + sizeof(st) - sizeof(__u64)) == n,
	       "the last counter is the struct's last u64");

	/* A writer of an older, smaller struct (version 2): its fields only. */
	st.struct_bytes = offsetof(struct ssdemu_stats, read_commands);
	for (i = 0; i < n; i++)
		EXPECT(stats_field_get(&st, i, &v) == (i < (size_t)stats_field_find("read_commands")),
		       "%s: known to a writer of %u bytes", stats_field_name(i), st.struct_bytes);
}

static void check_groups(void)
{
	struct ssdemu_stats st;
	char *text = NULL, *at;
	size_t bytes = 0, i;
	enum stats_group g;
	FILE *out;

	for (g = 0; g < STATS_GROUPS; g++) {
		size_t members = 0;

		EXPECT(stats_group_name(g) && stats_group_title(g), "group %d", g);
		for (i = 0; i < stats_field_count(); i++)
			members += stats_field_group(i) == g;
		EXPECT(members, "group %s holds no counter", stats_group_name(g));
	}
	EXPECT(!stats_group_name(STATS_GROUPS), "past the groups");

	/* Every counter set (wear consistent: min <= mean <= max): every group shown. */
	memset(&st, 0, sizeof(st));
	st.version = SSDEMU_STATS_VERSION;
	st.struct_bytes = sizeof(st);
	for (i = 0; i < stats_field_count(); i++)
		stats_field_set(&st, stats_field_name(i), 3);
	st.erase_count_max = 5;
	st.erase_count_mean_milli = 4000;
	out = open_memstream(&text, &bytes);
	EXPECT(out, "memstream");
	stats_print_grouped(out, &st);
	EXPECT(!fclose(out), "memstream");
	/* Each title on a line of its own, after the previous group's. */
	at = text;
	for (g = 0; g < STATS_GROUPS; g++) {
		char line[128];
		size_t len = snprintf(line, sizeof(line), "%s\n", stats_group_title(g));
		char *found = at;

		while (found && (strncmp(found, line, len) || (found > text && found[-1] != '\n')))
			found = strchr(found + 1, stats_group_title(g)[0]);
		EXPECT(found, "group %s: no heading '%s' after the previous one",
		       stats_group_name(g), stats_group_title(g));
		at = found + len;
	}
	free(text);
}

/*
 * Stats read from a file may be inconsistent: a min and a mean beyond the
 * max (and a NaN-free but huge mean) still print a bar inside its bounds.
 */
static void check_wear_spread_bounds(void)
{
	static const unsigned long long means_milli[] = { 9000, 1ULL << 62, 0 };
	struct ssdemu_stats st;
	size_t bytes, i;
	char *text;
	FILE *out;

	for (i = 0; i < sizeof(means_milli) / sizeof(means_milli[0]); i++) {
		memset(&st, 0, sizeof(st));
		st.version = SSDEMU_STATS_VERSION;
		st.struct_bytes = sizeof(st);
		st.erase_count_max = 5;
		st.erase_count_min = 7 + i * 1000;
		st.erase_count_mean_milli = means_milli[i];
		out = open_memstream(&text, &bytes);
		EXPECT(out, "memstream");
		stats_print_grouped(out, &st);
		EXPECT(!fclose(out), "memstream");
		EXPECT(strstr(text, "spread 0..max"), "no spread bar for min %llu, mean %llu",
		       (unsigned long long)st.erase_count_min, means_milli[i]);
		free(text);
	}
}

int main(void)
{
	check_fields();
	check_groups();
	check_wear_spread_bounds();
	printf("stats_fields: ok (%zu counters in %d groups)\n", stats_field_count(),
	       STATS_GROUPS);
	return 0;
}

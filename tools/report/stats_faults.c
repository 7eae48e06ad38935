// SPDX-License-Identifier: GPL-2.0
/*
 * stats_faults.c - the faults of a reading (stats_faults.h): the counters
 * of the table's fault groups that are not zero, and the warning line.
 */
#include <string.h>

#include "tools/report/stats_faults.h"
#include "tools/report/stats_fields.h"

bool stats_field_is_fault(size_t i)
{
	enum stats_group g = stats_field_group(i);

	return g == STATS_GROUP_read_errors || g == STATS_GROUP_wear_out ||
	       g == STATS_GROUP_failures;
}

/* Counter @i of @st, if a fault counter its writer knew that is not zero. */
static bool fault_value(const struct ssdemu_stats *st, size_t i, unsigned long long *value)
{
	return stats_field_is_fault(i) && stats_field_get(st, i, value) && *value;
}

size_t stats_fault_count(const struct ssdemu_stats *st)
{
	unsigned long long value;
	size_t i, n = 0;

	for (i = 0; i < stats_field_count(); i++)
		n += fault_value(st, i, &value);
	return n;
}

size_t stats_print_faults(FILE *out, const struct ssdemu_stats *st, unsigned int indent,
			  unsigned int width)
{
	unsigned int col = indent;
	unsigned long long value;
	size_t i, shown = 0;

	for (i = 0; i < stats_field_count(); i++) {
		char item[96];
		int len;

		if (!fault_value(st, i, &value))
			continue;
		len = snprintf(item, sizeof(item), "%s %llu", stats_field_name(i), value);
		if (shown && col + 2 + len > width) {
			fprintf(out, ",\n%*s", (int)indent, "");
			col = indent;
		} else if (shown) {
			fputs(", ", out);
			col += 2;
		}
		fputs(item, out);
		col += len;
		shown++;
	}
	if (shown)
		fputc('\n', out);
	return shown;
}

/* "N of M host KIND failed" / "refused", after @sep; whether said. */
static bool say_kind(FILE *out, const char *sep, const char *kind, unsigned long long done,
		     unsigned long long failed, unsigned long long refused)
{
	unsigned long long all = done + failed + refused;

	if (!failed && !refused)
		return false;
	fprintf(out, "%s", sep);
	if (failed)
		fprintf(out, "%llu of %llu host %s failed", failed, all, kind);
	if (refused)
		fprintf(out, "%s%llu of %llu host %s refused", failed ? ", " : "", refused, all,
			kind);
	return true;
}

bool stats_print_warning(FILE *out, const struct ssdemu_stats *st)
{
	unsigned long long other_failed, other_refused, other_done;
	const char *sep = "WARNING: ";
	bool said = false;

	/* A writer before version 11 did not count them. */
	if (!stats_known(st, offsetof(struct ssdemu_stats, write_refused_commands)))
		return false;
	other_failed = st->failed_commands - st->read_failed_commands - st->write_failed_commands;
	other_refused = st->refused_commands - st->read_refused_commands -
			st->write_refused_commands;
	other_done = st->commands - st->read_commands - st->write_commands;
	if (say_kind(out, sep, "reads", st->read_commands, st->read_failed_commands,
		     st->read_refused_commands)) {
		sep = "; ";
		said = true;
	}
	if (say_kind(out, sep, "writes", st->write_commands, st->write_failed_commands,
		     st->write_refused_commands)) {
		sep = "; ";
		said = true;
	}
	said |= say_kind(out, sep, "other requests (trim, flush)", other_done, other_failed,
			 other_refused);
	if (said)
		fprintf(out, " (their latencies are left out; the fault counters say why)\n");
	return said;
}

void stats_print_not_timed(FILE *out, unsigned long long failed, unsigned long long refused)
{
	if (failed || refused)
		fprintf(out, " (%llu failed, %llu refused: in no latency)", failed, refused);
}

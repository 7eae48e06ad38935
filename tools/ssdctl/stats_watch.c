// SPDX-License-Identifier: GPL-2.0
/*
 * stats_watch.c - the counters that moved between two readings of the
 * device's statistics (`ssdctl watch`), and the reader of an earlier
 * reading saved with `ssdctl stats DEV --json` (`ssdctl watch --since`).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_fields.h"
#include "tools/ssdctl/stats_watch.h"

int stats_print_deltas(FILE *out, const struct ssdemu_stats *before,
		       const struct ssdemu_stats *after, double interval_s)
{
	unsigned long long b, a;
	long long delta;
	int moved = 0;
	size_t i;

	for (i = 0; i < stats_field_count(); i++) {
		if (!stats_field_get(after, i, &a))
			continue;
		if (!stats_field_get(before, i, &b))
			b = 0;
		if (a == b)
			continue;
		delta = (long long)(a - b);
		moved++;
		if (interval_s > 0)
			fprintf(out, "  %-32s %+16lld %16.1f/s\n", stats_field_name(i), delta,
				delta / interval_s);
		else
			fprintf(out, "  %-32s %+16lld\n", stats_field_name(i), delta);
	}
	if (!moved) {
		fprintf(out, "  nothing moved\n");
		return 0;
	}
	if (after->host_write_bytes != before->host_write_bytes) {
		double host = (double)(after->host_write_bytes - before->host_write_bytes);
		double flash = (double)(after->flash_program_pages - before->flash_program_pages) *
			after->page_size_bytes;

		fprintf(out, "  host wrote %.2f MiB", host / (1024.0 * 1024.0));
		if (interval_s > 0)
			fprintf(out, " (%.2f MiB/s)", host / (1024.0 * 1024.0) / interval_s);
		fprintf(out, ", flash programmed %.2f MiB: WAF %.3f over the interval\n",
			flash / (1024.0 * 1024.0),
			stats_waf_of(after->flash_program_pages - before->flash_program_pages,
				     after->page_size_bytes,
				     after->host_write_bytes - before->host_write_bytes));
	}
	return moved;
}

int stats_read_json(FILE *in, const char *what, struct ssdemu_stats *st)
{
	char line[256], name[128], value[64], *end;
	unsigned long long v;
	int fields = 0, lineno = 0;

	memset(st, 0, sizeof(*st));
	st->struct_bytes = sizeof(*st);
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		if (!strcmp(line, "{\n") || !strcmp(line, "}\n"))
			continue;
		if (sscanf(line, " \"%127[^\"]\": %63[^,\n]", name, value) != 2) {
			fprintf(stderr, "ssdctl: %s:%d: not a field of `ssdctl stats --json`\n",
				what, lineno);
			return -1;
		}
		/* Derived figures (waf, means) are recomputed, not read. */
		if (!strcmp(value, "null") || strchr(value, '.'))
			continue;
		errno = 0;
		v = strtoull(value, &end, 10);
		if (errno || *end || value[0] == '-') {
			fprintf(stderr, "ssdctl: %s:%d: %s: bad value '%s'\n", what, lineno, name,
				value);
			return -1;
		}
		if (!strcmp(name, "stats_version")) {
			st->version = (__u32)v;
			continue;
		}
		if (!stats_field_set(st, name, v)) {
			fprintf(stderr, "ssdctl: %s:%d: unknown counter '%s'\n", what, lineno, name);
			return -1;
		}
		fields++;
	}
	if (!fields) {
		fprintf(stderr, "ssdctl: %s: no counters (not `ssdctl stats --json` output)\n",
			what);
		return -1;
	}
	return 0;
}

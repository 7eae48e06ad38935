// SPDX-License-Identifier: GPL-2.0
/*
 * stats_print.c - the text and JSON renderings of struct ssdemu_stats
 * (stats_print.h): the counters in the table's order, then the derived
 * figures, which the JSON prints by a table of their names and formats.  Fields the writer did not know (an older module with a
 * smaller struct) are left out rather than printed as zero.
 */
#include <stdbool.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_fields.h"
#include "tools/report/stats_print.h"

static void print_mean_text(FILE *out, const char *name, double mean_us)
{
	if (mean_us < 0)
		fprintf(out, "%-28s n/a\n", name);
	else
		fprintf(out, "%-28s %.3f\n", name, mean_us);
}

/*
 * The figures derived from the counters that the JSON prints after them,
 * in its order: each one's name, value (stats_derived.h; < 0: undefined),
 * how the JSON writes it, and whether an undefined one is left out (else
 * null).
 */
static const struct stats_figure {
	const char *name;
	double (*value)(const struct ssdemu_stats *st);
	const char *json_format;
	bool optional;
} stat_figures[] = {
	{ "erase_count_mean", stats_erase_count_mean, "%.3f", false },
	{ "waf", stats_waf, "%.6f", false },
	{ "read_latency_mean_us", stats_read_mean_us, "%.3f", false },
	{ "write_latency_mean_us", stats_write_mean_us, "%.3f", false },
	{ "dedup_ratio", stats_dedup_ratio, "%.6f", true },
};

size_t stats_figure_count(void)
{
	return sizeof(stat_figures) / sizeof(stat_figures[0]);
}

const char *stats_figure_name(size_t i)
{
	return i < stats_figure_count() ? stat_figures[i].name : NULL;
}

const char *stats_figure_format(size_t i)
{
	return i < stats_figure_count() ? stat_figures[i].json_format : NULL;
}

bool stats_figure_optional(size_t i)
{
	return i < stats_figure_count() && stat_figures[i].optional;
}

int stats_figure_get(const struct ssdemu_stats *st, size_t i, double *value)
{
	if (i >= stats_figure_count())
		return 0;
	*value = stat_figures[i].value(st);
	return *value >= 0;
}

void stats_print_text(FILE *out, const struct ssdemu_stats *st)
{
	double waf = stats_waf(st), dedup_ratio = stats_dedup_ratio(st);
	unsigned long long value;
	size_t i;

	fprintf(out, "%-28s %u\n", "stats_version", st->version);
	for (i = 0; i < stats_field_count(); i++)
		if (stats_field_get(st, i, &value))
			fprintf(out, "%-28s %llu\n", stats_field_name(i), value);
	fprintf(out, "%-28s %.3f\n", "erase_count_mean", stats_erase_count_mean(st));
	if (waf < 0)
		fprintf(out, "%-28s n/a (no host writes)\n", "waf");
	else
		fprintf(out, "%-28s %.3f\n", "waf", waf);
	print_mean_text(out, "read_latency_mean_us", stats_read_mean_us(st));
	print_mean_text(out, "write_latency_mean_us", stats_write_mean_us(st));
	if (dedup_ratio >= 0)
		fprintf(out, "%-28s %.3f\n", "dedup_ratio", dedup_ratio);
}

void stats_print_json_fields(FILE *out, const struct ssdemu_stats *st)
{
	unsigned long long value;
	double figure;
	size_t i;

	fprintf(out, "{\n  \"stats_version\": %u", st->version);
	for (i = 0; i < stats_field_count(); i++)
		if (stats_field_get(st, i, &value))
			fprintf(out, ",\n  \"%s\": %llu", stats_field_name(i), value);
	for (i = 0; i < stats_figure_count(); i++) {
		if (stats_figure_get(st, i, &figure)) {
			fprintf(out, ",\n  \"%s\": ", stat_figures[i].name);
			fprintf(out, stat_figures[i].json_format, figure);
		} else if (!stat_figures[i].optional) {
			fprintf(out, ",\n  \"%s\": null", stat_figures[i].name);
		}
	}
}

void stats_print_json(FILE *out, const struct ssdemu_stats *st)
{
	stats_print_json_fields(out, st);
	fprintf(out, "\n}\n");
}

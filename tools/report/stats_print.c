// SPDX-License-Identifier: GPL-2.0
/*
 * stats_print.c - the text and JSON renderings of struct ssdemu_stats
 * (stats_print.h): the counters in the table's order, then the derived
 * figures.  Fields the writer did not know (an older module with a
 * smaller struct) are left out rather than printed as zero.
 */
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

static void print_mean_json(FILE *out, const char *name, double mean_us)
{
	if (mean_us < 0)
		fprintf(out, ",\n  \"%s\": null", name);
	else
		fprintf(out, ",\n  \"%s\": %.3f", name, mean_us);
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
	double waf = stats_waf(st), dedup_ratio = stats_dedup_ratio(st);
	unsigned long long value;
	size_t i;

	fprintf(out, "{\n  \"stats_version\": %u", st->version);
	for (i = 0; i < stats_field_count(); i++)
		if (stats_field_get(st, i, &value))
			fprintf(out, ",\n  \"%s\": %llu", stats_field_name(i), value);
	fprintf(out, ",\n  \"erase_count_mean\": %.3f", stats_erase_count_mean(st));
	if (waf < 0)
		fprintf(out, ",\n  \"waf\": null");
	else
		fprintf(out, ",\n  \"waf\": %.6f", waf);
	print_mean_json(out, "read_latency_mean_us", stats_read_mean_us(st));
	print_mean_json(out, "write_latency_mean_us", stats_write_mean_us(st));
	if (dedup_ratio >= 0)
		fprintf(out, ",\n  \"dedup_ratio\": %.6f", dedup_ratio);
}

void stats_print_json(FILE *out, const struct ssdemu_stats *st)
{
	stats_print_json_fields(out, st);
	fprintf(out, "\n}\n");
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace_dump.c - reads a trace through trace_reader and prints what the
 * simulators would see: the format, then one line per record
 * ("arrival_ns op offset_bytes length_bytes [disk] [hashes]"), or with
 * --count only the totals and the reading rate.  A tool for checking a
 * trace and for measuring the reader alone.
 *
 *   trace_dump [--format NAME] [--disk N|MAJ,MIN|HOST_N] [--count] TRACE
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tools/trace/trace_reader.h"

static int usage(void)
{
	fprintf(stderr, "usage: trace_dump [--format %s] [--disk N|MAJOR,MINOR|HOST_N] [--count] TRACE\n",
		trace_format_list());
	return 2;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const char ops[] = "RWTZF";
	enum trace_format format = TRACE_AUTO;
	struct trace_disk_spec disk = { 0 };
	uint64_t n = 0, bytes = 0, done, total;
	struct trace_reader tr;
	struct trace_record rec;
	const char *path = NULL;
	bool count = false;
	char name[48];
	double start;
	int ret;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--count")) {
			count = true;
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			if (trace_parse_format(argv[++i], &format)) {
				fprintf(stderr, "trace_dump: unknown format %s (known: %s)\n",
					argv[i], trace_format_list());
				return 2;
			}
		} else if (!strcmp(argv[i], "--disk") && i + 1 < argc) {
			if (trace_disk_parse(argv[++i], &disk))
				return usage();
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage();
		} else if (!path) {
			path = argv[i];
		} else {
			return usage();
		}
	}
	if (!path)
		return usage();
	if (trace_open(&tr, path, format))
		return 1;
	trace_select_disk(&tr, &disk);
	start = now_s();
	while ((ret = trace_next(&tr, &rec)) > 0) {
		n++;
		bytes += rec.length_bytes;
		if (count)
			continue;
		if (n == 1)
			printf("format %s\n", trace_format_name(tr.format));
		printf("%" PRIu64 " %c %" PRIu64 " %" PRIu64, rec.arrival_ns,
		       rec.op < sizeof(ops) - 1 ? ops[rec.op] : '?', rec.offset_bytes,
		       rec.length_bytes);
		if (rec.has_device) {
			trace_disks_name(&tr.disks, rec.device, name, sizeof(name));
			printf(" disk=%s", name);
		}
		if (rec.content_hash)
			printf(" %s", rec.content_hash);
		printf("\n");
	}
	if (count) {
		double s = now_s() - start;

		trace_progress(&tr, &done, &total);
		printf("format %s records %" PRIu64 " bytes %" PRIu64 " lines %lu read %" PRIu64
		       " of %" PRIu64 " seconds %.3f records_per_s %.0f\n",
		       trace_format_name(tr.format), n, bytes, tr.line, done, total, s,
		       s > 0 ? n / s : 0.0);
	}
	trace_close(&tr);
	return ret < 0 ? 1 : 0;
}

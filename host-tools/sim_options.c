// SPDX-License-Identifier: GPL-2.0
/*
 * sim_options.c - ssdsim's command line (sim_options.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/conf_file.h"
#include "host-tools/sim_options.h"

int sim_usage(void)
{
	fprintf(stderr, "usage: ssdsim [--config FILE] [key=value ...] "
		"[--format auto|mqsim|fiu|ssdemu|blkparse] [--disk N|MAJOR,MINOR] "
		"[--remap none|dense] [--remap-unit BYTES] [--json] [--check] "
		"[--completions FILE] [--warmup N] [--belady] [--no-final-flush] TRACE\n"
		"       ssdsim --list-keys\n");
	return 2;
}

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	if (ssd_config_set(ctx, key, value)) {
		fprintf(stderr, "ssdsim: %s: %s=%s refused\n", where, key, value);
		return -1;
	}
	return 0;
}

/* A whole decimal number; -1 if @text is anything else. */
static int parse_count(const char *text, unsigned long long *out)
{
	char *end;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	*out = strtoull(text, &end, 10);
	return *end ? -1 : 0;
}

/* The options that take a value, each allowed once. */
enum { OPT_CONFIG, OPT_FORMAT, OPT_COMPLETIONS, OPT_WARMUP, OPT_DISK, OPT_REMAP,
       OPT_REMAP_UNIT, OPT_NR };

static const char *const valued[OPT_NR] = {
	[OPT_CONFIG] = "--config", [OPT_FORMAT] = "--format",
	[OPT_COMPLETIONS] = "--completions", [OPT_WARMUP] = "--warmup",
	[OPT_DISK] = "--disk", [OPT_REMAP] = "--remap", [OPT_REMAP_UNIT] = "--remap-unit",
};

/* Option @opt with @value: 0, or the exit status after a message. */
static int take(int opt, const char *value, struct ssd_config *cfg, struct sim_options *o)
{
	unsigned long long n;

	switch (opt) {
	case OPT_CONFIG:
		return conf_file_read(value, set_pair, cfg) ? 1 : 0;
	case OPT_FORMAT:
		return trace_parse_format(value, &o->format) ? sim_usage() : 0;
	case OPT_COMPLETIONS:
		o->completions_path = value;
		return 0;
	case OPT_WARMUP:
		if (parse_count(value, &n) || n > 1000000) {
			fprintf(stderr, "ssdsim: --warmup %s refused: passes are 0..1000000\n", value);
			return 1;
		}
		o->warmup = (unsigned int)n;
		return 0;
	case OPT_DISK:
		if (trace_disk_parse(value, &o->disk)) {
			fprintf(stderr, "ssdsim: --disk %s refused: a disk is a number (mqsim: --disk 3) or major,minor (blkparse, fiu: --disk 8,16)\n",
				value);
			return 1;
		}
		return 0;
	case OPT_REMAP:
		if (strcmp(value, "none") && strcmp(value, "dense")) {
			fprintf(stderr, "ssdsim: --remap %s refused: none (addresses kept, wrapped at the capacity) or dense (touched units packed in first-touch order)\n",
				value);
			return 1;
		}
		o->remap_dense = !strcmp(value, "dense");
		return 0;
	case OPT_REMAP_UNIT:
		if (parse_count(value, &n) || !n) {
			fprintf(stderr, "ssdsim: --remap-unit %s refused: bytes, a multiple of the page size\n",
				value);
			return 1;
		}
		o->remap_unit_bytes = n;
		return 0;
	}
	return sim_usage();
}

int sim_options_parse(int argc, char **argv, struct ssd_config *cfg, struct sim_options *o)
{
	bool seen[OPT_NR] = { false };
	int i, opt, ret;

	memset(o, 0, sizeof(*o));
	o->format = TRACE_AUTO;
	o->final_flush = true;
	for (i = 1; i < argc; i++) {
		for (opt = 0; opt < OPT_NR && strcmp(argv[i], valued[opt]); opt++)
			;
		if (opt < OPT_NR) {
			if (i + 1 == argc)
				return sim_usage();
			/* Presets may stack; everything else is said once. */
			if (seen[opt] && opt != OPT_CONFIG) {
				fprintf(stderr, "ssdsim: %s given twice: say it once\n", valued[opt]);
				return 1;
			}
			seen[opt] = true;
			ret = take(opt, argv[++i], cfg, o);
			if (ret)
				return ret;
		} else if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--belady")) {
			o->belady = true;
		} else if (!strcmp(argv[i], "--check")) {
			o->check = true;
		} else if (!strcmp(argv[i], "--no-final-flush")) {
			o->final_flush = false;
		} else if (strchr(argv[i], '=')) {
			if (conf_pair_arg(argv[i], set_pair, cfg))
				return 1;
		} else if (!o->trace_path && argv[i][0] != '-') {
			o->trace_path = argv[i];
		} else {
			return sim_usage();
		}
	}
	if (!o->trace_path)
		return sim_usage();
	if (o->remap_unit_bytes && !o->remap_dense) {
		fprintf(stderr, "ssdsim: --remap-unit %llu refused: it sizes the units of --remap dense, which is not on\n",
			(unsigned long long)o->remap_unit_bytes);
		return 1;
	}
	return 0;
}

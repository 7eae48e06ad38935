// SPDX-License-Identifier: GPL-2.0
/*
 * sim_options.c - ssdsim's command line (sim_options.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/ssd_device.h"
#include "tools/report/conf_file.h"
#include "tools/ssdsim/sim_options.h"
#include "tools/msg/msg.h"

int sim_usage(void)
{
	msg_say("usage: ssdsim [--config FILE] [key=value ...] "
		"[--format FORMAT] [--disk N|MAJOR,MINOR|HOST_N] "
		"[--remap none|dense] [--remap-unit erase-block|page|BYTES] [--json] [--check] "
		"[--completions FILE] [--warmup N] [--belady [--belady-next-use any|write]]\n"
		"              [--no-final-flush] [--data]\n"
		"              [--bad-blocks LIST]\n"
		"              [--power-cut-at N]\n"
		"              [--from SNAPSHOT [--reset-stats]] [--save SNAPSHOT]\n"
		"              [--fill F] [--measure-from N|TIME] [--iodepth N | --time-scale F]\n"
		"              [--fields A,B,...] [--csv] [--verbose|--all] [--progress|--no-progress]\n"
		"              [--inject '+r|+w|+rw FIRST[-LAST]' ...] TRACE\n"
		"       ssdsim [--config FILE] [key=value ...] [--from SNAPSHOT] --age SPEC "
		"[--seed N] [--save SNAPSHOT] [--json] [--data]\n"
		"              SPEC: fill=F[,overwrite=N][,erase_mean=E][,bs=BYTES]\n"
		"       ssdsim --from SNAPSHOT [--json] [--save SNAPSHOT]\n"
		"       ssdsim --list-keys [--json|--tsv]\n"
		"FORMAT: %s (docs/trace-formats.md)\n"
		"Byte-valued keys take binary sizes (8KiB, 4k, 1GiB); docs/ssdsim.md is the cookbook.\n",
		trace_format_list());
	return 2;
}

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	if (ssd_config_set(ctx, key, value)) {
		msg_say("ssdsim: %s: %s=%s refused\n", where, key, value);
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
       OPT_REMAP_UNIT, OPT_FROM, OPT_SAVE, OPT_AGE, OPT_SEED, OPT_FILL, OPT_MEASURE_FROM,
       OPT_IODEPTH, OPT_FIELDS, OPT_FORMAT_OUT, OPT_TIME_SCALE, OPT_BAD_BLOCKS, OPT_POWER_CUT_AT,
       OPT_BELADY_NEXT_USE, OPT_NR };

static const char *const valued[OPT_NR] = {
	[OPT_CONFIG] = "--config", [OPT_FORMAT] = "--format",
	[OPT_COMPLETIONS] = "--completions", [OPT_WARMUP] = "--warmup",
	[OPT_DISK] = "--disk", [OPT_REMAP] = "--remap", [OPT_REMAP_UNIT] = "--remap-unit",
	[OPT_FROM] = "--from", [OPT_SAVE] = "--save", [OPT_AGE] = "--age",
	[OPT_SEED] = "--seed", [OPT_FILL] = "--fill", [OPT_MEASURE_FROM] = "--measure-from",
	[OPT_IODEPTH] = "--iodepth", [OPT_FIELDS] = "--fields", [OPT_FORMAT_OUT] = "--format-out",
	[OPT_TIME_SCALE] = "--time-scale", [OPT_BAD_BLOCKS] = "--bad-blocks",
	[OPT_POWER_CUT_AT] = "--power-cut-at", [OPT_BELADY_NEXT_USE] = "--belady-next-use",
};

/*
 * --measure-from: a request count ("100000") or a time into the measured
 * pass with its unit ("30s", "500ms", "250us", "1000ns").
 */
static int parse_measure_from(const char *text, struct sim_options *o)
{
	static const struct {
		const char *unit;
		u64 ns;
	} units[] = { { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 } };
	unsigned long long n;
	char *end;

	if (!parse_count(text, &n)) {
		o->measure_from = n;
		return 0;
	}
	if (text[0] < '0' || text[0] > '9')
		return -1;
	n = strtoull(text, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		if (n > UINT64_MAX / units[i].ns)
			return -1;
		o->measure_from = n * units[i].ns;
		o->measure_is_time = true;
		return 0;
	}
	return -1;
}

/* Option @opt with @value: 0, or the exit status after a message. */
static int take(int opt, const char *value, struct ssd_config *cfg, struct sim_options *o)
{
	unsigned long long n;
	char *end;
	u64 bytes;

	switch (opt) {
	case OPT_CONFIG:
		return conf_file_read(value, set_pair, cfg) ? 1 : 0;
	case OPT_FORMAT:
		if (!trace_parse_format(value, &o->format))
			return 0;
		msg_say("ssdsim: --format %s: unknown; the formats are %s\n", value,
			trace_format_list());
		return 1;
	case OPT_COMPLETIONS:
		o->completions_path = value;
		return 0;
	case OPT_POWER_CUT_AT:
		if (parse_count(value, &n) || !n) {
			msg_say("ssdsim: --power-cut-at %s refused: a request number, 1 or more\n",
				value);
			return 1;
		}
		o->power_cut_at = n;
		return 0;
	case OPT_BELADY_NEXT_USE:
		if (strcmp(value, "any") && strcmp(value, "write")) {
			msg_say("ssdsim: --belady-next-use %s refused: any (a page's next read or write, the ProCache paper's off-line) or write (its next write only)\n",
				value);
			return 1;
		}
		o->belady_next_use = !strcmp(value, "any") ? BELADY_NEXT_ANY : BELADY_NEXT_WRITE;
		return 0;
	case OPT_WARMUP:
		if (parse_count(value, &n) || n > 1000000) {
			msg_say("ssdsim: --warmup %s refused: passes are 0..1000000\n", value);
			return 1;
		}
		o->warmup = (unsigned int)n;
		return 0;
	case OPT_DISK:
		if (trace_disk_parse(value, &o->disk)) {
			msg_say("ssdsim: --disk %s refused: a disk is a number (mqsim: --disk 3), major,minor (blkparse, fiu: --disk 8,16) or host_number (msr: --disk hm_1)\n",
				value);
			return 1;
		}
		return 0;
	case OPT_REMAP:
		if (strcmp(value, "none") && strcmp(value, "dense")) {
			msg_say("ssdsim: --remap %s refused: none (addresses kept, wrapped at the capacity) or dense (touched units packed in first-touch order)\n",
				value);
			return 1;
		}
		o->remap_dense = !strcmp(value, "dense");
		return 0;
	case OPT_REMAP_UNIT:
		if (!strcmp(value, "erase-block")) {
			o->remap_unit = SIM_REMAP_UNIT_ERASE_BLOCK;
			return 0;
		}
		if (!strcmp(value, "page")) {
			o->remap_unit = SIM_REMAP_UNIT_PAGE;
			return 0;
		}
		if (ssd_parse_bytes(value, 1, &bytes) || !bytes) {
			msg_say("ssdsim: --remap-unit %s refused: erase-block (the default: pages_per_block pages, the locality block-mapped FTLs keep), page (one page: the densest packing) or bytes (8KiB, 1M...), a multiple of the page size\n",
				value);
			return 1;
		}
		o->remap_unit = SIM_REMAP_UNIT_BYTES;
		o->remap_unit_bytes = bytes;
		return 0;
	case OPT_FROM:
		o->from_path = value;
		return 0;
	case OPT_SAVE:
		o->save_path = value;
		return 0;
	case OPT_BAD_BLOCKS:
		o->bad_blocks = value;
		return 0;
	case OPT_AGE:
		o->age_spec = value;
		return 0;
	case OPT_FILL:
		o->fill = strtod(value, &end);
		if (end == value || *end || !(o->fill > 0 && o->fill <= 1)) {
			msg_say("ssdsim: --fill %s refused: a fraction of the logical capacity, 0 < F <= 1\n",
				value);
			return 1;
		}
		return 0;
	case OPT_MEASURE_FROM:
		o->measure_set = true;
		if (parse_measure_from(value, o)) {
			msg_say("ssdsim: --measure-from %s refused: a request count (100000) or a time into the measured pass (30s, 500ms, 250us, 1000ns)\n",
				value);
			return 1;
		}
		return 0;
	case OPT_IODEPTH:
		if (parse_count(value, &n) || !n || n > 65536) {
			msg_say("ssdsim: --iodepth %s refused: requests outstanding, 1..65536\n",
				value);
			return 1;
		}
		o->iodepth = (u32)n;
		return 0;
	case OPT_TIME_SCALE:
		o->time_scale = strtod(value, &end);
		if (end == value || *end || !(o->time_scale > 0 && o->time_scale <= 1e6)) {
			msg_say("ssdsim: --time-scale %s refused: a factor on the trace's times, 0 < F <= 1e6 (2: half the rate)\n",
				value);
			return 1;
		}
		return 0;
	case OPT_FIELDS:
		if (!value[0]) {
			msg_say("ssdsim: --fields refused: name the fields, comma-separated (names as in --json: waf,latency.write.p99_ns)\n");
			return 1;
		}
		o->fields = value;
		return 0;
	case OPT_FORMAT_OUT:
		if (!strcmp(value, "csv"))
			o->csv = true;
		else if (!strcmp(value, "json"))
			o->json = true;
		else if (strcmp(value, "text")) {
			msg_say("ssdsim: --format-out %s refused: text, json or csv\n", value);
			return 1;
		}
		return 0;
	case OPT_SEED:
		if (parse_count(value, &n)) {
			msg_say("ssdsim: --seed %s refused: a whole number\n", value);
			return 1;
		}
		o->seed = n;
		return 0;
	}
	return sim_usage();
}

static int check_combinations(const struct sim_options *o, const bool *seen);

int sim_options_parse(int argc, char **argv, struct ssd_config *cfg, struct sim_options *o)
{
	bool seen[OPT_NR] = { false };
	int i, opt, ret;

	memset(o, 0, sizeof(*o));
	o->format = TRACE_AUTO;
	o->final_flush = true;
	o->seed = 1;
	o->progress = -1;
	o->time_scale = 1.0;
	o->keys = calloc(argc, sizeof(*o->keys));
	o->injects = calloc(argc, sizeof(*o->injects));
	if (!o->keys || !o->injects) {
		msg_say("ssdsim: out of memory\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		for (opt = 0; opt < OPT_NR && strcmp(argv[i], valued[opt]); opt++)
			;
		if (opt < OPT_NR) {
			if (i + 1 == argc)
				return sim_usage();
			/* Presets may stack; everything else is said once. */
			if (seen[opt] && opt != OPT_CONFIG) {
				msg_say("ssdsim: %s given twice: say it once\n", valued[opt]);
				return 1;
			}
			seen[opt] = true;
			ret = take(opt, argv[++i], cfg, o);
			if (ret)
				return ret;
		} else if (!strcmp(argv[i], "--inject")) {
			/* Error injection (device/ssd_inject.c), checked on the device. */
			if (i + 1 == argc)
				return sim_usage();
			o->injects[o->nr_injects++] = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--belady")) {
			o->belady = true;
		} else if (!strcmp(argv[i], "--check")) {
			o->check = true;
		} else if (!strcmp(argv[i], "--no-final-flush")) {
			o->final_flush = false;
		} else if (!strcmp(argv[i], "--reset-stats")) {
			o->reset_stats = true;
		} else if (!strcmp(argv[i], "--csv")) {
			o->csv = true;
		} else if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "--all")) {
			o->verbose = true;
		} else if (!strcmp(argv[i], "--progress")) {
			o->progress = 1;
		} else if (!strcmp(argv[i], "--no-progress")) {
			o->progress = 0;
		} else if (!strcmp(argv[i], "--data")) {
			o->data = true;
		} else if (strchr(argv[i], '=') && argv[i][0] != '-') {
			if (conf_pair_arg(argv[i], set_pair, cfg))
				return 1;
			o->keys[o->nr_keys++] = argv[i];
		} else if (!o->trace_path && argv[i][0] != '-') {
			o->trace_path = argv[i];
		} else {
			return sim_usage();
		}
	}
	if (!o->trace_path && !o->from_path && !o->age_spec)
		return sim_usage();
	return check_combinations(o, seen);
}

/* Options that contradict each other: 0, or 1 after a message. */
static int check_combinations(const struct sim_options *o, const bool *seen)
{
	if (o->from_path && seen[OPT_CONFIG]) {
		msg_say("ssdsim: --config and --from refused together: the snapshot holds the device's configuration; change a key that does not shape the device with key=value\n");
		return 1;
	}
	if (o->bad_blocks && o->from_path) {
		msg_say("ssdsim: --bad-blocks and --from refused together: the snapshot holds the device's bad blocks\n");
		return 1;
	}
	if (o->age_spec && o->trace_path) {
		msg_say("ssdsim: --age and a trace refused together: age and --save, then replay with --from\n");
		return 1;
	}
	if (o->reset_stats && !o->from_path) {
		msg_say("ssdsim: --reset-stats refused: it resets the counters a snapshot brings (--from)\n");
		return 1;
	}
	if (!o->trace_path && (seen[OPT_FORMAT] || seen[OPT_COMPLETIONS] || seen[OPT_WARMUP] ||
			       seen[OPT_DISK] || seen[OPT_REMAP] || o->belady)) {
		msg_say("ssdsim: --format, --completions, --warmup, --disk, --remap and --belady need a trace\n");
		return 1;
	}
	if (!o->trace_path && (seen[OPT_FILL] || seen[OPT_MEASURE_FROM] || seen[OPT_IODEPTH])) {
		msg_say("ssdsim: --fill, --measure-from and --iodepth need a trace (to age a device without one: --age)\n");
		return 1;
	}
	if (seen[OPT_TIME_SCALE] && (o->iodepth || !o->trace_path)) {
		msg_say("ssdsim: --time-scale refused: it scales an open-loop replay's times (a trace, without --iodepth)\n");
		return 1;
	}
	if (seen[OPT_FILL] && o->from_path) {
		msg_say("ssdsim: --fill and --from refused together: the snapshot is the device's state; fill it when it is made (--age fill=F --save)\n");
		return 1;
	}
	if (o->json && (o->csv || o->fields)) {
		msg_say("ssdsim: --json refused with --csv or --fields: --json prints everything; --fields prints the fields named (as lines, or one CSV row with --csv)\n");
		return 1;
	}
	if (seen[OPT_BELADY_NEXT_USE] && !o->belady) {
		msg_say("ssdsim: --belady-next-use refused without --belady: it says what the off-line bound counts as a next use\n");
		return 1;
	}
	if (o->belady && o->measure_set) {
		msg_say("ssdsim: --belady and --measure-from refused together: the bound counts whole passes (use --warmup)\n");
		return 1;
	}
	if (seen[OPT_SEED] && !o->age_spec && !seen[OPT_FILL]) {
		msg_say("ssdsim: --seed refused: it seeds --age and --fill (the device's own PRNG is the seed key)\n");
		return 1;
	}
	if (seen[OPT_REMAP_UNIT] && !o->remap_dense) {
		msg_say("ssdsim: --remap-unit refused: it sizes the units of --remap dense, which is not on\n");
		return 1;
	}
	return 0;
}

void sim_options_free(struct sim_options *o)
{
	free(o->keys);
	o->keys = NULL;
	free(o->injects);
	o->injects = NULL;
}

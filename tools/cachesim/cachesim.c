// SPDX-License-Identifier: GPL-2.0
/*
 * cachesim - the host-side cache simulator: replays a trace with content
 * hashes through host cache policies (csim.h), the CacheDedup
 * architecture (D-LRU, D-ARC, CDAC-LRU, CDAC-ARC), plain LRU, ARC, FIFO,
 * LFU, and PLC-Cache at unit (container) granularity, and prints hit
 * ratios, the bytes written into the cache by cause and PLC's quadrants.
 *
 *   cachesim [options] TRACE          (cachesim --help lists them)
 *
 * The trace is read once (csim_trace.h); every policy of --policy runs
 * at every size of --cache-*, each from an empty cache.  It needs none of
 * the emulator's device (the host cache sits above it), only the core's
 * cache algorithms (cachealg/).  An algorithm's knob has the name of the
 * device's key (--plc-access-threshold is plc_access_threshold); the
 * older spellings are still taken.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_report.h"
#include "tools/cachesim/csim_stream.h"
#include "tools/cachesim/csim_trace.h"

#define MAX_LIST	64

struct opts {
	const struct csim_policy *policies[MAX_LIST];
	unsigned int nr_policies;
	double sizes[MAX_LIST];
	unsigned int nr_sizes;
	enum { SIZE_NONE, SIZE_MIB, SIZE_BLOCKS, SIZE_PERCENT } size_kind;
	int unit_mode;			/* -1: from the policies */
	uint64_t meta_entries;
	double meta_per_block;
	int writes;			/* -1: the mode's default */
	uint64_t stale;			/* UINT64_MAX: 4 x meta entries */
	struct csim_params p;
	uint32_t quad_popular, quad_repeat;
	enum trace_format format;
	bool json, census_only;
	const char *trace;
};

static const char *const write_names[] = {
	[CSIM_WRITE_THROUGH] = "through", [CSIM_WRITE_UPDATE] = "update",
	[CSIM_WRITE_INVALIDATE] = "invalidate", [CSIM_WRITE_AROUND] = "around",
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: cachesim [options] TRACE\n"
		"  --policy LIST              comma list of policies (default lru):\n");
	for (unsigned int i = 0; csim_policies[i]; i++)
		fprintf(f, "      %-9s %s\n", csim_policies[i]->name, csim_policies[i]->help);
	fprintf(f,
		"  --granularity block|unit   block: cache blocks by address; unit: containers\n"
		"                             (default: unit with plc, else block)\n"
		"  --block-kib N              cache block, 4-64 KiB, a power of two (default 4)\n"
		"  --unit-kib N               container, 4-65536 KiB, a power of two (default 2048)\n"
		"  --cache-percent LIST       cache sizes in %% of the working set (block mode: the\n"
		"                             block addresses touched; unit mode: the unique\n"
		"                             4 KiB chunks, the deduplicated data), 0-1000\n"
		"  --cache-mib LIST           cache sizes in MiB\n"
		"  --cache-blocks LIST        cache sizes in blocks (units in unit mode)\n"
		"  --meta-entries N           dedup: addresses the metadata cache holds\n"
		"  --meta-per-block X         dedup: metadata entries per data block, 0.01-1000\n"
		"                             (default 2)\n"
		"  --stale-reads hit|miss     plain policies: a read whose content differs from the\n"
		"                             cached copy's is a miss (default) or a hit (content-\n"
		"                             blind, as libCacheSim)\n"
		"  --writes MODE              block mode: through (default), update, invalidate;\n"
		"                             unit mode: around (the only one)\n"
		"  --bhi on|off, --rce on|off CDAC's two mechanisms (default on)\n"
		"  --bhi-cold-percent P       a block with fewer parts touched is cold, 1-100 (50)\n"
		"  --bhi-stale-accesses N|auto  an address idle N accesses is flagged (cold);\n"
		"                             0 off (default), auto 4 x the metadata entries\n"
		"  --rce-drop-percent P       RCE drops an address whose block's count fell by\n"
		"                             more than P%% in a cycle, 0-99 (50)\n"
		"  CDAC's readings the slides leave open (docs/papers.md, CDAC):\n"
		"  --bhi-reset cycle|never    BHI's bitmap starts anew each cycle (default cycle)\n"
		"  --bhi-hot keep|evict       an address BHI finds hot is kept (default) or goes\n"
		"  --rce-remark on|off        a spared address's note is renewed at each of its\n"
		"                             turns (default off: its first count stays)\n"
		"  --cdac-forced-drop on|off  every address kept in a scan: the LRU one goes\n"
		"                             (default off: the access is not cached)\n"
		"  --cdac-order slides|reverse  BHI then RCE on cold addresses (default), or\n"
		"                             cold addresses out, RCE on hot ones (before)\n"
		"  --plc-access-threshold N   a missed unit enters above N accesses, 0-1000000 (4)\n"
		"                             (also --plc-threshold-accesses)\n"
		"  --plc-delay N              a victim's delay count, 0-1000 (2)\n"
		"  --plc-inout-form paper|slides  the in-out comparison: b replaces a if\n"
		"                             access(b) > f(access(a)) x threshold (paper, default)\n"
		"                             or access(b) x 100 > P x access(a) (slides)\n"
		"  --plc-inout-f relative|constant  the paper's f: access(a) / threshold within\n"
		"                             [1, 2] (default), or P / 100\n"
		"  --plc-inout-percent P      the slides' m, or the constant f, x 100: 100-200 (100);\n"
		"                             --plc-inout-factor F: P = 100 F\n"
		"  --plc-priority-init hotness|zero  a unit's inner priority as it enters: its\n"
		"                             access count (default) or 0\n"
		"  --plc-delay-hit increment|reset|keep  a hit's delay count: +1 (default), back\n"
		"                             to --plc-delay, or unchanged\n"
		"  --plc-hand-passes on|off   the hand passes an abandoned victim by (default off)\n"
		"  --plc-filter on|off, --plc-delayed on|off, --plc-inout on|off (default on)\n"
		"  --quad-popular-accesses N  quadrants: popular from N accesses (5)\n"
		"  --quad-repeat-writes N     quadrants: high repeat from N writes (5)\n"
		"  --format NAME              the trace's format (auto: detected), one of\n"
		"                             auto|mqsim|fiu|ssdemu|blkparse|msr|spc|oracle|\n"
		"                             vscsi|lcs-csv|lcs-txt|oracle-opns\n"
		"                             (docs/trace-formats.md)\n"
		"  --census                   print the trace's census only\n"
		"  --json                     JSON output\n");
}

static void die(const char *opt, const char *value, const char *want)
{
	fprintf(stderr, "cachesim: %s%s%s: %s\n", opt, *value ? " " : "", value, want);
	exit(2);
}

static double number(const char *opt, const char *v, double lo, double hi, const char *want)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || isnan(x) || x < lo || x > hi)
		die(opt, v, want);
	return x;
}

static uint64_t integer(const char *opt, const char *v, uint64_t lo, uint64_t hi, const char *want)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || x < lo || x > hi)
		die(opt, v, want);
	return x;
}

static uint32_t pow2_kib(const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
	char want[96];
	uint64_t x;

	snprintf(want, sizeof(want), "must be a power of two from %llu to %llu (KiB)",
		 (unsigned long long)lo, (unsigned long long)hi);
	x = integer(opt, v, lo, hi, want);
	if (x & (x - 1))
		die(opt, v, want);
	return (uint32_t)(x * 1024);
}

/* The names of PLC's readings, by the value of their key (NULL-terminated). */
static const char *const inout_forms[] = { "paper", "slides", NULL };
static const char *const inout_fs[] = { "relative", "constant", NULL };
static const char *const priority_inits[] = { "hotness", "zero", NULL };
static const char *const delay_hits[] = { "increment", "reset", "keep", NULL };
/* CDAC's readings, by the value of their parameter. */
static const char *const bhi_resets[] = { "never", "cycle", NULL };
static const char *const bhi_hots[] = { "keep", "evict", NULL };
static const char *const cdac_orders[] = { "slides", "reverse", NULL };

/* The value of @v among @names. */
static uint8_t choice(const char *opt, const char *v, const char *const *names)
{
	char want[96] = "must be one of";

	for (uint8_t i = 0; names[i]; i++)
		if (!strcmp(v, names[i]))
			return i;
	for (unsigned int i = 0; names[i]; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s", names[i]);
	die(opt, v, want);
	return 0;
}

/* A factor of 1 to 2 in steps of 0.01, as a percent (--plc-inout-factor). */
static uint32_t percent_of_factor(const char *opt, const char *v)
{
	const char *want = "must be 1 to 2, in steps of 0.01";
	double x = number(opt, v, 1, 2, want), percent = floor(x * 100 + 0.5);

	if (fabs(x * 100 - percent) > 1e-6)
		die(opt, v, want);
	return (uint32_t)percent;
}

static bool on_off(const char *opt, const char *v)
{
	if (!strcmp(v, "on"))
		return true;
	if (!strcmp(v, "off"))
		return false;
	die(opt, v, "must be on or off");
	return false;
}

static void sizes(struct opts *o, const char *opt, const char *v, int kind, double hi)
{
	char *copy = strdup(v), *tok, *save = NULL;
	char want[96];

	if (o->size_kind != SIZE_NONE)
		die(opt, v, "only one of --cache-percent, --cache-mib, --cache-blocks");
	snprintf(want, sizeof(want), "must be a comma list of numbers above 0, up to %g", hi);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->nr_sizes == MAX_LIST)
			die(opt, v, "at most 64 sizes");
		o->sizes[o->nr_sizes] = number(opt, tok, 0, hi, want);
		if (o->sizes[o->nr_sizes] <= 0)
			die(opt, v, want);
		o->nr_sizes++;
	}
	if (!o->nr_sizes)
		die(opt, v, want);
	o->size_kind = kind;
	free(copy);
}

static void policies(struct opts *o, const char *v)
{
	char *copy = strdup(v), *tok, *save = NULL;

	o->nr_policies = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct csim_policy *p = csim_policy_find(tok);

		if (!p) {
			fprintf(stderr, "cachesim: --policy %s: unknown policy; one of:", tok);
			for (unsigned int i = 0; csim_policies[i]; i++)
				fprintf(stderr, " %s", csim_policies[i]->name);
			fprintf(stderr, "\n");
			exit(2);
		}
		if (o->nr_policies == MAX_LIST)
			die("--policy", v, "at most 64 policies");
		o->policies[o->nr_policies++] = p;
	}
	if (!o->nr_policies)
		die("--policy", v, "no policy given");
	free(copy);
}

static void defaults(struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->policies[0] = &csim_lru;
	o->nr_policies = 1;
	o->unit_mode = -1;
	o->meta_per_block = 2;
	o->writes = -1;
	o->stale = 0;
	o->p.block_bytes = 4096;
	o->p.unit_bytes = 2048 * 1024;
	o->p.bhi = o->p.rce = true;
	o->p.bhi_cold_percent = 50;
	o->p.rce_drop_percent = 50;
	o->p.bhi_reset = true;
	/* PLC's knobs and readings: the keys' defaults (cachealg/admit_plc.c). */
	o->quad_popular = 5;
	o->quad_repeat = 5;
	o->format = TRACE_AUTO;
}

static void parse(struct opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		} else if (!strcmp(a, "--census")) {
			o->census_only = true;
			continue;
		} else if (a[0] != '-' || !a[1]) {
			if (o->trace)
				die(a, "", "one trace only");
			o->trace = a;
			continue;
		}
		if (!v) {
			fprintf(stderr, "cachesim: %s needs a value (cachesim --help)\n", a);
			exit(2);
		}
		i++;
		if (!strcmp(a, "--policy"))
			policies(o, v);
		else if (!strcmp(a, "--granularity"))
			o->unit_mode = !strcmp(v, "unit") ? 1 : !strcmp(v, "block") ? 0 :
				       (die(a, v, "must be block or unit"), 0);
		else if (!strcmp(a, "--block-kib"))
			o->p.block_bytes = pow2_kib(a, v, 4, 64);
		else if (!strcmp(a, "--unit-kib"))
			o->p.unit_bytes = pow2_kib(a, v, 4, 65536);
		else if (!strcmp(a, "--cache-percent"))
			sizes(o, a, v, SIZE_PERCENT, 1000);
		else if (!strcmp(a, "--cache-mib"))
			sizes(o, a, v, SIZE_MIB, 1 << 30);
		else if (!strcmp(a, "--cache-blocks"))
			sizes(o, a, v, SIZE_BLOCKS, 1e12);
		else if (!strcmp(a, "--meta-entries"))
			o->meta_entries = integer(a, v, 1, 1ULL << 31, "must be 1 to 2^31 addresses");
		else if (!strcmp(a, "--meta-per-block"))
			o->meta_per_block = number(a, v, 0.01, 1000, "must be 0.01 to 1000 entries per block");
		else if (!strcmp(a, "--writes")) {
			o->writes = -1;
			for (int w = 0; w <= CSIM_WRITE_AROUND; w++)
				if (!strcmp(v, write_names[w]))
					o->writes = w;
			if (o->writes < 0)
				die(a, v, "must be through, update, invalidate or around");
		} else if (!strcmp(a, "--stale-reads")) {
			if (strcmp(v, "hit") && strcmp(v, "miss"))
				die(a, v, "must be hit or miss");
			o->p.stale_read_hits = !strcmp(v, "hit");
		} else if (!strcmp(a, "--bhi"))
			o->p.bhi = on_off(a, v);
		else if (!strcmp(a, "--rce"))
			o->p.rce = on_off(a, v);
		else if (!strcmp(a, "--bhi-cold-percent"))
			o->p.bhi_cold_percent = integer(a, v, 1, 100, "must be 1 to 100 (%)");
		else if (!strcmp(a, "--bhi-stale-accesses"))
			o->stale = !strcmp(v, "auto") ? UINT64_MAX :
				   integer(a, v, 0, 1ULL << 62, "must be auto or 0 (off) to 2^62");
		else if (!strcmp(a, "--bhi-reset"))
			o->p.bhi_reset = choice(a, v, bhi_resets);
		else if (!strcmp(a, "--bhi-hot"))
			o->p.bhi_hot_leaves = choice(a, v, bhi_hots);
		else if (!strcmp(a, "--rce-remark"))
			o->p.rce_remark = on_off(a, v);
		else if (!strcmp(a, "--cdac-forced-drop"))
			o->p.cdac_forced_drop = on_off(a, v);
		else if (!strcmp(a, "--cdac-order"))
			o->p.cdac_cold_drops = choice(a, v, cdac_orders);
		else if (!strcmp(a, "--rce-drop-percent"))
			o->p.rce_drop_percent = integer(a, v, 0, 99, "must be 0 to 99 (%)");
		else if (!strcmp(a, "--plc-access-threshold") ||
			 !strcmp(a, "--plc-threshold-accesses"))
			csim_knob_set(&o->p, "plc_access_threshold",
				      integer(a, v, 0, 1000000, "must be 0 to 1000000 accesses"));
		else if (!strcmp(a, "--plc-delay"))
			csim_knob_set(&o->p, "plc_delay", integer(a, v, 0, 1000, "must be 0 to 1000"));
		else if (!strcmp(a, "--plc-inout-percent"))
			csim_knob_set(&o->p, "plc_inout_percent",
				      integer(a, v, 100, 200, "must be 100 to 200 (%)"));
		else if (!strcmp(a, "--plc-inout-factor"))
			csim_knob_set(&o->p, "plc_inout_percent", percent_of_factor(a, v));
		else if (!strcmp(a, "--plc-inout-form"))
			csim_knob_set(&o->p, "plc_inout_form", choice(a, v, inout_forms));
		else if (!strcmp(a, "--plc-inout-f"))
			csim_knob_set(&o->p, "plc_inout_f", choice(a, v, inout_fs));
		else if (!strcmp(a, "--plc-priority-init"))
			csim_knob_set(&o->p, "plc_priority_init", choice(a, v, priority_inits));
		else if (!strcmp(a, "--plc-delay-hit"))
			csim_knob_set(&o->p, "plc_delay_hit", choice(a, v, delay_hits));
		else if (!strcmp(a, "--plc-hand-passes"))
			csim_knob_set(&o->p, "plc_hand_passes", on_off(a, v));
		else if (!strcmp(a, "--plc-filter"))
			csim_knob_set(&o->p, "plc_filter", on_off(a, v));
		else if (!strcmp(a, "--plc-delayed"))
			csim_knob_set(&o->p, "plc_delayed", on_off(a, v));
		else if (!strcmp(a, "--plc-inout"))
			csim_knob_set(&o->p, "plc_inout", on_off(a, v));
		else if (!strcmp(a, "--quad-popular-accesses"))
			o->quad_popular = integer(a, v, 1, 1000000, "must be 1 to 1000000 accesses");
		else if (!strcmp(a, "--quad-repeat-writes"))
			o->quad_repeat = integer(a, v, 1, 1000000, "must be 1 to 1000000 writes");
		else if (!strcmp(a, "--format")) {
			char want[256];

			snprintf(want, sizeof(want), "must be one of %s", trace_format_list());
			if (trace_parse_format(v, &o->format))
				die(a, v, want);
		} else {
			fprintf(stderr, "cachesim: unknown option %s (cachesim --help)\n", a);
			exit(2);
		}
	}
	if (!o->trace) {
		usage(stderr);
		exit(2);
	}
}

/* Block or unit mode, from the policies and --granularity. */
static void check_mode(struct opts *o)
{
	bool unit = false, dedup = false;

	for (unsigned int i = 0; i < o->nr_policies; i++) {
		unit |= o->policies[i]->kind == CSIM_UNIT;
		dedup |= o->policies[i]->kind == CSIM_DEDUP;
	}
	if (unit && dedup)
		die("--policy", "", "plc (unit mode) and the dedup policies (block mode) do not mix");
	if (o->unit_mode < 0)
		o->unit_mode = unit;
	if (o->unit_mode && dedup)
		die("--granularity", "unit", "the dedup policies are block mode only");
	if (!o->unit_mode && unit)
		die("--granularity", "block", "plc is unit mode only");
	if (o->writes < 0)
		o->writes = o->unit_mode ? CSIM_WRITE_AROUND : CSIM_WRITE_THROUGH;
	if (o->unit_mode && o->writes != CSIM_WRITE_AROUND)
		die("--writes", write_names[o->writes], "unit mode takes around only");
	if (!o->unit_mode && o->writes == CSIM_WRITE_AROUND)
		die("--writes", "around", "block mode takes through, update or invalidate");
	if (o->size_kind == SIZE_NONE && !o->census_only) {
		fprintf(stderr, "cachesim: give a cache size: --cache-percent, --cache-mib or --cache-blocks\n");
		exit(2);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t capacity_of(const struct opts *o, double size, const struct csim_census *blocks,
			    const struct csim_census *chunks)
{
	double fill = o->unit_mode ? o->p.unit_bytes : o->p.block_bytes, n;

	if (o->size_kind == SIZE_BLOCKS)
		n = size;
	else if (o->size_kind == SIZE_MIB)
		n = size * 1048576.0 / fill;
	else if (o->unit_mode)
		n = size / 100.0 * chunks->distinct_page_fps * CSIM_PAGE_BYTES / fill;
	else
		n = size / 100.0 * blocks->distinct_blocks;
	n = floor(n + 0.5);
	return n < 1 ? 1 : (uint64_t)n;
}

int main(int argc, char **argv)
{
	struct csim_census blocks = { 0 }, chunks = { 0 };
	struct csim_stream_opts so;
	struct csim_trace t;
	struct opts o;
	uint32_t *unit_acc = NULL;
	uint64_t unit_room = 0;
	bool first = true;

	defaults(&o);
	parse(&o, argc, argv);
	check_mode(&o);
	if (csim_trace_load(&t, o.trace, o.format))
		return 1;
	so.block_pages = o.p.block_bytes / CSIM_PAGE_BYTES;
	so.unit_pages = 0;
	so.writes = o.writes;
	csim_stream_run(&t, &so, NULL, &blocks, NULL, NULL);
	so.block_pages = 1;
	so.unit_pages = o.p.unit_bytes / CSIM_PAGE_BYTES;
	csim_stream_run(&t, &so, NULL, &chunks, &unit_acc, &unit_room);
	csim_report_trace(stdout, &(struct csim_trace_info){ .t = &t, .blocks = &blocks,
			  .chunks = &chunks, .block_bytes = o.p.block_bytes,
			  .unit_bytes = o.p.unit_bytes }, o.json);
	so.block_pages = o.p.block_bytes / CSIM_PAGE_BYTES;
	so.unit_pages = o.unit_mode ? o.p.unit_bytes / CSIM_PAGE_BYTES : 0;
	for (unsigned int s = 0; !o.census_only && s < o.nr_sizes; s++) {
		for (unsigned int i = 0; i < o.nr_policies; i++) {
			struct csim_params p = o.p;
			struct csim_cache c;
			struct csim_run r = { .c = &c,
					      .granularity = o.unit_mode ? "unit" : "block",
					      .writes = write_names[o.writes],
					      .unit_accesses = unit_acc, .unit_room = unit_room,
					      .quad_popular_accesses = o.quad_popular,
					      .quad_repeat_writes = o.quad_repeat };
			double t0 = now_s();

			p.writes = o.writes;
			p.keys = o.unit_mode ? chunks.units : blocks.distinct_blocks;
			p.contents = blocks.distinct_block_fps;
			p.capacity = capacity_of(&o, o.sizes[s], &blocks, &chunks);
			p.meta_entries = o.meta_entries ? o.meta_entries :
					 (uint64_t)fmax(1, floor(o.meta_per_block * p.capacity + 0.5));
			p.bhi_stale_accesses = o.stale == UINT64_MAX ? 4 * p.meta_entries : o.stale;
			csim_cache_init(&c, o.policies[i], &p, o.unit_mode);
			csim_stream_run(&t, &so, &c, NULL, NULL, NULL);
			r.seconds = now_s() - t0;
			r.cache_bytes = p.capacity * c.fill_unit_bytes;
			csim_report_run(stdout, &r, o.json, first);
			first = false;
			csim_cache_free(&c);
		}
	}
	if (o.json)
		printf("%s]\n}\n", first ? "" : "\n  ");
	free(unit_acc);
	csim_trace_free(&t);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_merges.c - the block-mapped FTLs (ftl_type block, bast, fast) on
 * hand-made request sequences whose merges are known in advance:
 *
 *  - bast: a sequential rewrite of a logical block is one switch merge
 *    (one erase, nothing copied); a reclaimed log block holding a
 *    sequential prefix is a partial merge (the rest copied); one random
 *    page per logical block, with more logical blocks than log blocks, is
 *    one full merge per reclaim (every page copied, data and log erased);
 *  - fast: a sequential rewrite goes to the SW block and switches; random
 *    pages fill the shared RW blocks, and reclaiming the oldest RW block
 *    fully merges every logical block with a page in it; a new sequential
 *    run merges a partly written SW block (partial merge);
 *  - block: an update below the write pointer rewrites the block (a full
 *    merge copying the other valid pages), an update past it goes in
 *    place, a trimmed block rewrites with nothing copied;
 *  - the flash counters say the same (merge programs and reads, erases),
 *    data reads back, the check holds; a merge is on the write's path
 *    (its latency includes the erase); each scheme's mapping RAM;
 *  - static wear levelling (wl_static_threshold) under a hot/cold
 *    workload: cold blocks are migrated, the erase-count spread shrinks,
 *    data intact;
 *  - the published qualitative result: under random page overwrites the
 *    log-block merges blow up (write amplification block, bast >> fast >
 *    page), while sequential rewrites of whole logical blocks are switch
 *    merges under bast and fast (nothing copied);
 *  - configurations without room for the log blocks are refused.
 */
#include "unit.h"
#include "ftl/ftl_logblock.h"

#define GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2", \
	"op_percent=15"
#define PPB	16
#define PAGE	4096ULL

static u64 arrival;

/* One request, arriving 1 s after the previous one (idle chips); returns its latency. */
static u64 request(struct ssd_device *dev, enum ssd_op op, u64 lpn, u64 pages, u8 *buf)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = op, .offset_bytes = lpn * PAGE, .length_bytes = pages * PAGE,
		.data = &fi.it,
	};
	u64 done_ns;

	arrival += 1000000000ULL;
	req.arrival_ns = arrival;
	flat_iter_init(&fi, buf);
	EXPECT(ssd_device_submit(dev, &req, &done_ns) == 0, "request at lpn %llu failed",
	       (unsigned long long)lpn);
	return done_ns - arrival;
}

/* Page contents: lpn and version, so every read can be checked. */
static void fill_page(u8 *page, u64 lpn, u32 version)
{
	u64 i;

	for (i = 0; i < PAGE; i += 8) {
		u64 v = lpn * 1000003ULL + version * 7919ULL + i;

		memcpy(page + i, &v, 8);
	}
}

struct shadow {
	u32 version[4096];	/* 0: unwritten or trimmed */
};

static u64 write_pages(struct ssd_device *dev, struct shadow *sh, u64 lpn, u64 pages)
{
	static u8 buf[64 * PAGE];
	u64 i;

	EXPECT(pages <= 64, "too many pages");
	for (i = 0; i < pages; i++) {
		sh->version[lpn + i]++;
		fill_page(buf + i * PAGE, lpn + i, sh->version[lpn + i]);
	}
	return request(dev, SSD_OP_WRITE, lpn, pages, buf);
}

static void write_page(struct ssd_device *dev, struct shadow *sh, u64 lpn)
{
	write_pages(dev, sh, lpn, 1);
}

static void trim_pages(struct ssd_device *dev, struct shadow *sh, u64 lpn, u64 pages)
{
	u64 i;

	request(dev, SSD_OP_TRIM, lpn, pages, NULL);
	for (i = 0; i < pages; i++)
		sh->version[lpn + i] = 0;
}

/* Every page reads back as written (zeros if never written or trimmed). */
static void verify(struct ssd_device *dev, const struct shadow *sh)
{
	static u8 got[PAGE], want[PAGE];
	u64 lpn, pages = unit_ftl(dev)->logical_pages;

	for (lpn = 0; lpn < pages && lpn < ARRAY_SIZE(sh->version); lpn++) {
		request(dev, SSD_OP_READ, lpn, 1, got);
		if (sh->version[lpn])
			fill_page(want, lpn, sh->version[lpn]);
		else
			memset(want, 0, PAGE);
		EXPECT(!memcmp(got, want, PAGE), "lpn %llu reads other data",
		       (unsigned long long)lpn);
	}
	EXPECT(ssd_device_check(dev) == 0, "check");
}

struct merges {
	u64 sw, partial, full, pages, erases;
};

static void expect_merges(struct ssd_device *dev, struct merges want, const char *when)
{
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	EXPECT(st.ftl_switch_merges == want.sw && st.ftl_partial_merges == want.partial &&
	       st.ftl_full_merges == want.full && st.flash_program_merge_pages == want.pages &&
	       st.ftl_merge_erases == want.erases,
	       "%s: switch %llu partial %llu full %llu pages %llu erases %llu, expected %llu %llu %llu %llu %llu",
	       when, (unsigned long long)st.ftl_switch_merges,
	       (unsigned long long)st.ftl_partial_merges, (unsigned long long)st.ftl_full_merges,
	       (unsigned long long)st.flash_program_merge_pages,
	       (unsigned long long)st.ftl_merge_erases, (unsigned long long)want.sw,
	       (unsigned long long)want.partial, (unsigned long long)want.full,
	       (unsigned long long)want.pages, (unsigned long long)want.erases);
	/* The flash saw the same: every erase is a merge's, every merge read was programmed. */
	EXPECT(st.flash_erase_blocks == want.erases && st.flash_read_merge_pages == want.pages &&
	       st.flash_program_gc_pages == 0,
	       "%s: flash erases %llu, merge reads %llu", when,
	       (unsigned long long)st.flash_erase_blocks,
	       (unsigned long long)st.flash_read_merge_pages);
}

static struct ssd_device *fresh(const char *const *settings, unsigned int count,
				struct shadow *sh)
{
	struct ssd_device *dev = make_device(settings, count);

	memset(sh, 0, sizeof(*sh));
	return dev;
}

/* Logical blocks 0..9 written in order: every page in place, nothing merged. */
static void fill_ten(struct ssd_device *dev, struct shadow *sh)
{
	u32 lbn;

	for (lbn = 0; lbn < 10; lbn++)
		write_pages(dev, sh, lbn * PPB, PPB);
	expect_merges(dev, (struct merges){ 0 }, "sequential fill");
	ssd_device_reset_stats(dev);
}

static void test_bast(void)
{
	static const char *const s[] = { GEOMETRY, "ftl_type=bast", "ftl_log_blocks=4" };
	static struct shadow sh;
	struct ssd_device *dev = fresh(s, ARRAY_SIZE(s), &sh);
	u64 plain_ns, merge_ns;
	u32 lbn;

	fill_ten(dev, &sh);
	/* A sequential rewrite of a logical block: one switch merge, one erase. */
	write_pages(dev, &sh, 3 * PPB, PPB);
	expect_merges(dev, (struct merges){ .sw = 1, .erases = 1 }, "sequential rewrite");
	verify(dev, &sh);
	ssd_device_reset_stats(dev);
	/* Half of lbn 5 rewritten in order, then one page of lbns 0, 1, 2: four logs. */
	write_pages(dev, &sh, 5 * PPB, PPB / 2);
	for (lbn = 0; lbn < 3; lbn++)
		write_page(dev, &sh, lbn * PPB + 3);
	expect_merges(dev, (struct merges){ 0 }, "four log blocks in use");
	/* lbn 4 takes the LRU log, lbn 5's: a partial merge copies its other half. */
	plain_ns = request(dev, SSD_OP_READ, 0, 1, (u8[PAGE]){ 0 });
	write_page(dev, &sh, 4 * PPB + 3);
	expect_merges(dev, (struct merges){ .partial = 1, .pages = PPB / 2, .erases = 1 },
		      "partial merge");
	/* One page of lbns 6..9: each reclaims a one-page log (lbns 0, 1, 2, 4). */
	for (lbn = 6; lbn < 10; lbn++) {
		u64 ns = write_pages(dev, &sh, lbn * PPB + 3, 1);

		if (lbn == 6)
			merge_ns = ns;
	}
	expect_merges(dev, (struct merges){ .partial = 1, .full = 4,
					    .pages = PPB / 2 + 4 * PPB, .erases = 1 + 8 },
		      "one random page per logical block");
	/* The merge was on the write's path: it waited for erases. */
	EXPECT(merge_ns > plain_ns + 2 * dev->cfg.erase_ns, "a merging write took %llu ns",
	       (unsigned long long)merge_ns);
	verify(dev, &sh);
	EXPECT(unit_ftl(dev)->scheme->map_ram_bytes(unit_ftl(dev)) ==
	       ftl_lb(unit_ftl(dev))->nr_lbn * 4ULL + 4 * (8 + PPB * 4ULL), "bast mapping RAM");
	ssd_device_destroy(dev);
}

static void test_fast(void)
{
	static const char *const s[] = { GEOMETRY, "ftl_type=fast", "ftl_log_blocks=3" };
	static struct shadow sh;
	struct ssd_device *dev = fresh(s, ARRAY_SIZE(s), &sh);
	u32 lbn, off;

	fill_ten(dev, &sh);
	/* A sequential rewrite: the SW block fills and switches. */
	write_pages(dev, &sh, 3 * PPB, PPB);
	expect_merges(dev, (struct merges){ .sw = 1, .erases = 1 }, "SW switch");
	/* 32 random pages fill both RW blocks (offsets 5..8 over lbns 0..9). */
	for (off = 5; off < 9; off++)
		for (lbn = 0; lbn < 10; lbn++)
			if ((off - 5) * 10 + lbn < 32)
				write_page(dev, &sh, lbn * PPB + off);
	expect_merges(dev, (struct merges){ .sw = 1, .erases = 1 }, "RW blocks full");
	/* The next one reclaims the oldest RW block: ten logical blocks fully merged. */
	write_page(dev, &sh, 0 * PPB + 9);
	expect_merges(dev, (struct merges){ .sw = 1, .full = 10, .pages = 10 * PPB,
					    .erases = 1 + 10 + 1 },
		      "RW reclaim merges every logical block in it");
	verify(dev, &sh);
	ssd_device_reset_stats(dev);
	/* A 4-page sequential run on lbn 4, then a run starting on lbn 6: partial merge. */
	write_pages(dev, &sh, 4 * PPB, 4);
	write_page(dev, &sh, 6 * PPB);
	expect_merges(dev, (struct merges){ .partial = 1, .pages = PPB - 4, .erases = 1 },
		      "SW partial merge");
	verify(dev, &sh);
	ssd_device_destroy(dev);
}

static void test_block(void)
{
	static const char *const s[] = { GEOMETRY, "ftl_type=block" };
	static struct shadow sh;
	struct ssd_device *dev = fresh(s, ARRAY_SIZE(s), &sh);
	struct ssd_stats st;

	fill_ten(dev, &sh);
	/* An update of the last page: the other 15 copied, the old block erased. */
	write_page(dev, &sh, 2 * PPB + PPB - 1);
	expect_merges(dev, (struct merges){ .full = 1, .pages = PPB - 1, .erases = 1 },
		      "copy-on-update");
	/* In place past the write pointer (skipping pages), then below it. */
	write_pages(dev, &sh, 10 * PPB, 8);
	write_page(dev, &sh, 10 * PPB + 12);
	expect_merges(dev, (struct merges){ .full = 1, .pages = PPB - 1, .erases = 1 },
		      "in place past the write pointer");
	write_page(dev, &sh, 10 * PPB + 8);
	expect_merges(dev, (struct merges){ .full = 2, .pages = PPB - 1 + 9, .erases = 2 },
		      "an update below the write pointer");
	/* A trimmed logical block rewritten: nothing left to copy. */
	trim_pages(dev, &sh, 5 * PPB, PPB);
	write_page(dev, &sh, 5 * PPB);
	expect_merges(dev, (struct merges){ .full = 3, .pages = PPB - 1 + 9, .erases = 3 },
		      "a trimmed block rewritten");
	verify(dev, &sh);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.ftl_map_ram_bytes == ftl_lb(unit_ftl(dev))->nr_lbn * 4ULL,
	       "block mapping RAM %llu", (unsigned long long)st.ftl_map_ram_bytes);
	ssd_device_destroy(dev);
}

/*
 * Hot/cold: every logical block written once, then a few hot ones
 * rewritten page by page at random offsets.  Without static wear
 * levelling the cold blocks are never erased again; with it they are
 * migrated and the spread of erase counts shrinks.
 */
static void hot_cold(const char *type, const char *threshold, u64 *spread, u64 *min,
		     u64 *migrations)
{
	const char *const s[] = { GEOMETRY, type, threshold };
	static struct shadow sh;
	struct ssd_device *dev = fresh(s, ARRAY_SIZE(s), &sh);
	u64 lpn, rng = 99, i, pages = unit_ftl(dev)->logical_pages;
	struct ssd_stats st;

	for (lpn = 0; lpn + PPB <= pages; lpn += PPB)
		write_pages(dev, &sh, lpn, PPB);
	for (i = 0; i < 20000; i++)
		write_page(dev, &sh, rng_below(&rng, 4) * PPB + rng_below(&rng, PPB));
	verify(dev, &sh);
	ssd_device_get_stats(dev, &st);
	*spread = st.erase_count_max - st.erase_count_min;
	*min = st.erase_count_min;
	*migrations = st.wl_static_migrations;
	EXPECT(st.wl_static_pages >= st.wl_static_migrations && st.flash_program_gc_pages ==
	       st.wl_static_pages, "migrated pages %llu, GC programs %llu",
	       (unsigned long long)st.wl_static_pages,
	       (unsigned long long)st.flash_program_gc_pages);
	ssd_device_destroy(dev);
}

static void test_block_wear(void)
{
	static const char *const types[] = { "ftl_type=block", "ftl_type=bast", "ftl_type=fast" };
	u64 off_spread, off_min, off_moved, on_spread, on_min, on_moved;
	u32 t;

	for (t = 0; t < ARRAY_SIZE(types); t++) {
		hot_cold(types[t], "wl_static_threshold=0", &off_spread, &off_min, &off_moved);
		hot_cold(types[t], "wl_static_threshold=8", &on_spread, &on_min, &on_moved);
		EXPECT(off_moved == 0 && on_moved > 0, "%s migrations: off %llu, on %llu",
		       types[t], (unsigned long long)off_moved, (unsigned long long)on_moved);
		EXPECT(on_spread < off_spread && on_min > off_min,
		       "%s spread off %llu (min %llu), on %llu (min %llu)", types[t],
		       (unsigned long long)off_spread, (unsigned long long)off_min,
		       (unsigned long long)on_spread, (unsigned long long)on_min);
		printf("merges: %s wear spread %llu -> %llu, min erases %llu -> %llu, %llu migrations\n",
		       types[t], (unsigned long long)off_spread, (unsigned long long)on_spread,
		       (unsigned long long)off_min, (unsigned long long)on_min,
		       (unsigned long long)on_moved);
	}
}

/*
 * Write amplification of @type after a sequential fill of every whole
 * logical block: 3000 random page overwrites, or (@sequential) three
 * rounds of whole logical blocks rewritten in order.
 */
static double waf_of(const char *type, bool sequential, struct ssd_stats *st)
{
	const char *const s[] = { GEOMETRY, type };
	static struct shadow sh;
	struct ssd_device *dev = fresh(s, ARRAY_SIZE(s), &sh);
	u64 full = unit_ftl(dev)->logical_pages / PPB, lbn, i, rng = 7;
	int round;

	for (lbn = 0; lbn < full; lbn++)
		write_pages(dev, &sh, lbn * PPB, PPB);
	ssd_device_reset_stats(dev);
	if (sequential) {
		for (round = 0; round < 3; round++)
			for (lbn = 0; lbn < full; lbn++)
				write_pages(dev, &sh, lbn * PPB, PPB);
	} else {
		for (i = 0; i < 3000; i++)
			write_page(dev, &sh, rng_below(&rng, full * PPB));
	}
	verify(dev, &sh);
	ssd_device_get_stats(dev, st);
	ssd_device_destroy(dev);
	return (double)st->flash_program_pages / st->flash_program_host_pages;
}

static void test_qualitative(void)
{
	static const char *const types[] = {
		"ftl_type=page", "ftl_type=block", "ftl_type=bast", "ftl_type=fast",
	};
	double rnd[4], seq[4];
	struct ssd_stats st[4];
	u32 t;

	for (t = 0; t < 4; t++) {
		seq[t] = waf_of(types[t], true, &st[t]);
		if (t >= 2)
			EXPECT(st[t].flash_program_merge_pages == 0 &&
			       st[t].ftl_switch_merges * PPB == st[t].flash_program_host_pages &&
			       st[t].ftl_full_merges == 0 && st[t].ftl_partial_merges == 0,
			       "%s: sequential rewrites copied %llu pages in %llu/%llu/%llu merges",
			       types[t], (unsigned long long)st[t].flash_program_merge_pages,
			       (unsigned long long)st[t].ftl_switch_merges,
			       (unsigned long long)st[t].ftl_partial_merges,
			       (unsigned long long)st[t].ftl_full_merges);
	}
	for (t = 0; t < 4; t++)
		rnd[t] = waf_of(types[t], false, &st[t]);
	EXPECT(rnd[0] < rnd[3] && rnd[3] < rnd[2] && rnd[3] < rnd[1],
	       "random WAF page %.2f fast %.2f bast %.2f block %.2f", rnd[0], rnd[3], rnd[2],
	       rnd[1]);
	printf("merges: WAF random/sequential: page %.2f/%.2f block %.2f/%.2f bast %.2f/%.2f fast %.2f/%.2f\n",
	       rnd[0], seq[0], rnd[1], seq[1], rnd[2], seq[2], rnd[3], seq[3]);
}

static void expect_refused(const char *const *settings, unsigned int count, const char *what)
{
	struct ssd_device *dev = NULL;
	struct ssd_config cfg;

	make_config(&cfg, settings, count);
	ssd_log_quiet = 1;
	EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL && !dev, "%s accepted", what);
	ssd_log_quiet = 0;
}

static void test_refusals(void)
{
	/* 128 main blocks, 109 logical blocks, 2 reserved: at most 17 log blocks. */
	static const char *const most[] = { GEOMETRY, "ftl_type=bast", "ftl_log_blocks=17" };
	static const char *const bast[] = { GEOMETRY, "ftl_type=bast", "ftl_log_blocks=18" };
	static const char *const fast[] = { GEOMETRY, "ftl_type=fast", "ftl_log_blocks=1" };
	static const char *const tight[] = { "pages_per_block=16", "blocks_per_chip=32",
					     "chips=4", "channels=2", "op_percent=1",
					     "ftl_type=block" };
	struct ssd_device *dev = make_device(most, ARRAY_SIZE(most));

	EXPECT(ftl_lb(unit_ftl(dev))->nr_slots == 17, "ftl_log_blocks=17");
	ssd_device_destroy(dev);
	expect_refused(bast, ARRAY_SIZE(bast), "more log blocks than spare blocks");
	expect_refused(fast, ARRAY_SIZE(fast), "fast with one log block");
	expect_refused(tight, ARRAY_SIZE(tight), "no spare block for a merge");
}

int test_merges(int argc, char **argv)
{
	test_bast();
	test_fast();
	test_block();
	test_block_wear();
	test_qualitative();
	test_refusals();
	printf("merges: ok\n");
	return 0;
}

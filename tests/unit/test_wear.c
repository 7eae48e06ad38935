// SPDX-License-Identifier: GPL-2.0
/*
 * test_wear.c - static wear levelling (ftl/ftl_wear.c) on a hot/cold
 * workload: the whole logical space written once (cold data), then only a
 * hot tenth of it rewritten over and over.  Without static levelling the
 * cold blocks keep their one erase while the hot ones wear; with
 * wl_static_threshold the cold data moves, the erase-count spread (max -
 * min and the standard deviation the statistics report) shrinks, every
 * page reads back what was last written, and ssd_ftl_check() holds after
 * every GC step.  The same run under ftl_type=dftl levels too (the
 * mechanism is the page-mapped machinery's).  The reported standard
 * deviation is compared with one computed here from the blocks' counts,
 * and so is the erase-count histogram (erase_hist_*): on the worn devices,
 * on a fresh one (every block in bucket 0) and on erase counts set by hand
 * (each block in the bucket its count says).
 *
 * usage: wear [--writes N]
 */
#include "unit.h"
#include <math.h>

#define WEAR_GEOMETRY	"pages_per_block=16", "blocks_per_chip=32", "chips=4", \
			"channels=2", "op_percent=15"

/* Fill @page with the contents version @ver of @lpn has. */
static void fill_page(u8 *page, u32 size, u64 lpn, u64 ver)
{
	u64 seed = lpn * 1000003 + ver, i;

	for (i = 0; i < size; i += 8) {
		u64 v = rng_next(&seed);

		memcpy(page + i, &v, 8);
	}
}

/* The standard deviation of the blocks' erase counts in thousandths, in floating point. */
static double stddev_milli(const struct ftl *ftl)
{
	double sum = 0, sq = 0, mean;
	u32 b;

	for (b = 0; b < ftl->total_blocks; b++)
		sum += ftl->blocks[b].erase_count;
	mean = sum / ftl->total_blocks;
	for (b = 0; b < ftl->total_blocks; b++) {
		double d = ftl->blocks[b].erase_count - mean;

		sq += d * d;
	}
	return sqrt(sq / ftl->total_blocks) * 1000;
}

static void hist_of(const struct ssd_stats *st, u64 hist[SSD_ERASE_HIST_BUCKETS])
{
#define HIST_GET(i) hist[i] = st->erase_hist_##i;
	SSD_ERASE_HIST_INDEXES(HIST_GET)
#undef HIST_GET
}

/*
 * The reported histogram against one counted here: 16 buckets of
 * ceil((max + 1) / 16) erases, summing to every block.
 */
static void check_hist(const struct ftl *ftl, const struct ssd_stats *st, const char *what)
{
	u64 hist[SSD_ERASE_HIST_BUCKETS], mine[SSD_ERASE_HIST_BUCKETS] = { 0 };
	u64 width = (st->erase_count_max + 16) / 16, sum = 0;
	u32 b, i;

	hist_of(st, hist);
	EXPECT(st->erase_hist_bucket_width == width, "%s: bucket width %llu, want %llu", what,
	       (unsigned long long)st->erase_hist_bucket_width, (unsigned long long)width);
	for (b = 0; b < ftl->total_blocks; b++)
		mine[ftl->blocks[b].erase_count / width]++;
	for (i = 0; i < SSD_ERASE_HIST_BUCKETS; i++) {
		EXPECT(hist[i] == mine[i], "%s: bucket %u holds %llu blocks, counted %llu", what,
		       i, (unsigned long long)hist[i], (unsigned long long)mine[i]);
		sum += hist[i];
	}
	EXPECT(sum == st->total_blocks && sum == ftl->total_blocks,
	       "%s: buckets sum to %llu of %llu blocks", what, (unsigned long long)sum,
	       (unsigned long long)st->total_blocks);
}

/* A fresh device, then erase counts set by hand: block b has b % 40 erases. */
static void hist_by_hand(void)
{
	const char *settings[] = { WEAR_GEOMETRY };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	u64 hist[SSD_ERASE_HIST_BUCKETS], want[SSD_ERASE_HIST_BUCKETS] = { 0 };
	struct ssd_stats st;
	u32 b, i;

	ssd_device_get_stats(dev, &st);
	hist_of(&st, hist);
	EXPECT(st.erase_hist_bucket_width == 1 && hist[0] == ftl->total_blocks,
	       "fresh device: width %llu, %llu of %u blocks in bucket 0",
	       (unsigned long long)st.erase_hist_bucket_width, (unsigned long long)hist[0],
	       ftl->total_blocks);
	for (b = 0; b < ftl->total_blocks; b++) {
		ftl->blocks[b].erase_count = b % 40;
		/* max 39: width ceil(40 / 16) = 3, so b % 40 lands in (b % 40) / 3 */
		want[(b % 40) / 3]++;
	}
	ssd_device_get_stats(dev, &st);
	hist_of(&st, hist);
	EXPECT(st.erase_hist_bucket_width == 3, "width %llu for max 39",
	       (unsigned long long)st.erase_hist_bucket_width);
	for (i = 0; i < SSD_ERASE_HIST_BUCKETS; i++)
		EXPECT(hist[i] == want[i], "bucket %u: %llu blocks, want %llu", i,
		       (unsigned long long)hist[i], (unsigned long long)want[i]);
	EXPECT(hist[13] > 0 && hist[14] == 0 && hist[15] == 0,
	       "39 erases is bucket 13: %llu %llu %llu", (unsigned long long)hist[13],
	       (unsigned long long)hist[14], (unsigned long long)hist[15]);
	check_hist(ftl, &st, "by hand");
	ssd_device_destroy(dev);
}

struct wear_result {
	struct ssd_stats st;
};

static void run(const char *threshold, const char *type, u64 writes, struct wear_result *res)
{
	const char *settings[] = { WEAR_GEOMETRY, threshold, "dftl_cmt_entries=64", type };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings) - !type);
	struct ftl *ftl = unit_ftl(dev);
	u32 psize = dev->cfg.page_size_bytes;
	u64 pages = ftl->logical_pages, hot = pages / 10, lpn, i, rng = 7;
	u64 *ver = calloc(pages, sizeof(u64));
	u8 *page = malloc(psize), *back = malloc(psize);
	double mine;

	EXPECT(ver && page && back, "out of memory");
	ftl->gc_step_hook = unit_check_ftl;
	for (lpn = 0; lpn < pages; lpn++) {
		fill_page(page, psize, lpn, 0);
		EXPECT(submit(dev, SSD_OP_WRITE, lpn * psize, psize, page) == 0, "write");
	}
	for (i = 0; i < writes; i++) {
		lpn = rng_below(&rng, hot);
		fill_page(page, psize, lpn, ++ver[lpn]);
		EXPECT(submit(dev, SSD_OP_WRITE, lpn * psize, psize, page) == 0, "write");
	}
	for (lpn = 0; lpn < pages; lpn++) {
		fill_page(page, psize, lpn, ver[lpn]);
		EXPECT(submit(dev, SSD_OP_READ, lpn * psize, psize, back) == 0, "read");
		EXPECT(!memcmp(page, back, psize), "lpn %llu reads back wrong data (%s)",
		       (unsigned long long)lpn, threshold);
	}
	EXPECT(ssd_ftl_check(ftl) == 0, "check");
	ssd_device_get_stats(dev, &res->st);
	mine = stddev_milli(ftl);
	EXPECT(fabs(mine - (double)res->st.erase_count_stddev_milli) <= 1.0,
	       "stddev %llu milli reported, %.1f computed",
	       (unsigned long long)res->st.erase_count_stddev_milli, mine);
	check_hist(ftl, &res->st, threshold);
	printf("wear %s %s: erases %llu min %llu max %llu stddev %.3f, migrations %llu pages %llu gc %llu\n",
	       threshold, type ? type : "", (unsigned long long)res->st.flash_erase_blocks,
	       (unsigned long long)res->st.erase_count_min,
	       (unsigned long long)res->st.erase_count_max,
	       res->st.erase_count_stddev_milli / 1000.0,
	       (unsigned long long)res->st.wl_static_migrations,
	       (unsigned long long)res->st.wl_static_pages,
	       (unsigned long long)res->st.gc_relocated_pages);
	free(ver);
	free(page);
	free(back);
	ssd_device_destroy(dev);
}

static void compare(const char *type, u64 writes)
{
	struct wear_result off, on;

	run("wl_static_threshold=0", type, writes, &off);
	run("wl_static_threshold=4", type, writes, &on);
	EXPECT(off.st.wl_static_migrations == 0 && off.st.wl_static_pages == 0,
	       "levelling off moved %llu pages", (unsigned long long)off.st.wl_static_pages);
	EXPECT(on.st.wl_static_migrations > 0 && on.st.wl_static_pages > 0,
	       "levelling on moved nothing");
	EXPECT(on.st.wl_static_pages <= on.st.gc_relocated_pages &&
	       on.st.flash_program_gc_pages == on.st.gc_relocated_pages,
	       "wear pages %llu, GC moved %llu, programmed %llu",
	       (unsigned long long)on.st.wl_static_pages,
	       (unsigned long long)on.st.gc_relocated_pages,
	       (unsigned long long)on.st.flash_program_gc_pages);
	EXPECT(on.st.erase_count_stddev_milli * 2 < off.st.erase_count_stddev_milli,
	       "stddev %llu milli with levelling, %llu without",
	       (unsigned long long)on.st.erase_count_stddev_milli,
	       (unsigned long long)off.st.erase_count_stddev_milli);
	EXPECT(on.st.erase_count_max - on.st.erase_count_min <
	       off.st.erase_count_max - off.st.erase_count_min,
	       "spread %llu with levelling, %llu without",
	       (unsigned long long)(on.st.erase_count_max - on.st.erase_count_min),
	       (unsigned long long)(off.st.erase_count_max - off.st.erase_count_min));
}

int test_wear(int argc, char **argv)
{
	u64 writes = 60000;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--writes") && i + 1 < argc)
			writes = strtoull(argv[++i], NULL, 0);
		else
			FAIL("usage: wear [--writes N]");
	}
	hist_by_hand();
	compare("ftl_type=page", writes);
	compare("ftl_type=dftl", writes);
	printf("wear: ok\n");
	return 0;
}

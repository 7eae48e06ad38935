// SPDX-License-Identifier: GPL-2.0
/*
 * test_cache.c - the SLC write cache (nvmcache/) in the device's stack:
 *
 *  - ProCache's die: a cold page written K times in one-page requests
 *    never enters with probability (1-p)^K (0.729 for p=0.1, K=3; 0.857
 *    for p=0.05, K=3), checked over many pages within 5 standard errors;
 *    requests of procache_c_bytes or more never enter; the vector form
 *    takes p by size class; one verdict per request; the same seed gives
 *    the same decisions, another seed others;
 *  - ProCache's hit is of the whole request by default (a request hits
 *    only if all its pages are cached; otherwise every page takes its
 *    verdict, a cold one invalidating the cached pages, data intact, a
 *    partial page's too), per page with procache_hit_per_page=1;
 *  - REFCNT as Algorithm 3 by default (a page enters on its (threshold +
 *    1)-th write, its counter stops at the threshold, so a decay brings it
 *    below sooner), with refcnt_count_first=1 on its threshold-th write
 *    (every access counted, up to 255), and a byte per logical page;
 *    LARC enters on the second miss; TinyLFU admits while there is room
 *    and then only pages more frequent than the victim;
 *  - LRU, FIFO, CLOCK, GCLOCK, ARC, SIEVE and S3-FIFO evict the pages
 *    they should on a hand-made sequence, and an evicted page is destaged
 *    to TLC with its data; ARC adapts p on ghost hits and requeues a page
 *    in its own list, SIEVE's hand keeps its place, S3-FIFO promotes from
 *    small to main and readmits from its ghost (the pages cached after
 *    every write as computed by hand and by libcachesim 0.3.5);
 *  - counters add up (SLC + TLC programs, destage = evictions, cached
 *    pages = the SLC region's valid pages), the memory plan is exact for
 *    every policy, and a cache without an SLC region is refused.
 */
#include <math.h>

#include "unit_cache.h"

static void write_pages(struct ssd_device *dev, u64 lpn, u64 pages, u8 fill)
{
	u64 bytes = pages * dev->page_bytes;
	u8 *buf = malloc(bytes);

	EXPECT(buf, "out of memory");
	memset(buf, fill, bytes);
	EXPECT(submit(dev, SSD_OP_WRITE, lpn * dev->page_bytes, bytes, buf) == 0,
	       "write of lpn %llu failed", (unsigned long long)lpn);
	free(buf);
}

static void expect_page(struct ssd_device *dev, u64 lpn, u8 fill)
{
	u8 *buf = malloc(dev->page_bytes);
	u32 i;

	EXPECT(buf, "out of memory");
	EXPECT(submit(dev, SSD_OP_READ, lpn * dev->page_bytes, dev->page_bytes, buf) == 0,
	       "read failed");
	for (i = 0; i < dev->page_bytes; i++)
		EXPECT(buf[i] == fill, "lpn %llu byte %u: 0x%02x, expected 0x%02x",
		       (unsigned long long)lpn, i, buf[i], fill);
	free(buf);
}

/* Counters every configuration must satisfy. */
static void expect_counters_agree(struct ssd_device *dev)
{
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_tlc_pages + st.flash_program_slc_pages ==
	       st.flash_program_pages, "TLC + SLC programs != all programs");
	EXPECT(st.flash_program_destage_pages == st.cache_evict_pages,
	       "destaged %llu, evicted %llu", (unsigned long long)st.flash_program_destage_pages,
	       (unsigned long long)st.cache_evict_pages);
	EXPECT(st.cache_pages == st.slc_valid_pages, "cached %llu, SLC valid %llu",
	       (unsigned long long)st.cache_pages, (unsigned long long)st.slc_valid_pages);
	EXPECT(st.cache_pages <= st.cache_capacity_pages, "cache over its capacity");
	EXPECT(st.cache_write_hit_pages + st.cache_admit_pages + st.cache_bypass_size_pages +
	       st.cache_bypass_dice_pages + st.cache_bypass_policy_pages ==
	       st.host_write_pages, "hits + admissions + bypasses != page writes");
	EXPECT(ssd_device_check(dev) == 0, "consistency check");
}

/*
 * Write @lpns cold pages @k times each, one page per request; the share
 * that never entered must be (1-p)^k within 5 standard errors.
 */
static void check_never_enters(u64 p_ppm, u32 k, u64 lpns, u64 seed)
{
	char p_setting[64], seed_setting[64];
	const char *settings[] = {
		CACHE_GEOMETRY, "cache_policy=procache", p_setting, seed_setting,
	};
	struct ssd_device *dev;
	double p = p_ppm / 1e6, expected = pow(1 - p, k), share, bound;
	u64 lpn, never = 0;
	u32 i;

	snprintf(p_setting, sizeof(p_setting), "procache_p_ppm=%llu", (unsigned long long)p_ppm);
	snprintf(seed_setting, sizeof(seed_setting), "seed=%llu", (unsigned long long)seed);
	dev = make_device(settings, ARRAY_SIZE(settings));
	for (lpn = 0; lpn < lpns; lpn++) {
		u64 admitted = cache_of(dev)->counters.admit_pages;

		for (i = 0; i < k; i++)
			write_pages(dev, lpn, 1, (u8)i);
		never += cache_of(dev)->counters.admit_pages == admitted;
	}
	share = (double)never / lpns;
	bound = 5 * sqrt(expected * (1 - expected) / lpns);
	EXPECT(fabs(share - expected) <= bound,
	       "p=%.3f K=%u: %.4f never entered, expected %.4f +- %.4f", p, k, share,
	       expected, bound);
	printf("procache p=%.2f K=%u: %.4f of %llu cold pages never entered (expected %.4f +- %.4f)\n",
	       p, k, share, (unsigned long long)lpns, expected, bound);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);
}

/*
 * Algorithm 1's cut-off under both readings of its lost comparison symbol:
 * by default a request of exactly c (4 pages here) may enter and larger
 * ones never do (Fig 8's "the same or less than the cut-off size"); with
 * procache_c_inclusive=0 a request of c bytes bypasses too.
 */
static void test_size_threshold_and_vector(void)
{
	const char *sized[] = {
		CACHE_GEOMETRY, "cache_policy=procache", "procache_p_ppm=1000000",
		"procache_c_bytes=16384", "procache_c_inclusive=0",
	};
	const char *inclusive[] = {
		CACHE_GEOMETRY, "cache_policy=procache", "procache_p_ppm=1000000",
		"procache_c_bytes=16384",
	};
	const char *vector[] = {
		CACHE_GEOMETRY, "cache_policy=procache", "procache_p_vector=1",
		"procache_p_class0_ppm=1000000", "procache_p_class1_ppm=0",
		"procache_p_class2_ppm=1000000",
	};
	struct ssd_device *dev = make_device(sized, ARRAY_SIZE(sized));
	struct ssd_stats st;
	u64 lpn, big = 0, small = 0;

	/* Size >= c cold: 4-page requests (= c) and larger never enter; 3-page ones do. */
	for (lpn = 0; lpn < 400; lpn += 20) {
		write_pages(dev, lpn, 4 + lpn % 3, 1);
		big += 4 + lpn % 3;
		write_pages(dev, lpn + 10, 3, 2);
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_bypass_size_pages == big && st.cache_admit_pages == 60,
	       "size: bypassed %llu, admitted %llu",
	       (unsigned long long)st.cache_bypass_size_pages,
	       (unsigned long long)st.cache_admit_pages);
	for (lpn = 0; lpn < 400; lpn += 20)
		EXPECT(!cached(dev, lpn) && cached(dev, lpn + 10), "lpn %llu",
		       (unsigned long long)lpn);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);

	/* The default: 4-page requests (= c) always enter; 5 and 6 pages never. */
	dev = make_device(inclusive, ARRAY_SIZE(inclusive));
	big = 0;
	for (lpn = 0; lpn < 400; lpn += 20) {
		write_pages(dev, lpn, 4 + lpn % 3, 1);
		if (lpn % 3)
			big += 4 + lpn % 3;
		else
			small += 4;
		write_pages(dev, lpn + 10, 4, 2);
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_bypass_size_pages == big && st.cache_admit_pages == small + 80,
	       "size, inclusive: bypassed %llu, admitted %llu",
	       (unsigned long long)st.cache_bypass_size_pages,
	       (unsigned long long)st.cache_admit_pages);
	for (lpn = 0; lpn < 400; lpn += 20)
		EXPECT(cached(dev, lpn) == !(lpn % 3) && cached(dev, lpn + 10), "lpn %llu",
		       (unsigned long long)lpn);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);

	/* Vector form: 1 page (class 0) enters, 2 pages (class 1) never, 3-4 pages enter. */
	dev = make_device(vector, ARRAY_SIZE(vector));
	for (lpn = 0; lpn < 1000; lpn += 10) {
		write_pages(dev, lpn, 1, 1);
		write_pages(dev, lpn + 2, 2, 1);
		write_pages(dev, lpn + 5, 4, 1);
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_admit_pages == 100 * 5 && st.cache_bypass_dice_pages == 100 * 2,
	       "vector: admitted %llu, dice bypassed %llu",
	       (unsigned long long)st.cache_admit_pages,
	       (unsigned long long)st.cache_bypass_dice_pages);
	ssd_device_destroy(dev);
}

/* One verdict per request; the same seed decides alike, another differently. */
static u64 procache_admits(const char *seed, u64 *first_lpns)
{
	const char *settings[] = {
		CACHE_GEOMETRY, "cache_policy=procache", "procache_p_ppm=500000", seed,
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	u64 lpn, admits, found = 0;

	*first_lpns = 0;
	for (lpn = 0; lpn < 8 * 200; lpn += 8) {
		u64 before = cache_of(dev)->counters.admit_pages, got;

		write_pages(dev, lpn, 8, 3);
		got = cache_of(dev)->counters.admit_pages - before;
		EXPECT(got == 0 || got == 8, "a request's pages split: %llu of 8 entered",
		       (unsigned long long)got);
		if (got && found < 64)
			*first_lpns ^= lpn << (found++ % 48);
	}
	admits = cache_of(dev)->counters.admit_pages;
	ssd_device_destroy(dev);
	return admits;
}

static void test_seed(void)
{
	u64 sig1, sig1b, sig2;
	u64 a = procache_admits("seed=7", &sig1);
	u64 b = procache_admits("seed=7", &sig1b);
	u64 c = procache_admits("seed=8", &sig2);

	EXPECT(a == b && sig1 == sig1b, "same seed, other decisions");
	EXPECT(sig1 != sig2 || a != c, "another seed, the same decisions");
	EXPECT(a > 8 * 60 && a < 8 * 140, "p=0.5 admitted %llu of 1600 pages",
	       (unsigned long long)a);
}

/* Write @bytes of @fill at byte @offset (any alignment). */
static void write_bytes(struct ssd_device *dev, u64 offset, u64 bytes, u8 fill)
{
	u8 *buf = malloc(bytes);

	EXPECT(buf, "out of memory");
	memset(buf, fill, bytes);
	EXPECT(submit(dev, SSD_OP_WRITE, offset, bytes, buf) == 0, "write at %llu failed",
	       (unsigned long long)offset);
	free(buf);
}

/* Bytes [@offset, + @bytes) read back hold @fill. */
static void expect_bytes(struct ssd_device *dev, u64 offset, u64 bytes, u8 fill)
{
	u8 *buf = malloc(bytes);
	u64 i;

	EXPECT(buf, "out of memory");
	EXPECT(submit(dev, SSD_OP_READ, offset, bytes, buf) == 0, "read failed");
	for (i = 0; i < bytes; i++)
		EXPECT(buf[i] == fill, "byte %llu: 0x%02x, expected 0x%02x",
		       (unsigned long long)(offset + i), buf[i], fill);
	free(buf);
}

/*
 * ProCache's hit (Algorithm 1: "if the requested block is already in the
 * cache then ... Update corresponding NVM cache data. else if the request
 * size [?] c then It is cold data. Send it to the NAND array and
 * invalidate any data in the NVM cache that overlaps with the request."),
 * p = 1 and c = 4 pages: @per_page 0 reads the requested block as the
 * whole request (the default), 1 as each page (procache_hit_per_page=1).
 * Every assertion differs between the two.
 */
static void check_procache_hit_unit(bool per_page)
{
	const char *settings[] = {
		CACHE_GEOMETRY, "cache_policy=procache", "procache_p_ppm=1000000",
		"procache_c_bytes=16384", per_page ? "procache_hit_per_page=1" :
		"procache_hit_per_page=0",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct nvmcache_counters *n = &cache_of(dev)->counters;
	u64 lpn;

	/* A large (cold) request over one cached page. */
	write_pages(dev, 10, 1, 1);
	EXPECT(cached(dev, 10) && n->admit_pages == 1, "a small request did not enter");
	write_pages(dev, 8, 8, 2);
	EXPECT(cached(dev, 10) == per_page, "per_page %d: the cached page %s", per_page,
	       per_page ? "left the cache" : "was not invalidated");
	EXPECT(n->write_hit_pages == per_page && n->bypass_pages[CACHE_BYPASS_SIZE] == 8 - per_page,
	       "per_page %d: %llu hits, %llu bypassed", per_page,
	       (unsigned long long)n->write_hit_pages,
	       (unsigned long long)n->bypass_pages[CACHE_BYPASS_SIZE]);
	for (lpn = 8; lpn < 16; lpn++)
		expect_page(dev, lpn, 2);

	/* A small (hot) request over one cached page: all of it enters anew. */
	write_pages(dev, 20, 1, 3);
	write_pages(dev, 20, 3, 4);
	EXPECT(n->write_hit_pages == 2 * per_page && n->admit_pages == 2 + 3 - per_page,
	       "per_page %d, hot: %llu hits, %llu admitted", per_page,
	       (unsigned long long)n->write_hit_pages, (unsigned long long)n->admit_pages);
	/* All of it cached: a hit under both readings, larger than c too. */
	write_pages(dev, 20, 3, 5);
	write_pages(dev, 23, 2, 5);
	write_pages(dev, 20, 5, 6);
	EXPECT(n->write_hit_pages == 2 * per_page + 8, "per_page %d: whole hits %llu", per_page,
	       (unsigned long long)n->write_hit_pages);
	for (lpn = 20; lpn < 25; lpn++)
		expect_page(dev, lpn, 6);

	/*
	 * Partial pages: 4 pages and 1 KiB (beyond c: cold) from the middle
	 * of lpn 30 (cached) into lpn 34: lpn 30 is merged with its cached
	 * data, then goes to TLC (whole) or stays cached (per page).
	 */
	write_pages(dev, 30, 1, 7);
	write_bytes(dev, 30 * dev->page_bytes + 512, 4 * dev->page_bytes + 1024, 8);
	EXPECT(cached(dev, 30) == per_page, "per_page %d: partial cached page", per_page);
	expect_bytes(dev, 30 * dev->page_bytes, 512, 7);
	expect_bytes(dev, 30 * dev->page_bytes + 512, 4 * dev->page_bytes + 1024, 8);
	expect_bytes(dev, 34 * dev->page_bytes + 1536, dev->page_bytes - 1536, 0);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);
}

/*
 * REFCNT, Algorithm 3 ("if Ci < threshold then Increment Ci Write into
 * flash memory else Write into an NVM cache"), threshold 2, a decay every
 * 8 page writes: page 5 written 5 times (3 of them hits), trimmed out of
 * the cache, a decay, then written again.  Algorithm 3: it bypasses twice,
 * enters on the 3rd write, its counter stops at 2, the decay halves it to
 * 1 and the next write bypasses.  refcnt_count_first=1: it enters on the
 * 2nd write, its counter reaches 5, halves to 2 and the next write enters.
 */
static void check_refcnt_rule(bool count_first)
{
	const char *settings[] = {
		CACHE_GEOMETRY, "cache_policy=refcnt", "refcnt_threshold=2",
		"refcnt_decay_writes=8", count_first ? "refcnt_count_first=1" :
		"refcnt_count_first=0",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct nvmcache_counters *n = &cache_of(dev)->counters;
	u64 entered_at = 0, lpn;
	u32 i;

	for (i = 1; i <= 5; i++) {
		write_pages(dev, 5, 1, (u8)i);
		if (!entered_at && cached(dev, 5))
			entered_at = i;
	}
	EXPECT(entered_at == (count_first ? 2 : 3), "count_first %d: entered on write %llu",
	       count_first, (unsigned long long)entered_at);
	EXPECT(n->write_hit_pages == 5 - entered_at, "count_first %d: hits", count_first);
	EXPECT(submit(dev, SSD_OP_TRIM, 5 * dev->page_bytes, dev->page_bytes, NULL) == 0,
	       "trim failed");
	EXPECT(!cached(dev, 5), "a trimmed page stayed cached");
	/* Three other page writes: the 8th write halves every counter. */
	for (lpn = 100; lpn < 103; lpn++)
		write_pages(dev, lpn, 1, 9);
	write_pages(dev, 5, 1, 10);
	EXPECT(cached(dev, 5) == count_first, "count_first %d: after the decay, %s",
	       count_first, count_first ? "bypassed" : "entered");
	expect_page(dev, 5, 10);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);
}

static void test_refcnt_larc_tinylfu(void)
{
	const char *refcnt[] = { CACHE_GEOMETRY, "cache_policy=refcnt", "refcnt_threshold=3",
				 "refcnt_decay_writes=1000000", "refcnt_count_first=1" };
	const char *refcnt3[] = { CACHE_GEOMETRY, "cache_policy=refcnt", "refcnt_threshold=3",
				  "refcnt_decay_writes=1000000" };
	const char *larc[] = { CACHE_GEOMETRY, "cache_policy=larc", "larc_ghost_pages=50" };
	const char *tiny[] = { CACHE_GEOMETRY, "cache_policy=tinylfu", "cache_pages=16" };
	struct ssd_device *dev = make_device(refcnt, ARRAY_SIZE(refcnt));
	struct ssd_stats st;
	u64 lpn;

	write_pages(dev, 5, 1, 1);
	write_pages(dev, 5, 1, 2);
	EXPECT(!cached(dev, 5), "refcnt: entered below the threshold");
	write_pages(dev, 5, 1, 3);
	EXPECT(cached(dev, 5), "refcnt: not entered at the threshold");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_policy_metadata_bytes == dev->capacity_bytes / dev->page_bytes,
	       "refcnt: %llu bytes of counters", (unsigned long long)st.cache_policy_metadata_bytes);
	EXPECT(st.cache_bypass_policy_pages == 2, "refcnt bypasses");
	ssd_device_destroy(dev);

	/* The default, Algorithm 3: three writes counted, the fourth enters. */
	dev = make_device(refcnt3, ARRAY_SIZE(refcnt3));
	for (lpn = 1; lpn <= 3; lpn++)
		write_pages(dev, 5, 1, (u8)lpn);
	EXPECT(!cached(dev, 5), "refcnt: entered at the threshold");
	write_pages(dev, 5, 1, 4);
	EXPECT(cached(dev, 5), "refcnt: not entered above the threshold");
	expect_page(dev, 5, 4);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_bypass_policy_pages == 3, "refcnt, Algorithm 3: bypasses");
	ssd_device_destroy(dev);
	check_refcnt_rule(false);
	check_refcnt_rule(true);

	dev = make_device(larc, ARRAY_SIZE(larc));
	write_pages(dev, 9, 1, 1);
	EXPECT(!cached(dev, 9), "larc: entered on the first miss");
	/* 60 other misses push lpn 9 out of a 50-page ghost list. */
	for (lpn = 100; lpn < 160; lpn++)
		write_pages(dev, lpn, 1, 1);
	write_pages(dev, 9, 1, 2);
	EXPECT(!cached(dev, 9), "larc: entered after falling out of the ghost list");
	write_pages(dev, 9, 1, 3);
	EXPECT(cached(dev, 9), "larc: not entered on the second miss");
	expect_page(dev, 9, 3);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);

	dev = make_device(tiny, ARRAY_SIZE(tiny));
	for (lpn = 0; lpn < 16; lpn++)
		write_pages(dev, lpn, 1, 1);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_admit_pages == 16, "tinylfu: refused while there was room");
	/* Cold newcomers do not beat a cached page written before: bypass. */
	for (lpn = 0; lpn < 16; lpn++)
		write_pages(dev, lpn, 1, 2);
	for (lpn = 1000; lpn < 1010; lpn++)
		write_pages(dev, lpn, 1, 2);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_bypass_policy_pages == 10 && st.cache_admit_pages == 16,
	       "tinylfu: cold pages entered (%llu bypassed)",
	       (unsigned long long)st.cache_bypass_policy_pages);
	/* A page written often enough beats the victim. */
	for (lpn = 0; lpn < 4; lpn++)
		write_pages(dev, 2000, 1, 4);
	EXPECT(cached(dev, 2000), "tinylfu: a frequent page did not enter");
	expect_page(dev, 2000, 4);
	expect_counters_agree(dev);
	ssd_device_destroy(dev);
}

/* Pages 0-3 fill a 4-page cache, 0 is hit, then 4 and 5 enter (@extra: a key). */
static void check_replacement(const char *repl, const char *extra, u64 gone1, u64 gone2)
{
	char setting[64];
	const char *settings[] = { CACHE_GEOMETRY, "cache_policy=always", "cache_pages=4",
				   setting, extra ? extra : "seed=1" };
	struct ssd_device *dev;
	struct ssd_stats st;
	u64 lpn;

	snprintf(setting, sizeof(setting), "cache_replacement=%s", repl);
	dev = make_device(settings, ARRAY_SIZE(settings));
	for (lpn = 0; lpn < 4; lpn++)
		write_pages(dev, lpn, 1, (u8)(0x10 + lpn));
	write_pages(dev, 0, 1, 0x20);
	write_pages(dev, 4, 1, 0x14);
	EXPECT(!cached(dev, gone1), "%s: lpn %llu not evicted first", repl,
	       (unsigned long long)gone1);
	write_pages(dev, 5, 1, 0x15);
	EXPECT(!cached(dev, gone2), "%s: lpn %llu not evicted second", repl,
	       (unsigned long long)gone2);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_evict_pages == 2 && st.flash_program_destage_pages == 2 &&
	       st.flash_read_destage_pages == 2 && st.cache_write_hit_pages == 1,
	       "%s: evictions %llu", repl, (unsigned long long)st.cache_evict_pages);
	/* Destaged pages kept their data. */
	expect_page(dev, 0, 0x20);
	for (lpn = 1; lpn < 6; lpn++)
		expect_page(dev, lpn, (u8)(0x10 + lpn));
	expect_counters_agree(dev);
	ssd_device_destroy(dev);
}

/* The index in @seq of the last write of @lpn. */
static u32 last_write(const u64 *seq, u32 n, u64 lpn)
{
	u32 i, last = 0;

	for (i = 0; i < n; i++)
		if (seq[i] == lpn)
			last = i;
	return last;
}

/* Write hits of the page writes @seq on a cache of @pages pages under @repl. */
static u64 write_hits(const char *repl, u32 pages, const u64 *seq, u32 n)
{
	char setting[64], size[64];
	const char *settings[] = { CACHE_GEOMETRY, "cache_policy=always", size, setting };
	struct ssd_device *dev;
	struct ssd_stats st;
	u32 i;

	snprintf(setting, sizeof(setting), "cache_replacement=%s", repl);
	snprintf(size, sizeof(size), "cache_pages=%u", pages);
	dev = make_device(settings, ARRAY_SIZE(settings));
	for (i = 0; i < n; i++)
		write_pages(dev, seq[i], 1, (u8)i);
	for (i = 0; i < n; i++)
		expect_page(dev, seq[i], (u8)last_write(seq, n, seq[i]));
	expect_counters_agree(dev);
	ssd_device_get_stats(dev, &st);
	ssd_device_destroy(dev);
	return st.cache_write_hit_pages;
}

/*
 * CLOCK as a ring: a page that enters goes just behind the hand, so the
 * hand reaches it last (issue 18's sequence: 3 hits, not 2).  The longer
 * sequence gives 5 on a textbook ring of 3 frames and in libCacheSim's
 * Clock (LRU 4, FIFO 2).
 */
static void test_clock_ring(void)
{
	static const u64 short_seq[] = { 0, 1, 2, 0, 2, 3, 4, 3 };
	static const u64 long_seq[] = { 0, 1, 2, 0, 3, 0, 4, 1, 2, 0, 3, 4, 0, 1, 0 };
	u64 hits;

	hits = write_hits("clock", 3, short_seq, ARRAY_SIZE(short_seq));
	EXPECT(hits == 3, "clock: %llu hits, textbook CLOCK has 3", (unsigned long long)hits);
	hits = write_hits("clock", 3, long_seq, ARRAY_SIZE(long_seq));
	EXPECT(hits == 5, "clock: %llu hits on the long sequence, textbook CLOCK has 5",
	       (unsigned long long)hits);
	hits = write_hits("lru", 3, long_seq, ARRAY_SIZE(long_seq));
	EXPECT(hits == 4, "lru: %llu hits", (unsigned long long)hits);
	hits = write_hits("fifo", 3, long_seq, ARRAY_SIZE(long_seq));
	EXPECT(hits == 2, "fifo: %llu hits", (unsigned long long)hits);
}

/* One page write of a hand-made sequence and the pages cached after it. */
struct cache_step {
	u64 lpn;
	u32 cached;	/* bit k: lpn k is cached after the write */
};

#define LPN(k)	(1u << (k))

/* The cached pages after each step of @steps, then the write hits. */
static struct ssd_device *run_steps(const char *name, struct ssd_device *dev,
				    const struct cache_step *steps, u32 n, u64 hits)
{
	u64 lpn;
	u32 i;

	for (i = 0; i < n; i++) {
		write_pages(dev, steps[i].lpn, 1, (u8)(i + 1));
		for (lpn = 0; lpn < 32; lpn++)
			EXPECT(cached(dev, lpn) == !!(steps[i].cached & (1u << lpn)),
			       "%s: after write %u (lpn %llu), lpn %llu %scached", name, i,
			       (unsigned long long)steps[i].lpn, (unsigned long long)lpn,
			       cached(dev, lpn) ? "" : "not ");
	}
	EXPECT(cache_of(dev)->counters.write_hit_pages == hits, "%s: %llu hits, expected %llu",
	       name, (unsigned long long)cache_of(dev)->counters.write_hit_pages,
	       (unsigned long long)hits);
	expect_counters_agree(dev);
	return dev;
}

static struct ssd_device *cache_device(const char *repl, u32 pages, const char *extra)
{
	char r[64], size[64];
	const char *settings[] = { CACHE_GEOMETRY, "cache_policy=always", r, size,
				   extra ? extra : "seed=1" };

	snprintf(r, sizeof(r), "cache_replacement=%s", repl);
	snprintf(size, sizeof(size), "cache_pages=%u", pages);
	return make_device(settings, ARRAY_SIZE(settings));
}

/*
 * ARC's adaptation on 3 pages (computed by hand, and the same pages
 * cached after every write in libcachesim 0.3.5's ARC).  After 1 2 1 3,
 * T1 = [3 2], T2 = [1], p = 0; 4 misses everywhere and evicts T1's LRU 2
 * into B1.  2 is then a B1 ghost hit: p rises to max(|B2|/|B1|, 1) = 1,
 * REPLACE evicts T1's LRU 3 (|T1| = 2 > p) and 2 enters T2 = [2 1].  Now
 * the miss 5 finds |T1| = 1, not above p, so T2 loses its LRU 1 (into
 * B2); with p still 0, T1 would have lost 4.  1 is then a B2 ghost hit:
 * p falls back to 0 and T1 loses 4 (into B1); 4, a B1 hit, raises p to 1
 * and T2 loses its LRU 2.
 */
static void test_arc_adaptation(void)
{
	static const struct cache_step steps[] = {
		{ 1, LPN(1) }, { 2, LPN(1) | LPN(2) }, { 1, LPN(1) | LPN(2) },
		{ 3, LPN(1) | LPN(2) | LPN(3) }, { 4, LPN(1) | LPN(3) | LPN(4) },
		{ 2, LPN(1) | LPN(2) | LPN(4) }, { 5, LPN(2) | LPN(4) | LPN(5) },
		{ 1, LPN(1) | LPN(2) | LPN(5) }, { 4, LPN(1) | LPN(4) | LPN(5) },
	};

	ssd_device_destroy(run_steps("arc", cache_device("arc", 3, NULL), steps,
				     ARRAY_SIZE(steps), 1));
}

/*
 * ARC's requeue (for a dedup-aware wrapper): the page goes to the MRU end
 * of its own list without a hit.  T1 = [3 2 1]: requeue 1 and the next
 * miss evicts 2; 1 stayed in T1 (a hit would have moved it to T2), so
 * it leaves from T1 two misses later.  T2 = [3 2 1] (all hit once):
 * requeue 1 and the miss evicts T2's LRU 2.
 */
static void test_arc_requeue(void)
{
	static const struct cache_step t1_steps[] = {
		{ 4, LPN(1) | LPN(3) | LPN(4) }, { 5, LPN(1) | LPN(4) | LPN(5) },
		{ 6, LPN(4) | LPN(5) | LPN(6) },
	};
	static const struct cache_step t2_steps[] = {
		{ 4, LPN(1) | LPN(3) | LPN(4) },
	};
	struct ssd_device *dev = cache_device("arc", 3, NULL);
	struct nvmcache *c = cache_of(dev);
	u64 lpn;

	for (lpn = 1; lpn <= 3; lpn++)
		write_pages(dev, lpn, 1, 1);
	c->alg.repl->requeue(&c->alg, ssd_cache_set_find(&c->alg.dir, 1));
	ssd_device_destroy(run_steps("arc requeue T1", dev, t1_steps, ARRAY_SIZE(t1_steps), 0));

	dev = cache_device("arc", 3, NULL);
	c = cache_of(dev);
	for (lpn = 1; lpn <= 6; lpn++)
		write_pages(dev, (lpn - 1) % 3 + 1, 1, 1);
	c->alg.repl->requeue(&c->alg, ssd_cache_set_find(&c->alg.dir, 1));
	EXPECT(c->alg.repl->check(&c->alg) == 0, "arc: check after requeue");
	ssd_device_destroy(run_steps("arc requeue T2", dev, t2_steps, ARRAY_SIZE(t2_steps), 3));
}

/*
 * SIEVE's hand keeps its place (4 pages; by hand and libcachesim's
 * Sieve).  1 2 3 4, 1 hit: 5 makes the hand pass 1 (clearing its bit) and
 * evict 2; the hand stays at 3, so 6, 7 and 8 evict 3, 4 and 5, and the
 * oldest page 1 stays (CLOCK, which restarts at its oldest page, evicts 1
 * at 8).  1 is hit, then 9 evicts 6, where the hand was.  After 7 8 9 are
 * hit, 10 makes the hand pass 7, 8 and 9, go past the head round to the
 * tail, pass 1 and evict 7; 11 evicts 8, where it stopped.
 */
static void test_sieve_hand(void)
{
	static const u64 seq[] = { 1, 2, 3, 4, 1, 5, 6, 7, 8, 1, 9, 7, 8, 9, 10, 11 };
	static const struct cache_step steps[] = {
		{ 1, LPN(1) }, { 2, LPN(1) | LPN(2) }, { 3, LPN(1) | LPN(2) | LPN(3) },
		{ 4, LPN(1) | LPN(2) | LPN(3) | LPN(4) },
		{ 1, LPN(1) | LPN(2) | LPN(3) | LPN(4) },
		{ 5, LPN(1) | LPN(3) | LPN(4) | LPN(5) },
		{ 6, LPN(1) | LPN(4) | LPN(5) | LPN(6) },
		{ 7, LPN(1) | LPN(5) | LPN(6) | LPN(7) },
		{ 8, LPN(1) | LPN(6) | LPN(7) | LPN(8) },
		{ 1, LPN(1) | LPN(6) | LPN(7) | LPN(8) },
		{ 9, LPN(1) | LPN(7) | LPN(8) | LPN(9) },
		{ 7, LPN(1) | LPN(7) | LPN(8) | LPN(9) },
		{ 8, LPN(1) | LPN(7) | LPN(8) | LPN(9) },
		{ 9, LPN(1) | LPN(7) | LPN(8) | LPN(9) },
		{ 10, LPN(1) | LPN(8) | LPN(9) | LPN(10) },
		{ 11, LPN(1) | LPN(9) | LPN(10) | LPN(11) },
	};
	u64 hits;

	ssd_device_destroy(run_steps("sieve", cache_device("sieve", 4, NULL), steps,
				     ARRAY_SIZE(steps), 5));
	hits = write_hits("clock", 4, seq, ARRAY_SIZE(seq));
	EXPECT(hits == 4, "clock: %llu hits on SIEVE's sequence, libCacheSim's Clock has 4",
	       (unsigned long long)hits);
}

/*
 * S3-FIFO on 4 pages with a small FIFO of 2 (cache_s3fifo_small_percent
 * = 50), a ghost of 3 and the move threshold 2.  With
 * cache_s3fifo_fill_main=1 (by hand and libcachesim 0.3.5's S3FIFO(4,
 * small_size_ratio=0.5)): 1 2 fill small; 3 4 find it full before any
 * eviction and enter main.  1 is hit twice; 5: small's oldest page 1 has
 * 2 hits and moves to main, the next one, 2, leaves for the ghost.  2 is
 * a ghost hit: it enters main, which is over its 2 pages, so main's
 * oldest page 3 (no hits) leaves; 6 evicts main's oldest, 4.  7 evicts
 * small's 5 into the ghost; 2 is hit in main; 5 comes back from the ghost
 * into main, and small's 6 leaves.  By default (the paper, by hand) 1-4
 * all enter small; 5 moves 1 to main and sends 2 to the ghost; 2 comes
 * back into main and small's oldest, 3, leaves; 6 and 7 evict small's 4
 * and 5; 2 is hit; 5 comes back into main and small's 6 leaves: the same
 * pages cached after every write, by other ways.
 */
static void test_s3fifo_queues(void)
{
	static const struct cache_step steps[] = {
		{ 1, LPN(1) }, { 2, LPN(1) | LPN(2) }, { 3, LPN(1) | LPN(2) | LPN(3) },
		{ 4, LPN(1) | LPN(2) | LPN(3) | LPN(4) },
		{ 1, LPN(1) | LPN(2) | LPN(3) | LPN(4) },
		{ 1, LPN(1) | LPN(2) | LPN(3) | LPN(4) },
		{ 5, LPN(1) | LPN(3) | LPN(4) | LPN(5) },
		{ 2, LPN(1) | LPN(2) | LPN(4) | LPN(5) },
		{ 6, LPN(1) | LPN(2) | LPN(5) | LPN(6) },
		{ 7, LPN(1) | LPN(2) | LPN(6) | LPN(7) },
		{ 2, LPN(1) | LPN(2) | LPN(6) | LPN(7) },
		{ 5, LPN(1) | LPN(2) | LPN(5) | LPN(7) },
	};
	static const char *const fill_main[] = { CACHE_GEOMETRY, "cache_policy=always",
						 "cache_replacement=s3fifo", "cache_pages=4",
						 "cache_s3fifo_small_percent=50",
						 "cache_s3fifo_fill_main=1" };

	ssd_device_destroy(run_steps("s3fifo", cache_device("s3fifo", 4,
							   "cache_s3fifo_small_percent=50"),
				     steps, ARRAY_SIZE(steps), 3));
	ssd_device_destroy(run_steps("s3fifo 0.3.5", make_device(fill_main, ARRAY_SIZE(fill_main)),
				     steps, ARRAY_SIZE(steps), 3));
}

static void test_memory_plan_and_refusal(void)
{
	static const char *const policies[] = { "always", "procache", "refcnt", "larc",
						"tinylfu" };
	static const char *const repls[] = { "lru", "clock", "fifo", "gclock", "arc", "sieve",
					     "s3fifo" };
	struct ssd_config cfg;
	struct ssd_device *dev;
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(policies); i++)
		for (j = 0; j < ARRAY_SIZE(repls); j++) {
			char p[64], r[64];
			const char *settings[] = { CACHE_GEOMETRY, p, r };
			u64 before = ssd_zalloc_bytes_total;
			struct ssd_stats st;

			snprintf(p, sizeof(p), "cache_policy=%s", policies[i]);
			snprintf(r, sizeof(r), "cache_replacement=%s", repls[j]);
			dev = make_device(settings, ARRAY_SIZE(settings));
			EXPECT(ssd_zalloc_bytes_total - before == dev->metadata_bytes,
			       "%s/%s: planned %llu, allocated %llu", policies[i], repls[j],
			       (unsigned long long)dev->metadata_bytes,
			       (unsigned long long)(ssd_zalloc_bytes_total - before));
			ssd_device_get_stats(dev, &st);
			EXPECT(st.cache_metadata_bytes > 0, "directory bytes not reported");
			printf("memory %s/%s: directory %llu B, policy %llu B\n", policies[i],
			       repls[j], (unsigned long long)st.cache_metadata_bytes,
			       (unsigned long long)st.cache_policy_metadata_bytes);
			ssd_device_destroy(dev);
		}
	{
		const char *none[] = { "cache_policy=always" };
		const char *big[] = { CACHE_GEOMETRY, "cache_policy=always",
				      "cache_pages=100000" };

		make_config(&cfg, none, ARRAY_SIZE(none));
		EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL, "cache without SLC accepted");
		make_config(&cfg, big, ARRAY_SIZE(big));
		EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL, "oversized cache accepted");
	}
}

int test_cache(int argc, char **argv)
{
	u64 lpns = argc > 1 ? strtoull(argv[1], NULL, 0) : 20000;

	check_never_enters(100000, 3, lpns, 1);
	check_never_enters(50000, 3, lpns, 2);
	check_never_enters(100000, 1, lpns, 3);
	test_size_threshold_and_vector();
	test_seed();
	check_procache_hit_unit(false);
	check_procache_hit_unit(true);
	test_refcnt_larc_tinylfu();
	/* LRU: 0 was hit, so 1 then 2; FIFO: 0 then 1; CLOCK: 0's bit spares it, 1 then 2. */
	check_replacement("lru", NULL, 1, 2);
	check_replacement("fifo", NULL, 0, 1);
	check_replacement("clock", NULL, 1, 2);
	check_replacement("gclock", NULL, 1, 2);
	/* ARC: 0 went to T2, T1's LRU 1 then 2; SIEVE: the hand passes 0. */
	check_replacement("arc", NULL, 1, 2);
	check_replacement("sieve", NULL, 1, 2);
	/*
	 * S3-FIFO, small 1 page: 0.3.5's filling puts 0 in small and 1-3 in
	 * main, so 0 (1 hit) leaves, then 4; the paper's puts 0-3 in small,
	 * so 0 leaves, then 1.
	 */
	check_replacement("s3fifo", "cache_s3fifo_fill_main=1", 0, 4);
	check_replacement("s3fifo", NULL, 0, 1);
	test_clock_ring();
	test_arc_adaptation();
	test_arc_requeue();
	test_sieve_hand();
	test_s3fifo_queues();
	test_memory_plan_and_refusal();
	printf("cache: ok\n");
	return 0;
}

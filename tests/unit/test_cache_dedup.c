// SPDX-License-Identifier: GPL-2.0
/*
 * test_cache_dedup.c - the write cache's dedup-aware and read-cache parts
 * (issue 18), on hand-made sequences with outcomes worked out by hand:
 *
 *  - the dedup layer's references reach the cache below it
 *    (ssd_layer_ops.refcount): written, shared by duplicates, dropped;
 *  - PLC: the popularity filter, a delayed eviction abandoning a
 *    replacement, the in-out comparison refusing a newcomer and admitting
 *    one with more references;
 *  - RCE over LRU: a page referenced once leaves, a shared page is spared
 *    and leaves at its next turn once its references fell by more than
 *    half; refused over a policy that cannot requeue;
 *  - read allocation: a read miss is filled into the cache after the read
 *    (an SLC program counted as a fill), the next read hits, data intact,
 *    bytes into the cache by cause;
 *  - the memory plan stays exact with the new tables.
 */
#include "unit_cache.h"

static u8 io_buf[4096];

/* A page whose every byte is @fill, except the filter's sample, also @fill. */
static void write_fill(struct ssd_device *dev, u64 lpn, u8 fill)
{
	memset(io_buf, fill, sizeof(io_buf));
	EXPECT(submit(dev, SSD_OP_WRITE, lpn * 4096, 4096, io_buf) == 0, "write lpn %llu",
	       (unsigned long long)lpn);
}

static void read_expect(struct ssd_device *dev, u64 lpn, u8 fill)
{
	u32 i;

	EXPECT(submit(dev, SSD_OP_READ, lpn * 4096, 4096, io_buf) == 0, "read lpn %llu",
	       (unsigned long long)lpn);
	for (i = 0; i < sizeof(io_buf); i++)
		EXPECT(io_buf[i] == fill, "lpn %llu byte %u: 0x%02x, expected 0x%02x",
		       (unsigned long long)lpn, i, io_buf[i], fill);
}

static void flush(struct ssd_device *dev)
{
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush");
}

static struct ssd_stats stats(struct ssd_device *dev)
{
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	return st;
}

/*
 * With dedup above, the cache learns each chunk's references: 1 when
 * written, 3 when two duplicates share it, 2 when one is overwritten, 0
 * when the last ones are trimmed.  (The dedup buffer is off: writes leave
 * it at once.)
 */
static void test_refcounts_reach_the_cache(void)
{
	static const char *const s[] = { CACHE_GEOMETRY, "dedup=1", "dedup_buffer_pages=0",
					 "dedup_filter_live_chunks=1",
					 "cache_policy=plc" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct nvmcache *c = cache_of(dev);
	struct dedup_view { u32 chunk; } v;
	u64 lpn;

	write_fill(dev, 10, 0x5a);
	/* The chunk of lpn 10 is the only chunk: find it in the table. */
	v.chunk = U32_MAX;
	for (lpn = 0; lpn < ssd_config_logical_pages(&dev->cfg); lpn++)
		if (c->refcount[lpn])
			v.chunk = (u32)lpn;
	EXPECT(v.chunk != U32_MAX && c->refcount[v.chunk] == 1, "no reference reported");
	write_fill(dev, 11, 0x5a);
	write_fill(dev, 12, 0x5a);
	EXPECT(c->refcount[v.chunk] == 3, "refs %u after two duplicates", c->refcount[v.chunk]);
	EXPECT(cache_refs(c, v.chunk) == 3, "cache_refs");
	write_fill(dev, 12, 0x77);
	EXPECT(c->refcount[v.chunk] == 2, "refs %u after an overwrite", c->refcount[v.chunk]);
	EXPECT(submit(dev, SSD_OP_TRIM, 10 * 4096, 2 * 4096, NULL) == 0, "trim");
	EXPECT(c->refcount[v.chunk] == 0, "refs %u after the last trim", c->refcount[v.chunk]);
	read_expect(dev, 12, 0x77);
	read_expect(dev, 10, 0);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * PLC's readings these tests were written for: the slides' in-out form
 * (m = 1), inner priority 0, a hit leaving the delay count as it is.
 */
#define PLC_SLIDES	"plc_inout_form=1", "plc_priority_init=1", "plc_delay_hit=2"

/* A 2-page PLC cache over GCLOCK, no dedup (every page one reference). */
static struct ssd_device *plc_device(const char *delay, const char *threshold)
{
	const char *s[] = { CACHE_GEOMETRY, "cache_policy=plc", "cache_replacement=gclock",
			    "cache_pages=2", delay, threshold, PLC_SLIDES };

	return make_device(s, ARRAY_SIZE(s));
}

/*
 * Filter: with plc_access_threshold=2 a page enters at its third write.
 * Delayed eviction: pages 1 and 2 fill the cache with delay 2; page 3
 * (popular) misses: the first attempt lowers the victim's delay to 1 and is
 * abandoned, the second reaches 0 and the in-out comparison lets 3 in,
 * since it was written more often than the victim.
 */
static void test_plc_filter_and_delay(void)
{
	struct ssd_device *dev = plc_device("plc_delay=2", "plc_access_threshold=2");
	struct ssd_stats st;
	u64 lpn;
	int i;

	write_fill(dev, 1, 1);
	write_fill(dev, 1, 1);
	EXPECT(!cached(dev, 1), "entered at its second write with threshold 2");
	write_fill(dev, 1, 1);
	EXPECT(cached(dev, 1), "not entered at its third write");
	for (i = 0; i < 3; i++)
		write_fill(dev, 2, 2);
	EXPECT(cached(dev, 2), "page 2 did not enter");
	st = stats(dev);
	EXPECT(st.cache_bypass_policy_pages == 4 && st.cache_admit_pages == 2,
	       "filter: %llu bypassed, %llu admitted", (unsigned long long)st.cache_bypass_policy_pages,
	       (unsigned long long)st.cache_admit_pages);
	/* Page 3 written 4 times: 2 filtered, 1 delayed eviction, then in. */
	for (i = 0; i < 3; i++)
		write_fill(dev, 3, 3);
	st = stats(dev);
	EXPECT(st.cache_bypass_policy_pages == 6 && st.cache_bypass_delay_pages == 1,
	       "delay: %llu filtered, %llu delayed", (unsigned long long)st.cache_bypass_policy_pages,
	       (unsigned long long)st.cache_bypass_delay_pages);
	EXPECT(!cached(dev, 3), "a delayed eviction let page 3 in");
	write_fill(dev, 3, 3);
	EXPECT(cached(dev, 3), "page 3 did not enter once the delay ran out");
	EXPECT(cached(dev, 1) + cached(dev, 2) == 1, "not one of 1, 2 evicted");
	for (lpn = 1; lpn <= 3; lpn++)
		read_expect(dev, lpn, (u8)lpn);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * In-out: pages 1 and 2 written 6 times each fill the cache (no delay);
 * page 3, written 3 times (threshold 2), is not more popular than the
 * victim and no more referenced: refused.  Its 7th write beats the victim.
 */
static void test_plc_inout(void)
{
	struct ssd_device *dev = plc_device("plc_delay=0", "plc_access_threshold=2");
	struct ssd_stats st;
	int i;

	for (i = 0; i < 6; i++) {
		write_fill(dev, 1, 1);
		write_fill(dev, 2, 2);
	}
	for (i = 0; i < 3; i++)
		write_fill(dev, 3, 3);
	st = stats(dev);
	EXPECT(st.cache_bypass_inout_pages == 1 && !cached(dev, 3),
	       "in-out: %llu refused", (unsigned long long)st.cache_bypass_inout_pages);
	for (i = 0; i < 3; i++)
		write_fill(dev, 3, 3);
	EXPECT(!cached(dev, 3), "equal access counts let page 3 in");
	write_fill(dev, 3, 3);
	EXPECT(cached(dev, 3), "7 writes did not beat 6");
	st = stats(dev);
	EXPECT(st.cache_evict_pages == 1, "evictions %llu", (unsigned long long)st.cache_evict_pages);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * In-out with references, in a read cache: duplicates never reach the
 * cache below dedup, so a shared chunk misses only when it is read.
 * Chunks 1 and 2, written 4 times each, fill the 2-page cache; chunk S,
 * written once, loses the in-out comparison (1 access against 4, one
 * reference each); two duplicates give it 3 references; a read of it then
 * misses and its fill beats the victim by references, with 2 accesses
 * against 4.
 */
static void test_plc_inout_references(void)
{
	static const char *const s[] = { CACHE_GEOMETRY, "dedup=1", "dedup_buffer_pages=0",
					 "dedup_filter_live_chunks=1",
					 "cache_policy=plc", "cache_replacement=gclock",
					 "cache_pages=2", "plc_delay=0", "plc_access_threshold=0",
					 "cache_read_allocate=1", PLC_SLIDES };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	int i;

	/* Rewrites of an unshared page keep its chunk: 4 accesses each. */
	for (i = 0; i < 4; i++) {
		write_fill(dev, 1, (u8)(0x10 + i));
		write_fill(dev, 2, (u8)(0x20 + i));
	}
	write_fill(dev, 10, 0x33);
	st = stats(dev);
	EXPECT(st.cache_bypass_inout_pages == 1 && st.cache_admit_pages == 2,
	       "a once-written chunk beat 4 writes (%llu in-out refusals)",
	       (unsigned long long)st.cache_bypass_inout_pages);
	write_fill(dev, 11, 0x33);
	write_fill(dev, 12, 0x33);
	st = stats(dev);
	EXPECT(st.dedup_duplicate_chunks == 2, "duplicates %llu",
	       (unsigned long long)st.dedup_duplicate_chunks);
	read_expect(dev, 11, 0x33);
	st = stats(dev);
	EXPECT(st.cache_fill_pages == 1 && st.cache_evict_pages == 1,
	       "the shared chunk's fill lost: %llu fills, %llu evictions",
	       (unsigned long long)st.cache_fill_pages, (unsigned long long)st.cache_evict_pages);
	read_expect(dev, 10, 0x33);
	st = stats(dev);
	EXPECT(st.cache_read_hit_pages == 1, "the shared chunk is not cached");
	read_expect(dev, 1, 0x13);
	read_expect(dev, 2, 0x23);
	read_expect(dev, 12, 0x33);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * RCE over LRU with dedup, a 2-page cache.  Chunk A is shared by 6 pages,
 * B, C, D, E by one each.  A (tail) and B: C misses; RCE spares A (6
 * references noted, requeued) and B leaves.  One of A's pages is trimmed
 * (5 references: not less than half of 6): D misses, A is spared again
 * (5 noted) and C leaves.  Three more are trimmed (2 references, more
 * than 1 but less than half of 5): E misses and A leaves.
 */
static void test_rce(void)
{
	static const char *const s[] = { CACHE_GEOMETRY, "dedup=1", "dedup_buffer_pages=0",
					 "dedup_filter_live_chunks=1",
					 "cache_policy=always", "cache_replacement=lru",
					 "cache_rce=1", "cache_pages=2" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct nvmcache *c = cache_of(dev);
	u32 a, b, cc, d;
	u64 lpn;

	for (lpn = 1; lpn <= 6; lpn++)
		write_fill(dev, lpn, 0xa1);
	a = c->alg.dir.lpn[c->alg.dir.head];
	EXPECT(c->alg.dir.count == 1 && cache_refs(c, a) == 6, "A: %u refs", cache_refs(c, a));
	write_fill(dev, 10, 0xb1);
	b = c->alg.dir.lpn[c->alg.dir.head];
	write_fill(dev, 11, 0xc1);
	cc = c->alg.dir.lpn[c->alg.dir.head];
	EXPECT(ssd_cache_set_find(&c->alg.dir, a) != CACHE_NONE, "RCE evicted a shared page");
	EXPECT(ssd_cache_set_find(&c->alg.dir, b) == CACHE_NONE, "B (1 reference) stayed");
	EXPECT(((u16 *)c->alg.rce->note)[ssd_cache_set_find(&c->alg.dir, a)] == 6,
	       "A's references not noted");
	EXPECT(submit(dev, SSD_OP_TRIM, 2 * 4096, 4096, NULL) == 0, "trim");
	write_fill(dev, 12, 0xd1);
	d = c->alg.dir.lpn[c->alg.dir.head];
	EXPECT(ssd_cache_set_find(&c->alg.dir, a) != CACHE_NONE, "A left with 5 of 6 references");
	EXPECT(ssd_cache_set_find(&c->alg.dir, cc) == CACHE_NONE, "C stayed");
	EXPECT(((u16 *)c->alg.rce->note)[ssd_cache_set_find(&c->alg.dir, a)] == 5,
	       "A's new count not noted");
	EXPECT(submit(dev, SSD_OP_TRIM, 3 * 4096, 3 * 4096, NULL) == 0, "trim");
	EXPECT(cache_refs(c, a) == 2, "A: %u refs", cache_refs(c, a));
	write_fill(dev, 13, 0xe1);
	EXPECT(ssd_cache_set_find(&c->alg.dir, a) == CACHE_NONE, "A stayed with 2 of 5 references");
	EXPECT(ssd_cache_set_find(&c->alg.dir, d) != CACHE_NONE, "D left");
	for (lpn = 1; lpn <= 6; lpn++)
		read_expect(dev, lpn, lpn == 1 || lpn == 6 ? 0xa1 : 0);
	read_expect(dev, 10, 0xb1);
	read_expect(dev, 11, 0xc1);
	read_expect(dev, 12, 0xd1);
	read_expect(dev, 13, 0xe1);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * A shared page whose references do not fall is spared again at its next
 * turn; with every page shared, RCE gives up after a full pass and the
 * LRU tail leaves: the cache never stalls.
 */
static void test_rce_all_shared(void)
{
	static const char *const s[] = { CACHE_GEOMETRY, "dedup=1", "dedup_buffer_pages=0",
					 "dedup_filter_live_chunks=1",
					 "cache_policy=always", "cache_replacement=lru",
					 "cache_rce=1", "cache_pages=2" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	u64 lpn;

	for (lpn = 0; lpn < 8; lpn += 2) {
		write_fill(dev, lpn, (u8)(0x40 + lpn));
		write_fill(dev, lpn + 1, (u8)(0x40 + lpn));	/* every chunk 2 refs */
	}
	st = stats(dev);
	EXPECT(st.cache_admit_pages == 4 && st.cache_evict_pages == 2,
	       "admitted %llu, evicted %llu", (unsigned long long)st.cache_admit_pages,
	       (unsigned long long)st.cache_evict_pages);
	for (lpn = 0; lpn < 8; lpn++)
		read_expect(dev, lpn, (u8)(0x40 + (lpn & ~1ULL)));
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

static void test_rce_refusal(void)
{
	static const char *const fifo[] = { CACHE_GEOMETRY, "cache_policy=always",
					    "cache_replacement=fifo", "cache_rce=1" };
	struct ssd_config cfg;
	struct ssd_device *dev;

	make_config(&cfg, fifo, ARRAY_SIZE(fifo));
	ssd_log_quiet = 1;
	EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL, "cache_rce=1 over fifo accepted");
	EXPECT(ssd_config_set(&cfg, "plc_inout_percent", "99") == -EINVAL, "f < 1 accepted");
	EXPECT(ssd_config_set(&cfg, "plc_inout_percent", "201") == -EINVAL, "f > 2 accepted");
	EXPECT(ssd_config_set(&cfg, "plc_access_threshold", "255") == -EINVAL,
	       "a threshold no count can exceed accepted");
	ssd_log_quiet = 0;
}

/*
 * Read allocation: pages written with the cache bypassing (refcnt: the
 * first write never enters) are read: each read miss is filled (an SLC
 * program, cause fill), the second read of each hits.  Off, nothing fills.
 */
static void test_read_allocation(void)
{
	const char *on[] = { CACHE_GEOMETRY, "cache_policy=always", "cache_read_allocate=1",
			     "cache_pages=4" };
	const char *off[] = { CACHE_GEOMETRY, "cache_policy=always", "cache_pages=4" };
	struct ssd_device *dev;
	struct ssd_stats st;
	u64 lpn;

	dev = make_device(on, ARRAY_SIZE(on));
	for (lpn = 0; lpn < 8; lpn++)
		write_fill(dev, lpn, (u8)(0x60 + lpn));	/* 0-3 evicted by 4-7 */
	for (lpn = 0; lpn < 2; lpn++) {
		read_expect(dev, lpn, (u8)(0x60 + lpn));	/* miss: filled */
		read_expect(dev, lpn, (u8)(0x60 + lpn));	/* hit */
		EXPECT(cached(dev, lpn), "lpn %llu not filled", (unsigned long long)lpn);
	}
	read_expect(dev, 100, 0);		/* never written: nothing to fill */
	st = stats(dev);
	EXPECT(st.cache_fill_pages == 2 && st.flash_program_fill_pages == 2 &&
	       st.cache_read_hit_pages == 2 && st.cache_read_miss_pages == 3,
	       "fills %llu (programs %llu), read hits %llu, misses %llu",
	       (unsigned long long)st.cache_fill_pages,
	       (unsigned long long)st.flash_program_fill_pages,
	       (unsigned long long)st.cache_read_hit_pages,
	       (unsigned long long)st.cache_read_miss_pages);
	EXPECT(st.cache_written_fill_bytes == 2 * 4096 &&
	       st.cache_written_host_bytes == 8 * 4096, "bytes into the cache: %llu fill, %llu host",
	       (unsigned long long)st.cache_written_fill_bytes,
	       (unsigned long long)st.cache_written_host_bytes);
	/* The fills evicted two of 4-7, destaged with their data. */
	EXPECT(st.cache_evict_pages == 6, "evictions %llu", (unsigned long long)st.cache_evict_pages);
	for (lpn = 0; lpn < 8; lpn++)
		read_expect(dev, lpn, (u8)(0x60 + lpn));
	flush(dev);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);

	dev = make_device(off, ARRAY_SIZE(off));
	for (lpn = 0; lpn < 8; lpn++)
		write_fill(dev, lpn, (u8)(0x60 + lpn));
	read_expect(dev, 0, 0x60);
	read_expect(dev, 0, 0x60);
	st = stats(dev);
	EXPECT(st.cache_fill_pages == 0 && !cached(dev, 0) && st.cache_read_miss_pages == 2,
	       "read allocation off filled");
	ssd_device_destroy(dev);
}

/* The plan equals the allocation with the new tables (references, RCE, PLC). */
static void test_memory_plan(void)
{
	static const char *const sets[][6] = {
		{ CACHE_GEOMETRY, "cache_policy=plc", "cache_replacement=gclock", "", "", "" },
		{ CACHE_GEOMETRY, "cache_policy=always", "cache_rce=1", "dedup=1", "", "" },
		{ CACHE_GEOMETRY, "cache_policy=plc", "cache_rce=1", "cache_read_allocate=1",
		  "dedup=1", "" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		const char *settings[6];
		unsigned int n = 0, j;
		u64 before = ssd_zalloc_bytes_total;
		struct ssd_device *dev;
		struct ssd_stats st;

		for (j = 0; j < 6; j++)
			if (sets[i][j][0])
				settings[n++] = sets[i][j];
		dev = make_device(settings, n);
		EXPECT(ssd_zalloc_bytes_total - before == dev->metadata_bytes,
		       "set %u: planned %llu, allocated %llu", i,
		       (unsigned long long)dev->metadata_bytes,
		       (unsigned long long)(ssd_zalloc_bytes_total - before));
		st = stats(dev);
		EXPECT(st.cache_refcount_metadata_bytes ==
		       ssd_config_logical_pages(&dev->cfg) * sizeof(u16),
		       "set %u: references %llu B", i,
		       (unsigned long long)st.cache_refcount_metadata_bytes);
		printf("memory set %u: directory %llu B, policy %llu B, references %llu B\n", i,
		       (unsigned long long)st.cache_metadata_bytes,
		       (unsigned long long)st.cache_policy_metadata_bytes,
		       (unsigned long long)st.cache_refcount_metadata_bytes);
		ssd_device_destroy(dev);
	}
}

int test_cache_dedup(int argc, char **argv)
{
	test_refcounts_reach_the_cache();
	test_plc_filter_and_delay();
	test_plc_inout();
	test_plc_inout_references();
	test_rce();
	test_rce_all_shared();
	test_rce_refusal();
	test_read_allocation();
	test_memory_plan();
	printf("cache_dedup: ok\n");
	return 0;
}

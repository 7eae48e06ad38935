// SPDX-License-Identifier: GPL-2.0
/*
 * test_dedup.c - the dedup layer (dedup/): SHA-1 against the FIPS 180
 * vectors; duplicate writes share one chunk and program nothing, with
 * refcounts, overwrites and TRIM; the write buffer (rewrites, reads and
 * TRIMs of buffered pages, FLUSH); the sampling filter (filtered writes,
 * late fingerprints, sample collisions); the recency store's evictions;
 * the dedup engine's time on the write path; the data cap with writes
 * held in the buffer; over the write cache, overwrites of unshared pages
 * that keep their chunk id (as many cache write hits as without dedup)
 * while duplicates and overwrites of shared chunks change it; the memory
 * plan; and the consistency check finding a wrong refcount.
 */
#include "unit.h"
#include "dedup/dedup_internal.h"
#include "nvmcache/nvmcache_internal.h"

#define GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2", \
	"op_percent=15", "dedup=1"

static u8 page_a[4096], page_b[4096], io_buf[4096];

static struct dedup *dedup_of(struct ssd_device *dev)
{
	struct dedup *dd = ssd_dedup_from_layer(unit_layer(dev, "dedup"));

	EXPECT(dd, "no dedup layer in the stack");
	return dd;
}

/* A page of bytes from @seed; its filter sample (offset 1000) from @sample_seed. */
static void fill_page(u8 *page, u64 seed, u64 sample_seed)
{
	u32 i;

	for (i = 0; i < 4096; i++)
		page[i] = (u8)rng_next(&seed);
	for (i = 1000; i < 1020; i++)
		page[i] = (u8)rng_next(&sample_seed);
}

static void write_page(struct ssd_device *dev, u64 lpn, const u8 *page)
{
	memcpy(io_buf, page, 4096);
	EXPECT(submit(dev, SSD_OP_WRITE, lpn * 4096, 4096, io_buf) == 0, "write lpn %llu",
	       (unsigned long long)lpn);
}

static void expect_page(struct ssd_device *dev, u64 lpn, const u8 *page)
{
	static const u8 zeros[4096];

	EXPECT(submit(dev, SSD_OP_READ, lpn * 4096, 4096, io_buf) == 0, "read");
	EXPECT(!memcmp(io_buf, page ? page : zeros, 4096), "lpn %llu reads wrong data",
	       (unsigned long long)lpn);
}

static void flush(struct ssd_device *dev)
{
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush");
}

static void test_sha1(void)
{
	/* hashlib.sha1(bytes(4096)): a page of zeros, as sha1sum says. */
	static const u8 zero_page[DEDUP_SHA1_BYTES] = {
		0x1c, 0xea, 0xf7, 0x3d, 0xf4, 0x0e, 0x53, 0x1d, 0xf3, 0xbf,
		0xb2, 0x6b, 0x4f, 0xb7, 0xcd, 0x95, 0xfb, 0x7b, 0xff, 0x1d };
	u8 one[DEDUP_SHA1_BYTES], again[DEDUP_SHA1_BYTES];

	EXPECT(ssd_dedup_sha1_self_test() == 0, "FIPS 180 vectors");
	/* The module reaches it through the layer type, as ssd_core_self_test() does. */
	EXPECT(ssd_dedup_layer_type.self_test == ssd_dedup_sha1_self_test,
	       "the dedup layer type's self-test");
	EXPECT(ssd_core_self_test() == 0, "the core's self-tests");
	memset(page_a, 0, 4096);
	ssd_dedup_sha1(page_a, 4096, one);
	EXPECT(!memcmp(one, zero_page, sizeof(one)), "SHA-1 of a zero page");
	fill_page(page_a, 1, 1);
	ssd_dedup_sha1(page_a, 4096, one);
	ssd_dedup_sha1(page_a, 4096, again);
	EXPECT(!memcmp(one, again, sizeof(one)), "the same page hashed twice differs");
	page_a[4095] ^= 1;
	ssd_dedup_sha1(page_a, 4096, again);
	EXPECT(memcmp(one, again, sizeof(one)), "a flipped bit kept the SHA-1");
}

/* No buffer, no filter: every write is fingerprinted when it arrives. */
static void test_duplicates(void)
{
	static const char *const s[] = { GEOMETRY, "dedup_buffer_pages=0", "dedup_filter=0" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct dedup *dd = dedup_of(dev);
	struct ssd_stats st;
	u64 lpn;

	fill_page(page_a, 2, 2);
	fill_page(page_b, 3, 3);
	for (lpn = 0; lpn < 10; lpn++)
		write_page(dev, lpn, page_a);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_host_pages == 1 && st.dedup_duplicate_chunks == 9,
	       "10 equal pages: %llu programs, %llu duplicates",
	       (unsigned long long)st.flash_program_host_pages,
	       (unsigned long long)st.dedup_duplicate_chunks);
	EXPECT(dd->refcount[dedup_chunk_of(dd, 0)] == 10, "refcount %u",
	       dd->refcount[dedup_chunk_of(dd, 0)]);
	EXPECT(st.dedup_logical_pages == 10 && st.dedup_physical_pages == 1 &&
	       st.valid_pages == 1, "pages: logical %llu physical %llu valid %llu",
	       (unsigned long long)st.dedup_logical_pages,
	       (unsigned long long)st.dedup_physical_pages, (unsigned long long)st.valid_pages);
	for (lpn = 0; lpn < 10; lpn++)
		expect_page(dev, lpn, page_a);

	/* An overwrite drops one reference; the others still read A. */
	write_page(dev, 0, page_b);
	EXPECT(dd->refcount[dedup_chunk_of(dd, 1)] == 9, "refcount after overwrite");
	expect_page(dev, 0, page_b);
	expect_page(dev, 5, page_a);
	EXPECT(ssd_device_check(dev) == 0, "check after overwrite");
	/* TRIM the other nine: A's chunk is freed and trimmed below. */
	EXPECT(submit(dev, SSD_OP_TRIM, 4096, 9 * 4096, NULL) == 0, "trim");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_physical_pages == 1 && st.valid_pages == 1 &&
	       st.dedup_logical_pages == 1, "after TRIM: physical %llu valid %llu",
	       (unsigned long long)st.dedup_physical_pages, (unsigned long long)st.valid_pages);
	expect_page(dev, 3, NULL);
	/* A again: a new chunk (its fingerprint went with the old one). */
	write_page(dev, 7, page_a);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_store_misses == 3 && st.flash_program_host_pages == 3,
	       "A rewritten after its chunk was freed: %llu misses",
	       (unsigned long long)st.dedup_store_misses);
	EXPECT(st.dedup_break_even_ppm == (80000 + 2000) * 1000000ULL / 600000,
	       "break-even %llu ppm", (unsigned long long)st.dedup_break_even_ppm);
	EXPECT(ssd_device_check(dev) == 0, "check");
	/* A wrong refcount is found. */
	dd->refcount[dedup_chunk_of(dd, 7)]++;
	ssd_log_quiet = 1;
	EXPECT(ssd_device_check(dev) == -EUCLEAN, "a wrong refcount passed the check");
	ssd_log_quiet = 0;
	dd->refcount[dedup_chunk_of(dd, 7)]--;
	EXPECT(ssd_device_check(dev) == 0, "check after repair");
	ssd_device_destroy(dev);
}

static void test_buffer(void)
{
	static const char *const s[] = { GEOMETRY, "dedup_buffer_pages=4" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	u64 lpn;

	EXPECT(ssd_device_check(dev) == 0, "check of an empty buffer");
	for (lpn = 0; lpn < 4; lpn++) {
		fill_page(page_a, 10 + lpn, 10 + lpn);
		write_page(dev, lpn, page_a);
		EXPECT(ssd_device_check(dev) == 0, "check of a partly full buffer");
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_host_pages == 0 && st.dedup_buffered_pages == 4,
	       "4 writes into a 4-page buffer: %llu programs",
	       (unsigned long long)st.flash_program_host_pages);
	/* A buffered page is read from the buffer, rewritten in place, trimmed. */
	fill_page(page_a, 11, 11);
	expect_page(dev, 1, page_a);
	fill_page(page_b, 20, 20);
	write_page(dev, 1, page_b);
	expect_page(dev, 1, page_b);
	EXPECT(submit(dev, SSD_OP_TRIM, 2 * 4096, 4096, NULL) == 0, "trim");
	expect_page(dev, 2, NULL);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_buffer_reads == 2 && st.dedup_buffer_rewrites == 1 &&
	       st.dedup_buffer_trims == 1 && st.dedup_buffered_pages == 3,
	       "buffer: reads %llu rewrites %llu trims %llu held %llu",
	       (unsigned long long)st.dedup_buffer_reads,
	       (unsigned long long)st.dedup_buffer_rewrites,
	       (unsigned long long)st.dedup_buffer_trims,
	       (unsigned long long)st.dedup_buffered_pages);
	EXPECT(ssd_device_check(dev) == 0, "check with a hole in the buffer");
	/* Two more writes: the two oldest writes leave. */
	fill_page(page_a, 30, 30);
	write_page(dev, 8, page_a);
	fill_page(page_a, 31, 31);
	write_page(dev, 9, page_a);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_host_pages == 2 && st.dedup_chunks_written == 2,
	       "two writes left the full buffer: %llu programs",
	       (unsigned long long)st.flash_program_host_pages);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_host_pages == 5 && st.dedup_buffered_pages == 0 &&
	       st.dedup_programs_avoided == 2,
	       "FLUSH empties the buffer: %llu programs, %llu avoided",
	       (unsigned long long)st.flash_program_host_pages,
	       (unsigned long long)st.dedup_programs_avoided);
	expect_page(dev, 1, page_b);
	expect_page(dev, 9, page_a);
	EXPECT(ssd_device_check(dev) == 0, "check after flush");
	ssd_device_destroy(dev);
}

/* dedup_filter_live_chunks=1: the buffered writes' samples and the live chunks'. */
static void test_filter(void)
{
	static const char *const s[] = { GEOMETRY, "dedup_buffer_pages=8",
					 "dedup_filter_live_chunks=1" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	u64 lpn;

	/* Eight pages with eight samples: none fingerprinted. */
	for (lpn = 0; lpn < 8; lpn++) {
		fill_page(page_a, 100 + lpn, 100 + lpn);
		write_page(dev, lpn, page_a);
	}
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_filtered_chunks == 8 && st.dedup_fingerprinted_chunks == 0,
	       "unique samples: %llu filtered, %llu fingerprinted",
	       (unsigned long long)st.dedup_filtered_chunks,
	       (unsigned long long)st.dedup_fingerprinted_chunks);
	/* A copy of page 3: page 3 is fingerprinted late, the copy hits it. */
	fill_page(page_a, 103, 103);
	write_page(dev, 20, page_a);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_late_fingerprints == 1 && st.dedup_fingerprinted_chunks == 2 &&
	       st.dedup_duplicate_chunks == 1 && st.flash_program_host_pages == 8 &&
	       st.flash_read_host_pages >= 1,
	       "copy of a filtered page: late %llu fingerprinted %llu duplicates %llu",
	       (unsigned long long)st.dedup_late_fingerprints,
	       (unsigned long long)st.dedup_fingerprinted_chunks,
	       (unsigned long long)st.dedup_duplicate_chunks);
	/* Page 5's sample with other bytes: fingerprinted, a miss. */
	fill_page(page_b, 999, 105);
	write_page(dev, 21, page_b);
	/* Two equal new pages in the buffer at once: the first misses, the second hits. */
	fill_page(page_a, 500, 500);
	write_page(dev, 22, page_a);
	write_page(dev, 23, page_a);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_store_misses == 2 && st.dedup_duplicate_chunks == 2 &&
	       st.dedup_late_fingerprints == 2,
	       "collision and pair: misses %llu duplicates %llu late %llu",
	       (unsigned long long)st.dedup_store_misses,
	       (unsigned long long)st.dedup_duplicate_chunks,
	       (unsigned long long)st.dedup_late_fingerprints);
	expect_page(dev, 21, page_b);
	expect_page(dev, 23, page_a);
	fill_page(page_a, 103, 103);
	expect_page(dev, 20, page_a);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/*
 * The default, Kim's filter (kim-dedup-in-ssds-msst-2012-talk.txt:286-295):
 * a leaving write is fingerprinted only when another buffered write has
 * its sample; the others are written without dedup, each its own chunk,
 * and every page reads back what was written to it.
 */
static void test_filter_buffer(void)
{
	static const char *const s[] = { GEOMETRY, "dedup_buffer_pages=8" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	u64 lpn;

	for (lpn = 0; lpn < 8; lpn++) {
		fill_page(page_a, 100 + lpn, 100 + lpn);
		write_page(dev, lpn, page_a);
	}
	flush(dev);
	/* A copy of page 3, alone in the buffer: written again, not shared. */
	fill_page(page_a, 103, 103);
	write_page(dev, 20, page_a);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_filtered_chunks == 9 && st.dedup_fingerprinted_chunks == 0 &&
	       st.dedup_late_fingerprints == 0 && st.dedup_duplicate_chunks == 0 &&
	       st.flash_program_host_pages == 9,
	       "copy of a flushed page: filtered %llu fingerprinted %llu late %llu programs %llu",
	       (unsigned long long)st.dedup_filtered_chunks,
	       (unsigned long long)st.dedup_fingerprinted_chunks,
	       (unsigned long long)st.dedup_late_fingerprints,
	       (unsigned long long)st.flash_program_host_pages);
	/*
	 * Two copies of page 3 in the buffer at once: their bucket has two
	 * requests, both are fingerprinted; the first misses (page 3 and
	 * page 20 were never fingerprinted), the second is its duplicate.
	 */
	write_page(dev, 30, page_a);
	write_page(dev, 31, page_a);
	/* Page 5's sample with other bytes, and page 5 alone: no pair. */
	fill_page(page_b, 999, 105);
	write_page(dev, 32, page_b);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_fingerprinted_chunks == 2 && st.dedup_store_misses == 1 &&
	       st.dedup_duplicate_chunks == 1 && st.dedup_filtered_chunks == 10 &&
	       st.dedup_late_fingerprints == 0 && st.flash_program_host_pages == 11,
	       "pair in the buffer: fingerprinted %llu misses %llu duplicates %llu filtered %llu",
	       (unsigned long long)st.dedup_fingerprinted_chunks,
	       (unsigned long long)st.dedup_store_misses,
	       (unsigned long long)st.dedup_duplicate_chunks,
	       (unsigned long long)st.dedup_filtered_chunks);
	/* An overwrite of a filtered page with a copy of a fingerprinted one. */
	write_page(dev, 4, page_a);
	write_page(dev, 33, page_a);
	flush(dev);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_duplicate_chunks == 3, "overwrite pair: duplicates %llu",
	       (unsigned long long)st.dedup_duplicate_chunks);
	for (lpn = 0; lpn < 8; lpn++) {
		fill_page(page_b, 100 + lpn, 100 + lpn);
		expect_page(dev, lpn, lpn == 4 ? page_a : page_b);
	}
	expect_page(dev, 20, page_a);
	expect_page(dev, 30, page_a);
	expect_page(dev, 31, page_a);
	expect_page(dev, 33, page_a);
	fill_page(page_b, 999, 105);
	expect_page(dev, 32, page_b);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

static void test_recency_store(void)
{
	static const char *const s[] = {
		GEOMETRY, "dedup_buffer_pages=0", "dedup_filter=0", "dedup_store_entries=4",
	};
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_stats st;
	u64 lpn;

	for (lpn = 0; lpn < 10; lpn++) {
		fill_page(page_a, 200 + lpn, 200 + lpn);
		write_page(dev, lpn, page_a);
	}
	fill_page(page_a, 200, 200);	/* page 0: pushed out */
	write_page(dev, 10, page_a);
	fill_page(page_a, 208, 208);	/* page 8: recent */
	write_page(dev, 11, page_a);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_store_evictions == 7 && st.dedup_duplicate_chunks == 1 &&
	       st.dedup_store_used_entries == 4 && st.dedup_store_capacity_entries == 4,
	       "LRU of 4: evictions %llu duplicates %llu used %llu",
	       (unsigned long long)st.dedup_store_evictions,
	       (unsigned long long)st.dedup_duplicate_chunks,
	       (unsigned long long)st.dedup_store_used_entries);
	EXPECT(st.dedup_store_entry_bytes >= sizeof(struct dedup_store_slot),
	       "entry bytes %llu", (unsigned long long)st.dedup_store_entry_bytes);
	expect_page(dev, 11, page_a);
	fill_page(page_a, 200, 200);
	expect_page(dev, 10, page_a);
	expect_page(dev, 0, page_a);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

/* The engine's time is on the write path: hash, lookup, then the program. */
static void test_engine_time(void)
{
	static const char *const s[] = {
		GEOMETRY, "dedup_buffer_pages=0", "dedup_filter=0", "dedup_hash_ns=813000",
		"dedup_lookup_ns=5000", "controller_ns=2000",
	};
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	struct ssd_request req = { .op = SSD_OP_WRITE, .length_bytes = 4096 };
	struct flat_iter fi;
	u64 done_ns;

	fill_page(page_a, 7, 7);
	flat_iter_init(&fi, page_a);
	req.data = &fi.it;
	req.arrival_ns = 1000000000;
	EXPECT(ssd_device_submit(dev, &req, &done_ns) == 0, "unique write");
	EXPECT(done_ns >= req.arrival_ns + 2000 + 813000 + 5000 + 600000,
	       "unique write done after %llu ns", (unsigned long long)(done_ns - req.arrival_ns));
	flat_iter_init(&fi, page_a);
	req.offset_bytes = 4096;
	req.arrival_ns = 2000000000;
	EXPECT(ssd_device_submit(dev, &req, &done_ns) == 0, "duplicate write");
	EXPECT(done_ns == req.arrival_ns + 2000 + 813000 + 5000,
	       "duplicate write took %llu ns, not controller + hash + lookup",
	       (unsigned long long)(done_ns - req.arrival_ns));
	ssd_device_destroy(dev);
}

/* Writes held in the buffer count against the data cap. */
static void test_data_cap(void)
{
	static const char *const s[] = { GEOMETRY, "dedup_buffer_pages=8" };
	struct ssd_device *dev = make_device(s, ARRAY_SIZE(s));
	u64 lpn;

	ssd_device_set_data_limit(dev, 20);
	for (lpn = 0; lpn < 20; lpn++) {
		fill_page(page_a, 300 + lpn, 300 + lpn);
		write_page(dev, lpn, page_a);
	}
	fill_page(page_a, 400, 400);
	memcpy(io_buf, page_a, 4096);
	EXPECT(submit(dev, SSD_OP_WRITE, 20 * 4096, 4096, io_buf) == -ENOSPC,
	       "a 21st page fit under a cap of 20 with 8 buffered");
	write_page(dev, 19, page_a);	/* buffered: replaced in place */
	write_page(dev, 3, page_a);	/* on flash, unshared: replaced */
	flush(dev);
	expect_page(dev, 3, page_a);
	expect_page(dev, 19, page_a);
	EXPECT(dev->flash.data_pages <= 20, "data pages %llu over the cap",
	       (unsigned long long)dev->flash.data_pages);
	/* Lpns 3 and 19 share a chunk: lpn 20 fills the cap. */
	fill_page(page_b, 500, 500);
	write_page(dev, 20, page_b);
	flush(dev);
	/* Buffered overwrites of unshared pages keep their chunk: no page pending. */
	for (lpn = 8; lpn < 16; lpn++) {
		fill_page(page_b, 600 + lpn, 600 + lpn);
		write_page(dev, lpn, page_b);
	}
	EXPECT(dedup_pending_pages(dedup_of(dev)) == 0 && dev->flash.data_pages == 20,
	       "8 buffered overwrites: %llu pending, %llu data pages",
	       (unsigned long long)dedup_pending_pages(dedup_of(dev)),
	       (unsigned long long)dev->flash.data_pages);
	fill_page(page_b, 700, 700);
	memcpy(io_buf, page_b, 4096);
	EXPECT(submit(dev, SSD_OP_WRITE, 21 * 4096, 4096, io_buf) == -ENOSPC,
	       "a 21st page fit under a cap of 20 with 8 overwrites buffered");
	/* A TRIM of one gives its page back: the 21st fits. */
	EXPECT(submit(dev, SSD_OP_TRIM, 8 * 4096, 4096, NULL) == 0, "trim");
	write_page(dev, 21, page_b);
	flush(dev);
	expect_page(dev, 8, NULL);
	expect_page(dev, 21, page_b);
	EXPECT(dev->flash.data_pages == 20, "data pages %llu, not the cap",
	       (unsigned long long)dev->flash.data_pages);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

#define HOT_PAGES	32
#define HOT_ROUNDS	6
#define DUP_LPN		40	/* DUP_LPN .. DUP_LPN + 7 hold copies of one page */

/*
 * Over the write cache: HOT_PAGES pages rewritten HOT_ROUNDS times with new
 * unique data, and eight copies of one page.  Returns the cache's write
 * hits; every page is checked.
 */
static u64 hot_rewrites(struct ssd_device *dev)
{
	struct ssd_stats st;
	u64 lpn, r;

	fill_page(page_a, 1, 1);
	for (r = 0; r < HOT_ROUNDS; r++) {
		for (lpn = 0; lpn < HOT_PAGES; lpn++) {
			fill_page(page_b, 1000 * r + lpn + 7, 1000 * r + lpn + 7);
			write_page(dev, lpn, page_b);
		}
		for (lpn = DUP_LPN; r == 0 && lpn < DUP_LPN + 8; lpn++)
			write_page(dev, lpn, page_a);
	}
	flush(dev);
	for (lpn = 0; lpn < HOT_PAGES; lpn++) {
		fill_page(page_b, 1000 * (HOT_ROUNDS - 1) + lpn + 7,
			  1000 * (HOT_ROUNDS - 1) + lpn + 7);
		expect_page(dev, lpn, page_b);
	}
	expect_page(dev, DUP_LPN + 3, page_a);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_capacity_pages >= HOT_PAGES + 8, "a cache of %llu pages is too small",
	       (unsigned long long)st.cache_capacity_pages);
	EXPECT(ssd_device_check(dev) == 0, "check after the hot rewrites");
	return st.cache_write_hit_pages;
}

static bool chunk_cached(struct ssd_device *dev, u32 chunk)
{
	struct nvmcache *c = (struct nvmcache *)unit_layer(dev, "nvmcache");

	return ssd_cache_set_find(&c->alg.dir, chunk) != CACHE_NONE;
}

/*
 * The write cache below sees chunk ids.  An overwrite of an unshared page
 * with unique data keeps its chunk id, so the cache sees the rewrite of
 * the same page: the hot pages get as many write hits as without dedup.
 * A duplicate, or an overwrite of a shared chunk, changes the page's
 * chunk id; a chunk nobody refers to any more leaves the cache.
 */
static void test_cache_below(void)
{
	static const char *const s[] = {
		GEOMETRY, "slc_blocks_per_chip=8", "cache_policy=always", "dedup_buffer_pages=8",
		"dedup_filter_live_chunks=1",
	};
	static const char *const plain[] = {
		GEOMETRY, "slc_blocks_per_chip=8", "cache_policy=always", "dedup=0",
	};
	struct ssd_device *dev = make_device(plain, ARRAY_SIZE(plain));
	u32 hot_chunk[HOT_PAGES], shared, old5, old6;
	u64 hits_plain, hits, lpn;
	struct dedup *dd;
	struct ssd_stats st;

	hits_plain = hot_rewrites(dev);
	ssd_device_destroy(dev);
	dev = make_device(s, ARRAY_SIZE(s));
	dd = dedup_of(dev);
	hits = hot_rewrites(dev);
	EXPECT(hits_plain == HOT_PAGES * (HOT_ROUNDS - 1) && hits == hits_plain,
	       "write hits of %u pages rewritten %u times: %llu with dedup, %llu without",
	       HOT_PAGES, HOT_ROUNDS - 1, (unsigned long long)hits,
	       (unsigned long long)hits_plain);
	for (lpn = 0; lpn < HOT_PAGES; lpn++)
		hot_chunk[lpn] = dedup_chunk_of(dd, lpn);
	/* Another round: every hot page keeps its chunk id. */
	for (lpn = 0; lpn < HOT_PAGES; lpn++) {
		fill_page(page_b, 90000 + lpn, 90000 + lpn);
		write_page(dev, lpn, page_b);
		EXPECT(dd->chunk_slot[hot_chunk[lpn]] == DEDUP_RESERVED ||
		       dedup_chunk_of(dd, lpn) == hot_chunk[lpn],
		       "buffered overwrite of lpn %llu does not hold its chunk",
		       (unsigned long long)lpn);
	}
	EXPECT(dedup_pending_pages(dd) == 0, "%llu buffered overwrites counted as new pages",
	       (unsigned long long)dedup_pending_pages(dd));
	flush(dev);
	for (lpn = 0; lpn < HOT_PAGES; lpn++)
		EXPECT(dedup_chunk_of(dd, lpn) == hot_chunk[lpn] && chunk_cached(dev, hot_chunk[lpn]),
		       "lpn %llu: chunk %u, was %u", (unsigned long long)lpn,
		       dedup_chunk_of(dd, lpn), hot_chunk[lpn]);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_write_hit_pages == hits + HOT_PAGES, "a round of rewrites: %llu hits",
	       (unsigned long long)(st.cache_write_hit_pages - hits));
	hits = st.cache_write_hit_pages;

	/* A shared chunk: the overwritten page takes a new id, the others keep it. */
	shared = dedup_chunk_of(dd, DUP_LPN + 1);
	fill_page(page_b, 5555, 5555);
	write_page(dev, DUP_LPN, page_b);
	EXPECT(dedup_pending_pages(dd) == 1, "an overwrite of a shared page needs a page");
	flush(dev);
	EXPECT(dedup_chunk_of(dd, DUP_LPN) != shared && dd->refcount[shared] == 7 &&
	       chunk_cached(dev, shared), "overwrite of a shared chunk: refcount %u",
	       dd->refcount[shared]);
	/* A duplicate: lpn 5 now shares the copies' chunk, its old one is gone. */
	old5 = dedup_chunk_of(dd, 5);
	write_page(dev, 5, page_a);
	EXPECT(dd->chunk_slot[old5] == DEDUP_RESERVED, "buffered overwrite released its chunk");
	flush(dev);
	EXPECT(dedup_chunk_of(dd, 5) == shared && dd->refcount[shared] == 8 &&
	       !dd->refcount[old5] && !chunk_cached(dev, old5),
	       "duplicate overwrite: chunk %u (shared %u), old chunk %u refcount %u cached %d",
	       dedup_chunk_of(dd, 5), shared, old5, dd->refcount[old5],
	       chunk_cached(dev, old5));
	/* A TRIM of a buffered overwrite frees the chunk it held. */
	old6 = dedup_chunk_of(dd, 6);
	write_page(dev, 6, page_b);
	EXPECT(submit(dev, SSD_OP_TRIM, 6 * 4096, 4096, NULL) == 0, "trim");
	EXPECT(!dd->refcount[old6] && !chunk_cached(dev, old6) && !ssd_dedup_is_buffered(dd, 6),
	       "TRIM of a buffered overwrite kept chunk %u", old6);
	expect_page(dev, 6, NULL);
	expect_page(dev, 5, page_a);
	fill_page(page_b, 5555, 5555);
	expect_page(dev, DUP_LPN, page_b);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_write_hit_pages == hits, "a new id, a duplicate or a TRIM was a hit");
	EXPECT(st.valid_pages == st.dedup_physical_pages && st.cache_pages == st.slc_valid_pages,
	       "valid %llu, physical %llu", (unsigned long long)st.valid_pages,
	       (unsigned long long)st.dedup_physical_pages);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

static void test_memory_plan(void)
{
	static const char *const variants[][8] = {
		{ GEOMETRY, "dedup_filter=0" },
		{ GEOMETRY, "dedup_filter=1" },
		{ GEOMETRY, "dedup_filter=1", "dedup_filter_live_chunks=1" },
		{ GEOMETRY, "dedup_store_entries=100", "dedup_buffer_pages=1000" },
		{ GEOMETRY, "dedup_buffer_pages=0" },
	};
	unsigned int v;

	for (v = 0; v < ARRAY_SIZE(variants); v++) {
		u64 before = ssd_zalloc_bytes_total;
		unsigned int n = 0;
		struct ssd_device *dev;
		struct ssd_stats st;

		while (n < 8 && variants[v][n])
			n++;
		dev = make_device(variants[v], n);

		EXPECT(ssd_zalloc_bytes_total - before == dev->metadata_bytes,
		       "variant %u: planned %llu, allocated %llu", v,
		       (unsigned long long)dev->metadata_bytes,
		       (unsigned long long)(ssd_zalloc_bytes_total - before));
		ssd_device_get_stats(dev, &st);
		EXPECT(st.dedup_metadata_bytes && st.dedup_metadata_bytes < dev->metadata_bytes,
		       "variant %u: dedup tables %llu", v,
		       (unsigned long long)st.dedup_metadata_bytes);
		ssd_device_destroy(dev);
	}
}

static void test_refusals(void)
{
	static const char *const bad[][7] = {
		{ GEOMETRY, "dedup_sample_offset_bytes=4080" },
		{ GEOMETRY, "dedup_buffer_bytes=100" },
	};
	struct ssd_config cfg;
	unsigned int v;

	ssd_log_quiet = 1;
	for (v = 0; v < ARRAY_SIZE(bad); v++) {
		make_config(&cfg, bad[v], 7);
		EXPECT(ssd_device_validate_config(&cfg) == -EINVAL, "variant %u accepted", v);
	}
	ssd_log_quiet = 0;
}

int test_dedup(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "sha1")) {
		test_sha1();
		printf("sha1: ok\n");
		return 0;
	}
	test_sha1();
	test_duplicates();
	test_buffer();
	test_filter();
	test_filter_buffer();
	test_recency_store();
	test_engine_time();
	test_data_cap();
	test_cache_below();
	test_memory_plan();
	test_refusals();
	printf("dedup: ok\n");
	return 0;
}

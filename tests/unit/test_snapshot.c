// SPDX-License-Identifier: GPL-2.0
/*
 * test_snapshot.c - snapshots of the core (device/ssd_snapshot.c):
 *
 *  - a device aged by random writes, overwrites and TRIMs at high
 *    utilisation (GC running) is saved to memory and loaded into a new
 *    device: same counters, same data; then the same further requests on
 *    both give the same completion times and counters (the loaded device
 *    places and collects exactly as the saved one would have);
 *  - saving does not disturb the saved device, and saving the loaded one
 *    gives the same bytes;
 *  - the write cache with every replacement policy and every admission
 *    policy (RCE, read fills), and dedup (the write buffer on, a limited
 *    store, the sampling filter on and off, over a cache) round-trip the
 *    same way: their directories, policy lists, ghosts, hands, sketches,
 *    PRNG, chunk maps, store and buffered pages decide the requests after
 *    the load exactly as before it;
 *  - bad files are refused with nothing left behind: every truncation
 *    point, a flipped byte in every section (checksum), another version,
 *    a wrong magic, a page map pointing outside the flash, a free block
 *    twice in a heap, a time that sums would wrap (with correct
 *    checksums), data beyond the memory limit; with a cache and dedup, also
 *    a refcount that does not match the map, a chunk, a cached lpn or a
 *    slot out of range, a slot twice, a free list that loops, a cached
 *    page the SLC region does not hold, data that does not have its
 *    fingerprint (all with correct checksums);
 *  - the volatile write cache (over dedup and a cache) round-trips its
 *    buffered pages the same way;
 *  - the block-mapped FTLs (ftl_type block, bast, fast) round-trip their
 *    block map, log blocks and reclaim order (merges after the load are
 *    the saved device's), and refuse a block claimed twice, a data block
 *    beyond the flash, slot counts and lists out of range, and a log
 *    block handed to another logical block.
 */
#include "unit.h"
#include "ftl/ftl_dftl.h"
#include "ftl/ftl_logblock.h"

#define GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2", \
	"op_percent=15"

/* Pages a request of run_ops() writes at most. */
#define RUN_MAX_PAGES	8

/*
 * Random writes (one page, or up to RUN_MAX_PAGES), overwrites, TRIMs and
 * reads from @rng on both devices.  Four writes in ten carry one of 32
 * contents (duplicates for dedup), the others content of their own.
 */
static void run_ops(struct ssd_device *a, struct ssd_device *b, u64 *rng, u64 ops,
		    u64 *arrival_ns)
{
	u64 unit = ssd_device_page_bytes(a), pages = ssd_device_capacity_bytes(a) / unit, i;
	static u8 buf_a[RUN_MAX_PAGES * 4096], buf_b[RUN_MAX_PAGES * 4096];

	EXPECT(unit <= 4096, "pages of %llu bytes", (unsigned long long)unit);
	for (i = 0; i < ops; i++) {
		u64 lpn = rng_below(rng, pages), kind = rng_below(rng, 10);
		enum ssd_op op = kind < 7 ? SSD_OP_WRITE : kind < 8 ? SSD_OP_TRIM : SSD_OP_READ;
		u64 nr = op == SSD_OP_WRITE && rng_below(rng, 5) == 0 ?
			 2 + rng_below(rng, RUN_MAX_PAGES - 1) : 1, p;
		struct flat_iter fa, fb;
		struct ssd_request req = { .op = op, .offset_bytes = lpn * unit,
					   .arrival_ns = *arrival_ns };
		u64 done_a, done_b = 0;

		nr = min_t(u64, nr, pages - lpn);
		req.length_bytes = nr * unit;
		for (p = 0; p < nr; p++) {
			u8 *page = buf_a + p * unit;

			if (rng_below(rng, 10) < 4) {
				memset(page, 0x40 + (int)rng_below(rng, 32), unit);
			} else {
				memset(page, (int)(lpn * 7 + i), unit);
				memcpy(page, &i, sizeof(i));
				memcpy(page + 8, &p, sizeof(p));
			}
		}
		memcpy(buf_b, buf_a, nr * unit);
		flat_iter_init(&fa, buf_a);
		req.data = &fa.it;
		EXPECT(ssd_device_submit(a, &req, &done_a) == 0, "request %llu",
		       (unsigned long long)i);
		if (b) {
			flat_iter_init(&fb, buf_b);
			req.data = &fb.it;
			EXPECT(ssd_device_submit(b, &req, &done_b) == 0, "request %llu",
			       (unsigned long long)i);
			EXPECT(done_a == done_b, "request %llu completes at %llu and %llu",
			       (unsigned long long)i, (unsigned long long)done_a,
			       (unsigned long long)done_b);
			if (op == SSD_OP_READ)
				EXPECT(!memcmp(buf_a, buf_b, nr * unit), "read %llu differs",
				       (unsigned long long)i);
		}
		*arrival_ns += 20000;
	}
}

static void expect_same_data(struct ssd_device *a, struct ssd_device *b)
{
	u64 pages = ssd_device_capacity_bytes(a) / 4096, lpn;
	static u8 buf_a[4096], buf_b[4096];

	for (lpn = 0; lpn < pages; lpn++) {
		EXPECT(submit(a, SSD_OP_READ, lpn * 4096, 4096, buf_a) == 0, "read a");
		EXPECT(submit(b, SSD_OP_READ, lpn * 4096, 4096, buf_b) == 0, "read b");
		EXPECT(!memcmp(buf_a, buf_b, 4096), "lpn %llu differs after the load",
		       (unsigned long long)lpn);
	}
}

/* What a round trip must have aged, or it tests nothing. */
#define AGED_GC		0x1	/* GC relocated pages */
#define AGED_CACHE	0x2	/* the cache evicted pages and holds some at the save */
#define AGED_DEDUP	0x4	/* duplicates found */
#define AGED_BUFFER	0x8	/* the dedup buffer holds writes at the save */
#define AGED_MAP	0x10	/* DFTL wrote translation pages */
#define AGED_MAP_GC	0x40	/* and translation GC moved some */
#define AGED_WEAR	0x20	/* static wear levelling moved cold blocks */
#define AGED_MERGE	0x80	/* a block-mapped FTL merged logical blocks */

static void expect_aged(struct ssd_device *dev, unsigned int aged, const char *when)
{
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	if (aged & AGED_GC)
		EXPECT(st.gc_relocated_pages > 0, "%s: GC never ran: the test ages nothing", when);
	if (aged & AGED_CACHE)
		EXPECT(st.cache_evict_pages > 0 && st.cache_pages > 0,
		       "%s: the cache holds %llu pages, evicted %llu", when,
		       (unsigned long long)st.cache_pages,
		       (unsigned long long)st.cache_evict_pages);
	if (aged & AGED_DEDUP)
		EXPECT(st.dedup_duplicate_chunks > 0, "%s: no duplicates", when);
	if (aged & AGED_BUFFER)
		EXPECT(st.dedup_buffered_pages > 0, "%s: the dedup buffer is empty", when);
	if (aged & AGED_MAP)
		EXPECT(st.dftl_translation_writes > 0 && st.dftl_translation_reads > 0,
		       "%s: DFTL wrote %llu translation pages, read %llu", when,
		       (unsigned long long)st.dftl_translation_writes,
		       (unsigned long long)st.dftl_translation_reads);
	if (aged & AGED_MAP_GC)
		EXPECT(st.dftl_translation_gc_pages > 0, "%s: translation GC moved nothing", when);
	if (aged & AGED_WEAR)
		EXPECT(st.wl_static_pages > 0, "%s: static wear levelling moved nothing", when);
	if (aged & AGED_MERGE)
		EXPECT(st.ftl_full_merges + st.ftl_partial_merges + st.ftl_switch_merges > 0 &&
		       st.ftl_merge_erases > 0, "%s: no merges", when);
}

/*
 * @a and @b are in the very same state: they save to the same bytes; and
 * the load of that snapshot saves to it again (a state caught at another
 * instant: ghost hits pending, a victim chosen and refused, ...).
 */
static void expect_same_state(struct ssd_device *a, struct ssd_device *b, const char *when)
{
	struct ssd_device *c = NULL;
	struct mem_snap ma, mb, mc;

	snap_save(a, &ma);
	snap_save(b, &mb);
	EXPECT(ma.len == mb.len && !memcmp(ma.bytes, mb.bytes, ma.len),
	       "%s: the loaded device's state differs from the original's", when);
	EXPECT(snap_load(&ma, &c) == 0, "%s: load refused", when);
	snap_save(c, &mc);
	EXPECT(mc.len == ma.len && !memcmp(mc.bytes, ma.bytes, ma.len),
	       "%s: a load saves to other bytes", when);
	ssd_device_destroy(c);
	free(ma.bytes);
	free(mb.bytes);
	free(mc.bytes);
}

/* Age, save, load, compare; go on on both and compare again. */
static void round_trip(const char *const *settings, unsigned int count, u64 seed,
		       unsigned int aged)
{
	struct ssd_device *a = make_device(settings, count), *b = NULL;
	struct mem_snap m, again;
	u64 rng = seed, arrival = 0;
	struct ssd_stats st;
	int i;

	run_ops(a, NULL, &rng, 6000, &arrival);
	expect_aged(a, aged & ~AGED_GC, "at the save");
	snap_save(a, &m);
	EXPECT(snap_load(&m, &b) == 0, "load of a fresh snapshot refused");
	expect_same_stats(a, b, "after the load");
	/* The loaded device saves to the very same bytes. */
	snap_save(b, &again);
	EXPECT(again.len == m.len && !memcmp(again.bytes, m.bytes, m.len),
	       "saving the loaded device gives other bytes");
	free(again.bytes);
	/* Reading every page on both changes both alike. */
	expect_same_data(a, b);
	/* Go on on both: the same completion times, counters and state. */
	for (i = 0; i < 6; i++) {
		run_ops(a, b, &rng, 1000, &arrival);
		expect_same_stats(a, b, "after more requests");
		expect_same_state(a, b, "after more requests");
	}
	expect_aged(a, aged & ~AGED_BUFFER, "at the end");
	ssd_device_get_stats(a, &st);
	EXPECT(ssd_device_check(a) == 0 && ssd_device_check(b) == 0, "checks");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	printf("snapshot: %llu bytes for %llu MiB of valid data, %llu GC relocations, %llu evictions, %llu duplicates\n",
	       (unsigned long long)m.len, (unsigned long long)(st.data_bytes >> 20),
	       (unsigned long long)st.gc_relocated_pages,
	       (unsigned long long)st.cache_evict_pages,
	       (unsigned long long)st.dedup_duplicate_chunks);
	free(m.bytes);
}

/* @m must be refused, leaving no device (ASan sees what a failure leaks). */
static void expect_refused(struct mem_snap *m, const char *what)
{
	struct ssd_device *dev = NULL;

	ssd_log_quiet = 1;
	EXPECT(snap_load(m, &dev) != 0 && !dev, "%s accepted", what);
	ssd_log_quiet = 0;
}

/* The payload of section @tag in @m, *@len its length. */
static u8 *section_payload(struct mem_snap *m, u32 tag, u64 *len)
{
	u64 pos = 0;

	while (pos + 12 <= m->len) {
		u32 t = m->bytes[pos] | m->bytes[pos + 1] << 8 | m->bytes[pos + 2] << 16 |
			(u32)m->bytes[pos + 3] << 24;
		u64 i;

		*len = 0;
		for (i = 0; i < 8; i++)
			*len |= (u64)m->bytes[pos + 4 + i] << (8 * i);
		if (t == tag)
			return m->bytes + pos + 12;
		pos += 12 + *len + 4;
	}
	FAIL("no section %08x", tag);
}

static u32 get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

/* Give section @tag of @m a correct checksum again. */
static void fix_checksum(struct mem_snap *m, u32 tag)
{
	u64 len, i;
	u8 *p = section_payload(m, tag, &len);
	u32 crc = ssd_crc32(0, p, len);

	for (i = 0; i < 4; i++)
		p[len + i] = (u8)(crc >> (8 * i));
}

/*
 * Set the u32 at @offset of section @tag's payload to @value, give the
 * section a correct checksum again, and expect a refusal: the content is
 * what is wrong, not the framing.
 */
static void refuse_edited(struct mem_snap *m, u32 tag, u64 offset, u32 value, const char *what)
{
	u64 len, i;
	u8 *p = section_payload(m, tag, &len);

	EXPECT(offset + 4 <= len, "%s: offset %llu beyond the section", what,
	       (unsigned long long)offset);
	for (i = 0; i < 4; i++)
		p[offset + i] = (u8)(value >> (8 * i));
	fix_checksum(m, tag);
	expect_refused(m, what);
}

/* Truncated, corrupted and other-version copies of @m (@good) are refused. */
static void refuse_damaged(struct mem_snap *m, const u8 *good, u64 good_len)
{
	u64 cut;

	/* Truncated anywhere: a step that samples every region of the file. */
	for (cut = 0; cut < good_len; cut += 1 + cut / 7) {
		m->len = cut;
		expect_refused(m, "a truncated snapshot");
	}
	m->len = good_len;
	/* A flipped byte anywhere: a checksum, a length, a tag or a value. */
	for (cut = 0; cut < good_len; cut += 1 + cut / 5) {
		m->bytes[cut] ^= 0x5a;
		expect_refused(m, "a corrupted snapshot");
		m->bytes[cut] ^= 0x5a;
	}
	/* Another format version (byte 28: after HEAD's 12-byte frame and magic): the last one. */
	m->bytes[12 + 16]--;
	expect_refused(m, "the previous format version");
	memcpy(m->bytes, good, good_len);
}

static void test_bad_files(const char *const *settings, unsigned int count)
{
	struct ssd_device *a = make_device(settings, count), *b = NULL;
	const struct flash *flash = &a->flash;
	u64 logical = unit_ftl(a)->logical_pages, heap, len;
	u32 chip;
	struct mem_snap m;
	u64 rng = 5, arrival = 0, good_len;
	u8 *good, *ftl;

	run_ops(a, NULL, &rng, 3000, &arrival);
	snap_save(a, &m);
	good_len = m.len;
	good = malloc(good_len);
	EXPECT(good, "out of memory");
	memcpy(good, m.bytes, good_len);
	refuse_damaged(&m, good, good_len);
	/* Consistent checksums, inconsistent content: caught by the checks. */
	refuse_edited(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), 88, 0xfffffff0, "a map beyond the flash");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), 88 + 4 * 3, 0, "two lpns on one ppa");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, SSD_SNAP_TAG('D', 'E', 'V', 'C'), 0, 4096, "another capacity");
	memcpy(m.bytes, good, good_len);
	/* The last arrival (after the capacity and 7 counters) at 2^63 ns: sums would wrap. */
	refuse_edited(&m, SSD_SNAP_TAG('D', 'E', 'V', 'C'), 64 + 4, 0x80000000U,
		      "a time beyond 2^62 ns");
	memcpy(m.bytes, good, good_len);
	/*
	 * A chip's free heap of the TLC region listing its first block twice
	 * (and so missing one): after the maps, the blocks (30 bytes each),
	 * the region's counters and cursors (28 bytes) and buckets, each chip's
	 * free count, write points and heap.
	 */
	ftl = section_payload(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), &len);
	heap = 88 + 4 * (logical + flash->total_pages) + 30ULL * flash->total_blocks + 28 +
	       4 * (flash->geo.pages_per_block + 1);
	for (chip = 0; chip < flash->geo.chips && get32(ftl + heap) < 2; chip++)
		heap += 12 + 4 * get32(ftl + heap);
	EXPECT(chip < flash->geo.chips, "no chip has two free blocks");
	refuse_edited(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), heap + 16, get32(ftl + heap + 12),
		      "a free block twice in a heap");
	memcpy(m.bytes, good, good_len);
	EXPECT(snap_load(&m, &b) == 0, "the good snapshot, restored, refused");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	free(good);
	free(m.bytes);
}

#define FTL_TAG	SSD_SNAP_TAG('F', 'T', 'L', ' ')

/*
 * A bast device's snapshot with its scheme's state edited (checksums made
 * right) is refused.  The state closes the FTL section: the block map,
 * the slots (18 bytes each), eight u32 (free slot, order head and tail,
 * slots used, SW, open RW, cursors), six u64 counters.
 */
static void test_bad_scheme_files(void)
{
	static const char *const s[] = { GEOMETRY, "ftl_type=bast", "ftl_log_blocks=6" };
	struct ssd_device *a = make_device(s, ARRAY_SIZE(s)), *b = NULL;
	u64 rng = 7, arrival = 0, len, good_len, tail, data0, slots0;
	u32 first = FTL_NONE, second = FTL_NONE, lbn, slot, other;
	const struct ftl_lb *lb;
	struct mem_snap m;
	u8 *good;

	run_ops(a, NULL, &rng, 3000, &arrival);
	lb = ftl_lb(unit_ftl(a));
	snap_save(a, &m);
	good_len = m.len;
	good = malloc(good_len);
	EXPECT(good, "out of memory");
	memcpy(good, m.bytes, good_len);
	section_payload(&m, FTL_TAG, &len);
	tail = len - 48 - 32;
	slots0 = tail - 18ULL * lb->nr_slots;
	data0 = slots0 - 4ULL * lb->nr_lbn;
	for (lbn = 0; lbn < lb->nr_lbn; lbn++) {
		if (lb->data[lbn] == FTL_NONE)
			continue;
		if (first == FTL_NONE)
			first = lbn;
		else if (second == FTL_NONE)
			second = lbn;
	}
	EXPECT(second != FTL_NONE, "fewer than two data blocks");
	refuse_edited(&m, FTL_TAG, data0 + 4ULL * second, lb->data[first],
		      "two logical blocks on one block");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, FTL_TAG, data0 + 4ULL * second, unit_ftl(a)->total_blocks,
		      "a data block beyond the flash");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, FTL_TAG, tail + 12, lb->nr_slots + 1, "more log blocks than slots");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, FTL_TAG, tail + 4, lb->nr_slots, "a reclaim order beyond the slots");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, FTL_TAG, tail + 28, lb->nr_lbn, "a wear-levelling cursor beyond");
	memcpy(m.bytes, good, good_len);
	/* A log block given to a logical block that has none: its pages are not that one's. */
	for (slot = 0; slot < lb->nr_slots && lb->slot[slot].kind != FTL_LOG_BAST; slot++)
		;
	EXPECT(slot < lb->nr_slots, "no log block in use at the save");
	for (other = 0; other < lb->nr_lbn && lb->lbn_log[other] != FTL_NONE; other++)
		;
	refuse_edited(&m, FTL_TAG, slots0 + 18ULL * slot + 4, other,
		      "a log block handed to another logical block");
	memcpy(m.bytes, good, good_len);
	EXPECT(snap_load(&m, &b) == 0, "the good snapshot, restored, refused");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	free(good);
	free(m.bytes);
}

/*
 * A DFTL device saved: its part of the FTL section (the section's end) edited
 * into an lpn cached twice, a dirty bit of 7, a translation page in a data
 * block and an open translation block that is a data block; each refused.
 */
static void test_bad_dftl_files(void)
{
	static const char *const s[] = { GEOMETRY, "ftl_type=dftl", "dftl_cmt_entries=16",
					 "page_size_bytes=512", "logical_block_bytes=512" };
	struct ssd_device *a = make_device(s, ARRAY_SIZE(s)), *b = NULL;
	const u32 tag = SSD_SNAP_TAG('F', 'T', 'L', ' ');
	struct ftl *ftl = unit_ftl(a);
	const struct ftl_dftl *d;
	u64 rng = 9, arrival = 0, good_len, len, part, cmt, gtd, topen;
	u32 tvpn, data_block = 0;
	struct mem_snap m;
	u8 *good;

	run_ops(a, NULL, &rng, 3000, &arrival);
	expect_aged(a, AGED_MAP, "before the save");
	d = dftl_of(ftl);
	EXPECT(d->nr_used >= 2, "the CMT holds %u entries", d->nr_used);
	for (tvpn = 0; tvpn < d->nr_tpages && d->gtd[tvpn] == FTL_NONE; tvpn++)
		;
	EXPECT(tvpn < d->nr_tpages, "no translation page written");
	while (ftl->blocks[data_block].state != FTL_BLOCK_FULL)
		data_block++;
	snap_save(a, &m);
	good_len = m.len;
	good = malloc(good_len);
	EXPECT(good, "out of memory");
	memcpy(good, m.bytes, good_len);
	/* ssd_ftl_dftl_save()'s layout, from the CMT on. */
	part = 8 + 5ULL * d->nr_used + 5ULL * d->nr_tpages + 4 + 4ULL * d->nr_pending + 4 +
	       4ULL * d->nr_tblocks + 8 + sizeof(struct ftl_dftl_counters);
	section_payload(&m, tag, &len);
	cmt = len - part + 8;
	gtd = cmt + 5ULL * d->nr_used;
	topen = gtd + 5ULL * d->nr_tpages + 4 + 4ULL * d->nr_pending + 4 + 4ULL * d->nr_tblocks;
	refuse_edited(&m, tag, cmt + 5, d->slot_lpn[d->lru_head], "an lpn cached twice");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, tag, cmt + 1, 0x07000000U | (d->slot_lpn[d->lru_head] >> 8),
		      "a dirty bit of 7");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, tag, gtd + 4ULL * tvpn, data_block * ftl->pages_per_block,
		      "a translation page in a data block");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, tag, topen, data_block, "a data block as the open translation block");
	memcpy(m.bytes, good, good_len);
	EXPECT(snap_load(&m, &b) == 0, "the good snapshot, restored, refused");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	free(good);
	free(m.bytes);
}

#define NVMC	SSD_SNAP_TAG('N', 'V', 'M', 'C')
#define DDUP	SSD_SNAP_TAG('D', 'D', 'U', 'P')
/* DDUP: the chunk ids, then l2c, refcount and free_next [pages] u32 each. */
#define DDUP_L2C(lpn)			(8 + 4 * (u64)(lpn))
#define DDUP_REFCOUNT(pages, chunk)	(8 + 4 * (u64)(pages) + 4 * (u64)(chunk))
#define DDUP_FREE_NEXT(pages, chunk)	(8 + 8 * (u64)(pages) + 4 * (u64)(chunk))
/* NVMC: the directory's capacity and count, then (slot, lpn) from the head. */
#define NVMC_SLOT(i)			(8 + 8 * (u64)(i))
#define NVMC_LPN(i)			(12 + 8 * (u64)(i))

/*
 * A device with dedup over a write cache (ARC with RCE, PLC, a limited
 * store, writes in the buffer) saved: damaged and inconsistent copies of
 * its snapshot are refused, each edit with its checksum made right.
 */
static void test_bad_layer_files(void)
{
	static const char *const s[] = { GEOMETRY, "slc_blocks_per_chip=8", "dedup=1",
					 "dedup_store_entries=64", "dedup_buffer_pages=8",
					 "cache_policy=plc", "cache_replacement=arc",
					 "cache_rce=1", "plc_access_threshold=0" };
	struct ssd_device *a = make_device(s, ARRAY_SIZE(s)), *b = NULL;
	u64 pages = ssd_device_capacity_bytes(a) / 4096, rng = 6, arrival = 0, good_len, len;
	u32 lpn, chunk = U32_MAX, free_head, i;
	struct mem_snap m;
	u8 *good, *ddup, *data;

	run_ops(a, NULL, &rng, 3000, &arrival);
	expect_aged(a, AGED_CACHE | AGED_DEDUP | AGED_BUFFER, "before the save");
	snap_save(a, &m);
	good_len = m.len;
	good = malloc(good_len);
	EXPECT(good, "out of memory");
	memcpy(good, m.bytes, good_len);
	refuse_damaged(&m, good, good_len);

	/* A live chunk, and the head of the free list (after the map). */
	ddup = section_payload(&m, DDUP, &len);
	for (lpn = 0; lpn < pages && chunk == U32_MAX; lpn++)
		chunk = get32(ddup + DDUP_L2C(lpn));
	EXPECT(chunk < pages, "no lpn mapped");
	free_head = get32(ddup + 8 + 16 * pages);
	EXPECT(free_head < pages, "no free chunk");

	refuse_edited(&m, DDUP, DDUP_REFCOUNT(pages, chunk),
		      get32(ddup + DDUP_REFCOUNT(pages, chunk)) + 1, "a refcount one too high");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, DDUP, DDUP_REFCOUNT(pages, chunk), 0, "a live chunk with refcount 0");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, DDUP, DDUP_L2C(lpn - 1), (u32)pages + 5, "a chunk beyond the geometry");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, DDUP, DDUP_L2C(lpn - 1), free_head, "an lpn mapped to a free chunk");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, DDUP, DDUP_FREE_NEXT(pages, free_head), free_head,
		      "a free list that loops");
	memcpy(m.bytes, good, good_len);
	/* Every page's last byte changed: the store's fingerprints no longer match. */
	data = section_payload(&m, SSD_SNAP_TAG('D', 'A', 'T', 'A'), &len);
	for (i = 0; i < get32(data); i++)
		data[8 + i * (4 + 4096) + 4 + 4095] ^= 0x5a;
	fix_checksum(&m, SSD_SNAP_TAG('D', 'A', 'T', 'A'));
	expect_refused(&m, "data that no longer has its fingerprint");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, NVMC, NVMC_LPN(1), (u32)pages, "a cached lpn beyond the geometry");
	memcpy(m.bytes, good, good_len);
	/* A chunk id that holds no data: no page of the SLC region either. */
	refuse_edited(&m, NVMC, NVMC_LPN(1), free_head, "a cached page not in the SLC region");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, NVMC, NVMC_SLOT(1), get32(section_payload(&m, NVMC, &len) + NVMC_SLOT(0)),
		      "a cache slot twice");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, NVMC, 4, get32(section_payload(&m, NVMC, &len) + 4) - 1,
		      "a cache directory that says one entry less than it lists");
	memcpy(m.bytes, good, good_len);
	EXPECT(snap_load(&m, &b) == 0, "the good snapshot, restored, refused");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	free(good);
	free(m.bytes);
}

/* Data beyond the memory limit is refused before anything is allocated. */
static void test_memory_limit(void)
{
	static const char *const s[] = { "pages_per_block=16", "blocks_per_chip=64",
					  "chips=4", "channels=2", "op_percent=15" };
	struct ssd_device *a = make_device(s, ARRAY_SIZE(s)), *b = NULL;
	struct ssd_config cfg;
	struct mem_snap m;
	u64 rng = 9, arrival = 0, data_pages, before;

	run_ops(a, NULL, &rng, 4000, &arrival);
	snap_save(a, &m);
	snap_rewind(&m);
	memset(&cfg, 0, sizeof(cfg));
	EXPECT(ssd_snapshot_read_config(&m.r, &cfg, &data_pages) == 0, "config");
	EXPECT(ssd_config_set(&cfg, "memory_limit_mb", "4") == 0, "limit");
	before = ssd_zalloc_bytes_total;
	ssd_log_quiet = 1;
	EXPECT(ssd_device_create_from(&b, &cfg, &m.r, data_pages) == -EINVAL && !b,
	       "%llu pages of data loaded under 4 MiB", (unsigned long long)data_pages);
	ssd_log_quiet = 0;
	EXPECT(ssd_zalloc_bytes_total == before, "tables allocated before the refusal");
	ssd_device_destroy(a);
	free(m.bytes);
}

/*
 * The seed corpus of tests/fuzz/fuzz_snapshot.c: snapshots of tiny
 * devices (512-byte pages, 384 flash pages), one for each replacement and
 * admission policy, for dedup and for the digest and none data stores,
 * each aged by 30 requests and
 * written to @dir as "NAME" (byte 0 = 1: the harness fixes checksums).
 */
static void write_seeds(const char *dir)
{
#define TINY "page_size_bytes=512", "logical_block_bytes=512", "pages_per_block=8", \
	"blocks_per_chip=24", "chips=2", "channels=1", "op_percent=25", \
	"request_log_entries=64", "memory_limit_mb=16"
#define TINY_CACHE TINY, "slc_blocks_per_chip=6", "cache_pages=8"
	static const char *const plain[] = { TINY };
	static const char *const lru[] = { TINY_CACHE, "cache_policy=always" };
	static const char *const clock[] = { TINY_CACHE, "cache_policy=procache",
					     "procache_p_ppm=500000", "cache_replacement=clock" };
	static const char *const fifo[] = { TINY_CACHE, "cache_policy=refcnt",
					    "refcnt_threshold=2", "cache_replacement=fifo" };
	static const char *const gclock[] = { TINY_CACHE, "cache_policy=larc",
					      "larc_ghost_pages=6", "cache_replacement=gclock" };
	static const char *const arc[] = { TINY_CACHE, "cache_policy=tinylfu",
					   "cache_replacement=arc" };
	static const char *const sieve[] = { TINY_CACHE, "cache_policy=plc",
					     "plc_access_threshold=1", "cache_replacement=sieve",
					     "cache_read_allocate=1" };
	static const char *const s3fifo[] = { TINY_CACHE, "cache_policy=always",
					      "cache_replacement=s3fifo",
					      "cache_s3fifo_small_percent=30" };
	static const char *const dedup[] = { TINY, "dedup=1", "dedup_buffer_pages=4", "dedup_sample_offset_bytes=100",
					     "dedup_store_entries=8" };
	static const char *const dedup_cache[] = { TINY_CACHE, "dedup=1", "dedup_filter=0", "dedup_sample_offset_bytes=100",
						   "dedup_buffer_pages=3", "cache_policy=plc",
						   "plc_access_threshold=0",
						   "cache_replacement=arc", "cache_rce=1" };
	static const char *const block[] = { TINY, "ftl_type=block", "wl_static_threshold=1" };
	static const char *const bast[] = { TINY, "ftl_type=bast", "ftl_log_blocks=3" };
	static const char *const fast_cache[] = { TINY_CACHE, "ftl_type=fast", "ftl_log_blocks=3",
						  "cache_policy=always" };
	static const char *const dftl[] = { TINY, "ftl_type=dftl", "dftl_cmt_entries=8",
					    "wl_static_threshold=1" };
	static const char *const digest_dedup[] = { TINY, "data_store=digest", "dedup=1",
						    "dedup_buffer_pages=4",
						    "dedup_sample_offset_bytes=100" };
	static const char *const none_cache[] = { TINY_CACHE, "data_store=none",
						  "cache_policy=always" };
	static const char *const wbuf_dedup[] = { TINY, "volatile_write_cache=1",
						  "write_cache_pages=4", "dedup=1",
						  "dedup_buffer_pages=3",
						  "dedup_sample_offset_bytes=100" };
	static const struct {
		const char *name;
		const char *const *settings;
		unsigned int count;
	} seeds[] = {
#define SEED(x) { #x, x, ARRAY_SIZE(x) }
		SEED(plain), SEED(lru), SEED(clock), SEED(fifo), SEED(gclock), SEED(arc),
		SEED(sieve), SEED(s3fifo), SEED(dedup), SEED(dedup_cache), SEED(block),
		SEED(bast), SEED(fast_cache), SEED(dftl), SEED(digest_dedup), SEED(none_cache),
		SEED(wbuf_dedup),
#undef SEED
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct ssd_device *dev = make_device(seeds[i].settings, seeds[i].count);
		u64 rng = 100 + i, arrival = 0;
		struct mem_snap m;
		char path[512];
		FILE *f;

		run_ops(dev, NULL, &rng, 30, &arrival);
		snap_save(dev, &m);
		snprintf(path, sizeof(path), "%s/%s", dir, seeds[i].name);
		f = fopen(path, "wb");
		EXPECT(f, "cannot write %s", path);
		EXPECT(fputc(1, f) == 1 && fwrite(m.bytes, 1, m.len, f) == m.len && !fclose(f),
		       "writing %s", path);
		printf("%s: %llu bytes\n", path, (unsigned long long)m.len + 1);
		ssd_device_destroy(dev);
		free(m.bytes);
	}
#undef TINY_CACHE
#undef TINY
}

int test_snapshot(int argc, char **argv)
{
	static const char *const plain[] = { GEOMETRY };
	static const char *const slow[] = { GEOMETRY, "gc_pages_per_write=1",
					    "gc_policy=cost_benefit", "logical_block_bytes=512" };
	/* Every replacement policy and every admission policy at least once. */
#define CACHE GEOMETRY, "slc_blocks_per_chip=8"
	static const char *const lru[] = { CACHE, "cache_policy=always" };
	static const char *const clock[] = { CACHE, "cache_policy=procache",
					     "procache_p_ppm=500000", "cache_replacement=clock" };
	/*
	 * REFCNT's rule before issue 32 (a page enters on its 2nd write): under
	 * Algorithm 3 at threshold 2 this run evicts nothing (refcnt below).
	 */
	static const char *const fifo[] = { CACHE, "cache_policy=refcnt", "refcnt_threshold=2",
					    "refcnt_count_first=1", "cache_replacement=fifo" };
	/* REFCNT as Algorithm 3, threshold 1: a page enters on its 2nd write. */
	static const char *const refcnt[] = { CACHE, "cache_policy=refcnt", "refcnt_threshold=1",
					      "cache_replacement=fifo" };
	static const char *const gclock[] = { CACHE, "cache_policy=larc", "larc_ghost_pages=300",
					      "cache_replacement=gclock" };
	static const char *const arc[] = { CACHE, "cache_policy=tinylfu", "cache_pages=40",
					   "cache_replacement=arc" };
	static const char *const sieve[] = { CACHE, "cache_policy=plc", "plc_access_threshold=1",
					     "cache_replacement=sieve", "cache_read_allocate=1" };
	static const char *const s3fifo[] = { CACHE, "cache_policy=procache", "cache_pages=40",
					      "procache_p_vector=1", "procache_c_bytes=16384",
					      "cache_replacement=s3fifo",
					      "cache_s3fifo_small_percent=30",
					      "cache_s3fifo_move_hits=1" };
	/*
	 * Dedup: the buffer on, the store limited, the filter on (Kim's, and
	 * over the live chunks too: their sample index) and off, over a cache.
	 */
	static const char *const dedup_lru[] = { GEOMETRY, "dedup=1", "dedup_store_entries=64",
						 "dedup_buffer_pages=8" };
	static const char *const dedup_full[] = { GEOMETRY, "dedup=1", "dedup_filter=0",
						  "logical_block_bytes=512" };
	static const char *const dedup_arc[] = { CACHE, "dedup=1", "dedup_store_entries=64",
						 "cache_policy=plc", "plc_access_threshold=0",
						 "cache_replacement=arc", "cache_rce=1",
						 "cache_read_allocate=1", "dedup_filter_live_chunks=1" };
	static const char *const dedup_s3[] = { CACHE, "dedup=1", "dedup_buffer_pages=16",
						"cache_policy=always", "cache_pages=60",
						"cache_replacement=s3fifo" };
	/* Background destage and parallel, overlapped dedup engines (their state). */
	static const char *const destage[] = { CACHE, "cache_policy=always",
					       "cache_destage_high_percent=60",
					       "cache_destage_low_percent=20" };
	static const char *const engines[] = { CACHE, "dedup=1", "dedup_buffer_pages=8",
					       "dedup_hash_engines=3", "dedup_hash_overlap=1",
					       "cache_policy=always" };
	/* FTL types and static wear levelling: the CMT, translation blocks, wear state. */
	static const char *const dftl[] = { GEOMETRY, "ftl_type=dftl", "dftl_cmt_entries=16",
					    "page_size_bytes=512", "logical_block_bytes=512" };
	static const char *const dftl_stack[] = { GEOMETRY, "op_percent=20",
						  "slc_blocks_per_chip=8", "ftl_type=dftl",
						  "dftl_cmt_entries=32", "cache_policy=always",
						  "dedup=1", "dedup_buffer_pages=8",
						  "dedup_sample_offset_bytes=100",
						  "page_size_bytes=512", "logical_block_bytes=512",
						  "wl_static_threshold=2" };
	static const char *const wear[] = { GEOMETRY, "wl_static_threshold=1" };
	/* The block-mapped FTLs: with static wear levelling, a cache, dedup. */
	static const char *const block[] = { GEOMETRY, "ftl_type=block", "wl_static_threshold=2" };
	static const char *const bast[] = { CACHE, "ftl_type=bast", "ftl_log_blocks=6",
					    "cache_policy=always" };
	static const char *const fast[] = { GEOMETRY, "ftl_type=fast", "wl_static_threshold=2",
					    "logical_block_bytes=512" };
	static const char *const fast_dedup[] = { CACHE, "ftl_type=fast", "ftl_log_blocks=5",
						  "dedup=1", "dedup_buffer_pages=8",
						  "cache_policy=procache",
						  "procache_p_ppm=500000" };
	/* Data stores: digests (dedup samples them again on loading), none. */
	static const char *const digest[] = { CACHE, "data_store=digest", "dedup=1",
					      "dedup_buffer_pages=8", "cache_policy=always",
					      "logical_block_bytes=512" };
	static const char *const none[] = { CACHE, "data_store=none", "cache_policy=always" };
	/* Read errors on (issue 24): the model's PRNG, program times, erase counts, counters. */
	static const char *const rber[] = { GEOMETRY, "rber_base_ppb=300000", "ecc_soft_bits=3",
					    "rber_wear_ppb=1000000",
					    "rber_retention_ppb_per_day=1000" };
	/* The volatile write cache over dedup and the cache: its buffered pages. */
	static const char *const wbuf[] = { CACHE, "volatile_write_cache=1", "write_cache_pages=16",
					    "dedup=1", "dedup_buffer_pages=8",
					    "cache_policy=always" };

	if (argc == 3 && !strcmp(argv[1], "seeds")) {
		write_seeds(argv[2]);
		return 0;
	}
	round_trip(plain, ARRAY_SIZE(plain), 1, AGED_GC);
	round_trip(slow, ARRAY_SIZE(slow), 2, AGED_GC);
	round_trip(lru, ARRAY_SIZE(lru), 11, AGED_GC | AGED_CACHE);
	round_trip(clock, ARRAY_SIZE(clock), 12, AGED_GC | AGED_CACHE);
	round_trip(fifo, ARRAY_SIZE(fifo), 13, AGED_GC | AGED_CACHE);
	round_trip(refcnt, ARRAY_SIZE(refcnt), 18, AGED_GC | AGED_CACHE);
	round_trip(gclock, ARRAY_SIZE(gclock), 14, AGED_GC | AGED_CACHE);
	round_trip(arc, ARRAY_SIZE(arc), 15, AGED_GC | AGED_CACHE);
	round_trip(sieve, ARRAY_SIZE(sieve), 16, AGED_GC | AGED_CACHE);
	round_trip(s3fifo, ARRAY_SIZE(s3fifo), 17, AGED_GC | AGED_CACHE);
	round_trip(dedup_lru, ARRAY_SIZE(dedup_lru), 21, AGED_GC | AGED_DEDUP | AGED_BUFFER);
	round_trip(dedup_full, ARRAY_SIZE(dedup_full), 22, AGED_GC | AGED_DEDUP | AGED_BUFFER);
	round_trip(dedup_arc, ARRAY_SIZE(dedup_arc), 23,
		   AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
	round_trip(dedup_s3, ARRAY_SIZE(dedup_s3), 24,
		   AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
	round_trip(destage, ARRAY_SIZE(destage), 31, AGED_GC | AGED_CACHE);
	round_trip(engines, ARRAY_SIZE(engines), 32,
		   AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
	round_trip(dftl, ARRAY_SIZE(dftl), 41, AGED_GC | AGED_MAP | AGED_MAP_GC);
	round_trip(dftl_stack, ARRAY_SIZE(dftl_stack), 42,
		   AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER | AGED_MAP);
	round_trip(wear, ARRAY_SIZE(wear), 43, AGED_GC | AGED_WEAR);
	round_trip(block, ARRAY_SIZE(block), 44, AGED_MERGE);
	round_trip(bast, ARRAY_SIZE(bast), 45, AGED_MERGE | AGED_CACHE);
	round_trip(fast, ARRAY_SIZE(fast), 46, AGED_MERGE);
	round_trip(fast_dedup, ARRAY_SIZE(fast_dedup), 47,
		   AGED_MERGE | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
	round_trip(digest, ARRAY_SIZE(digest), 51,
		   AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
	round_trip(none, ARRAY_SIZE(none), 52, AGED_GC | AGED_CACHE);
	round_trip(rber, ARRAY_SIZE(rber), 61, AGED_GC);
	round_trip(wbuf, ARRAY_SIZE(wbuf), 53, AGED_GC | AGED_CACHE | AGED_DEDUP | AGED_BUFFER);
#undef CACHE
	test_bad_files(plain, ARRAY_SIZE(plain));
	test_bad_layer_files();
	test_bad_dftl_files();
	test_bad_scheme_files();
	test_memory_limit();
	printf("snapshot: ok\n");
	return 0;
}

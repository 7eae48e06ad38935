// SPDX-License-Identifier: GPL-2.0
/*
 * test_power.c - the volatile write cache and power cuts
 * (vwc/vwc.c, device/ssd_power.c), against a shadow of what was
 * acknowledged and of what was made durable (by a FLUSH or a FUA write):
 *
 *  - a cache larger than the pages written: a cut loses exactly the pages
 *    written since the last FLUSH/FUA (each reads its flushed contents
 *    again) and nothing else, and says how many;
 *  - a smaller cache (pages go below when it is full), with dedup below it
 *    (its write buffer is volatile too) or not, random writes, FUA
 *    writes, FLUSHes, TRIMs and reads, many cuts: before a cut every read
 *    returns what was acknowledged; after it a page untouched since the
 *    last flush reads what was flushed, any other page one of the
 *    versions it had since (or zeros, with dedup: a lost buffered write
 *    of a page whose old chunk was shared had let go of it), the pages that differ from the
 *    acknowledged ones are no more than the lost pages counted (exactly
 *    those without dedup), the consistency check passes (ssd_dedup_check
 *    with dedup), requests fail with -EIO until the power is back, and a
 *    snapshot taken after the cut loads with the same data and counters;
 *  - dedup's buffer alone: an unflushed overwrite of an unshared flushed
 *    page reads the flushed data after a cut, not zeros;
 *  - volatile_write_cache=0 (power-loss protected), with dedup: a cut
 *    loses nothing, every page reads what was acknowledged;
 *  - with the cache on, reads are served from it and FLUSH/FUA are counted.
 */
#include "unit.h"
#include "dedup/dedup_internal.h"

#define LPNS		48
#define MAX_HIST	64

#define GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2", \
	"op_percent=15", "data_store=bytes"

struct shadow {
	u64 acked[LPNS];	/* the value each page reads now (0: zeros) */
	u64 flushed[LPNS];	/* its value at the last FLUSH/FUA */
	u64 hist[LPNS][MAX_HIST];	/* the values it had since then */
	u32 nr_hist[LPNS];
	u64 seq;
};

static u32 page_bytes_of(struct ssd_device *dev)
{
	return ssd_device_page_bytes(dev);
}

static void fill(u8 *buf, u32 bytes, u64 value)
{
	u32 i;

	for (i = 0; i < bytes; i += sizeof(u64))
		memcpy(buf + i, &value, sizeof(u64));
}

/* The value a page holds: the u64 it is filled with; exits if it is not uniform. */
static u64 read_value(struct ssd_device *dev, u64 lpn)
{
	u32 bytes = page_bytes_of(dev), i;
	u8 *buf = malloc(bytes);
	u64 v, w;

	EXPECT(buf, "out of memory");
	EXPECT(submit(dev, SSD_OP_READ, lpn * bytes, bytes, buf) == 0, "read of %llu",
	       (unsigned long long)lpn);
	memcpy(&v, buf, sizeof(v));
	for (i = 0; i < bytes; i += sizeof(u64)) {
		memcpy(&w, buf + i, sizeof(w));
		EXPECT(w == v, "page %llu torn", (unsigned long long)lpn);
	}
	free(buf);
	return v;
}

static int submit_write(struct ssd_device *dev, u64 lpn, u64 value, bool fua)
{
	u32 bytes = page_bytes_of(dev);
	u8 *buf = malloc(bytes);
	struct flat_iter fi;
	struct ssd_request req = {
		.op = SSD_OP_WRITE, .offset_bytes = lpn * bytes, .length_bytes = bytes,
		.data = &fi.it, .fua = fua,
	};
	u64 done_ns;
	int ret;

	EXPECT(buf, "out of memory");
	fill(buf, bytes, value);
	flat_iter_init(&fi, buf);
	ret = ssd_device_submit(dev, &req, &done_ns);
	free(buf);
	return ret;
}

static void made_durable(struct shadow *s)
{
	u32 i;

	for (i = 0; i < LPNS; i++) {
		s->flushed[i] = s->acked[i];
		s->hist[i][0] = s->acked[i];
		s->nr_hist[i] = 1;
	}
}

static void changed(struct shadow *s, u64 lpn, u64 value)
{
	s->acked[lpn] = value;
	if (s->nr_hist[lpn] < MAX_HIST)
		s->hist[lpn][s->nr_hist[lpn]++] = value;
	else
		s->hist[lpn][MAX_HIST - 1] = value;	/* never reached: flushes come often */
}

static void op_write(struct ssd_device *dev, struct shadow *s, u64 lpn, bool fua)
{
	u64 value = (lpn + 1) << 32 | ++s->seq;

	EXPECT(submit_write(dev, lpn, value, fua) == 0, "write");
	changed(s, lpn, value);
	if (fua)
		made_durable(s);
}

static void op_flush(struct ssd_device *dev, struct shadow *s)
{
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush");
	made_durable(s);
}

static void op_trim(struct ssd_device *dev, struct shadow *s, u64 lpn)
{
	u32 bytes = page_bytes_of(dev);

	EXPECT(submit(dev, SSD_OP_TRIM, lpn * bytes, bytes, NULL) == 0, "trim");
	changed(s, lpn, 0);
}

static bool in_history(const struct shadow *s, u64 lpn, u64 v)
{
	u32 i;

	for (i = 0; i < s->nr_hist[lpn]; i++)
		if (s->hist[lpn][i] == v)
			return true;
	return false;
}

/* Every page reads what was acknowledged. */
static void expect_acked(struct ssd_device *dev, const struct shadow *s, const char *when)
{
	u64 lpn;

	for (lpn = 0; lpn < LPNS; lpn++)
		EXPECT(read_value(dev, lpn) == s->acked[lpn], "%s: page %llu", when,
		       (unsigned long long)lpn);
}

/* Save @dev and load it into a new device: same data, same counters. */
static void expect_snapshot_loads(struct ssd_device *dev, const struct shadow *s)
{
	struct ssd_device *copy = snap_copy(dev);
	struct ssd_stats a, b;

	ssd_device_get_stats(dev, &a);
	ssd_device_get_stats(copy, &b);
	EXPECT(!memcmp(&a, &b, sizeof(a)), "counters differ after the load");
	EXPECT(b.power_cuts == a.power_cuts && b.power_cuts > 0, "power_cuts kept");
	expect_acked(copy, s, "loaded copy");
	ssd_device_destroy(copy);
}

/* A cache larger than the pages written: a cut loses exactly the unflushed pages. */
static void test_exact_loss(void)
{
	static const char *const settings[] = { GEOMETRY, "volatile_write_cache=1",
						"write_cache_pages=64" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct shadow s;
	u64 rng = 7, lost, lpn, i, unflushed = 0;
	struct ssd_stats st;

	EXPECT(unit_layer(dev, "vwc") == dev->top, "the volatile write cache on top");
	memset(&s, 0, sizeof(s));
	made_durable(&s);
	for (i = 0; i < 200; i++)
		op_write(dev, &s, rng_below(&rng, LPNS), false);
	op_flush(dev, &s);
	for (i = 0; i < 40; i++)
		op_write(dev, &s, rng_below(&rng, LPNS), i == 20);
	for (i = 0; i < 30; i++)
		op_write(dev, &s, rng_below(&rng, LPNS / 2), false);
	expect_acked(dev, &s, "before the cut");
	for (lpn = 0; lpn < LPNS; lpn++)
		unflushed += s.acked[lpn] != s.flushed[lpn];
	EXPECT(unflushed > 5, "the test writes unflushed pages (%llu)",
	       (unsigned long long)unflushed);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.write_cache_dirty_pages == unflushed, "dirty %llu, unflushed %llu",
	       (unsigned long long)st.write_cache_dirty_pages, (unsigned long long)unflushed);
	EXPECT(st.write_cache_hit_pages == unflushed, "reads served from the cache: %llu",
	       (unsigned long long)st.write_cache_hit_pages);
	EXPECT(st.fua_writes == 1 && st.write_cache_flushes == 2, "fua %llu, flushes %llu",
	       (unsigned long long)st.fua_writes, (unsigned long long)st.write_cache_flushes);
	EXPECT(ssd_device_power_cut(dev, &lost) == 0, "cut");
	EXPECT(lost == unflushed, "lost %llu, unflushed %llu", (unsigned long long)lost,
	       (unsigned long long)unflushed);
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == -EIO, "a cut device refuses requests");
	ssd_device_power_restore(dev);
	for (lpn = 0; lpn < LPNS; lpn++)
		EXPECT(read_value(dev, lpn) == s.flushed[lpn], "page %llu after the cut",
		       (unsigned long long)lpn);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.power_cuts == 1 && st.power_cut_lost_pages == unflushed &&
	       st.write_cache_dirty_pages == 0, "counters after the cut");
	EXPECT(ssd_device_check(dev) == 0, "check after the cut");
	ssd_device_destroy(dev);
}

/* Random work and many cuts; @dedup puts dedup's write buffer below the cache. */
static void test_random_cuts(bool dedup, u64 seed)
{
	const char *const settings[] = { GEOMETRY, "volatile_write_cache=1",
					 "write_cache_pages=8",
					 dedup ? "dedup=1" : "dedup=0", "dedup_buffer_pages=6" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct shadow *s = calloc(1, sizeof(*s));
	u64 rng = seed, cut, i, lpn, total_lost = 0;

	EXPECT(s, "out of memory");
	made_durable(s);
	for (cut = 0; cut < 30; cut++) {
		u64 ops = 20 + rng_below(&rng, 120), lost, differ = 0;

		for (i = 0; i < ops; i++) {
			u64 r = rng_below(&rng, 100);

			lpn = rng_below(&rng, LPNS);
			if (r < 70)
				op_write(dev, s, lpn, false);
			else if (r < 74)
				op_write(dev, s, lpn, true);
			else if (r < 78)
				op_flush(dev, s);
			else if (r < 84)
				op_trim(dev, s, lpn);
			else
				EXPECT(read_value(dev, lpn) == s->acked[lpn], "read before the cut");
		}
		expect_acked(dev, s, "before a cut");
		EXPECT(ssd_device_power_cut(dev, &lost) == 0, "cut");
		EXPECT(submit_write(dev, 0, 1, false) == -EIO, "a cut device refuses writes");
		ssd_device_power_restore(dev);
		EXPECT(ssd_device_check(dev) == 0, "check after cut %llu", (unsigned long long)cut);
		if (dedup)
			EXPECT(ssd_dedup_check(ssd_dedup_from_layer(unit_layer(dev, "dedup"))) == 0,
			       "dedup check after a cut");
		for (lpn = 0; lpn < LPNS; lpn++) {
			u64 v = read_value(dev, lpn);

			if (s->nr_hist[lpn] == 1)
				EXPECT(v == s->flushed[lpn], "cut %llu: flushed page %llu lost",
				       (unsigned long long)cut, (unsigned long long)lpn);
			else
				EXPECT(in_history(s, lpn, v) || (dedup && v == 0),
				       "cut %llu: page %llu reads %llx, never written since the flush",
				       (unsigned long long)cut, (unsigned long long)lpn,
				       (unsigned long long)v);
			differ += v != s->acked[lpn];
			s->acked[lpn] = v;
		}
		if (dedup)
			EXPECT(differ <= lost, "%llu pages differ, %llu lost",
			       (unsigned long long)differ, (unsigned long long)lost);
		else
			EXPECT(differ == lost, "%llu pages differ, %llu lost",
			       (unsigned long long)differ, (unsigned long long)lost);
		total_lost += lost;
		/* What survived is durable now. */
		made_durable(s);
		if (cut % 10 == 9)
			expect_snapshot_loads(dev, s);
	}
	EXPECT(total_lost > 10, "the cuts lost pages (%llu)", (unsigned long long)total_lost);
	ssd_device_destroy(dev);
	free(s);
}

/* volatile_write_cache=0: power-loss protected, a cut loses nothing. */
static void test_protected(void)
{
	static const char *const settings[] = { GEOMETRY, "dedup=1", "dedup_buffer_pages=16" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct shadow *s = calloc(1, sizeof(*s));
	u64 rng = 3, lost = 1, i;
	struct ssd_stats st;

	EXPECT(s, "out of memory");
	EXPECT(!unit_layer(dev, "vwc"), "no volatile write cache layer by default");
	for (i = 0; i < 100; i++)
		op_write(dev, s, rng_below(&rng, LPNS), false);
	EXPECT(ssd_device_power_cut(dev, &lost) == 0 && lost == 0, "nothing lost");
	ssd_device_power_restore(dev);
	expect_acked(dev, s, "after a protected cut");
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.power_cuts == 1 && st.power_cut_lost_pages == 0, "counted");
	expect_snapshot_loads(dev, s);
	ssd_device_destroy(dev);
	free(s);
}

/*
 * Dedup's write buffer (volatile_write_cache=1, no cache above it): an
 * unflushed overwrite of a flushed unshared page is lost at a cut and the
 * page reads its flushed data again, not zeros; a new page reads zeros.
 */
static void test_dedup_overwrite(void)
{
	static const char *const settings[] = { GEOMETRY, "dedup=1", "dedup_buffer_pages=16",
						 "volatile_write_cache=1", "write_cache_pages=1" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	u64 lost = 0, lpn;

	for (lpn = 0; lpn < 4; lpn++)
		EXPECT(submit_write(dev, lpn, 100 + lpn, false) == 0, "write");
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush");
	EXPECT(submit_write(dev, 1, 200, false) == 0 && submit_write(dev, 2, 201, false) == 0 &&
	       submit_write(dev, 9, 202, false) == 0, "overwrites");
	/* The one-page cache holds the last; the others wait in dedup's buffer. */
	EXPECT(ssd_device_power_cut(dev, &lost) == 0 && lost == 3, "lost %llu",
	       (unsigned long long)lost);
	ssd_device_power_restore(dev);
	EXPECT(ssd_dedup_check(ssd_dedup_from_layer(unit_layer(dev, "dedup"))) == 0, "dedup check");
	EXPECT(ssd_device_check(dev) == 0, "check");
	for (lpn = 0; lpn < 4; lpn++)
		EXPECT(read_value(dev, lpn) == 100 + lpn, "page %llu: %llx", (unsigned long long)lpn,
		       (unsigned long long)read_value(dev, lpn));
	EXPECT(read_value(dev, 9) == 0, "an unflushed new page reads zeros");
	/* The restored pages are fingerprinted: a copy of one is a duplicate. */
	EXPECT(submit_write(dev, 20, 101, false) == 0 && submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0,
	       "copy");
	EXPECT(read_value(dev, 20) == 101, "copy reads back");
	ssd_device_destroy(dev);
}

int test_power(int argc, char **argv)
{
	test_exact_loss();
	test_dedup_overwrite();
	test_random_cuts(false, 11);
	test_random_cuts(true, 12);
	test_random_cuts(true, 13);
	test_protected();
	printf("power: ok\n");
	return 0;
}

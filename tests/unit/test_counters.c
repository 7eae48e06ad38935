// SPDX-License-Identifier: GPL-2.0
/*
 * test_counters.c - flash counters depend on the requests only: the same
 * random request sequence under two very different timing settings (and
 * arrival spacings) gives the same programs, reads, erases, GC relocations
 * and WAF, for bounded and whole-victim GC.  And reads of unwritten pages:
 * with read_unwritten_flash=1 they cost a TLC page read on chip
 * lpn % chips (counted as a host read) and still return zeros; with 0 the
 * controller answers them without flash.  Background GC
 * (gc_background_free_blocks, off in the tests above): an idle gap after a
 * write burst lets it free blocks, so later writes need less foreground GC.
 */
#include "unit.h"

static int submit_at(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length,
		     void *buf, u64 arrival_ns, u64 *done_ns)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = op, .offset_bytes = offset, .length_bytes = length,
		.arrival_ns = arrival_ns, .data = &fi.it,
	};

	flat_iter_init(&fi, buf);
	return ssd_device_submit(dev, &req, done_ns);
}

#define NR_SETTINGS	16

/* Run a seeded mix of writes, reads and TRIMs at ~90% utilisation. */
static void run_sequence(const char *const *timing, unsigned int nr_timing,
			 u64 spacing_ns, const char *gc, struct ssd_stats *st)
{
	static const char *const geometry[] = {
		"pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2",
		"op_percent=15",
	};
	const char *settings[NR_SETTINGS];
	unsigned int n = 0, i;
	struct ssd_device *dev;
	u64 rng = 42, pages, lpn, arrival = 0, done;
	static u8 buf[4 * 4096];

	for (i = 0; i < ARRAY_SIZE(geometry); i++)
		settings[n++] = geometry[i];
	for (i = 0; i < nr_timing; i++)
		settings[n++] = timing[i];
	settings[n++] = gc;
	dev = make_device(settings, n);
	pages = dev->capacity_bytes / 4096;
	for (lpn = 0; lpn < pages * 9 / 10; lpn++) {
		memset(buf, (u8)lpn, 4096);
		EXPECT(submit_at(dev, SSD_OP_WRITE, lpn * 4096, 4096, buf, arrival, &done) == 0,
		       "fill");
		arrival += spacing_ns;
	}
	for (i = 0; i < 20000; i++) {
		u64 dice = rng_below(&rng, 100), count = 1 + rng_below(&rng, 4);
		u64 start = rng_below(&rng, pages - count);
		enum ssd_op op = dice < 65 ? SSD_OP_WRITE : dice < 90 ? SSD_OP_READ : SSD_OP_TRIM;
		u64 off = start * 4096, len = count * 4096;

		/* Some writes are partial pages: read-modify-write. */
		if (op == SSD_OP_WRITE && dice < 10) {
			off += 512 * rng_below(&rng, 7);
			len = 512;
		}
		memset(buf, (u8)i, len);
		EXPECT(submit_at(dev, op, off, len, buf, arrival, &done) == 0, "op %u", i);
		arrival += spacing_ns;
	}
	EXPECT(ssd_ftl_check(unit_ftl(dev)) == 0, "check");
	ssd_device_get_stats(dev, st);
	ssd_device_destroy(dev);
}

#define SAME(field)							\
	EXPECT(a.field == b.field, "%s: %s %llu vs %llu", gc, #field,	\
	       (unsigned long long)a.field, (unsigned long long)b.field)

static void test_timing_independence(const char *gc)
{
	static const char *const slow[] = {
		"program_ns=600000", "read_ns=50000", "erase_ns=3000000",
		"controller_ns=2000", "channel_mb_per_s=400", "cmd_queue_depth=64",
	};
	static const char *const fast[] = {
		"program_ns=50000", "read_ns=20000", "read_msb_ns=90000",
		"erase_ns=500000", "controller_ns=40000", "channel_mb_per_s=1200",
		"cmd_queue_depth=2",
	};
	struct ssd_stats a, b;

	/* Requests pile up on a slow device; each finds a fast one idle. */
	run_sequence(slow, ARRAY_SIZE(slow), 1000, gc, &a);
	run_sequence(fast, ARRAY_SIZE(fast), 5000000, gc, &b);
	EXPECT(a.virtual_time_ns != b.virtual_time_ns, "the timings did not differ");
	EXPECT(a.gc_relocated_pages > 0, "%s: GC never ran", gc);
	SAME(host_write_bytes);
	SAME(flash_program_pages);
	SAME(flash_program_host_pages);
	SAME(flash_program_gc_pages);
	SAME(flash_read_pages);
	SAME(flash_read_host_pages);
	SAME(flash_read_gc_pages);
	SAME(flash_erase_blocks);
	SAME(erase_count_total);
	SAME(erase_count_min);
	SAME(erase_count_max);
	SAME(gc_victim_blocks);
	SAME(gc_relocated_pages);
	SAME(gc_foreground_runs);
	SAME(gc_blocking_runs);
	SAME(gc_relocated_pages_write_max);
	SAME(free_blocks);
	SAME(valid_pages);
	/* The same bytes over the same programs: the same WAF, exactly. */
}

static void test_read_unwritten(void)
{
	static const char *const settings[] = {
		"chips=8", "channels=4", "controller_ns=2000", "channel_mb_per_s=400",
		"read_ns=50000", "read_csb_ns=70000", "read_unwritten_flash=1",
	};
	const char *quiet[ARRAY_SIZE(settings)];
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ssd_stats st;
	u8 buf[4096];
	u64 done;
	u32 i;

	/* lpn 5: chip 5, first of its stripe (LSB): sensed, then the channel. */
	memset(buf, 0xa5, sizeof(buf));
	EXPECT(submit_at(dev, SSD_OP_READ, 5 * 4096, 4096, buf, 0, &done) == 0, "read");
	EXPECT(done == 2000 + 50000 + 10240, "unwritten read done at %llu",
	       (unsigned long long)done);
	for (i = 0; i < sizeof(buf); i++)
		EXPECT(buf[i] == 0, "unwritten page reads %u", buf[i]);
	/* lpn 14: chip 6, second of its stripe (CSB); long after, so all is idle. */
	EXPECT(submit_at(dev, SSD_OP_READ, 14 * 4096, 4096, buf, 1000000000, &done) == 0,
	       "read");
	EXPECT(done == 1000000000 + 2000 + 70000 + 10240, "CSB read done at %llu",
	       (unsigned long long)done);
	/* A trimmed page is read the same way. */
	memset(buf, 0x11, sizeof(buf));
	EXPECT(submit_at(dev, SSD_OP_WRITE, 3 * 4096, 4096, buf, 2000000000, &done) == 0, "w");
	EXPECT(submit_at(dev, SSD_OP_TRIM, 3 * 4096, 4096, NULL, 2000000000, &done) == 0, "t");
	EXPECT(submit_at(dev, SSD_OP_READ, 3 * 4096, 4096, buf, 3000000000ULL, &done) == 0,
	       "read");
	EXPECT(done == 3000000000ULL + 2000 + 50000 + 10240 && buf[0] == 0 && buf[4095] == 0,
	       "trimmed read done at %llu, reads %u", (unsigned long long)done, buf[0]);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_read_host_pages == 3 && st.flash_read_pages == 3 &&
	       st.host_read_pages == 3, "flash reads %llu",
	       (unsigned long long)st.flash_read_host_pages);
	ssd_device_destroy(dev);

	/* Off: the controller answers with zeros, the flash is not touched. */
	memcpy(quiet, settings, sizeof(quiet));
	quiet[ARRAY_SIZE(settings) - 1] = "read_unwritten_flash=0";
	dev = make_device(quiet, ARRAY_SIZE(quiet));
	memset(buf, 0xa5, sizeof(buf));
	EXPECT(submit_at(dev, SSD_OP_READ, 5 * 4096, 4096, buf, 0, &done) == 0, "read");
	EXPECT(done == 2000 && buf[0] == 0 && buf[4095] == 0, "read done at %llu, reads %u",
	       (unsigned long long)done, buf[0]);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_read_pages == 0 && st.host_read_pages == 1, "flash reads %llu",
	       (unsigned long long)st.flash_read_pages);
	ssd_device_destroy(dev);
}

#define BG_WATERMARK	20	/* as in run_idle_gap("gc_background_free_blocks=20") */

/*
 * A write burst into a full device, a long idle gap, one read, then writes
 * spaced 10 ms apart.  Returns the pages foreground GC moved for those
 * writes; every page written is read back.
 */
static u64 run_idle_gap(const char *bg, struct ssd_stats *after_read)
{
	const char *const settings[] = {
		"pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2",
		"op_percent=15", "gc_pages_per_write=8", bg,
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	u64 rng = 7, pages = dev->capacity_bytes / 4096, lpn, arrival = 0, done;
	u64 fg_before, i;
	struct ssd_stats st;
	static u8 shadow[65536];
	static u8 buf[4096];

	EXPECT(pages <= sizeof(shadow), "%llu pages", (unsigned long long)pages);
	for (lpn = 0; lpn < pages; lpn++) {
		shadow[lpn] = (u8)(lpn * 7 + 1);
		memset(buf, shadow[lpn], sizeof(buf));
		EXPECT(submit_at(dev, SSD_OP_WRITE, lpn * 4096, 4096, buf, 0, &done) == 0,
		       "fill");
	}
	/* The burst: everything arrives at once, so chips are never idle. */
	for (i = 0; i < 2 * pages; i++) {
		lpn = rng_below(&rng, pages);
		shadow[lpn] = (u8)(i + 3);
		memset(buf, shadow[lpn], sizeof(buf));
		EXPECT(submit_at(dev, SSD_OP_WRITE, lpn * 4096, 4096, buf, 0, &done) == 0,
		       "burst %llu", (unsigned long long)i);
		arrival = max_t(u64, arrival, done);
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.free_blocks < BG_WATERMARK, "%s: %llu free after the burst", bg,
	       (unsigned long long)st.free_blocks);
	/* A long idle gap, then one request. */
	arrival += 10000000000ULL;
	EXPECT(submit_at(dev, SSD_OP_READ, 0, 4096, buf, arrival, &done) == 0, "read");
	EXPECT(buf[0] == shadow[0], "lpn 0 reads %u", buf[0]);
	ssd_device_get_stats(dev, after_read);
	/* Background GC only if on: then the read after the gap ran a step. */
	EXPECT(!strcmp(bg, "gc_background_free_blocks=0") ||
	       after_read->gc_background_pages > st.gc_background_pages,
	       "%s: the idle gap did no background GC", bg);
	fg_before = after_read->gc_relocated_pages - after_read->gc_background_pages;
	for (i = 0; i < 200; i++) {
		arrival += 10000000;
		lpn = rng_below(&rng, pages);
		shadow[lpn] = (u8)(i + 5);
		memset(buf, shadow[lpn], sizeof(buf));
		EXPECT(submit_at(dev, SSD_OP_WRITE, lpn * 4096, 4096, buf, arrival, &done) == 0,
		       "write after the gap");
	}
	EXPECT(ssd_ftl_check(unit_ftl(dev)) == 0, "%s: check", bg);
	for (lpn = 0; lpn < pages; lpn++) {
		EXPECT(submit_at(dev, SSD_OP_READ, lpn * 4096, 4096, buf, arrival, &done) == 0,
		       "read back");
		EXPECT(buf[0] == shadow[lpn] && buf[4095] == shadow[lpn],
		       "%s: lpn %llu reads %u, wrote %u", bg, (unsigned long long)lpn, buf[0],
		       shadow[lpn]);
	}
	ssd_device_get_stats(dev, &st);
	ssd_device_destroy(dev);
	return st.gc_relocated_pages - st.gc_background_pages - fg_before;
}

static void test_background_gc(void)
{
	struct ssd_stats on, off;
	u64 fg_on = run_idle_gap("gc_background_free_blocks=20", &on);
	u64 fg_off = run_idle_gap("gc_background_free_blocks=0", &off);

	EXPECT(on.gc_background_pages > 0 && on.gc_background_steps > 0,
	       "no background GC after the gap: %llu pages",
	       (unsigned long long)on.gc_background_pages);
	EXPECT(off.gc_background_pages == 0 && off.gc_background_steps == 0,
	       "background GC while off");
	EXPECT(fg_on < fg_off, "foreground GC after the gap: %llu with, %llu without",
	       (unsigned long long)fg_on, (unsigned long long)fg_off);
	printf("background GC: %llu pages in %llu steps; foreground after the gap %llu vs %llu\n",
	       (unsigned long long)on.gc_background_pages,
	       (unsigned long long)on.gc_background_steps,
	       (unsigned long long)fg_on, (unsigned long long)fg_off);
}

int test_counters(int argc, char **argv)
{
	test_timing_independence("gc_pages_per_write=8");
	test_timing_independence("gc_pages_per_write=1");
	test_timing_independence("gc_pages_per_write=0");
	test_read_unwritten();
	test_background_gc();
	printf("counters: independent of timing, unwritten reads, background GC ok\n");
	return 0;
}

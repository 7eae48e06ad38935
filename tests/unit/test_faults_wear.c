// SPDX-License-Identifier: GPL-2.0
/*
 * test_faults_wear.c - bad blocks and wear-out (ftl/ftl_retire.c,
 * flash/flash_wear.c, device/ssd_bad_blocks.c):
 *  - the failure curve of grown_bad_ppm against pe_cycle_limit;
 *  - factory bad blocks (a rate, and a list) are never programmed or
 *    erased, are not counted free, and a snapshot keeps them (the loaded
 *    device then runs on exactly as the saved one);
 *  - lists are parsed and refused as documented, and so are the keys with
 *    other FTL types, a write cache or dedup;
 *  - grown failures: a device with a low pe_cycle_limit written at random
 *    until it turns read-only, with ssd_ftl_check() after every GC step
 *    and every retirement; every page written and acknowledged reads back
 *    its last contents, before and after the end of life; writes and TRIMs
 *    are refused then and counted;
 *  - faults off: the same trace with the keys unset, at 0, and with a
 *    failure rate whose limit is never reached gives the same counters.
 *
 * usage: faults_wear
 */
#include "unit.h"

#define FW_GEOMETRY	"pages_per_block=16", "blocks_per_chip=32", "chips=4", \
			"channels=2", "op_percent=30"

static void fill_page(u8 *page, u32 size, u64 lpn, u64 ver)
{
	u64 seed = lpn * 1000003 + ver * 7919 + 1, i;

	for (i = 0; i < size; i += 8) {
		u64 v = rng_next(&seed);

		memcpy(page + i, &v, 8);
	}
}

static void curve(void)
{
	static const struct { u64 ppm, limit, erases, want; } rows[] = {
		{ 100, 3000, 0, 0 }, { 100, 3000, 2999, 0 }, { 100, 3000, 3000, 100 },
		{ 100, 3000, 3299, 100 }, { 100, 3000, 3300, 200 }, { 100, 3000, 3600, 400 },
		{ 100, 3000, 6000, 102400 }, { 100, 3000, 7000, 819200 }, { 100, 3000, 7500, 1000000 },
		{ 100, 3000, 1000000, 1000000 }, { 0, 3000, 9000, 0 },
		{ 5000, 5, 5, 5000 }, { 5000, 5, 6, 10000 }, { 5000, 5, 13, 1000000 },
	};
	u32 i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		u64 got = ssd_flash_fail_ppm(rows[i].ppm, rows[i].limit, rows[i].erases);

		EXPECT(got == rows[i].want, "ppm %llu limit %llu at %llu erases: %llu, want %llu",
		       (unsigned long long)rows[i].ppm, (unsigned long long)rows[i].limit,
		       (unsigned long long)rows[i].erases, (unsigned long long)got,
		       (unsigned long long)rows[i].want);
	}
}

/* Random whole-page writes of @ops pages (lpn, contents from @rng); 0 or the first error. */
static int random_writes(struct ssd_device *dev, u64 *rng, u64 ops, u32 *ver, u64 *arrival)
{
	u32 unit = ssd_device_page_bytes(dev);
	u64 pages = ssd_device_capacity_bytes(dev) / unit, i;
	static u8 buf[16384];
	struct ftl *ftl = unit_ftl(dev);

	for (i = 0; i < ops; i++) {
		u64 lpn = rng_below(rng, pages), done;
		struct flat_iter fi;
		struct ssd_request req = { .op = SSD_OP_WRITE, .offset_bytes = lpn * unit,
					   .length_bytes = unit, .arrival_ns = *arrival,
					   .data = &fi.it };
		u32 grown = ftl->faults.bad_grown;
		int ret;

		fill_page(buf, unit, lpn, ver[lpn] + 1);
		flat_iter_init(&fi, buf);
		ret = ssd_device_submit(dev, &req, &done);
		*arrival += 20000;
		if (ftl->faults.bad_grown != grown)
			EXPECT(ssd_ftl_check(ftl) == 0, "check after a retirement");
		if (ret)
			return ret;
		ver[lpn]++;
	}
	return 0;
}

/* Every lpn reads back the version @ver says (0: never written, zeros). */
static void verify_all(struct ssd_device *dev, const u32 *ver, const char *when)
{
	u32 unit = ssd_device_page_bytes(dev);
	u64 pages = ssd_device_capacity_bytes(dev) / unit, lpn;
	static u8 want[16384], got[16384];

	for (lpn = 0; lpn < pages; lpn++) {
		if (ver[lpn])
			fill_page(want, unit, lpn, ver[lpn]);
		else
			memset(want, 0, unit);
		memset(got, 0xa5, unit);
		EXPECT(submit(dev, SSD_OP_READ, lpn * unit, unit, got) == 0, "%s: read %llu",
		       when, (unsigned long long)lpn);
		EXPECT(!memcmp(want, got, unit), "%s: lpn %llu does not read back version %u",
		       when, (unsigned long long)lpn, ver[lpn]);
	}
}

/* Bad blocks are untouched: never erased, no page taken, in no heap. */
static u32 check_bad_untouched(const struct ftl *ftl)
{
	u32 b, bad = 0;

	for (b = 0; b < ftl->total_blocks; b++) {
		const struct ftl_block *blk = &ftl->blocks[b];

		if (blk->state != FTL_BLOCK_BAD)
			continue;
		EXPECT(blk->erase_count == 0 && blk->write_ptr == 0 && blk->valid_pages == 0,
		       "factory bad block %u used: %u erases, write_ptr %u", b,
		       blk->erase_count, blk->write_ptr);
		bad++;
	}
	return bad;
}

static void factory_rate(void)
{
	const char *settings[] = { FW_GEOMETRY, "bad_block_ppm=50000", "fault_seed=3" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings)), *copy;
	struct ftl *ftl = unit_ftl(dev);
	u64 pages = ssd_device_capacity_bytes(dev) / ssd_device_page_bytes(dev);
	u32 *ver = calloc(pages, sizeof(*ver)), *ver2 = calloc(pages, sizeof(*ver2));
	u64 rng = 11, rng2, arrival = 0, arrival2;
	struct ssd_stats st;
	u32 bad;

	ftl->gc_step_hook = unit_check_ftl;
	ssd_device_get_stats(dev, &st);
	bad = check_bad_untouched(ftl);
	EXPECT(bad > 0 && st.bad_blocks_factory == bad && st.bad_blocks_grown == 0,
	       "%u bad blocks, %llu factory", bad, (unsigned long long)st.bad_blocks_factory);
	EXPECT(st.free_blocks == ftl->total_blocks - bad && !st.read_only &&
	       st.spare_blocks == st.spare_blocks_initial && st.spare_blocks > 0,
	       "free %llu of %u - %u, spares %llu/%llu", (unsigned long long)st.free_blocks,
	       ftl->total_blocks, bad, (unsigned long long)st.spare_blocks,
	       (unsigned long long)st.spare_blocks_initial);
	EXPECT(random_writes(dev, &rng, pages * 6, ver, &arrival) == 0, "writes failed");
	EXPECT(check_bad_untouched(ftl) == bad, "bad blocks changed");
	EXPECT(ssd_device_check(dev) == 0, "check");
	verify_all(dev, ver, "factory");
	/* A snapshot keeps them, and the copy runs on the same. */
	copy = snap_copy(dev);
	EXPECT(check_bad_untouched(unit_ftl(copy)) == bad, "snapshot lost bad blocks");
	expect_same_stats(dev, copy, "after load");
	memcpy(ver2, ver, pages * sizeof(*ver));
	rng2 = rng;
	arrival2 = arrival;
	EXPECT(random_writes(dev, &rng, pages * 2, ver, &arrival) == 0, "writes failed");
	EXPECT(random_writes(copy, &rng2, pages * 2, ver2, &arrival2) == 0, "writes failed");
	expect_same_stats(dev, copy, "after more writes");
	verify_all(copy, ver2, "loaded copy");
	printf("factory: %u of %u blocks bad, %llu spares, %llu erases after %llu page writes\n",
	       bad, ftl->total_blocks, (unsigned long long)st.spare_blocks,
	       (unsigned long long)ftl->region[SSD_REGION_MAIN].erase_total,
	       (unsigned long long)pages * 8);
	ssd_device_destroy(copy);
	ssd_device_destroy(dev);
	free(ver);
	free(ver2);
}

static void factory_list(void)
{
	const char *settings[] = { FW_GEOMETRY, "slc_blocks_per_chip=4" };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	u32 blocks[8], nr, free_before = ftl_nr_free_blocks(ftl);
	static u8 buf[16384];
	struct ssd_stats st;

	EXPECT(ssd_block_list_parse("t", "12 40-43,7\n", 128, blocks, 8, &nr) == 0 && nr == 6 &&
	       blocks[0] == 12 && blocks[1] == 40 && blocks[4] == 43 && blocks[5] == 7,
	       "parse: %u blocks", nr);
	EXPECT(ssd_block_list_parse("t", "", 128, NULL, 0, &nr) == 0 && nr == 0, "empty");
	EXPECT(ssd_block_list_parse("t", "12-3", 128, NULL, 0, &nr) == -EINVAL, "backwards");
	EXPECT(ssd_block_list_parse("t", "128", 128, NULL, 0, &nr) == -EINVAL, "range");
	EXPECT(ssd_block_list_parse("t", "1x", 128, NULL, 0, &nr) == -EINVAL, "junk");
	EXPECT(ssd_block_list_parse("t", "-3", 128, NULL, 0, &nr) == -EINVAL, "sign");
	EXPECT(ssd_block_list_parse("t", "99999999999999999999", 128, NULL, 0, &nr) == -EINVAL,
	       "overflow");
	EXPECT(ssd_block_list_parse("t", "0-127 0-127", 128, NULL, 0, &nr) == -EINVAL,
	       "more entries than blocks");
	/* Block 1 is an SLC block of chip 0; 200 is beyond the flash. */
	EXPECT(ssd_device_mark_bad_list(dev, "1") == -EINVAL, "SLC block accepted");
	EXPECT(ssd_device_mark_bad_list(dev, "200") == -EINVAL, "block 200 accepted");
	EXPECT(ftl_nr_free_blocks(ftl) == free_before, "a refused list changed something");
	EXPECT(ssd_device_mark_bad_list(dev, "4 40-43 100") == 0, "list refused");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.bad_blocks_factory == 6 && ftl->blocks[41].state == FTL_BLOCK_BAD &&
	       st.free_blocks == free_before - 6, "factory %llu, free %llu",
	       (unsigned long long)st.bad_blocks_factory, (unsigned long long)st.free_blocks);
	EXPECT(ssd_device_check(dev) == 0, "check");
	memset(buf, 1, sizeof(buf));
	EXPECT(submit(dev, SSD_OP_WRITE, 0, ssd_device_page_bytes(dev), buf) == 0, "write");
	EXPECT(ssd_device_mark_bad_list(dev, "5") == -EINVAL, "list accepted after use");
	ssd_device_destroy(dev);
}

static void refusals(void)
{
	static const char *const others[][2] = {
		{ "ftl_type=bast", "bad_block_ppm=10" }, { "ftl_type=dftl", "grown_bad_ppm=10" },
		{ "ftl_type=block", "grown_bad_ppm=10" }, { "ftl_type=fast", "bad_block_ppm=1" },
		{ "dedup=1", "grown_bad_ppm=10" }, { "volatile_write_cache=1", "bad_block_ppm=10" },
	};
	struct ssd_config cfg;
	struct ssd_device *dev;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(others); i++) {
		const char *settings[] = { FW_GEOMETRY, others[i][0], others[i][1] };

		make_config(&cfg, settings, ARRAY_SIZE(settings));
		EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL, "%s %s accepted", others[i][0],
		       others[i][1]);
	}
	{
		const char *settings[] = { FW_GEOMETRY, "slc_blocks_per_chip=4",
					   "cache_policy=always", "grown_bad_ppm=10" };

		make_config(&cfg, settings, ARRAY_SIZE(settings));
		EXPECT(ssd_device_create(&dev, &cfg) == -EINVAL, "cache with faults accepted");
	}
}

/* Written at random until read-only; every acknowledged page reads back. */
static void wear_out(const char *seed)
{
	const char *settings[] = { FW_GEOMETRY, "pe_cycle_limit=20", "grown_bad_ppm=20000",
				   seed };
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	u32 unit = ssd_device_page_bytes(dev);
	u64 pages = ssd_device_capacity_bytes(dev) / unit, rng = 5, arrival = 0, written;
	u32 *ver = calloc(pages, sizeof(*ver));
	static u8 buf[16384];
	struct ssd_stats st, after;
	int ret;

	ftl->gc_step_hook = unit_check_ftl;
	ret = random_writes(dev, &rng, pages * 200, ver, &arrival);
	EXPECT(ret == -EROFS, "not read-only after %llu page writes (ret %d)",
	       (unsigned long long)pages * 200, ret);
	EXPECT(ssd_device_read_only(dev), "read-only not reported");
	ssd_device_get_stats(dev, &st);
	written = st.host_write_pages;
	EXPECT(st.read_only == 1 && st.spare_blocks == 0 && st.bad_blocks_grown > 0 &&
	       st.flash_program_failures + st.flash_erase_failures == st.bad_blocks_grown &&
	       st.bad_blocks_factory == 0 && st.host_write_refused_pages >= 1,
	       "read_only %llu spares %llu grown %llu failures %llu+%llu refused %llu",
	       (unsigned long long)st.read_only, (unsigned long long)st.spare_blocks,
	       (unsigned long long)st.bad_blocks_grown,
	       (unsigned long long)st.flash_program_failures,
	       (unsigned long long)st.flash_erase_failures,
	       (unsigned long long)st.host_write_refused_pages);
	EXPECT(ssd_device_check(dev) == 0, "check at the end of life");
	verify_all(dev, ver, "read-only");
	/* Writes, zeroes and TRIMs are refused and change nothing. */
	memset(buf, 0x5a, sizeof(buf));
	EXPECT(submit(dev, SSD_OP_WRITE, 0, unit * 2, buf) == -EROFS, "write accepted");
	EXPECT(submit(dev, SSD_OP_TRIM, 0, unit, NULL) == -EROFS, "trim accepted");
	EXPECT(submit(dev, SSD_OP_WRITE_ZEROES, unit, unit, NULL) == -EROFS, "zeroes accepted");
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush refused");
	ssd_device_get_stats(dev, &after);
	EXPECT(after.host_write_refused_pages == st.host_write_refused_pages + 4 &&
	       after.host_write_pages == written && after.valid_pages == st.valid_pages,
	       "refused %llu -> %llu", (unsigned long long)st.host_write_refused_pages,
	       (unsigned long long)after.host_write_refused_pages);
	verify_all(dev, ver, "after refusals");
	printf("wear-out %s: read-only after %llu host page writes, %llu erases (max %llu), "
	       "%llu grown bad (%llu program, %llu erase failures), %llu of %u main blocks bad, "
	       "%llu pages moved out of retired blocks, %llu spares at first\n",
	       seed, (unsigned long long)written, (unsigned long long)st.erase_count_total,
	       (unsigned long long)st.erase_count_max, (unsigned long long)st.bad_blocks_grown,
	       (unsigned long long)st.flash_program_failures,
	       (unsigned long long)st.flash_erase_failures,
	       (unsigned long long)st.bad_blocks_grown,
	       ftl->region[SSD_REGION_MAIN].nr_blocks,
	       (unsigned long long)st.retire_relocated_pages,
	       (unsigned long long)st.spare_blocks_initial);
	/* A worn device saved and loaded stays read-only, with its data. */
	{
		struct ssd_device *copy = snap_copy(dev);

		EXPECT(ssd_device_read_only(copy), "the copy is writable");
		expect_same_stats(dev, copy, "worn copy");
		verify_all(copy, ver, "worn copy");
		ssd_device_destroy(copy);
	}
	ssd_device_destroy(dev);
	free(ver);
}

/* The same trace with the keys unset, at 0, or failing never: the same counters. */
static void faults_off(void)
{
	const char *plain[] = { FW_GEOMETRY };
	const char *zero[] = { FW_GEOMETRY, "fault_seed=99", "bad_block_ppm=0",
			       "grown_bad_ppm=0" };
	const char *unreached[] = { FW_GEOMETRY, "grown_bad_ppm=1000", "fault_seed=5" };
	struct ssd_device *a = make_device(plain, ARRAY_SIZE(plain));
	struct ssd_device *b = make_device(zero, ARRAY_SIZE(zero));
	struct ssd_device *c = make_device(unreached, ARRAY_SIZE(unreached));
	u64 pages = ssd_device_capacity_bytes(a) / ssd_device_page_bytes(a);
	u32 *va = calloc(pages, 4), *vb = calloc(pages, 4), *vc = calloc(pages, 4);
	u64 ra = 9, rb = 9, rc = 9, ta = 0, tb = 0, tc = 0;

	EXPECT(random_writes(a, &ra, pages * 5, va, &ta) == 0, "a");
	EXPECT(random_writes(b, &rb, pages * 5, vb, &tb) == 0, "b");
	EXPECT(random_writes(c, &rc, pages * 5, vc, &tc) == 0, "c");
	expect_same_stats(a, b, "keys at 0");
	expect_same_stats(a, c, "limit never reached");
	ssd_device_destroy(a);
	ssd_device_destroy(b);
	ssd_device_destroy(c);
	free(va);
	free(vb);
	free(vc);
}

int test_faults_wear(int argc, char **argv)
{
	curve();
	refusals();
	factory_list();
	factory_rate();
	faults_off();
	wear_out("fault_seed=1");
	wear_out("fault_seed=2");
	wear_out("fault_seed=3");
	printf("faults_wear: ok\n");
	return 0;
}

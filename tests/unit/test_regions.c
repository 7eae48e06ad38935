// SPDX-License-Identifier: GPL-2.0
/*
 * test_regions.c - the FTL's SLC cache region, written through the layer
 * interface as a cache layer would: the logical capacity comes from the
 * TLC region; cache pages stripe over all chips into SLC-mode blocks that
 * hold pages_per_block / 3 pages and take the SLC latencies; one L2P, so a
 * write into either region invalidates the page wherever it was; cache GC
 * keeps pages in the cache; a full cache refuses with -ENOSPC and a device
 * without one with -EINVAL, leaving the buffer to the caller; the slc_
 * counters add up.
 */
#include "unit.h"

#define XFER		10240ULL	/* 4 KiB at 400 MB/s */
#define SLC_READ	25000ULL
#define SLC_PROG	200000ULL
#define SLC_ERASE	2000000ULL
#define TLC_ERASE	3000000ULL

/* 4 chips of 24 blocks of 12 pages; the first 6 blocks of each are SLC (4 pages). */
static const char *const region_settings[] = {
	"pages_per_block=12", "blocks_per_chip=24", "chips=4", "channels=2",
	"op_percent=20", "slc_blocks_per_chip=6", "channel_mb_per_s=400",
	"slc_read_ns=25000", "slc_program_ns=200000", "slc_erase_ns=2000000",
	"erase_ns=3000000", "read_unwritten_flash=0",
};

static int layer_write(struct ssd_device *dev, u64 lpn, enum ssd_region region, u8 fill,
		       u64 start_ns, u64 *done_ns)
{
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST,
			     .region = region };
	void *buf = ssd_pagepool_get(&dev->pool);
	int ret;

	EXPECT(buf, "no buffer");
	memset(buf, fill, dev->page_bytes);
	ret = unit_bottom(dev)->ops->write(unit_bottom(dev), lpn, buf, &io);
	if (ret == -EINVAL || ret == -ENOSPC)
		ssd_pagepool_put(&dev->pool, buf);	/* refused: still ours */
	if (done_ns)
		*done_ns = io.done_ns;
	return ret;
}

static void expect_reads(struct ssd_device *dev, u64 lpn, u8 fill)
{
	struct ssd_io io = { .start_ns = 0, .cause = SSD_CAUSE_HOST };
	const void *data;
	const u8 *bytes;

	EXPECT(unit_bottom(dev)->ops->read(unit_bottom(dev), lpn, &io, &data) == 0, "read");
	bytes = data;
	EXPECT(bytes && bytes[0] == fill && bytes[dev->page_bytes - 1] == fill,
	       "lpn %llu reads %d, not %u", (unsigned long long)lpn, bytes ? bytes[0] : -1, fill);
}

static enum ssd_region region_of_lpn(struct ftl *ftl, u64 lpn)
{
	return ftl->blocks[ftl->l2p[lpn] / ftl->pages_per_block].region;
}

static void test_layout_and_timing(void)
{
	struct ssd_device *dev = make_device(region_settings, ARRAY_SIZE(region_settings));
	struct ftl *ftl = unit_ftl(dev);
	struct ftl_region *cache = &ftl->region[SSD_REGION_CACHE];
	struct ssd_io io = { .cause = SSD_CAUSE_HOST };
	struct ssd_stats st;
	const void *data;
	u64 lpn, done;
	u32 block, i;

	/* 72 TLC blocks of 12 pages, less 20%: the SLC blocks add nothing. */
	EXPECT(dev->capacity_bytes == (72 * 12 * 80 / 100) * 4096ULL, "capacity %llu",
	       (unsigned long long)dev->capacity_bytes);
	EXPECT(cache->nr_blocks == 24 && cache->pages_per_block == 4 &&
	       ftl->region[SSD_REGION_MAIN].nr_blocks == 72, "regions %u/%u blocks",
	       cache->nr_blocks, ftl->region[SSD_REGION_MAIN].nr_blocks);
	for (block = 0; block < ftl->total_blocks; block++)
		EXPECT(flash_block_mode(&dev->flash, block) ==
		       (block % 24 < 6 ? FLASH_MODE_SLC : FLASH_MODE_TLC), "block %u mode", block);

	/* An idle chip programs an SLC page in transfer + slc_program_ns. */
	EXPECT(layer_write(dev, 0, SSD_REGION_CACHE, 1, 0, &done) == 0, "cache write");
	EXPECT(done == XFER + SLC_PROG, "SLC program ended at %llu", (unsigned long long)done);
	/* Pages stripe over all chips, into their SLC blocks. */
	for (lpn = 1; lpn < 16; lpn++)
		EXPECT(layer_write(dev, lpn, SSD_REGION_CACHE, (u8)(lpn + 1), 0, NULL) == 0,
		       "cache write %llu", (unsigned long long)lpn);
	for (lpn = 0; lpn < 16; lpn++) {
		u32 b = ftl->l2p[lpn] / ftl->pages_per_block;

		EXPECT(ftl_chip_of(ftl, b) == lpn % 4 && b % 24 < 6, "lpn %llu in block %u",
		       (unsigned long long)lpn, b);
		expect_reads(dev, lpn, (u8)(lpn + 1));
	}
	/* Four pages filled each chip's SLC block; its other 8 pages stay erased. */
	for (lpn = 0; lpn < 4; lpn++) {
		u32 b = ftl->l2p[lpn] / ftl->pages_per_block;

		EXPECT(ftl->blocks[b].state == FTL_BLOCK_FULL && ftl->blocks[b].write_ptr == 4,
		       "block %u state %u write_ptr %u", b, ftl->blocks[b].state,
		       ftl->blocks[b].write_ptr);
		for (i = 4; i < 12; i++)
			EXPECT(!flash_page_holds(&dev->flash, b * 12 + i), "page %u of SLC block %u", i, b);
	}
	/* A read of an SLC page, long after: slc_read_ns, then the channel. */
	io.start_ns = 1000000000ULL;
	EXPECT(unit_bottom(dev)->ops->read(unit_bottom(dev), 5, &io, &data) == 0 && data,
	       "read");
	EXPECT(io.done_ns == io.start_ns + SLC_READ + XFER, "SLC read ended at %llu",
	       (unsigned long long)io.done_ns);

	/* One L2P: a main write of a cached page invalidates the SLC copy, and back. */
	EXPECT(layer_write(dev, 0, SSD_REGION_MAIN, 0x40, 0, NULL) == 0, "main write");
	EXPECT(region_of_lpn(ftl, 0) == SSD_REGION_MAIN && cache->valid_pages == 15,
	       "lpn 0 in region %u, %llu cached", region_of_lpn(ftl, 0),
	       (unsigned long long)cache->valid_pages);
	EXPECT(layer_write(dev, 0, SSD_REGION_CACHE, 0x41, 0, NULL) == 0, "cache write");
	EXPECT(layer_write(dev, 1, SSD_REGION_CACHE, 0x42, 0, NULL) == 0, "cache rewrite");
	EXPECT(region_of_lpn(ftl, 0) == SSD_REGION_CACHE && cache->valid_pages == 16 &&
	       ftl->region[SSD_REGION_MAIN].valid_pages == 0, "valid %llu/%llu",
	       (unsigned long long)cache->valid_pages,
	       (unsigned long long)ftl->region[SSD_REGION_MAIN].valid_pages);
	expect_reads(dev, 0, 0x41);
	expect_reads(dev, 1, 0x42);
	EXPECT(ssd_ftl_check(ftl) == 0, "check");

	ssd_device_get_stats(dev, &st);
	EXPECT(st.physical_capacity_bytes == (72 * 12 + 24 * 4) * 4096ULL, "physical %llu",
	       (unsigned long long)st.physical_capacity_bytes);
	EXPECT(st.flash_program_slc_pages == 18 && st.flash_program_pages == 19 &&
	       st.flash_read_slc_pages == 1 + 16 + 2 && st.slc_valid_pages == 16 &&
	       st.valid_pages == 16 && st.slc_free_blocks == 24 - 4 - 2 &&
	       st.free_blocks == st.slc_free_blocks + 72 - 1,
	       "slc programs %llu/%llu reads %llu valid %llu free %llu/%llu",
	       (unsigned long long)st.flash_program_slc_pages,
	       (unsigned long long)st.flash_program_pages,
	       (unsigned long long)st.flash_read_slc_pages,
	       (unsigned long long)st.slc_valid_pages,
	       (unsigned long long)st.slc_free_blocks, (unsigned long long)st.free_blocks);

	/* Erases take the block's own latency: free blocks of chip 3, long after. */
	EXPECT(ssd_flash_erase(&dev->flash, 3 * 24 + 3, 2000000000ULL) == 2000000000ULL + SLC_ERASE,
	       "SLC erase time");
	EXPECT(ssd_flash_erase(&dev->flash, 3 * 24 + 20, 0) == 2000000000ULL + SLC_ERASE + TLC_ERASE,
	       "TLC erase time");
	EXPECT(dev->flash.slc_erase_blocks == 1 && dev->flash.erase_blocks == 2, "erases");
	ssd_device_destroy(dev);
}

/*
 * Fill the cache with distinct pages until it refuses: it takes exactly
 * its valid_max, cache GC runs on the way and keeps every cached page in
 * the cache, and a rewrite of a cached page is still taken.
 */
static void test_full_cache(void)
{
	struct ssd_device *dev = make_device(region_settings, ARRAY_SIZE(region_settings));
	struct ftl *ftl = unit_ftl(dev);
	struct ftl_region *cache = &ftl->region[SSD_REGION_CACHE];
	struct ssd_stats st;
	u64 lpn, round, taken = 0;

	/* Rewrites of a small set make the cache GC, then new pages fill it. */
	for (round = 0; round < 40; round++)
		for (lpn = 0; lpn < 8; lpn++)
			EXPECT(layer_write(dev, lpn, SSD_REGION_CACHE, (u8)round, 0, NULL) == 0,
			       "rewrite");
	EXPECT(ftl->counters.gc_victim_blocks > 0, "cache GC never ran");
	for (lpn = 8; lpn < 200; lpn++) {
		int ret = layer_write(dev, lpn, SSD_REGION_CACHE, (u8)lpn, 0, NULL);

		if (ret == -ENOSPC)
			break;
		EXPECT(ret == 0, "cache write %llu: %d", (unsigned long long)lpn, ret);
		taken++;
	}
	EXPECT(cache->valid_pages == cache->valid_max && taken + 8 == cache->valid_max,
	       "cache took %llu pages, valid %llu of %llu", (unsigned long long)taken + 8,
	       (unsigned long long)cache->valid_pages, (unsigned long long)cache->valid_max);
	EXPECT(cache->valid_max == (24 + 1 - 6 - 8) * 4 - 1, "valid_max %llu",
	       (unsigned long long)cache->valid_max);
	EXPECT(layer_write(dev, 3, SSD_REGION_CACHE, 0x77, 0, NULL) == 0, "rewrite when full");
	for (lpn = 0; lpn < taken + 8; lpn++) {
		EXPECT(region_of_lpn(ftl, lpn) == SSD_REGION_CACHE, "lpn %llu left the cache",
		       (unsigned long long)lpn);
		expect_reads(dev, lpn, lpn == 3 ? 0x77 : lpn < 8 ? 39 : (u8)lpn);
	}
	EXPECT(ftl->region[SSD_REGION_MAIN].valid_pages == 0 &&
	       ftl->region[SSD_REGION_MAIN].nr_free == 72, "main region touched");
	EXPECT(ssd_ftl_check(ftl) == 0, "check");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_erase_slc_blocks == st.flash_erase_blocks &&
	       st.slc_erase_count_total == st.flash_erase_slc_blocks &&
	       st.slc_erase_count_max == st.erase_count_max && st.slc_erase_count_max > 0 &&
	       st.flash_program_slc_pages == st.flash_program_pages,
	       "slc erases %llu of %llu, programs %llu of %llu",
	       (unsigned long long)st.flash_erase_slc_blocks,
	       (unsigned long long)st.flash_erase_blocks,
	       (unsigned long long)st.flash_program_slc_pages,
	       (unsigned long long)st.flash_program_pages);
	ssd_device_destroy(dev);
}

static void test_no_cache(void)
{
	static const char *const settings[] = {
		"pages_per_block=12", "blocks_per_chip=24", "chips=4", "channels=2",
		"op_percent=20",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ssd_stats st;

	EXPECT(layer_write(dev, 0, SSD_REGION_CACHE, 1, 0, NULL) == -EINVAL,
	       "a cache write without a cache region");
	EXPECT(layer_write(dev, 0, SSD_REGION_MAIN, 1, 0, NULL) == 0, "main write");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.flash_program_pages == 1 && st.flash_program_slc_pages == 0 &&
	       st.slc_free_blocks == 0 && st.physical_capacity_bytes == 96 * 12 * 4096ULL,
	       "stats without a cache");
	ssd_device_destroy(dev);
}

/* The cache must leave GC room in both regions. */
static void test_validation(void)
{
	static const char *const base[] = {
		"pages_per_block=12", "blocks_per_chip=24", "chips=4", "channels=2",
		"op_percent=20",
	};
	static const char *const bad[] = {
		"slc_blocks_per_chip=24",	/* no TLC block left */
		"slc_blocks_per_chip=3",	/* 12 blocks: below low + 2 * chips */
		"slc_blocks_per_chip=10",	/* the TLC region too small for the data */
	};
	struct ssd_config cfg;
	u32 i;

	ssd_log_quiet = 1;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		make_config(&cfg, base, ARRAY_SIZE(base));
		EXPECT(ssd_config_set(&cfg, "slc_blocks_per_chip", strchr(bad[i], '=') + 1) == 0,
		       "set");
		EXPECT(ssd_device_validate_config(&cfg) == -EINVAL, "%s accepted", bad[i]);
	}
	make_config(&cfg, base, ARRAY_SIZE(base));
	EXPECT(ssd_config_set(&cfg, "slc_blocks_per_chip", "4") == 0 &&
	       ssd_device_validate_config(&cfg) == 0, "slc_blocks_per_chip=4 refused");
	ssd_log_quiet = 0;
}

int test_regions(int argc, char **argv)
{
	test_layout_and_timing();
	test_full_cache();
	test_no_cache();
	test_validation();
	printf("regions: layout, SLC timing, one L2P, cache GC, full cache, validation ok\n");
	return 0;
}

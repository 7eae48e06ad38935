// SPDX-License-Identifier: GPL-2.0
/*
 * test_alloc.c - directed tests of block allocation and victim selection:
 * free blocks come out least-erased first, greedy picks the block with the
 * fewest valid pages, cost-benefit prefers an old block over a young one
 * with fewer valid pages, and pages stripe across chips.
 */
#include "unit.h"

static void test_wear_order(void)
{
	static const char *const settings[] = {
		"pages_per_block=4", "blocks_per_chip=16", "chips=1", "channels=1",
		"op_percent=50",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	static const u32 erases[16] = { 9, 3, 7, 1, 8, 2, 6, 0, 5, 4, 12, 11, 10, 15, 14, 13 };
	u32 block, prev = 0, i;

	/* Take every free block out, give each an erase count, put them back. */
	for (i = 0; i < 16; i++)
		EXPECT(ftl_free_pop(ftl, 0) != FTL_NONE, "pop %u", i);
	for (block = 0; block < 16; block++) {
		ftl->blocks[block].erase_count = erases[block];
		ftl_free_push(ftl, block);
	}
	for (i = 0; i < 16; i++) {
		block = ftl_free_pop(ftl, 0);
		EXPECT(i == 0 || ftl->blocks[block].erase_count >= prev,
		       "block %u with %u erases after one with %u", block,
		       ftl->blocks[block].erase_count, prev);
		prev = ftl->blocks[block].erase_count;
		ftl_free_push(ftl, block);
		ftl->blocks[block].erase_count += 100;	/* sift it to the back */
		ftl_free_pop(ftl, 0);
		ftl_free_push(ftl, block);
	}
	EXPECT(ftl_free_pop(ftl, 0) != FTL_NONE, "heap lost blocks");
	ssd_device_destroy(dev);
}

static void write_lpn(struct ssd_device *dev, u64 lpn, u8 fill)
{
	u8 page[4096];

	memset(page, fill, sizeof(page));
	EXPECT(submit(dev, SSD_OP_WRITE, lpn * 4096, 4096, page) == 0, "write");
}

/*
 * With one chip, blocks fill in order 0, 1, 2, ... (equal erase counts,
 * lowest number first), four pages each.  Build: block 0 old with 2 of 4
 * pages valid, blocks 1..15 full and valid (they age block 0), block 16
 * young with 1 of 4 valid.  Greedy takes block 16; cost-benefit scores
 * block 0 at age 70 * 2/4 = 35 and block 16 at age 6 * 3/2 = 9: block 0.
 */
static u32 victim_after_aging(const char *policy)
{
	const char *settings[] = {
		"pages_per_block=4", "blocks_per_chip=128", "chips=1", "channels=1",
		"op_percent=50", policy,
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	u64 lpn;
	u32 victim;

	for (lpn = 0; lpn < 4; lpn++)
		write_lpn(dev, lpn, 1);
	for (lpn = 100; lpn < 160; lpn++)
		write_lpn(dev, lpn, 2);
	for (lpn = 4; lpn < 8; lpn++)
		write_lpn(dev, lpn, 3);
	write_lpn(dev, 0, 4);
	write_lpn(dev, 1, 4);
	for (lpn = 4; lpn < 7; lpn++)
		write_lpn(dev, lpn, 5);
	EXPECT(ftl->blocks[0].valid_pages == 2 && ftl->blocks[16].valid_pages == 1,
	       "setup: valid %u/%u", ftl->blocks[0].valid_pages,
	       ftl->blocks[16].valid_pages);
	EXPECT(ftl->counters.gc_victim_blocks == 0, "GC ran during setup");
	victim = ftl->gc_policy->select_victim(ftl);
	ssd_device_destroy(dev);
	return victim;
}

static void test_victims(void)
{
	u32 victim = victim_after_aging("gc_policy=greedy");

	EXPECT(victim == 16, "greedy chose block %u", victim);
	victim = victim_after_aging("gc_policy=cost_benefit");
	EXPECT(victim == 0, "cost-benefit chose block %u", victim);
}

static void test_striping(void)
{
	static const char *const settings[] = {
		"pages_per_block=8", "blocks_per_chip=16", "chips=4", "channels=2",
		"op_percent=30",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	u64 lpn;

	for (lpn = 0; lpn < 8; lpn++) {
		write_lpn(dev, lpn, 1);
		EXPECT(unit_ftl(dev)->l2p[lpn] / (8 * 16) == lpn % 4,
		       "lpn %llu landed on chip %u", (unsigned long long)lpn,
		       unit_ftl(dev)->l2p[lpn] / (8 * 16));
	}
	ssd_device_destroy(dev);
}

/* A chip busy (here with an erase) is skipped while another is idle. */
static void test_busy_chip_skipped(void)
{
	static const char *const settings[] = {
		"pages_per_block=8", "blocks_per_chip=16", "chips=4", "channels=2",
		"op_percent=30",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));

	timing_erase(&dev->timing, 0, FLASH_MODE_TLC, 0);
	timing_erase(&dev->timing, 1, FLASH_MODE_TLC, 0);
	write_lpn(dev, 0, 1);
	EXPECT(unit_ftl(dev)->l2p[0] / (8 * 16) == 2, "lpn 0 landed on chip %u, not 2",
	       unit_ftl(dev)->l2p[0] / (8 * 16));
	write_lpn(dev, 1, 1);
	EXPECT(unit_ftl(dev)->l2p[1] / (8 * 16) == 3, "lpn 1 landed on chip %u, not 3",
	       unit_ftl(dev)->l2p[1] / (8 * 16));
	ssd_device_destroy(dev);
}

int test_alloc(int argc, char **argv)
{
	test_wear_order();
	test_victims();
	test_striping();
	test_busy_chip_skipped();
	printf("alloc: wear order, victims, striping, busy chips ok\n");
	return 0;
}

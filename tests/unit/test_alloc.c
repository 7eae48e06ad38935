// SPDX-License-Identifier: GPL-2.0
/*
 * test_alloc.c - directed tests of block allocation and victim selection:
 * free blocks come out least-erased first, greedy picks the block with the
 * fewest valid pages, cost-benefit prefers an old block over a young one
 * with fewer valid pages and looks at a bounded, rotating window of
 * blocks, and host pages stripe round robin across chips whatever their
 * timing, skipping a chip without a free block.
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
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	static const u32 erases[16] = { 9, 3, 7, 1, 8, 2, 6, 0, 5, 4, 12, 11, 10, 15, 14, 13 };
	u32 block, prev = 0, i;

	/* Take every free block out, give each an erase count, put them back. */
	for (i = 0; i < 16; i++)
		EXPECT(ssd_ftl_free_pop(ftl, rg, 0) != FTL_NONE, "pop %u", i);
	for (block = 0; block < 16; block++) {
		ftl->blocks[block].erase_count = erases[block];
		ssd_ftl_free_push(ftl, block);
	}
	for (i = 0; i < 16; i++) {
		block = ssd_ftl_free_pop(ftl, rg, 0);
		EXPECT(i == 0 || ftl->blocks[block].erase_count >= prev,
		       "block %u with %u erases after one with %u", block,
		       ftl->blocks[block].erase_count, prev);
		prev = ftl->blocks[block].erase_count;
		ssd_ftl_free_push(ftl, block);
		ftl->blocks[block].erase_count += 100;	/* sift it to the back */
		ssd_ftl_free_pop(ftl, rg, 0);
		ssd_ftl_free_push(ftl, block);
	}
	EXPECT(ssd_ftl_free_pop(ftl, rg, 0) != FTL_NONE, "heap lost blocks");
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
	victim = ftl->gc_policy->select_victim(ftl, &ftl->region[SSD_REGION_MAIN]);
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

static u32 chip_of_lpn(struct ssd_device *dev, u64 lpn)
{
	struct ftl *ftl = unit_ftl(dev);

	return ftl_chip_of(ftl, ftl->l2p[lpn] / ftl->pages_per_block);
}

/*
 * Placement does not look at the clock: chips 0 and 1 busy with an erase
 * still get the first two pages.  A chip without a free block (chip 1,
 * emptied here) is skipped.
 */
static void test_round_robin(void)
{
	static const char *const settings[] = {
		"pages_per_block=8", "blocks_per_chip=16", "chips=4", "channels=2",
		"op_percent=30",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	static const u32 expected[] = { 2, 3, 0, 2, 3, 0 };
	u32 i;

	ssd_timing_erase(dev->flash.timing, 0, FLASH_MODE_TLC, 0);
	ssd_timing_erase(dev->flash.timing, 1, FLASH_MODE_TLC, 0);
	write_lpn(dev, 0, 1);
	write_lpn(dev, 1, 1);
	EXPECT(chip_of_lpn(dev, 0) == 0 && chip_of_lpn(dev, 1) == 1,
	       "busy chips were skipped: lpn 0 on chip %u, lpn 1 on chip %u",
	       chip_of_lpn(dev, 0), chip_of_lpn(dev, 1));
	/* Chip 1 keeps its open host block: take all its free ones, fill the open one. */
	while (ssd_ftl_free_pop(ftl, &ftl->region[SSD_REGION_MAIN], 1) != FTL_NONE)
		;
	for (i = 2; i < 2 + 4 * 7; i++)
		write_lpn(dev, i, 1);
	EXPECT(ftl->region[SSD_REGION_MAIN].chip[1].host_block == FTL_NONE,
	       "chip 1's host block is still open");
	for (i = 0; i < ARRAY_SIZE(expected); i++) {
		write_lpn(dev, 100 + i, 2);
		EXPECT(chip_of_lpn(dev, 100 + i) == expected[i], "page %u on chip %u, not %u",
		       i, chip_of_lpn(dev, 100 + i), expected[i]);
	}
	ssd_device_destroy(dev);
}

/*
 * Cost-benefit looks at FTL_CB_WINDOW_BLOCKS blocks per victim.  One chip,
 * 300 blocks of 4 pages filled in order: block 120 loses one page, block
 * 130 three.  Over all blocks, 130 scores best (age 321 * 3/2 against
 * 361 * 1/6); the first window [0, 128) holds only 120, the next one
 * [128, 256) holds 130.
 */
static void test_cost_benefit_window(void)
{
	static const char *const settings[] = {
		"pages_per_block=4", "blocks_per_chip=300", "chips=1", "channels=1",
		"op_percent=25", "gc_policy=cost_benefit",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 first, second;
	u64 lpn;

	EXPECT(FTL_CB_WINDOW_BLOCKS == 128, "window of %u blocks", FTL_CB_WINDOW_BLOCKS);
	for (lpn = 0; lpn < 840; lpn++)
		write_lpn(dev, lpn, 1);
	write_lpn(dev, 4 * 120, 2);
	for (lpn = 4 * 130; lpn < 4 * 130 + 3; lpn++)
		write_lpn(dev, lpn, 2);
	EXPECT(ftl->blocks[120].valid_pages == 3 && ftl->blocks[130].valid_pages == 1,
	       "setup: valid %u/%u", ftl->blocks[120].valid_pages,
	       ftl->blocks[130].valid_pages);
	EXPECT(ftl->counters.gc_victim_blocks == 0, "GC ran during setup");
	first = ftl->gc_policy->select_victim(ftl, rg);
	second = ftl->gc_policy->select_victim(ftl, rg);
	EXPECT(first == 120 && second == 130, "windows chose blocks %u, %u", first, second);
	EXPECT(rg->cb_cursor == 256, "cursor at %u", rg->cb_cursor);
	ssd_device_destroy(dev);
}

int test_alloc(int argc, char **argv)
{
	test_wear_order();
	test_victims();
	test_cost_benefit_window();
	test_striping();
	test_round_robin();
	printf("alloc: wear order, victims, cost-benefit window, striping, round robin ok\n");
	return 0;
}

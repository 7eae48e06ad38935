// SPDX-License-Identifier: GPL-2.0
/*
 * test_check.c - the linear ssd_ftl_check() still catches what the quadratic
 * one did: a full block missing from its bucket or listed in a loop, an
 * open block without a write point, two write points on one block, a
 * region's counters off; each broken by hand, caught, then repaired.
 */
#include "unit.h"

static void expect_broken(const struct ftl *ftl, const char *what)
{
	EXPECT(ssd_ftl_check(ftl) == -EUCLEAN, "%s not caught", what);
}

int test_check(int argc, char **argv)
{
	static const char *const settings[] = {
		"pages_per_block=8", "blocks_per_chip=16", "chips=4", "channels=2",
		"op_percent=30", "slc_blocks_per_chip=0",
	};
	struct ssd_device *dev = make_device(settings, ARRAY_SIZE(settings));
	struct ftl *ftl = unit_ftl(dev);
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 full = FTL_NONE, block, saved, chip;
	u64 rng = 7, i;
	u8 page[4096];

	/* Fill, then overwrite at random until GC has opened its write points. */
	memset(page, 1, sizeof(page));
	for (i = 0; i < dev->capacity_bytes / 4096; i++)
		EXPECT(submit(dev, SSD_OP_WRITE, i * 4096, 4096, page) == 0, "fill");
	for (i = 0; i < 2000; i++)
		EXPECT(submit(dev, SSD_OP_WRITE, rng_below(&rng, dev->capacity_bytes / 4096) * 4096,
			      4096, page) == 0, "overwrite");
	EXPECT(ftl->counters.gc_victim_blocks > 0, "GC never ran");
	EXPECT(ssd_ftl_check(ftl) == 0, "a sound FTL fails the check");
	for (block = 0; block < ftl->total_blocks && full == FTL_NONE; block++)
		if (ftl->blocks[block].state == FTL_BLOCK_FULL)
			full = block;
	for (chip = 0; chip < ftl->chips; chip++)
		if (rg->chip[chip].host_block != FTL_NONE && rg->chip[chip].gc_block != FTL_NONE)
			break;
	EXPECT(full != FTL_NONE && chip < ftl->chips, "no full block or no chip with two");

	ssd_log_quiet = 1;
	ssd_ftl_bucket_remove(ftl, full);
	expect_broken(ftl, "a full block out of its bucket");
	ssd_ftl_bucket_insert(ftl, full);

	saved = ftl->blocks[full].next;
	ftl->blocks[full].next = full;
	expect_broken(ftl, "a bucket loop");
	ftl->blocks[full].next = saved;

	saved = rg->chip[chip].host_block;
	rg->chip[chip].host_block = FTL_NONE;
	expect_broken(ftl, "an open block without a write point");
	rg->chip[chip].host_block = rg->chip[chip].gc_block;
	expect_broken(ftl, "two write points on one block");
	rg->chip[chip].host_block = saved;

	rg->valid_pages++;
	expect_broken(ftl, "a region's valid count off");
	rg->valid_pages--;
	rg->nr_free--;
	expect_broken(ftl, "a region's free count off");
	rg->nr_free++;
	ssd_log_quiet = 0;

	EXPECT(ssd_ftl_check(ftl) == 0, "repairs did not restore the FTL");
	ssd_device_destroy(dev);
	printf("check: buckets, write points and counters broken and caught ok\n");
	return 0;
}

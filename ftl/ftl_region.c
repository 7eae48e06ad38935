// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_region.c - the FTL's regions: which blocks of each chip form the SLC
 * cache region and the TLC main region, their cell mode on the flash,
 * their per-chip free heaps, write points and valid-count buckets, and how
 * much valid data each may hold with GC always able to find a victim.
 */
#include "ftl/ftl_internal.h"

/* The block of @rg at @index, counting the region's blocks chip by chip. */
u32 ssd_ftl_region_block(const struct ftl *ftl, const struct ftl_region *rg, u32 index)
{
	u32 chip = index / rg->blocks_per_chip;

	return chip * ftl->blocks_per_chip + rg->first_block + index % rg->blocks_per_chip;
}

static int region_init(struct ftl *ftl, struct ftl_region *rg, u32 first_block,
		       u32 blocks_per_chip, u32 pages_per_block, u32 low_free_blocks)
{
	u32 chip;

	rg->first_block = first_block;
	rg->blocks_per_chip = blocks_per_chip;
	rg->pages_per_block = pages_per_block;
	rg->nr_blocks = blocks_per_chip * ftl->chips;
	rg->low_free_blocks = low_free_blocks;
	rg->gc_victim = FTL_NONE;
	if (!blocks_per_chip)
		return 0;
	rg->valid_max = ssd_region_valid_max(rg->nr_blocks, low_free_blocks, ftl->chips,
					     pages_per_block);
	rg->chip = ssd_zalloc((u64)ftl->chips * sizeof(*rg->chip));
	rg->bucket_head = ssd_zalloc(((u64)pages_per_block + 1) * sizeof(u32));
	if (!rg->chip || !rg->bucket_head)
		return -ENOMEM;
	/* 0xff bytes make every head FTL_NONE. */
	memset(rg->bucket_head, 0xff, ((u64)pages_per_block + 1) * sizeof(u32));
	for (chip = 0; chip < ftl->chips; chip++) {
		rg->chip[chip].host_block = FTL_NONE;
		rg->chip[chip].gc_block = FTL_NONE;
		rg->chip[chip].free_heap = ssd_zalloc((u64)blocks_per_chip * sizeof(u32));
		if (!rg->chip[chip].free_heap)
			return -ENOMEM;
	}
	return 0;
}

int ssd_ftl_regions_init(struct ftl *ftl, const struct ftl_params *params)
{
	struct flash *fl = ftl->flash;
	u32 slc = params->slc_blocks_per_chip, block;
	int ret;

	ret = region_init(ftl, &ftl->region[SSD_REGION_CACHE], 0, slc,
			  flash_mode_pages(fl, FLASH_MODE_SLC), params->gc_low_free_blocks);
	if (!ret)
		ret = region_init(ftl, &ftl->region[SSD_REGION_MAIN], slc,
				  ftl->blocks_per_chip - slc,
				  flash_mode_pages(fl, FLASH_MODE_TLC),
				  params->gc_low_free_blocks);
	if (ret)
		return ret;
	for (block = 0; block < ftl->total_blocks; block++) {
		struct ftl_block *blk = &ftl->blocks[block];
		bool cache = block % ftl->blocks_per_chip < slc;

		blk->prev = FTL_NONE;
		blk->next = FTL_NONE;
		blk->region = cache ? SSD_REGION_CACHE : SSD_REGION_MAIN;
		ret = ssd_flash_set_block_mode(fl, block, cache ? FLASH_MODE_SLC : FLASH_MODE_TLC);
		if (ret)
			return ret;
		ssd_ftl_free_push(ftl, block);
	}
	return 0;
}

void ssd_ftl_regions_exit(struct ftl *ftl)
{
	u32 r, chip;

	for (r = 0; r < SSD_REGION_NR; r++) {
		struct ftl_region *rg = &ftl->region[r];

		if (rg->chip)
			for (chip = 0; chip < ftl->chips; chip++)
				ssd_free(rg->chip[chip].free_heap);
		ssd_free(rg->chip);
		ssd_free(rg->bucket_head);
		rg->chip = NULL;
		rg->bucket_head = NULL;
	}
}

u64 ssd_ftl_regions_metadata_bytes(const struct ftl *ftl)
{
	u64 bytes = 0;
	u32 r;

	for (r = 0; r < SSD_REGION_NR; r++) {
		const struct ftl_region *rg = &ftl->region[r];

		if (!rg->nr_blocks)
			continue;
		bytes += (u64)ftl->chips * sizeof(*rg->chip) +
			 (u64)rg->nr_blocks * sizeof(u32) +
			 ((u64)rg->pages_per_block + 1) * sizeof(u32);
	}
	return bytes;
}

void ssd_ftl_region_erase_stats(const struct ftl *ftl, enum ssd_region region,
			    u64 *max, u64 *total)
{
	const struct ftl_region *rg = &ftl->region[region];
	u32 i;

	*max = 0;
	*total = 0;
	for (i = 0; i < rg->nr_blocks; i++) {
		u64 erases = ftl->blocks[ssd_ftl_region_block(ftl, rg, i)].erase_count;

		*max = max_t(u64, *max, erases);
		*total += erases;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_config_sizes.c - sizes derived from a validated configuration that
 * more than one folder relies on: the physical and logical pages, GC's low
 * watermark, and how much valid data a region can hold (the FTL refuses
 * more; a write cache above sizes itself by it).
 */
#include "common/ssd_config.h"

u64 ssd_config_physical_pages(const struct ssd_config *cfg)
{
	return cfg->chips * cfg->blocks_per_chip * cfg->pages_per_block;
}

/* The TLC region alone holds the logical space: SLC blocks are a cache. */
u64 ssd_config_logical_pages(const struct ssd_config *cfg)
{
	u64 tlc_blocks_per_chip = cfg->blocks_per_chip > cfg->slc_blocks_per_chip ?
				  cfg->blocks_per_chip - cfg->slc_blocks_per_chip : 0;

	return div_u64(cfg->chips * tlc_blocks_per_chip * cfg->pages_per_block *
		       (100 - cfg->op_percent), 100);
}

u64 ssd_config_gc_low_free_blocks(const struct ssd_config *cfg)
{
	if (cfg->gc_low_free_blocks)
		return cfg->gc_low_free_blocks;
	return cfg->chips + SSD_GC_RESERVED_BLOCKS;
}

/*
 * GC picks a new victim only while a region has fewer than
 * @low_free_blocks free blocks, and only when it has no current victim:
 * then at least @blocks - @low_free_blocks + 1 blocks are not free, of
 * which at most 2 * @chips are open (a host and a GC block per chip) and
 * the rest are full.  If the valid pages are fewer than those full blocks
 * can hold, one of them has an invalid page: a victim.
 */
u64 ssd_region_valid_max(u64 blocks, u64 low_free_blocks, u64 chips, u64 pages_per_block)
{
	if (blocks + 1 <= low_free_blocks + 2 * chips)
		return 0;
	return (blocks + 1 - low_free_blocks - 2 * chips) * pages_per_block - 1;
}

/* SLC blocks hold a third of the pages. */
u64 ssd_config_cache_valid_max(const struct ssd_config *cfg)
{
	return ssd_region_valid_max(cfg->chips * cfg->slc_blocks_per_chip,
				    ssd_config_gc_low_free_blocks(cfg), cfg->chips,
				    cfg->pages_per_block / 3);
}

u32 ssd_config_content_bytes(const struct ssd_config *cfg)
{
	switch (cfg->data_store) {
	case SSD_DATA_DIGEST:
		return cfg->page_size_bytes / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES;
	case SSD_DATA_NONE:
		return 0;
	default:
		return cfg->page_size_bytes;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc.c - garbage collection of a region in bounded steps: the region's
 * current victim and the cursor of the next page to look at, where its
 * valid pages go, and its erase.
 *
 * A step (before a host page write, while the region has fewer free blocks
 * than its low watermark) moves at most gc_pages_per_write valid pages,
 * going on to the next victim when one is erased; 0 means whole victims
 * until the watermark is met.  A blocking run (the host write point needs
 * a block at the hard floor) moves as many pages as it takes.  A victim's
 * valid pages go to the GC write point of the victim's own chip (a
 * copyback-like move on one chip); when that chip has neither an open GC
 * block nor a free block, to another chip's open GC block, else to a new
 * one on the chip with the most free blocks, so collecting one victim opens
 * at most one block (see FTL_GC_RESERVED_BLOCKS).  GC's reads, programs and
 * erases take their time on the same chips and channels as host I/O,
 * starting when the host write that triggered them started.
 *
 * Background GC: before each command (the layer's idle op), each region
 * with fewer free blocks than gc_background_free_blocks runs one step of
 * at most gc_pages_per_write pages (8 if that is 0) on its victim, if the
 * victim's chip is idle when the command's flash operations may start.
 */
#include "ftl/ftl_internal.h"

/* The chip with the most free blocks of @rg (the first after @from on a tie). */
static u32 most_free_chip(const struct ftl *ftl, const struct ftl_region *rg, u32 from,
			  bool with_gc_block)
{
	u32 best = FTL_NONE, i, chip = from;

	for (i = 1; i <= ftl->chips; i++) {
		chip = ftl_next_chip(ftl, chip);

		if (with_gc_block && rg->chip[chip].gc_block == FTL_NONE)
			continue;
		if (best == FTL_NONE || rg->chip[chip].nr_free > rg->chip[best].nr_free)
			best = chip;
	}
	return best;
}

/* The chip whose GC write point takes the next valid page of a victim on @vchip. */
static u32 gc_dest_chip(const struct ftl *ftl, const struct ftl_region *rg, u32 vchip)
{
	u32 chip;

	if (rg->chip[vchip].gc_block != FTL_NONE || rg->chip[vchip].nr_free)
		return vchip;
	chip = most_free_chip(ftl, rg, vchip, true);
	return chip != FTL_NONE ? chip : most_free_chip(ftl, rg, vchip, false);
}

u32 ssd_ftl_gc_alloc_page(struct ftl *ftl, struct ftl_region *rg, u32 vchip)
{
	struct ftl_chip *c = &rg->chip[gc_dest_chip(ftl, rg, vchip)];
	u32 ppa;

	if (c->gc_block == FTL_NONE) {
		c->gc_block = ssd_ftl_free_pop(ftl, rg, c - rg->chip);
		if (c->gc_block == FTL_NONE)
			return FTL_NONE;
	}
	ppa = ssd_ftl_take_page(ftl, c->gc_block);
	if (ftl->blocks[c->gc_block].state == FTL_BLOCK_FULL)
		c->gc_block = FTL_NONE;
	return ppa;
}

void ssd_ftl_gc_set_victim(struct ftl *ftl, struct ftl_region *rg, u32 victim)
{
	ssd_ftl_bucket_remove(ftl, victim);
	ftl->blocks[victim].state = FTL_BLOCK_VICTIM;
	rg->gc_victim = victim;
	rg->gc_cursor = 0;
}

static int gc_open_victim(struct ftl *ftl, struct ftl_region *rg)
{
	u32 victim = ftl->gc_policy->select_victim(ftl, rg);

	if (victim == FTL_NONE) {
		/* ftl_config_validate() and the cache's valid_max make this unreachable. */
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: GC found no victim with %u free blocks", rg->nr_free);
		return -EIO;
	}
	ssd_ftl_gc_set_victim(ftl, rg, victim);
	return 0;
}

/* Move the valid page at @src of the victim to a GC block; *@done_ns when moved. */
static int gc_move(struct ftl *ftl, struct ftl_region *rg, u32 src, u64 start_ns,
		   u64 *done_ns)
{
	struct ftl_block *blk = &ftl->blocks[rg->gc_victim];
	u32 lpn = ftl->p2l[src];
	u32 dst = ssd_ftl_gc_alloc_page(ftl, rg, ftl_chip_of(ftl, rg->gc_victim));

	/* Retired blocks took the room GC counts on: end of life, data kept. */
	if (dst == FTL_NONE && ftl->faults.bad_grown) {
		if (!ftl_read_only(ftl))
			ssd_dev_err(ftl->flash->dev_name, "end of life: read-only (GC found no free block after %u retired)",
				    ftl->faults.bad_grown);
		ssd_flash_set_read_only(ftl->flash);
		return -EROFS;
	}
	if (dst == FTL_NONE) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: GC found no free block with %u free", rg->nr_free);
		return -EIO;
	}
	if (ftl_gc_copy_page(ftl, rg, blk, src, dst, start_ns, done_ns))
		return -EIO;
	ftl->counters.gc_relocated_pages++;
	ftl->gc_write_pages++;
	if (rg->gc_wl)
		ftl->wear.wl_static_pages++;
	if (ftl->scheme->map_gc_moved && rg == &ftl->region[SSD_REGION_MAIN])
		ftl->scheme->map_gc_moved(ftl, lpn);
	return 0;
}

static void gc_erase_victim(struct ftl *ftl, struct ftl_region *rg, u64 start_ns)
{
	ssd_ftl_erase_block(ftl, rg->gc_victim, start_ns);
	rg->gc_victim = FTL_NONE;
	rg->gc_wl = false;
	ftl->counters.gc_victim_blocks++;
	ssd_ftl_wear_after_erase(ftl, rg);
}

/*
 * While @rg has fewer than @target_free free blocks, move at most @budget
 * valid pages of its victims, from @start_ns on, erasing each victim once
 * it holds none; with @one_victim, stop when the current one is erased
 * (even if static wear levelling then chose the next).
 */
static int gc_run(struct ftl *ftl, struct ftl_region *rg, u32 budget, u32 target_free,
		  bool one_victim, u64 start_ns)
{
	u64 moved_ns = start_ns;
	bool worked = false;
	int ret = 0;

	while (!ret && rg->nr_free < target_free) {
		struct ftl_block *blk;
		u32 first;

		/* End of life (a retirement just now): no more GC. */
		if (ftl_read_only(ftl)) {
			ret = -EROFS;
			break;
		}
		if (rg->gc_victim == FTL_NONE) {
			if (!budget || one_victim)
				break;
			ret = gc_open_victim(ftl, rg);
			if (ret)
				break;
		}
		blk = &ftl->blocks[rg->gc_victim];
		first = rg->gc_victim * ftl->pages_per_block;
		while (blk->valid_pages && rg->gc_cursor < rg->pages_per_block) {
			u32 src = first + rg->gc_cursor;
			u64 copied_ns;

			if (ftl->p2l[src] == FTL_NONE) {
				rg->gc_cursor++;
				continue;
			}
			if (!budget)
				break;
			ret = gc_move(ftl, rg, src, start_ns, &copied_ns);
			if (ret)
				break;
			moved_ns = max_t(u64, moved_ns, copied_ns);
			rg->gc_cursor++;
			budget--;
			worked = true;
		}
		if (ret || blk->valid_pages)
			break;
		gc_erase_victim(ftl, rg, moved_ns);
		worked = true;
		if (one_victim)
			break;
	}
	if (worked) {
		ftl->gc_write_work = true;
		if (ftl->gc_step_hook)
			ftl->gc_step_hook(ftl);
	}
	return ret;
}

int ssd_ftl_gc_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns)
{
	u32 budget = ftl->gc_pages_per_write ? ftl->gc_pages_per_write : U32_MAX;

	if (rg->nr_free >= rg->low_free_blocks)
		return 0;
	return gc_run(ftl, rg, budget, rg->low_free_blocks, false, start_ns);
}

int ssd_ftl_gc_until_free(struct ftl *ftl, struct ftl_region *rg, u32 target_free,
		      u64 start_ns)
{
	ftl->counters.gc_blocking_runs++;
	return gc_run(ftl, rg, U32_MAX, target_free, false, start_ns);
}

/*
 * A step of at most gc_pages_per_write pages (a whole victim if 0) on
 * @rg's current victim alone, whatever the free blocks: static wear
 * levelling's migration of a cold block while GC has nothing to do.
 */
int ssd_ftl_gc_victim_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns)
{
	u32 budget = ftl->gc_pages_per_write ? ftl->gc_pages_per_write : U32_MAX;

	if (rg->gc_victim == FTL_NONE)
		return 0;
	return gc_run(ftl, rg, budget, U32_MAX, true, start_ns);
}

/*
 * Background GC on @rg: one step on its victim (chosen now if it has none;
 * none is no error here, where free blocks may be above the low watermark)
 * if the victim's chip is idle at @now_ns, the timing horizon, where its
 * operations start.  After the step the chip is busy past @now_ns, so a
 * command gets at most one step per region.
 */
static int gc_background_step(struct ftl *ftl, struct ftl_region *rg, u64 now_ns)
{
	u32 budget = ftl->gc_pages_per_write ? ftl->gc_pages_per_write : 8;
	u64 moved = ftl->counters.gc_relocated_pages;
	u32 write_pages = ftl->gc_write_pages;
	bool write_work = ftl->gc_write_work;
	int ret;

	if (rg->gc_victim == FTL_NONE) {
		u32 victim = ftl->gc_policy->select_victim(ftl, rg);

		if (victim == FTL_NONE)
			return 0;
		ssd_ftl_gc_set_victim(ftl, rg, victim);
	}
	if (ssd_flash_chip_free_ns(ftl->flash, ftl_chip_of(ftl, rg->gc_victim)) > now_ns)
		return 0;
	/* Not part of a host write: keep that write's per-write accounting. */
	ftl->gc_write_pages = 0;
	ftl->gc_write_work = false;
	ret = gc_run(ftl, rg, budget, ftl->gc_background_free_blocks, true, now_ns);
	if (ftl->gc_write_work)
		ftl->counters.gc_background_steps++;
	ftl->counters.gc_background_pages += ftl->counters.gc_relocated_pages - moved;
	ftl->gc_write_pages = write_pages;
	ftl->gc_write_work = write_work;
	return ret;
}

void ssd_ftl_gc_background(struct ftl *ftl, u64 now_ns)
{
	u32 i;

	if (ftl_read_only(ftl))
		return;
	for (i = 0; i < SSD_REGION_NR; i++) {
		struct ftl_region *rg = &ftl->region[i];

		/* A block-mapped main region has no page GC: its scheme merges. */
		if (i == SSD_REGION_MAIN && ftl_block_mapped(ftl))
			continue;
		if (rg->nr_blocks && rg->nr_free < ftl->gc_background_free_blocks &&
		    gc_background_step(ftl, rg, now_ns) && !ftl_read_only(ftl))
			ssd_dev_warn_once(ftl->flash->dev_name, "background GC failed in region %u", i);
	}
}

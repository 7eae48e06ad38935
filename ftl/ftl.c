// SPDX-License-Identifier: GPL-2.0
/*
 * ftl.c - the FTL's lifetime and its host-facing operations: write (with
 * the host write point striping pages across chips), read, TRIM, and the
 * erase-count and memory figures the statistics report.
 */
#include "ftl.h"

static void *alloc_filled(u64 count, size_t elem_bytes, u8 fill)
{
	void *ptr = ssd_zalloc(count * elem_bytes);

	if (ptr && fill)
		memset(ptr, fill, count * elem_bytes);
	return ptr;
}

int ftl_init(struct ftl *ftl, struct flash *flash, const struct ftl_params *params)
{
	const struct flash_geometry *geo = &flash->geo;
	u32 block, chip;

	memset(ftl, 0, sizeof(*ftl));
	ftl->flash = flash;
	ftl->gc_policy = params->gc_policy;
	ftl->logical_pages = params->logical_pages;
	ftl->gc_low_free_blocks = params->gc_low_free_blocks;
	ftl->pages_per_block = geo->pages_per_block;
	ftl->blocks_per_chip = geo->blocks_per_chip;
	ftl->chips = geo->chips;
	ftl->total_blocks = flash->total_blocks;
	ftl->gc_block = FTL_NONE;

	/* 0xff bytes make every entry FTL_NONE. */
	ftl->l2p = alloc_filled(ftl->logical_pages, sizeof(u32), 0xff);
	ftl->p2l = alloc_filled(flash->total_pages, sizeof(u32), 0xff);
	ftl->blocks = ssd_zalloc((u64)ftl->total_blocks * sizeof(*ftl->blocks));
	ftl->chip = ssd_zalloc((u64)ftl->chips * sizeof(*ftl->chip));
	ftl->bucket_head = alloc_filled(ftl->pages_per_block + 1, sizeof(u32), 0xff);
	if (!ftl->l2p || !ftl->p2l || !ftl->blocks || !ftl->chip || !ftl->bucket_head)
		goto nomem;
	for (chip = 0; chip < ftl->chips; chip++) {
		ftl->chip[chip].host_block = FTL_NONE;
		ftl->chip[chip].free_heap =
			ssd_zalloc((u64)ftl->blocks_per_chip * sizeof(u32));
		if (!ftl->chip[chip].free_heap)
			goto nomem;
	}
	for (block = 0; block < ftl->total_blocks; block++) {
		ftl->blocks[block].prev = FTL_NONE;
		ftl->blocks[block].next = FTL_NONE;
		ftl_free_push(ftl, block);
	}
	return 0;
nomem:
	ftl_exit(ftl);
	return -ENOMEM;
}

void ftl_exit(struct ftl *ftl)
{
	u32 chip;

	if (ftl->chip)
		for (chip = 0; chip < ftl->chips; chip++)
			ssd_free(ftl->chip[chip].free_heap);
	ssd_free(ftl->chip);
	ssd_free(ftl->bucket_head);
	ssd_free(ftl->blocks);
	ssd_free(ftl->p2l);
	ssd_free(ftl->l2p);
	ftl->chip = NULL;
	ftl->bucket_head = NULL;
	ftl->blocks = NULL;
	ftl->p2l = NULL;
	ftl->l2p = NULL;
}

/* @ppa's data is dead: drop it from the maps and its block's valid count. */
static void invalidate_page(struct ftl *ftl, u32 ppa)
{
	u32 block = ppa / ftl->pages_per_block;
	struct ftl_block *blk = &ftl->blocks[block];
	bool full = blk->state == FTL_BLOCK_FULL;

	ftl->p2l[ppa] = FTL_NONE;
	if (full)
		ftl_bucket_remove(ftl, block);
	blk->valid_pages--;
	if (full)
		ftl_bucket_insert(ftl, block);
	ftl->valid_pages--;
	flash_invalidate(ftl->flash, ppa);
}

/*
 * The chip that can program a host page soonest, among those that can take
 * one; ties go round robin from the cursor, so an idle device stripes
 * consecutive pages over all chips (and channels: chip c is on channel
 * c % channels).  A chip busy with GC is thus left alone while others are
 * free (dynamic allocation, as in MQSim).
 */
static u32 pick_host_chip(struct ftl *ftl, u64 now_ns)
{
	u64 best_ns = U64_MAX;
	u32 best = ftl->host_cursor, i;

	for (i = 0; i < ftl->chips; i++) {
		u32 chip = (ftl->host_cursor + i) % ftl->chips;
		u64 ready_ns;

		if (ftl->chip[chip].host_block == FTL_NONE && !ftl->chip[chip].nr_free)
			continue;
		ready_ns = max_t(u64, now_ns,
				 timing_chip_free_ns(ftl->flash->timing, chip));
		if (ready_ns < best_ns) {
			best_ns = ready_ns;
			best = chip;
		}
	}
	return best;
}

/*
 * The host write point: one open block per chip, each page on the chip
 * pick_host_chip() chooses.  Opening a block first lets foreground GC bring
 * free blocks back to the low watermark; if that leaves the chip without a
 * free block, the next chips are tried in turn.
 */
static u32 host_alloc_page(struct ftl *ftl, u64 now_ns)
{
	u32 tries;

	ftl->host_cursor = pick_host_chip(ftl, now_ns);

	for (tries = 0; tries < ftl->chips; tries++) {
		u32 chip = ftl->host_cursor;
		struct ftl_chip *c = &ftl->chip[chip];
		u32 ppa;

		ftl->host_cursor = (chip + 1) % ftl->chips;
		if (c->host_block == FTL_NONE) {
			if (ftl->nr_free_blocks < ftl->gc_low_free_blocks) {
				ftl->counters.gc_foreground_runs++;
				if (ftl_gc_until_free(ftl, ftl->gc_low_free_blocks, now_ns))
					break;
			}
			if (ftl->nr_free_blocks <= FTL_GC_RESERVED_BLOCKS)
				break;
			c->host_block = ftl_free_pop(ftl, chip);
			if (c->host_block == FTL_NONE)
				continue;	/* this chip is out of blocks: next one */
		}
		ppa = ftl_take_page(ftl, c->host_block);
		if (ftl->blocks[c->host_block].state == FTL_BLOCK_FULL)
			c->host_block = FTL_NONE;
		return ppa;
	}
	return FTL_NONE;
}

int ftl_write(struct ftl *ftl, u64 lpn, void *buf, u64 start_ns, u64 *done_ns)
{
	u32 ppa = host_alloc_page(ftl, start_ns);
	u32 old;

	*done_ns = start_ns;
	if (ppa == FTL_NONE) {
		/* ftl_config_validate() makes this unreachable. */
		ssd_warn_once("BUG: no free page for lpn %llu", (unsigned long long)lpn);
		flash_buffer_put(ftl->flash, buf);
		return -EIO;
	}
	/* Read the old mapping only now: GC may just have moved it. */
	old = ftl->l2p[lpn];
	if (old != FTL_NONE)
		invalidate_page(ftl, old);
	if (flash_program(ftl->flash, ppa, buf, FLASH_CAUSE_HOST, start_ns, done_ns))
		return -EIO;
	ftl->l2p[lpn] = ppa;
	ftl->p2l[ppa] = (u32)lpn;
	ftl->counters.host_write_pages++;
	return 0;
}

const void *ftl_read(struct ftl *ftl, u64 lpn, enum flash_cause cause,
		     u64 start_ns, u64 *done_ns)
{
	u32 ppa = ftl->l2p[lpn];

	*done_ns = start_ns;
	if (ppa == FTL_NONE)
		return NULL;
	return flash_read(ftl->flash, ppa, cause, start_ns, done_ns);
}

void ftl_trim(struct ftl *ftl, u64 lpn)
{
	u32 ppa = ftl->l2p[lpn];

	if (ppa == FTL_NONE)
		return;
	invalidate_page(ftl, ppa);
	ftl->l2p[lpn] = FTL_NONE;
	ftl->counters.host_trim_pages++;
}

void ftl_erase_stats(const struct ftl *ftl, u64 *min, u64 *max, u64 *total)
{
	u32 block;

	*min = U64_MAX;
	*max = 0;
	*total = 0;
	for (block = 0; block < ftl->total_blocks; block++) {
		u64 erases = ftl->blocks[block].erase_count;

		*min = min_t(u64, *min, erases);
		*max = max_t(u64, *max, erases);
		*total += erases;
	}
	if (!ftl->total_blocks)
		*min = 0;
}

u64 ftl_metadata_bytes(const struct ftl *ftl)
{
	return ftl->logical_pages * sizeof(u32) +
	       ftl->flash->total_pages * sizeof(u32) +
	       (u64)ftl->total_blocks * (sizeof(struct ftl_block) + sizeof(u32)) +
	       (u64)ftl->chips * sizeof(struct ftl_chip) +
	       (ftl->pages_per_block + 1) * sizeof(u32);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc.c - garbage collection: victim policies (greedy, cost-benefit),
 * relocation of valid pages through the GC write point, and erase.
 *
 * GC runs in the foreground, before a host write opens a new block while
 * free blocks are below the low watermark.  Relocated pages go to one GC
 * block at a time, opened on the victim's chip when it has a free block; it
 * may use the reserved blocks the host write point must leave alone.  GC's
 * reads, programs and erases take their time on the same chips and channels
 * as host I/O, starting when the host write that triggered it started.
 */
#include "ftl.h"

static u32 greedy_select(struct ftl *ftl)
{
	u32 valid;

	/* A block whose pages are all valid frees nothing: never a victim. */
	for (valid = 0; valid < ftl->pages_per_block; valid++)
		if (ftl->bucket_head[valid] != FTL_NONE)
			return ftl->bucket_head[valid];
	return FTL_NONE;
}

const struct ftl_gc_policy ftl_gc_greedy = {
	.name = "greedy",
	.select_victim = greedy_select,
};

/*
 * Cost-benefit (Rosenblum & Ousterhout): benefit/cost = age * (1 - u) / 2u,
 * with u the valid fraction and age the programs since the block was last
 * written.  Scans every full block: O(blocks) per victim.
 */
static u32 cost_benefit_select(struct ftl *ftl)
{
	u64 best_score = 0;
	u32 best = FTL_NONE;
	u32 block;

	for (block = 0; block < ftl->total_blocks; block++) {
		const struct ftl_block *blk = &ftl->blocks[block];
		u64 age, score;

		if (blk->state != FTL_BLOCK_FULL || blk->valid_pages == ftl->pages_per_block)
			continue;
		if (blk->valid_pages == 0)
			return block;
		age = ftl->program_seq - blk->last_program_seq + 1;
		/* Cap the age so the product stays far from 2^64. */
		if (age > (1ULL << 40))
			age = 1ULL << 40;
		score = div_u64(age * (ftl->pages_per_block - blk->valid_pages),
				2 * blk->valid_pages);
		if (best == FTL_NONE || score > best_score) {
			best = block;
			best_score = score;
		}
	}
	return best;
}

const struct ftl_gc_policy ftl_gc_cost_benefit = {
	.name = "cost_benefit",
	.select_victim = cost_benefit_select,
};

/* Open a block for the GC write point, on @preferred_chip if it can. */
u32 ftl_gc_open_block(struct ftl *ftl, u32 preferred_chip)
{
	u32 chip, best = preferred_chip;

	if (!ftl->chip[preferred_chip].nr_free) {
		for (chip = 0; chip < ftl->chips; chip++)
			if (ftl->chip[chip].nr_free > ftl->chip[best].nr_free)
				best = chip;
	}
	return ftl_free_pop(ftl, best);
}

static u32 gc_alloc_page(struct ftl *ftl, u32 victim_chip)
{
	u32 ppa;

	if (ftl->gc_block == FTL_NONE)
		ftl->gc_block = ftl_gc_open_block(ftl, victim_chip);
	ppa = ftl_take_page(ftl, ftl->gc_block);
	if (ftl->blocks[ftl->gc_block].state == FTL_BLOCK_FULL)
		ftl->gc_block = FTL_NONE;
	return ppa;
}

/* Move @victim's valid pages out from @start_ns on, then erase it. */
static int gc_collect(struct ftl *ftl, u32 victim, u64 start_ns)
{
	u64 moved_ns = start_ns;
	struct ftl_block *blk = &ftl->blocks[victim];
	u32 first = victim * ftl->pages_per_block;
	u32 chip = victim / ftl->blocks_per_chip;
	u32 i;

	ftl_bucket_remove(ftl, victim);
	/* Out of the buckets while its pages move; nothing else runs meanwhile. */
	blk->state = FTL_BLOCK_OPEN;
	for (i = 0; i < ftl->pages_per_block && blk->valid_pages; i++) {
		u32 src = first + i;
		u32 lpn = ftl->p2l[src];
		u64 copied_ns;
		u32 dst;

		if (lpn == FTL_NONE)
			continue;
		dst = gc_alloc_page(ftl, chip);
		if (flash_copy(ftl->flash, src, dst, FLASH_CAUSE_GC, start_ns, &copied_ns))
			return -EIO;
		moved_ns = max_t(u64, moved_ns, copied_ns);
		ftl->p2l[src] = FTL_NONE;
		ftl->p2l[dst] = lpn;
		ftl->l2p[lpn] = dst;
		blk->valid_pages--;
		ftl->valid_pages--;
		ftl->counters.gc_relocated_pages++;
	}
	flash_erase(ftl->flash, victim, moved_ns);
	blk->erase_count++;
	blk->write_ptr = 0;
	ftl_free_push(ftl, victim);
	ftl->counters.gc_victim_blocks++;
	return 0;
}

int ftl_gc_until_free(struct ftl *ftl, u32 target_free_blocks, u64 start_ns)
{
	while (ftl->nr_free_blocks < target_free_blocks) {
		u32 victim = ftl->gc_policy->select_victim(ftl);

		if (victim == FTL_NONE) {
			/* ftl_config_validate() makes this unreachable. */
			ssd_warn_once("BUG: GC found no victim with %u free blocks",
				      ftl->nr_free_blocks);
			return -EIO;
		}
		if (gc_collect(ftl, victim, start_ns))
			return -EIO;
	}
	return 0;
}

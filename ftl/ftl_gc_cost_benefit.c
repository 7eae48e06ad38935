// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc_cost_benefit.c - the cost-benefit GC victim policy over a bounded
 * window of blocks.  Deterministic.
 */
#include "ftl/ftl_internal.h"

/*
 * Cost-benefit (Rosenblum & Ousterhout): benefit/cost = age * (1 - u) / 2u,
 * with u the valid fraction and age the programs since the block was last
 * written.  A block with no valid page costs nothing to take and is taken
 * at once.  Otherwise the FTL_CB_WINDOW_BLOCKS blocks of the region from
 * its rotating cursor on are examined and the best of them wins (the first
 * one on a tie); the cursor moves past them, so the next victim is sought
 * among the next blocks.  O(FTL_CB_WINDOW_BLOCKS + pages_per_block) per
 * victim, whatever the device's size.  A window without a candidate falls
 * back to greedy.
 */
static u32 cost_benefit_select(struct ftl *ftl, struct ftl_region *rg)
{
	u32 window = min_t(u32, rg->nr_blocks, FTL_CB_WINDOW_BLOCKS);
	u32 best = FTL_NONE, i;
	u64 best_score = 0;

	if (rg->bucket_head[0] != FTL_NONE)
		return rg->bucket_head[0];
	for (i = 0; i < window; i++) {
		u32 block = ssd_ftl_region_block(ftl, rg, rg->cb_cursor);
		const struct ftl_block *blk = &ftl->blocks[block];
		u64 age, score;

		rg->cb_cursor = (rg->cb_cursor + 1) % rg->nr_blocks;
		if (blk->state != FTL_BLOCK_FULL || blk->valid_pages == rg->pages_per_block)
			continue;
		age = ftl->program_seq - blk->last_program_seq + 1;
		/* Cap the age so the product stays far from 2^64. */
		if (age > (1ULL << 40))
			age = 1ULL << 40;
		score = div_u64(age * (rg->pages_per_block - blk->valid_pages),
				2 * blk->valid_pages);
		if (best == FTL_NONE || score > best_score) {
			best = block;
			best_score = score;
		}
	}
	return best != FTL_NONE ? best : ssd_ftl_gc_greedy_select(ftl, rg);
}

const struct ftl_gc_policy ssd_ftl_gc_cost_benefit = {
	.name = "cost_benefit",
	.select_victim = cost_benefit_select,
};

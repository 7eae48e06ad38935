// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc_greedy.c - the greedy GC victim policy: the full block of the
 * region with the fewest valid pages, from the valid-count buckets.
 * Deterministic.
 */
#include "ftl/ftl_internal.h"

u32 ssd_ftl_gc_greedy_select(struct ftl *ftl, struct ftl_region *rg)
{
	u32 valid;

	/* A block whose pages are all valid frees nothing: never a victim. */
	for (valid = 0; valid < rg->pages_per_block; valid++)
		if (rg->bucket_head[valid] != FTL_NONE)
			return rg->bucket_head[valid];
	return FTL_NONE;
}

const struct ftl_gc_policy ssd_ftl_gc_greedy = {
	.name = "greedy",
	.select_victim = ssd_ftl_gc_greedy_select,
};

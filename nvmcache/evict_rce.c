// SPDX-License-Identifier: GPL-2.0
/*
 * evict_rce.c - RCE, referenced-count based eviction (Tan et al.'s CDAC),
 * with cache_rce=1 over a replacement policy that can requeue (LRU: CDAC-
 * LRU; ARC: CDAC-ARC).  The replacement policy names a victim; RCE looks
 * at its page's references (the dedup layer above reports them,
 * ssd_layer_ops.refcount): a page referenced once leaves; a shared page is
 * spared - requeued to the most recent end of its list, its references
 * noted - and leaves at its next turn only if its references fell by more
 * than half since (else it is spared again).  After as many turns as the
 * cache has pages without a victim, the replacement policy's choice leaves.
 * In the device a cache block is one page, so CDAC's BHI (hotness of the
 * 4 KiB parts of a larger block) has nothing to look at here; ssdsim's
 * host cache simulation has it.
 */
#include "nvmcache/nvmcache_internal.h"

u32 ssd_cache_rce_victim(struct nvmcache *c, u64 lpn, u32 victim)
{
	u32 turns;

	for (turns = 0; turns < c->dir.count; turns++) {
		u32 refs = cache_refs(c, c->dir.lpn[victim]);
		u32 spared = c->rce_spared[victim];

		if (refs <= 1 || (spared && 2 * refs < spared))
			return victim;
		c->rce_spared[victim] = (u16)min_t(u32, refs, U16_MAX);
		c->repl->requeue(c, victim);
		victim = cache_repl_victim(c, lpn);
	}
	return victim;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * evict_rce.c - CDAC (Tan et al.): RCE, referenced-count based eviction,
 * over a replacement policy that can requeue and for which CDAC is
 * defined (LRU: CDAC-LRU; ARC: CDAC-ARC), with BHI, bitmap-based hotness
 * identification, where the owner tells a key's block's hotness.
 *
 * The replacement policy names a victim; it is examined:
 *  - BHI: a key whose block is cold (too few of its parts were touched),
 *    or which is flagged (not accessed for long), leaves;
 *  - RCE: a key whose block only it references leaves; a shared one is
 *    spared - requeued to the most recent end of its list, its references
 *    noted - and leaves at its next turn only if its references fell by
 *    more than fall_percent since (else it is spared again).
 * and the replacement policy is asked again, until a key leaves.  After as
 * many turns as the cache holds keys (or, limit_queue, the victim's queue:
 * ARC's T1 or T2) without one, the replacement policy's choice leaves
 * (a forced drop).  With forget_on_hit a hit clears the key's note; with
 * rce_off (the host simulator's ablation) every victim BHI keeps leaves
 * too.
 *
 * The owner's references (cachealg_refs()) are the dedup layer's counts in
 * the device and the addresses pointing to a block in the host simulator.
 * In the device a cache block is one page, so BHI has nothing to look at
 * there; the host simulator's blocks have parts.  Memory: a note per
 * cached key of note_bytes.
 */
#include "cachealg/cachealg_internal.h"

u64 ssd_cachealg_rce_bytes(u64 total, const struct cache_rce_params *rce, u32 capacity)
{
	return rce ? ssd_tables_add(total, 1, capacity, rce->note_bytes) : total;
}

static u32 note_of(const struct cache_rce *rce, u32 slot)
{
	return cache_count_get(rce->note, rce->p.note_bytes, slot);
}

/* Whether the key of @victim leaves (else it was spared and noted). */
static bool leaves(struct cachealg *c, struct cache_rce *rce, u32 victim)
{
	u32 refs, noted;

	if (rce->p.bhi) {
		enum cache_bhi bhi = rce->p.bhi(rce->p.bhi_ctx, victim);

		if (bhi == CACHE_BHI_COLD) {
			rce->counters.bhi_cold_drops++;
			return true;
		}
		if (bhi == CACHE_BHI_STALE) {
			rce->counters.bhi_stale_drops++;
			return true;
		}
	}
	if (rce->p.rce_off)
		return true;
	refs = cachealg_refs(c, c->dir.lpn[victim]);
	noted = note_of(rce, victim);
	if (refs <= 1) {
		rce->counters.single_drops++;
		return true;
	}
	if (noted && (u64)refs * 100 < (u64)noted * (100 - rce->p.fall_percent)) {
		rce->counters.fall_drops++;
		return true;
	}
	cache_count_set(rce->note, rce->p.note_bytes, victim, refs);
	rce->counters.moves++;
	return false;
}

u32 ssd_cache_rce_victim(struct cachealg *c, u64 key, u32 victim)
{
	struct cache_rce *rce = c->rce;
	u32 turns, limit;

	if (victim == CACHE_NONE)
		return victim;
	limit = rce->p.limit_queue && c->repl->queue_count ?
		c->repl->queue_count(c, victim) : c->dir.count;
	for (turns = 0; turns < limit; turns++) {
		if (leaves(c, rce, victim))
			return victim;
		c->repl->requeue(c, victim);
		victim = ssd_cache_repl_victim(c, key);
		if (victim == CACHE_NONE)
			return victim;
	}
	rce->counters.forced_drops++;
	return victim;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * evict_rce.c - CDAC (Tan et al., cdac-slides.txt): RCE, referenced-count
 * based eviction, over a replacement policy that can requeue and for
 * which CDAC is defined (LRU: CDAC-LRU; ARC: CDAC-ARC), after BHI,
 * bitmap-based hotness identification, where the owner tells a key's
 * block's hotness.
 *
 * The replacement policy names a victim, the key at its LRU position,
 * which is examined as the slides combine the two (about line 322): BHI
 * first, then RCE on a cold key:
 *  - BHI: a key whose block is hot (enough of its parts were touched in
 *    its cycle) is kept; a cold or flagged one goes on to RCE (without
 *    BHI, every key does);
 *  - RCE: a key whose block only it references leaves; a shared one is
 *    spared, its references noted, and leaves at its next turn only if
 *    its references fell by more than fall_percent since the note.
 * A kept key is requeued to the most recent end of its list (a new cycle:
 * the owner's bhi_kept resets its block's bitmap) and the replacement
 * policy asked again, until a key leaves.  The scan is bounded: after as
 * many turns as the cache holds keys (or, limit_queue, the victim's
 * queue: ARC's T1 or T2) with every key kept, no key leaves (CACHE_NONE:
 * the owner does not cache the newcomer), or, forced_drop, the
 * replacement policy's choice leaves.
 *
 * Readings the slides leave open (docs/papers.md, CDAC), each a
 * parameter: hot_leaves, a hot key leaves instead of being kept;
 * remark, a spared key's note is renewed at each of its turns (else it
 * keeps the count of its first); forced_drop, above; cold_drops, the
 * order before issue 32 (a BHI-cold or flagged key leaves at once, RCE
 * judges the hot ones).  With forget_on_hit a hit clears the key's note;
 * with rce_off (the host simulator's ablation) a key BHI does not keep
 * leaves.
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

/* RCE on the key of @victim: whether it leaves (else it was spared). */
static bool rce_leaves(struct cachealg *c, struct cache_rce *rce, u32 victim)
{
	u32 refs = cachealg_refs(c, c->dir.lpn[victim]);
	u32 noted = note_of(rce, victim);

	if (refs <= 1) {
		rce->counters.single_drops++;
		return true;
	}
	if (noted && (u64)refs * 100 < (u64)noted * (100 - rce->p.fall_percent)) {
		rce->counters.fall_drops++;
		return true;
	}
	if (!noted || rce->p.remark)
		cache_count_set(rce->note, rce->p.note_bytes, victim, refs);
	rce->counters.moves++;
	return false;
}

/* The order before issue 32: BHI-cold and flagged keys leave at once. */
static bool cold_drop(struct cache_rce *rce, enum cache_bhi bhi)
{
	if (bhi == CACHE_BHI_COLD)
		rce->counters.bhi_cold_drops++;
	else if (bhi == CACHE_BHI_STALE)
		rce->counters.bhi_stale_drops++;
	return bhi != CACHE_BHI_HOT;
}

/* Whether the key of @victim leaves (else it is kept for another cycle). */
static bool leaves(struct cachealg *c, struct cache_rce *rce, u32 victim)
{
	enum cache_bhi bhi = rce->p.bhi ? rce->p.bhi(rce->p.bhi_ctx, victim) : CACHE_BHI_COLD;

	if (rce->p.cold_drops) {
		if (rce->p.bhi && cold_drop(rce, bhi))
			return true;
	} else if (bhi == CACHE_BHI_HOT) {
		if (rce->p.hot_leaves) {
			rce->counters.bhi_hot_drops++;
			return true;
		}
		rce->counters.bhi_hot_keeps++;
		return false;
	}
	if (rce->p.rce_off)
		return true;
	return rce_leaves(c, rce, victim);
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
		if (rce->p.bhi_kept)
			rce->p.bhi_kept(rce->p.bhi_ctx, victim);
		c->repl->requeue(c, victim);
		victim = ssd_cache_repl_victim(c, key);
		if (victim == CACHE_NONE)
			return victim;
	}
	if (rce->p.forced_drop) {
		rce->counters.forced_drops++;
		return victim;
	}
	rce->counters.no_victim++;
	return CACHE_NONE;
}

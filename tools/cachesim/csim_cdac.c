// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cdac.c - CDAC's rules at a metadata-cache tail (Tan et al.,
 * content-driven deduplication-aware cache), shared by CDAC-LRU and
 * CDAC-ARC.  The address at the tail is examined:
 *
 * BHI (bitmap hotness identification), first: its block is cold if fewer
 * than bhi_cold_percent of its 4 KiB parts were touched by accesses since
 * it entered the cache, and the address is flagged if it was not
 * accessed for bhi_stale_accesses accesses; either way it goes.
 *
 * RCE (referenced-count based eviction), then: an address whose block
 * only it references goes (that frees the block); one whose block is
 * shared moves to the head, marked with the block's count, and goes at
 * its next arrival at the tail if the count fell by more than
 * rce_drop_percent in that cycle (else it is marked again and moves
 * again).  An access to the address clears the mark.
 *
 * The caller (REPLACE, or the data cache's need for a free block) asks
 * again until an address goes.  So that a tail of shared, stable blocks
 * cannot cycle forever, after as many moves as the list holds the tail
 * goes anyway (counted as forced).
 */
#include "tools/cachesim/csim_dedup.h"

enum csim_verdict csim_cdac_verdict(struct csim_cache *c, struct csim_node *addr, uint64_t now)
{
	struct csim_dedup *dd = c->priv;
	struct csim_node *b = csim_at(&dd->data.pool, csim_pool_find(&dd->data.pool, addr->fp));
	uint64_t parts = c->parts_per_block;

	if (c->p.bhi) {
		if (csim_popcount(b->bits) * 100ULL < c->p.bhi_cold_percent * parts) {
			c->st.bhi_cold_drops++;
			return CSIM_DROP;
		}
		if (c->p.bhi_stale_accesses && now - addr->stamp > c->p.bhi_stale_accesses) {
			c->st.bhi_stale_drops++;
			return CSIM_DROP;
		}
	}
	if (!c->p.rce)
		return CSIM_DROP;
	if (b->count <= 1) {
		c->st.rce_single_drops++;
		return CSIM_DROP;
	}
	if ((addr->flags & CSIM_RCE_MARK) &&
	    b->count * 100ULL < addr->count * (100ULL - c->p.rce_drop_percent)) {
		c->st.rce_fall_drops++;
		return CSIM_DROP;
	}
	addr->flags |= CSIM_RCE_MARK;
	addr->count = b->count;
	c->st.rce_moves++;
	return CSIM_KEEP;
}

uint32_t csim_cdac_pick(struct csim_cache *c, struct csim_pool *pool, struct csim_list *l,
			uint8_t id, uint64_t now)
{
	uint64_t moves = 0, limit = l->count;

	for (;;) {
		uint32_t n = l->tail;

		while (n != CSIM_NONE && (csim_at(pool, n)->flags & CSIM_PINNED))
			n = csim_at(pool, n)->prev;
		if (n == CSIM_NONE)
			return CSIM_NONE;
		if (moves >= limit) {
			c->st.rce_forced_drops++;
			return n;
		}
		if (csim_cdac_verdict(c, csim_at(pool, n), now) == CSIM_DROP)
			return n;
		csim_list_move_head(pool, l, l, n, id);
		moves++;
	}
}

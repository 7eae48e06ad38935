// SPDX-License-Identifier: GPL-2.0
/*
 * repl_clock.c - CLOCK replacement: a hit sets the page's reference bit;
 * the hand sweeps from the oldest entry toward the newest, wrapping round,
 * clearing bits until it finds an unreferenced entry, which leaves.
 */
#include "nvmcache/nvmcache_internal.h"

static void clock_hit(struct cache_set *set, u32 slot)
{
	set->ref[slot] = 1;
}

/* The entry after @slot in the hand's direction (older to newer), wrapping. */
static u32 clock_advance(const struct cache_set *set, u32 slot)
{
	u32 next = slot == CACHE_NONE ? CACHE_NONE : set->prev[slot];

	return next == CACHE_NONE ? set->tail : next;
}

static u32 clock_victim(struct cache_set *set)
{
	u32 slot = set->hand == CACHE_NONE ? set->tail : set->hand;

	/* At most one full sweep clears every bit: the loop ends. */
	while (set->ref[slot]) {
		set->ref[slot] = 0;
		slot = clock_advance(set, slot);
	}
	set->hand = slot;
	return slot;
}

static void clock_remove(struct cache_set *set, u32 slot)
{
	if (set->hand == slot)
		set->hand = set->count > 1 ? clock_advance(set, slot) : CACHE_NONE;
}

const struct cache_repl_ops ssd_cache_repl_clock = {
	.name = "clock",
	.hit = clock_hit,
	.victim = clock_victim,
	.remove = clock_remove,
	.uses_ref_bits = true,
};

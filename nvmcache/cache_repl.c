// SPDX-License-Identifier: GPL-2.0
/*
 * cache_repl.c - the write cache's replacement policies over the
 * directory's order (struct cache_set: head = newest, tail = oldest):
 * LRU (the ProCache paper's: a hit moves to the head, the tail leaves),
 * FIFO (a hit changes nothing) and CLOCK (a hit sets a reference bit; the
 * hand sweeps from the oldest entry toward the newest, wrapping round,
 * clearing bits until it finds an unreferenced entry).
 */
#include "nvmcache.h"

static void repl_insert_nothing(struct cache_set *set, u32 slot)
{
}

static void repl_remove_nothing(struct cache_set *set, u32 slot)
{
}

static u32 repl_tail(struct cache_set *set)
{
	return set->tail;
}

static void lru_hit(struct cache_set *set, u32 slot)
{
	cache_set_move_head(set, slot);
}

const struct cache_repl_ops cache_repl_lru = {
	.name = "lru",
	.insert = repl_insert_nothing,
	.hit = lru_hit,
	.victim = repl_tail,
	.remove = repl_remove_nothing,
};

static void fifo_hit(struct cache_set *set, u32 slot)
{
}

const struct cache_repl_ops cache_repl_fifo = {
	.name = "fifo",
	.insert = repl_insert_nothing,
	.hit = fifo_hit,
	.victim = repl_tail,
	.remove = repl_remove_nothing,
};

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

const struct cache_repl_ops cache_repl_clock = {
	.name = "clock",
	.insert = repl_insert_nothing,
	.hit = clock_hit,
	.victim = clock_victim,
	.remove = clock_remove,
};

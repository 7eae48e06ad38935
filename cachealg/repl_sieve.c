// SPDX-License-Identifier: GPL-2.0
/*
 * repl_sieve.c - SIEVE replacement (Zhang et al., "SIEVE is Simpler than
 * LRU", NSDI'24), as libCacheSim's Sieve.c: one FIFO queue (the
 * directory's order, newest at the head) and a visited bit per page, set
 * by a hit.  The hand walks from the tail toward the head: a visited page
 * loses its bit and is passed over (it stays where it is), the first page
 * without one leaves, and the hand stays at the page after it (toward
 * the head) for the next eviction; past the head it starts again at the
 * tail.  A page that enters goes in at the head, unvisited.
 *
 * victim() moves the hand onto the page it chooses, clearing the bits it
 * passes, so asking again chooses the same page; remove() then leaves the
 * hand on the page's neighbour toward the head (libCacheSim does the same
 * for a key it is asked to remove, as a TRIM).  Memory: a byte per
 * cached key.
 */
#include "cachealg/cachealg_internal.h"

struct sieve_state {
	u8 *visited;		/* [capacity]: 1 if hit since the hand last passed */
	u32 hand;		/* the next page the hand looks at; CACHE_NONE: the tail */
};

static u64 sieve_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	return ssd_tables_add(total, 1, capacity, sizeof(u8));
}

static int sieve_init(struct cachealg *c)
{
	struct sieve_state *st = c->repl_state;

	st->hand = CACHE_NONE;
	st->visited = ssd_zalloc(c->dir.capacity);
	return st->visited ? 0 : -ENOMEM;
}

static void sieve_exit(struct cachealg *c)
{
	struct sieve_state *st = c->repl_state;

	ssd_free(st->visited);
	st->visited = NULL;
}

static void sieve_insert(struct cachealg *c, u32 slot)
{
	struct sieve_state *st = c->repl_state;

	st->visited[slot] = 0;
}

static void sieve_hit(struct cachealg *c, u32 slot)
{
	struct sieve_state *st = c->repl_state;

	st->visited[slot] = 1;
}

/* One sweep clears every bit: the loop ends. */
static u32 sieve_victim(struct cachealg *c, u64 key)
{
	struct sieve_state *st = c->repl_state;
	struct cache_set *dir = &c->dir;
	u32 slot = st->hand != CACHE_NONE ? st->hand : dir->tail;

	while (st->visited[slot]) {
		st->visited[slot] = 0;
		slot = dir->prev[slot] != CACHE_NONE ? dir->prev[slot] : dir->tail;
	}
	st->hand = slot;
	return slot;
}

static void sieve_remove(struct cachealg *c, u32 slot, bool evicted)
{
	struct sieve_state *st = c->repl_state;

	if (slot == st->hand)
		st->hand = c->dir.prev[slot];
}

static int sieve_check(struct cachealg *c)
{
	struct sieve_state *st = c->repl_state;
	u32 slot;

	if (st->hand != CACHE_NONE &&
	    (st->hand >= c->dir.capacity ||
	     ssd_cache_set_find(&c->dir, c->dir.lpn[st->hand]) != st->hand)) {
		ssd_dev_err(c->dev_name, "%s: SIEVE: the hand (slot %u) is on no cached page",
			    c->who, st->hand);
		return -EUCLEAN;
	}
	for (slot = c->dir.head; slot != CACHE_NONE; slot = c->dir.next[slot])
		if (st->visited[slot] > 1) {
			ssd_dev_err(c->dev_name, "%s: SIEVE: slot %u visited %u",
				    c->who, slot, st->visited[slot]);
			return -EUCLEAN;
		}
	return 0;
}

/* Snapshots: the visited bits and the hand. */
static void sieve_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct sieve_state *st = c->repl_state;

	ssd_snap_put_array(w, st->visited, c->dir.capacity, sizeof(u8));
	ssd_snap_put_u32(w, st->hand);
}

static void sieve_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct sieve_state *st = c->repl_state;
	u32 slot;

	ssd_snap_get_array(r, st->visited, c->dir.capacity, sizeof(u8));
	for (slot = 0; slot < c->dir.capacity && !r->error; slot++)
		if (st->visited[slot] > 1)
			ssd_snap_refuse(r, "%s SIEVE: slot %u visited %u", c->who, slot,
					st->visited[slot]);
	st->hand = ssd_snap_get_u32(r);
	if (!r->error && st->hand != CACHE_NONE && !cache_set_holds_slot(&c->dir, st->hand))
		ssd_snap_refuse(r, "%s SIEVE: the hand (slot %u) is on no cached page",
				c->who, st->hand);
}

const struct cache_repl_ops ssd_cache_repl_sieve = {
	.name = "sieve",
	.state_bytes = sizeof(struct sieve_state),
	.table_bytes = sieve_table_bytes,
	.init = sieve_init,
	.exit = sieve_exit,
	.insert = sieve_insert,
	.hit = sieve_hit,
	.victim = sieve_victim,
	.remove = sieve_remove,
	.check = sieve_check,
	.save = sieve_save,
	.load = sieve_load,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * repl_clock.c - CLOCK and GCLOCK replacement, as a FIFO with second
 * chances (libCacheSim's Clock): each cached key has a counter, 0 when it
 * enters, raised by a hit up to a maximum (1 for CLOCK, whose counter is
 * the reference bit; cache_gclock_max_priority for GCLOCK, the "inner
 * priority").  The hand is the tail of the directory's order: while the
 * key there has a counter above 0, the counter drops by one and the key
 * goes to the head (the hand passes it); the first key found at 0 leaves.
 * A key that enters goes in at the head, which is just behind the hand,
 * so the hand reaches it last, as in a textbook CLOCK ring.  requeue()
 * passes a key by without lowering its counter (PLC's hand moving past a
 * victim it spared).
 *
 * Memory: a counter per cached key, of one byte when the maximum fits
 * (the device's 1..255) and four otherwise (the host simulator's PLC
 * counts hits without bound).
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key cache_gclock_max_priority =
	SSD_CONFIG_KEY(cache_gclock_max_priority, 3, 1, 255, 0, NULL,
		       "GCLOCK: the most hits raise a cached page's inner priority to");

static const struct ssd_config_key *const gclock_keys[] = { &cache_gclock_max_priority, NULL };

struct clock_state {
	void *count;		/* [capacity]: the counter of each slot */
	u32 max;
	u8 bytes;		/* of a counter */
};

static u8 counter_bytes(u32 max)
{
	return max <= U8_MAX ? 1 : 4;
}

static u64 clock_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	return ssd_tables_add(total, 1, capacity, 1);
}

/* GCLOCK's maximum (the host simulator's PLC gives one beyond the key's range). */
static u32 gclock_max(const struct cache_params *p)
{
	return (u32)min_t(u64, cachealg_knob(p, &cache_gclock_max_priority), U32_MAX);
}

static u64 gclock_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	return ssd_tables_add(total, 1, capacity, counter_bytes(gclock_max(p)));
}

static int clock_start(struct cachealg *c, u32 max)
{
	struct clock_state *st = c->repl_state;

	st->max = max;
	st->bytes = counter_bytes(max);
	st->count = ssd_zalloc(c->dir.capacity ? (u64)c->dir.capacity * st->bytes : 1);
	return st->count ? 0 : -ENOMEM;
}

static int clock_init(struct cachealg *c)
{
	return clock_start(c, 1);
}

static int gclock_init(struct cachealg *c)
{
	return clock_start(c, gclock_max(&c->p));
}

static void clock_exit(struct cachealg *c)
{
	struct clock_state *st = c->repl_state;

	ssd_free(st->count);
	st->count = NULL;
}

static u32 count_of(const struct clock_state *st, u32 slot)
{
	return cache_count_get(st->count, st->bytes, slot);
}

static void clock_insert(struct cachealg *c, u32 slot)
{
	struct clock_state *st = c->repl_state;

	cache_count_set(st->count, st->bytes, slot, 0);
}

static void clock_hit(struct cachealg *c, u32 slot)
{
	struct clock_state *st = c->repl_state;
	u32 count = count_of(st, slot);

	if (count < st->max)
		cache_count_set(st->count, st->bytes, slot, count + 1);
}

/* At most max sweeps of the ring bring every counter to 0: the loop ends. */
static u32 clock_victim(struct cachealg *c, u64 key)
{
	struct clock_state *st = c->repl_state;
	struct cache_set *dir = &c->dir;
	u32 count;

	while ((count = count_of(st, dir->tail))) {
		cache_count_set(st->count, st->bytes, dir->tail, count - 1);
		ssd_cache_set_move_head(dir, dir->tail);
	}
	return dir->tail;
}

/* The counter of @slot set to @priority, at most the maximum. */
static void clock_prioritize(struct cachealg *c, u32 slot, u32 priority)
{
	struct clock_state *st = c->repl_state;

	cache_count_set(st->count, st->bytes, slot, min_t(u32, priority, st->max));
}

/* The hand passes @slot by: it goes behind the hand, its counter kept. */
static void clock_requeue(struct cachealg *c, u32 slot)
{
	ssd_cache_set_move_head(&c->dir, slot);
}

/* Snapshots: each slot's counter (the hand is the directory's tail). */
static void clock_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct clock_state *st = c->repl_state;

	ssd_snap_put_array(w, st->count, c->dir.capacity, st->bytes);
}

static void clock_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct clock_state *st = c->repl_state;
	u32 slot;

	ssd_snap_get_array(r, st->count, c->dir.capacity, st->bytes);
	for (slot = 0; slot < c->dir.capacity && !r->error; slot++)
		if (count_of(st, slot) > st->max)
			ssd_snap_refuse(r, "%s %s: slot %u has counter %u, at most %u", c->who,
					c->repl->name, slot, count_of(st, slot), st->max);
}

const struct cache_repl_ops ssd_cache_repl_clock = {
	.name = "clock",
	.state_bytes = sizeof(struct clock_state),
	.table_bytes = clock_table_bytes,
	.init = clock_init,
	.exit = clock_exit,
	.insert = clock_insert,
	.hit = clock_hit,
	.victim = clock_victim,
	.requeue = clock_requeue,
	.prioritize = clock_prioritize,
	.save = clock_save,
	.load = clock_load,
};

const struct cache_repl_ops ssd_cache_repl_gclock = {
	.name = "gclock",
	.keys = gclock_keys,
	.state_bytes = sizeof(struct clock_state),
	.table_bytes = gclock_table_bytes,
	.init = gclock_init,
	.exit = clock_exit,
	.insert = clock_insert,
	.hit = clock_hit,
	.victim = clock_victim,
	.requeue = clock_requeue,
	.prioritize = clock_prioritize,
	.save = clock_save,
	.load = clock_load,
};

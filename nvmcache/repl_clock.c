// SPDX-License-Identifier: GPL-2.0
/*
 * repl_clock.c - CLOCK and GCLOCK replacement, as a FIFO with second
 * chances (libCacheSim's Clock): each cached page has a counter, 0 when it
 * enters, raised by a hit up to a maximum (1 for CLOCK, whose counter is
 * the reference bit; cache_gclock_max_priority for GCLOCK, the "inner
 * priority").  The hand is the tail of the directory's order: while the
 * page there has a counter above 0, the counter drops by one and the page
 * goes to the head (the hand passes it); the first page found at 0 leaves.
 * A page that enters goes in at the head, which is just behind the hand,
 * so the hand reaches it last, as in a textbook CLOCK ring.
 */
#include "nvmcache/nvmcache_internal.h"

static const struct ssd_config_key cache_gclock_max_priority =
	SSD_CONFIG_KEY(cache_gclock_max_priority, 3, 1, 255, 0, NULL,
		       "GCLOCK: the most hits raise a cached page's inner priority to");

static const struct ssd_config_key *const gclock_keys[] = { &cache_gclock_max_priority, NULL };

struct clock_state {
	u8 *count;		/* [capacity]: the counter of each slot */
	u8 max;
};

static u64 clock_table_bytes(u64 total, const struct ssd_config *cfg, u32 capacity)
{
	return ssd_tables_add(total, 1, capacity, sizeof(u8));
}

static int clock_start(struct nvmcache *c, u8 max)
{
	struct clock_state *st = c->repl_state;

	st->max = max;
	st->count = ssd_zalloc(c->dir.capacity ? c->dir.capacity : 1);
	return st->count ? 0 : -ENOMEM;
}

static int clock_init(struct nvmcache *c, const struct ssd_config *cfg)
{
	return clock_start(c, 1);
}

static int gclock_init(struct nvmcache *c, const struct ssd_config *cfg)
{
	return clock_start(c, (u8)ssd_config_get(cfg, &cache_gclock_max_priority));
}

static void clock_exit(struct nvmcache *c)
{
	struct clock_state *st = c->repl_state;

	ssd_free(st->count);
	st->count = NULL;
}

static void clock_insert(struct nvmcache *c, u32 slot)
{
	struct clock_state *st = c->repl_state;

	st->count[slot] = 0;
}

static void clock_hit(struct nvmcache *c, u32 slot)
{
	struct clock_state *st = c->repl_state;

	if (st->count[slot] < st->max)
		st->count[slot]++;
}

/* At most max sweeps of the ring bring every counter to 0: the loop ends. */
static u32 clock_victim(struct nvmcache *c, u64 lpn)
{
	struct clock_state *st = c->repl_state;
	struct cache_set *dir = &c->dir;

	while (st->count[dir->tail]) {
		st->count[dir->tail]--;
		ssd_cache_set_move_head(dir, dir->tail);
	}
	return dir->tail;
}

/* Snapshots: each slot's counter (the hand is the directory's tail). */
static void clock_save(struct nvmcache *c, struct ssd_snap_writer *w)
{
	struct clock_state *st = c->repl_state;

	ssd_snap_put_array(w, st->count, c->dir.capacity, sizeof(u8));
}

static void clock_load(struct nvmcache *c, struct ssd_snap_reader *r)
{
	struct clock_state *st = c->repl_state;
	u32 slot;

	ssd_snap_get_array(r, st->count, c->dir.capacity, sizeof(u8));
	for (slot = 0; slot < c->dir.capacity && !r->error; slot++)
		if (st->count[slot] > st->max)
			ssd_snap_refuse(r, "nvmcache %s: slot %u has counter %u, at most %u",
					c->repl->name, slot, st->count[slot], st->max);
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
	.save = clock_save,
	.load = clock_load,
};

const struct cache_repl_ops ssd_cache_repl_gclock = {
	.name = "gclock",
	.keys = gclock_keys,
	.state_bytes = sizeof(struct clock_state),
	.table_bytes = clock_table_bytes,
	.init = gclock_init,
	.exit = clock_exit,
	.insert = clock_insert,
	.hit = clock_hit,
	.victim = clock_victim,
	.save = clock_save,
	.load = clock_load,
};

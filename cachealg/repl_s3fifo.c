// SPDX-License-Identifier: GPL-2.0
/*
 * repl_s3fifo.c - S3-FIFO replacement (Yang et al., "FIFO queues are all
 * you need for cache eviction", SOSP'23), as libCacheSim's S3FIFO.c: three
 * FIFO queues.
 *
 *  - small: cache_s3fifo_small_percent of the cache (at least one page);
 *    a missed page enters here (even when small holds its share already,
 *    as long as the cache has room: the paper's Algorithm 1 and
 *    libCacheSim's C code) ...
 *  - main: the rest; ... unless the ghost FIFO remembers its lpn, then it
 *    enters here;
 *  - ghost: the lpns (no data) of the last pages evicted from small, up
 *    to cache_s3fifo_ghost_percent of the cache, oldest dropped first.
 *
 * Each cached page counts its hits in 2 bits (0-3).  To make room: while
 * main holds more than its share, or small is empty, the oldest page of
 * main leaves if it has no hits, else it goes back to main's newest end
 * with min(hits, 3) - 1; otherwise the oldest page of small moves to main
 * (with 0 hits) if it has cache_s3fifo_move_hits hits or more, and the
 * next one is looked at, until one with fewer leaves small for the ghost
 * (and if small empties first, main is asked).
 *
 * With cache_s3fifo_fill_main=1, as the S3FIFO of libCacheSim's Python
 * package libcachesim 0.3.5 and unlike the paper: before the first
 * eviction, a page that finds small full enters main (so the cache fills
 * both).  As libCacheSim, the counters are compared with a threshold of 2
 * hits by default (the paper: 1).  libCacheSim counts hits without bound and clamps them to 3 only
 * when main reinserts a page; with the threshold at most 3, 2-bit
 * saturating counters decide alike.  Where this differs from libCacheSim:
 *  - the queues' sizes are floor(cache_pages * percent / 100) in integers;
 *    libCacheSim multiplies by the double percent / 100, one page less
 *    when that double is below the ratio and the product is whole (29%:
 *    0.29 * 100 = 28.999...);
 *  - libCacheSim never inserts into a small queue of one page (and none
 *    into one of 0 pages): here small has at least one page, which works.
 *  - The layer asks for the victim before the admission policy decides:
 *    victim() makes the moves (they are second chances, as CLOCK's) and
 *    remembers its choice until a page is hit, enters or leaves; a ghost
 *    hit leaves the ghost FIFO when the page is admitted, before the
 *    victim enters it, as libCacheSim's find() before its evict().
 *  - A TRIM drops the page from its queue, and not into the ghost.
 *
 * Layout: the directory's order (c->dir) is small followed by main, each
 * from newest to oldest: small's newest page is the head and small_tail
 * ends it, so moving small's oldest page to main's newest end moves only
 * the boundary; main ends at the tail.  One byte per slot: the hits and a
 * bit for main.  The ghost is a struct cache_set.  Memory per cached
 * page: 1 byte + the ghost's (16 bytes per slot + 4 per hash bucket).
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key cache_s3fifo_small_percent =
	SSD_CONFIG_KEY(cache_s3fifo_small_percent, 10, 1, 99, 0, NULL,
		       "S3-FIFO: the small FIFO's share of cache_pages in percent (at least 1 page)");
static const struct ssd_config_key cache_s3fifo_ghost_percent =
	SSD_CONFIG_KEY(cache_s3fifo_ghost_percent, 90, 0, 100, 0, NULL,
		       "S3-FIFO: lpns the ghost FIFO remembers, in percent of cache_pages");
static const struct ssd_config_key cache_s3fifo_move_hits =
	SSD_CONFIG_KEY(cache_s3fifo_move_hits, 2, 1, 3, 0, NULL,
		       "S3-FIFO: hits in the small FIFO that move a page to the main FIFO");
static const struct ssd_config_key cache_s3fifo_fill_main =
	SSD_CONFIG_KEY(cache_s3fifo_fill_main, 0, 0, 1, 0, NULL,
		       "S3-FIFO: 0 = a miss enters small (the paper); 1 = before the first eviction one that finds small full enters main (libCacheSim 0.3.5)");

static const struct ssd_config_key *const s3fifo_keys[] = {
	&cache_s3fifo_small_percent, &cache_s3fifo_ghost_percent, &cache_s3fifo_move_hits,
	&cache_s3fifo_fill_main, NULL,
};

#define S3_HITS		0x03	/* the hit counter of a slot's byte */
#define S3_MAIN		0x80	/* the slot's page is in main */

struct s3fifo_state {
	u8 *meta;		/* [capacity]: hits | S3_MAIN */
	struct cache_set ghost;	/* newest first; capacity 0: no ghost */
	u32 small_size, main_size;
	u32 small, main;	/* pages in each queue */
	u32 small_tail;		/* small's oldest page, or CACHE_NONE */
	u32 chosen;		/* victim()'s choice until something changes */
	u8 move_hits;
	bool fill_main;		/* libcachesim 0.3.5: small full, no eviction yet: main */
	bool evicted;		/* a victim was asked for (libCacheSim's has_evicted) */
	/* The page the last victim() was asked for, and what its arrival did. */
	u64 arrival;
	bool arrival_asked, arrival_done, arrival_ghost;
};

static u32 percent_of(u32 capacity, u64 percent)
{
	return (u32)div_u64((u64)capacity * percent, 100);
}

static u32 small_pages(const struct cache_params *p, u32 capacity)
{
	u32 pages = percent_of(capacity, cachealg_knob(p, &cache_s3fifo_small_percent));

	return pages ? pages : 1;
}

static u32 ghost_pages(const struct cache_params *p, u32 capacity)
{
	return percent_of(capacity, cachealg_knob(p, &cache_s3fifo_ghost_percent));
}

static u64 s3fifo_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	u32 ghost = ghost_pages(p, capacity);

	total = ssd_tables_add(total, 1, capacity, sizeof(u8));
	return ghost ? ssd_cache_set_bytes(total, ghost) : total;
}

static int s3fifo_init(struct cachealg *c)
{
	struct s3fifo_state *st = c->repl_state;
	u32 capacity = c->dir.capacity, ghost = ghost_pages(&c->p, capacity);

	st->small_size = small_pages(&c->p, capacity);
	st->main_size = capacity - st->small_size;
	st->move_hits = (u8)cachealg_knob(&c->p, &cache_s3fifo_move_hits);
	st->fill_main = cachealg_knob(&c->p, &cache_s3fifo_fill_main);
	st->small_tail = CACHE_NONE;
	st->chosen = CACHE_NONE;
	st->meta = ssd_zalloc(capacity);
	if (!st->meta)
		return -ENOMEM;
	return ghost ? ssd_cache_set_init(&st->ghost, ghost) : 0;
}

static void s3fifo_exit(struct cachealg *c)
{
	struct s3fifo_state *st = c->repl_state;

	if (st->ghost.capacity)
		ssd_cache_set_exit(&st->ghost);
	ssd_free(st->meta);
	st->meta = NULL;
}

/* Main's newest end: just after small's oldest page, or the head. */
static void main_add_newest(struct cachealg *c, struct s3fifo_state *st, u32 slot)
{
	if (st->small)
		ssd_cache_set_move_after(&c->dir, slot, st->small_tail);
	else
		ssd_cache_set_move_head(&c->dir, slot);
}

/* @lpn enters the cache: whether the ghost remembered it (it forgets it). */
static bool s3fifo_arrive(struct s3fifo_state *st, u64 lpn)
{
	u32 g = ssd_cache_set_find(&st->ghost, lpn);

	if (g == CACHE_NONE)
		return false;
	ssd_cache_set_remove(&st->ghost, g);
	return true;
}

static void ghost_add(struct s3fifo_state *st, u64 lpn)
{
	if (!st->ghost.capacity)
		return;
	if (st->ghost.count == st->ghost.capacity)
		ssd_cache_set_remove(&st->ghost, st->ghost.tail);
	ssd_cache_set_insert(&st->ghost, lpn);
}

/* libCacheSim's S3FIFO_evict_main(): reinsert pages with hits. */
static u32 main_victim(struct cachealg *c, struct s3fifo_state *st)
{
	for (;;) {
		u32 slot = c->dir.tail, hits = st->meta[slot] & S3_HITS;

		if (!hits)
			return slot;
		st->meta[slot] = S3_MAIN | (hits - 1);
		main_add_newest(c, st, slot);
	}
}

/*
 * libCacheSim's S3FIFO_evict(), until a page would leave.  Each pass of
 * main lowers a counter, each pass of small empties a slot of it: the
 * loops end.
 */
static u32 s3fifo_victim(struct cachealg *c, u64 lpn)
{
	struct s3fifo_state *st = c->repl_state;

	st->arrival = lpn;
	st->arrival_asked = true;
	st->arrival_done = false;
	if (st->chosen != CACHE_NONE)
		return st->chosen;
	st->evicted = true;
	for (;;) {
		if (st->main > st->main_size || !st->small) {
			st->chosen = main_victim(c, st);
			return st->chosen;
		}
		while (st->small) {
			u32 slot = st->small_tail;

			if ((st->meta[slot] & S3_HITS) < st->move_hits) {
				st->chosen = slot;
				return slot;
			}
			/* Small's oldest page is main's newest: move the boundary. */
			st->small_tail = st->small > 1 ? c->dir.prev[slot] : CACHE_NONE;
			st->small--;
			st->main++;
			st->meta[slot] = S3_MAIN;
		}
	}
}

static void s3fifo_remove(struct cachealg *c, u32 slot, bool evicted)
{
	struct s3fifo_state *st = c->repl_state;

	st->chosen = CACHE_NONE;
	if (evicted && st->arrival_asked) {
		st->arrival_ghost = s3fifo_arrive(st, st->arrival);
		st->arrival_asked = false;
		st->arrival_done = true;
	}
	if (st->meta[slot] & S3_MAIN) {
		st->main--;
		return;
	}
	if (slot == st->small_tail)
		st->small_tail = st->small > 1 ? c->dir.prev[slot] : CACHE_NONE;
	st->small--;
	if (evicted)
		ghost_add(st, c->dir.lpn[slot]);
}

static void s3fifo_insert(struct cachealg *c, u32 slot)
{
	struct s3fifo_state *st = c->repl_state;
	u64 lpn = c->dir.lpn[slot];
	bool ghost_hit;

	st->chosen = CACHE_NONE;
	if (st->arrival_done && st->arrival == lpn)
		ghost_hit = st->arrival_ghost;
	else
		ghost_hit = s3fifo_arrive(st, lpn);
	st->arrival_asked = false;
	st->arrival_done = false;
	if (ghost_hit || (st->fill_main && !st->evicted && st->small >= st->small_size)) {
		st->meta[slot] = S3_MAIN;
		main_add_newest(c, st, slot);
		st->main++;
		return;
	}
	/* The layer put it at the head: small's newest end. */
	st->meta[slot] = 0;
	if (!st->small)
		st->small_tail = slot;
	st->small++;
}

static void s3fifo_hit(struct cachealg *c, u32 slot)
{
	struct s3fifo_state *st = c->repl_state;

	st->chosen = CACHE_NONE;
	st->arrival_asked = false;
	if ((st->meta[slot] & S3_HITS) < S3_HITS)
		st->meta[slot]++;
}

static int s3fifo_check(struct cachealg *c)
{
	struct s3fifo_state *st = c->repl_state;
	u32 slot, i = 0, last = CACHE_NONE;
	int ret = 0;

	if (st->ghost.capacity)
		ret = ssd_cache_set_check(&st->ghost, c->dev_name, c->who, "S3-FIFO ghost");
	if (ret)
		return ret;
	for (slot = c->dir.head; slot != CACHE_NONE; slot = c->dir.next[slot], i++) {
		if (!(st->meta[slot] & S3_MAIN) != (i < st->small) ||
		    (st->meta[slot] & ~(S3_MAIN | S3_HITS)))
			break;
		if (i < st->small)
			last = slot;
	}
	if (slot != CACHE_NONE || last != st->small_tail ||
	    (u64)st->small + st->main != c->dir.count) {
		ssd_dev_err(c->dev_name, "%s: S3-FIFO: small %u + main %u (directory %u) disagree with the queues",
			    c->who, st->small, st->main, c->dir.count);
		return -EUCLEAN;
	}
	for (slot = st->ghost.capacity ? st->ghost.head : CACHE_NONE; slot != CACHE_NONE;
	     slot = st->ghost.next[slot])
		if (ssd_cache_set_find(&c->dir, st->ghost.lpn[slot]) != CACHE_NONE) {
			ssd_dev_err(c->dev_name, "%s: S3-FIFO: lpn %u both cached and a ghost",
				    c->who, st->ghost.lpn[slot]);
			return -EUCLEAN;
		}
	return 0;
}

/*
 * Snapshots: every slot's byte, the ghost FIFO (if it has room), the
 * queues' sizes, small's end, the remembered choice and the pending
 * arrival; s3fifo_check() then holds the queues to the directory.
 */
static void s3fifo_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct s3fifo_state *st = c->repl_state;

	ssd_snap_put_array(w, st->meta, c->dir.capacity, sizeof(u8));
	if (st->ghost.capacity)
		ssd_cache_set_save(&st->ghost, w);
	ssd_snap_put_u32(w, st->small);
	ssd_snap_put_u32(w, st->main);
	ssd_snap_put_u32(w, st->small_tail);
	ssd_snap_put_u32(w, st->chosen);
	ssd_snap_put_u64(w, st->arrival);
	ssd_snap_put_u8(w, st->evicted | st->arrival_asked << 1 | st->arrival_done << 2 |
			st->arrival_ghost << 3);
}

static void s3fifo_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct s3fifo_state *st = c->repl_state;
	u32 slot;
	u8 flags;

	ssd_snap_get_array(r, st->meta, c->dir.capacity, sizeof(u8));
	for (slot = 0; slot < c->dir.capacity && !r->error; slot++)
		if (st->meta[slot] & ~(S3_MAIN | S3_HITS))
			ssd_snap_refuse(r, "%s S3-FIFO: slot %u has bits %02x", c->who, slot,
					st->meta[slot]);
	if (st->ghost.capacity)
		ssd_cache_set_load(&st->ghost, r, c->keys, c->who, "S3-FIFO ghost");
	st->small = ssd_snap_get_u32(r);
	st->main = ssd_snap_get_u32(r);
	st->small_tail = ssd_snap_get_u32(r);
	st->chosen = ssd_snap_get_u32(r);
	st->arrival = ssd_snap_get_u64(r);
	flags = ssd_snap_get_u8(r);
	if (r->error)
		return;
	st->evicted = flags & 1;
	st->arrival_asked = flags & 2;
	st->arrival_done = flags & 4;
	st->arrival_ghost = flags & 8;
	if (flags > 15 || st->arrival >= c->keys ||
	    (st->small_tail != CACHE_NONE && st->small_tail >= c->dir.capacity) ||
	    (st->chosen != CACHE_NONE && !cache_set_holds_slot(&c->dir, st->chosen)))
		ssd_snap_refuse(r, "%s S3-FIFO: flags %02x, arrival %llu, small's end %u, choice %u out of range",
				c->who, flags, (unsigned long long)st->arrival, st->small_tail, st->chosen);
}

/* The ghost FIFO's keys. */
static u32 s3fifo_ghosts(const struct cachealg *c)
{
	const struct s3fifo_state *st = c->repl_state;

	return st->ghost.count;
}

const struct cache_repl_ops ssd_cache_repl_s3fifo = {
	.name = "s3fifo",
	.keys = s3fifo_keys,
	.state_bytes = sizeof(struct s3fifo_state),
	.table_bytes = s3fifo_table_bytes,
	.init = s3fifo_init,
	.exit = s3fifo_exit,
	.insert = s3fifo_insert,
	.hit = s3fifo_hit,
	.victim = s3fifo_victim,
	.remove = s3fifo_remove,
	.ghosts = s3fifo_ghosts,
	.check = s3fifo_check,
	.save = s3fifo_save,
	.load = s3fifo_load,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * repl_lfu.c - LFU replacement, as libCacheSim's LFU: a key's frequency
 * counts its accesses since it entered (1 on entry, forgotten when it
 * leaves); the victim is the least frequent key, and among equals the one
 * that reached that frequency first.
 *
 * Layout: the directory's order holds the keys by frequency, the highest
 * at the head, and within a frequency from the latest to reach it to the
 * earliest, so the victim is the tail.  A run of one frequency is a
 * bucket: a set keyed by frequency (struct cache_set) gives each bucket's
 * first (head-most) slot and its size, so a hit moves its key to the
 * front of the next bucket in O(1).  Memory per cached key: its frequency
 * (4 bytes) and a bucket slot (the set's 20 bytes, first and size 8).
 *
 * lists_peak counts what an LFU built as libCacheSim's (a list per
 * frequency in use, the list of frequency 1 always kept) holds at most at
 * once - a hit holds its old and its new frequency's list for a moment -
 * for the host simulator's memory figures.
 */
#include "cachealg/cachealg_internal.h"

struct lfu_state {
	u32 *freq;		/* [capacity]: the frequency of each slot */
	struct cache_set bucket;	/* frequencies in use */
	u32 *first;		/* [bucket slots]: the bucket's head-most slot */
	u32 *size;		/* [bucket slots]: its keys */
	u32 lists, lists_peak;	/* libCacheSim's lists held now, and at most */
};

static u64 lfu_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	total = ssd_tables_add(total, 1, capacity, sizeof(u32));
	total = ssd_cache_set_bytes(total, capacity + 1);
	return ssd_tables_add(total, 2, (u64)capacity + 1, sizeof(u32));
}

static int lfu_init(struct cachealg *c)
{
	struct lfu_state *st = c->repl_state;
	u64 buckets = (u64)c->dir.capacity + 1;

	st->lists = 1;
	st->lists_peak = 1;
	st->freq = ssd_zalloc((u64)c->dir.capacity * sizeof(u32));
	st->first = ssd_zalloc(buckets * sizeof(u32));
	st->size = ssd_zalloc(buckets * sizeof(u32));
	if (!st->freq || !st->first || !st->size)
		return -ENOMEM;
	return ssd_cache_set_init(&st->bucket, (u32)buckets);
}

static void lfu_exit(struct cachealg *c)
{
	struct lfu_state *st = c->repl_state;

	ssd_cache_set_exit(&st->bucket);
	ssd_free(st->freq);
	ssd_free(st->first);
	ssd_free(st->size);
	st->freq = NULL;
	st->first = NULL;
	st->size = NULL;
}

/* Put @slot at the front (head side) of the keys of @freq's bucket. */
static void join(struct cachealg *c, struct lfu_state *st, u32 slot, u32 freq, u32 before)
{
	u32 b = ssd_cache_set_find(&st->bucket, freq);

	if (b == CACHE_NONE) {
		b = ssd_cache_set_insert(&st->bucket, freq);
		st->size[b] = 0;
		if (freq > 1)
			st->lists++;
	} else {
		before = st->first[b];
	}
	/* @before: the slot @slot goes in front of, CACHE_NONE: the tail. */
	if (before == CACHE_NONE)
		ssd_cache_set_move_after(&c->dir, slot, c->dir.tail);
	else if (before != slot && c->dir.prev[before] == CACHE_NONE)
		ssd_cache_set_move_head(&c->dir, slot);
	else if (before != slot)
		ssd_cache_set_move_after(&c->dir, slot, c->dir.prev[before]);
	st->first[b] = slot;
	st->size[b]++;
	st->freq[slot] = freq;
	st->lists_peak = max_t(u32, st->lists_peak, st->lists);
}

/* Take @slot out of its bucket (its place in the order stays). */
static void leave(struct cachealg *c, struct lfu_state *st, u32 slot)
{
	u32 b = ssd_cache_set_find(&st->bucket, st->freq[slot]);

	if (--st->size[b] == 0) {
		ssd_cache_set_remove(&st->bucket, b);
		if (st->freq[slot] > 1)
			st->lists--;
	} else if (st->first[b] == slot) {
		st->first[b] = c->dir.next[slot];
	}
}

/* The key of @slot entered, at the head: frequency 1, the lowest: the tail end. */
static void lfu_insert(struct cachealg *c, u32 slot)
{
	struct lfu_state *st = c->repl_state;

	join(c, st, slot, 1, CACHE_NONE);
}

static void lfu_hit(struct cachealg *c, u32 slot)
{
	struct lfu_state *st = c->repl_state;
	u32 freq = st->freq[slot];
	u32 b = ssd_cache_set_find(&st->bucket, freq);
	u32 front = st->first[b];

	/* The new bucket is made before the old one may go. */
	if (ssd_cache_set_find(&st->bucket, freq + 1) == CACHE_NONE)
		st->lists_peak = max_t(u32, st->lists_peak, st->lists + 1);
	leave(c, st, slot);
	join(c, st, slot, freq + 1, front);
}

static void lfu_remove(struct cachealg *c, u32 slot, bool evicted)
{
	leave(c, c->repl_state, slot);
}

static int lfu_check(struct cachealg *c)
{
	struct lfu_state *st = c->repl_state;
	u32 slot, prev = CACHE_NONE;

	for (slot = c->dir.head; slot != CACHE_NONE; prev = slot, slot = c->dir.next[slot]) {
		u32 b = ssd_cache_set_find(&st->bucket, st->freq[slot]);

		if (b == CACHE_NONE || (prev != CACHE_NONE && st->freq[prev] < st->freq[slot]) ||
		    ((prev == CACHE_NONE || st->freq[prev] != st->freq[slot]) &&
		     st->first[b] != slot)) {
			ssd_dev_err(c->dev_name, "%s: LFU: slot %u (frequency %u) out of order",
				    c->who, slot, st->freq[slot]);
			return -EUCLEAN;
		}
	}
	return ssd_cache_set_check(&st->bucket, c->dev_name, c->who, "LFU buckets");
}

u32 ssd_cache_lfu_lists_peak(const struct cachealg *c)
{
	const struct lfu_state *st = c->repl_state;

	return st->lists_peak;
}

const struct cache_repl_ops ssd_cache_repl_lfu = {
	.name = "lfu",
	.state_bytes = sizeof(struct lfu_state),
	.table_bytes = lfu_table_bytes,
	.init = lfu_init,
	.exit = lfu_exit,
	.insert = lfu_insert,
	.hit = lfu_hit,
	.remove = lfu_remove,
	.check = lfu_check,
};

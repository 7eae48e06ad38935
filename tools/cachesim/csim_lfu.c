// SPDX-License-Identifier: GPL-2.0
/*
 * csim_lfu.c - LFU over addresses (block mode) or units (unit mode), a
 * copy per address (csim_plain_hit() says what a hit is), as libCacheSim's
 * LFU: the frequency counts accesses
 * since the entry entered (1 on entry, forgotten on eviction); the victim
 * is the least frequent, and among equals the one that reached that
 * frequency first.  One list per frequency, found by a table; the least
 * frequency with entries is tracked.
 *
 * Memory: per cached block a node (key, links, frequency) and its index
 * slot; per frequency in use a list head.
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_pool.h"

struct lfu {
	struct csim_pool pool;
	struct csim_map bucket_of;	/* frequency -> bucket */
	struct csim_list *buckets;	/* head: the latest to reach it */
	uint32_t nr_buckets, room, free_bucket;
	uint32_t *bucket_next_free;
	uint64_t min_freq, max_freq;
};

static uint32_t bucket(struct lfu *l, uint64_t freq, bool create)
{
	uint32_t b = csim_map_get(&l->bucket_of, freq);

	if (b != CSIM_NONE || !create)
		return b;
	if (l->free_bucket != CSIM_NONE) {
		b = l->free_bucket;
		l->free_bucket = l->bucket_next_free[b];
	} else {
		if (l->nr_buckets == l->room) {
			l->room = l->room ? 2 * l->room : 64;
			l->buckets = realloc(l->buckets, l->room * sizeof(*l->buckets));
			l->bucket_next_free = realloc(l->bucket_next_free,
						      l->room * sizeof(uint32_t));
			if (!l->buckets || !l->bucket_next_free)
				csim_oom();
		}
		b = l->nr_buckets++;
	}
	csim_list_init(&l->buckets[b]);
	if (csim_map_put(&l->bucket_of, freq, b))
		csim_oom();
	return b;
}

static void drop_bucket(struct lfu *l, uint64_t freq, uint32_t b)
{
	if (freq == 1 || l->buckets[b].count)
		return;
	csim_map_del(&l->bucket_of, freq);
	l->bucket_next_free[b] = l->free_bucket;
	l->free_bucket = b;
}

static int lfu_create(struct csim_cache *c)
{
	struct lfu *l = calloc(1, sizeof(*l));

	if (!l || csim_pool_init(&l->pool, c->p.capacity) ||
	    csim_map_init(&l->bucket_of, 64))
		csim_oom();
	l->free_bucket = CSIM_NONE;
	l->min_freq = l->max_freq = 1;
	bucket(l, 1, true);
	c->priv = l;
	return 0;
}

static void lfu_destroy(struct csim_cache *c)
{
	struct lfu *l = c->priv;

	csim_pool_free(&l->pool);
	csim_map_free(&l->bucket_of);
	free(l->buckets);
	free(l->bucket_next_free);
	free(l);
}

/* The least frequency with entries, from min_freq up. */
static uint32_t min_bucket(struct lfu *l)
{
	for (;; l->min_freq++) {
		uint32_t b = bucket(l, l->min_freq, false);

		if (b != CSIM_NONE && l->buckets[b].count)
			return b;
	}
}

static void remove_node(struct lfu *l, uint32_t n)
{
	uint64_t freq = csim_at(&l->pool, n)->count;
	uint32_t b = bucket(l, freq, false);

	csim_list_unlink(&l->pool, &l->buckets[b], n);
	drop_bucket(l, freq, b);
}

static bool lfu_access(struct csim_cache *c, const struct csim_access *a)
{
	struct lfu *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, a->key);

	if (n != CSIM_NONE) {
		struct csim_node *e = csim_at(&l->pool, n);
		uint64_t old = e->count;
		uint32_t from = bucket(l, old, false), to;

		csim_list_unlink(&l->pool, &l->buckets[from], n);
		e->count++;
		if (e->count > l->max_freq)
			l->max_freq = e->count;
		to = bucket(l, e->count, true);
		csim_list_push_head(&l->pool, &l->buckets[to], n, 1);
		if (!l->buckets[from].count && l->min_freq == old)
			l->min_freq = old + 1;
		drop_bucket(l, old, from);
		return csim_plain_hit(c, csim_at(&l->pool, n), a);
	}
	if (!a->allocate)
		return false;
	if (l->pool.live >= c->p.capacity) {
		uint32_t b = min_bucket(l), victim = l->buckets[b].tail;

		remove_node(l, victim);
		csim_pool_del(&l->pool, victim);
		c->st.evictions++;
	}
	n = csim_pool_add(&l->pool, a->key);
	csim_at(&l->pool, n)->count = 1;
	csim_at(&l->pool, n)->fp = a->fp;
	csim_list_push_head(&l->pool, &l->buckets[bucket(l, 1, true)], n, 1);
	l->min_freq = 1;
	csim_fill(c, a->key, csim_cause_of(a->op));
	return false;
}

static void lfu_invalidate(struct csim_cache *c, uint64_t key)
{
	struct lfu *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, key);

	if (n == CSIM_NONE)
		return;
	remove_node(l, n);
	csim_pool_del(&l->pool, n);
	c->st.invalidations++;
	if (!l->pool.live)
		l->min_freq = 1;
}

/* key 8, two links 8, frequency 4, and the index slot */
#define LFU_NODE_BYTES	(8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)

static void lfu_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct lfu *l = c->priv;

	m->bytes_per_block = LFU_NODE_BYTES;
	m->peak_bytes = l->pool.peak * LFU_NODE_BYTES +
			l->nr_buckets * (sizeof(struct csim_list) + CSIM_MAP_BYTES_PER_ENTRY);
}

const struct csim_policy csim_lfu = {
	.name = "lfu",
	.kind = CSIM_PLAIN,
	.help = "LFU (in-cache frequency, oldest first among equals), a copy per address",
	.create = lfu_create,
	.destroy = lfu_destroy,
	.access = lfu_access,
	.invalidate = lfu_invalidate,
	.memory = lfu_memory,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cdac_lru.c - CDAC-LRU: the CacheDedup architecture with an LRU
 * metadata cache of addresses (meta_entries) and a data cache of unique
 * blocks (capacity) in which a block lives while a cached address points
 * to it.  Whenever an address must go (the metadata cache is full, or the
 * data cache needs a free block and none is unreferenced) the victim is
 * chosen at the LRU tail by CDAC's rules (csim_cdac.c: BHI first, then
 * RCE; kept addresses move to the head), until one goes.
 *
 * Memory: per address key 8, fingerprint 8, links 8, last access 4, RCE
 * snapshot 4 and mark, and its index slot; per block fingerprint 8,
 * reference count 4, free-list links 8, BHI bitmap 2, and its slot.
 */
#include <stdlib.h>

#include "tools/cachesim/csim_dedup.h"

struct cdac_lru {
	struct csim_dedup dd;		/* first: csim_dedup.c casts priv to it */
	struct csim_pool pool;		/* addresses */
	struct csim_list lru;
};

static struct cdac_lru *cl_of(struct csim_cache *c)
{
	return c->priv;
}

static uint32_t cl_lookup(struct csim_cache *c, uint64_t key)
{
	return csim_pool_find(&cl_of(c)->pool, key);
}

static void cl_touch(struct csim_cache *c, uint32_t n)
{
	struct cdac_lru *l = cl_of(c);

	csim_list_move_head(&l->pool, &l->lru, &l->lru, n, 1);
}

/* One address goes, chosen by CDAC's tail rules. */
static void cl_drop_one(struct csim_cache *c)
{
	struct cdac_lru *l = cl_of(c);
	uint32_t n = csim_cdac_pick(c, &l->pool, &l->lru, 1, c->now);

	csim_list_unlink(&l->pool, &l->lru, n);
	csim_dedup_leave(c, csim_at(&l->pool, n));
	csim_pool_del(&l->pool, n);
}

static uint32_t cl_insert(struct csim_cache *c, uint64_t key)
{
	struct cdac_lru *l = cl_of(c);
	uint32_t n;

	if (l->lru.count >= c->p.meta_entries)
		cl_drop_one(c);
	n = csim_pool_add(&l->pool, key);
	csim_list_push_head(&l->pool, &l->lru, n, 1);
	return n;
}

static void cl_remove(struct csim_cache *c, uint32_t n)
{
	struct cdac_lru *l = cl_of(c);

	csim_list_unlink(&l->pool, &l->lru, n);
	csim_dedup_leave(c, csim_at(&l->pool, n));
	csim_pool_del(&l->pool, n);
}

static struct csim_pool *cl_pool(struct csim_cache *c)
{
	return &cl_of(c)->pool;
}

static const struct csim_meta_ops cl_meta = {
	.lookup = cl_lookup,
	.touch = cl_touch,
	.insert = cl_insert,
	.reclaim = cl_drop_one,
	.remove = cl_remove,
	.pool = cl_pool,
};

static int cl_create(struct csim_cache *c)
{
	struct cdac_lru *l = calloc(1, sizeof(*l));

	if (!l || csim_pool_init(&l->pool, c->p.meta_entries))
		csim_oom();
	csim_data_init(&l->dd.data, c->p.capacity);
	l->dd.meta = &cl_meta;
	csim_list_init(&l->lru);
	c->priv = l;
	return 0;
}

static void cl_destroy(struct csim_cache *c)
{
	struct cdac_lru *l = c->priv;

	csim_data_free(&l->dd.data);
	csim_pool_free(&l->pool);
	free(l);
}

#define CDAC_LRU_ADDRESS_BYTES	(8 + 8 + 8 + 4 + 4 + 4 + CSIM_MAP_BYTES_PER_ENTRY)
#define CDAC_LRU_BLOCK_BYTES	(8 + 4 + 8 + 2 + CSIM_MAP_BYTES_PER_ENTRY)

static void cl_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct cdac_lru *l = c->priv;

	m->bytes_per_address = CDAC_LRU_ADDRESS_BYTES;
	m->bytes_per_block = CDAC_LRU_BLOCK_BYTES;
	m->peak_bytes = l->pool.peak * CDAC_LRU_ADDRESS_BYTES +
			l->dd.data.pool.peak * CDAC_LRU_BLOCK_BYTES;
}

const struct csim_policy csim_cdac_lru = {
	.name = "cdac-lru",
	.kind = CSIM_DEDUP,
	.help = "CDAC-LRU: LRU addresses, blocks live while referenced; victims by BHI then RCE",
	.create = cl_create,
	.destroy = cl_destroy,
	.access = csim_dedup_access,
	.invalidate = csim_dedup_invalidate,
	.memory = cl_memory,
};

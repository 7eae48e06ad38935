// SPDX-License-Identifier: GPL-2.0
/*
 * csim_dlru.c - D-LRU (CacheDedup, Li et al., FAST'16): two LRUs managed
 * apart, one of addresses (the metadata cache, meta_entries: address ->
 * fingerprint) and one of unique blocks (the data cache, capacity).  A
 * read hits when its address is cached with the content read and that
 * block is cached; a hit or a miss moves both to their heads.  Either
 * LRU evicts its own tail when full: an address whose block was evicted
 * stays (it hits again if the block comes back), a block that cached
 * addresses point to may go.  A write to a cached address points it at
 * the new content (dedup: no cache write if that block is cached).
 *
 * Memory: per address key 8, fingerprint 8, links 8, and its index slot;
 * per block fingerprint 8, links 8, and its slot.
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_dedup.h"

struct dlru {
	struct csim_pool addrs;
	struct csim_list addr_lru;
	struct csim_data data;		/* its lru list */
};

static int dlru_create(struct csim_cache *c)
{
	struct dlru *d = calloc(1, sizeof(*d));

	if (!d || csim_pool_init(&d->addrs, c->p.meta_entries))
		csim_oom();
	csim_list_init(&d->addr_lru);
	csim_data_init(&d->data, c->p.capacity);
	c->priv = d;
	return 0;
}

static void dlru_destroy(struct csim_cache *c)
{
	struct dlru *d = c->priv;

	csim_pool_free(&d->addrs);
	csim_data_free(&d->data);
	free(d);
}

/* The block of @a, to the head of the data LRU: cached, or written in. */
static void use_block(struct csim_cache *c, struct dlru *d, const struct csim_access *a)
{
	uint32_t b = csim_pool_find(&d->data.pool, a->fp);

	if (b != CSIM_NONE) {
		csim_list_move_head(&d->data.pool, &d->data.lru, &d->data.lru, b, DATA_LRU);
		c->st.dedup_fills_saved++;
		return;
	}
	if (d->data.lru.count >= c->p.capacity) {
		uint32_t victim = d->data.lru.tail;

		csim_list_unlink(&d->data.pool, &d->data.lru, victim);
		csim_pool_del(&d->data.pool, victim);
		c->st.evictions++;
	}
	b = csim_pool_add(&d->data.pool, a->fp);
	csim_list_push_head(&d->data.pool, &d->data.lru, b, DATA_LRU);
	csim_fill(c, a->fp, csim_cause_of(a->op));
}

static bool dlru_access(struct csim_cache *c, const struct csim_access *a)
{
	struct dlru *d = c->priv;
	uint32_t n = csim_pool_find(&d->addrs, a->key);
	struct csim_node *e;

	if (n != CSIM_NONE) {
		bool cached, hit;

		e = csim_at(&d->addrs, n);
		cached = csim_pool_find(&d->data.pool, e->fp) != CSIM_NONE;
		hit = cached && (a->op == CSIM_WRITE || e->fp == a->fp);
		csim_list_move_head(&d->addrs, &d->addr_lru, &d->addr_lru, n, 1);
		if (!hit && !a->allocate)
			return false;
		if (e->fp == a->fp && cached) {
			uint32_t b = csim_pool_find(&d->data.pool, a->fp);

			csim_list_move_head(&d->data.pool, &d->data.lru, &d->data.lru, b,
					    DATA_LRU);
			return hit;
		}
		/* New content, or its block was evicted: (re)point it. */
		e->fp = a->fp;
		use_block(c, d, a);
		return hit;
	}
	if (!a->allocate)
		return false;
	if (d->addr_lru.count >= c->p.meta_entries) {
		uint32_t victim = d->addr_lru.tail;

		csim_list_unlink(&d->addrs, &d->addr_lru, victim);
		csim_pool_del(&d->addrs, victim);
		c->st.meta_evictions++;
	}
	n = csim_pool_add(&d->addrs, a->key);
	csim_at(&d->addrs, n)->fp = a->fp;
	csim_list_push_head(&d->addrs, &d->addr_lru, n, 1);
	use_block(c, d, a);
	return false;
}

static void dlru_invalidate(struct csim_cache *c, uint64_t key)
{
	struct dlru *d = c->priv;
	uint32_t n = csim_pool_find(&d->addrs, key);

	if (n == CSIM_NONE)
		return;
	csim_list_unlink(&d->addrs, &d->addr_lru, n);
	csim_pool_del(&d->addrs, n);
	c->st.invalidations++;
}

#define DLRU_ADDRESS_BYTES	(8 + 8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)
#define DLRU_BLOCK_BYTES	(8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)

static void dlru_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct dlru *d = c->priv;

	m->bytes_per_address = DLRU_ADDRESS_BYTES;
	m->bytes_per_block = DLRU_BLOCK_BYTES;
	m->peak_bytes = d->addrs.peak * DLRU_ADDRESS_BYTES + d->data.pool.peak * DLRU_BLOCK_BYTES;
}

const struct csim_policy csim_dlru = {
	.name = "d-lru",
	.kind = CSIM_DEDUP,
	.help = "D-LRU: an LRU of addresses and an LRU of unique blocks, managed apart",
	.create = dlru_create,
	.destroy = dlru_destroy,
	.access = dlru_access,
	.invalidate = dlru_invalidate,
	.memory = dlru_memory,
};

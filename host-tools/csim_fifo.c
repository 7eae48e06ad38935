// SPDX-License-Identifier: GPL-2.0
/*
 * csim_fifo.c - FIFO over addresses (block mode) or units (unit mode), a
 * copy per address: the plain cache without dedup (csim_plain_hit() says
 * what a hit is).  A hit changes nothing
 * in the order; a miss that may enter evicts the oldest when full.
 *
 * Memory: per cached block a node (key, list links) and its index slot.
 */
#include <stdlib.h>

#include "host-tools/csim.h"
#include "host-tools/csim_pool.h"

struct fifo {
	struct csim_pool pool;
	struct csim_list list;
};

static int fifo_create(struct csim_cache *c)
{
	struct fifo *l = calloc(1, sizeof(*l));

	if (!l || csim_pool_init(&l->pool, c->p.capacity))
		csim_oom();
	csim_list_init(&l->list);
	c->priv = l;
	return 0;
}

static void fifo_destroy(struct csim_cache *c)
{
	struct fifo *l = c->priv;

	csim_pool_free(&l->pool);
	free(l);
}

static bool fifo_access(struct csim_cache *c, const struct csim_access *a)
{
	struct fifo *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, a->key);

	if (n != CSIM_NONE) {
		return csim_plain_hit(c, csim_at(&l->pool, n), a);
	}
	if (!a->allocate)
		return false;
	if (l->list.count >= c->p.capacity) {
		uint32_t victim = l->list.tail;

		csim_list_unlink(&l->pool, &l->list, victim);
		csim_pool_del(&l->pool, victim);
		c->st.evictions++;
	}
	n = csim_pool_add(&l->pool, a->key);
	csim_at(&l->pool, n)->fp = a->fp;
	csim_list_push_head(&l->pool, &l->list, n, 1);
	csim_fill(c, a->key, csim_cause_of(a->op));
	return false;
}

static void fifo_invalidate(struct csim_cache *c, uint64_t key)
{
	struct fifo *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, key);

	if (n == CSIM_NONE)
		return;
	csim_list_unlink(&l->pool, &l->list, n);
	csim_pool_del(&l->pool, n);
	c->st.invalidations++;
}

/* key 8, two links 8, and the index slot */
#define FIFO_NODE_BYTES	(8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)

static void fifo_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct fifo *l = c->priv;

	m->bytes_per_block = FIFO_NODE_BYTES;
	m->peak_bytes = l->pool.peak * FIFO_NODE_BYTES;
}

const struct csim_policy csim_fifo = {
	.name = "fifo",
	.kind = CSIM_PLAIN,
	.help = "FIFO, a copy per address (or unit)",
	.create = fifo_create,
	.destroy = fifo_destroy,
	.access = fifo_access,
	.invalidate = fifo_invalidate,
	.memory = fifo_memory,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * csim_queue.c - a queue of entries over addresses (block mode) or units
 * (unit mode), a copy per address: the plain cache without dedup
 * (csim_plain_hit() says what a hit is), shared by LRU (a hit moves the
 * entry to the head) and FIFO (a hit changes nothing); a miss that may
 * enter evicts the tail when full.
 *
 * Memory: per cached block a node (key, list links) and its index slot.
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_pool.h"
#include "tools/cachesim/csim_queue.h"

struct queue {
	struct csim_pool pool;
	struct csim_list list;
};

int csim_queue_create(struct csim_cache *c)
{
	struct queue *l = calloc(1, sizeof(*l));

	if (!l || csim_pool_init(&l->pool, c->p.capacity))
		csim_oom();
	csim_list_init(&l->list);
	c->priv = l;
	return 0;
}

void csim_queue_destroy(struct csim_cache *c)
{
	struct queue *l = c->priv;

	csim_pool_free(&l->pool);
	free(l);
}

bool csim_queue_access(struct csim_cache *c, const struct csim_access *a, bool move_on_hit)
{
	struct queue *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, a->key);

	if (n != CSIM_NONE) {
		if (move_on_hit)
			csim_list_move_head(&l->pool, &l->list, &l->list, n, 1);
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

void csim_queue_invalidate(struct csim_cache *c, uint64_t key)
{
	struct queue *l = c->priv;
	uint32_t n = csim_pool_find(&l->pool, key);

	if (n == CSIM_NONE)
		return;
	csim_list_unlink(&l->pool, &l->list, n);
	csim_pool_del(&l->pool, n);
	c->st.invalidations++;
}

/* key 8, two links 8, and the index slot */
#define QUEUE_NODE_BYTES	(8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)

void csim_queue_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct queue *l = c->priv;

	m->bytes_per_block = QUEUE_NODE_BYTES;
	m->peak_bytes = l->pool.peak * QUEUE_NODE_BYTES;
}

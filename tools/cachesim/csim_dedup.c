// SPDX-License-Identifier: GPL-2.0
/*
 * csim_dedup.c - the data cache of unique blocks and the access path of
 * the refcount-driven dedup policies (csim_dedup.h).
 */
#include "tools/cachesim/csim_dedup.h"

void csim_data_init(struct csim_data *d, uint64_t capacity)
{
	if (csim_pool_init(&d->pool, capacity))
		csim_oom();
	csim_list_init(&d->zero);
	csim_list_init(&d->lru);
	d->capacity = capacity;
}

void csim_data_free(struct csim_data *d)
{
	csim_pool_free(&d->pool);
}

void csim_data_ref(struct csim_data *d, uint32_t n)
{
	struct csim_node *b = csim_at(&d->pool, n);

	if (b->list == DATA_ZERO)
		csim_list_unlink(&d->pool, &d->zero, n);
	b->count++;
}

void csim_data_unref(struct csim_data *d, uint32_t n)
{
	struct csim_node *b = csim_at(&d->pool, n);

	if (--b->count == 0)
		csim_list_push_head(&d->pool, &d->zero, n, DATA_ZERO);
}

bool csim_data_drop_zero(struct csim_data *d, struct csim_stats *st)
{
	uint32_t n = d->zero.tail;

	if (n == CSIM_NONE)
		return false;
	csim_list_unlink(&d->pool, &d->zero, n);
	csim_pool_del(&d->pool, n);
	st->evictions++;
	return true;
}

void csim_dedup_leave(struct csim_cache *c, struct csim_node *addr)
{
	struct csim_dedup *dd = c->priv;
	uint32_t b = csim_pool_find(&dd->data.pool, addr->fp);

	csim_data_unref(&dd->data, b);
	c->st.meta_evictions++;
}

/*
 * A reference to the block of @fp for an address: take the cached one, or
 * make room (blocks nobody points to first, then addresses, by the
 * policy, until a block is free) and write it into the cache.
 */
static void ref_block(struct csim_cache *c, const struct csim_access *a)
{
	struct csim_dedup *dd = c->priv;
	struct csim_data *d = &dd->data;
	uint32_t b = csim_pool_find(&d->pool, a->fp);

	if (b != CSIM_NONE) {
		csim_data_ref(d, b);
		csim_at(&d->pool, b)->bits |= a->parts;
		if (a->allocate)
			c->st.dedup_fills_saved++;
		return;
	}
	while (d->pool.live >= d->capacity)
		if (!csim_data_drop_zero(d, &c->st))
			dd->meta->reclaim(c);
	b = csim_pool_add(&d->pool, a->fp);
	csim_at(&d->pool, b)->count = 1;
	csim_at(&d->pool, b)->bits = a->parts;
	csim_fill(c, a->fp, csim_cause_of(a->op));
}

bool csim_dedup_access(struct csim_cache *c, const struct csim_access *a)
{
	struct csim_dedup *dd = c->priv;
	struct csim_pool *meta = dd->meta->pool(c);
	uint32_t n = dd->meta->lookup(c, a->key);
	struct csim_node *e;
	bool hit;

	if (n != CSIM_NONE) {
		e = csim_at(meta, n);
		hit = a->op == CSIM_WRITE || e->fp == a->fp;
		dd->meta->touch(c, n);
		e = csim_at(meta, n);
		e->stamp = a->now;
		e->flags &= ~CSIM_RCE_MARK;
		if (e->fp == a->fp) {
			uint32_t b = csim_pool_find(&dd->data.pool, a->fp);

			csim_at(&dd->data.pool, b)->bits |= a->parts;
			return hit;
		}
		/*
		 * New content at a cached address: drop the old block's
		 * reference (the block may then make the room), and point it
		 * at the new block; pinned, it is nobody's victim meanwhile.
		 */
		e->flags |= CSIM_PINNED;
		csim_data_unref(&dd->data, csim_pool_find(&dd->data.pool, e->fp));
		ref_block(c, a);
		e = csim_at(meta, n);
		e->fp = a->fp;
		e->flags &= ~CSIM_PINNED;
		return hit;
	}
	if (!a->allocate)
		return false;
	ref_block(c, a);
	n = dd->meta->insert(c, a->key);
	e = csim_at(meta, n);
	e->fp = a->fp;
	e->stamp = a->now;
	e->flags = 0;
	e->count = 0;
	return false;
}

void csim_dedup_invalidate(struct csim_cache *c, uint64_t key)
{
	struct csim_dedup *dd = c->priv;
	uint32_t n = dd->meta->lookup(c, key);

	if (n == CSIM_NONE)
		return;
	dd->meta->remove(c, n);
	c->st.invalidations++;
	c->st.meta_evictions--;		/* remove() left through csim_dedup_leave() */
}

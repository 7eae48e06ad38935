// SPDX-License-Identifier: GPL-2.0
/*
 * csim_darc_common.c - the ARC metadata cache of D-ARC and CDAC-ARC
 * (csim_darc_common.h): lookups, hits, inserts with ARC's room-making,
 * the data cache's reclaim (REPLACE until a block is free) and removal.
 */
#include <stdlib.h>

#include "tools/cachesim/csim_darc_common.h"

static struct darc *darc_of(struct csim_cache *c)
{
	return c->priv;
}

static uint32_t darc_lookup(struct csim_cache *c, uint64_t key)
{
	uint32_t n;
	int where = csim_arc_lookup(&darc_of(c)->arc, key, &n);

	return where == ARC_T1 || where == ARC_T2 ? n : CSIM_NONE;
}

static void darc_touch(struct csim_cache *c, uint32_t n)
{
	csim_arc_hit(&darc_of(c)->arc, n);
}

static uint32_t darc_insert(struct csim_cache *c, uint64_t key)
{
	struct csim_arc *arc = &darc_of(c)->arc;
	uint32_t n;
	int where = csim_arc_lookup(arc, key, &n);

	return csim_arc_miss(arc, key, where, n);
}

static void darc_reclaim(struct csim_cache *c)
{
	csim_arc_replace(&darc_of(c)->arc, false);
}

static void darc_remove(struct csim_cache *c, uint32_t n)
{
	csim_arc_remove(&darc_of(c)->arc, n);
}

static struct csim_pool *darc_pool(struct csim_cache *c)
{
	return &darc_of(c)->arc.pool;
}

static const struct csim_meta_ops darc_meta = {
	.lookup = darc_lookup,
	.touch = darc_touch,
	.insert = darc_insert,
	.reclaim = darc_reclaim,
	.remove = darc_remove,
	.pool = darc_pool,
};

static void darc_leave(struct csim_arc *arc, uint32_t n)
{
	csim_dedup_leave(arc->user.ctx, csim_at(&arc->pool, n));
}

int csim_darc_create(struct csim_cache *c,
		     uint32_t (*pick)(struct csim_arc *arc, struct csim_list *l, uint8_t id))
{
	struct darc *d = calloc(1, sizeof(*d));
	struct csim_arc_user user = { .pick = pick, .leave = darc_leave, .ctx = c };

	if (!d)
		csim_oom();
	csim_data_init(&d->dd.data, c->p.capacity);
	d->dd.meta = &darc_meta;
	csim_arc_init(&d->arc, c->p.meta_entries, &user);
	c->priv = d;
	return 0;
}

void csim_darc_destroy(struct csim_cache *c)
{
	struct darc *d = c->priv;

	csim_data_free(&d->dd.data);
	csim_arc_free(&d->arc);
	free(d);
}

/* A ghost keeps its key, links and list id: 8 + 8 + 4, and its index slot. */
#define GHOST_BYTES	(8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)

void csim_darc_memory(const struct csim_cache *c, struct csim_memory *m,
		      uint32_t address_bytes, uint32_t block_bytes)
{
	const struct darc *d = c->priv;
	uint64_t ghosts = d->arc.pool.peak > c->p.meta_entries ?
			  d->arc.pool.peak - c->p.meta_entries : 0;

	m->bytes_per_address = address_bytes;
	m->bytes_per_block = block_bytes;
	m->bytes_per_ghost = GHOST_BYTES;
	m->peak_bytes = (d->arc.pool.peak - ghosts) * address_bytes + ghosts * GHOST_BYTES +
			d->dd.data.pool.peak * block_bytes;
}

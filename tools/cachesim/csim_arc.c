// SPDX-License-Identifier: GPL-2.0
/*
 * csim_arc.c - ARC over addresses (block mode) or units (unit mode), a
 * copy per address: the plain cache without dedup (csim_arc_core.h has
 * the rules; csim_plain_hit() what a hit is).
 *
 * Memory: per cached block a node (key, links, list id) and its index
 * slot; per ghost the same (a ghost keeps its key).
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_arc_core.h"

static uint32_t pick_tail(struct csim_arc *arc, struct csim_list *l, uint8_t id)
{
	return l->tail;
}

static void leave_nothing(struct csim_arc *arc, uint32_t n)
{
}

static int arc_create(struct csim_cache *c)
{
	struct csim_arc *arc = malloc(sizeof(*arc));
	struct csim_arc_user user = { .pick = pick_tail, .leave = leave_nothing };

	if (!arc)
		csim_oom();
	csim_arc_init(arc, c->p.capacity, &user);
	c->priv = arc;
	return 0;
}

static void arc_destroy(struct csim_cache *c)
{
	csim_arc_free(c->priv);
	free(c->priv);
}

static bool arc_access(struct csim_cache *c, const struct csim_access *a)
{
	struct csim_arc *arc = c->priv;
	uint32_t n;
	int where = csim_arc_lookup(arc, a->key, &n);

	if (where == ARC_T1 || where == ARC_T2) {
		csim_arc_hit(arc, n);
		return csim_plain_hit(c, csim_at(&arc->pool, n), a);
	}
	if (!a->allocate)
		return false;
	n = csim_arc_miss(arc, a->key, where, n);
	csim_at(&arc->pool, n)->fp = a->fp;
	c->st.evictions = arc->evictions;
	csim_fill(c, a->key, csim_cause_of(a->op));
	return false;
}

static void arc_invalidate(struct csim_cache *c, uint64_t key)
{
	struct csim_arc *arc = c->priv;
	uint32_t n;
	int where = csim_arc_lookup(arc, key, &n);

	if (where != ARC_T1 && where != ARC_T2)
		return;
	csim_arc_remove(arc, n);
	c->st.invalidations++;
}

/* key 8, two links 8, list id 1 (padded to 4), and the index slot */
#define ARC_NODE_BYTES	(8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)

static void arc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct csim_arc *arc = c->priv;

	m->bytes_per_block = ARC_NODE_BYTES;
	m->bytes_per_ghost = ARC_NODE_BYTES;
	m->peak_bytes = arc->pool.peak * ARC_NODE_BYTES;
}

const struct csim_policy csim_arc = {
	.name = "arc",
	.kind = CSIM_PLAIN,
	.help = "ARC with ghost lists, a copy per address (or unit)",
	.create = arc_create,
	.destroy = arc_destroy,
	.access = arc_access,
	.invalidate = arc_invalidate,
	.memory = arc_memory,
};

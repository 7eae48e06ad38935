// SPDX-License-Identifier: GPL-2.0
/*
 * csim_plain.c - the plain policies: a copy per address (block mode) or
 * per unit (unit mode), without dedup, kept by one cache algorithm of the
 * core (cachealg/: its replacement policy, every miss admitted).  A hit is
 * the algorithm's hit and csim_plain_hit()'s rule; a miss that may enter
 * evicts the algorithm's victim when the cache is full.  LRU, FIFO, LFU
 * and ARC are the tests' reference-checked ones (libCacheSim's hit counts);
 * another replacement policy of cachealg/ is one line of the registry
 * below and one of csim_cache.c's.
 *
 * Memory (the design's, as the report counts it): per cached block a node
 * (key 8, list links 8, and the policy's own field) and its hash slot; ARC
 * per ghost the same; LFU a list head per frequency in use.
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_ids.h"

struct plain {
	struct cachealg alg;
	struct csim_ids ids;		/* address -> key of alg (units: themselves) */
	uint64_t *fp;			/* [keys]: the cached copy's content */
	uint64_t peak;			/* the most keys held (cached and ghosts) */
};

static int plain_create(struct csim_cache *c)
{
	struct plain *l = calloc(1, sizeof(*l));

	if (!l)
		csim_oom();
	csim_ids_init(&l->ids, c->unit_mode);
	l->fp = calloc(c->p.keys ? c->p.keys : 1, sizeof(*l->fp));
	if (!l->fp)
		csim_oom();
	csim_alg_init(c, &l->alg, c->policy->repl, &ssd_cache_admit_always, c->p.capacity,
		      c->p.keys, NULL);
	c->priv = l;
	return 0;
}

static void plain_destroy(struct csim_cache *c)
{
	struct plain *l = c->priv;

	ssd_cachealg_exit(&l->alg);
	csim_ids_free(&l->ids);
	free(l->fp);
	free(l);
}

static bool plain_access(struct csim_cache *c, const struct csim_access *a)
{
	struct plain *l = c->priv;
	uint32_t id, slot = csim_cached(&l->alg, &l->ids, a->key, &id);

	if (slot != CACHE_NONE) {
		ssd_cachealg_hit(&l->alg, slot);
		return csim_plain_hit(c, &l->fp[id], a);
	}
	if (!a->allocate)
		return false;
	id = csim_id_get(&l->ids, a->key);
	csim_enter(&l->alg, id, &c->st.evictions);
	l->fp[id] = a->fp;
	if (ssd_cachealg_entries(&l->alg) > l->peak)
		l->peak = ssd_cachealg_entries(&l->alg);
	csim_fill(c, a->key, csim_cause_of(a->op));
	return false;
}

static void plain_invalidate(struct csim_cache *c, uint64_t key)
{
	struct plain *l = c->priv;
	uint32_t id, slot = csim_cached(&l->alg, &l->ids, key, &id);

	if (slot == CACHE_NONE)
		return;
	ssd_cachealg_remove(&l->alg, slot, false);
	c->st.invalidations++;
}

/* key 8, two links 8, and the hash slot */
#define QUEUE_NODE_BYTES	(8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)
/* + the frequency or the list id, 4 */
#define NODE4_BYTES		(8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)
/* an LFU frequency list: head, tail and count 16, and its slot */
#define LFU_LIST_BYTES		(16 + CSIM_MAP_BYTES_PER_ENTRY)

static void queue_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct plain *l = c->priv;

	m->bytes_per_block = QUEUE_NODE_BYTES;
	m->peak_bytes = l->peak * QUEUE_NODE_BYTES;
}

static void lfu_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct plain *l = c->priv;

	m->bytes_per_block = NODE4_BYTES;
	m->peak_bytes = l->peak * NODE4_BYTES +
			(uint64_t)ssd_cache_lfu_lists_peak(&l->alg) * LFU_LIST_BYTES;
}

static void arc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct plain *l = c->priv;

	m->bytes_per_block = NODE4_BYTES;
	m->bytes_per_ghost = NODE4_BYTES;
	m->peak_bytes = l->peak * NODE4_BYTES;
}

#define PLAIN_POLICY(NAME, REPL, HELP, MEMORY)	{	\
	.name = NAME,					\
	.kind = CSIM_PLAIN,				\
	.help = HELP,					\
	.repl = REPL,					\
	.create = plain_create,				\
	.destroy = plain_destroy,			\
	.access = plain_access,				\
	.invalidate = plain_invalidate,			\
	.memory = MEMORY,				\
}

const struct csim_policy csim_lru = PLAIN_POLICY("lru", &ssd_cache_repl_lru,
	"LRU, a copy per address (or unit)", queue_memory);
const struct csim_policy csim_fifo = PLAIN_POLICY("fifo", &ssd_cache_repl_fifo,
	"FIFO, a copy per address (or unit)", queue_memory);
const struct csim_policy csim_lfu = PLAIN_POLICY("lfu", &ssd_cache_repl_lfu,
	"LFU (in-cache frequency, oldest first among equals), a copy per address", lfu_memory);
const struct csim_policy csim_arc = PLAIN_POLICY("arc", &ssd_cache_repl_arc,
	"ARC with ghost lists, a copy per address (or unit)", arc_memory);

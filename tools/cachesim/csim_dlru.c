// SPDX-License-Identifier: GPL-2.0
/*
 * csim_dlru.c - D-LRU (CacheDedup, Li et al., FAST'16): two LRUs managed
 * apart (each the core's LRU, cachealg/repl_lru.c), one of addresses (the
 * metadata cache, meta_entries: address -> content) and one of unique
 * blocks (the data cache, capacity).  A read hits when its address is
 * cached with the content read and that block is cached; a hit or a miss
 * moves both to their heads.  Either LRU evicts its own tail when full:
 * an address whose block was evicted stays (it hits again if the block
 * comes back), a block that cached addresses point to may go.  A write to
 * a cached address points it at the new content (dedup: no cache write
 * if that block is cached).
 *
 * Memory (the design's): per address key 8, fingerprint 8, links 8, and
 * its hash slot; per block fingerprint 8, links 8, and its slot.
 */
#include "tools/cachesim/csim_dedup.h"

/* The block @b of @a, to the head of the data LRU: cached, or written in. */
static void use_block(struct csim_cache *c, struct csim_dedup *d, const struct csim_access *a,
		      uint32_t b)
{
	uint32_t slot = cachealg_find(&d->data, b);

	if (slot != CACHE_NONE) {
		ssd_cachealg_hit(&d->data, slot);
		c->st.dedup_fills_saved++;
		return;
	}
	csim_enter(&d->data, b, &c->st.evictions);
	if (d->data.dir.count > d->block_peak)
		d->block_peak = d->data.dir.count;
	csim_fill(c, a->fp, csim_cause_of(a->op));
}

bool csim_dlru_access(struct csim_cache *c, const struct csim_access *a)
{
	struct csim_dedup *d = c->priv;
	uint32_t id, slot = csim_cached(&d->addr, &d->addr_ids, a->key, &id);
	uint32_t b = csim_id_get(&d->content_ids, a->fp);

	if (slot != CACHE_NONE) {
		uint32_t cached = cachealg_find(&d->data, d->content[id]);
		bool hit = cached != CACHE_NONE && (a->op == CSIM_WRITE || d->content[id] == b);

		ssd_cachealg_hit(&d->addr, slot);
		if (!hit && !a->allocate)
			return false;
		if (d->content[id] == b && cached != CACHE_NONE) {
			ssd_cachealg_hit(&d->data, cached);
			return hit;
		}
		/* New content, or its block was evicted: (re)point it. */
		d->content[id] = b;
		use_block(c, d, a, b);
		return hit;
	}
	if (!a->allocate)
		return false;
	id = csim_id_get(&d->addr_ids, a->key);
	csim_enter(&d->addr, id, &c->st.meta_evictions);
	csim_dedup_count_peak(d);
	d->content[id] = b;
	use_block(c, d, a, b);
	return false;
}

void csim_dlru_invalidate(struct csim_cache *c, uint64_t key)
{
	struct csim_dedup *d = c->priv;
	uint32_t id, slot = csim_cached(&d->addr, &d->addr_ids, key, &id);

	if (slot == CACHE_NONE)
		return;
	ssd_cachealg_remove(&d->addr, slot, false);
	c->st.invalidations++;
}

static int dlru_create(struct csim_cache *c)
{
	csim_dedup_create(c, &ssd_cache_repl_lru, false, true);
	return 0;
}

#define DLRU_ADDRESS_BYTES	(8 + 8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)
#define DLRU_BLOCK_BYTES	(8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)

static void dlru_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct csim_dedup *d = c->priv;

	m->bytes_per_address = DLRU_ADDRESS_BYTES;
	m->bytes_per_block = DLRU_BLOCK_BYTES;
	m->peak_bytes = d->addr_peak * DLRU_ADDRESS_BYTES + d->block_peak * DLRU_BLOCK_BYTES;
}

const struct csim_policy csim_dlru = {
	.name = "d-lru",
	.kind = CSIM_DEDUP,
	.help = "D-LRU: an LRU of addresses and an LRU of unique blocks, managed apart",
	.create = dlru_create,
	.destroy = csim_dedup_destroy,
	.access = csim_dlru_access,
	.invalidate = csim_dlru_invalidate,
	.memory = dlru_memory,
};

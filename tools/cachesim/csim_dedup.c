// SPDX-License-Identifier: GPL-2.0
/*
 * csim_dedup.c - the CacheDedup architecture (csim_dedup.h): making it,
 * the refcount-driven data cache and its access path (D-ARC, CDAC-LRU,
 * CDAC-ARC), and CDAC's BHI, which the core's RCE (cachealg/evict_rce.c)
 * asks about the address at the metadata cache's victim position.  When
 * CDAC keeps every address a scan meets (no forced drop), the access that
 * needed the room is not cached: its block is not written, or its address
 * not entered.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tools/cachesim/csim_dedup.h"

static struct csim_dedup *dedup_of(struct csim_cache *c)
{
	return c->priv;
}

/*
 * BHI: the block of the address at @slot is cold if fewer than
 * bhi_cold_percent of its 4 KiB parts were touched since it entered; the
 * address is flagged if it was not accessed for bhi_stale_accesses.
 */
static enum cache_bhi bhi(void *ctx, uint32_t slot)
{
	struct csim_cache *c = ctx;
	struct csim_dedup *d = c->priv;
	uint32_t key = d->addr.dir.lpn[slot], b = d->content[key];

	if (csim_popcount(d->bits[b]) * 100ULL < c->p.bhi_cold_percent * (uint64_t)c->parts_per_block)
		return CACHE_BHI_COLD;
	if (c->p.bhi_stale_accesses && c->now - d->stamp[key] > c->p.bhi_stale_accesses)
		return CACHE_BHI_STALE;
	return CACHE_BHI_HOT;
}

/*
 * CDAC kept the address at @slot for another cycle: its block's bitmap
 * starts anew ("The current cycle", cdac-slides.txt:296).
 */
static void bhi_kept(void *ctx, uint32_t slot)
{
	struct csim_cache *c = ctx;
	struct csim_dedup *d = c->priv;

	d->bits[d->content[d->addr.dir.lpn[slot]]] = 0;
}

/* RCE's references of an address: those of its block. */
static uint32_t block_refs(const void *ctx, uint64_t key)
{
	const struct csim_dedup *d = ctx;

	return d->count[d->content[key]];
}

static void *table(uint64_t count, size_t bytes)
{
	void *t = calloc(count ? count : 1, bytes);

	if (!t)
		csim_oom();
	return t;
}

void csim_dedup_create(struct csim_cache *c, const struct cache_repl_ops *repl, bool cdac,
		       bool lru_data)
{
	struct csim_dedup *d = calloc(1, sizeof(*d));

	if (!d)
		csim_oom();
	c->priv = d;
	csim_ids_init(&d->addr_ids, false);
	csim_ids_init(&d->content_ids, false);
	d->content = table(c->p.keys, sizeof(*d->content));
	d->stamp = table(c->p.keys, sizeof(*d->stamp));
	d->rce = (struct cache_rce_params){
		.fall_percent = c->p.rce_drop_percent,
		.note_bytes = sizeof(uint32_t),
		.forget_on_hit = true,
		.limit_queue = true,
		.rce_off = !c->p.rce,
		.hot_leaves = c->p.bhi_hot_leaves,
		.remark = c->p.rce_remark,
		.forced_drop = c->p.cdac_forced_drop,
		.cold_drops = c->p.cdac_cold_drops,
		.bhi = c->p.bhi ? bhi : NULL,
		.bhi_kept = c->p.bhi && c->p.bhi_reset ? bhi_kept : NULL,
		.bhi_ctx = c,
	};
	d->addr.refs = block_refs;
	d->addr.refs_ctx = d;
	csim_alg_init(c, &d->addr, repl, &ssd_cache_admit_always, c->p.meta_entries, c->p.keys,
		      cdac ? &d->rce : NULL);
	if (lru_data) {
		csim_alg_init(c, &d->data, &ssd_cache_repl_lru, &ssd_cache_admit_always,
			      c->p.capacity, c->p.contents, NULL);
		return;
	}
	if (ssd_cache_set_init(&d->zero, (uint32_t)c->p.capacity))
		csim_oom();
	d->count = table(c->p.contents, sizeof(*d->count));
	d->bits = table(c->p.contents, sizeof(*d->bits));
	d->cached = table(c->p.contents, sizeof(*d->cached));
}

void csim_dedup_destroy(struct csim_cache *c)
{
	struct csim_dedup *d = c->priv;

	ssd_cachealg_exit(&d->addr);
	if (d->data.repl)
		ssd_cachealg_exit(&d->data);
	ssd_cache_set_exit(&d->zero);
	csim_ids_free(&d->addr_ids);
	csim_ids_free(&d->content_ids);
	free(d->content);
	free(d->stamp);
	free(d->count);
	free(d->bits);
	free(d->cached);
	free(d);
}

void csim_dedup_count_peak(struct csim_dedup *d)
{
	uint64_t held = ssd_cachealg_entries(&d->addr);

	if (held > d->addr_peak)
		d->addr_peak = held;
}

/* CDAC's counts are RCE's. */
static void sync_counters(struct csim_cache *c, const struct csim_dedup *d)
{
	const struct cache_rce_counters *n;

	if (!d->addr.rce)
		return;
	n = &d->addr.rce->counters;
	c->st.bhi_cold_drops = n->bhi_cold_drops;
	c->st.bhi_stale_drops = n->bhi_stale_drops;
	c->st.rce_single_drops = n->single_drops;
	c->st.rce_fall_drops = n->fall_drops;
	c->st.rce_moves = n->moves;
	c->st.rce_forced_drops = n->forced_drops;
	c->st.bhi_hot_keeps = n->bhi_hot_keeps;
	c->st.bhi_hot_drops = n->bhi_hot_drops;
	c->st.cdac_no_victim = n->no_victim;
}

static void block_ref(struct csim_dedup *d, uint32_t b)
{
	if (!d->count[b]++)
		ssd_cache_set_remove(&d->zero, ssd_cache_set_find(&d->zero, b));
}

static void block_unref(struct csim_dedup *d, uint32_t b)
{
	if (!--d->count[b])
		ssd_cache_set_insert(&d->zero, b);
}

/* Evict the oldest block of the zero list; whether there was one. */
static bool drop_zero(struct csim_cache *c, struct csim_dedup *d)
{
	uint32_t slot = d->zero.tail;

	if (slot == CACHE_NONE)
		return false;
	d->cached[d->zero.lpn[slot]] = 0;
	ssd_cache_set_remove(&d->zero, slot);
	d->blocks--;
	c->st.evictions++;
	return true;
}

/* The address of @slot leaves the metadata cache (@evicted: for room). */
static void addr_leave(struct csim_cache *c, struct csim_dedup *d, uint32_t slot, bool evicted)
{
	block_unref(d, d->content[d->addr.dir.lpn[slot]]);
	ssd_cachealg_remove(&d->addr, slot, evicted);
}

/*
 * The metadata cache gives up an address (a victim for @key, or for
 * room); false if CDAC kept every address it met.
 */
static bool addr_evict(struct csim_cache *c, struct csim_dedup *d, uint64_t key)
{
	uint32_t victim = ssd_cachealg_victim(&d->addr, key);

	if (victim == CACHE_NONE && d->addr.rce)
		return false;
	if (victim == CACHE_NONE) {
		fprintf(stderr, "cachesim: %s: no address may leave the metadata cache\n",
			c->policy->name);
		exit(1);
	}
	addr_leave(c, d, victim, true);
	c->st.meta_evictions++;
	return true;
}

/*
 * A reference to block @b (the content of @a) for an address: take the
 * cached one, or make room (blocks nobody points to first, then addresses,
 * until a block is free) and write it into the cache.  False (nothing
 * done) if no room could be made.
 */
static bool ref_block(struct csim_cache *c, struct csim_dedup *d, const struct csim_access *a,
		      uint32_t b)
{
	if (d->cached[b]) {
		block_ref(d, b);
		d->bits[b] |= a->parts;
		if (a->allocate)
			c->st.dedup_fills_saved++;
		return true;
	}
	while (d->blocks >= c->p.capacity)
		if (!drop_zero(c, d) && !addr_evict(c, d, CACHE_RECLAIM))
			return false;
	d->cached[b] = 1;
	d->count[b] = 1;
	d->bits[b] = a->parts;
	if (++d->blocks > d->block_peak)
		d->block_peak = d->blocks;
	csim_fill(c, a->fp, csim_cause_of(a->op));
	return true;
}

static bool dedup_access(struct csim_cache *c, struct csim_dedup *d, const struct csim_access *a)
{
	uint32_t id, slot = csim_cached(&d->addr, &d->addr_ids, a->key, &id);
	uint32_t b = csim_id_get(&d->content_ids, a->fp);
	bool hit;

	if (slot != CACHE_NONE) {
		hit = a->op == CSIM_WRITE || d->content[id] == b;
		ssd_cachealg_hit(&d->addr, slot);
		d->stamp[id] = a->now;
		if (d->content[id] == b) {
			d->bits[b] |= a->parts;
			return hit;
		}
		/*
		 * New content at a cached address: drop the old block's
		 * reference (the block may then make the room), and point it
		 * at the new block; pinned, it is nobody's victim meanwhile.
		 */
		d->addr.pinned = slot;
		block_unref(d, d->content[id]);
		if (ref_block(c, d, a, b))
			d->content[id] = b;
		else	/* no room for the new content: the address leaves */
			ssd_cachealg_remove(&d->addr, slot, false);
		d->addr.pinned = CACHE_NONE;
		return hit;
	}
	if (!a->allocate)
		return false;
	if (!ref_block(c, d, a, b))
		return false;
	id = csim_id_get(&d->addr_ids, a->key);
	if (cachealg_full(&d->addr) && !addr_evict(c, d, id)) {
		block_unref(d, b);	/* it waits, unreferenced, in the zero list */
		return false;
	}
	ssd_cachealg_insert(&d->addr, id);
	csim_dedup_count_peak(d);
	d->content[id] = b;
	d->stamp[id] = a->now;
	return false;
}

bool csim_dedup_access(struct csim_cache *c, const struct csim_access *a)
{
	struct csim_dedup *d = dedup_of(c);
	bool hit = dedup_access(c, d, a);

	sync_counters(c, d);
	return hit;
}

void csim_dedup_invalidate(struct csim_cache *c, uint64_t key)
{
	struct csim_dedup *d = dedup_of(c);
	uint32_t id, slot = csim_cached(&d->addr, &d->addr_ids, key, &id);

	if (slot == CACHE_NONE)
		return;
	addr_leave(c, d, slot, false);
	c->st.invalidations++;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * admit_larc.c - LARC (lazy adaptive replacement, Huang et al., MSST
 * 2013): a miss enters only if its key is in the ghost LRU, a list of
 * larc_ghost_pages recently missed keys without data; otherwise the key
 * goes into the ghost list (its oldest entry falls out when full) and the
 * access bypasses.  So a key enters on its second miss within the ghost
 * list's reach.  Memory: the ghost list (struct cache_set).
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key larc_ghost_pages =
	SSD_CONFIG_KEY(larc_ghost_pages, 0, 0, U32_MAX, 0, NULL,
		       "LARC: pages the ghost LRU remembers; 0 = cache_pages / 10");

static const struct ssd_config_key *const larc_keys[] = { &larc_ghost_pages, NULL };

static u32 ghost_pages(const struct cache_params *p, u32 capacity)
{
	u64 pages = cachealg_knob(p, &larc_ghost_pages);

	if (pages)
		return (u32)pages;
	return capacity / 10 ? capacity / 10 : 1;
}

static u64 larc_table_bytes(u64 total, const struct cache_params *p, u32 capacity, u64 keys)
{
	return ssd_cache_set_bytes(total, ghost_pages(p, capacity));
}

static int larc_init(struct cachealg *c)
{
	return ssd_cache_set_init(c->admit_state, ghost_pages(&c->p, c->dir.capacity));
}

static void larc_exit(struct cachealg *c)
{
	ssd_cache_set_exit(c->admit_state);
}

static enum cache_verdict larc_decide(struct cachealg *c, u64 lpn, const struct cache_req *req)
{
	struct cache_set *ghost = c->admit_state;
	u32 slot = ssd_cache_set_find(ghost, lpn);

	if (slot != CACHE_NONE) {
		ssd_cache_set_remove(ghost, slot);
		return CACHE_ADMIT;
	}
	if (ghost->count == ghost->capacity)
		ssd_cache_set_remove(ghost, ghost->tail);
	ssd_cache_set_insert(ghost, lpn);
	return CACHE_BYPASS_POLICY;
}

static int larc_check(struct cachealg *c)
{
	return ssd_cache_set_check(c->admit_state, c->dev_name, c->who, "LARC ghost list");
}

/* Snapshots: the ghost list. */
static void larc_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	ssd_cache_set_save(c->admit_state, w);
}

static void larc_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	ssd_cache_set_load(c->admit_state, r, c->keys, c->who, "LARC ghost list");
}

const struct cache_admit_ops ssd_cache_admit_larc = {
	.name = "larc",
	.keys = larc_keys,
	.state_bytes = sizeof(struct cache_set),
	.table_bytes = larc_table_bytes,
	.init = larc_init,
	.exit = larc_exit,
	.decide = larc_decide,
	.check = larc_check,
	.save = larc_save,
	.load = larc_load,
};

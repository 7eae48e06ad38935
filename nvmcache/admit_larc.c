// SPDX-License-Identifier: GPL-2.0
/*
 * admit_larc.c - LARC (lazy adaptive replacement, Huang et al., MSST
 * 2013): a write miss enters only if its page is in the ghost LRU, a list
 * of larc_ghost_pages recently missed pages without data; otherwise the
 * page goes into the ghost list (its oldest entry falls out when full)
 * and the write bypasses.  So a page enters on its second miss within the
 * ghost list's reach.  Memory: the ghost list (struct cache_set).
 */
#include "nvmcache/nvmcache_internal.h"

static const struct ssd_config_key larc_ghost_pages =
	SSD_CONFIG_KEY(larc_ghost_pages, 0, 0, U32_MAX, 0, NULL,
		       "LARC: pages the ghost LRU remembers; 0 = cache_pages / 10");

static const struct ssd_config_key *const larc_keys[] = { &larc_ghost_pages, NULL };

static u32 ghost_pages(const struct ssd_config *cfg, u32 capacity)
{
	u64 pages = ssd_config_get(cfg, &larc_ghost_pages);

	if (pages)
		return pages;
	return capacity / 10 ? capacity / 10 : 1;
}

static u64 larc_table_bytes(u64 total, const struct ssd_config *cfg, u32 capacity)
{
	return ssd_cache_set_bytes(total, ghost_pages(cfg, capacity));
}

static int larc_init(struct nvmcache *c, const struct ssd_config *cfg)
{
	return ssd_cache_set_init(c->policy, ghost_pages(cfg, c->dir.capacity));
}

static void larc_exit(struct nvmcache *c)
{
	ssd_cache_set_exit(c->policy);
}

static enum cache_verdict larc_decide(struct nvmcache *c, u64 lpn,
				      const struct ssd_io *io, u32 victim)
{
	struct cache_set *ghost = c->policy;
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

static int larc_check(struct nvmcache *c)
{
	return ssd_cache_set_check(c->policy, c->dev_name, "LARC ghost list");
}

/* Snapshots: the ghost list. */
static void larc_save(struct nvmcache *c, struct ssd_snap_writer *w)
{
	ssd_cache_set_save(c->policy, w);
}

static void larc_load(struct nvmcache *c, struct ssd_snap_reader *r)
{
	ssd_cache_set_load(c->policy, r, c->pages, "LARC ghost list");
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

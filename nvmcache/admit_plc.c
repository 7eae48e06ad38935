// SPDX-License-Identifier: GPL-2.0
/*
 * admit_plc.c - PLC-Cache (Liu, Chai, Xiao, Qin, MSST 2014): keep Popular
 * and Long-term Cached data, write the flash cache as little as possible.
 * Three rules decide a miss of page b when the cache is full:
 *
 *   popularity filter  b enters only if its access count (every page write,
 *                      and read with cache_read_allocate=1) exceeds
 *                      plc_access_threshold; a page's count is reset when
 *                      it is evicted
 *   delayed eviction   the replacement policy's victim a (with
 *                      cache_replacement=gclock, the paper's CLOCK ring:
 *                      the hand lowers inner priorities until one is 0) has
 *                      a delay count, plc_delay when it entered; each
 *                      attempt lowers it, and while it stays above 0 the
 *                      replacement is abandoned and b is not cached
 *   in-out comparison  a is replaced by b only if b has more references
 *                      than a (the dedup layer above reports them; without
 *                      dedup every page has one) or b's access count
 *                      exceeds a's times plc_inout_percent / 100 (the
 *                      paper's f in [1, 2])
 *
 * With room in the cache only the filter applies.  The paper's cache unit
 * is a 2 MB container of chunks; in the device it is one page.  Memory:
 * one byte of access count per logical page, one byte of delay per cached
 * page (plus the references every dedup-aware policy keeps: two bytes per
 * logical page).
 */
#include "nvmcache/nvmcache_internal.h"

static const struct ssd_config_key plc_access_threshold =
	SSD_CONFIG_KEY(plc_access_threshold, 4, 0, 254, 0, NULL,
		       "PLC: a miss enters only if its page's access count exceeds this");
static const struct ssd_config_key plc_delay =
	SSD_CONFIG_KEY(plc_delay, 2, 0, 255, 0, NULL,
		       "PLC: delay count of a cached page; an attempt to evict it lowers it, abandoned while > 0");
static const struct ssd_config_key plc_inout_percent =
	SSD_CONFIG_KEY(plc_inout_percent, 100, 100, 200, 0, NULL,
		       "PLC: a newcomer beats the victim if its access count exceeds the victim's times this / 100");

static const struct ssd_config_key *const plc_keys[] = {
	&plc_access_threshold, &plc_delay, &plc_inout_percent, NULL,
};

struct plc_state {
	u8 *access;		/* [logical pages]: access counts, saturating */
	u8 *delay;		/* [capacity]: delay counts */
	u64 pages;
	u32 threshold;
	u32 delay_start;
	u32 inout_percent;
};

static u64 plc_table_bytes(u64 total, const struct ssd_config *cfg, u32 capacity)
{
	total = ssd_tables_add(total, 1, ssd_config_logical_pages(cfg), sizeof(u8));
	return ssd_tables_add(total, 1, capacity, sizeof(u8));
}

static int plc_init(struct nvmcache *c, const struct ssd_config *cfg)
{
	struct plc_state *plc = c->policy;

	plc->pages = ssd_config_logical_pages(cfg);
	plc->threshold = (u32)ssd_config_get(cfg, &plc_access_threshold);
	plc->delay_start = (u32)ssd_config_get(cfg, &plc_delay);
	plc->inout_percent = (u32)ssd_config_get(cfg, &plc_inout_percent);
	plc->access = ssd_zalloc(plc->pages);
	plc->delay = ssd_zalloc(c->dir.capacity ? c->dir.capacity : 1);
	return plc->access && plc->delay ? 0 : -ENOMEM;
}

static void plc_exit(struct nvmcache *c)
{
	struct plc_state *plc = c->policy;

	ssd_free(plc->access);
	ssd_free(plc->delay);
	plc->access = NULL;
	plc->delay = NULL;
}

static void plc_access(struct nvmcache *c, u64 lpn)
{
	struct plc_state *plc = c->policy;

	if (plc->access[lpn] < U8_MAX)
		plc->access[lpn]++;
}

static enum cache_verdict plc_decide(struct nvmcache *c, u64 lpn, const struct ssd_io *io,
				     u32 victim)
{
	struct plc_state *plc = c->policy;
	u64 old;

	if (plc->access[lpn] <= plc->threshold)
		return CACHE_BYPASS_POLICY;
	if (victim == CACHE_NONE)
		return CACHE_ADMIT;
	if (plc->delay[victim]) {
		plc->delay[victim]--;
		if (plc->delay[victim])
			return CACHE_BYPASS_DELAY;
	}
	old = c->dir.lpn[victim];
	if (cache_refs(c, lpn) > cache_refs(c, old) ||
	    (u64)plc->access[lpn] * 100 > (u64)plc->access[old] * plc->inout_percent)
		return CACHE_ADMIT;
	return CACHE_BYPASS_INOUT;
}

static void plc_entered(struct nvmcache *c, u32 slot)
{
	struct plc_state *plc = c->policy;

	plc->delay[slot] = (u8)plc->delay_start;
}

static void plc_left(struct nvmcache *c, u32 slot, bool evicted)
{
	struct plc_state *plc = c->policy;

	if (evicted)
		plc->access[c->dir.lpn[slot]] = 0;
}

/* Snapshots: every page's access count and every slot's delay count. */
static void plc_save(struct nvmcache *c, struct ssd_snap_writer *w)
{
	struct plc_state *plc = c->policy;

	ssd_snap_put_array(w, plc->access, plc->pages, sizeof(u8));
	ssd_snap_put_array(w, plc->delay, c->dir.capacity, sizeof(u8));
}

static void plc_load(struct nvmcache *c, struct ssd_snap_reader *r)
{
	struct plc_state *plc = c->policy;
	u32 slot;

	ssd_snap_get_array(r, plc->access, plc->pages, sizeof(u8));
	ssd_snap_get_array(r, plc->delay, c->dir.capacity, sizeof(u8));
	/* A delay starts at plc_delay and only falls. */
	for (slot = 0; slot < c->dir.capacity && !r->error; slot++)
		if (plc->delay[slot] > (u8)plc->delay_start)
			ssd_snap_refuse(r, "nvmcache PLC: slot %u delay %u, plc_delay is %u", slot,
					plc->delay[slot], (u8)plc->delay_start);
}

const struct cache_admit_ops ssd_cache_admit_plc = {
	.name = "plc",
	.keys = plc_keys,
	.state_bytes = sizeof(struct plc_state),
	.dedup_aware = true,
	.table_bytes = plc_table_bytes,
	.init = plc_init,
	.exit = plc_exit,
	.access = plc_access,
	.decide = plc_decide,
	.entered = plc_entered,
	.left = plc_left,
	.save = plc_save,
	.load = plc_load,
};

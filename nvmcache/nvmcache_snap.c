// SPDX-License-Identifier: GPL-2.0
/*
 * nvmcache_snap.c - the write cache in a snapshot (its NVMC section):
 *
 *   directory   the cached pages, head (newest) to tail, as (slot, lpn),
 *               then the free slots in the order inserts take them
 *   PRNG        the state of the device's seeded source (ProCache's die)
 *   references  [logical pages] u16, if a policy is dedup-aware
 *   RCE notes   [cache pages] u16, with cache_rce=1
 *   destage     background destage: draining or not, the idle floor
 *   counters
 *   replacement the policy's own state (its save op, repl_*.c)
 *   admission   the policy's own state (its save op, admit_*.c)
 *
 * The cached pages' data is the FTL's (its SLC region), saved below.
 * Loading rebuilds the directory from scratch, checking every slot and
 * lpn, and that its pages are the SLC region's; each policy checks its
 * own values, and the device runs the
 * layer's check() (directory, then both policies) once all is loaded.
 * Nothing is allocated: the tables are those of the new cache.
 */
#include "nvmcache/nvmcache_internal.h"

static const struct ssd_snap_field counter_fields[] = {
	SSD_SNAP_FIELD(struct nvmcache_counters, write_hit_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, admit_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, bypass_pages[CACHE_BYPASS_SIZE]),
	SSD_SNAP_FIELD(struct nvmcache_counters, bypass_pages[CACHE_BYPASS_DICE]),
	SSD_SNAP_FIELD(struct nvmcache_counters, bypass_pages[CACHE_BYPASS_POLICY]),
	SSD_SNAP_FIELD(struct nvmcache_counters, bypass_pages[CACHE_BYPASS_DELAY]),
	SSD_SNAP_FIELD(struct nvmcache_counters, bypass_pages[CACHE_BYPASS_INOUT]),
	SSD_SNAP_FIELD(struct nvmcache_counters, evict_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, destage_background_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, trim_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, read_hit_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, read_miss_pages),
	SSD_SNAP_FIELD(struct nvmcache_counters, fill_pages),
};

void ssd_nvmcache_save(struct ssd_layer *layer, struct ssd_snap_writer *w)
{
	struct nvmcache *c = (struct nvmcache *)layer;

	ssd_cache_set_save(&c->alg.dir, w);
	ssd_snap_put_u64(w, c->rand.state);
	if (c->refcount)
		ssd_snap_put_array(w, c->refcount, c->pages, sizeof(u16));
	if (c->alg.rce)
		ssd_snap_put_array(w, c->alg.rce->note, c->alg.dir.capacity,
				   c->alg.rce->p.note_bytes);
	ssd_snap_put_u8(w, c->draining);
	ssd_snap_put_u64(w, c->idle_floor_ns);
	ssd_snap_put_structs(w, &c->counters, 1, sizeof(c->counters), counter_fields,
			     ARRAY_SIZE(counter_fields));
	ssd_cachealg_save_policies(&c->alg, w);
}

/*
 * The directory agrees with the flash below (loaded first): its pages are
 * exactly those the SLC region holds, so none of them is lost to TLC and
 * the region never holds pages the cache will not destage.
 */
static void check_placement(struct nvmcache *c, struct ssd_snap_reader *r)
{
	u64 lpn, in_slc = 0;
	u32 slot;

	if (ssd_layer_peek(c->layer.lower, 0, NULL) < 0)
		return;		/* no layer below says where data is */
	for (slot = c->alg.dir.head; slot != CACHE_NONE; slot = c->alg.dir.next[slot])
		if (ssd_layer_peek(c->layer.lower, c->alg.dir.lpn[slot], NULL) !=
		    SSD_REGION_CACHE) {
			ssd_snap_refuse(r, "nvmcache: cached lpn %u is not in the SLC region",
					c->alg.dir.lpn[slot]);
			return;
		}
	for (lpn = 0; lpn < c->pages; lpn++) {
		ssd_check_resched(lpn);
		in_slc += ssd_layer_peek(c->layer.lower, lpn, NULL) == SSD_REGION_CACHE;
	}
	if (in_slc != c->alg.dir.count)
		ssd_snap_refuse(r, "nvmcache: the SLC region holds %llu pages, the directory %u",
				(unsigned long long)in_slc, c->alg.dir.count);
}

void ssd_nvmcache_load(struct ssd_layer *layer, struct ssd_snap_reader *r)
{
	struct nvmcache *c = (struct nvmcache *)layer;
	u8 draining;

	ssd_cache_set_load(&c->alg.dir, r, c->pages, "nvmcache", "directory");
	if (!r->error)
		check_placement(c, r);
	c->rand.state = ssd_snap_get_u64(r);
	/* Any reference count and any note are values a policy can meet. */
	if (c->refcount)
		ssd_snap_get_array(r, c->refcount, c->pages, sizeof(u16));
	if (c->alg.rce)
		ssd_snap_get_array(r, c->alg.rce->note, c->alg.dir.capacity,
				   c->alg.rce->p.note_bytes);
	draining = ssd_snap_get_u8(r);
	if (!r->error && draining > 1) {
		ssd_snap_refuse(r, "nvmcache: draining is %u, not 0 or 1", draining);
		return;
	}
	c->draining = draining;
	c->idle_floor_ns = ssd_snap_get_ns(r, "the cache's idle floor");
	ssd_snap_get_structs(r, &c->counters, 1, sizeof(c->counters), counter_fields,
			     ARRAY_SIZE(counter_fields));
	ssd_cachealg_load_policies(&c->alg, r);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmcache_internal.h - the NVM/SLC write cache's workings, private to
 * nvmcache/ (nvmcache.h is its public face; white-box unit tests see
 * this too).  The cache is a policy layer of the request path
 * (common/ssd_layer.h) above the FTL.
 *
 * The cached pages live in the FTL's SLC cache region (SSD_REGION_CACHE:
 * the first slc_blocks_per_chip blocks of every chip), whose one L2P maps
 * a logical page into either region.  So the cache is pure policy: a page
 * the cache admits or updates goes down with region CACHE (an SLC
 * program), a bypass with region MAIN (a TLC program), an eviction reads
 * the page back and rewrites it with region MAIN under SSD_CAUSE_DESTAGE.
 * The SLC region does its own GC and counts its own erases below.
 *
 * The algorithms are cachealg/'s (cachealg/cachealg.h, one file each, the
 * same the host cache simulator runs): this layer keeps one struct
 * cachealg, a directory of the cached pages ordered by one replacement
 * policy (LRU, CLOCK, FIFO, GCLOCK, ARC, SIEVE, S3-FIFO; RCE over LRU or
 * ARC with cache_rce=1) and guarded by one admission policy, and turns
 * what they decide into programs, destages and counters.  Each policy
 * declares the keys it owns next to its ops table, in its own file of
 * cachealg/, and reads them itself; the lists in cache_policies.c are the
 * registry that gives cache_policy and cache_replacement their values,
 * names and the policies' keys.  Every table is sized at creation from
 * the configuration (ssd_nvmcache_params()), so the memory plan is exact.  In a snapshot (nvmcache_snap.c) each policy writes and reads
 * back its own state.  The layer knows nothing of the FTL beyond the
 * layer interface and the region size common/ssd_config.h promises.
 * Portable.
 */
#ifndef SSD_NVMCACHE_INTERNAL_H
#define SSD_NVMCACHE_INTERNAL_H

#include "platform/ssd_platform.h"
#include "cachealg/cachealg.h"
#include "common/ssd_layer.h"
#include "common/ssd_rand.h"
#include "nvmcache/nvmcache.h"

/* The policies cache_policy=@value (not 0: none) and cache_replacement=@value name. */
const struct cache_admit_ops *ssd_cache_admit_of(u64 value);
const struct cache_repl_ops *ssd_cache_repl_of(u64 value);

struct nvmcache_counters {
	u64 write_hit_pages;
	u64 admit_pages;		/* write misses that entered */
	u64 bypass_pages[CACHE_VERDICT_NR];	/* by verdict; [CACHE_ADMIT] unused */
	u64 evict_pages;		/* destaged pages: foreground + background */
	u64 destage_background_pages;	/* of those, destaged on idle chips */
	u64 trim_pages;			/* cached pages a TRIM dropped */
	u64 read_hit_pages;
	u64 read_miss_pages;		/* host page reads of pages not cached */
	u64 fill_pages;			/* read misses copied into the cache */
};

struct nvmcache {
	struct ssd_layer layer;
	struct ssd_pagepool *pool;
	const char *dev_name;
	u32 page_bytes;
	u64 pages;			/* logical pages: lpns are below */
	struct cachealg alg;		/* the cached pages and the policies */
	struct ssd_rand rand;		/* ProCache's die, TinyLFU's seeds */
	bool read_allocate;		/* cache_read_allocate: a read cache too */
	/*
	 * Dedup-aware policies (a dedup_aware admission, cache_rce): the
	 * references to each logical page the layer above reported
	 * (ssd_layer_ops.refcount), saturating; NULL otherwise.
	 */
	u16 *refcount;			/* [logical pages] */
	u64 refcount_bytes;
	/*
	 * Background destage (cache_destage_high_percent; destage_high 0:
	 * off): from destage_high cached pages, write victims back until
	 * destage_low are left (draining in between), on idle chips.
	 */
	u32 destage_high, destage_low;
	bool draining;
	u64 idle_floor_ns;		/* the previous command's start: idle() */
	/*
	 * An admission that judges requests whole (ProCache by default):
	 * the request last judged and whether all its pages were cached
	 * when its first page came.  Not in a snapshot: one is taken
	 * between requests, and the next request is judged anew.
	 */
	u64 whole_seq;
	bool whole_hit;
	struct nvmcache_counters counters;
};

/*
 * The whole cache in a snapshot (nvmcache_snap.c): directory, PRNG,
 * counters, references, RCE's notes, then each policy's own state.
 */
void ssd_nvmcache_save(struct ssd_layer *layer, struct ssd_snap_writer *w);
void ssd_nvmcache_load(struct ssd_layer *layer, struct ssd_snap_reader *r);

/*
 * What the device gives its algorithms (nvmcache_params.c): @cfg, whose
 * keys each policy reads itself, and its compact counts.
 */
void ssd_nvmcache_params(const struct ssd_config *cfg, struct cache_params *p);
/* RCE's setting with cache_rce=1; NULL with it off. */
const struct cache_rce_params *ssd_nvmcache_rce(const struct ssd_config *cfg);

/* The cache's size in pages for a validated @cfg with the cache on. */
u32 ssd_nvmcache_capacity(const struct ssd_config *cfg);

/*
 * Background destage's watermarks in pages for a validated @cfg: from
 * *@high (0: off) cached pages down to *@low.  high = ceil(capacity x
 * cache_destage_high_percent / 100), low = floor(capacity x
 * cache_destage_low_percent / 100), so low < high whenever the percents are.
 */
void ssd_nvmcache_destage_marks(const struct ssd_config *cfg, u32 *high, u32 *low);

/*
 * The host pages referring to the data of @lpn, as the dedup layer above
 * reported them; 1 when nothing was reported (no dedup: one each).
 */
static inline u32 cache_refs(const struct nvmcache *c, u64 lpn)
{
	return c->refcount && c->refcount[lpn] ? c->refcount[lpn] : 1;
}

/*
 * The registries' selectors, with their entries' keys (struct
 * ssd_config_choice.keys): cache_policy (the admission policies, after
 * "none") and cache_replacement (cache_policies.c); the layer type lists
 * them for the vocabulary (ssd_layer_type.selectors).
 */
extern const struct ssd_config_key ssd_key_cache_policy;
extern const struct ssd_config_key ssd_key_cache_replacement;

#endif /* SSD_NVMCACHE_INTERNAL_H */

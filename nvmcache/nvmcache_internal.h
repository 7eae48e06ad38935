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
 * This layer keeps the cache directory (which pages are cached, a hash over
 * slots) in the order of one replacement policy (struct cache_repl_ops,
 * repl_*.c: LRU, CLOCK, FIFO, GCLOCK, ARC, SIEVE, S3-FIFO; RCE over LRU
 * or ARC, evict_rce.c), and asks one admission policy (struct
 * cache_admit_ops, admit_*.c).  Each policy is one file, which declares
 * the keys it owns next to its ops table; the lists in cache_policies.c
 * are the registry that gives cache_policy and cache_replacement their
 * values, names and the policies' keys.  Every table is sized at
 * creation from the configuration, so the memory plan is exact.  In a
 * snapshot (nvmcache_snap.c) each policy writes and reads back its own
 * state (its save and load ops, in its own file).  The layer knows
 * nothing of the FTL beyond the layer interface and the region size
 * common/ssd_config.h promises.  Portable.
 */
#ifndef SSD_NVMCACHE_INTERNAL_H
#define SSD_NVMCACHE_INTERNAL_H

#include "platform/ssd_platform.h"
#include "common/ssd_layer.h"
#include "common/ssd_rand.h"
#include "nvmcache/nvmcache.h"

#define CACHE_NONE	U32_MAX

/* The lpn a background eviction asks a victim for: no page arrives. */
#define CACHE_NO_ARRIVAL	U64_MAX

/*
 * A set of logical pages with an order: a chained hash over @capacity
 * slots, and a doubly linked list from the newest (head) to the oldest
 * (tail).  The cache directory and LARC's ghost list are both one.
 */
struct cache_set {
	u32 capacity;
	u32 count;
	u32 bucket_mask;	/* buckets: a power of two >= capacity */
	u32 *bucket;		/* [bucket_mask + 1]: first slot, or CACHE_NONE */
	u32 *lpn;		/* [capacity] */
	u32 *hnext;		/* [capacity]: hash chain */
	u32 *prev, *next;	/* [capacity]: the order; next chains free slots */
	u32 head, tail;
	u32 free;		/* first free slot */
};

/* Bytes of the tables ssd_cache_set_init() allocates (ssd_tables_add()). */
u64 ssd_cache_set_bytes(u64 total, u32 capacity);
int ssd_cache_set_init(struct cache_set *set, u32 capacity);
void ssd_cache_set_exit(struct cache_set *set);
u32 ssd_cache_set_find(const struct cache_set *set, u64 lpn);
/* Insert @lpn (absent) at the head; the set must not be full.  Its slot. */
u32 ssd_cache_set_insert(struct cache_set *set, u64 lpn);
void ssd_cache_set_remove(struct cache_set *set, u32 slot);
void ssd_cache_set_move_head(struct cache_set *set, u32 slot);
/* Move @slot just behind @pos (toward the tail): @pos's next becomes @slot. */
void ssd_cache_set_move_after(struct cache_set *set, u32 slot, u32 pos);
/* 0 or -EUCLEAN (logged): chains, order and count agree. */
int ssd_cache_set_check(const struct cache_set *set, const char *dev_name, const char *name);
/*
 * A set in a snapshot: its capacity, its entries from the head as (slot,
 * lpn) pairs, then its free slots in the order they will be taken, so a
 * loaded set uses the same slots as the saved one.
 */
void ssd_cache_set_save(const struct cache_set *set, struct ssd_snap_writer *w);
/*
 * Rebuild @set (initialised, of the saved capacity) from a snapshot:
 * refused (ssd_snap_refuse(), naming @name) unless every slot is within
 * the capacity and appears once, listed or free, and every lpn is below
 * @max_lpn and listed once.  The hash chains are built anew.
 */
void ssd_cache_set_load(struct cache_set *set, struct ssd_snap_reader *r, u64 max_lpn,
			const char *name);
/* Whether @slot is one of @set's entries (not free, not out of range). */
static inline bool cache_set_holds_slot(const struct cache_set *set, u32 slot)
{
	return slot < set->capacity && ssd_cache_set_find(set, set->lpn[slot]) == slot;
}

struct nvmcache;

/*
 * Replacement: which cached page leaves first.  The directory (c->dir)
 * holds the cached pages in one order, newest at the head, and inserts a
 * page that enters at the head; a policy reorders it and may keep state of
 * its own (a struct of state_bytes, allocated zeroed by the layer as
 * c->repl_state before init and freed after exit; table_bytes for the
 * tables init allocates).  Only name is required: without ops a policy is
 * FIFO (nothing moves, the tail leaves).
 */
struct cache_repl_ops {
	const char *name;
	/* The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none. */
	const struct ssd_config_key *const *keys;
	u32 state_bytes;
	u64 (*table_bytes)(u64 total, const struct ssd_config *cfg, u32 capacity);
	int (*init)(struct nvmcache *c, const struct ssd_config *cfg);
	/* Free what init() allocated (also after init() failed). */
	void (*exit)(struct nvmcache *c);
	/* The page of @slot missed and has just entered, at the head. */
	void (*insert)(struct nvmcache *c, u32 slot);
	/* A hit of the page of @slot. */
	void (*hit)(struct nvmcache *c, u32 slot);
	/*
	 * The slot to evict so that @lpn may enter the full cache (NULL: the
	 * tail).  It may reorder the directory (second chances) but chooses
	 * the same slot again if nothing happened since: the admission
	 * policy may decide against the eviction.
	 */
	u32 (*victim)(struct nvmcache *c, u64 lpn);
	/*
	 * The page of @slot is about to leave the directory: evicted for a
	 * page that enters (@evicted), or dropped (a TRIM).
	 */
	void (*remove)(struct nvmcache *c, u32 slot, bool evicted);
	/*
	 * Give the page of @slot another round, as if it had just entered
	 * its list, without counting a hit (a dedup-aware policy spares a
	 * shared page).  NULL: the policy cannot be composed so.
	 */
	void (*requeue)(struct nvmcache *c, u32 slot);
	/* Consistency check of the policy's state: 0 or -EUCLEAN (logged). */
	int (*check)(struct nvmcache *c);
	/*
	 * Optional (NULL: no state beyond the directory's order).  Write the
	 * policy's state to a snapshot (common/ssd_snap.h): what it derives
	 * from the configuration is not written.
	 */
	void (*save)(struct nvmcache *c, struct ssd_snap_writer *w);
	/*
	 * Read it back into the policy just created from the same
	 * configuration, the directory already loaded: every value is range
	 * checked before it is used (ssd_snap_refuse()); check() runs after.
	 */
	void (*load)(struct nvmcache *c, struct ssd_snap_reader *r);
};

extern const struct cache_repl_ops ssd_cache_repl_lru;
extern const struct cache_repl_ops ssd_cache_repl_clock;
extern const struct cache_repl_ops ssd_cache_repl_gclock;
extern const struct cache_repl_ops ssd_cache_repl_fifo;
extern const struct cache_repl_ops ssd_cache_repl_arc;
extern const struct cache_repl_ops ssd_cache_repl_sieve;
extern const struct cache_repl_ops ssd_cache_repl_s3fifo;

/* What an admission policy says of a miss. */
enum cache_verdict {
	CACHE_ADMIT,
	CACHE_BYPASS_SIZE,	/* ProCache: request >= c */
	CACHE_BYPASS_DICE,	/* ProCache: the die said no */
	CACHE_BYPASS_POLICY,	/* a counter, the ghost list or the sketch said no */
	CACHE_BYPASS_DELAY,	/* PLC: the victim's delayed eviction abandoned it */
	CACHE_BYPASS_INOUT,	/* PLC: the newcomer does not beat the victim */
	CACHE_VERDICT_NR,
};

/*
 * An admission policy (FEMU-style ops table).  Only decide is required.
 * A policy's state is its own struct of state_bytes, which the layer
 * allocates zeroed as c->policy before init and frees after exit.  A
 * dedup-aware policy reads each page's references (cache_refs()).
 */
struct cache_admit_ops {
	const char *name;
	/* The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none. */
	const struct ssd_config_key *const *keys;
	u32 state_bytes;
	bool dedup_aware;
	/* Bytes of the tables init() allocates, added to @total. */
	u64 (*table_bytes)(u64 total, const struct ssd_config *cfg, u32 capacity);
	int (*init)(struct nvmcache *c, const struct ssd_config *cfg);
	/* Free what init() allocated (also after init() failed). */
	void (*exit)(struct nvmcache *c);
	/*
	 * Every page write, hit or miss, before the decision (and every host
	 * page read with cache_read_allocate=1).
	 */
	void (*access)(struct nvmcache *c, u64 lpn);
	/*
	 * A miss of @lpn (a write, or a read with cache_read_allocate=1);
	 * @victim is the slot that would be evicted, or CACHE_NONE if the
	 * cache has room.
	 */
	enum cache_verdict (*decide)(struct nvmcache *c, u64 lpn, const struct ssd_io *io,
				     u32 victim);
	/* The admitted page of @slot has entered. */
	void (*entered)(struct nvmcache *c, u32 slot);
	/* The page of @slot is about to leave: evicted (@evicted) or dropped. */
	void (*left)(struct nvmcache *c, u32 slot, bool evicted);
	/* Consistency check of the policy's state: 0 or -EUCLEAN (logged). */
	int (*check)(struct nvmcache *c);
	/* Snapshots, as struct cache_repl_ops' save and load (NULL: no state). */
	void (*save)(struct nvmcache *c, struct ssd_snap_writer *w);
	void (*load)(struct nvmcache *c, struct ssd_snap_reader *r);
};

extern const struct cache_admit_ops ssd_cache_admit_always;
extern const struct cache_admit_ops ssd_cache_admit_procache;
extern const struct cache_admit_ops ssd_cache_admit_refcnt;
extern const struct cache_admit_ops ssd_cache_admit_larc;
extern const struct cache_admit_ops ssd_cache_admit_tinylfu;
extern const struct cache_admit_ops ssd_cache_admit_plc;

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
	const struct cache_admit_ops *admit;
	const struct cache_repl_ops *repl;
	struct cache_set dir;		/* the cached pages */
	struct ssd_rand rand;
	void *policy;			/* the admission policy's state */
	void *repl_state;		/* the replacement policy's state */
	u64 policy_bytes;		/* the admission policy's tables */
	u64 repl_bytes;			/* the replacement policy's tables */
	bool read_allocate;		/* cache_read_allocate: a read cache too */
	/*
	 * Dedup-aware policies (a dedup_aware admission, cache_rce): the
	 * references to each logical page the layer above reported
	 * (ssd_layer_ops.refcount), saturating; NULL otherwise.
	 */
	u16 *refcount;			/* [logical pages] */
	u64 refcount_bytes;
	/* cache_rce: each slot's references when RCE last spared it, 0: never. */
	u16 *rce_spared;		/* [capacity] */
	u64 dir_bytes;			/* the directory's tables */
	/*
	 * Background destage (cache_destage_high_percent; destage_high 0:
	 * off): from destage_high cached pages, write victims back until
	 * destage_low are left (draining in between), on idle chips.
	 */
	u32 destage_high, destage_low;
	bool draining;
	u64 idle_floor_ns;		/* the previous command's start: idle() */
	struct nvmcache_counters counters;
};

/*
 * The whole cache in a snapshot (nvmcache_snap.c): directory, PRNG,
 * counters, references, RCE's notes, then each policy's own state.
 */
void ssd_nvmcache_save(struct ssd_layer *layer, struct ssd_snap_writer *w);
void ssd_nvmcache_load(struct ssd_layer *layer, struct ssd_snap_reader *r);

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

/* The replacement policy's victim for @lpn (the tail if it has no victim op). */
static inline u32 cache_repl_victim(struct nvmcache *c, u64 lpn)
{
	return c->repl->victim ? c->repl->victim(c, lpn) : c->dir.tail;
}

/*
 * RCE (evict_rce.c): from the replacement policy's victim, spare shared
 * pages (CDAC's referenced-count based eviction); the slot to evict.
 */
u32 ssd_cache_rce_victim(struct nvmcache *c, u64 lpn, u32 victim);

/*
 * The registries' selectors, with their entries' keys (struct
 * ssd_config_choice.keys): cache_policy (the admission policies, after
 * "none") and cache_replacement (cache_policies.c); the layer type lists
 * them for the vocabulary (ssd_layer_type.selectors).
 */
extern const struct ssd_config_key ssd_key_cache_policy;
extern const struct ssd_config_key ssd_key_cache_replacement;

#endif /* SSD_NVMCACHE_INTERNAL_H */

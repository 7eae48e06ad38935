/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmcache.h - the NVM/SLC write cache: a policy layer of the request path
 * (common/ssd_layer.h) above the FTL.
 *
 * The cached pages live in the FTL's SLC cache region (SSD_REGION_CACHE:
 * the first slc_blocks_per_chip blocks of every chip), whose one L2P maps
 * a logical page into either region.  So the cache is pure policy: a page
 * the cache admits or updates goes down with region CACHE (an SLC
 * program), a bypass with region MAIN (a TLC program), an eviction reads
 * the page back and rewrites it with region MAIN under FLASH_CAUSE_DESTAGE.
 * The SLC region does its own GC and counts its own erases below.
 *
 * This layer keeps the cache directory (which pages are cached, a hash over
 * slots) with the replacement order (cache_repl.c: LRU, CLOCK, FIFO), and
 * one admission policy behind struct cache_admit_ops (admit_*.c).  Every
 * table is sized at creation from the configuration (nvmcache_plan()), so
 * the memory plan is exact.  Portable.
 */
#ifndef SSD_NVMCACHE_H
#define SSD_NVMCACHE_H

#include "ssd_platform.h"
#include "ssd_layer.h"
#include "ssd_rand.h"

#define CACHE_NONE	U32_MAX

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
	u8 *ref;		/* [capacity]: CLOCK's reference bits, or NULL */
	u32 head, tail;
	u32 free;		/* first free slot */
	u32 hand;		/* CLOCK's hand, or CACHE_NONE */
};

/* Bytes of the tables cache_set_init() allocates (ssd_tables_add()). */
u64 cache_set_bytes(u64 total, u32 capacity, bool with_ref);
int cache_set_init(struct cache_set *set, u32 capacity, bool with_ref);
void cache_set_exit(struct cache_set *set);
u32 cache_set_find(const struct cache_set *set, u64 lpn);
/* Insert @lpn (absent) at the head; the set must not be full.  Its slot. */
u32 cache_set_insert(struct cache_set *set, u64 lpn);
void cache_set_remove(struct cache_set *set, u32 slot);
void cache_set_move_head(struct cache_set *set, u32 slot);
/* 0 or -EUCLEAN (logged): chains, order and count agree. */
int cache_set_check(const struct cache_set *set, const char *name);

/* Replacement: which cached page leaves first. */
struct cache_repl_ops {
	const char *name;
	void (*insert)(struct cache_set *set, u32 slot);
	void (*hit)(struct cache_set *set, u32 slot);
	/* The page to evict from a non-empty set (CLOCK moves its hand). */
	u32 (*victim)(struct cache_set *set);
	/* Before @slot leaves the set. */
	void (*remove)(struct cache_set *set, u32 slot);
};

extern const struct cache_repl_ops cache_repl_lru;
extern const struct cache_repl_ops cache_repl_clock;
extern const struct cache_repl_ops cache_repl_fifo;

/* What an admission policy says of a write miss. */
enum cache_verdict {
	CACHE_ADMIT,
	CACHE_BYPASS_SIZE,	/* ProCache: request >= c */
	CACHE_BYPASS_DICE,	/* ProCache: the die said no */
	CACHE_BYPASS_POLICY,	/* a counter, the ghost list or the sketch said no */
};

struct nvmcache;

/* An admission policy (FEMU-style ops table). */
struct cache_admit_ops {
	const char *name;
	/* Bytes of the tables init() allocates, added to @total. */
	u64 (*table_bytes)(u64 total, const struct ssd_config *cfg, u32 capacity);
	int (*init)(struct nvmcache *c, const struct ssd_config *cfg);
	void (*exit)(struct nvmcache *c);
	/* Every page write, hit or miss, before the decision (NULL: none). */
	void (*access)(struct nvmcache *c, u64 lpn);
	/*
	 * A write miss of @lpn; @victim is the slot that would be evicted,
	 * or CACHE_NONE if the cache has room.
	 */
	enum cache_verdict (*decide)(struct nvmcache *c, u64 lpn, const struct ssd_io *io,
				     u32 victim);
};

extern const struct cache_admit_ops cache_admit_always;
extern const struct cache_admit_ops cache_admit_procache;
extern const struct cache_admit_ops cache_admit_refcnt;
extern const struct cache_admit_ops cache_admit_larc;
extern const struct cache_admit_ops cache_admit_tinylfu;

/* ProCache's state: the die and the verdict of the request being served. */
struct procache_state {
	u64 c_bytes;			/* 0: no size limit */
	u64 p_ppm[SSD_PROCACHE_CLASSES];	/* all equal unless the vector form */
	u32 page_shift;
	u64 last_seq;			/* request the verdict below is for */
	enum cache_verdict last_verdict;
};

/* REFCNT (Hsieh et al.): a saturating counter per logical page, decayed. */
struct refcnt_state {
	u8 *count;			/* [logical pages] */
	u64 pages;
	u64 threshold;
	u64 decay_writes;
	u64 writes;			/* since the last decay */
};

/* TinyLFU: a count-min sketch of 4 rows with a doorkeeper bitmap. */
#define TINYLFU_ROWS	4
#define TINYLFU_MAX	15		/* 4-bit counters, kept in bytes */
struct tinylfu_state {
	u8 *sketch;			/* [TINYLFU_ROWS * width] */
	u8 *doorkeeper;			/* [width]: width * 8 bits */
	u32 width_mask;			/* width - 1, width a power of two */
	u64 row_seed[TINYLFU_ROWS];
	u64 sample_writes;
	u64 writes;			/* since the last halving */
};

struct nvmcache_counters {
	u64 write_hit_pages;
	u64 admit_pages;
	u64 bypass_pages[4];		/* by enum cache_verdict; [CACHE_ADMIT] unused */
	u64 evict_pages;
	u64 read_hit_pages;
};

struct nvmcache {
	struct ssd_layer layer;
	struct flash *flash;
	const struct cache_admit_ops *admit;
	const struct cache_repl_ops *repl;
	struct cache_set dir;		/* the cached pages */
	struct ssd_rand rand;
	union {
		struct procache_state procache;
		struct refcnt_state refcnt;
		struct cache_set larc_ghost;
		struct tinylfu_state tinylfu;
	};
	u64 policy_bytes;		/* the admission policy's tables */
	u64 dir_bytes;			/* the directory's tables */
	struct nvmcache_counters counters;
};

/* The cache's size in pages for a validated @cfg with the cache on. */
u32 nvmcache_capacity(const struct ssd_config *cfg);

extern const struct ssd_layer_type nvmcache_layer_type;

#endif /* SSD_NVMCACHE_H */

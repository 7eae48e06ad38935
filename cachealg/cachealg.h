/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachealg.h - the cache algorithms, written once (after libCacheSim's
 * cache_t: one file per algorithm over integer keys behind one small
 * interface), and the folder's one public header.  The device's SLC write
 * cache (nvmcache/) and the host cache simulator (tools/cachesim/) both
 * run them: a struct cachealg is one cache of keys (logical pages, block
 * addresses, content ids, containers) ordered by one replacement policy
 * (struct cache_repl_ops, repl_*.c) and guarded by one admission policy
 * (struct cache_admit_ops, admit_*.c), optionally with CDAC's RCE over the
 * replacement (evict_rce.c).  Its owner does the rest: what a hit or a
 * miss costs (an SLC program, a fill of a host cache), what is counted,
 * the lists of policies it offers (nvmcache/cache_policies.c, cachesim's
 * csim_cache.c).
 *
 * Portable core code, as the layers: no libc, every table sized at
 * creation from the parameters (the *_bytes functions say how much, so a
 * plan is exact), deterministic (random choices from the owner's seeded
 * PRNG), and each policy saves and loads its own state in a snapshot
 * (common/ssd_snap.h).  It sees platform/ and common/ only; this header
 * includes the platform's, so its users need no more of the core.
 *
 * How a cache is driven (what libCacheSim's get() does, in the device's
 * order, which shows the admission policy the victim a miss would cost):
 *
 *	cachealg_access(c, key);		every access, hit or miss
 *	slot = cachealg_find(c, key);
 *	if (slot != CACHE_NONE) -> cachealg_hit(c, slot);
 *	else {
 *		victim = full ? cachealg_victim(c, key) : CACHE_NONE;
 *		verdict = cachealg_decide(c, key, req, victim);
 *		if (verdict == CACHE_ADMIT) {
 *			if (victim != CACHE_NONE)
 *				cachealg_remove(c, victim, true);
 *			cachealg_insert(c, key);
 *		}
 *	}
 *
 * cachealg_victim() may be asked again and chooses the same slot if
 * nothing happened in between; an owner that must not run the replacement
 * before the admission's own rules (the host simulator's PLC) calls
 * cachealg_admits() first and cachealg_replaces() with the victim after.
 */
#ifndef SSD_CACHEALG_H
#define SSD_CACHEALG_H

#include "platform/ssd_platform.h"

struct ssd_config;
struct ssd_config_key;
struct ssd_rand;
struct ssd_snap_writer;
struct ssd_snap_reader;

/* No slot (and, for a key, none found). */
#define CACHE_NONE		U32_MAX

/* The key a victim is asked for when no key arrives (background destage). */
#define CACHE_NO_ARRIVAL	U64_MAX

/*
 * The key a victim is asked for when room is wanted for no key at all and
 * the policy should only demote (ARC's REPLACE without case IV's ghost
 * trimming): the host simulator's data cache reclaiming a block.
 */
#define CACHE_RECLAIM		(U64_MAX - 1)

/*
 * A set of keys with an order: a chained hash over @capacity slots, and a
 * doubly linked list from the newest (head) to the oldest (tail).  A
 * cache's directory, ARC's and S3-FIFO's ghosts and LARC's ghost list are
 * each one.  Keys are below 2^32 (an owner with wider keys numbers them).
 */
struct cache_set {
	u32 capacity;
	u32 count;
	u32 bucket_mask;	/* buckets: a power of two >= capacity */
	u32 *bucket;		/* [bucket_mask + 1]: first slot, or CACHE_NONE */
	u32 *lpn;		/* [capacity]: the key of each slot */
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
/* 0 or -EUCLEAN (logged, naming @who and @name): chains, order and count agree. */
int ssd_cache_set_check(const struct cache_set *set, const char *dev_name, const char *who,
			const char *name);
/*
 * A set in a snapshot: its capacity, its entries from the head as (slot,
 * key) pairs, then its free slots in the order they will be taken, so a
 * loaded set uses the same slots as the saved one.
 */
void ssd_cache_set_save(const struct cache_set *set, struct ssd_snap_writer *w);
/*
 * Rebuild @set (initialised, of the saved capacity) from a snapshot:
 * refused (ssd_snap_refuse(), naming @who and @name) unless every slot is
 * within the capacity and appears once, listed or free, and every key is
 * below @max_lpn and listed once.  The hash chains are built anew.
 */
void ssd_cache_set_load(struct cache_set *set, struct ssd_snap_reader *r, u64 max_lpn,
			const char *who, const char *name);
/* Whether @slot is one of @set's entries (not free, not out of range). */
static inline bool cache_set_holds_slot(const struct cache_set *set, u32 slot)
{
	return slot < set->capacity && ssd_cache_set_find(set, set->lpn[slot]) == slot;
}

/*
 * A value an owner without a device configuration (the host simulator)
 * gives one of the policies' keys, by the key's name.
 */
struct cache_knob {
	const char *name;
	u64 value;
};

/*
 * What an owner gives a cache besides its size.  A policy declares its
 * own keys next to its ops table (SSD_CONFIG_KEY(), listed in its keys)
 * and reads them with cachealg_knob() while it is sized and made
 * (table_bytes, init): from the device's configuration, or, without one,
 * from the owner's knobs by name; a key neither gives is at its default.
 * The rest is the owner's, no key: how it keeps its counts.
 */
struct cache_params {
	const struct ssd_config *cfg;	/* the device's keys; NULL: knobs */
	const struct cache_knob *knobs;	/* [nr_knobs] */
	u32 nr_knobs;
	u32 page_bytes;			/* the data of one key (ProCache's classes) */
	/*
	 * Bytes of a policy's per-key counts (PLC's access and delay
	 * counts): 0, the compact default (the device: a byte, saturating);
	 * 4 (the host simulator).
	 */
	u8 count_bytes;
	/*
	 * Keys a policy's ghost lists may remember (ARC's); 0: the cache's
	 * size (they never need more when only misses evict; an owner that
	 * also reclaims, as the host simulator's D-ARC, gives its key count).
	 */
	u64 ghost_entries;
};

/*
 * The value of @key, one of the policy's keys, for the cache @p makes:
 * read while the cache is sized and made (the owner's configuration and
 * knobs are not kept after).
 */
u64 cachealg_knob(const struct cache_params *p, const struct ssd_config_key *key);

struct cachealg;

/* What the owner tells of the request a miss belongs to (ProCache). */
struct cache_req {
	u64 seq;		/* the host request's number; 0: none */
	u64 bytes;		/* its size */
};

/*
 * Replacement: which cached key leaves first.  The directory (c->dir)
 * holds the cached keys in one order, newest at the head, and inserts a
 * key that enters at the head; a policy reorders it and may keep state of
 * its own (a struct of state_bytes, allocated zeroed as c->repl_state
 * before init and freed after exit; table_bytes for the tables init
 * allocates).  Only name is required: without ops a policy is FIFO
 * (nothing moves, the tail leaves).
 */
struct cache_repl_ops {
	const char *name;
	/* The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none. */
	const struct ssd_config_key *const *keys;
	u32 state_bytes;
	/* CDAC's RCE is defined over this policy (CDAC-LRU, CDAC-ARC). */
	bool rce;
	u64 (*table_bytes)(u64 total, const struct cache_params *p, u32 capacity);
	int (*init)(struct cachealg *c);
	/* Free what init() allocated (also after init() failed). */
	void (*exit)(struct cachealg *c);
	/* The key of @slot missed and has just entered, at the head. */
	void (*insert)(struct cachealg *c, u32 slot);
	/* A hit of the key of @slot. */
	void (*hit)(struct cachealg *c, u32 slot);
	/*
	 * The slot to evict so that @key may enter the full cache (NULL: the
	 * tail, or the slot before it if the tail is pinned).  It may reorder
	 * the directory (second chances) but chooses the same slot again if
	 * nothing happened since: the admission policy may decide against
	 * the eviction.  @key may be CACHE_NO_ARRIVAL or CACHE_RECLAIM.
	 */
	u32 (*victim)(struct cachealg *c, u64 key);
	/*
	 * The key of @slot is about to leave the directory: evicted for a key
	 * that enters, or for room (@evicted), or dropped (a TRIM).
	 */
	void (*remove)(struct cachealg *c, u32 slot, bool evicted);
	/*
	 * Give the key of @slot another round, as if it had just entered its
	 * list, without counting a hit (RCE spares a shared key, PLC's hand
	 * passes a victim).  NULL: the policy cannot be composed so.
	 */
	void (*requeue)(struct cachealg *c, u32 slot);
	/*
	 * Set the priority of the key of @slot (GCLOCK's inner priority,
	 * capped at its maximum); NULL: the policy has none.
	 */
	void (*prioritize)(struct cachealg *c, u32 slot, u32 priority);
	/* Keys the policy remembers without data (ghosts); NULL: none. */
	u32 (*ghosts)(const struct cachealg *c);
	/*
	 * The keys of the queue @slot is in (ARC: T1 or T2); NULL: the whole
	 * directory.
	 */
	u32 (*queue_count)(const struct cachealg *c, u32 slot);
	/* Consistency check of the policy's state: 0 or -EUCLEAN (logged). */
	int (*check)(struct cachealg *c);
	/*
	 * Optional (NULL: no state beyond the directory's order).  Write the
	 * policy's state to a snapshot (common/ssd_snap.h): what it derives
	 * from the parameters is not written.
	 */
	void (*save)(struct cachealg *c, struct ssd_snap_writer *w);
	/*
	 * Read it back into the policy just created with the same
	 * parameters, the directory already loaded: every value is range
	 * checked before it is used (ssd_snap_refuse()); check() runs after.
	 */
	void (*load)(struct cachealg *c, struct ssd_snap_reader *r);
};

extern const struct cache_repl_ops ssd_cache_repl_lru;
extern const struct cache_repl_ops ssd_cache_repl_clock;
extern const struct cache_repl_ops ssd_cache_repl_gclock;
extern const struct cache_repl_ops ssd_cache_repl_fifo;
extern const struct cache_repl_ops ssd_cache_repl_arc;
extern const struct cache_repl_ops ssd_cache_repl_sieve;
extern const struct cache_repl_ops ssd_cache_repl_s3fifo;
extern const struct cache_repl_ops ssd_cache_repl_lfu;
/*
 * LFU's frequency lists, as libCacheSim keeps them, held at most at once
 * (the host simulator's memory figures).
 */
u32 ssd_cache_lfu_lists_peak(const struct cachealg *c);

/* What an admission policy says of a miss. */
enum cache_verdict {
	CACHE_ADMIT,
	CACHE_BYPASS_SIZE,	/* ProCache: the request is beyond c */
	CACHE_BYPASS_DICE,	/* ProCache: the die said no */
	CACHE_BYPASS_POLICY,	/* a counter, the ghost list or the sketch said no */
	CACHE_BYPASS_DELAY,	/* PLC: the victim's delayed eviction abandoned it */
	CACHE_BYPASS_INOUT,	/* PLC: the newcomer does not beat the victim */
	CACHE_VERDICT_NR,
};

/*
 * An admission policy (FEMU-style ops table).  A policy's state is its own
 * struct of state_bytes, allocated zeroed as c->admit_state before init
 * and freed after exit.  A dedup-aware policy reads each key's references
 * (cachealg_refs()).
 */
struct cache_admit_ops {
	const char *name;
	/* The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none. */
	const struct ssd_config_key *const *keys;
	u32 state_bytes;
	bool dedup_aware;
	/* Bytes of the tables init() allocates, added to @total. */
	u64 (*table_bytes)(u64 total, const struct cache_params *p, u32 capacity, u64 keys);
	int (*init)(struct cachealg *c);
	/* Free what init() allocated (also after init() failed). */
	void (*exit)(struct cachealg *c);
	/*
	 * Whether a request is judged whole (NULL: no, per key): it hits only
	 * if all its keys are cached, and otherwise each of its keys, cached
	 * or not, takes the request's verdict, a cold one sending the cached
	 * ones out of the cache (ProCache's Algorithm 1 read literally; the
	 * owner applies it where it knows a request's keys).
	 */
	bool (*whole_requests)(const struct cachealg *c);
	/* Every access, hit or miss, before the decision. */
	void (*access)(struct cachealg *c, u64 key);
	/* A hit of the key of @slot. */
	void (*hit)(struct cachealg *c, u32 slot);
	/*
	 * A miss of @key: the verdict that needs no victim (NULL: admit).
	 * Runs before the replacement is asked for a victim in the host
	 * simulator, after it in the device (the victim is no input here).
	 */
	enum cache_verdict (*decide)(struct cachealg *c, u64 key, const struct cache_req *req);
	/*
	 * A miss of @key that decide() admitted, the cache full: whether it
	 * replaces @victim (NULL: it does).
	 */
	enum cache_verdict (*replace)(struct cachealg *c, u64 key, u32 victim);
	/* The admitted key of @slot has entered. */
	void (*entered)(struct cachealg *c, u32 slot);
	/* The key of @slot is about to leave: evicted (@evicted) or dropped. */
	void (*left)(struct cachealg *c, u32 slot, bool evicted);
	/* Consistency check of the policy's state: 0 or -EUCLEAN (logged). */
	int (*check)(struct cachealg *c);
	/* Snapshots, as struct cache_repl_ops' save and load (NULL: no state). */
	void (*save)(struct cachealg *c, struct ssd_snap_writer *w);
	void (*load)(struct cachealg *c, struct ssd_snap_reader *r);
};

extern const struct cache_admit_ops ssd_cache_admit_always;
extern const struct cache_admit_ops ssd_cache_admit_procache;
extern const struct cache_admit_ops ssd_cache_admit_refcnt;
extern const struct cache_admit_ops ssd_cache_admit_larc;
extern const struct cache_admit_ops ssd_cache_admit_tinylfu;
extern const struct cache_admit_ops ssd_cache_admit_plc;

/* BHI's word on the key at the replacement's victim position. */
enum cache_bhi {
	CACHE_BHI_HOT,		/* enough of its block was touched */
	CACHE_BHI_COLD,		/* too little of its block was touched */
	CACHE_BHI_STALE,	/* flagged: not accessed for a long time */
};

/*
 * CDAC's RCE over the replacement (evict_rce.c), after BHI if the owner
 * tells the hotness of a key's block (the device caches pages of one
 * part: it has no BHI).
 */
struct cache_rce_params {
	u32 fall_percent;	/* a count falling by more than this in a cycle: out */
	u8 note_bytes;		/* 2 (the device: saturating) or 4 */
	/* The host simulator's readings (off in the device): */
	bool forget_on_hit;	/* an access clears the key's note */
	bool limit_queue;	/* give up after a pass of the victim's queue, not the cache */
	bool rce_off;		/* an ablation: BHI alone, every key it does not keep leaves */
	/* Readings the slides leave open (docs/papers.md, CDAC): */
	bool hot_leaves;	/* a key BHI finds hot leaves (else it is kept) */
	bool remark;		/* a spared key's note is renewed at each turn (else its first) */
	bool forced_drop;	/* a pass with every key kept: the replacement's choice leaves */
	bool cold_drops;	/* the order before issue 32: BHI-cold keys out, RCE on hot ones */
	/* BHI: the hotness of the block of the key of @slot; NULL: no BHI. */
	enum cache_bhi (*bhi)(void *ctx, u32 slot);
	/* The key of @slot is kept: its new cycle (BHI's bitmap reset); NULL: none. */
	void (*bhi_kept)(void *ctx, u32 slot);
	void *bhi_ctx;
};

struct cache_rce_counters {
	u64 bhi_cold_drops, bhi_stale_drops;	/* cold_drops: out at once */
	u64 bhi_hot_keeps;	/* hot: kept, to the most recent end */
	u64 bhi_hot_drops;	/* hot, hot_leaves: out */
	u64 single_drops;	/* referenced once: out */
	u64 fall_drops;		/* its count fell by more than fall_percent: out */
	u64 moves;		/* spared: to the most recent end, noted */
	u64 forced_drops;	/* a whole pass kept: the replacement's choice goes */
	u64 no_victim;		/* a whole pass kept: no key goes */
};

struct cache_rce {
	struct cache_rce_params p;
	void *note;		/* [capacity]: references when last spared; 0: never */
	struct cache_rce_counters counters;
};

/*
 * One cache: what the algorithms share, as libCacheSim's cache_t.  The
 * owner fills the fields above the line (cachealg_init() takes the rest
 * from its arguments) and may read every field.
 */
struct cachealg {
	const char *dev_name;		/* for messages */
	const char *who;		/* what messages say the cache is ("nvmcache") */
	struct ssd_rand *rand;		/* the owner's seeded PRNG (ProCache, TinyLFU) */
	/* The references to a key (a dedup layer's count); NULL: one each. */
	u32 (*refs)(const void *ctx, u64 key);
	const void *refs_ctx;
	/* ---- */
	struct cache_set dir;		/* the cached keys */
	u64 keys;			/* every key is below */
	struct cache_params p;
	const struct cache_repl_ops *repl;
	const struct cache_admit_ops *admit;
	void *repl_state;		/* the replacement policy's state */
	void *admit_state;		/* the admission policy's state */
	u64 dir_bytes;			/* the directory's tables */
	u64 repl_bytes;			/* the replacement policy's tables */
	u64 admit_bytes;		/* the admission policy's tables */
	struct cache_rce *rce;		/* NULL: no RCE */
	u32 pinned;			/* a slot no victim choice takes (LRU, FIFO, ARC) */
};

/*
 * Bytes of the tables and state structs cachealg_init() allocates for
 * @capacity keys below @keys, added to @total (ssd_tables_add()), with
 * RCE's notes if @rce; and each part alone (what the device reports).
 */
u64 ssd_cachealg_bytes(u64 total, const struct cache_repl_ops *repl,
		       const struct cache_admit_ops *admit, const struct cache_params *p,
		       u32 capacity, u64 keys, const struct cache_rce_params *rce);
u64 ssd_cachealg_rce_bytes(u64 total, const struct cache_rce_params *rce, u32 capacity);
/*
 * Make @c a cache of @capacity keys below @keys ordered by @repl, guarded
 * by @admit (the fields above the line already set); with RCE if @rce.
 * -ENOMEM (and nothing left allocated) if a table is not given.
 */
int ssd_cachealg_init(struct cachealg *c, const struct cache_repl_ops *repl,
		      const struct cache_admit_ops *admit, const struct cache_params *p,
		      u32 capacity, u64 keys, const struct cache_rce_params *rce);
/* Free what ssd_cachealg_init() allocated (also half way). */
void ssd_cachealg_exit(struct cachealg *c);

static inline u32 cachealg_find(const struct cachealg *c, u64 key)
{
	return ssd_cache_set_find(&c->dir, key);
}

static inline bool cachealg_full(const struct cachealg *c)
{
	return c->dir.count >= c->dir.capacity;
}

/* The references to @key (1 if the owner tells none). */
static inline u32 cachealg_refs(const struct cachealg *c, u64 key)
{
	return c->refs ? c->refs(c->refs_ctx, key) : 1;
}

/* Whether the admission judges a request whole (struct cache_admit_ops). */
static inline bool cachealg_whole_requests(const struct cachealg *c)
{
	return c->admit->whole_requests && c->admit->whole_requests(c);
}

/* Every access of @key, before anything else (the admission's counts). */
void ssd_cachealg_access(struct cachealg *c, u64 key);
/* A hit of the key of @slot. */
void ssd_cachealg_hit(struct cachealg *c, u32 slot);
/*
 * The slot to evict so that @key may enter the full cache (RCE applied):
 * CACHE_NONE if RCE kept every key and has no forced drop.
 */
u32 ssd_cachealg_victim(struct cachealg *c, u64 key);
/* The admission's verdict on a miss of @key that needs no victim. */
enum cache_verdict ssd_cachealg_admits(struct cachealg *c, u64 key, const struct cache_req *req);
/* The admission's verdict on replacing @victim with @key. */
enum cache_verdict ssd_cachealg_replaces(struct cachealg *c, u64 key, u32 victim);
/* Both (the device's order: @victim is CACHE_NONE if the cache has room). */
enum cache_verdict ssd_cachealg_decide(struct cachealg *c, u64 key, const struct cache_req *req,
				       u32 victim);
/* @key (absent) enters at the head, the cache not full; its slot. */
u32 ssd_cachealg_insert(struct cachealg *c, u64 key);
/* The key of @slot leaves: evicted (for a key that enters, or for room) or dropped. */
void ssd_cachealg_remove(struct cachealg *c, u32 slot, bool evicted);
/* Keys cached and remembered (ghosts). */
u32 ssd_cachealg_entries(const struct cachealg *c);
/* 0 or -EUCLEAN (logged): the directory, then each policy's state. */
int ssd_cachealg_check(struct cachealg *c);
/* The replacement's, then the admission's state in a snapshot. */
void ssd_cachealg_save_policies(struct cachealg *c, struct ssd_snap_writer *w);
void ssd_cachealg_load_policies(struct cachealg *c, struct ssd_snap_reader *r);

#endif /* SSD_CACHEALG_H */

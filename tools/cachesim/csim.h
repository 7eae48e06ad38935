/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim.h - the host cache simulator's policy interface (cachesim).  The
 * algorithms are the core's (cachealg/cachealg.h, the same the device's
 * write cache runs); a policy here composes them into a host cache and
 * counts what it writes.
 *
 * A cache sees a stream of accesses (csim_stream.h turns a trace into
 * them).  In block mode an access is one cache block (block_bytes, 4-64
 * KiB: consecutive 4 KiB pages of one address range) with its address,
 * its content's fingerprint and the 4 KiB parts the request touched; in
 * unit mode it is one unit (a container of unit_bytes of unique 4 KiB
 * chunks, in the order the trace first showed them) with its reference
 * count.  A policy answers hit or miss and counts the bytes it writes
 * into the cache by cause (csim_fill()).
 *
 * Kinds of policy:
 *   plain  keyed by address, a copy per address: one cachealg replacement
 *          policy (lru, fifo, lfu, arc; csim_plain.c); in unit mode keyed
 *          by unit
 *   dedup  the CacheDedup architecture: a metadata cache of addresses
 *          (address -> fingerprint, meta_entries) over a data cache of
 *          unique blocks (by fingerprint, capacity), each a cachealg cache
 *          (d-lru, d-arc, cdac-lru, cdac-arc); block mode only
 *   unit   unit mode only (plc: cachealg's GCLOCK ring with its PLC
 *          admission)
 */
#ifndef CSIM_H
#define CSIM_H

#include <stdbool.h>
#include <stdint.h>

#include "cachealg/cachealg.h"

#define CSIM_PAGE_BYTES	4096u

/* The algorithms' keys a run may set (csim_params.knobs). */
#define CSIM_MAX_KNOBS	32

enum csim_op { CSIM_READ, CSIM_WRITE, CSIM_NR_OPS };

enum csim_kind { CSIM_PLAIN, CSIM_DEDUP, CSIM_UNIT };

/* How writes reach the cache (block mode; unit mode is always around). */
enum csim_writes {
	CSIM_WRITE_THROUGH,	/* write-through, write-allocate: the new data enters */
	CSIM_WRITE_UPDATE,	/* a cached address is updated in place, else bypass */
	CSIM_WRITE_INVALIDATE,	/* a cached address is dropped */
	CSIM_WRITE_AROUND,	/* unit mode: new chunks go to new containers only */
};

/* Every knob, with its unit; cachesim.c fills it from the command line. */
struct csim_params {
	uint32_t block_bytes;		/* block mode: the cache block */
	uint32_t unit_bytes;		/* unit mode: the container */
	uint64_t capacity;		/* blocks (data cache) or units */
	uint64_t meta_entries;		/* dedup: addresses the metadata cache holds */
	/*
	 * At most how many distinct keys (addresses, or units) and contents
	 * the run can see, from the trace's census: the tables by key.
	 */
	uint64_t keys, contents;
	enum csim_writes writes;
	bool stale_read_hits;		/* plain: a read of changed content still hits */
	/* CDAC */
	uint32_t bhi_cold_percent;	/* a block with fewer parts touched is cold */
	uint64_t bhi_stale_accesses;	/* an address idle this long is flagged */
	uint32_t rce_drop_percent;	/* a refcount falling more than this is dropped */
	bool bhi, rce;			/* each mechanism on (for ablations) */
	/* CDAC's readings the slides leave open (cachealg/evict_rce.c) */
	bool bhi_reset;			/* BHI's bitmap starts anew each cycle */
	bool bhi_hot_leaves;		/* an address BHI finds hot leaves */
	bool rce_remark;		/* a spared address's note is renewed at each turn */
	bool cdac_forced_drop;		/* all kept: the replacement's choice leaves */
	bool cdac_cold_drops;		/* the order before issue 32 */
	/*
	 * The algorithms' own knobs (PLC's): the device's keys, by their names
	 * (cachealg declares them), each set at most once; the others are at
	 * the keys' defaults.
	 */
	struct cache_knob knobs[CSIM_MAX_KNOBS];
	uint32_t nr_knobs;
};

/* Set the algorithms' key @name to @value (a later value replaces it). */
void csim_knob_set(struct csim_params *p, const char *name, uint64_t value);

/* One access, as the stream hands it to a policy. */
struct csim_access {
	uint64_t key;		/* block address, or unit */
	uint64_t fp;		/* block mode: the content after the access */
	uint32_t parts;		/* block mode: bitmap of the 4 KiB parts touched */
	uint32_t refs;		/* unit mode: the unit's reference count */
	enum csim_op op;
	bool allocate;		/* a miss may enter (false: update-only write) */
	uint64_t now;		/* access number, from 1 */
};

enum csim_cause { CSIM_FILL_READ, CSIM_FILL_WRITE, CSIM_NR_CAUSES };

struct csim_stats {
	uint64_t accesses[CSIM_NR_OPS], hits[CSIM_NR_OPS];
	uint64_t fill_bytes[CSIM_NR_CAUSES];	/* bytes written into the cache */
	uint64_t fills[CSIM_NR_CAUSES];
	uint64_t evictions;			/* blocks or units */
	uint64_t stale_reads;			/* plain: cached copy's content differed */
	uint64_t meta_evictions;		/* dedup: addresses */
	uint64_t dedup_fills_saved;		/* dedup: misses whose data was cached */
	uint64_t invalidations;
	/* CDAC (the RCE counters of cachealg, struct cache_rce_counters) */
	uint64_t bhi_cold_drops, bhi_stale_drops, rce_single_drops, rce_fall_drops;
	uint64_t rce_moves, rce_forced_drops;
	uint64_t bhi_hot_keeps, bhi_hot_drops;
	uint64_t cdac_no_victim;		/* all kept: the access was not cached */
	/* PLC */
	uint64_t plc_filtered, plc_delayed, plc_inout_refused;
};

/* Metadata bytes a policy keeps (its design, per entry kind). */
struct csim_memory {
	uint32_t bytes_per_block;	/* per cached block or unit (data cache) */
	uint32_t bytes_per_address;	/* dedup: per metadata-cache address */
	uint32_t bytes_per_ghost;	/* per ghost entry (ARC) */
	uint32_t bytes_per_unit_tracked; /* PLC: per unit ever seen (counters) */
	uint64_t peak_bytes;		/* the most, by the peak counts of this run */
};

struct csim_cache;

struct csim_policy {
	const char *name;
	enum csim_kind kind;
	const char *help;
	/* plain policies: the replacement algorithm (cachealg) */
	const struct cache_repl_ops *repl;
	int (*create)(struct csim_cache *c);
	void (*destroy)(struct csim_cache *c);
	/* Whether the access hit; may fill, evict and count. */
	bool (*access)(struct csim_cache *c, const struct csim_access *a);
	/* Drop address @key (a write under invalidate, a TRIM). */
	void (*invalidate)(struct csim_cache *c, uint64_t key);
	void (*memory)(const struct csim_cache *c, struct csim_memory *m);
};

struct csim_cache {
	const struct csim_policy *policy;
	struct csim_params p;
	struct csim_stats st;
	uint64_t fill_unit_bytes;	/* what one fill writes: block or unit */
	uint32_t parts_per_block;	/* block mode: 4 KiB parts of a block */
	bool unit_mode;
	uint64_t now;			/* the current access's number */
	const uint32_t *unit_refs;	/* unit mode: reference count by unit */
	/* unit mode: per unit, accesses and writes into the cache (quadrants) */
	uint32_t *unit_fills;
	uint64_t unit_fills_room;
	void *priv;
};

/* The registry (csim_cache.c): the policies, NULL-terminated. */
extern const struct csim_policy *const csim_policies[];
const struct csim_policy *csim_policy_find(const char *name);

int csim_cache_init(struct csim_cache *c, const struct csim_policy *policy,
		    const struct csim_params *p, bool unit_mode);
void csim_cache_free(struct csim_cache *c);
/* Count one write into the cache of @key (a block or unit) for @cause. */
void csim_fill(struct csim_cache *c, uint64_t key, enum csim_cause cause);

/*
 * A plain policy found @a's key cached, its copy's content *@fp: whether
 * that is a hit.  A write hit rewrites the cached copy (a fill of cause
 * write).  A read whose content differs from the cached copy's (a trace
 * whose reads show other data than was last written there, as the FIU
 * traces' do at times) is a miss that refreshes the copy (a fill of cause
 * read, counted as stale_reads), unless stale_read_hits (content-blind,
 * as libCacheSim and every address-keyed simulator is); the entry keeps
 * its place.  The content is kept for this check only: a real cache of
 * data needs no fingerprint, and the policies' memory leaves it out.
 */
bool csim_plain_hit(struct csim_cache *c, uint64_t *fp, const struct csim_access *a);

/*
 * Make @alg a cachealg cache of @capacity keys below @keys for the host
 * simulator (its parameters are @c's); exits if out of memory.
 */
void csim_alg_init(struct csim_cache *c, struct cachealg *alg, const struct cache_repl_ops *repl,
		   const struct cache_admit_ops *admit, uint64_t capacity, uint64_t keys,
		   const struct cache_rce_params *rce);

/* Out of memory: the simulator says so and exits. */
void csim_oom(void) __attribute__((noreturn));

static inline enum csim_cause csim_cause_of(enum csim_op op)
{
	return op == CSIM_WRITE ? CSIM_FILL_WRITE : CSIM_FILL_READ;
}

/* The policies, one file each. */
extern const struct csim_policy csim_lru, csim_fifo, csim_lfu, csim_arc;
extern const struct csim_policy csim_dlru, csim_darc, csim_cdac_lru, csim_cdac_arc;
extern const struct csim_policy csim_plc;

#endif /* CSIM_H */

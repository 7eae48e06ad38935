/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_dedup.h - the CacheDedup architecture the dedup policies share: a
 * metadata cache of addresses (address -> content, meta_entries), one
 * cachealg cache (LRU or ARC, with CDAC's RCE for CDAC), over a data
 * cache of unique blocks by content (capacity).
 *
 * Two data caches:
 *  - D-LRU's (csim_dlru.c): a cachealg LRU of its own: a block may go
 *    while cached addresses point to it (they miss until it comes back);
 *  - the refcount-driven one of D-ARC, CDAC-LRU and CDAC-ARC
 *    (csim_dedup.c): a block's count is its reference count, the cached
 *    addresses that point to it, and it lives while that is above 0.  A
 *    block whose count falls to 0 is not lost at once: it waits, most
 *    recently freed first, in the zero list, and is the first to go when
 *    the data cache needs room (a later miss of the same content at
 *    another address takes it back without writing the cache); then the
 *    metadata cache gives up addresses (its victims, for room: ARC's
 *    REPLACE alone) until a block is free.  Its bits are BHI's: the 4 KiB
 *    parts of the block accesses touched since it entered.
 *
 * Reads hit when the address is in the metadata cache with the content
 * read and its block is in the data cache; a write hits when the address
 * is cached (its cached copy is then rewritten, or, dedup, pointed at a
 * cached copy of the new content).
 *
 * Addresses and contents are numbered (csim_ids.h); the tables by number
 * are sized by the trace's census (csim_params.keys, .contents).
 */
#ifndef CSIM_DEDUP_H
#define CSIM_DEDUP_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_ids.h"

struct csim_dedup {
	struct cachealg addr;		/* the metadata cache, keyed by address number */
	struct csim_ids addr_ids, content_ids;
	uint32_t *content;		/* [keys]: the content number of each address */
	uint64_t *stamp;		/* [keys]: the access that last touched it */
	uint64_t addr_peak;		/* the most addresses held (and ghosts) */
	uint64_t block_peak;		/* the most blocks cached */
	/* D-LRU's data cache */
	struct cachealg data;
	/* the refcount-driven data cache */
	struct cache_set zero;		/* unreferenced blocks, most recently freed first */
	uint32_t *count;		/* [contents]: references */
	uint32_t *bits;			/* [contents]: BHI's parts touched */
	uint8_t *cached;		/* [contents]: 1 if the block is cached */
	uint64_t blocks;		/* cached */
	struct cache_rce_params rce;
};

/*
 * Make the architecture for @c: its metadata cache ordered by @repl, with
 * CDAC's rules if @cdac; with D-LRU's data cache if @lru_data, else the
 * refcount-driven one.
 */
void csim_dedup_create(struct csim_cache *c, const struct cache_repl_ops *repl, bool cdac,
		       bool lru_data);
void csim_dedup_destroy(struct csim_cache *c);
/* The refcount-driven access path (D-ARC, CDAC-LRU, CDAC-ARC). */
bool csim_dedup_access(struct csim_cache *c, const struct csim_access *a);
void csim_dedup_invalidate(struct csim_cache *c, uint64_t key);
/* D-LRU's (csim_dlru.c). */
bool csim_dlru_access(struct csim_cache *c, const struct csim_access *a);
void csim_dlru_invalidate(struct csim_cache *c, uint64_t key);
/* The address numbered @id entered the metadata cache: the most held. */
void csim_dedup_count_peak(struct csim_dedup *d);

static inline unsigned int csim_popcount(uint32_t bits)
{
	return (unsigned int)__builtin_popcount(bits);
}

#endif /* CSIM_DEDUP_H */

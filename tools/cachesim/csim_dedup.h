/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_dedup.h - the CacheDedup architecture the dedup policies share: a
 * data cache of unique blocks by fingerprint (csim_data) and the access
 * path of the policies whose data blocks live while a cached address
 * points to them (D-ARC, CDAC-LRU, CDAC-ARC: csim_dedup_access()).
 *
 * A block's count is its reference count: the cached addresses that
 * point to it.  A block whose count falls to 0 is not lost at once: it
 * waits, most recently freed first, in the zero list, and is the first
 * to go when the data cache needs room (a later miss of the same content
 * at another address takes it back without writing the cache).  Its bits
 * are BHI's: the 4 KiB parts of the block accesses touched since it
 * entered.
 *
 * Reads hit when the address is in the metadata cache with the content
 * read and its block is in the data cache; a write hits when the address
 * is cached (its cached copy is then rewritten, or, dedup, pointed at a
 * cached copy of the new content).
 */
#ifndef CSIM_DEDUP_H
#define CSIM_DEDUP_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_pool.h"

enum { DATA_ZERO = 1, DATA_LRU };
/* csim_node.flags of an address */
#define CSIM_PINNED	0x1	/* being retargeted: not a victim */
#define CSIM_RCE_MARK	0x2	/* RCE moved it to the head; count = refs then */

struct csim_data {
	struct csim_pool pool;
	struct csim_list zero;		/* count 0, most recently freed at the head */
	struct csim_list lru;		/* D-LRU: every block, most recent at the head */
	uint64_t capacity;
};

void csim_data_init(struct csim_data *d, uint64_t capacity);
void csim_data_free(struct csim_data *d);
void csim_data_ref(struct csim_data *d, uint32_t n);
void csim_data_unref(struct csim_data *d, uint32_t n);
/* Evict the oldest block of the zero list; whether there was one. */
bool csim_data_drop_zero(struct csim_data *d, struct csim_stats *st);

/* The metadata cache of a refcount-driven policy. */
struct csim_meta_ops {
	/* The cached address @key's node, or CSIM_NONE (ghosts are not cached). */
	uint32_t (*lookup)(struct csim_cache *c, uint64_t key);
	void (*touch)(struct csim_cache *c, uint32_t n);
	/* Make room and insert @key; its node. */
	uint32_t (*insert)(struct csim_cache *c, uint64_t key);
	/* Drop one address for the data cache's sake. */
	void (*reclaim)(struct csim_cache *c);
	void (*remove)(struct csim_cache *c, uint32_t n);
	struct csim_pool *(*pool)(struct csim_cache *c);
};

/* What every refcount-driven policy's private state starts with. */
struct csim_dedup {
	struct csim_data data;
	const struct csim_meta_ops *meta;
};

bool csim_dedup_access(struct csim_cache *c, const struct csim_access *a);
void csim_dedup_invalidate(struct csim_cache *c, uint64_t key);
/* An address leaves the metadata cache: its block loses a reference. */
void csim_dedup_leave(struct csim_cache *c, struct csim_node *addr);

/* CDAC's verdict on the address at a metadata tail (csim_cdac.c). */
enum csim_verdict { CSIM_KEEP, CSIM_DROP };
enum csim_verdict csim_cdac_verdict(struct csim_cache *c, struct csim_node *addr, uint64_t now);
/* The victim of @l by CDAC's tail rules (moves kept ones to the head). */
uint32_t csim_cdac_pick(struct csim_cache *c, struct csim_pool *pool, struct csim_list *l,
			uint8_t id, uint64_t now);

static inline unsigned int csim_popcount(uint32_t bits)
{
	return (unsigned int)__builtin_popcount(bits);
}

#endif /* CSIM_DEDUP_H */

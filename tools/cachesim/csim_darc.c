// SPDX-License-Identifier: GPL-2.0
/*
 * csim_darc.c - D-ARC (CacheDedup, Li et al., FAST'16): ARC over the
 * metadata cache's addresses (meta_entries), and a data cache of unique
 * blocks (capacity) in which a block is evicted only when no cached
 * address points to it: when the data cache needs room, the blocks
 * nobody points to go first (oldest first), then ARC's REPLACE demotes
 * addresses to its ghost lists until a block is free.
 *
 * Memory: per address key 8, fingerprint 8, links 8, list id 4, and its
 * index slot; per ghost 20 and its slot; per block fingerprint 8,
 * reference count 4, links of the free list 8, and its slot.
 */
#include "tools/cachesim/csim_darc_common.h"

static uint32_t pick_tail(struct csim_arc *arc, struct csim_list *l, uint8_t id)
{
	uint32_t n = l->tail;

	while (n != CSIM_NONE && (csim_at(&arc->pool, n)->flags & CSIM_PINNED))
		n = csim_at(&arc->pool, n)->prev;
	return n;
}

static int darc_create(struct csim_cache *c)
{
	return csim_darc_create(c, pick_tail);
}

#define DARC_ADDRESS_BYTES	(8 + 8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)
#define DARC_BLOCK_BYTES	(8 + 4 + 8 + CSIM_MAP_BYTES_PER_ENTRY)

static void darc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	csim_darc_memory(c, m, DARC_ADDRESS_BYTES, DARC_BLOCK_BYTES);
}

const struct csim_policy csim_darc = {
	.name = "d-arc",
	.kind = CSIM_DEDUP,
	.help = "D-ARC: ARC over addresses; a block goes only when no cached address points to it",
	.create = darc_create,
	.destroy = csim_darc_destroy,
	.access = csim_dedup_access,
	.invalidate = csim_dedup_invalidate,
	.memory = darc_memory,
};

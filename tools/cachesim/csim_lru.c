// SPDX-License-Identifier: GPL-2.0
/*
 * csim_lru.c - LRU over addresses (block mode) or units (unit mode), a
 * copy per address, without dedup: a hit moves the entry to the head, a
 * miss that may enter evicts the tail when full (the queue of
 * csim_queue.c).
 */
#include "tools/cachesim/csim_queue.h"

static bool lru_access(struct csim_cache *c, const struct csim_access *a)
{
	return csim_queue_access(c, a, true);
}

const struct csim_policy csim_lru = {
	.name = "lru",
	.kind = CSIM_PLAIN,
	.help = "LRU, a copy per address (or unit)",
	.create = csim_queue_create,
	.destroy = csim_queue_destroy,
	.access = lru_access,
	.invalidate = csim_queue_invalidate,
	.memory = csim_queue_memory,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * csim_fifo.c - FIFO over addresses (block mode) or units (unit mode), a
 * copy per address, without dedup: a hit changes nothing in the order, a
 * miss that may enter evicts the oldest when full (the queue of
 * csim_queue.c).
 */
#include "tools/cachesim/csim_queue.h"

static bool fifo_access(struct csim_cache *c, const struct csim_access *a)
{
	return csim_queue_access(c, a, false);
}

const struct csim_policy csim_fifo = {
	.name = "fifo",
	.kind = CSIM_PLAIN,
	.help = "FIFO, a copy per address (or unit)",
	.create = csim_queue_create,
	.destroy = csim_queue_destroy,
	.access = fifo_access,
	.invalidate = csim_queue_invalidate,
	.memory = csim_queue_memory,
};

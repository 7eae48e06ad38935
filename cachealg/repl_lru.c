// SPDX-License-Identifier: GPL-2.0
/*
 * repl_lru.c - LRU replacement (the ProCache paper's): a hit moves the key
 * to the head of the directory's order, the tail (the least recently
 * used) leaves.  CDAC's RCE is defined over it (CDAC-LRU).
 */
#include "cachealg/cachealg_internal.h"

static void lru_hit(struct cachealg *c, u32 slot)
{
	ssd_cache_set_move_head(&c->dir, slot);
}

const struct cache_repl_ops ssd_cache_repl_lru = {
	.name = "lru",
	.rce = true,
	.hit = lru_hit,
	.requeue = lru_hit,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * repl_fifo.c - FIFO replacement: pages leave in the order they entered;
 * a hit changes nothing.
 */
#include "nvmcache/nvmcache_internal.h"

const struct cache_repl_ops ssd_cache_repl_fifo = {
	.name = "fifo",
};

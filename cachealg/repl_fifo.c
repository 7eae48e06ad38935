// SPDX-License-Identifier: GPL-2.0
/*
 * repl_fifo.c - FIFO replacement: keys leave in the order they entered;
 * a hit changes nothing.
 */
#include "cachealg/cachealg_internal.h"

const struct cache_repl_ops ssd_cache_repl_fifo = {
	.name = "fifo",
};

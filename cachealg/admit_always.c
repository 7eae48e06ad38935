// SPDX-License-Identifier: GPL-2.0
/*
 * admit_always.c - BASE, the ProCache paper's baseline: every miss enters
 * the cache (evicting the replacement policy's victim when full).  No
 * state, no ops: an admission policy without decide() admits.
 */
#include "cachealg/cachealg_internal.h"

const struct cache_admit_ops ssd_cache_admit_always = {
	.name = "always",
};

// SPDX-License-Identifier: GPL-2.0
/*
 * admit_always.c - BASE, the ProCache paper's baseline: every write miss
 * enters the cache (evicting the replacement policy's victim when full).
 * No state.
 */
#include "nvmcache/nvmcache_internal.h"

static enum cache_verdict always_decide(struct nvmcache *c, u64 lpn,
					const struct ssd_io *io, u32 victim)
{
	return CACHE_ADMIT;
}

const struct cache_admit_ops ssd_cache_admit_always = {
	.name = "always",
	.decide = always_decide,
};

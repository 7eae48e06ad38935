// SPDX-License-Identifier: GPL-2.0
/*
 * admit_always.c - BASE, the ProCache paper's baseline: every write miss
 * enters the cache (evicting the replacement policy's victim when full).
 * No state.
 */
#include "nvmcache.h"

static u64 always_table_bytes(u64 total, const struct ssd_config *cfg, u32 capacity)
{
	return total;
}

static int always_init(struct nvmcache *c, const struct ssd_config *cfg)
{
	return 0;
}

static void always_exit(struct nvmcache *c)
{
}

static enum cache_verdict always_decide(struct nvmcache *c, u64 lpn,
					const struct ssd_io *io, u32 victim)
{
	return CACHE_ADMIT;
}

const struct cache_admit_ops cache_admit_always = {
	.name = "always",
	.table_bytes = always_table_bytes,
	.init = always_init,
	.exit = always_exit,
	.decide = always_decide,
};

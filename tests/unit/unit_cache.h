/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit_cache.h - what the SLC write cache's unit tests (test_cache.c,
 * test_cache_dedup.c) share: the geometry that gives the device an SLC
 * region, the cache layer of a device and whether it holds an lpn.
 */
#ifndef SSD_UNIT_CACHE_H
#define SSD_UNIT_CACHE_H

#include "unit.h"
#include "nvmcache/nvmcache_internal.h"

#define CACHE_GEOMETRY "slc_blocks_per_chip=8"

/* The cache layer of @dev's stack; a failure if it has none. */
static inline struct nvmcache *cache_of(struct ssd_device *dev)
{
	struct ssd_layer *layer = unit_layer(dev, "nvmcache");

	EXPECT(layer, "no cache layer in the stack");
	return (struct nvmcache *)layer;
}

static inline bool cached(struct ssd_device *dev, u64 lpn)
{
	return ssd_cache_set_find(&cache_of(dev)->alg.dir, lpn) != CACHE_NONE;
}

#endif /* SSD_UNIT_CACHE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nvmcache.h - the NVM/SLC write cache, the folder's one public header: a
 * policy layer of the request path (common/ssd_layer.h) above the FTL,
 * whose cached pages live in the FTL's SLC region.  Its workings are
 * nvmcache_internal.h, private to nvmcache/.  Portable.
 */
#ifndef SSD_NVMCACHE_H
#define SSD_NVMCACHE_H

#include "common/ssd_layer.h"

/* On when cache_policy is not none; owns cache_*, and its policies their keys. */
extern const struct ssd_layer_type ssd_nvmcache_layer_type;

#endif /* SSD_NVMCACHE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cachealg_internal.h - what the algorithms of cachealg/ share and their
 * users need not see: the configuration keys (SSD_CONFIG_KEY(), with which
 * each policy declares its own), the snapshot stream and the PRNG of
 * common/, and tables of counters whose width the parameters choose (the device keeps
 * them in a byte or two, saturating; the host simulator in four).
 */
#ifndef SSD_CACHEALG_INTERNAL_H
#define SSD_CACHEALG_INTERNAL_H

#include "cachealg/cachealg.h"
#include "common/ssd_config.h"
#include "common/ssd_rand.h"
#include "common/ssd_snap.h"

/* The largest value a counter of @bytes (1, 2 or 4) holds. */
static inline u32 cache_count_max(u8 bytes)
{
	return bytes == 1 ? U8_MAX : bytes == 2 ? U16_MAX : U32_MAX;
}

/* Counter @i of table @v of @bytes each. */
static inline u32 cache_count_get(const void *v, u8 bytes, u64 i)
{
	if (bytes == 1)
		return ((const u8 *)v)[i];
	if (bytes == 2)
		return ((const u16 *)v)[i];
	return ((const u32 *)v)[i];
}

/* Set counter @i to @value, saturating at the counter's largest value. */
static inline void cache_count_set(void *v, u8 bytes, u64 i, u32 value)
{
	value = min_t(u32, value, cache_count_max(bytes));
	if (bytes == 1)
		((u8 *)v)[i] = (u8)value;
	else if (bytes == 2)
		((u16 *)v)[i] = (u16)value;
	else
		((u32 *)v)[i] = value;
}

/* The replacement policy's victim for @key (the tail if it has no victim op). */
u32 ssd_cache_repl_victim(struct cachealg *c, u64 key);

/*
 * RCE (evict_rce.c): from the replacement policy's victim, spare shared
 * keys (CDAC's referenced-count based eviction); the slot to evict.
 */
u32 ssd_cache_rce_victim(struct cachealg *c, u64 key, u32 victim);

#endif /* SSD_CACHEALG_INTERNAL_H */

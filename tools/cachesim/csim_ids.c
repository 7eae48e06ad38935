// SPDX-License-Identifier: GPL-2.0
/*
 * csim_ids.c - numbers for wide keys, and a cache of numbered keys
 * (csim_ids.h).
 */
#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_ids.h"

void csim_ids_init(struct csim_ids *ids, bool dense)
{
	ids->next = 0;
	ids->dense = dense;
	if (!dense && csim_map_init(&ids->map, 1 << 10))
		csim_oom();
}

void csim_ids_free(struct csim_ids *ids)
{
	if (!ids->dense)
		csim_map_free(&ids->map);
}

uint32_t csim_id_find(const struct csim_ids *ids, uint64_t key)
{
	return ids->dense ? (uint32_t)key : csim_map_get(&ids->map, key);
}

uint32_t csim_id_get(struct csim_ids *ids, uint64_t key)
{
	uint32_t id;

	if (ids->dense)
		return (uint32_t)key;
	id = csim_map_get(&ids->map, key);
	if (id != CSIM_NONE)
		return id;
	id = ids->next++;
	if (csim_map_put(&ids->map, key, id))
		csim_oom();
	return id;
}

uint32_t csim_cached(const struct cachealg *alg, const struct csim_ids *ids, uint64_t key,
		     uint32_t *id)
{
	*id = csim_id_find(ids, key);
	return *id == CSIM_NONE ? CACHE_NONE : cachealg_find(alg, *id);
}

uint32_t csim_enter(struct cachealg *alg, uint32_t id, uint64_t *evictions)
{
	if (cachealg_full(alg)) {
		ssd_cachealg_remove(alg, ssd_cachealg_victim(alg, id), true);
		(*evictions)++;
	}
	return ssd_cachealg_insert(alg, id);
}

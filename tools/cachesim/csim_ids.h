/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_ids.h - numbers for wide keys: the cache algorithms (cachealg/)
 * key their sets by numbers below 2^32, and a trace's block addresses and
 * content fingerprints are 64-bit, so each gets a number, from 0 in the
 * order first seen (a csim_map from key to number).  Units are numbered
 * by the stream already: a dense numbering passes them through.  And the
 * two steps every policy takes with a cache of numbered keys.
 */
#ifndef CSIM_IDS_H
#define CSIM_IDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cachealg/cachealg.h"
#include "tools/cachesim/csim_map.h"

struct csim_ids {
	struct csim_map map;
	uint32_t next;		/* the number the next new key gets */
	bool dense;		/* keys are numbers already */
};

/* @dense: keys are their own numbers.  Exits if out of memory. */
void csim_ids_init(struct csim_ids *ids, bool dense);
void csim_ids_free(struct csim_ids *ids);
/* The number of @key, or CSIM_NONE if it has none yet. */
uint32_t csim_id_find(const struct csim_ids *ids, uint64_t key);
/* The number of @key, given now if it has none. */
uint32_t csim_id_get(struct csim_ids *ids, uint64_t key);

/*
 * The slot of @key in @alg, which @ids numbers, or CACHE_NONE; *@id its
 * number (CSIM_NONE if it has none).
 */
uint32_t csim_cached(const struct cachealg *alg, const struct csim_ids *ids, uint64_t key,
		     uint32_t *id);
/*
 * Key @id enters @alg, which admits every miss: if it is full, the
 * replacement's victim leaves first, counted in *@evictions.  Its slot.
 */
uint32_t csim_enter(struct cachealg *alg, uint32_t id, uint64_t *evictions);

#endif /* CSIM_IDS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_map.h - the host cache simulator's one hash table: 64-bit keys to
 * 32-bit values, open addressing with linear probing and backward-shift
 * deletion (no tombstones), grown at a load of 1/2.  Every table of the
 * simulator (addresses, fingerprints, pages, units) is one of these.
 */
#ifndef CSIM_MAP_H
#define CSIM_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CSIM_NONE	UINT32_MAX

struct csim_map_slot {
	uint64_t key;
	uint32_t value;		/* CSIM_NONE: the slot is empty */
};

struct csim_map {
	struct csim_map_slot *slots;
	size_t mask;		/* slots - 1 (a power of two) */
	size_t count;
};

/* Bytes a table of this kind spends per entry at its worst load (1/2). */
#define CSIM_MAP_BYTES_PER_ENTRY	(2 * sizeof(struct csim_map_slot))

int csim_map_init(struct csim_map *m, size_t expected);
void csim_map_free(struct csim_map *m);
/* @to becomes a copy of @from; -1 if out of memory. */
int csim_map_copy(struct csim_map *to, const struct csim_map *from);
/* The value of @key, or CSIM_NONE. */
uint32_t csim_map_get(const struct csim_map *m, uint64_t key);
/* Set @key to @value (CSIM_NONE is not a value); -1 if out of memory. */
int csim_map_put(struct csim_map *m, uint64_t key, uint32_t value);
/* Remove @key; whether it was there. */
bool csim_map_del(struct csim_map *m, uint64_t key);

/* A 64-bit mixer (splitmix64's finaliser): keys, fingerprints, seeds. */
static inline uint64_t csim_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif /* CSIM_MAP_H */

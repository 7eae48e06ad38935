// SPDX-License-Identifier: GPL-2.0
/*
 * csim_map.c - the open-addressing hash table of csim_map.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim_map.h"

static size_t slot_of(const struct csim_map *m, uint64_t key)
{
	return (size_t)csim_mix64(key + 0x9e3779b97f4a7c15ULL) & m->mask;
}

static int alloc_slots(struct csim_map *m, size_t nr)
{
	m->slots = malloc(nr * sizeof(*m->slots));
	if (!m->slots)
		return -1;
	for (size_t i = 0; i < nr; i++)
		m->slots[i].value = CSIM_NONE;
	m->mask = nr - 1;
	m->count = 0;
	return 0;
}

int csim_map_init(struct csim_map *m, size_t expected)
{
	size_t nr = 16;

	while (nr < 2 * expected)
		nr *= 2;
	return alloc_slots(m, nr);
}

void csim_map_free(struct csim_map *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

int csim_map_copy(struct csim_map *to, const struct csim_map *from)
{
	size_t bytes = (from->mask + 1) * sizeof(*from->slots);

	to->slots = malloc(bytes);
	if (!to->slots)
		return -1;
	memcpy(to->slots, from->slots, bytes);
	to->mask = from->mask;
	to->count = from->count;
	return 0;
}

uint32_t csim_map_get(const struct csim_map *m, uint64_t key)
{
	size_t i = slot_of(m, key);

	while (m->slots[i].value != CSIM_NONE) {
		if (m->slots[i].key == key)
			return m->slots[i].value;
		i = (i + 1) & m->mask;
	}
	return CSIM_NONE;
}

static int grow(struct csim_map *m)
{
	struct csim_map old = *m;

	if (alloc_slots(m, 2 * (old.mask + 1))) {
		*m = old;
		return -1;
	}
	for (size_t i = 0; i <= old.mask; i++)
		if (old.slots[i].value != CSIM_NONE)
			csim_map_put(m, old.slots[i].key, old.slots[i].value);
	free(old.slots);
	return 0;
}

int csim_map_put(struct csim_map *m, uint64_t key, uint32_t value)
{
	size_t i;

	if (2 * (m->count + 1) > m->mask + 1 && grow(m))
		return -1;
	i = slot_of(m, key);
	while (m->slots[i].value != CSIM_NONE) {
		if (m->slots[i].key == key) {
			m->slots[i].value = value;
			return 0;
		}
		i = (i + 1) & m->mask;
	}
	m->slots[i].key = key;
	m->slots[i].value = value;
	m->count++;
	return 0;
}

/* Backward-shift deletion: later entries of the run move into the hole. */
bool csim_map_del(struct csim_map *m, uint64_t key)
{
	size_t i = slot_of(m, key), j;

	for (;;) {
		if (m->slots[i].value == CSIM_NONE)
			return false;
		if (m->slots[i].key == key)
			break;
		i = (i + 1) & m->mask;
	}
	j = i;
	for (;;) {
		size_t home;

		j = (j + 1) & m->mask;
		if (m->slots[j].value == CSIM_NONE)
			break;
		home = slot_of(m, m->slots[j].key);
		/* Move j into the hole at i unless its home lies in (i, j]. */
		if ((i <= j) ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		m->slots[i] = m->slots[j];
		i = j;
	}
	m->slots[i].value = CSIM_NONE;
	m->count--;
	return true;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_remap.c - the (disk, unit) -> device unit map of ssdsim's dense
 * remap (sim_remap.h): a hash table with linear probing, doubled when half
 * full, 24 bytes a slot; and the names of its units.
 */
#include <stdlib.h>

#include "tools/ssdsim/sim_remap.h"

const char *sim_remap_unit_name(enum sim_remap_unit unit)
{
	switch (unit) {
	case SIM_REMAP_UNIT_ERASE_BLOCK:
		return "erase-block";
	case SIM_REMAP_UNIT_PAGE:
		return "page";
	default:
		return "bytes";
	}
}

static u64 hash(u64 disk, u64 unit)
{
	u64 z = unit + disk * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static struct sim_remap_slot *find(const struct sim_remap *m, u64 disk, u64 unit)
{
	u64 i = hash(disk, unit) & m->mask;

	while (m->slots[i].to && (m->slots[i].disk != disk || m->slots[i].unit != unit))
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

static int grow(struct sim_remap *m)
{
	u64 size = m->slots ? 2 * (m->mask + 1) : 1024, i;
	struct sim_remap old = *m;

	m->slots = calloc(size, sizeof(*m->slots));
	if (!m->slots) {
		*m = old;
		return -1;
	}
	m->mask = size - 1;
	for (i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].to)
			*find(m, old.slots[i].disk, old.slots[i].unit) = old.slots[i];
	free(old.slots);
	return 0;
}

int sim_remap_unit(struct sim_remap *m, u64 disk, u64 unit, bool add, u64 *to)
{
	struct sim_remap_slot *slot;

	if (!m->slots && grow(m))
		return -1;
	slot = find(m, disk, unit);
	if (slot->to) {
		*to = slot->to - 1;
		return 1;
	}
	if (!add)
		return 0;
	if (2 * (m->used + 1) > m->mask + 1) {
		if (grow(m))
			return -1;
		slot = find(m, disk, unit);
	}
	slot->disk = disk;
	slot->unit = unit;
	slot->to = ++m->used;
	*to = slot->to - 1;
	return 1;
}

void sim_remap_free(struct sim_remap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->mask = 0;
	m->used = 0;
}

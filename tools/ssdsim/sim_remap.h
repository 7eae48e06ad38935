/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_remap.h - ssdsim's dense remap of a trace's addresses: each
 * distinct (disk, unit) the trace touches gets the next free unit of the
 * device, in the order the trace first touches them, so a trace whose
 * touched units fit the device replays without wrapping.  The map only;
 * which units a request touches, and where its pieces go, is sim_place.h's.
 */
#ifndef SSD_SIM_REMAP_H
#define SSD_SIM_REMAP_H

#include <stdbool.h>

#include "common/ssd_config.h"

struct sim_remap_slot {
	u64 disk;
	u64 unit;
	u64 to;				/* the device unit + 1; 0: an empty slot */
};

struct sim_remap {
	struct sim_remap_slot *slots;	/* open addressing, linear probing */
	u64 mask;			/* slots - 1 (a power of two) */
	u64 used;			/* units mapped = the next free device unit */
};

/*
 * The device unit of (@disk, @unit) into *@to: 1 if it was mapped, 1 too
 * if @add and it is mapped now (to the next free unit), 0 if not mapped
 * and not @add, -1 out of memory.
 */
int sim_remap_unit(struct sim_remap *m, u64 disk, u64 unit, bool add, u64 *to);
void sim_remap_free(struct sim_remap *m);

#endif /* SSD_SIM_REMAP_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_remap.h - ssdsim's dense remap of a trace's addresses: each
 * distinct (disk, unit) the trace touches gets the next free unit of the
 * device, in the order the trace first touches them, so a trace whose
 * touched units fit the device replays without wrapping.  The map, and
 * the choice of its unit; which units a request touches, and where its
 * pieces go, is sim_place.h's.
 *
 * The unit is one erase block unless asked otherwise: a unit keeps the
 * trace's layout inside it, so the logical blocks a block-mapped FTL
 * (ftl_type block, bast, fast) maps hold the pages the trace put
 * together, at the offsets it gave them.  Page units pack tighter but
 * place pages first touched one after the other side by side, which
 * turns a trace's scattered first writes into sequential runs and its
 * rewrites into scattered ones: on an MSR trace bast's WAF was 1.80 with
 * page units against 30.9 with erase-block ones (the page FTL's 3.06
 * against 3.22).
 */
#ifndef SSD_SIM_REMAP_H
#define SSD_SIM_REMAP_H

#include <stdbool.h>

#include "common/ssd_config.h"

/* --remap-unit: what a unit of the remap is. */
enum sim_remap_unit {
	SIM_REMAP_UNIT_ERASE_BLOCK,	/* pages_per_block pages (the default) */
	SIM_REMAP_UNIT_PAGE,		/* one page */
	SIM_REMAP_UNIT_BYTES,		/* bytes given, a multiple of the page */
};

/* "erase-block", "page" or "bytes": the --remap-unit word of @unit. */
const char *sim_remap_unit_name(enum sim_remap_unit unit);

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

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_darc_common.h - the metadata cache of D-ARC and CDAC-ARC: ARC over
 * addresses (csim_arc_core.h) whose entries hold their block's reference;
 * the two differ only in the victim REPLACE takes from the list it chose
 * (D-ARC: the tail; CDAC-ARC: by CDAC's tail rules).
 */
#ifndef CSIM_DARC_COMMON_H
#define CSIM_DARC_COMMON_H

#include "tools/cachesim/csim_arc_core.h"
#include "tools/cachesim/csim_dedup.h"

struct darc {
	struct csim_dedup dd;		/* first: csim_dedup.c casts priv to it */
	struct csim_arc arc;
};

int csim_darc_create(struct csim_cache *c,
		     uint32_t (*pick)(struct csim_arc *arc, struct csim_list *l, uint8_t id));
void csim_darc_destroy(struct csim_cache *c);
void csim_darc_memory(const struct csim_cache *c, struct csim_memory *m,
		      uint32_t address_bytes, uint32_t block_bytes);

#endif /* CSIM_DARC_COMMON_H */

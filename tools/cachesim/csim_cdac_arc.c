// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cdac_arc.c - CDAC-ARC: D-ARC's architecture (csim_darc.c) whose
 * REPLACE takes its victim from the list ARC chose by CDAC's tail rules
 * (csim_cdac.c: BHI first, then RCE; kept addresses move to that list's
 * head), so the data cache's reclaim drops addresses until a free block
 * appears.
 *
 * Memory: per address D-ARC's, plus the last access 4 (stale flag, as a
 * 32-bit access count), the RCE snapshot 4 and mark; per block D-ARC's,
 * plus the BHI bitmap 2 (up to 16 parts of 4 KiB).
 */
#include "tools/cachesim/csim_darc_common.h"

static uint32_t pick_cdac(struct csim_arc *arc, struct csim_list *l, uint8_t id)
{
	struct csim_cache *c = arc->user.ctx;

	return csim_cdac_pick(c, &arc->pool, l, id, c->now);
}

static int cdac_arc_create(struct csim_cache *c)
{
	return csim_darc_create(c, pick_cdac);
}

#define CDAC_ARC_ADDRESS_BYTES	(8 + 8 + 8 + 4 + 4 + 4 + CSIM_MAP_BYTES_PER_ENTRY)
#define CDAC_ARC_BLOCK_BYTES	(8 + 4 + 8 + 2 + CSIM_MAP_BYTES_PER_ENTRY)

static void cdac_arc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	csim_darc_memory(c, m, CDAC_ARC_ADDRESS_BYTES, CDAC_ARC_BLOCK_BYTES);
}

const struct csim_policy csim_cdac_arc = {
	.name = "cdac-arc",
	.kind = CSIM_DEDUP,
	.help = "CDAC-ARC: D-ARC whose victims follow BHI then RCE",
	.create = cdac_arc_create,
	.destroy = csim_darc_destroy,
	.access = csim_dedup_access,
	.invalidate = csim_dedup_invalidate,
	.memory = cdac_arc_memory,
};

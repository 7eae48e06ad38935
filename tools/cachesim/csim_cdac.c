// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cdac.c - the refcount-driven dedup policies (csim_dedup.h), each
 * the architecture with one metadata cache of the core's algorithms:
 *
 *   d-arc     D-ARC (CacheDedup, Li et al., FAST'16): ARC over addresses
 *             (cachealg/repl_arc.c); a block goes only when no cached
 *             address points to it
 *   cdac-lru  CDAC-LRU (Tan et al.): LRU over addresses whose victims
 *             follow CDAC's rules (cachealg/evict_rce.c: BHI, then RCE)
 *   cdac-arc  CDAC-ARC: D-ARC whose victims follow CDAC's rules
 *
 * Whenever an address must go (the metadata cache is full, or the data
 * cache needs a free block and none is unreferenced) the victim is the
 * replacement's, examined by CDAC's rules until one goes.
 *
 * Memory (the design's): per address key 8, fingerprint 8, links 8 and its
 * hash slot, with ARC the list id 4, with CDAC the last access 4 (the
 * stale flag, as a 32-bit access count), the RCE snapshot 4 and its mark
 * 4; per ghost key, links and list id 20 and its slot; per block
 * fingerprint 8, reference count 4, free-list links 8 and its slot, with
 * CDAC the BHI bitmap 2 (up to 16 parts of 4 KiB).
 */
#include "tools/cachesim/csim_dedup.h"

static int darc_create(struct csim_cache *c)
{
	csim_dedup_create(c, &ssd_cache_repl_arc, false, false);
	return 0;
}

static int cdac_lru_create(struct csim_cache *c)
{
	csim_dedup_create(c, &ssd_cache_repl_lru, true, false);
	return 0;
}

static int cdac_arc_create(struct csim_cache *c)
{
	csim_dedup_create(c, &ssd_cache_repl_arc, true, false);
	return 0;
}

#define ADDRESS_BYTES		(8 + 8 + 8 + CSIM_MAP_BYTES_PER_ENTRY)
#define ARC_LIST_BYTES		4
#define CDAC_ADDRESS_BYTES	(4 + 4 + 4)
#define BLOCK_BYTES		(8 + 4 + 8 + CSIM_MAP_BYTES_PER_ENTRY)
#define CDAC_BLOCK_BYTES	2
#define GHOST_BYTES		(8 + 8 + 4 + CSIM_MAP_BYTES_PER_ENTRY)

/* The metadata cache's peak splits into addresses and (ARC) ghosts. */
static void memory(const struct csim_cache *c, struct csim_memory *m, uint32_t address_bytes,
		   uint32_t block_bytes, bool ghosts)
{
	const struct csim_dedup *d = c->priv;
	uint64_t held_ghosts = ghosts && d->addr_peak > c->p.meta_entries ?
			       d->addr_peak - c->p.meta_entries : 0;

	m->bytes_per_address = address_bytes;
	m->bytes_per_block = block_bytes;
	m->bytes_per_ghost = ghosts ? GHOST_BYTES : 0;
	m->peak_bytes = (d->addr_peak - held_ghosts) * address_bytes +
			held_ghosts * GHOST_BYTES + d->block_peak * block_bytes;
}

static void darc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	memory(c, m, ADDRESS_BYTES + ARC_LIST_BYTES, BLOCK_BYTES, true);
}

static void cdac_lru_memory(const struct csim_cache *c, struct csim_memory *m)
{
	memory(c, m, ADDRESS_BYTES + CDAC_ADDRESS_BYTES, BLOCK_BYTES + CDAC_BLOCK_BYTES, false);
}

static void cdac_arc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	memory(c, m, ADDRESS_BYTES + CDAC_ADDRESS_BYTES, BLOCK_BYTES + CDAC_BLOCK_BYTES, true);
}

#define DEDUP_POLICY(NAME, HELP, CREATE, MEMORY)	{	\
	.name = NAME,						\
	.kind = CSIM_DEDUP,					\
	.help = HELP,						\
	.create = CREATE,					\
	.destroy = csim_dedup_destroy,				\
	.access = csim_dedup_access,				\
	.invalidate = csim_dedup_invalidate,			\
	.memory = MEMORY,					\
}

const struct csim_policy csim_darc = DEDUP_POLICY("d-arc",
	"D-ARC: ARC over addresses; a block goes only when no cached address points to it",
	darc_create, darc_memory);
const struct csim_policy csim_cdac_lru = DEDUP_POLICY("cdac-lru",
	"CDAC-LRU: LRU addresses, blocks live while referenced; victims by BHI then RCE",
	cdac_lru_create, cdac_lru_memory);
const struct csim_policy csim_cdac_arc = DEDUP_POLICY("cdac-arc",
	"CDAC-ARC: D-ARC whose victims follow BHI then RCE", cdac_arc_create, cdac_arc_memory);

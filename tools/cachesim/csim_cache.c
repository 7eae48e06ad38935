// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cache.c - what every policy of the host cache simulator shares:
 * creating and freeing a cache, counting the bytes written into it, and
 * the registry of policies (one line per policy file).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_pool.h"

const struct csim_policy *const csim_policies[] = {
	&csim_lru, &csim_fifo, &csim_lfu, &csim_arc,
	&csim_dlru, &csim_darc, &csim_cdac_lru, &csim_cdac_arc,
	&csim_plc,
	NULL,
};

const struct csim_policy *csim_policy_find(const char *name)
{
	for (unsigned int i = 0; csim_policies[i]; i++)
		if (!strcmp(csim_policies[i]->name, name))
			return csim_policies[i];
	return NULL;
}

int csim_cache_init(struct csim_cache *c, const struct csim_policy *policy,
		    const struct csim_params *p, bool unit_mode)
{
	memset(c, 0, sizeof(*c));
	c->policy = policy;
	c->p = *p;
	c->fill_unit_bytes = unit_mode ? p->unit_bytes : p->block_bytes;
	c->parts_per_block = p->block_bytes / CSIM_PAGE_BYTES;
	c->unit_mode = unit_mode;
	return policy->create(c);
}

void csim_cache_free(struct csim_cache *c)
{
	if (c->policy)
		c->policy->destroy(c);
	free(c->unit_fills);
	c->unit_fills = NULL;
}

void csim_oom(void)
{
	fprintf(stderr, "cachesim: out of memory\n");
	exit(1);
}

void csim_fill(struct csim_cache *c, uint64_t key, enum csim_cause cause)
{
	c->st.fill_bytes[cause] += c->fill_unit_bytes;
	c->st.fills[cause]++;
	if (!c->unit_mode)
		return;
	/* Unit mode: count the unit's writes into the cache (quadrants). */
	if (key >= c->unit_fills_room) {
		uint64_t room = c->unit_fills_room ? c->unit_fills_room : 1024;
		uint32_t *grown;

		while (room <= key)
			room *= 2;
		grown = realloc(c->unit_fills, room * sizeof(*grown));
		if (!grown)
			csim_oom();
		memset(grown + c->unit_fills_room, 0,
		       (room - c->unit_fills_room) * sizeof(*grown));
		c->unit_fills = grown;
		c->unit_fills_room = room;
	}
	c->unit_fills[key]++;
}

bool csim_plain_hit(struct csim_cache *c, struct csim_node *e, const struct csim_access *a)
{
	if (a->op == CSIM_WRITE) {
		e->fp = a->fp;
		csim_fill(c, a->key, CSIM_FILL_WRITE);
		return true;
	}
	if (e->fp == a->fp)
		return true;
	e->fp = a->fp;
	c->st.stale_reads++;
	if (c->p.stale_read_hits)
		return true;
	csim_fill(c, a->key, CSIM_FILL_READ);
	return false;
}

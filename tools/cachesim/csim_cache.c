// SPDX-License-Identifier: GPL-2.0
/*
 * csim_cache.c - what every policy of the host cache simulator shares:
 * creating and freeing a cache, counting the bytes written into it, the
 * plain policies' hit rule, making a cachealg cache with the simulator's
 * parameters, and the registry of policies (one line per policy).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim.h"

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

void csim_alg_init(struct csim_cache *c, struct cachealg *alg, const struct cache_repl_ops *repl,
		   const struct cache_admit_ops *admit, uint64_t capacity, uint64_t keys,
		   const struct cache_rce_params *rce)
{
	struct cache_params p = {
		.knobs = c->p.knobs,
		.nr_knobs = c->p.nr_knobs,
		.page_bytes = CSIM_PAGE_BYTES,
		/* Counts without a byte's bound (PLC's). */
		.count_bytes = 4,
		/* ARC's ghosts may outgrow the cache when a data cache reclaims: room for every key. */
		.ghost_entries = keys,
	};

	if (capacity >= U32_MAX || keys > U32_MAX) {
		fprintf(stderr, "cachesim: %llu entries over %llu keys: more than the cache algorithms number (2^32)\n",
			(unsigned long long)capacity, (unsigned long long)keys);
		exit(2);
	}
	alg->dev_name = "cachesim";
	alg->who = c->policy->name;
	if (ssd_cachealg_init(alg, repl, admit, &p, (uint32_t)capacity, keys, rce))
		csim_oom();
}

void csim_knob_set(struct csim_params *p, const char *name, uint64_t value)
{
	uint32_t i;

	for (i = 0; i < p->nr_knobs && strcmp(p->knobs[i].name, name); i++)
		;
	if (i == CSIM_MAX_KNOBS) {
		fprintf(stderr, "cachesim: more than %u algorithm keys set\n", CSIM_MAX_KNOBS);
		exit(2);
	}
	p->knobs[i].name = name;
	p->knobs[i].value = value;
	if (i == p->nr_knobs)
		p->nr_knobs++;
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

bool csim_plain_hit(struct csim_cache *c, uint64_t *fp, const struct csim_access *a)
{
	if (a->op == CSIM_WRITE) {
		*fp = a->fp;
		csim_fill(c, a->key, CSIM_FILL_WRITE);
		return true;
	}
	if (*fp == a->fp)
		return true;
	*fp = a->fp;
	c->st.stale_reads++;
	if (c->p.stale_read_hits)
		return true;
	csim_fill(c, a->key, CSIM_FILL_READ);
	return false;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * csim_plc.c - PLC-Cache (Liu, Chai, Xiao, Qin, MSST'14) at unit
 * (container) granularity: the core's PLC admission (cachealg/admit_plc.c:
 * popularity filter, delayed eviction, in-out comparison) over its GCLOCK
 * ring (cachealg/repl_clock.c: an inner priority per unit, raised by each
 * hit without bound, lowered by the hand), the algorithms the device's
 * write cache runs with cache_policy=plc and cache_replacement=gclock.
 *
 * A missed unit that passes the popularity filter takes a free slot while
 * the ring has one; then the hand names a victim and the delayed eviction
 * and the in-out comparison decide whether it makes way (so the hand moves
 * only for units the filter let through).  A unit's reference count ("the
 * number of files referencing it after dedup") is the stream's
 * (csim_stream.h).  Its knobs are the device's keys' (plc_access_threshold,
 * plc_delay, plc_inout_percent), and the readings this simulator has used:
 * a hit sets the delay count back to plc_delay, and the hand passes an
 * abandoned or refused victim by.
 *
 * Memory (the design's): per cached unit a ring slot (unit 4, priority 4,
 * delay 4); per unit ever seen its access count 4 and ring slot 4 (dense,
 * by unit, in a table grown by doubling from 1024).
 */
#include <stdlib.h>

#include "tools/cachesim/csim.h"

struct plc {
	struct cachealg alg;
	uint64_t room;			/* the units' table of the design */
};

/* The references of unit @key: the stream's count. */
static uint32_t unit_refs(const void *ctx, uint64_t key)
{
	const struct csim_cache *c = ctx;

	return c->unit_refs[key];
}

static int plc_create(struct csim_cache *c)
{
	struct plc *p = calloc(1, sizeof(*p));

	if (!p)
		csim_oom();
	p->alg.refs = unit_refs;
	p->alg.refs_ctx = c;
	/* The ring's priorities count hits without bound: four bytes each. */
	csim_knob_set(&c->p, "cache_gclock_max_priority", U32_MAX);
	csim_alg_init(c, &p->alg, &ssd_cache_repl_gclock, &ssd_cache_admit_plc, c->p.capacity,
		      c->p.keys, NULL);
	c->priv = p;
	return 0;
}

static void plc_destroy(struct csim_cache *c)
{
	struct plc *p = c->priv;

	ssd_cachealg_exit(&p->alg);
	free(p);
}

static bool plc_access(struct csim_cache *c, const struct csim_access *a)
{
	static const struct cache_req no_request;
	struct plc *p = c->priv;
	struct cachealg *alg = &p->alg;
	enum cache_verdict verdict;
	uint32_t slot, victim;

	if (a->key >= p->room) {
		p->room = p->room ? p->room : 1024;
		while (p->room <= a->key)
			p->room *= 2;
	}
	ssd_cachealg_access(alg, a->key);
	slot = cachealg_find(alg, a->key);
	if (slot != CACHE_NONE) {
		ssd_cachealg_hit(alg, slot);
		return true;
	}
	if (ssd_cachealg_admits(alg, a->key, &no_request) != CACHE_ADMIT) {
		c->st.plc_filtered++;
		return false;
	}
	if (cachealg_full(alg)) {
		victim = ssd_cachealg_victim(alg, a->key);
		verdict = ssd_cachealg_replaces(alg, a->key, victim);
		if (verdict == CACHE_BYPASS_DELAY) {
			c->st.plc_delayed++;
			return false;
		}
		if (verdict != CACHE_ADMIT) {
			c->st.plc_inout_refused++;
			return false;
		}
		ssd_cachealg_remove(alg, victim, true);
		c->st.evictions++;
	}
	ssd_cachealg_insert(alg, a->key);
	csim_fill(c, a->key, CSIM_FILL_READ);
	return false;
}

static void plc_invalidate(struct csim_cache *c, uint64_t key)
{
}

static void plc_memory(const struct csim_cache *c, struct csim_memory *m)
{
	const struct plc *p = c->priv;

	m->bytes_per_block = 12;
	m->bytes_per_unit_tracked = 8;
	m->peak_bytes = c->p.capacity * 12 + p->room * 8;
}

const struct csim_policy csim_plc = {
	.name = "plc",
	.kind = CSIM_UNIT,
	.help = "PLC-Cache: popularity filter, delayed eviction, in-out comparison (units)",
	.create = plc_create,
	.destroy = plc_destroy,
	.access = plc_access,
	.invalidate = plc_invalidate,
	.memory = plc_memory,
};

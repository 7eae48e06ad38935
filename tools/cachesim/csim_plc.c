// SPDX-License-Identifier: GPL-2.0
/*
 * csim_plc.c - PLC-Cache (Liu, Chai, Xiao, Qin, MSST'14) at unit
 * (container) granularity: cached units on a CLOCK ring, each with an
 * inner priority (incremented by its hits) and a delay count, and three
 * mechanisms, each of which can be switched off:
 *
 * - popularity filter: a missed unit enters only if its access count
 *   exceeds plc_threshold_accesses (the count includes this access and is
 *   reset when the unit is evicted);
 * - delayed eviction: the hand decrements the priorities it passes until
 *   one is 0; that victim's delay count (plc_delay when it entered or was
 *   last hit) is decremented, and while it stays above 0 the replacement
 *   is abandoned and the incoming unit not cached (so a delay of d spares
 *   the victim d - 1 times, each a turn of the hand: see below);
 * - in-out comparison: the victim a is replaced by b only if refs(b) >
 *   refs(a) or access(b) > f x access(a), f = plc_inout_factor (our
 *   reading of the paper's "f(a) x threshold": a constant f in [1, 2] on
 *   a's access count); else b is not cached.
 *
 * A new unit takes the victim's place on the ring and the hand moves past
 * it (textbook CLOCK); until the ring is full units take free slots.  When
 * a replacement is abandoned (delayed, or refused by the comparison) the
 * hand moves past the victim too, so the next miss looks at the next
 * unit: our reading, as a victim that stayed under the hand would be
 * compared with every miss and, once well used, block all replacement,
 * and a delay would last only delay - 1 misses.
 * refs is the unit's reference count from the stream (csim_stream.h).
 *
 * Memory: per cached unit a ring slot (unit 4, priority 4, delay 4); per
 * unit ever seen its access count 4 and ring slot 4 (dense, by unit).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_map.h"

struct plc {
	uint32_t *ring, *prio, *delay;	/* by slot */
	uint64_t used, hand;
	uint32_t *acc, *slot;		/* by unit */
	uint64_t room;
};

static int plc_create(struct csim_cache *c)
{
	struct plc *p = calloc(1, sizeof(*p));
	uint64_t n = c->p.capacity;

	if (!p)
		csim_oom();
	p->ring = calloc(n, sizeof(uint32_t));
	p->prio = calloc(n, sizeof(uint32_t));
	p->delay = calloc(n, sizeof(uint32_t));
	if (!p->ring || !p->prio || !p->delay)
		csim_oom();
	c->priv = p;
	return 0;
}

static void plc_destroy(struct csim_cache *c)
{
	struct plc *p = c->priv;

	free(p->ring);
	free(p->prio);
	free(p->delay);
	free(p->acc);
	free(p->slot);
	free(p);
}

static void track(struct plc *p, uint64_t unit)
{
	uint64_t room = p->room ? p->room : 1024;

	if (unit < p->room)
		return;
	while (room <= unit)
		room *= 2;
	p->acc = realloc(p->acc, room * sizeof(uint32_t));
	p->slot = realloc(p->slot, room * sizeof(uint32_t));
	if (!p->acc || !p->slot)
		csim_oom();
	memset(p->acc + p->room, 0, (room - p->room) * sizeof(uint32_t));
	memset(p->slot + p->room, 0xff, (room - p->room) * sizeof(uint32_t));
	p->room = room;
}

static void place(struct csim_cache *c, struct plc *p, uint64_t s, uint64_t unit)
{
	p->ring[s] = (uint32_t)unit;
	p->prio[s] = 0;
	p->delay[s] = c->p.plc_delay;
	p->slot[unit] = (uint32_t)s;
	csim_fill(c, unit, CSIM_FILL_READ);
}

static bool plc_access(struct csim_cache *c, const struct csim_access *a)
{
	struct plc *p = c->priv;
	uint64_t u = a->key, s, v;

	track(p, u);
	p->acc[u]++;
	s = p->slot[u];
	if (s != CSIM_NONE) {
		p->prio[s]++;
		p->delay[s] = c->p.plc_delay;
		return true;
	}
	if (c->p.plc_filter && p->acc[u] <= c->p.plc_threshold_accesses) {
		c->st.plc_filtered++;
		return false;
	}
	if (p->used < c->p.capacity) {
		place(c, p, p->used++, u);
		return false;
	}
	while (p->prio[p->hand]) {
		p->prio[p->hand]--;
		p->hand = (p->hand + 1) % c->p.capacity;
	}
	s = p->hand;
	v = p->ring[s];
	if (c->p.plc_delayed && p->delay[s] && --p->delay[s]) {
		c->st.plc_delayed++;
		p->hand = (s + 1) % c->p.capacity;
		return false;
	}
	if (c->p.plc_inout && !(a->refs > c->unit_refs[v] ||
				(double)p->acc[u] > c->p.plc_inout_factor * p->acc[v])) {
		c->st.plc_inout_refused++;
		p->hand = (s + 1) % c->p.capacity;
		return false;
	}
	p->acc[v] = 0;
	p->slot[v] = CSIM_NONE;
	c->st.evictions++;
	place(c, p, s, u);
	p->hand = (s + 1) % c->p.capacity;
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

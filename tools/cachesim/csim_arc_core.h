/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_arc_core.h - ARC (Megiddo and Modha, FAST'03) over the nodes of a
 * pool, shared by plain ARC (csim_arc.c), D-ARC (csim_darc.c) and
 * CDAC-ARC (csim_cdac_arc.c).  T1 holds entries seen once recently, T2
 * those seen at least twice, B1 and B2 the ghosts (keys only) of entries
 * evicted from each; p, the target size of T1, moves towards whichever
 * ghost list a miss finds its key in.  The rules are libCacheSim's ARC
 * with unit sizes (its hit counts are the reference the tests hold us
 * to): on a ghost hit, REPLACE runs only if T1 + T2 is full; on a full
 * miss, if T1 + B1 holds c entries the B1 tail goes (or, B1 empty, the
 * T1 tail without a ghost), else if all four hold 2c the B2 tail goes,
 * then REPLACE.
 *
 * The user chooses the victim REPLACE takes from the list it picked
 * (pick: plain ARC and D-ARC take the tail, CDAC-ARC applies its tail
 * rules and may move entries within the list first) and hears of every
 * entry that leaves T1 and T2 (leave: D-ARC drops the entry's reference
 * to its block).
 */
#ifndef CSIM_ARC_CORE_H
#define CSIM_ARC_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/cachesim/csim_pool.h"

enum { ARC_T1 = 1, ARC_T2, ARC_B1, ARC_B2 };

struct csim_arc;

struct csim_arc_user {
	/*
	 * The node of @l (list @id) to demote, CSIM_NONE if none may go;
	 * may move nodes inside @l.
	 */
	uint32_t (*pick)(struct csim_arc *arc, struct csim_list *l, uint8_t id);
	/* Node @n is leaving T1/T2 (to a ghost list, or gone). */
	void (*leave)(struct csim_arc *arc, uint32_t n);
	void *ctx;
};

struct csim_arc {
	struct csim_pool pool;
	struct csim_list t1, t2, b1, b2;
	double p;
	uint64_t c;			/* entries T1 + T2 may hold */
	struct csim_arc_user user;
	uint64_t evictions;		/* entries that left T1 + T2 for room */
};

int csim_arc_init(struct csim_arc *arc, uint64_t c, const struct csim_arc_user *user);
void csim_arc_free(struct csim_arc *arc);
/* Where @key is (ARC_T1 ... ARC_B2, 0 if nowhere); *@n its node. */
int csim_arc_lookup(struct csim_arc *arc, uint64_t key, uint32_t *n);
/* A hit on node @n of T1 or T2: to the head of T2. */
void csim_arc_hit(struct csim_arc *arc, uint32_t n);
/*
 * A miss on @key, found at @where (0, ARC_B1 or ARC_B2; @n its ghost
 * node): adapt p, make room, and insert; the new node (in T1, or T2
 * after a ghost hit).
 */
uint32_t csim_arc_miss(struct csim_arc *arc, uint64_t key, int where, uint32_t n);
/* REPLACE: demote one entry of T1 or T2 to its ghost list. */
void csim_arc_replace(struct csim_arc *arc, bool in_b2);
/* Drop node @n of T1 or T2 with no ghost (an invalidation). */
void csim_arc_remove(struct csim_arc *arc, uint32_t n);
/* The list (T1 or T2) REPLACE would take from now, and its id. */
struct csim_list *csim_arc_replace_list(struct csim_arc *arc, bool in_b2, uint8_t *id);

static inline bool csim_arc_full(const struct csim_arc *arc)
{
	return arc->t1.count + arc->t2.count >= arc->c;
}

#endif /* CSIM_ARC_CORE_H */

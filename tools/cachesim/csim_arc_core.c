// SPDX-License-Identifier: GPL-2.0
/*
 * csim_arc_core.c - the ARC lists of csim_arc_core.h.
 */
#include <string.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_arc_core.h"

int csim_arc_init(struct csim_arc *arc, uint64_t c, const struct csim_arc_user *user)
{
	memset(arc, 0, sizeof(*arc));
	if (csim_pool_init(&arc->pool, 2 * c))
		csim_oom();
	csim_list_init(&arc->t1);
	csim_list_init(&arc->t2);
	csim_list_init(&arc->b1);
	csim_list_init(&arc->b2);
	arc->c = c;
	arc->user = *user;
	return 0;
}

void csim_arc_free(struct csim_arc *arc)
{
	csim_pool_free(&arc->pool);
}

static struct csim_list *list_of(struct csim_arc *arc, int id)
{
	switch (id) {
	case ARC_T1:
		return &arc->t1;
	case ARC_T2:
		return &arc->t2;
	case ARC_B1:
		return &arc->b1;
	default:
		return &arc->b2;
	}
}

int csim_arc_lookup(struct csim_arc *arc, uint64_t key, uint32_t *n)
{
	*n = csim_pool_find(&arc->pool, key);
	return *n == CSIM_NONE ? 0 : csim_at(&arc->pool, *n)->list;
}

void csim_arc_hit(struct csim_arc *arc, uint32_t n)
{
	csim_list_move_head(&arc->pool, list_of(arc, csim_at(&arc->pool, n)->list),
			    &arc->t2, n, ARC_T2);
}

struct csim_list *csim_arc_replace_list(struct csim_arc *arc, bool in_b2, uint8_t *id)
{
	double t1 = (double)arc->t1.count;

	if ((arc->t1.count > 0 && (t1 > arc->p || (t1 == arc->p && in_b2))) ||
	    arc->t2.count == 0) {
		*id = ARC_T1;
		return &arc->t1;
	}
	*id = ARC_T2;
	return &arc->t2;
}

void csim_arc_replace(struct csim_arc *arc, bool in_b2)
{
	uint8_t id;
	struct csim_list *l = csim_arc_replace_list(arc, in_b2, &id);
	uint32_t n = arc->user.pick(arc, l, id);

	if (n == CSIM_NONE) {
		/* Nothing but a pinned entry there: the other list. */
		id = id == ARC_T1 ? ARC_T2 : ARC_T1;
		l = id == ARC_T1 ? &arc->t1 : &arc->t2;
		n = arc->user.pick(arc, l, id);
	}

	/* pick may have moved nodes, never between lists */
	csim_list_unlink(&arc->pool, l, n);
	arc->user.leave(arc, n);
	if (id == ARC_T1)
		csim_list_push_head(&arc->pool, &arc->b1, n, ARC_B1);
	else
		csim_list_push_head(&arc->pool, &arc->b2, n, ARC_B2);
	arc->evictions++;
}

static void drop_ghost_tail(struct csim_arc *arc, struct csim_list *l)
{
	uint32_t n = l->tail;

	csim_list_unlink(&arc->pool, l, n);
	csim_pool_del(&arc->pool, n);
}

uint32_t csim_arc_miss(struct csim_arc *arc, uint64_t key, int where, uint32_t n)
{
	if (where == ARC_B1 || where == ARC_B2) {
		double b1 = (double)arc->b1.count, b2 = (double)arc->b2.count;

		if (where == ARC_B1) {
			double delta = b2 / b1 > 1 ? b2 / b1 : 1;

			arc->p = arc->p + delta < (double)arc->c ? arc->p + delta : (double)arc->c;
		} else {
			double delta = b1 / b2 > 1 ? b1 / b2 : 1;

			arc->p = arc->p - delta > 0 ? arc->p - delta : 0;
		}
		csim_list_unlink(&arc->pool, list_of(arc, where), n);
		if (csim_arc_full(arc))
			csim_arc_replace(arc, where == ARC_B2);
		csim_list_push_head(&arc->pool, &arc->t2, n, ARC_T2);
		return n;
	}
	if (csim_arc_full(arc)) {
		if (arc->t1.count + arc->b1.count + 1 > arc->c) {
			if (arc->b1.count) {
				drop_ghost_tail(arc, &arc->b1);
				csim_arc_replace(arc, false);
			} else {
				uint32_t victim = arc->user.pick(arc, &arc->t1, ARC_T1);

				if (victim == CSIM_NONE)
					victim = arc->t1.tail;

				csim_list_unlink(&arc->pool, &arc->t1, victim);
				arc->user.leave(arc, victim);
				csim_pool_del(&arc->pool, victim);
				arc->evictions++;
			}
		} else {
			if (arc->t1.count + arc->b1.count + arc->t2.count + arc->b2.count >=
			    2 * arc->c && arc->b2.count)
				drop_ghost_tail(arc, &arc->b2);
			csim_arc_replace(arc, false);
		}
	}
	n = csim_pool_add(&arc->pool, key);
	csim_list_push_head(&arc->pool, &arc->t1, n, ARC_T1);
	return n;
}

void csim_arc_remove(struct csim_arc *arc, uint32_t n)
{
	csim_list_unlink(&arc->pool, list_of(arc, csim_at(&arc->pool, n)->list), n);
	arc->user.leave(arc, n);
	csim_pool_del(&arc->pool, n);
}

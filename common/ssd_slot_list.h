/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_slot_list.h - a doubly linked list of slots threaded through two
 * arrays of slot numbers, prev[] and next[], with its ends in head and
 * tail (SSD_SLOT_NONE: none): the order of a cache set's keys
 * (cachealg/cache_set.c) and DFTL's LRU of cached map entries
 * (ftl/ftl_dftl.c).  Its owner keeps the arrays and the ends; a struct
 * ssd_slot_list names them for a call.  No allocation, no checks: the
 * owner's consistency check walks the list.
 */
#ifndef SSD_SLOT_LIST_H
#define SSD_SLOT_LIST_H

#include "platform/ssd_platform.h"

#define SSD_SLOT_NONE	U32_MAX

struct ssd_slot_list {
	u32 *prev, *next;	/* [slots]: the neighbours toward the head, the tail */
	u32 *head, *tail;
};

/* Make @prev and @next neighbours in @l; a none is the head's or the tail's side. */
static inline void ssd_slot_list_join(struct ssd_slot_list l, u32 prev, u32 next)
{
	if (prev != SSD_SLOT_NONE)
		l.next[prev] = next;
	else
		*l.head = next;
	if (next != SSD_SLOT_NONE)
		l.prev[next] = prev;
	else
		*l.tail = prev;
}

/* Take @slot out of @l (its own prev and next are left as they were). */
static inline void ssd_slot_list_unlink(struct ssd_slot_list l, u32 slot)
{
	ssd_slot_list_join(l, l.prev[slot], l.next[slot]);
}

/* Put @slot, not in @l, just behind @pos (toward the tail); at the head if @pos is none. */
static inline void ssd_slot_list_add_after(struct ssd_slot_list l, u32 slot, u32 pos)
{
	u32 next = pos != SSD_SLOT_NONE ? l.next[pos] : *l.head;

	ssd_slot_list_join(l, pos, slot);
	ssd_slot_list_join(l, slot, next);
}

static inline void ssd_slot_list_add_head(struct ssd_slot_list l, u32 slot)
{
	ssd_slot_list_add_after(l, slot, SSD_SLOT_NONE);
}

static inline void ssd_slot_list_add_tail(struct ssd_slot_list l, u32 slot)
{
	ssd_slot_list_add_after(l, slot, *l.tail);
}

#endif /* SSD_SLOT_LIST_H */

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

/* Take @slot out of @l (its prev and next are left as they were). */
static inline void ssd_slot_list_unlink(struct ssd_slot_list l, u32 slot)
{
	u32 prev = l.prev[slot], next = l.next[slot];

	if (prev != SSD_SLOT_NONE)
		l.next[prev] = next;
	else
		*l.head = next;
	if (next != SSD_SLOT_NONE)
		l.prev[next] = prev;
	else
		*l.tail = prev;
}

/* Put @slot, not in @l, just behind @pos (toward the tail), or at the head if @pos is none. */
static inline void ssd_slot_list_add_after(struct ssd_slot_list l, u32 slot, u32 pos)
{
	u32 next = pos != SSD_SLOT_NONE ? l.next[pos] : *l.head;

	l.prev[slot] = pos;
	l.next[slot] = next;
	if (pos != SSD_SLOT_NONE)
		l.next[pos] = slot;
	else
		*l.head = slot;
	if (next != SSD_SLOT_NONE)
		l.prev[next] = slot;
	else
		*l.tail = slot;
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

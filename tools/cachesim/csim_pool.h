/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_pool.h - the nodes every policy of the host cache simulator keeps
 * (a cached address, block, unit or ghost), in one growable array with a
 * free list and a key index (csim_map), and doubly linked lists of them
 * by index (the head is the most recent end).  A node is in at most one
 * list at a time; which one is its @list.
 */
#ifndef CSIM_POOL_H
#define CSIM_POOL_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/cachesim/csim_map.h"

struct csim_node {
	uint64_t key;		/* address, fingerprint or unit */
	uint64_t fp;		/* an address's content (dedup policies) */
	uint64_t stamp;		/* the access that last touched it */
	uint32_t prev, next;	/* list links (CSIM_NONE at the ends) */
	uint32_t count;		/* policy's counter: refs, frequency, RCE snapshot */
	uint32_t bits;		/* BHI: the 4 KiB parts touched */
	uint8_t list;		/* which list the node is in (policy's numbering) */
	uint8_t flags;
};

struct csim_list {
	uint32_t head, tail;	/* head: most recent */
	uint64_t count;
};

struct csim_pool {
	struct csim_node *nodes;
	uint32_t room, used, free_head;
	struct csim_map index;	/* key -> node */
	uint64_t live, peak;	/* nodes in use, and the most ever */
};

int csim_pool_init(struct csim_pool *p, uint64_t expected);
void csim_pool_free(struct csim_pool *p);
/* The node of @key, or CSIM_NONE. */
static inline uint32_t csim_pool_find(const struct csim_pool *p, uint64_t key)
{
	return csim_map_get(&p->index, key);
}

/* A new node for @key (zeroed, in no list); exits if out of memory. */
uint32_t csim_pool_add(struct csim_pool *p, uint64_t key);
/* Forget node @n (it must be in no list). */
void csim_pool_del(struct csim_pool *p, uint32_t n);

static inline struct csim_node *csim_at(const struct csim_pool *p, uint32_t n)
{
	return &p->nodes[n];
}

static inline void csim_list_init(struct csim_list *l)
{
	l->head = l->tail = CSIM_NONE;
	l->count = 0;
}

void csim_list_push_head(struct csim_pool *p, struct csim_list *l, uint32_t n, uint8_t id);
void csim_list_push_tail(struct csim_pool *p, struct csim_list *l, uint32_t n, uint8_t id);
void csim_list_unlink(struct csim_pool *p, struct csim_list *l, uint32_t n);

/* Move @n (in @l) to the head of @to, which may be @l. */
static inline void csim_list_move_head(struct csim_pool *p, struct csim_list *l,
				       struct csim_list *to, uint32_t n, uint8_t id)
{
	csim_list_unlink(p, l, n);
	csim_list_push_head(p, to, n, id);
}

#endif /* CSIM_POOL_H */

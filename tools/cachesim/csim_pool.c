// SPDX-License-Identifier: GPL-2.0
/*
 * csim_pool.c - the node pool and index lists of csim_pool.h.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_pool.h"

int csim_pool_init(struct csim_pool *p, uint64_t expected)
{
	memset(p, 0, sizeof(*p));
	p->free_head = CSIM_NONE;
	return csim_map_init(&p->index, expected);
}

void csim_pool_free(struct csim_pool *p)
{
	free(p->nodes);
	csim_map_free(&p->index);
	memset(p, 0, sizeof(*p));
}

uint32_t csim_pool_add(struct csim_pool *p, uint64_t key)
{
	uint32_t n = p->free_head;

	if (n != CSIM_NONE) {
		p->free_head = p->nodes[n].next;
	} else {
		if (p->used == p->room) {
			uint32_t room = p->room ? 2 * p->room : 1024;
			struct csim_node *grown;

			if (p->room >= CSIM_NONE / 2)
				csim_oom();
			grown = realloc(p->nodes, room * sizeof(*grown));
			if (!grown)
				csim_oom();
			p->nodes = grown;
			p->room = room;
		}
		n = p->used++;
	}
	if (csim_map_put(&p->index, key, n))
		csim_oom();
	memset(&p->nodes[n], 0, sizeof(p->nodes[n]));
	p->nodes[n].key = key;
	p->nodes[n].prev = p->nodes[n].next = CSIM_NONE;
	p->nodes[n].list = 0;
	if (++p->live > p->peak)
		p->peak = p->live;
	return n;
}

void csim_pool_del(struct csim_pool *p, uint32_t n)
{
	csim_map_del(&p->index, p->nodes[n].key);
	p->nodes[n].next = p->free_head;
	p->free_head = n;
	p->live--;
}

void csim_list_push_head(struct csim_pool *p, struct csim_list *l, uint32_t n, uint8_t id)
{
	struct csim_node *e = &p->nodes[n];

	e->prev = CSIM_NONE;
	e->next = l->head;
	if (l->head != CSIM_NONE)
		p->nodes[l->head].prev = n;
	else
		l->tail = n;
	l->head = n;
	e->list = id;
	l->count++;
}

void csim_list_push_tail(struct csim_pool *p, struct csim_list *l, uint32_t n, uint8_t id)
{
	struct csim_node *e = &p->nodes[n];

	e->next = CSIM_NONE;
	e->prev = l->tail;
	if (l->tail != CSIM_NONE)
		p->nodes[l->tail].next = n;
	else
		l->head = n;
	l->tail = n;
	e->list = id;
	l->count++;
}

void csim_list_unlink(struct csim_pool *p, struct csim_list *l, uint32_t n)
{
	struct csim_node *e = &p->nodes[n];

	if (e->prev != CSIM_NONE)
		p->nodes[e->prev].next = e->next;
	else
		l->head = e->next;
	if (e->next != CSIM_NONE)
		p->nodes[e->next].prev = e->prev;
	else
		l->tail = e->prev;
	e->prev = e->next = CSIM_NONE;
	e->list = 0;
	l->count--;
}

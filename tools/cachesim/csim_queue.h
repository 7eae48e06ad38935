/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_queue.h - the plain queue cache LRU and FIFO share (csim_queue.c):
 * the policy ops of both, a hit moving the entry to the head or not.
 */
#ifndef CSIM_QUEUE_H
#define CSIM_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/cachesim/csim.h"

int csim_queue_create(struct csim_cache *c);
void csim_queue_destroy(struct csim_cache *c);
bool csim_queue_access(struct csim_cache *c, const struct csim_access *a, bool move_on_hit);
void csim_queue_invalidate(struct csim_cache *c, uint64_t key);
void csim_queue_memory(const struct csim_cache *c, struct csim_memory *m);

#endif /* CSIM_QUEUE_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * belady.h - the off-line bound of a write cache (the ProCache paper's
 * off-line algorithm): Belady's MIN with bypass over a trace's sequence
 * of page writes, with warm-up passes.
 */
#ifndef SSD_BELADY_H
#define SSD_BELADY_H

#include <stddef.h>
#include <stdint.h>

/* The page writes of one pass of a trace, in order. */
struct belady_seq {
	uint64_t *lpn;
	size_t count;
	size_t room;
};

/* Append @pages page writes from @lpn on; -1 if out of memory. */
int belady_seq_add(struct belady_seq *s, uint64_t lpn, uint64_t pages);
void belady_seq_free(struct belady_seq *s);

/*
 * Replay @s (warmup + 1) times through a cache of @capacity pages run by
 * Belady with bypass: each write is labelled with its next use; a hit
 * stays; on a miss with room the page enters; when full, the page
 * bypasses if its next use is no sooner than every cached page's, else
 * the cached page used furthest in the future is evicted for it.  *@hits
 * is the write hits of the last pass (of s->count writes).  -1 if out of
 * memory.
 */
int belady_write_hits(const struct belady_seq *s, uint64_t capacity, unsigned int warmup,
		      uint64_t *hits);

#endif /* SSD_BELADY_H */

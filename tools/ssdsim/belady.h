/* SPDX-License-Identifier: GPL-2.0 */
/*
 * belady.h - the off-line bound of a write cache (the ProCache paper's
 * off-line algorithm): Belady's MIN with bypass over a trace's sequence
 * of page accesses, with warm-up passes.  The paper's next use is the next
 * access of either kind (procache-plos-one-2017.txt:207-213, Table 1): a
 * read hit relabels its page, a read miss leaves the cache as it is.
 * BELADY_NEXT_WRITE, the rule before issue 32, leaves the reads out.
 */
#ifndef SSD_BELADY_H
#define SSD_BELADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a page's next use is (ssdsim --belady-next-use). */
enum belady_next_use {
	BELADY_NEXT_ANY,	/* its next read or write: the paper's (default) */
	BELADY_NEXT_WRITE,	/* its next write: reads are not in the sequence */
};

/* The page accesses of one pass of a trace, in order. */
struct belady_seq {
	uint64_t *lpn;
	unsigned char *write;	/* [count]: 1 a page write, 0 a page read */
	size_t count;
	size_t writes;		/* of count */
	size_t room;
};

/* Append @pages page accesses from @lpn on (@write or reads); -1 if out of memory. */
int belady_seq_add(struct belady_seq *s, uint64_t lpn, uint64_t pages, bool write);
void belady_seq_free(struct belady_seq *s);

/*
 * Replay @s (warmup + 1) times through a cache of @capacity pages run by
 * Belady with bypass: each access is labelled with its page's next access
 * in @s; a hit (read or write) stays and takes the new label; a read miss
 * changes nothing; on a write miss with room the page enters; when full,
 * the page bypasses if its next use is no sooner than every cached page's,
 * else the cached page used furthest in the future is evicted for it.
 * *@hits is the write hits of the last pass (of s->writes writes).  -1 if
 * out of memory.
 */
int belady_write_hits(const struct belady_seq *s, uint64_t capacity, unsigned int warmup,
		      uint64_t *hits);

#endif /* SSD_BELADY_H */

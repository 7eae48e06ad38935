// SPDX-License-Identifier: GPL-2.0
/*
 * belady.c - Belady's MIN with bypass, the off-line bound ssdsim reports
 * beside the online write cache policies (belady.h).  Pages are renumbered
 * densely, next uses (reads and writes alike) are found by one backward
 * scan, and the cached page
 * used furthest in the future comes from a max-heap with lazy deletion
 * (an entry is live while its page is cached with that next use).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/belady.h"

#define NEVER	UINT64_MAX

int belady_seq_add(struct belady_seq *s, uint64_t lpn, uint64_t pages, bool write)
{
	uint64_t i;

	for (i = 0; i < pages; i++) {
		if (s->count == s->room) {
			size_t room = s->room ? 2 * s->room : 4096;
			uint64_t *grown = realloc(s->lpn, room * sizeof(*grown));
			unsigned char *ops;

			if (!grown)
				return -1;
			s->lpn = grown;
			ops = realloc(s->write, room);
			if (!ops)
				return -1;
			s->write = ops;
			s->room = room;
		}
		s->write[s->count] = write;
		s->lpn[s->count++] = lpn + i;
		s->writes += write;
	}
	return 0;
}

void belady_seq_free(struct belady_seq *s)
{
	free(s->lpn);
	free(s->write);
	memset(s, 0, sizeof(*s));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

struct heap_entry {
	uint64_t next_use;
	uint32_t id;
};

struct heap {
	struct heap_entry *e;
	size_t count;
};

static void heap_push(struct heap *h, uint64_t next_use, uint32_t id)
{
	size_t i = h->count++;

	while (i && h->e[(i - 1) / 2].next_use < next_use) {
		h->e[i] = h->e[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->e[i].next_use = next_use;
	h->e[i].id = id;
}

static void heap_pop(struct heap *h)
{
	struct heap_entry last = h->e[--h->count];
	size_t i = 0;

	for (;;) {
		size_t child = 2 * i + 1;

		if (child >= h->count)
			break;
		if (child + 1 < h->count && h->e[child + 1].next_use > h->e[child].next_use)
			child++;
		if (h->e[child].next_use <= last.next_use)
			break;
		h->e[i] = h->e[child];
		i = child;
	}
	if (h->count)
		h->e[i] = last;
}

int belady_write_hits(const struct belady_seq *s, uint64_t capacity, unsigned int warmup,
		      uint64_t *hits)
{
	size_t n = s->count, total = n * (warmup + 1), distinct = 0, i;
	uint64_t *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	uint32_t *id = malloc((n ? n : 1) * sizeof(*id));
	uint64_t *next = malloc((total ? total : 1) * sizeof(*next));
	uint64_t *last = NULL, *cur_next = NULL, cached = 0;
	struct heap heap = { malloc((total ? total : 1) * sizeof(*heap.e)), 0 };
	unsigned char *in_cache = NULL;
	int ret = -1;

	*hits = 0;
	if (!sorted || !id || !next || !heap.e)
		goto out;
	memcpy(sorted, s->lpn, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_u64);
	for (i = 0; i < n; i++)
		if (!distinct || sorted[distinct - 1] != sorted[i])
			sorted[distinct++] = sorted[i];
	for (i = 0; i < n; i++) {
		uint64_t *at = bsearch(&s->lpn[i], sorted, distinct, sizeof(*sorted), cmp_u64);

		id[i] = (uint32_t)(at - sorted);
	}
	last = malloc((distinct ? distinct : 1) * sizeof(*last));
	cur_next = malloc((distinct ? distinct : 1) * sizeof(*cur_next));
	in_cache = calloc(distinct ? distinct : 1, 1);
	if (!last || !cur_next || !in_cache)
		goto out;
	for (i = 0; i < distinct; i++)
		last[i] = NEVER;
	for (i = total; i-- > 0;) {
		next[i] = last[id[i % n]];
		last[id[i % n]] = i;
	}
	for (i = 0; i < total; i++) {
		uint32_t page = id[i % n];
		bool write = s->write[i % n];

		if (in_cache[page]) {
			*hits += write && i >= total - n;
		} else if (!write) {
			continue;	/* a read miss: the cache is not updated */
		} else if (cached < capacity) {
			in_cache[page] = 1;
			cached++;
		} else {
			/* Drop entries of pages gone or relabelled since. */
			while (heap.count && (!in_cache[heap.e[0].id] ||
					      cur_next[heap.e[0].id] != heap.e[0].next_use))
				heap_pop(&heap);
			if (!heap.count || next[i] >= heap.e[0].next_use)
				continue;	/* bypass */
			in_cache[heap.e[0].id] = 0;
			heap_pop(&heap);
			in_cache[page] = 1;
		}
		cur_next[page] = next[i];
		heap_push(&heap, next[i], page);
	}
	ret = 0;
out:
	free(sorted);
	free(id);
	free(next);
	free(last);
	free(cur_next);
	free(in_cache);
	free(heap.e);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_pagepool.c - page buffers and their spare list (see ssd_pagepool.h).
 */
#include "common/ssd_pagepool.h"

void ssd_pagepool_init(struct ssd_pagepool *pool, u32 page_bytes)
{
	memset(pool, 0, sizeof(*pool));
	pool->page_bytes = page_bytes;
	pool->max_buffers = U64_MAX;
}

/* Every page buffer comes from here and goes back through buffer_free(). */
static void *buffer_alloc(struct ssd_pagepool *pool)
{
	void *buf;

	if (pool->nr_buffers >= pool->max_buffers)
		return NULL;
	buf = ssd_page_alloc(pool->page_bytes);
	if (buf)
		pool->nr_buffers++;
	return buf;
}

static void buffer_free(struct ssd_pagepool *pool, void *buf)
{
	ssd_page_free(buf, pool->page_bytes);
	pool->nr_buffers--;
}

void ssd_pagepool_exit(struct ssd_pagepool *pool)
{
	while (pool->nr_spare)
		buffer_free(pool, pool->spare[--pool->nr_spare]);
}

void ssd_pagepool_set_limit(struct ssd_pagepool *pool, u64 max_buffers)
{
	pool->max_buffers = max_buffers;
}

int ssd_pagepool_reserve(struct ssd_pagepool *pool, u32 count)
{
	count = min_t(u32, count, SSD_PAGEPOOL_SPARE);
	while (pool->nr_spare < count) {
		void *buf = buffer_alloc(pool);

		if (!buf)
			return -ENOMEM;
		pool->spare[pool->nr_spare++] = buf;
	}
	return 0;
}

void *ssd_pagepool_get(struct ssd_pagepool *pool)
{
	if (pool->nr_spare)
		return pool->spare[--pool->nr_spare];
	return buffer_alloc(pool);
}

void ssd_pagepool_put(struct ssd_pagepool *pool, void *buf)
{
	if (pool->nr_spare < SSD_PAGEPOOL_SPARE)
		pool->spare[pool->nr_spare++] = buf;
	else
		buffer_free(pool, buf);
}

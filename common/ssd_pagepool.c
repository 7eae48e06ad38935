// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_pagepool.c - page buffers and their spare list (see ssd_pagepool.h).
 */
#include "common/ssd_pagepool.h"

void ssd_pagepool_init(struct ssd_pagepool *pool, u32 page_bytes, enum ssd_data_store store)
{
	memset(pool, 0, sizeof(*pool));
	pool->page_bytes = store == SSD_DATA_NONE ? 0 : page_bytes;
	pool->store = store;
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
	if (pool->store == SSD_DATA_NONE)
		return 0;
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
	if (pool->store == SSD_DATA_NONE)
		return &pool->token;
	if (pool->nr_spare)
		return pool->spare[--pool->nr_spare];
	return buffer_alloc(pool);
}

void ssd_pagepool_put(struct ssd_pagepool *pool, void *buf)
{
	if (pool->store == SSD_DATA_NONE)
		return;
	if (pool->nr_spare < SSD_PAGEPOOL_SPARE)
		pool->spare[pool->nr_spare++] = buf;
	else
		buffer_free(pool, buf);
}

void ssd_pagepool_expand_plain(void *ctx, const void *digest, u32 off, u32 len, u8 *out)
{
	const u8 *ids = digest;
	u32 i;

	for (i = 0; i < len; i++) {
		u32 q = off + i;

		out[i] = ids[q / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES + q % SSD_DIGEST_ID_BYTES];
	}
}

void ssd_pagepool_bytes(const struct ssd_pagepool *pool, const void *buf, u32 off, u32 len,
			u8 *out)
{
	if (!buf || pool->store == SSD_DATA_NONE) {
		memset(out, 0, len);
		return;
	}
	if (pool->store == SSD_DATA_BYTES) {
		memcpy(out, (const u8 *)buf + off, len);
		return;
	}
	if (pool->expand)
		pool->expand(pool->expand_ctx, buf, off, len, out);
	else
		ssd_pagepool_expand_plain(NULL, buf, off, len, out);
}

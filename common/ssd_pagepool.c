// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_pagepool.c - page buffers and their spare list (see ssd_pagepool.h).
 */
#include "common/ssd_pagepool.h"
#include "common/ssd_rand.h"

void ssd_pagepool_init(struct ssd_pagepool *pool, u32 page_bytes, enum ssd_data_store store)
{
	memset(pool, 0, sizeof(*pool));
	pool->page_bytes = store == SSD_DATA_NONE ? 0 : page_bytes;
	/* auto is ssdsim's to choose: anywhere else it keeps bytes. */
	pool->store = store == SSD_DATA_AUTO ? SSD_DATA_BYTES : store;
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

u8 ssd_digest_pattern_byte(u64 q)
{
	struct ssd_rand rand = { .state = q / 8 };

	return (u8)(ssd_rand_next(&rand) >> (8 * (q % 8)));
}

void ssd_digest_expand(const void *digest, u32 off, u32 len, u8 *out)
{
	static const u8 zero[SSD_DIGEST_ID_BYTES];
	const u8 *ids = digest;
	u32 i;

	for (i = 0; i < len; i++) {
		u32 q = off + i;
		const u8 *id = ids + q / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES;
		u64 state, tag;

		memcpy(&state, id, sizeof(state));
		memcpy(&tag, id + 8, sizeof(tag));
		if (!memcmp(id, zero, sizeof(zero))) {
			out[i] = 0;
		} else if (tag == SSD_DIGEST_SEED_TAG) {
			struct ssd_rand rand = {
				.state = state + (q % SSD_SECTOR_BYTES) / 8 * 0x9e3779b97f4a7c15ULL,
			};

			out[i] = (u8)(ssd_rand_next(&rand) >> (8 * (q % 8)));
		} else {
			out[i] = id[q % 16] ^ ssd_digest_pattern_byte(q);
		}
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
	ssd_digest_expand(buf, off, len, out);
}

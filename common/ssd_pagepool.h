/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_pagepool.h - the page buffers that carry page data down the request
 * path: the front end takes one for each page a request writes, hands it
 * to the top layer, and whichever layer keeps the data (the flash once the
 * page is programmed, the dedup write buffer while a write waits) owns it;
 * a layer that drops data gives the buffer back here.  The layers receive
 * the pool in their environment (struct ssd_layer_env); none of them needs
 * the flash for it.
 *
 * Freed buffers, up to SSD_PAGEPOOL_SPARE of them, are kept for the next
 * writes instead of going back to the allocator.  The pool holds at most
 * max_buffers buffers at once (ssd_pagepool_set_limit(), from the device's
 * memory plan: the data cap plus the spares), whatever the layers do.
 * What a buffer holds follows the device's data_store (common/ssd_config.h):
 * a page's bytes, or its digest (an id per 512-byte sector, the page's
 * bytes rebuilt on demand by ssd_pagepool_bytes()), or nothing: then
 * every buffer is one shared token of no bytes, never allocated, that
 * only says "this page holds data".  page_bytes is a buffer's size in
 * every mode (0 for none), so a layer copying a page copies page_bytes.
 * Not locked: the device lock covers it.  Portable.
 */
#ifndef SSD_PAGEPOOL_H
#define SSD_PAGEPOOL_H

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"

/* Freed page buffers kept for reuse: overwrites then allocate nothing. */
#define SSD_PAGEPOOL_SPARE	256

/*
 * Bytes [@off, @off + @len) of a page whose digest is @digest, into @out;
 * all-zero ids are zero bytes.  Set by the simulator that made the data.
 */
typedef void (*ssd_expand_fn)(void *ctx, const void *digest, u32 off, u32 len, u8 *out);

struct ssd_pagepool {
	u32 page_bytes;			/* of a buffer: see above */
	enum ssd_data_store store;
	ssd_expand_fn expand;		/* digest: NULL = ssd_pagepool_expand_plain() */
	void *expand_ctx;
	u64 token;			/* none: every buffer is &token */
	u64 nr_buffers;			/* allocated: data, spare, in use */
	u64 max_buffers;		/* the cap of nr_buffers */
	u32 nr_spare;
	void *spare[SSD_PAGEPOOL_SPARE];
};

/* A pool of buffers of @page_bytes each for @store (none: no bytes). */
void ssd_pagepool_init(struct ssd_pagepool *pool, u32 page_bytes, enum ssd_data_store store);
/* Frees the spare buffers; every other buffer must be back already. */
void ssd_pagepool_exit(struct ssd_pagepool *pool);

/* Allocate no more than @max_buffers buffers at once (init: no cap). */
void ssd_pagepool_set_limit(struct ssd_pagepool *pool, u64 max_buffers);

/*
 * Make sure min(@count, SSD_PAGEPOOL_SPARE) spare buffers are ready, so a
 * request of @count page writes cannot fail half way; -ENOMEM otherwise.
 * (Only userspace sends requests larger than the pool; its extra buffers
 * are allocated as it goes.)
 */
int ssd_pagepool_reserve(struct ssd_pagepool *pool, u32 count);

/* A buffer (a spare one if any); NULL if out of memory or at the cap. */
void *ssd_pagepool_get(struct ssd_pagepool *pool);

/* Give back a buffer ssd_pagepool_get() returned. */
void ssd_pagepool_put(struct ssd_pagepool *pool, void *buf);

/*
 * Bytes [@off, @off + @len) of the page held in @buf (a buffer of this
 * pool; NULL: a page without data, zeros): copied in bytes mode, rebuilt
 * from the digest in digest mode, zeros in none mode.
 */
void ssd_pagepool_bytes(const struct ssd_pagepool *pool, const void *buf, u32 off, u32 len,
			u8 *out);

/*
 * The expansion of a digest without a simulator's own: byte q of a page is
 * byte q % 16 of its sector's id (zero ids: zeros).  Equal digests give
 * equal bytes.
 */
void ssd_pagepool_expand_plain(void *ctx, const void *digest, u32 off, u32 len, u8 *out);

/* Bytes of RAM held by spare buffers. */
static inline u64 ssd_pagepool_spare_bytes(const struct ssd_pagepool *pool)
{
	return (u64)pool->nr_spare * pool->page_bytes;
}

#endif /* SSD_PAGEPOOL_H */

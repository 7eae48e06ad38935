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
 * bytes rebuilt on demand by ssd_pagepool_bytes(), see ssd_digest_expand()),
 * or nothing: then
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

struct ssd_pagepool {
	u32 page_bytes;			/* of a buffer: see above */
	enum ssd_data_store store;	/* never SSD_DATA_AUTO: bytes */
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
 * The bytes a digest stands for: bytes [@off, @off + @len) of a page whose
 * sector ids are @digest, into @out.  Byte q of a page, of its sector's
 * 16-byte id:
 *  - an all-zero id: 0;
 *  - an id ending in SSD_DIGEST_SEED_TAG (8 bytes, host order) after a
 *    64-bit state x: byte q % 8 (little end first) of word
 *    (q % 512) / 8 of a splitmix64 stream from x, i.e. of
 *    mix(x + ((q % 512) / 8 + 1) * gamma);
 *  - any other id (an MD5): id[q % 16] ^ ssd_digest_pattern_byte(q).
 * Equal ids give equal bytes, and different ids (but for 2^-64 chances)
 * different ones.  ssdsim makes its data (bytes mode) by the same rule
 * (tools/ssdsim/sim_data.h), so counters are the same in both modes.
 */
#define SSD_DIGEST_SEED_TAG	0x5eed5eed5eed5eedULL
void ssd_digest_expand(const void *digest, u32 off, u32 len, u8 *out);
/* Byte @q of the pattern MD5 ids are masked with. */
u8 ssd_digest_pattern_byte(u64 q);

/* Bytes of RAM held by spare buffers. */
static inline u64 ssd_pagepool_spare_bytes(const struct ssd_pagepool *pool)
{
	return (u64)pool->nr_spare * pool->page_bytes;
}

#endif /* SSD_PAGEPOOL_H */

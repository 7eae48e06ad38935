// SPDX-License-Identifier: GPL-2.0
/*
 * flat_iter.c - the flat-buffer data iterator of flat_iter.h.
 */
#include "user/flat_iter.h"

static void flat_copy_in(struct ssd_data_iter *it, void *dst, u32 len)
{
	struct flat_iter *fi = (struct flat_iter *)it;

	memcpy(dst, fi->pos, len);
	fi->pos += len;
}

static void flat_copy_out(struct ssd_data_iter *it, const void *src, u32 len)
{
	struct flat_iter *fi = (struct flat_iter *)it;

	if (src)
		memcpy(fi->pos, src, len);
	else
		memset(fi->pos, 0, len);
	fi->pos += len;
}

/* Digest mode: the buffer holds the request's sector ids, in order. */
static void flat_copy_ids(struct ssd_data_iter *it, void *dst, u32 len)
{
	struct flat_iter *fi = (struct flat_iter *)it;
	u32 bytes = len / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES;

	memcpy(dst, fi->pos, bytes);
	fi->pos += bytes;
}

void flat_iter_init(struct flat_iter *fi, void *buf)
{
	fi->it.copy_in = flat_copy_in;
	fi->it.copy_out = flat_copy_out;
	fi->it.copy_ids = flat_copy_ids;
	fi->pos = buf;
}

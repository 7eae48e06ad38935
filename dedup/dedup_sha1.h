/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup_sha1.h - SHA-1 (FIPS 180-4) of a chunk: the fingerprint of the
 * dedup layer.  The compression function is the platform's
 * (ssd_sha1_block(): the kernel's sha1_transform() in the module, the
 * same algorithm in userspace); the padding and the digest are here, so
 * both builds compute the very same fingerprints.  Private to dedup/
 * (the self-test is public: dedup.h).  Portable.
 */
#ifndef DEDUP_SHA1_H
#define DEDUP_SHA1_H

#include "platform/ssd_platform.h"

#define DEDUP_SHA1_BYTES	20

struct dedup_sha1_ctx {
	u32 state[5];
	u64 length_bytes;	/* message bytes so far */
	u8 block[64];		/* the partial block */
	u32 used;		/* bytes of block[] in use */
};

void ssd_dedup_sha1_init(struct dedup_sha1_ctx *ctx);
void ssd_dedup_sha1_update(struct dedup_sha1_ctx *ctx, const void *data, u64 len);
void ssd_dedup_sha1_final(struct dedup_sha1_ctx *ctx, u8 out[DEDUP_SHA1_BYTES]);

/* The SHA-1 of @len bytes at @data in one go. */
void ssd_dedup_sha1(const void *data, u64 len, u8 out[DEDUP_SHA1_BYTES]);

#endif /* DEDUP_SHA1_H */

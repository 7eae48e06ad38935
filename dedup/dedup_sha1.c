// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_sha1.c - SHA-1 padding and digest around the platform's
 * compression function (ssd_sha1_block()), and the FIPS 180 test vectors
 * the unit tests and the module's load-time self-test check.
 */
#include "dedup/dedup.h"
#include "dedup/dedup_sha1.h"

void ssd_dedup_sha1_init(struct dedup_sha1_ctx *ctx)
{
	ctx->state[0] = 0x67452301;
	ctx->state[1] = 0xefcdab89;
	ctx->state[2] = 0x98badcfe;
	ctx->state[3] = 0x10325476;
	ctx->state[4] = 0xc3d2e1f0;
	ctx->length_bytes = 0;
	ctx->used = 0;
}

void ssd_dedup_sha1_update(struct dedup_sha1_ctx *ctx, const void *data, u64 len)
{
	const u8 *p = data;

	ctx->length_bytes += len;
	if (ctx->used) {
		u32 take = min_t(u64, 64 - ctx->used, len);

		memcpy(ctx->block + ctx->used, p, take);
		ctx->used += take;
		p += take;
		len -= take;
		if (ctx->used < 64)
			return;
		ssd_sha1_block(ctx->state, ctx->block);
		ctx->used = 0;
	}
	while (len >= 64) {
		ssd_sha1_block(ctx->state, p);
		p += 64;
		len -= 64;
	}
	memcpy(ctx->block, p, len);
	ctx->used = len;
}

void ssd_dedup_sha1_final(struct dedup_sha1_ctx *ctx, u8 out[DEDUP_SHA1_BYTES])
{
	u64 bits = ctx->length_bytes * 8;
	unsigned int i;

	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > 56) {
		memset(ctx->block + ctx->used, 0, 64 - ctx->used);
		ssd_sha1_block(ctx->state, ctx->block);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0, 56 - ctx->used);
	for (i = 0; i < 8; i++)
		ctx->block[56 + i] = (u8)(bits >> (56 - 8 * i));
	ssd_sha1_block(ctx->state, ctx->block);
	for (i = 0; i < DEDUP_SHA1_BYTES; i++)
		out[i] = (u8)(ctx->state[i / 4] >> (24 - 8 * (i % 4)));
}

void ssd_dedup_sha1(const void *data, u64 len, u8 out[DEDUP_SHA1_BYTES])
{
	struct dedup_sha1_ctx ctx;

	ssd_dedup_sha1_init(&ctx);
	ssd_dedup_sha1_update(&ctx, data, len);
	ssd_dedup_sha1_final(&ctx, out);
}

/* FIPS 180-2 appendix A and the NIST example values. */
static const struct {
	const char *name;
	const char *message;	/* NULL: a million 'a' */
	u8 digest[DEDUP_SHA1_BYTES];
} sha1_vectors[] = {
	{ "abc", "abc",
	  { 0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
	    0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d } },
	{ "empty", "",
	  { 0xda, 0x39, 0xa3, 0xee, 0x5e, 0x6b, 0x4b, 0x0d, 0x32, 0x55,
	    0xbf, 0xef, 0x95, 0x60, 0x18, 0x90, 0xaf, 0xd8, 0x07, 0x09 } },
	{ "448-bit", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	  { 0x84, 0x98, 0x3e, 0x44, 0x1c, 0x3b, 0xd2, 0x6e, 0xba, 0xae,
	    0x4a, 0xa1, 0xf9, 0x51, 0x29, 0xe5, 0xe5, 0x46, 0x70, 0xf1 } },
	{ "million-a", NULL,
	  { 0x34, 0xaa, 0x97, 0x3c, 0xd4, 0xc4, 0xda, 0xa4, 0xf6, 0x1e,
	    0xeb, 0x2b, 0xdb, 0xad, 0x27, 0x31, 0x65, 0x34, 0x01, 0x6f } },
};

int ssd_dedup_sha1_self_test(void)
{
	u8 chunk[125], digest[DEDUP_SHA1_BYTES];
	struct dedup_sha1_ctx ctx;
	unsigned int i, j;

	memset(chunk, 'a', sizeof(chunk));
	for (i = 0; i < ARRAY_SIZE(sha1_vectors); i++) {
		ssd_dedup_sha1_init(&ctx);
		if (sha1_vectors[i].message) {
			ssd_dedup_sha1_update(&ctx, sha1_vectors[i].message,
					  ssd_strlen(sha1_vectors[i].message));
		} else {
			/* Uneven pieces, so the partial-block path runs too. */
			for (j = 0; j < 8000; j++)
				ssd_dedup_sha1_update(&ctx, chunk, sizeof(chunk));
		}
		ssd_dedup_sha1_final(&ctx, digest);
		if (memcmp(digest, sha1_vectors[i].digest, DEDUP_SHA1_BYTES)) {
			ssd_log_err("SHA-1 self-test failed on the FIPS 180 %s vector",
				    sha1_vectors[i].name);
			return -EINVAL;
		}
	}
	return 0;
}

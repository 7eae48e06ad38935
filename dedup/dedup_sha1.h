/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup_sha1.h - SHA-1 (FIPS 180-4) of a chunk: the fingerprint of the
 * dedup layer, computed by the platform (ssd_sha1_digest(): the kernel's
 * crypto API in the module, OpenSSL's libcrypto in userspace), so both
 * builds compute the very same fingerprints.  Private to dedup/: the
 * front end reaches the self-test through the layer type
 * (ssd_layer_type.self_test).  Portable.
 */
#ifndef DEDUP_SHA1_H
#define DEDUP_SHA1_H

#include "platform/ssd_platform.h"

#define DEDUP_SHA1_BYTES	SSD_SHA1_BYTES

/* The SHA-1 of @len bytes at @data. */
static inline void ssd_dedup_sha1(const void *data, u64 len, u8 out[DEDUP_SHA1_BYTES])
{
	ssd_sha1_digest(data, len, out);
}

/*
 * Check the FIPS 180 test vectors ("abc", the empty message, the 448-bit
 * message, a million 'a') against the SHA-1 the fingerprints use: 0, or
 * -EINVAL after logging the first one that differs.  The dedup layer
 * type's self_test: the module runs it when it loads.
 */
int ssd_dedup_sha1_self_test(void);

#endif /* DEDUP_SHA1_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup_sha1.h - SHA-1 (FIPS 180-4) of a chunk: the fingerprint of the
 * dedup layer, computed by the platform (ssd_sha1_digest(): the kernel's
 * crypto API in the module, OpenSSL's libcrypto in userspace), so both
 * builds compute the very same fingerprints.  Private to dedup/ (the
 * self-test is public: dedup.h).  Portable.
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

#endif /* DEDUP_SHA1_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_sha1_user.c - the userspace side of ssd_sha1_digest(): SHA-1 by
 * OpenSSL's libcrypto (EVP, which uses the CPU's SHA instructions where it
 * has them), the library the userspace build links with (-lcrypto).  The
 * message digest is fetched once per process; the unit tests hold it
 * against the FIPS 180 vectors (dedup/dedup_sha1.c), as the module holds
 * the kernel's crypto API when it loads.
 */
#include "platform/ssd_platform.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

static EVP_MD *sha1_md;
static pthread_once_t sha1_once = PTHREAD_ONCE_INIT;

static void sha1_fetch(void)
{
	sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL);
}

void ssd_sha1_digest(const void *data, size_t len, u8 out[SSD_SHA1_BYTES])
{
	unsigned int out_len = 0;

	pthread_once(&sha1_once, sha1_fetch);
	/* No SHA-1 from libcrypto: no fingerprint the core could trust. */
	if (!sha1_md || !EVP_Digest(data, len, out, &out_len, sha1_md, NULL) ||
	    out_len != SSD_SHA1_BYTES) {
		fprintf(stderr, "ssdemu: OpenSSL's libcrypto cannot compute SHA-1\n");
		abort();
	}
}

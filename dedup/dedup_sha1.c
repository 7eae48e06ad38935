// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_sha1.c - the FIPS 180 test vectors the unit tests and the
 * module's load-time self-test check the platform's SHA-1 against
 * (ssd_sha1_digest(): libcrypto in userspace, the kernel's crypto API in
 * the module), so a wrong or missing SHA-1 never fingerprints a page.
 */
#include "dedup/dedup_sha1.h"

#define MILLION_A_BYTES	1000000

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
	u8 digest[DEDUP_SHA1_BYTES];
	const void *message;
	unsigned int i;
	u8 *million;
	u64 len;
	int ret = 0;

	million = ssd_zalloc(MILLION_A_BYTES);
	if (!million)
		return -ENOMEM;
	memset(million, 'a', MILLION_A_BYTES);
	for (i = 0; i < ARRAY_SIZE(sha1_vectors); i++) {
		message = sha1_vectors[i].message ? sha1_vectors[i].message : (const char *)million;
		len = sha1_vectors[i].message ? ssd_strlen(sha1_vectors[i].message) :
			MILLION_A_BYTES;
		ssd_dedup_sha1(message, len, digest);
		if (memcmp(digest, sha1_vectors[i].digest, DEDUP_SHA1_BYTES)) {
			ssd_log_err("SHA-1 self-test failed on the FIPS 180 %s vector",
				    sha1_vectors[i].name);
			ret = -EINVAL;
			break;
		}
	}
	ssd_free(million);
	return ret;
}

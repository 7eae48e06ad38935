// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_sha1_kernel.c - the module's side of ssd_sha1_digest(): SHA-1
 * through the kernel's crypto API.  One "sha1" shash transform for the
 * whole module (a shash keeps no per-message state in the transform, so
 * every device and queue shares it), allocated at module load before the
 * self-test; each digest uses a descriptor on the stack.  The crypto API
 * hands out the highest-priority driver registered for "sha1": sha1-ni,
 * sha1-avx2, sha1-avx or sha1-ssse3 (sha1-ssse3.ko, which the module's
 * softdep loads first under modprobe) on a CPU that has the instructions,
 * else the built-in sha1-generic.
 */
#include "platform/ssd_platform.h"

#include <crypto/hash.h>
#include <linux/random.h>

static struct crypto_shash *ssd_sha1_tfm;

int ssd_sha1_init(void)
{
	struct crypto_shash *tfm = crypto_alloc_shash("sha1", 0, 0);

	if (IS_ERR(tfm)) {
		ssd_log_err("cannot get the kernel's SHA-1 (crypto_alloc_shash(\"sha1\"): %ld)",
			    PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	ssd_sha1_tfm = tfm;
	return 0;
}

void ssd_sha1_exit(void)
{
	crypto_free_shash(ssd_sha1_tfm);
	ssd_sha1_tfm = NULL;
}

const char *ssd_sha1_driver(void)
{
	return crypto_shash_driver_name(ssd_sha1_tfm);
}

void ssd_sha1_digest(const void *data, size_t len, u8 out[SSD_SHA1_BYTES])
{
	SHASH_DESC_ON_STACK(desc, ssd_sha1_tfm);
	int ret;

	desc->tfm = ssd_sha1_tfm;
	ret = crypto_shash_digest(desc, data, len, out);
	shash_desc_zero(desc);
	/*
	 * A synchronous "sha1" shash cannot fail on memory; should a driver
	 * ever fail, a random fingerprint matches no other page: the write
	 * is stored as unique, never mapped to another page's data.
	 */
	if (WARN_ON_ONCE(ret))
		get_random_bytes(out, SSD_SHA1_BYTES);
}

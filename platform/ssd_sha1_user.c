// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_sha1_user.c - the userspace side of ssd_sha1_block(): the SHA-1
 * compression function of FIPS 180-4 (section 6.1.2) on one 64-byte
 * block, the algorithm the kernel's sha1_transform() computes.  The
 * padding and the digest are portable (dedup/dedup_sha1.c); the unit tests
 * hold the whole against the FIPS 180 test vectors, and the module checks
 * the same vectors against the kernel's transform when it loads.
 */
#include "platform/ssd_platform.h"

static u32 rol32(u32 word, unsigned int shift)
{
	return (word << shift) | (word >> (32 - shift));
}

void ssd_sha1_block(u32 state[5], const u8 block[64])
{
	u32 w[80], a, b, c, d, e, f, k, t;
	unsigned int i;

	for (i = 0; i < 16; i++)
		w[i] = (u32)block[4 * i] << 24 | (u32)block[4 * i + 1] << 16 |
		       (u32)block[4 * i + 2] << 8 | block[4 * i + 3];
	for (i = 16; i < 80; i++)
		w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = state[0];
	b = state[1];
	c = state[2];
	d = state[3];
	e = state[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol32(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol32(b, 30);
		b = a;
		a = t;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_rand.h - the device's seeded pseudo-random source (splitmix64), for
 * decisions that are random by design (ProCache's die roll) and for hash
 * seeds.  Plain 64-bit integer arithmetic: the same seed gives the same
 * sequence in the kernel module and in ssdsim.  Portable.
 */
#ifndef SSD_RAND_H
#define SSD_RAND_H

#include "platform/ssd_platform.h"

struct ssd_rand {
	u64 state;
};

static inline void ssd_rand_seed(struct ssd_rand *r, u64 seed)
{
	r->state = seed;
}

/* The next 64 random bits (splitmix64, Steele et al. 2014). */
static inline u64 ssd_rand_next(struct ssd_rand *r)
{
	u64 z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * True with probability @ppm / 10^6: the top 32 bits scaled to [0, 10^6)
 * by a multiply and shift (no 64-bit division in the kernel).
 */
static inline bool ssd_rand_ppm(struct ssd_rand *r, u64 ppm)
{
	u64 draw = ((ssd_rand_next(r) >> 32) * 1000000ULL) >> 32;

	return draw < ppm;
}

/* A 64-bit mix of @x (splitmix64's finaliser): hashing without state. */
static inline u64 ssd_hash64(u64 x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

#endif /* SSD_RAND_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * expect.h - what every C unit test uses, of the core or of the tools:
 * failure reporting and a seeded PRNG.  Sees nothing but the platform
 * header.
 */
#ifndef SSD_TEST_EXPECT_H
#define SSD_TEST_EXPECT_H

#include <stdio.h>
#include <stdlib.h>

#include "platform/ssd_platform.h"

#define FAIL(fmt, ...)							\
	do {								\
		fprintf(stderr, "FAIL %s:%d: " fmt "\n", __FILE__, __LINE__, \
			##__VA_ARGS__);					\
		exit(1);						\
	} while (0)

#define EXPECT(cond, fmt, ...)						\
	do {								\
		if (!(cond))						\
			FAIL("%s: " fmt, #cond, ##__VA_ARGS__);		\
	} while (0)

/* splitmix64: small, seeded, the same on every machine. */
static inline u64 rng_next(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline u64 rng_below(u64 *state, u64 bound)
{
	return bound ? rng_next(state) % bound : 0;
}

#endif /* SSD_TEST_EXPECT_H */

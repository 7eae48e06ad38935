// SPDX-License-Identifier: GPL-2.0
/*
 * sim_data.c - the bytes ssdsim writes (sim_data.h).
 */
#include <string.h>

#include "common/ssd_rand.h"
#include "host-tools/hex_digit.h"
#include "host-tools/sim_data.h"

/* The pattern every page is masked with: byte @pos of it. */
static unsigned char pattern_byte(u64 pos)
{
	struct ssd_rand rand = { .state = pos / 8 };

	return (unsigned char)(ssd_rand_next(&rand) >> (8 * (pos % 8)));
}

void sim_fill_data(unsigned char *buf, u64 offset, u64 len, u32 page_bytes,
		   const char *hashes, u64 fallback_seed)
{
	size_t nr_hashes = hashes ? strlen(hashes) / 32 : 0;
	u64 chunk = nr_hashes ? len / nr_hashes : len;
	unsigned char md5[16];
	struct ssd_rand rand = { .state = fallback_seed };
	u64 pos;
	int i;

	if (!chunk)
		chunk = len;
	if (!nr_hashes) {
		for (pos = 0; pos < len; pos += 8) {
			u64 word = ssd_rand_next(&rand);

			memcpy(buf + pos, &word, len - pos < 8 ? len - pos : 8);
		}
		return;
	}
	for (pos = 0; pos < len; pos++) {
		u64 in_page = (offset + pos) % page_bytes;

		if (pos % chunk == 0 && pos / chunk < nr_hashes) {
			const char *hex = hashes + 32 * (pos / chunk);

			for (i = 0; i < 16; i++)
				md5[i] = hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]);
		}
		buf[pos] = md5[in_page % 16] ^ pattern_byte(in_page);
	}
}

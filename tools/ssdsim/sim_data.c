// SPDX-License-Identifier: GPL-2.0
/*
 * sim_data.c - the bytes ssdsim writes and their sector ids (sim_data.h).
 */
#include <string.h>

#include "common/ssd_rand.h"
#include "tools/trace/hex_digit.h"
#include "common/ssd_pagepool.h"
#include "tools/ssdsim/sim_data.h"

/* The pattern every page is masked with: byte @pos of it (the core's). */
static unsigned char pattern_byte(u64 pos)
{
	return ssd_digest_pattern_byte(pos);
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

/* The hash covering byte @pos of a write of @len bytes with @nr hashes. */
static size_t hash_index(u64 pos, u64 len, size_t nr)
{
	u64 chunk = len / nr;

	if (!chunk)
		return 0;
	return pos / chunk < nr ? pos / chunk : nr - 1;
}

int sim_fill_ids(unsigned char *ids, u64 len, const char *hashes, u64 fallback_seed)
{
	size_t nr_hashes = hashes ? strlen(hashes) / 32 : 0;
	u64 sectors = len / SSD_SECTOR_BYTES, s;
	int i, ret = 0;

	for (s = 0; s < sectors; s++) {
		unsigned char *id = ids + s * SSD_DIGEST_ID_BYTES;
		u64 pos = s * SSD_SECTOR_BYTES;
		const char *hex;
		size_t h;

		if (!nr_hashes) {
			/* The stream's state before the sector's first word. */
			u64 state = fallback_seed + pos / 8 * 0x9e3779b97f4a7c15ULL;
			u64 tag = SSD_DIGEST_SEED_TAG;

			memcpy(id, &state, 8);
			memcpy(id + 8, &tag, 8);
			continue;
		}
		h = hash_index(pos, len, nr_hashes);
		if (hash_index(pos + SSD_SECTOR_BYTES - 1, len, nr_hashes) != h)
			ret = -1;
		hex = hashes + 32 * h;
		for (i = 0; i < 16; i++)
			id[i] = hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]);
	}
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_data.h - the data ssdsim writes for a trace's write request: its
 * bytes (data_store=bytes) or their digest, one id per 512-byte sector
 * (data_store=digest), which the core's ssd_digest_expand()
 * (common/ssd_pagepool.h) turns back into the very same bytes.
 *
 * From the trace's content hashes when it has them, else from a seed (the
 * offset and the request number).  Each MD5 of an FIU trace covers its
 * share of the request (a 4 KiB block for mail, a 512-byte sector for
 * homes), and the byte at offset p of a page is md5[p % 16] ^ pattern(p),
 * with one fixed pattern for all pages: the same MD5 at the same place in
 * a page gives the same bytes, and different MD5s differ in every 16
 * bytes, so at every offset the dedup filter may sample.  Without hashes
 * the bytes are a splitmix64 stream from the seed: word k is
 * mix(seed + (k + 1) * gamma), so a sector's words follow from one number.
 *
 * A sector's id: the MD5 covering it, or for seed-made data the stream's
 * state before the sector's first word (8 bytes) then SSD_DIGEST_SEED_TAG
 * (8 bytes).
 */
#ifndef SSD_SIM_DATA_H
#define SSD_SIM_DATA_H

#include "common/ssd_config.h"

/*
 * Fill @len bytes of a write at byte @offset: one chunk per hash in
 * @hashes (32 hex digits each, spread evenly over the request), byte p of
 * a page (of @page_bytes) being md5[p % 16] ^ pattern(p); or, without
 * hashes, a pattern from @fallback_seed.
 */
void sim_fill_data(unsigned char *buf, u64 offset, u64 len, u32 page_bytes,
		   const char *hashes, u64 fallback_seed);

/*
 * The same write's sector ids into @ids (@len / 512 ids of
 * SSD_DIGEST_ID_BYTES; @len whole sectors, the write sector-aligned).  -1
 * if a sector holds the bytes of two hashes (a hash covers less than a
 * sector, or not whole sectors: a request widened to 4 KiB blocks), which
 * no id stands for: such a sector gets the id of the hash its first byte
 * has, the ids are filled all the same, and the caller decides whether
 * content matters (it does for dedup).
 */
int sim_fill_ids(unsigned char *ids, u64 len, const char *hashes, u64 fallback_seed);

#endif /* SSD_SIM_DATA_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_data.h - the bytes ssdsim writes for a trace's write request.
 *
 * From the trace's content hashes when it has them, else from a seed (the
 * offset and the request number).  Each MD5 of an FIU trace covers its
 * share of the request (a 4 KiB block for mail, a 512-byte sector for
 * homes), and the byte at offset p of a page is md5[p % 16] ^ pattern(p),
 * with one fixed pattern for all pages: the same MD5 at the same place in
 * a page gives the same bytes, and different MD5s differ in every 16
 * bytes, so at every offset the dedup filter may sample.
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

#endif /* SSD_SIM_DATA_H */

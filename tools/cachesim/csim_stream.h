/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_stream.h - turns a loaded trace (csim_trace.h) into the accesses a
 * cache policy sees (csim.h), keeping the content of every page the trace
 * showed (the primary storage, by fingerprint).
 *
 * Content: a page takes the fingerprint its request carries (a read shows
 * what is stored, a write what is stored from now on); a partial page
 * mixes the new sectors into its previous content; a write without
 * hashes makes new content unique to (page, request); a page not yet
 * written or read holds its initial content (csim_trace.h), or, if the
 * trace never read it first, content unique to its address.
 *
 * Block mode: each block a request touches is one access, in address
 * order, with the fingerprint of the block's content (its pages'
 * fingerprints combined in order; a 4 KiB block's is its page's) and the
 * bitmap of the parts the request touched.  Reads always may enter; a
 * write enters under write-through, updates a cached copy under update,
 * drops it under invalidate (then a write access that never hits).  A
 * TRIM drops the blocks it touches and forgets their content.
 *
 * Unit mode (PLC and the unit baselines): every new content (4 KiB
 * chunk, by fingerprint) is appended to the open unit of unit_bytes, the
 * container layout of a deduplicating store that writes unique chunks in
 * the order it first sees them.  A read request accesses each unit it
 * touches once (in order of first touch); its pages hit if the unit is
 * cached.  Writes only append chunks (write-around: a cached container
 * never changes) and count as page accesses that miss.  A unit's
 * reference count is the number of maximal runs of consecutive addresses
 * whose content lies in it: a file stored contiguously counts once, each
 * other file or place sharing its chunks once more (our reading of "the
 * number of files referencing it after dedup" for a block trace).
 *
 * Hit and access counts are by block in block mode and by 4 KiB page in
 * unit mode.  A cache of NULL takes a census instead (csim_census).
 */
#ifndef CSIM_STREAM_H
#define CSIM_STREAM_H

#include <stdint.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_trace.h"

struct csim_census {
	uint64_t requests[3];			/* by enum csim_req_op */
	uint64_t pages[3];
	uint64_t block_accesses[3];
	uint64_t distinct_blocks;		/* block addresses touched */
	uint64_t distinct_block_fps;		/* unique block contents seen */
	uint64_t distinct_page_fps;		/* unique 4 KiB chunks seen */
	uint64_t write_pages_dup;		/* written pages whose content was seen before */
	uint64_t units;				/* unit mode: containers filled */
	uint64_t max_unit_refs;
};

struct csim_stream_opts {
	uint32_t block_pages;
	uint32_t unit_pages;			/* 0: block mode */
	enum csim_writes writes;
};

/*
 * Replay @t into @c (or, with @c NULL, count into @census); @unit_accesses
 * (unit mode, may be NULL) receives the accesses of every unit, grown as
 * needed, with its room in @unit_room.
 */
void csim_stream_run(const struct csim_trace *t, const struct csim_stream_opts *o,
		     struct csim_cache *c, struct csim_census *census,
		     uint32_t **unit_accesses, uint64_t *unit_room);

#endif /* CSIM_STREAM_H */

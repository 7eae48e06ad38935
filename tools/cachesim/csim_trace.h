/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_trace.h - a trace loaded whole for the host cache simulator: its
 * requests, by 4 KiB page, with the content fingerprint of every page a
 * request carries hashes for (trace_reader.h's formats: the FIU traces
 * with an MD5 per 512 B sector or per 4 KiB block, ssdemu request logs
 * with MD5s; mqsim has none).  Loaded once, replayed by every run.
 *
 * A request's hashes are spread evenly over it (as ssdsim does); each
 * page's fingerprint mixes the hashes that start in it, with their place.
 * A page the request covers only in part is marked partial: its content
 * is the page's previous content with these sectors changed, which only
 * the stream knows (csim_stream.h).  A request whose hash count does not
 * divide its length carries no fingerprints (counted).  Fingerprint 0
 * means unknown.
 *
 * A page whose first appearance in the trace is a read (whole page, with
 * hashes) shows what the page held before the trace began: that is its
 * initial content (initial: page -> slot of initial_fp), so that a block
 * read piece by piece has one content throughout.
 */
#ifndef CSIM_TRACE_H
#define CSIM_TRACE_H

#include <stdint.h>
#include <stddef.h>

#include "tools/cachesim/csim_map.h"
#include "tools/trace/trace_reader.h"

enum csim_req_op { CSIM_REQ_READ, CSIM_REQ_WRITE, CSIM_REQ_TRIM };

#define CSIM_NO_FPS	UINT64_MAX

struct csim_req {
	uint64_t page;		/* first 4 KiB page */
	uint64_t fp_at;		/* its pages' fingerprints in fps[], or CSIM_NO_FPS */
	uint32_t pages;
	uint8_t op;		/* enum csim_req_op */
};

struct csim_trace {
	struct csim_req *reqs;
	size_t nr, room;
	uint64_t *fps;		/* per page of requests with hashes */
	uint8_t *partial;	/* 1: the request covers the page in part */
	size_t nr_fps, fps_room;
	struct csim_map initial;
	uint64_t *initial_fp;
	size_t nr_initial, initial_room;
	const char *path;
	const char *format;
	uint64_t skipped_zero_length, skipped_flush, hash_mismatch;
};

int csim_trace_load(struct csim_trace *t, const char *path, enum trace_format format);
void csim_trace_free(struct csim_trace *t);
/* The 64 bits of an MD5 (hex) the simulator keys content by. */
uint64_t csim_md5_key(const char *hex);

#endif /* CSIM_TRACE_H */

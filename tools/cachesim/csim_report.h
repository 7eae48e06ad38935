/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csim_report.h - what cachesim prints: the trace's census and each run's
 * figures, as text (key value lines) or JSON.  Ratios are of hits to
 * accesses (blocks in block mode, 4 KiB pages in unit mode); bytes
 * written into the cache are split by cause; in unit mode the bytes
 * written are split into the PLC paper's quadrants by the unit's
 * accesses over the run (popular: at least quad_popular_accesses) and its
 * writes into the cache (high repeat: at least quad_repeat_writes).
 */
#ifndef CSIM_REPORT_H
#define CSIM_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_stream.h"
#include "tools/cachesim/csim_trace.h"

struct csim_run {
	const struct csim_cache *c;
	const char *granularity;
	const char *writes;
	uint64_t cache_bytes;
	double seconds;
	const uint32_t *unit_accesses;		/* unit mode */
	uint64_t unit_room;
	uint32_t quad_popular_accesses, quad_repeat_writes;
};

struct csim_trace_info {
	const struct csim_trace *t;
	const struct csim_census *blocks;	/* at the block size */
	const struct csim_census *chunks;	/* at 4 KiB, with units */
	uint32_t block_bytes, unit_bytes;
};

void csim_report_trace(FILE *f, const struct csim_trace_info *ti, bool json);
void csim_report_run(FILE *f, const struct csim_run *r, bool json, bool first);

#endif /* CSIM_REPORT_H */

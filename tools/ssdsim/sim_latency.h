/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_latency.h - every request latency ssdsim records, kept so that the
 * count, mean, nearest-rank percentiles and maximum are exact, in as
 * little memory as the values allow.  Owns only the store and the
 * selection; sim_report.c prints.
 *
 * A deterministic model repeats latencies a lot (an idle device gives
 * every write the same one), so the store starts as a map of value ->
 * count: its memory is bounded by the distinct values, not the requests.
 * When the map would outgrow 2 bytes per request recorded (and
 * SIM_LATENCY_MAP_MIN_BYTES), it is spilled once into a list of every
 * value: 32 low bits per value in chunks, 8 more bits per value only in
 * the chunks that need them (latencies of 4.3 s or more: a saturated
 * open-loop replay), and values of 2^40 ns (18 minutes) or more in a u64
 * list.  So at most 4 bytes per request below 4.3 s, 5 above, against 8
 * for a u64 per request.  Selection is an MSD radix select over the list
 * (no copy, no sort) or a sort of the map's distinct values.
 */
#ifndef SSD_SIM_LATENCY_H
#define SSD_SIM_LATENCY_H

#include <stddef.h>

#include "platform/ssd_platform.h"

/* The map is never spilled below this size. */
#define SIM_LATENCY_MAP_MIN_BYTES	(1u << 20)
/* Values per chunk of the list. */
#define SIM_LATENCY_CHUNK_SHIFT		16

struct latency_set {
	u64 count;
	unsigned __int128 sum_ns;	/* exact: the mean is sum / count */
	u64 max_ns;
	/* The map (while map_slots): open addressing, a slot free iff count 0. */
	u64 *map_ns;
	u64 *map_count;
	size_t map_slots;
	size_t map_used;
	bool spilled;			/* the list below holds every value */
	/* The list: values < 2^40, in chunks of 2^SIM_LATENCY_CHUNK_SHIFT. */
	u32 **low;			/* bits 0..31 */
	u8 **high;			/* bits 32..39; a chunk's NULL: all 0 */
	size_t chunks;			/* allocated */
	size_t chunk_room;		/* room in low[] and high[] */
	u64 small;			/* values in the chunks */
	/* Values >= 2^40. */
	u64 *huge_ns;
	size_t huge;
	size_t huge_room;
};

/* Record one latency; -1 if out of memory. */
int sim_latency_add(struct latency_set *set, u64 ns);
/*
 * The @rank-th smallest value (0-based, @rank < count); the set's values
 * are unchanged.  0 if out of memory (with a message), as for an empty set.
 */
u64 sim_latency_select(const struct latency_set *set, u64 rank);
/* Nearest rank: the smallest value with at least @percent % at or below it. */
u64 sim_latency_percentile(const struct latency_set *set, unsigned int percent);
double sim_latency_mean(const struct latency_set *set);
/* Heap bytes the set holds (its tables and chunks). */
size_t sim_latency_bytes(const struct latency_set *set);
void sim_latency_free(struct latency_set *set);

#endif /* SSD_SIM_LATENCY_H */

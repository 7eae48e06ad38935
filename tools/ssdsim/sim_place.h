/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_place.h - where ssdsim puts a trace request on the device.
 *
 * A read or write covers every logical block it touches, a TRIM only the
 * blocks it covers whole (so it never discards data it did not name).
 * Then, without a remap, the request keeps its address; with the dense
 * remap (sim_remap.h: an erase block unless asked otherwise) each unit of
 * unit_bytes it touches, keyed by its
 * disk, goes to the device unit the trace first gave it, offsets inside a
 * unit kept, so the request becomes one extent per run of consecutive
 * device units (a request split in several is counted).  A TRIM maps no
 * new unit: it has nothing to discard where the replay wrote nothing.
 * Last, an extent beyond the capacity wraps around it (clipped to fit);
 * the request is counted as wrapped.
 */
#ifndef SSD_SIM_PLACE_H
#define SSD_SIM_PLACE_H

#include "tools/ssdsim/sim_remap.h"
#include "tools/trace/trace_reader.h"

struct sim_place {
	u64 capacity_bytes;
	u64 block_bytes;		/* logical block: what requests cover */
	u64 unit_bytes;			/* remap unit, a multiple of the page; 0: none */
	struct sim_remap remap;
};

/* One request being placed. */
struct sim_placing {
	unsigned int op;		/* enum ssdemu_log_op */
	u64 disk;
	u64 start_bytes;		/* the blocks it covers: [start, end) */
	u64 end_bytes;
	u64 next_bytes;			/* where the next extent starts */
	unsigned int extents;		/* handed out so far */
	bool wrapped;			/* an extent wrapped around the capacity */
};

struct sim_extent {
	u64 offset_bytes;		/* on the device */
	u64 length_bytes;
	u64 source_bytes;		/* its start inside [start, end) */
};

/* Begin placing @rec (its disk 0 if the format names none). */
void sim_place_begin(const struct sim_place *p, const struct trace_record *rec,
		     struct sim_placing *pl);
/*
 * The request's next extent into *@ext: 1 with one, 0 when none is left
 * (a FLUSH is one empty extent), -1 out of memory.
 */
int sim_place_next(struct sim_place *p, struct sim_placing *pl, struct sim_extent *ext);
/* Device bytes the remap has handed out (0 without a remap). */
u64 sim_place_footprint_bytes(const struct sim_place *p);
void sim_place_free(struct sim_place *p);

#endif /* SSD_SIM_PLACE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_place.c - a trace request's extents on the device (sim_place.h):
 * block alignment, the optional dense remap, wrapping at the capacity.
 */
#include "tools/ssdsim/sim_place.h"

void sim_place_begin(const struct sim_place *p, const struct trace_record *rec,
		     struct sim_placing *pl)
{
	u64 unit = p->block_bytes;
	u64 first = rec->offset_bytes, last = rec->offset_bytes + rec->length_bytes;

	pl->op = rec->op;
	pl->disk = rec->has_device ? rec->device : 0;
	if (rec->op == SSDEMU_OP_TRIM) {
		pl->start_bytes = (first + unit - 1) / unit * unit;
		pl->end_bytes = last / unit * unit;
		if (pl->end_bytes < pl->start_bytes)
			pl->end_bytes = pl->start_bytes;
	} else {
		pl->start_bytes = first / unit * unit;
		pl->end_bytes = (last + unit - 1) / unit * unit;
	}
	pl->next_bytes = pl->start_bytes;
	pl->extents = 0;
	pl->wrapped = false;
}

/* [@off, @off + @len) on the device: beyond the capacity it wraps; clip. */
static void fit(const struct sim_place *p, struct sim_placing *pl, u64 off, u64 len,
		struct sim_extent *ext)
{
	u64 cap = p->capacity_bytes;

	if (off + len > cap)
		pl->wrapped = true;
	off %= cap;
	if (len > cap)
		len = cap;
	if (off + len > cap)
		off = cap - len;
	ext->offset_bytes = off;
	ext->length_bytes = len;
}

/* The next run of consecutive device units, from pl->next_bytes on. */
static int next_remapped(struct sim_place *p, struct sim_placing *pl, struct sim_extent *ext)
{
	u64 unit = p->unit_bytes;
	bool add = pl->op != SSDEMU_OP_TRIM;

	while (pl->next_bytes < pl->end_bytes) {
		u64 pos = pl->next_bytes, to, next_to;
		u64 run_end = min_t(u64, pl->end_bytes, (pos / unit + 1) * unit);
		int ret = sim_remap_unit(&p->remap, pl->disk, pos / unit, add, &to);

		if (ret < 0)
			return -1;
		if (!ret) {
			/* A TRIM of a unit the replay never wrote: nothing to discard. */
			pl->next_bytes = run_end;
			continue;
		}
		while (run_end < pl->end_bytes) {
			ret = sim_remap_unit(&p->remap, pl->disk, run_end / unit, add, &next_to);
			if (ret < 0)
				return -1;
			if (!ret || next_to != to + (run_end - pos + pos % unit) / unit)
				break;
			run_end = min_t(u64, pl->end_bytes, run_end + unit);
		}
		fit(p, pl, to * unit + pos % unit, run_end - pos, ext);
		ext->source_bytes = pos - pl->start_bytes;
		pl->next_bytes = run_end;
		pl->extents++;
		return 1;
	}
	return 0;
}

int sim_place_next(struct sim_place *p, struct sim_placing *pl, struct sim_extent *ext)
{
	if (pl->op == SSDEMU_OP_FLUSH) {
		if (pl->extents)
			return 0;
		ext->offset_bytes = 0;
		ext->length_bytes = 0;
		ext->source_bytes = 0;
		pl->extents++;
		return 1;
	}
	if (p->unit_bytes)
		return next_remapped(p, pl, ext);
	if (pl->extents || pl->start_bytes == pl->end_bytes)
		return 0;
	fit(p, pl, pl->start_bytes, pl->end_bytes - pl->start_bytes, ext);
	ext->source_bytes = 0;
	pl->next_bytes = pl->end_bytes;
	pl->extents++;
	return 1;
}

u64 sim_place_footprint_bytes(const struct sim_place *p)
{
	return p->remap.used * p->unit_bytes;
}

void sim_place_free(struct sim_place *p)
{
	sim_remap_free(&p->remap);
}

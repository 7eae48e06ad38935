// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_snap.c - the FTL in a snapshot: both maps, every block's state,
 * erase count and bucket links, each region's heaps, buckets, write
 * points, GC victim and cursors, the program clock and the counters.
 * Everything is written as it is, so a device loaded from it places and
 * collects exactly as the saved one would have.  Loading checks every
 * index against the geometry before anything uses it; ssd_ftl_check()
 * (run by the device afterwards) checks that the whole agrees.
 */
#include "ftl/ftl_internal.h"

static const struct ssd_snap_field block_fields[] = {
	SSD_SNAP_FIELD(struct ftl_block, erase_count),
	SSD_SNAP_FIELD(struct ftl_block, valid_pages),
	SSD_SNAP_FIELD(struct ftl_block, write_ptr),
	SSD_SNAP_FIELD(struct ftl_block, prev),
	SSD_SNAP_FIELD(struct ftl_block, next),
	SSD_SNAP_FIELD(struct ftl_block, last_program_seq),
	SSD_SNAP_FIELD(struct ftl_block, state),
	SSD_SNAP_FIELD(struct ftl_block, region),
};

static void save_region(const struct ftl *ftl, const struct ftl_region *rg,
			struct ssd_snap_writer *w)
{
	u32 chip;

	ssd_snap_put_u32(w, rg->nr_free);
	ssd_snap_put_u64(w, rg->valid_pages);
	ssd_snap_put_u32(w, rg->host_cursor);
	ssd_snap_put_u32(w, rg->gc_victim);
	ssd_snap_put_u32(w, rg->gc_cursor);
	ssd_snap_put_u32(w, rg->cb_cursor);
	ssd_snap_put_array(w, rg->bucket_head, rg->pages_per_block + 1, sizeof(u32));
	for (chip = 0; chip < ftl->chips; chip++) {
		const struct ftl_chip *c = &rg->chip[chip];

		ssd_snap_put_u32(w, c->nr_free);
		ssd_snap_put_u32(w, c->host_block);
		ssd_snap_put_u32(w, c->gc_block);
		ssd_snap_put_array(w, c->free_heap, c->nr_free, sizeof(u32));
	}
}

/* Static wear levelling's state (kept whatever the threshold, which a load may override). */
static void save_wear(const struct ftl *ftl, struct ssd_snap_writer *w)
{
	u32 r;

	for (r = 0; r < SSD_REGION_NR; r++) {
		ssd_snap_put_u32(w, ftl->region[r].wl_cursor);
		ssd_snap_put_u8(w, ftl->region[r].gc_wl);
	}
	ssd_snap_put_counters(w, &ftl->wear);
}

static void load_wear(struct ftl *ftl, struct ssd_snap_reader *rd)
{
	u32 r;

	for (r = 0; r < SSD_REGION_NR && !rd->error; r++) {
		struct ftl_region *rg = &ftl->region[r];
		u8 wl;

		rg->wl_cursor = ssd_snap_get_u32(rd);
		wl = ssd_snap_get_u8(rd);
		if (rd->error)
			return;
		if ((rg->nr_blocks ? rg->wl_cursor >= rg->nr_blocks : rg->wl_cursor) || wl > 1) {
			ssd_snap_refuse(rd, "FTL region %u: wear levelling cursor %u, victim flag %u",
					r, rg->wl_cursor, wl);
			return;
		}
		rg->gc_wl = wl;
	}
	ssd_snap_get_counters(rd, &ftl->wear);
}

void ssd_ftl_save(const struct ftl *ftl, struct ssd_snap_writer *w)
{
	u32 r;

	ssd_snap_put_u64(w, ftl->logical_pages);
	ssd_snap_put_u64(w, ftl->program_seq);
	ssd_snap_put_counters(w, &ftl->counters);
	ssd_snap_put_array(w, ftl->l2p, ftl->logical_pages, sizeof(u32));
	ssd_snap_put_array(w, ftl->p2l, ftl->flash->total_pages, sizeof(u32));
	ssd_snap_put_structs(w, ftl->blocks, ftl->total_blocks, sizeof(*ftl->blocks),
			     block_fields, ARRAY_SIZE(block_fields));
	for (r = 0; r < SSD_REGION_NR; r++)
		if (ftl->region[r].blocks_per_chip)
			save_region(ftl, &ftl->region[r], w);
	save_wear(ftl, w);
	if (ftl->scheme->save)
		ftl->scheme->save(ftl, w);
	ssd_ftl_faults_save(ftl, w);
}

/* A block number of this FTL, or FTL_NONE. */
static bool block_or_none(const struct ftl *ftl, u32 block)
{
	return block == FTL_NONE || block < ftl->total_blocks;
}

/* A free block's state while load_heaps_once() marks the ones it saw. */
#define BLOCK_SEEN	0xff

/*
 * Every free heap of @rg lists free blocks, each once (ssd_ftl_check()
 * counts them, but a block listed twice would hide one missing): each
 * listed block is marked, then all are put back.
 */
static void load_heaps_once(struct ftl *ftl, struct ftl_region *rg, u32 r,
			    struct ssd_snap_reader *rd)
{
	u32 chip, i;

	for (chip = 0; chip < ftl->chips && !rd->error; chip++)
		for (i = 0; i < rg->chip[chip].nr_free; i++) {
			struct ftl_block *b = &ftl->blocks[rg->chip[chip].free_heap[i]];

			if (b->state != FTL_BLOCK_FREE) {
				ssd_snap_refuse(rd, "FTL region %u chip %u: heap lists block %u twice or not free",
						r, chip, rg->chip[chip].free_heap[i]);
				break;
			}
			b->state = BLOCK_SEEN;
		}
	for (chip = 0; chip < ftl->chips; chip++)
		for (i = 0; i < rg->chip[chip].nr_free; i++)
			if (ftl->blocks[rg->chip[chip].free_heap[i]].state == BLOCK_SEEN)
				ftl->blocks[rg->chip[chip].free_heap[i]].state = FTL_BLOCK_FREE;
}

static void load_region(struct ftl *ftl, struct ftl_region *rg, u32 r,
			struct ssd_snap_reader *rd)
{
	u32 chip, v;

	rg->nr_free = ssd_snap_get_u32(rd);
	rg->valid_pages = ssd_snap_get_u64(rd);
	rg->host_cursor = ssd_snap_get_u32(rd);
	rg->gc_victim = ssd_snap_get_u32(rd);
	rg->gc_cursor = ssd_snap_get_u32(rd);
	rg->cb_cursor = ssd_snap_get_u32(rd);
	if (rd->error)
		return;
	if (rg->nr_free > rg->nr_blocks || rg->host_cursor >= ftl->chips ||
	    !block_or_none(ftl, rg->gc_victim) || rg->gc_cursor > rg->pages_per_block ||
	    rg->cb_cursor >= rg->nr_blocks) {
		ssd_snap_refuse(rd, "FTL region %u: free %u of %u blocks, cursors %u/%u/%u, victim %u",
				r, rg->nr_free, rg->nr_blocks, rg->host_cursor, rg->gc_cursor,
				rg->cb_cursor, rg->gc_victim);
		return;
	}
	ssd_snap_get_array(rd, rg->bucket_head, rg->pages_per_block + 1, sizeof(u32));
	for (v = 0; v <= rg->pages_per_block && !rd->error; v++)
		if (!block_or_none(ftl, rg->bucket_head[v]))
			ssd_snap_refuse(rd, "FTL region %u: bucket %u starts at block %u", r, v,
					rg->bucket_head[v]);
	for (chip = 0; chip < ftl->chips && !rd->error; chip++) {
		struct ftl_chip *c = &rg->chip[chip];
		u32 i;

		c->nr_free = ssd_snap_get_u32(rd);
		c->host_block = ssd_snap_get_u32(rd);
		c->gc_block = ssd_snap_get_u32(rd);
		if (rd->error)
			return;
		if (c->nr_free > rg->blocks_per_chip || !block_or_none(ftl, c->host_block) ||
		    !block_or_none(ftl, c->gc_block)) {
			ssd_snap_refuse(rd, "FTL region %u chip %u: %u free, write points %u/%u",
					r, chip, c->nr_free, c->host_block, c->gc_block);
			return;
		}
		ssd_snap_get_array(rd, c->free_heap, c->nr_free, sizeof(u32));
		for (i = 0; i < c->nr_free && !rd->error; i++)
			if (c->free_heap[i] >= ftl->total_blocks)
				ssd_snap_refuse(rd, "FTL region %u chip %u: free block %u",
						r, chip, c->free_heap[i]);
	}
	if (!rd->error)
		load_heaps_once(ftl, rg, r, rd);
}

void ssd_ftl_load(struct ftl *ftl, struct ssd_snap_reader *r)
{
	u64 logical = ssd_snap_get_u64(r), i;
	u32 reg;

	if (!r->error && logical != ftl->logical_pages) {
		ssd_snap_refuse(r, "FTL of %llu logical pages, this device has %llu",
				(unsigned long long)logical,
				(unsigned long long)ftl->logical_pages);
		return;
	}
	ftl->program_seq = ssd_snap_get_u64(r);
	ssd_snap_get_counters(r, &ftl->counters);
	ssd_snap_get_array(r, ftl->l2p, ftl->logical_pages, sizeof(u32));
	for (i = 0; i < ftl->logical_pages && !r->error; i++)
		if (ftl->l2p[i] != FTL_NONE && ftl->l2p[i] >= ftl->flash->total_pages)
			ssd_snap_refuse(r, "lpn %llu maps to ppa %u, beyond the flash",
					(unsigned long long)i, ftl->l2p[i]);
	ssd_snap_get_array(r, ftl->p2l, ftl->flash->total_pages, sizeof(u32));
	for (i = 0; i < ftl->flash->total_pages && !r->error; i++)
		if (ftl->p2l[i] != FTL_NONE && ftl->p2l[i] >= ftl->logical_pages)
			ssd_snap_refuse(r, "ppa %llu holds lpn %u, beyond the logical space",
					(unsigned long long)i, ftl->p2l[i]);
	ssd_snap_get_structs(r, ftl->blocks, ftl->total_blocks, sizeof(*ftl->blocks),
			     block_fields, ARRAY_SIZE(block_fields));
	for (i = 0; i < ftl->total_blocks && !r->error; i++) {
		const struct ftl_block *b = &ftl->blocks[i];

		if (b->state > FTL_BLOCK_BAD || b->region >= SSD_REGION_NR ||
		    (b->state == FTL_BLOCK_BAD &&
		     (ftl->scheme != &ssd_ftl_scheme_page || b->region != SSD_REGION_MAIN)) ||
		    (b->state == FTL_BLOCK_MAPPED &&
		     (!ftl_block_mapped(ftl) || b->region != SSD_REGION_MAIN)) ||
		    (b->state == FTL_BLOCK_TRANSLATION &&
		     (ftl->scheme != &ssd_ftl_scheme_dftl || b->region != SSD_REGION_MAIN)) ||
		    b->valid_pages > ftl->pages_per_block || b->write_ptr > ftl->pages_per_block ||
		    !block_or_none(ftl, b->prev) || !block_or_none(ftl, b->next))
			ssd_snap_refuse(r, "FTL block %llu: state %u region %u valid %u write_ptr %u",
					(unsigned long long)i, b->state, b->region,
					b->valid_pages, b->write_ptr);
	}
	/* The read error model wears with the FTL's erase counts. */
	for (i = 0; i < ftl->total_blocks && !r->error; i++)
		ssd_flash_set_erase_count(ftl->flash, i, ftl->blocks[i].erase_count);
	for (reg = 0; reg < SSD_REGION_NR && !r->error; reg++)
		if (ftl->region[reg].blocks_per_chip)
			load_region(ftl, &ftl->region[reg], reg, r);
	ssd_ftl_wear_recount(ftl);
	if (!r->error)
		load_wear(ftl, r);
	if (!r->error && ftl->scheme->load)
		ftl->scheme->load(ftl, r);
	ssd_ftl_faults_load(ftl, r);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_logblock_check.c - the block-mapped schemes' invariants and their
 * snapshot state.  The check (after the common one: maps agree, counts,
 * block states) holds the block map, the log slots and the owner of every
 * block to each other, every valid page of a data block to its offset,
 * every valid log page to a logical block whose data block's write
 * pointer lies past it, the reclaim order and free list to the slots, and
 * the summed erase count to the blocks.  Linear in blocks and pages.
 */
#include "ftl/ftl_logblock.h"

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			ssd_dev_err(ftl->flash->dev_name, "ssd_ftl_check (%s): " fmt,	\
				    ftl->scheme->name, ##__VA_ARGS__);	\
			return -EUCLEAN;				\
		}							\
	} while (0)

/* Slot @s holds a log block of its kind, owned by it. */
static int check_slot(const struct ftl *ftl, const struct ftl_lb *lb, u32 s)
{
	const struct ftl_log_slot *sl = &lb->slot[s];

	CHECK(sl->block < ftl->total_blocks && lb->owner[sl->block] == (FTL_LB_LOG | s) &&
	      ftl->blocks[sl->block].state == FTL_BLOCK_MAPPED,
	      "slot %u: block %u not its own", s, sl->block);
	switch (sl->kind) {
	case FTL_LOG_BAST:
		CHECK(lb->type == FTL_LB_BAST && sl->lbn < lb->nr_lbn && lb->lbn_log[sl->lbn] == s,
		      "bast slot %u of lbn %u not in the lbn's table", s, sl->lbn);
		break;
	case FTL_LOG_SW:
		CHECK(lb->type == FTL_LB_FAST && lb->sw == s && sl->lbn < lb->nr_lbn &&
		      sl->sequential, "SW slot %u (lbn %u) not the SW", s, sl->lbn);
		break;
	case FTL_LOG_RW:
		CHECK(lb->type == FTL_LB_FAST && sl->lbn == FTL_NONE, "RW slot %u names lbn %u",
		      s, sl->lbn);
		break;
	default:
		CHECK(0, "slot %u on no list has kind %u", s, sl->kind);
	}
	CHECK(sl->kind == FTL_LOG_RW || ftl->blocks[sl->block].write_ptr < ftl->pages_per_block,
	      "slot %u: log block %u is full but not merged", s, sl->block);
	return 0;
}

/* The reclaim order is a list of in-use non-SW slots; the free list the free ones. */
static int check_lists(const struct ftl *ftl, const struct ftl_lb *lb)
{
	u32 s, prev = FTL_NONE, in_order = 0, free = 0, used = 0;

	for (s = lb->order_head; s != FTL_NONE; s = lb->slot[s].next) {
		CHECK(s < lb->nr_slots && ++in_order <= lb->nr_slots, "reclaim order broken at %u",
		      s);
		CHECK(lb->slot[s].prev == prev && lb->slot[s].kind != FTL_LOG_SW &&
		      lb->slot[s].kind != FTL_LOG_FREE, "slot %u: bad link or kind in the order", s);
		prev = s;
	}
	CHECK(lb->order_tail == prev, "reclaim order ends at %u, tail says %u", prev,
	      lb->order_tail);
	for (s = lb->free_slot; s != FTL_NONE; s = lb->slot[s].next) {
		CHECK(s < lb->nr_slots && ++free <= lb->nr_slots &&
		      lb->slot[s].kind == FTL_LOG_FREE && lb->slot[s].block == FTL_NONE,
		      "free slot list broken at %u", s);
	}
	for (s = 0; s < lb->nr_slots; s++) {
		if (lb->slot[s].kind == FTL_LOG_FREE)
			continue;
		used++;
		if (check_slot(ftl, lb, s))
			return -EUCLEAN;
	}
	CHECK(used == lb->slots_used && used + free == lb->nr_slots &&
	      in_order + (lb->sw != FTL_NONE) == used,
	      "%u slots used (counter %u), %u free, %u in order of %u", used, lb->slots_used, free,
	      in_order, lb->nr_slots);
	CHECK(lb->sw == FTL_NONE || (lb->sw < lb->nr_slots && lb->slot[lb->sw].kind == FTL_LOG_SW),
	      "SW slot %u", lb->sw);
	CHECK(lb->rw_open == FTL_NONE ||
	      (lb->rw_open < lb->nr_slots && lb->slot[lb->rw_open].kind == FTL_LOG_RW),
	      "open RW slot %u", lb->rw_open);
	CHECK(lb->type != FTL_LB_FAST || in_order + 1 <= lb->nr_slots,
	      "%u RW blocks of %u log blocks", in_order, lb->nr_slots);
	return 0;
}

/* A valid page @lpn at @page of a log block: it belongs there. */
static int check_log_page(const struct ftl *ftl, const struct ftl_lb *lb,
			  const struct ftl_log_slot *sl, u32 block, u32 page, u32 lpn)
{
	u32 lbn = lpn / ftl->pages_per_block, off = lpn % ftl->pages_per_block;
	u32 data = lb->data[lbn];

	CHECK(sl->lbn == FTL_NONE || sl->lbn == lbn, "log block %u holds lpn %u of lbn %u, not %u",
	      block, lpn, lbn, sl->lbn);
	CHECK(!sl->sequential || off == page, "sequential log block %u: page %u holds offset %u",
	      block, page, off);
	CHECK(data != FTL_NONE && off < ftl->blocks[data].write_ptr,
	      "log block %u holds lpn %u at or past its data block %u's write pointer", block,
	      lpn, data);
	return 0;
}

/* Every main block: owned exactly as the map and the slots say; its pages where they belong. */
static int check_blocks(const struct ftl *ftl, const struct ftl_lb *lb)
{
	const struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u64 erases = 0;
	u32 i, page;

	for (i = 0; i < rg->nr_blocks; i++) {
		u32 block = ssd_ftl_region_block(ftl, rg, i), own = lb->owner[block];
		const struct ftl_log_slot *sl = NULL;

		ssd_check_resched(i);
		erases += ftl->blocks[block].erase_count;
		CHECK((own != FTL_NONE) == (ftl->blocks[block].state == FTL_BLOCK_MAPPED),
		      "block %u: owner %x, state %u", block, own, ftl->blocks[block].state);
		if (own == FTL_NONE)
			continue;
		if (own & FTL_LB_LOG) {
			CHECK((own & ~FTL_LB_LOG) < lb->nr_slots &&
			      lb->slot[own & ~FTL_LB_LOG].block == block,
			      "block %u owned by slot %u which holds another", block,
			      own & ~FTL_LB_LOG);
			sl = &lb->slot[own & ~FTL_LB_LOG];
		} else {
			CHECK(own < lb->nr_lbn && lb->data[own] == block,
			      "block %u owned by lbn %u whose data block is %u", block, own,
			      own < lb->nr_lbn ? lb->data[own] : 0);
		}
		for (page = 0; page < ftl->pages_per_block; page++) {
			u32 lpn = ftl->p2l[block * ftl->pages_per_block + page];

			if (lpn == FTL_NONE)
				continue;
			if (sl) {
				if (check_log_page(ftl, lb, sl, block, page, lpn))
					return -EUCLEAN;
				continue;
			}
			CHECK(lpn / ftl->pages_per_block == own && lpn % ftl->pages_per_block == page,
			      "data block %u of lbn %u holds lpn %u at page %u", block, own, lpn,
			      page);
		}
	}
	CHECK(erases == lb->main_erases, "main region erases %llu, counter says %llu",
	      (unsigned long long)erases, (unsigned long long)lb->main_erases);
	return 0;
}

int ftl_lb_check(const struct ftl *ftl)
{
	const struct ftl_lb *lb = ftl_lb(ftl);
	u32 lbn;

	for (lbn = 0; lbn < lb->nr_lbn; lbn++) {
		u32 d = lb->data[lbn];

		ssd_check_resched(lbn);
		CHECK(d == FTL_NONE || (d < ftl->total_blocks && lb->owner[d] == lbn),
		      "lbn %u: data block %u not owned by it", lbn, d);
		if (lb->lbn_log)
			CHECK(lb->lbn_log[lbn] == FTL_NONE ||
			      (lb->lbn_log[lbn] < lb->nr_slots &&
			       lb->slot[lb->lbn_log[lbn]].lbn == lbn &&
			       lb->slot[lb->lbn_log[lbn]].kind == FTL_LOG_BAST),
			      "lbn %u: log slot %u not its own", lbn, lb->lbn_log[lbn]);
	}
	if (check_lists(ftl, lb))
		return -EUCLEAN;
	return check_blocks(ftl, lb);
}

static const struct ssd_snap_field slot_fields[] = {
	SSD_SNAP_FIELD(struct ftl_log_slot, block),
	SSD_SNAP_FIELD(struct ftl_log_slot, lbn),
	SSD_SNAP_FIELD(struct ftl_log_slot, prev),
	SSD_SNAP_FIELD(struct ftl_log_slot, next),
	SSD_SNAP_FIELD(struct ftl_log_slot, kind),
	SSD_SNAP_FIELD(struct ftl_log_slot, sequential),
};

/*
 * The block map, the log slots with their lists, the cursors and the
 * counters.  lbn_log and owner are not written: loading derives them from
 * the map and the slots, refusing a block or slot claimed twice.
 */
void ftl_lb_save(const struct ftl *ftl, struct ssd_snap_writer *w)
{
	const struct ftl_lb *lb = ftl_lb(ftl);

	ssd_snap_put_u32(w, lb->nr_lbn);
	ssd_snap_put_u32(w, lb->nr_slots);
	ssd_snap_put_array(w, lb->data, lb->nr_lbn, sizeof(u32));
	ssd_snap_put_structs(w, lb->slot, lb->nr_slots, sizeof(*lb->slot), slot_fields,
			     ARRAY_SIZE(slot_fields));
	ssd_snap_put_u32(w, lb->free_slot);
	ssd_snap_put_u32(w, lb->order_head);
	ssd_snap_put_u32(w, lb->order_tail);
	ssd_snap_put_u32(w, lb->slots_used);
	ssd_snap_put_u32(w, lb->sw);
	ssd_snap_put_u32(w, lb->rw_open);
	ssd_snap_put_u32(w, lb->log_cursor);
	ssd_snap_put_u32(w, lb->wl_cursor);
	ssd_snap_put_counters(w, &lb->counters);
}

static bool slot_or_none(const struct ftl_lb *lb, u32 s)
{
	return s == FTL_NONE || s < lb->nr_slots;
}

/* Claim @block for @owner, refusing a block out of the main region or claimed before. */
static void claim(struct ftl *ftl, struct ssd_snap_reader *r, u32 block, u32 owner)
{
	struct ftl_lb *lb = ftl_lb(ftl);

	if (block >= ftl->total_blocks || ftl->blocks[block].region != SSD_REGION_MAIN ||
	    lb->owner[block] != FTL_NONE) {
		ssd_snap_refuse(r, "FTL %s: block %u claimed twice or outside the main region",
				ftl->scheme->name, block);
		return;
	}
	lb->owner[block] = owner;
}

void ftl_lb_load(struct ftl *ftl, struct ssd_snap_reader *r)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 nr_lbn = ssd_snap_get_u32(r), nr_slots = ssd_snap_get_u32(r), i;

	if (r->error)
		return;
	if (nr_lbn != lb->nr_lbn || nr_slots != lb->nr_slots) {
		ssd_snap_refuse(r, "FTL %s: %u logical blocks and %u log blocks, this device has %u and %u",
				ftl->scheme->name, nr_lbn, nr_slots, lb->nr_lbn, lb->nr_slots);
		return;
	}
	ssd_snap_get_array(r, lb->data, lb->nr_lbn, sizeof(u32));
	ssd_snap_get_structs(r, lb->slot, lb->nr_slots, sizeof(*lb->slot), slot_fields,
			     ARRAY_SIZE(slot_fields));
	lb->free_slot = ssd_snap_get_u32(r);
	lb->order_head = ssd_snap_get_u32(r);
	lb->order_tail = ssd_snap_get_u32(r);
	lb->slots_used = ssd_snap_get_u32(r);
	lb->sw = ssd_snap_get_u32(r);
	lb->rw_open = ssd_snap_get_u32(r);
	lb->log_cursor = ssd_snap_get_u32(r);
	lb->wl_cursor = ssd_snap_get_u32(r);
	ssd_snap_get_counters(r, &lb->counters);
	if (r->error)
		return;
	if (!slot_or_none(lb, lb->free_slot) || !slot_or_none(lb, lb->order_head) ||
	    !slot_or_none(lb, lb->order_tail) || !slot_or_none(lb, lb->sw) ||
	    !slot_or_none(lb, lb->rw_open) || lb->slots_used > lb->nr_slots ||
	    lb->log_cursor >= ftl->chips || lb->wl_cursor >= lb->nr_lbn) {
		ssd_snap_refuse(r, "FTL %s: slot index or cursor out of range", ftl->scheme->name);
		return;
	}
	for (i = 0; i < lb->nr_lbn && !r->error; i++)
		if (lb->data[i] != FTL_NONE)
			claim(ftl, r, lb->data[i], i);
	for (i = 0; i < lb->nr_slots && !r->error; i++) {
		struct ftl_log_slot *sl = &lb->slot[i];

		if (sl->kind > FTL_LOG_RW || !slot_or_none(lb, sl->prev) ||
		    !slot_or_none(lb, sl->next) ||
		    (sl->lbn != FTL_NONE && sl->lbn >= lb->nr_lbn)) {
			ssd_snap_refuse(r, "FTL %s: log slot %u: kind %u lbn %u links %u/%u",
					ftl->scheme->name, i, sl->kind, sl->lbn, sl->prev, sl->next);
			break;
		}
		if (sl->kind == FTL_LOG_FREE)
			continue;
		claim(ftl, r, sl->block, FTL_LB_LOG | i);
		if (sl->kind == FTL_LOG_BAST && lb->lbn_log && !r->error) {
			if (lb->lbn_log[sl->lbn] != FTL_NONE)
				ssd_snap_refuse(r, "FTL %s: lbn %u has two log blocks",
						ftl->scheme->name, sl->lbn);
			else
				lb->lbn_log[sl->lbn] = i;
		}
	}
	lb->main_erases = 0;
	for (i = 0; i < ftl->region[SSD_REGION_MAIN].nr_blocks; i++)
		lb->main_erases += ftl->blocks[ssd_ftl_region_block(ftl,
						&ftl->region[SSD_REGION_MAIN], i)].erase_count;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme_fast.c - ftl_type=fast: fully associative sector translation
 * (Lee et al., "A log buffer-based flash translation layer using
 * fully-associative sector translation", TECS 2007).  A page goes in place
 * when its offset is at or past its data block's write pointer.  Other
 * updates go to the log blocks: one sequential log block (SW) takes a
 * write at offset 0 (merging the SW block it replaces: a partial merge,
 * as a full one is switched when it fills) and writes continuing its run;
 * everything else is appended to the random log blocks (RW), shared by
 * all logical blocks, ftl_log_blocks - 1 of them.  When a new RW block is
 * needed and all are in use, the oldest is reclaimed: every logical block
 * with a valid page in it gets a full merge (the blow-up random writes
 * cause), then it is erased.  Its RAM: the block map and each log block's
 * page map.
 */
#include "ftl/ftl_logblock.h"

/* Reclaim the oldest RW block: a full merge of each logical block in it. */
static int fast_reclaim_rw(struct ftl *ftl, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 s = lb->order_head, block = lb->slot[s].block, page;
	u64 end = start_ns, t;
	int ret = 0;

	*done_ns = start_ns;
	for (page = 0; !ret && page < ftl->blocks[block].write_ptr; page++) {
		u32 lpn = ftl->p2l[block * ftl->pages_per_block + page];

		if (lpn == FTL_NONE)
			continue;
		ret = ftl_lb_full_merge(ftl, lpn / ftl->pages_per_block, U64_MAX, NULL,
					SSD_CAUSE_MERGE, start_ns, &t);
		end = max_t(u64, end, t);
	}
	if (ret)
		return ret;
	ret = ftl_lb_erase(ftl, block, end, done_ns);
	if (!ret) {
		lb->counters.merge_erases++;
		/* The slot goes back to the free list. */
		if (lb->rw_open == s)
			lb->rw_open = FTL_NONE;
		ftl_lb_slot_put(lb, s);
	}
	*done_ns = max_t(u64, *done_ns, end);
	return ret;
}

/* The RW block the next random page goes to, and where in it; FTL_NONE on a BUG. */
static u32 fast_rw_block(struct ftl *ftl, u64 start_ns, u64 *ready_ns, int *ret)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 rw_used;

	*ready_ns = start_ns;
	if (lb->rw_open != FTL_NONE &&
	    ftl->blocks[lb->slot[lb->rw_open].block].write_ptr < ftl->pages_per_block)
		return lb->slot[lb->rw_open].block;
	lb->rw_open = FTL_NONE;
	rw_used = lb->slots_used - (lb->sw != FTL_NONE);
	if (rw_used >= lb->nr_slots - 1) {
		*ret = fast_reclaim_rw(ftl, start_ns, ready_ns);
		if (*ret)
			return FTL_NONE;
	}
	lb->rw_open = ftl_lb_slot_take(ftl, FTL_LOG_RW, FTL_NONE);
	if (lb->rw_open == FTL_NONE) {
		*ret = -EIO;
		return FTL_NONE;
	}
	return lb->slot[lb->rw_open].block;
}

static int fast_write(struct ftl *ftl, u64 lpn, void *buf, enum ssd_cause cause,
		      u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 data = ftl_lb_data_block(ftl, lpn), off = lpn % ftl->pages_per_block;
	u32 lbn = lpn / ftl->pages_per_block, block;
	u64 ready_ns = start_ns, t;
	bool in_place = false;
	int ret = 0;

	*done_ns = start_ns;
	if (data == FTL_NONE) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EIO;
	}
	ftl->counters.host_write_pages++;
	if (off >= ftl->blocks[data].write_ptr) {
		ret = ftl_lb_program(ftl, data, off, lpn, buf, cause, start_ns, done_ns);
		return ftl_lb_write_end(ftl, ret, start_ns, done_ns);
	}
	if (off == 0) {
		/* A new sequential run: the SW block it replaces is merged. */
		if (lb->sw != FTL_NONE)
			ret = ftl_lb_merge_log(ftl, lb->sw, start_ns, &ready_ns);
		if (!ret) {
			lb->sw = ftl_lb_slot_take(ftl, FTL_LOG_SW, lbn);
			ret = lb->sw == FTL_NONE ? -EIO : 0;
		}
		block = ret ? FTL_NONE : lb->slot[lb->sw].block;
	} else if (lb->sw != FTL_NONE && lb->slot[lb->sw].lbn == lbn &&
		   ftl->blocks[lb->slot[lb->sw].block].write_ptr == off) {
		block = lb->slot[lb->sw].block;
	} else {
		block = fast_rw_block(ftl, start_ns, &ready_ns, &ret);
		/*
		 * Reclaiming may have merged this logical block into one whose
		 * write pointer is no further than @off: then in place.
		 */
		data = block == FTL_NONE ? FTL_NONE : ftl_lb_data_block(ftl, lpn);
		in_place = data != FTL_NONE && off >= ftl->blocks[data].write_ptr;
		if (in_place)
			block = data;
	}
	if (block == FTL_NONE) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return ftl_lb_write_end(ftl, ret ? ret : -EIO, start_ns, done_ns);
	}
	ret = ftl_lb_program(ftl, block, in_place ? off : ftl->blocks[block].write_ptr,
			     lpn, buf, cause, ready_ns, done_ns);
	/* A full SW block is switched at once. */
	if (!ret && lb->sw != FTL_NONE && block == lb->slot[lb->sw].block &&
	    ftl->blocks[block].write_ptr == ftl->pages_per_block) {
		ret = ftl_lb_merge_log(ftl, lb->sw, ready_ns, &t);
		*done_ns = max_t(u64, *done_ns, t);
	}
	return ftl_lb_write_end(ftl, ret, start_ns, done_ns);
}

const struct ftl_scheme ssd_ftl_scheme_fast = {
	.name = "fast",
	.keys = ssd_ftl_lb_keys,
	.write = fast_write,
	FTL_LB_SCHEME_OPS,
};

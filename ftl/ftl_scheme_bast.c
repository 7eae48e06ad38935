// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme_bast.c - ftl_type=bast: block-associative sector translation
 * (Kim et al., "A space-efficient flash translation layer for
 * CompactFlash systems", 2002).  A page goes in place when its offset is
 * at or past its data block's write pointer; an update goes to its logical
 * block's own log block, appended in order.  There are ftl_log_blocks log
 * blocks; a logical block without one takes a free one, or the least
 * recently written one after merging it.  A log block is merged when it is
 * full or reclaimed: a switch merge if it holds offsets 0..N-1 in order
 * and is full (it becomes the data block, the old one is erased), a
 * partial merge if it holds such a prefix (the rest is copied in from the
 * data block, then the switch), else a full merge (a new block takes the
 * latest copy of each offset; the data and log blocks are erased).  Its
 * RAM: the block map and each log block's page map.
 */
#include "ftl/ftl_logblock.h"

/* The log slot of @lbn, taken (after reclaiming the LRU one if all are used). */
static u32 bast_log_of(struct ftl *ftl, u32 lbn, u64 start_ns, u64 *merged_ns, int *ret)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 s = lb->lbn_log[lbn];

	*merged_ns = start_ns;
	if (s != FTL_NONE) {
		ftl_lb_slot_touch(ftl, s);
		return s;
	}
	if (lb->slots_used == lb->nr_slots) {
		*ret = ftl_lb_merge_log(ftl, lb->order_head, start_ns, merged_ns);
		if (*ret)
			return FTL_NONE;
	}
	s = ftl_lb_slot_take(ftl, FTL_LOG_BAST, lbn);
	if (s == FTL_NONE) {
		*ret = -EIO;
		return FTL_NONE;
	}
	lb->lbn_log[lbn] = s;
	return s;
}

static int bast_write(struct ftl *ftl, u64 lpn, void *buf, enum ssd_cause cause,
		      u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 data = ftl_lb_data_block(ftl, lpn), off = lpn % ftl->pages_per_block;
	u32 lbn = lpn / ftl->pages_per_block, s, block, page;
	u64 t, merged_ns;
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
	s = bast_log_of(ftl, lbn, start_ns, &merged_ns, &ret);
	if (s == FTL_NONE) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return ftl_lb_write_end(ftl, ret ? ret : -EIO, start_ns, done_ns);
	}
	block = lb->slot[s].block;
	page = ftl->blocks[block].write_ptr;
	if (page != off)
		lb->slot[s].sequential = 0;
	/* The page waits for the merge that made room for its log block. */
	ret = ftl_lb_program(ftl, block, page, lpn, buf, cause, merged_ns, done_ns);
	if (!ret && page + 1 == ftl->pages_per_block) {
		ret = ftl_lb_merge_log(ftl, s, merged_ns, &t);
		*done_ns = max_t(u64, *done_ns, t);
	}
	return ftl_lb_write_end(ftl, ret, start_ns, done_ns);
}

const struct ftl_scheme ssd_ftl_scheme_bast = {
	.name = "bast",
	.keys = ssd_ftl_lb_keys,
	.write = bast_write,
	FTL_LB_SCHEME_OPS,
};

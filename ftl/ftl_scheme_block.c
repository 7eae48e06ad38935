// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme_block.c - ftl_type=block: block-level mapping, one data block
 * per logical block and nothing else.  A page goes in place when its
 * offset is at or past the data block's write pointer (NAND programs a
 * block in order); any other update rewrites the logical block: a new
 * block takes the other valid pages and the new one, each at its offset,
 * and the old block is erased (copy-on-update, counted as a full merge;
 * no NFTL replacement blocks).  Its RAM is the block map alone.
 */
#include "ftl/ftl_logblock.h"

static int block_write(struct ftl *ftl, u64 lpn, void *buf, enum ssd_cause cause,
		       u64 start_ns, u64 *done_ns)
{
	u32 data = ftl_lb_data_block(ftl, lpn), off = lpn % ftl->pages_per_block;
	int ret;

	*done_ns = start_ns;
	if (data == FTL_NONE) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EIO;
	}
	ftl->counters.host_write_pages++;
	if (off >= ftl->blocks[data].write_ptr)
		ret = ftl_lb_program(ftl, data, off, lpn, buf, cause, start_ns, done_ns);
	else
		ret = ftl_lb_full_merge(ftl, lpn / ftl->pages_per_block, lpn, buf, cause,
					start_ns, done_ns);
	return ftl_lb_write_end(ftl, ret, start_ns, done_ns);
}

const struct ftl_scheme ssd_ftl_scheme_block = {
	.name = "block",
	.write = block_write,
	FTL_LB_SCHEME_OPS,
};

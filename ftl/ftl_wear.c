// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_wear.c - erases and wear levelling of the page-mapped machinery (the
 * SLC region under every FTL type, the main region under page and dftl).
 *
 * Dynamic levelling is the free heaps' order (ftl_alloc.c: the least-erased
 * free block is taken first).  It never touches a block that holds cold
 * data: such a block stays FULL, with all its pages valid, while the others
 * wear.  Static levelling (wl_static_threshold > 0) moves that data: after
 * a GC victim is erased, when the region is not short of free blocks, a
 * window of FTL_WL_WINDOW_BLOCKS blocks from a rotating cursor is looked
 * at, and the least-erased FULL block in it whose erase count lags the
 * region's mean by at least the threshold becomes the region's next GC
 * victim.  Its valid pages then move to the GC write points (cause GC,
 * also counted in wl_static_pages): in host writes into the region that
 * did no other GC work (ssd_ftl_wear_step(), at most
 * gc_pages_per_write pages a write, or the whole block if that is 0), or
 * by foreground GC like any victim.  Once erased it goes back to the free
 * heap, where it is the first taken.  The work per erase (the window) and
 * per host write (the step) is bounded, and every choice depends on the
 * request sequence only.  With the threshold 0 nothing here changes any
 * counter or time.  The cursors, the victim flag and the counters are in
 * snapshots whatever the threshold (ftl_snap.c).
 */
#include "ftl/ftl_internal.h"

u64 ssd_ftl_erase_block(struct ftl *ftl, u32 block, u64 start_ns)
{
	struct ftl_block *blk = &ftl->blocks[block];
	u64 done_ns = ssd_flash_erase(ftl->flash, block, start_ns);

	blk->erase_count++;
	blk->write_ptr = 0;
	blk->valid_pages = 0;
	ftl_region_of(ftl, block)->erase_total++;
	/* A failed erase retires the block (ftl_retire.c) instead. */
	if (!ssd_ftl_erase_retires(ftl, block))
		ssd_ftl_free_push(ftl, block);
	return done_ns;
}

/* Whether @blk lags @rg's mean erase count by at least @threshold. */
static bool wear_cold(const struct ftl_region *rg, const struct ftl_block *blk,
		      u32 threshold)
{
	return ((u64)blk->erase_count + threshold) * rg->nr_blocks <= rg->erase_total;
}

void ssd_ftl_wear_after_erase(struct ftl *ftl, struct ftl_region *rg)
{
	u32 threshold = ftl->wl_static_threshold, window, i, best = FTL_NONE;

	if (!threshold || rg->gc_victim != FTL_NONE || rg->nr_free < rg->low_free_blocks)
		return;
	window = min_t(u32, FTL_WL_WINDOW_BLOCKS, rg->nr_blocks);
	for (i = 0; i < window; i++) {
		u32 block = ssd_ftl_region_block(ftl, rg, (rg->wl_cursor + i) % rg->nr_blocks);
		const struct ftl_block *blk = &ftl->blocks[block];

		if (blk->state != FTL_BLOCK_FULL || !wear_cold(rg, blk, threshold))
			continue;
		if (best == FTL_NONE || blk->erase_count < ftl->blocks[best].erase_count)
			best = block;
	}
	rg->wl_cursor = (rg->wl_cursor + window) % rg->nr_blocks;
	if (best == FTL_NONE)
		return;
	ssd_ftl_gc_set_victim(ftl, rg, best);
	rg->gc_wl = true;
	ftl->wear.wl_static_migrations++;
}

int ssd_ftl_wear_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns)
{
	/* Only in a host write GC did nothing in: one bounded step a write. */
	if (!rg->gc_wl || ftl->gc_write_work || rg->nr_free < rg->low_free_blocks)
		return 0;
	return ssd_ftl_gc_victim_step(ftl, rg, start_ns);
}

void ssd_ftl_wear_recount(struct ftl *ftl)
{
	u32 r, i;

	for (r = 0; r < SSD_REGION_NR; r++) {
		struct ftl_region *rg = &ftl->region[r];

		rg->erase_total = 0;
		for (i = 0; i < rg->nr_blocks; i++)
			rg->erase_total +=
				ftl->blocks[ssd_ftl_region_block(ftl, rg, i)].erase_count;
	}
}

/* The integer square root of @x (the largest r with r * r <= x). */
static u64 isqrt_u64(u64 x)
{
	u64 r = 0, bit = 1ULL << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/*
 * Fixed-width buckets scaled to the current maximum rather than log2 ones:
 * a worn device's spread sits far from 0 (say 900 to 1100 erases), which
 * log2 buckets would put into one or two, while 16 equal buckets of 0..max
 * show its shape at any P/E range.  A walk of every block: stats time only.
 */
void ssd_ftl_erase_hist(const struct ftl *ftl, u64 max_erases, u64 *width_erases,
			u64 hist[SSD_ERASE_HIST_BUCKETS])
{
	u64 width = div_u64(max_erases + SSD_ERASE_HIST_BUCKETS, SSD_ERASE_HIST_BUCKETS);
	u32 block;

	memset(hist, 0, SSD_ERASE_HIST_BUCKETS * sizeof(hist[0]));
	*width_erases = width;
	for (block = 0; block < ftl->total_blocks; block++) {
		u64 i = div64_u64(ftl->blocks[block].erase_count, width);

		hist[min_t(u64, i, SSD_ERASE_HIST_BUCKETS - 1)]++;
	}
}

/*
 * sqrt(E[(e - m0)^2] - (mean - m0)^2) with m0 the mean rounded down, so
 * the sums stay small: every term is in millionths.
 */
u64 ssd_ftl_erase_stddev_milli(const struct ftl *ftl)
{
	u64 total = 0, sq = 0, m0, frac_milli, var_micro, mean_sq;
	u32 block, n = ftl->total_blocks;

	if (!n)
		return 0;
	for (block = 0; block < n; block++)
		total += ftl->blocks[block].erase_count;
	m0 = div_u64(total, n);
	for (block = 0; block < n; block++) {
		u64 e = ftl->blocks[block].erase_count;
		u64 d = e > m0 ? e - m0 : m0 - e;

		sq += d * d;
	}
	frac_milli = div_u64((total - m0 * n) * 1000, n);
	var_micro = div_u64(sq, n) * 1000000 + div_u64((sq - div_u64(sq, n) * n) * 1000000, n);
	mean_sq = frac_milli * frac_milli;
	return isqrt_u64(var_micro > mean_sq ? var_micro - mean_sq : 0);
}

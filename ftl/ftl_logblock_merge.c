// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_logblock_merge.c - the block-mapped schemes' merges (full, switch,
 * partial: copies under SSD_CAUSE_MERGE, erases, counted) and static wear
 * levelling of cold data blocks, run at the end of a write that erased
 * a block (see ftl_logblock.h).
 */
#include "ftl/ftl_logblock.h"

/* Move the valid main-region page @src to @page of @block, under @cause. */
static int lb_move(struct ftl *ftl, u32 src, u32 block, u32 page, enum ssd_cause cause,
		   u64 start_ns, u64 *done_ns)
{
	u32 dst = block * ftl->pages_per_block + page;
	u32 lpn = ftl->p2l[src];

	*done_ns = start_ns;
	if (ftl_lb_take(ftl, block, page))
		return -EIO;
	if (ssd_flash_copy(ftl->flash, src, dst, cause, start_ns, done_ns))
		return -EIO;
	ftl->blocks[src / ftl->pages_per_block].valid_pages--;
	ftl->p2l[src] = FTL_NONE;
	ftl->p2l[dst] = lpn;
	ftl->l2p[lpn] = dst;
	return 0;
}

/* Whether the main region holds a valid page of @lbn other than @skip_lpn. */
static bool lbn_has_data(const struct ftl *ftl, u32 lbn, u64 skip_lpn)
{
	u64 lpn = (u64)lbn * ftl->pages_per_block;
	u64 end = min_t(u64, lpn + ftl->pages_per_block, ftl->logical_pages);

	for (; lpn < end; lpn++)
		if (lpn != skip_lpn && ftl->l2p[lpn] != FTL_NONE &&
		    ftl_lb_in_main(ftl, ftl->l2p[lpn]))
			return true;
	return false;
}

/* Erase the log block of @s (now without valid pages) and free the slot. */
static int slot_erase(struct ftl *ftl, u32 s, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	int ret = ftl_lb_erase(ftl, lb->slot[s].block, start_ns, done_ns);

	if (!ret) {
		lb->counters.merge_erases++;
		ftl_lb_slot_put(lb, s);
	}
	return ret;
}

int ftl_lb_full_merge(struct ftl *ftl, u32 lbn, u64 host_lpn, void *buf,
		      enum ssd_cause cause, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 old = lb->data[lbn], nb = FTL_NONE, off;
	u64 first = (u64)lbn * ftl->pages_per_block, end = start_ns, t;
	int ret = 0;

	*done_ns = start_ns;
	lb->counters.full_merges++;
	if (buf || lbn_has_data(ftl, lbn, host_lpn)) {
		nb = ftl_lb_alloc(ftl, lbn % ftl->chips, lbn);
		if (nb == FTL_NONE) {
			if (buf)
				ssd_pagepool_put(ftl->flash->pool, buf);
			return -EIO;
		}
	}
	for (off = 0; !ret && nb != FTL_NONE && off < ftl->pages_per_block; off++) {
		u64 lpn = first + off;
		u32 p;

		if (lpn >= ftl->logical_pages)
			break;
		if (buf && lpn == host_lpn) {
			ret = ftl_lb_program(ftl, nb, off, lpn, buf, cause, start_ns, &t);
			buf = NULL;
		} else {
			p = ftl->l2p[lpn];
			if (p == FTL_NONE || !ftl_lb_in_main(ftl, p))
				continue;
			ret = lb_move(ftl, p, nb, off, SSD_CAUSE_MERGE, start_ns, &t);
		}
		end = max_t(u64, end, t);
	}
	if (buf)
		ssd_pagepool_put(ftl->flash->pool, buf);
	if (ret)
		return ret;
	lb->data[lbn] = nb;
	if (old != FTL_NONE) {
		ret = ftl_lb_erase(ftl, old, end, done_ns);
		lb->counters.merge_erases += !ret;
	}
	if (!ret && lb->lbn_log && lb->lbn_log[lbn] != FTL_NONE)
		ret = slot_erase(ftl, lb->lbn_log[lbn], end, done_ns);
	if (!ret && lb->sw != FTL_NONE && lb->slot[lb->sw].lbn == lbn)
		ret = slot_erase(ftl, lb->sw, end, done_ns);
	*done_ns = max_t(u64, *done_ns, end);
	return ret;
}

int ftl_lb_merge_log(struct ftl *ftl, u32 s, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	struct ftl_log_slot *sl = &lb->slot[s];
	u32 lbn = sl->lbn, block = sl->block, old = lb->data[lbn], off;
	u32 k = ftl->blocks[block].write_ptr;
	u64 first = (u64)lbn * ftl->pages_per_block, end = start_ns, t;
	int ret = 0;

	*done_ns = start_ns;
	if (!sl->sequential)
		return ftl_lb_full_merge(ftl, lbn, U64_MAX, NULL, SSD_CAUSE_MERGE, start_ns,
					 done_ns);
	/* Partial: the offsets past the log's prefix come from where they are. */
	for (off = k; !ret && off < ftl->pages_per_block; off++) {
		u64 lpn = first + off;
		u32 p;

		if (lpn >= ftl->logical_pages)
			break;
		p = ftl->l2p[lpn];
		if (p == FTL_NONE || !ftl_lb_in_main(ftl, p))
			continue;
		ret = lb_move(ftl, p, block, off, SSD_CAUSE_MERGE, start_ns, &t);
		end = max_t(u64, end, t);
	}
	if (ret)
		return ret;
	if (k == ftl->pages_per_block)
		lb->counters.switch_merges++;
	else
		lb->counters.partial_merges++;
	/* The log block is the data block now. */
	ftl_lb_slot_put(lb, s);
	lb->data[lbn] = block;
	lb->owner[block] = lbn;
	if (old != FTL_NONE) {
		ret = ftl_lb_erase(ftl, old, end, done_ns);
		lb->counters.merge_erases += !ret;
	}
	*done_ns = max_t(u64, *done_ns, end);
	return ret;
}

/*
 * The free block a cold block's data moves to: of the chips' least-erased
 * free blocks, the most erased one (the top of that chip's heap), or
 * FTL_NONE if it is not more worn than @erases (moving would not level).
 */
static u32 wl_dest_chip(const struct ftl *ftl, u32 erases)
{
	const struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 best = FTL_NONE, chip;

	for (chip = 0; chip < ftl->chips; chip++) {
		const struct ftl_chip *c = &rg->chip[chip];

		if (!c->nr_free)
			continue;
		if (best == FTL_NONE || ftl->blocks[c->free_heap[0]].erase_count >
					ftl->blocks[rg->chip[best].free_heap[0]].erase_count)
			best = chip;
	}
	if (best == FTL_NONE || ftl->blocks[rg->chip[best].free_heap[0]].erase_count <= erases)
		return FTL_NONE;
	return best;
}

/*
 * Static wear levelling: of the next FTL_LB_WL_SCAN logical blocks, the
 * first whose data block's erase count lags the main region's mean by
 * wl_threshold or more has its pages moved (same offsets, same write
 * pointer) to a more worn free block, and is erased: the cold block goes
 * back into use.
 */
static int wl_step(struct ftl *ftl, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u64 mean = div_u64(lb->main_erases, ftl->region[SSD_REGION_MAIN].nr_blocks);
	u32 i;

	for (i = 0; i < FTL_LB_WL_SCAN && i < lb->nr_lbn; i++) {
		u32 lbn = lb->wl_cursor, old = lb->data[lbn], nb, chip, off, wp;
		u64 end = start_ns, t;
		int ret = 0;

		lb->wl_cursor = (lbn + 1) % lb->nr_lbn;
		if (old == FTL_NONE || ftl->blocks[old].erase_count + (u64)lb->wl_threshold > mean)
			continue;
		chip = wl_dest_chip(ftl, ftl->blocks[old].erase_count);
		if (chip == FTL_NONE)
			return 0;
		nb = ftl_lb_alloc(ftl, chip, lbn);
		if (nb == FTL_NONE)
			return -EIO;
		wp = ftl->blocks[old].write_ptr;
		for (off = 0; !ret && off < wp; off++) {
			u32 src = old * ftl->pages_per_block + off;

			if (ftl->p2l[src] == FTL_NONE)
				continue;
			ret = lb_move(ftl, src, nb, off, SSD_CAUSE_GC, start_ns, &t);
			end = max_t(u64, end, t);
			lb->counters.wl_pages++;
			/* As under the page-mapped types: a migration is GC work. */
			ftl->counters.gc_relocated_pages++;
		}
		if (ret)
			return ret;
		/* Offsets below the old write pointer stay out of in-place writes. */
		ftl->blocks[nb].write_ptr = wp;
		lb->data[lbn] = nb;
		lb->counters.wl_migrations++;
		ftl->counters.gc_victim_blocks++;
		return ftl_lb_erase(ftl, old, end, done_ns);
	}
	return 0;
}

int ftl_lb_write_end(struct ftl *ftl, int ret, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	bool erased = lb->erased;

	lb->erased = false;
	if (!ret && erased && lb->wl_threshold) {
		ret = wl_step(ftl, start_ns, done_ns);
		lb->erased = false;
	}
	if (erased && ftl->gc_step_hook)
		ftl->gc_step_hook(ftl);
	return ret;
}

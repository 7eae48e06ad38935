// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_check.c - a full consistency check of the FTL's state, for tests and
 * for a debug ioctl: the two maps agree, every valid count matches the
 * reverse map, each block is in exactly the list its state says, every
 * open block has exactly one write point, and the flash holds data for
 * exactly the valid pages.  It runs under the device lock, so it is
 * linear: one pass over pages, one over blocks, one along the bucket lists
 * and one over the chips' write points and heaps.
 */
#include "ftl/ftl_internal.h"

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			ssd_dev_err(ftl->flash->dev_name, "ssd_ftl_check: " fmt, ##__VA_ARGS__);	\
			return -EUCLEAN;				\
		}							\
	} while (0)

static int check_maps(const struct ftl *ftl)
{
	u64 lpn, ppa, mapped = 0;

	for (lpn = 0; lpn < ftl->logical_pages; lpn++) {
		u32 p = ftl->l2p[lpn];

		ssd_check_resched(lpn);
		if (p == FTL_NONE)
			continue;
		CHECK(p < ftl->flash->total_pages, "lpn %llu maps to bad ppa %u",
		      (unsigned long long)lpn, p);
		CHECK(ftl->p2l[p] == lpn, "lpn %llu -> ppa %u -> lpn %u",
		      (unsigned long long)lpn, p, ftl->p2l[p]);
		mapped++;
	}
	for (ppa = 0; ppa < ftl->flash->total_pages; ppa++) {
		u32 l = ftl->p2l[ppa];
		const struct ftl_block *blk = &ftl->blocks[ppa / ftl->pages_per_block];

		ssd_check_resched(ppa);
		CHECK((l != FTL_NONE) == (flash_page_holds(ftl->flash, ppa)),
		      "ppa %llu: mapped=%d but has_data=%d", (unsigned long long)ppa,
		      l != FTL_NONE, flash_page_holds(ftl->flash, ppa));
		if (l == FTL_NONE)
			continue;
		/* l2p is a function, so this also rules out a page mapped twice. */
		CHECK(l < ftl->logical_pages && ftl->l2p[l] == ppa,
		      "ppa %llu -> lpn %u not mapped back", (unsigned long long)ppa, l);
		CHECK(ppa % ftl->pages_per_block < blk->write_ptr,
		      "ppa %llu valid beyond its block's write pointer",
		      (unsigned long long)ppa);
	}
	CHECK(mapped == ftl->region[SSD_REGION_MAIN].valid_pages +
		       ftl->region[SSD_REGION_CACHE].valid_pages,
	      "%llu pages mapped, regions count %llu + %llu", (unsigned long long)mapped,
	      (unsigned long long)ftl->region[SSD_REGION_MAIN].valid_pages,
	      (unsigned long long)ftl->region[SSD_REGION_CACHE].valid_pages);
	CHECK(ftl->flash->data_pages == mapped, "flash holds %llu pages, %llu mapped",
	      (unsigned long long)ftl->flash->data_pages, (unsigned long long)mapped);
	return 0;
}

/* What one pass over the blocks counts, per region. */
struct block_tally {
	u32 free, open, full, victim, mapped, translation, bad;
	u64 valid, erases;
};

static int check_block(const struct ftl *ftl, u32 block, struct block_tally *tally)
{
	const struct ftl_block *blk = &ftl->blocks[block];
	const struct ftl_region *rg = &ftl->region[blk->region];
	u32 first = block * ftl->pages_per_block, i, valid = 0;
	bool slc = block % ftl->blocks_per_chip < ftl->region[SSD_REGION_CACHE].blocks_per_chip;

	CHECK(blk->region == (slc ? SSD_REGION_CACHE : SSD_REGION_MAIN),
	      "block %u in region %u", block, blk->region);
	CHECK(flash_block_mode(ftl->flash, block) == (slc ? FLASH_MODE_SLC : FLASH_MODE_TLC),
	      "block %u of region %u in cell mode %u", block, blk->region,
	      flash_block_mode(ftl->flash, block));
	for (i = 0; i < ftl->pages_per_block; i++)
		valid += ftl->p2l[first + i] != FTL_NONE;
	CHECK(blk->write_ptr <= rg->pages_per_block, "block %u: write_ptr %u beyond %u pages",
	      block, blk->write_ptr, rg->pages_per_block);
	tally->erases += blk->erase_count;
	if (blk->state == FTL_BLOCK_TRANSLATION) {
		/* Its valid_pages are translation pages: the scheme's check counts them. */
		CHECK(ftl->scheme == &ssd_ftl_scheme_dftl && valid == 0 &&
		      blk->region == SSD_REGION_MAIN,
		      "translation block %u: scheme %s, %u data pages, region %u", block,
		      ftl->scheme->name, valid, blk->region);
		tally->translation++;
		return 0;
	}
	CHECK(valid == blk->valid_pages, "block %u: valid_pages %u, p2l says %u",
	      block, blk->valid_pages, valid);
	tally->valid += valid;
	switch (blk->state) {
	case FTL_BLOCK_FREE:
		CHECK(valid == 0 && blk->write_ptr == 0, "free block %u has pages", block);
		tally->free++;
		break;
	case FTL_BLOCK_OPEN:
		CHECK(blk->write_ptr < rg->pages_per_block, "open block %u is full", block);
		tally->open++;
		break;
	case FTL_BLOCK_FULL:
		CHECK(blk->write_ptr == rg->pages_per_block,
		      "full block %u has write_ptr %u", block, blk->write_ptr);
		tally->full++;
		break;
	case FTL_BLOCK_VICTIM:
		CHECK(rg->gc_victim == block, "block %u is a victim but not its region's",
		      block);
		tally->victim++;
		break;
	case FTL_BLOCK_MAPPED:
		CHECK(ftl_block_mapped(ftl) && blk->region == SSD_REGION_MAIN,
		      "block %u of region %u held by a scheme that maps no blocks", block,
		      blk->region);
		tally->mapped++;
		break;
	case FTL_BLOCK_BAD:
		/* Retired: moved out, unless GC's room ran out at the end of life. */
		CHECK(blk->region == SSD_REGION_MAIN && (!valid || ftl_read_only(ftl)),
		      "bad block %u of region %u holds %u valid pages", block, blk->region,
		      valid);
		tally->bad++;
		break;
	default:
		CHECK(0, "block %u in unknown state %u", block, blk->state);
	}
	return 0;
}

/*
 * Every listed block is FULL, of its region, with the bucket's valid count
 * and sound back links.  A block listed twice would make a list loop, which
 * the count catches; so @nr_full listed blocks are all the full ones.
 */
static int check_buckets(const struct ftl *ftl, u32 r, u32 nr_full)
{
	const struct ftl_region *rg = &ftl->region[r];
	u32 v, nr_bucketed = 0;

	for (v = 0; v <= rg->pages_per_block; v++) {
		u32 b, prev = FTL_NONE;

		for (b = rg->bucket_head[v]; b != FTL_NONE; b = ftl->blocks[b].next) {
			CHECK(b < ftl->total_blocks, "region %u bucket %u holds bad block %u",
			      r, v, b);
			CHECK(++nr_bucketed <= nr_full, "region %u: bucket lists loop", r);
			CHECK(ftl->blocks[b].state == FTL_BLOCK_FULL &&
			      ftl->blocks[b].region == r && ftl->blocks[b].valid_pages == v,
			      "region %u bucket %u holds block %u (state %u, valid %u)", r, v,
			      b, ftl->blocks[b].state, ftl->blocks[b].valid_pages);
			CHECK(ftl->blocks[b].prev == prev, "block %u: bad back link", b);
			prev = b;
		}
	}
	CHECK(nr_bucketed == nr_full, "region %u: %u full blocks, %u in buckets", r,
	      nr_full, nr_bucketed);
	return 0;
}

static int check_write_point(const struct ftl *ftl, u32 r, u32 chip, u32 block)
{
	CHECK(block < ftl->total_blocks && ftl->blocks[block].state == FTL_BLOCK_OPEN &&
	      ftl->blocks[block].region == r && ftl_chip_of(ftl, block) == chip,
	      "region %u chip %u: write point on block %u (state %u)", r, chip, block,
	      block < ftl->total_blocks ? ftl->blocks[block].state : 0);
	return 0;
}

/*
 * Write points are on their own chip and region, so distinct chips' and
 * regions' ones never share a block; with the host and GC block of one
 * chip differing, @nr_open write points are one per open block.
 */
static int check_chips(const struct ftl *ftl, u32 r, u32 nr_open)
{
	const struct ftl_region *rg = &ftl->region[r];
	u32 chip, points = 0, nr_free = 0;

	for (chip = 0; chip < ftl->chips; chip++) {
		const struct ftl_chip *c = &rg->chip[chip];
		u32 i;

		CHECK(c->host_block == FTL_NONE || c->host_block != c->gc_block,
		      "region %u chip %u: host and GC share block %u", r, chip, c->gc_block);
		if (c->host_block != FTL_NONE && check_write_point(ftl, r, chip, c->host_block))
			return -EUCLEAN;
		if (c->gc_block != FTL_NONE && check_write_point(ftl, r, chip, c->gc_block))
			return -EUCLEAN;
		points += (c->host_block != FTL_NONE) + (c->gc_block != FTL_NONE);
		for (i = 0; i < c->nr_free; i++) {
			u32 block = c->free_heap[i];

			CHECK(block < ftl->total_blocks && ftl_chip_of(ftl, block) == chip &&
			      ftl->blocks[block].region == r,
			      "region %u chip %u heap holds block %u of another", r, chip, block);
			CHECK(ftl->blocks[block].state == FTL_BLOCK_FREE,
			      "region %u chip %u heap holds non-free block %u", r, chip, block);
			if (i > 0) {
				u32 parent = c->free_heap[(i - 1) / 2];

				CHECK(ftl->blocks[parent].erase_count <=
				      ftl->blocks[block].erase_count,
				      "region %u chip %u heap order broken at %u", r, chip, i);
			}
		}
		nr_free += c->nr_free;
	}
	CHECK(points == nr_open, "region %u: %u open blocks, %u write points", r, nr_open,
	      points);
	CHECK(nr_free == rg->nr_free, "region %u: heaps hold %u blocks, counter says %u", r,
	      nr_free, rg->nr_free);
	return 0;
}

static int check_region(const struct ftl *ftl, u32 r, const struct block_tally *tally)
{
	const struct ftl_region *rg = &ftl->region[r];

	CHECK(tally->free + tally->open + tally->full + tally->victim + tally->mapped +
	      tally->translation + tally->bad == rg->nr_blocks,
	      "region %u: free %u + open %u + full %u + victim %u + mapped %u + translation %u + bad %u != %u blocks",
	      r, tally->free, tally->open, tally->full, tally->victim, tally->mapped,
	      tally->translation, tally->bad, rg->nr_blocks);
	CHECK(tally->bad == rg->bad_blocks, "region %u: %u bad blocks, counter says %u", r,
	      tally->bad, rg->bad_blocks);
	CHECK(r != SSD_REGION_MAIN ||
	      (u64)ftl->faults.bad_factory + ftl->faults.bad_grown == tally->bad,
	      "%u bad blocks, %u factory + %u grown", tally->bad, ftl->faults.bad_factory,
	      ftl->faults.bad_grown);
	/* Kept by ssd_ftl_erase_block(), which a block-mapped scheme's erases need not use. */
	CHECK(tally->erases == rg->erase_total || (r == SSD_REGION_MAIN && ftl_block_mapped(ftl)),
	      "region %u: %llu erases, counter says %llu", r,
	      (unsigned long long)tally->erases, (unsigned long long)rg->erase_total);
	CHECK(!rg->gc_wl || rg->gc_victim != FTL_NONE,
	      "region %u: wear levelling without a victim", r);
	CHECK(tally->free == rg->nr_free, "region %u: %u free blocks, counter says %u", r,
	      tally->free, rg->nr_free);
	CHECK(tally->valid == rg->valid_pages, "region %u: %llu valid pages, counter says %llu",
	      r, (unsigned long long)tally->valid, (unsigned long long)rg->valid_pages);
	CHECK(tally->victim == (rg->gc_victim != FTL_NONE), "region %u: %u victim blocks", r,
	      tally->victim);
	/* Failed erases give no block back: the reserve holds without them. */
	CHECK(!rg->nr_blocks || rg->nr_free + 1 >= FTL_GC_RESERVED_BLOCKS ||
	      (r == SSD_REGION_MAIN && ftl->faults.bad_grown),
	      "region %u: %u free blocks, below the GC reserve", r, rg->nr_free);
	if (!rg->nr_blocks)
		return 0;
	if (check_buckets(ftl, r, tally->full))
		return -EUCLEAN;
	return check_chips(ftl, r, tally->open);
}

int ssd_ftl_check(const struct ftl *ftl)
{
	struct block_tally tally[SSD_REGION_NR];
	u32 block, r;
	int ret;

	ret = check_maps(ftl);
	if (ret)
		return ret;
	memset(tally, 0, sizeof(tally));
	for (block = 0; block < ftl->total_blocks; block++) {
		ssd_check_resched(block);
		CHECK(ftl->blocks[block].region < SSD_REGION_NR, "block %u in region %u",
		      block, ftl->blocks[block].region);
		ret = check_block(ftl, block, &tally[ftl->blocks[block].region]);
		if (ret)
			return ret;
	}
	for (r = 0; r < SSD_REGION_NR; r++) {
		ret = check_region(ftl, r, &tally[r]);
		if (ret)
			return ret;
	}
	return ftl->scheme->check ? ftl->scheme->check(ftl) : 0;
}

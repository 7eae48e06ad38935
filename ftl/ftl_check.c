// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_check.c - a full consistency check of the FTL's state, for tests and
 * for a debug ioctl: the two maps agree, every valid count matches the
 * reverse map, each block is in exactly the list its state says, and the
 * flash holds data for exactly the valid pages.
 */
#include "ftl.h"

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			ssd_log_err("ftl_check: " fmt, ##__VA_ARGS__);	\
			return -EUCLEAN;				\
		}							\
	} while (0)

static int check_maps(const struct ftl *ftl)
{
	u64 lpn, ppa, mapped = 0;

	for (lpn = 0; lpn < ftl->logical_pages; lpn++) {
		u32 p = ftl->l2p[lpn];

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

		CHECK((l != FTL_NONE) == (ftl->flash->page_data[ppa] != NULL),
		      "ppa %llu: mapped=%d but has_data=%d", (unsigned long long)ppa,
		      l != FTL_NONE, ftl->flash->page_data[ppa] != NULL);
		if (l == FTL_NONE)
			continue;
		/* l2p is a function, so this also rules out a page mapped twice. */
		CHECK(l < ftl->logical_pages && ftl->l2p[l] == ppa,
		      "ppa %llu -> lpn %u not mapped back", (unsigned long long)ppa, l);
		CHECK(ppa % ftl->pages_per_block < blk->write_ptr,
		      "ppa %llu valid beyond its block's write pointer",
		      (unsigned long long)ppa);
	}
	CHECK(mapped == ftl->valid_pages, "valid_pages %llu but %llu mapped",
	      (unsigned long long)ftl->valid_pages, (unsigned long long)mapped);
	CHECK(ftl->flash->data_pages == mapped, "flash holds %llu pages, %llu mapped",
	      (unsigned long long)ftl->flash->data_pages, (unsigned long long)mapped);
	return 0;
}

static bool is_write_point(const struct ftl *ftl, u32 block)
{
	u32 chip;

	if (block == ftl->gc_block)
		return true;
	for (chip = 0; chip < ftl->chips; chip++)
		if (ftl->chip[chip].host_block == block)
			return true;
	return false;
}

static bool in_bucket(const struct ftl *ftl, u32 block)
{
	u32 b;

	for (b = ftl->bucket_head[ftl->blocks[block].valid_pages]; b != FTL_NONE;
	     b = ftl->blocks[b].next)
		if (b == block)
			return true;
	return false;
}

static int check_blocks(const struct ftl *ftl)
{
	u32 block, nr_free = 0, nr_open = 0, nr_full = 0, nr_bucketed = 0, v;

	for (block = 0; block < ftl->total_blocks; block++) {
		const struct ftl_block *blk = &ftl->blocks[block];
		u32 first = block * ftl->pages_per_block, i, valid = 0;

		for (i = 0; i < ftl->pages_per_block; i++)
			valid += ftl->p2l[first + i] != FTL_NONE;
		CHECK(valid == blk->valid_pages, "block %u: valid_pages %u, p2l says %u",
		      block, blk->valid_pages, valid);
		switch (blk->state) {
		case FTL_BLOCK_FREE:
			CHECK(valid == 0, "free block %u has valid pages", block);
			nr_free++;
			break;
		case FTL_BLOCK_OPEN:
			CHECK(is_write_point(ftl, block), "open block %u has no write point",
			      block);
			CHECK(blk->write_ptr < ftl->pages_per_block,
			      "open block %u is full", block);
			nr_open++;
			break;
		case FTL_BLOCK_FULL:
			CHECK(blk->write_ptr == ftl->pages_per_block,
			      "full block %u has write_ptr %u", block, blk->write_ptr);
			CHECK(in_bucket(ftl, block), "full block %u not in bucket %u",
			      block, blk->valid_pages);
			nr_full++;
			break;
		default:
			CHECK(0, "block %u in unknown state %u", block, blk->state);
		}
	}
	for (v = 0; v <= ftl->pages_per_block; v++) {
		u32 b;

		for (b = ftl->bucket_head[v]; b != FTL_NONE; b = ftl->blocks[b].next) {
			CHECK(ftl->blocks[b].state == FTL_BLOCK_FULL &&
			      ftl->blocks[b].valid_pages == v,
			      "bucket %u holds block %u (state %u, valid %u)", v, b,
			      ftl->blocks[b].state, ftl->blocks[b].valid_pages);
			CHECK(++nr_bucketed <= nr_full, "bucket lists loop");
		}
	}
	CHECK(nr_bucketed == nr_full, "%u full blocks, %u in buckets", nr_full,
	      nr_bucketed);
	CHECK(nr_free == ftl->nr_free_blocks, "%u free blocks, counter says %u",
	      nr_free, ftl->nr_free_blocks);
	CHECK(nr_free + nr_open + nr_full == ftl->total_blocks,
	      "free %u + open %u + full %u != %u blocks", nr_free, nr_open, nr_full,
	      ftl->total_blocks);
	return 0;
}

static int check_free_heaps(const struct ftl *ftl)
{
	u32 chip, total = 0;

	for (chip = 0; chip < ftl->chips; chip++) {
		const struct ftl_chip *c = &ftl->chip[chip];
		u32 i;

		for (i = 0; i < c->nr_free; i++) {
			u32 block = c->free_heap[i];

			CHECK(block / ftl->blocks_per_chip == chip,
			      "chip %u heap holds block %u of another chip", chip, block);
			CHECK(ftl->blocks[block].state == FTL_BLOCK_FREE,
			      "chip %u heap holds non-free block %u", chip, block);
			if (i > 0) {
				u32 parent = c->free_heap[(i - 1) / 2];

				CHECK(ftl->blocks[parent].erase_count <=
				      ftl->blocks[block].erase_count,
				      "chip %u heap order broken at %u", chip, i);
			}
		}
		total += c->nr_free;
	}
	CHECK(total == ftl->nr_free_blocks, "heaps hold %u blocks, counter says %u",
	      total, ftl->nr_free_blocks);
	return 0;
}

int ftl_check(const struct ftl *ftl)
{
	int ret;

	ret = check_maps(ftl);
	if (!ret)
		ret = check_blocks(ftl);
	if (!ret)
		ret = check_free_heaps(ftl);
	return ret;
}

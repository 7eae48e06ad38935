// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_alloc.c - block bookkeeping, per region: the per-chip heaps of free
 * blocks (the block with the fewest erases comes out first, which is the
 * FTL's wear levelling), the buckets of full blocks by valid-page count (so
 * greedy GC finds its victim in O(pages_per_block)), and taking the next
 * page of an open block.
 */
#include "ftl/ftl_internal.h"

/* Heap order: fewer erases first, then lower block number (deterministic). */
static bool heap_less(const struct ftl *ftl, u32 a, u32 b)
{
	u32 ea = ftl->blocks[a].erase_count, eb = ftl->blocks[b].erase_count;

	return ea < eb || (ea == eb && a < b);
}

static void heap_swap(u32 *heap, u32 i, u32 j)
{
	u32 tmp = heap[i];

	heap[i] = heap[j];
	heap[j] = tmp;
}

void ssd_ftl_free_push(struct ftl *ftl, u32 block)
{
	struct ftl_region *rg = ftl_region_of(ftl, block);
	struct ftl_chip *chip = &rg->chip[ftl_chip_of(ftl, block)];
	u32 i = chip->nr_free++;

	chip->free_heap[i] = block;
	while (i > 0) {
		u32 parent = (i - 1) / 2;

		if (!heap_less(ftl, chip->free_heap[i], chip->free_heap[parent]))
			break;
		heap_swap(chip->free_heap, i, parent);
		i = parent;
	}
	ftl->blocks[block].state = FTL_BLOCK_FREE;
	rg->nr_free++;
}

/* Remove and return the least-erased free block of @rg on @chip_index, or FTL_NONE. */
u32 ssd_ftl_free_pop(struct ftl *ftl, struct ftl_region *rg, u32 chip_index)
{
	struct ftl_chip *chip = &rg->chip[chip_index];
	u32 *heap = chip->free_heap;
	u32 top, i = 0;

	if (!chip->nr_free)
		return FTL_NONE;
	top = heap[0];
	heap[0] = heap[--chip->nr_free];
	for (;;) {
		u32 left = 2 * i + 1, right = left + 1, least = i;

		if (left < chip->nr_free && heap_less(ftl, heap[left], heap[least]))
			least = left;
		if (right < chip->nr_free && heap_less(ftl, heap[right], heap[least]))
			least = right;
		if (least == i)
			break;
		heap_swap(heap, i, least);
		i = least;
	}
	ftl->blocks[top].state = FTL_BLOCK_OPEN;
	ftl->blocks[top].write_ptr = 0;
	rg->nr_free--;
	return top;
}

void ssd_ftl_bucket_insert(struct ftl *ftl, u32 block)
{
	struct ftl_block *blk = &ftl->blocks[block];
	u32 *head = &ftl_region_of(ftl, block)->bucket_head[blk->valid_pages];

	blk->prev = FTL_NONE;
	blk->next = *head;
	if (*head != FTL_NONE)
		ftl->blocks[*head].prev = block;
	*head = block;
}

void ssd_ftl_bucket_remove(struct ftl *ftl, u32 block)
{
	struct ftl_block *blk = &ftl->blocks[block];

	if (blk->prev != FTL_NONE)
		ftl->blocks[blk->prev].next = blk->next;
	else
		ftl_region_of(ftl, block)->bucket_head[blk->valid_pages] = blk->next;
	if (blk->next != FTL_NONE)
		ftl->blocks[blk->next].prev = blk->prev;
	blk->prev = FTL_NONE;
	blk->next = FTL_NONE;
}

/*
 * Take the next page of OPEN @block for a page about to become valid.  The
 * block turns FULL, and a GC candidate, when its last page is taken.
 */
u32 ssd_ftl_take_page(struct ftl *ftl, u32 block)
{
	struct ftl_region *rg = ftl_region_of(ftl, block);
	struct ftl_block *blk = &ftl->blocks[block];
	u32 ppa = block * ftl->pages_per_block + blk->write_ptr++;

	blk->valid_pages++;
	blk->last_program_seq = ++ftl->program_seq;
	rg->valid_pages++;
	if (blk->write_ptr == rg->pages_per_block) {
		blk->state = FTL_BLOCK_FULL;
		ssd_ftl_bucket_insert(ftl, block);
	}
	return ppa;
}

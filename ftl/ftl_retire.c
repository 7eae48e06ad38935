// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_retire.c - bad blocks of the page-mapped main region: factory bad
 * blocks (drawn from bad_block_ppm with the faults' PRNG, or given as a
 * list before first use), grown bad blocks (a program or an erase the
 * flash says failed, flash/flash_wear.c), their retirement, the spare
 * blocks left, and the end-of-life read-only state.
 *
 * A BAD block is in no free heap, no bucket and no write point, holds no
 * valid page, and is never erased or programmed again.  A failed program
 * of a host page: the page holds nothing, the block is retired at once
 * (its valid pages move to the GC write points, cause GC, counted in
 * retire_relocated_pages) and the host page goes to the next page the
 * write point gives.  A failed erase: the block, already empty, is
 * retired instead of going back to the free heap.  GC's own copies never
 * fail (a simplification: only host programs and erases draw).
 *
 * Spares: the main region must hold the logical space with GC working,
 * which needs good_needed good blocks (ssd_region_valid_max() of them at
 * least logical_pages).  The good blocks beyond that are the spares.
 * When a retirement leaves fewer good blocks than that, or GC runs out of
 * free blocks after retirements, the device turns read-only
 * (ssd_flash_set_read_only()): the data already moved stays readable,
 * every later write and TRIM is refused.  Nothing acknowledged is lost:
 * a retired block's valid pages are moved before it is counted bad, and
 * the host write that finds the end of life fails before it maps anything.
 *
 * The SLC cache region never fails (its blocks run in SLC mode, far below
 * their limit), and the other schemes are refused with the fault keys on
 * (ftl_layer.c).  With the faults off nothing here changes any state.
 */
#include "ftl/ftl_internal.h"

/* Mixed into fault_seed: the factory bad blocks' own stream. */
#define FTL_BAD_SEED_MIX	0x464143544f525942ULL

/* The fewest good blocks @rg needs for the logical space with GC working. */
static u32 good_needed(const struct ftl *ftl, const struct ftl_region *rg)
{
	return (u32)div_u64(ftl->logical_pages + rg->pages_per_block, rg->pages_per_block) +
	       rg->low_free_blocks + 2 * ftl->chips - 1;
}

u32 ssd_ftl_spare_blocks(const struct ftl *ftl)
{
	const struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 good = rg->nr_blocks - rg->bad_blocks;

	return good > rg->good_needed ? good - rg->good_needed : 0;
}

/* After a block of the main region turned bad: its room, and maybe the end. */
static void region_update(struct ftl *ftl)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 good = rg->nr_blocks - rg->bad_blocks;

	rg->valid_max = ssd_region_valid_max(good, rg->low_free_blocks, ftl->chips,
					     rg->pages_per_block);
	if (good < rg->good_needed && !ftl_read_only(ftl)) {
		ssd_flash_set_read_only(ftl->flash);
		ssd_dev_err(ftl->flash->dev_name, "end of life: read-only (%u of %u blocks bad, %u good needed)",
			    rg->bad_blocks, rg->nr_blocks, rg->good_needed);
	}
}

/* Put every FREE block of @rg back in its chip's heap, in block order. */
static void rebuild_heaps(struct ftl *ftl, struct ftl_region *rg)
{
	u32 chip, i;

	for (chip = 0; chip < ftl->chips; chip++)
		rg->chip[chip].nr_free = 0;
	rg->nr_free = 0;
	for (i = 0; i < rg->nr_blocks; i++) {
		u32 block = ssd_ftl_region_block(ftl, rg, i);

		if (ftl->blocks[block].state == FTL_BLOCK_FREE)
			ssd_ftl_free_push(ftl, block);
	}
}

static void mark_bad(struct ftl *ftl, u32 block)
{
	ftl->blocks[block].state = FTL_BLOCK_BAD;
	ftl_region_of(ftl, block)->bad_blocks++;
}

/* The factory bad blocks are known: the spares, and read-only if none. */
static void factory_done(struct ftl *ftl)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];

	rebuild_heaps(ftl, rg);
	ftl->faults.bad_factory = rg->bad_blocks;
	ftl->faults.spare_initial = ssd_ftl_spare_blocks(ftl);
	region_update(ftl);
}

int ssd_ftl_faults_init(struct ftl *ftl, const struct ssd_config *cfg)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	struct ssd_rand rand;
	u32 i;

	if (!rg->nr_blocks)
		return 0;
	rg->good_needed = good_needed(ftl, rg);
	ftl->faults.spare_initial = ssd_ftl_spare_blocks(ftl);
	if (!cfg || (!cfg->bad_block_ppm && !cfg->grown_bad_ppm))
		return 0;
	ftl->faults.on = true;
	ssd_rand_seed(&rand, cfg->fault_seed ^ FTL_BAD_SEED_MIX);
	for (i = 0; i < rg->nr_blocks && cfg->bad_block_ppm; i++)
		if (ssd_rand_ppm(&rand, cfg->bad_block_ppm))
			mark_bad(ftl, ssd_ftl_region_block(ftl, rg, i));
	factory_done(ftl);
	return 0;
}

int ssd_ftl_mark_bad_blocks(struct ftl *ftl, const u32 *blocks, u32 nr)
{
	const char *name = ftl->flash->dev_name;
	u32 i;

	if (ftl->scheme != &ssd_ftl_scheme_page) {
		ssd_dev_err(name, "bad_blocks refused with ftl_type=%s: bad blocks need the page scheme",
			    ftl->scheme->name);
		return -EINVAL;
	}
	if (ftl->program_seq || ftl->region[SSD_REGION_MAIN].erase_total ||
	    ftl->region[SSD_REGION_CACHE].erase_total) {
		ssd_dev_err(name, "bad_blocks refused: the device has been used");
		return -EINVAL;
	}
	for (i = 0; i < nr; i++) {
		if (blocks[i] >= ftl->total_blocks ||
		    ftl->blocks[blocks[i]].region != SSD_REGION_MAIN) {
			ssd_dev_err(name, "bad_blocks: block %u refused: accepted are the main (TLC) region's blocks of 0..%u (chip * blocks_per_chip + block, block >= slc_blocks_per_chip)",
				    blocks[i], ftl->total_blocks - 1);
			return -EINVAL;
		}
	}
	for (i = 0; i < nr; i++)
		if (ftl->blocks[blocks[i]].state != FTL_BLOCK_BAD)
			mark_bad(ftl, blocks[i]);
	if (nr)
		ftl->faults.on = true;
	factory_done(ftl);
	return 0;
}

/* Take @block off its write point or bucket: BAD from now on. */
static void detach(struct ftl *ftl, u32 block)
{
	struct ftl_region *rg = ftl_region_of(ftl, block);
	struct ftl_chip *c = &rg->chip[ftl_chip_of(ftl, block)];

	if (ftl->blocks[block].state == FTL_BLOCK_FULL)
		ssd_ftl_bucket_remove(ftl, block);
	if (c->host_block == block)
		c->host_block = FTL_NONE;
	if (c->gc_block == block)
		c->gc_block = FTL_NONE;
	ftl->blocks[block].state = FTL_BLOCK_BAD;
}

/* Move every valid page of retired @block to the GC write points, from @start_ns. */
static int relocate(struct ftl *ftl, u32 block, u64 start_ns)
{
	struct ftl_region *rg = ftl_region_of(ftl, block);
	struct ftl_block *blk = &ftl->blocks[block];
	u32 first = block * ftl->pages_per_block, i;

	for (i = 0; i < rg->pages_per_block && blk->valid_pages; i++) {
		u32 src = first + i, lpn = ftl->p2l[src], dst;
		u64 done_ns;

		if (lpn == FTL_NONE)
			continue;
		dst = ssd_ftl_gc_alloc_page(ftl, rg, ftl_chip_of(ftl, block));
		if (dst == FTL_NONE)
			return -EROFS;
		if (ftl_gc_copy_page(ftl, rg, blk, src, dst, start_ns, &done_ns))
			return -EIO;
		ftl->faults.retire_relocated_pages++;
	}
	return 0;
}

int ssd_ftl_host_program_fails(struct ftl *ftl, u32 ppa, u64 *start_ns)
{
	u32 block = ftl_block_of_ppa(ftl, ppa);
	struct ftl_block *blk = &ftl->blocks[block];
	struct ftl_region *rg = ftl_region_of(ftl, block);
	u64 failed_ns;
	int ret;

	if (!ftl->faults.on || blk->region != SSD_REGION_MAIN ||
	    !ssd_flash_program_fails(ftl->flash, ppa, blk->erase_count, *start_ns, &failed_ns))
		return 0;
	detach(ftl, block);
	/* The page holds nothing: give back what ssd_ftl_take_page() counted. */
	blk->valid_pages--;
	rg->valid_pages--;
	*start_ns = failed_ns;
	ret = relocate(ftl, block, failed_ns);
	rg->bad_blocks++;
	ftl->faults.bad_grown++;
	region_update(ftl);
	if (ret == -EROFS && !ftl_read_only(ftl)) {
		ssd_flash_set_read_only(ftl->flash);
		ssd_dev_err(ftl->flash->dev_name, "end of life: read-only (no free block to retire block %u into)",
			    block);
	}
	if (ret)
		return ret;
	return ftl_read_only(ftl) ? -EROFS : 1;
}

bool ssd_ftl_erase_retires(struct ftl *ftl, u32 block)
{
	struct ftl_block *blk = &ftl->blocks[block];

	if (!ftl->faults.on || blk->region != SSD_REGION_MAIN ||
	    !ssd_flash_erase_fails(ftl->flash, blk->erase_count))
		return false;
	blk->state = FTL_BLOCK_BAD;
	ftl_region_of(ftl, block)->bad_blocks++;
	ftl->faults.bad_grown++;
	region_update(ftl);
	return true;
}

/*
 * The snapshot tail, written only when the faults are on (so a device
 * without them saves the same bytes as before): the counters and the
 * flash's wear state.  BAD blocks are in the block states already.
 */
void ssd_ftl_faults_save(const struct ftl *ftl, struct ssd_snap_writer *w)
{
	if (!ftl->faults.on)
		return;
	ssd_snap_put_u32(w, ftl->faults.bad_factory);
	ssd_snap_put_u32(w, ftl->faults.bad_grown);
	ssd_snap_put_u32(w, ftl->faults.spare_initial);
	ssd_snap_put_u64(w, ftl->faults.retire_relocated_pages);
	ssd_flash_wear_save(ftl->flash, w);
}

void ssd_ftl_faults_load(struct ftl *ftl, struct ssd_snap_reader *r)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 bad = 0, i;

	if (r->error)
		return;
	for (i = 0; i < ftl->total_blocks; i++)
		bad += ftl->blocks[i].state == FTL_BLOCK_BAD;
	rg->bad_blocks = bad;
	if (!r->section_left) {
		/* Saved without faults: none happened, whatever this device's keys. */
		if (bad)
			ssd_snap_refuse(r, "FTL: %u bad blocks but no fault state", bad);
		ftl->faults.bad_factory = 0;
		ftl->faults.bad_grown = 0;
		ftl->faults.spare_initial = ssd_ftl_spare_blocks(ftl);
		if (rg->nr_blocks)
			rg->valid_max = ssd_region_valid_max(rg->nr_blocks, rg->low_free_blocks,
							     ftl->chips, rg->pages_per_block);
		return;
	}
	ftl->faults.on = true;
	ftl->faults.bad_factory = ssd_snap_get_u32(r);
	ftl->faults.bad_grown = ssd_snap_get_u32(r);
	ftl->faults.spare_initial = ssd_snap_get_u32(r);
	ftl->faults.retire_relocated_pages = ssd_snap_get_u64(r);
	ssd_flash_wear_load(ftl->flash, r);
	if (!r->error && (u64)ftl->faults.bad_factory + ftl->faults.bad_grown != bad)
		ssd_snap_refuse(r, "FTL: %u bad blocks, fault state says %u + %u", bad,
				ftl->faults.bad_factory, ftl->faults.bad_grown);
	if (!r->error)
		rg->valid_max = ssd_region_valid_max(rg->nr_blocks - bad, rg->low_free_blocks,
						     ftl->chips, rg->pages_per_block);
}

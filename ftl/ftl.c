// SPDX-License-Identifier: GPL-2.0
/*
 * ftl.c - the FTL's lifetime and its host-facing operations: write (the
 * host write point's round robin over chips, the GC step before it and the
 * blocking run at the hard floor), read, TRIM, and the erase-count and
 * memory figures the statistics report.  A main-region write goes to the
 * mapping scheme's write op when it has one (ftl_type; ftl_scheme.c).
 */
#include "ftl/ftl_internal.h"

int ssd_ftl_init(struct ftl *ftl, struct flash *flash, const struct ftl_params *params)
{
	const struct flash_geometry *geo = &flash->geo;
	int ret;

	memset(ftl, 0, sizeof(*ftl));
	ftl->flash = flash;
	ftl->gc_policy = params->gc_policy;
	ftl->scheme = params->scheme ? params->scheme : &ssd_ftl_scheme_page;
	ftl->logical_pages = params->logical_pages;
	ftl->gc_pages_per_write = params->gc_pages_per_write;
	ftl->gc_background_free_blocks = params->gc_background_free_blocks;
	ftl->read_unwritten_flash = params->read_unwritten_flash;
	ftl->wl_static_threshold = params->wl_static_threshold;
	ftl->pages_per_block = geo->pages_per_block;
	/* pages_per_block > 1 (validated): a power of two shifts. */
	if (!(geo->pages_per_block & (geo->pages_per_block - 1)))
		while ((1U << ftl->ppb_shift) < geo->pages_per_block)
			ftl->ppb_shift++;
	ftl->blocks_per_chip = geo->blocks_per_chip;
	ftl->chips = geo->chips;
	ftl->total_blocks = flash->total_blocks;

	ftl->l2p = ssd_zalloc(ftl->logical_pages * sizeof(u32));
	ftl->p2l = ssd_zalloc(flash->total_pages * sizeof(u32));
	ftl->blocks = ssd_zalloc((u64)ftl->total_blocks * sizeof(*ftl->blocks));
	if (!ftl->l2p || !ftl->p2l || !ftl->blocks) {
		ret = -ENOMEM;
		goto fail;
	}
	/* 0xff bytes make every entry FTL_NONE. */
	memset(ftl->l2p, 0xff, ftl->logical_pages * sizeof(u32));
	memset(ftl->p2l, 0xff, flash->total_pages * sizeof(u32));
	ret = ssd_ftl_regions_init(ftl, params);
	if (!ret)
		ret = ssd_ftl_faults_init(ftl, params->cfg);
	if (!ret && ftl->scheme->init)
		ret = ftl->scheme->init(ftl, params->cfg);
	if (ret)
		goto fail;
	return 0;
fail:
	ssd_ftl_exit(ftl);
	return ret;
}

void ssd_ftl_exit(struct ftl *ftl)
{
	if (ftl->scheme && ftl->scheme->exit)
		ftl->scheme->exit(ftl);
	ssd_ftl_regions_exit(ftl);
	ssd_free(ftl->blocks);
	ssd_free(ftl->p2l);
	ssd_free(ftl->l2p);
	ftl->blocks = NULL;
	ftl->p2l = NULL;
	ftl->l2p = NULL;
}

void ssd_ftl_invalidate_page(struct ftl *ftl, u32 ppa)
{
	u32 block = ftl_block_of_ppa(ftl, ppa);
	struct ftl_block *blk = &ftl->blocks[block];
	bool full = blk->state == FTL_BLOCK_FULL;

	ftl->p2l[ppa] = FTL_NONE;
	if (full)
		ssd_ftl_bucket_remove(ftl, block);
	blk->valid_pages--;
	if (full)
		ssd_ftl_bucket_insert(ftl, block);
	ftl_region_of(ftl, block)->valid_pages--;
	ssd_flash_invalidate(ftl->flash, ppa);
}

/*
 * The host write point of @rg: one open block per chip, used round robin
 * from the region's cursor, so consecutive pages stripe over all chips
 * (and channels: chip c is on channel c % channels) whatever the timing.
 * A chip with neither an open host block nor a free block is skipped.  A
 * block is opened only while more than FTL_GC_RESERVED_BLOCKS of the
 * region are free; at that hard floor GC first runs until one more is.
 */
static u32 host_alloc_page(struct ftl *ftl, struct ftl_region *rg, u64 now_ns)
{
	u32 tries;

	for (tries = 0; tries < ftl->chips; tries++) {
		u32 chip = rg->host_cursor;
		struct ftl_chip *c = &rg->chip[chip];
		u32 ppa;

		rg->host_cursor = ftl_next_chip(ftl, chip);
		if (c->host_block == FTL_NONE) {
			if (!c->nr_free)
				continue;
			if (rg->nr_free <= FTL_GC_RESERVED_BLOCKS &&
			    ssd_ftl_gc_until_free(ftl, rg, FTL_GC_RESERVED_BLOCKS + 1, now_ns))
				break;
			/* GC may have taken this chip's last free block. */
			if (!c->nr_free)
				continue;
			c->host_block = ssd_ftl_free_pop(ftl, rg, chip);
		}
		ppa = ssd_ftl_take_page(ftl, c->host_block);
		if (ftl->blocks[c->host_block].state == FTL_BLOCK_FULL)
			c->host_block = FTL_NONE;
		return ppa;
	}
	return FTL_NONE;
}

u32 ssd_ftl_next_host_chip(const struct ftl *ftl, const struct ftl_region *rg)
{
	u32 tries;

	for (tries = 0; tries < ftl->chips; tries++) {
		u32 chip = (rg->host_cursor + tries) % ftl->chips;

		if (rg->chip[chip].host_block != FTL_NONE || rg->chip[chip].nr_free)
			return chip;
	}
	return FTL_NONE;
}

/* Whether writing @lpn into @rg would leave it more valid pages than GC can live with. */
static bool region_full(const struct ftl *ftl, const struct ftl_region *rg, u64 lpn)
{
	u32 old = ftl->l2p[lpn];
	bool here = old != FTL_NONE &&
		    &ftl->region[ftl->blocks[ftl_block_of_ppa(ftl, old)].region] == rg;

	return rg->valid_pages + 1 - here > rg->valid_max;
}

/* The GC work the current host page write did, in the per-write counters. */
static void count_gc_work(struct ftl *ftl)
{
	if (ftl->gc_write_work)
		ftl->counters.gc_foreground_runs++;
	ftl->counters.gc_write_pages_max = max_t(u64, ftl->counters.gc_write_pages_max,
						 ftl->gc_write_pages);
}

int ssd_ftl_write(struct ftl *ftl, u64 lpn, void *buf, enum ssd_region region,
	      enum ssd_cause cause, u64 start_ns, u64 *done_ns)
{
	struct ftl_region *rg;
	u64 map_done_ns = start_ns;
	u32 ppa, old;
	int ret;

	*done_ns = start_ns;
	if (region >= SSD_REGION_NR || !ftl->region[region].nr_blocks)
		return -EINVAL;
	if (ftl_read_only(ftl)) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EROFS;
	}
	rg = &ftl->region[region];
	if (region_full(ftl, rg, lpn))
		return -ENOSPC;
	if (region == SSD_REGION_MAIN && ftl->scheme->write)
		return ftl->scheme->write(ftl, lpn, buf, cause, start_ns, done_ns);
	ftl->gc_write_pages = 0;
	ftl->gc_write_work = false;
	ret = ssd_ftl_gc_step(ftl, rg, start_ns);
	if (!ret)
		ret = ssd_ftl_wear_step(ftl, rg, start_ns);
	ppa = ret ? FTL_NONE : host_alloc_page(ftl, rg, start_ns);
	/* A failed program retires its block: the page goes to the next one. */
	while (ppa != FTL_NONE && ftl->faults.on) {
		ret = ssd_ftl_host_program_fails(ftl, ppa, &start_ns);
		if (ret <= 0)
			break;
		ret = 0;
		ppa = host_alloc_page(ftl, rg, start_ns);
	}
	if (ftl_read_only(ftl) && (ret == -EROFS || ppa == FTL_NONE)) {
		/* End of life on the way: nothing of this page was mapped. */
		count_gc_work(ftl);
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EROFS;
	}
	if (ppa == FTL_NONE) {
		count_gc_work(ftl);
		/* ftl_config_validate() makes this unreachable. */
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: no free page for lpn %llu", (unsigned long long)lpn);
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EIO;
	}
	/* Read the old mapping only now: GC may just have moved it. */
	old = ftl->l2p[lpn];
	if (old != FTL_NONE)
		ssd_ftl_invalidate_page(ftl, old);
	if (ssd_flash_program(ftl->flash, ppa, buf, cause, start_ns, done_ns))
		return -EIO;
	ftl->l2p[lpn] = ppa;
	ftl->p2l[ppa] = (u32)lpn;
	ftl->counters.host_write_pages++;
	/*
	 * A map out of RAM (dftl): the entry changes, after the program (a
	 * blocking GC run a translation page's block needs comes after this
	 * write's GC step, as at the hard floor); nothing waits for it.
	 */
	if (ftl->scheme->map_lookup && region == SSD_REGION_MAIN) {
		ftl->scheme->map_lookup(ftl, lpn, true, start_ns, &map_done_ns);
		*done_ns = max_t(u64, *done_ns, map_done_ns);
	}
	count_gc_work(ftl);
	return 0;
}

/* Whether @lpn's mapping is the main region's (DFTL looks it up): not in the SLC region. */
static bool main_mapped(const struct ftl *ftl, u64 lpn)
{
	u32 ppa = ftl->l2p[lpn];

	return ppa == FTL_NONE ||
	       ftl->blocks[ftl_block_of_ppa(ftl, ppa)].region == SSD_REGION_MAIN;
}

const void *ssd_ftl_read(struct ftl *ftl, u64 lpn, enum ssd_cause cause,
		     u64 start_ns, u64 *done_ns, int *status)
{
	u64 map_done_ns = start_ns;
	const void *data;
	u32 ppa;

	*status = 0;
	/* A map out of RAM (dftl): the read waits for its entry. */
	if (ftl->scheme->map_lookup && main_mapped(ftl, lpn))
		start_ns = ftl->scheme->map_lookup(ftl, lpn, false, start_ns, &map_done_ns);
	ppa = ftl->l2p[lpn];
	*done_ns = start_ns;
	if (ppa != FTL_NONE) {
		*status = ssd_flash_read_checked(ftl->flash, ppa, cause, start_ns, done_ns, &data);
		*done_ns = max_t(u64, *done_ns, map_done_ns);
		return data;
	}
	/*
	 * The page round-robin placement would have given it when written in
	 * order: chip lpn % chips, page type by its place in the stripe.
	 */
	if (ftl->read_unwritten_flash)
		*done_ns = ssd_flash_read_blank(ftl->flash, lpn % ftl->chips,
					    (lpn / ftl->chips) % FLASH_PAGE_NR, cause,
					    start_ns);
	*done_ns = max_t(u64, *done_ns, map_done_ns);
	return NULL;
}

void ssd_ftl_trim(struct ftl *ftl, u64 lpn, u64 start_ns)
{
	u32 ppa = ftl->l2p[lpn];
	u64 map_done_ns;

	if (ppa == FTL_NONE)
		return;
	/* A map out of RAM (dftl): the entry turns unmapped; TRIM waits for nothing. */
	if (ftl->scheme->map_lookup && main_mapped(ftl, lpn)) {
		ftl->scheme->map_lookup(ftl, lpn, true, start_ns, &map_done_ns);
		ppa = ftl->l2p[lpn];
	}
	ssd_ftl_invalidate_page(ftl, ppa);
	ftl->l2p[lpn] = FTL_NONE;
	ftl->counters.host_trim_pages++;
}

void ssd_ftl_erase_stats(const struct ftl *ftl, u64 *min, u64 *max, u64 *total)
{
	u32 block;

	*min = U64_MAX;
	*max = 0;
	*total = 0;
	for (block = 0; block < ftl->total_blocks; block++) {
		u64 erases = ftl->blocks[block].erase_count;

		*min = min_t(u64, *min, erases);
		*max = max_t(u64, *max, erases);
		*total += erases;
	}
	if (!ftl->total_blocks)
		*min = 0;
}

u64 ssd_ftl_metadata_bytes(const struct ftl *ftl)
{
	return ftl->logical_pages * sizeof(u32) +
	       ftl->flash->total_pages * sizeof(u32) +
	       (u64)ftl->total_blocks * sizeof(struct ftl_block) +
	       ssd_ftl_regions_metadata_bytes(ftl) +
	       (ftl->scheme->table_bytes ? ftl->scheme->table_bytes(ftl) : 0);
}

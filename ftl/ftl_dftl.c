// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_dftl.c - DFTL (Gupta, Kim, Urgaonkar, ASPLOS 2009): the main
 * region's page map kept on flash in translation pages, a cached mapping
 * table (CMT) of dftl_cmt_entries entries in controller RAM, and the
 * global translation directory (GTD) saying where each translation page
 * is.  Data placement and data GC are the page FTL's (ftl.c, ftl_gc.c);
 * this file adds what the map costs.
 *
 * - Every main-region map lookup goes through the CMT: a host read of a
 *   page not in the SLC region (or never written), a host or destage write
 *   into the main region, a TRIM of a main-region page.  A hit moves the
 *   entry to the head of the LRU list.  A miss takes a free slot or evicts
 *   the LRU entry; a dirty victim's translation page is written back
 *   (read-modify-write: read the old copy if there is one, program the
 *   new one), and every other dirty entry of that page is cleaned with it
 *   (Gupta's batching).  The missing entry's translation page is then read
 *   - unless it was never written, when every entry in it is unmapped and
 *   the GTD alone says so.  A write or TRIM makes the entry dirty.
 * - Data GC moving a page updates its cached entry (dirty, the LRU order
 *   kept); an entry not cached has its translation page marked pending,
 *   and pending pages are written back (read-modify-write) at the start of
 *   the next lookup, outside GC, so translation writes never run inside
 *   data GC (they may need a block, and that may need data GC).
 * - Translation pages live in translation blocks: main-region blocks taken
 *   from the free heaps (the chip with the most free blocks) and marked
 *   FTL_BLOCK_TRANSLATION, filled one at a time.  When the open one is
 *   full and tblock_limit blocks exist, translation GC copies the valid
 *   pages of the one with the fewest into a new block (reads and programs,
 *   cause map, dftl_translation_gc_pages) and erases it (a GC victim in
 *   gc_victim_blocks).  tblock_limit leaves two blocks beyond what all
 *   translation pages fill, so that block has an invalid page and the
 *   copies fit in the new block.  Taking a block first runs data GC until
 *   the region has two free blocks above the GC reserve (a blocking run).
 *   The scheme's validation keeps the data within the valid_max of the
 *   region less the peak number of translation blocks.
 * - Flash operations of the map are timed by the timing model on the chip
 *   holding the translation page, from the lookup's start; a read waits for
 *   its entry, every operation's end counts toward its command's end.
 *
 * With a CMT as large as the logical space nothing is ever evicted: every
 * translation page stays unwritten, lookups cost no flash time, and data
 * GC changes only cached entries, so every data counter and time is the
 * page FTL's (tests/unit/test_dftl.c holds this).
 */
#include "ftl/ftl_dftl.h"

static u32 entries_per_tpage_of(u32 page_size_bytes)
{
	return page_size_bytes / sizeof(u32);
}

static u64 tpages_of(u64 logical_pages, u32 entries)
{
	return div_u64(logical_pages + entries - 1, entries);
}

static u32 tblock_limit_of(u64 tpages, u32 pages_per_block)
{
	return (u32)div_u64(tpages + pages_per_block - 1, pages_per_block) + 2;
}

u64 ssd_ftl_dftl_peak_blocks(const struct ssd_config *cfg)
{
	u64 tpages = tpages_of(ssd_config_logical_pages(cfg),
			       entries_per_tpage_of(cfg->page_size_bytes));

	return tblock_limit_of(tpages, cfg->pages_per_block) + 1;
}

u64 ssd_ftl_dftl_table_bytes(u64 total, const struct ssd_config *cfg)
{
	u64 logical = ssd_config_logical_pages(cfg);
	u64 slots = min_t(u64, ssd_config_get(cfg, &ssd_key_dftl_cmt_entries), logical);
	u64 tpages = tpages_of(logical, entries_per_tpage_of(cfg->page_size_bytes));

	total = ssd_tables_add(total, 1, 1, sizeof(struct ftl_dftl));
	total = ssd_tables_add(total, 3, slots, sizeof(u32));
	total = ssd_tables_add(total, 1, slots, sizeof(u8));
	total = ssd_tables_add(total, 1, logical, sizeof(u32));
	total = ssd_tables_add(total, 2, tpages, sizeof(u32));
	total = ssd_tables_add(total, 1, tpages, sizeof(u8));
	return ssd_tables_add(total, 1, ssd_ftl_dftl_peak_blocks(cfg), sizeof(u32));
}

u64 ssd_ftl_dftl_bytes(const struct ftl *ftl)
{
	const struct ftl_dftl *d = dftl_of(ftl);

	return sizeof(*d) + (u64)d->cmt_entries * (3 * sizeof(u32) + 1) +
	       ftl->logical_pages * sizeof(u32) + (u64)d->nr_tpages * (2 * sizeof(u32) + 1) +
	       ((u64)d->tblock_limit + 1) * sizeof(u32);
}

u64 ssd_ftl_dftl_map_ram_bytes(const struct ftl *ftl)
{
	const struct ftl_dftl *d = dftl_of(ftl);

	/* An entry holds its lpn and its ppa; the GTD one ppa per translation page. */
	return (u64)d->cmt_entries * 2 * sizeof(u32) + (u64)d->nr_tpages * sizeof(u32);
}

int ssd_ftl_dftl_init(struct ftl *ftl, const struct ssd_config *cfg)
{
	struct ftl_dftl *d = ssd_zalloc(sizeof(*d));
	u64 cmt_entries = ssd_config_get(cfg, &ssd_key_dftl_cmt_entries);
	u32 i;

	if (!d)
		return -ENOMEM;
	ftl->scheme_data = d;
	d->entries_per_tpage = entries_per_tpage_of(ftl->flash->geo.page_size_bytes);
	d->nr_tpages = (u32)tpages_of(ftl->logical_pages, d->entries_per_tpage);
	d->cmt_entries = (u32)min_t(u64, cmt_entries, ftl->logical_pages);
	d->tblock_limit = tblock_limit_of(d->nr_tpages, ftl->pages_per_block);
	d->slot_lpn = ssd_zalloc((u64)d->cmt_entries * sizeof(u32));
	d->slot_prev = ssd_zalloc((u64)d->cmt_entries * sizeof(u32));
	d->slot_next = ssd_zalloc((u64)d->cmt_entries * sizeof(u32));
	d->slot_dirty = ssd_zalloc((u64)d->cmt_entries);
	d->lpn_slot = ssd_zalloc(ftl->logical_pages * sizeof(u32));
	d->gtd = ssd_zalloc((u64)d->nr_tpages * sizeof(u32));
	d->pending_list = ssd_zalloc((u64)d->nr_tpages * sizeof(u32));
	d->pending = ssd_zalloc((u64)d->nr_tpages);
	d->tblocks = ssd_zalloc(((u64)d->tblock_limit + 1) * sizeof(u32));
	if (!d->slot_lpn || !d->slot_prev || !d->slot_next || !d->slot_dirty || !d->lpn_slot ||
	    !d->gtd || !d->pending_list || !d->pending || !d->tblocks)
		return -ENOMEM;
	for (i = 0; i < d->cmt_entries; i++)
		d->slot_lpn[i] = FTL_NONE;
	memset(d->lpn_slot, 0xff, ftl->logical_pages * sizeof(u32));
	memset(d->gtd, 0xff, (u64)d->nr_tpages * sizeof(u32));
	d->lru_head = FTL_NONE;
	d->lru_tail = FTL_NONE;
	d->topen = FTL_NONE;
	return 0;
}

void ssd_ftl_dftl_exit(struct ftl *ftl)
{
	struct ftl_dftl *d = dftl_of(ftl);

	if (!d)
		return;
	ssd_free(d->slot_lpn);
	ssd_free(d->slot_prev);
	ssd_free(d->slot_next);
	ssd_free(d->slot_dirty);
	ssd_free(d->lpn_slot);
	ssd_free(d->gtd);
	ssd_free(d->pending_list);
	ssd_free(d->pending);
	ssd_free(d->tblocks);
	ssd_free(d);
	ftl->scheme_data = NULL;
}

/* Translation blocks. */

/* The chip of the main region with the most free blocks, ties from the cursor on. */
static u32 tblock_chip(struct ftl *ftl)
{
	const struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	struct ftl_dftl *d = dftl_of(ftl);
	u32 best = FTL_NONE, i;

	for (i = 0; i < ftl->chips; i++) {
		u32 chip = (d->tchip_cursor + i) % ftl->chips;

		if (best == FTL_NONE || rg->chip[chip].nr_free > rg->chip[best].nr_free)
			best = chip;
	}
	d->tchip_cursor = (d->tchip_cursor + 1) % ftl->chips;
	return best;
}

/* A fresh translation block, data GC first making room for it; or FTL_NONE. */
static u32 tblock_new(struct ftl *ftl, u64 start_ns)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	struct ftl_dftl *d = dftl_of(ftl);
	u32 block;

	if (rg->nr_free <= FTL_GC_RESERVED_BLOCKS + 1 &&
	    ssd_ftl_gc_until_free(ftl, rg, FTL_GC_RESERVED_BLOCKS + 2, start_ns))
		return FTL_NONE;
	block = ssd_ftl_free_pop(ftl, rg, tblock_chip(ftl));
	if (block == FTL_NONE)
		return FTL_NONE;
	ftl->blocks[block].state = FTL_BLOCK_TRANSLATION;
	ftl->blocks[block].valid_pages = 0;
	d->tblocks[d->nr_tblocks++] = block;
	return block;
}

static u32 tblock_take_page(struct ftl *ftl, u32 block)
{
	struct ftl_block *blk = &ftl->blocks[block];

	blk->valid_pages++;
	return block * ftl->pages_per_block + blk->write_ptr++;
}

/* The translation page at @ppa is superseded. */
static void tpage_invalidate(struct ftl *ftl, u32 ppa)
{
	ftl->blocks[ppa / ftl->pages_per_block].valid_pages--;
}

/* Program translation page @tvpn at @dst (its old copy, if any, already read). */
static int tpage_program(struct ftl *ftl, u32 tvpn, u32 dst, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);

	if (ssd_flash_program_meta(ftl->flash, dst, SSD_CAUSE_MAP, start_ns, done_ns))
		return -EIO;
	if (d->gtd[tvpn] != FTL_NONE)
		tpage_invalidate(ftl, d->gtd[tvpn]);
	d->gtd[tvpn] = dst;
	return 0;
}

/*
 * Translation GC: copy the valid pages of the translation block (other
 * than @dst_block) with the fewest into @dst_block, then erase it.
 */
static int tblock_collect(struct ftl *ftl, u32 dst_block, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 victim = FTL_NONE, vi = 0, i, tvpn;
	u64 end_ns = start_ns;

	for (i = 0; i < d->nr_tblocks; i++) {
		u32 b = d->tblocks[i];

		if (b == dst_block)
			continue;
		if (victim == FTL_NONE || ftl->blocks[b].valid_pages < ftl->blocks[victim].valid_pages) {
			victim = b;
			vi = i;
		}
	}
	if (victim == FTL_NONE)
		return 0;
	for (tvpn = 0; tvpn < d->nr_tpages && ftl->blocks[victim].valid_pages; tvpn++) {
		u64 read_ns, prog_ns;
		u32 ppa = d->gtd[tvpn];

		if (ppa == FTL_NONE || ppa / ftl->pages_per_block != victim)
			continue;
		ssd_flash_read(ftl->flash, ppa, SSD_CAUSE_MAP, start_ns, &read_ns);
		if (tpage_program(ftl, tvpn, tblock_take_page(ftl, dst_block), read_ns, &prog_ns))
			return -EIO;
		end_ns = max_t(u64, end_ns, prog_ns);
		d->counters.translation_gc_pages++;
	}
	d->tblocks[vi] = d->tblocks[--d->nr_tblocks];
	if (d->topen == victim)
		d->topen = FTL_NONE;
	end_ns = ssd_ftl_erase_block(ftl, victim, end_ns);
	/* A GC victim too: every erase is one (gc_victim_blocks == flash_erase_blocks). */
	ftl->counters.gc_victim_blocks++;
	*done_ns = max_t(u64, *done_ns, end_ns);
	return 0;
}

/* The page the next translation page goes to; *@done_ns covers translation GC. */
static u32 tpage_alloc(struct ftl *ftl, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 block;

	if (d->topen != FTL_NONE && ftl->blocks[d->topen].write_ptr < ftl->pages_per_block)
		return tblock_take_page(ftl, d->topen);
	d->topen = FTL_NONE;
	block = tblock_new(ftl, start_ns);
	if (block == FTL_NONE)
		return FTL_NONE;
	if (d->nr_tblocks > d->tblock_limit &&
	    tblock_collect(ftl, block, start_ns, done_ns))
		return FTL_NONE;
	d->topen = block;
	if (ftl->blocks[block].write_ptr >= ftl->pages_per_block)
		return FTL_NONE;
	return tblock_take_page(ftl, block);
}

/*
 * Write translation page @tvpn back from @start_ns (read-modify-write),
 * cleaning every cached entry of it and its pending mark.
 */
static int tpage_write_back(struct ftl *ftl, u32 tvpn, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u64 first = (u64)tvpn * d->entries_per_tpage, lpn, ready_ns = start_ns, prog_ns;
	u64 last = min_t(u64, first + d->entries_per_tpage, ftl->logical_pages);
	u32 dst = tpage_alloc(ftl, start_ns, done_ns);

	if (dst == FTL_NONE) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: DFTL found no page for translation page %u", tvpn);
		return -EIO;
	}
	/* Read only now: translation GC may just have moved it. */
	if (d->gtd[tvpn] != FTL_NONE) {
		ssd_flash_read(ftl->flash, d->gtd[tvpn], SSD_CAUSE_MAP, start_ns, &ready_ns);
		d->counters.translation_reads++;
	}
	if (tpage_program(ftl, tvpn, dst, ready_ns, &prog_ns))
		return -EIO;
	*done_ns = max_t(u64, *done_ns, prog_ns);
	d->counters.translation_writes++;
	if (d->pending[tvpn] == DFTL_PENDING_YES)
		d->pending[tvpn] = DFTL_PENDING_DONE;
	for (lpn = first; lpn < last; lpn++)
		if (d->lpn_slot[lpn] != FTL_NONE)
			d->slot_dirty[d->lpn_slot[lpn]] = 0;
	return 0;
}

/*
 * Write back every translation page GC left pending.  A write-back may
 * take a block and its data GC pend more: those are on the list too.
 */
static int flush_pending(struct ftl *ftl, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);

	while (d->nr_pending) {
		u32 tvpn = d->pending_list[--d->nr_pending];
		bool todo = d->pending[tvpn] == DFTL_PENDING_YES;

		/* Off the list first: GC during the write-back may put it back. */
		d->pending[tvpn] = DFTL_PENDING_NO;
		if (todo && tpage_write_back(ftl, tvpn, start_ns, done_ns))
			return -EIO;
	}
	return 0;
}

/*
 * A slot for a new entry: a free one, or the LRU entry's, its translation
 * page written back first if it is dirty (the entry stays cached until
 * then: GC running for the write-back's block may change it, and the page
 * is programmed after that).
 */
static u32 cmt_slot(struct ftl *ftl, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 slot, lpn;

	if (d->nr_used < d->cmt_entries)
		return d->nr_used++;
	slot = d->lru_tail;
	lpn = d->slot_lpn[slot];
	if (d->slot_dirty[slot] &&
	    tpage_write_back(ftl, lpn / d->entries_per_tpage, start_ns, done_ns))
		return FTL_NONE;
	ssd_slot_list_unlink(dftl_lru(d), slot);
	d->lpn_slot[lpn] = FTL_NONE;
	d->slot_lpn[slot] = FTL_NONE;
	return slot;
}

u64 ssd_ftl_dftl_lookup(struct ftl *ftl, u64 lpn, bool update, u64 start_ns, u64 *done_ns)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 slot, tvpn = (u32)div_u64(lpn, d->entries_per_tpage);
	u64 ready_ns = start_ns;

	*done_ns = start_ns;
	if (d->nr_pending && flush_pending(ftl, start_ns, done_ns))
		return start_ns;
	slot = d->lpn_slot[lpn];
	if (slot != FTL_NONE) {
		d->counters.cmt_hits++;
		ssd_slot_list_unlink(dftl_lru(d), slot);
	} else {
		d->counters.cmt_misses++;
		slot = cmt_slot(ftl, start_ns, done_ns);
		if (slot == FTL_NONE)
			return start_ns;
		if (d->gtd[tvpn] != FTL_NONE) {
			ssd_flash_read(ftl->flash, d->gtd[tvpn], SSD_CAUSE_MAP, start_ns, &ready_ns);
			d->counters.translation_reads++;
		}
		d->slot_lpn[slot] = (u32)lpn;
		d->slot_dirty[slot] = 0;
		d->lpn_slot[lpn] = slot;
	}
	ssd_slot_list_add_head(dftl_lru(d), slot);
	if (update)
		d->slot_dirty[slot] = 1;
	*done_ns = max_t(u64, *done_ns, ready_ns);
	return ready_ns;
}

void ssd_ftl_dftl_gc_update(struct ftl *ftl, u64 lpn)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 slot = d->lpn_slot[lpn], tvpn;

	if (slot != FTL_NONE) {
		d->slot_dirty[slot] = 1;
		return;
	}
	tvpn = (u32)div_u64(lpn, d->entries_per_tpage);
	if (d->pending[tvpn] == DFTL_PENDING_NO)
		d->pending_list[d->nr_pending++] = tvpn;
	d->pending[tvpn] = DFTL_PENDING_YES;
}

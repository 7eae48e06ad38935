// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_logblock.c - the block-mapped schemes' shared machinery (see
 * ftl_logblock.h): their configuration checks, tables and RAM figures,
 * taking and erasing blocks, programming a page at its offset and the
 * log-block slots.  The merges and static wear levelling are in
 * ftl_logblock_merge.c.
 */
#include "ftl/ftl_logblock.h"

static const char *const lb_type_name[] = { "block", "bast", "fast" };

static const struct ssd_config_key ftl_log_blocks =
	SSD_CONFIG_KEY(ftl_log_blocks, 0, 0, 1048576, 0, NULL,
		       "bast, fast: log blocks in the main region; 0 = every spare block but the GC reserve");

/* The keys bast and fast own (both list this). */
const struct ssd_config_key *const ssd_ftl_lb_keys[] = { &ftl_log_blocks, NULL };

/* The block-mapped scheme @cfg's ftl_type names. */
static enum ftl_lb_type lb_type_of(const struct ssd_config *cfg)
{
	const struct ftl_scheme *scheme = ssd_ftl_scheme_of(cfg->ftl_type);

	if (scheme == &ssd_ftl_scheme_bast)
		return FTL_LB_BAST;
	return scheme == &ssd_ftl_scheme_fast ? FTL_LB_FAST : FTL_LB_BLOCK;
}

/* Log blocks the scheme needs at least (fast: one SW and one RW). */
static u32 lb_min_slots(enum ftl_lb_type type)
{
	return type == FTL_LB_BLOCK ? 0 : type == FTL_LB_BAST ? 1 : 2;
}

static u64 lb_main_blocks(const struct ssd_config *cfg)
{
	return cfg->chips * (cfg->blocks_per_chip - cfg->slc_blocks_per_chip);
}

static u64 lb_cfg_nr_lbn(const struct ssd_config *cfg)
{
	return ftl_lb_nr_lbn(ssd_config_logical_pages(cfg), cfg->pages_per_block);
}

/* Log blocks @cfg gives (0: every spare block but the reserve); validated. */
static u64 lb_cfg_slots(const struct ssd_config *cfg, enum ftl_lb_type type)
{
	u64 log_blocks = ssd_config_get(cfg, &ftl_log_blocks);

	if (type == FTL_LB_BLOCK)
		return 0;
	if (log_blocks)
		return log_blocks;
	return lb_main_blocks(cfg) - lb_cfg_nr_lbn(cfg) - FTL_GC_RESERVED_BLOCKS;
}

/*
 * Every logical block may hold a data block and every log slot a block;
 * FTL_GC_RESERVED_BLOCKS more stay free, so a merge (which takes its new
 * block before it erases the old ones) or a migration always finds one.
 */
int ftl_lb_validate(const struct ssd_config *cfg)
{
	enum ftl_lb_type type = lb_type_of(cfg);
	u64 main_blocks = lb_main_blocks(cfg), nr_lbn = lb_cfg_nr_lbn(cfg);
	u64 need = nr_lbn + FTL_GC_RESERVED_BLOCKS + lb_min_slots(type), most;
	u64 log_blocks = ssd_config_get(cfg, &ftl_log_blocks);

	if (main_blocks < need) {
		ssd_dev_err(cfg->name, "op_percent=%llu refused: ftl_type=%s needs %llu blocks in the main region (%llu logical blocks, %u reserved, %u log blocks), it has %llu (raise op_percent or blocks_per_chip, or lower slc_blocks_per_chip)",
			    (unsigned long long)cfg->op_percent, lb_type_name[type],
			    (unsigned long long)need, (unsigned long long)nr_lbn,
			    FTL_GC_RESERVED_BLOCKS, lb_min_slots(type),
			    (unsigned long long)main_blocks);
		return -EINVAL;
	}
	most = main_blocks - nr_lbn - FTL_GC_RESERVED_BLOCKS;
	if (type != FTL_LB_BLOCK && log_blocks &&
	    (log_blocks < lb_min_slots(type) || log_blocks > most)) {
		ssd_dev_err(cfg->name, "ftl_log_blocks=%llu refused: ftl_type=%s accepts 0 (every spare block) or %u..%llu",
			    (unsigned long long)log_blocks, lb_type_name[type],
			    lb_min_slots(type), (unsigned long long)most);
		return -EINVAL;
	}
	return 0;
}

u64 ftl_lb_metadata_bytes(u64 bytes, const struct ssd_config *cfg)
{
	enum ftl_lb_type type = lb_type_of(cfg);
	u64 nr_lbn = lb_cfg_nr_lbn(cfg), slots = lb_cfg_slots(cfg, type);

	bytes = ssd_tables_add(bytes, 1, 1, sizeof(struct ftl_lb));
	bytes = ssd_tables_add(bytes, 1, nr_lbn, sizeof(u32));
	if (type == FTL_LB_BAST)
		bytes = ssd_tables_add(bytes, 1, nr_lbn, sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, cfg->chips * cfg->blocks_per_chip, sizeof(u32));
	if (slots)
		bytes = ssd_tables_add(bytes, 1, slots, sizeof(struct ftl_log_slot));
	return bytes;
}

u64 ftl_lb_table_bytes(const struct ftl *ftl)
{
	const struct ftl_lb *lb = ftl_lb(ftl);

	return sizeof(*lb) + (u64)lb->nr_lbn * sizeof(u32) * (lb->lbn_log ? 2 : 1) +
	       (u64)ftl->total_blocks * sizeof(u32) +
	       (u64)lb->nr_slots * sizeof(struct ftl_log_slot);
}

/*
 * The controller RAM the mapping needs: a 4-byte block-map entry per
 * logical block, and per log block its physical block and logical block
 * (8 bytes) and a page map of one 4-byte entry per page.
 */
u64 ftl_lb_map_ram_bytes(const struct ftl *ftl)
{
	const struct ftl_lb *lb = ftl_lb(ftl);

	return (u64)lb->nr_lbn * sizeof(u32) +
	       (u64)lb->nr_slots * (2 * sizeof(u32) + (u64)ftl->pages_per_block * sizeof(u32));
}

int ftl_lb_init(struct ftl *ftl, const struct ssd_config *cfg)
{
	enum ftl_lb_type type = lb_type_of(cfg);
	struct ftl_lb *lb = ssd_zalloc(sizeof(*lb));
	u32 i;

	if (!lb)
		return -ENOMEM;
	ftl->scheme_data = lb;
	lb->type = type;
	lb->nr_lbn = ftl_lb_nr_lbn(ftl->logical_pages, ftl->pages_per_block);
	lb->nr_slots = lb_cfg_slots(cfg, type);
	lb->wl_threshold = cfg->wl_static_threshold;
	lb->data = ssd_zalloc((u64)lb->nr_lbn * sizeof(u32));
	lb->owner = ssd_zalloc((u64)ftl->total_blocks * sizeof(u32));
	if (type == FTL_LB_BAST)
		lb->lbn_log = ssd_zalloc((u64)lb->nr_lbn * sizeof(u32));
	if (lb->nr_slots)
		lb->slot = ssd_zalloc((u64)lb->nr_slots * sizeof(*lb->slot));
	if (!lb->data || !lb->owner || (type == FTL_LB_BAST && !lb->lbn_log) ||
	    (lb->nr_slots && !lb->slot))
		return -ENOMEM;
	memset(lb->data, 0xff, (u64)lb->nr_lbn * sizeof(u32));
	memset(lb->owner, 0xff, (u64)ftl->total_blocks * sizeof(u32));
	if (lb->lbn_log)
		memset(lb->lbn_log, 0xff, (u64)lb->nr_lbn * sizeof(u32));
	for (i = 0; i < lb->nr_slots; i++) {
		lb->slot[i].block = FTL_NONE;
		lb->slot[i].lbn = FTL_NONE;
		lb->slot[i].prev = FTL_NONE;
		lb->slot[i].next = i + 1 < lb->nr_slots ? i + 1 : FTL_NONE;
	}
	lb->free_slot = lb->nr_slots ? 0 : FTL_NONE;
	lb->order_head = FTL_NONE;
	lb->order_tail = FTL_NONE;
	lb->sw = FTL_NONE;
	lb->rw_open = FTL_NONE;
	/* The main region holds the logical space: no page-path cap on it. */
	ftl->region[SSD_REGION_MAIN].valid_max = ftl->logical_pages;
	return 0;
}

void ftl_lb_exit(struct ftl *ftl)
{
	struct ftl_lb *lb = ftl_lb(ftl);

	if (!lb)
		return;
	ssd_free(lb->slot);
	ssd_free(lb->lbn_log);
	ssd_free(lb->owner);
	ssd_free(lb->data);
	ssd_free(lb);
	ftl->scheme_data = NULL;
}

u32 ftl_lb_write_chip(const struct ftl *ftl, u64 lpn)
{
	const struct ftl_lb *lb = ftl_lb(ftl);
	u32 lbn = lpn / ftl->pages_per_block;

	if (lpn >= ftl->logical_pages)
		return FTL_NONE;
	if (lb->data[lbn] != FTL_NONE)
		return ftl_chip_of(ftl, lb->data[lbn]);
	return lbn % ftl->chips;
}

void ftl_lb_get_stats(const struct ftl *ftl, struct ssd_stats *st)
{
	const struct ftl_lb_counters *c = &ftl_lb(ftl)->counters;

	st->ftl_switch_merges = c->switch_merges;
	st->ftl_partial_merges = c->partial_merges;
	st->ftl_full_merges = c->full_merges;
	st->ftl_merge_erases = c->merge_erases;
	/* Beside static wear levelling in the page-mapped SLC region. */
	st->wl_static_migrations += c->wl_migrations;
	st->wl_static_pages += c->wl_pages;
}

void ftl_lb_reset_stats(struct ftl *ftl)
{
	memset(&ftl_lb(ftl)->counters, 0, sizeof(ftl_lb(ftl)->counters));
}

/*
 * A free main-region block for @owner, from @chip's heap (least erased
 * first) or, if it has none, from the chip with the most free blocks;
 * FTL_NONE if the region has none (a BUG: validation keeps a reserve).
 */
u32 ftl_lb_alloc(struct ftl *ftl, u32 chip, u32 owner)
{
	struct ftl_region *rg = &ftl->region[SSD_REGION_MAIN];
	u32 i, block;

	if (!rg->chip[chip].nr_free) {
		for (i = 1; i < ftl->chips; i++) {
			u32 c = (chip + i) % ftl->chips;

			if (rg->chip[c].nr_free > rg->chip[chip].nr_free)
				chip = c;
		}
	}
	block = ssd_ftl_free_pop(ftl, rg, chip);
	if (block == FTL_NONE) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: no free block for a block-mapped FTL");
		return FTL_NONE;
	}
	ftl->blocks[block].state = FTL_BLOCK_MAPPED;
	ftl_lb(ftl)->owner[block] = owner;
	return block;
}

int ftl_lb_take(struct ftl *ftl, u32 block, u32 page)
{
	struct ftl_block *blk = &ftl->blocks[block];

	if (page < blk->write_ptr || page >= ftl->pages_per_block) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: page %u of block %u behind its write pointer %u",
				  page, block, blk->write_ptr);
		return -EIO;
	}
	blk->write_ptr = page + 1;
	blk->valid_pages++;
	blk->last_program_seq = ++ftl->program_seq;
	return 0;
}

int ftl_lb_program(struct ftl *ftl, u32 block, u32 page, u64 lpn, void *buf,
		   enum ssd_cause cause, u64 start_ns, u64 *done_ns)
{
	u32 ppa = block * ftl->pages_per_block + page;

	*done_ns = start_ns;
	if (ftl_lb_take(ftl, block, page)) {
		ssd_pagepool_put(ftl->flash->pool, buf);
		return -EIO;
	}
	if (ftl->l2p[lpn] != FTL_NONE)
		ssd_ftl_invalidate_page(ftl, ftl->l2p[lpn]);
	ftl->region[SSD_REGION_MAIN].valid_pages++;
	ftl->l2p[lpn] = ppa;
	ftl->p2l[ppa] = (u32)lpn;
	return ssd_flash_program(ftl->flash, ppa, buf, cause, start_ns, done_ns);
}

/* Erase @block, which holds no valid page, and give it back to the free heaps. */
int ftl_lb_erase(struct ftl *ftl, u32 block, u64 start_ns, u64 *done_ns)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	struct ftl_block *blk = &ftl->blocks[block];

	if (blk->valid_pages) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: erase of block %u with %u valid pages",
				  block, blk->valid_pages);
		return -EIO;
	}
	*done_ns = max_t(u64, *done_ns, ssd_flash_erase(ftl->flash, block, start_ns));
	blk->erase_count++;
	blk->write_ptr = 0;
	lb->owner[block] = FTL_NONE;
	lb->main_erases++;
	lb->erased = true;
	ssd_ftl_free_push(ftl, block);
	return 0;
}

static void order_unlink(struct ftl_lb *lb, u32 s)
{
	struct ftl_log_slot *sl = &lb->slot[s];

	if (sl->prev != FTL_NONE)
		lb->slot[sl->prev].next = sl->next;
	else
		lb->order_head = sl->next;
	if (sl->next != FTL_NONE)
		lb->slot[sl->next].prev = sl->prev;
	else
		lb->order_tail = sl->prev;
	sl->prev = FTL_NONE;
	sl->next = FTL_NONE;
}

static void order_append(struct ftl_lb *lb, u32 s)
{
	struct ftl_log_slot *sl = &lb->slot[s];

	sl->prev = lb->order_tail;
	sl->next = FTL_NONE;
	if (lb->order_tail != FTL_NONE)
		lb->slot[lb->order_tail].next = s;
	else
		lb->order_head = s;
	lb->order_tail = s;
}

/*
 * A free slot with a new block for a log of @kind (of @lbn), the block
 * taken round robin over the chips; FTL_NONE on a BUG.  Bast and RW slots
 * join the end of the reclaim order; the SW slot stays out of it.
 */
u32 ftl_lb_slot_take(struct ftl *ftl, enum ftl_log_kind kind, u32 lbn)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 s = lb->free_slot, block;
	struct ftl_log_slot *sl;

	if (s == FTL_NONE) {
		ssd_dev_warn_once(ftl->flash->dev_name, "BUG: no free log slot");
		return FTL_NONE;
	}
	block = ftl_lb_alloc(ftl, lb->log_cursor, FTL_LB_LOG | s);
	if (block == FTL_NONE)
		return FTL_NONE;
	lb->log_cursor = (lb->log_cursor + 1) % ftl->chips;
	sl = &lb->slot[s];
	lb->free_slot = sl->next;
	sl->block = block;
	sl->lbn = lbn;
	sl->kind = kind;
	sl->sequential = kind != FTL_LOG_RW;
	sl->prev = FTL_NONE;
	sl->next = FTL_NONE;
	if (kind != FTL_LOG_SW)
		order_append(lb, s);
	lb->slots_used++;
	return s;
}

/* Bast: @slot was written, so it is the most recently used. */
void ftl_lb_slot_touch(struct ftl *ftl, u32 slot)
{
	struct ftl_lb *lb = ftl_lb(ftl);

	if (lb->order_tail == slot)
		return;
	order_unlink(lb, slot);
	order_append(lb, slot);
}

void ftl_lb_slot_put(struct ftl_lb *lb, u32 s)
{
	struct ftl_log_slot *sl = &lb->slot[s];

	if (sl->kind != FTL_LOG_SW)
		order_unlink(lb, s);
	if (sl->kind == FTL_LOG_BAST)
		lb->lbn_log[sl->lbn] = FTL_NONE;
	if (lb->sw == s)
		lb->sw = FTL_NONE;
	if (lb->rw_open == s)
		lb->rw_open = FTL_NONE;
	sl->block = FTL_NONE;
	sl->lbn = FTL_NONE;
	sl->kind = FTL_LOG_FREE;
	sl->sequential = 0;
	sl->next = lb->free_slot;
	lb->free_slot = s;
	lb->slots_used--;
}

u32 ftl_lb_data_block(struct ftl *ftl, u64 lpn)
{
	struct ftl_lb *lb = ftl_lb(ftl);
	u32 lbn = lpn / ftl->pages_per_block;

	if (lb->data[lbn] == FTL_NONE)
		lb->data[lbn] = ftl_lb_alloc(ftl, lbn % ftl->chips, lbn);
	return lb->data[lbn];
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftl_logblock.h - what the block-mapped schemes (ftl_type block, bast,
 * fast) share, private to ftl/: the block map (a data block per logical
 * block), the log blocks (slots), the placement primitives that program a
 * page at a given offset and move pages for merges, the merges themselves,
 * their counters and static wear levelling of data blocks.
 *
 * A logical block lbn = lpn / pages_per_block covers pages_per_block
 * logical pages; a page of it always sits at offset lpn % pages_per_block
 * of its data block.  A data block is programmed in order: a write at an
 * offset at or past the block's write pointer goes in place (pages may be
 * skipped); an earlier offset needs a log block (bast, fast) or a new copy
 * of the block (block).  Every valid page of an lbn is in its data block
 * at its offset, or in a log block at an offset below the data block's
 * write pointer, or in the SLC cache region (which stays page-mapped).
 * The L2P/P2L stay exact for every page, so a merge copies the latest
 * copy of each offset the L2P names.
 *
 * Merges and migrations are flash operations on the write's path: their
 * copies (cause SSD_CAUSE_MERGE) and erases start when the write starts
 * and take their time on the chips, and the host page is programmed once
 * the merge it waited for is done.
 */
#ifndef SSD_FTL_LOGBLOCK_H
#define SSD_FTL_LOGBLOCK_H

#include "ftl/ftl_internal.h"

enum ftl_lb_type {
	FTL_LB_BLOCK,		/* copy-on-update, no log blocks */
	FTL_LB_BAST,		/* one log block per logical block */
	FTL_LB_FAST,		/* one sequential log block, shared random ones */
};

enum ftl_log_kind {
	FTL_LOG_FREE,		/* slot unused (on the free list) */
	FTL_LOG_BAST,		/* bast: the log block of slot.lbn */
	FTL_LOG_SW,		/* fast: the sequential log block, of slot.lbn */
	FTL_LOG_RW,		/* fast: a random log block, any lbn */
};

/* owner[] of a log block: this bit and its slot. */
#define FTL_LB_LOG	0x80000000U

/* Logical blocks static wear levelling looks at per write that erased. */
#define FTL_LB_WL_SCAN	4

struct ftl_log_slot {
	u32 block;		/* its flash block, or FTL_NONE when free */
	u32 lbn;		/* bast, SW: its logical block; RW: FTL_NONE */
	u32 prev, next;		/* in the reclaim order (or the free list: next) */
	u8 kind;		/* enum ftl_log_kind */
	u8 sequential;		/* so far page i holds offset i (bast, SW) */
};

struct ftl_lb_counters {
	u64 switch_merges;	/* log blocks that became data blocks as they were */
	u64 partial_merges;	/* ... after the rest was copied in */
	u64 full_merges;	/* logical blocks copied into a new block */
	u64 merge_erases;	/* blocks erased by merges */
	u64 wl_migrations;	/* cold data blocks moved (static wear levelling) */
	u64 wl_pages;		/* pages they moved */
};

struct ftl_lb {
	u32 type;		/* enum ftl_lb_type */
	u32 nr_lbn;		/* logical blocks */
	u32 nr_slots;		/* log blocks at most (ftl_log_blocks) */
	u32 *data;		/* [nr_lbn]: data block, or FTL_NONE */
	u32 *lbn_log;		/* bast: [nr_lbn]: its log slot, or FTL_NONE */
	u32 *owner;		/* [total_blocks]: lbn, FTL_LB_LOG | slot, FTL_NONE */
	struct ftl_log_slot *slot;	/* [nr_slots] */
	u32 free_slot;		/* head of the free slots, linked by next */
	u32 order_head, order_tail;	/* reclaim order: bast LRU, fast RW FIFO */
	u32 slots_used;
	u32 sw;			/* fast: the SW slot, or FTL_NONE */
	u32 rw_open;		/* fast: the RW slot being filled, or FTL_NONE */
	u32 log_cursor;		/* chip the next log block is taken from first */
	u32 wl_threshold;	/* wl_static_threshold; 0 = off */
	u32 wl_cursor;		/* next lbn static wear levelling looks at */
	bool erased;		/* the current write erased a block */
	u64 main_erases;	/* erase counts of the main region's blocks, summed */
	struct ftl_lb_counters counters;
};

static inline struct ftl_lb *ftl_lb(const struct ftl *ftl)
{
	return ftl->scheme_data;
}

/* Logical blocks of @logical_pages pages in blocks of @pages_per_block. */
static inline u64 ftl_lb_nr_lbn(u64 logical_pages, u32 pages_per_block)
{
	return div_u64(logical_pages + pages_per_block - 1, pages_per_block);
}

static inline bool ftl_lb_in_main(const struct ftl *ftl, u32 ppa)
{
	return ftl->blocks[ppa / ftl->pages_per_block].region == SSD_REGION_MAIN;
}

/*
 * The ops tables' shared parts (ftl_logblock.c); the first three take the
 * scheme from the configuration's ftl_type.
 */
/* The keys bast and fast own: ftl_log_blocks. */
extern const struct ssd_config_key *const ssd_ftl_lb_keys[];

int ftl_lb_validate(const struct ssd_config *cfg);
u64 ftl_lb_metadata_bytes(u64 bytes, const struct ssd_config *cfg);
int ftl_lb_init(struct ftl *ftl, const struct ssd_config *cfg);
void ftl_lb_exit(struct ftl *ftl);
u64 ftl_lb_map_ram_bytes(const struct ftl *ftl);
u64 ftl_lb_table_bytes(const struct ftl *ftl);
u32 ftl_lb_write_chip(const struct ftl *ftl, u64 lpn);
void ftl_lb_get_stats(const struct ftl *ftl, struct ssd_stats *st);
void ftl_lb_reset_stats(struct ftl *ftl);

/* Placement primitives (ftl_logblock.c). */
u32 ftl_lb_alloc(struct ftl *ftl, u32 chip, u32 owner);
/* Take @page of @block (at or past its write pointer) for a page about to be valid. */
int ftl_lb_take(struct ftl *ftl, u32 block, u32 page);
int ftl_lb_program(struct ftl *ftl, u32 block, u32 page, u64 lpn, void *buf,
		   enum ssd_cause cause, u64 start_ns, u64 *done_ns);
int ftl_lb_erase(struct ftl *ftl, u32 block, u64 start_ns, u64 *done_ns);
u32 ftl_lb_slot_take(struct ftl *ftl, enum ftl_log_kind kind, u32 lbn);
void ftl_lb_slot_touch(struct ftl *ftl, u32 slot);
/* Give slot @s back (its block erased, or become a data block). */
void ftl_lb_slot_put(struct ftl_lb *lb, u32 s);

/*
 * The data block of @lpn's lbn, taken if it has none: the page goes in
 * place if its offset is at or past the block's write pointer.  Returns
 * the block, or FTL_NONE (a BUG: validation keeps a free block).
 */
u32 ftl_lb_data_block(struct ftl *ftl, u64 lpn);

/* Merges and wear levelling (ftl_logblock_merge.c). */

/*
 * Full merge of @lbn: the latest main-region copy of each of its offsets
 * (and, with @buf, the host page of @host_lpn, programmed under @cause at
 * its offset) into a new block, then the old data block, its bast log
 * block and its fast SW log block erased.  No new block if nothing is
 * left.  Counted as a full merge.  *@done_ns: when the last operation ends.
 */
int ftl_lb_full_merge(struct ftl *ftl, u32 lbn, u64 host_lpn, void *buf,
		      enum ssd_cause cause, u64 start_ns, u64 *done_ns);

/*
 * Merge the log block of @slot (bast or SW) into its lbn: a switch merge
 * if it is sequential and full, a partial merge if sequential (the rest
 * copied in), else a full merge.  The slot is freed.
 */
int ftl_lb_merge_log(struct ftl *ftl, u32 slot, u64 start_ns, u64 *done_ns);

/*
 * After a scheme's write: static wear levelling if it erased a block (at
 * most one cold data block moved), the test hook.  Returns @ret or the
 * migration's error.
 */
int ftl_lb_write_end(struct ftl *ftl, int ret, u64 start_ns, u64 *done_ns);

/* Check and snapshot (ftl_logblock_check.c). */
int ftl_lb_check(const struct ftl *ftl);
void ftl_lb_save(const struct ftl *ftl, struct ssd_snap_writer *w);
void ftl_lb_load(struct ftl *ftl, struct ssd_snap_reader *r);

/*
 * What the log-block schemes' ops tables (block, bast, fast) share: all
 * but the name, the keys and write(), where the schemes differ.
 */
#define FTL_LB_SCHEME_OPS					\
	.block_mapped = true,					\
	.validate = ftl_lb_validate,				\
	.metadata_bytes = ftl_lb_metadata_bytes,		\
	.init = ftl_lb_init,					\
	.exit = ftl_lb_exit,					\
	.write_chip = ftl_lb_write_chip,			\
	.map_ram_bytes = ftl_lb_map_ram_bytes,			\
	.table_bytes = ftl_lb_table_bytes,			\
	.check = ftl_lb_check,					\
	.save = ftl_lb_save,					\
	.load = ftl_lb_load,					\
	.get_stats = ftl_lb_get_stats,				\
	.reset_stats = ftl_lb_reset_stats

#endif /* SSD_FTL_LOGBLOCK_H */

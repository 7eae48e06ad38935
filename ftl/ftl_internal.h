/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftl_internal.h - the page-mapped flash translation layer's workings,
 * private to ftl/ (ftl.h is its public face; white-box unit tests see
 * this too).
 *
 * Owns the logical-to-physical map (L2P) and its reverse (P2L), the state of
 * every erase block (valid pages, erase count, write pointer), the regions
 * with their write points, garbage collection and TRIM.  Page data itself is
 * kept by struct flash (flash/flash.h); the FTL tells it where each page
 * goes.  ftl_layer.c makes it the bottom layer of the request path
 * (common/ssd_layer.h).  Portable: no kernel or libc headers.
 *
 * Block numbers are global: block = chip * blocks_per_chip + block_in_chip.
 * Physical page numbers (ppa) are block * pages_per_block + page.
 *
 * Regions (ftl_region.c): the first slc_blocks_per_chip blocks of every
 * chip form the SLC cache region (SSD_REGION_CACHE), the others the TLC
 * main region (SSD_REGION_MAIN), which alone sizes the logical space.  Each
 * region has its own free blocks, write points, victims and GC; one L2P
 * maps a logical page into either.  An SLC block holds pages_per_block / 3
 * pages.
 *
 * Write points: per region and chip, one host block and one GC block.
 * Host pages go round robin over the chips (a chip without an open host
 * block nor a free one is skipped), so placement, and every flash counter,
 * depends on the request sequence only, never on timing.
 *
 * GC (ftl_gc.c) runs in bounded steps inside host writes: while a region's
 * free blocks are below its low watermark, each host page write into it
 * first moves at most gc_pages_per_write valid pages of the region's
 * current victim to the GC block of the victim's chip.  A host write point
 * opens a block only while more than FTL_GC_RESERVED_BLOCKS are free; at
 * that hard floor GC runs until it frees a block (a blocking run).
 *
 * Mapping schemes (ftl_type, struct ftl_scheme below, ftl_scheme.c): the
 * page scheme is everything above; the block-mapped schemes (block, bast,
 * fast; ftl_logblock.h) take the main region's writes and hold its blocks
 * themselves (FTL_BLOCK_MAPPED), while the SLC region stays page-mapped.
 *
 * Background GC (gc_background_free_blocks, off by default): before each
 * command, a region with fewer free blocks than that high watermark runs
 * one step on its victim if the victim's chip is idle then
 * (ssd_ftl_gc_background()).  Its work then depends on idle time, so the flash
 * counters do too: that is why it is off by default.
 */
#ifndef SSD_FTL_INTERNAL_H
#define SSD_FTL_INTERNAL_H

#include "platform/ssd_platform.h"
#include "common/ssd_layer.h"
#include "flash/flash.h"
#include "ftl/ftl.h"

#define FTL_NONE	U32_MAX

/*
 * Free blocks of a region only GC may take.  Collecting one victim opens
 * at most one GC block (the victim has an invalid page, so its valid pages
 * fit in one block, and GC opens a block only when no GC block it may use
 * has room), and the victim's erase gives a block back: with the host
 * stopping at this floor, a region never has fewer than
 * FTL_GC_RESERVED_BLOCKS - 1 free blocks, and GC always has one to open.
 */
#define FTL_GC_RESERVED_BLOCKS	SSD_GC_RESERVED_BLOCKS

/*
 * Cost-benefit examines at most this many blocks of a region per victim,
 * from a cursor that moves on past them: every block is looked at once per
 * region_blocks / FTL_CB_WINDOW_BLOCKS victims.
 */
#define FTL_CB_WINDOW_BLOCKS	128

enum ftl_block_state {
	FTL_BLOCK_FREE,		/* erased, in its chip's free heap */
	FTL_BLOCK_OPEN,		/* being filled by a write point */
	FTL_BLOCK_FULL,		/* all pages programmed; a GC candidate */
	FTL_BLOCK_VICTIM,	/* GC is moving its valid pages out */
	FTL_BLOCK_MAPPED,	/* a block-mapped scheme's data or log block */
	FTL_BLOCK_TRANSLATION,	/* holds DFTL translation pages (ftl_dftl.c) */
	FTL_BLOCK_BAD,		/* retired or factory bad: never used (ftl_retire.c) */
};

struct ftl_block {
	u32 erase_count;
	u32 valid_pages;
	u32 write_ptr;		/* next page to program while OPEN */
	u32 prev, next;		/* links in its valid-count bucket while FULL */
	u64 last_program_seq;	/* ftl->program_seq when it was last programmed */
	u8 state;
	u8 region;		/* enum ssd_region */
};

struct ftl;
struct ftl_region;

/*
 * A GC victim policy (FEMU-style ops table), one file each, listed in
 * ftl_gc_policy.c: that list gives gc_policy its values, names and keys.
 */
struct ftl_gc_policy {
	const char *name;
	/* The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none. */
	const struct ssd_config_key *const *keys;
	/* Return a FULL block of @rg with at least one invalid page, or FTL_NONE. */
	u32 (*select_victim)(struct ftl *ftl, struct ftl_region *rg);
};

extern const struct ftl_gc_policy ssd_ftl_gc_greedy;
extern const struct ftl_gc_policy ssd_ftl_gc_cost_benefit;

/* The policy gc_policy=@value names (ftl_gc_policy.c). */
const struct ftl_gc_policy *ssd_ftl_gc_policy_of(u64 value);

/*
 * A mapping scheme (ftl_type): how the main (TLC) region is mapped, one
 * file each (ftl_scheme_*.c), listed in ftl_scheme.c, whose list gives
 * ftl_type its values, names and the schemes' keys.  The SLC cache region is page-mapped by
 * the common machinery under every scheme, and the L2P/P2L stay for every
 * scheme (they are where the simulator finds data); what a scheme reports
 * as ftl_map_ram_bytes is the controller RAM its own mapping would need.
 * Every op but name and map_ram_bytes may be NULL: the page scheme's
 * behaviour (the common page-mapped path) then.
 */
struct ftl_scheme {
	const char *name;
	/*
	 * The keys it owns (SSD_CONFIG_KEY()), NULL-terminated; NULL: none.
	 * Keys the log-block schemes share are ftl_logblock.c's.
	 */
	const struct ssd_config_key *const *keys;
	/*
	 * The main region's blocks are held by the scheme (data and log
	 * blocks, in state FTL_BLOCK_MAPPED) instead of the page path's
	 * write points, buckets and GC.
	 */
	bool block_mapped;
	/* Check the keys the scheme owns; -EINVAL with a message naming one. */
	int (*validate)(const struct ssd_config *cfg);
	/* @bytes plus the tables init() allocates for @cfg (ssd_tables_add()). */
	u64 (*metadata_bytes)(u64 bytes, const struct ssd_config *cfg);
	/* Set up the scheme's state (ftl->scheme_data) over initialised regions. */
	int (*init)(struct ftl *ftl, const struct ssd_config *cfg);
	void (*exit)(struct ftl *ftl);
	/*
	 * Write @lpn into the main region, as ssd_ftl_write() (which has
	 * checked the region and the lpn's room): the scheme places it and
	 * invalidates its old copy wherever it is.
	 */
	int (*write)(struct ftl *ftl, u64 lpn, void *buf, enum ssd_cause cause, u64 start_ns,
		     u64 *done_ns);
	/* The chip a main-region write of @lpn would use next (FTL_NONE: unknown). */
	u32 (*write_chip)(const struct ftl *ftl, u64 lpn);
	/* Modeled controller RAM of the mapping (ftl_map_ram_bytes). */
	u64 (*map_ram_bytes)(const struct ftl *ftl);
	/* Bytes of the scheme's own simulator tables (part of ftl_metadata_bytes). */
	u64 (*table_bytes)(const struct ftl *ftl);
	/* The scheme's invariants, after the common ones held (ssd_ftl_check()). */
	int (*check)(const struct ftl *ftl);
	/* Its state in the FTL's snapshot section, after the common part. */
	void (*save)(const struct ftl *ftl, struct ssd_snap_writer *w);
	void (*load)(struct ftl *ftl, struct ssd_snap_reader *r);
	/* Its counters. */
	void (*get_stats)(const struct ftl *ftl, struct ssd_stats *st);
	void (*reset_stats)(struct ftl *ftl);
	/*
	 * A page-mapped scheme that keeps its map out of RAM (dftl): a
	 * main-region map lookup of @lpn (host read, write, TRIM) from
	 * @start_ns, with @update making the entry changed; returns when the
	 * mapping is known, *@done_ns when the flash operations it started
	 * end.  NULL: the map is in RAM, lookups are free.
	 */
	u64 (*map_lookup)(struct ftl *ftl, u64 lpn, bool update, u64 start_ns, u64 *done_ns);
	/* Page GC moved main-region @lpn: its map entry changes (with map_lookup). */
	void (*map_gc_moved)(struct ftl *ftl, u64 lpn);
};

extern const struct ftl_scheme ssd_ftl_scheme_page;
extern const struct ftl_scheme ssd_ftl_scheme_block;
extern const struct ftl_scheme ssd_ftl_scheme_bast;
extern const struct ftl_scheme ssd_ftl_scheme_fast;
extern const struct ftl_scheme ssd_ftl_scheme_dftl;

/* The scheme ftl_type=@value names (ftl_scheme.c). */
const struct ftl_scheme *ssd_ftl_scheme_of(u64 value);

/* One chip's share of a region. */
struct ftl_chip {
	u32 *free_heap;		/* min-heap of free blocks by erase count */
	u32 nr_free;
	u32 host_block;		/* host write point's open block, or FTL_NONE */
	u32 gc_block;		/* GC write point's open block, or FTL_NONE */
};

struct ftl_region {
	u32 first_block;	/* its first block within each chip */
	u32 blocks_per_chip;	/* 0: the region does not exist */
	u32 pages_per_block;	/* pages one of its blocks holds (cell mode) */
	u32 nr_blocks;
	u32 nr_free;
	u32 low_free_blocks;	/* GC steps run while nr_free < this */
	u64 valid_pages;
	u64 valid_max;		/* most valid pages GC can always make room beside */
	struct ftl_chip *chip;	/* [chips] */
	u32 *bucket_head;	/* [pages_per_block + 1]: FULL blocks by valid count */
	u32 host_cursor;	/* next chip the host write point tries */
	u32 gc_victim;		/* block GC is collecting, or FTL_NONE */
	u32 gc_cursor;		/* its next page GC looks at */
	u32 cb_cursor;		/* cost-benefit: next region block to examine */
	u64 erase_total;	/* erases of its blocks (kept as they happen) */
	u32 wl_cursor;		/* static wear levelling: next region block to examine */
	bool gc_wl;		/* gc_victim is a cold block static wear levelling chose */
	u32 bad_blocks;		/* of nr_blocks, the BAD ones (ftl_retire.c) */
	u32 good_needed;	/* good blocks it needs to hold its data with GC working */
};

struct ftl_params {
	u64 logical_pages;
	u32 slc_blocks_per_chip;
	u32 gc_low_free_blocks;
	u32 gc_pages_per_write;		/* 0: whole victims */
	u32 gc_background_free_blocks;	/* 0: no background GC */
	bool read_unwritten_flash;
	const struct ftl_gc_policy *gc_policy;
	const struct ftl_scheme *scheme;	/* NULL: page */
	const struct ssd_config *cfg;		/* for the scheme's init; may be NULL for page */
	u32 wl_static_threshold;	/* 0: no static wear levelling */
};

struct ftl_counters {
	u64 host_write_pages;	/* pages the host wrote (after splitting) */
	u64 host_trim_pages;	/* mapped pages a TRIM invalidated */
	u64 gc_victim_blocks;	/* blocks GC reclaimed */
	u64 gc_relocated_pages;	/* valid pages GC moved */
	u64 gc_foreground_runs;	/* host page writes that did GC work */
	u64 gc_blocking_runs;	/* of those, runs at the hard floor until a block freed */
	u64 gc_write_pages_max;	/* most pages GC moved inside one host page write */
	u64 gc_background_pages;	/* valid pages background GC moved */
	u64 gc_background_steps;	/* background GC steps that did work */
};

/* Static wear levelling (ftl_wear.c). */
struct ftl_wear_counters {
	u64 wl_static_migrations;	/* cold blocks chosen to migrate */
	u64 wl_static_pages;		/* valid pages moved out of them */
};

/* Bad blocks and retirement (ftl_retire.c); all zero with the faults off. */
struct ftl_faults {
	bool on;			/* bad blocks or grown failures configured */
	u32 bad_factory;		/* blocks bad before first use */
	u32 bad_grown;			/* blocks retired after a failure */
	u32 spare_initial;		/* spare blocks after the factory bad ones */
	u64 retire_relocated_pages;	/* valid pages moved out of retired blocks */
};

struct ftl {
	struct flash *flash;
	const struct ftl_gc_policy *gc_policy;
	const struct ftl_scheme *scheme;
	void *scheme_data;	/* the scheme's own state */
	u64 logical_pages;
	u32 pages_per_block;	/* physical: a TLC block's pages */
	u32 ppb_shift;		/* log2(pages_per_block) if a power of two, else 0 */
	u32 blocks_per_chip;
	u32 chips;
	u32 total_blocks;
	u32 gc_pages_per_write;
	u32 gc_background_free_blocks;
	bool read_unwritten_flash;

	u32 *l2p;		/* [logical_pages] -> ppa or FTL_NONE */
	u32 *p2l;		/* [physical pages] -> lpn or FTL_NONE */
	struct ftl_block *blocks;
	struct ftl_region region[SSD_REGION_NR];
	u64 program_seq;	/* programs so far: the FTL's clock for block age */

	u32 gc_write_pages;	/* pages GC moved inside the current host write */
	bool gc_write_work;	/* GC moved or erased inside it */
	/* Tests: called after every GC step, with the FTL consistent. */
	void (*gc_step_hook)(const struct ftl *ftl);

	struct ftl_counters counters;
	u32 wl_static_threshold;	/* erases a cold block lags the mean by */
	struct ftl_wear_counters wear;
	struct ftl_faults faults;
};

int ssd_ftl_init(struct ftl *ftl, struct flash *flash, const struct ftl_params *params);
void ssd_ftl_exit(struct ftl *ftl);

/*
 * Map @lpn to a new page of @region holding @buf (ownership passes to the
 * flash), programmed no earlier than @start_ns and counted under @cause;
 * *@done_ns is when the program ends.  The page @lpn had, in either region, becomes invalid.  GC
 * work it does occupies the chips from @start_ns on.  Returns 0; -EINVAL
 * if @region has no blocks, -ENOSPC if it is too full of valid data to
 * take one more page (only the cache region, whose contents the layer
 * above decides: it must destage first) - both refused before anything
 * happened, @buf still the caller's; -EROFS (@buf freed, @lpn's old data
 * kept) if the device is or just turned read-only (end of life,
 * ftl_retire.c); or -EIO (logged, @buf freed) if the FTL's invariants are
 * broken.
 */
int ssd_ftl_write(struct ftl *ftl, u64 lpn, void *buf, enum ssd_region region,
	      enum ssd_cause cause, u64 start_ns, u64 *done_ns);

/*
 * With a scheme's map_lookup (dftl) a write into the main region, and a
 * read or TRIM of an lpn not in the SLC region, first look its entry up: a
 * read starts when the entry is known; every operation ends no earlier
 * than the map's flash operations it started.
 */

/*
 * Read @lpn from flash, counted under @cause: returns its data, or NULL if
 * never written or trimmed (the caller returns zeros; with
 * read_unwritten_flash that still costs a TLC page read on chip
 * lpn % chips, else *@done_ns is @start_ns).  The pointer is valid until
 * the next write or TRIM.  *@status is 0, or -EBADMSG if the page read was
 * uncorrectable (the flash's read error model; the data is returned anyway).
 */
const void *ssd_ftl_read(struct ftl *ftl, u64 lpn, enum ssd_cause cause,
		     u64 start_ns, u64 *done_ns, int *status);

/*
 * The chip the next page written into @rg goes to, as host_alloc_page()
 * chooses it (the round robin, skipping chips with neither an open host
 * block nor a free one), or FTL_NONE; changes nothing.  A GC run at the
 * hard floor may still take that chip's last free block first.
 */
u32 ssd_ftl_next_host_chip(const struct ftl *ftl, const struct ftl_region *rg);

/*
 * Forget @lpn's mapping (TRIM).  It takes no time; flash operations it
 * starts (DFTL's map) start at @start_ns.
 */
void ssd_ftl_trim(struct ftl *ftl, u64 lpn, u64 start_ns);

/* @ppa's data is dead: drop it from the maps and its block's valid count. */
void ssd_ftl_invalidate_page(struct ftl *ftl, u32 ppa);

/* Whether the main region is held by a block-mapped scheme. */
static inline bool ftl_block_mapped(const struct ftl *ftl)
{
	return ftl->scheme->block_mapped;
}

static inline bool ftl_is_mapped(const struct ftl *ftl, u64 lpn)
{
	return ftl->l2p[lpn] != FTL_NONE;
}

/* The block holding @ppa: a shift for the usual power-of-two geometry. */
static inline u32 ftl_block_of_ppa(const struct ftl *ftl, u32 ppa)
{
	return ftl->ppb_shift ? ppa >> ftl->ppb_shift : ppa / ftl->pages_per_block;
}

/* The chip after @chip in the round robin. */
static inline u32 ftl_next_chip(const struct ftl *ftl, u32 chip)
{
	return chip + 1 == ftl->chips ? 0 : chip + 1;
}

static inline struct ftl_region *ftl_region_of(struct ftl *ftl, u32 block)
{
	return &ftl->region[ftl->blocks[block].region];
}

static inline u32 ftl_chip_of(const struct ftl *ftl, u32 block)
{
	return block / ftl->blocks_per_chip;
}

/*
 * GC's copy of the valid page @src of @blk (in region @rg) to the free page
 * @dst, from @start_ns: the lpn maps to @dst, and @blk and @rg hold one
 * valid page fewer.  -EIO if the flash refuses the copy (nothing changes).
 * The caller counts the move under its own cause (GC, retirement).
 */
static inline int ftl_gc_copy_page(struct ftl *ftl, struct ftl_region *rg, struct ftl_block *blk,
				   u32 src, u32 dst, u64 start_ns, u64 *done_ns)
{
	u32 lpn = ftl->p2l[src];

	if (ssd_flash_copy(ftl->flash, src, dst, SSD_CAUSE_GC, start_ns, done_ns))
		return -EIO;
	ftl->p2l[src] = FTL_NONE;
	ftl->p2l[dst] = lpn;
	ftl->l2p[lpn] = dst;
	blk->valid_pages--;
	rg->valid_pages--;
	return 0;
}

/* Free blocks over both regions. */
static inline u32 ftl_nr_free_blocks(const struct ftl *ftl)
{
	return ftl->region[SSD_REGION_MAIN].nr_free + ftl->region[SSD_REGION_CACHE].nr_free;
}

/* Erase counts over all blocks, or over @region's blocks. */
void ssd_ftl_erase_stats(const struct ftl *ftl, u64 *min, u64 *max, u64 *total);
void ssd_ftl_region_erase_stats(const struct ftl *ftl, enum ssd_region region,
			    u64 *max, u64 *total);

/* Bytes of RAM used by the FTL's own tables. */
u64 ssd_ftl_metadata_bytes(const struct ftl *ftl);

/*
 * Check every invariant (maps agree, valid counts match the reverse map,
 * free + open + full + victim = all blocks, each open block has exactly
 * one write point, buckets and heaps consistent, per region).  Returns 0
 * or a negative code after logging the first violation.  O(capacity).
 */
int ssd_ftl_check(const struct ftl *ftl);

/*
 * Snapshots (ftl_snap.c): everything the FTL holds, written as it is;
 * loading into an FTL just created from the same configuration refuses
 * any index beyond the geometry (ssd_ftl_check() judges the rest).
 */
void ssd_ftl_save(const struct ftl *ftl, struct ssd_snap_writer *w);
void ssd_ftl_load(struct ftl *ftl, struct ssd_snap_reader *r);

/* The FTL under @layer if it is the FTL's layer, else NULL (for tests). */
struct ftl *ssd_ftl_from_layer(struct ssd_layer *layer);

/* Internal to ftl/: regions (ftl_region.c). */
int ssd_ftl_regions_init(struct ftl *ftl, const struct ftl_params *params);
void ssd_ftl_regions_exit(struct ftl *ftl);
u32 ssd_ftl_region_block(const struct ftl *ftl, const struct ftl_region *rg, u32 index);
u64 ssd_ftl_regions_metadata_bytes(const struct ftl *ftl);

/* Internal to ftl/: block lists and allocation (ftl_alloc.c). */
void ssd_ftl_bucket_insert(struct ftl *ftl, u32 block);
void ssd_ftl_bucket_remove(struct ftl *ftl, u32 block);
void ssd_ftl_free_push(struct ftl *ftl, u32 block);
u32 ssd_ftl_free_pop(struct ftl *ftl, struct ftl_region *rg, u32 chip);
u32 ssd_ftl_take_page(struct ftl *ftl, u32 block);

/* Internal to ftl/: garbage collection (ftl_gc.c). */
int ssd_ftl_gc_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns);
int ssd_ftl_gc_until_free(struct ftl *ftl, struct ftl_region *rg, u32 target_free,
		      u64 start_ns);
void ssd_ftl_gc_background(struct ftl *ftl, u64 now_ns);

/* Internal to ftl/: GC's victim, and one bounded step on it alone (ftl_gc.c). */
void ssd_ftl_gc_set_victim(struct ftl *ftl, struct ftl_region *rg, u32 victim);
int ssd_ftl_gc_victim_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns);

/*
 * Internal to ftl/: erases and static wear levelling (ftl_wear.c).
 * ssd_ftl_erase_block() erases @block (every page invalid), counts it and
 * gives it back to its chip's free heap; returns when the erase ends.
 * After a GC victim's erase, ssd_ftl_wear_after_erase() may choose a cold
 * FULL block of @rg (erase count at least wl_static_threshold below the
 * region's mean, looked for in a window of FTL_WL_WINDOW_BLOCKS from a
 * rotating cursor) as the region's next victim; ssd_ftl_wear_step(), in a
 * host write into @rg with no GC pressure, moves a bounded share of it.
 */
#define FTL_WL_WINDOW_BLOCKS	64
u64 ssd_ftl_erase_block(struct ftl *ftl, u32 block, u64 start_ns);
void ssd_ftl_wear_after_erase(struct ftl *ftl, struct ftl_region *rg);
int ssd_ftl_wear_step(struct ftl *ftl, struct ftl_region *rg, u64 start_ns);
/* Standard deviation of every block's erase count, in thousandths. */
u64 ssd_ftl_erase_stddev_milli(const struct ftl *ftl);
/*
 * The erase-count histogram of every block: SSD_ERASE_HIST_BUCKETS buckets
 * of *width_erases = ceil((@max_erases + 1) / buckets) erases each (at
 * least 1), so bucket i holds counts [i * width, (i + 1) * width).
 */
void ssd_ftl_erase_hist(const struct ftl *ftl, u64 max_erases, u64 *width_erases,
			u64 hist[SSD_ERASE_HIST_BUCKETS]);
/* Each region's erase_total from its blocks' counts (after a snapshot load). */
void ssd_ftl_wear_recount(struct ftl *ftl);

/*
 * Internal to ftl/: bad blocks, retirement and end of life (ftl_retire.c),
 * in the main region of the page scheme only.  ssd_ftl_faults_init() draws
 * the factory bad blocks (bad_block_ppm) and works out the spares;
 * ssd_ftl_mark_bad_blocks() marks more before first use (-EINVAL, logged,
 * if one is out of range, outside the main region, or the FTL was used).
 * ssd_ftl_host_program_fails() asks the flash whether programming @ppa,
 * just taken for a host page, fails: if so the page is given back, the
 * block retired (its valid pages moved, *@start_ns then when that ended)
 * and it returns 1 (take another page) or -EROFS (end of life).
 * ssd_ftl_erase_retires() retires a block whose erase failed (true) or
 * says it did not.  ssd_ftl_spare_blocks() are the blocks that may still
 * be retired before the device turns read-only.
 */
int ssd_ftl_faults_init(struct ftl *ftl, const struct ssd_config *cfg);
int ssd_ftl_mark_bad_blocks(struct ftl *ftl, const u32 *blocks, u32 nr);
int ssd_ftl_host_program_fails(struct ftl *ftl, u32 ppa, u64 *start_ns);
bool ssd_ftl_erase_retires(struct ftl *ftl, u32 block);
u32 ssd_ftl_spare_blocks(const struct ftl *ftl);
void ssd_ftl_faults_save(const struct ftl *ftl, struct ssd_snap_writer *w);
void ssd_ftl_faults_load(struct ftl *ftl, struct ssd_snap_reader *r);
/* GC's next destination page for a page of a block on @vchip (ftl_gc.c). */
u32 ssd_ftl_gc_alloc_page(struct ftl *ftl, struct ftl_region *rg, u32 vchip);

static inline bool ftl_read_only(const struct ftl *ftl)
{
	return flash_read_only(ftl->flash);
}

/* Internal to ftl/: greedy's choice, cost-benefit's fallback (ftl_gc_greedy.c). */
u32 ssd_ftl_gc_greedy_select(struct ftl *ftl, struct ftl_region *rg);

/*
 * The FTL's registries' selectors, with their entries' keys (struct
 * ssd_config_choice.keys): gc_policy (ftl_gc_policy.c) and ftl_type
 * (ftl_scheme.c); the layer type lists them for the vocabulary
 * (ssd_layer_type.selectors).
 */
extern const struct ssd_config_key ssd_key_gc_policy;
extern const struct ssd_config_key ssd_key_ftl_type;

#endif /* SSD_FTL_INTERNAL_H */

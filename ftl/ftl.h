/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftl.h - the page-mapped flash translation layer.
 *
 * Owns the logical-to-physical map (L2P) and its reverse (P2L), the state of
 * every erase block (valid pages, erase count, write pointer), the write
 * points that stripe new pages across chips, garbage collection and TRIM.
 * Page data itself is kept by struct flash (flash/flash.h); the FTL tells
 * it where each page goes.  ftl_layer.c makes it the bottom layer of the
 * request path (common/ssd_layer.h).  Portable: no kernel or libc headers.
 *
 * Block numbers are global: block = chip * blocks_per_chip + block_in_chip.
 * Physical page numbers (ppa) are block * pages_per_block + page.
 */
#ifndef SSD_FTL_H
#define SSD_FTL_H

#include "ssd_platform.h"
#include "flash.h"
#include "ssd_layer.h"

#define FTL_NONE	U32_MAX

/* Free blocks only GC may take, so it can always move valid pages. */
#define FTL_GC_RESERVED_BLOCKS	2

enum ftl_block_state {
	FTL_BLOCK_FREE,		/* erased, in its chip's free heap */
	FTL_BLOCK_OPEN,		/* being filled by a write point */
	FTL_BLOCK_FULL,		/* all pages programmed; a GC candidate */
};

struct ftl_block {
	u32 erase_count;
	u32 valid_pages;
	u32 write_ptr;		/* next page to program while OPEN */
	u32 prev, next;		/* links in its valid-count bucket while FULL */
	u64 last_program_seq;	/* ftl->program_seq when it was last programmed */
	u8 state;
};

struct ftl;

/* A pluggable GC victim policy (FEMU-style ops table). */
struct ftl_gc_policy {
	const char *name;
	/* Return a FULL block with at least one invalid page, or FTL_NONE. */
	u32 (*select_victim)(struct ftl *ftl);
};

extern const struct ftl_gc_policy ftl_gc_greedy;
extern const struct ftl_gc_policy ftl_gc_cost_benefit;

struct ftl_chip {
	u32 *free_heap;		/* min-heap of free blocks by erase count */
	u32 nr_free;
	u32 host_block;		/* host write point's open block, or FTL_NONE */
};

struct ftl_params {
	u64 logical_pages;
	u32 gc_low_free_blocks;
	const struct ftl_gc_policy *gc_policy;
};

struct ftl_counters {
	u64 host_write_pages;	/* pages the host wrote (after splitting) */
	u64 host_trim_pages;	/* mapped pages a TRIM invalidated */
	u64 gc_victim_blocks;	/* blocks GC reclaimed */
	u64 gc_relocated_pages;	/* valid pages GC moved */
	u64 gc_foreground_runs;	/* times a host write had to wait for GC */
};

struct ftl {
	struct flash *flash;
	const struct ftl_gc_policy *gc_policy;
	u64 logical_pages;
	u32 pages_per_block;
	u32 blocks_per_chip;
	u32 chips;
	u32 total_blocks;
	u32 gc_low_free_blocks;

	u32 *l2p;		/* [logical_pages] -> ppa or FTL_NONE */
	u32 *p2l;		/* [physical pages] -> lpn or FTL_NONE */
	struct ftl_block *blocks;
	struct ftl_chip *chip;
	u32 *bucket_head;	/* [pages_per_block + 1]: FULL blocks by valid count */

	u32 nr_free_blocks;	/* over all chips */
	u32 host_cursor;	/* next chip the host write point uses */
	u32 gc_block;		/* GC write point's open block, or FTL_NONE */
	u64 valid_pages;
	u64 program_seq;	/* programs so far: the FTL's clock for block age */

	struct ftl_counters counters;
};

int ftl_init(struct ftl *ftl, struct flash *flash, const struct ftl_params *params);
void ftl_exit(struct ftl *ftl);

/*
 * Map @lpn to a new page holding @buf (ownership passes to the flash),
 * programmed no earlier than @start_ns; *@done_ns is when the program ends.
 * Foreground GC it triggers occupies the chips from @start_ns on.  Returns
 * 0, or -EIO (logged, @buf freed) if the FTL's invariants are broken.
 */
int ftl_write(struct ftl *ftl, u64 lpn, void *buf, u64 start_ns, u64 *done_ns);

/*
 * Read @lpn from flash, counted under @cause: returns its data, or NULL if
 * never written or trimmed (the caller returns zeros; *@done_ns is then
 * @start_ns).  The pointer is valid until the next write or TRIM.
 */
const void *ftl_read(struct ftl *ftl, u64 lpn, enum flash_cause cause,
		     u64 start_ns, u64 *done_ns);

/* Forget @lpn's mapping (TRIM). */
void ftl_trim(struct ftl *ftl, u64 lpn);

static inline bool ftl_is_mapped(const struct ftl *ftl, u64 lpn)
{
	return ftl->l2p[lpn] != FTL_NONE;
}

/* Erase counts over all blocks. */
void ftl_erase_stats(const struct ftl *ftl, u64 *min, u64 *max, u64 *total);

/* Bytes of RAM used by the FTL's own tables. */
u64 ftl_metadata_bytes(const struct ftl *ftl);

/*
 * Check every invariant (maps agree, valid counts match the reverse map,
 * free + open + full = all blocks, buckets and heaps consistent).  Returns
 * 0 or a negative code after logging the first violation.  O(capacity).
 */
int ftl_check(const struct ftl *ftl);

/* The FTL as a layer (ftl_layer.c). */
extern const struct ssd_layer_type ftl_layer_type;
/* The FTL under @layer if it is the FTL's layer, else NULL (for tests). */
struct ftl *ftl_from_layer(struct ssd_layer *layer);
u64 ftl_config_gc_low_free_blocks(const struct ssd_config *cfg);

/* Internal to ftl/: block lists and allocation (ftl_alloc.c). */
void ftl_bucket_insert(struct ftl *ftl, u32 block);
void ftl_bucket_remove(struct ftl *ftl, u32 block);
void ftl_free_push(struct ftl *ftl, u32 block);
u32 ftl_free_pop(struct ftl *ftl, u32 chip);
u32 ftl_take_page(struct ftl *ftl, u32 block);

/* Internal to ftl/: garbage collection (ftl_gc.c). */
int ftl_gc_until_free(struct ftl *ftl, u32 target_free_blocks, u64 start_ns);
u32 ftl_gc_open_block(struct ftl *ftl, u32 preferred_chip);

#endif /* SSD_FTL_H */

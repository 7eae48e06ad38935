/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash.h - the flash array below the FTL: the data each physical page holds
 * and the physical operations (read, program, erase) counted by cause.
 *
 * Page data lives in RAM, one buffer per programmed page, taken from
 * flash_buffer_get() by the caller and owned by the flash once programmed.
 * A page whose data becomes invalid gives its buffer back at once, so RAM
 * use follows valid data, not capacity; up to FLASH_SPARE_BUFFERS of them
 * are kept for the next writes instead of going back to the allocator.
 * The data store has a cap (flash_set_data_limit(), from the device's
 * memory limit): at most max_data_pages pages hold data, which the front
 * end checks before a write (flash_has_room()), and no more than
 * max_data_pages + FLASH_SPARE_BUFFERS buffers exist at once, which
 * flash_buffer_get() enforces whatever the layers above do.
 * Every operation also takes its time on the chips and channels
 * of the timing model (timing.h): it starts no earlier than the start time
 * it is given and returns when it ends.
 *
 * Every block has a cell mode: TLC (three bits per cell, all pages_per_block
 * pages) or SLC (one bit per cell: only the first pages_per_block / 3 pages
 * exist; the rest are never programmed).  An SLC block's reads, programs
 * and erases take the SLC latencies, and are also counted on their own.
 * Blocks start as TLC; the FTL sets the mode of the blocks it runs as SLC
 * while they are erased.  Portable: used unchanged by the kernel module and
 * by ssdsim.
 */
#ifndef SSD_FLASH_H
#define SSD_FLASH_H

#include "ssd_platform.h"
#include "timing.h"

#define FLASH_PPA_NONE	U32_MAX

/* Freed page buffers kept for reuse: overwrites then allocate nothing. */
#define FLASH_SPARE_BUFFERS	256

/* Why a physical operation happened: lets WAF be explained, not only quoted. */
enum flash_cause {
	FLASH_CAUSE_HOST,	/* a host read or write (incl. read-modify-write) */
	FLASH_CAUSE_GC,		/* garbage collection moving valid pages */
	FLASH_CAUSE_DESTAGE,	/* the write cache moving a page from SLC to TLC */
	FLASH_CAUSE_NR,
};

struct flash_geometry {
	u32 page_size_bytes;
	u32 pages_per_block;
	u32 blocks_per_chip;
	u32 chips;
	u32 channels;
};

struct flash {
	struct flash_geometry geo;
	struct ssd_timing *timing;
	u64 total_pages;
	u32 total_blocks;
	void **page_data;		/* [total_pages]: NULL if erased/invalid */
	u8 *cell_mode;			/* [total_blocks]: enum flash_cell_mode */
	u64 data_pages;			/* pages holding a buffer */
	u64 max_data_pages;		/* the cap of data_pages */
	u64 nr_buffers;			/* buffers allocated: data, spare, in use */
	void *spare[FLASH_SPARE_BUFFERS];
	u32 nr_spare;
	/* Counters, reset by flash_reset_counters(); all modes. */
	u64 program_pages[FLASH_CAUSE_NR];
	u64 read_pages[FLASH_CAUSE_NR];
	u64 erase_blocks;
	/* Of those, the ones on SLC-mode blocks. */
	u64 slc_program_pages;
	u64 slc_read_pages;
	u64 slc_erase_blocks;
};

/* Bytes of the page table flash_init() allocates (see ssd_tables_add()). */
u64 flash_table_bytes(const struct flash_geometry *geo);

int flash_init(struct flash *fl, const struct flash_geometry *geo,
	       struct ssd_timing *timing);
void flash_exit(struct flash *fl);

/* Hold at most @max_pages pages of data (flash_init(): every page). */
void flash_set_data_limit(struct flash *fl, u64 max_pages);

/* Whether @new_pages more pages of data fit under the cap. */
static inline bool flash_has_room(const struct flash *fl, u64 new_pages)
{
	return fl->data_pages + new_pages <= fl->max_data_pages;
}

static inline u32 flash_block_of(const struct flash *fl, u32 ppa)
{
	return ppa / fl->geo.pages_per_block;
}

static inline u32 flash_chip_of_block(const struct flash *fl, u32 block)
{
	return block / fl->geo.blocks_per_chip;
}

static inline u32 flash_first_ppa(const struct flash *fl, u32 block)
{
	return block * fl->geo.pages_per_block;
}

static inline enum flash_cell_mode flash_block_mode(const struct flash *fl, u32 block)
{
	return fl->cell_mode[block];
}

/* Pages a block holds in cell mode @mode: SLC keeps one bit of three. */
static inline u32 flash_mode_pages(const struct flash *fl, enum flash_cell_mode mode)
{
	return mode == FLASH_MODE_SLC ? fl->geo.pages_per_block / 3 :
	       fl->geo.pages_per_block;
}

/*
 * Run erased @block in cell mode @mode from now on; -EIO (warned once) if
 * it holds data: an FTL bug.
 */
int flash_set_block_mode(struct flash *fl, u32 block, enum flash_cell_mode mode);

/* Zero the operation counters (a statistics reset). */
void flash_reset_counters(struct flash *fl);

/*
 * Make sure min(@count, FLASH_SPARE_BUFFERS) spare buffers are ready, so a
 * request of @count page writes cannot fail half way; -ENOMEM otherwise.
 * (Only userspace sends requests larger than the pool; its extra buffers
 * are allocated as it goes.)
 */
int flash_reserve_buffers(struct flash *fl, u32 count);

/*
 * A page buffer for a write (a spare one if any); NULL if out of memory or
 * if max_data_pages + FLASH_SPARE_BUFFERS buffers exist already.
 */
void *flash_buffer_get(struct flash *fl);

/* Give back a buffer flash_buffer_get() returned and nobody programmed. */
void flash_buffer_put(struct flash *fl, void *buf);

/*
 * Program @ppa (erased) with @buf; the flash owns @buf from now on.
 * *@done_ns is when the program ends.  -EIO (warned once, @buf freed) if
 * the page holds data or lies beyond the pages its block's mode has: an
 * FTL bug.
 */
int flash_program(struct flash *fl, u32 ppa, void *buf, enum flash_cause cause,
		  u64 start_ns, u64 *done_ns);

/*
 * Read @ppa: returns its data, valid until the page is invalidated, and in
 * *@done_ns when the data reached the controller.
 */
const void *flash_read(struct flash *fl, u32 ppa, enum flash_cause cause,
		       u64 start_ns, u64 *done_ns);

/*
 * Sense a page that holds no data (never written, or trimmed) of page type
 * @type on @chip, in TLC mode, counted under @cause; the caller returns
 * zeros.  Returns when the page reached the controller.
 */
u64 flash_read_blank(struct flash *fl, u32 chip, enum flash_page_type type,
		     enum flash_cause cause, u64 start_ns);

/* Read @src and program its data into @dst (GC relocation); as above. */
int flash_copy(struct flash *fl, u32 src, u32 dst, enum flash_cause cause,
	       u64 start_ns, u64 *done_ns);

/* @ppa no longer holds live data: free its buffer. */
void flash_invalidate(struct flash *fl, u32 ppa);

/* Erase @block: every page in it must already be invalid. */
u64 flash_erase(struct flash *fl, u32 block, u64 start_ns);

/* Bytes of RAM used by page data, by spare buffers, and by the page and block tables. */
u64 flash_data_bytes(const struct flash *fl);
u64 flash_spare_bytes(const struct flash *fl);
u64 flash_metadata_bytes(const struct flash *fl);

#endif /* SSD_FLASH_H */

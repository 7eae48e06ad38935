/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash.h - the flash array below the FTL, the folder's public header:
 * the data each physical page holds, the physical operations (read,
 * program, erase) counted by cause, and their time on the chips and
 * channels of the timing model (flash_timing.h, private to flash/), which
 * the flash owns.  Only the FTL may include it: the front end, which owns
 * the flash, sees its device services alone (flash_services.h, which this
 * header includes: the struct, its life, clock, counters and snapshot).
 *
 * Page data lives in RAM, one page buffer of the device's pool
 * (common/ssd_pagepool.h) per programmed page, owned by the flash once
 * programmed.  A page whose data becomes invalid gives its buffer back to
 * the pool at once, so RAM use follows valid data, not capacity.  What a
 * buffer holds follows data_store (bytes, or a digest of them); with
 * data_store=none there is no buffer and no page table: one bit per page
 * says whether it holds data, and a read of such a page returns the pool's
 * token (no bytes).  Every
 * operation takes its time on the chips and channels: it starts no
 * earlier than the start time it is given and returns when it ends.
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

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"
#include "common/ssd_layer.h"
#include "common/ssd_pagepool.h"
#include "common/ssd_rand.h"
#include "common/ssd_stats.h"
#include "flash/flash_services.h"

#define FLASH_PPA_NONE	U32_MAX

enum flash_cell_mode {
	FLASH_MODE_TLC,		/* three bits per cell: the main flash */
	FLASH_MODE_SLC,		/* one bit per cell: fast cache blocks */
	FLASH_MODE_NR,
};

/* TLC page types, in programming order within a word line. */
enum flash_page_type {
	FLASH_PAGE_LSB,
	FLASH_PAGE_CSB,
	FLASH_PAGE_MSB,
	FLASH_PAGE_NR,
};

/* Whether @ppa holds data (programmed, not yet invalidated). */
static inline bool flash_page_holds(const struct flash *fl, u32 ppa)
{
	if (fl->page_data)
		return fl->page_data[ppa] != NULL;
	return (fl->live_bits[ppa / 64] >> (ppa % 64)) & 1;
}

/*
 * The data @ppa holds (its buffer; with data_store=none the pool's token),
 * NULL if none.  Nothing counted, no time.
 */
static inline const void *flash_page_data(const struct flash *fl, u32 ppa)
{
	if (fl->page_data)
		return fl->page_data[ppa];
	return flash_page_holds(fl, ppa) ? &fl->pool->token : NULL;
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
int ssd_flash_set_block_mode(struct flash *fl, u32 block, enum flash_cell_mode mode);

/* When @chip can start a new operation in FIFO order, at the earliest. */
u64 ssd_flash_chip_free_ns(const struct flash *fl, u32 chip);

/*
 * Program @ppa (erased) with @buf; the flash owns @buf from now on.
 * *@done_ns is when the program ends.  -EIO (warned once, @buf given back)
 * if the page holds data or lies beyond the pages its block's mode has: an
 * FTL bug.
 */
int ssd_flash_program(struct flash *fl, u32 ppa, void *buf, enum ssd_cause cause,
		  u64 start_ns, u64 *done_ns);

/*
 * Program erased @ppa with the FTL's own metadata (a DFTL translation
 * page): timed and counted under @cause like any program, but no page
 * buffer is kept, so data_pages and the data store do not change.  -EIO
 * (warned once) if the page holds data or lies beyond its block's mode.
 */
int ssd_flash_program_meta(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
		       u64 *done_ns);

/*
 * Read @ppa: returns its data, valid until the page is invalidated, and in
 * *@done_ns when the data reached the controller.
 */
const void *ssd_flash_read(struct flash *fl, u32 ppa, enum ssd_cause cause,
		       u64 start_ns, u64 *done_ns);

/*
 * ssd_flash_read() that says whether the data read was correct: 0, or
 * -EBADMSG if the page is uncorrectable (the read error model, flash_ecc.c:
 * rber_base_ppb > 0), which the FTL reports for host reads; *@data is the
 * page's data either way (the model changes no data).
 */
int ssd_flash_read_checked(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
			   u64 *done_ns, const void **data);

/*
 * Sense a page that holds no data (never written, or trimmed) of page type
 * @type on @chip, in TLC mode, counted under @cause; the caller returns
 * zeros.  Returns when the page reached the controller.
 */
u64 ssd_flash_read_blank(struct flash *fl, u32 chip, enum flash_page_type type,
		     enum ssd_cause cause, u64 start_ns);

/* Read @src and program its data into @dst (GC relocation); as above. */
int ssd_flash_copy(struct flash *fl, u32 src, u32 dst, enum ssd_cause cause,
	       u64 start_ns, u64 *done_ns);

/* @ppa no longer holds live data: its buffer goes back to the pool. */
void ssd_flash_invalidate(struct flash *fl, u32 ppa);

/* Erase @block: every page in it must already be invalid. */
u64 ssd_flash_erase(struct flash *fl, u32 block, u64 start_ns);

/*
 * Wear-out faults (flash_wear.c).  ssd_flash_fail_ppm() is the chance in
 * ppm that a program or erase of a block at @erase_count erases fails:
 * 0 below @pe_cycle_limit, @grown_bad_ppm at it, doubling every
 * max(1, limit / 10) erases past it, capped at 10^6.
 */
u64 ssd_flash_fail_ppm(u64 grown_bad_ppm, u64 pe_cycle_limit, u64 erase_count);
/*
 * Whether programming @ppa of a block at @erase_count erases fails now
 * (a draw only when the chance is not 0).  A failed program takes its
 * time on the chip (*@done_ns when it ends), is counted as a failure, and
 * leaves the page holding nothing: the caller keeps its buffer.
 */
bool ssd_flash_program_fails(struct flash *fl, u32 ppa, u64 erase_count, u64 start_ns,
			     u64 *done_ns);
/* Whether the erase of a block that just reached @erase_count erases failed. */
bool ssd_flash_erase_fails(struct flash *fl, u64 erase_count);

/* End of life: from now on the device refuses every write and TRIM. */
void ssd_flash_set_read_only(struct flash *fl);
/* The wear state (PRNG, failures, read-only) in the FTL's snapshot tail. */
void ssd_flash_wear_save(const struct flash *fl, struct ssd_snap_writer *w);
void ssd_flash_wear_load(struct flash *fl, struct ssd_snap_reader *r);

/*
 * The erase count of @block the read error model uses (rber_wear_ppb):
 * the FTL's, given after a snapshot load (the model counts erases itself
 * from then on).  Nothing when the model is off.
 */
void ssd_flash_set_erase_count(struct flash *fl, u32 block, u32 erase_count);

#endif /* SSD_FLASH_H */

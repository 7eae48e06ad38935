/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash_services.h - the device services of the flash: what the front end
 * (device/), which owns the physical device, may call on it.  The front
 * end builds the flash and takes it apart, keeps its clock (the timing
 * horizon a command's flash operations may not start before), asks
 * whether it reached its end of life and counts the host pages refused
 * then, gathers and resets its counters, caps the data it holds, and saves
 * and loads it in a snapshot.  Its pages it reaches only through the
 * layers (common/ssd_layer.h): programs, reads, erases and cell modes are
 * flash.h, the FTL's alone.  layers.mk lets the front end see this header
 * and no other of flash/; flash.h includes it, so the FTL sees both.
 *
 * struct flash is here because the front end holds one in its device; it
 * reads none of its fields (tests/style/test_layering.py holds it to
 * that).  Portable.
 */
#ifndef SSD_FLASH_SERVICES_H
#define SSD_FLASH_SERVICES_H

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"
#include "common/ssd_layer.h"
#include "common/ssd_pagepool.h"
#include "common/ssd_rand.h"
#include "common/ssd_snap.h"
#include "common/ssd_stats.h"

struct flash_geometry {
	u32 page_size_bytes;
	u32 pages_per_block;
	u32 blocks_per_chip;
	u32 chips;
	u32 channels;
};

struct ssd_timing;
struct flash_ecc;

/*
 * Wear-out faults (flash_wear.c): whether a program or erase fails, from
 * the block's erase count, grown_bad_ppm and pe_cycle_limit, drawn from the
 * faults' own PRNG (fault_seed); the failures counted; and the end-of-life
 * read-only state the FTL sets when it runs out of spare blocks.
 */
struct flash_wear {
	struct ssd_rand rand;
	u64 grown_bad_ppm;		/* 0: nothing fails, no draw */
	u64 pe_cycle_limit;
	u64 program_failures;
	u64 erase_failures;
	u64 refused_pages;		/* host pages refused while read-only */
	bool read_only;
};

struct flash {
	struct flash_geometry geo;
	struct ssd_timing *timing;	/* chips and channels (flash_timing.h) */
	struct ssd_pagepool *pool;	/* where page buffers come from and go */
	const char *dev_name;		/* for messages */
	u64 total_pages;
	u32 total_blocks;
	void **page_data;		/* [total_pages]: NULL if erased/invalid; NULL for none */
	u64 *live_bits;			/* data_store=none: [total_pages / 64], bit = holds data */
	u8 *cell_mode;			/* [total_blocks]: enum flash_cell_mode */
	u64 data_pages;			/* pages holding a buffer */
	struct flash_ecc *ecc;		/* read errors (flash_ecc.h); NULL: off */
	/* Counters, reset by ssd_flash_reset_counters(); all modes. */
	u64 program_pages[SSD_CAUSE_NR];
	u64 read_pages[SSD_CAUSE_NR];
	u64 erase_blocks;
	/* Of those, the ones on SLC-mode blocks. */
	u64 slc_program_pages;
	u64 slc_read_pages;
	u64 slc_erase_blocks;
	struct flash_wear wear;		/* wear-out faults, end of life (flash_wear.c) */
};

/*
 * The cross-key checks of the flash's keys (the read error model's):
 * 0 or -EINVAL, logged naming the key.
 */
int ssd_flash_validate(const struct ssd_config *cfg);

/*
 * @total plus the bytes of every table ssd_flash_init() allocates for a
 * validated @cfg (the page table, the cell modes, the timing model; see
 * ssd_tables_add()).
 */
u64 ssd_flash_table_bytes(u64 total, const struct ssd_config *cfg);

/*
 * The flash of @cfg's geometry and latencies: every page erased, every
 * block TLC.  Page buffers come from and go back to @pool.  -ENOMEM.
 */
int ssd_flash_init(struct flash *fl, const struct ssd_config *cfg,
	       struct ssd_pagepool *pool, const char *dev_name);
/* Gives every page buffer back to the pool and frees the tables. */
void ssd_flash_exit(struct flash *fl);

/* The geometry's pages and blocks. */
static inline u64 flash_total_pages(const struct flash *fl)
{
	return fl->total_pages;
}

static inline u32 flash_total_blocks(const struct flash *fl)
{
	return fl->total_blocks;
}

/* Pages holding data now. */
static inline u64 flash_data_pages(const struct flash *fl)
{
	return fl->data_pages;
}

/*
 * The latest command's flash operations may start at @now_ns: nothing
 * starts earlier from now on (see flash_timing.h).  Never moves back.
 */
void ssd_flash_set_horizon(struct flash *fl, u64 now_ns);

/*
 * End of life: read-only once the FTL ran out of spare blocks
 * (ssd_flash_set_read_only(), flash.h); the front end then refuses every
 * write and TRIM, and counts the host pages it refused.
 */
static inline bool flash_read_only(const struct flash *fl)
{
	return fl->wear.read_only;
}

/* @pages host pages refused because the device is read-only. */
void ssd_flash_count_refused(struct flash *fl, u64 pages);

/*
 * Fill the flash's counters into @st: the physical size, programs, reads
 * and erases by cause and mode, chip and channel busy time, the bytes of
 * page data and of the flash's tables.
 */
void ssd_flash_get_stats(const struct flash *fl, struct ssd_stats *st);

/* Zero the operation and busy-time counters (a statistics reset). */
void ssd_flash_reset_counters(struct flash *fl);

/*
 * Snapshots (flash_snap.c): the counters, cell modes and timing state;
 * and apart, the data of every page that holds some.  Loading is into a
 * flash just initialised: it refuses (the reader's error) a bad mode, a
 * page beyond the geometry or given twice, and more than @max_pages pages.
 */
void ssd_flash_save(const struct flash *fl, struct ssd_snap_writer *w);
void ssd_flash_load(struct flash *fl, struct ssd_snap_reader *r);
void ssd_flash_save_data(const struct flash *fl, struct ssd_snap_writer *w);
void ssd_flash_load_data(struct flash *fl, struct ssd_snap_reader *r, u64 max_pages);

#endif /* SSD_FLASH_SERVICES_H */

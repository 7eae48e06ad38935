// SPDX-License-Identifier: GPL-2.0
/*
 * flash.c - page data, cell modes and physical operation counts of the
 * flash array.  See flash.h for the ownership rules of page buffers.
 */
#include "flash.h"

static u64 geo_total_pages(const struct flash_geometry *geo)
{
	return (u64)geo->chips * geo->blocks_per_chip * geo->pages_per_block;
}

u64 flash_table_bytes(const struct flash_geometry *geo)
{
	u64 bytes = ssd_tables_add(0, 1, geo_total_pages(geo), sizeof(void *));

	/* The cell mode of every block (u8, see flash_init()). */
	return ssd_tables_add(bytes, 1, (u64)geo->chips * geo->blocks_per_chip, sizeof(u8));
}

int flash_init(struct flash *fl, const struct flash_geometry *geo,
	       struct ssd_timing *timing)
{
	memset(fl, 0, sizeof(*fl));
	fl->geo = *geo;
	fl->timing = timing;
	fl->total_blocks = geo->chips * geo->blocks_per_chip;
	fl->total_pages = geo_total_pages(geo);
	fl->max_data_pages = fl->total_pages;
	fl->page_data = ssd_zalloc(fl->total_pages * sizeof(*fl->page_data));
	/* Zeroed: every block starts as TLC. */
	fl->cell_mode = ssd_zalloc((u64)fl->total_blocks * sizeof(*fl->cell_mode));
	if (!fl->page_data || !fl->cell_mode) {
		flash_exit(fl);
		return -ENOMEM;
	}
	return 0;
}

/* Every page buffer comes from here and goes back through buffer_free(). */
static void *buffer_alloc(struct flash *fl)
{
	void *buf;

	if (fl->nr_buffers >= fl->max_data_pages + FLASH_SPARE_BUFFERS)
		return NULL;
	buf = ssd_page_alloc(fl->geo.page_size_bytes);
	if (buf)
		fl->nr_buffers++;
	return buf;
}

static void buffer_free(struct flash *fl, void *buf)
{
	ssd_page_free(buf, fl->geo.page_size_bytes);
	fl->nr_buffers--;
}

void flash_exit(struct flash *fl)
{
	u64 ppa;

	while (fl->nr_spare)
		buffer_free(fl, fl->spare[--fl->nr_spare]);
	ssd_free(fl->cell_mode);
	fl->cell_mode = NULL;
	if (!fl->page_data)
		return;
	for (ppa = 0; ppa < fl->total_pages; ppa++)
		if (fl->page_data[ppa])
			buffer_free(fl, fl->page_data[ppa]);
	ssd_free(fl->page_data);
	fl->page_data = NULL;
}

void flash_set_data_limit(struct flash *fl, u64 max_pages)
{
	fl->max_data_pages = min_t(u64, max_pages, fl->total_pages);
}

int flash_reserve_buffers(struct flash *fl, u32 count)
{
	count = min_t(u32, count, FLASH_SPARE_BUFFERS);
	while (fl->nr_spare < count) {
		void *buf = buffer_alloc(fl);

		if (!buf)
			return -ENOMEM;
		fl->spare[fl->nr_spare++] = buf;
	}
	return 0;
}

void *flash_buffer_get(struct flash *fl)
{
	if (fl->nr_spare)
		return fl->spare[--fl->nr_spare];
	return buffer_alloc(fl);
}

void flash_buffer_put(struct flash *fl, void *buf)
{
	if (fl->nr_spare < FLASH_SPARE_BUFFERS)
		fl->spare[fl->nr_spare++] = buf;
	else
		buffer_free(fl, buf);
}

int flash_set_block_mode(struct flash *fl, u32 block, enum flash_cell_mode mode)
{
	u32 first = flash_first_ppa(fl, block), i;

	for (i = 0; i < fl->geo.pages_per_block; i++) {
		if (fl->page_data[first + i]) {
			ssd_warn_once("BUG: mode change of block %u with live page %u",
				      block, first + i);
			return -EIO;
		}
	}
	fl->cell_mode[block] = mode;
	return 0;
}

void flash_reset_counters(struct flash *fl)
{
	memset(fl->program_pages, 0, sizeof(fl->program_pages));
	memset(fl->read_pages, 0, sizeof(fl->read_pages));
	fl->erase_blocks = 0;
	fl->slc_program_pages = 0;
	fl->slc_read_pages = 0;
	fl->slc_erase_blocks = 0;
}

static u32 chip_of(const struct flash *fl, u32 ppa)
{
	return ppa / (fl->geo.pages_per_block * fl->geo.blocks_per_chip);
}

static enum flash_cell_mode mode_of(const struct flash *fl, u32 ppa)
{
	return fl->cell_mode[flash_block_of(fl, ppa)];
}

/*
 * Word lines hold an LSB, a CSB and an MSB page, programmed in that order.
 * SLC pages are all alike: the timing model gives every type the SLC
 * latency.
 */
static enum flash_page_type page_type_of(const struct flash *fl, u32 ppa)
{
	return (ppa % fl->geo.pages_per_block) % FLASH_PAGE_NR;
}

int flash_program(struct flash *fl, u32 ppa, void *buf, enum flash_cause cause,
		  u64 start_ns, u64 *done_ns)
{
	enum flash_cell_mode mode = mode_of(fl, ppa);

	*done_ns = start_ns;
	/* An unerased page is an FTL bug; keep the old data rather than leak. */
	if (fl->page_data[ppa]) {
		ssd_warn_once("BUG: program of unerased page %u", ppa);
		flash_buffer_put(fl, buf);
		return -EIO;
	}
	if (ppa % fl->geo.pages_per_block >= flash_mode_pages(fl, mode)) {
		ssd_warn_once("BUG: program of page %u beyond its SLC block", ppa);
		flash_buffer_put(fl, buf);
		return -EIO;
	}
	fl->page_data[ppa] = buf;
	fl->data_pages++;
	fl->program_pages[cause]++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_program_pages++;
	*done_ns = timing_program(fl->timing, chip_of(fl, ppa), mode,
				  page_type_of(fl, ppa), start_ns);
	return 0;
}

const void *flash_read(struct flash *fl, u32 ppa, enum flash_cause cause,
		       u64 start_ns, u64 *done_ns)
{
	enum flash_cell_mode mode = mode_of(fl, ppa);

	fl->read_pages[cause]++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_read_pages++;
	*done_ns = timing_read(fl->timing, chip_of(fl, ppa), mode,
			       page_type_of(fl, ppa), cause == FLASH_CAUSE_HOST, start_ns);
	return fl->page_data[ppa];
}

u64 flash_read_blank(struct flash *fl, u32 chip, enum flash_page_type type,
		     enum flash_cause cause, u64 start_ns)
{
	fl->read_pages[cause]++;
	return timing_read(fl->timing, chip, FLASH_MODE_TLC, type, cause == FLASH_CAUSE_HOST,
			   start_ns);
}

int flash_copy(struct flash *fl, u32 src, u32 dst, enum flash_cause cause,
	       u64 start_ns, u64 *done_ns)
{
	void *buf;
	u64 read_ns;

	flash_read(fl, src, cause, start_ns, &read_ns);
	buf = fl->page_data[src];
	fl->page_data[src] = NULL;
	fl->data_pages--;
	return flash_program(fl, dst, buf, cause, read_ns, done_ns);
}

void flash_invalidate(struct flash *fl, u32 ppa)
{
	if (!fl->page_data[ppa])
		return;
	flash_buffer_put(fl, fl->page_data[ppa]);
	fl->page_data[ppa] = NULL;
	fl->data_pages--;
}

u64 flash_erase(struct flash *fl, u32 block, u64 start_ns)
{
	enum flash_cell_mode mode = flash_block_mode(fl, block);
	u32 first = flash_first_ppa(fl, block);
	u32 i;

	for (i = 0; i < fl->geo.pages_per_block; i++) {
		if (fl->page_data[first + i]) {
			ssd_warn_once("BUG: erase of block %u with live page %u",
				      block, first + i);
			flash_invalidate(fl, first + i);
		}
	}
	fl->erase_blocks++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_erase_blocks++;
	return timing_erase(fl->timing, flash_chip_of_block(fl, block), mode, start_ns);
}

u64 flash_data_bytes(const struct flash *fl)
{
	return fl->data_pages * fl->geo.page_size_bytes;
}

u64 flash_spare_bytes(const struct flash *fl)
{
	return (u64)fl->nr_spare * fl->geo.page_size_bytes;
}

u64 flash_metadata_bytes(const struct flash *fl)
{
	return fl->total_pages * sizeof(*fl->page_data) +
	       (u64)fl->total_blocks * sizeof(*fl->cell_mode);
}

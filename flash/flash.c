// SPDX-License-Identifier: GPL-2.0
/*
 * flash.c - page data, cell modes and physical operation counts of the
 * flash array, over its timing model.  See flash.h for the ownership
 * rules of page buffers.
 */
#include "flash/flash.h"
#include "flash/flash_config.h"
#include "flash/flash_ecc.h"
#include "flash/flash_timing.h"

static u64 geo_total_pages(const struct flash_geometry *geo)
{
	return (u64)geo->chips * geo->blocks_per_chip * geo->pages_per_block;
}

u64 ssd_flash_table_bytes(u64 total, const struct ssd_config *cfg)
{
	struct flash_geometry geo;

	ssd_flash_geometry_from(cfg, &geo);
	/* A buffer pointer per page, or with data_store=none a bit. */
	if (cfg->data_store == SSD_DATA_NONE)
		total = ssd_tables_add(total, 1, (geo_total_pages(&geo) + 63) >> 6,
				       sizeof(u64));
	else
		total = ssd_tables_add(total, 1, geo_total_pages(&geo), sizeof(void *));
	/* The cell mode of every block (u8, see ssd_flash_init()). */
	total = ssd_tables_add(total, 1, (u64)geo.chips * geo.blocks_per_chip, sizeof(u8));
	total = ssd_tables_add(total, 1, 1, sizeof(struct ssd_timing));
	total = ssd_flash_ecc_table_bytes(total, cfg, geo.chips * geo.blocks_per_chip);
	return ssd_timing_table_bytes(total, geo.chips, geo.channels);
}

int ssd_flash_init(struct flash *fl, const struct ssd_config *cfg,
	       struct ssd_pagepool *pool, const char *dev_name)
{
	struct timing_params tparams;
	int ret;

	memset(fl, 0, sizeof(*fl));
	ssd_flash_geometry_from(cfg, &fl->geo);
	fl->pool = pool;
	fl->dev_name = dev_name;
	fl->total_blocks = fl->geo.chips * fl->geo.blocks_per_chip;
	fl->total_pages = geo_total_pages(&fl->geo);
	if (cfg->data_store == SSD_DATA_NONE)
		fl->live_bits = ssd_zalloc(((fl->total_pages + 63) >> 6) *
					   sizeof(*fl->live_bits));
	else
		fl->page_data = ssd_zalloc(fl->total_pages * sizeof(*fl->page_data));
	/* Zeroed: every block starts as TLC. */
	fl->cell_mode = ssd_zalloc((u64)fl->total_blocks * sizeof(*fl->cell_mode));
	fl->timing = ssd_zalloc(sizeof(*fl->timing));
	if ((!fl->page_data && !fl->live_bits) || !fl->cell_mode || !fl->timing) {
		ret = -ENOMEM;
		goto fail;
	}
	ssd_flash_wear_init(fl, cfg);
	ssd_flash_timing_params_from(cfg, &tparams);
	ret = ssd_timing_init(fl->timing, &tparams);
	if (ret) {
		ssd_free(fl->timing);
		fl->timing = NULL;
		goto fail;
	}
	ret = ssd_flash_ecc_init(fl, cfg);
	if (ret)
		goto fail;
	return 0;

fail:
	ssd_flash_exit(fl);
	return ret;
}

void ssd_flash_exit(struct flash *fl)
{
	u64 ppa;

	ssd_flash_ecc_exit(fl);
	if (fl->timing) {
		ssd_timing_exit(fl->timing);
		ssd_free(fl->timing);
		fl->timing = NULL;
	}
	ssd_free(fl->cell_mode);
	fl->cell_mode = NULL;
	ssd_free(fl->live_bits);
	fl->live_bits = NULL;
	if (!fl->page_data)
		return;
	for (ppa = 0; ppa < fl->total_pages; ppa++)
		if (fl->page_data[ppa])
			ssd_pagepool_put(fl->pool, fl->page_data[ppa]);
	ssd_free(fl->page_data);
	fl->page_data = NULL;
}

int ssd_flash_set_block_mode(struct flash *fl, u32 block, enum flash_cell_mode mode)
{
	u32 first = flash_first_ppa(fl, block), i;

	for (i = 0; i < fl->geo.pages_per_block; i++) {
		if (flash_page_holds(fl, first + i)) {
			ssd_dev_warn_once(fl->dev_name, "BUG: mode change of block %u with live page %u",
				      block, first + i);
			return -EIO;
		}
	}
	fl->cell_mode[block] = mode;
	return 0;
}

void ssd_flash_set_horizon(struct flash *fl, u64 now_ns)
{
	ssd_timing_set_horizon(fl->timing, now_ns);
}

u64 ssd_flash_chip_free_ns(const struct flash *fl, u32 chip)
{
	return timing_chip_free_ns(fl->timing, chip);
}

void ssd_flash_reset_counters(struct flash *fl)
{
	memset(&fl->timing->counters, 0, sizeof(fl->timing->counters));
	memset(fl->program_pages, 0, sizeof(fl->program_pages));
	memset(fl->read_pages, 0, sizeof(fl->read_pages));
	fl->erase_blocks = 0;
	fl->slc_program_pages = 0;
	fl->slc_read_pages = 0;
	fl->slc_erase_blocks = 0;
	ssd_flash_ecc_reset_counters(fl);
	fl->wear.program_failures = 0;
	fl->wear.erase_failures = 0;
	fl->wear.refused_pages = 0;
}

static u32 chip_of(const struct flash *fl, u32 ppa)
{
	return ppa / (fl->geo.pages_per_block * fl->geo.blocks_per_chip);
}

static enum flash_cell_mode mode_of(const struct flash *fl, u32 ppa)
{
	return fl->cell_mode[flash_block_of(fl, ppa)];
}

/* @ppa holds @buf from now on (a buffer, or the token with no page table). */
static void set_data(struct flash *fl, u32 ppa, void *buf)
{
	if (fl->page_data)
		fl->page_data[ppa] = buf;
	else
		fl->live_bits[ppa / 64] |= 1ULL << (ppa % 64);
	fl->data_pages++;
}

/* @ppa holds nothing from now on; returns the buffer it held. */
static void *take_data(struct flash *fl, u32 ppa)
{
	void *buf;

	fl->data_pages--;
	if (!fl->page_data) {
		fl->live_bits[ppa / 64] &= ~(1ULL << (ppa % 64));
		return &fl->pool->token;
	}
	buf = fl->page_data[ppa];
	fl->page_data[ppa] = NULL;
	return buf;
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

int ssd_flash_program(struct flash *fl, u32 ppa, void *buf, enum ssd_cause cause,
		  u64 start_ns, u64 *done_ns)
{
	enum flash_cell_mode mode = mode_of(fl, ppa);

	*done_ns = start_ns;
	/* An unerased page is an FTL bug; keep the old data rather than leak. */
	if (flash_page_holds(fl, ppa)) {
		ssd_dev_warn_once(fl->dev_name, "BUG: program of unerased page %u", ppa);
		ssd_pagepool_put(fl->pool, buf);
		return -EIO;
	}
	if (ppa % fl->geo.pages_per_block >= flash_mode_pages(fl, mode)) {
		ssd_dev_warn_once(fl->dev_name, "BUG: program of page %u beyond its SLC block", ppa);
		ssd_pagepool_put(fl->pool, buf);
		return -EIO;
	}
	set_data(fl, ppa, buf);
	fl->program_pages[cause]++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_program_pages++;
	*done_ns = ssd_timing_program(fl->timing, chip_of(fl, ppa), mode,
				  page_type_of(fl, ppa), start_ns);
	ssd_flash_ecc_programmed(fl, flash_block_of(fl, ppa), *done_ns);
	return 0;
}

int ssd_flash_program_meta(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
		       u64 *done_ns)
{
	enum flash_cell_mode mode = mode_of(fl, ppa);

	*done_ns = start_ns;
	if (flash_page_holds(fl, ppa) ||
	    ppa % fl->geo.pages_per_block >= flash_mode_pages(fl, mode)) {
		ssd_dev_warn_once(fl->dev_name, "BUG: metadata program of page %u", ppa);
		return -EIO;
	}
	fl->program_pages[cause]++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_program_pages++;
	*done_ns = ssd_timing_program(fl->timing, chip_of(fl, ppa), mode,
				  page_type_of(fl, ppa), start_ns);
	return 0;
}

int ssd_flash_read_checked(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
			   u64 *done_ns, const void **data)
{
	enum flash_cell_mode mode = mode_of(fl, ppa);

	fl->read_pages[cause]++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_read_pages++;
	*done_ns = ssd_timing_read(fl->timing, chip_of(fl, ppa), mode,
			       page_type_of(fl, ppa), cause == SSD_CAUSE_HOST, start_ns);
	*data = flash_page_data(fl, ppa);
	return ssd_flash_ecc_read(fl, ppa, cause, start_ns, done_ns);
}

const void *ssd_flash_read(struct flash *fl, u32 ppa, enum ssd_cause cause,
		       u64 start_ns, u64 *done_ns)
{
	const void *data;

	ssd_flash_read_checked(fl, ppa, cause, start_ns, done_ns, &data);
	return data;
}

u64 ssd_flash_read_blank(struct flash *fl, u32 chip, enum flash_page_type type,
		     enum ssd_cause cause, u64 start_ns)
{
	fl->read_pages[cause]++;
	return ssd_timing_read(fl->timing, chip, FLASH_MODE_TLC, type, cause == SSD_CAUSE_HOST,
			   start_ns);
}

int ssd_flash_copy(struct flash *fl, u32 src, u32 dst, enum ssd_cause cause,
	       u64 start_ns, u64 *done_ns)
{
	void *buf;
	u64 read_ns;

	ssd_flash_read(fl, src, cause, start_ns, &read_ns);
	buf = take_data(fl, src);
	return ssd_flash_program(fl, dst, buf, cause, read_ns, done_ns);
}

void ssd_flash_invalidate(struct flash *fl, u32 ppa)
{
	if (!flash_page_holds(fl, ppa))
		return;
	ssd_pagepool_put(fl->pool, take_data(fl, ppa));
}

u64 ssd_flash_erase(struct flash *fl, u32 block, u64 start_ns)
{
	enum flash_cell_mode mode = flash_block_mode(fl, block);
	u32 first = flash_first_ppa(fl, block);
	u32 i;

	for (i = 0; i < fl->geo.pages_per_block; i++) {
		if (flash_page_holds(fl, first + i)) {
			ssd_dev_warn_once(fl->dev_name, "BUG: erase of block %u with live page %u",
				      block, first + i);
			ssd_flash_invalidate(fl, first + i);
		}
	}
	fl->erase_blocks++;
	if (mode == FLASH_MODE_SLC)
		fl->slc_erase_blocks++;
	ssd_flash_ecc_erased(fl, block);
	return ssd_timing_erase(fl->timing, flash_chip_of_block(fl, block), mode, start_ns);
}

void ssd_flash_get_stats(const struct flash *fl, struct ssd_stats *st)
{
	st->physical_capacity_bytes = fl->total_pages * fl->geo.page_size_bytes;
	st->page_size_bytes = fl->geo.page_size_bytes;
	st->pages_per_block = fl->geo.pages_per_block;
	st->total_blocks = fl->total_blocks;

	st->flash_program_host_pages = fl->program_pages[SSD_CAUSE_HOST];
	st->flash_program_gc_pages = fl->program_pages[SSD_CAUSE_GC];
	st->flash_program_destage_pages = fl->program_pages[SSD_CAUSE_DESTAGE];
	st->flash_program_fill_pages = fl->program_pages[SSD_CAUSE_FILL];
	st->flash_program_map_pages = fl->program_pages[SSD_CAUSE_MAP];
	st->flash_program_merge_pages = fl->program_pages[SSD_CAUSE_MERGE];
	st->flash_program_pages = st->flash_program_host_pages +
				  st->flash_program_gc_pages +
				  st->flash_program_destage_pages +
				  st->flash_program_fill_pages +
				  st->flash_program_map_pages +
				  st->flash_program_merge_pages;
	st->flash_read_host_pages = fl->read_pages[SSD_CAUSE_HOST];
	st->flash_read_gc_pages = fl->read_pages[SSD_CAUSE_GC];
	st->flash_read_destage_pages = fl->read_pages[SSD_CAUSE_DESTAGE];
	st->flash_read_map_pages = fl->read_pages[SSD_CAUSE_MAP];
	st->flash_read_merge_pages = fl->read_pages[SSD_CAUSE_MERGE];
	st->flash_read_pages = st->flash_read_host_pages + st->flash_read_gc_pages +
			       st->flash_read_destage_pages +
			       fl->read_pages[SSD_CAUSE_FILL] + st->flash_read_map_pages +
			       st->flash_read_merge_pages;
	st->flash_erase_blocks = fl->erase_blocks;
	st->flash_program_slc_pages = fl->slc_program_pages;
	st->flash_read_slc_pages = fl->slc_read_pages;
	st->flash_erase_slc_blocks = fl->slc_erase_blocks;
	st->flash_program_tlc_pages = st->flash_program_pages - fl->slc_program_pages;
	st->flash_erase_tlc_blocks = fl->erase_blocks - fl->slc_erase_blocks;
	st->flash_metadata_bytes = (fl->page_data ? fl->total_pages * sizeof(*fl->page_data) :
				    ((fl->total_pages + 63) >> 6) * sizeof(*fl->live_bits)) +
				   (u64)fl->total_blocks * sizeof(*fl->cell_mode);
	/* What the pages hold, as the host wrote it (the store may keep less). */
	st->data_bytes = fl->data_pages * fl->geo.page_size_bytes;
	st->flash_program_failures = fl->wear.program_failures;
	st->flash_erase_failures = fl->wear.erase_failures;
	st->read_only = fl->wear.read_only;
	st->host_write_refused_pages = fl->wear.refused_pages;
	st->channel_busy_ns_total = fl->timing->counters.channel_busy_ns;
	st->chip_busy_ns_total = fl->timing->counters.chip_busy_ns;
	ssd_flash_ecc_get_stats(fl, st);
}

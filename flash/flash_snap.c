// SPDX-License-Identifier: GPL-2.0
/*
 * flash_snap.c - the flash in a snapshot: its counters, every block's cell
 * mode, the timing model's state and, with read errors on, the read error
 * model's (flash_ecc.c) (ssd_flash_save()); the data of every
 * page that holds some, streamed from its page buffer (ssd_flash_save_data()):
 * a page's bytes, its digest, or (data_store=none) only its number.
 * Loading refuses a mode or a page beyond the geometry, a page twice, and
 * more data than the device's cap.
 */
#include "flash/flash.h"
#include "flash/flash_ecc.h"
#include "flash/flash_timing.h"

void ssd_flash_save(const struct flash *fl, struct ssd_snap_writer *w)
{
	ssd_snap_put_array(w, fl->program_pages, SSD_CAUSE_NR, sizeof(u64));
	ssd_snap_put_array(w, fl->read_pages, SSD_CAUSE_NR, sizeof(u64));
	ssd_snap_put_u64(w, fl->erase_blocks);
	ssd_snap_put_u64(w, fl->slc_program_pages);
	ssd_snap_put_u64(w, fl->slc_read_pages);
	ssd_snap_put_u64(w, fl->slc_erase_blocks);
	ssd_snap_put_array(w, fl->cell_mode, fl->total_blocks, sizeof(u8));
	ssd_timing_save(fl->timing, w);
	/* Read errors on (rber_base_ppb > 0): the model's state last. */
	ssd_flash_ecc_save(fl, w);
}

void ssd_flash_load(struct flash *fl, struct ssd_snap_reader *r)
{
	u32 block;

	ssd_snap_get_array(r, fl->program_pages, SSD_CAUSE_NR, sizeof(u64));
	ssd_snap_get_array(r, fl->read_pages, SSD_CAUSE_NR, sizeof(u64));
	fl->erase_blocks = ssd_snap_get_u64(r);
	fl->slc_program_pages = ssd_snap_get_u64(r);
	fl->slc_read_pages = ssd_snap_get_u64(r);
	fl->slc_erase_blocks = ssd_snap_get_u64(r);
	ssd_snap_get_array(r, fl->cell_mode, fl->total_blocks, sizeof(u8));
	for (block = 0; block < fl->total_blocks && !r->error; block++)
		if (fl->cell_mode[block] >= FLASH_MODE_NR)
			ssd_snap_refuse(r, "block %u in cell mode %u", block,
					fl->cell_mode[block]);
	ssd_timing_load(fl->timing, r);
	ssd_flash_ecc_load(fl, r);
}

void ssd_flash_save_data(const struct flash *fl, struct ssd_snap_writer *w)
{
	u64 ppa;

	ssd_snap_put_u64(w, fl->data_pages);
	for (ppa = 0; ppa < fl->total_pages && !w->error; ppa++) {
		if (!flash_page_holds(fl, (u32)ppa))
			continue;
		ssd_snap_put_u32(w, (u32)ppa);
		ssd_snap_put(w, flash_page_data(fl, (u32)ppa), fl->pool->page_bytes);
	}
}

void ssd_flash_load_data(struct flash *fl, struct ssd_snap_reader *r, u64 max_pages)
{
	u64 pages = ssd_snap_get_u64(r), i;

	if (pages > max_pages) {
		ssd_snap_refuse(r, "%llu pages of data, this device holds at most %llu (memory_limit_mb)",
				(unsigned long long)pages, (unsigned long long)max_pages);
		return;
	}
	/* Each page: its number and what the data store keeps of it. */
	if (!r->error && r->section_left != pages * (4 + (u64)fl->pool->page_bytes)) {
		ssd_snap_refuse(r, "%llu bytes of page data for %llu pages, this device keeps %u bytes a page (a data_store other than the snapshot's?)",
				(unsigned long long)r->section_left, (unsigned long long)pages,
				fl->pool->page_bytes);
		return;
	}
	for (i = 0; i < pages && !r->error; i++) {
		u32 ppa = ssd_snap_get_u32(r);
		void *buf;

		if (r->error)
			return;
		if (ppa >= fl->total_pages || flash_page_holds(fl, ppa)) {
			ssd_snap_refuse(r, "page data for ppa %u: %s", ppa,
					ppa >= fl->total_pages ? "beyond the flash" : "twice");
			return;
		}
		if (ppa % fl->geo.pages_per_block >=
		    flash_mode_pages(fl, flash_block_mode(fl, flash_block_of(fl, ppa)))) {
			ssd_snap_refuse(r, "page data for ppa %u beyond its SLC block", ppa);
			return;
		}
		buf = ssd_pagepool_get(fl->pool);
		if (!buf) {
			r->error = -ENOMEM;
			return;
		}
		ssd_snap_get(r, buf, fl->pool->page_bytes);
		if (r->error) {
			ssd_pagepool_put(fl->pool, buf);
			return;
		}
		if (fl->page_data)
			fl->page_data[ppa] = buf;
		else
			fl->live_bits[ppa / 64] |= 1ULL << (ppa % 64);
		fl->data_pages++;
	}
}

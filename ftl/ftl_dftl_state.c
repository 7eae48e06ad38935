// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_dftl_state.c - DFTL's state checked and in a snapshot: the CMT (its
 * LRU order and dirty bits), the GTD, the translation pages GC left
 * pending, the translation blocks and the counters.  Loading refuses any
 * index beyond the geometry or an lpn cached twice; ssd_ftl_dftl_check()
 * (run by ssd_ftl_check()) judges the rest.
 */
#include "ftl/ftl_dftl.h"

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			ssd_dev_err(ftl->flash->dev_name, "ssd_ftl_check: dftl: " fmt, ##__VA_ARGS__); \
			return -EUCLEAN;				\
		}							\
	} while (0)

static int check_cmt(const struct ftl *ftl)
{
	const struct ftl_dftl *d = dftl_of(ftl);
	u32 slot, prev = FTL_NONE, listed = 0;
	u64 lpn, indexed = 0;

	CHECK(d->nr_used <= d->cmt_entries, "%u of %u slots used", d->nr_used, d->cmt_entries);
	for (slot = d->lru_head; slot != FTL_NONE; slot = d->slot_next[slot]) {
		CHECK(slot < d->nr_used && ++listed <= d->nr_used, "LRU list holds slot %u", slot);
		CHECK(d->slot_prev[slot] == prev, "slot %u: bad back link", slot);
		CHECK(d->slot_lpn[slot] < ftl->logical_pages &&
		      d->lpn_slot[d->slot_lpn[slot]] == slot,
		      "slot %u caches lpn %u, not indexed back", slot, d->slot_lpn[slot]);
		prev = slot;
	}
	CHECK(listed == d->nr_used && d->lru_tail == prev, "LRU list of %u, %u used", listed,
	      d->nr_used);
	for (lpn = 0; lpn < ftl->logical_pages; lpn++) {
		ssd_check_resched(lpn);
		if (d->lpn_slot[lpn] == FTL_NONE)
			continue;
		CHECK(d->lpn_slot[lpn] < d->nr_used && d->slot_lpn[d->lpn_slot[lpn]] == lpn,
		      "lpn %llu indexed to slot %u", (unsigned long long)lpn, d->lpn_slot[lpn]);
		indexed++;
	}
	CHECK(indexed == d->nr_used, "%llu lpns indexed, %u cached", (unsigned long long)indexed,
	      d->nr_used);
	return 0;
}

static int check_pending(const struct ftl *ftl)
{
	const struct ftl_dftl *d = dftl_of(ftl);
	u32 i, marked = 0;

	CHECK(d->nr_pending <= d->nr_tpages, "%u pending translation pages", d->nr_pending);
	for (i = 0; i < d->nr_pending; i++)
		CHECK(d->pending_list[i] < d->nr_tpages &&
		      d->pending[d->pending_list[i]] != DFTL_PENDING_NO,
		      "pending list holds translation page %u", d->pending_list[i]);
	for (i = 0; i < d->nr_tpages; i++) {
		CHECK(d->pending[i] <= DFTL_PENDING_DONE, "translation page %u pending %u", i,
		      d->pending[i]);
		marked += d->pending[i] != DFTL_PENDING_NO;
	}
	CHECK(marked == d->nr_pending, "%u translation pages marked, %u listed", marked,
	      d->nr_pending);
	return 0;
}

/* Translation blocks: listed once each, every valid translation page in one. */
static int check_tblocks(const struct ftl *ftl)
{
	const struct ftl_dftl *d = dftl_of(ftl);
	u32 i, j, tvpn, written = 0, counted = 0, map_blocks = 0;

	for (i = 0; i < ftl->total_blocks; i++)
		map_blocks += ftl->blocks[i].state == FTL_BLOCK_TRANSLATION;
	CHECK(d->nr_tblocks == map_blocks && d->nr_tblocks <= d->tblock_limit,
	      "%u translation blocks listed, %u in that state, limit %u", d->nr_tblocks,
	      map_blocks, d->tblock_limit);
	CHECK(d->topen == FTL_NONE ||
	      (d->topen < ftl->total_blocks &&
	       ftl->blocks[d->topen].state == FTL_BLOCK_TRANSLATION),
	      "open translation block %u", d->topen);
	for (i = 0; i < d->nr_tblocks; i++) {
		u32 b = d->tblocks[i], valid = 0;

		CHECK(b < ftl->total_blocks && ftl->blocks[b].state == FTL_BLOCK_TRANSLATION,
		      "listed translation block %u", b);
		for (j = 0; j < i; j++)
			CHECK(d->tblocks[j] != b, "translation block %u listed twice", b);
		for (tvpn = 0; tvpn < d->nr_tpages; tvpn++)
			valid += d->gtd[tvpn] != FTL_NONE && d->gtd[tvpn] / ftl->pages_per_block == b;
		CHECK(valid == ftl->blocks[b].valid_pages,
		      "translation block %u: valid_pages %u, the GTD says %u", b,
		      ftl->blocks[b].valid_pages, valid);
		counted += valid;
	}
	for (tvpn = 0; tvpn < d->nr_tpages; tvpn++) {
		u32 ppa = d->gtd[tvpn];

		if (ppa == FTL_NONE)
			continue;
		CHECK(ppa < ftl->flash->total_pages &&
		      ftl->blocks[ppa / ftl->pages_per_block].state == FTL_BLOCK_TRANSLATION &&
		      ppa % ftl->pages_per_block < ftl->blocks[ppa / ftl->pages_per_block].write_ptr,
		      "translation page %u at ppa %u", tvpn, ppa);
		written++;
	}
	CHECK(written == counted, "%u translation pages written, %u in translation blocks",
	      written, counted);
	return 0;
}

int ssd_ftl_dftl_check(const struct ftl *ftl)
{
	int ret = check_cmt(ftl);

	if (!ret)
		ret = check_pending(ftl);
	if (!ret)
		ret = check_tblocks(ftl);
	return ret;
}

void ssd_ftl_dftl_save(const struct ftl *ftl, struct ssd_snap_writer *w)
{
	const struct ftl_dftl *d = dftl_of(ftl);
	u32 slot;

	ssd_snap_put_u32(w, d->cmt_entries);
	ssd_snap_put_u32(w, d->nr_used);
	/* The CMT from the most recent entry on: lpn, dirty. */
	for (slot = d->lru_head; slot != FTL_NONE; slot = d->slot_next[slot]) {
		ssd_snap_put_u32(w, d->slot_lpn[slot]);
		ssd_snap_put_u8(w, d->slot_dirty[slot]);
	}
	ssd_snap_put_array(w, d->gtd, d->nr_tpages, sizeof(u32));
	ssd_snap_put_array(w, d->pending, d->nr_tpages, sizeof(u8));
	ssd_snap_put_u32(w, d->nr_pending);
	ssd_snap_put_array(w, d->pending_list, d->nr_pending, sizeof(u32));
	ssd_snap_put_u32(w, d->nr_tblocks);
	ssd_snap_put_array(w, d->tblocks, d->nr_tblocks, sizeof(u32));
	ssd_snap_put_u32(w, d->topen);
	ssd_snap_put_u32(w, d->tchip_cursor);
	ssd_snap_put_counters(w, &d->counters);
}

/* The CMT in LRU order, into an empty one. */
static void load_cmt(struct ftl *ftl, struct ssd_snap_reader *r)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 entries = ssd_snap_get_u32(r), used = ssd_snap_get_u32(r), slot;

	if (r->error)
		return;
	if (entries != d->cmt_entries || used > entries) {
		ssd_snap_refuse(r, "DFTL CMT of %u entries (%u used), this device has %u",
				entries, used, d->cmt_entries);
		return;
	}
	for (slot = 0; slot < used && !r->error; slot++) {
		u32 lpn = ssd_snap_get_u32(r);
		u8 dirty = ssd_snap_get_u8(r);

		if (r->error)
			return;
		if (lpn >= ftl->logical_pages || d->lpn_slot[lpn] != FTL_NONE || dirty > 1) {
			ssd_snap_refuse(r, "DFTL CMT entry %u: lpn %u dirty %u (beyond the logical space, cached twice or not 0/1)",
					slot, lpn, dirty);
			return;
		}
		d->slot_lpn[slot] = lpn;
		d->slot_dirty[slot] = dirty;
		d->lpn_slot[lpn] = slot;
		/* Saved most recent first: each goes behind the ones before. */
		ssd_slot_list_add_tail(dftl_lru(d), slot);
		d->nr_used++;
	}
}

void ssd_ftl_dftl_load(struct ftl *ftl, struct ssd_snap_reader *r)
{
	struct ftl_dftl *d = dftl_of(ftl);
	u32 i;

	load_cmt(ftl, r);
	ssd_snap_get_array(r, d->gtd, d->nr_tpages, sizeof(u32));
	for (i = 0; i < d->nr_tpages && !r->error; i++)
		if (d->gtd[i] != FTL_NONE && d->gtd[i] >= ftl->flash->total_pages)
			ssd_snap_refuse(r, "DFTL translation page %u at ppa %u, beyond the flash", i,
					d->gtd[i]);
	ssd_snap_get_array(r, d->pending, d->nr_tpages, sizeof(u8));
	d->nr_pending = ssd_snap_get_u32(r);
	if (!r->error && d->nr_pending > d->nr_tpages) {
		ssd_snap_refuse(r, "DFTL: %u pending translation pages of %u", d->nr_pending,
				d->nr_tpages);
		return;
	}
	ssd_snap_get_array(r, d->pending_list, d->nr_pending, sizeof(u32));
	for (i = 0; i < d->nr_pending && !r->error; i++)
		if (d->pending_list[i] >= d->nr_tpages)
			ssd_snap_refuse(r, "DFTL: pending translation page %u of %u",
					d->pending_list[i], d->nr_tpages);
	d->nr_tblocks = ssd_snap_get_u32(r);
	if (!r->error && d->nr_tblocks > d->tblock_limit) {
		ssd_snap_refuse(r, "DFTL: %u translation blocks, at most %u", d->nr_tblocks,
				d->tblock_limit);
		return;
	}
	ssd_snap_get_array(r, d->tblocks, d->nr_tblocks, sizeof(u32));
	for (i = 0; i < d->nr_tblocks && !r->error; i++)
		if (d->tblocks[i] >= ftl->total_blocks)
			ssd_snap_refuse(r, "DFTL: translation block %u", d->tblocks[i]);
	d->topen = ssd_snap_get_u32(r);
	d->tchip_cursor = ssd_snap_get_u32(r);
	if (!r->error && ((d->topen != FTL_NONE && d->topen >= ftl->total_blocks) ||
			  d->tchip_cursor >= ftl->chips))
		ssd_snap_refuse(r, "DFTL: open translation block %u, chip cursor %u", d->topen,
				d->tchip_cursor);
	ssd_snap_get_counters(r, &d->counters);
}

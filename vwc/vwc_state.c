// SPDX-License-Identifier: GPL-2.0
/*
 * vwc_state.c - the volatile write cache's state as a whole: its
 * consistency check (ring, hash and count agree) and its snapshot section
 * (tag WBUF): the counters, then the buffered pages oldest first, each
 * its lpn, its request and its data.  Portable.
 */
#include "vwc/vwc_internal.h"

int ssd_vwc_check(struct ssd_layer *layer)
{
	struct vwc *vc = to_vwc(layer);
	u32 i, live = 0, hashed = 0, b, e;

	if (vc->slots > vc->cap || vc->head >= vc->cap || vc->live > vc->slots) {
		ssd_dev_warn_once(vc->dev_name, "volatile write cache: %u slots, head %u, %u live of %u",
				  vc->slots, vc->head, vc->live, vc->cap);
		return -EUCLEAN;
	}
	for (i = 0; i < vc->cap; i++) {
		bool used = (i + vc->cap - vc->head) % vc->cap < vc->slots;
		const struct vwc_entry *en = &vc->ring[i];

		if (en->lpn == U64_MAX)
			continue;
		if (!used || !en->buf || vwc_find(vc, en->lpn) != i) {
			ssd_dev_warn_once(vc->dev_name, "volatile write cache: entry %u (lpn %llu) lost",
					  i, (unsigned long long)en->lpn);
			return -EUCLEAN;
		}
		live++;
	}
	for (b = 0; b <= vc->mask; b++)
		for (e = vc->buckets[b]; e != VWC_NONE && hashed <= vc->cap; e = vc->ring[e].next)
			hashed++;
	if (live != vc->live || hashed != live) {
		ssd_dev_warn_once(vc->dev_name, "volatile write cache: %u live, %u hashed, %u counted",
				  live, hashed, vc->live);
		return -EUCLEAN;
	}
	return 0;
}

/* Counters, then the buffered pages oldest first: lpn, request, data. */
void ssd_vwc_save(struct ssd_layer *layer, struct ssd_snap_writer *w)
{
	struct vwc *vc = to_vwc(layer);
	u32 i;

	ssd_snap_put_u64(w, vc->hit_pages);
	ssd_snap_put_u64(w, vc->flushes);
	ssd_snap_put_u32(w, vc->live);
	for (i = 0; i < vc->slots; i++) {
		const struct vwc_entry *en = &vc->ring[(vc->head + i) % vc->cap];

		if (en->lpn == U64_MAX)
			continue;
		ssd_snap_put_u64(w, en->lpn);
		ssd_snap_put_u64(w, en->request_seq);
		ssd_snap_put_u64(w, en->request_bytes);
		ssd_snap_put(w, en->buf, vc->pool->page_bytes);
	}
}

void ssd_vwc_load(struct ssd_layer *layer, struct ssd_snap_reader *r)
{
	struct vwc *vc = to_vwc(layer);
	u64 pages = vc->pages;
	u32 live, i;

	vc->hit_pages = ssd_snap_get_u64(r);
	vc->flushes = ssd_snap_get_u64(r);
	live = ssd_snap_get_u32(r);
	if (!r->error && live > vc->cap) {
		ssd_snap_refuse(r, "%u pages in a volatile write cache of %u", live, vc->cap);
		return;
	}
	for (i = 0; i < live && !r->error; i++) {
		u64 lpn = ssd_snap_get_u64(r);
		u64 seq = ssd_snap_get_u64(r);
		u64 bytes = ssd_snap_get_u64(r);
		void *buf;

		if (!r->error && (lpn >= pages || vwc_find(vc, lpn) != VWC_NONE)) {
			ssd_snap_refuse(r, "volatile write cache page %llu out of range or twice",
					(unsigned long long)lpn);
			return;
		}
		buf = ssd_pagepool_get(vc->pool);
		if (!buf) {
			r->error = -ENOMEM;
			return;
		}
		ssd_snap_get(r, buf, vc->pool->page_bytes);
		if (r->error) {
			ssd_pagepool_put(vc->pool, buf);
			return;
		}
		ssd_vwc_place(vc, lpn, buf, seq, bytes);
	}
}

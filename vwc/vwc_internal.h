/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vwc_internal.h - the volatile write cache's workings, private to vwc/
 * (and the white-box unit tests): the buffer is a FIFO ring of entries,
 * oldest at head (a TRIM leaves a hole), with an lpn hash over the live
 * ones.
 *
 *   vwc.c        the layer: the data path, draining, power cuts, counters
 *   vwc_state.c  its consistency check and its snapshot section
 *
 * Portable.
 */
#ifndef SSD_VWC_INTERNAL_H
#define SSD_VWC_INTERNAL_H

#include "vwc/vwc.h"

#define VWC_NONE	U32_MAX

struct vwc_entry {
	u64 lpn;		/* U64_MAX: a hole */
	void *buf;		/* the page data (a page buffer of the pool) */
	u64 request_seq;	/* the host request it came from, passed down */
	u64 request_bytes;
	u32 next;		/* next entry of the lpn hash bucket */
};

struct vwc {
	struct ssd_layer layer;
	struct ssd_pagepool *pool;
	const char *dev_name;
	struct vwc_entry *ring;	/* [cap] */
	u32 *buckets;			/* [mask + 1] */
	u64 pages;		/* logical pages */
	u32 mask;
	u32 cap;
	u32 head;		/* oldest position */
	u32 slots;		/* positions in use, holes included */
	u32 live;		/* buffered pages */
	u64 hit_pages;		/* reads served from the buffer */
	u64 flushes;		/* FLUSH commands */
};

static inline struct vwc *to_vwc(struct ssd_layer *layer)
{
	return container_of(layer, struct vwc, layer);
}

/* The hash bucket of @lpn. */
static inline u32 vwc_bucket_of(const struct vwc *vc, u64 lpn)
{
	return (u32)((lpn * 0x9e3779b97f4a7c15ULL) >> 32) & vc->mask;
}

/* The ring position holding @lpn, or VWC_NONE. */
static inline u32 vwc_find(const struct vwc *vc, u64 lpn)
{
	u32 e = vc->buckets[vwc_bucket_of(vc, lpn)];

	while (e != VWC_NONE && vc->ring[e].lpn != lpn)
		e = vc->ring[e].next;
	return e;
}

/* Put @lpn's page @buf at the ring's end (from request @seq of @bytes). */
void ssd_vwc_place(struct vwc *vc, u64 lpn, void *buf, u64 seq, u64 bytes);

/* vwc_state.c: ssd_layer_ops.check, .save and .load. */
int ssd_vwc_check(struct ssd_layer *layer);
void ssd_vwc_save(struct ssd_layer *layer, struct ssd_snap_writer *w);
void ssd_vwc_load(struct ssd_layer *layer, struct ssd_snap_reader *r);

#endif /* SSD_VWC_INTERNAL_H */

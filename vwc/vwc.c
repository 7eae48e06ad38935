// SPDX-License-Identifier: GPL-2.0
/*
 * vwc.c - the volatile write cache layer (vwc/vwc.h says what it does):
 * reads, writes, TRIMs and FLUSHes through the buffer, draining it to the
 * layer below, power cuts, counters, and building the layer.  Its check
 * and snapshot part are vwc_state.c.  Portable.
 */
#include "vwc/vwc_internal.h"

static u32 vwc_pow2(u64 n)
{
	u32 p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* Take live entry @e out of the hash; it becomes a hole.  Its buffer is the caller's. */
static void vwc_unlink(struct vwc *vc, u32 e)
{
	u32 *link = &vc->buckets[vwc_bucket_of(vc, vc->ring[e].lpn)];

	while (*link != e)
		link = &vc->ring[*link].next;
	*link = vc->ring[e].next;
	vc->ring[e].lpn = U64_MAX;
	vc->ring[e].buf = NULL;
	vc->ring[e].next = VWC_NONE;
	vc->live--;
}

void ssd_vwc_place(struct vwc *vc, u64 lpn, void *buf, u64 seq, u64 bytes)
{
	u32 e = (vc->head + vc->slots) % vc->cap;
	u32 *bucket = &vc->buckets[vwc_bucket_of(vc, lpn)];

	vc->ring[e].lpn = lpn;
	vc->ring[e].buf = buf;
	vc->ring[e].request_seq = seq;
	vc->ring[e].request_bytes = bytes;
	vc->ring[e].next = *bucket;
	*bucket = e;
	vc->slots++;
	vc->live++;
}

/* The oldest position leaves: a page goes below from @start_ns, or a hole. */
static int vwc_pop(struct vwc *vc, u64 start_ns, u64 *done_ns)
{
	struct ssd_layer *lower = vc->layer.lower;
	struct vwc_entry en = vc->ring[vc->head];
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST,
			     .region = SSD_REGION_MAIN, .request_seq = en.request_seq,
			     .request_bytes = en.request_bytes };
	int ret;

	*done_ns = start_ns;
	if (en.lpn != U64_MAX)
		vwc_unlink(vc, vc->head);
	vc->head = (vc->head + 1) % vc->cap;
	vc->slots--;
	if (en.lpn == U64_MAX)
		return 0;
	ret = lower->ops->write(lower, en.lpn, en.buf, &io);
	*done_ns = io.done_ns;
	return ret;
}

static int vwc_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io, const void **data)
{
	struct vwc *vc = to_vwc(layer);
	u32 e = vwc_find(vc, lpn);

	if (e == VWC_NONE)
		return layer->lower->ops->read(layer->lower, lpn, io, data);
	*data = vc->ring[e].buf;
	io->done_ns = io->start_ns;
	vc->hit_pages++;
	return 0;
}

static int vwc_write(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io)
{
	struct vwc *vc = to_vwc(layer);
	u32 e = vwc_find(vc, lpn);
	u64 done = io->start_ns, page_done;
	int ret = 0;

	if (e != VWC_NONE) {
		ssd_pagepool_put(vc->pool, vc->ring[e].buf);
		vc->ring[e].buf = buf;
		vc->ring[e].request_seq = io->request_seq;
		vc->ring[e].request_bytes = io->request_bytes;
		io->done_ns = done;
		return 0;
	}
	while (vc->slots == vc->cap && !ret) {
		ret = vwc_pop(vc, io->start_ns, &page_done);
		done = max_t(u64, done, page_done);
	}
	if (ret) {
		ssd_pagepool_put(vc->pool, buf);
		return ret;
	}
	ssd_vwc_place(vc, lpn, buf, io->request_seq, io->request_bytes);
	io->done_ns = done;
	return 0;
}

static int vwc_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	struct vwc *vc = to_vwc(layer);
	u32 e = vwc_find(vc, lpn);

	if (e != VWC_NONE) {
		ssd_pagepool_put(vc->pool, vc->ring[e].buf);
		vwc_unlink(vc, e);
	}
	return layer->lower->ops->trim(layer->lower, lpn, io);
}

/* Every buffered page goes below, oldest first, from @start_ns; *@done_ns the last. */
static int vwc_drain(struct vwc *vc, u64 start_ns, u64 *done_ns)
{
	u64 page_done;
	int ret = 0;

	*done_ns = start_ns;
	while (vc->slots && !ret) {
		ret = vwc_pop(vc, start_ns, &page_done);
		*done_ns = max_t(u64, *done_ns, page_done);
		if (vc->slots % 256 == 0)
			ssd_cond_resched();
	}
	return ret;
}

static int vwc_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	struct vwc *vc = to_vwc(layer);
	struct ssd_io below = { .cause = io->cause };
	u64 done;
	int ret;

	vc->flushes++;
	ret = vwc_drain(vc, io->start_ns, &done);
	if (!ret) {
		below.start_ns = done;
		ret = layer->lower->ops->flush(layer->lower, &below);
		done = max_t(u64, done, below.done_ns);
	}
	io->done_ns = done;
	return ret;
}

static bool vwc_holds(struct ssd_layer *layer, u64 lpn)
{
	struct vwc *vc = to_vwc(layer);

	if (vwc_find(vc, lpn) != VWC_NONE)
		return true;
	for (layer = layer->lower; layer; layer = layer->lower)
		if (layer->ops->holds)
			return layer->ops->holds(layer, lpn);
	return false;
}

/* Each buffered page may take a page of the data store when it goes below. */
static u64 vwc_pending_pages(struct ssd_layer *layer)
{
	return to_vwc(layer)->live;
}

static u64 vwc_power_cut(struct ssd_layer *layer, u64 now_ns)
{
	struct vwc *vc = to_vwc(layer);
	u64 lost = vc->live;

	while (vc->slots) {
		struct vwc_entry *en = &vc->ring[vc->head];

		if (en->lpn != U64_MAX) {
			ssd_pagepool_put(vc->pool, en->buf);
			vwc_unlink(vc, vc->head);
		}
		vc->head = (vc->head + 1) % vc->cap;
		vc->slots--;
	}
	vc->head = 0;
	return lost;
}

static void vwc_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	struct vwc *vc = to_vwc(layer);

	st->write_cache_dirty_pages = vc->live;
	st->write_cache_hit_pages = vc->hit_pages;
	st->write_cache_flushes = vc->flushes;
}

static void vwc_reset_stats(struct ssd_layer *layer)
{
	struct vwc *vc = to_vwc(layer);

	vc->hit_pages = 0;
	vc->flushes = 0;
}

static void vwc_destroy(struct ssd_layer *layer)
{
	struct vwc *vc = to_vwc(layer);

	vwc_power_cut(layer, 0);
	ssd_free(vc->ring);
	ssd_free(vc->buckets);
	ssd_free(vc);
}

static const struct ssd_layer_ops vwc_ops = {
	.read = vwc_read,
	.write = vwc_write,
	.trim = vwc_trim,
	.flush = vwc_flush,
	.holds = vwc_holds,
	.pending_pages = vwc_pending_pages,
	.power_cut = vwc_power_cut,
	.get_stats = vwc_get_stats,
	.reset_stats = vwc_reset_stats,
	.check = ssd_vwc_check,
	.save = ssd_vwc_save,
	.load = ssd_vwc_load,
	.destroy = vwc_destroy,
};

static bool vwc_enabled(const struct ssd_config *cfg)
{
	return cfg->volatile_write_cache;
}

static u64 vwc_table_bytes(const struct ssd_config *cfg)
{
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct vwc));

	bytes = ssd_tables_add(bytes, 1, cfg->write_cache_pages, sizeof(struct vwc_entry));
	return ssd_tables_add(bytes, 1, vwc_pow2(cfg->write_cache_pages), sizeof(u32));
}

static int vwc_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
		       struct ssd_layer *lower, struct ssd_layer **out)
{
	struct vwc *vc;
	u32 i;

	if (!lower) {
		ssd_dev_err(cfg->name, "volatile_write_cache=1 refused: the volatile write cache needs a layer below it");
		return -EINVAL;
	}
	vc = ssd_zalloc(sizeof(*vc));
	if (!vc)
		return -ENOMEM;
	vc->cap = cfg->write_cache_pages;
	vc->pages = ssd_config_logical_pages(cfg);
	vc->mask = vwc_pow2(vc->cap) - 1;
	vc->pool = env->pool;
	vc->dev_name = env->dev_name;
	vc->ring = ssd_zalloc((size_t)vc->cap * sizeof(*vc->ring));
	vc->buckets = ssd_zalloc((size_t)(vc->mask + 1) * sizeof(u32));
	if (!vc->ring || !vc->buckets) {
		ssd_free(vc->ring);
		ssd_free(vc->buckets);
		ssd_free(vc);
		return -ENOMEM;
	}
	for (i = 0; i < vc->cap; i++) {
		vc->ring[i].lpn = U64_MAX;
		vc->ring[i].next = VWC_NONE;
	}
	for (i = 0; i <= vc->mask; i++)
		vc->buckets[i] = VWC_NONE;
	vc->layer.ops = &vwc_ops;
	vc->layer.name = "vwc";
	vc->layer.lower = lower;
	*out = &vc->layer;
	return 0;
}

const struct ssd_layer_type ssd_vwc_layer_type = {
	.name = "vwc",
	.snap_tag = SSD_SNAP_TAG('W', 'B', 'U', 'F'),
	.enabled = vwc_enabled,
	.metadata_bytes = vwc_table_bytes,
	.create = vwc_create,
};

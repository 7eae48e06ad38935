// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_wbuf.c - the volatile write cache (volatile_write_cache=1): a DRAM
 * write-back buffer of write_cache_pages pages, the top layer of the stack,
 * owned by the front end's folder (it sees common/ only, as every layer).
 *
 * A write is acknowledged once its page is in the buffer: no flash time
 * (the controller's command time is the front end's).  A rewrite of a
 * buffered page replaces its data in place; a read of one is served from
 * the buffer; a TRIM drops it and goes below.  When a new page finds the
 * buffer full, the oldest page goes to the layer below (FIFO), and the
 * write that pushed it out completes when that write below does.  A FLUSH
 * sends every page below, oldest first, then flushes the layers below (the
 * dedup write buffer), and completes when the last of them does.  A power
 * cut (ssd_layer_ops.power_cut) drops every buffered page: those writes
 * were acknowledged but never durable.
 *
 * The buffer is a FIFO ring of entries (a TRIM leaves a hole) with an lpn
 * hash over it.  Portable.
 */
#include "device/ssd_device_internal.h"

#define WBUF_NONE	U32_MAX

struct wbuf_entry {
	u64 lpn;		/* U64_MAX: a hole */
	void *buf;		/* the page data (a page buffer of the pool) */
	u64 request_seq;	/* the host request it came from, passed down */
	u64 request_bytes;
	u32 next;		/* next entry of the lpn hash bucket */
};

struct wbuf {
	struct ssd_layer layer;
	struct ssd_pagepool *pool;
	const char *dev_name;
	struct wbuf_entry *ring;	/* [cap] */
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

static struct wbuf *to_wbuf(struct ssd_layer *layer)
{
	return container_of(layer, struct wbuf, layer);
}

static u32 wbuf_pow2(u64 n)
{
	u32 p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static u32 bucket_of(const struct wbuf *wb, u64 lpn)
{
	return (u32)((lpn * 0x9e3779b97f4a7c15ULL) >> 32) & wb->mask;
}

static u32 wbuf_find(const struct wbuf *wb, u64 lpn)
{
	u32 e = wb->buckets[bucket_of(wb, lpn)];

	while (e != WBUF_NONE && wb->ring[e].lpn != lpn)
		e = wb->ring[e].next;
	return e;
}

/* Take live entry @e out of the hash; it becomes a hole.  Its buffer is the caller's. */
static void wbuf_unlink(struct wbuf *wb, u32 e)
{
	u32 *link = &wb->buckets[bucket_of(wb, wb->ring[e].lpn)];

	while (*link != e)
		link = &wb->ring[*link].next;
	*link = wb->ring[e].next;
	wb->ring[e].lpn = U64_MAX;
	wb->ring[e].buf = NULL;
	wb->ring[e].next = WBUF_NONE;
	wb->live--;
}

static void wbuf_place(struct wbuf *wb, u64 lpn, void *buf, u64 seq, u64 bytes)
{
	u32 e = (wb->head + wb->slots) % wb->cap;
	u32 *bucket = &wb->buckets[bucket_of(wb, lpn)];

	wb->ring[e].lpn = lpn;
	wb->ring[e].buf = buf;
	wb->ring[e].request_seq = seq;
	wb->ring[e].request_bytes = bytes;
	wb->ring[e].next = *bucket;
	*bucket = e;
	wb->slots++;
	wb->live++;
}

/* The oldest position leaves: a page goes below from @start_ns, or a hole. */
static int wbuf_pop(struct wbuf *wb, u64 start_ns, u64 *done_ns)
{
	struct ssd_layer *lower = wb->layer.lower;
	struct wbuf_entry en = wb->ring[wb->head];
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST,
			     .region = SSD_REGION_MAIN, .request_seq = en.request_seq,
			     .request_bytes = en.request_bytes };
	int ret;

	*done_ns = start_ns;
	if (en.lpn != U64_MAX)
		wbuf_unlink(wb, wb->head);
	wb->head = (wb->head + 1) % wb->cap;
	wb->slots--;
	if (en.lpn == U64_MAX)
		return 0;
	ret = lower->ops->write(lower, en.lpn, en.buf, &io);
	*done_ns = io.done_ns;
	return ret;
}

static int wbuf_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io, const void **data)
{
	struct wbuf *wb = to_wbuf(layer);
	u32 e = wbuf_find(wb, lpn);

	if (e == WBUF_NONE)
		return layer->lower->ops->read(layer->lower, lpn, io, data);
	*data = wb->ring[e].buf;
	io->done_ns = io->start_ns;
	wb->hit_pages++;
	return 0;
}

static int wbuf_write(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io)
{
	struct wbuf *wb = to_wbuf(layer);
	u32 e = wbuf_find(wb, lpn);
	u64 done = io->start_ns, page_done;
	int ret = 0;

	if (e != WBUF_NONE) {
		ssd_pagepool_put(wb->pool, wb->ring[e].buf);
		wb->ring[e].buf = buf;
		wb->ring[e].request_seq = io->request_seq;
		wb->ring[e].request_bytes = io->request_bytes;
		io->done_ns = done;
		return 0;
	}
	while (wb->slots == wb->cap && !ret) {
		ret = wbuf_pop(wb, io->start_ns, &page_done);
		done = max_t(u64, done, page_done);
	}
	if (ret) {
		ssd_pagepool_put(wb->pool, buf);
		return ret;
	}
	wbuf_place(wb, lpn, buf, io->request_seq, io->request_bytes);
	io->done_ns = done;
	return 0;
}

static int wbuf_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	struct wbuf *wb = to_wbuf(layer);
	u32 e = wbuf_find(wb, lpn);

	if (e != WBUF_NONE) {
		ssd_pagepool_put(wb->pool, wb->ring[e].buf);
		wbuf_unlink(wb, e);
	}
	return layer->lower->ops->trim(layer->lower, lpn, io);
}

/* Every buffered page goes below, oldest first, from @start_ns; *@done_ns the last. */
static int wbuf_drain(struct wbuf *wb, u64 start_ns, u64 *done_ns)
{
	u64 page_done;
	int ret = 0;

	*done_ns = start_ns;
	while (wb->slots && !ret) {
		ret = wbuf_pop(wb, start_ns, &page_done);
		*done_ns = max_t(u64, *done_ns, page_done);
		if (wb->slots % 256 == 0)
			ssd_cond_resched();
	}
	return ret;
}

static int wbuf_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	struct wbuf *wb = to_wbuf(layer);
	struct ssd_io below = { .cause = io->cause };
	u64 done;
	int ret;

	wb->flushes++;
	ret = wbuf_drain(wb, io->start_ns, &done);
	if (!ret) {
		below.start_ns = done;
		ret = layer->lower->ops->flush(layer->lower, &below);
		done = max_t(u64, done, below.done_ns);
	}
	io->done_ns = done;
	return ret;
}

static bool wbuf_holds(struct ssd_layer *layer, u64 lpn)
{
	struct wbuf *wb = to_wbuf(layer);

	if (wbuf_find(wb, lpn) != WBUF_NONE)
		return true;
	for (layer = layer->lower; layer; layer = layer->lower)
		if (layer->ops->holds)
			return layer->ops->holds(layer, lpn);
	return false;
}

/* Each buffered page may take a page of the data store when it goes below. */
static u64 wbuf_pending_pages(struct ssd_layer *layer)
{
	return to_wbuf(layer)->live;
}

static u64 wbuf_power_cut(struct ssd_layer *layer, u64 now_ns)
{
	struct wbuf *wb = to_wbuf(layer);
	u64 lost = wb->live;

	while (wb->slots) {
		struct wbuf_entry *en = &wb->ring[wb->head];

		if (en->lpn != U64_MAX) {
			ssd_pagepool_put(wb->pool, en->buf);
			wbuf_unlink(wb, wb->head);
		}
		wb->head = (wb->head + 1) % wb->cap;
		wb->slots--;
	}
	wb->head = 0;
	return lost;
}

static void wbuf_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	struct wbuf *wb = to_wbuf(layer);

	st->write_cache_dirty_pages = wb->live;
	st->write_cache_hit_pages = wb->hit_pages;
	st->write_cache_flushes = wb->flushes;
}

static void wbuf_reset_stats(struct ssd_layer *layer)
{
	struct wbuf *wb = to_wbuf(layer);

	wb->hit_pages = 0;
	wb->flushes = 0;
}

static int wbuf_check(struct ssd_layer *layer)
{
	struct wbuf *wb = to_wbuf(layer);
	u32 i, live = 0, hashed = 0, b, e;

	if (wb->slots > wb->cap || wb->head >= wb->cap || wb->live > wb->slots) {
		ssd_dev_warn_once(wb->dev_name, "write cache: %u slots, head %u, %u live of %u",
				  wb->slots, wb->head, wb->live, wb->cap);
		return -EUCLEAN;
	}
	for (i = 0; i < wb->cap; i++) {
		bool used = (i + wb->cap - wb->head) % wb->cap < wb->slots;
		const struct wbuf_entry *en = &wb->ring[i];

		if (en->lpn == U64_MAX)
			continue;
		if (!used || !en->buf || wbuf_find(wb, en->lpn) != i) {
			ssd_dev_warn_once(wb->dev_name, "write cache: entry %u (lpn %llu) lost",
					  i, (unsigned long long)en->lpn);
			return -EUCLEAN;
		}
		live++;
	}
	for (b = 0; b <= wb->mask; b++)
		for (e = wb->buckets[b]; e != WBUF_NONE && hashed <= wb->cap; e = wb->ring[e].next)
			hashed++;
	if (live != wb->live || hashed != live) {
		ssd_dev_warn_once(wb->dev_name, "write cache: %u live, %u hashed, %u counted",
				  live, hashed, wb->live);
		return -EUCLEAN;
	}
	return 0;
}

/* Counters, then the buffered pages oldest first: lpn, request, data. */
static void wbuf_save(struct ssd_layer *layer, struct ssd_snap_writer *w)
{
	struct wbuf *wb = to_wbuf(layer);
	u32 i;

	ssd_snap_put_u64(w, wb->hit_pages);
	ssd_snap_put_u64(w, wb->flushes);
	ssd_snap_put_u32(w, wb->live);
	for (i = 0; i < wb->slots; i++) {
		const struct wbuf_entry *en = &wb->ring[(wb->head + i) % wb->cap];

		if (en->lpn == U64_MAX)
			continue;
		ssd_snap_put_u64(w, en->lpn);
		ssd_snap_put_u64(w, en->request_seq);
		ssd_snap_put_u64(w, en->request_bytes);
		ssd_snap_put(w, en->buf, wb->pool->page_bytes);
	}
}

static void wbuf_load(struct ssd_layer *layer, struct ssd_snap_reader *r)
{
	struct wbuf *wb = to_wbuf(layer);
	u64 pages = wb->pages;
	u32 live, i;

	wb->hit_pages = ssd_snap_get_u64(r);
	wb->flushes = ssd_snap_get_u64(r);
	live = ssd_snap_get_u32(r);
	if (!r->error && live > wb->cap) {
		ssd_snap_refuse(r, "%u pages in a write cache of %u", live, wb->cap);
		return;
	}
	for (i = 0; i < live && !r->error; i++) {
		u64 lpn = ssd_snap_get_u64(r);
		u64 seq = ssd_snap_get_u64(r);
		u64 bytes = ssd_snap_get_u64(r);
		void *buf;

		if (!r->error && (lpn >= pages || wbuf_find(wb, lpn) != WBUF_NONE)) {
			ssd_snap_refuse(r, "write cache page %llu out of range or twice",
					(unsigned long long)lpn);
			return;
		}
		buf = ssd_pagepool_get(wb->pool);
		if (!buf) {
			r->error = -ENOMEM;
			return;
		}
		ssd_snap_get(r, buf, wb->pool->page_bytes);
		if (r->error) {
			ssd_pagepool_put(wb->pool, buf);
			return;
		}
		wbuf_place(wb, lpn, buf, seq, bytes);
	}
}

static void wbuf_destroy(struct ssd_layer *layer)
{
	struct wbuf *wb = to_wbuf(layer);

	wbuf_power_cut(layer, 0);
	ssd_free(wb->ring);
	ssd_free(wb->buckets);
	ssd_free(wb);
}

static const struct ssd_layer_ops wbuf_ops = {
	.read = wbuf_read,
	.write = wbuf_write,
	.trim = wbuf_trim,
	.flush = wbuf_flush,
	.holds = wbuf_holds,
	.pending_pages = wbuf_pending_pages,
	.power_cut = wbuf_power_cut,
	.get_stats = wbuf_get_stats,
	.reset_stats = wbuf_reset_stats,
	.check = wbuf_check,
	.save = wbuf_save,
	.load = wbuf_load,
	.destroy = wbuf_destroy,
};

static bool wbuf_enabled(const struct ssd_config *cfg)
{
	return cfg->volatile_write_cache;
}

static u64 wbuf_table_bytes(const struct ssd_config *cfg)
{
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct wbuf));

	bytes = ssd_tables_add(bytes, 1, cfg->write_cache_pages, sizeof(struct wbuf_entry));
	return ssd_tables_add(bytes, 1, wbuf_pow2(cfg->write_cache_pages), sizeof(u32));
}

static int wbuf_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
		       struct ssd_layer *lower, struct ssd_layer **out)
{
	struct wbuf *wb;
	u32 i;

	if (!lower) {
		ssd_dev_err(cfg->name, "volatile_write_cache=1 refused: the write cache needs a layer below it");
		return -EINVAL;
	}
	wb = ssd_zalloc(sizeof(*wb));
	if (!wb)
		return -ENOMEM;
	wb->cap = cfg->write_cache_pages;
	wb->pages = ssd_config_logical_pages(cfg);
	wb->mask = wbuf_pow2(wb->cap) - 1;
	wb->pool = env->pool;
	wb->dev_name = env->dev_name;
	wb->ring = ssd_zalloc((size_t)wb->cap * sizeof(*wb->ring));
	wb->buckets = ssd_zalloc((size_t)(wb->mask + 1) * sizeof(u32));
	if (!wb->ring || !wb->buckets) {
		ssd_free(wb->ring);
		ssd_free(wb->buckets);
		ssd_free(wb);
		return -ENOMEM;
	}
	for (i = 0; i < wb->cap; i++) {
		wb->ring[i].lpn = U64_MAX;
		wb->ring[i].next = WBUF_NONE;
	}
	for (i = 0; i <= wb->mask; i++)
		wb->buckets[i] = WBUF_NONE;
	wb->layer.ops = &wbuf_ops;
	wb->layer.name = "wbuf";
	wb->layer.lower = lower;
	*out = &wb->layer;
	return 0;
}

const struct ssd_layer_type ssd_wbuf_layer_type = {
	.name = "wbuf",
	.snap_tag = SSD_SNAP_TAG('W', 'B', 'U', 'F'),
	.enabled = wbuf_enabled,
	.metadata_bytes = wbuf_table_bytes,
	.create = wbuf_create,
};

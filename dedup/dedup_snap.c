// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_snap.c - the dedup layer in a snapshot (its DDUP section):
 *
 *   pages        the chunk ids (= host pages) this device has
 *   map          l2c, refcount, free_next and chunk_slot [pages] u32 each,
 *                the free list's head and length, the mapped lpns
 *   sample index (dedup_filter=1 dedup_filter_live_chunks=1) each chunk's key, the entries, buckets
 *                and free list (dedup_sample.c)
 *   store        slot for slot, with its hash chains, free list and
 *                recency list (dedup_store.c)
 *   buffer       the ring from its oldest position: each position's lpn
 *                (all ones: a hole) and, for a write, its request, the
 *                chunk it reserves, when its data entered, whether the
 *                filter paired it and the page's data
 *   engines      how many, and when each is next free
 *   counters
 *
 * The buffered pages' data is streamed from and into page buffers of the
 * pool, one at a time: nothing is staged.  Loading checks every index
 * against the tables' sizes and walks every list with a bound before
 * anything follows it, and that the live chunks, fingerprints and sample
 * keys agree with the data below; ssd_dedup_check(), which the device runs after the
 * load, then holds refcounts to the map and the buffer, the free list to
 * the unreferenced chunks, and the store and the index to the live chunks.
 */
#include "dedup/dedup_internal.h"

static const struct ssd_snap_field counter_fields[] = {
	SSD_SNAP_FIELD(struct dedup_counters, chunks_written),
	SSD_SNAP_FIELD(struct dedup_counters, fingerprinted),
	SSD_SNAP_FIELD(struct dedup_counters, late_fingerprints),
	SSD_SNAP_FIELD(struct dedup_counters, filtered),
	SSD_SNAP_FIELD(struct dedup_counters, duplicates),
	SSD_SNAP_FIELD(struct dedup_counters, store_hits),
	SSD_SNAP_FIELD(struct dedup_counters, store_misses),
	SSD_SNAP_FIELD(struct dedup_counters, store_evictions),
	SSD_SNAP_FIELD(struct dedup_counters, buffer_rewrites),
	SSD_SNAP_FIELD(struct dedup_counters, buffer_trims),
	SSD_SNAP_FIELD(struct dedup_counters, buffer_reads),
	SSD_SNAP_FIELD(struct dedup_counters, engine_busy_ns),
	SSD_SNAP_FIELD(struct dedup_counters, hash_wait_ns),
};

/* An lpn that marks a hole of the buffer. */
#define HOLE	U64_MAX

static void save_buffer(const struct dedup *dd, struct ssd_snap_writer *w)
{
	u32 i;

	ssd_snap_put_u32(w, dd->buffer_cap);
	ssd_snap_put_u32(w, dd->buffer_head);
	ssd_snap_put_u32(w, dd->buffer_slots);
	for (i = 0; i < dd->buffer_slots && !w->error; i++) {
		const struct dedup_buffer_entry *en =
			&dd->buffer[(dd->buffer_head + i) % dd->buffer_cap];

		ssd_snap_put_u64(w, en->lpn);
		if (en->lpn == HOLE)
			continue;
		ssd_snap_put_u64(w, en->request_seq);
		ssd_snap_put_u64(w, en->request_bytes);
		ssd_snap_put_u32(w, en->chunk);
		ssd_snap_put_u64(w, en->ready_ns);
		ssd_snap_put_u32(w, en->paired);
		ssd_snap_put(w, en->buf, dd->pool->page_bytes);
	}
}

void ssd_dedup_save(struct dedup *dd, struct ssd_snap_writer *w)
{
	ssd_snap_put_u64(w, dd->pages);
	ssd_snap_put_array(w, dd->l2c, dd->pages, sizeof(u32));
	ssd_snap_put_array(w, dd->refcount, dd->pages, sizeof(u32));
	ssd_snap_put_array(w, dd->free_next, dd->pages, sizeof(u32));
	ssd_snap_put_array(w, dd->chunk_slot, dd->pages, sizeof(u32));
	ssd_snap_put_u32(w, dd->free_head);
	ssd_snap_put_u64(w, dd->nr_free);
	ssd_snap_put_u64(w, dd->mapped_lpns);
	if (dd->filter_chunks)
		ssd_dedup_sample_save(dd, w);
	ssd_dedup_store_save(dd, w);
	save_buffer(dd, w);
	ssd_snap_put_u32(w, dd->engines);
	ssd_snap_put_array(w, dd->engine_free_ns, dd->engines, sizeof(u64));
	ssd_snap_put_structs(w, &dd->counters, 1, sizeof(dd->counters), counter_fields,
			     ARRAY_SIZE(counter_fields));
}

static bool chunk_or_none(const struct dedup *dd, u32 chunk)
{
	return chunk == DEDUP_NONE || chunk < dd->pages;
}

/* A u32 per chunk id, each a chunk id or DEDUP_NONE. */
static void load_chunks(struct dedup *dd, struct ssd_snap_reader *r, u32 *table,
			const char *what)
{
	u64 i;

	ssd_snap_get_array(r, table, dd->pages, sizeof(u32));
	for (i = 0; i < dd->pages && !r->error; i++)
		if (!chunk_or_none(dd, table[i]))
			ssd_snap_refuse(r, "dedup %s %llu: chunk %u, beyond the %llu chunk ids",
					what, (unsigned long long)i, table[i],
					(unsigned long long)dd->pages);
}

static void load_map(struct dedup *dd, struct ssd_snap_reader *r)
{
	u64 i;

	load_chunks(dd, r, dd->l2c, "lpn");
	/* Exact counts are ssd_dedup_check()'s: here, what a count may be. */
	ssd_snap_get_array(r, dd->refcount, dd->pages, sizeof(u32));
	for (i = 0; i < dd->pages && !r->error; i++)
		if (dd->refcount[i] > dd->pages)
			ssd_snap_refuse(r, "dedup chunk %llu: refcount %u, more than the %llu lpns",
					(unsigned long long)i, dd->refcount[i],
					(unsigned long long)dd->pages);
	load_chunks(dd, r, dd->free_next, "free list after chunk");
	ssd_snap_get_array(r, dd->chunk_slot, dd->pages, sizeof(u32));
	for (i = 0; i < dd->pages && !r->error; i++) {
		u32 slot = dd->chunk_slot[i];

		if (slot != DEDUP_NONE && slot != DEDUP_EVICTED && slot != DEDUP_RESERVED &&
		    slot >= dd->store_cap)
			ssd_snap_refuse(r, "dedup chunk %llu: store slot %u of %u",
					(unsigned long long)i, slot, dd->store_cap);
	}
	dd->free_head = ssd_snap_get_u32(r);
	dd->nr_free = ssd_snap_get_u64(r);
	dd->mapped_lpns = ssd_snap_get_u64(r);
	if (!r->error && (!chunk_or_none(dd, dd->free_head) || dd->nr_free > dd->pages ||
			  dd->mapped_lpns > dd->pages))
		ssd_snap_refuse(r, "dedup: free list at %u, %llu free, %llu mapped of %llu",
				dd->free_head, (unsigned long long)dd->nr_free,
				(unsigned long long)dd->mapped_lpns,
				(unsigned long long)dd->pages);
}

/*
 * The tables agree with the data below (loaded first, looked at without
 * touching the model): the live chunks are exactly the chunk ids holding
 * data (a free one must read as never written: it is what an unwritten
 * lpn reads, ssd_dedup_read()); each fingerprint in the store is the
 * SHA-1 of its chunk's data, or a later duplicate would be mapped to
 * other data; with the filter, each matchable chunk's sample key is its
 * data's.
 */
static void check_data_below(struct dedup *dd, struct ssd_snap_reader *r)
{
	struct ssd_layer *lower = dd->layer.lower;
	u8 sha1[DEDUP_SHA1_BYTES];
	const void *data;
	u64 c;
	u32 s;

	if (ssd_layer_peek(lower, 0, NULL) < 0)
		return;		/* no layer below says where data is */
	for (c = 0; c < dd->pages; c++) {
		bool below = ssd_layer_peek(lower, c, &data) != SSD_REGION_NR;
		u32 slot = dd->chunk_slot[c];

		ssd_check_resched(c);
		if (!dd->refcount[c] != !below || (below && !data)) {
			ssd_snap_refuse(r, "dedup chunk %llu: refcount %u, %s below",
					(unsigned long long)c, dd->refcount[c],
					below && data ? "data" : "no data");
			return;
		}
		if (dd->filter_chunks && below && slot != DEDUP_RESERVED && slot != DEDUP_EVICTED &&
		    dd->chunk_sample[c] != ssd_dedup_buffer_key(dd, data)) {
			ssd_snap_refuse(r, "dedup chunk %llu: sample key %08x, its data's is %08x",
					(unsigned long long)c, dd->chunk_sample[c],
					ssd_dedup_buffer_key(dd, data));
			return;
		}
	}
	for (s = 0; s < dd->store_cap; s++) {
		c = dd->slots[s].chunk;
		if (c == DEDUP_NONE)
			continue;
		ssd_check_resched(s);
		ssd_layer_peek(lower, c, &data);
		if (data)
			ssd_dedup_sha1(data, dd->pool->page_bytes, sha1);
		if (!data || memcmp(sha1, dd->slots[s].sha1, DEDUP_SHA1_BYTES)) {
			ssd_snap_refuse(r, "dedup store slot %u: chunk %llu's data does not have this fingerprint",
					s, (unsigned long long)c);
			return;
		}
	}
}

/* One buffered write at ring position @e: its fields, then its page. */
static void load_write(struct dedup *dd, struct ssd_snap_reader *r, u32 e, u64 lpn)
{
	struct dedup_buffer_entry w = { .lpn = lpn };
	u32 paired;

	w.request_seq = ssd_snap_get_u64(r);
	w.request_bytes = ssd_snap_get_u64(r);
	w.chunk = ssd_snap_get_u32(r);
	w.ready_ns = ssd_snap_get_ns(r, "a buffered write's ready time");
	paired = ssd_snap_get_u32(r);
	if (r->error)
		return;
	if (paired > 1) {
		ssd_snap_refuse(r, "dedup buffer: lpn %llu paired %u (0 or 1)",
				(unsigned long long)lpn, paired);
		return;
	}
	w.paired = paired;
	if (lpn >= dd->pages || ssd_dedup_is_buffered(dd, lpn) ||
	    dd->l2c[lpn] != DEDUP_NONE || !chunk_or_none(dd, w.chunk)) {
		ssd_snap_refuse(r, "dedup buffer: lpn %llu reserving chunk %u (beyond %llu, twice, or mapped too)",
				(unsigned long long)lpn, w.chunk, (unsigned long long)dd->pages);
		return;
	}
	w.buf = ssd_pagepool_get(dd->pool);
	if (!w.buf) {
		ssd_snap_refuse(r, "dedup buffer: its pages and the data exceed the page buffers (memory_limit_mb)");
		return;
	}
	ssd_snap_get(r, w.buf, dd->pool->page_bytes);
	if (r->error) {
		ssd_pagepool_put(dd->pool, w.buf);
		return;
	}
	w.sample_key = ssd_dedup_buffer_key(dd, w.buf);
	ssd_dedup_buffer_place(dd, e, &w);
}

static void load_buffer(struct dedup *dd, struct ssd_snap_reader *r)
{
	u32 cap = ssd_snap_get_u32(r), head = ssd_snap_get_u32(r);
	u32 slots = ssd_snap_get_u32(r), i;

	if (r->error)
		return;
	if (cap != dd->buffer_cap || slots > cap || (cap ? head >= cap : head != 0)) {
		ssd_snap_refuse(r, "dedup buffer: %u positions from %u of %u, this device has %u",
				slots, head, cap, dd->buffer_cap);
		return;
	}
	dd->buffer_head = head;
	for (i = 0; i < slots && !r->error; i++) {
		u32 e = (head + i) % cap;
		u64 lpn = ssd_snap_get_u64(r);

		/* A position is counted once it holds what it held: a hole or a write. */
		if (!r->error && lpn != HOLE)
			load_write(dd, r, e, lpn);
		if (!r->error)
			dd->buffer_slots++;
	}
}

void ssd_dedup_load(struct dedup *dd, struct ssd_snap_reader *r)
{
	u64 pages = ssd_snap_get_u64(r);
	u32 engines;

	if (!r->error && pages != dd->pages) {
		ssd_snap_refuse(r, "dedup of %llu chunk ids, this device has %llu",
				(unsigned long long)pages, (unsigned long long)dd->pages);
		return;
	}
	load_map(dd, r);
	if (dd->filter_chunks && !r->error)
		ssd_dedup_sample_load(dd, r);
	if (!r->error)
		ssd_dedup_store_load(dd, r);
	if (!r->error)
		check_data_below(dd, r);
	if (!r->error)
		load_buffer(dd, r);
	engines = ssd_snap_get_u32(r);
	if (!r->error && engines != dd->engines) {
		ssd_snap_refuse(r, "dedup: %u engines, this device has %u", engines, dd->engines);
		return;
	}
	ssd_snap_get_ns_array(r, dd->engine_free_ns, dd->engines, "the dedup engines' free times");
	ssd_snap_get_structs(r, &dd->counters, 1, sizeof(dd->counters), counter_fields,
			     ARRAY_SIZE(counter_fields));
}

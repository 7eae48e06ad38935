// SPDX-License-Identifier: GPL-2.0
/*
 * dedup.c - the dedup layer's data path: the lpn -> chunk map with
 * refcounts and a free list of chunk ids, the write buffer, the sampling
 * filter over the buffered writes (and the live chunks with
 * dedup_filter_live_chunks=1), and the decision a write
 * takes when it leaves the buffer (see dedup_internal.h).  Its tables are sized
 * here (ssd_dedup_table_bytes()) exactly as ssd_dedup_init() allocates them.
 */
#include "dedup/dedup_internal.h"

static u32 pow2_at_least(u64 n)
{
	u32 p = 1;

	while (p < n && p < (1U << 31))
		p <<= 1;
	return p;
}

static u64 buffer_cap_of(const struct ssd_config *cfg)
{
	u64 cap = cfg->dedup_buffer_pages;

	if (cfg->dedup_buffer_bytes)
		cap = min_t(u64, cap, div64_u64(cfg->dedup_buffer_bytes, cfg->page_size_bytes));
	return cap;
}

static u64 store_cap_of(const struct ssd_config *cfg)
{
	u64 pages = ssd_config_logical_pages(cfg);

	return cfg->dedup_store_entries ? min_t(u64, cfg->dedup_store_entries, pages) : pages;
}

u64 ssd_dedup_table_bytes(const struct ssd_config *cfg)
{
	u64 pages = ssd_config_logical_pages(cfg);
	u64 store = store_cap_of(cfg), buffer = buffer_cap_of(cfg);
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct dedup));

	/* l2c, refcount, free_next, chunk_slot */
	bytes = ssd_tables_add(bytes, 4, pages, sizeof(u32));
	if (cfg->dedup_filter && cfg->dedup_filter_live_chunks) {
		bytes = ssd_tables_add(bytes, 1, pages, sizeof(u32));
		bytes = ssd_tables_add(bytes, 1, pages, sizeof(struct dedup_sample));
		bytes = ssd_tables_add(bytes, 1, pow2_at_least(pages), sizeof(u32));
	}
	bytes = ssd_tables_add(bytes, 1, store, sizeof(struct dedup_store_slot));
	bytes = ssd_tables_add(bytes, 1, pow2_at_least(store), sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, buffer, sizeof(struct dedup_buffer_entry));
	return ssd_tables_add(bytes, 2, pow2_at_least(buffer), sizeof(u32));
}

/*
 * FNV-1a of the filter's sample of @page: its bytes, rebuilt from the
 * digest with data_store=digest (the pool knows how), so the keys are the
 * same in both modes.
 */
static u32 sample_key(const struct dedup *dd, const void *page)
{
	const u8 *p = (const u8 *)page + dd->sample_offset;
	u32 hash = 2166136261U;
	u32 i, done, n;
	u8 bytes[64];

	if (dd->pool->store == SSD_DATA_BYTES) {
		for (i = 0; i < dd->sample_bytes; i++)
			hash = (hash ^ p[i]) * 16777619U;
		return hash;
	}
	for (done = 0; done < dd->sample_bytes; done += n) {
		n = min_t(u32, sizeof(bytes), dd->sample_bytes - done);
		ssd_pagepool_bytes(dd->pool, page, dd->sample_offset + done, n, bytes);
		for (i = 0; i < n; i++)
			hash = (hash ^ bytes[i]) * 16777619U;
	}
	return hash;
}

static u32 lpn_bucket(const struct dedup *dd, u64 lpn)
{
	return (u32)((lpn ^ (lpn >> 29)) * 0x9e3779b97f4a7c15ULL >> 32) & dd->buffer_mask;
}

/*
 * The dedup engines: each runs one job (a SHA-1 and its lookup, or a late
 * SHA-1) at a time; the engine free first takes the next one (the first
 * such on a tie), from @ready_ns on.  Returns when the job is done.
 */
static u64 engine_run(struct dedup *dd, u64 ready_ns, u64 ns)
{
	u32 e, best = 0;
	u64 begin;

	for (e = 1; e < dd->engines; e++)
		if (dd->engine_free_ns[e] < dd->engine_free_ns[best])
			best = e;
	begin = max_t(u64, ready_ns, dd->engine_free_ns[best]);
	dd->engine_free_ns[best] = begin + ns;
	dd->counters.engine_busy_ns += ns;
	return begin + ns;
}

/* ---- chunks ---- */

static u32 chunk_alloc(struct dedup *dd)
{
	u32 chunk = dd->free_head;

	if (chunk == DEDUP_NONE)
		return chunk;
	dd->free_head = dd->free_next[chunk];
	dd->free_next[chunk] = DEDUP_NONE;
	dd->nr_free--;
	return chunk;
}

static void chunk_free(struct dedup *dd, u32 chunk)
{
	dd->free_next[chunk] = dd->free_head;
	dd->free_head = chunk;
	dd->nr_free++;
}

/*
 * @lpn lets go of its chunk.  A shared chunk loses a reference; an
 * unshared one is returned, still live below with refcount 1, reserved
 * (DEDUP_RESERVED) for the data that replaces it: its fingerprint leaves
 * the store and its sample the filter's index, so nothing matches it now.
 */
static u32 unmap_lpn(struct dedup *dd, u64 lpn)
{
	u32 chunk = dd->l2c[lpn];

	if (chunk == DEDUP_NONE)
		return DEDUP_NONE;
	dd->l2c[lpn] = DEDUP_NONE;
	dd->mapped_lpns--;
	if (dd->refcount[chunk] > 1) {
		dd->refcount[chunk]--;
		ssd_layer_refcount(dd->layer.lower, chunk, dd->refcount[chunk]);
		return DEDUP_NONE;
	}
	if (dd->filter_chunks)
		ssd_dedup_sample_remove(dd, chunk);
	ssd_dedup_store_remove(dd, chunk);
	dd->chunk_slot[chunk] = DEDUP_RESERVED;
	return chunk;
}

/* Reserved @chunk is not needed: it is trimmed below and its id freed. */
static int release_chunk(struct dedup *dd, u32 chunk, u64 start_ns, u64 *done_ns)
{
	struct ssd_layer *lower = dd->layer.lower;
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST };
	int ret;

	dd->refcount[chunk] = 0;
	dd->chunk_slot[chunk] = DEDUP_NONE;
	ssd_layer_refcount(lower, chunk, 0);
	ret = lower->ops->trim(lower, chunk, &io);
	chunk_free(dd, chunk);
	*done_ns = max_t(u64, *done_ns, io.done_ns);
	return ret;
}

/* @lpn no longer refers to its chunk; a chunk nobody refers to is trimmed below. */
static int drop_mapping(struct dedup *dd, u64 lpn, u64 start_ns, u64 *done_ns)
{
	u32 chunk = unmap_lpn(dd, lpn);

	*done_ns = start_ns;
	return chunk == DEDUP_NONE ? 0 : release_chunk(dd, chunk, start_ns, done_ns);
}

/*
 * Store the data of leaving write @w below as the chunk of its lpn: the
 * chunk it reserves (the lpn's own unshared chunk, rewritten in place) or
 * a new one; *@chunk_out is its id.  The layer below sees the host
 * request the write came from.  On failure the reserved chunk is released
 * too: the lpn is left unmapped.
 */
static int write_chunk(struct dedup *dd, const struct dedup_buffer_entry *w, u64 start_ns,
		       u32 *chunk_out, u64 *done_ns)
{
	struct ssd_layer *lower = dd->layer.lower;
	struct ssd_io io = {
		.start_ns = start_ns, .cause = SSD_CAUSE_HOST, .region = SSD_REGION_MAIN,
		.request_seq = w->request_seq, .request_bytes = w->request_bytes,
	};
	u32 reserved = w->chunk;
	u32 chunk = reserved != DEDUP_NONE ? reserved : chunk_alloc(dd);
	u64 lpn = w->lpn, trim_ns = start_ns;
	void *buf = w->buf;
	int ret;

	if (chunk == DEDUP_NONE) {
		/* Live chunks never outnumber mapped lpns: a broken invariant. */
		ssd_dev_warn_once(dd->dev_name, "dedup: no free chunk id for lpn %llu", (unsigned long long)lpn);
		ssd_pagepool_put(dd->pool, buf);
		return -EIO;
	}
	ret = lower->ops->write(lower, chunk, buf, &io);
	if (ret) {
		if (ret != -EIO)
			ssd_pagepool_put(dd->pool, buf);
		if (reserved != DEDUP_NONE)
			release_chunk(dd, chunk, start_ns, &trim_ns);
		else
			chunk_free(dd, chunk);
		return ret;
	}
	dd->refcount[chunk] = 1;
	ssd_layer_refcount(lower, chunk, 1);
	dd->chunk_slot[chunk] = DEDUP_NONE;
	dd->l2c[lpn] = chunk;
	dd->mapped_lpns++;
	*chunk_out = chunk;
	*done_ns = io.done_ns;
	return 0;
}

/*
 * Fingerprint live @chunk, written without one, from its data below
 * (a sample of a newer write matched it); returns when the hash is done.
 */
static u64 late_fingerprint(struct dedup *dd, u32 chunk, u64 start_ns)
{
	struct ssd_layer *lower = dd->layer.lower;
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST };
	u8 sha1[DEDUP_SHA1_BYTES];
	const void *data = NULL;
	int ret = lower->ops->read(lower, chunk, &io, &data);

	/* An uncorrectable page (read errors on) still has its data here. */
	if ((ret && ret != -EBADMSG) || !data) {
		ssd_dev_warn_once(dd->dev_name, "dedup: live chunk %u unreadable below", chunk);
		return start_ns;
	}
	ssd_dedup_sha1(data, dd->pool->page_bytes, sha1);
	dd->counters.fingerprinted++;
	dd->counters.late_fingerprints++;
	ssd_dedup_sample_hashed(dd, chunk);
	ssd_dedup_store_insert(dd, chunk, sha1);
	return engine_run(dd, io.done_ns, dd->hash_ns);
}

/* Whether a buffered write other than the one leaving has sample @key. */
static bool buffer_has_sample(const struct dedup *dd, u32 key)
{
	u32 e;

	if (!dd->buffer_cap)
		return false;
	for (e = dd->buffer_sample_buckets[key & dd->buffer_mask]; e != DEDUP_NONE;
	     e = dd->buffer[e].sample_next)
		if (dd->buffer[e].sample_key == key)
			return true;
	return false;
}

/*
 * Whether live chunks that the store can match share sample @key;
 * *@unhashed is the one never fingerprinted, if any (DEDUP_NONE if not),
 * which must be fingerprinted so the store can find it.
 */
static bool chunks_have_sample(struct dedup *dd, u32 key, u32 *unhashed)
{
	u32 e = ssd_dedup_sample_find(dd, key);

	*unhashed = DEDUP_NONE;
	if (e == DEDUP_NONE)
		return false;
	*unhashed = dd->samples[e].unhashed;
	return true;
}

/*
 * When the fingerprint (and lookup) of write @w, leaving at @start_ns, is
 * done, after the late fingerprint of live chunk @unhashed (DEDUP_NONE:
 * none), which reads its chunk below from @start_ns on.  On the write
 * path, the late one first, then the write's own, from when the late one
 * is done; with overlap, the write's own from when its data entered the
 * buffer (booked first: the engines took it up while it waited).
 */
static u64 fingerprint_done(struct dedup *dd, const struct dedup_buffer_entry *w,
			    u32 unhashed, u64 start_ns)
{
	u64 own_ns, late_ns = start_ns;

	if (dd->overlap) {
		own_ns = engine_run(dd, w->ready_ns, dd->hash_ns + dd->lookup_ns);
		if (unhashed != DEDUP_NONE)
			late_ns = late_fingerprint(dd, unhashed, start_ns);
		return max_t(u64, max_t(u64, own_ns, late_ns), start_ns);
	}
	if (unhashed != DEDUP_NONE)
		late_ns = late_fingerprint(dd, unhashed, start_ns);
	return engine_run(dd, late_ns, dd->hash_ns + dd->lookup_ns);
}

/*
 * The dedup decision of write @w leaving the buffer (a copy: its entry is
 * already out), from @start_ns on.  Its reserved chunk (the lpn's old
 * unshared one), if any, takes unique data; a duplicate frees it.
 */
static int leave(struct dedup *dd, const struct dedup_buffer_entry *w, u64 start_ns,
		 u64 *done_ns)
{
	u8 sha1[DEDUP_SHA1_BYTES];
	bool fingerprint = true;
	u64 t = start_ns, lpn = w->lpn;
	u32 key = w->sample_key, reserved = w->chunk, unhashed = DEDUP_NONE;
	void *buf = w->buf;
	u32 chunk, slot;
	int ret;

	dd->counters.chunks_written++;
	if (dd->filter_chunks) {
		bool in_buffer = buffer_has_sample(dd, key);

		/* Both run: matching chunks without a fingerprint get one. */
		fingerprint = chunks_have_sample(dd, key, &unhashed) || in_buffer;
	} else if (dd->filter) {
		/* Kim's: its bucket held more than it (K8, docs/papers.md). */
		fingerprint = w->paired;
	}
	if (!fingerprint) {
		/* Written without dedup: its own chunk, never shared. */
		dd->counters.filtered++;
		ret = write_chunk(dd, w, t, &chunk, done_ns);
		if (!ret && dd->filter_chunks)
			ssd_dedup_sample_add(dd, chunk, key, false);
		return ret;
	}
	/* The late fingerprint enters the store before this write's lookup. */
	t = fingerprint_done(dd, w, unhashed, start_ns);
	dd->counters.hash_wait_ns += t - start_ns;
	ssd_dedup_sha1(buf, dd->pool->page_bytes, sha1);
	dd->counters.fingerprinted++;
	slot = ssd_dedup_store_find(dd, sha1);
	if (slot != DEDUP_NONE) {
		chunk = dd->slots[slot].chunk;
		ssd_dedup_store_touch(dd, slot);
		dd->refcount[chunk]++;
		ssd_layer_refcount(dd->layer.lower, chunk, dd->refcount[chunk]);
		dd->l2c[lpn] = chunk;
		dd->mapped_lpns++;
		ssd_pagepool_put(dd->pool, buf);
		dd->counters.store_hits++;
		dd->counters.duplicates++;
		*done_ns = t;
		/* The lpn's old unshared chunk is no longer needed. */
		if (reserved != DEDUP_NONE)
			return release_chunk(dd, reserved, t, done_ns);
		return 0;
	}
	dd->counters.store_misses++;
	ret = write_chunk(dd, w, t, &chunk, done_ns);
	if (!ret) {
		if (dd->filter_chunks)
			ssd_dedup_sample_add(dd, chunk, key, true);
		ssd_dedup_store_insert(dd, chunk, sha1);
	}
	return ret;
}

/* ---- the write buffer ---- */

static u32 buffer_find(const struct dedup *dd, u64 lpn)
{
	u32 e;

	if (!dd->buffer_cap)
		return DEDUP_NONE;
	for (e = dd->buffer_lpn_buckets[lpn_bucket(dd, lpn)]; e != DEDUP_NONE;
	     e = dd->buffer[e].lpn_next)
		if (dd->buffer[e].lpn == lpn)
			return e;
	return DEDUP_NONE;
}

bool ssd_dedup_is_buffered(const struct dedup *dd, u64 lpn)
{
	return buffer_find(dd, lpn) != DEDUP_NONE;
}

/*
 * Put buffered write @e in its sample's bucket; with the filter, it and
 * every buffered write with its sample are paired (Kim's bucket of
 * multiple requests), for as long as they wait.
 */
static void sample_link(struct dedup *dd, u32 e)
{
	u32 key = dd->buffer[e].sample_key;
	u32 *head = &dd->buffer_sample_buckets[key & dd->buffer_mask];
	u32 o;

	for (o = *head; dd->filter && o != DEDUP_NONE; o = dd->buffer[o].sample_next)
		if (dd->buffer[o].sample_key == key)
			dd->buffer[o].paired = dd->buffer[e].paired = true;
	dd->buffer[e].sample_prev = DEDUP_NONE;
	dd->buffer[e].sample_next = *head;
	if (*head != DEDUP_NONE)
		dd->buffer[*head].sample_prev = e;
	*head = e;
}

static void sample_unlink(struct dedup *dd, u32 e)
{
	struct dedup_buffer_entry *en = &dd->buffer[e];

	if (en->sample_prev != DEDUP_NONE)
		dd->buffer[en->sample_prev].sample_next = en->sample_next;
	else
		dd->buffer_sample_buckets[en->sample_key & dd->buffer_mask] = en->sample_next;
	if (en->sample_next != DEDUP_NONE)
		dd->buffer[en->sample_next].sample_prev = en->sample_prev;
}

/*
 * Take live entry @e out of the indexes; it becomes a hole.  Returns the
 * chunk it reserved, or DEDUP_NONE.
 */
static u32 entry_remove(struct dedup *dd, u32 e)
{
	u32 *link = &dd->buffer_lpn_buckets[lpn_bucket(dd, dd->buffer[e].lpn)];
	u32 reserved = dd->buffer[e].chunk;

	while (*link != e)
		link = &dd->buffer[*link].lpn_next;
	*link = dd->buffer[e].lpn_next;
	sample_unlink(dd, e);
	dd->buffer[e].lpn = U64_MAX;
	dd->buffer[e].buf = NULL;
	dd->buffer[e].chunk = DEDUP_NONE;
	dd->buffered--;
	if (reserved == DEDUP_NONE)
		dd->buffered_new--;
	return reserved;
}

/* The oldest position leaves the buffer: a write (decided now) or a hole. */
static int buffer_pop(struct dedup *dd, u64 start_ns, u64 *done_ns)
{
	struct dedup_buffer_entry w = dd->buffer[dd->buffer_head];

	*done_ns = start_ns;
	if (w.lpn != U64_MAX)
		entry_remove(dd, dd->buffer_head);
	dd->buffer_head = (dd->buffer_head + 1) % dd->buffer_cap;
	dd->buffer_slots--;
	if (w.lpn == U64_MAX)
		return 0;
	return leave(dd, &w, start_ns, done_ns);
}

u32 ssd_dedup_buffer_key(const struct dedup *dd, const void *page)
{
	return dd->filter ? sample_key(dd, page) : 0;
}

void ssd_dedup_buffer_place(struct dedup *dd, u32 e, const struct dedup_buffer_entry *w)
{
	u32 *bucket = &dd->buffer_lpn_buckets[lpn_bucket(dd, w->lpn)];

	dd->buffered++;
	if (w->chunk == DEDUP_NONE)
		dd->buffered_new++;
	dd->buffer[e] = *w;
	dd->buffer[e].lpn_next = *bucket;
	*bucket = e;
	sample_link(dd, e);
}

int ssd_dedup_write(struct dedup *dd, u64 lpn, void *buf, struct ssd_io *io)
{
	u32 key = ssd_dedup_buffer_key(dd, buf);
	u32 e = buffer_find(dd, lpn);
	u64 t = io->start_ns, done;
	struct dedup_buffer_entry w = {
		.lpn = lpn, .buf = buf, .sample_key = key,
		.request_seq = io->request_seq, .request_bytes = io->request_bytes,
		.ready_ns = io->start_ns,
	};
	u32 reserved;
	int ret;

	io->done_ns = io->start_ns;
	if (e != DEDUP_NONE) {
		/* A rewrite of a buffered page: its data (and request) change in place. */
		ssd_pagepool_put(dd->pool, dd->buffer[e].buf);
		sample_unlink(dd, e);
		dd->buffer[e].buf = buf;
		dd->buffer[e].sample_key = key;
		dd->buffer[e].paired = false;
		dd->buffer[e].request_seq = io->request_seq;
		dd->buffer[e].request_bytes = io->request_bytes;
		dd->buffer[e].ready_ns = io->start_ns;
		sample_link(dd, e);
		dd->counters.buffer_rewrites++;
		return 0;
	}
	/* A shared chunk loses a reference; an unshared one waits for the new data. */
	reserved = unmap_lpn(dd, lpn);
	w.chunk = reserved;
	if (!dd->buffer_cap)
		return leave(dd, &w, t, &io->done_ns);
	if (dd->buffer_slots == dd->buffer_cap) {
		ret = buffer_pop(dd, t, &done);
		io->done_ns = max_t(u64, io->done_ns, done);
		if (ret) {
			/* The write fails: the lpn is left unmapped. */
			if (reserved != DEDUP_NONE)
				release_chunk(dd, reserved, t, &done);
			ssd_pagepool_put(dd->pool, buf);
			return ret;
		}
	}
	e = (dd->buffer_head + dd->buffer_slots) % dd->buffer_cap;
	dd->buffer_slots++;
	ssd_dedup_buffer_place(dd, e, &w);
	return 0;
}

int ssd_dedup_read(struct dedup *dd, u64 lpn, struct ssd_io *io, const void **data)
{
	struct ssd_layer *lower = dd->layer.lower;
	u32 e = buffer_find(dd, lpn);
	u32 chunk = dd->l2c[lpn];

	if (e != DEDUP_NONE) {
		*data = dd->buffer[e].buf;
		io->done_ns = io->start_ns;
		dd->counters.buffer_reads++;
		return 0;
	}
	if (chunk == DEDUP_NONE) {
		/*
		 * Never written or trimmed: a free chunk id is unmapped below
		 * too, so the layers below charge what an unwritten page costs.
		 */
		chunk = dd->free_head;
		if (chunk == DEDUP_NONE) {
			*data = NULL;
			io->done_ns = io->start_ns;
			return 0;
		}
	}
	return lower->ops->read(lower, chunk, io, data);
}

int ssd_dedup_trim(struct dedup *dd, u64 lpn, struct ssd_io *io)
{
	u32 e = buffer_find(dd, lpn), reserved;

	if (e != DEDUP_NONE) {
		ssd_pagepool_put(dd->pool, dd->buffer[e].buf);
		reserved = entry_remove(dd, e);
		dd->counters.buffer_trims++;
		io->done_ns = io->start_ns;
		/* A buffered lpn maps to no chunk: its reserved one goes. */
		if (reserved != DEDUP_NONE)
			return release_chunk(dd, reserved, io->start_ns, &io->done_ns);
		return 0;
	}
	return drop_mapping(dd, lpn, io->start_ns, &io->done_ns);
}

int ssd_dedup_flush(struct dedup *dd, struct ssd_io *io)
{
	struct ssd_layer *lower = dd->layer.lower;
	struct ssd_io below = { .start_ns = io->start_ns, .cause = io->cause };
	u64 done = io->start_ns, page_done;
	int ret = 0;

	while (dd->buffer_slots && !ret) {
		ret = buffer_pop(dd, io->start_ns, &page_done);
		done = max_t(u64, done, page_done);
		/* A large buffer drains in one command: let others run. */
		if (dd->buffer_slots % 256 == 0)
			ssd_cond_resched();
	}
	if (!ret) {
		below.start_ns = done;
		ret = lower->ops->flush(lower, &below);
		done = max_t(u64, done, below.done_ns);
	}
	io->done_ns = done;
	return ret;
}

/*
 * A power cut dropped the buffered write of @lpn that had reserved its old
 * unshared @chunk: the chunk still holds the old data below, which was
 * durable, so the lpn maps to it again (or, if the store now holds a live
 * chunk of the same data, to that one, and @chunk goes), fingerprinted and
 * sampled as on a write; no time (a drive rebuilds this at power-on).
 * False if the data below cannot be seen: then the chunk goes.
 */
static bool restore_reserved(struct dedup *dd, u64 lpn, u32 chunk, u64 now_ns)
{
	u8 sha1[DEDUP_SHA1_BYTES];
	const void *data = NULL;
	u64 done = now_ns;
	u32 slot, same;

	if (ssd_layer_peek(dd->layer.lower, chunk, &data) < 0 || !data)
		return false;
	ssd_dedup_sha1(data, dd->pool->page_bytes, sha1);
	slot = ssd_dedup_store_find(dd, sha1);
	if (slot != DEDUP_NONE) {
		same = dd->slots[slot].chunk;
		dd->refcount[same]++;
		ssd_layer_refcount(dd->layer.lower, same, dd->refcount[same]);
		dd->l2c[lpn] = same;
		dd->mapped_lpns++;
		release_chunk(dd, chunk, now_ns, &done);
		return true;
	}
	dd->chunk_slot[chunk] = DEDUP_NONE;
	dd->l2c[lpn] = chunk;
	dd->mapped_lpns++;
	if (dd->filter_chunks)
		ssd_dedup_sample_add(dd, chunk, ssd_dedup_buffer_key(dd, data), true);
	ssd_dedup_store_insert(dd, chunk, sha1);
	return true;
}

u64 ssd_dedup_power_cut(struct dedup *dd, u64 now_ns)
{
	u64 lost = dd->buffered, done = now_ns;

	while (dd->buffer_slots) {
		u32 e = dd->buffer_head, reserved;
		u64 lpn = dd->buffer[e].lpn;

		if (lpn != U64_MAX) {
			ssd_pagepool_put(dd->pool, dd->buffer[e].buf);
			reserved = entry_remove(dd, e);
			/*
			 * An overwrite of an unshared page: the old data comes
			 * back.  Of a shared one: the reference was let go when
			 * the write came, and the page reads zeros.
			 */
			if (reserved != DEDUP_NONE && !restore_reserved(dd, lpn, reserved, now_ns))
				release_chunk(dd, reserved, now_ns, &done);
		}
		dd->buffer_head = (dd->buffer_head + 1) % dd->buffer_cap;
		dd->buffer_slots--;
	}
	return lost;
}

bool ssd_dedup_holds(const struct dedup *dd, u64 lpn)
{
	u32 chunk = dd->l2c[lpn];

	if (chunk != DEDUP_NONE)
		return dd->refcount[chunk] == 1;
	return ssd_dedup_is_buffered(dd, lpn);
}

/*
 * @a * @b / @c, rounded down.  If @a * @b would overflow, @a and @c are
 * halved together until it does not (the ratio kept to their precision);
 * U64_MAX if @c runs out first (the ratio is that large).
 */
static u64 mul_div(u64 a, u64 b, u64 c)
{
	while (b && a > U64_MAX / b) {
		a >>= 1;
		c >>= 1;
		if (!c)
			return U64_MAX;
	}
	return div64_u64(a * b, c);
}

u64 ssd_dedup_break_even_ppm(const struct dedup *dd)
{
	u64 fingerprint_ns = dd->hash_ns + dd->lookup_ns;

	if (!dd->overlap || !dd->buffer_cap)
		return mul_div(fingerprint_ns, 1000000ULL, dd->program_ns);
	if (fingerprint_ns <= (u64)dd->engines * dd->program_ns)
		return 0;
	return mul_div(fingerprint_ns, 1000000ULL, (u64)dd->engines * dd->program_ns);
}

/* ---- creation ---- */

static void *table(struct dedup *dd, u64 count, u64 entry_bytes)
{
	dd->metadata_bytes += count * entry_bytes;
	return ssd_zalloc(count * entry_bytes);
}

static void fill_none(u32 *t, u64 count)
{
	u64 i;

	for (i = 0; i < count; i++)
		t[i] = DEDUP_NONE;
}

/* The mean TLC program time, for the break-even rate. */
static u64 program_ns_of(const struct ssd_config *cfg)
{
	u64 lsb = cfg->program_lsb_ns ? cfg->program_lsb_ns : cfg->program_ns;
	u64 csb = cfg->program_csb_ns ? cfg->program_csb_ns : cfg->program_ns;
	u64 msb = cfg->program_msb_ns ? cfg->program_msb_ns : cfg->program_ns;

	return div_u64(lsb + csb + msb, 3);
}

u64 ssd_dedup_engine_load_ppm(const struct ssd_config *cfg)
{
	u64 fingerprint_ns = cfg->dedup_hash_ns + cfg->dedup_lookup_ns;
	/* A page over a channel, rounded up as the timing model does. */
	u64 transfer_ns = div64_u64((u64)cfg->page_size_bytes * 1000 + cfg->channel_mb_per_s - 1,
				    cfg->channel_mb_per_s);
	/*
	 * E / max(A, B) = min(E / A, E / B), with E the engines' time per
	 * page, A the chips' (each takes the page in, then programs it) and B
	 * the channels' (the transfers).
	 */
	u64 by_chips = mul_div(fingerprint_ns, cfg->chips * 1000000ULL,
			       cfg->dedup_hash_engines * (transfer_ns + program_ns_of(cfg)));
	u64 by_channels = mul_div(fingerprint_ns, cfg->channels * 1000000ULL,
				  cfg->dedup_hash_engines * transfer_ns);

	return min_t(u64, by_chips, by_channels);
}

int ssd_dedup_init(struct dedup *dd, const struct ssd_config *cfg,
	       const struct ssd_layer_env *env)
{
	u64 pages = ssd_config_logical_pages(cfg), i;

	dd->pool = env->pool;
	dd->dev_name = env->dev_name;
	dd->pages = pages;
	dd->page_bytes = cfg->page_size_bytes;
	dd->filter = cfg->dedup_filter;
	dd->filter_chunks = cfg->dedup_filter && cfg->dedup_filter_live_chunks;
	dd->sample_bytes = cfg->dedup_sample_bytes;
	dd->sample_offset = cfg->dedup_sample_offset_bytes;
	dd->hash_ns = cfg->dedup_hash_ns;
	dd->lookup_ns = cfg->dedup_lookup_ns;
	dd->program_ns = program_ns_of(cfg);
	dd->engines = (u32)cfg->dedup_hash_engines;
	dd->overlap = cfg->dedup_hash_overlap;
	dd->engine_load_ppm = ssd_dedup_engine_load_ppm(cfg);
	dd->store_cap = store_cap_of(cfg);
	dd->store_lru = cfg->dedup_store_entries != 0;
	dd->store_mask = pow2_at_least(dd->store_cap) - 1;
	dd->buffer_cap = buffer_cap_of(cfg);
	dd->buffer_mask = pow2_at_least(dd->buffer_cap) - 1;
	dd->metadata_bytes = sizeof(struct dedup);

	dd->l2c = table(dd, pages, sizeof(u32));
	dd->refcount = table(dd, pages, sizeof(u32));
	dd->free_next = table(dd, pages, sizeof(u32));
	dd->chunk_slot = table(dd, pages, sizeof(u32));
	if (!dd->l2c || !dd->refcount || !dd->free_next || !dd->chunk_slot)
		return -ENOMEM;
	if (dd->filter_chunks) {
		dd->sample_mask = pow2_at_least(pages) - 1;
		dd->chunk_sample = table(dd, pages, sizeof(u32));
		dd->samples = table(dd, pages, sizeof(struct dedup_sample));
		dd->sample_buckets = table(dd, dd->sample_mask + 1ULL, sizeof(u32));
		if (!dd->chunk_sample || !dd->samples || !dd->sample_buckets)
			return -ENOMEM;
		ssd_dedup_sample_reset(dd);
	}
	dd->slots = table(dd, dd->store_cap, sizeof(struct dedup_store_slot));
	dd->store_buckets = table(dd, dd->store_mask + 1ULL, sizeof(u32));
	dd->buffer = table(dd, dd->buffer_cap, sizeof(struct dedup_buffer_entry));
	dd->buffer_lpn_buckets = table(dd, dd->buffer_mask + 1ULL, sizeof(u32));
	dd->buffer_sample_buckets = table(dd, dd->buffer_mask + 1ULL, sizeof(u32));
	if (!dd->slots || !dd->store_buckets || !dd->buffer || !dd->buffer_lpn_buckets ||
	    !dd->buffer_sample_buckets)
		return -ENOMEM;
	fill_none(dd->l2c, pages);
	fill_none(dd->chunk_slot, pages);
	fill_none(dd->buffer_lpn_buckets, dd->buffer_mask + 1ULL);
	fill_none(dd->buffer_sample_buckets, dd->buffer_mask + 1ULL);
	for (i = 0; i < dd->buffer_cap; i++) {
		dd->buffer[i].lpn = U64_MAX;	/* every position a hole */
		dd->buffer[i].chunk = DEDUP_NONE;
	}
	ssd_dedup_store_reset(dd);
	/* Free chunk ids in increasing order. */
	for (i = 0; i < pages; i++)
		dd->free_next[i] = i + 1 < pages ? i + 1 : DEDUP_NONE;
	dd->free_head = pages ? 0 : DEDUP_NONE;
	dd->nr_free = pages;
	return 0;
}

void ssd_dedup_exit(struct dedup *dd)
{
	u32 i;

	if (dd->buffer)
		for (i = 0; i < dd->buffer_cap; i++)
			if (dd->buffer[i].buf)
				ssd_pagepool_put(dd->pool, dd->buffer[i].buf);
	ssd_free(dd->l2c);
	ssd_free(dd->refcount);
	ssd_free(dd->free_next);
	ssd_free(dd->chunk_slot);
	ssd_free(dd->chunk_sample);
	ssd_free(dd->samples);
	ssd_free(dd->sample_buckets);
	ssd_free(dd->slots);
	ssd_free(dd->store_buckets);
	ssd_free(dd->buffer);
	ssd_free(dd->buffer_lpn_buckets);
	ssd_free(dd->buffer_sample_buckets);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_check.c - the dedup layer's full consistency check: every chunk's
 * refcount equals the number of lpns mapping to it plus the buffered
 * overwrite that reserves it, the free list holds exactly the unreferenced
 * chunk ids, the store and the sample index hold live chunks only (never a
 * reserved one) and count what they hold, and the write buffer's indexes
 * agree with its ring.  Linear in the device size, no allocation.
 */
#include "dedup/dedup_internal.h"

#define CHECK(cond, fmt, ...)						\
	do {								\
		if (!(cond)) {						\
			ssd_dev_err(dd->dev_name, "dedup check: " fmt, ##__VA_ARGS__);	\
			return -EUCLEAN;				\
		}							\
	} while (0)

/* Add @delta to the refcount of every chunk a buffered write reserves. */
static void count_reserved(struct dedup *dd, u32 delta)
{
	u32 i;

	for (i = 0; i < dd->buffer_cap; i++)
		if (dd->buffer[i].lpn != U64_MAX && dd->buffer[i].chunk < dd->pages)
			dd->refcount[dd->buffer[i].chunk] += delta;
}

/*
 * refcount[c] equals the lpns mapping to c plus the buffered write that
 * reserves it; the table is put back as it was.
 */
static int check_refcounts(struct dedup *dd)
{
	u64 lpn, mapped = 0, bad = U64_MAX;
	u32 c;

	count_reserved(dd, -1U);	/* wraps back below */
	for (lpn = 0; lpn < dd->pages; lpn++) {
		ssd_check_resched(lpn);
		c = dd->l2c[lpn];
		CHECK(c == DEDUP_NONE || c < dd->pages, "lpn %llu maps to chunk %u",
		      (unsigned long long)lpn, c);
		if (c != DEDUP_NONE) {
			dd->refcount[c]--;	/* wraps back below */
			mapped++;
		}
	}
	for (c = 0; c < dd->pages && bad == U64_MAX; c++)
		if (dd->refcount[c])
			bad = c;
	for (lpn = 0; lpn < dd->pages; lpn++)
		if (dd->l2c[lpn] != DEDUP_NONE)
			dd->refcount[dd->l2c[lpn]]++;
	count_reserved(dd, 1);
	CHECK(bad == U64_MAX, "chunk %llu has refcount %u", (unsigned long long)bad,
	      dd->refcount[bad]);
	CHECK(mapped == dd->mapped_lpns, "%llu lpns mapped, counted %llu",
	      (unsigned long long)mapped, (unsigned long long)dd->mapped_lpns);
	return 0;
}

static int check_free_list(const struct dedup *dd)
{
	u64 listed = 0, unreferenced = 0;
	u32 c;

	for (c = dd->free_head; c != DEDUP_NONE && listed <= dd->pages; c = dd->free_next[c]) {
		CHECK(c < dd->pages && !dd->refcount[c], "free chunk %u is in use", c);
		listed++;
	}
	for (c = 0; c < dd->pages; c++)
		unreferenced += !dd->refcount[c];
	CHECK(listed == dd->nr_free && unreferenced == dd->nr_free,
	      "free list holds %llu, %llu counted, %llu unreferenced",
	      (unsigned long long)listed, (unsigned long long)dd->nr_free,
	      (unsigned long long)unreferenced);
	return 0;
}

static int check_store(struct dedup *dd)
{
	u64 stored = 0, listed = 0;
	u32 c, slot;

	for (c = 0; c < dd->pages; c++) {
		ssd_check_resched(c);
		slot = dd->chunk_slot[c];
		if (!dd->refcount[c]) {
			CHECK(slot == DEDUP_NONE, "free chunk %u has store slot %u", c, slot);
			continue;
		}
		if (slot >= dd->store_cap)
			continue;
		CHECK(dd->slots[slot].chunk == c, "slot %u holds chunk %u, not %u", slot,
		      dd->slots[slot].chunk, c);
		CHECK(ssd_dedup_store_find(dd, dd->slots[slot].sha1) != DEDUP_NONE,
		      "chunk %u's fingerprint not found", c);
		stored++;
	}
	CHECK(stored == dd->store_used, "store holds %u, chunks point at %llu",
	      dd->store_used, (unsigned long long)stored);
	if (dd->store_lru) {
		for (slot = dd->lru_head; slot != DEDUP_NONE && listed <= dd->store_cap;
		     slot = dd->slots[slot].lru_next)
			listed++;
		CHECK(listed == dd->store_used, "recency list holds %llu of %u",
		      (unsigned long long)listed, dd->store_used);
	}
	return 0;
}

/* Take (@take) or give back one count per matchable live chunk from its entry. */
static void count_matchable(struct dedup *dd, bool take)
{
	u32 c, e;

	for (c = 0; c < dd->pages; c++) {
		ssd_check_resched(c);
		if (!dd->refcount[c] || dd->chunk_slot[c] == DEDUP_EVICTED ||
		    dd->chunk_slot[c] == DEDUP_RESERVED)
			continue;
		e = ssd_dedup_sample_find(dd, dd->chunk_sample[c]);
		if (e != DEDUP_NONE)
			dd->samples[e].matchable += take ? -1U : 1U;	/* wraps back */
	}
}

/*
 * Every live chunk the store can match has its key's entry; each entry
 * counts exactly those chunks, and names its one unfingerprinted chunk;
 * entries in use and free ones add up.
 */
static int check_samples(struct dedup *dd)
{
	u64 used = 0, free = 0, b, bad = U64_MAX;
	u32 c, e;

	if (!dd->filter_chunks)
		return 0;
	for (c = 0; c < dd->pages; c++) {
		ssd_check_resched(c);
		if (!dd->refcount[c] || dd->chunk_slot[c] == DEDUP_EVICTED ||
		    dd->chunk_slot[c] == DEDUP_RESERVED)
			continue;
		e = ssd_dedup_sample_find(dd, dd->chunk_sample[c]);
		CHECK(e != DEDUP_NONE, "live chunk %u's sample has no entry", c);
		CHECK(dd->chunk_slot[c] != DEDUP_NONE || dd->samples[e].unhashed == c,
		      "unfingerprinted chunk %u not named by its sample", c);
	}
	count_matchable(dd, true);
	for (b = 0; b <= dd->sample_mask; b++)
		for (e = dd->sample_buckets[b]; e != DEDUP_NONE && used <= dd->pages;
		     e = dd->samples[e].next) {
			if (dd->samples[e].matchable && bad == U64_MAX)
				bad = e;
			used++;
		}
	count_matchable(dd, false);
	CHECK(bad == U64_MAX, "sample entry %llu counts %u chunks too many",
	      (unsigned long long)bad, dd->samples[bad].matchable);
	for (e = dd->sample_free; e != DEDUP_NONE && free <= dd->pages; e = dd->samples[e].next)
		free++;
	CHECK(used + free == dd->pages, "sample entries: %llu used, %llu free of %llu",
	      (unsigned long long)used, (unsigned long long)free,
	      (unsigned long long)dd->pages);
	for (b = 0; b <= dd->sample_mask; b++)
		for (e = dd->sample_buckets[b]; e != DEDUP_NONE; e = dd->samples[e].next) {
			c = dd->samples[e].unhashed;
			CHECK(dd->samples[e].matchable, "sample entry %u counts no chunk", e);
			CHECK(c == DEDUP_NONE || (c < dd->pages && dd->refcount[c] &&
			      dd->chunk_slot[c] == DEDUP_NONE &&
			      dd->chunk_sample[c] == dd->samples[e].key),
			      "sample entry %u names chunk %u", e, c);
		}
	return 0;
}

static int check_buffer(const struct dedup *dd)
{
	u32 i, e, live = 0, reserving = 0, reserved = 0;

	CHECK(dd->buffer_slots <= dd->buffer_cap, "buffer uses %u of %u", dd->buffer_slots,
	      dd->buffer_cap);
	for (i = 0; i < dd->buffer_cap; i++) {
		const struct dedup_buffer_entry *en = &dd->buffer[i];
		u32 age = (i + dd->buffer_cap - dd->buffer_head) % dd->buffer_cap;

		if (en->lpn == U64_MAX) {
			CHECK(!en->buf, "buffer hole %u holds data", i);
			continue;
		}
		CHECK(age < dd->buffer_slots, "buffer entry %u outside the ring", i);
		CHECK(en->lpn < dd->pages && en->buf, "buffer entry %u: lpn %llu", i,
		      (unsigned long long)en->lpn);
		CHECK(dd->l2c[en->lpn] == DEDUP_NONE, "buffered lpn %llu is mapped too",
		      (unsigned long long)en->lpn);
		CHECK(ssd_dedup_is_buffered(dd, en->lpn), "buffered lpn %llu not indexed",
		      (unsigned long long)en->lpn);
		for (e = dd->buffer_sample_buckets[en->sample_key & dd->buffer_mask];
		     e != DEDUP_NONE && e != i; e = dd->buffer[e].sample_next)
			;
		CHECK(e == i, "buffer entry %u not in its sample bucket", i);
		for (e = dd->buffer_sample_buckets[en->sample_key & dd->buffer_mask];
		     dd->filter && e != DEDUP_NONE; e = dd->buffer[e].sample_next)
			CHECK(e == i || dd->buffer[e].sample_key != en->sample_key || en->paired,
			      "buffer entry %u shares its sample with %u, not paired", i, e);
		if (en->chunk != DEDUP_NONE) {
			CHECK(en->chunk < dd->pages && dd->refcount[en->chunk] == 1 &&
			      dd->chunk_slot[en->chunk] == DEDUP_RESERVED,
			      "buffered lpn %llu reserves chunk %u (refcount %u)",
			      (unsigned long long)en->lpn, en->chunk,
			      en->chunk < dd->pages ? dd->refcount[en->chunk] : 0);
			reserving++;
		}
		live++;
	}
	CHECK(live == dd->buffered && live - reserving == dd->buffered_new,
	      "buffer holds %u (%u without a reserved chunk), counted %u (%u)", live,
	      live - reserving, dd->buffered, dd->buffered_new);
	for (i = 0; i < dd->pages; i++)
		reserved += dd->chunk_slot[i] == DEDUP_RESERVED;
	CHECK(reserved == reserving, "%u chunks reserved, %u buffered writes reserve one",
	      reserved, reserving);
	return 0;
}

int ssd_dedup_check(struct dedup *dd)
{
	int ret = check_refcounts(dd);

	if (!ret)
		ret = check_free_list(dd);
	if (!ret)
		ret = check_store(dd);
	if (!ret)
		ret = check_samples(dd);
	if (!ret)
		ret = check_buffer(dd);
	return ret;
}

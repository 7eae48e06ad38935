// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_sample.c - the sampling filter's index of live chunks: for each
 * sample key, how many live chunks with it the fingerprint store can
 * match, and the one never fingerprinted (filtered when it was written),
 * so a leaving write learns in O(1) whether its sample recurs among live
 * chunks and which chunk to fingerprint late.  Chunks whose fingerprint
 * left an LRU store do not count: they can no longer be shared.
 */
#include "dedup/dedup_internal.h"

static u32 *bucket_of(struct dedup *dd, u32 key)
{
	return &dd->sample_buckets[key & dd->sample_mask];
}

/* The entry of @key, or DEDUP_NONE. */
u32 ssd_dedup_sample_find(const struct dedup *dd, u32 key)
{
	u32 e = dd->sample_buckets[key & dd->sample_mask];

	while (e != DEDUP_NONE && dd->samples[e].key != key)
		e = dd->samples[e].next;
	return e;
}

static void entry_put(struct dedup *dd, u32 e)
{
	u32 *link = bucket_of(dd, dd->samples[e].key);

	if (--dd->samples[e].matchable)
		return;
	while (*link != e)
		link = &dd->samples[*link].next;
	*link = dd->samples[e].next;
	dd->samples[e].next = dd->sample_free;
	dd->sample_free = e;
}

/* Live @chunk with sample @key was written, fingerprinted (@hashed) or not. */
void ssd_dedup_sample_add(struct dedup *dd, u32 chunk, u32 key, bool hashed)
{
	u32 e = ssd_dedup_sample_find(dd, key);

	dd->chunk_sample[chunk] = key;
	if (e == DEDUP_NONE) {
		u32 *bucket = bucket_of(dd, key);

		/* Entries never outnumber live chunks: one is free. */
		e = dd->sample_free;
		dd->sample_free = dd->samples[e].next;
		dd->samples[e].key = key;
		dd->samples[e].matchable = 0;
		dd->samples[e].unhashed = DEDUP_NONE;
		dd->samples[e].next = *bucket;
		*bucket = e;
	}
	dd->samples[e].matchable++;
	if (!hashed)
		dd->samples[e].unhashed = chunk;
}

/* @chunk, written without a fingerprint, has one now. */
void ssd_dedup_sample_hashed(struct dedup *dd, u32 chunk)
{
	u32 e = ssd_dedup_sample_find(dd, dd->chunk_sample[chunk]);

	if (e != DEDUP_NONE && dd->samples[e].unhashed == chunk)
		dd->samples[e].unhashed = DEDUP_NONE;
}

/* @chunk's fingerprint left the LRU store: it no longer counts. */
void ssd_dedup_sample_evicted(struct dedup *dd, u32 chunk)
{
	u32 e = ssd_dedup_sample_find(dd, dd->chunk_sample[chunk]);

	if (e != DEDUP_NONE)
		entry_put(dd, e);
}

/* @chunk is freed (call before its store slot is cleared). */
void ssd_dedup_sample_remove(struct dedup *dd, u32 chunk)
{
	u32 e = ssd_dedup_sample_find(dd, dd->chunk_sample[chunk]);

	if (dd->chunk_slot[chunk] == DEDUP_EVICTED || e == DEDUP_NONE)
		return;
	if (dd->samples[e].unhashed == chunk)
		dd->samples[e].unhashed = DEDUP_NONE;
	entry_put(dd, e);
}

void ssd_dedup_sample_reset(struct dedup *dd)
{
	u64 i;

	for (i = 0; i <= dd->sample_mask; i++)
		dd->sample_buckets[i] = DEDUP_NONE;
	for (i = 0; i < dd->pages; i++)
		dd->samples[i].next = i + 1 < dd->pages ? i + 1 : DEDUP_NONE;
	dd->sample_free = dd->pages ? 0 : DEDUP_NONE;
}

static const struct ssd_snap_field sample_fields[] = {
	SSD_SNAP_FIELD(struct dedup_sample, key),
	SSD_SNAP_FIELD(struct dedup_sample, next),
	SSD_SNAP_FIELD(struct dedup_sample, matchable),
	SSD_SNAP_FIELD(struct dedup_sample, unhashed),
};

/* The index as it is: each chunk's key, every entry, the buckets, the free list. */
void ssd_dedup_sample_save(const struct dedup *dd, struct ssd_snap_writer *w)
{
	ssd_snap_put_array(w, dd->chunk_sample, dd->pages, sizeof(u32));
	ssd_snap_put_structs(w, dd->samples, dd->pages, sizeof(*dd->samples), sample_fields,
			     ARRAY_SIZE(sample_fields));
	ssd_snap_put_array(w, dd->sample_buckets, dd->sample_mask + 1ULL, sizeof(u32));
	ssd_snap_put_u32(w, dd->sample_free);
}

static bool entry_or_none(const struct dedup *dd, u32 e)
{
	return e == DEDUP_NONE || e < dd->pages;
}

/*
 * The loaded links make an index: the chains hold entries that count
 * chunks, each in its key's bucket (so in one chain), with no loop; the
 * free list entries that count none, with no loop; together all entries.
 */
static void check_links(struct dedup *dd, struct ssd_snap_reader *r)
{
	u64 used = 0, free = 0, b;
	u32 e;

	for (b = 0; b <= dd->sample_mask; b++)
		for (e = dd->sample_buckets[b]; e != DEDUP_NONE; e = dd->samples[e].next)
			if (++used > dd->pages || !dd->samples[e].matchable ||
			    (dd->samples[e].key & dd->sample_mask) != b) {
				ssd_snap_refuse(r, "dedup sample index: bucket %llu reaches entry %u (empty, another bucket's, or a loop)",
						(unsigned long long)b, e);
				return;
			}
	for (e = dd->sample_free; e != DEDUP_NONE; e = dd->samples[e].next)
		if (++free > dd->pages - used || dd->samples[e].matchable) {
			ssd_snap_refuse(r, "dedup sample index: free entry %u counts chunks, or a loop",
					e);
			return;
		}
	if (used + free != dd->pages)
		ssd_snap_refuse(r, "dedup sample index: %llu entries used, %llu free, of %llu",
				(unsigned long long)used, (unsigned long long)free,
				(unsigned long long)dd->pages);
}

void ssd_dedup_sample_load(struct dedup *dd, struct ssd_snap_reader *r)
{
	u64 i;

	ssd_snap_get_array(r, dd->chunk_sample, dd->pages, sizeof(u32));
	ssd_snap_get_structs(r, dd->samples, dd->pages, sizeof(*dd->samples), sample_fields,
			     ARRAY_SIZE(sample_fields));
	for (i = 0; i < dd->pages && !r->error; i++)
		if (!entry_or_none(dd, dd->samples[i].next) ||
		    !entry_or_none(dd, dd->samples[i].unhashed))
			ssd_snap_refuse(r, "dedup sample index: entry %llu links %u, names chunk %u",
					(unsigned long long)i, dd->samples[i].next,
					dd->samples[i].unhashed);
	ssd_snap_get_array(r, dd->sample_buckets, dd->sample_mask + 1ULL, sizeof(u32));
	for (i = 0; i <= dd->sample_mask && !r->error; i++)
		if (!entry_or_none(dd, dd->sample_buckets[i]))
			ssd_snap_refuse(r, "dedup sample index: bucket %llu starts at entry %u",
					(unsigned long long)i, dd->sample_buckets[i]);
	dd->sample_free = ssd_snap_get_u32(r);
	if (!r->error && !entry_or_none(dd, dd->sample_free))
		ssd_snap_refuse(r, "dedup sample index: free list at %u", dd->sample_free);
	if (!r->error)
		check_links(dd, r);
}

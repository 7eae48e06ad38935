// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_store.c - the fingerprint store of the dedup layer: SHA-1 ->
 * chunk, in a hash table of fixed slots with a recency list.  The full
 * store has a slot for every chunk id and never evicts; the recency store
 * (dedup_store_entries = N) keeps the N fingerprints used last, and a new
 * one pushes out the least recent (its chunk stays, unshareable from then
 * on: DEDUP_EVICTED).
 */
#include "dedup/dedup_internal.h"

static u32 bucket_of(const struct dedup *dd, const u8 sha1[DEDUP_SHA1_BYTES])
{
	u32 word = (u32)sha1[0] | (u32)sha1[1] << 8 | (u32)sha1[2] << 16 |
		   (u32)sha1[3] << 24;

	return word & dd->store_mask;
}

static void lru_unlink(struct dedup *dd, u32 slot)
{
	struct dedup_store_slot *s = &dd->slots[slot];

	if (s->lru_prev != DEDUP_NONE)
		dd->slots[s->lru_prev].lru_next = s->lru_next;
	else
		dd->lru_head = s->lru_next;
	if (s->lru_next != DEDUP_NONE)
		dd->slots[s->lru_next].lru_prev = s->lru_prev;
	else
		dd->lru_tail = s->lru_prev;
}

static void lru_push_front(struct dedup *dd, u32 slot)
{
	struct dedup_store_slot *s = &dd->slots[slot];

	s->lru_prev = DEDUP_NONE;
	s->lru_next = dd->lru_head;
	if (dd->lru_head != DEDUP_NONE)
		dd->slots[dd->lru_head].lru_prev = slot;
	else
		dd->lru_tail = slot;
	dd->lru_head = slot;
}

static void hash_unlink(struct dedup *dd, u32 slot)
{
	u32 *link = &dd->store_buckets[bucket_of(dd, dd->slots[slot].sha1)];

	while (*link != slot)
		link = &dd->slots[*link].hash_next;
	*link = dd->slots[slot].hash_next;
}

/* The slot holding @sha1, or DEDUP_NONE. */
u32 ssd_dedup_store_find(struct dedup *dd, const u8 sha1[DEDUP_SHA1_BYTES])
{
	u32 slot = dd->store_buckets[bucket_of(dd, sha1)];

	while (slot != DEDUP_NONE && memcmp(dd->slots[slot].sha1, sha1, DEDUP_SHA1_BYTES))
		slot = dd->slots[slot].hash_next;
	return slot;
}

/* @slot was used: it becomes the most recent. */
void ssd_dedup_store_touch(struct dedup *dd, u32 slot)
{
	if (!dd->store_lru || dd->lru_head == slot)
		return;
	lru_unlink(dd, slot);
	lru_push_front(dd, slot);
}

static void slot_release(struct dedup *dd, u32 slot)
{
	hash_unlink(dd, slot);
	if (dd->store_lru)
		lru_unlink(dd, slot);
	dd->slots[slot].chunk = DEDUP_NONE;
	dd->slots[slot].hash_next = dd->slot_free;
	dd->slot_free = slot;
	dd->store_used--;
}

/* Enter @chunk's fingerprint, pushing out the least recent one if full. */
void ssd_dedup_store_insert(struct dedup *dd, u32 chunk, const u8 sha1[DEDUP_SHA1_BYTES])
{
	u32 bucket = bucket_of(dd, sha1);
	u32 slot;

	if (dd->slot_free == DEDUP_NONE) {
		u32 victim = dd->lru_tail;

		if (!dd->store_lru || victim == DEDUP_NONE) {
			/* The full store has a slot per chunk id. */
			ssd_dev_warn_once(dd->dev_name, "dedup: fingerprint store full without an LRU");
			return;
		}
		if (dd->filter_chunks)
			ssd_dedup_sample_evicted(dd, dd->slots[victim].chunk);
		dd->chunk_slot[dd->slots[victim].chunk] = DEDUP_EVICTED;
		slot_release(dd, victim);
		dd->counters.store_evictions++;
	}
	slot = dd->slot_free;
	dd->slot_free = dd->slots[slot].hash_next;
	memcpy(dd->slots[slot].sha1, sha1, DEDUP_SHA1_BYTES);
	dd->slots[slot].chunk = chunk;
	dd->slots[slot].hash_next = dd->store_buckets[bucket];
	dd->store_buckets[bucket] = slot;
	if (dd->store_lru)
		lru_push_front(dd, slot);
	dd->chunk_slot[chunk] = slot;
	dd->store_used++;
}

/* @chunk is freed: forget its fingerprint, if the store has it. */
void ssd_dedup_store_remove(struct dedup *dd, u32 chunk)
{
	u32 slot = dd->chunk_slot[chunk];

	dd->chunk_slot[chunk] = DEDUP_NONE;
	if (slot < dd->store_cap)
		slot_release(dd, slot);
}

/* Empty the store: every slot free, every bucket empty. */
void ssd_dedup_store_reset(struct dedup *dd)
{
	u32 i;

	for (i = 0; i <= dd->store_mask; i++)
		dd->store_buckets[i] = DEDUP_NONE;
	for (i = 0; i < dd->store_cap; i++) {
		dd->slots[i].chunk = DEDUP_NONE;
		dd->slots[i].hash_next = i + 1 < dd->store_cap ? i + 1 : DEDUP_NONE;
		dd->slots[i].lru_prev = DEDUP_NONE;
		dd->slots[i].lru_next = DEDUP_NONE;
	}
	dd->slot_free = dd->store_cap ? 0 : DEDUP_NONE;
	dd->lru_head = DEDUP_NONE;
	dd->lru_tail = DEDUP_NONE;
	dd->store_used = 0;
}

/* A slot in a snapshot: the fingerprint, then chunk, hash and recency links. */
#define STORE_SLOT_BYTES	(DEDUP_SHA1_BYTES + 4 * 4)

static void le32_store(u8 *p, u32 v)
{
	p[0] = (u8)v;
	p[1] = (u8)(v >> 8);
	p[2] = (u8)(v >> 16);
	p[3] = (u8)(v >> 24);
}

static u32 le32_load(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

/*
 * The store as it is, slot for slot (its hash chains' order decides which
 * of two equal fingerprints is found, so it is kept).
 */
void ssd_dedup_store_save(const struct dedup *dd, struct ssd_snap_writer *w)
{
	u8 raw[STORE_SLOT_BYTES];
	u32 i;

	ssd_snap_put_u32(w, dd->store_cap);
	ssd_snap_put_u32(w, dd->store_used);
	ssd_snap_put_u32(w, dd->slot_free);
	ssd_snap_put_u32(w, dd->lru_head);
	ssd_snap_put_u32(w, dd->lru_tail);
	ssd_snap_put_array(w, dd->store_buckets, dd->store_mask + 1ULL, sizeof(u32));
	for (i = 0; i < dd->store_cap && !w->error; i++) {
		const struct dedup_store_slot *s = &dd->slots[i];

		memcpy(raw, s->sha1, DEDUP_SHA1_BYTES);
		le32_store(raw + DEDUP_SHA1_BYTES, s->chunk);
		le32_store(raw + DEDUP_SHA1_BYTES + 4, s->hash_next);
		le32_store(raw + DEDUP_SHA1_BYTES + 8, s->lru_prev);
		le32_store(raw + DEDUP_SHA1_BYTES + 12, s->lru_next);
		ssd_snap_put(w, raw, sizeof(raw));
	}
}

static bool slot_or_none(const struct dedup *dd, u32 slot)
{
	return slot == DEDUP_NONE || slot < dd->store_cap;
}

/*
 * The loaded links make a store: the hash chains hold store_used slots in
 * use, each in its fingerprint's bucket, once (no chain loops: at most
 * store_used steps in all); the free list the other slots, unused, once;
 * the recency list (an LRU store) every slot in use, doubly linked.
 */
static int check_links(struct dedup *dd, struct ssd_snap_reader *r)
{
	u64 chained = 0, free = 0, listed = 0;
	u32 b, slot, prev = DEDUP_NONE;

	for (b = 0; b <= dd->store_mask; b++)
		for (slot = dd->store_buckets[b]; slot != DEDUP_NONE;
		     slot = dd->slots[slot].hash_next)
			if (++chained > dd->store_used || dd->slots[slot].chunk == DEDUP_NONE ||
			    bucket_of(dd, dd->slots[slot].sha1) != b)
				return ssd_snap_refuse(r, "dedup store: bucket %u reaches slot %u (unused, another bucket's, a loop, or more than the %u in use)",
						       b, slot, dd->store_used);
	for (slot = dd->slot_free; slot != DEDUP_NONE; slot = dd->slots[slot].hash_next)
		if (++free > dd->store_cap - dd->store_used ||
		    dd->slots[slot].chunk != DEDUP_NONE)
			return ssd_snap_refuse(r, "dedup store: free slot %u in use, or a loop", slot);
	if (chained != dd->store_used || free != dd->store_cap - dd->store_used)
		return ssd_snap_refuse(r, "dedup store: %llu slots chained and %llu free, %u of %u in use",
				       (unsigned long long)chained, (unsigned long long)free,
				       dd->store_used, dd->store_cap);
	if (!dd->store_lru) {
		if (dd->lru_head != DEDUP_NONE || dd->lru_tail != DEDUP_NONE)
			return ssd_snap_refuse(r, "dedup store: a recency list without an LRU");
		return 0;
	}
	for (slot = dd->lru_head; slot != DEDUP_NONE; prev = slot, slot = dd->slots[slot].lru_next)
		if (++listed > dd->store_used || dd->slots[slot].chunk == DEDUP_NONE ||
		    dd->slots[slot].lru_prev != prev)
			return ssd_snap_refuse(r, "dedup store: recency list badly linked at slot %u",
					       slot);
	if (listed != dd->store_used || dd->lru_tail != prev)
		return ssd_snap_refuse(r, "dedup store: recency list holds %llu of %u, ends at %u",
				       (unsigned long long)listed, dd->store_used, dd->lru_tail);
	return 0;
}

void ssd_dedup_store_load(struct dedup *dd, struct ssd_snap_reader *r)
{
	u8 raw[STORE_SLOT_BYTES];
	u32 cap = ssd_snap_get_u32(r), i;

	dd->store_used = ssd_snap_get_u32(r);
	dd->slot_free = ssd_snap_get_u32(r);
	dd->lru_head = ssd_snap_get_u32(r);
	dd->lru_tail = ssd_snap_get_u32(r);
	if (r->error)
		return;
	if (cap != dd->store_cap || dd->store_used > cap || !slot_or_none(dd, dd->slot_free) ||
	    !slot_or_none(dd, dd->lru_head) || !slot_or_none(dd, dd->lru_tail)) {
		ssd_snap_refuse(r, "dedup store: %u of %u slots used (this device has %u), lists at %u/%u/%u",
				dd->store_used, cap, dd->store_cap, dd->slot_free, dd->lru_head,
				dd->lru_tail);
		return;
	}
	ssd_snap_get_array(r, dd->store_buckets, dd->store_mask + 1ULL, sizeof(u32));
	for (i = 0; i <= dd->store_mask && !r->error; i++)
		if (!slot_or_none(dd, dd->store_buckets[i]))
			ssd_snap_refuse(r, "dedup store: bucket %u starts at slot %u", i,
					dd->store_buckets[i]);
	for (i = 0; i < dd->store_cap && !r->error; i++) {
		struct dedup_store_slot *s = &dd->slots[i];

		ssd_snap_get(r, raw, sizeof(raw));
		if (r->error)
			return;
		memcpy(s->sha1, raw, DEDUP_SHA1_BYTES);
		s->chunk = le32_load(raw + DEDUP_SHA1_BYTES);
		s->hash_next = le32_load(raw + DEDUP_SHA1_BYTES + 4);
		s->lru_prev = le32_load(raw + DEDUP_SHA1_BYTES + 8);
		s->lru_next = le32_load(raw + DEDUP_SHA1_BYTES + 12);
		if ((s->chunk != DEDUP_NONE && s->chunk >= dd->pages) ||
		    !slot_or_none(dd, s->hash_next) || !slot_or_none(dd, s->lru_prev) ||
		    !slot_or_none(dd, s->lru_next))
			ssd_snap_refuse(r, "dedup store: slot %u holds chunk %u, links %u/%u/%u", i,
					s->chunk, s->hash_next, s->lru_prev, s->lru_next);
	}
	if (!r->error)
		check_links(dd, r);
}

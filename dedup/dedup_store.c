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
		if (dd->filter)
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

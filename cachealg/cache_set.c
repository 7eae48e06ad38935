// SPDX-License-Identifier: GPL-2.0
/*
 * cache_set.c - a set of keys with an order (struct cache_set): a chained
 * hash over fixed slots and a doubly linked list from the newest to the
 * oldest entry.  Every cache's directory and the ghost lists (ARC,
 * S3-FIFO, LARC) are built on it.  Sized once, allocates nothing
 * afterwards; a snapshot holds its order and its free slots, and loading
 * rebuilds the rest.
 */
#include "cachealg/cachealg_internal.h"
#include "common/ssd_slot_list.h"

static u32 buckets_for(u32 capacity)
{
	u32 n = 1;

	while (n < capacity)
		n <<= 1;
	return n;
}

u64 ssd_cache_set_bytes(u64 total, u32 capacity)
{
	total = ssd_tables_add(total, 1, buckets_for(capacity), sizeof(u32));
	return ssd_tables_add(total, 4, capacity, sizeof(u32));
}

int ssd_cache_set_init(struct cache_set *set, u32 capacity)
{
	u32 nr_buckets = buckets_for(capacity), i;

	memset(set, 0, sizeof(*set));
	set->capacity = capacity;
	set->bucket_mask = nr_buckets - 1;
	set->bucket = ssd_zalloc((u64)nr_buckets * sizeof(u32));
	set->lpn = ssd_zalloc((u64)capacity * sizeof(u32));
	set->hnext = ssd_zalloc((u64)capacity * sizeof(u32));
	set->prev = ssd_zalloc((u64)capacity * sizeof(u32));
	set->next = ssd_zalloc((u64)capacity * sizeof(u32));
	if (!set->bucket || !set->lpn || !set->hnext || !set->prev || !set->next) {
		ssd_cache_set_exit(set);
		return -ENOMEM;
	}
	for (i = 0; i < nr_buckets; i++)
		set->bucket[i] = CACHE_NONE;
	for (i = 0; i < capacity; i++)
		set->next[i] = i + 1 < capacity ? i + 1 : CACHE_NONE;
	set->free = capacity ? 0 : CACHE_NONE;
	set->head = CACHE_NONE;
	set->tail = CACHE_NONE;
	return 0;
}

void ssd_cache_set_exit(struct cache_set *set)
{
	ssd_free(set->bucket);
	ssd_free(set->lpn);
	ssd_free(set->hnext);
	ssd_free(set->prev);
	ssd_free(set->next);
	memset(set, 0, sizeof(*set));
}

static u32 bucket_of(const struct cache_set *set, u64 lpn)
{
	return (u32)ssd_hash64(lpn) & set->bucket_mask;
}

u32 ssd_cache_set_find(const struct cache_set *set, u64 lpn)
{
	u32 slot;

	if (!set->capacity)
		return CACHE_NONE;
	for (slot = set->bucket[bucket_of(set, lpn)]; slot != CACHE_NONE;
	     slot = set->hnext[slot])
		if (set->lpn[slot] == lpn)
			return slot;
	return CACHE_NONE;
}

/* The order of @set's entries, newest at the head. */
static struct ssd_slot_list order_of(struct cache_set *set)
{
	return (struct ssd_slot_list){ set->prev, set->next, &set->head, &set->tail };
}

u32 ssd_cache_set_insert(struct cache_set *set, u64 lpn)
{
	u32 slot = set->free, b = bucket_of(set, lpn);

	set->free = set->next[slot];
	set->lpn[slot] = (u32)lpn;
	set->hnext[slot] = set->bucket[b];
	set->bucket[b] = slot;
	ssd_slot_list_add_head(order_of(set), slot);
	set->count++;
	return slot;
}

void ssd_cache_set_remove(struct cache_set *set, u32 slot)
{
	u32 *link = &set->bucket[bucket_of(set, set->lpn[slot])];

	while (*link != slot)
		link = &set->hnext[*link];
	*link = set->hnext[slot];
	ssd_slot_list_unlink(order_of(set), slot);
	set->next[slot] = set->free;
	set->free = slot;
	set->count--;
}

void ssd_cache_set_move_head(struct cache_set *set, u32 slot)
{
	if (set->head == slot)
		return;
	ssd_slot_list_unlink(order_of(set), slot);
	ssd_slot_list_add_head(order_of(set), slot);
}

void ssd_cache_set_move_after(struct cache_set *set, u32 slot, u32 pos)
{
	if (slot == pos || set->next[pos] == slot)
		return;
	ssd_slot_list_unlink(order_of(set), slot);
	ssd_slot_list_add_after(order_of(set), slot, pos);
}

int ssd_cache_set_check(const struct cache_set *set, const char *dev_name, const char *who,
			const char *name)
{
	u32 slot, prev = CACHE_NONE, n = 0;

	for (slot = set->head; slot != CACHE_NONE && n <= set->capacity;
	     prev = slot, slot = set->next[slot]) {
		n++;
		if (set->prev[slot] != prev || ssd_cache_set_find(set, set->lpn[slot]) != slot) {
			ssd_dev_err(dev_name, "%s: %s: slot %u (lpn %u) badly linked or hashed",
				    who, name, slot, set->lpn[slot]);
			return -EUCLEAN;
		}
	}
	if (n != set->count || set->tail != prev || set->count > set->capacity) {
		ssd_dev_err(dev_name, "%s: %s: %u entries listed, %u counted, capacity %u",
			    who, name, n, set->count, set->capacity);
		return -EUCLEAN;
	}
	return 0;
}

void ssd_cache_set_save(const struct cache_set *set, struct ssd_snap_writer *w)
{
	u32 slot;

	ssd_snap_put_u32(w, set->capacity);
	ssd_snap_put_u32(w, set->count);
	for (slot = set->head; slot != CACHE_NONE && !w->error; slot = set->next[slot]) {
		ssd_snap_put_u32(w, slot);
		ssd_snap_put_u32(w, set->lpn[slot]);
	}
	for (slot = set->free; slot != CACHE_NONE && !w->error; slot = set->next[slot])
		ssd_snap_put_u32(w, slot);
}

/* While a set loads: the hash link of a slot not yet listed nor free. */
#define SET_UNPLACED	(CACHE_NONE - 1)

/* Append @slot holding @lpn at the tail, and hash it. */
static void load_append(struct cache_set *set, u32 slot, u32 lpn)
{
	u32 b = bucket_of(set, lpn);

	set->lpn[slot] = lpn;
	set->hnext[slot] = set->bucket[b];
	set->bucket[b] = slot;
	ssd_slot_list_add_tail(order_of(set), slot);
	set->count++;
}

void ssd_cache_set_load(struct cache_set *set, struct ssd_snap_reader *r, u64 max_lpn,
			const char *who, const char *name)
{
	u32 capacity = ssd_snap_get_u32(r), count = ssd_snap_get_u32(r);
	u32 i, slot, lpn, last = CACHE_NONE;

	if (r->error)
		return;
	if (capacity != set->capacity || count > capacity) {
		ssd_snap_refuse(r, "%s %s: %u entries of %u, this device has %u", who, name,
				count, capacity, set->capacity);
		return;
	}
	if (!capacity)
		return;
	for (i = 0; i <= set->bucket_mask; i++)
		set->bucket[i] = CACHE_NONE;
	for (i = 0; i < capacity; i++)
		set->hnext[i] = SET_UNPLACED;
	set->head = CACHE_NONE;
	set->tail = CACHE_NONE;
	set->free = CACHE_NONE;
	set->count = 0;
	for (i = 0; i < count; i++) {
		slot = ssd_snap_get_u32(r);
		lpn = ssd_snap_get_u32(r);
		if (r->error)
			return;
		if (slot >= capacity || set->hnext[slot] != SET_UNPLACED || lpn >= max_lpn ||
		    ssd_cache_set_find(set, lpn) != CACHE_NONE) {
			ssd_snap_refuse(r, "%s %s: entry %u is slot %u, lpn %u (of %u slots, %llu lpns; or twice)",
					who, name, i, slot, lpn, capacity,
					(unsigned long long)max_lpn);
			return;
		}
		load_append(set, slot, lpn);
	}
	/* The free slots, in the order inserts will take them. */
	for (i = count; i < capacity; i++) {
		slot = ssd_snap_get_u32(r);
		if (r->error)
			return;
		if (slot >= capacity || set->hnext[slot] != SET_UNPLACED) {
			ssd_snap_refuse(r, "%s %s: free slot %u out of range or twice",
					who, name, slot);
			return;
		}
		set->hnext[slot] = CACHE_NONE;
		set->next[slot] = CACHE_NONE;
		if (last != CACHE_NONE)
			set->next[last] = slot;
		else
			set->free = slot;
		last = slot;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_latency.c - the exact latency store (see sim_latency.h): a map of
 * value -> count while the values repeat, else every value in 4 or 5
 * bytes, and exact selection of the k-th smallest from either.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/sim_latency.h"
#include "tools/msg/msg.h"

#define CHUNK		((size_t)1 << SIM_LATENCY_CHUNK_SHIFT)
#define CHUNK_MASK	(CHUNK - 1)
#define SMALL_BITS	40
#define MAP_FIRST_SLOTS	1024
#define DIGIT_BITS	16

static size_t map_slot(const struct latency_set *set, u64 ns)
{
	return (size_t)((ns * 0x9e3779b97f4a7c15ULL) >> 32) & (set->map_slots - 1);
}

/* The slot holding @ns, or the free one where it goes. */
static size_t map_find(const struct latency_set *set, u64 ns)
{
	size_t i = map_slot(set, ns);

	while (set->map_count[i] && set->map_ns[i] != ns)
		i = (i + 1) & (set->map_slots - 1);
	return i;
}

static int map_resize(struct latency_set *set, size_t slots)
{
	struct latency_set grown = { .map_slots = slots };
	size_t i;

	grown.map_ns = malloc(slots * sizeof(u64));
	grown.map_count = calloc(slots, sizeof(u64));
	if (!grown.map_ns || !grown.map_count) {
		free(grown.map_ns);
		free(grown.map_count);
		return -1;
	}
	for (i = 0; i < set->map_slots; i++) {
		size_t j;

		if (!set->map_count[i])
			continue;
		j = map_find(&grown, set->map_ns[i]);
		grown.map_ns[j] = set->map_ns[i];
		grown.map_count[j] = set->map_count[i];
	}
	free(set->map_ns);
	free(set->map_count);
	set->map_ns = grown.map_ns;
	set->map_count = grown.map_count;
	set->map_slots = slots;
	return 0;
}

/* Append @ns to the list of every value. */
static int list_append(struct latency_set *set, u64 ns)
{
	size_t chunk = set->small >> SIM_LATENCY_CHUNK_SHIFT, at = set->small & CHUNK_MASK;

	if (ns >> SMALL_BITS) {
		if (set->huge == set->huge_room) {
			size_t room = set->huge_room ? 2 * set->huge_room : 1024;
			u64 *grown = realloc(set->huge_ns, room * sizeof(*grown));

			if (!grown)
				return -1;
			set->huge_ns = grown;
			set->huge_room = room;
		}
		set->huge_ns[set->huge++] = ns;
		return 0;
	}
	if (chunk == set->chunks) {
		if (set->chunks == set->chunk_room) {
			size_t room = set->chunk_room ? 2 * set->chunk_room : 64;
			u32 **low = realloc(set->low, room * sizeof(*low));
			u8 **high;

			if (!low)
				return -1;
			set->low = low;
			high = realloc(set->high, room * sizeof(*high));
			if (!high)
				return -1;
			set->high = high;
			set->chunk_room = room;
		}
		set->low[chunk] = malloc(CHUNK * sizeof(u32));
		if (!set->low[chunk])
			return -1;
		set->high[chunk] = NULL;
		set->chunks++;
	}
	if (ns >> 32 && !set->high[chunk]) {
		/* Zeroed: the chunk's values before this one are below 2^32. */
		set->high[chunk] = calloc(CHUNK, sizeof(u8));
		if (!set->high[chunk])
			return -1;
	}
	set->low[chunk][at] = (u32)ns;
	if (set->high[chunk])
		set->high[chunk][at] = (u8)(ns >> 32);
	set->small++;
	return 0;
}

/* Replace the map by the list: each value as many times as it was seen. */
static int spill(struct latency_set *set)
{
	size_t i;
	u64 n;

	for (i = 0; i < set->map_slots; i++)
		for (n = 0; n < set->map_count[i]; n++)
			if (list_append(set, set->map_ns[i]))
				return -1;
	free(set->map_ns);
	free(set->map_count);
	set->map_ns = NULL;
	set->map_count = NULL;
	set->map_slots = 0;
	set->map_used = 0;
	set->spilled = true;
	return 0;
}

/* Record @ns in the map; 1 if the map is full and should be spilled. */
static int map_add(struct latency_set *set, u64 ns)
{
	size_t i;

	if (set->map_slots) {
		i = map_find(set, ns);
		if (set->map_count[i]) {
			set->map_count[i]++;
			return 0;
		}
	}
	/* A new value: keep the map at most 70% full. */
	if (10 * (set->map_used + 1) > 7 * set->map_slots) {
		size_t slots = set->map_slots ? 2 * set->map_slots : MAP_FIRST_SLOTS;
		size_t bytes = slots * 2 * sizeof(u64);

		/* Half the list's 4 B a value: the spill's peak stays near 6 B. */
		if (bytes > SIM_LATENCY_MAP_MIN_BYTES && bytes > 2 * set->count)
			return 1;
		if (map_resize(set, slots))
			return -1;
	}
	i = map_find(set, ns);
	set->map_ns[i] = ns;
	set->map_count[i] = 1;
	set->map_used++;
	return 0;
}

int sim_latency_add(struct latency_set *set, u64 ns)
{
	int ret = 1;

	if (!set->spilled)
		ret = map_add(set, ns);
	if (ret > 0)
		ret = (set->spilled || !spill(set)) ? list_append(set, ns) : -1;
	if (ret)
		return -1;
	set->count++;
	set->sum_ns += ns;
	if (ns > set->max_ns)
		set->max_ns = ns;
	return 0;
}

static u64 list_value(const struct latency_set *set, bool huge, u64 i)
{
	size_t chunk = i >> SIM_LATENCY_CHUNK_SHIFT, at = i & CHUNK_MASK;

	if (huge)
		return set->huge_ns[i];
	return set->low[chunk][at] | (set->high[chunk] ? (u64)set->high[chunk][at] << 32 : 0);
}

/*
 * The @rank-th smallest of the list's small values (or of its huge ones):
 * most significant digit first, count the values of each digit among those
 * that share the digits found so far; the digit holding @rank is the next.
 */
static u64 list_select(const struct latency_set *set, bool huge, u64 rank, u64 *hist)
{
	unsigned int bits = huge ? 64 : SMALL_BITS, done = 0;
	u64 n = huge ? set->huge : set->small, prefix = 0, i;

	while (done < bits) {
		unsigned int width = bits - done < DIGIT_BITS ? bits - done : DIGIT_BITS;
		unsigned int shift = bits - done - width;
		u64 digit;

		memset(hist, 0, sizeof(u64) << width);
		for (i = 0; i < n; i++) {
			u64 v = list_value(set, huge, i);

			if (!done || v >> (shift + width) == prefix)
				hist[(v >> shift) & ((1ULL << width) - 1)]++;
		}
		for (digit = 0; rank >= hist[digit]; digit++)
			rank -= hist[digit];
		prefix = prefix << width | digit;
		done += width;
	}
	return prefix;
}

struct map_entry {
	u64 ns, count;
};

static int by_ns(const void *a, const void *b)
{
	u64 x = ((const struct map_entry *)a)->ns, y = ((const struct map_entry *)b)->ns;

	return x < y ? -1 : x > y;
}

static u64 map_select(const struct latency_set *set, u64 rank, struct map_entry *e)
{
	size_t i, n = 0;

	for (i = 0; i < set->map_slots; i++)
		if (set->map_count[i])
			e[n++] = (struct map_entry){ set->map_ns[i], set->map_count[i] };
	qsort(e, n, sizeof(*e), by_ns);
	for (i = 0; rank >= e[i].count; i++)
		rank -= e[i].count;
	return e[i].ns;
}

u64 sim_latency_select(const struct latency_set *set, u64 rank)
{
	void *work;
	u64 ns;

	if (rank >= set->count)
		return 0;
	if (set->spilled)
		work = malloc(sizeof(u64) << DIGIT_BITS);
	else
		work = malloc(set->map_used * sizeof(struct map_entry));
	if (!work) {
		msg_say("ssdsim: out of memory selecting a latency percentile\n");
		return 0;
	}
	if (!set->spilled)
		ns = map_select(set, rank, work);
	else if (rank < set->small)
		ns = list_select(set, false, rank, work);
	else
		ns = list_select(set, true, rank - set->small, work);
	free(work);
	return ns;
}

u64 sim_latency_percentile(const struct latency_set *set, unsigned int percent)
{
	u64 rank = (set->count * percent + 99) / 100;

	return sim_latency_select(set, rank ? rank - 1 : 0);
}

double sim_latency_mean(const struct latency_set *set)
{
	return set->count ? (double)set->sum_ns / (double)set->count : 0;
}

size_t sim_latency_bytes(const struct latency_set *set)
{
	size_t bytes = set->map_slots * 2 * sizeof(u64) + set->huge_room * sizeof(u64);
	size_t i;

	bytes += set->chunk_room * (sizeof(*set->low) + sizeof(*set->high));
	for (i = 0; i < set->chunks; i++)
		bytes += CHUNK * sizeof(u32) + (set->high[i] ? CHUNK : 0);
	return bytes;
}

void sim_latency_free(struct latency_set *set)
{
	size_t i;

	for (i = 0; i < set->chunks; i++) {
		free(set->low[i]);
		free(set->high[i]);
	}
	free(set->low);
	free(set->high);
	free(set->map_ns);
	free(set->map_count);
	free(set->huge_ns);
	memset(set, 0, sizeof(*set));
}

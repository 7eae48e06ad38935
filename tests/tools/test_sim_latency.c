// SPDX-License-Identifier: GPL-2.0
/*
 * test_sim_latency.c - ssdsim's latency store (tools/ssdsim/sim_latency.c)
 * against the code it replaced: every value kept as a u64, sorted, the
 * nearest rank taken.  Every percentile, the mean, the maximum and the
 * store's bytes, for values that repeat (the map), that do not (the
 * list), of 4.3 s and more (8 high bits) and of 2^40 ns and more.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/ssdsim/sim_latency.h"
#include "expect.h"

static int by_value(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The old sim_report.c: sort, nearest rank. */
static u64 sorted_percentile(const u64 *sorted, size_t n, unsigned int percent)
{
	size_t rank = (n * percent + 99) / 100;

	return sorted[rank ? rank - 1 : 0];
}

/* Record @v, compare every percentile and rank with the sorted copy. */
static size_t check_values(const char *name, u64 *v, size_t n, bool expect_spilled)
{
	struct latency_set set = { 0 };
	unsigned __int128 sum = 0;
	double old_sum = 0;
	unsigned int p;
	size_t i, bytes;

	for (i = 0; i < n; i++) {
		EXPECT(sim_latency_add(&set, v[i]) == 0, "%s: add %zu", name, i);
		sum += v[i];
	}
	qsort(v, n, sizeof(*v), by_value);
	EXPECT(set.count == n, "%s: count %llu of %zu", name, (unsigned long long)set.count, n);
	EXPECT(set.spilled == expect_spilled, "%s: spilled %d", name, set.spilled);
	for (p = 0; p <= 100; p++)
		EXPECT(sim_latency_percentile(&set, p) == sorted_percentile(v, n, p),
		       "%s: p%u %llu, sorted %llu", name, p,
		       (unsigned long long)sim_latency_percentile(&set, p),
		       (unsigned long long)sorted_percentile(v, n, p));
	for (i = 0; i < n; i += 1 + n / 97)
		EXPECT(sim_latency_select(&set, i) == v[i], "%s: rank %zu", name, i);
	EXPECT(sim_latency_select(&set, n - 1) == v[n - 1], "%s: last rank", name);
	EXPECT(set.max_ns == v[n - 1], "%s: max", name);
	EXPECT(sim_latency_mean(&set) == (double)sum / (double)n, "%s: mean", name);
	/* Where the old double sum was exact (below 2^53), the same mean. */
	for (i = 0; i < n; i++)
		old_sum += (double)v[i];
	if (sum < ((unsigned __int128)1 << 53))
		EXPECT(sim_latency_mean(&set) == old_sum / (double)n, "%s: old mean", name);
	bytes = sim_latency_bytes(&set);
	printf("%-24s %8zu values, %s, %9zu B (%.2f B/value)\n", name, n,
	       set.spilled ? "list" : "map ", bytes, (double)bytes / (double)n);
	sim_latency_free(&set);
	return bytes;
}

int main(int argc, char **argv)
{
	const size_t n = 300000;
	u64 *v = malloc(n * sizeof(*v)), seed = 22;
	struct latency_set empty = { 0 };
	size_t i, bytes;

	EXPECT(v, "out of memory");
	/* Empty: no value, nothing held. */
	EXPECT(sim_latency_select(&empty, 0) == 0 && sim_latency_bytes(&empty) == 0, "empty");

	/* One value repeated: a map of one entry, 16 KiB whatever the count. */
	for (i = 0; i < n; i++)
		v[i] = 212240;
	bytes = check_values("one value", v, n, false);
	EXPECT(bytes <= 16384, "one value: %zu B", bytes);

	/* A deterministic model's few latencies, 0 among them. */
	for (i = 0; i < n; i++)
		v[i] = rng_below(&seed, 500) * 10240;
	check_values("500 values", v, n, false);

	/* Distinct values below 2^32: the list, 4 B each (+ a chunk's slack). */
	for (i = 0; i < n; i++)
		v[i] = rng_next(&seed) >> 32;
	bytes = check_values("random < 2^32", v, n, true);
	EXPECT(bytes <= 4 * n + 4 * (1u << SIM_LATENCY_CHUNK_SHIFT) + 4096,
	       "random < 2^32: %zu B", bytes);

	/* A saturated replay: latencies growing past 4.3 s, most below 2^40. */
	for (i = 0; i < n; i++)
		v[i] = 1000000 + i * 40000 + rng_below(&seed, 200000);
	bytes = check_values("growing to 12 s", v, n, true);
	EXPECT(bytes <= 5 * n + 5 * (1u << SIM_LATENCY_CHUNK_SHIFT) + 4096,
	       "growing: %zu B", bytes);

	/* Every width: below 2^32, up to 2^40, beyond, and the extremes. */
	for (i = 0; i < n; i++) {
		unsigned int shift = (unsigned int)rng_below(&seed, 4) * 8;

		v[i] = rng_next(&seed) >> shift;
	}
	v[0] = 0;
	v[1] = ~0ULL;
	v[2] = (1ULL << 40) - 1;
	v[3] = 1ULL << 40;
	v[4] = (1ULL << 32) - 1;
	v[5] = 1ULL << 32;
	check_values("every width", v, n, true);

	/* Repeats first (the map), then distinct values spill it mid-run. */
	for (i = 0; i < n; i++)
		v[i] = i < n / 2 ? rng_below(&seed, 7) : rng_next(&seed) >> 30;
	check_values("map, then spilled", v, n, true);

	/* Few values, so few that the map is not spilled. */
	for (i = 0; i < 3; i++)
		v[i] = 5 - i;
	check_values("three values", v, 3, false);
	free(v);
	printf("sim_latency: ok\n");
	return 0;
}

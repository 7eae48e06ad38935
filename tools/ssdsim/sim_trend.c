// SPDX-License-Identifier: GPL-2.0
/*
 * sim_trend.c - latencies in request order, in merging buckets
 * (sim_trend.h).
 */
#include <string.h>

#include "tools/ssdsim/sim_trend.h"

void sim_trend_reset(struct sim_trend *t)
{
	memset(t, 0, sizeof(*t));
	t->per_bucket = 1;
}

void sim_trend_add(struct sim_trend *t, uint64_t latency_ns)
{
	unsigned int i;

	if (!t->per_bucket)
		sim_trend_reset(t);
	if (t->count[t->used] == t->per_bucket && ++t->used == SIM_TREND_BUCKETS) {
		/* Full: pairs merge, each bucket now holds twice as many. */
		for (i = 0; i < SIM_TREND_BUCKETS / 2; i++) {
			t->sum_ns[i] = t->sum_ns[2 * i] + t->sum_ns[2 * i + 1];
			t->count[i] = t->count[2 * i] + t->count[2 * i + 1];
		}
		memset(t->sum_ns + i, 0, sizeof(t->sum_ns) / 2);
		memset(t->count + i, 0, sizeof(t->count) / 2);
		t->used = SIM_TREND_BUCKETS / 2;
		t->per_bucket *= 2;
	}
	t->sum_ns[t->used] += (double)latency_ns;
	t->count[t->used]++;
}

bool sim_trend_quarters(const struct sim_trend *t, double mean_ns[4])
{
	double sum[4] = { 0 };
	uint64_t count[4] = { 0 }, total = 0, seen = 0;
	unsigned int i, q;

	if (t->used < 4)
		return false;
	for (i = 0; i <= t->used && i < SIM_TREND_BUCKETS; i++)
		total += t->count[i];
	for (i = 0; i <= t->used && i < SIM_TREND_BUCKETS; i++) {
		/* A bucket goes to the quarter its middle request is in. */
		q = (unsigned int)((seen + t->count[i] / 2) * 4 / total);
		q = q > 3 ? 3 : q;
		sum[q] += t->sum_ns[i];
		count[q] += t->count[i];
		seen += t->count[i];
	}
	for (q = 0; q < 4; q++) {
		if (!count[q])
			return false;
		mean_ns[q] = sum[q] / (double)count[q];
	}
	return true;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_trend.h - the latency of a pass's requests in their order, kept in
 * a few buckets whatever the length (adjacent buckets merge as the pass
 * grows), so ssdsim can tell a queue that keeps growing (an open-loop
 * replay whose trace arrives faster than the device serves) from one
 * that is merely slow.
 */
#ifndef SSD_SIM_TREND_H
#define SSD_SIM_TREND_H

#include <stdbool.h>
#include <stdint.h>

#define SIM_TREND_BUCKETS	64

struct sim_trend {
	uint64_t per_bucket;		/* requests a full bucket holds */
	unsigned int used;		/* full buckets */
	double sum_ns[SIM_TREND_BUCKETS];
	uint64_t count[SIM_TREND_BUCKETS];
};

void sim_trend_reset(struct sim_trend *t);
void sim_trend_add(struct sim_trend *t, uint64_t latency_ns);
/* The mean latency of each quarter of the requests; false if < 4 buckets. */
bool sim_trend_quarters(const struct sim_trend *t, double mean_ns[4]);

#endif /* SSD_SIM_TREND_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * test_dedup_engines.c - the dedup engines (dedup_hash_engines,
 * dedup_hash_overlap), with hashing slower than the flash (1 ms per
 * SHA-1, a 600 us program over 4 chips: hash-bound):
 *
 *  - one engine, a burst of unique writes at depth: write k completes at
 *    the first start + (k + 1) (hash + lookup) + transfer + program, the
 *    serial engine's times computed by hand;
 *  - N engines at depth: the burst takes about 1/N of the time (N x the
 *    throughput, within the tail of one program);
 *  - at QD1 (each write waits for the previous one) 1, 2 and 4 engines
 *    give the same completion times, to the nanosecond;
 *  - overlap with a write buffer at QD1 and gaps longer than a hash: the
 *    leaving writes wait for no fingerprint (without it, one hash each on
 *    the write path), and every counter but the times equals the run
 *    without overlap (overlap changes time only);
 *  - the break-even rate and the engine load in the stats, by hand.
 */
#include "unit.h"
#include "dedup/dedup_internal.h"

#define ENGINE_GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", \
	"channels=2", "op_percent=15", "dedup=1", "dedup_filter=0", \
	"dedup_hash_ns=1000000", "dedup_lookup_ns=2000", "controller_ns=2000", \
	"program_ns=600000", "channel_mb_per_s=400"
#define HASH_NS		1002000ULL	/* hash + lookup */
#define BURST		64

static u8 page[4096];

/* A page of its own for @lpn (no duplicates). */
static u64 write_unique(struct ssd_device *dev, u64 lpn, u64 arrival_ns)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = SSD_OP_WRITE, .offset_bytes = lpn * 4096, .length_bytes = 4096,
		.arrival_ns = arrival_ns, .data = &fi.it,
	};
	u64 seed = lpn + 1, done_ns;
	u32 i;

	for (i = 0; i < 4096; i++)
		page[i] = (u8)rng_next(&seed);
	flat_iter_init(&fi, page);
	EXPECT(ssd_device_submit(dev, &req, &done_ns) == 0, "write of lpn %llu",
	       (unsigned long long)lpn);
	return done_ns;
}

static struct ssd_device *make_engines(const char *engines, const char *qd,
				       const char *buffer, const char *overlap)
{
	const char *const s[] = { ENGINE_GEOMETRY, engines, qd, buffer, overlap };

	return make_device(s, ARRAY_SIZE(s));
}

/* The burst of unique writes at time 0; the last completion. */
static u64 burst(struct ssd_device *dev, u64 *done)
{
	u64 last = 0;
	u32 k;

	for (k = 0; k < BURST; k++) {
		done[k] = write_unique(dev, k, 0);
		last = max_t(u64, last, done[k]);
	}
	return last;
}

static void test_one_engine_by_hand(void)
{
	struct ssd_device *dev = make_engines("dedup_hash_engines=1", "cmd_queue_depth=64",
					      "dedup_buffer_pages=0", "dedup_hash_overlap=0");
	u64 transfer_ns = (4096 * 1000 + 399) / 400, first_start = 2000, done[BURST];
	struct ssd_stats st;
	u32 k;

	burst(dev, done);
	for (k = 0; k < BURST; k++) {
		u64 expected = first_start + (k + 1) * HASH_NS + transfer_ns + 600000;

		EXPECT(done[k] == expected, "write %u done at %llu, by hand %llu", k,
		       (unsigned long long)done[k], (unsigned long long)expected);
	}
	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_engine_busy_ns == BURST * HASH_NS, "engine busy %llu",
	       (unsigned long long)st.dedup_engine_busy_ns);
	ssd_device_destroy(dev);
}

static void test_engines_at_depth(void)
{
	static const char *const engines[] = {
		"dedup_hash_engines=1", "dedup_hash_engines=2", "dedup_hash_engines=4",
	};
	u64 done[BURST], span[ARRAY_SIZE(engines)];
	u32 e;

	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		struct ssd_device *dev = make_engines(engines[e], "cmd_queue_depth=64",
						      "dedup_buffer_pages=0",
						      "dedup_hash_overlap=0");

		span[e] = burst(dev, done);
		EXPECT(ssd_device_check(dev) == 0, "check");
		ssd_device_destroy(dev);
	}
	for (e = 1; e < ARRAY_SIZE(engines); e++) {
		u64 n = 1ULL << e;
		/* N x throughput: the hashes take 1/N, the last program's tail stays. */
		u64 ideal = span[0] / n;

		EXPECT(span[e] <= ideal + 700000 && span[e] >= ideal,
		       "%llu engines: burst of %u in %llu ns, 1 engine %llu",
		       (unsigned long long)n, BURST, (unsigned long long)span[e],
		       (unsigned long long)span[0]);
		printf("dedup engines at depth: %llu engines %.2f x the throughput of 1\n",
		       (unsigned long long)n, (double)span[0] / span[e]);
	}
}

static void test_engines_at_qd1(void)
{
	static const char *const engines[] = {
		"dedup_hash_engines=1", "dedup_hash_engines=2", "dedup_hash_engines=4",
	};
	u64 done[ARRAY_SIZE(engines)][BURST];
	u32 e, k;

	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		struct ssd_device *dev = make_engines(engines[e], "cmd_queue_depth=1",
						      "dedup_buffer_pages=0",
						      "dedup_hash_overlap=0");

		burst(dev, done[e]);
		ssd_device_destroy(dev);
	}
	for (e = 1; e < ARRAY_SIZE(engines); e++)
		for (k = 0; k < BURST; k++)
			EXPECT(done[e][k] == done[0][k], "QD1, %s: write %u done at %llu, not %llu",
			       engines[e], k, (unsigned long long)done[e][k],
			       (unsigned long long)done[0][k]);
}

/* Time-dependent counters: everything else must not move with overlap. */
static void clear_times(struct ssd_stats *st)
{
	st->dedup_hash_wait_ns = 0;
	st->command_latency_ns_total = 0;
	st->write_latency_ns_total = 0;
	st->read_latency_ns_total = 0;
	st->dedup_break_even_ppm = 0;
	st->virtual_time_ns = 0;
}

static void test_overlap(void)
{
	struct ssd_device *dev[2];
	struct ssd_stats st[2];
	u32 d, k;

	dev[0] = make_engines("dedup_hash_engines=1", "cmd_queue_depth=1",
			      "dedup_buffer_pages=4", "dedup_hash_overlap=0");
	dev[1] = make_engines("dedup_hash_engines=1", "cmd_queue_depth=1",
			      "dedup_buffer_pages=4", "dedup_hash_overlap=1");
	/* 5 ms apart: every hash fits in the time a write waits in the buffer. */
	for (k = 0; k < BURST; k++)
		for (d = 0; d < 2; d++)
			write_unique(dev[d], k % 40, k * 5000000ULL);
	for (d = 0; d < 2; d++) {
		struct ssd_request req = { .op = SSD_OP_FLUSH, .arrival_ns = BURST * 5000000ULL };
		u64 done_ns;

		EXPECT(ssd_device_submit(dev[d], &req, &done_ns) == 0, "flush");
		ssd_device_get_stats(dev[d], &st[d]);
		EXPECT(ssd_device_check(dev[d]) == 0, "check");
	}
	/*
	 * Without overlap each leaving write waits for its own hash; the
	 * flush's four wait for 1, 2, 3 and 4 on the one engine.
	 */
	EXPECT(st[0].dedup_hash_wait_ns == (BURST - 4 + 1 + 2 + 3 + 4) * HASH_NS,
	       "without overlap: waited %llu ns", (unsigned long long)st[0].dedup_hash_wait_ns);
	/* With it, every write entered 5 ms or more before it left (the flush too). */
	EXPECT(st[1].dedup_hash_wait_ns == 0, "with overlap: waited %llu ns",
	       (unsigned long long)st[1].dedup_hash_wait_ns);
	EXPECT(st[1].write_latency_ns_total + (BURST - 4) * HASH_NS ==
	       st[0].write_latency_ns_total, "write time with overlap %llu, without %llu",
	       (unsigned long long)st[1].write_latency_ns_total,
	       (unsigned long long)st[0].write_latency_ns_total);
	EXPECT(st[0].dedup_break_even_ppm == HASH_NS * 1000000 / 600000 &&
	       st[1].dedup_break_even_ppm > 1000000,
	       "break-even %llu (write path), %llu (overlap: one engine is slower than a program)",
	       (unsigned long long)st[0].dedup_break_even_ppm,
	       (unsigned long long)st[1].dedup_break_even_ppm);
	clear_times(&st[0]);
	clear_times(&st[1]);
	EXPECT(!memcmp(&st[0], &st[1], sizeof(st[0])), "overlap changed more than time");
	for (d = 0; d < 2; d++)
		ssd_device_destroy(dev[d]);
}

static void test_model_figures(void)
{
	struct ssd_device *dev = make_engines("dedup_hash_engines=2", "cmd_queue_depth=64",
					      "dedup_buffer_pages=4", "dedup_hash_overlap=1");
	u64 transfer_ns = (4096 * 1000 + 399) / 400;
	/* Per page: engines 1002 us / 2; chips (transfer + program) / 4; channels transfer / 2. */
	u64 by_chips = HASH_NS * 4 * 1000000 / (2 * (transfer_ns + 600000));
	u64 by_channels = HASH_NS * 2 * 1000000 / (2 * transfer_ns);
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	EXPECT(st.dedup_engine_load_ppm == min_t(u64, by_chips, by_channels),
	       "engine load %llu ppm, by hand %llu", (unsigned long long)st.dedup_engine_load_ppm,
	       (unsigned long long)min_t(u64, by_chips, by_channels));
	/* 2 engines: 501 us per page, within a 600 us program: pays from any rate. */
	EXPECT(st.dedup_break_even_ppm == 0, "break-even %llu",
	       (unsigned long long)st.dedup_break_even_ppm);
	ssd_device_destroy(dev);
}

int test_dedup_engines(int argc, char **argv)
{
	test_one_engine_by_hand();
	test_engines_at_depth();
	test_engines_at_qd1();
	test_overlap();
	test_model_figures();
	printf("dedup_engines: ok\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_timing.c - the timing model on hand-computed cases: one read, two
 * reads on one chip serialise, reads on two chips overlap, channel
 * contention, an erase blocks its chip, program, SLC and page-type
 * latencies, the command queue and the controller; channel transfers
 * booked by interval (first fit, pruning, a full list); read priority on
 * and off; latency counters by kind.  Then random operations, checking
 * that no two transfers on a channel ever overlap.
 *
 * Chips are serial (an operation waits for everything booked on its chip
 * before it), but a channel transfer takes the earliest gap that is long
 * enough at or after the time it is ready, so an idle gap left on a
 * channel is filled by a later transfer that fits in it.
 *
 * Geometry: 8 chips on 4 channels (chip c on channel c % 4), 4 KiB pages
 * over 400 MB/s channels: one transfer is 4096 * 1000 / 400 = 10240 ns.
 */
#include "unit.h"

#define XFER	10240ULL
#define READ	50000ULL
#define PROG	600000ULL
#define ERASE	3000000ULL
#define CTRL	2000ULL

/* The command queue and controller in front of the timing model under test. */
static struct ssd_controller ctrl;

static void fini(struct ssd_timing *t)
{
	ssd_timing_exit(t);
	ssd_controller_exit(&ctrl);
}

/* What the front end does for a command: admit it, then open the flash. */
static u64 command_start(struct ssd_timing *t, u64 arrival_ns)
{
	u64 start = ssd_controller_command_start(&ctrl, arrival_ns);

	ssd_timing_set_horizon(t, start);
	return start;
}

static void init_prio(struct ssd_timing *t, u32 queue_depth, u32 read_priority)
{
	struct timing_params p;
	u32 type;

	memset(&p, 0, sizeof(p));
	p.chips = 8;
	p.channels = 4;
	p.page_size_bytes = 4096;
	p.read_priority = read_priority;
	p.channel_mb_per_s = 400;
	for (type = 0; type < FLASH_PAGE_NR; type++) {
		p.read_ns[FLASH_MODE_TLC][type] = READ;
		p.program_ns[FLASH_MODE_TLC][type] = PROG;
		p.read_ns[FLASH_MODE_SLC][type] = 25000;
		p.program_ns[FLASH_MODE_SLC][type] = 200000;
	}
	p.read_ns[FLASH_MODE_TLC][FLASH_PAGE_MSB] = 90000;
	p.erase_ns[FLASH_MODE_TLC] = ERASE;
	p.erase_ns[FLASH_MODE_SLC] = 1000000;
	EXPECT(ssd_timing_init(t, &p) == 0, "ssd_timing_init");
	EXPECT(ssd_controller_init(&ctrl, queue_depth, CTRL) == 0, "ssd_controller_init");
	EXPECT(t->transfer_ns == XFER, "transfer %llu ns", (unsigned long long)t->transfer_ns);
}

static void init(struct ssd_timing *t, u32 queue_depth)
{
	init_prio(t, queue_depth, 0);
}

#define EXPECT_NS(got, want)						\
	do {								\
		u64 __got = (got), __want = (want);			\
		EXPECT(__got == __want, "got %llu ns, want %llu ns",	\
		       (unsigned long long)__got, (unsigned long long)__want); \
	} while (0)

/* A host read of a TLC lower page. */
static u64 tlc_read(struct ssd_timing *t, u32 chip, u64 start)
{
	return ssd_timing_read(t, chip, FLASH_MODE_TLC, FLASH_PAGE_LSB, true, start);
}

/* A GC (relocation) read: never prioritised. */
static u64 gc_read(struct ssd_timing *t, u32 chip, u64 start)
{
	return ssd_timing_read(t, chip, FLASH_MODE_TLC, FLASH_PAGE_LSB, false, start);
}

static u64 tlc_program(struct ssd_timing *t, u32 chip, u64 start)
{
	return ssd_timing_program(t, chip, FLASH_MODE_TLC, FLASH_PAGE_LSB, start);
}

static void test_basics(void)
{
	struct ssd_timing t;
	u64 a, b;

	/* One page read: sense, then cross the channel. */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 1000), 1000 + READ + XFER);
	fini(&t);

	/* Two reads on one chip serialise: the second senses after the first left. */
	init(&t, 64);
	a = tlc_read(&t, 0, 0);
	b = tlc_read(&t, 0, 0);
	EXPECT_NS(a, READ + XFER);
	EXPECT_NS(b, a + READ + XFER);
	fini(&t);

	/* Reads on chips of different channels overlap completely. */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 0), READ + XFER);
	EXPECT_NS(tlc_read(&t, 1, 0), READ + XFER);
	fini(&t);

	/*
	 * Chips 0 and 4 share channel 0: senses overlap, and the transfers,
	 * both ready at READ, truly collide, so the second queues.
	 */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 0), READ + XFER);
	EXPECT_NS(tlc_read(&t, 4, 0), READ + 2 * XFER);
	EXPECT_NS(t.counters.channel_busy_ns, 2 * XFER);
	fini(&t);

	/* An erase blocks its chip for the erase time; other chips go on. */
	init(&t, 64);
	EXPECT_NS(ssd_timing_erase(&t, 2, FLASH_MODE_TLC, 0), ERASE);
	EXPECT_NS(tlc_read(&t, 2, 0), ERASE + READ + XFER);
	EXPECT_NS(tlc_read(&t, 3, 0), READ + XFER);
	fini(&t);

	/* Program: data in over the channel, then the cells; a read waits. */
	init(&t, 64);
	EXPECT_NS(ssd_timing_program(&t, 5, FLASH_MODE_TLC, FLASH_PAGE_CSB, 100), 100 + XFER + PROG);
	EXPECT_NS(tlc_read(&t, 5, 0), 100 + XFER + PROG + READ + XFER);
	/*
	 * Chip 1 shares channel 1 with chip 5, which now has transfers booked
	 * at [100, 100 + XFER) and [100 + XFER + PROG + READ, + XFER).  The
	 * program on idle chip 1 is ready at 0; the gap before 100 is too
	 * short, the next one (PROG + READ long) holds it: it crosses at
	 * 100 + XFER.  (Before interval booking it queued behind the read's
	 * transfer and ended at 100 + 2 * XFER + PROG + READ + XFER + PROG.)
	 */
	EXPECT_NS(tlc_program(&t, 1, 0), 100 + 2 * XFER + PROG);
	fini(&t);

	/* SLC mode and TLC page types have their own latencies. */
	init(&t, 64);
	EXPECT_NS(ssd_timing_read(&t, 0, FLASH_MODE_SLC, FLASH_PAGE_LSB, true, 0), 25000 + XFER);
	EXPECT_NS(ssd_timing_program(&t, 1, FLASH_MODE_SLC, FLASH_PAGE_MSB, 0), XFER + 200000);
	EXPECT_NS(ssd_timing_erase(&t, 2, FLASH_MODE_SLC, 0), 1000000);
	EXPECT_NS(ssd_timing_read(&t, 3, FLASH_MODE_TLC, FLASH_PAGE_MSB, true, 0), 90000 + XFER);
	fini(&t);

	/* The controller serves commands FIFO, controller_ns each. */
	init(&t, 64);
	EXPECT_NS(command_start(&t, 0), CTRL);
	EXPECT_NS(command_start(&t, 0), 2 * CTRL);
	EXPECT_NS(command_start(&t, 10 * CTRL), 11 * CTRL);
	EXPECT_NS(ctrl.counters.controller_busy_ns, 3 * CTRL);
	fini(&t);

	/* A queue of depth 2: the third command waits for the first to finish. */
	init(&t, 2);
	a = command_start(&t, 0);
	ssd_controller_command_done(&ctrl, 0, 100000, CONTROLLER_OP_OTHER);
	b = command_start(&t, 0);
	ssd_controller_command_done(&ctrl, 0, 200000, CONTROLLER_OP_OTHER);
	EXPECT_NS(a, CTRL);
	EXPECT_NS(b, 2 * CTRL);
	EXPECT_NS(command_start(&t, 0), 100000 + CTRL);
	EXPECT_NS(ctrl.counters.queue_wait_ns, 100000);
	ssd_controller_command_done(&ctrl, 0, 300000, CONTROLLER_OP_OTHER);
	/* At 250 us two commands have finished: no wait. */
	EXPECT_NS(command_start(&t, 250000), 250000 + CTRL);
	EXPECT_NS(ctrl.counters.queue_wait_ns, 100000);
	fini(&t);
}

/* Channel transfers booked by interval: first fit, pruning, a full list. */
static void test_channel_intervals(void)
{
	const u64 step = XFER + PROG;	/* one program on a busy chip */
	struct ssd_timing t;
	u64 horizon, start;
	u32 k;

	/*
	 * 100 programs queued on chip 0: program k crosses channel 0 at
	 * [k * step, k * step + XFER), when the chip is done with k - 1.
	 */
	init(&t, 64);
	for (k = 0; k < 100; k++)
		EXPECT_NS(tlc_program(&t, 0, 0), (k + 1) * step);
	/*
	 * Idle chip 4 shares channel 0: its read senses at [0, READ) and
	 * crosses in the gap [XFER, step): its stand-alone latency.  (With one
	 * free time per channel it crossed after the last program's transfer,
	 * at 99 * step + XFER: 60.4 ms.)
	 */
	EXPECT_NS(tlc_read(&t, 4, 0), READ + XFER);
	/*
	 * A read on chip 4 sensed at step + 1000 collides with program 1's
	 * transfer [step, step + XFER), so it crosses right after it.
	 */
	EXPECT_NS(tlc_read(&t, 4, step + 1000 - READ), step + 2 * XFER);
	EXPECT_NS(t.counters.channel_busy_ns, 102 * XFER);
	/* 100 programs + the first read; the second touches program 1's. */
	EXPECT(t.channel[0].nr == 101, "%u intervals", t.channel[0].nr);

	/*
	 * A command arriving when program 50's transfer ends: its operations
	 * start CTRL later, so the transfers that end by then (programs 0-50,
	 * the first read) are dropped and 49 remain.  Its read on chip 4
	 * crosses before program 51's transfer at 51 * step.
	 */
	horizon = 50 * step + XFER;
	start = command_start(&t, horizon);
	EXPECT_NS(start, horizon + CTRL);
	EXPECT_NS(tlc_read(&t, 4, start), horizon + CTRL + READ + XFER);
	EXPECT(t.channel[0].nr == 50, "%u intervals", t.channel[0].nr);
	fini(&t);

	/* A gap exactly one transfer long is taken, and the two merge. */
	init(&t, 64);
	EXPECT_NS(tlc_program(&t, 0, 100000), 100000 + XFER + PROG);
	EXPECT_NS(tlc_read(&t, 4, 100000 - XFER - READ), 100000);
	EXPECT(t.channel[0].nr == 1, "%u intervals", t.channel[0].nr);
	fini(&t);

	/* One nanosecond too short: it waits for the program's transfer. */
	init(&t, 64);
	EXPECT_NS(tlc_program(&t, 0, 100000), 100000 + XFER + PROG);
	EXPECT_NS(tlc_read(&t, 4, 100000 - XFER - READ + 1), 100000 + 2 * XFER);
	fini(&t);

	/*
	 * A list that may not grow: the 17th program's transfer finds 16
	 * intervals, so the shortest gap (all are PROG: the first) is closed,
	 * leaving [0, 2 * XFER + PROG) busy.  Chip 4's read, ready at READ,
	 * now crosses after it.
	 */
	init(&t, 64);
	t.max_intervals = t.channel[0].capacity;
	for (k = 0; k < 17; k++)
		EXPECT_NS(tlc_program(&t, 0, 0), (k + 1) * step);
	EXPECT(t.channel[0].nr == 16, "%u intervals", t.channel[0].nr);
	EXPECT_NS(tlc_read(&t, 4, 0), step + 2 * XFER);
	EXPECT(t.channel[0].nr == 16 && t.channel[0].capacity == 16, "%u of %u intervals",
	       t.channel[0].nr, t.channel[0].capacity);
	fini(&t);
}

/* The same operations with read_priority 0 and 1. */
static void test_read_priority(void)
{
	const u64 step = XFER + PROG, rd = READ + XFER;
	struct ssd_timing t;
	u32 prio;

	for (prio = 0; prio <= 1; prio++) {
		init_prio(&t, 64, prio);
		/* Two programs on chip 0: it is busy until 2 * step. */
		EXPECT_NS(tlc_program(&t, 0, 0), step);
		EXPECT_NS(tlc_program(&t, 0, 0), 2 * step);
		if (!prio) {
			/* FIFO: the reads wait for both programs. */
			EXPECT_NS(tlc_read(&t, 0, 1000), 2 * step + rd);
			EXPECT_NS(tlc_read(&t, 0, 2000), 2 * step + 2 * rd);
		} else {
			/*
			 * The first read suspends program 0 and senses at
			 * 1000; the channel is free from XFER on.  The second
			 * waits only for the first read.  Each pushes the
			 * chip's free time back by its chip time, rd.
			 */
			EXPECT_NS(tlc_read(&t, 0, 1000), 1000 + rd);
			EXPECT_NS(tlc_read(&t, 0, 2000), 1000 + 2 * rd);
		}
		/* Either way the chip owes 2 * step + 2 * rd; a GC read is FIFO. */
		EXPECT_NS(gc_read(&t, 0, 0), 2 * step + 3 * rd);
		EXPECT_NS(tlc_program(&t, 0, 0), 3 * step + 3 * rd);
		EXPECT_NS(t.counters.chip_busy_ns, 3 * step + 3 * rd);
		fini(&t);

		/* An erase: a prioritised read suspends it too. */
		init_prio(&t, 64, prio);
		EXPECT_NS(ssd_timing_erase(&t, 2, FLASH_MODE_TLC, 0), ERASE);
		EXPECT_NS(tlc_read(&t, 2, 0), prio ? rd : ERASE + rd);
		EXPECT_NS(tlc_program(&t, 2, 0), ERASE + rd + step);
		fini(&t);

		/* A GC read does not overtake, whatever the setting. */
		init_prio(&t, 64, prio);
		EXPECT_NS(tlc_program(&t, 6, 0), step);
		EXPECT_NS(gc_read(&t, 6, 0), step + rd);
		fini(&t);
	}
}

/* Latency summed over all commands, and over reads and writes apart. */
static void test_latency_counters(void)
{
	struct ssd_timing t;

	init(&t, 64);
	command_start(&t, 0);
	ssd_controller_command_done(&ctrl, 0, 100000, CONTROLLER_OP_READ);
	command_start(&t, 1000);
	ssd_controller_command_done(&ctrl, 1000, 31000, CONTROLLER_OP_READ);
	command_start(&t, 2000);
	ssd_controller_command_done(&ctrl, 2000, 702000, CONTROLLER_OP_WRITE);
	command_start(&t, 3000);
	ssd_controller_command_done(&ctrl, 3000, 13000, CONTROLLER_OP_OTHER);
	EXPECT_NS(ctrl.counters.commands, 4);
	EXPECT_NS(ctrl.counters.latency_ns, 100000 + 30000 + 700000 + 10000);
	EXPECT_NS(ctrl.counters.read_commands, 2);
	EXPECT_NS(ctrl.counters.read_latency_ns, 100000 + 30000);
	EXPECT_NS(ctrl.counters.write_commands, 1);
	EXPECT_NS(ctrl.counters.write_latency_ns, 700000);
	fini(&t);
}

struct transfer {
	u64 start_ns;
	u64 end_ns;
};

static int transfer_cmp(const void *a, const void *b)
{
	const struct transfer *x = a, *y = b;

	return x->start_ns < y->start_ns ? -1 : x->start_ns > y->start_ns;
}

/* A channel's list is sorted, disjoint, not touching, and past the horizon. */
static void check_channel(const struct ssd_timing *t, u32 c)
{
	const struct timing_channel *ch = &t->channel[c];
	u32 i;

	EXPECT(ch->nr <= ch->capacity, "channel %u: %u of %u", c, ch->nr, ch->capacity);
	for (i = 0; i < ch->nr; i++) {
		EXPECT(ch->busy[i].start_ns < ch->busy[i].end_ns, "channel %u: empty", c);
		EXPECT(i + 1 == ch->nr || ch->busy[i].end_ns < ch->busy[i + 1].start_ns,
		       "channel %u: intervals %u, %u out of order", c, i, i + 1);
	}
}

/*
 * Random commands of host reads, GC reads, programs and erases on random
 * chips: every transfer a channel ever carried (recovered from the
 * returned end times) must be disjoint from every other.
 */
static void test_random(u64 seed, u32 read_priority, u32 queue_depth, u32 max_intervals)
{
	enum { COMMANDS = 4000, MAX_OPS = 4 };
	struct transfer *xfers[4];
	u32 nr_xfers[4] = { 0 };
	struct ssd_timing t;
	u64 arrival = 0, state = seed;
	u32 cmd, c, i, most = 0;

	init_prio(&t, queue_depth, read_priority);
	if (max_intervals)
		t.max_intervals = max_intervals;
	for (c = 0; c < 4; c++)
		xfers[c] = calloc(COMMANDS * MAX_OPS, sizeof(*xfers[c]));
	for (cmd = 0; cmd < COMMANDS; cmd++) {
		u64 start, done, last = 0;
		u32 ops = 1 + rng_below(&state, MAX_OPS);
		enum controller_op_kind kind = rng_below(&state, 2) ? CONTROLLER_OP_READ : CONTROLLER_OP_WRITE;

		arrival += rng_below(&state, 40000);
		start = command_start(&t, arrival);
		for (i = 0; i < ops; i++) {
			u32 chip = rng_below(&state, 8), what = rng_below(&state, 10);
			enum flash_page_type type = rng_below(&state, FLASH_PAGE_NR);
			struct transfer *x = &xfers[chip % 4][nr_xfers[chip % 4]];
			u64 op_start = start + rng_below(&state, 3) * 100000;

			if (what < 5) {
				done = ssd_timing_read(&t, chip, FLASH_MODE_TLC, type, what < 4,
						   op_start);
				EXPECT(done >= op_start + t.p.read_ns[0][type] + XFER, "read");
				x->end_ns = done;
			} else if (what < 9) {
				done = ssd_timing_program(&t, chip, FLASH_MODE_TLC, type, op_start);
				EXPECT(done >= op_start + XFER + PROG, "program");
				x->end_ns = done - PROG;
			} else {
				done = ssd_timing_erase(&t, chip, FLASH_MODE_TLC, op_start);
				EXPECT(done >= op_start + ERASE, "erase");
				x = NULL;
			}
			if (x) {
				x->start_ns = x->end_ns - XFER;
				EXPECT(x->start_ns >= start, "transfer before its command");
				nr_xfers[chip % 4]++;
			}
			check_channel(&t, chip % 4);
			most = max_t(u32, most, t.channel[chip % 4].nr);
			last = max_t(u64, last, done);
		}
		ssd_controller_command_done(&ctrl, arrival, last, kind);
	}
	/* A list that may not grow fills up: squeezing was tested. */
	EXPECT(!max_intervals || most == max_intervals, "at most %u intervals", most);
	for (c = 0; c < 4; c++) {
		qsort(xfers[c], nr_xfers[c], sizeof(*xfers[c]), transfer_cmp);
		for (i = 1; i < nr_xfers[c]; i++)
			EXPECT(xfers[c][i - 1].end_ns <= xfers[c][i].start_ns,
			       "channel %u: transfers [%llu, %llu) and [%llu, %llu) overlap", c,
			       (unsigned long long)xfers[c][i - 1].start_ns,
			       (unsigned long long)xfers[c][i - 1].end_ns,
			       (unsigned long long)xfers[c][i].start_ns,
			       (unsigned long long)xfers[c][i].end_ns);
		EXPECT(t.counters.channel_busy_ns >= (u64)nr_xfers[c] * XFER, "busy");
		free(xfers[c]);
	}
	fini(&t);
}

int test_timing(int argc, char **argv)
{
	u64 seed;

	test_basics();
	test_channel_intervals();
	test_read_priority();
	test_latency_counters();
	for (seed = 1; seed <= 3; seed++) {
		test_random(seed, 0, 16, 0);
		test_random(seed, 1, 16, 0);
		/* A deep queue: hundreds of intervals ahead; then squeezing. */
		test_random(seed, seed & 1, 1024, 0);
		test_random(seed, seed & 1, 1024, 16);
	}
	printf("timing: hand-computed cases ok\n");
	return 0;
}

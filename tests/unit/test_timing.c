// SPDX-License-Identifier: GPL-2.0
/*
 * test_timing.c - the timing model on hand-computed cases: one read, two
 * reads on one chip serialise, reads on two chips overlap, channel
 * contention, an erase blocks its chip, program, SLC and page-type
 * latencies, the command queue and the controller; latency counters by
 * kind.
 *
 * Operations are issued in order and each timeline only moves forward: an
 * idle gap left on a chip or channel is never filled by a later operation
 * (as in FEMU and NVMeVirt).
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

static void init(struct ssd_timing *t, u32 queue_depth)
{
	struct timing_params p;
	u32 type;

	memset(&p, 0, sizeof(p));
	p.chips = 8;
	p.channels = 4;
	p.page_size_bytes = 4096;
	p.cmd_queue_depth = queue_depth;
	p.controller_ns = CTRL;
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
	EXPECT(timing_init(t, &p) == 0, "timing_init");
	EXPECT(t->transfer_ns == XFER, "transfer %llu ns", (unsigned long long)t->transfer_ns);
}

#define EXPECT_NS(got, want)						\
	do {								\
		u64 __got = (got), __want = (want);			\
		EXPECT(__got == __want, "got %llu ns, want %llu ns",	\
		       (unsigned long long)__got, (unsigned long long)__want); \
	} while (0)

static u64 tlc_read(struct ssd_timing *t, u32 chip, u64 start)
{
	return timing_read(t, chip, FLASH_MODE_TLC, FLASH_PAGE_LSB, start);
}

/* Latency summed over all commands, and over reads and writes apart. */
static void test_counters(void)
{
	struct ssd_timing t;

	init(&t, 64);
	timing_command_start(&t, 0);
	timing_command_done(&t, 0, 100000, TIMING_OP_READ);
	timing_command_start(&t, 1000);
	timing_command_done(&t, 1000, 31000, TIMING_OP_READ);
	timing_command_start(&t, 2000);
	timing_command_done(&t, 2000, 702000, TIMING_OP_WRITE);
	timing_command_start(&t, 3000);
	timing_command_done(&t, 3000, 13000, TIMING_OP_OTHER);
	EXPECT_NS(t.counters.commands, 4);
	EXPECT_NS(t.counters.latency_ns, 100000 + 30000 + 700000 + 10000);
	EXPECT_NS(t.counters.read_commands, 2);
	EXPECT_NS(t.counters.read_latency_ns, 100000 + 30000);
	EXPECT_NS(t.counters.write_commands, 1);
	EXPECT_NS(t.counters.write_latency_ns, 700000);
	timing_exit(&t);
}

int test_timing(int argc, char **argv)
{
	struct ssd_timing t;
	u64 a, b;

	/* One page read: sense, then cross the channel. */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 1000), 1000 + READ + XFER);
	timing_exit(&t);

	/* Two reads on one chip serialise: the second senses after the first left. */
	init(&t, 64);
	a = tlc_read(&t, 0, 0);
	b = tlc_read(&t, 0, 0);
	EXPECT_NS(a, READ + XFER);
	EXPECT_NS(b, a + READ + XFER);
	timing_exit(&t);

	/* Reads on chips of different channels overlap completely. */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 0), READ + XFER);
	EXPECT_NS(tlc_read(&t, 1, 0), READ + XFER);
	timing_exit(&t);

	/* Chips 0 and 4 share channel 0: senses overlap, transfers queue. */
	init(&t, 64);
	EXPECT_NS(tlc_read(&t, 0, 0), READ + XFER);
	EXPECT_NS(tlc_read(&t, 4, 0), READ + 2 * XFER);
	EXPECT_NS(t.counters.channel_busy_ns, 2 * XFER);
	timing_exit(&t);

	/* An erase blocks its chip for the erase time; other chips go on. */
	init(&t, 64);
	EXPECT_NS(timing_erase(&t, 2, FLASH_MODE_TLC, 0), ERASE);
	EXPECT_NS(tlc_read(&t, 2, 0), ERASE + READ + XFER);
	EXPECT_NS(tlc_read(&t, 3, 0), READ + XFER);
	timing_exit(&t);

	/* Program: data in over the channel, then the cells; a read waits. */
	init(&t, 64);
	EXPECT_NS(timing_program(&t, 5, FLASH_MODE_TLC, FLASH_PAGE_CSB, 100), 100 + XFER + PROG);
	EXPECT_NS(tlc_read(&t, 5, 0), 100 + XFER + PROG + READ + XFER);
	/*
	 * Chip 1 shares channel 1 with chip 5.  Timelines only move forward
	 * (no back-filling of idle gaps), so an operation issued later queues
	 * behind the read's transfer even though it asks for time 0.
	 */
	a = 100 + XFER + PROG + READ + XFER;
	EXPECT_NS(timing_program(&t, 1, FLASH_MODE_TLC, FLASH_PAGE_LSB, 0), a + XFER + PROG);
	timing_exit(&t);

	/* SLC mode and TLC page types have their own latencies. */
	init(&t, 64);
	EXPECT_NS(timing_read(&t, 0, FLASH_MODE_SLC, FLASH_PAGE_LSB, 0), 25000 + XFER);
	EXPECT_NS(timing_program(&t, 1, FLASH_MODE_SLC, FLASH_PAGE_MSB, 0), XFER + 200000);
	EXPECT_NS(timing_erase(&t, 2, FLASH_MODE_SLC, 0), 1000000);
	EXPECT_NS(timing_read(&t, 3, FLASH_MODE_TLC, FLASH_PAGE_MSB, 0), 90000 + XFER);
	timing_exit(&t);

	/* The controller serves commands FIFO, controller_ns each. */
	init(&t, 64);
	EXPECT_NS(timing_command_start(&t, 0), CTRL);
	EXPECT_NS(timing_command_start(&t, 0), 2 * CTRL);
	EXPECT_NS(timing_command_start(&t, 10 * CTRL), 11 * CTRL);
	EXPECT_NS(t.counters.controller_busy_ns, 3 * CTRL);
	timing_exit(&t);

	/* A queue of depth 2: the third command waits for the first to finish. */
	init(&t, 2);
	a = timing_command_start(&t, 0);
	timing_command_done(&t, 0, 100000, TIMING_OP_OTHER);
	b = timing_command_start(&t, 0);
	timing_command_done(&t, 0, 200000, TIMING_OP_OTHER);
	EXPECT_NS(a, CTRL);
	EXPECT_NS(b, 2 * CTRL);
	EXPECT_NS(timing_command_start(&t, 0), 100000 + CTRL);
	EXPECT_NS(t.counters.queue_wait_ns, 100000);
	timing_command_done(&t, 0, 300000, TIMING_OP_OTHER);
	/* At 250 us two commands have finished: no wait. */
	EXPECT_NS(timing_command_start(&t, 250000), 250000 + CTRL);
	EXPECT_NS(t.counters.queue_wait_ns, 100000);
	timing_exit(&t);

	test_counters();
	printf("timing: hand-computed cases ok\n");
	return 0;
}

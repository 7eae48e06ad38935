// SPDX-License-Identifier: GPL-2.0
/*
 * timing.c - the command queue, controller, channel and chip timelines of
 * timing.h.
 */
#include "timing.h"

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

int timing_init(struct ssd_timing *t, const struct timing_params *params)
{
	memset(t, 0, sizeof(*t));
	t->p = *params;
	/* bytes / (MB/s) = bytes * 1000 / (MB/s) ns, rounded up. */
	t->transfer_ns = div64_u64((u64)params->page_size_bytes * 1000 +
				   params->channel_mb_per_s - 1,
				   params->channel_mb_per_s);
	t->channel_free_ns = ssd_zalloc((u64)params->channels * sizeof(u64));
	t->chip_free_ns = ssd_zalloc((u64)params->chips * sizeof(u64));
	t->inflight_ns = ssd_zalloc((u64)params->cmd_queue_depth * sizeof(u64));
	if (!t->channel_free_ns || !t->chip_free_ns || !t->inflight_ns) {
		timing_exit(t);
		return -ENOMEM;
	}
	return 0;
}

void timing_exit(struct ssd_timing *t)
{
	ssd_free(t->channel_free_ns);
	ssd_free(t->chip_free_ns);
	ssd_free(t->inflight_ns);
	t->channel_free_ns = NULL;
	t->chip_free_ns = NULL;
	t->inflight_ns = NULL;
}

/* The in-flight completions form a min-heap: the earliest at index 0. */
static void heap_swap(u64 *heap, u32 a, u32 b)
{
	u64 tmp = heap[a];

	heap[a] = heap[b];
	heap[b] = tmp;
}

static void inflight_pop(struct ssd_timing *t)
{
	u64 *heap = t->inflight_ns;
	u32 i = 0;

	heap[0] = heap[--t->nr_inflight];
	for (;;) {
		u32 l = 2 * i + 1, r = l + 1, least = i;

		if (l < t->nr_inflight && heap[l] < heap[least])
			least = l;
		if (r < t->nr_inflight && heap[r] < heap[least])
			least = r;
		if (least == i)
			return;
		heap_swap(heap, i, least);
		i = least;
	}
}

static void inflight_push(struct ssd_timing *t, u64 completion_ns)
{
	u64 *heap = t->inflight_ns;
	u32 i = t->nr_inflight++;

	heap[i] = completion_ns;
	while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
		heap_swap(heap, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

u64 timing_command_start(struct ssd_timing *t, u64 arrival_ns)
{
	u64 admitted = arrival_ns, start;

	/* Commands that completed by now have left the queue. */
	while (t->nr_inflight && t->inflight_ns[0] <= arrival_ns)
		inflight_pop(t);
	/* A full queue: wait for the earliest completion to free a slot. */
	if (t->nr_inflight >= t->p.cmd_queue_depth) {
		admitted = t->inflight_ns[0];
		inflight_pop(t);
	}
	t->counters.queue_wait_ns += admitted - arrival_ns;

	/* Ready -> Waiting: the controller runs the firmware for it. */
	start = max_u64(admitted, t->controller_free_ns);
	t->controller_free_ns = start + t->p.controller_ns;
	t->counters.controller_busy_ns += t->p.controller_ns;
	t->counters.commands++;
	/* -> Operating: its flash operations may go to the buses now. */
	return t->controller_free_ns;
}

void timing_command_done(struct ssd_timing *t, u64 arrival_ns, u64 completion_ns,
			 enum timing_op_kind kind)
{
	u64 latency_ns = completion_ns - arrival_ns;

	inflight_push(t, completion_ns);
	t->counters.latency_ns += latency_ns;
	if (kind == TIMING_OP_READ) {
		t->counters.read_commands++;
		t->counters.read_latency_ns += latency_ns;
	} else if (kind == TIMING_OP_WRITE) {
		t->counters.write_commands++;
		t->counters.write_latency_ns += latency_ns;
	}
}

static u64 *channel_of(struct ssd_timing *t, u32 chip)
{
	return &t->channel_free_ns[chip % t->p.channels];
}

u64 timing_read(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		enum flash_page_type type, u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];
	u64 *channel_free = channel_of(t, chip);
	u64 sensed, xfer_start, done;

	start_ns = max_u64(start_ns, *chip_free);
	sensed = start_ns + t->p.read_ns[mode][type];
	xfer_start = max_u64(sensed, *channel_free);
	done = xfer_start + t->transfer_ns;
	*channel_free = done;
	/* The page register is busy until the data has left the chip. */
	*chip_free = done;
	t->counters.chip_busy_ns += done - start_ns;
	t->counters.channel_busy_ns += t->transfer_ns;
	return done;
}

u64 timing_program(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		   enum flash_page_type type, u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];
	u64 *channel_free = channel_of(t, chip);
	u64 xfer_start, done;

	/* Data moves into the chip's register once both are free. */
	xfer_start = max_u64(start_ns, max_u64(*chip_free, *channel_free));
	*channel_free = xfer_start + t->transfer_ns;
	done = *channel_free + t->p.program_ns[mode][type];
	*chip_free = done;
	t->counters.chip_busy_ns += done - xfer_start;
	t->counters.channel_busy_ns += t->transfer_ns;
	return done;
}

u64 timing_erase(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		 u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];

	start_ns = max_u64(start_ns, *chip_free);
	*chip_free = start_ns + t->p.erase_ns[mode];
	t->counters.chip_busy_ns += t->p.erase_ns[mode];
	return *chip_free;
}

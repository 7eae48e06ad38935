// SPDX-License-Identifier: GPL-2.0
/*
 * controller.c - the command queue (a min-heap of in-flight completions)
 * and the FIFO controller of controller.h.
 */
#include "device/controller.h"

u64 ssd_controller_table_bytes(u64 total, u32 cmd_queue_depth)
{
	return ssd_tables_add(total, 1, cmd_queue_depth, sizeof(u64));
}

int ssd_controller_init(struct ssd_controller *c, u32 cmd_queue_depth, u64 controller_ns)
{
	memset(c, 0, sizeof(*c));
	c->cmd_queue_depth = cmd_queue_depth;
	c->controller_ns = controller_ns;
	c->inflight_ns = ssd_zalloc((u64)cmd_queue_depth * sizeof(u64));
	return c->inflight_ns ? 0 : -ENOMEM;
}

void ssd_controller_exit(struct ssd_controller *c)
{
	ssd_free(c->inflight_ns);
	c->inflight_ns = NULL;
}

/* The in-flight completions form a min-heap: the earliest at index 0. */
static void heap_swap(u64 *heap, u32 a, u32 b)
{
	u64 tmp = heap[a];

	heap[a] = heap[b];
	heap[b] = tmp;
}

/*
 * heap[0] changed to a later time: move it down to its place.  Its
 * smaller child (the left one on a tie, picked without a branch) moves up
 * while it is earlier; the value is written once, where it stops.
 */
static void inflight_sift_down(struct ssd_controller *c)
{
	u64 *heap = c->inflight_ns, v = heap[0];
	u32 n = c->nr_inflight, i = 0, l;

	while ((l = 2 * i + 1) < n) {
		u32 m = l + (u32)(l + 1 < n && heap[l + 1] < heap[l]);

		if (heap[m] >= v)
			break;
		heap[i] = heap[m];
		i = m;
	}
	heap[i] = v;
}

static void inflight_pop(struct ssd_controller *c)
{
	c->inflight_ns[0] = c->inflight_ns[--c->nr_inflight];
	inflight_sift_down(c);
}

static void inflight_push(struct ssd_controller *c, u64 completion_ns)
{
	u64 *heap = c->inflight_ns;
	u32 i = c->nr_inflight++;

	heap[i] = completion_ns;
	while (i > 0 && heap[(i - 1) / 2] > heap[i]) {
		heap_swap(heap, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

u64 ssd_controller_command_start(struct ssd_controller *c, u64 arrival_ns)
{
	u64 admitted = arrival_ns, start;

	/* A command admitted before without being done (tests): it left. */
	if (c->top_taken) {
		c->top_taken = false;
		inflight_pop(c);
	}
	/* Commands that completed by now have left the queue. */
	while (c->nr_inflight && c->inflight_ns[0] <= arrival_ns)
		inflight_pop(c);
	/* A full queue: wait for the earliest completion to free a slot. */
	if (c->nr_inflight >= c->cmd_queue_depth) {
		admitted = c->inflight_ns[0];
		c->top_taken = true;
	}
	c->counters.queue_wait_ns += admitted - arrival_ns;

	/* Ready -> Waiting: the controller runs the firmware for it. */
	start = max_t(u64, admitted, c->controller_free_ns);
	c->controller_free_ns = start + c->controller_ns;
	c->counters.controller_busy_ns += c->controller_ns;
	/* -> Operating: its flash operations may go to the buses now. */
	return c->controller_free_ns;
}

/* The command admitted last holds its slot until @completion_ns. */
static void command_leaves_at(struct ssd_controller *c, u64 completion_ns)
{
	if (c->top_taken) {
		/* Not earlier than the completion it replaces (admitted then). */
		c->top_taken = false;
		c->inflight_ns[0] = completion_ns;
		inflight_sift_down(c);
	} else {
		inflight_push(c, completion_ns);
	}
}

void ssd_controller_command_done(struct ssd_controller *c, u64 arrival_ns, u64 completion_ns,
			     enum controller_op_kind kind)
{
	u64 latency_ns = completion_ns - arrival_ns;

	command_leaves_at(c, completion_ns);
	c->counters.commands++;
	c->counters.latency_ns += latency_ns;
	if (kind == CONTROLLER_OP_READ) {
		c->counters.read_commands++;
		c->counters.read_latency_ns += latency_ns;
	} else if (kind == CONTROLLER_OP_WRITE) {
		c->counters.write_commands++;
		c->counters.write_latency_ns += latency_ns;
	}
}

void ssd_controller_count(struct ssd_controller *c, enum controller_op_kind kind,
			  enum controller_outcome outcome)
{
	struct controller_counters *n = &c->counters;

	if (outcome == CONTROLLER_FAILED) {
		n->failed_commands++;
		n->read_failed_commands += kind == CONTROLLER_OP_READ;
		n->write_failed_commands += kind == CONTROLLER_OP_WRITE;
	} else {
		n->refused_commands++;
		n->read_refused_commands += kind == CONTROLLER_OP_READ;
		n->write_refused_commands += kind == CONTROLLER_OP_WRITE;
	}
}

void ssd_controller_command_ended(struct ssd_controller *c, u64 completion_ns,
				  enum controller_op_kind kind, enum controller_outcome outcome)
{
	command_leaves_at(c, completion_ns);
	ssd_controller_count(c, kind, outcome);
}

void ssd_controller_get_stats(const struct ssd_controller *c, struct ssd_stats *st)
{
	st->commands = c->counters.commands;
	st->command_latency_ns_total = c->counters.latency_ns;
	st->queue_wait_ns_total = c->counters.queue_wait_ns;
	st->controller_busy_ns = c->counters.controller_busy_ns;
	st->read_commands = c->counters.read_commands;
	st->read_latency_ns_total = c->counters.read_latency_ns;
	st->write_commands = c->counters.write_commands;
	st->write_latency_ns_total = c->counters.write_latency_ns;
	st->failed_commands = c->counters.failed_commands;
	st->read_failed_commands = c->counters.read_failed_commands;
	st->write_failed_commands = c->counters.write_failed_commands;
	st->refused_commands = c->counters.refused_commands;
	st->read_refused_commands = c->counters.read_refused_commands;
	st->write_refused_commands = c->counters.write_refused_commands;
}

void ssd_controller_reset_counters(struct ssd_controller *c)
{
	memset(&c->counters, 0, sizeof(c->counters));
}

/* Snapshots: the controller's timeline, the commands in flight, the counters. */
void ssd_controller_save(const struct ssd_controller *c, struct ssd_snap_writer *w)
{
	ssd_snap_put_u64(w, c->controller_free_ns);
	ssd_snap_put_counters(w, &c->counters);
	ssd_snap_put_u32(w, c->nr_inflight);
	ssd_snap_put_array(w, c->inflight_ns, c->nr_inflight, sizeof(u64));
}

void ssd_controller_load(struct ssd_controller *c, struct ssd_snap_reader *r)
{
	u32 nr, i;

	c->controller_free_ns = ssd_snap_get_ns(r, "the controller's free time");
	ssd_snap_get_counters(r, &c->counters);
	nr = ssd_snap_get_u32(r);
	if (r->error)
		return;
	if (nr > c->cmd_queue_depth) {
		ssd_snap_refuse(r, "%u commands in flight, cmd_queue_depth is %u", nr,
				c->cmd_queue_depth);
		return;
	}
	ssd_snap_get_ns_array(r, c->inflight_ns, nr, "command in flight");
	for (i = 1; i < nr && !r->error; i++)
		if (c->inflight_ns[(i - 1) / 2] > c->inflight_ns[i])
			ssd_snap_refuse(r, "the commands in flight are not a min-heap at %u", i);
	c->nr_inflight = r->error ? 0 : nr;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * controller.h - the device's command queue and controller, in virtual
 * nanoseconds: the front half of the timing state machine (the chips and
 * channels are flash/flash_timing.h).  Private to device/.
 *
 * A command waits for a slot in the command queue (cmd_queue_depth commands
 * in flight), then for the controller, which serves commands FIFO:
 * Ready -> Waiting (firmware work, controller_ns) -> Operating (its flash
 * operations are dispatched to the channels and chips).  The command holds
 * its slot until its last flash operation ends.  Portable, deterministic.
 */
#ifndef SSD_CONTROLLER_H
#define SSD_CONTROLLER_H

#include "platform/ssd_platform.h"
#include "common/ssd_snap.h"
#include "common/ssd_stats.h"

/* What a command did, for the per-kind latency counters. */
enum controller_op_kind {
	CONTROLLER_OP_READ,
	CONTROLLER_OP_WRITE,
	CONTROLLER_OP_OTHER,	/* trim, write-zeroes, flush */
};

/*
 * A request ends completed (its latency counted), failed (an I/O error)
 * or refused (declined: read-only, power off, no room, out of range): the
 * latencies cover the completed ones alone.  In snapshots: a counter added here bumps the
 * format (device/ssd_snapshot.c).
 */
struct controller_counters {
	u64 commands;			/* completed */
	u64 queue_wait_ns;		/* waiting for a command queue slot */
	u64 controller_busy_ns;
	u64 latency_ns;			/* summed completion - arrival */
	u64 read_commands;
	u64 read_latency_ns;		/* of the reads, summed */
	u64 write_commands;
	u64 write_latency_ns;		/* of the writes, summed */
	u64 failed_commands;		/* an I/O error: no latency */
	u64 read_failed_commands;
	u64 write_failed_commands;
	u64 refused_commands;		/* declined: no latency */
	u64 read_refused_commands;
	u64 write_refused_commands;
};

struct ssd_controller {
	u32 cmd_queue_depth;
	u64 controller_ns;
	u64 controller_free_ns;
	u64 *inflight_ns;		/* min-heap of in-flight completions */
	u32 nr_inflight;
	/*
	 * The command being admitted took the slot of the earliest
	 * completion, heap[0] (the queue was full): its own completion
	 * replaces it, one sift-down instead of a pop and a push.
	 */
	bool top_taken;
	struct controller_counters counters;
};

/* @total plus the bytes ssd_controller_init() allocates (ssd_tables_add()). */
u64 ssd_controller_table_bytes(u64 total, u32 cmd_queue_depth);

int ssd_controller_init(struct ssd_controller *c, u32 cmd_queue_depth, u64 controller_ns);
void ssd_controller_exit(struct ssd_controller *c);

/*
 * Admit a command that arrives at @arrival_ns: wait for a queue slot and
 * the controller.  Returns when its flash operations may start; that time
 * never decreases while arrivals do not.
 */
u64 ssd_controller_command_start(struct ssd_controller *c, u64 arrival_ns);

/* The @kind command admitted at @arrival_ns completes at @completion_ns. */
void ssd_controller_command_done(struct ssd_controller *c, u64 arrival_ns, u64 completion_ns,
			     enum controller_op_kind kind);
/* How a command that did not complete ended (its counters). */
enum controller_outcome {
	CONTROLLER_FAILED,	/* an I/O error: media, injected, no page buffer */
	CONTROLLER_REFUSED,	/* declined: read-only, power off, no room, range */
};

/*
 * The @kind command admitted last ends at @completion_ns without
 * completing: it held its slot until then, and is counted by @outcome,
 * in no latency.
 */
void ssd_controller_command_ended(struct ssd_controller *c, u64 completion_ns,
				  enum controller_op_kind kind, enum controller_outcome outcome);
/* A @kind command that ended before it was admitted: counted, nothing else. */
void ssd_controller_count(struct ssd_controller *c, enum controller_op_kind kind,
			  enum controller_outcome outcome);

/* Fill the command counters into @st; zero them (a statistics reset). */
void ssd_controller_get_stats(const struct ssd_controller *c, struct ssd_stats *st);
void ssd_controller_reset_counters(struct ssd_controller *c);

/* Snapshots of the controller's state (timeline, in flight, counters). */
void ssd_controller_save(const struct ssd_controller *c, struct ssd_snap_writer *w);
void ssd_controller_load(struct ssd_controller *c, struct ssd_snap_reader *r);

#endif /* SSD_CONTROLLER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash_timing.h - the flash side of the SSD's timing state machine, in virtual
 * nanoseconds: chips and channels.  (The command queue and the controller
 * in front of them are device/controller.h; a command's flash operations
 * start when the controller has done with it.)  An operation's completion
 * is computed when it is submitted:
 *
 *   read:    chip busy for the array read, then the page crosses the
 *            channel to the controller (the chip holds it until then)
 *   program: the page crosses the channel into the chip, then the chip is
 *            busy programming
 *   erase:   the chip is busy erasing
 *
 * Chips are serial: each keeps the time it is next free, and an operation
 * on a chip starts after everything booked on it before.  Channels are
 * booked by interval: each keeps the busy intervals booked in the future,
 * sorted, and a transfer takes the earliest gap, at or after the time it is
 * ready, that is long enough (first fit).  So a read on an idle chip is not
 * held up by transfers booked far ahead for a busy chip on the same channel
 * (a program waits for its chip before its data moves).  Intervals that end
 * before the latest command's operations may start (its arrival, plus any
 * wait for a queue slot and the controller) can no longer matter and are
 * dropped, so each list holds about one interval per page operation ahead.
 * A list grows without sleeping (it is booked under the device lock); one
 * that cannot (no memory, or max_intervals reached) closes its shortest gap
 * instead, so that gap counts as busy: conservative, never overlapping.
 *
 * Read priority (read_priority=1): a host read does not wait for the
 * programs and erases booked on its chip.  It senses at max(its start, the
 * end of the last host read booked on the chip), i.e. it suspends the
 * program or erase in progress and overtakes the queued ones, and the
 * chip's free time for later operations moves back by the read's chip time
 * (sense, wait for the channel, transfer), so chip busy time is conserved.
 * Known approximation: completion times already returned for the
 * suspended and overtaken operations are not changed (the model computes
 * completions at submit), and GC reads, which queue FIFO with the programs,
 * are overtaken like them, even one already sensing.  With read_priority=0
 * every operation on a chip is FIFO.
 *
 * Chip c sits on channel c % channels, so consecutive chips are on
 * different channels.  GC, cache destage and dedup use the same timelines
 * as host I/O, so host I/O behind them waits.  Private to flash/ (struct
 * flash owns the model); unit tests see it.  Portable and deterministic.
 */
#ifndef SSD_FLASH_TIMING_H
#define SSD_FLASH_TIMING_H

#include "flash/flash.h"

struct timing_params {
	u32 chips;
	u32 channels;
	u32 page_size_bytes;
	u32 read_priority;			/* 1: host reads overtake */
	u64 channel_mb_per_s;			/* MB = 10^6 bytes */
	u64 read_ns[FLASH_MODE_NR][FLASH_PAGE_NR];
	u64 program_ns[FLASH_MODE_NR][FLASH_PAGE_NR];
	u64 erase_ns[FLASH_MODE_NR];
};

struct timing_counters {
	u64 channel_busy_ns;		/* summed over channels */
	u64 chip_busy_ns;		/* summed over chips */
};

/* A channel's busy time [start_ns, end_ns). */
struct timing_interval {
	u64 start_ns;
	u64 end_ns;
};

/*
 * Sorted, disjoint and never touching (touching ones are merged): busy[0]
 * to busy[nr - 1], at most capacity of them, a window of the allocation
 * base[0 .. slots - 1] that starts at base[head], so dropping the
 * intervals at the front moves no memory.  A grown list has twice its
 * capacity in slots, so the window moves back to base[0] (when a new
 * interval needs the room) at most once every capacity - nr bookings.
 * Consecutive bookings on a channel mostly land next to each other (a
 * chip's GC read, then its program), so a search starts from the last
 * one's place and gallops out (any start gives the same answer).
 */
struct timing_channel {
	struct timing_interval *busy;	/* base + head */
	struct timing_interval *base;
	u32 head;
	u32 nr;
	u32 capacity;
	u32 slots;
	u32 finger;	/* where the last booking went: the next search starts there */
};

struct ssd_timing {
	struct timing_params p;
	u64 transfer_ns;		/* one page over one channel */
	u64 horizon_ns;			/* nothing starts before this */
	struct timing_channel *channel;	/* [channels] */
	u64 *chip_free_ns;		/* [chips] */
	u64 *chip_read_free_ns;		/* [chips]: end of the last host read */
	u32 max_intervals;		/* a channel's list grows up to this */
	u32 channel_mask;		/* channels - 1 if a power of two, else 0 */
	struct timing_counters counters;
};

/* @total plus the bytes ssd_timing_init() allocates (ssd_tables_add()). */
u64 ssd_timing_table_bytes(u64 total, u32 chips, u32 channels);

int ssd_timing_init(struct ssd_timing *t, const struct timing_params *params);
void ssd_timing_exit(struct ssd_timing *t);

/*
 * The latest command's flash operations may start at @now_ns: no operation
 * starts earlier from now on (earlier starts are moved up to it), so
 * channel bookings that end by then are dropped.  Never moves back.
 */
void ssd_timing_set_horizon(struct ssd_timing *t, u64 now_ns);

/* When @chip can start a new operation in FIFO order, at the earliest. */
static inline u64 timing_chip_free_ns(const struct ssd_timing *t, u32 chip)
{
	return t->chip_free_ns[chip];
}

/*
 * Flash operations: each starts no earlier than @start_ns, returns its end.
 * @host_read is true for reads the host waits on (including the read of a
 * read-modify-write): only those may overtake with read_priority=1; GC
 * relocation reads pass false.
 */
u64 ssd_timing_read(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		enum flash_page_type type, bool host_read, u64 start_ns);
u64 ssd_timing_program(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		   enum flash_page_type type, u64 start_ns);
u64 ssd_timing_erase(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		 u64 start_ns);

/* Snapshots of the model's state (bookings, free times, counters). */
void ssd_timing_save(const struct ssd_timing *t, struct ssd_snap_writer *w);
void ssd_timing_load(struct ssd_timing *t, struct ssd_snap_reader *r);

#endif /* SSD_FLASH_TIMING_H */

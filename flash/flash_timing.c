// SPDX-License-Identifier: GPL-2.0
/*
 * flash_timing.c - the chip timelines and the channels' interval bookings
 * of flash_timing.h.
 */
#include "flash/flash_timing.h"

/* Busy intervals a channel starts with, and the most it grows to. */
#define TIMING_FIRST_INTERVALS	16
#define TIMING_MAX_INTERVALS	16384

static u64 max_u64(u64 a, u64 b)
{
	return a > b ? a : b;
}

u64 ssd_timing_table_bytes(u64 total, u32 chips, u32 channels)
{
	total = ssd_tables_add(total, 1, channels, sizeof(struct timing_channel));
	total = ssd_tables_add(total, channels, TIMING_FIRST_INTERVALS,
			       sizeof(struct timing_interval));
	return ssd_tables_add(total, 2, chips, sizeof(u64));
}

int ssd_timing_init(struct ssd_timing *t, const struct timing_params *params)
{
	u32 i;

	memset(t, 0, sizeof(*t));
	t->p = *params;
	t->max_intervals = TIMING_MAX_INTERVALS;
	if (!(params->channels & (params->channels - 1)))
		t->channel_mask = params->channels - 1;
	/* bytes / (MB/s) = bytes * 1000 / (MB/s) ns, rounded up. */
	t->transfer_ns = div64_u64((u64)params->page_size_bytes * 1000 +
				   params->channel_mb_per_s - 1,
				   params->channel_mb_per_s);
	t->channel = ssd_zalloc((u64)params->channels * sizeof(*t->channel));
	t->chip_free_ns = ssd_zalloc((u64)params->chips * sizeof(u64));
	t->chip_read_free_ns = ssd_zalloc((u64)params->chips * sizeof(u64));
	if (!t->channel || !t->chip_free_ns || !t->chip_read_free_ns)
		goto fail;
	for (i = 0; i < params->channels; i++) {
		struct timing_channel *ch = &t->channel[i];

		ch->base = ssd_zalloc(TIMING_FIRST_INTERVALS * sizeof(*ch->base));
		if (!ch->base)
			goto fail;
		ch->busy = ch->base;
		ch->capacity = TIMING_FIRST_INTERVALS;
		ch->slots = TIMING_FIRST_INTERVALS;
	}
	return 0;

fail:
	ssd_timing_exit(t);
	return -ENOMEM;
}

void ssd_timing_exit(struct ssd_timing *t)
{
	u32 i;

	if (t->channel)
		for (i = 0; i < t->p.channels; i++)
			ssd_free(t->channel[i].base);
	ssd_free(t->channel);
	ssd_free(t->chip_free_ns);
	ssd_free(t->chip_read_free_ns);
	t->channel = NULL;
	t->chip_free_ns = NULL;
	t->chip_read_free_ns = NULL;
}

void ssd_timing_set_horizon(struct ssd_timing *t, u64 now_ns)
{
	t->horizon_ns = max_u64(t->horizon_ns, now_ns);
}

/*
 * Channel bookings.  Every transfer of this command and of later ones is
 * ready at or after the horizon (when the latest command's operations may
 * start, which is at or after its arrival), so intervals that end by then
 * are dropped before each booking: the list holds only what is booked
 * ahead, about one interval per page operation still to run.
 */
static void channel_prune(struct timing_channel *ch, u64 horizon_ns)
{
	u32 gone = 0;

	while (gone < ch->nr && ch->busy[gone].end_ns <= horizon_ns)
		gone++;
	if (!gone)
		return;
	ch->nr -= gone;
	ch->head = ch->nr ? ch->head + gone : 0;
	ch->busy = ch->base + ch->head;
	ch->finger = ch->finger > gone ? ch->finger - gone : 0;
}

/*
 * The first index in [@lo, @hi] whose interval ends after @ns, given that
 * every one before @lo ends by @ns and @hi is nr or ends after it.
 */
static u32 first_ending_after_in(const struct timing_interval *busy, u32 lo, u32 hi, u64 ns)
{
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (busy[mid].end_ns <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Index of the first interval that ends after @ns (ends are sorted too):
 * a galloping search from the finger, 1, 2, 4, ... places out, then a
 * binary search in the last step.
 */
static u32 channel_first_ending_after(const struct timing_channel *ch, u64 ns)
{
	const struct timing_interval *busy = ch->busy;
	u32 nr = ch->nr, at = min_t(u32, ch->finger, nr), step, probe;

	if (at < nr && busy[at].end_ns <= ns) {
		/* The answer lies after @at. */
		for (step = 1;; step *= 2) {
			probe = at + step;
			if (probe >= nr)
				return first_ending_after_in(busy, at + 1, nr, ns);
			if (busy[probe].end_ns > ns)
				return first_ending_after_in(busy, at + 1, probe, ns);
			at = probe;
		}
	}
	/* @at is nr or ends after @ns: the answer is @at or before it. */
	for (step = 1;; step *= 2) {
		if (at < step)
			return first_ending_after_in(busy, 0, at, ns);
		probe = at - step;
		if (busy[probe].end_ns <= ns)
			return first_ending_after_in(busy, probe + 1, at, ns);
		at = probe;
	}
}

/*
 * Double the list.  This runs under the device lock, so the allocation must
 * not start I/O (ssd_zalloc_noio()); it may fail, and the list stops at
 * t->max_intervals.
 */
static bool channel_grow(struct ssd_timing *t, struct timing_channel *ch)
{
	u32 capacity = min_t(u32, ch->capacity * 2, t->max_intervals);
	struct timing_interval *busy;

	if (capacity <= ch->capacity)
		return false;
	busy = ssd_zalloc_noio(2 * (u64)capacity * sizeof(*busy));
	if (!busy)
		return false;
	memcpy(busy, ch->busy, ch->nr * sizeof(*busy));
	ssd_free(ch->base);
	ch->base = busy;
	ch->busy = busy;
	ch->head = 0;
	ch->capacity = capacity;
	ch->slots = 2 * capacity;
	return true;
}

/* Move the window of intervals back to the start of the allocation. */
static void channel_compact(struct timing_channel *ch)
{
	memmove(ch->base, ch->busy, ch->nr * sizeof(*ch->busy));
	ch->head = 0;
	ch->busy = ch->base;
}

/*
 * A full list that cannot grow makes room by closing the shortest gap
 * (the first one on ties): the two intervals around it become one, so that
 * gap counts as busy.  Conservative, deterministic, and only under memory
 * pressure or with more than max_intervals transfers booked ahead.
 */
static void channel_squeeze(struct timing_channel *ch)
{
	u32 best = 0, i;

	for (i = 1; i + 1 < ch->nr; i++)
		if (ch->busy[i + 1].start_ns - ch->busy[i].end_ns <
		    ch->busy[best + 1].start_ns - ch->busy[best].end_ns)
			best = i;
	ch->busy[best].end_ns = ch->busy[best + 1].end_ns;
	ch->nr--;
	memmove(&ch->busy[best + 1], &ch->busy[best + 2],
		(ch->nr - best - 1) * sizeof(*ch->busy));
}

/*
 * Book [@start_ns, @end_ns) just before interval @i, in a gap that holds
 * it; touching neighbours merge.  False if a new slot was needed and the
 * list could not grow.
 */
static bool channel_insert(struct ssd_timing *t, struct timing_channel *ch, u32 i,
			   u64 start_ns, u64 end_ns)
{
	bool join_prev = i > 0 && ch->busy[i - 1].end_ns == start_ns;
	bool join_next = i < ch->nr && ch->busy[i].start_ns == end_ns;

	if (join_prev && join_next) {
		ch->busy[i - 1].end_ns = ch->busy[i].end_ns;
		ch->nr--;
		memmove(&ch->busy[i], &ch->busy[i + 1], (ch->nr - i) * sizeof(*ch->busy));
	} else if (join_prev) {
		ch->busy[i - 1].end_ns = end_ns;
	} else if (join_next) {
		ch->busy[i].start_ns = start_ns;
	} else {
		/*
		 * A new slot: the list grows (or fails to) at the same number
		 * of intervals whatever the window's place.  The shorter side
		 * of the list moves: the front one back into the room the
		 * window left at the front, else the back one on, after the
		 * window moved back to the start if it reached the end.
		 */
		if (ch->nr == ch->capacity && !channel_grow(t, ch))
			return false;
		if (ch->head && i < ch->nr - i) {
			ch->head--;
			ch->busy--;
			memmove(&ch->busy[0], &ch->busy[1], i * sizeof(*ch->busy));
		} else {
			if (ch->head + ch->nr == ch->slots)
				channel_compact(ch);
			memmove(&ch->busy[i + 1], &ch->busy[i], (ch->nr - i) * sizeof(*ch->busy));
		}
		ch->busy[i].start_ns = start_ns;
		ch->busy[i].end_ns = end_ns;
		ch->nr++;
	}
	return true;
}

/*
 * One page transfer on @chip's channel, ready at @ready_ns: it takes the
 * earliest gap at or after @ready_ns that is long enough (first fit).
 * Returns when it starts.
 */
static u64 channel_book(struct ssd_timing *t, u32 chip, u64 ready_ns)
{
	/* Chip c is on channel c % channels: a mask for a power of two. */
	struct timing_channel *ch = &t->channel[t->channel_mask || t->p.channels == 1 ?
						 chip & t->channel_mask :
						 chip % t->p.channels];
	u64 len = t->transfer_ns, start_ns;
	u32 i;

	t->counters.channel_busy_ns += len;
	if (!len)
		return ready_ns;
	channel_prune(ch, t->horizon_ns);
	for (;;) {
		start_ns = ready_ns;
		/* Each interval from i on ends after start_ns; skip those in the way. */
		for (i = channel_first_ending_after(ch, start_ns); i < ch->nr; i++) {
			if (ch->busy[i].start_ns >= start_ns + len)
				break;
			start_ns = ch->busy[i].end_ns;
		}
		if (channel_insert(t, ch, i, start_ns, start_ns + len)) {
			ch->finger = i;
			return start_ns;
		}
		channel_squeeze(ch);
	}
}

u64 ssd_timing_read(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		enum flash_page_type type, bool host_read, u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];
	u64 sensing, done;

	start_ns = max_u64(start_ns, t->horizon_ns);
	/*
	 * FIFO: after everything booked on the chip.  A prioritised host read
	 * only waits for the host reads booked before it.
	 */
	if (host_read && t->p.read_priority)
		sensing = max_u64(start_ns, t->chip_read_free_ns[chip]);
	else
		sensing = max_u64(start_ns, *chip_free);
	done = channel_book(t, chip, sensing + t->p.read_ns[mode][type]) + t->transfer_ns;
	/*
	 * The page register is busy until the data has left the chip.  A read
	 * that overtook programs or erases pushes them back by its chip time.
	 */
	if (*chip_free > sensing)
		*chip_free += done - sensing;
	else
		*chip_free = done;
	if (host_read)
		t->chip_read_free_ns[chip] = done;
	t->counters.chip_busy_ns += done - sensing;
	return done;
}

u64 ssd_timing_program(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		   enum flash_page_type type, u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];
	u64 xfer_start, done;

	/* Data moves into the chip's register once the chip is free. */
	start_ns = max_u64(max_u64(start_ns, t->horizon_ns), *chip_free);
	xfer_start = channel_book(t, chip, start_ns);
	done = xfer_start + t->transfer_ns + t->p.program_ns[mode][type];
	*chip_free = done;
	t->counters.chip_busy_ns += done - xfer_start;
	return done;
}

u64 ssd_timing_erase(struct ssd_timing *t, u32 chip, enum flash_cell_mode mode,
		 u64 start_ns)
{
	u64 *chip_free = &t->chip_free_ns[chip];

	start_ns = max_u64(max_u64(start_ns, t->horizon_ns), *chip_free);
	*chip_free = start_ns + t->p.erase_ns[mode];
	t->counters.chip_busy_ns += t->p.erase_ns[mode];
	return *chip_free;
}

/*
 * Snapshots: the horizon, every chip's free times, every channel's bookings
 * ahead and the busy-time counters.  The latencies come from the
 * configuration, which the snapshot carries apart.
 */
void ssd_timing_save(const struct ssd_timing *t, struct ssd_snap_writer *w)
{
	u32 i;

	ssd_snap_put_u64(w, t->horizon_ns);
	ssd_snap_put_u64(w, t->counters.channel_busy_ns);
	ssd_snap_put_u64(w, t->counters.chip_busy_ns);
	ssd_snap_put_array(w, t->chip_free_ns, t->p.chips, sizeof(u64));
	ssd_snap_put_array(w, t->chip_read_free_ns, t->p.chips, sizeof(u64));
	for (i = 0; i < t->p.channels; i++) {
		const struct timing_channel *ch = &t->channel[i];
		u32 k;

		ssd_snap_put_u32(w, ch->nr);
		for (k = 0; k < ch->nr; k++) {
			ssd_snap_put_u64(w, ch->busy[k].start_ns);
			ssd_snap_put_u64(w, ch->busy[k].end_ns);
		}
	}
}

void ssd_timing_load(struct ssd_timing *t, struct ssd_snap_reader *r)
{
	u32 i;

	t->horizon_ns = ssd_snap_get_ns(r, "the timing horizon");
	t->counters.channel_busy_ns = ssd_snap_get_u64(r);
	t->counters.chip_busy_ns = ssd_snap_get_u64(r);
	ssd_snap_get_ns_array(r, t->chip_free_ns, t->p.chips, "chip free");
	ssd_snap_get_ns_array(r, t->chip_read_free_ns, t->p.chips, "chip free for reads");
	for (i = 0; i < t->p.channels && !r->error; i++) {
		struct timing_channel *ch = &t->channel[i];
		u32 nr = ssd_snap_get_u32(r), k;
		u64 last_end = 0;

		if (nr > t->max_intervals) {
			ssd_snap_refuse(r, "channel %u has %u bookings, at most %u", i, nr,
					t->max_intervals);
			return;
		}
		ch->nr = 0;
		ch->finger = 0;
		channel_compact(ch);
		while (ch->capacity < nr)
			if (!channel_grow(t, ch)) {
				r->error = -ENOMEM;
				return;
			}
		for (k = 0; k < nr && !r->error; k++) {
			u64 start = ssd_snap_get_u64(r), end = ssd_snap_get_u64(r);

			/* Sorted, disjoint and never touching (see flash_timing.h). */
			if (start >= end || (k && start <= last_end) || end > SSD_SNAP_MAX_NS) {
				ssd_snap_refuse(r, "channel %u: booking %u [%llu, %llu) out of order",
						i, k, (unsigned long long)start,
						(unsigned long long)end);
				return;
			}
			ch->busy[k].start_ns = start;
			ch->busy[k].end_ns = end;
			last_end = end;
		}
		ch->nr = nr;
	}
}

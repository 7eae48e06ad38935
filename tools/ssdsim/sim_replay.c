// SPDX-License-Identifier: GPL-2.0
/*
 * sim_replay.c - the replay of a trace through the device (sim_run.h):
 * each record placed (sim_place.h), its data made (sim_data.h) and its
 * extents submitted, the warm-up passes, the FLUSH that ends each pass;
 * --fill before them, the window of --measure-from, the closed loop of
 * --iodepth, the progress line, and the check of an empty trace.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/ssd_abi.h"
#include "user/flat_iter.h"
#include "tools/report/log_format.h"
#include "tools/ssdsim/sim_data.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_trace.h"
#include "tools/msg/msg.h"

static int out_of_memory(void)
{
	msg_say("ssdsim: out of memory\n");
	return -1;
}

int sim_reserve_buffer(struct sim_run *run, u64 bytes)
{
	if (bytes <= run->buf_bytes)
		return 0;
	free(run->buf);
	run->buf_bytes = bytes;
	run->buf = malloc(bytes);
	if (run->buf)
		return 0;
	run->buf_bytes = 0;
	return out_of_memory();
}

/* Give the device one extent of @rec; *@done_ns is when it completes. */
void sim_extent_request(const struct sim_run *run, const struct trace_record *rec,
			const struct sim_extent *ext, u64 arrival_ns, struct flat_iter *fi,
			struct ssd_request *req)
{
	/* Bytes, or sector ids (digest); none: no data at all. */
	flat_iter_init(fi, run->buf + (run->store == SSD_DATA_DIGEST ?
				       ext->source_bytes / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES :
				       ext->source_bytes));
	/* enum ssdemu_log_op and enum ssd_op number the operations alike. */
	req->op = (enum ssd_op)rec->op;
	req->offset_bytes = ext->offset_bytes;
	req->length_bytes = ext->length_bytes;
	req->arrival_ns = arrival_ns;
	req->data = run->store == SSD_DATA_NONE ? NULL : &fi->it;
}

/*
 * Whether the off-line bound's sequence takes @rec (first pass only): its
 * writes, and its reads unless a next use is the next write only.
 */
static bool belady_records(const struct sim_options *o, const struct trace_record *rec)
{
	if (!o->belady)
		return false;
	return rec->op == SSDEMU_OP_WRITE ||
	       (rec->op == SSDEMU_OP_READ && o->belady_next_use == BELADY_NEXT_ANY);
}

/*
 * Submit one extent of @rec; *@done_ns is when it ended, *@outcome how
 * (left as it is when the extent completed).  -1 ends the replay.
 */
static int submit_extent(struct sim_run *run, const struct trace_record *rec,
			 const struct sim_extent *ext, u64 arrival_ns, u64 *done_ns,
			 enum sim_outcome *outcome)
{
	struct ssd_request req = { .fua = false };
	struct flat_iter fi;
	int ret;

	sim_extent_request(run, rec, ext, arrival_ns, &fi, &req);
	if (!run->pass && belady_records(run->o, rec) &&
	    belady_seq_add(&run->seq, ext->offset_bytes / run->page_bytes,
			   (ext->offset_bytes + ext->length_bytes - 1) / run->page_bytes -
			   ext->offset_bytes / run->page_bytes + 1, rec->op == SSDEMU_OP_WRITE))
		return out_of_memory();
	ret = ssd_device_submit(run->dev, &req, done_ns);
	/*
	 * A media error (read errors, --inject) fails the request, counted;
	 * the trace goes on (-EIO).  End of life (bad_block_ppm,
	 * grown_bad_ppm): the replay goes on, reads are served, writes and
	 * TRIMs are refused and counted (host_write_refused_pages).  Neither
	 * has a latency nor a completion record: they are counted beside.
	 */
	if (ret == -EROFS) {
		*outcome = SIM_REFUSED;
		if (!run->read_only_request) {
			run->read_only_request = run->tr.line;
			msg_say("ssdsim: %s:%lu: the device turned read-only (end of life: no spare block left); later writes and TRIMs are refused and counted\n",
				run->o->trace_path, run->tr.line);
		}
		return 0;
	}
	if (ret && ret != -EIO) {
		msg_say("ssdsim: %s:%lu: request failed: %s\n", run->o->trace_path,
			run->tr.line, strerror(-ret));
		return -1;
	}
	if (ret && *outcome == SIM_COMPLETED)
		*outcome = SIM_FAILED;
	return 0;
}

/*
 * --completions: one line per host request of the measured pass that
 * completed, however many extents the remap made of it (sim_place.h): the
 * device offset of its first extent, the bytes of all of them, its
 * arrival and the completion of its last.  One extent (no remap, or none
 * needed): the request as the device was given it, the `ssdctl log` line.
 * A failed or refused request has none (it is counted, never timed).
 */
static void print_completion(struct sim_run *run, const struct ssdemu_log_entry *entry)
{
	if (run->completions && run->pass == run->o->warmup)
		log_entry_print(run->completions, entry);
}

/* --iodepth: the heap's smallest completion out. */
static u64 loop_pop(struct sim_loop *l)
{
	u64 top = l->done_ns[0], last = l->done_ns[--l->count];
	u32 i = 0, child;

	while ((child = 2 * i + 1) < l->count) {
		if (child + 1 < l->count && l->done_ns[child + 1] < l->done_ns[child])
			child++;
		if (last <= l->done_ns[child])
			break;
		l->done_ns[i] = l->done_ns[child];
		i = child;
	}
	if (l->count)
		l->done_ns[i] = last;
	return top;
}

static void loop_push(struct sim_loop *l, u64 done_ns)
{
	u32 i = l->count++, parent;

	while (i && l->done_ns[parent = (i - 1) / 2] > done_ns) {
		l->done_ns[i] = l->done_ns[parent];
		i = parent;
	}
	l->done_ns[i] = done_ns;
}

/*
 * When the request arrives: at the trace's time (open loop; times
 * --time-scale), or with
 * --iodepth N when one of the N outstanding completes (the earliest; the
 * first N at the pass's start), as fio keeps N in flight.
 */
static u64 arrival_of(struct sim_run *run, const struct trace_record *rec)
{
	struct sim_loop *l = &run->loop;

	if (!run->o->iodepth && run->o->time_scale == 1.0)
		return rec->arrival_ns + run->offset_ns;
	if (!run->o->iodepth)
		return (u64)((double)rec->arrival_ns * run->o->time_scale) + run->offset_ns;
	if (l->count == run->o->iodepth)
		l->next_ns = max_t(u64, l->next_ns, loop_pop(l));
	return l->next_ns;
}

/* The counters, latencies and report start again (the device's state kept). */
static void reset_measurement(struct sim_run *run)
{
	ssd_device_reset_stats(run->dev);
	sim_report_free(&run->report);
	memset(&run->report, 0, sizeof(run->report));
	sim_trend_reset(&run->trend);
	run->requests = 0;
}

/* --measure-from: whether the window begins with this request. */
static void maybe_open_window(struct sim_run *run, u64 arrival_ns)
{
	const struct sim_options *o = run->o;
	struct sim_window *w = &run->window;

	if (w->started || run->pass != o->warmup)
		return;
	if (!run->pass_requests)
		run->pass_start_ns = arrival_ns;
	if (o->measure_set && (o->measure_is_time ?
			       arrival_ns - run->pass_start_ns < o->measure_from :
			       run->pass_requests < o->measure_from))
		return;
	if (run->pass_requests)
		reset_measurement(run);
	w->started = true;
	w->last_completion_ns = 0;
	w->from_request = run->pass_requests;
	w->from_ns = arrival_ns;
	w->from_pass_ns = arrival_ns - run->pass_start_ns;
}

/* The data of write @rec placed in @pl, as the data store keeps it. */
int sim_make_data(struct sim_run *run, const struct trace_record *rec,
		  const struct sim_placing *pl, u64 seed)
{
	u64 len = pl->end_bytes - pl->start_bytes;

	switch (run->store) {
	case SSD_DATA_BYTES:
		sim_fill_data(run->buf, pl->start_bytes, len, run->page_bytes, rec->content_hash,
			      seed);
		return 0;
	case SSD_DATA_DIGEST:
		/* Without dedup no counter reads content: an approximate id is harmless. */
		if (!sim_fill_ids(run->buf, len, rec->content_hash, seed) || !run->content_counts)
			return 0;
		if (run->o->trace_path)
			msg_say("ssdsim: %s:%lu: ", run->o->trace_path, run->tr.line);
		else
			msg_say("ssdsim: request %llu: ",
				(unsigned long long)run->requests + 1);
		msg_say("a sector holds the data of two content hashes (a request widened to whole logical blocks?), which data_store=digest cannot describe with dedup=1 (use --data)\n");
		return -1;
	default:
		return 0;
	}
}

/*
 * --power-cut-at: the power is cut before this request and comes back at
 * once with the durable state; what was lost is said and counted
 * (power_cuts, power_cut_lost_pages).
 */
static void power_cut(struct sim_run *run)
{
	u64 lost = 0;
	int ret = ssd_device_power_cut(run->dev, &lost);

	ssd_device_power_restore(run->dev);
	msg_say("ssdsim: power cut before request %llu: %llu acknowledged pages lost%s\n",
		(unsigned long long)run->o->power_cut_at, (unsigned long long)lost,
		ret ? " (the drain to flash failed)" : "");
}

/* Replay one trace record: placed, filled, submitted extent by extent. */
static int replay(struct sim_run *run, const struct trace_record *rec)
{
	struct sim_report *r = &run->report;
	struct ssdemu_log_entry entry;
	enum sim_outcome outcome = SIM_COMPLETED;
	u64 done_ns, last_ns = 0, arrival_ns;
	struct sim_placing pl;
	struct sim_extent ext;
	int ret;

	/*
	 * After --from or --fill, times relative to the trace's first
	 * request start after everything the device did; a request log's
	 * are already in the device's own time.
	 */
	if (run->shift_pending) {
		run->shift_pending = false;
		if (run->tr.format != TRACE_SSDEMU)
			run->offset_ns = ssd_device_virtual_time_ns(run->dev) + 1;
	}
	if (!run->pass)
		run->records++;
	/* A data request without data: nothing for the device to do. */
	if (rec->length_bytes == 0 && rec->op != SSDEMU_OP_FLUSH) {
		if (!r->zero_length_requests++)
			msg_say("ssdsim: %s:%lu: zero-length request skipped (the others are counted)\n",
				run->o->trace_path, run->tr.line);
		return 0;
	}
	r->span_bytes = max_t(u64, r->span_bytes, rec->offset_bytes + rec->length_bytes);
	sim_place_begin(&run->place, rec, &pl);
	/* A TRIM of less than one whole logical block: nothing to do. */
	if (pl.start_bytes == pl.end_bytes && rec->op != SSDEMU_OP_FLUSH) {
		r->zero_length_requests++;
		return 0;
	}
	if (run->o->power_cut_at && run->pass == run->o->warmup &&
	    run->pass_requests + 1 == run->o->power_cut_at)
		power_cut(run);
	if (sim_reserve_buffer(run, pl.end_bytes - pl.start_bytes))
		return -1;
	arrival_ns = arrival_of(run, rec);
	maybe_open_window(run, arrival_ns);
	entry.op = rec->op;
	entry.length_bytes = 0;
	while ((ret = sim_place_next(&run->place, &pl, &ext)) > 0) {
		if (pl.extents == 1 && rec->op == SSDEMU_OP_WRITE &&
		    sim_make_data(run, rec, &pl, ext.offset_bytes ^ (run->requests << 40)))
			return -1;
		if (submit_extent(run, rec, &ext, arrival_ns, &done_ns, &outcome))
			return -1;
		last_ns = max_t(u64, last_ns, done_ns);
		arrival_ns = ssd_device_last_arrival_ns(run->dev);
		if (!entry.length_bytes) {
			entry.arrival_ns = arrival_ns;
			entry.offset_bytes = ext.offset_bytes;
		}
		entry.length_bytes += ext.length_bytes;
	}
	if (ret < 0)
		return out_of_memory();
	if (!pl.extents) {
		r->unmapped_trims++;
		return 0;
	}
	if (outcome == SIM_COMPLETED) {
		entry.completion_ns = last_ns;
		print_completion(run, &entry);
	}
	if (run->o->iodepth)
		loop_push(&run->loop, last_ns);
	r->wrapped_requests += pl.wrapped;
	r->split_requests += pl.extents > 1;
	if (sim_report_latency(r, rec->op, outcome, last_ns - arrival_ns))
		return out_of_memory();
	if (outcome == SIM_COMPLETED)
		sim_trend_add(&run->trend, last_ns - arrival_ns);
	run->window.last_arrival_ns = arrival_ns;
	run->window.last_completion_ns = max_t(u64, run->window.last_completion_ns, last_ns);
	run->requests++;
	run->pass_requests++;
	if (!(++run->requests_all & 1023) && run->progress.on) {
		u64 done, total;

		trace_progress(&run->tr, &done, &total);
		sim_progress_tick(&run->progress, run->requests_all, run->pass, done, total);
	}
	return 0;
}

/* The FLUSH that ends a pass, with its last request (see the top). */
static int final_flush(struct sim_run *run)
{
	struct ssd_request req = {
		.op = SSD_OP_FLUSH,
		.arrival_ns = max_t(u64, ssd_device_last_arrival_ns(run->dev), run->offset_ns),
	};
	u64 done_ns;
	int ret = ssd_device_submit(run->dev, &req, &done_ns);

	if (ret)
		msg_say("ssdsim: the final flush failed: %s\n", strerror(-ret));
	return ret ? -1 : 0;
}

/* A chosen disk the trace does not hold is an error. */
static int check_disk_found(struct sim_run *run)
{
	char name[48];

	if (!run->o->disk.set || trace_disks_requests(&run->tr.disks, run->tr.disk_device))
		return 0;
	trace_disk_spec_name(&run->o->disk, name, sizeof(name));
	msg_say("ssdsim: --disk %s: %s has no request of that disk; it holds ", name,
		run->o->trace_path);
	sim_list_disks(&run->tr.disks);
	msg_say("\n");
	return -1;
}

/*
 * A trace without requests is not an error (the statistics of nothing
 * are printed), but said; one whose every request was skipped is.
 */
static int check_first_pass(struct sim_run *run)
{
	const struct sim_report *r = &run->report;

	if (check_disk_found(run))
		return -1;
	if (run->pass_requests)
		return 0;
	if (!run->records) {
		msg_say("ssdsim: warning: %s holds no requests (%lu lines read): the statistics are of an idle device\n",
			run->o->trace_path, run->tr.line);
		return 0;
	}
	msg_say("ssdsim: %s: none of its %llu requests reached the device (%llu of no data or trims of no whole block, %llu trims of nothing remapped): check the format (--format) and the units\n",
		run->o->trace_path, (unsigned long long)run->records,
		(unsigned long long)r->zero_length_requests, (unsigned long long)r->unmapped_trims);
	return -1;
}

/* A pass begins: its clock, the closed loop's and the window's state. */
static void begin_pass(struct sim_run *run)
{
	run->pass_requests = 0;
	run->loop.count = 0;
	/* The closed loop starts after everything the device did. */
	run->loop.next_ns = ssd_device_virtual_time_ns(run->dev) ?
			    ssd_device_virtual_time_ns(run->dev) + 1 : 0;
	memset(&run->window, 0, sizeof(run->window));
	if (run->pass == run->o->warmup) {
		/* The measured pass: the warm-up's counters go. */
		if (run->o->warmup)
			reset_measurement(run);
		sim_trend_reset(&run->trend);
	}
}

/* Every pass of the trace, the last one measured. */
static int replay_passes(struct sim_run *run)
{
	const struct sim_options *o = run->o;
	struct trace_record rec;
	int ret;

	for (run->pass = 0; run->pass <= o->warmup; run->pass++) {
		if (run->pass) {
			trace_close(&run->tr);
			if (sim_trace_open(&run->tr, o))
				return -1;
			/* Each pass arrives after everything of the one before. */
			run->offset_ns = ssd_device_virtual_time_ns(run->dev) + 1;
		}
		begin_pass(run);
		while ((ret = trace_next(&run->tr, &rec)) > 0)
			if (replay(run, &rec))
				return -1;
		if (ret < 0)
			return -1;
		if (!run->pass && check_first_pass(run))
			return -1;
		if (o->final_flush && final_flush(run))
			return -1;
	}
	if (o->measure_set && !run->window.started) {
		msg_say("ssdsim: --measure-from: the measured pass ended before it (%llu requests, %.3f s of arrivals): nothing measured\n",
			(unsigned long long)run->pass_requests,
			(run->window.last_arrival_ns - run->pass_start_ns) / 1e9);
		return -1;
	}
	return 0;
}

/* --fill: see sim_run.h. */
int sim_fill_device(struct sim_run *run, const struct ssd_config *cfg)
{
	struct sim_age_spec spec = { .fill = run->o->fill, .bs = cfg->logical_block_bytes };

	if (sim_age_run(run->dev, cfg->logical_block_bytes, &spec, run->o->seed,
			run->o->final_flush, &run->fill))
		return -1;
	ssd_device_reset_stats(run->dev);
	run->filled = true;
	run->shift_pending = true;
	msg_say("ssdsim: --fill %g: %llu bytes written sequentially (%llu requests); the counters were reset after it, as after --warmup\n",
		run->o->fill, (unsigned long long)run->fill.fill_bytes,
		(unsigned long long)run->fill.requests);
	return 0;
}

/*
 * The remap's unit (sim_remap.h): the erase block unless --remap-unit
 * says the page or bytes, a multiple of the page.  A unit smaller than
 * the one the FTL maps by scatters what it maps together: warned.
 */
static int set_remap_unit(struct sim_run *run, const struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	u64 map_unit_bytes = (u64)ssd_device_map_unit_pages(cfg) * run->page_bytes;
	u64 unit;

	if (!o->remap_dense)
		return 0;
	switch (o->remap_unit) {
	case SIM_REMAP_UNIT_ERASE_BLOCK:
		unit = cfg->pages_per_block * run->page_bytes;
		break;
	case SIM_REMAP_UNIT_PAGE:
		unit = run->page_bytes;
		break;
	default:
		unit = o->remap_unit_bytes;
		break;
	}
	if (unit % run->page_bytes) {
		msg_say("ssdsim: --remap-unit %llu refused: not a multiple of the page size, %u bytes\n",
			(unsigned long long)unit, run->page_bytes);
		return -1;
	}
	if (unit < map_unit_bytes)
		msg_say("ssdsim: warning: the remap packs units of %llu bytes (--remap-unit %s) into a device whose FTL maps %llu bytes at a time (ftl_type=%s): pages the trace kept apart share its blocks and pages it kept together are scattered, so merges and WAF are the remap's, not the trace's.  Leave --remap-unit at its default, erase-block.\n",
			(unsigned long long)unit, sim_remap_unit_name(o->remap_unit),
			(unsigned long long)map_unit_bytes, ssd_config_choice_name(cfg, "ftl_type"));
	run->place.unit_bytes = unit;
	return 0;
}

/* Replay the trace, every pass, and print the results. */
int sim_replay_trace(struct sim_run *run, struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	int ret;

	if (set_remap_unit(run, cfg) || sim_trace_open(&run->tr, o))
		return -1;
	if (o->completions_path) {
		run->completions = fopen(o->completions_path, "w");
		if (!run->completions) {
			msg_perror(o->completions_path);
			return -1;
		}
	}
	if (o->iodepth) {
		run->loop.done_ns = calloc(o->iodepth, sizeof(*run->loop.done_ns));
		if (!run->loop.done_ns)
			return out_of_memory();
	}
	sim_progress_start(&run->progress, o->progress, o->warmup + 1);
	ret = replay_passes(run);
	sim_progress_end(&run->progress);
	if (ret)
		return -1;
	if (run->completions) {
		ret = fclose(run->completions);
		run->completions = NULL;
		if (ret) {
			msg_perror(o->completions_path);
			return -1;
		}
	}
	if (o->check && ssd_device_check(run->dev)) {
		msg_say("ssdsim: FTL consistency check failed\n");
		return -1;
	}
	return sim_end_replay(run, cfg);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim - replays a block trace through the userspace build of the same
 * firmware core the kernel module runs, and prints the same statistics as
 * `ssdctl stats`.
 *
 *   ssdsim [--config FILE] [key=value ...] [--format auto|mqsim|fiu|ssdemu|blkparse]
 *          [--disk N|MAJOR,MINOR] [--remap none|dense] [--remap-unit BYTES]
 *          [--json] [--check] [--completions FILE] [--warmup N] [--belady]
 *          [--no-final-flush] TRACE
 *
 * --warmup N replays the trace N times before the measured pass (the
 * ProCache paper's warmup-N), arrival times shifted past the previous
 * pass, and resets the statistics before it.  --belady adds the off-line
 * bound of the write cache (belady.h) for a cache of cache_capacity_pages
 * (cache_pages if the cache is off), with the same warm-up, beside the
 * online policy's write hit ratio.
 *
 * Each pass ends with a FLUSH, as a host's final sync would: it arrives
 * with the pass's last request, is timed and counted as a host flush
 * (host_flush_count, commands), and drains what a layer holds back (the
 * dedup write buffer) before the statistics are read or reset.
 * --no-final-flush leaves it out, to replay a device's own request log
 * against the counters the device reported without one.
 *
 * --disk replays one disk of a trace that holds several (mqsim numbers
 * them, blkparse and fiu name them major,minor); the report lists the
 * disks with their requests.  Placement (sim_place.h): a request covers
 * the logical blocks it touches; addresses beyond the device wrap around
 * its capacity (MQSim does the same), counted, and a warning on stderr
 * says how many and what to do; --remap dense packs the (disk, unit)s the
 * trace touches into the device in first-touch order instead (unit: the
 * page, or --remap-unit bytes), so a trace fits if its touched units do.
 * Data requests of length zero are skipped and counted.
 *
 * Snapshots (sim_snapshot.h, host-tools/SSDSIM.md): --from FILE makes the
 * device from a snapshot, its configuration included (key=value may change
 * keys that do not shape it; --config is refused), and the replay goes on
 * from its state: counters and clock continue (--reset-stats zeroes the
 * counters, not the state), and a trace whose times are relative to its
 * first request (all but an ssdemu request log) starts after the
 * snapshot's last completion.  --save FILE writes the device at the end,
 * after the final FLUSH; a device that cannot be saved is refused before
 * the replay.  --age SPEC (sim_age.h) preconditions the device instead of
 * replaying a trace, with --seed; without a trace, --from and --age print
 * the device's statistics.
 *
 * --list-keys prints every configuration key with its default and help, as
 * the kernel's configfs `features` attribute does.
 *
 * --completions writes each request the device was given (a remapped
 * request split in pieces gives one line a piece; the final FLUSH is not
 * one of the trace's and is left out) with its arrival and modeled
 * completion time, in the format of `ssdctl log`: replaying a kernel
 * request log with the same configuration must reproduce it line for line.
 *
 * Besides the device's statistics, the output has the read and write
 * latency distributions, the trace and the configuration (sim_report.h).
 * Written data comes from sim_data.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "host-tools/belady.h"
#include "host-tools/flat_iter.h"
#include "host-tools/log_format.h"
#include "host-tools/sim_age.h"
#include "host-tools/sim_data.h"
#include "host-tools/sim_options.h"
#include "host-tools/sim_place.h"
#include "host-tools/sim_report.h"
#include "host-tools/sim_snapshot.h"
#include "device/ssd_device.h"
#include "abi/ssd_abi.h"
#include "host-tools/stats_print.h"
#include "host-tools/trace_reader.h"

/* One replay: the device, the trace and what is gathered on the way. */
struct sim_run {
	const struct sim_options *o;
	struct ssd_device *dev;
	struct trace_reader tr;
	struct sim_place place;
	struct sim_report report;
	struct belady_seq seq;
	FILE *completions;
	unsigned char *buf;
	u64 buf_bytes;
	u64 requests;			/* of the trace, in this pass */
	u64 offset_ns;			/* added to this pass's arrival times */
	u32 page_bytes;
	unsigned int pass;
	bool shift_pending;		/* --from: start after the snapshot's clock */
};

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* The write cache's figures: online hit ratio, and the off-line bound. */
static void print_cache_text(const struct ssd_stats *st, unsigned int warmup, int belady,
			     u64 capacity, u64 hits, u64 writes)
{
	printf("%-28s %u\n", "warmup_passes", warmup);
	printf("%-28s %.6f\n", "cache_write_hit_ratio",
	       ratio(st->cache_write_hit_pages, st->host_write_pages));
	if (!belady)
		return;
	printf("%-28s %llu\n", "belady_capacity_pages", (unsigned long long)capacity);
	printf("%-28s %llu\n", "belady_write_pages", (unsigned long long)writes);
	printf("%-28s %llu\n", "belady_write_hit_pages", (unsigned long long)hits);
	printf("%-28s %.6f\n", "belady_write_hit_ratio", ratio(hits, writes));
}

static void print_cache_json(const struct ssd_stats *st, unsigned int warmup, int belady,
			     u64 capacity, u64 hits, u64 writes)
{
	printf(",\n  \"warmup_passes\": %u", warmup);
	printf(",\n  \"cache_write_hit_ratio\": %.6f",
	       ratio(st->cache_write_hit_pages, st->host_write_pages));
	if (!belady)
		return;
	printf(",\n  \"belady\": {\"capacity_pages\": %llu, \"write_pages\": %llu, "
	       "\"write_hit_pages\": %llu, \"write_hit_ratio\": %.6f}",
	       (unsigned long long)capacity, (unsigned long long)writes,
	       (unsigned long long)hits, ratio(hits, writes));
}

static int out_of_memory(void)
{
	fprintf(stderr, "ssdsim: out of memory\n");
	return -1;
}

/* A buffer for @bytes of request data. */
static int reserve_buffer(struct sim_run *run, u64 bytes)
{
	if (bytes <= run->buf_bytes)
		return 0;
	free(run->buf);
	run->buf_bytes = bytes;
	run->buf = malloc(bytes);
	return run->buf ? 0 : out_of_memory();
}

/* Give the device one extent of @rec; *@done_ns is when it completes. */
static int submit_extent(struct sim_run *run, const struct trace_record *rec,
			 const struct sim_extent *ext, u64 *done_ns)
{
	struct ssdemu_log_entry entry;
	struct ssd_request req;
	struct flat_iter fi;
	int ret;

	flat_iter_init(&fi, run->buf + ext->source_bytes);
	/* enum ssdemu_log_op and enum ssd_op number the operations alike. */
	req.op = (enum ssd_op)rec->op;
	req.offset_bytes = ext->offset_bytes;
	req.length_bytes = ext->length_bytes;
	req.arrival_ns = rec->arrival_ns + run->offset_ns;
	req.data = &fi.it;
	if (run->o->belady && !run->pass && rec->op == SSDEMU_OP_WRITE &&
	    belady_seq_add(&run->seq, ext->offset_bytes / run->page_bytes,
			   (ext->offset_bytes + ext->length_bytes - 1) / run->page_bytes -
			   ext->offset_bytes / run->page_bytes + 1))
		return out_of_memory();
	ret = ssd_device_submit(run->dev, &req, done_ns);
	if (ret) {
		fprintf(stderr, "ssdsim: %s:%lu: request failed: %s\n", run->o->trace_path,
			run->tr.line, strerror(-ret));
		return -1;
	}
	if (run->completions && run->pass == run->o->warmup) {
		entry.arrival_ns = ssd_device_last_arrival_ns(run->dev);
		entry.completion_ns = *done_ns;
		entry.op = rec->op;
		entry.offset_bytes = ext->offset_bytes;
		entry.length_bytes = ext->length_bytes;
		log_entry_print(run->completions, &entry);
	}
	return 0;
}

/* Replay one trace record: placed, filled, submitted extent by extent. */
static int replay(struct sim_run *run, const struct trace_record *rec)
{
	struct sim_report *r = &run->report;
	u64 done_ns, last_ns = 0, arrival_ns = 0;
	struct sim_placing pl;
	struct sim_extent ext;
	int ret;

	/*
	 * After --from, times relative to the trace's first request start
	 * after everything the snapshot's device did; a request log's are
	 * already in the device's own time.
	 */
	if (run->shift_pending) {
		run->shift_pending = false;
		if (run->tr.format != TRACE_SSDEMU)
			run->offset_ns = ssd_device_virtual_time_ns(run->dev) + 1;
	}
	/* A data request without data: nothing for the device to do. */
	if (rec->length_bytes == 0 && rec->op != SSDEMU_OP_FLUSH) {
		if (!r->zero_length_requests++)
			fprintf(stderr, "ssdsim: %s:%lu: zero-length request skipped (the others are counted)\n",
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
	if (reserve_buffer(run, pl.end_bytes - pl.start_bytes))
		return -1;
	while ((ret = sim_place_next(&run->place, &pl, &ext)) > 0) {
		if (pl.extents == 1 && rec->op == SSDEMU_OP_WRITE)
			sim_fill_data(run->buf, pl.start_bytes, pl.end_bytes - pl.start_bytes,
				      run->page_bytes, rec->content_hash,
				      ext.offset_bytes ^ (run->requests << 40));
		if (submit_extent(run, rec, &ext, &done_ns))
			return -1;
		last_ns = max_t(u64, last_ns, done_ns);
		arrival_ns = ssd_device_last_arrival_ns(run->dev);
	}
	if (ret < 0)
		return out_of_memory();
	if (!pl.extents) {
		r->unmapped_trims++;
		return 0;
	}
	r->wrapped_requests += pl.wrapped;
	r->split_requests += pl.extents > 1;
	if (sim_report_latency(r, rec->op, last_ns - arrival_ns))
		return out_of_memory();
	run->requests++;
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
		fprintf(stderr, "ssdsim: the final flush failed: %s\n", strerror(-ret));
	return ret ? -1 : 0;
}

/* The disks as "0 (437 requests), 1 (461 requests), ..." on stderr. */
static void list_disks(const struct trace_disks *disks)
{
	char name[48];
	size_t i;

	for (i = 0; i < disks->count; i++) {
		trace_disk_name(disks->pair, disks->v[i].device, name, sizeof(name));
		fprintf(stderr, "%s%s (%llu requests)", i ? ", " : "", name,
			(unsigned long long)disks->v[i].requests);
	}
}

/* A chosen disk the trace does not hold is an error. */
static int check_disk_found(struct sim_run *run)
{
	char name[48];

	if (!run->o->disk.set || trace_disks_requests(&run->tr.disks, run->o->disk.device))
		return 0;
	trace_disk_name(run->o->disk.pair, run->o->disk.device, name, sizeof(name));
	fprintf(stderr, "ssdsim: --disk %s: %s has no request of that disk; it holds ", name,
		run->o->trace_path);
	list_disks(&run->tr.disks);
	fprintf(stderr, "\n");
	return -1;
}

/* @bytes in MiB or GiB, for messages. */
static void human(u64 bytes, char *buf, size_t size)
{
	if (bytes >= (1ULL << 30))
		snprintf(buf, size, "%.1f GiB", (double)bytes / (1ULL << 30));
	else
		snprintf(buf, size, "%.1f MiB", (double)bytes / (1ULL << 20));
}

/* Say on stderr when the trace's addresses were bent to fit the device. */
static void warn_placement(const struct sim_run *run)
{
	const struct sim_report *r = &run->report;
	char cap[32], span[32], footprint[32];
	const char *one_disk = run->o->disk.set ? "" : "replay one disk with --disk, or ";

	human(run->place.capacity_bytes, cap, sizeof(cap));
	human(r->span_bytes, span, sizeof(span));
	human(r->remap_footprint_bytes, footprint, sizeof(footprint));
	if (r->wrapped_requests && !r->remap_dense)
		fprintf(stderr, "ssdsim: warning: %llu of %llu requests lay beyond the device's %s (the trace spans %s) and wrapped around it: rewrites, cache hits and GC are then the wrap's, not the trace's.  Pack the touched addresses with --remap dense, %suse a larger device.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, span, one_disk);
	else if (r->wrapped_requests)
		fprintf(stderr, "ssdsim: warning: %llu of %llu requests wrapped around the device's %s: the units the trace touches take %s even packed (--remap dense).  %s.\n",
			(unsigned long long)r->wrapped_requests, (unsigned long long)r->requests,
			cap, footprint, run->o->disk.set ? "Use a larger device" :
			"Replay one disk with --disk, or use a larger device");
	if (!run->o->disk.set && !r->remap_dense && run->tr.disks.count > 1) {
		fprintf(stderr, "ssdsim: warning: the trace holds %zu disks, replayed into one address space (their requests share addresses): ",
			run->tr.disks.count);
		list_disks(&run->tr.disks);
		fprintf(stderr, ".  Replay one with --disk, or keep them apart with --remap dense.\n");
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
			if (trace_open(&run->tr, o->trace_path, o->format))
				return -1;
			trace_select_disk(&run->tr, &o->disk);
			/* Each pass arrives after everything of the one before. */
			run->offset_ns = ssd_device_virtual_time_ns(run->dev) + 1;
		}
		if (run->pass == o->warmup && o->warmup) {
			ssd_device_reset_stats(run->dev);
			sim_report_free(&run->report);
			memset(&run->report, 0, sizeof(run->report));
			run->requests = 0;
		}
		while ((ret = trace_next(&run->tr, &rec)) > 0)
			if (replay(run, &rec))
				return -1;
		if (ret < 0)
			return -1;
		if (!run->pass && check_disk_found(run))
			return -1;
		if (o->final_flush && final_flush(run))
			return -1;
	}
	return 0;
}

/* Statistics, the report and the write cache's figures on stdout. */
static int print_results(struct sim_run *run, const struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct sim_report *r = &run->report;
	u64 belady_hits = 0, belady_capacity = 0;
	struct ssdemu_stats st;
	struct ssd_stats core_st;

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (o->belady) {
		belady_capacity = core_st.cache_capacity_pages ? core_st.cache_capacity_pages :
				  cfg->cache_pages;
		if (belady_write_hits(&run->seq, belady_capacity, o->warmup, &belady_hits))
			return out_of_memory();
	}
	r->requests = run->requests;
	r->trace_path = o->trace_path;
	r->trace_format = trace_format_name(run->tr.format);
	r->disks = &run->tr.disks;
	r->disk = o->disk;
	r->remap_dense = o->remap_dense;
	r->remap_unit_bytes = run->place.unit_bytes;
	r->remap_footprint_bytes = sim_place_footprint_bytes(&run->place);
	r->final_flush = o->final_flush;
	if (o->json) {
		stats_print_json_fields(stdout, &st);
		sim_report_print_json(stdout, r, cfg);
		print_cache_json(&core_st, o->warmup, o->belady, belady_capacity, belady_hits,
				 run->seq.count);
		printf("\n}\n");
	} else {
		stats_print_text(stdout, &st);
		sim_report_print_text(stdout, r, cfg);
		print_cache_text(&core_st, o->warmup, o->belady, belady_capacity, belady_hits,
				 run->seq.count);
	}
	warn_placement(run);
	return 0;
}

/* The remap's unit: the page unless given, and a multiple of it. */
static int set_remap_unit(struct sim_run *run)
{
	u64 unit = run->o->remap_unit_bytes ? run->o->remap_unit_bytes : run->page_bytes;

	if (!run->o->remap_dense)
		return 0;
	if (unit % run->page_bytes) {
		fprintf(stderr, "ssdsim: --remap-unit %llu refused: not a multiple of the page size, %u bytes\n",
			(unsigned long long)unit, run->page_bytes);
		return -1;
	}
	run->place.unit_bytes = unit;
	return 0;
}

static int list_keys(void)
{
	struct ssd_config cfg;

	ssd_config_defaults(&cfg);
	for (unsigned int k = 0; k < ssd_config_nr_keys; k++) {
		char value[64], help[256];

		ssd_config_show(&cfg, &ssd_config_keys[k], value, sizeof(value));
		value[strcspn(value, "\n")] = '\0';
		ssd_config_describe(&ssd_config_keys[k], help, sizeof(help));
		printf("%s\t%s\t%s\n", ssd_config_keys[k].name, value, help);
	}
	return 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Made from the configuration, or loaded from --from (into @cfg). */
static int make_device(struct sim_run *run, struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct timespec t0;
	u64 bytes;
	double s;

	if (!o->from_path) {
		if (ssd_device_create(&run->dev, cfg)) {
			fprintf(stderr, "ssdsim: configuration refused\n");
			return -1;
		}
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sim_snapshot_load(o->from_path, o->keys, o->nr_keys, cfg, &run->dev, &bytes))
		return -1;
	s = seconds_since(&t0);
	fprintf(stderr, "ssdsim: loaded %s: %llu bytes in %.3f s (%.1f MB/s)\n", o->from_path,
		(unsigned long long)bytes, s, s > 0 ? bytes / s / 1e6 : 0.0);
	if (o->reset_stats)
		ssd_device_reset_stats(run->dev);
	run->shift_pending = true;
	return 0;
}

static int save_device(struct sim_run *run, struct sim_save *save)
{
	struct timespec t0;
	u64 bytes;
	double s;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sim_save_commit(save, run->dev, &bytes))
		return -1;
	s = seconds_since(&t0);
	fprintf(stderr, "ssdsim: saved %s: %llu bytes in %.3f s (%.1f MB/s)\n", run->o->save_path,
		(unsigned long long)bytes, s, s > 0 ? bytes / s / 1e6 : 0.0);
	return 0;
}

/* The device's statistics alone, then what aging did (@age, if any). */
static void print_device(struct sim_run *run, const struct sim_age_result *age)
{
	struct ssdemu_stats st;
	struct ssd_stats core_st;

	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(run->dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (run->o->json) {
		stats_print_json_fields(stdout, &st);
		if (age)
			sim_age_print_json(stdout, age);
		printf("\n}\n");
	} else {
		stats_print_text(stdout, &st);
		if (age)
			sim_age_print_text(stdout, age);
	}
}

/* Replay the trace, every pass, and print the results. */
static int replay_trace(struct sim_run *run, struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;

	if (set_remap_unit(run) || trace_open(&run->tr, o->trace_path, o->format))
		return -1;
	trace_select_disk(&run->tr, &o->disk);
	if (o->completions_path) {
		run->completions = fopen(o->completions_path, "w");
		if (!run->completions) {
			perror(o->completions_path);
			return -1;
		}
	}
	if (replay_passes(run))
		return -1;
	if (run->completions) {
		int ret = fclose(run->completions);

		run->completions = NULL;
		if (ret) {
			perror(o->completions_path);
			return -1;
		}
	}
	if (o->check && ssd_device_check(run->dev)) {
		fprintf(stderr, "ssdsim: FTL consistency check failed\n");
		return -1;
	}
	return print_results(run, cfg);
}

/* --age: precondition the device and print what it did. */
static int age_device(struct sim_run *run, const struct ssd_config *cfg,
		      const struct sim_age_spec *spec)
{
	struct sim_age_result res;

	if (sim_age_run(run->dev, cfg->logical_block_bytes, spec, run->o->seed, &res))
		return -1;
	if (run->o->check && ssd_device_check(run->dev)) {
		fprintf(stderr, "ssdsim: FTL consistency check failed\n");
		return -1;
	}
	print_device(run, &res);
	return 0;
}

int main(int argc, char **argv)
{
	struct sim_save save = { 0 };
	struct sim_age_spec age;
	struct sim_options o;
	struct ssd_config cfg;
	struct sim_run run;
	int status;

	if (argc == 2 && !strcmp(argv[1], "--list-keys"))
		return list_keys();
	ssd_config_defaults(&cfg);
	status = sim_options_parse(argc, argv, &cfg, &o);
	if (!status && o.age_spec && sim_age_parse(o.age_spec, &age))
		status = 1;
	if (status) {
		sim_options_free(&o);
		return status;
	}
	status = 1;
	memset(&run, 0, sizeof(run));
	run.o = &o;
	if (make_device(&run, &cfg))
		goto out;
	run.page_bytes = ssd_device_page_bytes(run.dev);
	run.place.capacity_bytes = ssd_device_capacity_bytes(run.dev);
	run.place.block_bytes = cfg.logical_block_bytes;
	/* A device that cannot be saved is refused before the work. */
	if (o.save_path && (sim_snapshot_probe(run.dev) || sim_save_open(&save, o.save_path)))
		goto out;
	if (o.age_spec) {
		if (age_device(&run, &cfg, &age))
			goto out;
	} else if (o.trace_path) {
		if (replay_trace(&run, &cfg))
			goto out;
	} else {
		if (o.check && ssd_device_check(run.dev)) {
			fprintf(stderr, "ssdsim: FTL consistency check failed\n");
			goto out;
		}
		print_device(&run, NULL);
	}
	if (o.save_path && save_device(&run, &save))
		goto out;
	status = 0;
out:
	sim_save_abort(&save);
	trace_close(&run.tr);
	if (run.completions)
		fclose(run.completions);
	belady_seq_free(&run.seq);
	sim_report_free(&run.report);
	sim_place_free(&run.place);
	free(run.buf);
	if (run.dev)
		ssd_device_destroy(run.dev);
	sim_options_free(&o);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim - replays a block trace through the userspace build of the same
 * firmware core the kernel module runs, and prints the same statistics as
 * `ssdctl stats`.
 *
 *   ssdsim [--config FILE] [key=value ...] [--format FORMAT (docs/trace-formats.md)]
 *          [--disk N|MAJOR,MINOR|HOST_N] [--remap none|dense]
 *          [--remap-unit erase-block|page|BYTES]
 *          [--json] [--check] [--completions FILE] [--warmup N] [--belady]
 *          [--no-final-flush] [--data] [--fill F] [--measure-from N|TIME]
 *          [--iodepth N | --time-scale F]
 *          [--fields A,B [--csv]] [--verbose] [--progress|--no-progress] TRACE
 *
 * The instrument (docs/ssdsim.md is the cookbook): --fill F fills the
 * device sequentially to F of its logical capacity before the trace, then
 * resets the counters; --measure-from N (requests) or TIME (30s, 500ms)
 * resets counters and latencies at that point of the measured pass, the
 * device's state kept (JSON: run.window); --iodepth N replays closed-loop,
 * N requests in flight, the trace's times ignored (--time-scale F
 * stretches them instead); an open-loop replay whose queue keeps growing
 * is warned about (run.saturated).  The text
 * output is a one-screen summary (sim_summary.h), --verbose every counter,
 * --json everything, --fields names chosen values of the JSON (lines, or
 * one CSV row with --csv).  A progress line is drawn on a terminal.
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
 * them, blkparse and fiu name them major,minor, msr HOST_N); the report lists the
 * disks with their requests.  Placement (sim_place.h): a request covers
 * the logical blocks it touches; addresses beyond the device wrap around
 * its capacity (MQSim does the same), counted, and a warning on stderr
 * says how many and what to do; --remap dense packs the (disk, unit)s the
 * trace touches into the device in first-touch order instead (unit: the
 * erase block, which keeps the trace's layout inside each block a
 * block-mapped FTL maps; --remap-unit page or bytes), so a trace fits if
 * its touched units do.  A unit smaller than the FTL's is warned about.
 * Data requests of length zero are skipped and counted.
 *
 * Snapshots (sim_snapshot.h, tools/ssdsim/README.md): --from FILE makes the
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
 * The device keeps no page bytes unless --data (or data_store=bytes) asks
 * for them: a digest of each page when dedup is on or the trace carries
 * content hashes, nothing otherwise (sim_store.h); the counters are the
 * same in every mode.
 *
 * --list-keys prints every configuration key grouped by layer, with its
 * default, range and help (sim_keys.h); --list-keys --json and
 * --list-keys --tsv (name, default, help a line, the old form) are for
 * programs.  A key=value that has no effect in the configuration (a cache
 * size without a cache policy) is warned about on stderr.
 *
 * --completions writes a line per request of the trace the device
 * completed (the final FLUSH is not one of the trace's and is left out)
 * with its arrival and modeled completion time, in the format of `ssdctl
 * log`: replaying a kernel request log with the same configuration must
 * reproduce it line for line.  A request the remap split in pieces is one
 * line too: the first piece's offset, the length of all of them, the
 * completion of the last (sim_replay.c).
 *
 * Besides the device's statistics, the result has the read and write
 * latency distributions, the trace and the configuration (sim_result.h).
 * Written data comes from sim_data.h.  This file makes the device and
 * decides what the run does; the replay and its end are sim_run.h's, the
 * printing sim_print.h's (the command line's alone: libssdsim.so runs the
 * same with no stdout and hands the result over, ssdsim_api.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/ssdsim/sim_age.h"
#include "tools/ssdsim/sim_keys.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_snapshot.h"
#include "tools/ssdsim/sim_store.h"
#include "tools/ssdsim/ssdsim_main.h"
#include "tools/msg/msg.h"

/* --list-keys [--json|--tsv]: the keys into @res, on @out: -1 if @argv is not that. */
static int list_keys(int argc, char **argv, FILE *out, struct sim_result *res)
{
	enum sim_keys_form form;

	if (argc < 2 || strcmp(argv[1], "--list-keys") || argc > 3)
		return -1;
	if (argc == 2)
		form = SIM_KEYS_TEXT;
	else if (!strcmp(argv[2], "--json"))
		form = SIM_KEYS_JSON;
	else if (!strcmp(argv[2], "--tsv"))
		form = SIM_KEYS_TSV;
	else
		return -1;
	res->kind = SIM_RESULT_KEYS;
	sim_keys_values(&res->values);
	if (res->values.failed) {
		msg_say("ssdsim: out of memory\n");
		return 1;
	}
	if (out)
		sim_keys_print(out, form, &res->values);
	return 0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static int make_device_only(struct sim_run *run, struct ssd_config *cfg);

/* --inject: the commands, in order, on the device just made. */
static int apply_injects(struct sim_run *run)
{
	const struct sim_options *o = run->o;
	struct ssd_inject_list list = { 0 };
	int i;

	if (!o->nr_injects)
		return 0;
	for (i = 0; i < o->nr_injects; i++) {
		if (ssd_inject_command(&list, o->injects[i], ssd_device_capacity_bytes(run->dev),
				       "ssdsim")) {
			msg_say("ssdsim: --inject '%s' refused\n", o->injects[i]);
			return -1;
		}
	}
	ssd_device_set_inject(run->dev, &list);
	return 0;
}

/* Made from the configuration, or loaded from --from (into @cfg). */
static int make_device(struct sim_run *run, struct ssd_config *cfg)
{
	int ret = make_device_only(run, cfg);

	return ret ? ret : apply_injects(run);
}

static int make_device_only(struct sim_run *run, struct ssd_config *cfg)
{
	const struct sim_options *o = run->o;
	struct timespec t0;
	u64 bytes;
	double s;

	if (!o->from_path) {
		if (sim_store_choose(o, cfg))
			return -1;
		if (ssd_device_create(&run->dev, cfg)) {
			msg_say("ssdsim: configuration refused\n");
			return -1;
		}
		if (o->bad_blocks && ssd_device_mark_bad_list(run->dev, o->bad_blocks)) {
			msg_say("ssdsim: --bad-blocks '%s' refused\n", o->bad_blocks);
			return -1;
		}
		return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (sim_snapshot_load(o->from_path, o->keys, o->nr_keys, cfg, &run->dev, &bytes))
		return -1;
	s = seconds_since(&t0);
	msg_say("ssdsim: loaded %s: %llu bytes in %.3f s (%.1f MB/s)\n", o->from_path,
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
	msg_say("ssdsim: saved %s: %llu bytes in %.3f s (%.1f MB/s)\n", run->o->save_path,
		(unsigned long long)bytes, s, s > 0 ? bytes / s / 1e6 : 0.0);
	return 0;
}

/* --age: precondition the device and print what it did. */
static int age_device(struct sim_run *run, const struct ssd_config *cfg,
		      const struct sim_age_spec *spec)
{
	struct sim_age_result res;

	if (sim_age_run(run->dev, cfg->logical_block_bytes, spec, run->o->seed,
			run->o->final_flush, &res))
		return -1;
	if (run->o->check && ssd_device_check(run->dev)) {
		msg_say("ssdsim: FTL consistency check failed\n");
		return -1;
	}
	return sim_end_device(run, cfg, &res);
}

int ssdsim_main(int argc, char **argv, FILE *out, struct sim_result *res)
{
	struct sim_save save = { 0 };
	struct sim_age_spec age;
	struct sim_options o;
	struct ssd_config cfg;
	struct sim_run run;
	int status;

	status = list_keys(argc, argv, out, res);
	if (status >= 0)
		return status;
	ssd_config_defaults(&cfg);
	status = sim_options_parse(argc, argv, &cfg, &o);
	if (!status && o.age_spec && sim_age_parse(o.age_spec, &age))
		status = 1;
	if (status) {
		sim_options_free(&o);
		return status;
	}
	/* A progress line is the command line's: the library prints nothing. */
	if (!out)
		o.progress = 0;
	status = 1;
	memset(&run, 0, sizeof(run));
	run.o = &o;
	run.out = out;
	run.result = res;
	if (make_device(&run, &cfg))
		goto out;
	sim_keys_warn_inert(&cfg, o.keys, o.nr_keys);
	run.page_bytes = ssd_device_page_bytes(run.dev);
	run.store = ssd_device_data_store(run.dev);
	run.content_counts = cfg.dedup;
	if (o.data && run.store != SSD_DATA_BYTES) {
		msg_say("ssdsim: --data refused: the snapshot's device keeps data_store=%s\n",
			ssd_config_choice_name(&cfg, "data_store"));
		goto out;
	}
	run.place.capacity_bytes = ssd_device_capacity_bytes(run.dev);
	run.place.block_bytes = cfg.logical_block_bytes;
	/* A device that cannot be saved is refused before the work. */
	if (o.save_path && (sim_snapshot_probe(run.dev) || sim_save_open(&save, o.save_path)))
		goto out;
	if (o.age_spec) {
		if (age_device(&run, &cfg, &age))
			goto out;
	} else if (o.trace_path) {
		if (sim_check_fields(&run, &cfg))
			goto out;
		if (o.fill && sim_fill_device(&run, &cfg))
			goto out;
		if (sim_replay_trace(&run, &cfg))
			goto out;
	} else {
		if (o.check && ssd_device_check(run.dev)) {
			msg_say("ssdsim: FTL consistency check failed\n");
			goto out;
		}
		if (sim_end_device(&run, &cfg, NULL))
			goto out;
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
	free(run.loop.done_ns);
	sim_report_free(&run.report);
	sim_place_free(&run.place);
	free(run.buf);
	if (run.dev)
		ssd_device_destroy(run.dev);
	sim_options_free(&o);
	return status;
}

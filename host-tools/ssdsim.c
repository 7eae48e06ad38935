// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim - replays a block trace through the userspace build of the same
 * firmware core the kernel module runs, and prints the same statistics as
 * `ssdctl stats`.
 *
 *   ssdsim [--config FILE] [key=value ...] [--format auto|mqsim|fiu|ssdemu|blkparse]
 *          [--json] [--check] [--completions FILE] [--warmup N] [--belady] TRACE
 *
 * --warmup N replays the trace N times before the measured pass (the
 * ProCache paper's warmup-N), arrival times shifted past the previous
 * pass, and resets the statistics before it.  --belady adds the off-line
 * bound of the write cache (belady.h) for a cache of cache_capacity_pages
 * (cache_pages if the cache is off), with the same warm-up, beside the
 * online policy's write hit ratio.
 *
 * --list-keys prints every configuration key with its default and help, as
 * the kernel's configfs `features` attribute does.
 *
 * --completions writes each request with its arrival and modeled completion
 * time, in the format of `ssdctl log`: replaying a kernel request log with
 * the same configuration must reproduce it line for line.
 *
 * A request covers every logical block it touches; addresses beyond the
 * device wrap around its capacity (MQSim does the same), and are counted.
 * Data requests of length zero are skipped and counted.  Besides the
 * device's statistics, the output has the read and write latency
 * distributions, the trace and the configuration (sim_report.h).  Written data is derived
 * from the trace's content hashes when it has them, else from the offset
 * and the request number.  Each MD5 of an FIU trace covers its share of
 * the request (a 4 KiB block for mail, a 512-byte sector for homes), and
 * the byte at offset p of a page is md5[p % 16] ^ pattern(p), with one
 * fixed pattern for all pages: the same MD5 at the same place in a page
 * gives the same bytes, and different MD5s differ in every 16 bytes, so
 * at every offset the dedup filter may sample.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/belady.h"
#include "host-tools/conf_file.h"
#include "host-tools/flat_iter.h"
#include "host-tools/log_format.h"
#include "host-tools/sim_report.h"
#include "device/ssd_device.h"
#include "abi/ssd_abi.h"
#include "host-tools/stats_print.h"
#include "host-tools/trace_reader.h"

static int usage(void)
{
	fprintf(stderr, "usage: ssdsim [--config FILE] [key=value ...] "
		"[--format auto|mqsim|fiu|ssdemu|blkparse] [--json] [--check] "
		"[--completions FILE] [--warmup N] [--belady] TRACE\n"
		"       ssdsim --list-keys\n");
	return 2;
}

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	if (ssd_config_set(ctx, key, value)) {
		fprintf(stderr, "ssdsim: %s: %s=%s refused\n", where, key, value);
		return -1;
	}
	return 0;
}

static u64 splitmix(u64 *state)
{
	u64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The pattern every page is masked with: byte @pos of it. */
static unsigned char pattern_byte(u64 pos)
{
	u64 state = pos / 8;

	return (unsigned char)(splitmix(&state) >> (8 * (pos % 8)));
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 0;
}

/*
 * Fill @len bytes for a write at byte @offset: one chunk per hash in
 * @hashes (32 hex digits each, spread evenly over the request), byte p of
 * a page (of @page_bytes) being md5[p % 16] ^ pattern(p); or a pattern from
 * @fallback_seed.
 */
static void fill_data(unsigned char *buf, u64 offset, u64 len, u32 page_bytes,
		      const char *hashes, u64 fallback_seed)
{
	size_t nr_hashes = hashes ? strlen(hashes) / 32 : 0;
	u64 chunk = nr_hashes ? len / nr_hashes : len;
	unsigned char md5[16];
	u64 pos, state = fallback_seed;
	int i;

	if (!chunk)
		chunk = len;
	if (!nr_hashes) {
		for (pos = 0; pos < len; pos += 8) {
			u64 word = splitmix(&state);

			memcpy(buf + pos, &word, len - pos < 8 ? len - pos : 8);
		}
		return;
	}
	for (pos = 0; pos < len; pos++) {
		u64 in_page = (offset + pos) % page_bytes;

		if (pos % chunk == 0 && pos / chunk < nr_hashes) {
			const char *hex = hashes + 32 * (pos / chunk);

			for (i = 0; i < 16; i++)
				md5[i] = hex_digit(hex[2 * i]) << 4 | hex_digit(hex[2 * i + 1]);
		}
		buf[pos] = md5[in_page % 16] ^ pattern_byte(in_page);
	}
}

/*
 * Fold a trace request into the device: a read or write covers every
 * logical block it touches (a request that straddles blocks covers all of
 * them); a TRIM only the blocks it covers whole, so it never discards data
 * it did not name (it may become empty).  An address beyond the capacity
 * wraps around it; clip.  Returns 1 if it wrapped.
 */
static int place(const struct ssd_config *cfg, const struct ssd_device *dev,
		 struct trace_record *rec)
{
	u64 unit = cfg->logical_block_bytes, cap = ssd_device_capacity_bytes(dev);
	u64 first = rec->offset_bytes, last = rec->offset_bytes + rec->length_bytes;
	u64 start, end, len, off;

	if (rec->op == SSDEMU_OP_TRIM) {
		start = (first + unit - 1) / unit * unit;
		end = last / unit * unit;
		if (end < start)
			end = start;
	} else {
		start = first / unit * unit;
		end = (last + unit - 1) / unit * unit;
	}
	len = end - start;
	off = start % cap;

	if (len > cap)
		len = cap;
	if (off + len > cap)
		off = cap - len;
	rec->offset_bytes = off;
	rec->length_bytes = len;
	return end > cap;
}

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

int main(int argc, char **argv)
{
	enum trace_format format = TRACE_AUTO;
	const char *trace_path = NULL, *completions_path = NULL;
	FILE *completions = NULL;
	unsigned char *buf = NULL;
	u64 buf_bytes = 0, requests = 0;
	struct trace_reader tr;
	struct trace_record rec;
	struct sim_report report = { 0 };
	struct ssdemu_stats st;
	struct ssd_stats core_st;
	struct ssd_device *dev;
	struct ssd_config cfg;
	int json = 0, check = 0, belady = 0, status = 1, ret, i;
	unsigned int warmup = 0, pass;
	u32 page_bytes;
	u64 offset_ns = 0, belady_hits = 0, belady_capacity = 0;
	struct belady_seq seq = { 0 };

	ssd_config_defaults(&cfg);
	if (argc == 2 && !strcmp(argv[1], "--list-keys")) {
		for (unsigned int k = 0; k < ssd_config_nr_keys; k++) {
			char value[64], help[256];

			ssd_config_show(&cfg, &ssd_config_keys[k], value, sizeof(value));
			value[strcspn(value, "\n")] = '\0';
			ssd_config_describe(&ssd_config_keys[k], help, sizeof(help));
			printf("%s\t%s\t%s\n", ssd_config_keys[k].name, value, help);
		}
		return 0;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			if (conf_file_read(argv[++i], set_pair, &cfg))
				return 1;
		} else if (!strcmp(argv[i], "--format") && i + 1 < argc) {
			if (trace_parse_format(argv[++i], &format))
				return usage();
		} else if (!strcmp(argv[i], "--completions") && i + 1 < argc) {
			completions_path = argv[++i];
		} else if (!strcmp(argv[i], "--json")) {
			json = 1;
		} else if (!strcmp(argv[i], "--warmup") && i + 1 < argc) {
			warmup = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--belady")) {
			belady = 1;
		} else if (!strcmp(argv[i], "--check")) {
			check = 1;
		} else if (strchr(argv[i], '=')) {
			if (conf_pair_arg(argv[i], set_pair, &cfg))
				return 1;
		} else if (!trace_path && argv[i][0] != '-') {
			trace_path = argv[i];
		} else {
			return usage();
		}
	}
	if (!trace_path)
		return usage();
	if (ssd_device_create(&dev, &cfg)) {
		fprintf(stderr, "ssdsim: configuration refused\n");
		return 1;
	}
	page_bytes = ssd_device_page_bytes(dev);
	if (trace_open(&tr, trace_path, format)) {
		ssd_device_destroy(dev);
		return 1;
	}
	if (completions_path) {
		completions = fopen(completions_path, "w");
		if (!completions) {
			perror(completions_path);
			goto out;
		}
	}

	for (pass = 0; pass <= warmup; pass++) {
		if (pass) {
			trace_close(&tr);
			if (trace_open(&tr, trace_path, format))
				goto out_closed;
			/* Each pass arrives after everything of the one before. */
			offset_ns = ssd_device_virtual_time_ns(dev) + 1;
		}
		if (pass == warmup && warmup) {
			ssd_device_reset_stats(dev);
			sim_report_free(&report);
			memset(&report, 0, sizeof(report));
			requests = 0;
		}
		while ((ret = trace_next(&tr, &rec)) > 0) {
			struct flat_iter fi;
			struct ssdemu_log_entry done;
			struct ssd_request req;
			u64 done_ns;

			/* A data request without data: nothing for the device to do. */
			if (rec.length_bytes == 0 && rec.op != SSDEMU_OP_FLUSH) {
				if (!report.zero_length_requests++)
					fprintf(stderr, "ssdsim: %s:%lu: zero-length request skipped (the others are counted)\n",
						trace_path, tr.line);
				continue;
			}
			report.wrapped_requests += place(&cfg, dev, &rec);
			/* A TRIM of less than one whole logical block: nothing to do. */
			if (rec.length_bytes == 0 && rec.op != SSDEMU_OP_FLUSH) {
				report.zero_length_requests++;
				continue;
			}
			if (rec.length_bytes > buf_bytes) {
				free(buf);
				buf_bytes = rec.length_bytes;
				buf = malloc(buf_bytes);
				if (!buf) {
					fprintf(stderr, "ssdsim: out of memory\n");
					goto out;
				}
			}
			if (rec.op == SSDEMU_OP_WRITE)
				fill_data(buf, rec.offset_bytes, rec.length_bytes, page_bytes,
					  rec.content_hash, rec.offset_bytes ^ (requests << 40));
			flat_iter_init(&fi, buf);
			/* enum ssdemu_log_op and enum ssd_op number the operations alike. */
			req.op = (enum ssd_op)rec.op;
			req.offset_bytes = rec.offset_bytes;
			req.length_bytes = rec.length_bytes;
			req.arrival_ns = rec.arrival_ns + offset_ns;
			if (belady && !pass && rec.op == SSDEMU_OP_WRITE &&
			    belady_seq_add(&seq, rec.offset_bytes / page_bytes,
					   (rec.offset_bytes + rec.length_bytes - 1) / page_bytes -
					   rec.offset_bytes / page_bytes + 1)) {
				fprintf(stderr, "ssdsim: out of memory\n");
				goto out;
			}
			req.data = &fi.it;
			ret = ssd_device_submit(dev, &req, &done_ns);
			if (ret) {
				fprintf(stderr, "ssdsim: %s:%lu: request failed: %s\n", trace_path,
					tr.line, strerror(-ret));
				goto out;
			}
			if (sim_report_latency(&report, rec.op, done_ns - ssd_device_last_arrival_ns(dev))) {
				fprintf(stderr, "ssdsim: out of memory\n");
				goto out;
			}
			if (completions && pass == warmup) {
				done.arrival_ns = ssd_device_last_arrival_ns(dev);
				done.completion_ns = done_ns;
				done.op = rec.op;
				done.offset_bytes = rec.offset_bytes;
				done.length_bytes = rec.length_bytes;
				log_entry_print(completions, &done);
			}
			requests++;
		}
		if (ret < 0)
			goto out;
	}
	if (completions) {
		ret = fclose(completions);
		completions = NULL;
		if (ret) {
			perror(completions_path);
			goto out;
		}
	}
	if (check && ssd_device_check(dev)) {
		fprintf(stderr, "ssdsim: FTL consistency check failed\n");
		goto out;
	}
	memset(&st, 0, sizeof(st));
	ssd_device_get_stats(dev, &core_st);
	ssd_stats_to_uapi(&core_st, &st);
	if (belady) {
		u64 capacity = core_st.cache_capacity_pages ? core_st.cache_capacity_pages :
			       cfg.cache_pages;

		if (belady_write_hits(&seq, capacity, warmup, &belady_hits)) {
			fprintf(stderr, "ssdsim: out of memory\n");
			goto out;
		}
		belady_capacity = capacity;
	}
	report.requests = requests;
	report.trace_path = trace_path;
	report.trace_format = trace_format_name(tr.format);
	if (json) {
		stats_print_json_fields(stdout, &st);
		sim_report_print_json(stdout, &report, &cfg);
		print_cache_json(&core_st, warmup, belady, belady_capacity, belady_hits,
				 seq.count);
		printf("\n}\n");
	} else {
		stats_print_text(stdout, &st);
		sim_report_print_text(stdout, &report, &cfg);
		print_cache_text(&core_st, warmup, belady, belady_capacity, belady_hits,
				 seq.count);
	}
	status = 0;
out:
	trace_close(&tr);
out_closed:
	if (completions)
		fclose(completions);
	belady_seq_free(&seq);
	sim_report_free(&report);
	free(buf);
	ssd_device_destroy(dev);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * simspeed.c - the speed of the core's request path alone, no trace and
 * no data: a device built from key=value pairs (and configs/ *.conf
 * files) is filled to a utilisation by sequential page writes, then takes
 * N random single-page writes over the filled range, so the FTL
 * overwrites and GC runs.  The data iterator copies nothing (the page
 * buffers keep whatever they held).  Prints requests per second of the
 * random phase, peak RSS per logical page, the counters that show the
 * work done (GC, WAF), and a digest of every completion time and of the
 * final counters, so two builds can be shown to model the same thing.
 *
 *   simspeed [--conf FILE]... [--fill PCT] [--requests N] [--seed S]
 *            [--interarrival-ns NS] [--json] [key=value]...
 *
 * The bench section `simspeed` (bench/simspeed.py) runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "common/ssd_rand.h"
#include "device/ssd_device.h"
#include "tools/report/conf_file.h"

struct speed_options {
	u64 fill_percent;
	u64 requests;
	u64 seed;
	u64 interarrival_ns;
	bool json;
};

static void noop_copy_in(struct ssd_data_iter *it, void *dst, u32 len)
{
}

static void noop_copy_out(struct ssd_data_iter *it, const void *src, u32 len)
{
}

static struct ssd_data_iter noop_iter = {
	.copy_in = noop_copy_in,
	.copy_out = noop_copy_out,
};

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	int ret = ssd_config_set(ctx, key, value);

	if (ret)
		fprintf(stderr, "simspeed: %s: %s = %s: %s\n", where, key, value,
			ret == -ENOENT ? "unknown key" : "bad value");
	return ret;
}

/*
 * CPU time of this thread: the machine may be shared, and the figure is
 * the speed of one core.
 */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* FNV-1a over 64-bit words: a digest of what the model computed. */
static u64 digest_add(u64 h, u64 v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

static int write_page(struct ssd_device *dev, u64 lpn, u64 arrival_ns, u64 *done_ns)
{
	u32 page_bytes = ssd_device_page_bytes(dev);
	struct ssd_request req = {
		.op = SSD_OP_WRITE,
		.offset_bytes = lpn * page_bytes,
		.length_bytes = page_bytes,
		.arrival_ns = arrival_ns,
		.data = &noop_iter,
	};
	int ret = ssd_device_submit(dev, &req, done_ns);

	if (ret)
		fprintf(stderr, "simspeed: write of page %llu failed: %s\n",
			(unsigned long long)lpn, strerror(-ret));
	return ret;
}

/*
 * The measured phase, a function of its own so a profiler can count it
 * alone (valgrind --tool=callgrind --toggle-collect=random_writes).
 */
static __attribute__((noinline)) int random_writes(struct ssd_device *dev,
						   const struct speed_options *o,
						   u64 fill_pages, u64 arrival_ns, u64 *times)
{
	struct ssd_rand rnd;
	u64 i, done_ns;

	ssd_rand_seed(&rnd, o->seed);
	for (i = 0; i < o->requests; i++, arrival_ns += o->interarrival_ns) {
		/* The top 32 bits scaled to [0, fill_pages): no division. */
		u64 lpn = ((ssd_rand_next(&rnd) >> 32) * fill_pages) >> 32;

		if (write_page(dev, lpn, arrival_ns, &done_ns))
			return -1;
		*times = digest_add(*times, done_ns);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: simspeed [--conf FILE]... [--fill PCT] [--requests N] "
		"[--seed S] [--interarrival-ns NS] [--json] [key=value]...\n");
	return 2;
}

static int parse_u64(const char *s, u64 *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	*out = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct ssd_config *cfg, struct speed_options *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		}
		if (!strcmp(a, "--conf")) {
			if (!v || conf_file_read(v, set_pair, cfg))
				return usage();
		} else if (!strcmp(a, "--fill")) {
			if (parse_u64(v, &o->fill_percent) || o->fill_percent > 100)
				return usage();
		} else if (!strcmp(a, "--requests")) {
			if (parse_u64(v, &o->requests))
				return usage();
		} else if (!strcmp(a, "--seed")) {
			if (parse_u64(v, &o->seed))
				return usage();
		} else if (!strcmp(a, "--interarrival-ns")) {
			if (parse_u64(v, &o->interarrival_ns))
				return usage();
		} else if (a[0] != '-' && strchr(a, '=')) {
			if (conf_pair_arg(a, set_pair, cfg))
				return 2;
			continue;
		} else {
			return usage();
		}
		i++;
	}
	return 0;
}

/* The counters and a digest of all of them. */
static u64 stats_digest(const struct ssd_stats *st)
{
	u64 h = 0xcbf29ce484222325ULL;

#define DIGEST_FIELD(name) h = digest_add(h, st->name);
	SSD_STATS_FIELDS(DIGEST_FIELD)
#undef DIGEST_FIELD
	return h;
}

/*
 * Peak RSS of this program: VmHWM (getrusage()'s figure also counts what
 * the process that started it held before its exec).
 */
static long peak_rss_kb(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	if (kb < 0) {
		struct rusage ru;

		getrusage(RUSAGE_SELF, &ru);
		kb = ru.ru_maxrss;
	}
	return kb;
}

int main(int argc, char **argv)
{
	struct speed_options o = { .fill_percent = 80, .requests = 1000000, .seed = 1 };
	u64 logical_pages, fill_pages, i, arrival_ns = 0, done_ns, times = 0xcbf29ce484222325ULL;
	double fill_s, t0, run_s;
	struct ssd_device *dev;
	struct ssd_stats st;
	struct ssd_config cfg;
	int ret;

	ssd_config_defaults(&cfg);
	ssd_config_set_name(&cfg, "simspeed");
	ret = parse_args(argc, argv, &cfg, &o);
	if (ret)
		return ret;
	ret = ssd_device_create(&dev, &cfg);
	if (ret) {
		fprintf(stderr, "simspeed: cannot create the device: %s\n", strerror(-ret));
		return 1;
	}
	logical_pages = ssd_device_capacity_bytes(dev) / ssd_device_page_bytes(dev);
	fill_pages = logical_pages * o.fill_percent / 100;
	if (!fill_pages) {
		fprintf(stderr, "simspeed: --fill %llu%% of %llu pages is no page\n",
			(unsigned long long)o.fill_percent, (unsigned long long)logical_pages);
		return 1;
	}
	t0 = now_s();
	for (i = 0; i < fill_pages; i++, arrival_ns += o.interarrival_ns)
		if (write_page(dev, i, arrival_ns, &done_ns))
			return 1;
	fill_s = now_s() - t0;

	t0 = now_s();
	if (random_writes(dev, &o, fill_pages, arrival_ns, &times))
		return 1;
	run_s = now_s() - t0;
	ssd_device_get_stats(dev, &st);
	if (o.json) {
		printf("{\"requests\": %llu, \"seconds\": %.6f, \"requests_per_s\": %.0f, "
		       "\"fill_pages\": %llu, \"fill_seconds\": %.6f, \"logical_pages\": %llu, "
		       "\"peak_rss_kb\": %ld, \"rss_bytes_per_logical_page\": %.1f, "
		       "\"metadata_bytes\": %llu, \"gc_relocated_pages\": %llu, "
		       "\"gc_victim_blocks\": %llu, \"flash_program_pages\": %llu, "
		       "\"host_write_pages\": %llu, \"cache_write_hit_pages\": %llu, "
		       "\"cache_admit_pages\": %llu, \"cache_capacity_pages\": %llu, "
		       "\"virtual_time_ns\": %llu, "
		       "\"completion_digest\": \"%016llx\", \"stats_digest\": \"%016llx\"}\n",
		       (unsigned long long)o.requests, run_s, o.requests / run_s,
		       (unsigned long long)fill_pages, fill_s, (unsigned long long)logical_pages,
		       peak_rss_kb(), peak_rss_kb() * 1024.0 / logical_pages,
		       (unsigned long long)ssd_device_metadata_bytes(dev),
		       (unsigned long long)st.gc_relocated_pages,
		       (unsigned long long)st.gc_victim_blocks,
		       (unsigned long long)st.flash_program_pages,
		       (unsigned long long)st.host_write_pages,
		       (unsigned long long)st.cache_write_hit_pages,
		       (unsigned long long)st.cache_admit_pages,
		       (unsigned long long)st.cache_capacity_pages,
		       (unsigned long long)st.virtual_time_ns, (unsigned long long)times,
		       (unsigned long long)stats_digest(&st));
	} else {
		printf("fill: %llu pages in %.3f s\n", (unsigned long long)fill_pages, fill_s);
		printf("random 4 KiB writes: %llu in %.3f s = %.0f requests/s\n",
		       (unsigned long long)o.requests, run_s, o.requests / run_s);
		printf("peak RSS: %ld KiB = %.1f bytes per logical page (%llu pages)\n",
		       peak_rss_kb(), peak_rss_kb() * 1024.0 / logical_pages,
		       (unsigned long long)logical_pages);
		printf("GC: %llu pages relocated from %llu blocks; WAF %.3f; cache hits %llu, admits %llu\n",
		       (unsigned long long)st.gc_relocated_pages,
		       (unsigned long long)st.gc_victim_blocks,
		       st.host_write_pages ?
		       (double)st.flash_program_pages / st.host_write_pages : 0.0,
		       (unsigned long long)st.cache_write_hit_pages,
		       (unsigned long long)st.cache_admit_pages);
		printf("completion digest %016llx, stats digest %016llx\n",
		       (unsigned long long)times, (unsigned long long)stats_digest(&st));
	}
	ret = ssd_device_check(dev);
	ssd_device_destroy(dev);
	if (ret) {
		fprintf(stderr, "simspeed: the consistency check failed\n");
		return 1;
	}
	return 0;
}

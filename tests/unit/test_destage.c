// SPDX-License-Identifier: GPL-2.0
/*
 * test_destage.c - the write cache's background destage
 * (cache_destage_high_percent, cache_destage_low_percent):
 *
 *  - writes 20 ms apart (idle chips between them): once the cache holds
 *    the high watermark, the next command finds it written back to the
 *    low one; no foreground destage is left, every write takes the time
 *    of a plain SLC write (the destage ran in the gaps and delayed
 *    nothing), while with the key off the same writes destage in the
 *    foreground and take longer; data reads back, counters add up;
 *  - a burst (every write at time 0, the chips booked ahead) leaves no
 *    idle chip: nothing is destaged in the background and every counter
 *    and completion time equals the run with the key off;
 *  - the same request sequence gives the same counters and times;
 *  - a TRIM of cached pages is counted (cache_trim_pages);
 *  - a low watermark not below the high one is refused.
 */
#include "unit.h"
#include "nvmcache/nvmcache_internal.h"

#define DESTAGE_GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", \
	"channels=2", "op_percent=15", "slc_blocks_per_chip=8", "cache_policy=always", \
	"cache_pages=32"
#define WRITES		40
#define GAP_NS		20000000ULL

static struct nvmcache *cache_of(struct ssd_device *dev)
{
	struct ssd_layer *layer = unit_layer(dev, "nvmcache");

	EXPECT(layer, "no cache layer in the stack");
	return (struct nvmcache *)layer;
}

static struct ssd_device *make_cache(const char *high, const char *low)
{
	const char *const s[] = { DESTAGE_GEOMETRY, high, low };

	return make_device(s, ARRAY_SIZE(s));
}

/* Write page @lpn, filled with @fill, arriving at @arrival_ns; its latency. */
static u64 write_at(struct ssd_device *dev, u64 lpn, u8 fill, u64 arrival_ns)
{
	static u8 page[4096];
	struct flat_iter fi;
	struct ssd_request req = {
		.op = SSD_OP_WRITE, .offset_bytes = lpn * 4096, .length_bytes = 4096,
		.arrival_ns = arrival_ns, .data = &fi.it,
	};
	u64 done_ns;

	memset(page, fill, sizeof(page));
	flat_iter_init(&fi, page);
	EXPECT(ssd_device_submit(dev, &req, &done_ns) == 0, "write of lpn %llu",
	       (unsigned long long)lpn);
	return done_ns - arrival_ns;
}

static void expect_data(struct ssd_device *dev, u32 pages)
{
	static u8 page[4096];
	u32 lpn, i;

	for (lpn = 0; lpn < pages; lpn++) {
		EXPECT(submit(dev, SSD_OP_READ, (u64)lpn * 4096, 4096, page) == 0, "read");
		for (i = 0; i < 4096; i++)
			EXPECT(page[i] == (u8)(lpn + 1), "lpn %u reads 0x%02x", lpn, page[i]);
	}
}

/* Destage by kind adds up to the evictions and to the destage programs. */
static void expect_destage_counters(struct ssd_device *dev, struct ssd_stats *st)
{
	ssd_device_get_stats(dev, st);
	EXPECT(st->cache_destage_foreground_pages + st->cache_destage_background_pages ==
	       st->cache_evict_pages, "foreground %llu + background %llu != evicted %llu",
	       (unsigned long long)st->cache_destage_foreground_pages,
	       (unsigned long long)st->cache_destage_background_pages,
	       (unsigned long long)st->cache_evict_pages);
	EXPECT(st->flash_program_destage_pages == st->cache_evict_pages &&
	       st->flash_read_destage_pages == st->cache_evict_pages,
	       "destage programs %llu reads %llu, evicted %llu",
	       (unsigned long long)st->flash_program_destage_pages,
	       (unsigned long long)st->flash_read_destage_pages,
	       (unsigned long long)st->cache_evict_pages);
	EXPECT(st->cache_pages == st->slc_valid_pages, "cached %llu, SLC valid %llu",
	       (unsigned long long)st->cache_pages, (unsigned long long)st->slc_valid_pages);
	EXPECT(ssd_device_check(dev) == 0, "consistency check");
}

static void test_idle_gaps(void)
{
	struct ssd_device *on = make_cache("cache_destage_high_percent=75",
					   "cache_destage_low_percent=25");
	struct ssd_device *off = make_cache("cache_destage_high_percent=0",
					    "cache_destage_low_percent=25");
	struct nvmcache *c = cache_of(on);
	u64 lat_on[WRITES], lat_off[WRITES], sum_on = 0, sum_off = 0;
	u32 i, most = 0, after_drain = 0;
	struct ssd_stats st_on, st_off;

	EXPECT(c->destage_high == 24 && c->destage_low == 8, "watermarks %u %u",
	       c->destage_high, c->destage_low);
	EXPECT(!cache_of(off)->destage_high, "the key off still destages");
	for (i = 0; i < WRITES; i++) {
		lat_on[i] = write_at(on, i, (u8)(i + 1), i * GAP_NS);
		lat_off[i] = write_at(off, i, (u8)(i + 1), i * GAP_NS);
		sum_on += lat_on[i];
		sum_off += lat_off[i];
		most = max_t(u32, most, c->alg.dir.count);
		if (i == 24)
			after_drain = c->alg.dir.count;
	}
	/* The 25th command found 24 cached, wrote them back to 8, then entered. */
	EXPECT(most == 24 && after_drain == 9, "cached at most %u, %u after the drain",
	       most, after_drain);
	for (i = 0; i < WRITES; i++)
		EXPECT(lat_on[i] == lat_on[0], "write %u took %llu ns, a plain SLC write %llu",
		       i, (unsigned long long)lat_on[i], (unsigned long long)lat_on[0]);
	expect_destage_counters(on, &st_on);
	expect_destage_counters(off, &st_off);
	EXPECT(st_on.cache_destage_foreground_pages == 0 &&
	       st_on.cache_destage_background_pages > 0, "on: foreground %llu background %llu",
	       (unsigned long long)st_on.cache_destage_foreground_pages,
	       (unsigned long long)st_on.cache_destage_background_pages);
	EXPECT(st_off.cache_destage_background_pages == 0 &&
	       st_off.cache_destage_foreground_pages == WRITES - 32,
	       "off: foreground %llu background %llu",
	       (unsigned long long)st_off.cache_destage_foreground_pages,
	       (unsigned long long)st_off.cache_destage_background_pages);
	EXPECT(sum_on < sum_off && st_on.write_latency_ns_total == sum_on &&
	       st_off.write_latency_ns_total == sum_off,
	       "write time on %llu, off %llu", (unsigned long long)sum_on,
	       (unsigned long long)sum_off);
	expect_data(on, WRITES);
	expect_data(off, WRITES);
	printf("destage: idle gaps: background %llu foreground %llu (off: foreground %llu), write time %.3f of off\n",
	       (unsigned long long)st_on.cache_destage_background_pages,
	       (unsigned long long)st_on.cache_destage_foreground_pages,
	       (unsigned long long)st_off.cache_destage_foreground_pages,
	       (double)sum_on / sum_off);
	ssd_device_destroy(on);
	ssd_device_destroy(off);
}

/* Every write at time 0: the chips are booked ahead of each command. */
static void test_burst(void)
{
	struct ssd_device *on = make_cache("cache_destage_high_percent=75",
					   "cache_destage_low_percent=25");
	struct ssd_device *off = make_cache("cache_destage_high_percent=0",
					    "cache_destage_low_percent=25");
	struct ssd_stats st_on, st_off;
	u32 i;

	for (i = 0; i < WRITES; i++)
		EXPECT(write_at(on, i, (u8)(i + 1), 0) == write_at(off, i, (u8)(i + 1), 0),
		       "write %u: times differ without idle chips", i);
	expect_destage_counters(on, &st_on);
	expect_destage_counters(off, &st_off);
	EXPECT(st_on.cache_destage_background_pages == 0, "background destage on busy chips");
	EXPECT(!memcmp(&st_on, &st_off, sizeof(st_on)), "counters differ without idle chips");
	expect_data(on, WRITES);
	ssd_device_destroy(on);
	ssd_device_destroy(off);
}

/* Gaps of a few programs: destage interleaves with writes, the same each time. */
static void test_deterministic(void)
{
	struct ssd_device *dev[2];
	struct ssd_stats st[2];
	u64 lat[2];
	u32 i, d;

	for (d = 0; d < 2; d++)
		dev[d] = make_cache("cache_destage_high_percent=50",
				    "cache_destage_low_percent=10");
	for (i = 0; i < 4 * WRITES; i++) {
		for (d = 0; d < 2; d++)
			lat[d] = write_at(dev[d], i % 48, (u8)(i % 48 + 1), i * 300000ULL);
		EXPECT(lat[0] == lat[1], "write %u: %llu ns, then %llu ns", i,
		       (unsigned long long)lat[0], (unsigned long long)lat[1]);
	}
	for (d = 0; d < 2; d++)
		expect_destage_counters(dev[d], &st[d]);
	EXPECT(!memcmp(&st[0], &st[1], sizeof(st[0])), "same requests, other counters");
	EXPECT(st[0].cache_destage_background_pages > 0, "no background destage");
	expect_data(dev[0], 48);
	for (d = 0; d < 2; d++)
		ssd_device_destroy(dev[d]);
}

static void test_trim_counted(void)
{
	struct ssd_device *dev = make_cache("cache_destage_high_percent=0",
					    "cache_destage_low_percent=50");
	struct ssd_stats st;
	u32 i;

	for (i = 0; i < 4; i++)
		write_at(dev, i, (u8)(i + 1), 0);
	EXPECT(submit(dev, SSD_OP_TRIM, 4096, 2 * 4096, NULL) == 0, "trim");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.cache_trim_pages == 2 && st.cache_pages == 2 && st.cache_evict_pages == 0,
	       "trimmed %llu, cached %llu", (unsigned long long)st.cache_trim_pages,
	       (unsigned long long)st.cache_pages);
	ssd_device_destroy(dev);
}

static void test_refusals(void)
{
	static const char *const marks[][2] = {
		{ "cache_destage_high_percent=50", "cache_destage_low_percent=50" },
		{ "cache_destage_high_percent=50", "cache_destage_low_percent=60" },
	};
	struct ssd_config cfg;
	unsigned int v;

	ssd_log_quiet = 1;
	for (v = 0; v < ARRAY_SIZE(marks); v++) {
		const char *const s[] = { DESTAGE_GEOMETRY, marks[v][0], marks[v][1] };

		make_config(&cfg, s, ARRAY_SIZE(s));
		EXPECT(ssd_device_validate_config(&cfg) == -EINVAL, "variant %u accepted", v);
	}
	ssd_log_quiet = 0;
	{
		/* Off: the low watermark is not looked at. */
		const char *const s[] = {
			DESTAGE_GEOMETRY, "cache_destage_high_percent=0", "cache_destage_low_percent=99",
		};

		make_config(&cfg, s, ARRAY_SIZE(s));
		EXPECT(ssd_device_validate_config(&cfg) == 0, "off with low=99 refused");
	}
}

int test_destage(int argc, char **argv)
{
	test_idle_gaps();
	test_burst();
	test_deterministic();
	test_trim_counted();
	test_refusals();
	printf("destage: ok\n");
	return 0;
}

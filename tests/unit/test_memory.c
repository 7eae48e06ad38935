// SPDX-License-Identifier: GPL-2.0
/*
 * test_memory.c - the memory limit and the request loop's lock breaks:
 *
 *  - the metadata a device plans before creation is exactly what it then
 *    allocates (counted by the userspace ssd_zalloc());
 *  - geometries whose metadata exceeds memory_limit_mb, or with one table
 *    larger than one kernel allocation, are refused with -EINVAL before
 *    anything is allocated;
 *  - the data store holds (limit - metadata - buffer pool) / page_size
 *    pages: a write needing a page beyond that fails with -ENOSPC and
 *    changes nothing, overwrites still work, TRIM gives room back; a
 *    random workload checks the rule request by request against a model;
 *  - a request that gives the lock back every N pages completes at the
 *    same modeled time, with the same counters, as one that never does,
 *    and statistics taken from another thread meanwhile see a sane device.
 */
#include <pthread.h>

#include "unit.h"

#define SMALL_GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", \
	"channels=2", "op_percent=15"

/* Build a device from "key=value" strings; returns the create result. */
static int try_create(struct ssd_device **dev, const char *const *settings,
		      unsigned int count)
{
	struct ssd_config cfg;

	make_config(&cfg, settings, count);
	*dev = NULL;
	return ssd_device_create(dev, &cfg);
}

static void expect_planned_exactly(const char *const *settings, unsigned int count)
{
	u64 before = ssd_zalloc_bytes_total;
	struct ssd_device *dev;
	struct ssd_stats st;

	EXPECT(try_create(&dev, settings, count) == 0, "create refused");
	EXPECT(ssd_zalloc_bytes_total - before == dev->metadata_bytes,
	       "planned %llu bytes of metadata, allocated %llu",
	       (unsigned long long)dev->metadata_bytes,
	       (unsigned long long)(ssd_zalloc_bytes_total - before));
	ssd_device_get_stats(dev, &st);
	EXPECT(st.ftl_metadata_bytes + st.flash_metadata_bytes < dev->metadata_bytes,
	       "the tables the stats report are not in the plan");
	ssd_device_destroy(dev);
}

static void expect_refused_unallocated(const char *const *settings, unsigned int count)
{
	u64 before = ssd_zalloc_bytes_total;
	struct ssd_device *dev;

	EXPECT(try_create(&dev, settings, count) == -EINVAL, "accepted");
	EXPECT(ssd_zalloc_bytes_total == before, "allocated %llu bytes before refusing",
	       (unsigned long long)(ssd_zalloc_bytes_total - before));
}

static void test_plan_and_refusals(void)
{
	static const char *const small[] = { SMALL_GEOMETRY };
	static const char *const logged[] = { SMALL_GEOMETRY, "request_log_entries=1000",
					      "cmd_queue_depth=300" };
	static const char *const odd[] = {
		"logical_block_bytes=512", "page_size_bytes=2048", "blocks_per_chip=40",
		"chips=3", "channels=3", "op_percent=12",
	};
	/* The geometry: over the u32 page limit. */
	static const char *const huge[] = {
		"chips=1024", "channels=256", "blocks_per_chip=1048576",
		"pages_per_block=16384",
	};
	/* Under 2^32 pages, but a 32 GiB page table (and over the limit). */
	static const char *const wide[] = {
		"chips=1024", "channels=256", "blocks_per_chip=4096", "pages_per_block=1023",
		"memory_limit_mb=16777216",
	};
	/* Each table fits one allocation but for the FTL's block table. */
	static const char *const blocks[] = {
		"chips=63", "channels=63", "blocks_per_chip=1048576", "pages_per_block=4",
		"memory_limit_mb=16777216",
	};
	/* 2 GiB of metadata, every table allocatable, over a 1 GiB limit. */
	static const char *const over[] = {
		"chips=32", "channels=4", "blocks_per_chip=65536", "pages_per_block=64",
		"memory_limit_mb=1024",
	};
	static const char *const tiny_limit[] = { "memory_limit_mb=1" };
	/* DFTL's CMT, GTD and translation-block tables: a small CMT, one past the logical space. */
	static const char *const dftl[] = { SMALL_GEOMETRY, "ftl_type=dftl", "dftl_cmt_entries=100" };
	static const char *const dftl_all[] = { SMALL_GEOMETRY, "ftl_type=dftl",
						"dftl_cmt_entries=1000000000", "wl_static_threshold=5" };
	static const char *const slc_page[] = { SMALL_GEOMETRY, "slc_blocks_per_chip=8" };
	static const char *const slc_dftl[] = { SMALL_GEOMETRY, "slc_blocks_per_chip=8",
						"ftl_type=dftl" };
	/* The block-mapped FTLs' tables (block map, owners, log slots). */
	static const char *const block[] = { SMALL_GEOMETRY, "ftl_type=block" };
	static const char *const bast[] = { SMALL_GEOMETRY, "ftl_type=bast",
					    "slc_blocks_per_chip=4" };
	static const char *const fast[] = { "logical_block_bytes=512", "page_size_bytes=2048",
					    "blocks_per_chip=40", "chips=3", "channels=3",
					    "op_percent=12", "ftl_type=fast", "ftl_log_blocks=5" };
	struct ssd_device *dev;
	char limit[40];
	u64 need, mb;

	expect_planned_exactly(NULL, 0);
	expect_planned_exactly(small, ARRAY_SIZE(small));
	expect_planned_exactly(logged, ARRAY_SIZE(logged));
	expect_planned_exactly(odd, ARRAY_SIZE(odd));
	expect_planned_exactly(dftl, ARRAY_SIZE(dftl));
	expect_planned_exactly(dftl_all, ARRAY_SIZE(dftl_all));
	/* Room the page FTL has, but not beside DFTL's translation blocks: refused, nothing allocated. */
	expect_planned_exactly(slc_page, ARRAY_SIZE(slc_page));
	ssd_log_quiet = 1;
	expect_refused_unallocated(slc_dftl, ARRAY_SIZE(slc_dftl));
	ssd_log_quiet = 0;
	expect_planned_exactly(block, ARRAY_SIZE(block));
	expect_planned_exactly(bast, ARRAY_SIZE(bast));
	expect_planned_exactly(fast, ARRAY_SIZE(fast));

	ssd_log_quiet = 1;
	expect_refused_unallocated(huge, ARRAY_SIZE(huge));
	expect_refused_unallocated(wide, ARRAY_SIZE(wide));
	expect_refused_unallocated(blocks, ARRAY_SIZE(blocks));
	expect_refused_unallocated(over, ARRAY_SIZE(over));
	expect_refused_unallocated(tiny_limit, ARRAY_SIZE(tiny_limit));
	ssd_log_quiet = 0;

	/* 0: half of the RAM.  The smallest limit that fits is accepted. */
	EXPECT(try_create(&dev, NULL, 0) == 0, "defaults refused");
	EXPECT(dev->memory_limit_bytes == ssd_total_ram_bytes() / 2,
	       "limit %llu, RAM %llu", (unsigned long long)dev->memory_limit_bytes,
	       (unsigned long long)ssd_total_ram_bytes());
	need = dev->metadata_bytes + (SSD_PAGEPOOL_SPARE + 1) * dev->page_bytes;
	ssd_device_destroy(dev);
	mb = (need + (1 << 20) - 1) >> 20;
	snprintf(limit, sizeof(limit), "memory_limit_mb=%llu", (unsigned long long)mb);
	{
		const char *const fits[] = { limit };

		EXPECT(try_create(&dev, fits, 1) == 0, "%s refused, needs %llu bytes", limit,
		       (unsigned long long)need);
		EXPECT(dev->data_limit_pages ==
		       ((mb << 20) - dev->metadata_bytes) / dev->page_bytes - SSD_PAGEPOOL_SPARE,
		       "data pages %llu", (unsigned long long)dev->data_limit_pages);
		ssd_device_destroy(dev);
		snprintf(limit, sizeof(limit), "memory_limit_mb=%llu", (unsigned long long)mb - 1);
		ssd_log_quiet = 1;
		EXPECT(try_create(&dev, fits, 1) == -EINVAL, "%s accepted", limit);
		ssd_log_quiet = 0;
	}
}

/* A device of SMALL_GEOMETRY (1740 pages) whose data store holds fewer. */
struct full {
	struct ssd_device *dev;
	u64 pages;		/* logical */
	u64 limit;		/* data pages */
	u8 *mapped;
	u64 nr_mapped;
	u8 buf[8 * 4096];
};

static void full_init(struct full *f, const char *limit_mb)
{
	const char *const settings[] = { SMALL_GEOMETRY, limit_mb };
	struct ssd_stats st;

	EXPECT(try_create(&f->dev, settings, ARRAY_SIZE(settings)) == 0, "create");
	f->pages = f->dev->capacity_bytes / 4096;
	f->limit = f->dev->data_limit_pages;
	f->mapped = calloc(1, f->pages);
	f->nr_mapped = 0;
	EXPECT(f->mapped, "out of memory");
	ssd_device_get_stats(f->dev, &st);
	EXPECT(st.data_limit_bytes == (f->limit < f->pages ? f->limit : f->pages) * 4096,
	       "data_limit_bytes %llu", (unsigned long long)st.data_limit_bytes);
}

static void full_exit(struct full *f)
{
	EXPECT(ssd_device_check(f->dev) == 0, "check");
	ssd_device_destroy(f->dev);
	free(f->mapped);
}

/* Statistics and the request log, to see that a refused request changed nothing. */
struct snapshot {
	struct ssd_stats st;
	u64 last_arrival_ns;
	u32 log_count;
	u32 nr_spare;
};

static void take(struct full *f, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	ssd_device_get_stats(f->dev, &s->st);
	s->last_arrival_ns = f->dev->last_arrival_ns;
	s->log_count = f->dev->log.count;
	s->nr_spare = f->dev->pool.nr_spare;
}

static void expect_nospc(struct full *f, enum ssd_op op, u64 off, u64 len)
{
	struct snapshot a, b;

	take(f, &a);
	EXPECT(submit(f->dev, op, off, len, f->buf) == -ENOSPC,
	       "op %d at %llu+%llu not refused with %llu of %llu pages held", op,
	       (unsigned long long)off, (unsigned long long)len,
	       (unsigned long long)f->dev->flash.data_pages, (unsigned long long)f->limit);
	take(f, &b);
	/* Nothing changed but the count of refused requests (issue 33). */
	EXPECT(b.st.refused_commands == a.st.refused_commands + 1 &&
	       b.st.write_refused_commands == a.st.write_refused_commands +
	       (op == SSD_OP_WRITE), "the refusal was not counted");
	a.st.refused_commands = b.st.refused_commands;
	a.st.write_refused_commands = b.st.write_refused_commands;
	EXPECT(!memcmp(&a, &b, sizeof(a)), "a refused request changed the device");
}

static void write_ok(struct full *f, u64 off, u64 len, u8 fill)
{
	u64 lpn;

	memset(f->buf, fill, len);
	EXPECT(submit(f->dev, SSD_OP_WRITE, off, len, f->buf) == 0, "write %llu+%llu",
	       (unsigned long long)off, (unsigned long long)len);
	for (lpn = off / 4096; lpn <= (off + len - 1) / 4096; lpn++) {
		f->nr_mapped += !f->mapped[lpn];
		f->mapped[lpn] = 1;
	}
}

static void trim_ok(struct full *f, enum ssd_op op, u64 lpn, u64 nr)
{
	u64 i;

	EXPECT(submit(f->dev, op, lpn * 4096, nr * 4096, NULL) == 0, "unmap");
	for (i = lpn; i < lpn + nr; i++) {
		f->nr_mapped -= f->mapped[i];
		f->mapped[i] = 0;
	}
}

static void expect_page(struct full *f, u64 lpn, u8 fill)
{
	u32 i;

	EXPECT(submit(f->dev, SSD_OP_READ, lpn * 4096, 4096, f->buf) == 0, "read");
	for (i = 0; i < 4096; i++)
		EXPECT(f->buf[i] == fill, "lpn %llu byte %u: %u, expected %u",
		       (unsigned long long)lpn, i, f->buf[i], fill);
}

static void test_data_store_full(void)
{
	struct full f;
	u64 lpn, written;

	/* 4 MiB: a little metadata, 1 MiB of spare buffers, ~750 data pages. */
	full_init(&f, "memory_limit_mb=4");
	EXPECT(f.limit > 500 && f.limit < f.pages / 2, "limit %llu of %llu pages",
	       (unsigned long long)f.limit, (unsigned long long)f.pages);
	EXPECT(f.limit == ((4ULL << 20) - f.dev->metadata_bytes) / 4096 - SSD_PAGEPOOL_SPARE,
	       "limit %llu", (unsigned long long)f.limit);

	/* Fill page by page: exactly the limit fits. */
	for (written = 0; written < f.pages; written++) {
		memset(f.buf, (u8)written, 4096);
		if (submit(f.dev, SSD_OP_WRITE, written * 4096, 4096, f.buf))
			break;
		f.mapped[written] = 1;
		f.nr_mapped++;
	}
	EXPECT(written == f.limit, "%llu pages written, limit %llu",
	       (unsigned long long)written, (unsigned long long)f.limit);
	EXPECT(f.dev->flash.data_pages == f.limit, "data pages %llu",
	       (unsigned long long)f.dev->flash.data_pages);
	expect_nospc(&f, SSD_OP_WRITE, written * 4096, 4096);
	/* All or nothing: mapped pages and one more. */
	expect_nospc(&f, SSD_OP_WRITE, (written - 3) * 4096, 4 * 4096);
	expect_page(&f, written - 3, (u8)(written - 3));
	/* A partial page that holds no data needs a page too. */
	expect_nospc(&f, SSD_OP_WRITE, (written + 5) * 4096 + 512, 512);
	expect_nospc(&f, SSD_OP_WRITE_ZEROES, (written + 5) * 4096 + 512, 512);
	expect_nospc(&f, SSD_OP_WRITE_ZEROES, (written - 1) * 4096 + 1024, 2 * 4096);

	/* Overwrites of mapped pages, whole, partial and zeroing, still work. */
	write_ok(&f, 0, 8 * 4096, 0x11);
	write_ok(&f, 4096 + 512, 1024, 0x22);
	EXPECT(submit(f.dev, SSD_OP_WRITE_ZEROES, 5 * 4096 + 100, 200, NULL) == 0, "wz");
	expect_page(&f, 0, 0x11);
	/* A whole-page write-zeroes and a TRIM give room back. */
	trim_ok(&f, SSD_OP_WRITE_ZEROES, 100, 2);
	trim_ok(&f, SSD_OP_TRIM, 200, 3);
	for (lpn = written; lpn < written + 5; lpn++)
		write_ok(&f, lpn * 4096, 4096, 0x33);
	expect_nospc(&f, SSD_OP_WRITE, lpn * 4096, 4096);
	expect_page(&f, written + 4, 0x33);
	EXPECT(f.dev->pool.nr_buffers <= f.limit + SSD_PAGEPOOL_SPARE, "buffers %llu",
	       (unsigned long long)f.dev->pool.nr_buffers);
	full_exit(&f);
}

/* Page buffers that cannot be had: -ENOMEM, and nothing changed. */
static void test_allocation_failure(void)
{
	struct snapshot a, b;
	struct full f;

	full_init(&f, "memory_limit_mb=0");
	write_ok(&f, 0, 4096, 0x44);
	memset(f.buf, 0x55, sizeof(f.buf));
	ssd_page_alloc_budget = 0;
	take(&f, &a);
	EXPECT(a.nr_spare == 0, "spare buffers left: %u", a.nr_spare);
	EXPECT(submit(f.dev, SSD_OP_WRITE, 300 * 4096, 8 * 4096, f.buf) == -ENOMEM,
	       "no page buffers, no -ENOMEM");
	take(&f, &b);
	/* Nothing changed but the count of failed requests (issue 33). */
	EXPECT(b.st.failed_commands == a.st.failed_commands + 1 &&
	       b.st.write_failed_commands == a.st.write_failed_commands + 1,
	       "the failure was not counted");
	a.st.failed_commands = b.st.failed_commands;
	a.st.write_failed_commands = b.st.write_failed_commands;
	EXPECT(!memcmp(&a, &b, sizeof(a)), "a failed allocation changed the device");
	ssd_page_alloc_budget = -1;
	write_ok(&f, 300 * 4096, 8 * 4096, 0x66);
	expect_page(&f, 307, 0x66);
	expect_page(&f, 0, 0x44);
	full_exit(&f);
}

/* Random requests on a full store: every refusal predicted by the model. */
static void test_random_at_limit(u64 seed)
{
	u64 rng = seed, i, refused = 0, gc;
	struct full f;
	struct ssd_stats st;

	full_init(&f, "memory_limit_mb=4");
	for (i = 0; i < 40000; i++) {
		u64 dice = rng_below(&rng, 100);
		u64 lpn = rng_below(&rng, f.pages - 8);
		u64 nr = 1 + rng_below(&rng, 8), j, new_pages = 0;
		enum ssd_op op = dice < 70 ? SSD_OP_WRITE :
				 dice < 85 ? SSD_OP_WRITE_ZEROES : SSD_OP_TRIM;
		u64 off = lpn * 4096, len = nr * 4096;
		int ret;

		if (dice % 5 == 0) {	/* unaligned: partial first or last page */
			off += 512 * rng_below(&rng, 8);
			len -= 512 * rng_below(&rng, 8);
		}
		for (j = off / 4096; j <= (off + len - 1) / 4096; j++) {
			bool partial = j * 4096 < off || (j + 1) * 4096 > off + len;

			if (!f.mapped[j] && (op == SSD_OP_WRITE ||
					     (op == SSD_OP_WRITE_ZEROES && partial)))
				new_pages++;
		}
		memset(f.buf, (u8)i, len);
		ret = submit(f.dev, op, off, len, f.buf);
		if (f.nr_mapped + new_pages > f.limit && op != SSD_OP_TRIM) {
			EXPECT(ret == -ENOSPC, "op %d %llu+%llu: %d with %llu + %llu > %llu",
			       op, (unsigned long long)off, (unsigned long long)len, ret,
			       (unsigned long long)f.nr_mapped, (unsigned long long)new_pages,
			       (unsigned long long)f.limit);
			refused++;
			continue;
		}
		EXPECT(ret == 0, "op %d %llu+%llu: %d", op, (unsigned long long)off,
		       (unsigned long long)len, ret);
		for (j = off / 4096; j <= (off + len - 1) / 4096; j++) {
			bool whole = j * 4096 >= off && (j + 1) * 4096 <= off + len;
			u8 now = f.mapped[j];

			if (op == SSD_OP_WRITE || (op == SSD_OP_WRITE_ZEROES && !whole))
				now = 1;
			else if (whole)
				now = 0;
			f.nr_mapped = f.nr_mapped - f.mapped[j] + now;
			f.mapped[j] = now;
		}
		EXPECT(f.dev->flash.data_pages == f.nr_mapped &&
		       f.dev->flash.data_pages <= f.limit, "data pages %llu, model %llu",
		       (unsigned long long)f.dev->flash.data_pages,
		       (unsigned long long)f.nr_mapped);
		EXPECT(f.dev->pool.nr_buffers <= f.limit + SSD_PAGEPOOL_SPARE,
		       "buffers %llu", (unsigned long long)f.dev->pool.nr_buffers);
	}
	ssd_device_get_stats(f.dev, &st);
	gc = st.gc_victim_blocks;
	EXPECT(refused > 1000 && gc > 0, "refused %llu, GC victims %llu: not a test",
	       (unsigned long long)refused, (unsigned long long)gc);
	printf("memory: seed %llu: %llu of 40000 requests refused, %llu GC victims, %llu host pages\n",
	       (unsigned long long)seed, (unsigned long long)refused,
	       (unsigned long long)gc, (unsigned long long)st.host_write_pages);
	full_exit(&f);
}

/* The same requests on devices that break the lock every @every pages. */
/* @times gets the completion of @nr_times requests and a whole-device TRIM. */
static void run_breaking(u64 every, u64 *times, u32 nr_times, struct ssd_stats *st,
			 u64 *breaks)
{
	static const char *const settings[] = { "request_log_entries=64" };
	struct ssd_device *dev;
	static u8 buf[64 * 4096];
	u64 rng = 7, cap, i;
	struct flat_iter fi;
	u32 n = 0;

	EXPECT(try_create(&dev, settings, ARRAY_SIZE(settings)) == 0, "create");
	dev->resched_pages = every;
	cap = dev->capacity_bytes;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (u8)rng_next(&rng);
	while (n < nr_times) {
		struct ssd_request req = { .data = &fi.it };
		u64 dice = rng_below(&rng, 10);

		req.arrival_ns = n * 300000;
		if (dice < 5) {
			req.op = SSD_OP_WRITE;
			req.length_bytes = (1 + rng_below(&rng, 64)) * 4096;
		} else if (dice < 7) {
			req.op = SSD_OP_READ;
			req.length_bytes = (1 + rng_below(&rng, 64)) * 4096;
		} else {
			/* Big unmaps, unaligned ends: thousands of pages. */
			req.op = dice < 9 ? SSD_OP_TRIM : SSD_OP_WRITE_ZEROES;
			req.length_bytes = 512 * rng_below(&rng, cap / 512 / 2);
		}
		req.offset_bytes = 512 * rng_below(&rng, (cap - req.length_bytes) / 512);
		if (req.op <= SSD_OP_WRITE)
			req.offset_bytes &= ~4095ULL;
		flat_iter_init(&fi, buf);
		EXPECT(ssd_device_submit(dev, &req, &times[n]) == 0, "request %u", n);
		n++;
	}
	/* A whole-device TRIM last. */
	{
		struct ssd_request req = { .op = SSD_OP_TRIM, .length_bytes = cap,
					   .arrival_ns = n * 300000 };

		EXPECT(ssd_device_submit(dev, &req, &times[n]) == 0, "whole-device trim");
	}
	ssd_device_get_stats(dev, st);
	*breaks = dev->lock_breaks;
	EXPECT(st->valid_pages == 0, "whole-device TRIM left %llu pages",
	       (unsigned long long)st->valid_pages);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

static void test_lock_breaks_keep_timing(void)
{
	enum { NR = 300 };
	static u64 never[NR + 1], often[NR + 1], odd[NR + 1];
	struct ssd_stats st_never, st_often, st_odd;
	u64 b_never, b_often, b_odd;

	run_breaking(U32_MAX, never, NR, &st_never, &b_never);
	run_breaking(SSD_DEVICE_RESCHED_PAGES, often, NR, &st_often, &b_often);
	run_breaking(7, odd, NR, &st_odd, &b_odd);
	EXPECT(b_never == 0 && b_often > 100 && b_odd > b_often, "breaks %llu %llu %llu",
	       (unsigned long long)b_never, (unsigned long long)b_often,
	       (unsigned long long)b_odd);
	EXPECT(!memcmp(never, often, sizeof(never)) && !memcmp(never, odd, sizeof(never)),
	       "completion times depend on lock breaks");
	EXPECT(!memcmp(&st_never, &st_often, sizeof(st_never)) &&
	       !memcmp(&st_never, &st_odd, sizeof(st_never)),
	       "counters depend on lock breaks");
	printf("memory: %llu lock breaks (every %u pages), same times and counters\n",
	       (unsigned long long)b_often, SSD_DEVICE_RESCHED_PAGES);
}

struct racer {
	struct ssd_device *dev;
	int stop;		/* set by the main thread (atomic) */
	u64 rounds;
};

/* Statistics and checks while another thread trims and writes. */
static void *watch(void *arg)
{
	struct racer *r = arg;
	struct ssd_stats st;

	while (!__atomic_load_n(&r->stop, __ATOMIC_ACQUIRE)) {
		ssd_device_get_stats(r->dev, &st);
		EXPECT(st.valid_pages <= r->dev->capacity_bytes / 4096, "valid pages");
		EXPECT(ssd_device_check(r->dev) == 0, "check during a request");
		r->rounds++;
	}
	return NULL;
}

static void *writer(void *arg)
{
	struct racer *r = arg;
	static u8 buf[16 * 4096];
	u64 i;

	for (i = 0; i < 2000; i++)
		EXPECT(submit(r->dev, SSD_OP_WRITE, (i * 16 * 4096) % (64 << 20),
			      sizeof(buf), buf) == 0, "write");
	return NULL;
}

static void test_threads(void)
{
	static const char *const settings[] = { "pages_per_block=64" };
	pthread_t w, s;
	struct racer r = { 0 };
	int i;

	EXPECT(try_create(&r.dev, settings, ARRAY_SIZE(settings)) == 0, "create");
	EXPECT(pthread_create(&s, NULL, watch, &r) == 0, "thread");
	EXPECT(pthread_create(&w, NULL, writer, &r) == 0, "thread");
	for (i = 0; i < 20; i++)
		EXPECT(submit(r.dev, SSD_OP_TRIM, 0, r.dev->capacity_bytes, NULL) == 0, "trim");
	pthread_join(w, NULL);
	__atomic_store_n(&r.stop, 1, __ATOMIC_RELEASE);
	pthread_join(s, NULL);
	EXPECT(r.dev->lock_breaks > 0 && r.rounds > 0, "no overlap");
	EXPECT(ssd_device_check(r.dev) == 0, "check");
	ssd_device_destroy(r.dev);
}

int test_memory(int argc, char **argv)
{
	test_plan_and_refusals();
	test_data_store_full();
	test_allocation_failure();
	test_random_at_limit(1);
	test_random_at_limit(2);
	test_lock_breaks_keep_timing();
	test_threads();
	printf("memory: ok\n");
	return 0;
}

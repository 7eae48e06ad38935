// SPDX-License-Identifier: GPL-2.0
/*
 * test_rber.c - read errors (flash/flash_ecc.c) and targeted injection
 * (device/ssd_inject.c), issue 24:
 *
 *  - the same fault_seed gives the same outcomes (counters, completion
 *    times), another one other outcomes; the model's draws do not touch
 *    the device's seed stream;
 *  - RBER grows with the erase count and with the time since the block's
 *    last program; the uncorrectable rate grows with wear;
 *  - read retries cost time on the chip;
 *  - an uncorrectable page fails exactly its bytes of a read (-EIO, the
 *    bytes before it good), the data stays, and a later read at a lower
 *    RBER succeeds with the same data;
 *  - injection: ranges added, merged, removed, cleared, shown; malformed,
 *    out-of-range, unknown and one-too-many ranges refused with the list
 *    unchanged; reads fail from the first injected sector, writes fail
 *    whole and change nothing;
 *  - with faults off every counter and completion time is what it was
 *    (whatever fault_seed), and no model state is allocated;
 *  - bad read error keys refused.
 */
#include "unit.h"
#include "flash/flash_ecc.h"

#define RBER_GEOMETRY	"pages_per_block=16", "blocks_per_chip=32", "chips=4", \
			"channels=2", "op_percent=15"

static void fill(u8 *buf, u64 len, u64 seed)
{
	u64 i;

	for (i = 0; i < len; i += 8) {
		u64 v = rng_next(&seed);

		memcpy(buf + i, &v, 8);
	}
}

static int submit_io(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length,
		     void *buf, u64 *done_ns, u64 *good)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = op, .offset_bytes = offset, .length_bytes = length,
		.data = &fi.it,
	};

	flat_iter_init(&fi, buf);
	return ssd_device_submit_io(dev, &req, done_ns, good);
}

/* A workload of writes, overwrites and reads; the sum of completion times. */
static u64 workload(struct ssd_device *dev, u64 seed, u64 ops)
{
	u64 page = ssd_device_page_bytes(dev), pages = ssd_device_capacity_bytes(dev) / page;
	u64 sum = 0, i, done, good;
	u8 *buf = malloc(4 * page);

	for (i = 0; i < ops; i++) {
		u64 lpn = rng_below(&seed, pages - 4), n = 1 + rng_below(&seed, 4);
		enum ssd_op op = rng_below(&seed, 3) ? SSD_OP_WRITE : SSD_OP_READ;
		int ret;

		fill(buf, n * page, i);
		ret = submit_io(dev, op, lpn * page, n * page, buf, &done, &good);
		EXPECT(ret == 0 || ret == -EIO, "request %llu: %d", (unsigned long long)i, ret);
		sum += ret ? 0 : done;
	}
	free(buf);
	return sum;
}

static void get(struct ssd_device *dev, struct ssd_stats *st)
{
	ssd_device_get_stats(dev, st);
}

static void test_determinism(void)
{
	static const char *const a[] = { RBER_GEOMETRY, "rber_base_ppb=4000000",
					 "ecc_soft_bits=10", "ecc_correct_bits=20",
					 "read_retry_max=1" };
	static const char *const b[] = { RBER_GEOMETRY, "rber_base_ppb=4000000",
					 "ecc_soft_bits=10", "ecc_correct_bits=20",
					 "read_retry_max=1", "fault_seed=7" };
	struct ssd_device *d1 = make_device(a, ARRAY_SIZE(a));
	struct ssd_device *d2 = make_device(a, ARRAY_SIZE(a));
	struct ssd_device *d3 = make_device(b, ARRAY_SIZE(b));
	u64 t1 = workload(d1, 5, 3000), t2 = workload(d2, 5, 3000), t3 = workload(d3, 5, 3000);
	struct ssd_stats s1, s2, s3;

	get(d1, &s1);
	get(d2, &s2);
	get(d3, &s3);
	EXPECT(!memcmp(&s1, &s2, sizeof(s1)) && t1 == t2, "same seed, other outcomes");
	EXPECT(s1.read_corrected_codewords > 0 && s1.flash_read_retry_pages > 0 &&
	       s1.read_uncorrectable_pages > 0, "corrected %llu retries %llu uncorrectable %llu",
	       (unsigned long long)s1.read_corrected_codewords,
	       (unsigned long long)s1.flash_read_retry_pages,
	       (unsigned long long)s1.read_uncorrectable_pages);
	EXPECT(s1.read_corrected_codewords != s3.read_corrected_codewords ||
	       s1.flash_read_retry_pages != s3.flash_read_retry_pages || t1 != t3,
	       "fault_seed=7 gave the very same outcomes");
	/* The host counters add up: failed pages are not counted as read. */
	EXPECT(s1.host_read_error_pages == s1.read_uncorrectable_host_pages,
	       "host read errors %llu, uncorrectable host reads %llu",
	       (unsigned long long)s1.host_read_error_pages,
	       (unsigned long long)s1.read_uncorrectable_host_pages);
	printf("rber: 3000 requests at RBER 4e-3, t=20, one retry: %llu codewords corrected, %llu retries, %llu pages uncorrectable (%llu host)\n",
	       (unsigned long long)s1.read_corrected_codewords,
	       (unsigned long long)s1.flash_read_retry_pages,
	       (unsigned long long)s1.read_uncorrectable_pages,
	       (unsigned long long)s1.read_uncorrectable_host_pages);
	ssd_device_destroy(d1);
	ssd_device_destroy(d2);
	ssd_device_destroy(d3);
}

/* Faults off: the same counters and times whatever fault_seed, no model state. */
static void test_off(void)
{
	static const char *const a[] = { RBER_GEOMETRY };
	static const char *const b[] = { RBER_GEOMETRY, "fault_seed=99", "ecc_soft_bits=0",
					 "read_retry_max=0" };
	struct ssd_device *d1 = make_device(a, ARRAY_SIZE(a));
	struct ssd_device *d2 = make_device(b, ARRAY_SIZE(b));
	u64 t1 = workload(d1, 9, 3000), t2 = workload(d2, 9, 3000);
	struct ssd_stats s1, s2;

	get(d1, &s1);
	get(d2, &s2);
	EXPECT(!d1->flash.ecc && !d2->flash.ecc, "model state with read errors off");
	EXPECT(!memcmp(&s1, &s2, sizeof(s1)) && t1 == t2, "faults off changed the outcome");
	EXPECT(!s1.read_corrected_codewords && !s1.flash_read_retry_pages &&
	       !s1.read_uncorrectable_pages && !s1.host_read_error_pages, "fault counters");
	ssd_device_destroy(d1);
	ssd_device_destroy(d2);
}

/* RBER grows with wear and retention; so does the uncorrectable rate. */
static void test_monotone(void)
{
	static const char *const a[] = { RBER_GEOMETRY, "rber_base_ppb=1000",
					 "rber_wear_ppb=20000000",
					 "rber_retention_ppb_per_day=20000" };
	struct ssd_device *dev = make_device(a, ARRAY_SIZE(a));
	struct flash_ecc *e = dev->flash.ecc;
	u64 last = 0, uncorrectable[4], day = FLASH_ECC_NS_PER_DAY;
	u32 ec, i, k;

	EXPECT(e, "no model state");
	for (ec = 0; ec <= 30000; ec += 500) {
		u64 r;

		e->erase_count[0] = ec;
		r = ssd_flash_ecc_rber_ppb(e, 0, 0);
		EXPECT(r >= last, "rber %llu at %u erases below %llu", (unsigned long long)r, ec,
		       (unsigned long long)last);
		EXPECT(ec < 3000 || r > last || r == FLASH_ECC_MAX_RBER_PPB, "rber flat at %u erases",
		       ec);
		last = r;
	}
	e->erase_count[0] = 3000;
	EXPECT(ssd_flash_ecc_rber_ppb(e, 0, 0) == 1000 + 20000000, "rber at the limit: %llu",
	       (unsigned long long)ssd_flash_ecc_rber_ppb(e, 0, 0));
	e->erase_count[0] = 0;
	e->program_ns[0] = day;
	last = 0;
	for (i = 1; i < 100; i++) {
		u64 r = ssd_flash_ecc_rber_ppb(e, 0, day + i * day / 4);

		EXPECT(r > last, "rber not growing with retention: %llu", (unsigned long long)r);
		last = r;
	}
	/* Retention is scaled by wear. */
	e->erase_count[0] = 3000;
	EXPECT(ssd_flash_ecc_rber_ppb(e, 0, 11 * day) ==
	       1000 + 20000000 + 2 * 10 * 20000, "retention at the limit %llu",
	       (unsigned long long)ssd_flash_ecc_rber_ppb(e, 0, 11 * day));
	/* Uncorrectable reads of one page at rising wear (the draws, not the formula). */
	for (k = 0; k < 4; k++) {
		u64 done;

		e->erase_count[0] = 7500 + 300 * k;
		e->program_ns[0] = 0;
		e->uncorrectable_pages = 0;
		/* Page 0 holds data: program it once. */
		if (!k) {
			void *buf = ssd_pagepool_get(&dev->pool);

			memset(buf, 0, dev->pool.page_bytes);
			EXPECT(ssd_flash_program(&dev->flash, 0, buf, SSD_CAUSE_HOST, 0, &done) == 0,
			       "program");
		}
		for (i = 0; i < 2000; i++)
			ssd_flash_ecc_read(&dev->flash, 0, SSD_CAUSE_GC, 0, &done);
		uncorrectable[k] = e->uncorrectable_pages;
		printf("rber: erase count %u (pe_cycle_limit 3000): rber %llu ppb, %llu of 2000 reads uncorrectable\n",
		       e->erase_count[0],
		       (unsigned long long)ssd_flash_ecc_rber_ppb(e, 0, 0),
		       (unsigned long long)uncorrectable[k]);
		EXPECT(!k || uncorrectable[k] > uncorrectable[k - 1] ||
		       uncorrectable[k] == 2000, "uncorrectable reads not growing with wear");
	}
	EXPECT(uncorrectable[0] > 0 && uncorrectable[3] < 2000, "no spread");
	ssd_device_destroy(dev);
}

/* Retries cost time: a read that needs them ends later than one that does not. */
static void test_retry_time(void)
{
	static const char *const a[] = { RBER_GEOMETRY, "rber_base_ppb=1",
					 "rber_wear_ppb=2000000", "ecc_soft_bits=0",
					 "read_retry_max=5" };
	struct ssd_device *dev = make_device(a, ARRAY_SIZE(a));
	u64 page = ssd_device_page_bytes(dev), done1, done2, good, retries;
	struct flash_ecc *e = dev->flash.ecc;
	struct ssd_stats st;
	u8 *buf = malloc(page);
	u32 ppa;

	fill(buf, page, 3);
	EXPECT(submit_io(dev, SSD_OP_WRITE, 0, page, buf, &done1, &good) == 0, "write");
	ppa = unit_ftl(dev)->l2p[0];
	/* A fresh block: no error, no retry. */
	EXPECT(submit_io(dev, SSD_OP_READ, 0, page, buf, &done1, &good) == 0, "read");
	get(dev, &st);
	retries = st.flash_read_retry_pages;
	done1 -= ssd_device_last_arrival_ns(dev);
	/* Worn: errors, so retries (ecc_soft_bits=0: any error needs one). */
	e->erase_count[flash_block_of(&dev->flash, ppa)] = 6000;
	EXPECT(submit_io(dev, SSD_OP_READ, 0, page, buf, &done2, &good) == 0, "worn read");
	get(dev, &st);
	done2 -= ssd_device_last_arrival_ns(dev);
	EXPECT(st.flash_read_retry_pages > retries, "no retry");
	EXPECT(done2 >= done1 + (st.flash_read_retry_pages - retries) * 50000,
	       "%llu retries took %llu ns more", (unsigned long long)(st.flash_read_retry_pages -
								       retries),
	       (unsigned long long)(done2 - done1));
	free(buf);
	ssd_device_destroy(dev);
}

/* An uncorrectable page fails exactly its bytes; the data stays. */
static void test_uncorrectable(void)
{
	static const char *const a[] = { RBER_GEOMETRY, "rber_base_ppb=1",
					 "rber_wear_ppb=100000000" };
	struct ssd_device *dev = make_device(a, ARRAY_SIZE(a));
	u64 page = ssd_device_page_bytes(dev), done, good;
	u8 *buf = malloc(4 * page), *got = malloc(4 * page);
	struct flash_ecc *e = dev->flash.ecc;
	struct ssd_stats st;
	u32 block, i;

	fill(buf, 4 * page, 11);
	EXPECT(submit_io(dev, SSD_OP_WRITE, 0, 4 * page, buf, &done, &good) == 0 &&
	       good == 4 * page, "write");
	block = flash_block_of(&dev->flash, unit_ftl(dev)->l2p[2]);
	for (i = 0; i < 4; i++)
		EXPECT(i == 2 || flash_block_of(&dev->flash, unit_ftl(dev)->l2p[i]) != block,
		       "pages 2 and %u share a block", i);
	/* Block of page 2 far past its rating: half its bits wrong. */
	e->erase_count[block] = 100000;
	memset(got, 0xa5, 4 * page);
	EXPECT(submit_io(dev, SSD_OP_READ, 512, 4 * page - 1024, got, &done, &good) == -EIO,
	       "read over the bad page succeeded");
	EXPECT(good == 2 * page - 512, "good bytes %llu", (unsigned long long)good);
	EXPECT(!memcmp(got, buf + 512, good), "good bytes differ");
	get(dev, &st);
	EXPECT(st.read_uncorrectable_host_pages == 1 && st.host_read_error_pages == 1 &&
	       st.flash_read_retry_pages == 5, "uncorrectable %llu, errors %llu, retries %llu",
	       (unsigned long long)st.read_uncorrectable_host_pages,
	       (unsigned long long)st.host_read_error_pages,
	       (unsigned long long)st.flash_read_retry_pages);
	/* A read of the other pages alone succeeds. */
	EXPECT(submit_io(dev, SSD_OP_READ, 3 * page, page, got, &done, &good) == 0 &&
	       good == page && !memcmp(got, buf + 3 * page, page), "page 3");
	/* A partial write over it fails at that page: pages before it written. */
	EXPECT(submit_io(dev, SSD_OP_WRITE, page, page + 512, got, &done, &good) == -EIO &&
	       good == page, "partial write over the bad page: good %llu",
	       (unsigned long long)good);
	get(dev, &st);
	EXPECT(st.host_write_error_pages == 1, "write error pages %llu",
	       (unsigned long long)st.host_write_error_pages);
	memcpy(buf + page, got, page);
	/* The block back to health: the same data reads back. */
	e->erase_count[block] = 0;
	EXPECT(submit_io(dev, SSD_OP_READ, 0, 4 * page, got, &done, &good) == 0 &&
	       good == 4 * page, "read after recovery");
	EXPECT(!memcmp(got, buf, 4 * page), "data changed by an uncorrectable read");
	EXPECT(ssd_device_check(dev) == 0, "check");
	free(buf);
	free(got);
	ssd_device_destroy(dev);
}

static void expect_list(const struct ssd_inject_list *l, const char *want)
{
	char text[4096];
	int n = ssd_inject_show(l, text, sizeof(text));

	text[n] = '\0';
	EXPECT(!strcmp(text, want), "list \"%s\", want \"%s\"", text, want);
}

static void test_inject_commands(void)
{
	struct ssd_inject_list l = { 0 }, before;
	u64 cap = 1 << 20;	/* 2048 sectors */
	char cmd[64];
	int i;

	EXPECT(ssd_inject_command(&l, "+r 1000-1007\n", cap, "t") == 0, "add r");
	EXPECT(ssd_inject_command(&l, "+w 2000", cap, "t") == 0, "add w");
	EXPECT(ssd_inject_command(&l, "+w 1000-1007", cap, "t") == 0, "merge w");
	expect_list(&l, "rw 1000-1007\nw 2000-2000\n");
	EXPECT(ssd_inject_command(&l, "-r 1000-1007", cap, "t") == 0, "remove r");
	expect_list(&l, "w 1000-1007\nw 2000-2000\n");
	EXPECT(ssd_inject_command(&l, "-w 1000-1007", cap, "t") == 0, "remove w");
	expect_list(&l, "w 2000-2000\n");
	before = l;
	EXPECT(ssd_inject_command(&l, "+r 2047-2048", cap, "t") == -EINVAL, "past the end");
	EXPECT(ssd_inject_command(&l, "+r 9-3", cap, "t") == -EINVAL, "reversed");
	EXPECT(ssd_inject_command(&l, "+x 1", cap, "t") == -EINVAL, "op");
	EXPECT(ssd_inject_command(&l, "+r", cap, "t") == -EINVAL, "no range");
	EXPECT(ssd_inject_command(&l, "+r 1-2 3", cap, "t") == -EINVAL, "trailing");
	EXPECT(ssd_inject_command(&l, "+r 99999999999999999999", cap, "t") == -EINVAL,
	       "overflow");
	EXPECT(ssd_inject_command(&l, "-r 2000", cap, "t") == -EINVAL, "remove unknown op");
	EXPECT(ssd_inject_command(&l, "-w 5-6", cap, "t") == -EINVAL, "remove unknown");
	EXPECT(ssd_inject_command(&l, "clearx", cap, "t") == -EINVAL, "clearx");
	EXPECT(!memcmp(&l, &before, sizeof(l)), "refusal changed the list");
	for (i = 1; i < SSD_INJECT_MAX_RANGES; i++) {
		snprintf(cmd, sizeof(cmd), "+r %d", i);
		EXPECT(ssd_inject_command(&l, cmd, cap, "t") == 0, "range %d", i);
	}
	before = l;
	EXPECT(ssd_inject_command(&l, "+r 1500", cap, "t") == -ENOSPC, "one too many");
	EXPECT(!memcmp(&l, &before, sizeof(l)), "refusal changed the list");
	EXPECT(ssd_inject_command(&l, "+w 1", cap, "t") == 0, "more ops on a range when full");
	EXPECT(ssd_inject_command(&l, " clear \n", cap, "t") == 0 && l.nr == 0, "clear");
}

static void test_inject_requests(void)
{
	static const char *const a[] = { RBER_GEOMETRY, "logical_block_bytes=512" };
	struct ssd_device *dev = make_device(a, ARRAY_SIZE(a));
	u64 page = ssd_device_page_bytes(dev), done, good, cap = ssd_device_capacity_bytes(dev);
	u8 *buf = malloc(4 * page), *got = malloc(4 * page), *other = malloc(4 * page);
	struct ssd_inject_list l = { 0 };
	struct ssd_stats st;

	fill(buf, 4 * page, 21);
	fill(other, 4 * page, 22);
	EXPECT(submit_io(dev, SSD_OP_WRITE, 0, 4 * page, buf, &done, &good) == 0, "write");
	EXPECT(ssd_inject_command(&l, "+r 17-18", cap, "t") == 0 &&
	       ssd_inject_command(&l, "+w 30", cap, "t") == 0, "inject");
	ssd_device_set_inject(dev, &l);
	/* Reads: from sector 17 on, failed; before, good. */
	EXPECT(submit_io(dev, SSD_OP_READ, 0, 4 * page, got, &done, &good) == -EIO &&
	       good == 17 * 512 && !memcmp(got, buf, good), "read over 17: good %llu",
	       (unsigned long long)good);
	EXPECT(submit_io(dev, SSD_OP_READ, 0, 17 * 512, got, &done, &good) == 0 &&
	       !memcmp(got, buf, 17 * 512), "read up to 17");
	EXPECT(submit_io(dev, SSD_OP_READ, 19 * 512, 1024, got, &done, &good) == 0 &&
	       !memcmp(got, buf + 19 * 512, 1024), "read from 19");
	EXPECT(submit_io(dev, SSD_OP_READ, 18 * 512, 1024, got, &done, &good) == -EIO &&
	       good == 0, "read from 18");
	/* Sector 30 takes no read error. */
	EXPECT(submit_io(dev, SSD_OP_READ, 30 * 512, 512, got, &done, &good) == 0, "read 30");
	/* Writes touching sector 30 fail whole and change nothing. */
	EXPECT(submit_io(dev, SSD_OP_WRITE, 0, 4 * page, other, &done, &good) == -EIO &&
	       good == 0, "write over 30");
	EXPECT(submit_io(dev, SSD_OP_WRITE_ZEROES, 30 * 512, 512, NULL, &done, &good) == -EIO,
	       "write zeroes over 30");
	EXPECT(submit_io(dev, SSD_OP_WRITE, 0, 512, other, &done, &good) == 0 && good == 512,
	       "write elsewhere");
	memcpy(buf, other, 512);
	get(dev, &st);
	EXPECT(st.host_read_error_pages == 2 && st.host_write_error_pages == 5 &&
	       st.injected_error_ranges == 2, "read errors %llu, write errors %llu, ranges %llu",
	       (unsigned long long)st.host_read_error_pages,
	       (unsigned long long)st.host_write_error_pages,
	       (unsigned long long)st.injected_error_ranges);
	/* Cleared: everything reads back. */
	EXPECT(ssd_inject_command(&l, "clear", cap, "t") == 0, "clear");
	ssd_device_set_inject(dev, &l);
	EXPECT(submit_io(dev, SSD_OP_READ, 0, 4 * page, got, &done, &good) == 0 &&
	       !memcmp(got, buf, 4 * page), "read after clear");
	get(dev, &st);
	EXPECT(st.injected_error_ranges == 0, "ranges after clear");
	EXPECT(ssd_device_check(dev) == 0, "check");
	free(buf);
	free(got);
	free(other);
	ssd_device_destroy(dev);
}

static void expect_refused(const char *const *settings, unsigned int count, const char *what)
{
	struct ssd_config cfg;

	make_config(&cfg, settings, count);
	EXPECT(ssd_device_validate_config(&cfg) == -EINVAL, "%s accepted", what);
}

static void test_keys(void)
{
	static const char *const wear_off[] = { RBER_GEOMETRY, "rber_wear_ppb=5" };
	static const char *const ret_off[] = { RBER_GEOMETRY, "rber_retention_ppb_per_day=5" };
	static const char *const cw[] = { RBER_GEOMETRY, "rber_base_ppb=1",
					  "ecc_codeword_bytes=8192" };
	static const char *const soft[] = { RBER_GEOMETRY, "ecc_soft_bits=41" };
	static const char *const t[] = { RBER_GEOMETRY, "rber_base_ppb=1",
					 "ecc_codeword_bytes=64", "ecc_correct_bits=512",
					 "ecc_soft_bits=1" };
	/* Off, the codeword may be larger than a small page. */
	static const char *const small[] = { RBER_GEOMETRY, "page_size_bytes=512",
					     "logical_block_bytes=512" };
	static const char *const ok[] = { RBER_GEOMETRY, "rber_base_ppb=1",
					  "ecc_codeword_bytes=4096", "ecc_soft_bits=40" };
	struct ssd_config cfg;

	expect_refused(wear_off, ARRAY_SIZE(wear_off), "rber_wear_ppb with the model off");
	expect_refused(ret_off, ARRAY_SIZE(ret_off), "retention with the model off");
	expect_refused(cw, ARRAY_SIZE(cw), "a codeword larger than a page");
	expect_refused(soft, ARRAY_SIZE(soft), "ecc_soft_bits above t");
	expect_refused(t, ARRAY_SIZE(t), "t as large as a codeword");
	make_config(&cfg, ok, ARRAY_SIZE(ok));
	EXPECT(ssd_device_validate_config(&cfg) == 0, "good keys refused");
	make_config(&cfg, small, ARRAY_SIZE(small));
	EXPECT(ssd_device_validate_config(&cfg) == 0, "512-byte pages refused");
	ssd_config_defaults(&cfg);
	EXPECT(ssd_config_set(&cfg, "rber_base_ppb", "100000001") == -EINVAL, "range");
	EXPECT(ssd_config_set(&cfg, "ecc_codeword_bytes", "1000") == -EINVAL, "pow2");
}

/* A snapshot of @dev loaded with "@key=@value" set over its configuration. */
static struct ssd_device *load_with(struct ssd_device *dev, const char *key, const char *value)
{
	struct ssd_device *out = NULL;
	struct ssd_config cfg;
	struct mem_snap m;
	u64 data_pages;

	snap_save(dev, &m);
	snap_rewind(&m);
	memset(&cfg, 0, sizeof(cfg));
	EXPECT(ssd_snapshot_read_config(&m.r, &cfg, &data_pages) == 0, "config");
	EXPECT(ssd_config_set(&cfg, key, value) == 0, "%s", key);
	EXPECT(ssd_device_create_from(&out, &cfg, &m.r, data_pages) == 0, "load with %s=%s",
	       key, value);
	free(m.bytes);
	return out;
}

/*
 * A device worn with read errors off, loaded with them on: the model
 * wears with the FTL's erase counts; and a device saved with them on
 * loads with them off.
 */
static void test_snapshot_switch(void)
{
	static const char *const a[] = { RBER_GEOMETRY };
	struct ssd_device *dev = make_device(a, ARRAY_SIZE(a)), *on, *off;
	u32 page = ssd_device_page_bytes(dev), block, erased = 0;
	u64 pages = ssd_device_capacity_bytes(dev) / page, i, rng = 7;
	u8 *buf = malloc(page);
	struct ftl *ftl;

	EXPECT(buf, "out of memory");
	for (i = 0; i < pages * 4; i++) {
		fill(buf, page, i);
		EXPECT(submit(dev, SSD_OP_WRITE, rng_below(&rng, pages) * page, page, buf) == 0,
		       "write");
	}
	on = load_with(dev, "rber_base_ppb", "1000");
	ftl = unit_ftl(on);
	EXPECT(ftl->flash->ecc, "model on after the load");
	for (block = 0; block < ftl->total_blocks; block++) {
		EXPECT(ftl->flash->ecc->erase_count[block] == ftl->blocks[block].erase_count,
		       "block %u: %u erases, the FTL says %u", block,
		       ftl->flash->ecc->erase_count[block], ftl->blocks[block].erase_count);
		erased += ftl->blocks[block].erase_count > 0;
	}
	EXPECT(erased, "the device was worn");
	off = load_with(on, "rber_base_ppb", "0");
	EXPECT(!unit_ftl(off)->flash->ecc, "model off after the load");
	{
		struct ssd_stats sa, sb;

		ssd_device_get_stats(on, &sa);
		ssd_device_get_stats(off, &sb);
		EXPECT(sa.valid_pages == sb.valid_pages && sa.erase_count_total == sb.erase_count_total &&
		       sa.flash_program_pages == sb.flash_program_pages, "the same device");
	}
	ssd_device_destroy(off);
	ssd_device_destroy(on);
	ssd_device_destroy(dev);
	free(buf);
}

int test_rber(int argc, char **argv)
{
	test_keys();
	test_off();
	test_determinism();
	test_monotone();
	test_retry_time();
	test_uncorrectable();
	test_inject_commands();
	test_inject_requests();
	test_snapshot_switch();
	printf("rber: ok\n");
	return 0;
}

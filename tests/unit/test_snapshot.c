// SPDX-License-Identifier: GPL-2.0
/*
 * test_snapshot.c - snapshots of the core (device/ssd_snapshot.c):
 *
 *  - a device aged by random writes, overwrites and TRIMs at high
 *    utilisation (GC running) is saved to memory and loaded into a new
 *    device: same counters, same data; then the same further requests on
 *    both give the same completion times and counters (the loaded device
 *    places and collects exactly as the saved one would have);
 *  - saving does not disturb the saved device, and saving the loaded one
 *    gives the same bytes;
 *  - every configuration the model tests run (cache, dedup) round-trips;
 *  - bad files are refused with nothing left behind: every truncation
 *    point, a flipped byte in every section (checksum), another version,
 *    a wrong magic, a page map pointing outside the flash (with a correct
 *    checksum), data beyond the memory limit.
 */
#include "unit.h"

/* A snapshot in memory: the writer appends, the reader reads from @pos. */
struct mem_snap {
	struct ssd_snap_writer w;
	struct ssd_snap_reader r;
	u8 *bytes;
	u64 len, cap, pos;
};

static int mem_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	struct mem_snap *m = container_of(w, struct mem_snap, w);

	if (m->len + len > m->cap) {
		u64 cap = m->cap ? m->cap : 1 << 20;

		while (cap < m->len + len)
			cap *= 2;
		m->bytes = realloc(m->bytes, cap);
		EXPECT(m->bytes, "out of memory");
		m->cap = cap;
	}
	memcpy(m->bytes + m->len, buf, len);
	m->len += len;
	return 0;
}

static int mem_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	struct mem_snap *m = container_of(r, struct mem_snap, r);

	if (m->pos + len > m->len)
		return -ENODATA;
	memcpy(buf, m->bytes + m->pos, len);
	m->pos += len;
	return 0;
}

static void snap_save(struct ssd_device *dev, struct mem_snap *m)
{
	memset(m, 0, sizeof(*m));
	m->w.write = mem_write;
	EXPECT(ssd_device_save(dev, &m->w) == 0, "save failed");
}

/* Load @m into a new device; its result, *@out set on success. */
static int snap_load(struct mem_snap *m, struct ssd_device **out)
{
	struct ssd_config cfg;
	u64 data_pages;
	int ret;

	memset(&m->r, 0, sizeof(m->r));
	m->r.read = mem_read;
	m->r.dev_name = "";
	m->pos = 0;
	memset(&cfg, 0, sizeof(cfg));
	ret = ssd_snapshot_read_config(&m->r, &cfg, &data_pages);
	if (ret)
		return ret;
	return ssd_device_create_from(out, &cfg, &m->r, data_pages);
}

static void expect_same_stats(struct ssd_device *a, struct ssd_device *b, const char *when)
{
	struct ssd_stats sa, sb;

	ssd_device_get_stats(a, &sa);
	ssd_device_get_stats(b, &sb);
#define SAME(name) EXPECT(sa.name == sb.name, "%s: %s %llu != %llu", when, #name, \
			  (unsigned long long)sa.name, (unsigned long long)sb.name);
	SSD_STATS_FIELDS(SAME)
#undef SAME
}

/* Random page writes, overwrites, TRIMs and reads from @rng on both devices. */
static void run_ops(struct ssd_device *a, struct ssd_device *b, u64 *rng, u64 ops,
		    u64 *arrival_ns)
{
	u64 pages = ssd_device_capacity_bytes(a) / 4096, i;
	u8 buf_a[4096], buf_b[4096];

	for (i = 0; i < ops; i++) {
		u64 lpn = rng_below(rng, pages), kind = rng_below(rng, 10);
		enum ssd_op op = kind < 7 ? SSD_OP_WRITE : kind < 8 ? SSD_OP_TRIM : SSD_OP_READ;
		struct flat_iter fa, fb;
		struct ssd_request req = { .op = op, .offset_bytes = lpn * 4096,
					   .length_bytes = 4096, .arrival_ns = *arrival_ns };
		u64 done_a, done_b = 0;

		memset(buf_a, (int)(lpn * 7 + i), sizeof(buf_a));
		memcpy(buf_b, buf_a, sizeof(buf_b));
		flat_iter_init(&fa, buf_a);
		req.data = &fa.it;
		EXPECT(ssd_device_submit(a, &req, &done_a) == 0, "request %llu",
		       (unsigned long long)i);
		if (b) {
			flat_iter_init(&fb, buf_b);
			req.data = &fb.it;
			EXPECT(ssd_device_submit(b, &req, &done_b) == 0, "request %llu",
			       (unsigned long long)i);
			EXPECT(done_a == done_b, "request %llu completes at %llu and %llu",
			       (unsigned long long)i, (unsigned long long)done_a,
			       (unsigned long long)done_b);
			if (op == SSD_OP_READ)
				EXPECT(!memcmp(buf_a, buf_b, sizeof(buf_a)), "read %llu differs",
				       (unsigned long long)i);
		}
		*arrival_ns += 20000;
	}
}

static void expect_same_data(struct ssd_device *a, struct ssd_device *b)
{
	u64 pages = ssd_device_capacity_bytes(a) / 4096, lpn;
	static u8 buf_a[4096], buf_b[4096];

	for (lpn = 0; lpn < pages; lpn++) {
		EXPECT(submit(a, SSD_OP_READ, lpn * 4096, 4096, buf_a) == 0, "read a");
		EXPECT(submit(b, SSD_OP_READ, lpn * 4096, 4096, buf_b) == 0, "read b");
		EXPECT(!memcmp(buf_a, buf_b, 4096), "lpn %llu differs after the load",
		       (unsigned long long)lpn);
	}
}

/* Age, save, load, compare; go on on both and compare again. */
static void round_trip(const char *const *settings, unsigned int count, u64 seed)
{
	struct ssd_device *a = make_device(settings, count), *b = NULL;
	struct mem_snap m, again;
	u64 rng = seed, arrival = 0;
	struct ssd_stats st;

	run_ops(a, NULL, &rng, 6000, &arrival);
	snap_save(a, &m);
	EXPECT(snap_load(&m, &b) == 0, "load of a fresh snapshot refused");
	expect_same_stats(a, b, "after the load");
	/* The loaded device saves to the very same bytes. */
	snap_save(b, &again);
	EXPECT(again.len == m.len && !memcmp(again.bytes, m.bytes, m.len),
	       "saving the loaded device gives other bytes");
	free(again.bytes);
	/* Reading every page on both changes both alike. */
	expect_same_data(a, b);
	run_ops(a, b, &rng, 6000, &arrival);
	expect_same_stats(a, b, "after 6000 more requests");
	ssd_device_get_stats(a, &st);
	EXPECT(st.gc_relocated_pages > 0, "GC never ran: the test ages nothing");
	EXPECT(ssd_device_check(a) == 0 && ssd_device_check(b) == 0, "checks");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	printf("snapshot: %llu bytes for %llu MiB of valid data, %llu GC relocations\n",
	       (unsigned long long)m.len, (unsigned long long)(st.data_bytes >> 20),
	       (unsigned long long)st.gc_relocated_pages);
	free(m.bytes);
}

/* @m must be refused, leaving no device (ASan sees what a failure leaks). */
static void expect_refused(struct mem_snap *m, const char *what)
{
	struct ssd_device *dev = NULL;

	ssd_log_quiet = 1;
	EXPECT(snap_load(m, &dev) != 0 && !dev, "%s accepted", what);
	ssd_log_quiet = 0;
}

/*
 * Set the u32 at @offset of section @tag's payload to @value, give the
 * section a correct checksum again, and expect a refusal: the content is
 * what is wrong, not the framing.
 */
static void refuse_edited(struct mem_snap *m, u32 tag, u64 offset, u32 value, const char *what)
{
	u64 pos = 0;

	while (pos + 12 <= m->len) {
		u32 t = m->bytes[pos] | m->bytes[pos + 1] << 8 | m->bytes[pos + 2] << 16 |
			(u32)m->bytes[pos + 3] << 24;
		u64 len = 0, i;
		u32 crc;

		for (i = 0; i < 8; i++)
			len |= (u64)m->bytes[pos + 4 + i] << (8 * i);
		if (t == tag) {
			u8 *p = m->bytes + pos + 12;

			for (i = 0; i < 4; i++)
				p[offset + i] = (u8)(value >> (8 * i));
			crc = ssd_crc32(0, p, len);
			for (i = 0; i < 4; i++)
				p[len + i] = (u8)(crc >> (8 * i));
			expect_refused(m, what);
			return;
		}
		pos += 12 + len + 4;
	}
	FAIL("no section %08x", tag);
}

static void test_bad_files(const char *const *settings, unsigned int count)
{
	struct ssd_device *a = make_device(settings, count), *b = NULL;
	struct mem_snap m;
	u64 rng = 5, arrival = 0, good_len, cut;
	u8 *good;

	run_ops(a, NULL, &rng, 3000, &arrival);
	snap_save(a, &m);
	good_len = m.len;
	good = malloc(good_len);
	EXPECT(good, "out of memory");
	memcpy(good, m.bytes, good_len);
	/* Truncated anywhere: a step that samples every region of the file. */
	for (cut = 0; cut < good_len; cut += 1 + cut / 7) {
		m.len = cut;
		expect_refused(&m, "a truncated snapshot");
	}
	m.len = good_len;
	/* A flipped byte anywhere: a checksum, a length, a tag or a value. */
	for (cut = 0; cut < good_len; cut += 1 + cut / 5) {
		m.bytes[cut] ^= 0x5a;
		expect_refused(&m, "a corrupted snapshot");
		m.bytes[cut] ^= 0x5a;
	}
	/* Consistent checksums, inconsistent content: caught by the checks. */
	refuse_edited(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), 88, 0xfffffff0, "a map beyond the flash");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, SSD_SNAP_TAG('F', 'T', 'L', ' '), 88 + 4 * 3, 0, "two lpns on one ppa");
	memcpy(m.bytes, good, good_len);
	refuse_edited(&m, SSD_SNAP_TAG('D', 'E', 'V', 'C'), 0, 4096, "another capacity");
	memcpy(m.bytes, good, good_len);
	/* Another format version (byte 28: after HEAD's 12-byte frame and magic). */
	m.bytes[12 + 16] = 2;
	expect_refused(&m, "format version 2");
	memcpy(m.bytes, good, good_len);
	EXPECT(snap_load(&m, &b) == 0, "the good snapshot, restored, refused");
	ssd_device_destroy(b);
	ssd_device_destroy(a);
	free(good);
	free(m.bytes);
}

/* Data beyond the memory limit is refused before anything is allocated. */
static void test_memory_limit(void)
{
	static const char *const s[] = { "pages_per_block=16", "blocks_per_chip=64",
					  "chips=4", "channels=2", "op_percent=15" };
	struct ssd_device *a = make_device(s, ARRAY_SIZE(s)), *b = NULL;
	struct ssd_config cfg;
	struct mem_snap m;
	u64 rng = 9, arrival = 0, data_pages, before;

	run_ops(a, NULL, &rng, 4000, &arrival);
	snap_save(a, &m);
	memset(&m.r, 0, sizeof(m.r));
	m.r.read = mem_read;
	m.r.dev_name = "";
	m.pos = 0;
	memset(&cfg, 0, sizeof(cfg));
	EXPECT(ssd_snapshot_read_config(&m.r, &cfg, &data_pages) == 0, "config");
	EXPECT(ssd_config_set(&cfg, "memory_limit_mb", "4") == 0, "limit");
	before = ssd_zalloc_bytes_total;
	ssd_log_quiet = 1;
	EXPECT(ssd_device_create_from(&b, &cfg, &m.r, data_pages) == -EINVAL && !b,
	       "%llu pages of data loaded under 4 MiB", (unsigned long long)data_pages);
	ssd_log_quiet = 0;
	EXPECT(ssd_zalloc_bytes_total == before, "tables allocated before the refusal");
	ssd_device_destroy(a);
	free(m.bytes);
}

#define GEOMETRY "pages_per_block=16", "blocks_per_chip=32", "chips=4", "channels=2", \
	"op_percent=15"

int test_snapshot(int argc, char **argv)
{
	static const char *const plain[] = { GEOMETRY };
	static const char *const slow[] = { GEOMETRY, "gc_pages_per_write=1",
					    "gc_policy=cost_benefit", "logical_block_bytes=512" };

	round_trip(plain, ARRAY_SIZE(plain), 1);
	round_trip(slow, ARRAY_SIZE(slow), 2);
	test_bad_files(plain, ARRAY_SIZE(plain));
	test_memory_limit();
	printf("snapshot: ok\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_snapshot.c - libFuzzer harness of the snapshot loader
 * (device/ssd_snapshot.c and every part's load: flash, FTL, write cache
 * and its policies, dedup).  Input: byte 0, then a snapshot file.  With
 * bit 0 of byte 0 set, every section's CRC-32 is made right first, so
 * the mutations reach the loaders' checks instead of the checksum; with
 * it clear the file goes in as it is (the framing and checksums).
 *
 * The configuration the file holds is kept small (at most 2^16 flash
 * pages, memory_limit_mb held to 64) or the input is skipped.  Properties
 * of a snapshot the loader accepts:
 *  - the device passes its full consistency check;
 *  - every page reads back (the contents are the shadow from then on);
 *    a sequence of writes, TRIMs, reads and flushes drawn from the input
 *    runs without an error other than -ENOSPC and reads what the shadow
 *    says, and the check passes again;
 *  - the device saves, and that snapshot loads again with the same data.
 * Refused inputs must leave nothing behind (LeakSanitizer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/flat_iter.h"
#include "common/ssd_config.h"
#include "device/ssd_device.h"
#include "tests/fuzz/fuzz_quiet.h"

#define FUZZ_OPS	64		/* requests run on an accepted device */
#define MAX_CAPACITY	(8U << 20)	/* the shadow's size */

static void must(int cond, const char *what)
{
	if (!cond) {
		dprintf(2, "fuzz_snapshot: %s\n", what);
		abort();
	}
}

/* A snapshot in memory, read or written. */
struct mem_file {
	struct ssd_snap_reader r;
	struct ssd_snap_writer w;
	unsigned char *bytes;
	size_t len, cap, pos;
};

static int mem_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	struct mem_file *m = (struct mem_file *)((char *)r - offsetof(struct mem_file, r));

	if (len > m->len - m->pos)
		return -ENODATA;
	memcpy(buf, m->bytes + m->pos, len);
	m->pos += len;
	return 0;
}

static int mem_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	struct mem_file *m = (struct mem_file *)((char *)w - offsetof(struct mem_file, w));

	if (m->len + len > m->cap) {
		size_t cap = m->cap ? m->cap : 1 << 16;

		while (cap < m->len + len)
			cap *= 2;
		m->bytes = realloc(m->bytes, cap);
		must(m->bytes != NULL, "out of memory");
		m->cap = cap;
	}
	memcpy(m->bytes + m->len, buf, len);
	m->len += len;
	return 0;
}

/* Give every whole section of @p a correct CRC-32. */
static void fix_checksums(unsigned char *p, size_t len)
{
	size_t pos = 0;

	while (len - pos >= 16) {
		u64 payload = 0;
		u32 crc;
		int i;

		for (i = 0; i < 8; i++)
			payload |= (u64)p[pos + 4 + i] << (8 * i);
		if (payload > len - pos - 16)
			return;
		crc = ssd_crc32(0, p + pos + 12, payload);
		for (i = 0; i < 4; i++)
			p[pos + 12 + payload + i] = (u8)(crc >> (8 * i));
		pos += 16 + payload;
	}
}

/* A device from @m, or NULL if refused (or too big to try). */
static struct ssd_device *load(struct mem_file *m)
{
	struct ssd_device *dev = NULL;
	struct ssd_config cfg;
	u64 data_pages;

	memset(&m->r, 0, sizeof(m->r));
	m->r.read = mem_read;
	m->r.dev_name = "fuzz";
	m->pos = 0;
	memset(&cfg, 0, sizeof(cfg));
	if (ssd_snapshot_read_config(&m->r, &cfg, &data_pages))
		return NULL;
	if (cfg.memory_limit_mb == 0 || cfg.memory_limit_mb > 64)
		cfg.memory_limit_mb = 16;
	if (ssd_device_validate_config(&cfg) || ssd_config_physical_pages(&cfg) > (1 << 16) ||
	    cfg.request_log_entries > (1 << 16) || cfg.cmd_queue_depth > (1 << 12))
		return NULL;
	if (ssd_device_create_from(&dev, &cfg, &m->r, data_pages))
		return NULL;
	return dev;
}

static int submit(struct ssd_device *dev, enum ssd_op op, u64 off, u64 len, void *buf,
		  u64 arrival)
{
	struct ssd_request req = { .op = op, .offset_bytes = off, .length_bytes = len,
				   .arrival_ns = arrival };
	struct flat_iter fi;
	u64 done;

	if (buf) {
		flat_iter_init(&fi, buf);
		req.data = &fi.it;
	}
	return ssd_device_submit(dev, &req, &done);
}

/*
 * Whether reads give the data back: data_store=digest and none keep no
 * bytes (the requests, checks and the round trip still run).
 */
static bool bytes_kept;

/* Every page of @dev equals @shadow. */
static void expect_data(struct ssd_device *dev, const unsigned char *shadow, u64 capacity,
			u64 page, unsigned char *buf, u64 arrival)
{
	u64 off;

	for (off = 0; off < capacity; off += page) {
		must(submit(dev, SSD_OP_READ, off, page, buf, arrival) == 0, "read failed");
		must(!bytes_kept || !memcmp(buf, shadow + off, page), "a page reads other data");
	}
}

/* Requests drawn from @seed on accepted @dev, against @shadow. */
static u64 run(struct ssd_device *dev, unsigned char *shadow, u64 capacity, u64 page,
	       unsigned char *buf, u64 seed)
{
	u64 pages = capacity / page, arrival = 1ULL << 40, i;

	for (i = 0; i < FUZZ_OPS; i++) {
		u64 r = seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		u64 lpn = (r >> 20) % pages;
		int ret;

		arrival += (r >> 8) & 0xffff;
		switch ((r >> 60) & 7) {
		case 0:
		case 1:
		case 2:
			/* Four contents in all: duplicates for dedup. */
			memset(buf, (int)((r >> 40) & 3) + 1, page);
			ret = submit(dev, SSD_OP_WRITE, lpn * page, page, buf, arrival);
			must(ret == 0 || ret == -ENOSPC, "write failed");
			if (!ret)
				memcpy(shadow + lpn * page, buf, page);
			break;
		case 3:
			must(submit(dev, SSD_OP_TRIM, lpn * page, page, NULL, arrival) == 0,
			     "trim failed");
			memset(shadow + lpn * page, 0, page);
			break;
		case 4:
			must(submit(dev, SSD_OP_FLUSH, 0, 0, NULL, arrival) == 0, "flush failed");
			break;
		default:
			must(submit(dev, SSD_OP_READ, lpn * page, page, buf, arrival) == 0,
			     "read failed");
			must(!bytes_kept || !memcmp(buf, shadow + lpn * page, page),
			     "a read differs");
			break;
		}
	}
	return arrival;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet_stderr();
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static unsigned char shadow[MAX_CAPACITY], buf[65536];
	struct mem_file in = { 0 }, out = { 0 };
	struct ssd_device *dev, *again;
	u64 capacity, page, seed = 0, arrival;
	size_t i;

	if (size < 1)
		return 0;
	ssd_log_quiet = 1;
	in.len = size - 1;
	in.bytes = malloc(in.len ? in.len : 1);
	must(in.bytes != NULL, "out of memory");
	memcpy(in.bytes, data + 1, in.len);
	if (data[0] & 1)
		fix_checksums(in.bytes, in.len);
	dev = load(&in);
	free(in.bytes);
	if (!dev)
		return 0;
	must(ssd_device_check(dev) == 0, "an accepted snapshot fails the check");
	capacity = ssd_device_capacity_bytes(dev);
	page = ssd_device_page_bytes(dev);
	bytes_kept = ssd_device_data_store(dev) == SSD_DATA_BYTES;
	if (capacity > sizeof(shadow) || page > sizeof(buf)) {
		ssd_device_destroy(dev);
		return 0;
	}
	/* What the device holds is the shadow, then requests keep it. */
	for (i = 0; i < capacity; i += page)
		must(submit(dev, SSD_OP_READ, i, page, shadow + i, 1ULL << 40) == 0,
		     "read after the load failed");
	for (i = 0; i < size; i++)
		seed = seed * 31 + data[i];
	arrival = run(dev, shadow, capacity, page, buf, seed);
	must(ssd_device_check(dev) == 0, "the check fails after requests");
	/* Saved again, it loads again with the same data. */
	out.w.write = mem_write;
	must(ssd_device_save(dev, &out.w) == 0, "an accepted device does not save");
	ssd_device_destroy(dev);
	again = load(&out);
	must(again != NULL, "a saved device's snapshot is refused");
	expect_data(again, shadow, capacity, page, buf, arrival);
	ssd_device_destroy(again);
	free(out.bytes);
	return 0;
}

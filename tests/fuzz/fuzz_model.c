// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_model.c - libFuzzer harness of the model: random operation
 * sequences against a small device, checked against a shadow copy.
 *
 * Input: byte 0 picks a configuration (page size, sector size, GC policy,
 * GC step, SLC region, read priority, background GC, timing of unwritten
 * reads); then 8 bytes per operation: op, offset (2 bytes), length,
 * arrival gap, fill seed, 2 spare.  Operations: write, read (checked
 * against the shadow), trim (whole pages become zeros, partial pages keep
 * their data), write-zeroes, flush, the full consistency check, and a
 * request beyond the capacity (refused with -EINVAL, nothing changed).
 * At the end every byte is read back and the device checked once more.
 * Bytes left over after the last whole operation: the last one picks the
 * FTL's mapping scheme (ftl_type, every registered one), for the
 * log-block schemes how many log blocks (0: the default, or 2..4), DFTL's
 * CMT size and static wear levelling; with none, the page scheme.  Under
 * any other scheme an update may cost a merge (milliseconds of flash
 * work), so requests are at most
 * BLOCK_MAX_SECTORS long and arrive BLOCK_GAP_SCALE times further apart:
 * the modeled backlog, and with it the timing model's booked intervals,
 * stays as short as under the page scheme.
 *
 * Under the page scheme the same last byte may switch on bad blocks and
 * wear-out (docs/faults.md): grown failures with pe_cycle_limit=2, factory
 * bad blocks, or both, seeded from byte 0.  The device may then turn
 * read-only: a write or TRIM that meets the end of life fails with -EROFS
 * after the pages before the failing one were written, so each page of
 * its range must read back either its old or its new contents (the shadow
 * takes what it holds); every later write or TRIM fails with -EROFS and
 * changes nothing, and reads keep returning the acknowledged data.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/flat_iter.h"
#include "common/ssd_config.h"
#include "device/ssd_device.h"
#include "ftl/ftl_internal.h"

#define MAX_SECTORS	256U	/* logical blocks per request, at most */
#define BLOCK_MAX_SECTORS 16U	/* ... under an ftl_type other than page */
#define BLOCK_GAP_SCALE	16U	/* arrival gaps stretched under one */

static void must(int cond, const char *what)
{
	if (!cond) {
		fprintf(stderr, "fuzz_model: %s\n", what);
		abort();
	}
}

static void configure(struct ssd_config *cfg, unsigned char pick, unsigned char ftl_pick)
{
	ssd_config_defaults(cfg);
	cfg->chips = 2;
	cfg->channels = 1 + (pick & 1);
	cfg->pages_per_block = 8;
	cfg->blocks_per_chip = 24;
	cfg->op_percent = 25;
	cfg->page_size_bytes = (pick & 2) ? 4096 : 2048;
	cfg->logical_block_bytes = (pick & 6) == 6 ? 4096 : 512;
	cfg->gc_policy = (pick >> 3) & 1;
	cfg->gc_pages_per_write = (pick & 16) ? 0 : 3;
	cfg->slc_blocks_per_chip = (pick & 32) ? 8 : 0;
	cfg->read_priority = (pick >> 6) & 1;
	cfg->gc_background_free_blocks = (pick & 128) ? 6 : 0;
	cfg->read_unwritten_flash = !(pick & 128);
	cfg->memory_limit_mb = 64;
	cfg->request_log_entries = 64;
	cfg->ftl_type = ftl_pick % ssd_key_ftl_type.choice->nr;
	ftl_pick /= ssd_key_ftl_type.choice->nr;
	ssd_config_put(cfg, ssd_config_find("ftl_log_blocks"), ftl_pick % 4 ? 1 + ftl_pick % 4 : 0);
	ssd_config_put(cfg, ssd_config_find("dftl_cmt_entries"), 2 + (ftl_pick / 4 % 8) * 4);
	cfg->wl_static_threshold = ftl_pick >= 32 ? 2 : 0;
	/* Bad blocks and wear-out: the page scheme only, with spare blocks to lose. */
	if (!cfg->ftl_type && ftl_pick % 4) {
		cfg->op_percent = 40;
		cfg->fault_seed = pick;
		cfg->grown_bad_ppm = ftl_pick & 1 ? 100000 : 0;
		cfg->bad_block_ppm = ftl_pick & 2 ? 50000 : 0;
		cfg->pe_cycle_limit = 2;
	}
	/* DFTL's translation blocks need spare room beside the SLC region. */
	if (!strcmp(ssd_key_ftl_type.choice->name(cfg->ftl_type), "dftl") &&
	    cfg->slc_blocks_per_chip)
		cfg->op_percent = 40;
}

/*
 * A request that met the end of life (-EROFS): each page of [@off, @off +
 * @len) holds its old contents (@shadow) or the new ones (@new, the range's
 * own bytes); the shadow takes what the device holds.
 */
static void settle(struct ssd_device *dev, u8 *shadow, const u8 *new, u64 off, u64 len,
		   u8 *buf, u64 arrival)
{
	u64 page = ssd_device_page_bytes(dev), pos = off, done;
	struct ssd_request req = { .op = SSD_OP_READ, .offset_bytes = off, .length_bytes = len,
				   .arrival_ns = arrival };
	struct flat_iter fi;

	must(ssd_device_read_only(dev), "-EROFS from a writable device");
	req.data = &fi.it;
	flat_iter_init(&fi, buf);
	must(ssd_device_submit(dev, &req, &done) == 0, "read after the end of life failed");
	while (pos < off + len) {
		u64 end = (pos / page + 1) * page, n;

		if (end > off + len)
			end = off + len;
		n = end - pos;
		must(!memcmp(buf + (pos - off), shadow + pos, n) ||
		     !memcmp(buf + (pos - off), new + (pos - off), n),
		     "a page of a refused request holds neither its old nor its new data");
		pos = end;
	}
	memcpy(shadow + off, buf, len);
}

/* Write data, made once: loops in the harness would be instrumented. */
static u8 pattern[MAX_SECTORS * 4096 + 256 * 257];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	u64 state = 0x9e3779b97f4a7c15ULL;
	size_t i;

	for (i = 0; i < sizeof(pattern); i++) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		pattern[i] = (u8)(state >> 56);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static unsigned char shadow[8 << 20], buf[MAX_SECTORS * 4096], new[MAX_SECTORS * 4096];
	struct ssd_device *dev;
	struct ssd_config cfg;
	struct flat_iter fi;
	u64 capacity, unit, arrival = 0, done, max_sectors = MAX_SECTORS, gap_scale = 1;
	size_t i;

	if (size < 1)
		return 0;
	ssd_log_quiet = 1;
	configure(&cfg, data[0], (size - 1) % 8 ? data[size - 1] : 0);
	if (cfg.ftl_type) {
		max_sectors = BLOCK_MAX_SECTORS;
		gap_scale = BLOCK_GAP_SCALE;
	}
	if (ssd_device_create(&dev, &cfg))
		abort();	/* every variant is valid */
	capacity = ssd_device_capacity_bytes(dev);
	unit = cfg.logical_block_bytes;
	must(capacity <= sizeof(shadow), "shadow too small");
	memset(shadow, 0, capacity);
	for (i = 1; i + 8 <= size; i += 8) {
		const unsigned char *op = data + i;
		u64 sectors = capacity / unit;
		u64 first = ((u64)op[1] | (u64)op[2] << 8) % sectors;
		u64 count = 1 + op[3] % max_sectors;
		struct ssd_request req = { 0 };
		u8 *src;
		u64 off, len;
		int ret;

		if (first + count > sectors)
			count = sectors - first;
		off = first * unit;
		len = count * unit;
		arrival += (u64)op[4] * op[4] * 1000 * gap_scale;
		done = arrival;
		req.arrival_ns = arrival;
		req.offset_bytes = off;
		req.length_bytes = len;
		req.data = &fi.it;
		switch (op[0] % 8) {
		case 0:
		case 1:
			/* Data: the pattern from a point the input picks. */
			src = pattern + op[5] * 257;
			req.op = SSD_OP_WRITE;
			flat_iter_init(&fi, src);
			ret = ssd_device_submit(dev, &req, &done);
			if (ret == -EROFS) {
				settle(dev, shadow, src, off, len, buf, arrival);
				break;
			}
			must(ret == 0, "write failed");
			memcpy(shadow + off, src, len);
			break;
		case 2:
		case 3:
			req.op = SSD_OP_READ;
			memset(buf, 0xa5, len);
			flat_iter_init(&fi, buf);
			must(ssd_device_submit(dev, &req, &done) == 0, "read failed");
			must(!memcmp(buf, shadow + off, len), "read differs from what was written");
			break;
		case 4: {
			u64 page = ssd_device_page_bytes(dev);
			u64 lo = (off + page - 1) / page * page, hi = (off + len) / page * page;

			req.op = (op[6] & 1) ? SSD_OP_WRITE_ZEROES : SSD_OP_TRIM;
			req.data = NULL;
			ret = ssd_device_submit(dev, &req, &done);
			if (ret == -EROFS) {
				memcpy(new, shadow + off, len);
				if (req.op == SSD_OP_WRITE_ZEROES)
					memset(new, 0, len);
				else if (hi > lo)
					memset(new + (lo - off), 0, hi - lo);
				settle(dev, shadow, new, off, len, buf, arrival);
				break;
			}
			must(ret == 0, "trim failed");
			if (req.op == SSD_OP_WRITE_ZEROES)
				memset(shadow + off, 0, len);
			else if (hi > lo)
				memset(shadow + lo, 0, hi - lo);
			break;
		}
		case 5:
			req.op = SSD_OP_FLUSH;
			req.data = NULL;
			must(ssd_device_submit(dev, &req, &done) == 0, "flush failed");
			break;
		case 6:
			must(ssd_device_check(dev) == 0, "consistency check failed");
			break;
		default:
			/* Beyond the end: refused, nothing done. */
			req.op = (op[6] & 1) ? SSD_OP_WRITE : SSD_OP_READ;
			req.offset_bytes = capacity - (op[6] & 2 ? 0 : unit);
			req.length_bytes = 2 * unit;
			flat_iter_init(&fi, buf);
			must(ssd_device_submit(dev, &req, &done) == -EINVAL,
			     "a request beyond the capacity was not refused");
			break;
		}
		must(done >= arrival, "completed before it arrived");
	}
	/* Everything reads back as the shadow says. */
	for (i = 0; i < capacity; i += sizeof(buf)) {
		struct ssd_request req = { .op = SSD_OP_READ, .offset_bytes = i,
					   .arrival_ns = arrival, .data = &fi.it };

		req.length_bytes = capacity - i < sizeof(buf) ? capacity - i : sizeof(buf);
		flat_iter_init(&fi, buf);
		must(ssd_device_submit(dev, &req, &done) == 0, "final read failed");
		must(!memcmp(buf, shadow + i, req.length_bytes), "final read differs");
	}
	must(ssd_device_check(dev) == 0, "final consistency check failed");
	/* For seeds: say whether the run reached the end of life. */
	if (getenv("FUZZ_MODEL_VERBOSE"))
		fprintf(stderr, "fuzz_model: read_only=%d\n", ssd_device_read_only(dev));
	ssd_device_destroy(dev);
	return 0;
}

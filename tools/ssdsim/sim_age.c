// SPDX-License-Identifier: GPL-2.0
/*
 * sim_age.c - ssdsim --age (sim_age.h): the fill, the random overwrites,
 * the erase-count target.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/ssd_rand.h"
#include "include/ssdemu_ioctl.h"
#include "user/flat_iter.h"
#include "tools/ssdsim/sim_age.h"
#include "tools/ssdsim/sim_data.h"
#include "tools/ssdsim/sim_values.h"
#include "tools/msg/msg.h"

/* The fill's requests: 128 KiB, or bs if larger. */
#define FILL_REQUEST_BYTES	(128 * 1024)
/* How often the erase-count target is looked at, in writes. */
#define ERASE_CHECK_WRITES	256
/* The erase-count target gives up after this many times the filled bytes. */
#define ERASE_MAX_OVERWRITES	10000

static int number(const char *key, const char *value, double min, double max, double *out)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v >= min && v <= max)) {
		msg_say("ssdsim: --age %s=%s refused: a number from %g to %g\n", key, value,
			min, max);
		return -1;
	}
	*out = v;
	return 0;
}

/* One "key=value" of the spec into @spec; @seen marks keys given. */
static int take(char *item, struct sim_age_spec *spec, unsigned int *seen)
{
	static const char *const names[] = { "fill", "overwrite", "erase_mean", "bs" };
	char *eq = strchr(item, '=');
	double bs;
	unsigned int k;

	for (k = 0; eq && k < 4; k++)
		if (strlen(names[k]) == (size_t)(eq - item) && !strncmp(item, names[k], eq - item))
			break;
	if (!eq || k == 4) {
		msg_say("ssdsim: --age '%s' refused: the spec is fill=F[,overwrite=N][,erase_mean=E][,bs=BYTES]\n",
			item);
		return -1;
	}
	if (*seen & (1u << k)) {
		msg_say("ssdsim: --age: %s given twice\n", names[k]);
		return -1;
	}
	*seen |= 1u << k;
	switch (k) {
	case 0:
		if (number("fill", eq + 1, 0, 1, &spec->fill))
			return -1;
		if (spec->fill <= 0) {
			msg_say("ssdsim: --age fill=%s refused: more than 0\n", eq + 1);
			return -1;
		}
		return 0;
	case 1:
		return number("overwrite", eq + 1, 0, 1000, &spec->overwrite);
	case 2:
		spec->has_erase_mean = true;
		return number("erase_mean", eq + 1, 0, 1e6, &spec->erase_mean);
	default:
		if (number("bs", eq + 1, 512, 1 << 20, &bs))
			return -1;
		spec->bs = (u64)bs;
		if ((double)spec->bs != bs) {
			msg_say("ssdsim: --age bs=%s refused: whole bytes\n", eq + 1);
			return -1;
		}
		return 0;
	}
}

int sim_age_parse(const char *text, struct sim_age_spec *spec)
{
	char *copy = strdup(text), *item, *save = NULL;
	unsigned int seen = 0;
	int ret = 0;

	if (!copy) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	memset(spec, 0, sizeof(*spec));
	spec->bs = 4096;
	for (item = strtok_r(copy, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save))
		ret = take(item, spec, &seen);
	free(copy);
	if (!ret && !(seen & 1)) {
		msg_say("ssdsim: --age %s refused: fill=F is required\n", text);
		ret = -1;
	}
	return ret;
}

/* A uniform number below @n (n > 0), without modulo bias. */
static u64 below(struct ssd_rand *rand, u64 n)
{
	u64 limit = U64_MAX - U64_MAX % n, v;

	do
		v = ssd_rand_next(rand);
	while (v >= limit);
	return v % n;
}

struct ager {
	struct ssd_device *dev;
	unsigned char *buf;
	u32 page_bytes;
	u64 seed;
	u64 done_ns;			/* the last request's completion */
	struct sim_age_result *res;
};

/* One write of @len at @offset, arriving when the one before completed. */
static int age_write(struct ager *a, u64 offset, u64 len)
{
	struct ssd_rand rand = { .state = a->seed ^ (a->res->requests * 0x9e3779b97f4a7c15ULL) };
	struct ssd_request req = { .fua = false };
	struct flat_iter fi;
	int ret;

	/*
	 * sim_fill_data() steps a counter from the seed it is given: hashed
	 * here, so no request's data is another's shifted (which made pages
	 * equal, and dedup found them).
	 */
	switch (ssd_device_data_store(a->dev)) {
	case SSD_DATA_BYTES:
		sim_fill_data(a->buf, offset, len, a->page_bytes, NULL, ssd_rand_next(&rand));
		break;
	case SSD_DATA_DIGEST:
		sim_fill_ids(a->buf, len, NULL, ssd_rand_next(&rand));
		break;
	default:
		break;
	}
	flat_iter_init(&fi, a->buf);
	req.op = SSD_OP_WRITE;
	req.offset_bytes = offset;
	req.length_bytes = len;
	req.arrival_ns = a->done_ns;
	req.data = ssd_device_data_store(a->dev) == SSD_DATA_NONE ? NULL : &fi.it;
	ret = ssd_device_submit(a->dev, &req, &a->done_ns);
	if (ret) {
		msg_say("ssdsim: --age: write of %llu bytes at %llu failed: %s\n",
			(unsigned long long)len, (unsigned long long)offset, strerror(-ret));
		return -1;
	}
	a->res->requests++;
	return 0;
}

/* The FLUSH a host's sync ends with: a layer's buffer drains. */
static int age_flush(struct ager *a)
{
	struct ssd_request req = { .op = SSD_OP_FLUSH, .arrival_ns = a->done_ns };
	int ret = ssd_device_submit(a->dev, &req, &a->done_ns);

	if (ret)
		msg_say("ssdsim: --age: the final flush failed: %s\n", strerror(-ret));
	return ret ? -1 : 0;
}

static u64 erase_mean_milli(struct ssd_device *dev)
{
	struct ssd_stats st;

	ssd_device_get_stats(dev, &st);
	return st.erase_count_mean_milli;
}

/* Random overwrites of the filled units: @count, or until the erase target. */
static int overwrite(struct ager *a, struct ssd_rand *rng, u64 units, u64 bs, u64 count,
		     u64 target_milli)
{
	u64 i;

	for (i = 0; i < count || target_milli; i++) {
		if (target_milli && i >= count && (i - count) % ERASE_CHECK_WRITES == 0) {
			if (erase_mean_milli(a->dev) >= target_milli)
				return 0;
			if (i >= ERASE_MAX_OVERWRITES * units) {
				msg_say("ssdsim: --age: the mean erase count is still %.3f after %llu random writes (%u x the filled bytes): the target is out of reach\n",
					erase_mean_milli(a->dev) / 1000.0, (unsigned long long)i,
					ERASE_MAX_OVERWRITES);
				return -1;
			}
		}
		if (age_write(a, below(rng, units) * bs, bs))
			return -1;
		a->res->overwrite_bytes += bs;
	}
	return 0;
}

int sim_age_run(struct ssd_device *dev, u32 block_bytes, const struct sim_age_spec *spec,
		u64 seed, bool final_flush, struct sim_age_result *res)
{
	u64 cap = ssd_device_capacity_bytes(dev), bs = spec->bs, units, filled, off;
	struct ssd_rand rng = { .state = seed };
	u64 chunk = max_t(u64, FILL_REQUEST_BYTES / bs * bs, bs);
	struct ssd_stats before, after;
	struct ager a = { .dev = dev, .page_bytes = ssd_device_page_bytes(dev), .seed = seed,
			  .done_ns = ssd_device_virtual_time_ns(dev), .res = res };
	int ret = -1;

	memset(res, 0, sizeof(*res));
	res->seed = seed;
	if (bs % block_bytes || bs > cap) {
		msg_say("ssdsim: --age bs=%llu refused: a multiple of the logical block (%u bytes), at most the capacity\n",
			(unsigned long long)bs, block_bytes);
		return -1;
	}
	units = (u64)(spec->fill * (double)(cap / bs));
	if (!units) {
		msg_say("ssdsim: --age fill=%g refused: less than one %llu-byte write\n",
			spec->fill, (unsigned long long)bs);
		return -1;
	}
	filled = units * bs;
	a.buf = malloc(chunk);
	if (!a.buf) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	ssd_device_get_stats(dev, &before);
	for (off = 0; off < filled; off += chunk)
		if (age_write(&a, off, min_t(u64, chunk, filled - off)))
			goto out;
	res->fill_bytes = filled;
	if (overwrite(&a, &rng, units, bs, (u64)ceil(spec->overwrite * (double)units),
		      spec->has_erase_mean ? (u64)ceil(spec->erase_mean * 1000.0) : 0))
		goto out;
	if (final_flush && age_flush(&a))
		goto out;
	ssd_device_get_stats(dev, &after);
	res->host_write_pages = after.host_write_pages - before.host_write_pages;
	res->flash_program_pages = after.flash_program_pages - before.flash_program_pages;
	res->valid_pages = after.valid_pages;
	res->logical_pages = after.logical_capacity_bytes / a.page_bytes;
	res->erase_count_mean_milli = after.erase_count_mean_milli;
	res->erase_count_max = after.erase_count_max;
	ret = 0;
out:
	free(a.buf);
	return ret;
}

static double ratio(u64 part, u64 whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

void sim_age_print_text(FILE *out, const struct sim_age_result *res)
{
	fprintf(out, "%-28s %llu\n", "age_seed", (unsigned long long)res->seed);
	fprintf(out, "%-28s %llu\n", "age_fill_bytes", (unsigned long long)res->fill_bytes);
	fprintf(out, "%-28s %llu\n", "age_overwrite_bytes",
		(unsigned long long)res->overwrite_bytes);
	fprintf(out, "%-28s %llu\n", "age_requests", (unsigned long long)res->requests);
	fprintf(out, "%-28s %.3f\n", "age_waf",
		ratio(res->flash_program_pages, res->host_write_pages));
	fprintf(out, "%-28s %.3f\n", "age_erase_count_mean", res->erase_count_mean_milli / 1000.0);
	fprintf(out, "%-28s %llu\n", "age_erase_count_max",
		(unsigned long long)res->erase_count_max);
	fprintf(out, "%-28s %.6f\n", "age_valid_fraction",
		ratio(res->valid_pages, res->logical_pages));
}

void sim_age_print_summary(FILE *out, const struct sim_age_result *res,
			   const struct ssdemu_stats *stats)
{
	const double mib = 1024.0 * 1024.0;

	fprintf(out, "aged (seed %llu): %.1f MiB written sequentially, then %.1f MiB of random overwrites: %llu requests\n",
		(unsigned long long)res->seed, res->fill_bytes / mib, res->overwrite_bytes / mib,
		(unsigned long long)res->requests);
	fprintf(out, "  WAF %.3f (flash programs per host page written while aging)\n",
		ratio(res->flash_program_pages, res->host_write_pages));
	fprintf(out, "  valid %.6f of the logical pages (%llu of %llu), %llu free blocks\n",
		ratio(res->valid_pages, res->logical_pages), (unsigned long long)res->valid_pages,
		(unsigned long long)res->logical_pages, (unsigned long long)stats->free_blocks);
	fprintf(out, "  erase count mean %.3f, max %llu (%llu blocks erased in all)\n",
		res->erase_count_mean_milli / 1000.0, (unsigned long long)res->erase_count_max,
		(unsigned long long)stats->flash_erase_blocks);
	fprintf(out, "every counter: --verbose; all of it: --json\n");
}

void sim_age_values(struct sim_values *vs, const struct sim_age_result *res)
{
	sim_values_object(vs, "age");
	sim_values_uint(vs, "seed", res->seed);
	sim_values_uint(vs, "fill_bytes", res->fill_bytes);
	sim_values_uint(vs, "overwrite_bytes", res->overwrite_bytes);
	sim_values_uint(vs, "requests", res->requests);
	sim_values_uint(vs, "host_write_pages", res->host_write_pages);
	sim_values_uint(vs, "flash_program_pages", res->flash_program_pages);
	sim_values_real(vs, "waf", "%.6f", ratio(res->flash_program_pages, res->host_write_pages));
	sim_values_real(vs, "erase_count_mean", "%.3f", res->erase_count_mean_milli / 1000.0);
	sim_values_uint(vs, "erase_count_max", res->erase_count_max);
	sim_values_uint(vs, "valid_pages", res->valid_pages);
	sim_values_uint(vs, "logical_pages", res->logical_pages);
	sim_values_real(vs, "valid_fraction", "%.6f", ratio(res->valid_pages, res->logical_pages));
	sim_values_end(vs);
}

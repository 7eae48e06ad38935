// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim_api.c - libssdsim.so's C API (ssdsim_api.h): ssdsim's program
 * run with its printing captured (ssdsim_api_io.h), and a device handle
 * that runs requests as ssdsim's replay (sim_replay.c) does.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/ssd_abi.h"
#include "tools/report/conf_file.h"
#include "user/flat_iter.h"
#include "tools/ssdsim/sim_data.h"
#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_store.h"
#include "tools/ssdsim/ssdsim_api.h"
#include "tools/ssdsim/ssdsim_api_io.h"
#include "tools/ssdsim/ssdsim_main.h"

int ssdsim_api_version(void)
{
	return SSDSIM_API_VERSION;
}

void ssdsim_api_free(void *p)
{
	free(p);
}

/* What a call prints, in memory. */
struct capture {
	FILE *out, *err;
	char *out_buf, *err_buf;
	size_t out_len, err_len;
};

static int capture_begin(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->out = open_memstream(&c->out_buf, &c->out_len);
	c->err = open_memstream(&c->err_buf, &c->err_len);
	if (!c->out || !c->err) {
		if (c->out)
			fclose(c->out);
		if (c->err)
			fclose(c->err);
		free(c->out_buf);
		free(c->err_buf);
		return -1;
	}
	ssdsim_api_capture(c->out, c->err);
	return 0;
}

/* Stop capturing; the texts go to *@out and *@err (each may be NULL: dropped). */
static void capture_end(struct capture *c, char **out, char **err)
{
	ssdsim_api_capture(NULL, NULL);
	fclose(c->out);
	fclose(c->err);
	if (out)
		*out = c->out_buf;
	else
		free(c->out_buf);
	if (err)
		*err = c->err_buf;
	else
		free(c->err_buf);
}

static char *text(const char *s)
{
	return strdup(s);
}

int ssdsim_api_run(int argc, const char *const *argv, char **out, char **err)
{
	struct sim_result res;
	struct capture c;
	char **args;
	int status;

	*out = NULL;
	*err = NULL;
	args = calloc(argc + 1, sizeof(*args));
	if (!args || capture_begin(&c)) {
		free(args);
		*err = text("ssdsim: out of memory\n");
		return 1;
	}
	memcpy(args, argv, argc * sizeof(*args));
	sim_result_init(&res);
	status = ssdsim_main(argc, args, stdout, &res);
	sim_result_free(&res);
	capture_end(&c, out, err);
	free(args);
	return status;
}

struct ssdsim_api_device {
	struct ssd_config cfg;
	struct sim_options o;		/* what the printing reads: --json */
	struct sim_run run;
};

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	if (ssd_config_set(ctx, key, value)) {
		fprintf(stderr, "ssdsim: %s: %s=%s refused\n", where, key, value);
		return -1;
	}
	return 0;
}

/* The defaults, the preset, then the keys, as ssdsim's command line. */
static int config_make(struct ssd_config *cfg, const char *config_path, int nr_keys,
		       const char *const *keys)
{
	int i;

	ssd_config_defaults(cfg);
	if (config_path && conf_file_read(config_path, set_pair, cfg))
		return -1;
	for (i = 0; i < nr_keys; i++)
		if (conf_pair_arg(keys[i], set_pair, cfg))
			return -1;
	return 0;
}

int ssdsim_api_config_check(const char *config_path, int nr_keys, const char *const *keys,
			    char **err)
{
	struct ssd_config cfg;
	struct capture c;
	int ret;

	*err = NULL;
	if (capture_begin(&c)) {
		*err = text("ssdsim: out of memory\n");
		return -1;
	}
	ret = config_make(&cfg, config_path, nr_keys, keys);
	if (!ret && ssd_device_validate_config(&cfg)) {
		fprintf(stderr, "ssdsim: configuration refused\n");
		ret = -1;
	}
	capture_end(&c, NULL, ret ? err : NULL);
	return ret;
}

static int device_make(struct ssdsim_api_device *d, const char *config_path, int nr_keys,
		       const char *const *keys, bool keep_data)
{
	struct sim_run *run = &d->run;

	if (config_make(&d->cfg, config_path, nr_keys, keys))
		return -1;
	d->o.json = true;
	d->o.format = TRACE_AUTO;
	d->o.data = keep_data;
	/* As ssdsim chooses (no trace to look at: a digest only for dedup). */
	if (sim_store_choose(&d->o, &d->cfg))
		return -1;
	run->o = &d->o;
	if (ssd_device_create(&run->dev, &d->cfg)) {
		fprintf(stderr, "ssdsim: configuration refused\n");
		return -1;
	}
	run->store = ssd_device_data_store(run->dev);
	run->content_counts = d->cfg.dedup;
	run->page_bytes = ssd_device_page_bytes(run->dev);
	run->place.capacity_bytes = ssd_device_capacity_bytes(run->dev);
	run->place.block_bytes = d->cfg.logical_block_bytes;
	return 0;
}

struct ssdsim_api_device *ssdsim_api_device_create(const char *config_path, int nr_keys,
						   const char *const *keys, int keep_data, char **err)
{
	struct ssdsim_api_device *d = calloc(1, sizeof(*d));
	struct capture c;
	int ret;

	*err = NULL;
	if (!d || capture_begin(&c)) {
		free(d);
		*err = text("ssdsim: out of memory\n");
		return NULL;
	}
	ret = device_make(d, config_path, nr_keys, keys, keep_data);
	capture_end(&c, NULL, err);
	if (ret) {
		ssdsim_api_device_destroy(d);
		return NULL;
	}
	return d;
}

/* One request as sim_replay.c's replay() runs one: 0, 1 (skipped) or -1. */
static int device_submit(struct sim_run *run, const struct trace_record *rec,
			 u64 *arrival_ns, u64 *completion_ns)
{
	struct sim_placing pl;
	struct sim_extent ext;
	struct ssd_request req = { .fua = false };
	struct flat_iter fi;
	u64 done_ns, last_ns = 0;
	int ret;

	if (rec->op > SSDEMU_OP_FLUSH) {
		fprintf(stderr, "ssdsim: op %u refused: 0 read, 1 write, 2 trim, 3 write zeroes, 4 flush\n",
			rec->op);
		return -1;
	}
	if (rec->length_bytes == 0 && rec->op != SSDEMU_OP_FLUSH)
		return 1;
	sim_place_begin(&run->place, rec, &pl);
	if (pl.start_bytes == pl.end_bytes && rec->op != SSDEMU_OP_FLUSH)
		return 1;
	if (sim_reserve_buffer(run, pl.end_bytes - pl.start_bytes + 1))
		return -1;
	while ((ret = sim_place_next(&run->place, &pl, &ext)) > 0) {
		/* As the replay fills and submits an extent, in the store's form. */
		if (pl.extents == 1 && rec->op == SSDEMU_OP_WRITE &&
		    sim_make_data(run, rec, &pl, ext.offset_bytes ^ (run->requests << 40)))
			return -1;
		sim_extent_request(run, rec, &ext, rec->arrival_ns, &fi, &req);
		ret = ssd_device_submit(run->dev, &req, &done_ns);
		if (ret) {
			fprintf(stderr, "ssdsim: request failed: %s\n", strerror(-ret));
			return -1;
		}
		last_ns = max_t(u64, last_ns, done_ns);
		*arrival_ns = ssd_device_last_arrival_ns(run->dev);
	}
	if (ret < 0) {
		fprintf(stderr, "ssdsim: out of memory\n");
		return -1;
	}
	*completion_ns = last_ns;
	if (!pl.extents)
		return 1;
	run->requests++;
	return 0;
}

int ssdsim_api_device_submit(struct ssdsim_api_device *d, unsigned int op,
			     uint64_t offset_bytes, uint64_t length_bytes, uint64_t arrival_ns,
			     const char *content_hash, uint64_t *arrival_ns_out,
			     uint64_t *completion_ns, char **err)
{
	struct trace_record rec = {
		.arrival_ns = arrival_ns, .offset_bytes = offset_bytes,
		.length_bytes = length_bytes, .op = op, .content_hash = content_hash,
	};
	struct capture c;
	int ret;

	*err = NULL;
	*arrival_ns_out = *completion_ns = 0;
	if (capture_begin(&c)) {
		*err = text("ssdsim: out of memory\n");
		return -1;
	}
	ret = device_submit(&d->run, &rec, arrival_ns_out, completion_ns);
	capture_end(&c, NULL, ret < 0 ? err : NULL);
	return ret;
}

char *ssdsim_api_device_stats(struct ssdsim_api_device *d)
{
	struct sim_result res;
	struct capture c;
	char *out = NULL;

	if (capture_begin(&c))
		return NULL;
	sim_result_init(&res);
	d->run.result = &res;
	d->run.out = stdout;
	sim_end_device(&d->run, &d->cfg, NULL);
	d->run.out = NULL;
	d->run.result = NULL;
	sim_result_free(&res);
	capture_end(&c, &out, NULL);
	return out;
}

void ssdsim_api_device_reset_stats(struct ssdsim_api_device *d)
{
	ssd_device_reset_stats(d->run.dev);
}

void ssdsim_api_device_destroy(struct ssdsim_api_device *d)
{
	if (!d)
		return;
	if (d->run.dev)
		ssd_device_destroy(d->run.dev);
	sim_place_free(&d->run.place);
	free(d->run.buf);
	free(d);
}

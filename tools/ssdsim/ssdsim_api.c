// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim_api.c - libssdsim.so's C API (ssdsim_api.h): ssdsim's program
 * run without printing, its result and messages handed over, and a device
 * handle that runs requests as ssdsim's replay (sim_replay.c) does.  What
 * a call says (the tools' messages, tools/msg, and the core's) is
 * collected for it on its own thread.
 */
#include <stdlib.h>
#include <string.h>

#include "abi/ssd_abi.h"
#include "tools/report/conf_file.h"
#include "user/flat_iter.h"
#include "tools/ssdsim/sim_data.h"
#include "tools/ssdsim/sim_run.h"
#include "tools/ssdsim/sim_store.h"
#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/ssdsim_api.h"
#include "tools/ssdsim/ssdsim_main.h"
#include "tools/msg/msg.h"

int ssdsim_api_version(void)
{
	return SSDSIM_API_VERSION;
}

void ssdsim_api_free(void *p)
{
	free(p);
}

/* The core's messages (ssd_log_print()) go where the tools' go. */
static void core_message(const char *text)
{
	msg_say("%s", text);
}

/* This thread's messages, the core's and the tools', into @list while a call runs. */
static void collect_begin(struct msg_list *list)
{
	msg_collect_begin(list);
	ssd_log_set_sink(core_message);
}

static void collect_end(struct msg_list *list)
{
	ssd_log_set_sink(NULL);
	msg_collect_end(list);
}

/* What a call said, joined, into *@err (NULL: dropped); @list freed. */
static void collect_text(struct msg_list *list, char **err)
{
	if (err)
		*err = msg_list_text(list);
	msg_list_free(list);
}

struct ssdsim_result {
	int status;
	struct msg_list messages;
	struct sim_result res;
};

static struct ssdsim_result *result_new(void)
{
	struct ssdsim_result *r = calloc(1, sizeof(*r));

	if (r)
		sim_result_init(&r->res);
	return r;
}

struct ssdsim_result *ssdsim_run(int argc, const char *const *argv)
{
	struct ssdsim_result *r = result_new();
	char **args = calloc(argc + 1, sizeof(*args));

	if (!r || !args) {
		free(args);
		ssdsim_result_free(r);
		return NULL;
	}
	memcpy(args, argv, argc * sizeof(*args));
	collect_begin(&r->messages);
	r->status = ssdsim_main(argc, args, NULL, &r->res);
	collect_end(&r->messages);
	free(args);
	/* A refused run's values are not a result. */
	if (r->status)
		sim_values_free(&r->res.values);
	return r;
}

int ssdsim_result_status(const struct ssdsim_result *r)
{
	return r->status;
}

size_t ssdsim_result_message_count(const struct ssdsim_result *r)
{
	return r->messages.count;
}

const char *ssdsim_result_message(const struct ssdsim_result *r, size_t i)
{
	return i < r->messages.count ? r->messages.lines[i] : NULL;
}

size_t ssdsim_result_value_count(const struct ssdsim_result *r)
{
	return r->res.values.count;
}

const struct ssdsim_value *ssdsim_result_values(const struct ssdsim_result *r)
{
	return r->res.values.v;
}

void ssdsim_result_free(struct ssdsim_result *r)
{
	if (!r)
		return;
	msg_list_free(&r->messages);
	sim_result_free(&r->res);
	free(r);
}

struct ssdsim_api_device {
	struct ssd_config cfg;
	struct sim_options o;		/* what a run reads: no --fields */
	struct sim_run run;
};

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	if (ssd_config_set(ctx, key, value)) {
		msg_say("ssdsim: %s: %s=%s refused\n", where, key, value);
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
	struct msg_list said;
	struct ssd_config cfg;
	int ret;

	*err = NULL;
	collect_begin(&said);
	ret = config_make(&cfg, config_path, nr_keys, keys);
	if (!ret && ssd_device_validate_config(&cfg)) {
		msg_say("ssdsim: configuration refused\n");
		ret = -1;
	}
	collect_end(&said);
	collect_text(&said, ret ? err : NULL);
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
		msg_say("ssdsim: configuration refused\n");
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
						   const char *const *keys, int keep_data,
						   char **err)
{
	struct ssdsim_api_device *d = calloc(1, sizeof(*d));
	struct msg_list said;
	int ret;

	*err = NULL;
	if (!d) {
		*err = strdup("ssdsim: out of memory\n");
		return NULL;
	}
	collect_begin(&said);
	ret = device_make(d, config_path, nr_keys, keys, keep_data);
	collect_end(&said);
	collect_text(&said, err);
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
		msg_say("ssdsim: op %u refused: 0 read, 1 write, 2 trim, 3 write zeroes, 4 flush\n",
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
			msg_say("ssdsim: request failed: %s\n", strerror(-ret));
			return -1;
		}
		last_ns = max_t(u64, last_ns, done_ns);
		*arrival_ns = ssd_device_last_arrival_ns(run->dev);
	}
	if (ret < 0) {
		msg_say("ssdsim: out of memory\n");
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
	struct msg_list said;
	int ret;

	*err = NULL;
	*arrival_ns_out = *completion_ns = 0;
	collect_begin(&said);
	ret = device_submit(&d->run, &rec, arrival_ns_out, completion_ns);
	collect_end(&said);
	collect_text(&said, ret < 0 ? err : NULL);
	return ret;
}

struct ssdsim_result *ssdsim_api_device_stats(struct ssdsim_api_device *d)
{
	struct ssdsim_result *r = result_new();

	if (!r)
		return NULL;
	d->run.result = &r->res;
	collect_begin(&r->messages);
	r->status = sim_end_device(&d->run, &d->cfg, NULL) ? 1 : 0;
	collect_end(&r->messages);
	d->run.result = NULL;
	if (r->status)
		sim_values_free(&r->res.values);
	return r;
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

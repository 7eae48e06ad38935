// SPDX-License-Identifier: GPL-2.0
/*
 * sim_store.c - ssdsim's choice of data store (sim_store.h).
 */
#include <stdio.h>
#include <string.h>

#include "device/ssd_device.h"
#include "tools/ssdsim/sim_store.h"
#include "tools/ssdsim/sim_trace.h"
#include "tools/msg/msg.h"

/*
 * Whether the trace's first record carries content hashes: 1, 0, or -1
 * after a message (the trace unreadable, its first record broken: said
 * here once, not again by the replay).
 */
static int trace_has_hashes(const struct sim_options *o)
{
	struct trace_reader tr;
	struct trace_record rec;
	int ret;

	/* These formats have no hashes (and blkparse reads all to sort). */
	if (!o->trace_path || o->format == TRACE_MQSIM || o->format == TRACE_BLKPARSE)
		return 0;
	if (sim_trace_open(&tr, o))
		return -1;
	ret = trace_next(&tr, &rec);
	if (ret > 0)
		ret = rec.content_hash != NULL;
	trace_close(&tr);
	return ret;
}

int sim_store_choose(const struct sim_options *o, struct ssd_config *cfg)
{
	const char *store;

	if (cfg->data_store != SSD_DATA_AUTO) {
		if (o->data && cfg->data_store != SSD_DATA_BYTES) {
			msg_say("ssdsim: --data and data_store=%s refused together: --data keeps page bytes\n",
				ssd_config_choice_name(cfg, "data_store"));
			return -1;
		}
		return 0;
	}
	if (o->data) {
		store = "bytes";
	} else if (cfg->dedup) {
		store = "digest";
	} else {
		int hashes = trace_has_hashes(o);

		if (hashes < 0)
			return -1;
		store = hashes ? "digest" : "none";
	}
	return ssd_config_set(cfg, "data_store", store) ? -1 : 0;
}

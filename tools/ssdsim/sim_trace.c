// SPDX-License-Identifier: GPL-2.0
/*
 * sim_trace.c - ssdsim's trace opened (sim_trace.h).
 */
#include "device/ssd_device.h"
#include "tools/ssdsim/sim_trace.h"
#include "tools/msg/msg.h"

int sim_trace_open(struct trace_reader *tr, const struct sim_options *o)
{
	long held;

	if (trace_open(tr, o->trace_path, o->format))
		return -1;
	/* A snapshot read as a trace is nonsense (requests beyond 2^63 bytes). */
	held = trace_input_fill(&tr->in, SSD_SNAPSHOT_HEAD_BYTES);
	if (held < 0) {
		trace_close(tr);
		return -1;
	}
	if (ssd_snapshot_recognise(tr->in.pos, held)) {
		msg_say("ssdsim: %s is an ssdemu snapshot, not a trace: use --from %s\n",
			o->trace_path, o->trace_path);
		trace_close(tr);
		return -1;
	}
	trace_select_disk(tr, &o->disk);
	return 0;
}

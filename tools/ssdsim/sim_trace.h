/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_trace.h - how ssdsim opens its trace: the reader of the format
 * given (or detected), the disk chosen, and a file that is no trace
 * refused by name (an ssdemu snapshot, which --from takes).  The formats
 * themselves are the trace readers' (tools/trace/).
 */
#ifndef SSD_SIM_TRACE_H
#define SSD_SIM_TRACE_H

#include "tools/ssdsim/sim_options.h"
#include "tools/trace/trace_reader.h"

/* Open @o's trace into @tr: 0, or -1 after a message (nothing left open). */
int sim_trace_open(struct trace_reader *tr, const struct sim_options *o);

#endif /* SSD_SIM_TRACE_H */

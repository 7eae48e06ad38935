/* SPDX-License-Identifier: GPL-2.0 */
/*
 * request_log.h - a bounded FIFO of the requests a device ran, with the
 * arrival and modeled completion times, so the same sequence can be replayed
 * through ssdsim and compared to the page and the nanosecond.  When full,
 * new entries are dropped (and counted), so what is kept is a prefix.
 * Private to device/.  Portable.
 */
#ifndef SSD_REQUEST_LOG_H
#define SSD_REQUEST_LOG_H

#include "device/ssd_device.h"

struct request_log {
	struct ssd_log_entry *entries;	/* NULL: logging off */
	u32 capacity;
	u32 head;				/* oldest entry */
	u32 count;
	u64 dropped;
};

int ssd_request_log_init(struct request_log *log, u32 capacity);
void ssd_request_log_exit(struct request_log *log);
void ssd_request_log_add(struct request_log *log, const struct ssd_log_entry *entry);
/* Move up to @max oldest entries into @out; returns how many. */
u32 ssd_request_log_take(struct request_log *log, struct ssd_log_entry *out, u32 max);

#endif /* SSD_REQUEST_LOG_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * request_log.c - the request log's ring buffer (see request_log.h).
 */
#include "device/request_log.h"

int ssd_request_log_init(struct request_log *log, u32 capacity)
{
	memset(log, 0, sizeof(*log));
	if (!capacity)
		return 0;
	log->entries = ssd_zalloc((u64)capacity * sizeof(*log->entries));
	if (!log->entries)
		return -ENOMEM;
	log->capacity = capacity;
	return 0;
}

void ssd_request_log_exit(struct request_log *log)
{
	ssd_free(log->entries);
	log->entries = NULL;
}

void ssd_request_log_add(struct request_log *log, const struct ssd_log_entry *entry)
{
	if (!log->entries)
		return;
	if (log->count == log->capacity) {
		log->dropped++;
		return;
	}
	log->entries[(log->head + log->count) % log->capacity] = *entry;
	log->count++;
}

u32 ssd_request_log_take(struct request_log *log, struct ssd_log_entry *out, u32 max)
{
	u32 n = 0;

	while (n < max && log->count) {
		out[n++] = log->entries[log->head];
		log->head = (log->head + 1) % log->capacity;
		log->count--;
	}
	return n;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_stats_uapi.h - converts the core's struct ssd_stats and request log
 * entries into the ioctl ABI (struct ssdemu_stats, struct
 * ssdemu_log_entry).  Used by the kernel glue and by the host tools: the
 * portable core itself never includes the ABI header.
 */
#ifndef SSD_STATS_UAPI_H
#define SSD_STATS_UAPI_H

#include "ssd_stats.h"
#include "request_log.h"
#include "ssdemu_ioctl.h"

/* Fills every field the core owns; the kernel-only ones are left as they are. */
static inline void ssd_stats_to_uapi(const struct ssd_stats *in, struct ssdemu_stats *out)
{
	out->version = SSDEMU_STATS_VERSION;
	out->struct_bytes = sizeof(*out);
#define SSD_STATS_COPY(name) out->name = in->name;
	SSD_STATS_FIELDS(SSD_STATS_COPY)
#undef SSD_STATS_COPY
}

static inline void ssd_log_entry_to_uapi(const struct ssd_log_entry *in,
					 struct ssdemu_log_entry *out)
{
	out->arrival_ns = in->arrival_ns;
	out->completion_ns = in->completion_ns;
	out->offset_bytes = in->offset_bytes;
	out->length_bytes = in->length_bytes;
	out->op = in->op;
}

#endif /* SSD_STATS_UAPI_H */

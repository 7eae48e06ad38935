/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_abi.h - the folder's one header: converts the core's struct
 * ssd_stats and request log entries into the ioctl ABI (struct
 * ssdemu_stats, struct ssdemu_log_entry of include/ssdemu_ioctl.h).  It
 * sits above both: used by the kernel glue and by the host tools, while
 * the portable core never sees the ABI and the ABI sees nothing of the
 * core.
 */
#ifndef SSD_ABI_H
#define SSD_ABI_H

#include "common/ssd_stats.h"
#include "device/ssd_device.h"
#include "include/ssdemu_ioctl.h"

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

#endif /* SSD_ABI_H */

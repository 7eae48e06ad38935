/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_abi.h - the folder's one header: converts the core's struct
 * ssd_stats and request log entries into the ioctl ABI (struct
 * ssdemu_stats, struct ssdemu_log_entry of include/ssdemu_ioctl.h).  It
 * sits above both: used by the kernel glue and by the host tools, while
 * the portable core never sees the ABI and the ABI sees nothing of the
 * core.
 *
 * The conversion walks the ABI's table of counters (SSDEMU_STATS_COUNTERS)
 * and copies each row of source "core" from the core's field of the same
 * name, so it does not compile if the core lacks one of them; the size
 * check below fails if the core has a counter the table does not give it.
 */
#ifndef SSD_ABI_H
#define SSD_ABI_H

#include "common/ssd_stats.h"
#include "device/ssd_device.h"
#include "include/ssdemu_ioctl.h"

/* A row of the table copied if the core fills it (source core), else left. */
#define SSD_ABI_COPY_core(name)		out->name = in->name;
#define SSD_ABI_COPY_glue(name)
#define SSD_ABI_COPY(name, unit, group, since, source, vendor, help)	\
	SSD_ABI_COPY_##source(name)

/* The table's rows the core fills, as a struct: the size the core's must have. */
#define SSD_ABI_CORE_core(name)		u64 name;
#define SSD_ABI_CORE_glue(name)
#define SSD_ABI_CORE(name, unit, group, since, source, vendor, help)	\
	SSD_ABI_CORE_##source(name)

struct ssd_abi_core_counters {
	SSDEMU_STATS_COUNTERS(SSD_ABI_CORE)
};

_Static_assert(sizeof(struct ssd_stats) == sizeof(struct ssd_abi_core_counters),
	       "struct ssd_stats holds a counter the table does not give the core: make counters");

/* Fills every field the core owns; the glue's (source glue) are left as they are. */
static inline void ssd_stats_to_uapi(const struct ssd_stats *in, struct ssdemu_stats *out)
{
	out->version = SSDEMU_STATS_VERSION;
	out->struct_bytes = sizeof(*out);
	SSDEMU_STATS_COUNTERS(SSD_ABI_COPY)
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

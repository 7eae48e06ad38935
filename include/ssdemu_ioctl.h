/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ssdemu_ioctl.h - the userspace ABI of /dev/ssdemuN: ioctl numbers and the
 * versioned statistics struct.  Shared by the module, ssdctl and ssdsim.
 *
 * Compatibility: struct ssdemu_stats only grows at its end.  The kernel
 * copies min(its size, the size encoded in the caller's ioctl number) bytes
 * and reports its own size and version in the struct, so old tools keep
 * working with new modules and the other way round.
 *
 * Every counter carries its unit in its name.  "pages" are flash pages of
 * page_size_bytes.  WAF = flash_program_pages * page_size_bytes /
 * host_write_bytes; ssdctl derives it, the kernel does no floating point.
 */
#ifndef SSDEMU_IOCTL_H
#define SSDEMU_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SSDEMU_STATS_VERSION	1

struct ssdemu_stats {
	__u32 version;			/* SSDEMU_STATS_VERSION of the writer */
	__u32 struct_bytes;		/* sizeof(struct ssdemu_stats) of the writer */

	/* Geometry and capacity. */
	__u64 logical_capacity_bytes;
	__u64 physical_capacity_bytes;
	__u64 page_size_bytes;
	__u64 pages_per_block;
	__u64 total_blocks;
	__u64 free_blocks;
	__u64 valid_pages;

	/* What the host asked for. */
	__u64 host_read_bytes;
	__u64 host_write_bytes;
	__u64 host_trim_bytes;
	__u64 host_read_pages;		/* flash pages touched by host reads */
	__u64 host_write_pages;		/* flash pages written for the host */
	__u64 host_trim_pages;		/* mapped pages a TRIM invalidated */
	__u64 host_rmw_pages;		/* partial-page writes that read first */
	__u64 host_flush_count;

	/* What the flash went through, by cause. */
	__u64 flash_program_pages;	/* all causes */
	__u64 flash_program_host_pages;
	__u64 flash_program_gc_pages;
	__u64 flash_read_pages;		/* all causes */
	__u64 flash_read_host_pages;
	__u64 flash_read_gc_pages;
	__u64 flash_erase_blocks;	/* block erases since the last reset */
	__u64 erase_count_total;	/* wear: erases of all blocks, ever */
	__u64 erase_count_min;		/* wear: over all blocks */
	__u64 erase_count_max;
	__u64 erase_count_mean_milli;	/* mean * 1000 */

	/* Garbage collection. */
	__u64 gc_victim_blocks;
	__u64 gc_relocated_pages;
	__u64 gc_foreground_runs;

	/* RAM the device uses. */
	__u64 ftl_metadata_bytes;	/* L2P, P2L, block table, heaps */
	__u64 flash_metadata_bytes;	/* page-data pointer table */
	__u64 data_bytes;		/* page buffers holding data */

	/* The model's clock. */
	__u64 virtual_time_ns;
};

#define SSDEMU_IOC_MAGIC	0x5e

/* Read the statistics; the size in the number may differ (see above). */
#define SSDEMU_IOC_GET_STATS	_IOR(SSDEMU_IOC_MAGIC, 1, struct ssdemu_stats)
/* Zero the host/flash/GC counters; geometry and wear (erase counts) stay. */
#define SSDEMU_IOC_RESET_STATS	_IO(SSDEMU_IOC_MAGIC, 2)
/* Run the FTL consistency check; 0 or -EUCLEAN (details in the kernel log). */
#define SSDEMU_IOC_CHECK	_IO(SSDEMU_IOC_MAGIC, 3)

#endif /* SSDEMU_IOCTL_H */

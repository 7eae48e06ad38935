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
 *
 * The FTL has two regions: the TLC main region, which holds the logical
 * space, and an optional SLC-mode cache region (slc_blocks_per_chip).
 * Unless a name says slc_, a counter is a total over both regions; the
 * slc_ ones (version 3) are the cache region's share.
 */
#ifndef SSDEMU_IOCTL_H
#define SSDEMU_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SSDEMU_STATS_VERSION	10

struct ssdemu_stats {
	__u32 version;			/* SSDEMU_STATS_VERSION of the writer */
	__u32 struct_bytes;		/* sizeof(struct ssdemu_stats) of the writer */

	/* Geometry and capacity. */
	__u64 logical_capacity_bytes;	/* the TLC region's pages less over-provisioning */
	__u64 physical_capacity_bytes;	/* pages of every block in its cell mode */
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
	__u64 flash_read_host_pages;	/* incl. unwritten pages (read_unwritten_flash) */
	__u64 flash_read_gc_pages;
	__u64 flash_erase_blocks;	/* block erases since the last reset */
	__u64 erase_count_total;	/* wear: erases of all blocks, ever */
	__u64 erase_count_min;		/* wear: over all blocks */
	__u64 erase_count_max;
	__u64 erase_count_mean_milli;	/* mean * 1000 */

	/* Garbage collection. */
	__u64 gc_victim_blocks;
	__u64 gc_relocated_pages;
	__u64 gc_foreground_runs;	/* host page writes that did GC work */

	/* RAM the device uses. */
	__u64 ftl_metadata_bytes;	/* L2P, P2L, block table, heaps */
	__u64 flash_metadata_bytes;	/* page-data pointer table */
	__u64 data_bytes;		/* page buffers holding data */

	/* The model's clock: the latest modeled completion. */
	__u64 virtual_time_ns;

	/* Version 2: the timing model, in virtual nanoseconds. */
	__u64 commands;			/* requests the model timed */
	__u64 command_latency_ns_total;	/* sum of completion - arrival */
	__u64 queue_wait_ns_total;	/* waiting for a command queue slot */
	__u64 controller_busy_ns;
	__u64 channel_busy_ns_total;	/* summed over channels */
	__u64 chip_busy_ns_total;	/* summed over chips */

	/* Version 2: kernel completions against the model (0 in ssdsim). */
	__u64 timed_completions;	/* completed by a timer (timing=1) */
	__u64 late_completions;		/* of those, completed after the model's time */
	__u64 late_ns_total;		/* by how much, summed */
	__u64 late_ns_max;

	/* Version 2: freed page buffers kept for the next writes. */
	__u64 spare_buffer_bytes;

	/* Version 3: the timing model's latencies of reads and writes apart. */
	__u64 read_commands;		/* read requests timed */
	__u64 read_latency_ns_total;	/* their sum of completion - arrival */
	__u64 write_commands;		/* write requests (not write-zeroes) */
	__u64 write_latency_ns_total;	/* their sum of completion - arrival */

	/*
	 * Version 3: the most page data the device holds (memory_limit_mb
	 * less metadata and spare buffers, at most the logical capacity);
	 * writes needing more fail with ENOSPC.
	 */
	__u64 data_limit_bytes;

	/* Version 3: the SLC cache region's share of the totals above. */
	__u64 flash_program_slc_pages;	/* programs of SLC-mode blocks, all causes */
	__u64 flash_read_slc_pages;
	__u64 flash_erase_slc_blocks;	/* since the last reset */
	__u64 slc_erase_count_total;	/* wear: erases of SLC blocks, ever */
	__u64 slc_erase_count_max;
	__u64 slc_free_blocks;
	__u64 slc_valid_pages;

	/* Version 3: GC in bounded steps (gc_pages_per_write). */
	__u64 gc_blocking_runs;		/* GC ran until a block was freed: the hard floor */
	__u64 gc_relocated_pages_write_max; /* most pages GC moved in one host page write */

	/* Version 3: background GC (gc_background_free_blocks). */
	__u64 gc_background_pages;	/* valid pages GC moved on idle chips */
	__u64 gc_background_steps;	/* background GC steps run */

	/* Version 4: the SLC write cache (nvmcache/, cache_policy). */
	__u64 cache_write_hit_pages;	/* page writes to a cached page: an SLC program */
	__u64 cache_admit_pages;	/* write misses that entered the cache */
	__u64 cache_bypass_size_pages;	/* misses sent to TLC: request >= procache_c_bytes */
	__u64 cache_bypass_dice_pages;	/* misses sent to TLC: ProCache's die said no */
	__u64 cache_bypass_policy_pages; /* misses sent to TLC: counter, ghost or sketch said no */
	__u64 cache_evict_pages;	/* cached pages evicted (each destaged to TLC) */
	__u64 cache_read_hit_pages;	/* host page reads served by the cache (SLC reads) */
	__u64 cache_pages;		/* pages cached now */
	__u64 cache_capacity_pages;	/* most pages the cache holds */
	__u64 cache_metadata_bytes;	/* the cache directory and replacement state */
	__u64 cache_policy_metadata_bytes; /* the admission policy's own state */
	__u64 flash_program_destage_pages; /* TLC programs of destaged pages */
	__u64 flash_read_destage_pages;	/* SLC reads of pages being destaged */
	__u64 flash_program_tlc_pages;	/* programs of TLC blocks, all causes */
	__u64 flash_erase_tlc_blocks;	/* erases of TLC blocks */
	/*
	 * Version 5: in-device deduplication (dedup=1; all 0 when off).  A
	 * chunk is one page of unique data stored below the dedup layer.
	 */
	__u64 dedup_chunks_written;	/* writes that left the write buffer */
	__u64 dedup_fingerprinted_chunks; /* SHA-1s computed, late ones included */
	__u64 dedup_late_fingerprints;	/* of stored chunks, on a sample match */
	__u64 dedup_filtered_chunks;	/* written unhashed: the sampling filter */
	__u64 dedup_duplicate_chunks;	/* writes that matched a live chunk */
	__u64 dedup_store_hits;		/* fingerprint store lookups that hit */
	__u64 dedup_store_misses;
	__u64 dedup_store_evictions;	/* fingerprints the LRU store dropped */
	__u64 dedup_buffer_rewrites;	/* writes that replaced a buffered one */
	__u64 dedup_buffer_trims;	/* buffered writes dropped by a TRIM */
	__u64 dedup_buffer_reads;	/* page reads served from the buffer */
	__u64 dedup_programs_avoided;	/* duplicates + rewrites + trims in buffer */
	__u64 dedup_logical_pages;	/* host pages holding data (mapped, buffered) */
	__u64 dedup_physical_pages;	/* live chunks (pages stored below) */
	__u64 dedup_buffered_pages;	/* writes in the buffer now */
	__u64 dedup_store_used_entries;
	__u64 dedup_store_capacity_entries;
	__u64 dedup_store_entry_bytes;	/* RAM per fingerprint store entry */
	__u64 dedup_metadata_bytes;	/* all of the dedup layer's tables */
	__u64 dedup_break_even_ppm;	/* (hash + lookup) / program, parts per million */
	__u64 dedup_engine_busy_ns;	/* SHA-1 and lookups on the controller */
	/*
	 * Version 6: PLC's bypasses, the cache as a read cache
	 * (cache_read_allocate=1), bytes written into the cache by cause,
	 * the references dedup-aware policies keep.
	 */
	__u64 cache_bypass_delay_pages;	/* PLC: a delayed eviction abandoned the miss */
	__u64 cache_bypass_inout_pages;	/* PLC: the newcomer did not beat the victim */
	__u64 cache_read_miss_pages;	/* host page reads of pages not cached */
	__u64 cache_fill_pages;		/* read misses copied into the cache */
	__u64 cache_written_host_bytes;	/* into the cache: write hits and admitted writes */
	__u64 cache_written_fill_bytes;	/* into the cache: read fills */
	__u64 cache_refcount_metadata_bytes; /* references kept per logical page (dedup-aware) */
	__u64 flash_program_fill_pages;	/* SLC programs of read fills */
	/*
	 * Version 7: the write cache's destage by kind (cache_evict_pages is
	 * their sum: every eviction is a destage) and the pages a TRIM took
	 * out of it; the dedup engines (dedup_hash_engines,
	 * dedup_hash_overlap): how long leaving writes waited for their
	 * fingerprints, and whether the engines keep up with the flash.
	 */
	__u64 cache_destage_foreground_pages; /* destaged inside the write that needed room */
	__u64 cache_destage_background_pages; /* destaged on idle chips (cache_destage_high_percent) */
	__u64 cache_trim_pages;		/* cached pages a TRIM dropped */
	__u64 dedup_hash_wait_ns;	/* leaving writes' wait for fingerprints, summed */
	__u64 dedup_engine_load_ppm;	/* engine time per page / flash time per page, full load */
	/*
	 * Version 8: the FTL's mapping schemes (ftl_type).  ftl_map_ram_bytes
	 * is the controller RAM the scheme's mapping would need (page: the
	 * page map; block: one entry per logical block; bast/fast: that plus
	 * the log blocks' page maps), beside ftl_metadata_bytes, the
	 * simulator's own tables (dftl: its CMT entries and GTD).
	 *
	 * Also version 8: wear and the FTL's own map.  The spread of the
	 * blocks' erase counts; static wear levelling (wl_static_threshold):
	 * cold blocks chosen and the valid pages moved out of them (also
	 * counted in gc_relocated_pages and flash_*_gc_pages); the FTL's map
	 * traffic (cause map: DFTL's translation pages, also in
	 * flash_program_pages and flash_read_pages); DFTL's cached mapping
	 * table (ftl_type=dftl).
	 */
	__u64 ftl_map_ram_bytes;	/* modeled mapping RAM of the scheme */
	__u64 erase_count_stddev_milli;	/* standard deviation of every block's erase count */
	__u64 wl_static_migrations;	/* cold blocks static wear levelling chose */
	__u64 wl_static_pages;		/* valid pages moved out of them */
	__u64 flash_program_map_pages;	/* translation pages programmed */
	__u64 flash_read_map_pages;	/* translation pages read */
	__u64 dftl_cmt_hits;		/* host map lookups the CMT held */
	__u64 dftl_cmt_misses;		/* host map lookups that loaded an entry */
	__u64 dftl_translation_reads;	/* translation pages read: misses and write-backs */
	__u64 dftl_translation_writes;	/* translation pages written back (not GC) */
	__u64 dftl_translation_gc_pages; /* translation pages translation GC moved */
	/* Block-mapped schemes (block, bast, fast): merges of logical blocks. */
	__u64 ftl_switch_merges;	/* log blocks that became data blocks as they were */
	__u64 ftl_partial_merges;	/* log blocks completed from the data block, then switched */
	__u64 ftl_full_merges;		/* logical blocks copied into a new block */
	__u64 ftl_merge_erases;		/* blocks erased by merges */
	__u64 flash_program_merge_pages; /* pages merges copied (cause merge) */
	__u64 flash_read_merge_pages;	/* pages merges read */

	/*
	 * Version 9: the erase-count histogram of every block (both regions,
	 * the population of erase_count_min/_max/_mean_milli), computed when
	 * the stats are read.  16 buckets of equal width scaled to the
	 * current erase_count_max: width = ceil((max + 1) / 16), at least 1;
	 * erase_hist_i counts the blocks with i * width <= erases <
	 * (i + 1) * width.  The buckets sum to total_blocks.  A width of 0
	 * means the writer had no histogram.
	 */
	__u64 erase_hist_bucket_width;	/* erase counts each bucket spans */
	__u64 erase_hist_0;		/* blocks with erases in [0, width) */
	__u64 erase_hist_1;
	__u64 erase_hist_2;
	__u64 erase_hist_3;
	__u64 erase_hist_4;
	__u64 erase_hist_5;
	__u64 erase_hist_6;
	__u64 erase_hist_7;
	__u64 erase_hist_8;
	__u64 erase_hist_9;
	__u64 erase_hist_10;
	__u64 erase_hist_11;
	__u64 erase_hist_12;
	__u64 erase_hist_13;
	__u64 erase_hist_14;
	__u64 erase_hist_15;		/* blocks with erases in [15 * width, 16 * width) */
	/* Read errors and injection (issue 24, i24-rber). */
	__u64 flash_read_retry_pages;	/* read retries: timed page re-reads past ecc_soft_bits */
	__u64 read_corrected_codewords;	/* codewords read with bit errors, corrected */
	__u64 read_uncorrectable_pages;	/* page reads past ecc_correct_bits after every retry */
	__u64 read_uncorrectable_host_pages; /* of those, host reads (NVMe media errors) */
	__u64 host_read_error_pages;	/* host pages failed to the host: uncorrectable or injected */
	__u64 host_write_error_pages;	/* host pages of writes failed by injection */
	__u64 injected_error_ranges;	/* sector ranges injected now (inject_errors) */
	/* Bad blocks and wear-out (i24-wear). */
	__u64 bad_blocks_factory;	/* blocks bad from the start (rate or list) */
	__u64 bad_blocks_grown;		/* blocks retired after a failed program/erase */
	__u64 spare_blocks;		/* blocks that may still be retired before read-only */
	__u64 spare_blocks_initial;	/* spare_blocks at creation (after factory bad ones) */
	__u64 flash_program_failures;	/* page programs that failed (block retired) */
	__u64 flash_erase_failures;	/* block erases that failed (block retired) */
	__u64 read_only;		/* 1: end of life, writes and TRIMs refused */
	__u64 host_write_refused_pages;	/* host pages written/trimmed refused while read-only */
	__u64 retire_relocated_pages;	/* valid pages moved out of retired blocks */
	/* Power cuts and the volatile write cache (version 10). */
	__u64 power_cuts;		/* power cuts since creation (SMART unsafe shutdowns) */
	__u64 power_cut_lost_pages;	/* acknowledged pages a power cut lost (never flushed) */
	__u64 write_cache_dirty_pages;	/* gauge: pages in the volatile write cache now */
	__u64 write_cache_hit_pages;	/* host reads served from the volatile write cache */
	__u64 write_cache_flushes;	/* FLUSH commands that drained the volatile write cache */
	__u64 fua_writes;		/* FUA writes, on flash before they completed */
};

/* Operations in the request log; the same numbers as the core's enum ssd_op. */
enum ssdemu_log_op {
	SSDEMU_OP_READ,
	SSDEMU_OP_WRITE,
	SSDEMU_OP_TRIM,
	SSDEMU_OP_WRITE_ZEROES,
	SSDEMU_OP_FLUSH,
};

/* One request as the device saw it (request_log_entries > 0). */
struct ssdemu_log_entry {
	__u64 arrival_ns;		/* virtual time, after queueing order */
	__u64 completion_ns;		/* the model's completion time */
	__u64 offset_bytes;
	__u32 length_bytes;
	__u32 op;			/* enum ssdemu_log_op */
};

/* Argument of SSDEMU_IOC_READ_LOG: takes the oldest entries out of the log. */
struct ssdemu_log_read {
	__u64 entries;			/* in: user pointer to max_entries entries */
	__u32 max_entries;		/* in */
	__u32 nr_entries;		/* out: entries copied */
	__u64 dropped_entries;		/* out: entries lost to a full log, ever */
};

#define SSDEMU_IOC_MAGIC	0x5e

/* Read the statistics; the size in the number may differ (see above). */
#define SSDEMU_IOC_GET_STATS	_IOR(SSDEMU_IOC_MAGIC, 1, struct ssdemu_stats)
/* Zero the host/flash/GC counters; geometry and wear (erase counts) stay. */
#define SSDEMU_IOC_RESET_STATS	_IO(SSDEMU_IOC_MAGIC, 2)
/* Run the FTL consistency check; 0 or -EUCLEAN (details in the kernel log). */
#define SSDEMU_IOC_CHECK	_IO(SSDEMU_IOC_MAGIC, 3)
/* Take logged requests out of the request log, oldest first. */
#define SSDEMU_IOC_READ_LOG	_IOWR(SSDEMU_IOC_MAGIC, 4, struct ssdemu_log_read)

#endif /* SSDEMU_IOCTL_H */

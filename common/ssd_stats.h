/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_stats.h - the portable core's statistics: one struct that every layer
 * fills with the counters it owns (ssd_layer_ops.get_stats), gathered by
 * the device front end.
 *
 * The counters are those of the one table of counters,
 * SSDEMU_STATS_COUNTERS in include/ssdemu_ioctl.h (the ABI: name, unit,
 * group, version and meaning of each): the rows of source "core", in its
 * order.  The core never sees the ABI, so SSD_STATS_FIELDS below is made
 * of the table by `make counters` (ssdtools/counters.py);
 * tests/style/test_counters.py fails when it drifts, and abi/ssd_abi.h,
 * which converts this struct into the ABI's field by field, does not
 * compile unless the two hold the same counters.
 */
#ifndef SSD_STATS_H
#define SSD_STATS_H

#include "platform/ssd_platform.h"

/* X(name): every u64 counter of the core, in the order of the table. */
/* Generated from include/ssdemu_ioctl.h by `make counters`: do not edit. */
#define SSD_STATS_FIELDS(X)			\
	X(logical_capacity_bytes)		\
	X(physical_capacity_bytes)		\
	X(page_size_bytes)			\
	X(pages_per_block)			\
	X(total_blocks)				\
	X(free_blocks)				\
	X(valid_pages)				\
	X(host_read_bytes)			\
	X(host_write_bytes)			\
	X(host_trim_bytes)			\
	X(host_read_pages)			\
	X(host_write_pages)			\
	X(host_trim_pages)			\
	X(host_rmw_pages)			\
	X(host_flush_count)			\
	X(flash_program_pages)			\
	X(flash_program_host_pages)		\
	X(flash_program_gc_pages)		\
	X(flash_read_pages)			\
	X(flash_read_host_pages)		\
	X(flash_read_gc_pages)			\
	X(flash_erase_blocks)			\
	X(erase_count_total)			\
	X(erase_count_min)			\
	X(erase_count_max)			\
	X(erase_count_mean_milli)		\
	X(gc_victim_blocks)			\
	X(gc_relocated_pages)			\
	X(gc_foreground_runs)			\
	X(ftl_metadata_bytes)			\
	X(flash_metadata_bytes)			\
	X(data_bytes)				\
	X(virtual_time_ns)			\
	X(commands)				\
	X(command_latency_ns_total)		\
	X(queue_wait_ns_total)			\
	X(controller_busy_ns)			\
	X(channel_busy_ns_total)		\
	X(chip_busy_ns_total)			\
	X(spare_buffer_bytes)			\
	X(read_commands)			\
	X(read_latency_ns_total)		\
	X(write_commands)			\
	X(write_latency_ns_total)		\
	X(data_limit_bytes)			\
	X(flash_program_slc_pages)		\
	X(flash_read_slc_pages)			\
	X(flash_erase_slc_blocks)		\
	X(slc_erase_count_total)		\
	X(slc_erase_count_max)			\
	X(slc_free_blocks)			\
	X(slc_valid_pages)			\
	X(gc_blocking_runs)			\
	X(gc_relocated_pages_write_max)		\
	X(gc_background_pages)			\
	X(gc_background_steps)			\
	X(cache_write_hit_pages)		\
	X(cache_admit_pages)			\
	X(cache_bypass_size_pages)		\
	X(cache_bypass_dice_pages)		\
	X(cache_bypass_policy_pages)		\
	X(cache_evict_pages)			\
	X(cache_read_hit_pages)			\
	X(cache_pages)				\
	X(cache_capacity_pages)			\
	X(cache_metadata_bytes)			\
	X(cache_policy_metadata_bytes)		\
	X(flash_program_destage_pages)		\
	X(flash_read_destage_pages)		\
	X(flash_program_tlc_pages)		\
	X(flash_erase_tlc_blocks)		\
	X(dedup_chunks_written)			\
	X(dedup_fingerprinted_chunks)		\
	X(dedup_late_fingerprints)		\
	X(dedup_filtered_chunks)		\
	X(dedup_duplicate_chunks)		\
	X(dedup_store_hits)			\
	X(dedup_store_misses)			\
	X(dedup_store_evictions)		\
	X(dedup_buffer_rewrites)		\
	X(dedup_buffer_trims)			\
	X(dedup_buffer_reads)			\
	X(dedup_programs_avoided)		\
	X(dedup_logical_pages)			\
	X(dedup_physical_pages)			\
	X(dedup_buffered_pages)			\
	X(dedup_store_used_entries)		\
	X(dedup_store_capacity_entries)		\
	X(dedup_store_entry_bytes)		\
	X(dedup_metadata_bytes)			\
	X(dedup_break_even_ppm)			\
	X(dedup_engine_busy_ns)			\
	X(cache_bypass_delay_pages)		\
	X(cache_bypass_inout_pages)		\
	X(cache_read_miss_pages)		\
	X(cache_fill_pages)			\
	X(cache_written_host_bytes)		\
	X(cache_written_fill_bytes)		\
	X(cache_refcount_metadata_bytes)	\
	X(flash_program_fill_pages)		\
	X(cache_destage_foreground_pages)	\
	X(cache_destage_background_pages)	\
	X(cache_trim_pages)			\
	X(dedup_hash_wait_ns)			\
	X(dedup_engine_load_ppm)		\
	X(ftl_map_ram_bytes)			\
	X(erase_count_stddev_milli)		\
	X(wl_static_migrations)			\
	X(wl_static_pages)			\
	X(flash_program_map_pages)		\
	X(flash_read_map_pages)			\
	X(dftl_cmt_hits)			\
	X(dftl_cmt_misses)			\
	X(dftl_translation_reads)		\
	X(dftl_translation_writes)		\
	X(dftl_translation_gc_pages)		\
	X(ftl_switch_merges)			\
	X(ftl_partial_merges)			\
	X(ftl_full_merges)			\
	X(ftl_merge_erases)			\
	X(flash_program_merge_pages)		\
	X(flash_read_merge_pages)		\
	X(erase_hist_bucket_width)		\
	X(erase_hist_0)				\
	X(erase_hist_1)				\
	X(erase_hist_2)				\
	X(erase_hist_3)				\
	X(erase_hist_4)				\
	X(erase_hist_5)				\
	X(erase_hist_6)				\
	X(erase_hist_7)				\
	X(erase_hist_8)				\
	X(erase_hist_9)				\
	X(erase_hist_10)			\
	X(erase_hist_11)			\
	X(erase_hist_12)			\
	X(erase_hist_13)			\
	X(erase_hist_14)			\
	X(erase_hist_15)			\
	X(flash_read_retry_pages)		\
	X(read_corrected_codewords)		\
	X(read_uncorrectable_pages)		\
	X(read_uncorrectable_host_pages)	\
	X(host_read_error_pages)		\
	X(host_write_error_pages)		\
	X(injected_error_ranges)		\
	X(bad_blocks_factory)			\
	X(bad_blocks_grown)			\
	X(spare_blocks)				\
	X(spare_blocks_initial)			\
	X(flash_program_failures)		\
	X(flash_erase_failures)			\
	X(read_only)				\
	X(host_write_refused_pages)		\
	X(retire_relocated_pages)		\
	X(power_cuts)				\
	X(power_cut_lost_pages)			\
	X(write_cache_dirty_pages)		\
	X(write_cache_hit_pages)		\
	X(write_cache_flushes)			\
	X(fua_writes)				\
	X(failed_commands)			\
	X(read_failed_commands)			\
	X(write_failed_commands)		\
	X(refused_commands)			\
	X(read_refused_commands)		\
	X(write_refused_commands)		\
	X(working_set_pages)
/* End of the generated list. */

/* The erase-count histogram's buckets (erase_hist_0 .. erase_hist_15). */
#define SSD_ERASE_HIST_BUCKETS	16
#define SSD_ERASE_HIST_INDEXES(X)					\
	X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7)				\
	X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

struct ssd_stats {
#define SSD_STATS_MEMBER(name) u64 name;
	SSD_STATS_FIELDS(SSD_STATS_MEMBER)
#undef SSD_STATS_MEMBER
};

#endif /* SSD_STATS_H */

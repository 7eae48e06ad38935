/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ssdemu_ioctl.h - the userspace ABI of /dev/ssdemuN: ioctl numbers, the
 * versioned statistics struct and the table of its counters.  Shared by
 * the module, ssdctl and ssdsim; self-contained (it includes nothing of
 * the core), so it installs and builds on its own.
 *
 * Compatibility: struct ssdemu_stats only grows at its end.  The kernel
 * copies min(its size, the size encoded in the caller's ioctl number) bytes
 * and reports its own size and version in the struct, so old tools keep
 * working with new modules and the other way round.
 *
 * Every counter carries its unit in its name.  "pages" are flash pages of
 * page_size_bytes.  WAF = flash_program_pages * page_size_bytes /
 * host_write_bytes; the tools derive it, the kernel does no floating point.
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

#define SSDEMU_STATS_VERSION	11

/*
 * The groups counters are shown in by `ssdctl stats`, in its order:
 * G(group, title).
 */
#define SSDEMU_STATS_GROUPS(G)							\
	G(device, "device")							\
	G(host, "host")								\
	G(flash, "flash")							\
	G(gc, "GC")								\
	G(wear, "wear (erase counts of all blocks, ever)")			\
	G(read_errors, "faults: read errors and injection")			\
	G(wear_out, "faults")							\
	G(failures, "faults: failed and refused requests")			\
	G(cache, "cache (SLC write cache)")					\
	G(dedup, "dedup")							\
	G(power, "power")							\
	G(timing, "timing (modeled time)")					\
	G(ram, "RAM")

/*
 * SSDEMU_STATS_COUNTERS(X): every counter, the one table of them.  struct
 * ssdemu_stats is made of it, field by field in its order; the core's
 * struct ssd_stats (common/ssd_stats.h, generated: `make counters`), the
 * conversion (abi/ssd_abi.h), ssdctl's and ssdsim's output, the NVMe
 * vendor page and docs/counters.md come from it.  A row:
 *
 *   X(name, unit, group, version, source, vendor, help)
 *
 *   name	the field (a __u64), its unit in its name
 *   unit	what it counts, a string ("pages", "ns", "erases/1000", ...)
 *   group	its group of SSDEMU_STATS_GROUPS
 *   version	the SSDEMU_STATS_VERSION that appended it
 *   source	core: the portable core fills it (the kernel and ssdsim);
 *		glue: the kernel glue does (0 in ssdsim)
 *   vendor	its field in the NVMe vendor log page 0xC0 (docs/nvme.md), or
 *		0: not in it
 *   help	one line: what it counts
 *
 * A new counter is a row at the end, with a version above the last one
 * (SSDEMU_STATS_VERSION raised to it): rows are never moved or removed.
 *
 * Version 5: a chunk is one page of unique data stored below the dedup
 * layer.  Version 7: cache_evict_pages is the sum of the destages by kind
 * (every eviction is a destage); the dedup engines (dedup_hash_engines,
 * dedup_hash_overlap): how long leaving writes waited for their
 * fingerprints, and whether the engines keep up with the flash.
 *
 * Version 8, the FTL's mapping schemes (ftl_type): ftl_map_ram_bytes is
 * the controller RAM the scheme's mapping would need (page: the page map;
 * block: one entry per logical block; bast/fast: that plus the log blocks'
 * page maps), beside ftl_metadata_bytes, the simulator's own tables
 * (dftl: its CMT entries and GTD).  Also version 8, wear and the FTL's own
 * map: the spread of the blocks' erase counts; static wear levelling
 * (wl_static_threshold): cold blocks chosen and the valid pages moved out
 * of them (also counted in gc_relocated_pages and flash_*_gc_pages); the
 * FTL's map traffic (cause map: DFTL's translation pages, also in
 * flash_program_pages and flash_read_pages); DFTL's cached mapping table
 * (ftl_type=dftl).
 *
 * Version 9, the erase-count histogram of every block (both regions, the
 * population of erase_count_min/_max/_mean_milli), computed when the stats
 * are read: 16 buckets of equal width scaled to the current
 * erase_count_max: width = ceil((max + 1) / 16), at least 1; erase_hist_i
 * counts the blocks with i * width <= erases < (i + 1) * width.  The
 * buckets sum to total_blocks.  A width of 0 means the writer had no
 * histogram.
 *
 * Version 11, requests that did not complete (issue 33): a request ends
 * completed (counted in commands, read_commands, write_commands and their
 * latency sums), failed (the host got an I/O error: a media error, an
 * injected sector, no page buffer) or refused (the device declined it:
 * read-only end of life, also reached inside the request, power off, no
 * room for its data, out of range).  Failed and refused ones are counted apart and never
 * enter a latency.  working_set_pages: the distinct logical pages host
 * reads and writes touched since the last reset (a bit per logical page,
 * in the memory plan).  The fault groups (read_errors, wear_out,
 * failures) hold what went wrong, which the tools show whenever it is not
 * zero: spare_blocks and spare_blocks_initial, a state, moved to the
 * device group then.
 */
#define SSDEMU_STATS_COUNTERS(X)							\
	/* Geometry and capacity. */							\
	X(logical_capacity_bytes, "bytes", device, 1, core, 0,				\
	  "the TLC region's pages less over-provisioning")				\
	X(physical_capacity_bytes, "bytes", device, 1, core, 0,				\
	  "pages of every block in its cell mode")					\
	X(page_size_bytes, "bytes", device, 1, core, 0,					\
	  "a flash page: the FTL's mapping unit")					\
	X(pages_per_block, "pages", device, 1, core, 0,					\
	  "pages of an erase block (TLC mode)")						\
	X(total_blocks, "blocks", device, 1, core, 0,					\
	  "erase blocks of every chip, both regions")					\
	X(free_blocks, "blocks", device, 1, core, 0,					\
	  "erased blocks ready to be written, both regions")				\
	X(valid_pages, "pages", device, 1, core, 0,					\
	  "pages holding live data, both regions")					\
	/* What the host asked for. */							\
	X(host_read_bytes, "bytes", host, 1, core, 0,					\
	  "bytes of host reads")							\
	X(host_write_bytes, "bytes", host, 1, core, 0,					\
	  "bytes of host writes (not write-zeroes)")					\
	X(host_trim_bytes, "bytes", host, 1, core, 0,					\
	  "bytes of host discards and write-zeroes")					\
	X(host_read_pages, "pages", host, 1, core, 3,					\
	  "flash pages touched by host reads")						\
	X(host_write_pages, "pages", host, 1, core, 4,					\
	  "flash pages written for the host")						\
	X(host_trim_pages, "pages", host, 1, core, 5,					\
	  "mapped pages a TRIM invalidated")						\
	X(host_rmw_pages, "pages", host, 1, core, 0,					\
	  "partial-page writes that read first")					\
	X(host_flush_count, "commands", host, 1, core, 0,				\
	  "FLUSH commands")								\
	/* What the flash went through, by cause. */					\
	X(flash_program_pages, "pages", flash, 1, core, 6,				\
	  "page programs, all causes")							\
	X(flash_program_host_pages, "pages", flash, 1, core, 7,				\
	  "page programs of host writes")						\
	X(flash_program_gc_pages, "pages", flash, 1, core, 8,				\
	  "page programs of GC's relocations")						\
	X(flash_read_pages, "pages", flash, 1, core, 15,				\
	  "page reads, all causes")							\
	X(flash_read_host_pages, "pages", flash, 1, core, 16,				\
	  "page reads of host reads, incl. unwritten pages (read_unwritten_flash)")	\
	X(flash_read_gc_pages, "pages", flash, 1, core, 17,				\
	  "page reads of GC's relocations")						\
	X(flash_erase_blocks, "blocks", flash, 1, core, 20,				\
	  "block erases since the last reset")						\
	X(erase_count_total, "erases", wear, 1, core, 0,				\
	  "wear: erases of all blocks, ever")						\
	X(erase_count_min, "erases", wear, 1, core, 24,					\
	  "wear: the fewest erases of a block")						\
	X(erase_count_max, "erases", wear, 1, core, 25,					\
	  "wear: the most erases of a block")						\
	X(erase_count_mean_milli, "erases/1000", wear, 1, core, 23,			\
	  "wear: mean erases of a block, x 1000")					\
	/* Garbage collection. */							\
	X(gc_victim_blocks, "blocks", gc, 1, core, 0,					\
	  "blocks GC chose and erased")							\
	X(gc_relocated_pages, "pages", gc, 1, core, 26,					\
	  "valid pages GC moved out of its victims")					\
	X(gc_foreground_runs, "runs", gc, 1, core, 0,					\
	  "host page writes that did GC work")						\
	/* RAM the device uses. */							\
	X(ftl_metadata_bytes, "bytes", ram, 1, core, 0,					\
	  "the FTL's tables: L2P, P2L, block table, heaps")				\
	X(flash_metadata_bytes, "bytes", ram, 1, core, 0,				\
	  "the page-data pointer table")						\
	X(data_bytes, "bytes", ram, 1, core, 0,						\
	  "page buffers holding data")							\
	/* The model's clock. */							\
	X(virtual_time_ns, "ns", timing, 1, core, 0,					\
	  "the latest modeled completion")						\
	/* Version 2: the timing model, in virtual nanoseconds. */			\
	X(commands, "commands", timing, 2, core, 0,					\
	  "requests the model timed that completed (no error)")				\
	X(command_latency_ns_total, "ns", timing, 2, core, 0,				\
	  "their sum of completion - arrival")						\
	X(queue_wait_ns_total, "ns", timing, 2, core, 0,				\
	  "waiting for a command queue slot, summed")					\
	X(controller_busy_ns, "ns", timing, 2, core, 0,					\
	  "the controller's time on commands")						\
	X(channel_busy_ns_total, "ns", timing, 2, core, 0,				\
	  "transfer time, summed over channels")					\
	X(chip_busy_ns_total, "ns", timing, 2, core, 0,					\
	  "flash operation time, summed over chips")					\
	/* Version 2: kernel completions against the model (0 in ssdsim). */		\
	X(timed_completions, "completions", timing, 2, glue, 0,				\
	  "completed by a timer (timing=1)")						\
	X(late_completions, "completions", timing, 2, glue, 0,				\
	  "of those, completed after the model's time")					\
	X(late_ns_total, "ns", timing, 2, glue, 0,					\
	  "by how much, summed")							\
	X(late_ns_max, "ns", timing, 2, glue, 0,					\
	  "by how much at most")							\
	/* Version 2: freed page buffers kept for the next writes. */			\
	X(spare_buffer_bytes, "bytes", ram, 2, core, 0,					\
	  "freed page buffers kept for the next writes")				\
	/* Version 3: the timing model's latencies of reads and writes apart. */	\
	X(read_commands, "commands", timing, 3, core, 0,				\
	  "read requests timed that completed (no error)")				\
	X(read_latency_ns_total, "ns", timing, 3, core, 0,				\
	  "their sum of completion - arrival")						\
	X(write_commands, "commands", timing, 3, core, 0,				\
	  "write requests timed that completed (not write-zeroes)")			\
	X(write_latency_ns_total, "ns", timing, 3, core, 0,				\
	  "their sum of completion - arrival")						\
	/* Version 3: the data cap. */							\
	X(data_limit_bytes, "bytes", ram, 3, core, 0,					\
	  "the most page data the device holds (memory_limit_mb less metadata and "	\
	  "spare buffers, at most the logical capacity); writes needing more fail "	\
	  "with ENOSPC")								\
	/* Version 3: the SLC cache region's share of the totals above. */		\
	X(flash_program_slc_pages, "pages", flash, 3, core, 9,				\
	  "programs of SLC-mode blocks, all causes")					\
	X(flash_read_slc_pages, "pages", flash, 3, core, 18,				\
	  "reads of SLC-mode blocks, all causes")					\
	X(flash_erase_slc_blocks, "blocks", flash, 3, core, 21,				\
	  "erases of SLC-mode blocks since the last reset")				\
	X(slc_erase_count_total, "erases", wear, 3, core, 0,				\
	  "wear: erases of SLC blocks, ever")						\
	X(slc_erase_count_max, "erases", wear, 3, core, 0,				\
	  "wear: the most erases of an SLC block")					\
	X(slc_free_blocks, "blocks", device, 3, core, 0,				\
	  "erased SLC blocks ready to be written")					\
	X(slc_valid_pages, "pages", device, 3, core, 0,					\
	  "pages holding live data in the SLC region")					\
	/* Version 3: GC in bounded steps (gc_pages_per_write). */			\
	X(gc_blocking_runs, "runs", gc, 3, core, 0,					\
	  "GC ran until a block was freed: the hard floor")				\
	X(gc_relocated_pages_write_max, "pages", gc, 3, core, 0,			\
	  "most pages GC moved in one host page write")					\
	/* Version 3: background GC (gc_background_free_blocks). */			\
	X(gc_background_pages, "pages", gc, 3, core, 27,				\
	  "valid pages GC moved on idle chips")						\
	X(gc_background_steps, "steps", gc, 3, core, 0,					\
	  "background GC steps run")							\
	/* Version 4: the SLC write cache (nvmcache/, cache_policy). */			\
	X(cache_write_hit_pages, "pages", cache, 4, core, 29,				\
	  "page writes that hit a cached page (ProCache: of a request all cached)")	\
	X(cache_admit_pages, "pages", cache, 4, core, 32,				\
	  "page writes that entered the cache (ProCache: each of an admitted request)")	\
	X(cache_bypass_size_pages, "pages", cache, 4, core, 0,				\
	  "page writes sent to TLC: request beyond procache_c_bytes")			\
	X(cache_bypass_dice_pages, "pages", cache, 4, core, 0,				\
	  "page writes sent to TLC: ProCache's die said no")				\
	X(cache_bypass_policy_pages, "pages", cache, 4, core, 0,			\
	  "misses sent to TLC: counter, ghost or sketch said no")			\
	X(cache_evict_pages, "pages", cache, 4, core, 33,				\
	  "cached pages evicted (each destaged to TLC)")				\
	X(cache_read_hit_pages, "pages", cache, 4, core, 30,				\
	  "host page reads served by the cache (SLC reads)")				\
	X(cache_pages, "pages", cache, 4, core, 34,					\
	  "pages cached now")								\
	X(cache_capacity_pages, "pages", cache, 4, core, 35,				\
	  "most pages the cache holds")							\
	X(cache_metadata_bytes, "bytes", ram, 4, core, 0,				\
	  "the cache directory and replacement state")					\
	X(cache_policy_metadata_bytes, "bytes", ram, 4, core, 0,			\
	  "the admission policy's own state")						\
	X(flash_program_destage_pages, "pages", flash, 4, core, 11,			\
	  "TLC programs of destaged pages")						\
	X(flash_read_destage_pages, "pages", flash, 4, core, 19,			\
	  "SLC reads of pages being destaged")						\
	X(flash_program_tlc_pages, "pages", flash, 4, core, 10,				\
	  "programs of TLC blocks, all causes")						\
	X(flash_erase_tlc_blocks, "blocks", flash, 4, core, 22,				\
	  "erases of TLC blocks since the last reset")					\
	/* Version 5: in-device deduplication (dedup=1; all 0 when off). */		\
	X(dedup_chunks_written, "chunks", dedup, 5, core, 36,				\
	  "writes that left the write buffer")						\
	X(dedup_fingerprinted_chunks, "chunks", dedup, 5, core, 0,			\
	  "SHA-1s computed, late ones included")					\
	X(dedup_late_fingerprints, "chunks", dedup, 5, core, 0,				\
	  "of stored chunks, on a sample match")					\
	X(dedup_filtered_chunks, "chunks", dedup, 5, core, 0,				\
	  "written unhashed: the sampling filter")					\
	X(dedup_duplicate_chunks, "chunks", dedup, 5, core, 37,				\
	  "writes that matched a live chunk")						\
	X(dedup_store_hits, "lookups", dedup, 5, core, 0,				\
	  "fingerprint store lookups that hit")						\
	X(dedup_store_misses, "lookups", dedup, 5, core, 0,				\
	  "fingerprint store lookups that missed")					\
	X(dedup_store_evictions, "entries", dedup, 5, core, 0,				\
	  "fingerprints the LRU store dropped")						\
	X(dedup_buffer_rewrites, "writes", dedup, 5, core, 0,				\
	  "writes that replaced a buffered one")					\
	X(dedup_buffer_trims, "writes", dedup, 5, core, 0,				\
	  "buffered writes dropped by a TRIM")						\
	X(dedup_buffer_reads, "pages", dedup, 5, core, 0,				\
	  "page reads served from the buffer")						\
	X(dedup_programs_avoided, "pages", dedup, 5, core, 38,				\
	  "duplicates + rewrites + trims in the buffer")				\
	X(dedup_logical_pages, "pages", dedup, 5, core, 39,				\
	  "host pages holding data (mapped, buffered)")					\
	X(dedup_physical_pages, "pages", dedup, 5, core, 40,				\
	  "live chunks (pages stored below)")						\
	X(dedup_buffered_pages, "pages", dedup, 5, core, 0,				\
	  "writes in the buffer now")							\
	X(dedup_store_used_entries, "entries", dedup, 5, core, 0,			\
	  "fingerprint store entries in use")						\
	X(dedup_store_capacity_entries, "entries", dedup, 5, core, 0,			\
	  "fingerprint store entries in all")						\
	X(dedup_store_entry_bytes, "bytes", dedup, 5, core, 0,				\
	  "RAM per fingerprint store entry")						\
	X(dedup_metadata_bytes, "bytes", ram, 5, core, 0,				\
	  "all of the dedup layer's tables")						\
	X(dedup_break_even_ppm, "ppm", dedup, 5, core, 0,				\
	  "(hash + lookup) / program, parts per million")				\
	X(dedup_engine_busy_ns, "ns", dedup, 5, core, 0,				\
	  "SHA-1 and lookups on the controller")					\
	/* Version 6: PLC, read allocation, bytes into the cache, references. */	\
	X(cache_bypass_delay_pages, "pages", cache, 6, core, 0,				\
	  "PLC: a delayed eviction abandoned the miss")					\
	X(cache_bypass_inout_pages, "pages", cache, 6, core, 0,				\
	  "PLC: the newcomer did not beat the victim")					\
	X(cache_read_miss_pages, "pages", cache, 6, core, 31,				\
	  "host page reads of pages not cached")					\
	X(cache_fill_pages, "pages", cache, 6, core, 0,					\
	  "read misses copied into the cache")						\
	X(cache_written_host_bytes, "bytes", cache, 6, core, 0,				\
	  "into the cache: write hits and admitted writes")				\
	X(cache_written_fill_bytes, "bytes", cache, 6, core, 0,				\
	  "into the cache: read fills")							\
	X(cache_refcount_metadata_bytes, "bytes", ram, 6, core, 0,			\
	  "references kept per logical page (dedup-aware)")				\
	X(flash_program_fill_pages, "pages", flash, 6, core, 12,			\
	  "SLC programs of read fills")							\
	/* Version 7: destage by kind, cache TRIMs, the dedup engines. */		\
	X(cache_destage_foreground_pages, "pages", cache, 7, core, 0,			\
	  "destaged inside the write that needed room")					\
	X(cache_destage_background_pages, "pages", cache, 7, core, 0,			\
	  "destaged on idle chips (cache_destage_high_percent)")			\
	X(cache_trim_pages, "pages", cache, 7, core, 0,					\
	  "cached pages a TRIM dropped")						\
	X(dedup_hash_wait_ns, "ns", dedup, 7, core, 0,					\
	  "leaving writes' wait for fingerprints, summed")				\
	X(dedup_engine_load_ppm, "ppm", dedup, 7, core, 0,				\
	  "engine time per page / flash time per page, full load")			\
	/* Version 8: mapping schemes, wear, the FTL's map (see above). */		\
	X(ftl_map_ram_bytes, "bytes", ram, 8, core, 0,					\
	  "modeled mapping RAM of the scheme")						\
	X(erase_count_stddev_milli, "erases/1000", wear, 8, core, 0,			\
	  "standard deviation of every block's erase count, x 1000")			\
	X(wl_static_migrations, "blocks", gc, 8, core, 0,				\
	  "cold blocks static wear levelling chose")					\
	X(wl_static_pages, "pages", gc, 8, core, 28,					\
	  "valid pages moved out of them")						\
	X(flash_program_map_pages, "pages", flash, 8, core, 13,				\
	  "translation pages programmed (cause map)")					\
	X(flash_read_map_pages, "pages", flash, 8, core, 0,				\
	  "translation pages read (cause map)")						\
	X(dftl_cmt_hits, "lookups", gc, 8, core, 0,					\
	  "DFTL: host map lookups the CMT held")					\
	X(dftl_cmt_misses, "lookups", gc, 8, core, 0,					\
	  "DFTL: host map lookups that loaded an entry")				\
	X(dftl_translation_reads, "pages", gc, 8, core, 0,				\
	  "DFTL: translation pages read: misses and write-backs")			\
	X(dftl_translation_writes, "pages", gc, 8, core, 0,				\
	  "DFTL: translation pages written back (not GC)")				\
	X(dftl_translation_gc_pages, "pages", gc, 8, core, 0,				\
	  "DFTL: translation pages translation GC moved")				\
	/* Block-mapped schemes (block, bast, fast): merges of logical blocks. */	\
	X(ftl_switch_merges, "merges", gc, 8, core, 0,					\
	  "log blocks that became data blocks as they were")				\
	X(ftl_partial_merges, "merges", gc, 8, core, 0,					\
	  "log blocks completed from the data block, then switched")			\
	X(ftl_full_merges, "merges", gc, 8, core, 0,					\
	  "logical blocks copied into a new block")					\
	X(ftl_merge_erases, "blocks", gc, 8, core, 0,					\
	  "blocks erased by merges")							\
	X(flash_program_merge_pages, "pages", flash, 8, core, 14,			\
	  "pages merges copied (cause merge)")						\
	X(flash_read_merge_pages, "pages", flash, 8, core, 0,				\
	  "pages merges read")								\
	/* Version 9: the erase-count histogram of every block (see above). */		\
	X(erase_hist_bucket_width, "erases", wear, 9, core, 0,				\
	  "erase counts each bucket spans (0: no histogram)")				\
	X(erase_hist_0, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [0, width)")						\
	X(erase_hist_1, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [1 x width, 2 x width)")				\
	X(erase_hist_2, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [2 x width, 3 x width)")				\
	X(erase_hist_3, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [3 x width, 4 x width)")				\
	X(erase_hist_4, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [4 x width, 5 x width)")				\
	X(erase_hist_5, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [5 x width, 6 x width)")				\
	X(erase_hist_6, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [6 x width, 7 x width)")				\
	X(erase_hist_7, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [7 x width, 8 x width)")				\
	X(erase_hist_8, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [8 x width, 9 x width)")				\
	X(erase_hist_9, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [9 x width, 10 x width)")				\
	X(erase_hist_10, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [10 x width, 11 x width)")				\
	X(erase_hist_11, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [11 x width, 12 x width)")				\
	X(erase_hist_12, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [12 x width, 13 x width)")				\
	X(erase_hist_13, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [13 x width, 14 x width)")				\
	X(erase_hist_14, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [14 x width, 15 x width)")				\
	X(erase_hist_15, "blocks", wear, 9, core, 0,					\
	  "blocks with erases in [15 x width, 16 x width)")				\
	/* Version 10: read errors and injection (docs/faults.md). */			\
	X(flash_read_retry_pages, "pages", read_errors, 10, core, 0,			\
	  "read retries: timed page re-reads past ecc_soft_bits")			\
	X(read_corrected_codewords, "codewords", read_errors, 10, core, 0,		\
	  "codewords read with bit errors, corrected")					\
	X(read_uncorrectable_pages, "pages", read_errors, 10, core, 0,			\
	  "page reads past ecc_correct_bits after every retry")				\
	X(read_uncorrectable_host_pages, "pages", read_errors, 10, core, 0,		\
	  "of those, host reads (NVMe media errors)")					\
	X(host_read_error_pages, "pages", read_errors, 10, core, 0,			\
	  "host pages failed to the host: uncorrectable or injected")			\
	X(host_write_error_pages, "pages", read_errors, 10, core, 0,			\
	  "host pages of writes failed by injection")					\
	X(injected_error_ranges, "ranges", read_errors, 10, core, 0,			\
	  "sector ranges injected now (inject_errors)")					\
	/* Version 10: bad blocks and wear-out (docs/faults.md). */			\
	X(bad_blocks_factory, "blocks", wear_out, 10, core, 0,				\
	  "blocks bad from the start (rate or list)")					\
	X(bad_blocks_grown, "blocks", wear_out, 10, core, 0,				\
	  "blocks retired after a failed program or erase")				\
	X(spare_blocks, "blocks", device, 10, core, 0,					\
	  "blocks that may still be retired before read-only")				\
	X(spare_blocks_initial, "blocks", device, 10, core, 0,				\
	  "spare_blocks at creation (after factory bad ones)")				\
	X(flash_program_failures, "programs", wear_out, 10, core, 0,			\
	  "page programs that failed (block retired)")					\
	X(flash_erase_failures, "erases", wear_out, 10, core, 0,			\
	  "block erases that failed (block retired)")					\
	X(read_only, "flag", wear_out, 10, core, 0,					\
	  "1: end of life, writes and TRIMs refused")					\
	X(host_write_refused_pages, "pages", wear_out, 10, core, 0,			\
	  "host pages written or trimmed refused while read-only")			\
	X(retire_relocated_pages, "pages", wear_out, 10, core, 0,			\
	  "valid pages moved out of retired blocks")					\
	/* Version 10: power cuts and the volatile write cache (docs/faults.md). */	\
	X(power_cuts, "cuts", power, 10, core, 0,					\
	  "power cuts since creation (SMART unsafe shutdowns)")				\
	X(power_cut_lost_pages, "pages", power, 10, core, 0,				\
	  "acknowledged pages a power cut lost (never flushed)")			\
	X(write_cache_dirty_pages, "pages", power, 10, core, 0,				\
	  "gauge: pages in the volatile write cache now")				\
	X(write_cache_hit_pages, "pages", power, 10, core, 0,				\
	  "host reads served from the volatile write cache")				\
	X(write_cache_flushes, "flushes", power, 10, core, 0,				\
	  "FLUSH commands that drained the volatile write cache")			\
	X(fua_writes, "writes", power, 10, core, 0,					\
	  "FUA writes, on flash before they completed")					\
	/* Version 11: requests that failed or were refused (see above). */		\
	X(failed_commands, "commands", failures, 11, core, 0,				\
	  "requests that failed: I/O error (media, injected); in no latency")	\
	X(read_failed_commands, "commands", failures, 11, core, 0,			\
	  "of those, reads")								\
	X(write_failed_commands, "commands", failures, 11, core, 0,			\
	  "of those, writes (not write-zeroes)")					\
	X(refused_commands, "commands", failures, 11, core, 0,				\
	  "requests declined: read-only, power off, no room, range; no latency")	\
	X(read_refused_commands, "commands", failures, 11, core, 0,			\
	  "of those, reads")								\
	X(write_refused_commands, "commands", failures, 11, core, 0,			\
	  "of those, writes (not write-zeroes)")					\
	/* Version 11: the working set. */						\
	X(working_set_pages, "pages", host, 11, core, 41,				\
	  "distinct logical pages host reads and writes touched since the last reset")

struct ssdemu_stats {
	__u32 version;			/* SSDEMU_STATS_VERSION of the writer */
	__u32 struct_bytes;		/* sizeof(struct ssdemu_stats) of the writer */
#define SSDEMU_STATS_MEMBER(name, unit, group, since, source, vendor, help) __u64 name;
	SSDEMU_STATS_COUNTERS(SSDEMU_STATS_MEMBER)
#undef SSDEMU_STATS_MEMBER
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

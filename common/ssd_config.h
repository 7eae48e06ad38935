/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_config.h - the one vocabulary of device configuration keys.
 *
 * SSD_CONFIG_KEYS is the single source of truth for every key: its name (as
 * used in configs/ *.conf, configfs attributes, `ssdctl create` and `ssdsim`),
 * default, accepted range and a one-line help text.  struct ssd_config has
 * one u64 field per key, named after it.  Portable: no kernel or libc headers.
 */
#ifndef SSD_CONFIG_H
#define SSD_CONFIG_H

#include "ssd_platform.h"

enum ssd_gc_policy_id {
	SSD_GC_GREEDY,
	SSD_GC_COST_BENEFIT,
	SSD_GC_NR,
};

/* nvmcache/: who enters the SLC write cache (admission policy). */
enum ssd_cache_policy_id {
	SSD_CACHE_NONE,		/* no cache layer */
	SSD_CACHE_ALWAYS,	/* BASE: every write miss enters */
	SSD_CACHE_PROCACHE,	/* ProCache: size < c, then a die roll with p */
	SSD_CACHE_REFCNT,	/* a saturating counter per page, decayed */
	SSD_CACHE_LARC,		/* second touch within a ghost LRU */
	SSD_CACHE_TINYLFU,	/* count-min sketch + doorkeeper vs the victim */
	SSD_CACHE_NR,
};

/* nvmcache/: which cached page leaves first (replacement). */
enum ssd_cache_repl_id {
	SSD_CACHE_LRU,
	SSD_CACHE_CLOCK,
	SSD_CACHE_FIFO,
	SSD_CACHE_REPL_NR,
};

/* ProCache's size classes of the vector form p[ceil(log2 pages)]. */
#define SSD_PROCACHE_CLASSES	8

/* Probabilities are integers in parts per million. */
#define SSD_PPM			1000000ULL

/* Upper bound of every latency key: 10 s. */
#define SSD_MAX_LATENCY_NS	10000000000ULL

/* Upper bound of memory_limit_mb: 16 TiB. */
#define SSD_MAX_MEMORY_LIMIT_MB	16777216ULL

/* Flags of a key. */
#define SSD_KEY_POW2		0x1	/* value must be a power of two */
#define SSD_KEY_ENUM		0x2	/* value is one of a list of names */

/*
 * X(name, default, min, max, flags, enum_names, help)
 */
#define SSD_CONFIG_KEYS(X)						\
	X(logical_block_bytes, 4096, 512, 4096, SSD_KEY_POW2, NULL,	\
	  "host logical block size in bytes: 512 or 4096")		\
	X(page_size_bytes, 4096, 512, 65536, SSD_KEY_POW2, NULL,	\
	  "flash page size in bytes, a power of two")			\
	X(pages_per_block, 256, 4, 16384, 0, NULL,			\
	  "flash pages per erase block")				\
	X(blocks_per_chip, 64, 4, 1048576, 0, NULL,			\
	  "erase blocks per flash chip")				\
	X(slc_blocks_per_chip, 0, 0, 1048576, 0, NULL,			\
	  "first blocks of each chip run as the SLC cache region; 0 = none") \
	X(chips, 8, 1, 1024, 0, NULL,					\
	  "flash chips in total, spread evenly over the channels")	\
	X(channels, 4, 1, 256, 0, NULL,				\
	  "channels (buses); must divide chips")			\
	X(op_percent, 7, 1, 90, 0, NULL,				\
	  "over-provisioning: percent of physical pages hidden from the host") \
	X(gc_policy, SSD_GC_GREEDY, 0, SSD_GC_NR - 1, SSD_KEY_ENUM,	\
	  ssd_gc_policy_names,						\
	  "GC victim policy: greedy or cost_benefit")			\
	X(gc_low_free_blocks, 0, 0, 1048576, 0, NULL,			\
	  "foreground GC runs while free blocks < this; 0 = chips + 2") \
	X(gc_pages_per_write, 8, 0, 1048576, 0, NULL,			\
	  "pages GC moves per host page write while free blocks are low; 0 = whole victims") \
	X(gc_background_free_blocks, 0, 0, 1048576, 0, NULL,		\
	  "background GC on idle chips while free blocks < this; 0 = off") \
	X(read_unwritten_flash, 1, 0, 1, 0, NULL,			\
	  "1: an unwritten page reads as a TLC page read; 0: zeros without flash") \
	X(timing, 1, 0, 1, 0, NULL,					\
	  "1: I/O completes at the modeled time; 0: at once (the model still runs)") \
	X(cmd_queue_depth, 64, 1, 65536, 0, NULL,			\
	  "commands the device holds at once; more wait for a slot")	\
	X(controller_ns, 2000, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "controller firmware time per command (its Waiting state)")	\
	X(channel_mb_per_s, 400, 1, 100000, 0, NULL,			\
	  "channel (bus) transfer rate in MB/s (10^6 bytes)")		\
	X(read_priority, 0, 0, 1, 0, NULL,				\
	  "1: host reads suspend programs/erases on their chip; 0: FIFO") \
	X(read_ns, 50000, 1, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC page read latency (array to page register)")		\
	X(read_lsb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC lower-page read latency; 0 = read_ns")			\
	X(read_csb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC center-page read latency; 0 = read_ns")			\
	X(read_msb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC upper-page read latency; 0 = read_ns")			\
	X(program_ns, 600000, 1, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC page program latency")					\
	X(program_lsb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC lower-page program latency; 0 = program_ns")		\
	X(program_csb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC center-page program latency; 0 = program_ns")		\
	X(program_msb_ns, 0, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC upper-page program latency; 0 = program_ns")		\
	X(erase_ns, 3000000, 1, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "TLC block erase latency")					\
	X(slc_read_ns, 25000, 1, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "SLC-mode page read latency")					\
	X(slc_program_ns, 200000, 1, SSD_MAX_LATENCY_NS, 0, NULL,	\
	  "SLC-mode page program latency")				\
	X(slc_erase_ns, 2000000, 1, SSD_MAX_LATENCY_NS, 0, NULL,	\
	  "SLC-mode block erase latency")				\
	X(request_log_entries, 0, 0, 4194304, 0, NULL,			\
	  "requests logged for `ssdctl log` (arrival, completion); 0 = off") \
	X(memory_limit_mb, 0, 0, SSD_MAX_MEMORY_LIMIT_MB, 0, NULL,	\
	  "RAM for metadata and data, in MiB; 0 = half of the RAM at power-on") \
	X(hw_queues, 0, 0, 64, 0, NULL,				\
	  "blk-mq hardware queues; 0 = one per CPU (kernel only)")	\
	X(queue_depth, 64, 1, 4096, 0, NULL,				\
	  "blk-mq tags per hardware queue (kernel only)")		\
	/* nvmcache/: the SLC write cache and its admission policies. */ \
	X(seed, 1, 0, U64_MAX, 0, NULL,				\
	  "seed of the device's PRNG (ProCache's die, sketch hashes)")	\
	X(cache_policy, SSD_CACHE_NONE, 0, SSD_CACHE_NR - 1, SSD_KEY_ENUM, \
	  ssd_cache_policy_names,					\
	  "SLC write cache admission: none, always, procache, refcnt, larc or tinylfu") \
	X(cache_replacement, SSD_CACHE_LRU, 0, SSD_CACHE_REPL_NR - 1,	\
	  SSD_KEY_ENUM, ssd_cache_repl_names,				\
	  "SLC write cache replacement: lru, clock or fifo")		\
	X(cache_pages, 0, 0, U32_MAX, 0, NULL,				\
	  "pages the write cache holds; 0 = 7/8 of what the SLC region's GC allows") \
	X(procache_p_ppm, 100000, 0, SSD_PPM, 0, NULL,			\
	  "ProCache: chance (ppm) that a write miss enters the cache")	\
	X(procache_c_bytes, 0, 0, U64_MAX, 0, NULL,			\
	  "ProCache: requests of this many bytes or more bypass; 0 = no limit") \
	X(procache_p_vector, 0, 0, 1, 0, NULL,				\
	  "ProCache: 1 = p by size class (procache_p_classK_ppm), 0 = procache_p_ppm") \
	X(procache_p_class0_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 1-page requests")			\
	X(procache_p_class1_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 2-page requests")			\
	X(procache_p_class2_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 3-4-page requests")			\
	X(procache_p_class3_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 5-8-page requests")			\
	X(procache_p_class4_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 9-16-page requests")			\
	X(procache_p_class5_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 17-32-page requests")			\
	X(procache_p_class6_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of 33-64-page requests")			\
	X(procache_p_class7_ppm, 100000, 0, SSD_PPM, 0, NULL,		\
	  "ProCache vector: p of requests of 65 pages or more")		\
	X(refcnt_threshold, 2, 1, 255, 0, NULL,			\
	  "REFCNT: a page enters once its counter reaches this")	\
	X(refcnt_decay_writes, 0, 0, U64_MAX, 0, NULL,			\
	  "REFCNT: page writes between right shifts of every counter; 0 = 2 x cache_pages") \
	X(larc_ghost_pages, 0, 0, U32_MAX, 0, NULL,			\
	  "LARC: pages the ghost LRU remembers; 0 = cache_pages / 10")	\
	X(tinylfu_sample_writes, 0, 0, U64_MAX, 0, NULL,		\
	  "TinyLFU: page writes between halvings of the sketch; 0 = 10 x cache_pages") \
	/* dedup/: in-device deduplication (Kim et al., MSST 2012) */	\
	X(dedup, 0, 0, 1, 0, NULL,					\
	  "1: deduplicate page writes (SHA-1 fingerprints) above the FTL; 0: off") \
	X(dedup_buffer_pages, 64, 0, 1048576, 0, NULL,			\
	  "dedup write buffer entries (pages); 0 = no buffer")		\
	X(dedup_buffer_bytes, 0, 0, 1ULL << 40, 0, NULL,		\
	  "dedup write buffer bytes (caps the entries); 0 = no byte cap") \
	X(dedup_filter, 1, 0, 1, 0, NULL,				\
	  "1: sampling filter, fingerprint only writes whose sample recurs") \
	X(dedup_sample_bytes, 20, 1, 65536, 0, NULL,			\
	  "bytes the sampling filter samples from each page")		\
	X(dedup_sample_offset_bytes, 1000, 0, 65535, 0, NULL,		\
	  "offset in the page of the filter's sample")			\
	X(dedup_store_entries, 0, 0, 1ULL << 30, 0, NULL,		\
	  "fingerprint store: 0 = every live fingerprint; N = LRU of the last N") \
	X(dedup_hash_ns, 80000, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "SHA-1 of one page on the controller (80 us: hardware engine)") \
	X(dedup_lookup_ns, 2000, 0, SSD_MAX_LATENCY_NS, 0, NULL,	\
	  "fingerprint store lookup on the controller")

extern const char *const ssd_gc_policy_names[SSD_GC_NR];
extern const char *const ssd_cache_policy_names[SSD_CACHE_NR];
extern const char *const ssd_cache_repl_names[SSD_CACHE_REPL_NR];

struct ssd_config {
#define SSD_CONFIG_FIELD(name, def, min, max, flags, names, help) u64 name;
	SSD_CONFIG_KEYS(SSD_CONFIG_FIELD)
#undef SSD_CONFIG_FIELD
};

struct ssd_config_key {
	const char *name;
	u64 default_value;
	u64 min_value;
	u64 max_value;
	u32 flags;
	const char *const *enum_names;
	const char *help;
	size_t offset;		/* of the field in struct ssd_config */
};

extern const struct ssd_config_key ssd_config_keys[];
extern const unsigned int ssd_config_nr_keys;

void ssd_config_defaults(struct ssd_config *cfg);
const struct ssd_config_key *ssd_config_find(const char *name);

/*
 * Parse and range-check one value.  Returns 0, -ENOENT for an unknown key or
 * -EINVAL with a one-line message naming the key and the accepted range.
 * Trailing whitespace (a newline from `echo`) is ignored.
 */
int ssd_config_set(struct ssd_config *cfg, const char *key, const char *value);

/* Format a value as it would be written, with a trailing newline. */
int ssd_config_show(const struct ssd_config *cfg, const struct ssd_config_key *key,
		    char *buf, size_t buf_bytes);

/*
 * Cross-key checks of the geometry, run before a device is created; each
 * layer checks its own keys too (ssd_device_validate_config() runs all).
 * -EINVAL with a message.
 */
int ssd_config_validate(const struct ssd_config *cfg);

/* Derived sizes of a validated configuration. */
u64 ssd_config_physical_pages(const struct ssd_config *cfg);
u64 ssd_config_logical_pages(const struct ssd_config *cfg);

#endif /* SSD_CONFIG_H */

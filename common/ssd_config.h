/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_config.h - the configuration: what a key is, the core's keys, and
 * struct ssd_config, which holds a value for every key.
 *
 * A key has a name (as used in configs/ *.conf, configfs attributes,
 * `ssdctl create` and `ssdsim`), a default, an accepted range, flags and a
 * one-line help text.  SSD_CONFIG_KEYS lists the core's keys (geometry,
 * timing, the layers' own knobs), each a u64 field of struct ssd_config
 * named after it.  A registry of policies (GC victim policies, FTL
 * schemes, the write cache's admission and replacement policies) declares
 * its selector, the enum key whose values are its entries
 * (SSD_CONFIG_SELECTOR()), and each policy the keys it owns, next to its
 * ops table (SSD_CONFIG_KEY()); struct ssd_config keeps the values of
 * those it was given.  The full list of keys, the vocabulary every tool
 * and configfs show, is collected above the layers (device/ssd_keys.c):
 * nothing here names a registry.  Portable: no kernel or libc headers.
 */
#ifndef SSD_CONFIG_H
#define SSD_CONFIG_H

#include "platform/ssd_platform.h"

struct ssd_config_key;

/*
 * The values of an enum key (SSD_KEY_ENUM): value v is name(v), from 0
 * (the default) to nr - 1.  A registry's (the list of ops tables in the
 * folder that owns the key, so adding a policy is one file and one line
 * in that list) also gives the keys each entry owns.
 */
struct ssd_config_choice {
	u32 nr;
	const char *(*name)(u32 value);
	/*
	 * The keys entry @value declares, NULL-terminated, or NULL.  NULL
	 * op: no entry owns keys (an enum that is no registry).
	 */
	const struct ssd_config_key *const *(*keys)(u32 value);
};

/* data_store's values (enum ssd_data_store below; ssd_config.c names them). */
extern const struct ssd_config_choice ssd_data_store_choice;

/* Probabilities are integers in parts per million. */
#define SSD_PPM			1000000ULL

/* Upper bound of every latency key: 10 s. */
#define SSD_MAX_LATENCY_NS	10000000000ULL

/* Upper bound of dedup_hash_engines. */
#define SSD_DEDUP_MAX_ENGINES	64

/* Upper bound of memory_limit_mb: 16 TiB. */
#define SSD_MAX_MEMORY_LIMIT_MB	16777216ULL

/* Flags of a key. */
#define SSD_KEY_POW2		0x1	/* value must be a power of two */
#define SSD_KEY_ENUM		0x2	/* value is one of a ssd_config_choice's names */
/* ssdsim only: the kernel refuses any value but the default (ssd_config_check_kernel()). */
#define SSD_KEY_SIM_ONLY	0x4
#define SSD_KEY_KERNEL_ONLY	0x8	/* only the kernel glue uses it; ssdsim ignores it */
/* Owned by a policy (SSD_CONFIG_KEY()): no field, a value in cfg->owned. */
#define SSD_KEY_OWNED		0x10

/*
 * What the data store keeps of a page (data_store): auto (the default:
 * bytes in the core and the kernel, ssdsim chooses one of the others);
 * its bytes; a digest, one SSD_DIGEST_ID_BYTES id per SSD_SECTOR_BYTES
 * sector, all-zero meaning zero bytes, which stands for the bytes
 * ssd_digest_expand() (common/ssd_pagepool.h) makes of it; or nothing
 * (reads find zeros; nothing may need content).
 */
enum ssd_data_store {
	SSD_DATA_AUTO,
	SSD_DATA_BYTES,
	SSD_DATA_DIGEST,
	SSD_DATA_NONE,
	SSD_DATA_NR,
};

#define SSD_SECTOR_BYTES	512
#define SSD_DIGEST_ID_BYTES	16

/*
 * X(name, default, min, max, flags, choice, help)
 *
 * An enum key's range is its choice's values (min and max are 0 here), and
 * its help is followed by their names wherever it is shown
 * (ssd_config_describe()).
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
	X(gc_low_free_blocks, 0, 0, 1048576, 0, NULL,			\
	  "foreground GC runs while free blocks < this; 0 = chips + 2") \
	X(gc_pages_per_write, 8, 0, 1048576, 0, NULL,			\
	  "pages GC moves per host page write while free blocks are low; 0 = whole victims") \
	X(gc_background_free_blocks, 0, 0, 1048576, 0, NULL,		\
	  "background GC on idle chips while free blocks < this; 0 = off") \
	X(wl_static_threshold, 0, 0, 1000000, 0, NULL,			\
	  "static wear levelling: a full block this many erases below its region's mean moves; 0 = off") \
	X(pe_cycle_limit, 3000, 1, 1000000, 0, NULL,			\
	  "P/E cycles a block is rated for: NVMe SMART percentage used = mean erase count / this") \
	/* Faults (issue 24): their own PRNG, apart from seed's. */	\
	X(fault_seed, 1, 0, U64_MAX, 0, NULL,				\
	  "seed of the fault models' PRNGs (read errors, ...); apart from seed") \
	/* Read errors: RBER, ECC and read retries (flash/flash_ecc.c). */ \
	X(rber_base_ppb, 0, 0, 100000000, 0, NULL,			\
	  "raw bit error rate of a fresh page, parts per billion of bits; 0 = read errors off") \
	X(rber_wear_ppb, 0, 0, 100000000, 0, NULL,			\
	  "RBER added at erase count == pe_cycle_limit, in ppb, growing as (erase count / pe_cycle_limit)^2") \
	X(rber_retention_ppb_per_day, 0, 0, 10000000, 0, NULL,		\
	  "RBER added per day of virtual time since the block's last program, in ppb, times 1 + erase count / pe_cycle_limit") \
	X(ecc_codeword_bytes, 1024, 64, 65536, SSD_KEY_POW2, NULL,	\
	  "ECC codeword in bytes of data; at most page_size_bytes (read errors on)")	\
	X(ecc_correct_bits, 40, 1, 4096, 0, NULL,			\
	  "bit errors the ECC corrects per codeword (t)")		\
	X(ecc_soft_bits, 30, 0, 4096, 0, NULL,				\
	  "bit errors per codeword corrected at once; above, read retries; at most ecc_correct_bits") \
	X(read_retry_max, 5, 0, 64, 0, NULL,				\
	  "read retries of a page (each a timed read, RBER halved each time) before it is uncorrectable") \
	/* Bad blocks and wear-out (docs/faults.md). */			\
	X(bad_block_ppm, 0, 0, 1000000, 0, NULL,			\
	  "factory bad blocks: each main-region block bad with this probability (ppm); 0 = none") \
	X(grown_bad_ppm, 0, 0, 1000000, 0, NULL,			\
	  "grown bad blocks: ppm chance a program/erase fails at erase count pe_cycle_limit (doubles every limit/10); 0 = never") \
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
	X(data_store, 0, 0, 0, SSD_KEY_ENUM | SSD_KEY_SIM_ONLY,		\
	  &ssd_data_store_choice,					\
	  "what the data store keeps of a page: bytes, digest (an id per 512-byte sector), none; auto: bytes, ssdsim picks (ssdsim only)") \
	X(hw_queues, 1, 0, 64, SSD_KEY_KERNEL_ONLY, NULL,				\
	  "blk-mq hardware queues (kernel only; the model serves one at a time); 0 = one per CPU") \
	X(queue_depth, 64, 1, 4096, SSD_KEY_KERNEL_ONLY, NULL,				\
	  "blk-mq tags per hardware queue (kernel only)")		\
	/* device/: the volatile write cache and power cuts (docs/faults.md). */ \
	X(volatile_write_cache, 0, 0, 1, 0, NULL,			\
	  "1: a DRAM write-back cache (write_cache_pages) a power cut loses unless flushed, FUA honoured; 0: power-loss protected") \
	X(write_cache_pages, 256, 1, 1048576, 0, NULL,			\
	  "pages of the volatile write cache (volatile_write_cache=1 only)") \
	/* nvmcache/: the SLC write cache (its policies' keys are theirs). */ \
	X(seed, 1, 0, U64_MAX, 0, NULL,				\
	  "seed of the device's PRNG (ProCache's die, sketch hashes)")	\
	X(cache_read_allocate, 0, 0, 1, 0, NULL,			\
	  "1: a read miss may enter the cache too, as the admission policy decides") \
	X(cache_rce, 0, 0, 1, 0, NULL,					\
	  "1: RCE dedup-aware eviction over lru or arc (CDAC); 0: off") \
	X(cache_pages, 0, 0, U32_MAX, 0, NULL,				\
	  "pages the write cache holds; 0 = 7/8 of what the SLC region's GC allows") \
	X(cache_destage_high_percent, 0, 0, 100, 0, NULL,		\
	  "background destage on idle chips from this percent of cache_pages; 0 = off (timing-independent)") \
	X(cache_destage_low_percent, 50, 0, 99, 0, NULL,		\
	  "background destage writes the cache back down to this percent of cache_pages") \
	/* dedup/: in-device deduplication (Kim et al., MSST 2012) */	\
	X(dedup, 0, 0, 1, 0, NULL,					\
	  "1: deduplicate page writes (SHA-1 fingerprints) above the FTL; 0: off") \
	X(dedup_buffer_pages, 64, 0, 1048576, 0, NULL,			\
	  "dedup write buffer entries (pages); 0 = no buffer")		\
	X(dedup_buffer_bytes, 0, 0, 1ULL << 40, 0, NULL,		\
	  "dedup write buffer bytes (caps the entries); 0 = no byte cap") \
	X(dedup_filter, 1, 0, 1, 0, NULL,				\
	  "1: sampling filter, fingerprint only writes whose sample recurs") \
	X(dedup_filter_live_chunks, 0, 0, 1, 0, NULL,			\
	  "0: the filter compares a leaving write's sample with the buffered writes' (Kim's); 1: with the live chunks' too") \
	X(dedup_sample_bytes, 20, 1, 65536, 0, NULL,			\
	  "bytes the sampling filter samples from each page")		\
	X(dedup_sample_offset_bytes, 1000, 0, 65535, 0, NULL,		\
	  "offset in the page of the filter's sample")			\
	X(dedup_store_entries, 0, 0, 1ULL << 30, 0, NULL,		\
	  "fingerprint store: 0 = every live fingerprint; N = LRU of the last N") \
	X(dedup_hash_ns, 80000, 0, SSD_MAX_LATENCY_NS, 0, NULL,		\
	  "SHA-1 of one page on the controller (80 us: hardware engine)") \
	X(dedup_lookup_ns, 2000, 0, SSD_MAX_LATENCY_NS, 0, NULL,	\
	  "fingerprint store lookup, on the engine after each SHA-1 (so with dedup_hash_ns=0 too)") \
	X(dedup_hash_engines, 1, 1, SSD_DEDUP_MAX_ENGINES, 0, NULL,	\
	  "dedup engines fingerprinting in parallel (each dedup_hash_ns + dedup_lookup_ns)") \
	X(dedup_hash_overlap, 0, 0, 1, 0, NULL,			\
	  "1: a buffered write is fingerprinted from when it enters the buffer; 0: when it leaves")

/* Bytes of a device name in struct ssd_config, with its NUL. */
#define SSD_CONFIG_NAME_BYTES	32

/* configfs `features` lists every key name, a line each, in one page. */
#define SSD_CONFIG_FEATURES_BYTES	4096

/*
 * The most keys the vocabulary may collect (the kernel glue makes a
 * configfs attribute of each), and the most owned keys among them
 * (struct ssd_config keeps a value of each).  ssd_config_keys_check()
 * holds the collected list to both; raise them when it says so.
 */
#define SSD_CONFIG_MAX_KEYS		160
#define SSD_CONFIG_MAX_OWNED_KEYS	64

struct ssd_config_key {
	const char *name;
	u64 default_value;
	u64 min_value;
	u64 max_value;
	u32 flags;
	const struct ssd_config_choice *choice;	/* SSD_KEY_ENUM only */
	const char *help;
	size_t offset;		/* of its field in struct ssd_config; none if SSD_KEY_OWNED */
};

/*
 * A key a policy or scheme owns, declared next to its ops table with the
 * seven fields of an SSD_CONFIG_KEYS line (moving a key out of that list
 * is moving its line), and listed, NULL-terminated, in the table's keys:
 *
 *	static const struct ssd_config_key plc_delay =
 *		SSD_CONFIG_KEY(plc_delay, 2, 0, 255, 0, NULL, "PLC: ...");
 *
 * Its value is ssd_config_get(cfg, &plc_delay).  Registries collect the
 * keys of their entries; a key two entries share (ftl_log_blocks: bast
 * and fast) is one object both list.
 */
#define SSD_CONFIG_KEY(n, def, lo, hi, fl, ch, text)			\
	{ .name = #n, .default_value = (def), .min_value = (lo),	\
	  .max_value = (hi), .flags = (fl) | SSD_KEY_OWNED,		\
	  .choice = (ch), .help = (text) }

/*
 * A registry's selector, declared by the registry: the enum key whose
 * values are its entries, @ch its struct ssd_config_choice (keys op
 * included), kept in struct ssd_config's field of its name.  Its
 * default is the first entry.
 */
#define SSD_CONFIG_SELECTOR(n, ch, text)				\
	{ .name = #n, .flags = SSD_KEY_ENUM, .choice = (ch), .help = (text), \
	  .offset = offsetof(struct ssd_config, n) }

/* An owned key's value in a configuration. */
struct ssd_config_value {
	const struct ssd_config_key *key;
	u64 value;
};

struct ssd_config {
#define SSD_CONFIG_FIELD(name, def, min, max, flags, choice, help) u64 name;
	SSD_CONFIG_KEYS(SSD_CONFIG_FIELD)
#undef SSD_CONFIG_FIELD
	/*
	 * The selectors, read across the layers (an entry's index; 0: the
	 * default), each declared by its registry: gc_policy
	 * (ftl/ftl_gc_policy.c), ftl_type (ftl/ftl_scheme.c), cache_policy
	 * and cache_replacement (nvmcache/cache_policies.c).
	 */
	u64 gc_policy;
	u64 ftl_type;
	u64 cache_policy;
	u64 cache_replacement;
	/*
	 * The owned keys given a value (ssd_config_put()), in the order they
	 * first were; an owned key not among them is at its default.
	 */
	u64 nr_owned;
	struct ssd_config_value owned[SSD_CONFIG_MAX_OWNED_KEYS];
	/*
	 * Not a key: the device's name, which the core's messages begin with
	 * (the configfs item in the kernel, "ssdsim" in ssdsim; "" none).
	 * ssd_config_defaults() empties it; ssd_config_set_name() sets it.
	 */
	char name[SSD_CONFIG_NAME_BYTES];
};

/* The core's keys, SSD_CONFIG_KEYS in order: the vocabulary's first. */
extern const struct ssd_config_key ssd_config_core_keys[];
extern const unsigned int ssd_config_nr_core_keys;

/* Every key at its default, and no name. */
void ssd_config_defaults(struct ssd_config *cfg);
/* Name the device in the core's messages (truncated to fit). */
void ssd_config_set_name(struct ssd_config *cfg, const char *name);

/* @key's value in @cfg (an owned key not given one: its default). */
u64 ssd_config_get(const struct ssd_config *cfg, const struct ssd_config_key *key);
/*
 * Set @key's value, unchecked (ssd_config_set_key() checks): 0, or
 * -ENOSPC, logged, if @cfg holds SSD_CONFIG_MAX_OWNED_KEYS others.
 */
int ssd_config_put(struct ssd_config *cfg, const struct ssd_config_key *key, u64 value);

/* The largest value @key accepts (an enum key's: its last choice). */
u64 ssd_config_key_max(const struct ssd_config_key *key);

/*
 * @key's help text as it is shown (configfs `features`, ssdsim
 * --list-keys): an enum key's is followed by its names.
 */
int ssd_config_describe(const struct ssd_config_key *key, char *buf, size_t buf_bytes);

/*
 * Parse and range-check one value of @key and set it.  Returns 0, or
 * -EINVAL with a one-line message naming the key and the accepted range.
 * Trailing whitespace (a newline from `echo`) is ignored.  By name:
 * ssd_config_set() (device/ssd_device.h), which finds the key.
 */
int ssd_config_set_key(struct ssd_config *cfg, const struct ssd_config_key *key,
		       const char *value);

/*
 * Byte-valued keys (named *_bytes, or *_mb in MiB) also take a size with
 * a binary suffix: KiB, MiB, GiB, TiB or K, M, G, T (k, m, g, t), each
 * 1024 times the one before, after decimal digits ("8KiB", "4k",
 * "1GiB"); memory_limit_mb=2GiB is 2048.  Decimal suffixes (kB, MB, GB,
 * TB) are refused, not taken as 1000: a value is never silently not what
 * was meant.  Without a suffix a value is a number of the key's unit, as
 * before.
 *
 * ssd_parse_bytes() parses @text so, into units of @unit_bytes: 0;
 * -EINVAL not a number (or a decimal suffix), -ERANGE beyond u64,
 * -EDOM not a whole number of units.
 */
int ssd_parse_bytes(const char *text, u64 unit_bytes, u64 *out);
/* @key's unit in bytes if it is byte-valued (1 or 1 MiB), else 0. */
u64 ssd_config_key_unit_bytes(const struct ssd_config_key *key);

/* Format a value as it would be written, with a trailing newline. */
int ssd_config_show(const struct ssd_config *cfg, const struct ssd_config_key *key,
		    char *buf, size_t buf_bytes);

/*
 * Cross-key checks of the geometry, run before a device is created; each
 * layer checks its own keys too (ssd_device_validate_config() runs all).
 * -EINVAL with a message.
 */
int ssd_config_validate(const struct ssd_config *cfg);

/* Derived sizes of a validated configuration (ssd_config_sizes.c). */
u64 ssd_config_physical_pages(const struct ssd_config *cfg);
u64 ssd_config_logical_pages(const struct ssd_config *cfg);
/* Bytes a page buffer of the data store holds (data_store): 0 for none. */
u32 ssd_config_content_bytes(const struct ssd_config *cfg);

/*
 * Free blocks of an FTL region only GC may take: the host stops opening
 * blocks at this floor (see ftl/ftl_internal.h).
 */
#define SSD_GC_RESERVED_BLOCKS	2

/* GC's low watermark: gc_low_free_blocks, or chips + the reserve if 0. */
u64 ssd_config_gc_low_free_blocks(const struct ssd_config *cfg);

/*
 * The most valid pages a region of @blocks blocks (@pages_per_block each,
 * over @chips chips) may hold with GC always able to find a victim, given
 * its low watermark; 0 if even none does.  The FTL refuses a write into
 * a region beyond it; it is the FTL's contract with a write cache above.
 */
u64 ssd_region_valid_max(u64 blocks, u64 low_free_blocks, u64 chips, u64 pages_per_block);

/* The same of @cfg's SLC cache region (0 if it has none). */
u64 ssd_config_cache_valid_max(const struct ssd_config *cfg);

#endif /* SSD_CONFIG_H */

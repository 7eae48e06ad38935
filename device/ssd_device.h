/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_device.h - the device front end, the folder's one public header and
 * the whole of the core the kernel glue and the host tools see: one
 * emulated SSD as the host sees it, a byte-addressed request API over the
 * stack of page-level layers (common/ssd_layer.h: [dedup] -> [nvmcache] ->
 * ftl) and the physical flash with its timing model, which the front end
 * owns.  struct ssd_device is opaque; its workings are
 * ssd_device_internal.h, private to device/.
 *
 * A request is split into flash pages, and each page is handled once: a
 * write that covers only part of a page reads, merges and rewrites it.
 * Data moves through a struct ssd_data_iter, so the kernel can copy
 * straight from bio pages and ssdsim from a flat buffer.  Each request is
 * timed by the model: arrival -> command queue -> controller -> flash
 * operations, and completes when its last operation ends.  All state hangs
 * off struct ssd_device.  Requests are served one at a time, in the order
 * they arrive at ssd_device_submit(), and arrival times are made
 * non-decreasing in that order, so a request log replayed through ssdsim
 * gives the same times.  A long request gives the state lock back every
 * so many pages (statistics and checks get in) without letting another
 * request in between.
 *
 * Memory: a device is refused at creation if its metadata (each layer's
 * tables, the flash page table, timing arrays, request log) and the page
 * buffer pool do not fit in memory_limit_mb, or if one table is larger
 * than one allocation may be; what is left is the cap of the flash data
 * store, and a write that needs a page beyond it fails with -ENOSPC.
 * Portable.
 */
#ifndef SSD_DEVICE_H
#define SSD_DEVICE_H

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"
#include "common/ssd_pagepool.h"
#include "common/ssd_snap.h"
#include "common/ssd_stats.h"

enum ssd_op {
	SSD_OP_READ,
	SSD_OP_WRITE,
	SSD_OP_TRIM,		/* discard: whole pages unmapped, partial ignored */
	SSD_OP_WRITE_ZEROES,	/* whole pages unmapped, partial pages zeroed */
	SSD_OP_FLUSH,
};

/*
 * The request's data, consumed in order, one piece per flash page.  What
 * the front end uses follows data_store: bytes mode copies bytes in and
 * out; digest mode takes the next @len bytes' sector ids with copy_ids
 * (the request must then cover whole 512-byte sectors) and hands nothing
 * back on a read; none mode touches the iterator not at all (req->data
 * may be NULL).
 */
struct ssd_data_iter {
	/* Copy the next @len bytes of the request into @dst. */
	void (*copy_in)(struct ssd_data_iter *it, void *dst, u32 len);
	/* Fill the next @len bytes of the request from @src (NULL: zeros). */
	void (*copy_out)(struct ssd_data_iter *it, const void *src, u32 len);
	/*
	 * Digest mode: the ids of the next @len bytes (whole sectors), one
	 * SSD_DIGEST_ID_BYTES id per sector, into @dst.
	 */
	void (*copy_ids)(struct ssd_data_iter *it, void *dst, u32 len);
};

struct ssd_request {
	enum ssd_op op;
	u64 offset_bytes;
	u64 length_bytes;
	u64 arrival_ns;			/* virtual time the request arrived */
	struct ssd_data_iter *data;	/* READ and WRITE only */
	/*
	 * WRITE: force unit access, on flash when it completes.  With
	 * volatile_write_cache=1 the write is followed by a drain of every
	 * buffer (as a FLUSH): what was acknowledged before becomes durable
	 * too.  Nothing volatile to force with volatile_write_cache=0.
	 */
	bool fua;
};

/* One request as the device saw it; the ioctl ABI has the same fields. */
struct ssd_log_entry {
	u64 arrival_ns;			/* virtual time, after queueing order */
	u64 completion_ns;		/* the model's completion time */
	u64 offset_bytes;
	u32 length_bytes;
	u32 op;				/* enum ssd_op */
};

struct ssd_device;

/*
 * Targeted error injection (ssd_inject.c): ranges of 512-byte sectors
 * whose reads, writes or both fail, whatever the data.  A read of an
 * injected sector fails from that sector on (the front end returns -EIO
 * and the bytes before it, see ssd_device_submit_io()); a write or a
 * write-zeroes touching one fails whole and changes nothing.  TRIM is not
 * affected.  A plain value: the kernel glue keeps one per device before
 * power-on and hands it over with ssd_device_set_inject().
 */
#define SSD_INJECT_READ		0x1
#define SSD_INJECT_WRITE	0x2
#define SSD_INJECT_MAX_RANGES	64

struct ssd_inject_range {
	u64 first_sector;
	u64 last_sector;		/* inclusive */
	u32 ops;			/* SSD_INJECT_READ | SSD_INJECT_WRITE */
};

struct ssd_inject_list {
	u32 nr;
	struct ssd_inject_range range[SSD_INJECT_MAX_RANGES];
};

/*
 * Apply one command to @list: "+r FIRST[-LAST]", "+w ...", "+rw ..." add
 * (to a range of the same bounds: its operations), "-r ...", "-w ...",
 * "-rw ..." take operations off a range of exactly those bounds (gone when
 * none is left), "clear" empties it.  Sectors are 512 bytes, inside
 * @capacity_bytes.  0, -EINVAL (malformed, out of range, no such range) or
 * -ENOSPC (SSD_INJECT_MAX_RANGES ranges already), logged naming @name; on
 * a refusal @list is unchanged.
 */
int ssd_inject_command(struct ssd_inject_list *list, const char *cmd, u64 capacity_bytes,
		       const char *name);
/* @list as text, one "r|w|rw FIRST-LAST" line a range, into @buf; its length. */
int ssd_inject_show(const struct ssd_inject_list *list, char *buf, u32 len);
/*
 * Whether bytes [@offset_bytes, + @length_bytes) touch a sector injected for
 * one of @ops; if so *@first_bytes is the first byte of the first such sector
 * in it.
 */
bool ssd_inject_hit(const struct ssd_inject_list *list, u32 ops, u64 offset_bytes,
		    u64 length_bytes, u64 *first_bytes);
/* From the next request on, @dev fails what @list injects (a copy). */
void ssd_device_set_inject(struct ssd_device *dev, const struct ssd_inject_list *list);

/* Every check of @cfg: the geometry's and each enabled layer's. */
int ssd_device_validate_config(const struct ssd_config *cfg);
/*
 * The logical pages a device of @cfg maps as one unit: the largest unit of
 * its enabled layers (an FTL that maps by block: pages_per_block), 1 when
 * every layer maps page by page.
 */
u32 ssd_device_map_unit_pages(const struct ssd_config *cfg);

/*
 * The vocabulary (ssd_keys.c): every key a device takes, in one order
 * (configfs attributes, ssdsim --list-keys, a snapshot's CONF section):
 * the core's (common/ssd_config.h), then each registry's selector
 * (gc_policy, ftl_type, cache_policy, cache_replacement) followed by the
 * keys its entries own.  Keys are found by walking const tables: no state.
 */
unsigned int ssd_config_nr_keys(void);
/* The key at @index (0 .. ssd_config_nr_keys() - 1), or NULL. */
const struct ssd_config_key *ssd_config_key_at(unsigned int index);
/* The key named @name, or NULL. */
const struct ssd_config_key *ssd_config_find(const char *name);
/* @key's index, or -ENOENT if it is none of the vocabulary's. */
int ssd_config_key_index(const struct ssd_config_key *key);
/* The selector of the registry whose entries own @key, or NULL (not owned). */
const struct ssd_config_key *ssd_config_key_selector(const struct ssd_config_key *key);
/* Whether entry @value of that registry owns @key. */
bool ssd_config_key_owned_by(const struct ssd_config_key *key, u32 value);

/*
 * Parse and range-check one value and set it (ssd_config_set_key()):
 * 0, -ENOENT (logged) for an unknown key, or -EINVAL with a one-line
 * message naming the key and the accepted range.
 */
int ssd_config_set(struct ssd_config *cfg, const char *name, const char *value);
/* The name of @cfg's value of the enum key @name (NULL if none such). */
const char *ssd_config_choice_name(const struct ssd_config *cfg, const char *name);
/*
 * The kernel keeps the defaults of the keys only ssdsim implements
 * (SSD_KEY_SIM_ONLY): -EINVAL with a message naming the first that is
 * not.  ssd_device_validate_config() runs it in the kernel only.
 */
int ssd_config_check_kernel(const struct ssd_config *cfg);
/*
 * The vocabulary holds together: names unique, each key's default in its
 * range and a help text, policies' keys declared as theirs, and no more
 * keys than SSD_CONFIG_MAX_KEYS (SSD_CONFIG_MAX_OWNED_KEYS owned) with
 * names that fit configfs `features`.  0 or -EINVAL, logged; part of
 * ssd_core_self_test().
 */
int ssd_config_keys_check(void);

/*
 * Validate @cfg, check that it fits its memory limit and build a device;
 * -EINVAL (logged, naming cfg->name) or -ENOMEM.
 */
int ssd_device_create(struct ssd_device **out, const struct ssd_config *cfg);
void ssd_device_destroy(struct ssd_device *dev);

/*
 * Run one request.  Returns 0, -EINVAL for a range beyond the capacity,
 * -ENOSPC if it writes pages that hold no data yet and the data store has
 * no room for them (overwrites always fit: they free the page they
 * replace), -ENOMEM if the page buffers it needs could not be
 * allocated, or -EROFS for a write or TRIM once the device is read-only
 * (end of life; counted in host_write_refused_pages).  After one of these
 * nothing was done: the request was not timed, logged or counted.  A
 * write that meets the end of life on the way fails with -EROFS after
 * its earlier pages were written (timed and logged).  *completion_ns is the virtual time the
 * request completes.
 * Requests must arrive in order; an earlier arrival time than the last one
 * is taken as the last one.  May sleep (the locks; page allocation).
 */
int ssd_device_submit(struct ssd_device *dev, const struct ssd_request *req,
		      u64 *completion_ns);

/*
 * ssd_device_submit() that may also fail on the medium: -EIO, a read of
 * an uncorrectable page (read errors, rber_base_ppb > 0) or an injected
 * sector, or a write that touches an injected sector or whose partial page
 * could not be read.  Then *@good_bytes bytes from the request's start
 * completed and the rest failed: a read ran whole (timed, logged; the
 * failed pages' bytes read as zeros), a partial write stopped at its
 * failed page, an injected write did nothing (0 bytes: not timed nor
 * logged, like a refusal; *@completion_ns is its arrival).  The data on the device stays as it was, so a
 * later read may succeed.  On success *@good_bytes is the request's length.
 */
int ssd_device_submit_io(struct ssd_device *dev, const struct ssd_request *req,
			 u64 *completion_ns, u64 *good_bytes);

void ssd_device_get_stats(struct ssd_device *dev, struct ssd_stats *stats);
void ssd_device_reset_stats(struct ssd_device *dev);

/*
 * Cut the power (ssd_power.c): with volatile_write_cache=1 every layer
 * drops the writes it acknowledged that are not durable yet (the write
 * cache's pages, the dedup write buffer's), *@lost_pages of them (may be
 * NULL), counted in power_cuts and power_cut_lost_pages; with
 * volatile_write_cache=0 the buffers drain to flash first (power-loss
 * protection) and nothing is lost.  What is left is the durable state.
 * From then on every request fails with -EIO (nothing done) until
 * ssd_device_power_restore() brings the device back with that state.
 * Returns 0 or the drain's error.  Cutting a cut device counts nothing.
 */
int ssd_device_power_cut(struct ssd_device *dev, u64 *lost_pages);
void ssd_device_power_restore(struct ssd_device *dev);

/* Full consistency check of every layer; 0 or -EUCLEAN. */
int ssd_device_check(struct ssd_device *dev);

/*
 * Take up to @max logged requests, oldest first (request_log_entries of
 * them are kept; when full, new ones are dropped and counted in
 * *@dropped).
 */
u32 ssd_device_read_log(struct ssd_device *dev, struct ssd_log_entry *out,
			u32 max, u64 *dropped);

/* What the device's configuration and memory plan fixed at creation. */
u64 ssd_device_capacity_bytes(const struct ssd_device *dev);
u32 ssd_device_page_bytes(const struct ssd_device *dev);
u64 ssd_device_memory_limit_bytes(const struct ssd_device *dev);
u64 ssd_device_metadata_bytes(const struct ssd_device *dev);
u64 ssd_device_data_limit_bytes(const struct ssd_device *dev);
/* What the data store keeps of a page (data_store). */
enum ssd_data_store ssd_device_data_store(const struct ssd_device *dev);

/*
 * The arrival time the last request was given (arrivals are made
 * non-decreasing), and the latest completion so far.  Not locked: read
 * them between requests, from the thread that submits.
 */
u64 ssd_device_last_arrival_ns(const struct ssd_device *dev);
u64 ssd_device_virtual_time_ns(const struct ssd_device *dev);

/*
 * Snapshots (ssd_snapshot.c, the format in common/ssd_snap.h): the whole
 * device - configuration, every layer's state and counters, the timing
 * model, the data of every valid page - written through @w while the
 * device is quiesced (no request enters until it is done; it goes on
 * afterwards unchanged).  0, -EOPNOTSUPP if a layer cannot be saved, or
 * the writer's error.
 */
int ssd_device_save(struct ssd_device *dev, struct ssd_snap_writer *w);

/*
 * Making a device from a snapshot, in two steps.  First the header and
 * configuration into @cfg (its name kept, every key from the file) and in
 * *@data_pages the pages of data the file holds: 0 or -EINVAL (logged: not
 * a snapshot, another format version, a key this build does not know).
 * The caller may then change keys that do not shape the device's tables
 * (latencies, timing); a changed geometry or stack is refused by the next
 * step.  Then create the device from @cfg and load the rest: 0, -EINVAL
 * (logged: data beyond the memory limit, checked before anything is
 * allocated; a corrupted, truncated or inconsistent file), -ENOMEM, or the
 * reader's error.  On failure nothing is left.
 */
int ssd_snapshot_read_config(struct ssd_snap_reader *r, struct ssd_config *cfg,
			     u64 *data_pages);
int ssd_device_create_from(struct ssd_device **out, const struct ssd_config *cfg,
			   struct ssd_snap_reader *r, u64 data_pages);

/* Bytes ssd_snapshot_recognise() looks at: HEAD's frame and its magic. */
#define SSD_SNAPSHOT_HEAD_BYTES	28
/*
 * Whether the @bytes at @head, the start of a file, begin a snapshot (its
 * HEAD section and magic), so a tool handed one where it wants another
 * file can say what it is.
 */
bool ssd_snapshot_recognise(const void *head, size_t bytes);

/*
 * Bad blocks and end of life (ssd_bad_blocks.c; docs/faults.md).
 *
 * ssd_block_list_parse() reads a list of physical block numbers (chip *
 * blocks_per_chip + block) like "12 40-43" (numbers and ranges separated
 * by spaces, commas or newlines) below @total_blocks: with @blocks NULL it
 * only counts them into *@nr; else it fills at most @max of them.  0, or
 * -EINVAL (logged naming @name) if malformed, a range backwards or a
 * number out of range.
 *
 * ssd_device_mark_bad_blocks() marks @nr blocks bad before the device
 * served any request (they are then never used, and kept in snapshots):
 * 0, or -EINVAL (logged) if one is out of range or outside the main (TLC)
 * region, the FTL type is not page, or the device was used.
 *
 * ssd_device_read_only(): the device reached its end of life (no spare
 * block left): every later write and TRIM fails with -EROFS, reads work.
 */
int ssd_block_list_parse(const char *name, const char *list, u32 total_blocks,
			 u32 *blocks, u32 max, u32 *nr);
int ssd_device_mark_bad_blocks(struct ssd_device *dev, const u32 *blocks, u32 nr);
/* ssd_block_list_parse() then ssd_device_mark_bad_blocks() of @list. */
int ssd_device_mark_bad_list(struct ssd_device *dev, const char *list);
bool ssd_device_read_only(struct ssd_device *dev);

/*
 * The core's self-tests, run once before any device: the vocabulary
 * (ssd_config_keys_check()), then each layer type's of the default stack
 * (ssd_layer_type.self_test: dedup's SHA-1 vectors).
 */
int ssd_core_self_test(void);

#endif /* SSD_DEVICE_H */

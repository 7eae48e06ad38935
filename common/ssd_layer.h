/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_layer.h - the one page-level interface between the layers of the
 * request path:
 *
 *   device front end -> [dedup] -> [nvmcache] -> ftl -> flash
 *
 * Each layer is a struct ssd_layer whose ops the layer above calls for one
 * logical page at a time; it knows only the layer below (->lower), never
 * the one above.  A layer type (struct ssd_layer_type) says whether the
 * configuration switches it on, checks the keys it owns, and builds it;
 * the front end stacks the enabled types in order (device/ssd_stack.c).
 *
 * Page data is a page buffer of the device's pool (common/ssd_pagepool.h,
 * which every layer receives in its struct ssd_layer_env): a write hands
 * its buffer down and the layer that keeps it owns it; a read returns a
 * pointer into the layer's own data, valid until the next write or TRIM.
 * Times are virtual nanoseconds: an operation starts no earlier than
 * io->start_ns and sets io->done_ns to when it ends.
 *
 * A layer sees this header and the rest of common/ only: never the flash,
 * the FTL's internals or the front end (tests/style/test_layering.py holds
 * the folders each folder may include, and the build hides the others).
 * Portable.
 */
#ifndef SSD_LAYER_H
#define SSD_LAYER_H

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"
#include "common/ssd_pagepool.h"
#include "common/ssd_snap.h"
#include "common/ssd_stats.h"

/* Why an operation happened: lets WAF be explained, not only quoted. */
enum ssd_cause {
	SSD_CAUSE_HOST,		/* a host read or write (incl. read-modify-write) */
	SSD_CAUSE_GC,		/* garbage collection moving valid pages */
	SSD_CAUSE_DESTAGE,	/* the write cache moving a page from SLC to TLC */
	SSD_CAUSE_FILL,		/* the cache copying a page a read missed into SLC */
	SSD_CAUSE_MAP,		/* the FTL's own map: DFTL translation pages */
	SSD_CAUSE_MERGE,	/* block-mapped FTLs merging a logical block's pages */
	SSD_CAUSE_NR,
};

/* FTL regions: where a layer above asks a page to be written. */
enum ssd_region {
	SSD_REGION_MAIN,	/* the TLC flash that holds the logical space */
	SSD_REGION_CACHE,	/* SLC-mode blocks, for a write cache above */
	SSD_REGION_NR,
};

/* One page operation's timing and accounting. */
struct ssd_io {
	u64 start_ns;		/* in: the operation may start then */
	u64 done_ns;		/* out: when it ended */
	enum ssd_cause cause;		/* in: what the flash work is counted as */
	enum ssd_region region;	/* in, writes: the region to write into */
	/*
	 * in, reads: the read fetches a page's old contents to merge a
	 * partial write into; a page that holds no data costs nothing then
	 * (the controller knows it from its map), whatever
	 * read_unwritten_flash says.
	 */
	bool merge;
	/*
	 * in, set by the front end: the host request this page belongs to
	 * (numbered from 1; 0 = not from a host request) and its length in
	 * bytes, so a layer may decide once per request (ProCache's die
	 * roll, its size threshold c).
	 */
	u64 request_seq;
	u64 request_bytes;
	/*
	 * in, set by the front end for a host WRITE: the logical pages it
	 * spans, [request_lpn, request_lpn + request_pages), in the front
	 * end's page names, so a layer may judge the request whole
	 * (ProCache's hit, nvmcache/).  request_pages 0: not known (other
	 * requests, and pages a layer passes down later or under other names:
	 * a write buffer, dedup's chunk ids).
	 */
	u64 request_lpn;
	u64 request_pages;
};

struct ssd_layer;

struct ssd_layer_ops {
	/*
	 * Read @lpn: *@data is its contents, or NULL if it was never written
	 * or was trimmed (it reads as zeros).  0 or a negative errno.
	 */
	int (*read)(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
		    const void **data);
	/* Write @lpn with @buf, which this layer (or one below) now owns. */
	int (*write)(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io);
	/* Forget @lpn (TRIM); reads return zeros until it is written again. */
	int (*trim)(struct ssd_layer *layer, u64 lpn, struct ssd_io *io);
	/* Make everything written so far durable (a FLUSH command). */
	int (*flush)(struct ssd_layer *layer, struct ssd_io *io);
	/*
	 * Optional (NULL: none).  The device is about to start a command
	 * whose flash operations may start at @now_ns; a layer may do
	 * background work on resources idle before then.  It is called
	 * before the timing horizon moves up to @now_ns, so the work may
	 * start as early as the previous command's start (the chips'
	 * timelines hold everything booked so far: work that starts once its
	 * chips are free fills the idle gap and moves nothing already booked)
	 * or at @now_ns (background GC).  The front end calls it on each
	 * layer top to bottom, under the device lock, once per command: it
	 * must depend on the request sequence, the configuration and the
	 * model only.
	 */
	void (*idle)(struct ssd_layer *layer, u64 now_ns);
	/*
	 * Optional (NULL: ask the layer below; if no layer answers, U64_MAX:
	 * never known to be free).  When the flash that moving @lpn into
	 * @region would use is next free, in FIFO order: the later of the
	 * chip holding @lpn's data now (if it is stored: @lpn U64_MAX asks
	 * about the destination alone) and the chip the next page written
	 * into @region goes to.  It changes nothing; background work asks it
	 * to use only chips that are idle (the write cache's background
	 * destage; the FTL answers from the chips' timelines).  @lpn is in
	 * the asking layer's names: a layer that renames lpns for those below
	 * it (the dedup layer's chunk ids) answers with the name it uses
	 * below.  ssd_layer_chips_free_ns() finds the layer that answers.
	 */
	u64 (*chips_free_ns)(struct ssd_layer *layer, u64 lpn, enum ssd_region region);
	/*
	 * Optional (NULL: ask the layer below; at the bottom, no).  Whether
	 * a write of @lpn now takes no new page of the flash data store: it
	 * replaces data this layer (with those below) already counts for
	 * @lpn.  The front end's data cap check (ENOSPC) asks the top layer.
	 */
	bool (*holds)(struct ssd_layer *layer, u64 lpn);
	/*
	 * Optional (NULL: ask the layer below).  Where @lpn's data is, without
	 * touching the model (no time passes, nothing is counted): the region
	 * whose flash holds it, or SSD_REGION_NR if none does; *@data (if
	 * @data is not NULL) gets its contents, NULL if none.  A layer loading
	 * a snapshot asks it (ssd_layer_peek()) to check that what it records
	 * agrees with the data below: the cache's directory with the SLC
	 * region, dedup's live chunks and fingerprints with the pages.
	 */
	enum ssd_region (*peek)(struct ssd_layer *layer, u64 lpn, const void **data);
	/*
	 * Optional (NULL: none).  Pages of data this layer holds outside the
	 * data store (a write buffer) that may each take a page of it later;
	 * the front end counts them as used when it checks the data cap.
	 */
	u64 (*pending_pages)(struct ssd_layer *layer);
	/*
	 * Optional (NULL: not interested).  The layer above says that
	 * @refcount host pages now share the data of @lpn (the dedup layer:
	 * a chunk written, a duplicate added, a reference dropped; 0 before
	 * the chunk is trimmed), so a dedup-aware policy below can weigh a
	 * page by its references.  Duplicates themselves never come down;
	 * this is how a layer below learns of them.  ssd_layer_refcount()
	 * tells every layer below that listens.
	 */
	void (*refcount)(struct ssd_layer *layer, u64 lpn, u32 refcount);
	/*
	 * Optional (NULL: the layer holds nothing volatile).  The power is
	 * cut: drop every write this layer acknowledged that is not durable
	 * yet (a DRAM write buffer), leaving its state consistent as if they
	 * never came, and return how many pages were dropped.  Called top to
	 * bottom under the device lock (ssd_device_power_cut()).
	 */
	u64 (*power_cut)(struct ssd_layer *layer, u64 now_ns);
	/*
	 * Optional (NULL: ask the layer below).  Take the @nr physical blocks
	 * at @blocks (chip * blocks_per_chip + block) out of use as factory
	 * bad blocks, before the device has served a request: the layer that
	 * places pages on blocks does (the FTL).  0, or -EINVAL logged naming
	 * bad_blocks and what it accepts.  ssd_device_mark_bad_blocks() asks
	 * the first layer from the top that has it.
	 */
	int (*mark_bad_blocks)(struct ssd_layer *layer, const u32 *blocks, u32 nr);
	/*
	 * Fill this layer's counters into @st; called bottom up after the
	 * front end filled its own, so a layer may add to what those below
	 * it reported.
	 */
	void (*get_stats)(struct ssd_layer *layer, struct ssd_stats *st);
	void (*reset_stats)(struct ssd_layer *layer);
	/* Full consistency check of this layer's state: 0 or -EUCLEAN. */
	int (*check)(struct ssd_layer *layer);
	/*
	 * Optional (NULL: a device with this layer cannot be saved).  Write
	 * this layer's whole state, counters included (common/ssd_snap.h),
	 * under the device's locks: the device frames it in a section of
	 * the layer type's snap_tag.  It runs twice, once only counting, and
	 * must write the same bytes both times.
	 */
	void (*save)(struct ssd_layer *layer, struct ssd_snap_writer *w);
	/*
	 * Read that state back into this layer, just created from the same
	 * configuration: every value checked before it is used (a snapshot is
	 * input); the reader's error says whether it worked.  The device runs
	 * every layer's check() after the last one loaded.
	 */
	void (*load)(struct ssd_layer *layer, struct ssd_snap_reader *r);
	void (*destroy)(struct ssd_layer *layer);
};

struct ssd_layer_type;

struct ssd_layer {
	const struct ssd_layer_ops *ops;
	const char *name;
	struct ssd_layer *lower;	/* NULL for the bottom layer */
	const struct ssd_layer_type *type;	/* set by the device that stacked it */
};

/* Tell every layer from @layer down that listens (ssd_layer_ops.refcount). */
static inline void ssd_layer_refcount(struct ssd_layer *layer, u64 lpn, u32 refcount)
{
	for (; layer; layer = layer->lower)
		if (layer->ops->refcount)
			layer->ops->refcount(layer, lpn, refcount);
}

/*
 * When the flash a move of @lpn into @region would use is next free: the
 * first layer from @layer down that answers (ssd_layer_ops.chips_free_ns)
 * says; U64_MAX if none does.
 */
static inline u64 ssd_layer_chips_free_ns(struct ssd_layer *layer, u64 lpn,
					  enum ssd_region region)
{
	for (; layer; layer = layer->lower)
		if (layer->ops->chips_free_ns)
			return layer->ops->chips_free_ns(layer, lpn, region);
	return U64_MAX;
}

/*
 * ssd_layer_ops.peek of the first layer from @layer down that has it; -1
 * (and *@data NULL) if none does.
 */
static inline int ssd_layer_peek(struct ssd_layer *layer, u64 lpn, const void **data)
{
	if (data)
		*data = NULL;
	for (; layer; layer = layer->lower)
		if (layer->ops->peek)
			return layer->ops->peek(layer, lpn, data);
	return -1;
}

struct flash;

/*
 * What the device gives every layer it builds; lives as long as the device.
 */
struct ssd_layer_env {
	const char *dev_name;		/* for messages: the configfs item, "ssdsim" */
	struct ssd_pagepool *pool;	/* the page buffers */
	/*
	 * The physical flash, for the bottom layer (the FTL) alone: the
	 * layers above cannot include flash/flash.h, so they cannot use it.
	 */
	struct flash *flash;
};

struct ssd_layer_type {
	const char *name;
	/* The tag of its section in a snapshot (SSD_SNAP_TAG()), unique. */
	u32 snap_tag;
	/* Whether @cfg switches this layer on; NULL: always on. */
	bool (*enabled)(const struct ssd_config *cfg);
	/* Cross-key checks of the keys this layer owns: 0 or -EINVAL, logged. */
	int (*validate)(const struct ssd_config *cfg);
	/*
	 * Bytes of the tables create() will allocate for a validated @cfg,
	 * summed with ssd_tables_add() (SSD_TABLE_TOO_BIG if one table is
	 * over SSD_MAX_TABLE_BYTES), so the front end can refuse a device
	 * before allocating anything.  NULL: the layer allocates nothing
	 * that grows with the configuration.
	 */
	u64 (*metadata_bytes)(const struct ssd_config *cfg);
	/* Build the layer over @lower (NULL for the bottom one). */
	int (*create)(const struct ssd_config *cfg, const struct ssd_layer_env *env,
		      struct ssd_layer *lower, struct ssd_layer **out);
	/*
	 * Optional (NULL: nothing to test).  Check, once for every device,
	 * what the layer relies on that a build may get wrong (the dedup
	 * layer: the platform's SHA-1 against the FIPS 180 vectors): 0, or a
	 * negative errno after logging what differs.  The module runs the
	 * self-test of every type of the default stack when it loads
	 * (ssd_core_self_test()), whatever the configuration switches on.
	 */
	int (*self_test)(void);
	/*
	 * Optional (NULL: none).  The selectors of the registries the layer
	 * owns (the FTL's gc_policy and ftl_type, ...), NULL-terminated: the
	 * vocabulary (device/ssd_keys.c) lists each after the core's keys,
	 * followed by the keys its registry's entries declare.
	 */
	const struct ssd_config_key *const *selectors;
	/*
	 * Optional (NULL: one).  The logical pages the layer maps as one
	 * unit under @cfg (the FTL: pages_per_block when ftl_type maps its
	 * main region by block), so that a host tool moving a trace's
	 * addresses can keep them together at that grain (ssdsim --remap).
	 */
	u32 (*map_unit_pages)(const struct ssd_config *cfg);
};

#endif /* SSD_LAYER_H */

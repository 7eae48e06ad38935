/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_device.h - the device front end: one emulated SSD as the host sees
 * it, a byte-addressed request API over the stack of page-level layers
 * (common/ssd_layer.h: today the FTL; dedup and the NVM cache slot in
 * above it) and the physical flash with its timing model, which the front
 * end owns.
 *
 * A request is split into flash pages here, and each page is handled once:
 * a write that covers only part of a page reads, merges and rewrites it.
 * Data moves through a struct ssd_data_iter, so the kernel can copy straight
 * from bio pages and ssdsim from a flat buffer.  Each request is timed by
 * the model (timing.h): arrival -> command queue -> controller -> flash
 * operations, and completes when its last operation ends.  All state hangs
 * off struct ssd_device.  Requests are served one at a time, in the order
 * they take request_lock, and arrival times are made non-decreasing in that
 * order, so a request log replayed through ssdsim gives the same times.
 * The state itself is under lock, which a long request gives back every
 * SSD_DEVICE_RESCHED_PAGES pages (statistics and checks get in, the CPU is
 * offered to others) without letting another request in between.
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

#include "ssd_platform.h"
#include "ssd_config.h"
#include "ssd_layer.h"
#include "ssd_stats.h"
#include "flash.h"
#include "request_log.h"
#include "controller.h"
#include "timing.h"

enum ssd_op {
	SSD_OP_READ,
	SSD_OP_WRITE,
	SSD_OP_TRIM,		/* discard: whole pages unmapped, partial ignored */
	SSD_OP_WRITE_ZEROES,	/* whole pages unmapped, partial pages zeroed */
	SSD_OP_FLUSH,
};

/* The request's data, consumed in order, one piece per flash page. */
struct ssd_data_iter {
	/* Copy the next @len bytes of the request into @dst. */
	void (*copy_in)(struct ssd_data_iter *it, void *dst, u32 len);
	/* Fill the next @len bytes of the request from @src (NULL: zeros). */
	void (*copy_out)(struct ssd_data_iter *it, const void *src, u32 len);
};

struct ssd_request {
	enum ssd_op op;
	u64 offset_bytes;
	u64 length_bytes;
	u64 arrival_ns;			/* virtual time the request arrived */
	struct ssd_data_iter *data;	/* READ and WRITE only */
};

struct ssd_host_counters {
	u64 read_bytes;
	u64 read_pages;
	u64 write_bytes;
	u64 write_pages;
	u64 trim_bytes;
	u64 rmw_pages;
	u64 flush_count;
};

/* Pages a request handles between two breaks of the state lock. */
#define SSD_DEVICE_RESCHED_PAGES	1024

struct ssd_device {
	struct ssd_config cfg;
	struct ssd_lock request_lock;	/* one request at a time, in order */
	struct ssd_lock lock;		/* everything below */
	struct ssd_controller controller;
	struct ssd_timing timing;
	struct flash flash;
	struct ssd_layer *top;		/* the first layer of the stack */
	struct request_log log;
	u64 last_arrival_ns;
	u64 capacity_bytes;
	u32 page_bytes;
	u32 page_shift;
	u64 virtual_time_ns;
	struct ssd_host_counters host;
	u64 memory_limit_bytes;		/* memory_limit_mb, or half of the RAM */
	u64 metadata_bytes;		/* allocated at creation (all tables) */
	u32 resched_pages;		/* SSD_DEVICE_RESCHED_PAGES; tests change it */
	u64 lock_breaks;		/* times a request gave the lock back */
	u64 request_seq;		/* host requests submitted: ssd_io.request_seq */
};

/* The layer types of the default stack, top first. */
extern const struct ssd_layer_type *const ssd_default_stack[];
extern const unsigned int ssd_default_stack_size;

/* Every check of @cfg: the geometry's and each enabled layer's. */
int ssd_device_validate_config(const struct ssd_config *cfg);

/*
 * Validate @cfg, check that it fits its memory limit and build a device;
 * -EINVAL (logged) or -ENOMEM.
 */
int ssd_device_create(struct ssd_device **out, const struct ssd_config *cfg);

/*
 * The same with a stack of @nr_types layer types, top first, of which the
 * enabled ones are built (the last one is the bottom).  Unit tests use it
 * to slip a layer in.
 */
int ssd_device_create_stack(struct ssd_device **out, const struct ssd_config *cfg,
			    const struct ssd_layer_type *const *types,
			    unsigned int nr_types);
void ssd_device_destroy(struct ssd_device *dev);

/*
 * Run one request.  Returns 0, -EINVAL for a range beyond the capacity,
 * -ENOSPC if it writes pages that hold no data yet and the data store has
 * no room for them (overwrites always fit: they free the page they
 * replace), or -ENOMEM if the page buffers it needs could not be
 * allocated.  After one of these nothing was done: the request was not
 * timed, logged or counted.  *completion_ns is the virtual time the
 * request completes.
 * Requests must arrive in order; an earlier arrival time than the last one
 * is taken as the last one.  May sleep (the locks; page allocation).
 */
int ssd_device_submit(struct ssd_device *dev, const struct ssd_request *req,
		      u64 *completion_ns);

void ssd_device_get_stats(struct ssd_device *dev, struct ssd_stats *stats);
void ssd_device_reset_stats(struct ssd_device *dev);

/* Full consistency check of every layer; 0 or -EUCLEAN. */
int ssd_device_check(struct ssd_device *dev);

/* Take up to @max logged requests, oldest first; see request_log.h. */
u32 ssd_device_read_log(struct ssd_device *dev, struct ssd_log_entry *out,
			u32 max, u64 *dropped);

#endif /* SSD_DEVICE_H */

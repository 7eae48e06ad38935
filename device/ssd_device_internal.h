/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_device_internal.h - the front end's workings, private to device/
 * (white-box unit tests see them too): struct ssd_device, the stack of
 * layer types, the memory plan and the walks over the layers.
 *
 *   ssd_device.c        create, destroy, accessors
 *   ssd_stack.c         the default stack; building, checking and walking it
 *   ssd_memory.c        the memory plan, from the configuration alone
 *   ssd_request.c       the request path: pages, RMW, data cap, timing
 *   ssd_device_stats.c  statistics, reset, consistency check, request log
 *   ssd_inject.c        targeted error injection: sector ranges that fail
 *   ssd_power.c         power cuts
 *
 * Locks: requests enter the model one at a time, in order (request_lock);
 * the model's state is under lock, which a long request gives back every
 * SSD_DEVICE_RESCHED_PAGES pages without letting another request in.
 */
#ifndef SSD_DEVICE_INTERNAL_H
#define SSD_DEVICE_INTERNAL_H

#include "platform/ssd_platform.h"
#include "common/ssd_config.h"
#include "common/ssd_layer.h"
#include "common/ssd_pagepool.h"
#include "common/ssd_stats.h"
#include "flash/flash_services.h"
#include "device/ssd_device.h"
#include "device/controller.h"
#include "device/request_log.h"

struct ssd_host_counters {
	u64 read_bytes;
	u64 read_pages;
	u64 write_bytes;
	u64 write_pages;
	u64 trim_bytes;
	u64 rmw_pages;
	u64 flush_count;
	u64 working_set_pages;	/* bits set in working_set */
};

/* Power cuts and FUA (ssd_power.c); kept in snapshots, reset with the stats. */
struct ssd_power_counters {
	u64 cuts;		/* ssd_device_power_cut() calls */
	u64 lost_pages;		/* acknowledged pages they dropped */
	u64 fua_writes;		/* FUA write requests */
};

/* Pages a request handles between two breaks of the state lock. */
#define SSD_DEVICE_RESCHED_PAGES	1024

struct ssd_device {
	struct ssd_config cfg;
	struct ssd_lock request_lock;	/* one request at a time, in order */
	struct ssd_lock lock;		/* everything below */
	struct ssd_controller controller;
	struct ssd_pagepool pool;	/* page buffers of every layer */
	struct flash flash;
	struct ssd_layer_env env;	/* what each layer was given */
	struct ssd_layer *top;		/* the first layer of the stack */
	struct request_log log;
	u64 last_arrival_ns;
	u64 capacity_bytes;
	u32 page_bytes;
	u32 page_shift;
	u64 virtual_time_ns;
	struct ssd_host_counters host;
	/* A bit per logical page a host read or write touched since the reset. */
	u64 *working_set;
	struct ssd_power_counters power;
	bool powered_off;		/* cut: requests fail with -EIO until power on */
	u64 memory_limit_bytes;		/* memory_limit_mb, or half of the RAM */
	u64 metadata_bytes;		/* allocated at creation (all tables) */
	u64 data_limit_pages;		/* pages of data the memory plan leaves room for */
	u32 resched_pages;		/* SSD_DEVICE_RESCHED_PAGES; tests change it */
	u64 lock_breaks;		/* times a request gave the lock back */
	u64 request_seq;		/* host requests submitted: ssd_io.request_seq */
	/* Faults at the front end (issue 24): injection, host pages failed. */
	struct ssd_inject_list inject;
	u64 read_error_pages;		/* host read pages failed (uncorrectable, injected) */
	u64 write_error_pages;		/* host write pages failed */
};

/* The layer types of the default stack, top first (ssd_stack.c). */
extern const struct ssd_layer_type *const ssd_default_stack[];
extern const unsigned int ssd_default_stack_size;

/*
 * ssd_device_create() with a stack of @nr_types layer types, top first,
 * of which the enabled ones are built (the last one is the bottom).  Unit
 * tests use it to slip a layer in.
 */
int ssd_device_create_stack(struct ssd_device **out, const struct ssd_config *cfg,
			    const struct ssd_layer_type *const *types,
			    unsigned int nr_types);

/* The u64 words of the working-set bitmap of @logical_pages pages. */
static inline u64 ssd_working_set_words(u64 logical_pages)
{
	return (logical_pages + 63) >> 6;
}

/* Hold at most @pages pages of data (tests lower the plan's cap). */
void ssd_device_set_data_limit(struct ssd_device *dev, u64 pages);

/* ssd_stack.c: the stack of layer types and the walks over its layers. */
bool ssd_stack_enabled(const struct ssd_layer_type *type, const struct ssd_config *cfg);
int ssd_stack_validate(const struct ssd_config *cfg,
		       const struct ssd_layer_type *const *types, unsigned int nr_types);
/* The largest map_unit_pages of the enabled @types (1 if none has one). */
u32 ssd_stack_map_unit_pages(const struct ssd_config *cfg,
			     const struct ssd_layer_type *const *types, unsigned int nr_types);
int ssd_stack_create(struct ssd_device *dev, const struct ssd_layer_type *const *types,
		     unsigned int nr_types);
void ssd_stack_destroy(struct ssd_device *dev);
bool ssd_stack_holds(struct ssd_device *dev, u64 lpn);
u64 ssd_stack_pending_pages(struct ssd_device *dev);
void ssd_stack_idle(struct ssd_device *dev, u64 now_ns);
u64 ssd_stack_power_cut(struct ssd_device *dev, u64 now_ns);
int ssd_stack_mark_bad_blocks(struct ssd_device *dev, const u32 *blocks, u32 nr);

/* ssd_memory.c: what a device of a configuration needs besides page data. */
struct ssd_memory_plan {
	u64 limit_bytes;
	u64 metadata_bytes;
	u64 pool_bytes;			/* SSD_PAGEPOOL_SPARE page buffers */
	u64 data_pages;
};

/*
 * Work out the plan from @cfg alone, before anything is allocated: -EINVAL
 * (logged) if one table is larger than one allocation may be, or if
 * metadata and the buffer pool leave no room for data in the limit.
 */
int ssd_memory_plan(const struct ssd_config *cfg,
		    const struct ssd_layer_type *const *types, unsigned int nr_types,
		    struct ssd_memory_plan *plan);

#endif /* SSD_DEVICE_INTERNAL_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdemu_compat.h - the kernel API differences between the kernels ssdemu
 * builds for (Debian's 6.1 and 6.12), kept in one place.
 *
 * 6.2 named the iov_iter directions ITER_SOURCE and ITER_DEST (Debian's 6.1
 * has them backported); 6.5 changed the block_device_operations mode type to
 * blk_mode_t; 6.9 made blk_mq_alloc_disk() take queue_limits; 6.11 moved the
 * write cache and rotational flags into queue_limits.features; 6.13
 * replaced hrtimer_init() with hrtimer_setup().
 */
#ifndef SSDEMU_COMPAT_H
#define SSDEMU_COMPAT_H

#include <linux/version.h>
#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/hrtimer.h>
#include <linux/uio.h>

/* The direction of an iov_iter over a request's pages, as 6.2 names it. */
#ifndef ITER_SOURCE
#define ITER_SOURCE	WRITE	/* the iterator's pages are read: a write */
#define ITER_DEST	READ	/* the iterator's pages are written: a read */
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 5, 0)
typedef blk_mode_t ssdemu_mode_t;
#else
typedef fmode_t ssdemu_mode_t;
#endif

static inline void ssdemu_hrtimer_init(struct hrtimer *timer,
				       enum hrtimer_restart (*fn)(struct hrtimer *))
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
	hrtimer_setup(timer, fn, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
#else
	hrtimer_init(timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	timer->function = fn;
#endif
}

/* Limits every kernel understands; applied by ssdemu_alloc_disk(). */
struct ssdemu_limits {
	unsigned int logical_block_bytes;
	unsigned int physical_block_bytes;
	unsigned int io_min_bytes;
	unsigned int max_hw_sectors;
	unsigned short max_segments;
	unsigned int max_discard_sectors;
	unsigned int discard_granularity_bytes;
	unsigned int max_write_zeroes_sectors;
	bool fua;		/* honours FUA (volatile_write_cache=1) */
};

static inline struct gendisk *ssdemu_alloc_disk(struct blk_mq_tag_set *set,
						const struct ssdemu_limits *l,
						void *queuedata)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 11, 0)
	struct queue_limits lim = {
		.logical_block_size = l->logical_block_bytes,
		.physical_block_size = l->physical_block_bytes,
		.io_min = l->io_min_bytes,
		.max_hw_sectors = l->max_hw_sectors,
		.max_segments = l->max_segments,
		.max_hw_discard_sectors = l->max_discard_sectors,
		.discard_granularity = l->discard_granularity_bytes,
		.max_write_zeroes_sectors = l->max_write_zeroes_sectors,
		/* Not rotational: that is a feature a disk must ask for now. */
		.features = BLK_FEAT_WRITE_CACHE | (l->fua ? BLK_FEAT_FUA : 0),
	};

	return blk_mq_alloc_disk(set, &lim, queuedata);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
#error "ssdemu supports 6.1-6.8 and 6.11+; 6.9 and 6.10 are untested"
#else
	struct request_queue *q;
	struct gendisk *disk;

	disk = blk_mq_alloc_disk(set, queuedata);
	if (IS_ERR(disk))
		return disk;
	q = disk->queue;
	blk_queue_logical_block_size(q, l->logical_block_bytes);
	blk_queue_physical_block_size(q, l->physical_block_bytes);
	blk_queue_io_min(q, l->io_min_bytes);
	blk_queue_max_hw_sectors(q, l->max_hw_sectors);
	blk_queue_max_segments(q, l->max_segments);
	blk_queue_max_discard_sectors(q, l->max_discard_sectors);
	q->limits.discard_granularity = l->discard_granularity_bytes;
	blk_queue_max_write_zeroes_sectors(q, l->max_write_zeroes_sectors);
	blk_queue_write_cache(q, true, l->fua);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_clear(QUEUE_FLAG_ADD_RANDOM, q);
	return disk;
#endif
}

#endif /* SSDEMU_COMPAT_H */

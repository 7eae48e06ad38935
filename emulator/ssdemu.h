/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdemu.h - the kernel side of one ssdemu device: its configfs item, its
 * configuration, and, while powered, its portable core and gendisk.
 */
#ifndef SSDEMU_H
#define SSDEMU_H

#include <linux/blk-mq.h>
#include <linux/configfs.h>
#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "emulator/ssdemu_compat.h"
#include "common/ssd_config.h"
#include "common/ssd_pagepool.h"
#include "device/ssd_device.h"
#include "include/ssdemu_ioctl.h"

/* How the kernel's completions kept to the model's times (timing=1). */
struct ssdemu_lateness {
	spinlock_t lock;
	u64 timed_completions;
	u64 late_completions;
	u64 late_ns_total;
	u64 late_ns_max;
};

struct ssdemu_dev {
	struct config_item item;
	struct mutex lock;		/* configuration and power state */
	struct ssd_config cfg;
	bool powered;
	int index;			/* N of /dev/ssdemuN, -1 while off */
	struct ssd_device *core;
	struct blk_mq_tag_set tag_set;
	struct gendisk *disk;
	u64 epoch_ns;			/* ktime at power on: virtual time 0 */
	/*
	 * Set when power-off begins: from then on every request completes at
	 * once instead of at its modeled time (see ssdemu_expedite()).
	 */
	bool tearing_down;
	struct ssdemu_lateness lateness;
};

/* Minor numbers per disk: the disk and up to 15 partitions. */
#define SSDEMU_MINORS	16

extern int ssdemu_major;

/* Serialises ioctls against teardown, see ssdemu_ioctl(). */
extern struct mutex ssdemu_teardown_lock;

int ssdemu_power_on(struct ssdemu_dev *dev);
int ssdemu_power_off(struct ssdemu_dev *dev, bool force);

int ssdemu_configfs_init(void);
void ssdemu_configfs_exit(void);

/* Fill the glue's own counters (lateness) into @stats. */
void ssdemu_fill_lateness(struct ssdemu_dev *dev, struct ssdemu_stats *stats);
void ssdemu_reset_lateness(struct ssdemu_dev *dev);

int ssdemu_ioctl(struct block_device *bdev, ssdemu_mode_t mode,
		 unsigned int cmd, unsigned long arg);

#endif /* SSDEMU_H */

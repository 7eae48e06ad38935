/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdemu.h - what the glue's files share: a device's configfs item (struct
 * ssdemu_dev: its configuration and power state) and one power-on of it
 * (struct ssdemu_disk: the gendisk, the tag set and the portable core),
 * which lives as long as the gendisk, not the item.
 */
#ifndef SSDEMU_H
#define SSDEMU_H

#include <linux/blk-mq.h>
#include <linux/configfs.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>

#include "emulator/ssdemu_compat.h"
#include "common/ssd_config.h"
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

/* NVMe error log entries kept (Identify Controller's ELPE is this - 1). */
#define SSDEMU_NVME_ERROR_ENTRIES	4

/*
 * The NVMe passthrough's error log (ssdemu_nvme.c): the commands answered
 * with an error status, newest last in a ring.  Per power-on.
 */
struct ssdemu_nvme_errors {
	spinlock_t lock;
	u64 count;			/* errors since power-on: the next one's number */
	struct ssdemu_nvme_error {
		u64 error_count;	/* 1 for the first error of the power-on */
		u32 nsid;
		u16 sqid;		/* 0: admin, 1: I/O */
		u16 status;		/* the status field, DNR included */
		u16 param_location;	/* byte of the command in error, 0xffff: none */
	} entry[SSDEMU_NVME_ERROR_ENTRIES];
};

/*
 * What the NVMe Identify and SMART pages need of a power-on's configuration,
 * fixed at power-on.
 */
struct ssdemu_nvme_info {
	u64 capacity_bytes;
	u32 logical_block_bytes;
	u32 page_size_bytes;
	u64 pe_cycle_limit;
	bool wear_faults;		/* bad_block_ppm or grown_bad_ppm: SMART spares are blocks */
	u8 volatile_write_cache;	/* Identify Controller's VWC bit */
};

/*
 * One power-on of a device: everything the block path and the ioctls use.
 * ssdemu_power_on() allocates it with the gendisk; the gendisk's free_disk
 * (when its last reference goes: power-off's, or the last fd open across
 * power-off or rmdir) frees it.  It never points back at its configfs item,
 * which rmdir frees while the disk may live on.
 */
struct ssdemu_disk {
	struct gendisk *disk;
	struct blk_mq_tag_set tag_set;
	/*
	 * Held by each ioctl while it uses the core, and by power-off to take
	 * the core away (after del_gendisk(): no request reaches queue_rq
	 * any more, which uses the core unlocked).  An ioctl sees the core
	 * whole or not at all (-ENXIO); one device's ioctls never wait for
	 * another's.
	 */
	struct mutex core_lock;
	struct ssd_device *core;	/* NULL once powered off */
	bool timing;			/* the timing key: complete at modeled times */
	/*
	 * Set when power-off begins: from then on every request completes at
	 * once instead of at its modeled time (see ssdemu_expedite()).
	 */
	bool tearing_down;
	int index;			/* N of /dev/ssdemuN, until free_disk */
	/*
	 * The ktime of virtual time 0: ktime at power-on less the core's
	 * virtual time then, 0 for a new device, the saved clock for one made
	 * from a snapshot, which so continues where it was saved.  Modulo
	 * 2^64 (a snapshot's clock may be ahead of this boot's ktime).
	 */
	u64 epoch_ns;
	struct ssdemu_lateness lateness;
	struct ssdemu_nvme_info nvme_info;
	struct ssdemu_nvme_errors nvme_errors;
	/* Bit 0: set_disk_ro() done at the end of life (a write met -EROFS). */
	unsigned long read_only_set;
	/* The configfs item's name (truncated like the core's), for messages. */
	char name[SSD_CONFIG_NAME_BYTES];
};

/* One configfs item: /sys/kernel/config/ssdemu/<name>. */
struct ssdemu_dev {
	struct config_item item;
	struct mutex lock;		/* configuration and power state */
	/*
	 * cfg.name: the item's name.  After a power-on from a snapshot, the
	 * configuration the device was made with (the file's and the keys
	 * written here).
	 */
	struct ssd_config cfg;
	/* Keys written to the item: they override a snapshot's (ssd_config_key_at()'s index). */
	DECLARE_BITMAP(keys_set, SSD_CONFIG_MAX_KEYS);
	/* snapshot_from: an absolute path power=1 makes the device from, or NULL. */
	char *snapshot_from;
	/* inject_errors: sector ranges whose I/O fails, handed to the core at power-on. */
	struct ssd_inject_list inject;
	/* bad_blocks: factory bad blocks ("12 40-43") power=1 marks, or NULL. */
	char *bad_blocks;
	struct ssdemu_disk *sd;		/* while powered, else NULL */
	/*
	 * After power_cut: the core with its durable state, which the next
	 * power=1 brings back (keys cannot change meanwhile); else NULL.
	 */
	struct ssd_device *cut_core;
};

/* ssdemu_blk.c: the block major, and bringing a disk up and down. */
int ssdemu_blk_init(void);
void ssdemu_blk_exit(void);
int ssdemu_power_on(struct ssdemu_dev *dev);
int ssdemu_power_off(struct ssdemu_dev *dev, bool force);
int ssdemu_power_cut(struct ssdemu_dev *dev);

/*
 * ssdemu_snapshot.c.  Save @sd's core to @path: 0 or an error (logged).  The
 * caller holds the item's lock, so the core stays.
 */
int ssdemu_snapshot_save(struct ssdemu_disk *sd, const char *path);
/*
 * Make a core from @dev->snapshot_from, with @dev's written keys over the
 * file's configuration, which *@cfg gets: 0 or an error (logged), nothing
 * left behind.
 */
int ssdemu_snapshot_create(struct ssdemu_dev *dev, struct ssd_config *cfg,
			   struct ssd_device **core);

/* ssdemu_configfs.c */
int ssdemu_configfs_init(void);
void ssdemu_configfs_exit(void);

/*
 * The core of @sd, locked for one command's work; NULL, nothing held, once
 * power-off has taken it away.
 */
static inline struct ssd_device *ssdemu_core_get(struct ssdemu_disk *sd)
{
	mutex_lock(&sd->core_lock);
	if (sd->core)
		return sd->core;
	mutex_unlock(&sd->core_lock);
	return NULL;
}

static inline void ssdemu_core_put(struct ssdemu_disk *sd)
{
	mutex_unlock(&sd->core_lock);
}

/* ssdemu_ioctl.c */
int ssdemu_ioctl(struct block_device *bdev, ssdemu_mode_t mode,
		 unsigned int cmd, unsigned long arg);

/*
 * ssdemu_nvme.c: the NVMe passthrough ioctls (type 'N') on the block device.
 * Returns 0 or an NVMe status (positive, as the nvme driver does), or a
 * negative errno: -ENOTTY for an ioctl it does not know, -EFAULT, -EINVAL.
 */
void ssdemu_nvme_init(struct ssdemu_disk *sd, const struct ssd_config *cfg);
int ssdemu_nvme_ioctl(struct ssdemu_disk *sd, unsigned int cmd, void __user *argp);

/* The lateness counters: the completion path adds, the ioctls read and reset. */
static inline void ssdemu_lateness_add(struct ssdemu_lateness *l, u64 target_ns,
				       u64 now_ns)
{
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	l->timed_completions++;
	if (now_ns > target_ns) {
		l->late_completions++;
		l->late_ns_total += now_ns - target_ns;
		l->late_ns_max = max(l->late_ns_max, now_ns - target_ns);
	}
	spin_unlock_irqrestore(&l->lock, flags);
}

static inline void ssdemu_lateness_fill(struct ssdemu_lateness *l,
					struct ssdemu_stats *stats)
{
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	stats->timed_completions = l->timed_completions;
	stats->late_completions = l->late_completions;
	stats->late_ns_total = l->late_ns_total;
	stats->late_ns_max = l->late_ns_max;
	spin_unlock_irqrestore(&l->lock, flags);
}

static inline void ssdemu_lateness_reset(struct ssdemu_lateness *l)
{
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	l->timed_completions = 0;
	l->late_completions = 0;
	l->late_ns_total = 0;
	l->late_ns_max = 0;
	spin_unlock_irqrestore(&l->lock, flags);
}

#endif /* SSDEMU_H */

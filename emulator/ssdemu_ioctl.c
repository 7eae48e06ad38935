// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_ioctl.c - SSDEMU_IOC_* on /dev/ssdemuN (include/ssdemu_ioctl.h):
 * statistics (size-tolerant, see the header), reset and consistency check.
 */
#include <linux/capability.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "ssdemu.h"

static int get_stats(struct ssd_device *core, unsigned int cmd, void __user *argp)
{
	size_t user_bytes = _IOC_SIZE(cmd);
	struct ssdemu_stats *stats;
	int ret = 0;

	if (_IOC_DIR(cmd) != _IOC_READ)
		return -ENOTTY;
	if (user_bytes < offsetofend(struct ssdemu_stats, struct_bytes))
		return -EINVAL;
	stats = kmalloc(sizeof(*stats), GFP_KERNEL);
	if (!stats)
		return -ENOMEM;
	ssd_device_get_stats(core, stats);
	if (copy_to_user(argp, stats, min(user_bytes, sizeof(*stats))))
		ret = -EFAULT;
	kfree(stats);
	return ret;
}

static int dispatch(struct ssd_device *core, unsigned int cmd, void __user *argp)
{
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(SSDEMU_IOC_GET_STATS):
		return get_stats(core, cmd, argp);
	case _IOC_NR(SSDEMU_IOC_RESET_STATS):
		if (cmd != SSDEMU_IOC_RESET_STATS)
			return -ENOTTY;
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		ssd_device_reset_stats(core);
		return 0;
	case _IOC_NR(SSDEMU_IOC_CHECK):
		if (cmd != SSDEMU_IOC_CHECK)
			return -ENOTTY;
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ssd_device_check(core);
	default:
		return -ENOTTY;
	}
}

int ssdemu_ioctl(struct block_device *bdev, ssdemu_mode_t mode,
		 unsigned int cmd, unsigned long arg)
{
	struct ssdemu_dev *dev;
	int ret;

	if (_IOC_TYPE(cmd) != SSDEMU_IOC_MAGIC)
		return -ENOTTY;
	/* A disk removed under an open fd has no private data any more. */
	mutex_lock(&ssdemu_teardown_lock);
	dev = bdev->bd_disk->private_data;
	ret = dev ? dispatch(dev->core, cmd, (void __user *)arg) : -ENXIO;
	mutex_unlock(&ssdemu_teardown_lock);
	return ret;
}

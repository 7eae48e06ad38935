// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_ioctl.c - SSDEMU_IOC_* on /dev/ssdemuN (include/ssdemu_ioctl.h):
 * statistics (size-tolerant, see the header), reset, consistency check and
 * the request log.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "emulator/ssdemu.h"
#include "abi/ssd_abi.h"

/* Entries one READ_LOG call may take: bounds the kernel's staging buffer. */
#define SSDEMU_LOG_READ_MAX	65536

static int get_stats(struct ssdemu_dev *dev, unsigned int cmd, void __user *argp)
{
	size_t user_bytes = _IOC_SIZE(cmd);
	struct ssdemu_stats *stats;
	struct ssd_stats *core;
	int ret = 0;

	if (_IOC_DIR(cmd) != _IOC_READ)
		return -ENOTTY;
	if (user_bytes < offsetofend(struct ssdemu_stats, struct_bytes))
		return -EINVAL;
	stats = kzalloc(sizeof(*stats), GFP_KERNEL);
	core = kmalloc(sizeof(*core), GFP_KERNEL);
	if (!stats || !core) {
		kfree(stats);
		kfree(core);
		return -ENOMEM;
	}
	ssd_device_get_stats(dev->core, core);
	ssd_stats_to_uapi(core, stats);
	kfree(core);
	ssdemu_fill_lateness(dev, stats);
	if (copy_to_user(argp, stats, min(user_bytes, sizeof(*stats))))
		ret = -EFAULT;
	kfree(stats);
	return ret;
}

/* Entries are staged in a kernel buffer: no user page faults under the lock. */
static int read_log(struct ssdemu_dev *dev, void __user *argp)
{
	struct ssdemu_log_read arg;
	struct ssdemu_log_entry *buf;
	struct ssd_log_entry *core;
	u32 i;
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if (!arg.max_entries || arg.max_entries > SSDEMU_LOG_READ_MAX) {
		pr_err("%s: READ_LOG max_entries=%u refused: accepted range is 1..%u\n",
		       dev->cfg.name, arg.max_entries, SSDEMU_LOG_READ_MAX);
		return -EINVAL;
	}
	buf = kvmalloc_array(arg.max_entries, sizeof(*buf), GFP_KERNEL);
	core = kvmalloc_array(arg.max_entries, sizeof(*core), GFP_KERNEL);
	if (!buf || !core) {
		kvfree(buf);
		kvfree(core);
		return -ENOMEM;
	}
	arg.nr_entries = ssd_device_read_log(dev->core, core, arg.max_entries,
					     &arg.dropped_entries);
	for (i = 0; i < arg.nr_entries; i++)
		ssd_log_entry_to_uapi(&core[i], &buf[i]);
	kvfree(core);
	if (copy_to_user(u64_to_user_ptr(arg.entries), buf,
			 (size_t)arg.nr_entries * sizeof(*buf)) ||
	    copy_to_user(argp, &arg, sizeof(arg)))
		ret = -EFAULT;	/* the entries taken are lost, like a pipe's */
	kvfree(buf);
	return ret;
}

static int dispatch(struct ssdemu_dev *dev, unsigned int cmd, void __user *argp)
{
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(SSDEMU_IOC_GET_STATS):
		return get_stats(dev, cmd, argp);
	case _IOC_NR(SSDEMU_IOC_RESET_STATS):
		if (cmd != SSDEMU_IOC_RESET_STATS)
			return -ENOTTY;
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		ssd_device_reset_stats(dev->core);
		ssdemu_reset_lateness(dev);
		return 0;
	case _IOC_NR(SSDEMU_IOC_CHECK):
		if (cmd != SSDEMU_IOC_CHECK)
			return -ENOTTY;
		if (!capable(CAP_SYS_ADMIN))
			return -EPERM;
		return ssd_device_check(dev->core);
	case _IOC_NR(SSDEMU_IOC_READ_LOG):
		if (cmd != SSDEMU_IOC_READ_LOG)
			return -ENOTTY;
		return read_log(dev, argp);
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
	ret = dev ? dispatch(dev, cmd, (void __user *)arg) : -ENXIO;
	mutex_unlock(&ssdemu_teardown_lock);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_ioctl.c - SSDEMU_IOC_* on /dev/ssdemuN (include/ssdemu_ioctl.h):
 * statistics (size-tolerant, see the header), reset, consistency check and
 * the request log.  Each command uses the core under its power-on's
 * core_lock, and only there: user memory is copied outside it, so a slow
 * page fault holds up nobody's power-off.  An fd whose disk was powered
 * off or removed gets -ENXIO.  The NVMe passthrough ioctls (type 'N') go
 * to ssdemu_nvme.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "emulator/ssdemu.h"
#include "abi/ssd_abi.h"

/* Entries one READ_LOG call may take: bounds the kernel's staging buffer. */
#define SSDEMU_LOG_READ_MAX	65536

static int get_stats(struct ssdemu_disk *sd, unsigned int cmd, void __user *argp)
{
	size_t user_bytes = _IOC_SIZE(cmd);
	struct ssdemu_stats *stats;
	struct ssd_stats *cst;
	struct ssd_device *core;
	int ret = 0;

	if (_IOC_DIR(cmd) != _IOC_READ)
		return -ENOTTY;
	if (user_bytes < offsetofend(struct ssdemu_stats, struct_bytes))
		return -EINVAL;
	stats = kzalloc(sizeof(*stats), GFP_KERNEL);
	cst = kmalloc(sizeof(*cst), GFP_KERNEL);
	if (!stats || !cst) {
		ret = -ENOMEM;
		goto out;
	}
	core = ssdemu_core_get(sd);
	if (!core) {
		ret = -ENXIO;
		goto out;
	}
	ssd_device_get_stats(core, cst);
	ssdemu_core_put(sd);
	ssd_stats_to_uapi(cst, stats);
	ssdemu_lateness_fill(&sd->lateness, stats);
	if (copy_to_user(argp, stats, min(user_bytes, sizeof(*stats))))
		ret = -EFAULT;
out:
	kfree(cst);
	kfree(stats);
	return ret;
}

static int reset_stats(struct ssdemu_disk *sd)
{
	struct ssd_device *core;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	core = ssdemu_core_get(sd);
	if (!core)
		return -ENXIO;
	ssd_device_reset_stats(core);
	ssdemu_lateness_reset(&sd->lateness);
	ssdemu_core_put(sd);
	return 0;
}

/* Linear in the device's size; other devices' ioctls do not wait for it. */
static int check(struct ssdemu_disk *sd)
{
	struct ssd_device *core;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	core = ssdemu_core_get(sd);
	if (!core)
		return -ENXIO;
	ret = ssd_device_check(core);
	ssdemu_core_put(sd);
	return ret;
}

/* Entries are staged in kernel buffers, taken under the lock, copied after. */
static int read_log(struct ssdemu_disk *sd, void __user *argp)
{
	struct ssdemu_log_read arg;
	struct ssdemu_log_entry *buf;
	struct ssd_log_entry *entries;
	struct ssd_device *core;
	u32 i;
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&arg, argp, sizeof(arg)))
		return -EFAULT;
	if (!arg.max_entries || arg.max_entries > SSDEMU_LOG_READ_MAX) {
		pr_err("%s: READ_LOG max_entries=%u refused: accepted range is 1..%u\n",
		       sd->name, arg.max_entries, SSDEMU_LOG_READ_MAX);
		return -EINVAL;
	}
	buf = kvmalloc_array(arg.max_entries, sizeof(*buf), GFP_KERNEL);
	entries = kvmalloc_array(arg.max_entries, sizeof(*entries), GFP_KERNEL);
	if (!buf || !entries) {
		ret = -ENOMEM;
		goto out;
	}
	core = ssdemu_core_get(sd);
	if (!core) {
		ret = -ENXIO;
		goto out;
	}
	arg.nr_entries = ssd_device_read_log(core, entries, arg.max_entries,
					     &arg.dropped_entries);
	ssdemu_core_put(sd);
	for (i = 0; i < arg.nr_entries; i++)
		ssd_log_entry_to_uapi(&entries[i], &buf[i]);
	if (copy_to_user(u64_to_user_ptr(arg.entries), buf,
			 (size_t)arg.nr_entries * sizeof(*buf)) ||
	    copy_to_user(argp, &arg, sizeof(arg)))
		ret = -EFAULT;	/* the entries taken are lost, like a pipe's */
out:
	kvfree(entries);
	kvfree(buf);
	return ret;
}

static int dispatch(struct ssdemu_disk *sd, unsigned int cmd, void __user *argp)
{
	switch (_IOC_NR(cmd)) {
	case _IOC_NR(SSDEMU_IOC_GET_STATS):
		return get_stats(sd, cmd, argp);
	case _IOC_NR(SSDEMU_IOC_RESET_STATS):
		if (cmd != SSDEMU_IOC_RESET_STATS)
			return -ENOTTY;
		return reset_stats(sd);
	case _IOC_NR(SSDEMU_IOC_CHECK):
		if (cmd != SSDEMU_IOC_CHECK)
			return -ENOTTY;
		return check(sd);
	case _IOC_NR(SSDEMU_IOC_READ_LOG):
		if (cmd != SSDEMU_IOC_READ_LOG)
			return -ENOTTY;
		return read_log(sd, argp);
	default:
		return -ENOTTY;
	}
}

/*
 * The open fd holds the gendisk, and so its power-on (freed by free_disk
 * only): private_data is always there.  Once powered off it has no core,
 * and every command of ssdemu's type answers -ENXIO, before its arguments
 * are looked at; the command itself checks again under the lock.
 */
int ssdemu_ioctl(struct block_device *bdev, ssdemu_mode_t mode,
		 unsigned int cmd, unsigned long arg)
{
	struct ssdemu_disk *sd = bdev->bd_disk->private_data;

	if (_IOC_TYPE(cmd) != SSDEMU_IOC_MAGIC && _IOC_TYPE(cmd) != 'N')
		return -ENOTTY;
	if (!READ_ONCE(sd->core))
		return -ENXIO;
	if (_IOC_TYPE(cmd) == 'N')
		return ssdemu_nvme_ioctl(sd, cmd, (void __user *)arg);
	return dispatch(sd, cmd, (void __user *)arg);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_main.c - module entry and exit.  Devices are created through
 * configfs only (see ssdemu_configfs.c); the module has no parameters yet,
 * every default comes from SSD_CONFIG_KEYS.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "emulator/ssdemu.h"
#include "device/ssd_device.h"

static int __init ssdemu_init(void)
{
	int ret;

	/*
	 * The dedup layer's fingerprints use the kernel's sha1_transform():
	 * check it against the FIPS 180 vectors the unit tests check the
	 * userspace build with, so both compute the same fingerprints.
	 */
	ret = ssd_core_self_test();
	if (ret)
		return ret;
	pr_info("SHA-1 self-test passed (4 FIPS 180 vectors, kernel sha1_transform)\n");

	ret = ssdemu_blk_init();
	if (ret)
		return ret;
	ret = ssdemu_configfs_init();
	if (ret) {
		pr_err("cannot register configfs subsystem: %d\n", ret);
		ssdemu_blk_exit();
		return ret;
	}
	pr_info("loaded; create devices under /sys/kernel/config/ssdemu\n");
	return 0;
}

static void __exit ssdemu_exit(void)
{
	/* configfs holds a module reference per device: none are left. */
	ssdemu_configfs_exit();
	ssdemu_blk_exit();
}

module_init(ssdemu_init);
module_exit(ssdemu_exit);

MODULE_AUTHOR("ssdemu developers");
MODULE_DESCRIPTION("SSD firmware emulator: TLC flash, FTL, GC, wear, TRIM");
MODULE_LICENSE("GPL");
MODULE_VERSION(SSDEMU_VERSION);

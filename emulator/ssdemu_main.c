// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_main.c - module entry and exit.  Devices are created through
 * configfs only (see ssdemu_configfs.c); the module has no parameters yet,
 * every default comes from the vocabulary's keys (device/ssd_keys.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "emulator/ssdemu.h"
#include "device/ssd_device.h"

static int __init ssdemu_init(void)
{
	int ret;

	/*
	 * The dedup layer's fingerprints use the kernel's crypto API: check
	 * the "sha1" shash against the FIPS 180 vectors the unit tests check
	 * the userspace build (libcrypto) with, so both compute the same
	 * fingerprints.
	 */
	ret = ssd_sha1_init();
	if (ret)
		return ret;
	ret = ssd_core_self_test();
	if (ret)
		goto out_sha1;
	pr_info("SHA-1 self-test passed (4 FIPS 180 vectors, crypto API driver %s)\n",
		ssd_sha1_driver());

	ret = ssdemu_blk_init();
	if (ret)
		goto out_sha1;
	ret = ssdemu_configfs_init();
	if (ret) {
		pr_err("cannot register configfs subsystem: %d\n", ret);
		ssdemu_blk_exit();
		goto out_sha1;
	}
	pr_info("version %s loaded; create devices under /sys/kernel/config/ssdemu\n",
		SSDEMU_VERSION);
	return 0;
out_sha1:
	ssd_sha1_exit();
	return ret;
}

static void __exit ssdemu_exit(void)
{
	/* configfs holds a module reference per device: none are left. */
	ssdemu_configfs_exit();
	ssdemu_blk_exit();
	ssd_sha1_exit();
}

module_init(ssdemu_init);
module_exit(ssdemu_exit);

MODULE_AUTHOR("ssdemu developers");
MODULE_DESCRIPTION("SSD firmware emulator: TLC flash, FTL, GC, wear, TRIM");
MODULE_LICENSE("GPL");
MODULE_VERSION(SSDEMU_VERSION);
/*
 * The dedup fingerprints' SHA-1 (platform/ssd_sha1_kernel.c): under
 * modprobe, the CPU-accelerated driver (sha1-ssse3.ko: SSSE3, AVX, AVX2 or
 * SHA-NI) is loaded first when it is a module; sha1-generic is built in.
 */
MODULE_SOFTDEP("pre: sha1");

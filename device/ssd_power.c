// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_power.c - power cuts.  With volatile_write_cache=1 a cut drops what
 * the device acknowledged but had not made durable: each layer's volatile
 * state (ssd_layer_ops.power_cut: the write cache's pages, the dedup write
 * buffer's writes), counted as lost.  With volatile_write_cache=0 the
 * device is power-loss protected: its capacitors drain every buffer to
 * flash (a FLUSH) and nothing is lost.  What the layers keep below (the
 * FTL's map, the SLC cache's directory, the flash) is durable: a real
 * drive rebuilds it at power-on, which is not modeled.  A cut device
 * refuses requests (-EIO) until ssd_device_power_restore().
 */
#include "device/ssd_device_internal.h"

int ssd_device_power_cut(struct ssd_device *dev, u64 *lost_pages)
{
	struct ssd_io io = { .cause = SSD_CAUSE_HOST };
	u64 lost = 0;
	int ret = 0;

	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	io.start_ns = dev->virtual_time_ns;
	if (dev->cfg.volatile_write_cache)
		lost = ssd_stack_power_cut(dev, io.start_ns);
	else if (!dev->powered_off)
		ret = dev->top->ops->flush(dev->top, &io);
	if (!dev->powered_off) {
		dev->power.cuts++;
		dev->power.lost_pages += lost;
	}
	dev->powered_off = true;
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
	if (lost_pages)
		*lost_pages = lost;
	return ret;
}

void ssd_device_power_restore(struct ssd_device *dev)
{
	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	dev->powered_off = false;
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
}

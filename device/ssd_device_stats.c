// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_device_stats.c - what a device reports: its statistics (the front
 * end's host counters, then the controller's and the flash's, then each
 * layer's from the bottom up), their reset, the consistency check of
 * every layer and the request log.
 */
#include "device/ssd_device_internal.h"

/* Bottom up: a layer may add to or correct what the layers below it said. */
static void gather_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	if (!layer)
		return;
	gather_stats(layer->lower, st);
	layer->ops->get_stats(layer, st);
}

void ssd_device_get_stats(struct ssd_device *dev, struct ssd_stats *st)
{
	memset(st, 0, sizeof(*st));
	ssd_lock_take(&dev->lock);
	st->logical_capacity_bytes = dev->capacity_bytes;
	st->host_read_bytes = dev->host.read_bytes;
	st->host_write_bytes = dev->host.write_bytes;
	st->host_trim_bytes = dev->host.trim_bytes;
	st->host_read_pages = dev->host.read_pages;
	st->host_write_pages = dev->host.write_pages;
	st->host_rmw_pages = dev->host.rmw_pages;
	st->host_flush_count = dev->host.flush_count;
	st->working_set_pages = dev->host.working_set_pages;
	st->virtual_time_ns = dev->virtual_time_ns;
	st->host_read_error_pages = dev->read_error_pages;
	st->host_write_error_pages = dev->write_error_pages;
	st->injected_error_ranges = dev->inject.nr;
	st->power_cuts = dev->power.cuts;
	st->power_cut_lost_pages = dev->power.lost_pages;
	st->fua_writes = dev->power.fua_writes;
	/* The FTL never holds more pages than the logical space. */
	st->data_limit_bytes = min_t(u64, dev->data_limit_pages,
				     dev->capacity_bytes >> dev->page_shift) * dev->page_bytes;
	st->spare_buffer_bytes = ssd_pagepool_spare_bytes(&dev->pool);
	ssd_controller_get_stats(&dev->controller, st);
	ssd_flash_get_stats(&dev->flash, st);
	gather_stats(dev->top, st);
	ssd_lock_give(&dev->lock);
}

void ssd_device_reset_stats(struct ssd_device *dev)
{
	struct ssd_layer *layer;

	ssd_lock_take(&dev->lock);
	memset(&dev->host, 0, sizeof(dev->host));
	memset(dev->working_set, 0,
	       ssd_working_set_words(dev->capacity_bytes >> dev->page_shift) * sizeof(u64));
	dev->read_error_pages = 0;
	dev->write_error_pages = 0;
	memset(&dev->power, 0, sizeof(dev->power));
	ssd_controller_reset_counters(&dev->controller);
	ssd_flash_reset_counters(&dev->flash);
	for (layer = dev->top; layer; layer = layer->lower)
		layer->ops->reset_stats(layer);
	ssd_lock_give(&dev->lock);
}

int ssd_device_check(struct ssd_device *dev)
{
	struct ssd_layer *layer;
	int ret = 0;

	ssd_lock_take(&dev->lock);
	for (layer = dev->top; layer && !ret; layer = layer->lower)
		ret = layer->ops->check(layer);
	ssd_lock_give(&dev->lock);
	return ret;
}

u32 ssd_device_read_log(struct ssd_device *dev, struct ssd_log_entry *out,
			u32 max, u64 *dropped)
{
	u32 n;

	ssd_lock_take(&dev->lock);
	n = ssd_request_log_take(&dev->log, out, max);
	*dropped = dev->log.dropped;
	ssd_lock_give(&dev->lock);
	return n;
}

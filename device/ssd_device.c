// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_device.c - a device's life: checking its configuration, building it
 * within its memory plan (controller, request log, page pool, flash, the
 * stack of layers) and taking it apart, and what it fixed at creation.
 */
#include "device/ssd_device_internal.h"

static u32 log2_u32(u32 value)
{
	u32 shift = 0;

	while ((1U << shift) < value)
		shift++;
	return shift;
}

int ssd_device_validate_config(const struct ssd_config *cfg)
{
	return ssd_stack_validate(cfg, ssd_default_stack, ssd_default_stack_size);
}

u32 ssd_device_map_unit_pages(const struct ssd_config *cfg)
{
	return ssd_stack_map_unit_pages(cfg, ssd_default_stack, ssd_default_stack_size);
}

void ssd_device_set_data_limit(struct ssd_device *dev, u64 pages)
{
	dev->data_limit_pages = min_t(u64, pages, flash_total_pages(&dev->flash));
	/* No more buffers than that, besides the spares, whatever the layers do. */
	ssd_pagepool_set_limit(&dev->pool, dev->data_limit_pages + SSD_PAGEPOOL_SPARE);
}

int ssd_device_create_stack(struct ssd_device **out, const struct ssd_config *cfg,
			    const struct ssd_layer_type *const *types,
			    unsigned int nr_types)
{
	struct ssd_memory_plan plan;
	struct ssd_device *dev;
	int ret;

	ret = ssd_stack_validate(cfg, types, nr_types);
	if (!ret)
		ret = ssd_memory_plan(cfg, types, nr_types, &plan);
	if (ret)
		return ret;
	dev = ssd_zalloc(sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->cfg = *cfg;
	dev->page_bytes = cfg->page_size_bytes;
	dev->page_shift = log2_u32(dev->page_bytes);
	dev->capacity_bytes = ssd_config_logical_pages(cfg) << dev->page_shift;
	dev->memory_limit_bytes = plan.limit_bytes;
	dev->metadata_bytes = plan.metadata_bytes;
	dev->resched_pages = SSD_DEVICE_RESCHED_PAGES;

	ret = ssd_controller_init(&dev->controller, cfg->cmd_queue_depth, cfg->controller_ns);
	if (ret)
		goto free_dev;
	ret = ssd_request_log_init(&dev->log, cfg->request_log_entries);
	if (ret)
		goto exit_controller;
	dev->working_set = ssd_zalloc(ssd_working_set_words(dev->capacity_bytes >> dev->page_shift) *
				      sizeof(u64));
	if (!dev->working_set) {
		ret = -ENOMEM;
		goto exit_log;
	}
	ssd_pagepool_init(&dev->pool, ssd_config_content_bytes(cfg),
			  (enum ssd_data_store)cfg->data_store);
	ret = ssd_flash_init(&dev->flash, &dev->cfg, &dev->pool, dev->cfg.name);
	if (ret)
		goto exit_pool;
	ssd_device_set_data_limit(dev, plan.data_pages);

	dev->env.dev_name = dev->cfg.name;
	dev->env.pool = &dev->pool;
	dev->env.flash = &dev->flash;
	ret = ssd_stack_create(dev, types, nr_types);
	if (ret)
		goto exit_flash;

	ssd_lock_init(&dev->request_lock);
	ssd_lock_init(&dev->lock);
	*out = dev;
	return 0;

exit_flash:
	ssd_flash_exit(&dev->flash);
exit_pool:
	ssd_pagepool_exit(&dev->pool);
	ssd_free(dev->working_set);
exit_log:
	ssd_request_log_exit(&dev->log);
exit_controller:
	ssd_controller_exit(&dev->controller);
free_dev:
	ssd_free(dev);
	return ret;
}

int ssd_device_create(struct ssd_device **out, const struct ssd_config *cfg)
{
	return ssd_device_create_stack(out, cfg, ssd_default_stack, ssd_default_stack_size);
}

void ssd_device_destroy(struct ssd_device *dev)
{
	if (!dev)
		return;
	ssd_stack_destroy(dev);
	ssd_flash_exit(&dev->flash);
	ssd_pagepool_exit(&dev->pool);
	ssd_free(dev->working_set);
	ssd_request_log_exit(&dev->log);
	ssd_controller_exit(&dev->controller);
	ssd_lock_destroy(&dev->lock);
	ssd_lock_destroy(&dev->request_lock);
	ssd_free(dev);
}

u64 ssd_device_capacity_bytes(const struct ssd_device *dev)
{
	return dev->capacity_bytes;
}

u32 ssd_device_page_bytes(const struct ssd_device *dev)
{
	return dev->page_bytes;
}

u64 ssd_device_memory_limit_bytes(const struct ssd_device *dev)
{
	return dev->memory_limit_bytes;
}

u64 ssd_device_metadata_bytes(const struct ssd_device *dev)
{
	return dev->metadata_bytes;
}

/* The data store's cap, as the kernel's power-on message states it. */
u64 ssd_device_data_limit_bytes(const struct ssd_device *dev)
{
	return dev->data_limit_pages * dev->page_bytes;
}

enum ssd_data_store ssd_device_data_store(const struct ssd_device *dev)
{
	return dev->pool.store;
}

u64 ssd_device_last_arrival_ns(const struct ssd_device *dev)
{
	return dev->last_arrival_ns;
}

u64 ssd_device_virtual_time_ns(const struct ssd_device *dev)
{
	return dev->virtual_time_ns;
}

/* The vocabulary's check, then every layer type's self-test; the first failure. */
int ssd_core_self_test(void)
{
	unsigned int i;
	int ret = ssd_config_keys_check();

	for (i = 0; !ret && i < ssd_default_stack_size; i++)
		if (ssd_default_stack[i]->self_test)
			ret = ssd_default_stack[i]->self_test();
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_stack.c - the stack of layers: the default one (top first: the
 * volatile write cache, dedup, the NVM cache, the FTL), checking a
 * configuration against each enabled layer type and asking them the unit
 * they map by, building the enabled layers bottom up over the flash, and
 * the walks over the built layers that ask each one in turn (holds,
 * pending pages, idle work, power cuts, factory bad blocks).  No code
 * here knows which layer is which.
 */
#include "device/ssd_device_internal.h"
#include "vwc/vwc.h"
#include "dedup/dedup.h"
#include "nvmcache/nvmcache.h"
#include "ftl/ftl.h"

/*
 * Top first: the volatile write cache (volatile_write_cache=1, vwc/),
 * dedup (dedup=1), then the NVM cache (cache_policy), then the
 * FTL.  The cache sees dedup's chunk ids: a duplicate write reaches neither.
 */
const struct ssd_layer_type *const ssd_default_stack[] = {
	&ssd_vwc_layer_type,
	&ssd_dedup_layer_type,
	&ssd_nvmcache_layer_type,
	&ssd_ftl_layer_type,
};

const unsigned int ssd_default_stack_size = ARRAY_SIZE(ssd_default_stack);

bool ssd_stack_enabled(const struct ssd_layer_type *type, const struct ssd_config *cfg)
{
	return !type->enabled || type->enabled(cfg);
}

int ssd_stack_validate(const struct ssd_config *cfg,
		       const struct ssd_layer_type *const *types, unsigned int nr_types)
{
	unsigned int i;
	int ret;

#ifdef __KERNEL__
	/* The keys only ssdsim implements keep their defaults in the kernel. */
	if (ssd_config_check_kernel(cfg))
		return -EINVAL;
#endif
	ret = ssd_config_validate(cfg);
	if (!ret)
		ret = ssd_flash_validate(cfg);
	for (i = 0; !ret && i < nr_types; i++)
		if (ssd_stack_enabled(types[i], cfg) && types[i]->validate)
			ret = types[i]->validate(cfg);
	return ret;
}

u32 ssd_stack_map_unit_pages(const struct ssd_config *cfg,
			     const struct ssd_layer_type *const *types, unsigned int nr_types)
{
	u32 pages = 1;
	unsigned int i;

	for (i = 0; i < nr_types; i++)
		if (ssd_stack_enabled(types[i], cfg) && types[i]->map_unit_pages)
			pages = max_t(u32, pages, types[i]->map_unit_pages(cfg));
	return pages;
}

void ssd_stack_destroy(struct ssd_device *dev)
{
	while (dev->top) {
		struct ssd_layer *lower = dev->top->lower;

		dev->top->ops->destroy(dev->top);
		dev->top = lower;
	}
}

/* Build the enabled layers bottom up, so each is made over its lower one. */
int ssd_stack_create(struct ssd_device *dev, const struct ssd_layer_type *const *types,
		     unsigned int nr_types)
{
	unsigned int i;

	for (i = nr_types; i-- > 0;) {
		struct ssd_layer *layer;
		int ret;

		if (!ssd_stack_enabled(types[i], &dev->cfg))
			continue;
		ret = types[i]->create(&dev->cfg, &dev->env, dev->top, &layer);
		if (ret) {
			ssd_stack_destroy(dev);
			return ret;
		}
		layer->lower = dev->top;
		layer->type = types[i];
		dev->top = layer;
	}
	return dev->top ? 0 : -EINVAL;
}

/*
 * Whether the data of @lpn is stored already, so that writing it takes no
 * new page: the first layer from the top that answers (ssd_layer_ops.holds)
 * says; the FTL keeps one page per mapped lpn, the dedup layer one per
 * unshared chunk.  If no layer answers, every page written counts as new.
 */
bool ssd_stack_holds(struct ssd_device *dev, u64 lpn)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->holds)
			return layer->ops->holds(layer, lpn);
	return false;
}

/* Pages the layers hold outside the data store that may need one later. */
u64 ssd_stack_pending_pages(struct ssd_device *dev)
{
	struct ssd_layer *layer;
	u64 pages = 0;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->pending_pages)
			pages += layer->ops->pending_pages(layer);
	return pages;
}

/* Background work of each layer that has any, top to bottom (ssd_layer_ops.idle). */
void ssd_stack_idle(struct ssd_device *dev, u64 now_ns)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->idle)
			layer->ops->idle(layer, now_ns);
}

/*
 * The power is cut: each layer from the top drops what it holds that is
 * not durable (ssd_layer_ops.power_cut); the pages dropped.
 */
u64 ssd_stack_power_cut(struct ssd_device *dev, u64 now_ns)
{
	struct ssd_layer *layer;
	u64 lost = 0;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->power_cut)
			lost += layer->ops->power_cut(layer, now_ns);
	return lost;
}

/*
 * Factory bad blocks: the first layer from the top that places pages on
 * blocks takes them (ssd_layer_ops.mark_bad_blocks); -EINVAL if none does.
 */
int ssd_stack_mark_bad_blocks(struct ssd_device *dev, const u32 *blocks, u32 nr)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->mark_bad_blocks)
			return layer->ops->mark_bad_blocks(layer, blocks, nr);
	ssd_dev_err(dev->cfg.name, "bad_blocks refused: no layer of the stack places blocks");
	return -EINVAL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_device.c - the device front end: builds a device (timing model,
 * flash, the stack of layers) from a validated configuration, splits host
 * requests into flash pages (read-modify-write for partial pages) handed
 * to the top layer, and gathers every layer's counters into struct
 * ssd_stats.
 */
#include "ssd_device.h"
#include "ftl.h"

/* Top first: dedup and the NVM cache will sit above the FTL. */
const struct ssd_layer_type *const ssd_default_stack[] = {
	&ftl_layer_type,
};

const unsigned int ssd_default_stack_size = ARRAY_SIZE(ssd_default_stack);

static u32 log2_u32(u32 value)
{
	u32 shift = 0;

	while ((1U << shift) < value)
		shift++;
	return shift;
}

/* The latency of @type pages: the per-type key, or the common one if 0. */
static u64 typed(u64 per_type_ns, u64 common_ns)
{
	return per_type_ns ? per_type_ns : common_ns;
}

static void timing_params_from(const struct ssd_config *cfg, struct timing_params *p)
{
	u32 type;

	memset(p, 0, sizeof(*p));
	p->chips = cfg->chips;
	p->channels = cfg->channels;
	p->page_size_bytes = cfg->page_size_bytes;
	p->cmd_queue_depth = cfg->cmd_queue_depth;
	p->controller_ns = cfg->controller_ns;
	p->channel_mb_per_s = cfg->channel_mb_per_s;
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_LSB] = typed(cfg->read_lsb_ns, cfg->read_ns);
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_CSB] = typed(cfg->read_csb_ns, cfg->read_ns);
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_MSB] = typed(cfg->read_msb_ns, cfg->read_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_LSB] =
		typed(cfg->program_lsb_ns, cfg->program_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_CSB] =
		typed(cfg->program_csb_ns, cfg->program_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_MSB] =
		typed(cfg->program_msb_ns, cfg->program_ns);
	p->erase_ns[FLASH_MODE_TLC] = cfg->erase_ns;
	/* SLC pages are all alike. */
	for (type = 0; type < FLASH_PAGE_NR; type++) {
		p->read_ns[FLASH_MODE_SLC][type] = cfg->slc_read_ns;
		p->program_ns[FLASH_MODE_SLC][type] = cfg->slc_program_ns;
	}
	p->erase_ns[FLASH_MODE_SLC] = cfg->slc_erase_ns;
}

static bool layer_enabled(const struct ssd_layer_type *type, const struct ssd_config *cfg)
{
	return !type->enabled || type->enabled(cfg);
}

static int validate_stack(const struct ssd_config *cfg,
			  const struct ssd_layer_type *const *types, unsigned int nr_types)
{
	unsigned int i;
	int ret;

	ret = ssd_config_validate(cfg);
	for (i = 0; !ret && i < nr_types; i++)
		if (layer_enabled(types[i], cfg) && types[i]->validate)
			ret = types[i]->validate(cfg);
	return ret;
}

int ssd_device_validate_config(const struct ssd_config *cfg)
{
	return validate_stack(cfg, ssd_default_stack, ssd_default_stack_size);
}

static void destroy_layers(struct ssd_device *dev)
{
	while (dev->top) {
		struct ssd_layer *lower = dev->top->lower;

		dev->top->ops->destroy(dev->top);
		dev->top = lower;
	}
}

/* Build the enabled layers bottom up, so each is made over its lower one. */
static int create_layers(struct ssd_device *dev, const struct ssd_layer_type *const *types,
			 unsigned int nr_types)
{
	unsigned int i;

	for (i = nr_types; i-- > 0;) {
		struct ssd_layer *layer;
		int ret;

		if (!layer_enabled(types[i], &dev->cfg))
			continue;
		ret = types[i]->create(&dev->cfg, &dev->flash, dev->top, &layer);
		if (ret) {
			destroy_layers(dev);
			return ret;
		}
		layer->lower = dev->top;
		dev->top = layer;
	}
	return dev->top ? 0 : -EINVAL;
}

int ssd_device_create_stack(struct ssd_device **out, const struct ssd_config *cfg,
			    const struct ssd_layer_type *const *types,
			    unsigned int nr_types)
{
	struct timing_params tparams;
	struct flash_geometry geo;
	struct ssd_device *dev;
	int ret;

	ret = validate_stack(cfg, types, nr_types);
	if (ret)
		return ret;
	dev = ssd_zalloc(sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->cfg = *cfg;
	dev->page_bytes = cfg->page_size_bytes;
	dev->page_shift = log2_u32(dev->page_bytes);
	dev->capacity_bytes = ssd_config_logical_pages(cfg) << dev->page_shift;

	timing_params_from(cfg, &tparams);
	ret = timing_init(&dev->timing, &tparams);
	if (ret)
		goto free_dev;
	ret = request_log_init(&dev->log, cfg->request_log_entries);
	if (ret)
		goto exit_timing;

	geo.page_size_bytes = cfg->page_size_bytes;
	geo.pages_per_block = cfg->pages_per_block;
	geo.blocks_per_chip = cfg->blocks_per_chip;
	geo.chips = cfg->chips;
	geo.channels = cfg->channels;
	ret = flash_init(&dev->flash, &geo, &dev->timing);
	if (ret)
		goto exit_log;

	ret = create_layers(dev, types, nr_types);
	if (ret)
		goto exit_flash;

	ssd_lock_init(&dev->lock);
	*out = dev;
	return 0;

exit_flash:
	flash_exit(&dev->flash);
exit_log:
	request_log_exit(&dev->log);
exit_timing:
	timing_exit(&dev->timing);
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
	destroy_layers(dev);
	flash_exit(&dev->flash);
	request_log_exit(&dev->log);
	timing_exit(&dev->timing);
	ssd_lock_destroy(&dev->lock);
	ssd_free(dev);
}

/*
 * Write bytes [@off, @off + @len) of page @lpn, from the request (@data) or
 * zeros (@data NULL), from @start_ns on; *@done_ns is when it is on flash.
 * A partial page is merged with its current contents, read first.
 */
static int write_page(struct ssd_device *dev, u64 lpn, u32 off, u32 len,
		      struct ssd_data_iter *data, u64 start_ns, u64 *done_ns)
{
	void *buf = flash_buffer_get(&dev->flash);
	struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST };
	int ret;

	if (!buf)
		return -ENOMEM;
	if (len < dev->page_bytes) {
		const void *old;

		ret = dev->top->ops->read(dev->top, lpn, &io, &old);
		if (ret) {
			flash_buffer_put(&dev->flash, buf);
			return ret;
		}
		io.start_ns = io.done_ns;
		if (old) {
			memcpy(buf, old, dev->page_bytes);
			dev->host.rmw_pages++;
		} else {
			memset(buf, 0, dev->page_bytes);
		}
	}
	if (data)
		data->copy_in(data, (u8 *)buf + off, len);
	else
		memset((u8 *)buf + off, 0, len);
	io.region = SSD_REGION_MAIN;
	ret = dev->top->ops->write(dev->top, lpn, buf, &io);
	*done_ns = io.done_ns;
	if (!ret)
		dev->host.write_pages++;
	return ret;
}

/* One page of @req, its flash work starting at @start_ns, ending *@done_ns. */
static int do_page(struct ssd_device *dev, const struct ssd_request *req,
		   u64 lpn, u32 off, u32 len, u64 start_ns, u64 *done_ns)
{
	struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST };
	bool whole = len == dev->page_bytes;
	const void *old;
	int ret = 0;

	*done_ns = start_ns;
	switch (req->op) {
	case SSD_OP_READ:
		ret = dev->top->ops->read(dev->top, lpn, &io, &old);
		if (ret)
			return ret;
		req->data->copy_out(req->data, old ? (const u8 *)old + off : NULL, len);
		dev->host.read_pages++;
		*done_ns = io.done_ns;
		return 0;
	case SSD_OP_WRITE:
		return write_page(dev, lpn, off, len, req->data, start_ns, done_ns);
	case SSD_OP_WRITE_ZEROES:
		if (!whole)
			return write_page(dev, lpn, off, len, NULL, start_ns, done_ns);
		ret = dev->top->ops->trim(dev->top, lpn, &io);
		*done_ns = io.done_ns;
		return ret;
	case SSD_OP_TRIM:
		/* Discard is advisory: a partial page keeps its data. */
		if (whole) {
			ret = dev->top->ops->trim(dev->top, lpn, &io);
			*done_ns = io.done_ns;
		}
		return ret;
	default:
		return -EINVAL;
	}
}

static void count_request(struct ssd_device *dev, const struct ssd_request *req)
{
	switch (req->op) {
	case SSD_OP_READ:
		dev->host.read_bytes += req->length_bytes;
		break;
	case SSD_OP_WRITE:
		dev->host.write_bytes += req->length_bytes;
		break;
	case SSD_OP_TRIM:
	case SSD_OP_WRITE_ZEROES:
		dev->host.trim_bytes += req->length_bytes;
		break;
	case SSD_OP_FLUSH:
		dev->host.flush_count++;
		break;
	}
}

static u32 pages_spanned(const struct ssd_device *dev, u64 start, u64 end)
{
	if (end == start)
		return 0;
	return ((end - 1) >> dev->page_shift) - (start >> dev->page_shift) + 1;
}

int ssd_device_submit(struct ssd_device *dev, const struct ssd_request *req,
		      u64 *completion_ns)
{
	u64 pos = req->offset_bytes;
	u64 end = req->offset_bytes + req->length_bytes;
	struct ssd_log_entry entry;
	u64 arrival_ns, start_ns, done_ns;
	int ret = 0;

	if (req->op > SSD_OP_FLUSH ||
	    (req->op != SSD_OP_FLUSH && (end < pos || end > dev->capacity_bytes)))
		return -EINVAL;

	ssd_lock_take(&dev->lock);
	if ((req->op == SSD_OP_WRITE || req->op == SSD_OP_WRITE_ZEROES) &&
	    flash_reserve_buffers(&dev->flash, pages_spanned(dev, pos, end))) {
		ssd_lock_give(&dev->lock);
		return -EAGAIN;
	}
	arrival_ns = max_t(u64, req->arrival_ns, dev->last_arrival_ns);
	dev->last_arrival_ns = arrival_ns;
	start_ns = timing_command_start(&dev->timing, arrival_ns);
	done_ns = start_ns;
	if (req->op == SSD_OP_FLUSH) {
		struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST };

		ret = dev->top->ops->flush(dev->top, &io);
		done_ns = max_t(u64, done_ns, io.done_ns);
	} else {
		while (pos < end) {
			u64 lpn = pos >> dev->page_shift;
			u32 off = pos & (dev->page_bytes - 1);
			u32 len = min_t(u64, dev->page_bytes - off, end - pos);
			u64 page_done_ns;

			ret = do_page(dev, req, lpn, off, len, start_ns, &page_done_ns);
			if (ret)
				break;
			done_ns = max_t(u64, done_ns, page_done_ns);
			pos += len;
		}
	}
	timing_command_done(&dev->timing, arrival_ns, done_ns);
	if (!ret)
		count_request(dev, req);
	dev->virtual_time_ns = max_t(u64, dev->virtual_time_ns, done_ns);

	entry.arrival_ns = arrival_ns;
	entry.completion_ns = done_ns;
	entry.offset_bytes = req->offset_bytes;
	entry.length_bytes = req->length_bytes;
	entry.op = req->op;
	request_log_add(&dev->log, &entry);
	*completion_ns = done_ns;
	ssd_lock_give(&dev->lock);
	return ret;
}

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
	const struct flash *fl = &dev->flash;

	memset(st, 0, sizeof(*st));
	ssd_lock_take(&dev->lock);
	st->logical_capacity_bytes = dev->capacity_bytes;
	st->physical_capacity_bytes = fl->total_pages * dev->page_bytes;
	st->page_size_bytes = dev->page_bytes;
	st->pages_per_block = fl->geo.pages_per_block;
	st->total_blocks = fl->total_blocks;

	st->host_read_bytes = dev->host.read_bytes;
	st->host_write_bytes = dev->host.write_bytes;
	st->host_trim_bytes = dev->host.trim_bytes;
	st->host_read_pages = dev->host.read_pages;
	st->host_write_pages = dev->host.write_pages;
	st->host_rmw_pages = dev->host.rmw_pages;
	st->host_flush_count = dev->host.flush_count;

	st->flash_program_host_pages = fl->program_pages[FLASH_CAUSE_HOST];
	st->flash_program_gc_pages = fl->program_pages[FLASH_CAUSE_GC];
	st->flash_program_pages = st->flash_program_host_pages +
				  st->flash_program_gc_pages;
	st->flash_read_host_pages = fl->read_pages[FLASH_CAUSE_HOST];
	st->flash_read_gc_pages = fl->read_pages[FLASH_CAUSE_GC];
	st->flash_read_pages = st->flash_read_host_pages + st->flash_read_gc_pages;
	st->flash_erase_blocks = fl->erase_blocks;
	st->flash_metadata_bytes = flash_metadata_bytes(fl);
	st->data_bytes = flash_data_bytes(fl);
	st->spare_buffer_bytes = flash_spare_bytes(fl);
	st->virtual_time_ns = dev->virtual_time_ns;

	st->commands = dev->timing.counters.commands;
	st->command_latency_ns_total = dev->timing.counters.latency_ns;
	st->queue_wait_ns_total = dev->timing.counters.queue_wait_ns;
	st->controller_busy_ns = dev->timing.counters.controller_busy_ns;
	st->channel_busy_ns_total = dev->timing.counters.channel_busy_ns;
	st->chip_busy_ns_total = dev->timing.counters.chip_busy_ns;

	gather_stats(dev->top, st);
	ssd_lock_give(&dev->lock);
}

void ssd_device_reset_stats(struct ssd_device *dev)
{
	struct flash *fl = &dev->flash;
	struct ssd_layer *layer;

	ssd_lock_take(&dev->lock);
	memset(&dev->host, 0, sizeof(dev->host));
	flash_reset_counters(fl);
	memset(&dev->timing.counters, 0, sizeof(dev->timing.counters));
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
	n = request_log_take(&dev->log, out, max);
	*dropped = dev->log.dropped;
	ssd_lock_give(&dev->lock);
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_device.c - the device front end: checks that a configuration fits
 * its memory limit, builds a device (timing model, flash, the stack of
 * layers) from it, splits host requests into flash pages (read-modify-write
 * for partial pages) handed to the top layer, refuses writes the data
 * store has no room for, and gathers every layer's counters into struct
 * ssd_stats.
 */
#include "ssd_device.h"
#include "ftl.h"
#include "nvmcache.h"
#include "dedup.h"

/*
 * Top first: dedup (dedup=1), then the NVM cache (cache_policy), then the
 * FTL.  The cache sees dedup's chunk ids: a duplicate write reaches neither.
 */
const struct ssd_layer_type *const ssd_default_stack[] = {
	&dedup_layer_type,
	&nvmcache_layer_type,
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
	p->read_priority = cfg->read_priority;
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

static void geometry_from(const struct ssd_config *cfg, struct flash_geometry *geo)
{
	geo->page_size_bytes = cfg->page_size_bytes;
	geo->pages_per_block = cfg->pages_per_block;
	geo->blocks_per_chip = cfg->blocks_per_chip;
	geo->chips = cfg->chips;
	geo->channels = cfg->channels;
}

static u64 add_bytes(u64 a, u64 b)
{
	if (a == SSD_TABLE_TOO_BIG || b == SSD_TABLE_TOO_BIG)
		return SSD_TABLE_TOO_BIG;
	return a + b;
}

static u64 mib_up(u64 bytes)
{
	return (bytes + (1ULL << 20) - 1) >> 20;
}

/* What a device of @cfg needs besides page data, and how much data it may hold. */
struct memory_plan {
	u64 limit_bytes;
	u64 metadata_bytes;
	u64 pool_bytes;			/* FLASH_SPARE_BUFFERS page buffers */
	u64 data_pages;
};

/*
 * Work out the plan from the configuration alone, before anything is
 * allocated: the device itself, the controller's and the timing model's
 * arrays (as controller_init() and timing_init() make them; a channel's
 * booking list may grow later, up to TIMING_MAX_INTERVALS),
 * the request log, the flash page table and each enabled layer's tables.
 * -EINVAL (logged) if one table is larger than one allocation may be, or
 * if metadata and the buffer pool leave no room for data in the limit.
 */
static int plan_memory(const struct ssd_config *cfg,
		       const struct ssd_layer_type *const *types, unsigned int nr_types,
		       struct memory_plan *plan)
{
	const char *owner = "device";
	struct flash_geometry geo;
	unsigned int i;
	u64 bytes;

	bytes = ssd_tables_add(0, 1, 1, sizeof(struct ssd_device));
	bytes = controller_table_bytes(bytes, cfg->cmd_queue_depth);
	bytes = timing_table_bytes(bytes, cfg->chips, cfg->channels);
	bytes = ssd_tables_add(bytes, 1, cfg->request_log_entries,
			       sizeof(struct ssd_log_entry));
	if (bytes != SSD_TABLE_TOO_BIG) {
		owner = "flash";
		geometry_from(cfg, &geo);
		bytes = add_bytes(bytes, flash_table_bytes(&geo));
	}
	for (i = 0; i < nr_types && bytes != SSD_TABLE_TOO_BIG; i++) {
		if (!layer_enabled(types[i], cfg) || !types[i]->metadata_bytes)
			continue;
		owner = types[i]->name;
		bytes = add_bytes(bytes, types[i]->metadata_bytes(cfg));
	}
	if (bytes == SSD_TABLE_TOO_BIG) {
		ssd_log_err("geometry refused: a table of the %s would be over %llu MiB, more than one allocation may hold (chips=%llu blocks_per_chip=%llu pages_per_block=%llu)",
			    owner, (unsigned long long)(SSD_MAX_TABLE_BYTES >> 20),
			    (unsigned long long)cfg->chips,
			    (unsigned long long)cfg->blocks_per_chip,
			    (unsigned long long)cfg->pages_per_block);
		return -EINVAL;
	}

	plan->metadata_bytes = bytes;
	plan->pool_bytes = FLASH_SPARE_BUFFERS * cfg->page_size_bytes;
	plan->limit_bytes = cfg->memory_limit_mb ? cfg->memory_limit_mb << 20 :
			    ssd_total_ram_bytes() / 2;
	if (bytes + plan->pool_bytes + cfg->page_size_bytes > plan->limit_bytes) {
		ssd_log_err("memory_limit_mb=%llu%s: metadata needs %llu MiB and page buffers %llu MiB, leaving no room for data in %llu MiB (raise memory_limit_mb, up to %llu, or use fewer chips, blocks_per_chip or pages_per_block)",
			    (unsigned long long)cfg->memory_limit_mb,
			    cfg->memory_limit_mb ? "" : " (half of the RAM)",
			    (unsigned long long)mib_up(bytes),
			    (unsigned long long)mib_up(plan->pool_bytes),
			    (unsigned long long)(plan->limit_bytes >> 20),
			    (unsigned long long)SSD_MAX_MEMORY_LIMIT_MB);
		return -EINVAL;
	}
	plan->data_pages = div64_u64(plan->limit_bytes - bytes - plan->pool_bytes,
				     cfg->page_size_bytes);
	return 0;
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
	struct memory_plan plan;
	struct ssd_device *dev;
	int ret;

	ret = validate_stack(cfg, types, nr_types);
	if (!ret)
		ret = plan_memory(cfg, types, nr_types, &plan);
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

	ret = controller_init(&dev->controller, cfg->cmd_queue_depth, cfg->controller_ns);
	if (ret)
		goto free_dev;
	timing_params_from(cfg, &tparams);
	ret = timing_init(&dev->timing, &tparams);
	if (ret)
		goto exit_controller;
	ret = request_log_init(&dev->log, cfg->request_log_entries);
	if (ret)
		goto exit_timing;

	geometry_from(cfg, &geo);
	ret = flash_init(&dev->flash, &geo, &dev->timing);
	if (ret)
		goto exit_log;
	flash_set_data_limit(&dev->flash, plan.data_pages);

	ret = create_layers(dev, types, nr_types);
	if (ret)
		goto exit_flash;

	ssd_lock_init(&dev->request_lock);
	ssd_lock_init(&dev->lock);
	*out = dev;
	return 0;

exit_flash:
	flash_exit(&dev->flash);
exit_log:
	request_log_exit(&dev->log);
exit_timing:
	timing_exit(&dev->timing);
exit_controller:
	controller_exit(&dev->controller);
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
	controller_exit(&dev->controller);
	ssd_lock_destroy(&dev->lock);
	ssd_lock_destroy(&dev->request_lock);
	ssd_free(dev);
}

/*
 * Write bytes [@off, @off + @len) of page @lpn, from the request (@data) or
 * zeros (@data NULL), from @start_ns on; *@done_ns is when it is on flash.
 * A partial page is merged with its current contents, read first.
 */
static int write_page(struct ssd_device *dev, const struct ssd_request *req, u64 lpn,
		      u32 off, u32 len, struct ssd_data_iter *data, u64 start_ns,
		      u64 *done_ns)
{
	void *buf = flash_buffer_get(&dev->flash);
	struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST,
			     .request_seq = dev->request_seq,
			     .request_bytes = req->length_bytes };
	int ret;

	if (!buf)
		return -ENOMEM;
	if (len < dev->page_bytes) {
		const void *old;

		io.merge = true;
		ret = dev->top->ops->read(dev->top, lpn, &io, &old);
		io.merge = false;
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
	struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST,
			     .request_seq = dev->request_seq,
			     .request_bytes = req->length_bytes };
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
		return write_page(dev, req, lpn, off, len, req->data, start_ns, done_ns);
	case SSD_OP_WRITE_ZEROES:
		if (!whole)
			return write_page(dev, req, lpn, off, len, NULL, start_ns, done_ns);
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

/*
 * The pages @req writes, which need a page buffer each: every page of a
 * WRITE, the partial first and last pages of a WRITE_ZEROES (its whole
 * pages are unmapped).  *@lpns gets up to two of them for a WRITE_ZEROES,
 * the first one for a WRITE (the others follow it).
 */
static u64 written_pages(const struct ssd_device *dev, const struct ssd_request *req,
			 u64 lpns[2])
{
	u64 end = req->offset_bytes + req->length_bytes;
	u64 mask = dev->page_bytes - 1;
	u64 first = req->offset_bytes >> dev->page_shift;
	u64 last = (end - 1) >> dev->page_shift;
	u64 nr = 0;

	if (!req->length_bytes)
		return 0;
	lpns[0] = first;
	if (req->op == SSD_OP_WRITE)
		return last - first + 1;
	if (req->op != SSD_OP_WRITE_ZEROES)
		return 0;
	if ((req->offset_bytes & mask) || (first == last && (end & mask)))
		lpns[nr++] = first;
	if ((end & mask) && last != first)
		lpns[nr++] = last;
	return nr;
}

/*
 * Whether the data of @lpn is stored already, so that writing it takes no
 * new page: the first layer from the top that answers (ssd_layer_ops.holds)
 * says; the FTL keeps one page per mapped lpn, the dedup layer one per
 * unshared chunk.  If no layer answers, every page written counts as new.
 */
static bool lpn_stored(struct ssd_device *dev, u64 lpn)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->holds)
			return layer->ops->holds(layer, lpn);
	return false;
}

/* Pages the layers hold outside the data store that may need one later. */
static u64 pending_pages(struct ssd_device *dev)
{
	struct ssd_layer *layer;
	u64 pages = 0;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->pending_pages)
			pages += layer->ops->pending_pages(layer);
	return pages;
}

/*
 * Before @req changes anything: -ENOSPC if the pages it writes that hold
 * no data yet do not fit in the data store beside the pages layers hold
 * back (a write buffer) that may need one later, -ENOMEM if the page buffers
 * it needs cannot be had.  (Whole pages a WRITE_ZEROES unmaps are not
 * counted as room: the check stays simple and errs on the safe side.)
 */
static int prepare_request(struct ssd_device *dev, const struct ssd_request *req)
{
	u64 lpns[2], nr, new_pages = 0, pending, i;

	nr = written_pages(dev, req, lpns);
	if (!nr)
		return 0;
	pending = pending_pages(dev);
	if (!flash_has_room(&dev->flash, pending + nr)) {
		for (i = 0; i < nr; i++) {
			u64 lpn = req->op == SSD_OP_WRITE ? lpns[0] + i : lpns[i];

			if (!lpn_stored(dev, lpn))
				new_pages++;
		}
		if (!flash_has_room(&dev->flash, pending + new_pages))
			return -ENOSPC;
	}
	return flash_reserve_buffers(&dev->flash, min_t(u64, nr, U32_MAX));
}

/* Background work of each layer that has any, top to bottom (ssd_layer_ops.idle). */
static void layers_idle(struct ssd_device *dev, u64 now_ns)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (layer->ops->idle)
			layer->ops->idle(layer, now_ns);
}

/* Let statistics, checks and the scheduler in; no other request. */
static void break_lock(struct ssd_device *dev)
{
	ssd_lock_give(&dev->lock);
	ssd_cond_resched();
	ssd_lock_take(&dev->lock);
	dev->lock_breaks++;
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

	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	ret = prepare_request(dev, req);
	if (ret)
		goto unlock;
	dev->request_seq++;
	arrival_ns = max_t(u64, req->arrival_ns, dev->last_arrival_ns);
	dev->last_arrival_ns = arrival_ns;
	start_ns = controller_command_start(&dev->controller, arrival_ns);
	timing_set_horizon(&dev->timing, start_ns);
	layers_idle(dev, start_ns);
	done_ns = start_ns;
	if (req->op == SSD_OP_FLUSH) {
		struct ssd_io io = { .start_ns = start_ns, .cause = FLASH_CAUSE_HOST };

		ret = dev->top->ops->flush(dev->top, &io);
		done_ns = max_t(u64, done_ns, io.done_ns);
	} else {
		u32 pages = 0;

		while (pos < end) {
			u64 lpn = pos >> dev->page_shift;
			u32 off = pos & (dev->page_bytes - 1);
			u32 len = min_t(u64, dev->page_bytes - off, end - pos);
			u64 page_done_ns;

			/*
			 * Every page starts from start_ns and the request
			 * lock keeps other requests out of the model, so a
			 * break changes no time.
			 */
			if (++pages > dev->resched_pages) {
				break_lock(dev);
				pages = 1;
			}
			ret = do_page(dev, req, lpn, off, len, start_ns, &page_done_ns);
			if (ret)
				break;
			done_ns = max_t(u64, done_ns, page_done_ns);
			pos += len;
		}
	}
	controller_command_done(&dev->controller, arrival_ns, done_ns,
				req->op == SSD_OP_READ ? CONTROLLER_OP_READ :
				req->op == SSD_OP_WRITE ? CONTROLLER_OP_WRITE :
				CONTROLLER_OP_OTHER);
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
unlock:
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
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
	st->flash_program_destage_pages = fl->program_pages[FLASH_CAUSE_DESTAGE];
	st->flash_program_pages = st->flash_program_host_pages +
				  st->flash_program_gc_pages +
				  st->flash_program_destage_pages;
	st->flash_read_host_pages = fl->read_pages[FLASH_CAUSE_HOST];
	st->flash_read_gc_pages = fl->read_pages[FLASH_CAUSE_GC];
	st->flash_read_destage_pages = fl->read_pages[FLASH_CAUSE_DESTAGE];
	st->flash_read_pages = st->flash_read_host_pages + st->flash_read_gc_pages +
			       st->flash_read_destage_pages;
	st->flash_erase_blocks = fl->erase_blocks;
	st->flash_program_tlc_pages = st->flash_program_pages - fl->slc_program_pages;
	st->flash_erase_tlc_blocks = fl->erase_blocks - fl->slc_erase_blocks;
	st->flash_metadata_bytes = flash_metadata_bytes(fl);
	st->data_bytes = flash_data_bytes(fl);
	st->spare_buffer_bytes = flash_spare_bytes(fl);
	/* The FTL never holds more pages than the logical space. */
	st->data_limit_bytes = min_t(u64, fl->max_data_pages,
				     dev->capacity_bytes >> dev->page_shift) * dev->page_bytes;
	st->virtual_time_ns = dev->virtual_time_ns;

	st->commands = dev->controller.counters.commands;
	st->command_latency_ns_total = dev->controller.counters.latency_ns;
	st->queue_wait_ns_total = dev->controller.counters.queue_wait_ns;
	st->controller_busy_ns = dev->controller.counters.controller_busy_ns;
	st->read_commands = dev->controller.counters.read_commands;
	st->read_latency_ns_total = dev->controller.counters.read_latency_ns;
	st->write_commands = dev->controller.counters.write_commands;
	st->write_latency_ns_total = dev->controller.counters.write_latency_ns;
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
	memset(&dev->controller.counters, 0, sizeof(dev->controller.counters));
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

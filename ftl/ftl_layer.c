// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_layer.c - the FTL as the bottom layer of the request path
 * (common/ssd_layer.h): the checks of the keys the FTL owns, its
 * parameters taken from the configuration, and the page operations and
 * statistics mapped onto ftl.h.
 */
#include "ftl.h"

struct ftl_layer {
	struct ssd_layer layer;
	struct ftl ftl;
};

static struct ftl *to_ftl(struct ssd_layer *layer)
{
	return &((struct ftl_layer *)layer)->ftl;
}

u64 ftl_config_gc_low_free_blocks(const struct ssd_config *cfg)
{
	if (cfg->gc_low_free_blocks)
		return cfg->gc_low_free_blocks;
	return cfg->chips + FTL_GC_RESERVED_BLOCKS;
}

static int ftl_config_validate(const struct ssd_config *cfg)
{
	u64 total_blocks = cfg->chips * cfg->blocks_per_chip;
	u64 low = ftl_config_gc_low_free_blocks(cfg);
	u64 usable_blocks;

	if (low <= FTL_GC_RESERVED_BLOCKS || low >= total_blocks / 2) {
		ssd_log_err("gc_low_free_blocks=%llu refused: accepted range is %u..%llu",
			    (unsigned long long)low, FTL_GC_RESERVED_BLOCKS + 1,
			    (unsigned long long)(total_blocks / 2 - 1));
		return -EINVAL;
	}
	/*
	 * GC always finds a victim with an invalid page only if the valid data
	 * fits in the blocks that are neither free (below the watermark) nor
	 * open (one host block per chip plus one GC block).
	 */
	usable_blocks = total_blocks - low - cfg->chips - 1;
	if (total_blocks <= low + cfg->chips + 1 ||
	    ssd_config_logical_pages(cfg) >= usable_blocks * cfg->pages_per_block) {
		ssd_log_err("op_percent=%llu refused: too little spare space for GC with %llu blocks (raise op_percent or blocks_per_chip)",
			    (unsigned long long)cfg->op_percent,
			    (unsigned long long)total_blocks);
		return -EINVAL;
	}
	return 0;
}

/* The tables ftl_layer_create() and ftl_init() allocate for @cfg. */
static u64 ftl_config_metadata_bytes(const struct ssd_config *cfg)
{
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct ftl_layer));

	bytes = ssd_tables_add(bytes, 1, ssd_config_logical_pages(cfg), sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, ssd_config_physical_pages(cfg), sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, cfg->chips * cfg->blocks_per_chip,
			       sizeof(struct ftl_block));
	bytes = ssd_tables_add(bytes, 1, cfg->chips, sizeof(struct ftl_chip));
	bytes = ssd_tables_add(bytes, 1, cfg->pages_per_block + 1, sizeof(u32));
	/* One free-block heap per chip. */
	return ssd_tables_add(bytes, cfg->chips, cfg->blocks_per_chip, sizeof(u32));
}

static int ftl_layer_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
			  const void **data)
{
	*data = ftl_read(to_ftl(layer), lpn, io->cause, io->start_ns, &io->done_ns);
	return 0;
}

static int ftl_layer_write(struct ssd_layer *layer, u64 lpn, void *buf,
			   struct ssd_io *io)
{
	return ftl_write(to_ftl(layer), lpn, buf, io->start_ns, &io->done_ns);
}

static int ftl_layer_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	ftl_trim(to_ftl(layer), lpn);
	io->done_ns = io->start_ns;
	return 0;
}

/* Every program is durable when it ends: nothing is held back. */
static int ftl_layer_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	io->done_ns = io->start_ns;
	return 0;
}

static void ftl_layer_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	const struct ftl *ftl = to_ftl(layer);
	u64 erase_min, erase_max, erase_total;

	st->free_blocks = ftl->nr_free_blocks;
	st->valid_pages = ftl->valid_pages;
	st->host_trim_pages = ftl->counters.host_trim_pages;
	ftl_erase_stats(ftl, &erase_min, &erase_max, &erase_total);
	st->erase_count_total = erase_total;
	st->erase_count_min = erase_min;
	st->erase_count_max = erase_max;
	st->erase_count_mean_milli = div_u64(erase_total * 1000, ftl->total_blocks);
	st->gc_victim_blocks = ftl->counters.gc_victim_blocks;
	st->gc_relocated_pages = ftl->counters.gc_relocated_pages;
	st->gc_foreground_runs = ftl->counters.gc_foreground_runs;
	st->ftl_metadata_bytes = ftl_metadata_bytes(ftl);
}

static void ftl_layer_reset_stats(struct ssd_layer *layer)
{
	memset(&to_ftl(layer)->counters, 0, sizeof(to_ftl(layer)->counters));
}

static int ftl_layer_check(struct ssd_layer *layer)
{
	return ftl_check(to_ftl(layer));
}

static void ftl_layer_destroy(struct ssd_layer *layer)
{
	ftl_exit(to_ftl(layer));
	ssd_free(layer);
}

static const struct ssd_layer_ops ftl_layer_ops = {
	.read = ftl_layer_read,
	.write = ftl_layer_write,
	.trim = ftl_layer_trim,
	.flush = ftl_layer_flush,
	.get_stats = ftl_layer_get_stats,
	.reset_stats = ftl_layer_reset_stats,
	.check = ftl_layer_check,
	.destroy = ftl_layer_destroy,
};

static int ftl_layer_create(const struct ssd_config *cfg, struct flash *flash,
			    struct ssd_layer *lower, struct ssd_layer **out)
{
	struct ftl_layer *fl = ssd_zalloc(sizeof(*fl));
	struct ftl_params params;
	int ret;

	if (!fl)
		return -ENOMEM;
	params.logical_pages = ssd_config_logical_pages(cfg);
	params.gc_low_free_blocks = ftl_config_gc_low_free_blocks(cfg);
	params.gc_policy = cfg->gc_policy == SSD_GC_COST_BENEFIT ?
			   &ftl_gc_cost_benefit : &ftl_gc_greedy;
	ret = ftl_init(&fl->ftl, flash, &params);
	if (ret) {
		ssd_free(fl);
		return ret;
	}
	fl->layer.ops = &ftl_layer_ops;
	fl->layer.name = "ftl";
	fl->layer.lower = NULL;
	*out = &fl->layer;
	return 0;
}

struct ftl *ftl_from_layer(struct ssd_layer *layer)
{
	return layer && layer->ops == &ftl_layer_ops ? to_ftl(layer) : NULL;
}

const struct ssd_layer_type ftl_layer_type = {
	.name = "ftl",
	.validate = ftl_config_validate,
	.metadata_bytes = ftl_config_metadata_bytes,
	.create = ftl_layer_create,
};

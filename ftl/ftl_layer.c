// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_layer.c - the FTL as the bottom layer of the request path
 * (common/ssd_layer.h): the checks of the keys the FTL owns (and, through
 * its ops, those its mapping scheme owns), its parameters taken from the
 * configuration, and the page operations and statistics mapped onto
 * ftl_internal.h.
 */
#include "ftl/ftl_internal.h"

struct ftl_layer {
	struct ssd_layer layer;
	struct ftl ftl;
};

static struct ftl *to_ftl(struct ssd_layer *layer)
{
	return &((struct ftl_layer *)layer)->ftl;
}

static void log_spare_refusal(const struct ssd_config *cfg, const char *key, u64 value,
			      const char *region, u64 blocks)
{
	ssd_dev_err(cfg->name, "%s=%llu refused: too little spare space for GC in the %s region of %llu blocks (raise op_percent or blocks_per_chip, or lower slc_blocks_per_chip)",
		    key, (unsigned long long)value, region, (unsigned long long)blocks);
}

/*
 * GC must always find a victim with an invalid page when it looks for one:
 * ssd_region_valid_max() is the most valid data a region may hold for that,
 * given its low watermark and its open blocks (one host and one GC block
 * per chip).  The main region holds at most the logical space; the cache
 * region, whatever the layer above puts there, up to its own valid_max
 * (ssd_ftl_write() refuses more), which must leave it room for something.  The
 * watermark stays above the hard floor (FTL_GC_RESERVED_BLOCKS), so bounded
 * steps get to run before the floor is reached.  Background GC's high
 * watermark lies above the low one and below half of every region's blocks.
 */
static int ftl_config_validate(const struct ssd_config *cfg)
{
	const struct ftl_scheme *scheme = ssd_ftl_scheme_of(cfg->ftl_type);
	u64 main_blocks = cfg->chips * (cfg->blocks_per_chip - cfg->slc_blocks_per_chip);
	u64 cache_blocks = cfg->chips * cfg->slc_blocks_per_chip;
	u64 low = ssd_config_gc_low_free_blocks(cfg);

	if (low <= FTL_GC_RESERVED_BLOCKS || low >= main_blocks / 2) {
		ssd_dev_err(cfg->name, "gc_low_free_blocks=%llu refused: accepted range is %u..%llu",
			    (unsigned long long)low, FTL_GC_RESERVED_BLOCKS + 1,
			    (unsigned long long)(main_blocks / 2 - 1));
		return -EINVAL;
	}
	if (cfg->gc_background_free_blocks) {
		u64 half = cache_blocks ? min_t(u64, main_blocks, cache_blocks) / 2 :
			   main_blocks / 2;

		if (cfg->gc_background_free_blocks <= low ||
		    cfg->gc_background_free_blocks >= half) {
			ssd_dev_err(cfg->name, "gc_background_free_blocks=%llu refused: accepted range is 0 (off) or %llu..%llu (above the low watermark, below half a region's blocks)",
				    (unsigned long long)cfg->gc_background_free_blocks,
				    (unsigned long long)(low + 1),
				    (unsigned long long)(half - 1));
			return -EINVAL;
		}
	}
	if (!scheme->block_mapped && ssd_config_logical_pages(cfg) >
	    ssd_region_valid_max(main_blocks, low, cfg->chips, cfg->pages_per_block)) {
		log_spare_refusal(cfg, "op_percent", cfg->op_percent, "TLC", main_blocks);
		return -EINVAL;
	}
	if (cache_blocks &&
	    !ssd_region_valid_max(cache_blocks, low, cfg->chips, cfg->pages_per_block / 3)) {
		log_spare_refusal(cfg, "slc_blocks_per_chip", cfg->slc_blocks_per_chip, "SLC",
				  cache_blocks);
		return -EINVAL;
	}
	if (scheme != &ssd_ftl_scheme_page && (cfg->bad_block_ppm || cfg->grown_bad_ppm)) {
		ssd_dev_err(cfg->name, "%s=%llu refused with ftl_type=%s: bad blocks and wear-out need ftl_type=page",
			    cfg->bad_block_ppm ? "bad_block_ppm" : "grown_bad_ppm",
			    (unsigned long long)(cfg->bad_block_ppm ? cfg->bad_block_ppm :
						 cfg->grown_bad_ppm), scheme->name);
		return -EINVAL;
	}
	/*
	 * A write cache, a dedup buffer or a volatile write cache above would
	 * hold acknowledged pages the end of life refuses.
	 */
	if ((cfg->bad_block_ppm || cfg->grown_bad_ppm) &&
	    (cfg->cache_policy || cfg->dedup || cfg->volatile_write_cache)) {
		ssd_dev_err(cfg->name, "%s refused with %s: bad blocks and wear-out need cache_policy=none, dedup=0 and volatile_write_cache=0",
			    cfg->bad_block_ppm ? "bad_block_ppm" : "grown_bad_ppm",
			    cfg->cache_policy ? "a cache_policy" :
			    cfg->dedup ? "dedup=1" : "volatile_write_cache=1");
		return -EINVAL;
	}
	return scheme->validate ? scheme->validate(cfg) : 0;
}

/* The tables ftl_layer_create() and ssd_ftl_init() allocate for @cfg. */
static u64 ftl_config_metadata_bytes(const struct ssd_config *cfg)
{
	const struct ftl_scheme *scheme;
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct ftl_layer));

	bytes = ssd_tables_add(bytes, 1, ssd_config_logical_pages(cfg), sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, ssd_config_physical_pages(cfg), sizeof(u32));
	bytes = ssd_tables_add(bytes, 1, cfg->chips * cfg->blocks_per_chip,
			       sizeof(struct ftl_block));
	bytes = ssd_tables_add(bytes, 1, cfg->chips, sizeof(struct ftl_chip));
	bytes = ssd_tables_add(bytes, 1, cfg->pages_per_block + 1, sizeof(u32));
	/* The SLC region's own chip states and buckets (a third of the pages). */
	if (cfg->slc_blocks_per_chip) {
		bytes = ssd_tables_add(bytes, 1, cfg->chips, sizeof(struct ftl_chip));
		bytes = ssd_tables_add(bytes, 1, cfg->pages_per_block / 3 + 1, sizeof(u32));
	}
	/* One free-block heap per chip. */
	bytes = ssd_tables_add(bytes, cfg->chips, cfg->blocks_per_chip, sizeof(u32));
	scheme = ssd_ftl_scheme_of(cfg->ftl_type);
	return scheme->metadata_bytes ? scheme->metadata_bytes(bytes, cfg) : bytes;
}

/* A block-mapped scheme maps its main region a logical block at a time. */
static u32 ftl_map_unit_pages(const struct ssd_config *cfg)
{
	return ssd_ftl_scheme_of(cfg->ftl_type)->block_mapped ? cfg->pages_per_block : 1;
}

static int ftl_layer_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
			  const void **data)
{
	struct ftl *ftl = to_ftl(layer);
	int status;

	if (io->merge && !ftl_is_mapped(ftl, lpn)) {
		*data = NULL;
		io->done_ns = io->start_ns;
		return 0;
	}

	*data = ssd_ftl_read(ftl, lpn, io->cause, io->start_ns, &io->done_ns, &status);
	/*
	 * An uncorrectable page fails a host read (and a partial write's
	 * merge read); the FTL's own moves (GC, destage, fill) keep the data
	 * and go on: the flash counted the page (read_uncorrectable_pages).
	 */
	return io->cause == SSD_CAUSE_HOST ? status : 0;
}

static int ftl_layer_write(struct ssd_layer *layer, u64 lpn, void *buf,
			   struct ssd_io *io)
{
	return ssd_ftl_write(to_ftl(layer), lpn, buf, io->region, io->cause, io->start_ns,
			 &io->done_ns);
}

static int ftl_layer_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	ssd_ftl_trim(to_ftl(layer), lpn, io->start_ns);
	io->done_ns = io->start_ns;
	return 0;
}

/* Every program is durable when it ends: nothing is held back. */
static int ftl_layer_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	io->done_ns = io->start_ns;
	return 0;
}

/* One page per mapped lpn: rewriting it frees the old one. */
static bool ftl_layer_holds(struct ssd_layer *layer, u64 lpn)
{
	return ftl_is_mapped(to_ftl(layer), lpn);
}

/*
 * The later of the chip holding @lpn and the chip the next page of @region
 * goes to is free then (ssd_layer_ops.chips_free_ns).
 */
static u64 ftl_layer_chips_free_ns(struct ssd_layer *layer, u64 lpn, enum ssd_region region)
{
	struct ftl *ftl = to_ftl(layer);
	u64 free_ns = 0;
	u32 chip;

	if (lpn < ftl->logical_pages && ftl_is_mapped(ftl, lpn))
		free_ns = ssd_flash_chip_free_ns(ftl->flash,
						 ftl_chip_of(ftl, ftl->l2p[lpn] / ftl->pages_per_block));
	if (region == SSD_REGION_MAIN && ftl->scheme->write_chip) {
		chip = ftl->scheme->write_chip(ftl, lpn);
		if (chip != FTL_NONE)
			free_ns = max_t(u64, free_ns, ssd_flash_chip_free_ns(ftl->flash, chip));
	} else if (region < SSD_REGION_NR && ftl->region[region].nr_blocks) {
		chip = ssd_ftl_next_host_chip(ftl, &ftl->region[region]);
		if (chip != FTL_NONE)
			free_ns = max_t(u64, free_ns, ssd_flash_chip_free_ns(ftl->flash, chip));
	}
	return free_ns;
}

static enum ssd_region ftl_layer_peek(struct ssd_layer *layer, u64 lpn, const void **data)
{
	const struct ftl *ftl = to_ftl(layer);
	u32 ppa;

	if (lpn >= ftl->logical_pages || !ftl_is_mapped(ftl, lpn))
		return SSD_REGION_NR;
	ppa = ftl->l2p[lpn];
	if (data)
		*data = flash_page_data(ftl->flash, ppa);
	return ftl->blocks[ppa / ftl->pages_per_block].region;
}

static void ftl_layer_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	const struct ftl *ftl = to_ftl(layer);
	const struct ftl_region *cache = &ftl->region[SSD_REGION_CACHE];
	const struct flash *fl = ftl->flash;
	u64 erase_min, erase_max, erase_total;
	u64 hist[SSD_ERASE_HIST_BUCKETS];

	/* SLC blocks hold a third of the pages. */
	st->physical_capacity_bytes = ((u64)ftl->region[SSD_REGION_MAIN].nr_blocks *
				       ftl->region[SSD_REGION_MAIN].pages_per_block +
				       (u64)cache->nr_blocks * cache->pages_per_block) *
				      fl->geo.page_size_bytes;
	st->free_blocks = ftl_nr_free_blocks(ftl);
	st->valid_pages = ftl->region[SSD_REGION_MAIN].valid_pages + cache->valid_pages;
	st->host_trim_pages = ftl->counters.host_trim_pages;
	ssd_ftl_erase_stats(ftl, &erase_min, &erase_max, &erase_total);
	st->erase_count_total = erase_total;
	st->erase_count_min = erase_min;
	st->erase_count_max = erase_max;
	st->erase_count_mean_milli = div_u64(erase_total * 1000, ftl->total_blocks);
	st->gc_victim_blocks = ftl->counters.gc_victim_blocks;
	st->gc_relocated_pages = ftl->counters.gc_relocated_pages;
	st->gc_foreground_runs = ftl->counters.gc_foreground_runs;
	st->ftl_metadata_bytes = ssd_ftl_metadata_bytes(ftl);
	st->ftl_map_ram_bytes = ftl->scheme->map_ram_bytes(ftl);

	ssd_ftl_region_erase_stats(ftl, SSD_REGION_CACHE, &erase_max, &erase_total);
	st->slc_erase_count_total = erase_total;
	st->slc_erase_count_max = erase_max;
	st->slc_free_blocks = cache->nr_free;
	st->slc_valid_pages = cache->valid_pages;
	st->gc_blocking_runs = ftl->counters.gc_blocking_runs;
	st->gc_relocated_pages_write_max = ftl->counters.gc_write_pages_max;
	st->gc_background_pages = ftl->counters.gc_background_pages;
	st->gc_background_steps = ftl->counters.gc_background_steps;
	st->erase_count_stddev_milli = ssd_ftl_erase_stddev_milli(ftl);
	st->wl_static_migrations = ftl->wear.wl_static_migrations;
	st->wl_static_pages = ftl->wear.wl_static_pages;
	st->bad_blocks_factory = ftl->faults.bad_factory;
	st->bad_blocks_grown = ftl->faults.bad_grown;
	st->spare_blocks = ssd_ftl_spare_blocks(ftl);
	st->spare_blocks_initial = ftl->faults.spare_initial;
	st->retire_relocated_pages = ftl->faults.retire_relocated_pages;
	ssd_ftl_erase_hist(ftl, st->erase_count_max, &st->erase_hist_bucket_width, hist);
	st->erase_hist_0 = hist[0];
	st->erase_hist_1 = hist[1];
	st->erase_hist_2 = hist[2];
	st->erase_hist_3 = hist[3];
	st->erase_hist_4 = hist[4];
	st->erase_hist_5 = hist[5];
	st->erase_hist_6 = hist[6];
	st->erase_hist_7 = hist[7];
	st->erase_hist_8 = hist[8];
	st->erase_hist_9 = hist[9];
	st->erase_hist_10 = hist[10];
	st->erase_hist_11 = hist[11];
	st->erase_hist_12 = hist[12];
	st->erase_hist_13 = hist[13];
	st->erase_hist_14 = hist[14];
	st->erase_hist_15 = hist[15];
	if (ftl->scheme->get_stats)
		ftl->scheme->get_stats(ftl, st);
}

/* Background GC on chips idle before the next command (ssd_layer_ops.idle). */
static void ftl_layer_idle(struct ssd_layer *layer, u64 now_ns)
{
	struct ftl *ftl = to_ftl(layer);

	if (ftl->gc_background_free_blocks)
		ssd_ftl_gc_background(ftl, now_ns);
}

static void ftl_layer_reset_stats(struct ssd_layer *layer)
{
	struct ftl *ftl = to_ftl(layer);

	memset(&ftl->counters, 0, sizeof(ftl->counters));
	memset(&ftl->wear, 0, sizeof(ftl->wear));
	ftl->faults.retire_relocated_pages = 0;
	if (ftl->scheme->reset_stats)
		ftl->scheme->reset_stats(ftl);
}

static int ftl_layer_check(struct ssd_layer *layer)
{
	return ssd_ftl_check(to_ftl(layer));
}

static void ftl_layer_save(struct ssd_layer *layer, struct ssd_snap_writer *w)
{
	ssd_ftl_save(to_ftl(layer), w);
}

static void ftl_layer_load(struct ssd_layer *layer, struct ssd_snap_reader *r)
{
	ssd_ftl_load(to_ftl(layer), r);
}

/* Factory bad blocks, before first use (ftl_retire.c). */
static int ftl_layer_mark_bad_blocks(struct ssd_layer *layer, const u32 *blocks, u32 nr)
{
	return ssd_ftl_mark_bad_blocks(to_ftl(layer), blocks, nr);
}

static void ftl_layer_destroy(struct ssd_layer *layer)
{
	ssd_ftl_exit(to_ftl(layer));
	ssd_free(layer);
}

static const struct ssd_layer_ops ftl_layer_ops = {
	.read = ftl_layer_read,
	.write = ftl_layer_write,
	.trim = ftl_layer_trim,
	.flush = ftl_layer_flush,
	.idle = ftl_layer_idle,
	.chips_free_ns = ftl_layer_chips_free_ns,
	.holds = ftl_layer_holds,
	.peek = ftl_layer_peek,
	.get_stats = ftl_layer_get_stats,
	.reset_stats = ftl_layer_reset_stats,
	.check = ftl_layer_check,
	.save = ftl_layer_save,
	.load = ftl_layer_load,
	.mark_bad_blocks = ftl_layer_mark_bad_blocks,
	.destroy = ftl_layer_destroy,
};

static int ftl_layer_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
			    struct ssd_layer *lower, struct ssd_layer **out)
{
	struct ftl_layer *fl = ssd_zalloc(sizeof(*fl));
	struct ftl_params params;
	int ret;

	if (!fl)
		return -ENOMEM;
	params.logical_pages = ssd_config_logical_pages(cfg);
	params.slc_blocks_per_chip = cfg->slc_blocks_per_chip;
	params.gc_low_free_blocks = ssd_config_gc_low_free_blocks(cfg);
	params.gc_pages_per_write = cfg->gc_pages_per_write;
	params.gc_background_free_blocks = cfg->gc_background_free_blocks;
	params.read_unwritten_flash = cfg->read_unwritten_flash;
	params.gc_policy = ssd_ftl_gc_policy_of(cfg->gc_policy);
	params.scheme = ssd_ftl_scheme_of(cfg->ftl_type);
	params.cfg = cfg;
	params.wl_static_threshold = cfg->wl_static_threshold;
	ret = ssd_ftl_init(&fl->ftl, env->flash, &params);
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

struct ftl *ssd_ftl_from_layer(struct ssd_layer *layer)
{
	return layer && layer->ops == &ftl_layer_ops ? to_ftl(layer) : NULL;
}

static const struct ssd_config_key *const ftl_selectors[] = {
	&ssd_key_gc_policy,
	&ssd_key_ftl_type,
	NULL,
};

const struct ssd_layer_type ssd_ftl_layer_type = {
	.name = "ftl",
	.snap_tag = SSD_SNAP_TAG('F', 'T', 'L', ' '),
	.validate = ftl_config_validate,
	.metadata_bytes = ftl_config_metadata_bytes,
	.create = ftl_layer_create,
	.selectors = ftl_selectors,
	.map_unit_pages = ftl_map_unit_pages,
};

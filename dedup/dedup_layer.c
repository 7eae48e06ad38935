// SPDX-License-Identifier: GPL-2.0
/*
 * dedup_layer.c - the dedup layer as a layer of the request path
 * (common/ssd_layer.h): switched on by the dedup key, the checks of the
 * keys it owns, its metadata size, and its page operations and counters
 * mapped onto dedup_internal.h.
 */
#include "dedup/dedup_internal.h"

static struct dedup *to_dedup(struct ssd_layer *layer)
{
	return (struct dedup *)layer;
}

static bool dedup_enabled(const struct ssd_config *cfg)
{
	return cfg->dedup;
}

static int dedup_config_validate(const struct ssd_config *cfg)
{
	if (cfg->data_store == SSD_DATA_NONE) {
		ssd_dev_err(cfg->name, "dedup=1 refused with data_store=none: dedup fingerprints page content (use data_store=digest or bytes)");
		return -EINVAL;
	}
	if (cfg->dedup_sample_offset_bytes + cfg->dedup_sample_bytes > cfg->page_size_bytes) {
		ssd_dev_err(cfg->name, "dedup_sample_offset_bytes=%llu refused: with dedup_sample_bytes=%llu the sample must lie within a page of %llu bytes (offset 0..%llu)",
			    (unsigned long long)cfg->dedup_sample_offset_bytes,
			    (unsigned long long)cfg->dedup_sample_bytes,
			    (unsigned long long)cfg->page_size_bytes,
			    (unsigned long long)(cfg->page_size_bytes -
						 min_t(u64, cfg->dedup_sample_bytes,
						       cfg->page_size_bytes)));
		return -EINVAL;
	}
	if (cfg->dedup_buffer_bytes && cfg->dedup_buffer_bytes < cfg->page_size_bytes) {
		ssd_dev_err(cfg->name, "dedup_buffer_bytes=%llu refused: accepted range is 0 (no byte cap) or at least a page (%llu)",
			    (unsigned long long)cfg->dedup_buffer_bytes,
			    (unsigned long long)cfg->page_size_bytes);
		return -EINVAL;
	}
	if (ssd_config_logical_pages(cfg) >= DEDUP_RESERVED) {
		ssd_dev_err(cfg->name, "dedup=1 refused: chunk ids are 32-bit, the device has too many pages");
		return -EINVAL;
	}
	return 0;
}

static int dedup_layer_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
			    const void **data)
{
	return ssd_dedup_read(to_dedup(layer), lpn, io, data);
}

static int dedup_layer_write(struct ssd_layer *layer, u64 lpn, void *buf,
			     struct ssd_io *io)
{
	return ssd_dedup_write(to_dedup(layer), lpn, buf, io);
}

static int dedup_layer_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	return ssd_dedup_trim(to_dedup(layer), lpn, io);
}

static int dedup_layer_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	return ssd_dedup_flush(to_dedup(layer), io);
}

static bool dedup_layer_holds(struct ssd_layer *layer, u64 lpn)
{
	return ssd_dedup_holds(to_dedup(layer), lpn);
}

/*
 * The flash a move of host page @lpn would use (ssd_layer_ops.chips_free_ns),
 * asked below under its chunk id; a buffered or unmapped lpn has no data
 * below (U64_MAX: the destination alone).
 */
static u64 dedup_layer_chips_free_ns(struct ssd_layer *layer, u64 lpn, enum ssd_region region)
{
	struct dedup *dd = to_dedup(layer);
	u32 chunk = lpn < dd->pages && !ssd_dedup_is_buffered(dd, lpn) ? dd->l2c[lpn] : DEDUP_NONE;

	return ssd_layer_chips_free_ns(layer->lower, chunk == DEDUP_NONE ? U64_MAX : chunk,
				       region);
}

static u64 dedup_layer_pending_pages(struct ssd_layer *layer)
{
	return dedup_pending_pages(to_dedup(layer));
}

/* RAM per store entry: its slot and its share of the hash buckets, rounded up. */
static u64 store_entry_bytes(const struct dedup *dd)
{
	u64 bytes = (u64)dd->store_cap * sizeof(struct dedup_store_slot) +
		    (dd->store_mask + 1ULL) * sizeof(u32);

	return dd->store_cap ? div64_u64(bytes + dd->store_cap - 1, dd->store_cap) : 0;
}

static void dedup_layer_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	const struct dedup *dd = to_dedup(layer);
	const struct dedup_counters *c = &dd->counters;

	st->dedup_chunks_written = c->chunks_written;
	st->dedup_fingerprinted_chunks = c->fingerprinted;
	st->dedup_late_fingerprints = c->late_fingerprints;
	st->dedup_filtered_chunks = c->filtered;
	st->dedup_duplicate_chunks = c->duplicates;
	st->dedup_store_hits = c->store_hits;
	st->dedup_store_misses = c->store_misses;
	st->dedup_store_evictions = c->store_evictions;
	st->dedup_buffer_rewrites = c->buffer_rewrites;
	st->dedup_buffer_trims = c->buffer_trims;
	st->dedup_buffer_reads = c->buffer_reads;
	st->dedup_programs_avoided = c->duplicates + c->buffer_rewrites + c->buffer_trims;
	st->dedup_logical_pages = dd->mapped_lpns + dd->buffered;
	st->dedup_physical_pages = dd->pages - dd->nr_free;
	st->dedup_buffered_pages = dd->buffered;
	st->dedup_store_used_entries = dd->store_used;
	st->dedup_store_capacity_entries = dd->store_cap;
	st->dedup_store_entry_bytes = store_entry_bytes(dd);
	st->dedup_metadata_bytes = dd->metadata_bytes;
	st->dedup_break_even_ppm = ssd_dedup_break_even_ppm(dd);
	st->dedup_engine_busy_ns = c->engine_busy_ns;
	st->dedup_hash_wait_ns = c->hash_wait_ns;
	st->dedup_engine_load_ppm = dd->engine_load_ppm;
}

static void dedup_layer_reset_stats(struct ssd_layer *layer)
{
	memset(&to_dedup(layer)->counters, 0, sizeof(to_dedup(layer)->counters));
}

static int dedup_layer_check(struct ssd_layer *layer)
{
	return ssd_dedup_check(to_dedup(layer));
}

static void dedup_layer_save(struct ssd_layer *layer, struct ssd_snap_writer *w)
{
	ssd_dedup_save(to_dedup(layer), w);
}

static void dedup_layer_load(struct ssd_layer *layer, struct ssd_snap_reader *r)
{
	ssd_dedup_load(to_dedup(layer), r);
}

static u64 dedup_layer_power_cut(struct ssd_layer *layer, u64 now_ns)
{
	return ssd_dedup_power_cut(to_dedup(layer), now_ns);
}

static void dedup_layer_destroy(struct ssd_layer *layer)
{
	ssd_dedup_exit(to_dedup(layer));
	ssd_free(layer);
}

static const struct ssd_layer_ops dedup_layer_ops = {
	.read = dedup_layer_read,
	.write = dedup_layer_write,
	.trim = dedup_layer_trim,
	.flush = dedup_layer_flush,
	.holds = dedup_layer_holds,
	.chips_free_ns = dedup_layer_chips_free_ns,
	.pending_pages = dedup_layer_pending_pages,
	.power_cut = dedup_layer_power_cut,
	.get_stats = dedup_layer_get_stats,
	.reset_stats = dedup_layer_reset_stats,
	.check = dedup_layer_check,
	.save = dedup_layer_save,
	.load = dedup_layer_load,
	.destroy = dedup_layer_destroy,
};

static int dedup_layer_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
			      struct ssd_layer *lower, struct ssd_layer **out)
{
	struct dedup *dd;
	int ret;

	if (!lower) {
		ssd_dev_err(cfg->name, "dedup=1 refused: the dedup layer needs a layer below it");
		return -EINVAL;
	}
	dd = ssd_zalloc(sizeof(*dd));
	if (!dd)
		return -ENOMEM;
	dd->layer.ops = &dedup_layer_ops;
	dd->layer.name = "dedup";
	dd->layer.lower = lower;
	ret = ssd_dedup_init(dd, cfg, env);
	if (ret) {
		ssd_dedup_exit(dd);
		ssd_free(dd);
		return ret;
	}
	*out = &dd->layer;
	return 0;
}

struct dedup *ssd_dedup_from_layer(struct ssd_layer *layer)
{
	return layer && layer->ops == &dedup_layer_ops ? to_dedup(layer) : NULL;
}

const struct ssd_layer_type ssd_dedup_layer_type = {
	.name = "dedup",
	.snap_tag = SSD_SNAP_TAG('D', 'D', 'U', 'P'),
	.enabled = dedup_enabled,
	.validate = dedup_config_validate,
	.metadata_bytes = ssd_dedup_table_bytes,
	.create = dedup_layer_create,
	.self_test = ssd_dedup_sha1_self_test,
};

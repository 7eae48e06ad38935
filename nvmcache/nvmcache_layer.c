// SPDX-License-Identifier: GPL-2.0
/*
 * nvmcache_layer.c - the SLC write cache as a layer (common/ssd_layer.h):
 * the checks of its keys, its size, and the page operations.
 *
 * A page write that hits a cached page is written again into the cache
 * region (a write hit: an SLC program, out of place below).  A miss asks
 * the admission policy, which sees the victim the replacement policy would
 * evict; admitted, the victim (if the cache is full) is destaged first -
 * read from the SLC region and rewritten into the TLC region under
 * SSD_CAUSE_DESTAGE - and the page is written into the cache region;
 * bypassed, it is written into the TLC region.  The decision is per page,
 * unless the admission judges requests whole (ProCache by default,
 * admit_procache.c): then a host write whose pages the front end names
 * (ssd_io.request_lpn, request_pages) is a hit only if all of them are
 * cached when its first page comes, and otherwise each of its pages takes
 * the request's one verdict, a cached page too: admitted, its new data
 * enters anew and the old copy is invalidated; bypassed, its new data
 * goes to the TLC region and its cached copy leaves the cache (Algorithm
 * 1: "invalidate any data in the NVM cache that overlaps with the
 * request").  Pages whose request is not known (passed down later by a
 * write buffer, or under dedup's chunk ids) are judged per page.  With
 * procache_hit_per_page=1 a request's cached pages are hits and its other
 * pages share the verdict (Algorithm 1 checks hits first, per page).
 * Destage is done inline, in the write
 * that needs the room, and that write ends when both its program and the
 * destage have ended (foreground destage).  Reads go through (an SLC read
 * when the page is cached: a read hit); a TRIM drops the page from the
 * cache.
 *
 * Background destage (cache_destage_high_percent, off by default): once
 * the cache holds the high watermark, before each command (the layer's
 * idle op) it destages victims in the replacement policy's order until the
 * low watermark is left, each one only if the chips it uses - the victim's
 * SLC chip and the TLC chip the next main-region page goes to, which the
 * layer below tells (ssd_layer_ops.chips_free_ns) - are free before the
 * command starts: it starts when they are, in the idle time before the
 * command (never before the previous command's start).  The cache region
 * holds a page's only copy, so a destaged page leaves the cache, as in
 * foreground destage.  A full cache still destages in the foreground.
 *
 * Placement: the cache is the FTL's SLC region, the first
 * slc_blocks_per_chip blocks of every chip (a share of each chip, not
 * chips of its own), so cache programs stripe over all chips and channels
 * like TLC ones.  Its size (cache_pages) stays at most the valid data the
 * region's GC can live with (ssd_config_cache_valid_max()); the default keeps
 * 1/8 of that as headroom, so SLC GC finds victims with invalid pages.
 */
#include "nvmcache/nvmcache_internal.h"

static struct nvmcache *to_cache(struct ssd_layer *layer)
{
	return (struct nvmcache *)layer;
}

u32 ssd_nvmcache_capacity(const struct ssd_config *cfg)
{
	u64 max = ssd_config_cache_valid_max(cfg);

	if (cfg->cache_pages)
		return (u32)cfg->cache_pages;
	return (u32)min_t(u64, max - max / 8, U32_MAX - 1);
}

void ssd_nvmcache_destage_marks(const struct ssd_config *cfg, u32 *high, u32 *low)
{
	u64 capacity = ssd_nvmcache_capacity(cfg);

	*high = (u32)div64_u64(capacity * cfg->cache_destage_high_percent + 99, 100);
	*low = (u32)div64_u64(capacity * cfg->cache_destage_low_percent, 100);
	if (!cfg->cache_destage_high_percent)
		*high = 0;
}

static bool nvmcache_enabled(const struct ssd_config *cfg)
{
	return ssd_cache_admit_of(cfg->cache_policy) != NULL;
}

static int nvmcache_validate(const struct ssd_config *cfg)
{
	u64 max;

	if (!cfg->slc_blocks_per_chip) {
		ssd_dev_err(cfg->name, "cache_policy=%s refused: the write cache needs an SLC region (slc_blocks_per_chip > 0)",
			    ssd_cache_admit_of(cfg->cache_policy)->name);
		return -EINVAL;
	}
	if (cfg->slc_blocks_per_chip >= cfg->blocks_per_chip)
		return 0;	/* ftl_layer.c names the geometry's fault */
	if (cfg->cache_rce && !ssd_cache_repl_of(cfg->cache_replacement)->rce) {
		ssd_dev_err(cfg->name, "cache_rce=1 refused: RCE composes with a replacement that can requeue (lru, arc), not cache_replacement=%s",
			    ssd_cache_repl_of(cfg->cache_replacement)->name);
		return -EINVAL;
	}
	max = ssd_config_cache_valid_max(cfg);
	if (!max || cfg->cache_pages > max || !ssd_nvmcache_capacity(cfg)) {
		ssd_dev_err(cfg->name, "cache_pages=%llu refused: accepted range is 0 (7/8 of the SLC region's %llu) or 1..%llu",
			    (unsigned long long)cfg->cache_pages, (unsigned long long)max,
			    (unsigned long long)max);
		return -EINVAL;
	}
	if (cfg->cache_destage_high_percent &&
	    cfg->cache_destage_low_percent >= cfg->cache_destage_high_percent) {
		ssd_dev_err(cfg->name, "cache_destage_low_percent=%llu refused: accepted range is 0..%llu (below cache_destage_high_percent=%llu)",
			    (unsigned long long)cfg->cache_destage_low_percent,
			    (unsigned long long)(cfg->cache_destage_high_percent - 1),
			    (unsigned long long)cfg->cache_destage_high_percent);
		return -EINVAL;
	}
	return 0;
}

/* Whether the policies of @cfg weigh pages by their references. */
static bool dedup_aware(const struct ssd_config *cfg)
{
	return cfg->cache_rce || ssd_cache_admit_of(cfg->cache_policy)->dedup_aware;
}

/* The references of every logical page, for dedup-aware policies. */
static u64 refcount_bytes(u64 total, const struct ssd_config *cfg)
{
	if (!dedup_aware(cfg))
		return total;
	return ssd_tables_add(total, 1, ssd_config_logical_pages(cfg), sizeof(u16));
}

static u64 nvmcache_metadata_bytes(const struct ssd_config *cfg)
{
	struct cache_params p;
	u64 bytes = ssd_tables_add(0, 1, 1, sizeof(struct nvmcache));

	ssd_nvmcache_params(cfg, &p);
	bytes = ssd_cachealg_bytes(bytes, ssd_cache_repl_of(cfg->cache_replacement),
				   ssd_cache_admit_of(cfg->cache_policy), &p,
				   ssd_nvmcache_capacity(cfg), ssd_config_logical_pages(cfg),
				   ssd_nvmcache_rce(cfg));
	return refcount_bytes(bytes, cfg);
}

/* The request a page operation belongs to, as the admission sees it. */
static struct cache_req request_of(const struct ssd_io *io)
{
	return (struct cache_req){ .seq = io->request_seq, .bytes = io->request_bytes };
}

/*
 * Move cached page @slot to the TLC region, from @start_ns to *@done_ns;
 * it leaves the cache (the SLC copy was its only one).  @background: on
 * idle chips, not for a page that enters.
 */
static int destage(struct nvmcache *c, u32 slot, u64 start_ns, bool background,
		   u64 *done_ns)
{
	struct ssd_layer *lower = c->layer.lower;
	struct ssd_io rio = { .start_ns = start_ns, .cause = SSD_CAUSE_DESTAGE };
	struct ssd_io wio = { .cause = SSD_CAUSE_DESTAGE, .region = SSD_REGION_MAIN };
	u64 lpn = c->alg.dir.lpn[slot];
	const void *data;
	void *buf;
	int ret;

	ret = lower->ops->read(lower, lpn, &rio, &data);
	if (ret)
		return ret;
	buf = ssd_pagepool_get(c->pool);
	if (!buf)
		return -ENOMEM;
	if (data)
		memcpy(buf, data, c->pool->page_bytes);
	else
		memset(buf, 0, c->pool->page_bytes);
	wio.start_ns = rio.done_ns;
	ret = lower->ops->write(lower, lpn, buf, &wio);
	if (ret)
		return ret;
	ssd_cachealg_remove(&c->alg, slot, true);
	c->counters.evict_pages++;
	if (background)
		c->counters.destage_background_pages++;
	*done_ns = wio.done_ns;
	return 0;
}

/*
 * Background destage before a command that starts at @now_ns (see the
 * header): from the high watermark down to the low one, victims in the
 * replacement policy's order, each started when its chips are free, in
 * the idle time since the previous command's start.  A victim whose chips
 * are busy until @now_ns or later ends it; the next command goes on.
 */
static void nvmcache_idle(struct ssd_layer *layer, u64 now_ns)
{
	struct nvmcache *c = to_cache(layer);
	u64 floor_ns = c->idle_floor_ns;
	u32 moved = 0;

	c->idle_floor_ns = now_ns;
	if (!c->destage_high)
		return;
	if (c->alg.dir.count >= c->destage_high)
		c->draining = true;
	while (c->draining && c->alg.dir.count > c->destage_low) {
		u32 victim = ssd_cachealg_victim(&c->alg, CACHE_NO_ARRIVAL);
		u64 start_ns = ssd_layer_chips_free_ns(layer->lower, c->alg.dir.lpn[victim],
						       SSD_REGION_MAIN);
		u64 done_ns;

		start_ns = max_t(u64, start_ns, floor_ns);
		if (start_ns >= now_ns || destage(c, victim, start_ns, true, &done_ns))
			return;
		/* A long idle gap may destage many pages in one command. */
		if (++moved % 256 == 0)
			ssd_cond_resched();
	}
	c->draining = false;
}

/*
 * Whether page @lpn's write is judged with its whole request (see the
 * header): the admission says so and the front end named the request's
 * pages, @lpn among them.
 */
static bool judged_whole(const struct nvmcache *c, u64 lpn, const struct ssd_io *io)
{
	return io->request_pages && io->request_seq && lpn >= io->request_lpn &&
	       lpn - io->request_lpn < io->request_pages && cachealg_whole_requests(&c->alg);
}

/*
 * Whether the request of @io is a hit as a whole: all its pages were
 * cached when its first page came (remembered for its other pages).
 */
static bool request_hits(struct nvmcache *c, const struct ssd_io *io)
{
	u64 i;

	if (io->request_seq == c->whole_seq)
		return c->whole_hit;
	c->whole_seq = io->request_seq;
	c->whole_hit = true;
	for (i = 0; i < io->request_pages && c->whole_hit; i++)
		c->whole_hit = cachealg_find(&c->alg, io->request_lpn + i) != CACHE_NONE;
	return c->whole_hit;
}

/*
 * Cached page @lpn (@slot) of a request that is not a hit as a whole takes
 * the request's @verdict: admitted, the new data is inserted and the old
 * copy invalidated (the page enters anew); bypassed, the new data goes to
 * the TLC region and the cached copy is invalidated (the page leaves the
 * cache).  Either way the data written is the page's newest, in the
 * region the FTL maps it to; the old copy below is stale.
 */
static int rewrite_cached(struct nvmcache *c, u64 lpn, u32 slot, void *buf, struct ssd_io *io,
			  enum cache_verdict verdict)
{
	struct ssd_layer *lower = c->layer.lower;
	int ret;

	io->region = verdict == CACHE_ADMIT ? SSD_REGION_CACHE : SSD_REGION_MAIN;
	ret = lower->ops->write(lower, lpn, buf, io);
	if (ret)
		return ret;
	ssd_cachealg_remove(&c->alg, slot, false);
	if (verdict != CACHE_ADMIT) {
		c->counters.bypass_pages[verdict]++;
		return 0;
	}
	ssd_cachealg_insert(&c->alg, lpn);
	c->counters.admit_pages++;
	return 0;
}

static int nvmcache_write(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io)
{
	struct nvmcache *c = to_cache(layer);
	struct ssd_layer *lower = layer->lower;
	struct cache_req req = request_of(io);
	enum cache_verdict verdict;
	u64 destage_done_ns;
	u32 slot, victim;
	bool missed_whole;
	int ret;

	ssd_cachealg_access(&c->alg, lpn);
	slot = cachealg_find(&c->alg, lpn);
	/* Judged whole, a request that is not a hit: its cached pages too. */
	missed_whole = judged_whole(c, lpn, io) && !request_hits(c, io);
	if (slot != CACHE_NONE && missed_whole)
		return rewrite_cached(c, lpn, slot, buf, io,
				      ssd_cachealg_decide(&c->alg, lpn, &req, CACHE_NONE));
	if (slot != CACHE_NONE) {
		io->region = SSD_REGION_CACHE;
		ret = lower->ops->write(lower, lpn, buf, io);
		if (!ret) {
			ssd_cachealg_hit(&c->alg, slot);
			c->counters.write_hit_pages++;
		}
		return ret;
	}
	victim = cachealg_full(&c->alg) ? ssd_cachealg_victim(&c->alg, lpn) : CACHE_NONE;
	verdict = ssd_cachealg_decide(&c->alg, lpn, &req, victim);
	if (verdict != CACHE_ADMIT) {
		io->region = SSD_REGION_MAIN;
		ret = lower->ops->write(lower, lpn, buf, io);
		if (!ret)
			c->counters.bypass_pages[verdict]++;
		return ret;
	}
	destage_done_ns = io->start_ns;
	if (victim != CACHE_NONE) {
		ret = destage(c, victim, io->start_ns, false, &destage_done_ns);
		if (ret) {
			ssd_pagepool_put(c->pool, buf);
			return ret;
		}
	}
	io->region = SSD_REGION_CACHE;
	ret = lower->ops->write(lower, lpn, buf, io);
	if (ret)
		return ret;
	ssd_cachealg_insert(&c->alg, lpn);
	c->counters.admit_pages++;
	io->done_ns = max_t(u64, io->done_ns, destage_done_ns);
	return 0;
}

/*
 * Copy page @lpn, just read (@data), into the cache: a read fill, after
 * the read (it does not delay it).  *@data then points at the copy, the
 * page's data from now on.  Refused or failed fills leave the page where
 * it was: a fill is an optimisation, never an error of the read.
 */
static void fill(struct nvmcache *c, u64 lpn, const struct ssd_io *rio, const void **data)
{
	struct ssd_layer *lower = c->layer.lower;
	struct ssd_io wio = { .start_ns = rio->done_ns, .cause = SSD_CAUSE_FILL,
			      .region = SSD_REGION_CACHE, .request_seq = rio->request_seq,
			      .request_bytes = rio->request_bytes };
	struct cache_req req = request_of(rio);
	enum cache_verdict verdict;
	u64 destage_done_ns;
	u32 victim;
	void *buf;
	int ret;

	victim = cachealg_full(&c->alg) ? ssd_cachealg_victim(&c->alg, lpn) : CACHE_NONE;
	/* A refused fill is a read miss not filled: no bypass of a write. */
	verdict = ssd_cachealg_decide(&c->alg, lpn, &req, victim);
	if (verdict != CACHE_ADMIT)
		return;
	buf = ssd_pagepool_get(c->pool);
	if (!buf)
		return;
	memcpy(buf, *data, c->pool->page_bytes);
	if (victim != CACHE_NONE &&
	    destage(c, victim, rio->done_ns, false, &destage_done_ns)) {
		ssd_pagepool_put(c->pool, buf);
		return;
	}
	ret = lower->ops->write(lower, lpn, buf, &wio);
	if (ret) {
		/* Refused: the page stays in TLC and @buf is ours; -EIO freed it. */
		if (ret != -EIO)
			ssd_pagepool_put(c->pool, buf);
		return;
	}
	ssd_cachealg_insert(&c->alg, lpn);
	c->counters.fill_pages++;
	*data = buf;
}

static int nvmcache_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
			 const void **data)
{
	struct nvmcache *c = to_cache(layer);
	bool host = !io->merge && io->cause == SSD_CAUSE_HOST;
	u32 slot = host ? cachealg_find(&c->alg, lpn) : CACHE_NONE;
	int ret;

	if (host && c->read_allocate)
		ssd_cachealg_access(&c->alg, lpn);
	if (slot != CACHE_NONE) {
		c->counters.read_hit_pages++;
		if (c->read_allocate)
			ssd_cachealg_hit(&c->alg, slot);
	} else if (host) {
		c->counters.read_miss_pages++;
	}
	ret = layer->lower->ops->read(layer->lower, lpn, io, data);
	if (!ret && host && slot == CACHE_NONE && c->read_allocate && *data)
		fill(c, lpn, io, data);
	return ret;
}

static int nvmcache_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	struct nvmcache *c = to_cache(layer);
	u32 slot = cachealg_find(&c->alg, lpn);

	if (slot != CACHE_NONE) {
		ssd_cachealg_remove(&c->alg, slot, false);
		c->counters.trim_pages++;
	}
	return layer->lower->ops->trim(layer->lower, lpn, io);
}

/* The references the dedup layer above reports (ssd_layer_ops.refcount). */
static void nvmcache_refcount(struct ssd_layer *layer, u64 lpn, u32 refcount)
{
	struct nvmcache *c = to_cache(layer);

	if (c->refcount)
		c->refcount[lpn] = (u16)min_t(u32, refcount, U16_MAX);
}

/* The SLC region is as durable as the TLC one: nothing is held back. */
static int nvmcache_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	return layer->lower->ops->flush(layer->lower, io);
}

static void nvmcache_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	struct nvmcache *c = to_cache(layer);

	st->cache_write_hit_pages = c->counters.write_hit_pages;
	st->cache_admit_pages = c->counters.admit_pages;
	st->cache_bypass_size_pages = c->counters.bypass_pages[CACHE_BYPASS_SIZE];
	st->cache_bypass_dice_pages = c->counters.bypass_pages[CACHE_BYPASS_DICE];
	st->cache_bypass_policy_pages = c->counters.bypass_pages[CACHE_BYPASS_POLICY];
	st->cache_bypass_delay_pages = c->counters.bypass_pages[CACHE_BYPASS_DELAY];
	st->cache_bypass_inout_pages = c->counters.bypass_pages[CACHE_BYPASS_INOUT];
	st->cache_read_miss_pages = c->counters.read_miss_pages;
	st->cache_fill_pages = c->counters.fill_pages;
	st->cache_written_host_bytes = (c->counters.write_hit_pages + c->counters.admit_pages) *
				       c->page_bytes;
	st->cache_written_fill_bytes = c->counters.fill_pages * c->page_bytes;
	st->cache_refcount_metadata_bytes = c->refcount_bytes;
	st->cache_evict_pages = c->counters.evict_pages;
	st->cache_destage_background_pages = c->counters.destage_background_pages;
	st->cache_destage_foreground_pages = c->counters.evict_pages -
					     c->counters.destage_background_pages;
	st->cache_trim_pages = c->counters.trim_pages;
	st->cache_read_hit_pages = c->counters.read_hit_pages;
	st->cache_pages = c->alg.dir.count;
	st->cache_capacity_pages = c->alg.dir.capacity;
	st->cache_metadata_bytes = c->alg.dir_bytes + c->alg.repl_bytes +
				   (c->alg.rce ? ssd_cachealg_rce_bytes(0, &c->alg.rce->p,
									c->alg.dir.capacity) : 0);
	st->cache_policy_metadata_bytes = c->alg.admit_bytes;
}

static void nvmcache_reset_stats(struct ssd_layer *layer)
{
	memset(&to_cache(layer)->counters, 0, sizeof(to_cache(layer)->counters));
}

static int nvmcache_check(struct ssd_layer *layer)
{
	return ssd_cachealg_check(&to_cache(layer)->alg);
}

/* Undo nvmcache_create(), also half way. */
static void nvmcache_free(struct nvmcache *c)
{
	if (c->alg.repl)
		ssd_cachealg_exit(&c->alg);
	ssd_free(c->refcount);
	ssd_free(c);
}

/* The references the layer above reported, for the algorithms. */
static u32 page_refs(const void *ctx, u64 lpn)
{
	return cache_refs(ctx, lpn);
}

static void nvmcache_destroy(struct ssd_layer *layer)
{
	nvmcache_free(to_cache(layer));
}

static const struct ssd_layer_ops nvmcache_ops = {
	.read = nvmcache_read,
	.write = nvmcache_write,
	.trim = nvmcache_trim,
	.flush = nvmcache_flush,
	.idle = nvmcache_idle,
	.refcount = nvmcache_refcount,
	.get_stats = nvmcache_get_stats,
	.reset_stats = nvmcache_reset_stats,
	.check = nvmcache_check,
	.save = ssd_nvmcache_save,
	.load = ssd_nvmcache_load,
	.destroy = nvmcache_destroy,
};

static int nvmcache_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
			   struct ssd_layer *lower, struct ssd_layer **out)
{
	struct nvmcache *c = ssd_zalloc(sizeof(*c));
	struct cache_params p;
	int ret = 0;

	if (!c)
		return -ENOMEM;
	c->pool = env->pool;
	c->dev_name = env->dev_name;
	c->page_bytes = cfg->page_size_bytes;
	c->pages = ssd_config_logical_pages(cfg);
	ssd_rand_seed(&c->rand, cfg->seed);
	c->read_allocate = cfg->cache_read_allocate;
	ssd_nvmcache_destage_marks(cfg, &c->destage_high, &c->destage_low);
	if (dedup_aware(cfg)) {
		c->refcount_bytes = ssd_config_logical_pages(cfg) * sizeof(u16);
		c->refcount = ssd_zalloc(c->refcount_bytes);
		if (!c->refcount)
			ret = -ENOMEM;
	}
	c->alg.dev_name = env->dev_name;
	c->alg.who = "nvmcache";
	c->alg.rand = &c->rand;
	c->alg.refs = c->refcount ? page_refs : NULL;
	c->alg.refs_ctx = c;
	ssd_nvmcache_params(cfg, &p);
	if (!ret)
		ret = ssd_cachealg_init(&c->alg, ssd_cache_repl_of(cfg->cache_replacement),
					ssd_cache_admit_of(cfg->cache_policy), &p,
					ssd_nvmcache_capacity(cfg), c->pages,
					ssd_nvmcache_rce(cfg));
	if (ret) {
		nvmcache_free(c);
		return ret;
	}
	c->layer.ops = &nvmcache_ops;
	c->layer.name = "nvmcache";
	c->layer.lower = lower;
	*out = &c->layer;
	return 0;
}

static const struct ssd_config_key *const nvmcache_selectors[] = {
	&ssd_key_cache_policy,
	&ssd_key_cache_replacement,
	NULL,
};

const struct ssd_layer_type ssd_nvmcache_layer_type = {
	.name = "nvmcache",
	.snap_tag = SSD_SNAP_TAG('N', 'V', 'M', 'C'),
	.enabled = nvmcache_enabled,
	.validate = nvmcache_validate,
	.metadata_bytes = nvmcache_metadata_bytes,
	.create = nvmcache_create,
	.selectors = nvmcache_selectors,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * test_model.c - model-based test of the whole portable data path.
 *
 * Drives a device with a long seeded random mix of writes (full, partial
 * and multi-page), overwrites, TRIMs, write-zeroes and reads while keeping
 * the logical space at least --util percent mapped, so GC runs hard.  The
 * model is a plain byte array of the logical space plus a mapped flag per
 * page; every read is compared with it, the FTL's mapping is compared with
 * it, and ssd_ftl_check() runs after every GC step (through the FTL's test
 * hook).  GC's bound is checked too: a bounded step moves at most
 * gc_pages_per_write pages, and a request moves at most that many per page
 * it writes unless a blocking run (counted) took place.
 *
 * With cache_policy=... (and slc_blocks_per_chip) the write cache layer
 * sits on top: its cached pages must be the SLC region's valid pages after
 * every request, its directory consistent, and the run must destage and
 * erase blocks in both regions.
 *
 * With --cache-percent P a routing layer above the FTL sends about P% of
 * the page writes into the SLC cache region (slc_blocks_per_chip must be
 * set), and to the main region when the cache refuses (-ENOSPC), so pages
 * move between the regions and both run GC.
 *
 * With ftl_type=block, bast or fast the main region is block-mapped: the
 * check (with the scheme's own invariants) runs after every write that
 * merged, and the erase and program counts include the merges' (and
 * static wear levelling's) work.
 *
 * With dedup=1 the dedup layer sits on top: --dup-percent P makes about P%
 * of the whole pages written copies of one of DUP_POOL pages, and a
 * quarter of the others carry the pool's filter sample with other bytes
 * (sample collisions).  The layer's consistency check (every refcount
 * equals the lpns that refer to the chunk, free list, store, buffer) runs
 * every 1000 operations, its view of which pages hold data is compared
 * with the model, shared chunks are read back after GC moved them, and
 * every write is accounted for: programmed, avoided or still buffered.
 *
 * usage: model [--seed N] [--ops N] [--util PERCENT] [--cache-percent P]
 *              [--dup-percent P] [key=value ...]
 */
#include "unit.h"
#include "nvmcache/nvmcache_internal.h"
#include "dedup/dedup_internal.h"
#include "ftl/ftl_logblock.h"

/* Distinct page contents duplicates are drawn from. */
#define DUP_POOL	32

static u64 dup_percent;

/* The routing layer: sends a share of the writes to the cache region. */
struct route_layer {
	struct ssd_layer layer;
	u64 rng;
	u64 cache_percent;
	u64 cache_writes, refused;
};

static u64 route_cache_percent;

static struct route_layer *to_route(struct ssd_layer *layer)
{
	return (struct route_layer *)layer;
}

static int route_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
		      const void **data)
{
	return layer->lower->ops->read(layer->lower, lpn, io, data);
}

static int route_write(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io)
{
	struct route_layer *rl = to_route(layer);
	int ret;

	if (rng_below(&rl->rng, 100) < rl->cache_percent) {
		io->region = SSD_REGION_CACHE;
		ret = layer->lower->ops->write(layer->lower, lpn, buf, io);
		if (ret != -ENOSPC) {
			rl->cache_writes += !ret;
			return ret;
		}
		rl->refused++;
	}
	io->region = SSD_REGION_MAIN;
	return layer->lower->ops->write(layer->lower, lpn, buf, io);
}

static int route_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	return layer->lower->ops->trim(layer->lower, lpn, io);
}

static int route_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	return layer->lower->ops->flush(layer->lower, io);
}

static void route_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
}

static void route_reset_stats(struct ssd_layer *layer)
{
}

static int route_check(struct ssd_layer *layer)
{
	return 0;
}

static void route_destroy(struct ssd_layer *layer)
{
	ssd_free(layer);
}

static const struct ssd_layer_ops route_ops = {
	.read = route_read, .write = route_write, .trim = route_trim,
	.flush = route_flush, .get_stats = route_get_stats,
	.reset_stats = route_reset_stats, .check = route_check,
	.destroy = route_destroy,
};

static int route_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
			struct ssd_layer *lower, struct ssd_layer **out)
{
	struct route_layer *rl = ssd_zalloc(sizeof(*rl));

	if (!rl)
		return -ENOMEM;
	rl->layer.ops = &route_ops;
	rl->layer.name = "route";
	rl->rng = 12345;
	rl->cache_percent = route_cache_percent;
	*out = &rl->layer;
	return 0;
}

static const struct ssd_layer_type route_type = {
	.name = "route", .create = route_create,
};

/* What the GC step hook saw. */
static struct {
	u64 steps;
	u64 blocking_seen;
	u32 max_step_pages;
} hook;

/* After every GC step: the FTL is consistent and a bounded step kept its bound. */
static void gc_step_check(const struct ftl *ftl)
{
	hook.steps++;
	EXPECT(ssd_ftl_check(ftl) == 0, "invariants broken after GC step %llu",
	       (unsigned long long)hook.steps);
	if (ftl->counters.gc_blocking_runs == hook.blocking_seen) {
		/* A bounded step: the first GC work of its host write. */
		if (ftl->gc_pages_per_write)
			EXPECT(ftl->gc_write_pages <= ftl->gc_pages_per_write,
			       "a GC step moved %u pages", ftl->gc_write_pages);
		if (ftl->gc_write_pages > hook.max_step_pages)
			hook.max_step_pages = ftl->gc_write_pages;
	}
	hook.blocking_seen = ftl->counters.gc_blocking_runs;
}

struct model {
	struct ssd_device *dev;
	u8 *shadow;		/* expected contents of the logical space */
	u8 *mapped;		/* [pages]: expected FTL mapping */
	u64 capacity;
	u64 pages;
	u64 nr_mapped;
	u32 page;
	u32 unit;		/* logical block size: I/O granularity */
	u8 *io;			/* request buffer */
	u64 rng;
	u64 util_percent;	/* keep at least this much of the space mapped */
	u64 gc_seen;
	u64 gc_checks;
	u64 reads_checked;
	/* FTL counters before the current request. */
	u64 relocated_before, blocking_before, host_pages_before, background_before;
	u64 block_wl_before;	/* block-mapped schemes: pages wear levelling moved */
	u64 cache_checks;
};

/*
 * The write cache (cache_policy): the pages it says it caches are exactly
 * the SLC region's valid pages, never more than its capacity; its
 * directory is consistent every 1000 operations.
 */
static void check_cache_op(struct model *m)
{
	const struct ftl *ftl = unit_ftl(m->dev);
	struct ssd_layer *layer = unit_layer(m->dev, "nvmcache");
	const struct nvmcache *c = (const struct nvmcache *)layer;

	EXPECT(c->alg.dir.count == ftl->region[SSD_REGION_CACHE].valid_pages &&
	       c->alg.dir.count <= c->alg.dir.capacity, "cache holds %u pages, SLC region %llu valid",
	       c->alg.dir.count, (unsigned long long)ftl->region[SSD_REGION_CACHE].valid_pages);
	if (++m->cache_checks % 1000 == 0)
		EXPECT(layer->ops->check(layer) == 0, "cache directory check");
}

/* At the end: the run destaged pages and ran GC in both regions. */
static void check_cache_end(struct model *m, const struct ssd_stats *st)
{
	EXPECT(st->cache_evict_pages > 0 && st->flash_program_destage_pages == st->cache_evict_pages,
	       "no destage (%llu evictions)", (unsigned long long)st->cache_evict_pages);
	EXPECT(st->flash_erase_slc_blocks > 0 && st->flash_erase_tlc_blocks > 0,
	       "GC did not run in both regions: %llu SLC, %llu TLC erases",
	       (unsigned long long)st->flash_erase_slc_blocks,
	       (unsigned long long)st->flash_erase_tlc_blocks);
	/* With dedup above, the cache sees only the writes dedup let through. */
	EXPECT(st->cache_write_hit_pages + st->cache_admit_pages + st->cache_bypass_size_pages +
	       st->cache_bypass_dice_pages + st->cache_bypass_policy_pages +
	       st->cache_bypass_delay_pages + st->cache_bypass_inout_pages ==
	       st->host_write_pages - st->dedup_programs_avoided - st->dedup_buffered_pages,
	       "cache decisions != page writes reaching the cache");
	EXPECT(st->cache_fill_pages == st->flash_program_fill_pages &&
	       st->cache_fill_pages <= st->cache_read_miss_pages, "fills %llu, fill programs %llu",
	       (unsigned long long)st->cache_fill_pages,
	       (unsigned long long)st->flash_program_fill_pages);
	printf("cache %s: hits=%llu admitted=%llu bypassed=%llu/%llu/%llu/%llu/%llu fills=%llu evicted=%llu slc_erases=%llu tlc_erases=%llu\n",
	       ssd_config_choice_name(&m->dev->cfg, "cache_policy"),
	       (unsigned long long)st->cache_write_hit_pages,
	       (unsigned long long)st->cache_admit_pages,
	       (unsigned long long)st->cache_bypass_size_pages,
	       (unsigned long long)st->cache_bypass_dice_pages,
	       (unsigned long long)st->cache_bypass_policy_pages,
	       (unsigned long long)st->cache_bypass_delay_pages,
	       (unsigned long long)st->cache_bypass_inout_pages,
	       (unsigned long long)st->cache_fill_pages,
	       (unsigned long long)st->cache_evict_pages,
	       (unsigned long long)st->flash_erase_slc_blocks,
	       (unsigned long long)st->flash_erase_tlc_blocks);
}

static void set_mapped(struct model *m, u64 lpn, bool mapped)
{
	if (m->mapped[lpn] != mapped)
		m->nr_mapped += mapped ? 1 : (u64)-1;
	m->mapped[lpn] = mapped;
}

/* Pages a block-mapped scheme's static wear levelling moved (a block at a time). */
static u64 block_wl_pages(const struct ftl *ftl)
{
	return ftl_block_mapped(ftl) ? ftl_lb(ftl)->counters.wl_pages : 0;
}

static void before_op(struct model *m)
{
	const struct ftl *ftl = unit_ftl(m->dev);

	m->relocated_before = ftl->counters.gc_relocated_pages;
	m->blocking_before = ftl->counters.gc_blocking_runs;
	m->host_pages_before = ftl->counters.host_write_pages;
	m->background_before = ftl->counters.gc_background_pages;
	m->block_wl_before = block_wl_pages(ftl);
}

/* Blocks GC (wear levelling's migrations too) and block-mapped merges erased. */
static u64 ftl_work_erases(const struct ftl *ftl)
{
	u64 erases = ftl->counters.gc_victim_blocks;

	if (ftl_block_mapped(ftl))
		erases += ftl_lb(ftl)->counters.merge_erases;
	return erases;
}

static void after_op(struct model *m)
{
	const struct ftl *ftl = unit_ftl(m->dev);
	u64 gc = ftl_work_erases(ftl);
	u64 background = ftl->counters.gc_background_pages - m->background_before;
	u64 moved = ftl->counters.gc_relocated_pages - m->relocated_before - background -
		    (block_wl_pages(ftl) - m->block_wl_before);
	u64 written = ftl->counters.host_write_pages - m->host_pages_before;
	u32 r;

	/* GC never needs more than it may take: the reserve is never gone. */
	for (r = 0; r < SSD_REGION_NR; r++)
		EXPECT(!ftl->region[r].nr_blocks ||
		       ftl->region[r].nr_free + 1 >= FTL_GC_RESERVED_BLOCKS,
		       "region %u: free blocks %u below the GC reserve", r,
		       ftl->region[r].nr_free);
	/* Background GC: one step per region per command. */
	EXPECT(background <= SSD_REGION_NR *
	       (ftl->gc_pages_per_write ? ftl->gc_pages_per_write : 8),
	       "background GC moved %llu pages in one command", (unsigned long long)background);
	/* Without a blocking run, foreground GC moved at most its share per page written. */
	if (ftl->gc_pages_per_write && ftl->counters.gc_blocking_runs == m->blocking_before)
		EXPECT(moved <= written * ftl->gc_pages_per_write,
		       "%llu pages moved for %llu written", (unsigned long long)moved,
		       (unsigned long long)written);
	if (gc != m->gc_seen) {
		m->gc_seen = gc;
		m->gc_checks++;
	}
	if (unit_layer(m->dev, "nvmcache"))
		check_cache_op(m);
}

/* Page @k of the duplicate pool. */
static void pool_page(u8 *dst, u32 page_bytes, u64 k)
{
	u64 seed = 0xd0d0 + k;
	u32 i;

	for (i = 0; i < page_bytes; i++)
		dst[i] = (u8)rng_next(&seed);
}

/* Whole pages of the write become pool copies or sample collisions. */
static void add_duplicates(struct model *m, u64 off, u64 len)
{
	u64 pos = (off + m->page - 1) / m->page * m->page;

	for (; pos + m->page <= off + len; pos += m->page) {
		u8 *page = m->io + (pos - off);

		if (rng_below(&m->rng, 100) < dup_percent)
			pool_page(page, m->page, rng_below(&m->rng, DUP_POOL));
		else if (m->page >= 1020 && rng_below(&m->rng, 4) == 0)
			pool_page(page + 1000, 20, 0);
	}
}

static void do_write(struct model *m, u64 off, u64 len)
{
	u64 i, lpn;

	for (i = 0; i < len; i++)
		m->io[i] = (u8)rng_next(&m->rng);
	if (dup_percent)
		add_duplicates(m, off, len);
	EXPECT(submit(m->dev, SSD_OP_WRITE, off, len, m->io) == 0, "write failed");
	memcpy(m->shadow + off, m->io, len);
	for (lpn = off / m->page; lpn <= (off + len - 1) / m->page; lpn++)
		set_mapped(m, lpn, true);
}

static void do_read(struct model *m, u64 off, u64 len)
{
	u64 i;

	memset(m->io, 0xa5, len);
	EXPECT(submit(m->dev, SSD_OP_READ, off, len, m->io) == 0, "read failed");
	for (i = 0; i < len; i++)
		EXPECT(m->io[i] == m->shadow[off + i],
		       "byte %llu: read 0x%02x, model 0x%02x",
		       (unsigned long long)(off + i), m->io[i], m->shadow[off + i]);
	m->reads_checked++;
}

/* TRIM or write-zeroes of [off, off + len). */
static void do_unmap(struct model *m, enum ssd_op op, u64 off, u64 len)
{
	u64 pos = off, end = off + len;

	EXPECT(submit(m->dev, op, off, len, NULL) == 0, "unmap op %d failed", op);
	while (pos < end) {
		u64 lpn = pos / m->page;
		u64 page_end = (lpn + 1) * m->page;
		u64 piece_end = page_end < end ? page_end : end;

		if (pos == lpn * m->page && piece_end == page_end) {
			memset(m->shadow + pos, 0, m->page);
			set_mapped(m, lpn, false);
		} else if (op == SSD_OP_WRITE_ZEROES) {
			memset(m->shadow + pos, 0, piece_end - pos);
			set_mapped(m, lpn, true);
		}
		pos = piece_end;
	}
}

/* The dedup layer of @dev's stack, wherever it sits, or NULL. */
static struct dedup *model_dedup(struct ssd_device *dev)
{
	struct ssd_layer *layer = unit_layer(dev, "dedup");

	return layer ? ssd_dedup_from_layer(layer) : NULL;
}

/* Whether @lpn holds data: the dedup layer's view if it is on, else the FTL's. */
static bool holds_data(struct model *m, u64 lpn)
{
	struct dedup *dd = model_dedup(m->dev);

	if (dd)
		return dedup_chunk_of(dd, lpn) != DEDUP_NONE || ssd_dedup_is_buffered(dd, lpn);
	return ftl_is_mapped(unit_ftl(m->dev), lpn);
}

static void verify_all(struct model *m)
{
	u64 off, lpn;

	for (lpn = 0; lpn < m->pages; lpn++)
		EXPECT(holds_data(m, lpn) == m->mapped[lpn],
		       "lpn %llu mapped=%d, model says %d", (unsigned long long)lpn,
		       holds_data(m, lpn), m->mapped[lpn]);
	for (off = 0; off < m->capacity; off += 16 * m->page) {
		u64 len = m->capacity - off < 16 * m->page ? m->capacity - off : 16 * m->page;

		do_read(m, off, len);
	}
}

/* A random range aligned to the logical block size, at most @max_units long. */
static void random_range(struct model *m, u64 max_units, u64 *off, u64 *len)
{
	u64 units = m->capacity / m->unit;
	u64 n = 1 + rng_below(&m->rng, max_units);
	u64 start = rng_below(&m->rng, units);

	if (start + n > units)
		n = units - start;
	*off = start * m->unit;
	*len = n * m->unit;
}

/* Write a whole page that is not mapped now, to push utilisation up. */
static void fill_one(struct model *m)
{
	u64 lpn = rng_below(&m->rng, m->pages);

	while (m->mapped[lpn])
		lpn = (lpn + 1) % m->pages;
	do_write(m, lpn * m->page, m->page);
}

static void random_op(struct model *m)
{
	u64 dice = rng_below(&m->rng, 100), off, len;
	u64 page_units = m->page / m->unit;

	if (m->nr_mapped * 100 < m->pages * m->util_percent) {
		fill_one(m);
	} else if (dice < 40) {		/* small writes, often sub-page */
		random_range(m, page_units, &off, &len);
		do_write(m, off, len);
	} else if (dice < 55) {		/* multi-page writes */
		random_range(m, 4 * page_units, &off, &len);
		do_write(m, off, len);
	} else if (dice < 80) {
		random_range(m, 4 * page_units, &off, &len);
		do_read(m, off, len);
	} else if (dice < 88) {
		random_range(m, 3 * page_units, &off, &len);
		do_unmap(m, SSD_OP_TRIM, off, len);
	} else if (dice < 92) {
		random_range(m, 3 * page_units, &off, &len);
		do_unmap(m, SSD_OP_WRITE_ZEROES, off, len);
	} else if (dice < 93) {
		EXPECT(submit(m->dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush failed");
	} else {			/* overwrite one whole page */
		random_range(m, 1, &off, &len);
		do_write(m, off - off % m->page, m->page);
	}
}

int test_model(int argc, char **argv)
{
	const char *settings[32];
	unsigned int nr_settings = 0;
	u64 ops = 50000, seed = 1, i;
	struct ssd_stats st;
	struct model m;
	int a;

	memset(&m, 0, sizeof(m));
	m.util_percent = 92;
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--seed") && a + 1 < argc)
			seed = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--ops") && a + 1 < argc)
			ops = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--util") && a + 1 < argc)
			m.util_percent = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--cache-percent") && a + 1 < argc)
			route_cache_percent = strtoull(argv[++a], NULL, 0);
		else if (!strcmp(argv[a], "--dup-percent") && a + 1 < argc)
			dup_percent = strtoull(argv[++a], NULL, 0);
		else if (nr_settings < ARRAY_SIZE(settings))
			settings[nr_settings++] = argv[a];
	}

	if (route_cache_percent) {
		static const struct ssd_layer_type *const stack[] = {
			&route_type, &ssd_ftl_layer_type,
		};

		m.dev = make_device_stack(settings, nr_settings, stack, ARRAY_SIZE(stack));
	} else {
		m.dev = make_device(settings, nr_settings);
	}
	unit_ftl(m.dev)->gc_step_hook = gc_step_check;
	m.capacity = m.dev->capacity_bytes;
	m.page = m.dev->page_bytes;
	m.pages = m.capacity / m.page;
	m.unit = m.dev->cfg.logical_block_bytes;
	m.shadow = calloc(1, m.capacity);
	m.mapped = calloc(1, m.pages);
	m.io = malloc(64 * m.page);
	m.rng = seed;
	EXPECT(m.shadow && m.mapped && m.io, "out of memory");

	while (m.nr_mapped * 100 < m.pages * m.util_percent) {
		before_op(&m);
		fill_one(&m);
		after_op(&m);
	}
	for (i = 0; i < ops; i++) {
		before_op(&m);
		random_op(&m);
		after_op(&m);
		if (i % 10000 == 9999)
			verify_all(&m);
		if (model_dedup(m.dev) && i % 1000 == 999)
			EXPECT(ssd_device_check(m.dev) == 0, "dedup check after op %llu",
			       (unsigned long long)i);
	}
	verify_all(&m);
	EXPECT(ssd_ftl_check(unit_ftl(m.dev)) == 0, "final invariants");
	EXPECT(ssd_device_check(m.dev) == 0, "final check of every layer");

	ssd_device_get_stats(m.dev, &st);
	EXPECT(st.gc_victim_blocks + st.ftl_merge_erases > 0,
	       "neither GC nor merges ran: the test did not test them");
	EXPECT(m.gc_checks > 0 && hook.steps > 0, "no invariant check after GC");
	EXPECT(st.erase_count_total == st.flash_erase_blocks &&
	       st.flash_erase_blocks == st.gc_victim_blocks + st.ftl_merge_erases,
	       "erase counts disagree");
	if (model_dedup(m.dev)) {
		/* Each page written was programmed, avoided, or is still buffered. */
		EXPECT(st.flash_program_host_pages + st.dedup_programs_avoided +
		       st.dedup_buffered_pages == st.host_write_pages &&
		       st.flash_program_gc_pages == st.gc_relocated_pages,
		       "programs %llu + avoided %llu + buffered %llu != written %llu",
		       (unsigned long long)st.flash_program_host_pages,
		       (unsigned long long)st.dedup_programs_avoided,
		       (unsigned long long)st.dedup_buffered_pages,
		       (unsigned long long)st.host_write_pages);
		EXPECT(st.dedup_logical_pages == m.nr_mapped &&
		       st.valid_pages == st.dedup_physical_pages &&
		       st.data_bytes == st.dedup_physical_pages * m.page,
		       "logical %llu (model %llu), physical %llu, valid %llu",
		       (unsigned long long)st.dedup_logical_pages,
		       (unsigned long long)m.nr_mapped,
		       (unsigned long long)st.dedup_physical_pages,
		       (unsigned long long)st.valid_pages);
		if (dup_percent)
			EXPECT(st.dedup_duplicate_chunks > 0 &&
			       st.dedup_physical_pages < st.dedup_logical_pages,
			       "no duplicates found in a duplicate-heavy run");
		printf("dedup: duplicates=%llu fingerprinted=%llu late=%llu filtered=%llu "
		       "evictions=%llu physical=%llu logical=%llu avoided=%llu\n",
		       (unsigned long long)st.dedup_duplicate_chunks,
		       (unsigned long long)st.dedup_fingerprinted_chunks,
		       (unsigned long long)st.dedup_late_fingerprints,
		       (unsigned long long)st.dedup_filtered_chunks,
		       (unsigned long long)st.dedup_store_evictions,
		       (unsigned long long)st.dedup_physical_pages,
		       (unsigned long long)st.dedup_logical_pages,
		       (unsigned long long)st.dedup_programs_avoided);
	} else {
		EXPECT(st.flash_program_pages == st.host_write_pages + st.gc_relocated_pages +
		       st.flash_program_destage_pages + st.flash_program_fill_pages +
		       st.flash_program_map_pages + st.flash_program_merge_pages,
		       "programs %llu != host %llu + gc %llu + destage %llu",
		       (unsigned long long)st.flash_program_pages,
		       (unsigned long long)st.host_write_pages,
		       (unsigned long long)st.gc_relocated_pages,
		       (unsigned long long)st.flash_program_destage_pages);
		EXPECT(st.valid_pages == m.nr_mapped, "valid pages %llu, model %llu",
		       (unsigned long long)st.valid_pages, (unsigned long long)m.nr_mapped);
		EXPECT(st.data_bytes == m.nr_mapped * m.page,
		       "data bytes not following valid data");
	}
	if (!unit_ftl(m.dev)->gc_pages_per_write)
		EXPECT(st.gc_blocking_runs == 0, "whole-victim GC hit the hard floor");
	if (unit_layer(m.dev, "nvmcache"))
		check_cache_end(&m, &st);
	if (route_cache_percent) {
		struct route_layer *rl = to_route(m.dev->top);

		EXPECT(rl->cache_writes && st.flash_program_slc_pages >= rl->cache_writes &&
		       st.flash_erase_slc_blocks > 0 &&
		       st.slc_erase_count_total == st.flash_erase_slc_blocks,
		       "cache region: %llu writes, %llu programs, %llu erases",
		       (unsigned long long)rl->cache_writes,
		       (unsigned long long)st.flash_program_slc_pages,
		       (unsigned long long)st.flash_erase_slc_blocks);
		printf("cache: writes=%llu refused=%llu slc_erases=%llu slc_valid=%llu\n",
		       (unsigned long long)rl->cache_writes, (unsigned long long)rl->refused,
		       (unsigned long long)st.flash_erase_slc_blocks,
		       (unsigned long long)st.slc_valid_pages);
	}
	if (ftl_block_mapped(unit_ftl(m.dev)))
		printf("merges %s: switch=%llu partial=%llu full=%llu merge_pages=%llu "
		       "merge_erases=%llu wl_migrations=%llu wl_pages=%llu map_ram=%llu\n",
		       unit_ftl(m.dev)->scheme->name, (unsigned long long)st.ftl_switch_merges,
		       (unsigned long long)st.ftl_partial_merges,
		       (unsigned long long)st.ftl_full_merges,
		       (unsigned long long)st.flash_program_merge_pages,
		       (unsigned long long)st.ftl_merge_erases,
		       (unsigned long long)st.wl_static_migrations,
		       (unsigned long long)st.wl_static_pages,
		       (unsigned long long)st.ftl_map_ram_bytes);
	printf("model: seed=%llu ops=%llu util>=%llu%% gc_steps_checked=%llu "
	       "gc_blocking_runs=%llu max_step_pages=%u max_write_pages=%llu reads=%llu "
	       "erases=%llu erase_max=%llu waf=%.3f\n",
	       (unsigned long long)seed, (unsigned long long)ops,
	       (unsigned long long)m.util_percent, (unsigned long long)hook.steps,
	       (unsigned long long)st.gc_blocking_runs, hook.max_step_pages,
	       (unsigned long long)st.gc_relocated_pages_write_max,
	       (unsigned long long)m.reads_checked,
	       (unsigned long long)st.erase_count_total,
	       (unsigned long long)st.erase_count_max,
	       (double)st.flash_program_pages * st.page_size_bytes / st.host_write_bytes);

	ssd_device_destroy(m.dev);
	free(m.shadow);
	free(m.mapped);
	free(m.io);
	return 0;
}

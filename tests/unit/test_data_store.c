// SPDX-License-Identifier: GPL-2.0
/*
 * test_data_store.c - data_store (common/ssd_config.h), what the data store
 * keeps of a page:
 *
 *  - digest: a page buffer is one id per 512-byte sector; a partial write
 *    merges the ids of the sectors it writes into the page's (read, merged,
 *    rewritten as in bytes mode), a page never written merges with zero
 *    ids, a partial WRITE_ZEROES writes zero ids, and a request that is not
 *    whole sectors is refused before it changes anything;
 *  - none: no page buffers, no page table; writes, reads, read-modify-write
 *    and TRIM still count as in bytes mode; dedup is refused;
 *  - a random workload gives every counter identical in bytes and digest
 *    mode (dedup with its sampling filter, over a write cache filling on
 *    reads: bytes mode's data is the digest expanded by the core's rule),
 *    and in bytes and
 *    none mode (the cache, no dedup);
 *  - the memory plan per logical page: a page-mapped device with
 *    data_store=none and no cache or dedup plans at most 16 bytes of RAM
 *    per logical page (bytes mode: more, a pointer per physical page), so
 *    do the other mapping schemes (they keep the same exact maps), and
 *    allocates what it plans, to the byte, in every mode.
 */
#include "unit.h"

#define GEOMETRY "logical_block_bytes=512", "pages_per_block=16", "blocks_per_chip=32", \
	"chips=4", "channels=2", "op_percent=15", "memory_limit_mb=64"
#define SECTORS_PER_PAGE	(4096 / SSD_SECTOR_BYTES)
#define ID			SSD_DIGEST_ID_BYTES

/* Request data of @sectors sectors: ids, or bytes expanded from them. */
static u8 ids_buf[64 * ID], bytes_buf[64 * SSD_SECTOR_BYTES];

static void set_id(u8 *id, u32 value)
{
	memset(id, 0, ID);
	memcpy(id, &value, sizeof(value));
	/* Every byte set: at every offset the sample sees the id. */
	if (value)
		memset(id + 4, (u8)value, ID - 4);
}

/*
 * bytes_buf for a write of @sectors sectors from sector @first: the bytes
 * ids_buf stands for (ssd_digest_expand(), each sector at its place in its
 * page).
 */
static void expand(u64 first, u32 sectors)
{
	u8 page[SECTORS_PER_PAGE * ID];
	u32 k;

	for (k = 0; k < sectors; k++) {
		u32 at = (first + k) % SECTORS_PER_PAGE;

		memcpy(page + at * ID, ids_buf + k * ID, ID);
		ssd_digest_expand(page, at * SSD_SECTOR_BYTES, SSD_SECTOR_BYTES,
				  bytes_buf + k * SSD_SECTOR_BYTES);
	}
}

static int submit_mode(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length)
{
	switch (ssd_device_data_store(dev)) {
	case SSD_DATA_BYTES:
		return submit(dev, op, offset, length, bytes_buf);
	case SSD_DATA_DIGEST:
		return submit(dev, op, offset, length, ids_buf);
	default: {
		struct ssd_request req = { .op = op, .offset_bytes = offset,
					   .length_bytes = length };
		u64 done_ns;

		return ssd_device_submit(dev, &req, &done_ns);
	}
	}
}

/* The buffer page @lpn holds now (NULL: none), read through the stack. */
static const u8 *page_of(struct ssd_device *dev, u64 lpn)
{
	struct ssd_io io = { .cause = SSD_CAUSE_HOST };
	const void *data = NULL;

	EXPECT(dev->top->ops->read(dev->top, lpn, &io, &data) == 0, "read of lpn %llu",
	       (unsigned long long)lpn);
	return data;
}

static void expect_ids(const u8 *page, const u32 *want, const char *what)
{
	u32 s;
	u8 id[ID];

	for (s = 0; s < SECTORS_PER_PAGE; s++) {
		set_id(id, want[s]);
		EXPECT(!memcmp(page + s * ID, id, ID), "%s: sector %u is not id %u", what, s,
		       want[s]);
	}
}

static void test_digest_merge(void)
{
	static const char *const cfg[] = { GEOMETRY, "data_store=digest" };
	struct ssd_device *dev = make_device(cfg, ARRAY_SIZE(cfg));
	u32 want[SECTORS_PER_PAGE], s;
	struct ssd_stats st;

	EXPECT(dev->pool.page_bytes == SECTORS_PER_PAGE * ID, "digest buffers of %u bytes",
	       dev->pool.page_bytes);
	/* A whole page: ids 1..8. */
	for (s = 0; s < SECTORS_PER_PAGE; s++) {
		want[s] = s + 1;
		set_id(ids_buf + s * ID, want[s]);
	}
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 4096, 4096) == 0, "whole page write");
	expect_ids(page_of(dev, 1), want, "whole page");
	/* Sectors 2..4 of it: merged, the others kept. */
	for (s = 2; s <= 4; s++) {
		want[s] = 100 + s;
		set_id(ids_buf + (s - 2) * ID, want[s]);
	}
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 4096 + 2 * 512, 3 * 512) == 0, "partial write");
	expect_ids(page_of(dev, 1), want, "partial write");
	/* A partial WRITE_ZEROES: zero ids. */
	EXPECT(submit_mode(dev, SSD_OP_WRITE_ZEROES, 4096 + 7 * 512, 512) == 0, "zeroes");
	want[7] = 0;
	expect_ids(page_of(dev, 1), want, "partial write-zeroes");
	/* A page never written merges with zero ids. */
	set_id(ids_buf, 55);
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 3 * 4096 + 512, 512) == 0, "new partial");
	memset(want, 0, sizeof(want));
	want[1] = 55;
	expect_ids(page_of(dev, 3), want, "partial write of a new page");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.host_rmw_pages == 2, "%llu read-modify-writes, want 2 (the new page has none)",
	       (unsigned long long)st.host_rmw_pages);
	/* Not whole sectors: refused, nothing counted. */
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 4096 + 100, 512) == -EINVAL, "unaligned accepted");
	EXPECT(submit_mode(dev, SSD_OP_READ, 4096, 300) == -EINVAL, "unaligned read accepted");
	{
		struct ssd_stats after;

		ssd_device_get_stats(dev, &after);
		EXPECT(after.commands == st.commands && after.host_write_pages ==
		       st.host_write_pages, "a refused request was counted");
	}
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
}

static void test_none(void)
{
	static const char *const cfg[] = { GEOMETRY, "data_store=none" };
	static const char *const dd[] = { GEOMETRY, "data_store=none", "dedup=1" };
	struct ssd_device *dev = make_device(cfg, ARRAY_SIZE(cfg));
	struct ssd_config c;
	struct ssd_stats st;

	EXPECT(!dev->flash.page_data && dev->flash.live_bits, "a page table with none");
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 0, 8192) == 0, "write");
	EXPECT(submit_mode(dev, SSD_OP_WRITE, 512, 512) == 0, "partial write");
	EXPECT(submit_mode(dev, SSD_OP_READ, 0, 8192) == 0, "read");
	EXPECT(submit_mode(dev, SSD_OP_TRIM, 4096, 4096) == 0, "trim");
	EXPECT(page_of(dev, 0) && !page_of(dev, 1), "which pages hold data");
	ssd_device_get_stats(dev, &st);
	EXPECT(st.host_rmw_pages == 1 && st.valid_pages == 1 && st.data_bytes == 4096,
	       "rmw %llu valid %llu data %llu", (unsigned long long)st.host_rmw_pages,
	       (unsigned long long)st.valid_pages, (unsigned long long)st.data_bytes);
	EXPECT(st.spare_buffer_bytes == 0 && dev->pool.nr_buffers == 0, "page buffers with none");
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);
	make_config(&c, dd, ARRAY_SIZE(dd));
	EXPECT(ssd_device_validate_config(&c) == -EINVAL, "dedup accepted with data_store=none");
}

/*
 * The kernel's check: digest and none are ssdsim's alone; the kernel keeps
 * bytes, so auto and bytes (a snapshot ssdsim saved with --data) load.
 */
static void test_kernel_refuses(void)
{
	static const char *const stores[] = { "digest", "none" };
	struct ssd_config c;
	unsigned int i;

	ssd_config_defaults(&c);
	EXPECT(ssd_config_check_kernel(&c) == 0, "the defaults refused");
	for (i = 0; i < ARRAY_SIZE(stores); i++) {
		EXPECT(ssd_config_set(&c, "data_store", stores[i]) == 0, "%s", stores[i]);
		EXPECT(ssd_config_check_kernel(&c) == -EINVAL, "the kernel takes data_store=%s",
		       stores[i]);
	}
	EXPECT(ssd_config_set(&c, "data_store", "auto") == 0 && ssd_config_check_kernel(&c) == 0,
	       "auto refused");
	EXPECT(ssd_config_set(&c, "data_store", "bytes") == 0 && ssd_config_check_kernel(&c) == 0,
	       "bytes refused");
	EXPECT(ssd_config_set(&c, "data_store", "pages") == -EINVAL, "data_store=pages taken");
}

/* The same random workload in @a_mode and @b_mode: every counter alike. */
static void compare_modes(const char *const *keys, unsigned int nr_keys, const char *b_mode,
			  u64 seed, unsigned int ops)
{
	const char *settings[32];
	struct ssd_device *devs[2];
	struct ssd_stats st[2];
	u64 logical, rng = seed;
	unsigned int i, m;

	EXPECT(nr_keys + 1 < ARRAY_SIZE(settings), "too many keys");
	for (m = 0; m < 2; m++) {
		memcpy(settings, keys, nr_keys * sizeof(*keys));
		settings[nr_keys] = m ? b_mode : "data_store=auto";
		devs[m] = make_device(settings, nr_keys + 1);
	}
	logical = ssd_device_capacity_bytes(devs[0]) / SSD_SECTOR_BYTES;
	for (i = 0; i < ops; i++) {
		u64 r = rng_below(&rng, 100), sectors = 1 + rng_below(&rng, 24), s;
		/* A hot quarter of the space, so pages are overwritten and merged. */
		u64 first = rng_below(&rng, logical / 4 - sectors);
		enum ssd_op op = r < 60 ? SSD_OP_WRITE : r < 85 ? SSD_OP_READ :
				 r < 92 ? SSD_OP_TRIM : r < 97 ? SSD_OP_WRITE_ZEROES :
				 SSD_OP_FLUSH;

		/* Few distinct ids: duplicates and sample matches happen. */
		for (s = 0; s < sectors; s++)
			set_id(ids_buf + s * ID, (u32)rng_below(&rng, 6));
		expand(first, sectors);
		for (m = 0; m < 2; m++)
			EXPECT(submit_mode(devs[m], op, first * SSD_SECTOR_BYTES,
					   op == SSD_OP_FLUSH ? 0 : sectors * SSD_SECTOR_BYTES) == 0,
			       "op %u of mode %u", i, m);
	}
	for (m = 0; m < 2; m++) {
		struct ssd_request flush = { .op = SSD_OP_FLUSH };
		u64 done_ns;

		EXPECT(ssd_device_submit(devs[m], &flush, &done_ns) == 0, "flush");
		EXPECT(ssd_device_check(devs[m]) == 0, "check of mode %u", m);
		ssd_device_get_stats(devs[m], &st[m]);
	}
	/* RAM figures follow the mode; nothing the model did may. */
#define SAME(name)							\
	EXPECT(!strcmp(#name, "flash_metadata_bytes") ||		\
	       !strcmp(#name, "spare_buffer_bytes") ||			\
	       !strcmp(#name, "data_limit_bytes") ||			\
	       st[0].name == st[1].name, "%s: %llu in bytes mode, %llu with %s", #name, \
	       (unsigned long long)st[0].name, (unsigned long long)st[1].name, b_mode);
	SSD_STATS_FIELDS(SAME)
#undef SAME
	/* What could differ did happen: merges, cache fills, duplicates, samples. */
	EXPECT(st[0].host_rmw_pages > 0 && st[0].cache_fill_pages > 0, "no merges or fills");
	EXPECT(!st[0].dedup_chunks_written || (st[0].dedup_duplicate_chunks > 0 &&
					       st[0].dedup_filtered_chunks > 0 &&
					       st[0].dedup_fingerprinted_chunks > 0),
	       "dedup found no duplicates or the filter did nothing");
	for (m = 0; m < 2; m++)
		ssd_device_destroy(devs[m]);
}

static void test_modes_count_alike(void)
{
	static const char *const dedup_cache[] = {
		GEOMETRY, "dedup=1", "dedup_filter=1", "dedup_sample_offset_bytes=1000",
		"dedup_sample_bytes=20", "dedup_buffer_pages=8", "slc_blocks_per_chip=4",
		"cache_policy=always", "cache_read_allocate=1",
	};
	static const char *const cache[] = {
		GEOMETRY, "slc_blocks_per_chip=4", "cache_policy=always",
		"cache_read_allocate=1",
	};
	u64 seed;

	for (seed = 1; seed <= 3; seed++) {
		compare_modes(dedup_cache, ARRAY_SIZE(dedup_cache), "data_store=digest", seed,
			      4000);
		compare_modes(cache, ARRAY_SIZE(cache), "data_store=none", seed, 4000);
	}
}

/* RAM a device of @settings plans per logical page, and it allocates that. */
static double plan_per_logical_page(const char *const *settings, unsigned int count,
				    bool create)
{
	struct ssd_memory_plan plan;
	struct ssd_config cfg;

	make_config(&cfg, settings, count);
	EXPECT(ssd_memory_plan(&cfg, ssd_default_stack, ssd_default_stack_size, &plan) == 0,
	       "plan refused");
	if (create) {
		u64 before = ssd_zalloc_bytes_total;
		struct ssd_device *dev;

		EXPECT(ssd_device_create(&dev, &cfg) == 0, "create");
		EXPECT(ssd_zalloc_bytes_total - before == plan.metadata_bytes,
		       "planned %llu, allocated %llu", (unsigned long long)plan.metadata_bytes,
		       (unsigned long long)(ssd_zalloc_bytes_total - before));
		ssd_device_destroy(dev);
	}
	return (double)plan.metadata_bytes / (double)ssd_config_logical_pages(&cfg);
}

#define PROCACHE_32G "logical_block_bytes=512", "page_size_bytes=2048", "pages_per_block=128", \
	"blocks_per_chip=4096", "chips=32", "channels=4", "memory_limit_mb=4096"

static void test_bytes_per_logical_page(void)
{
	static const char *const none[] = { PROCACHE_32G, "data_store=none" };
	static const char *const digest[] = { PROCACHE_32G, "data_store=digest" };
	static const char *const bytes[] = { PROCACHE_32G, "data_store=bytes" };
	static const char *const small[] = { GEOMETRY, "data_store=none" };
	static const char *const small_digest[] = { GEOMETRY, "data_store=digest" };
	double n = plan_per_logical_page(none, ARRAY_SIZE(none), false);
	double d = plan_per_logical_page(digest, ARRAY_SIZE(digest), false);
	double b = plan_per_logical_page(bytes, ARRAY_SIZE(bytes), false);

	printf("metadata per logical page (ProCache 32 GB): none %.2f B, digest %.2f B, bytes %.2f B\n",
	       n, d, b);
	EXPECT(n <= 16.0, "data_store=none plans %.2f bytes per logical page, over 16", n);
	/* A pointer per physical page more: the plan does tell them apart. */
	EXPECT(b >= n + 8.0 && d == b, "bytes %.2f, digest %.2f, none %.2f", b, d, n);
	/* Every mapping scheme keeps the exact L2P and P2L: the same budget. */
	{
		static const char *const types[] = { "ftl_type=block", "ftl_type=bast",
						     "ftl_type=fast", "ftl_type=dftl" };
		const char *typed[] = { PROCACHE_32G, "data_store=none", NULL };
		unsigned int t;

		for (t = 0; t < ARRAY_SIZE(types); t++) {
			double per;

			typed[ARRAY_SIZE(typed) - 1] = types[t];
			per = plan_per_logical_page(typed, ARRAY_SIZE(typed), false);
			printf("  %s: %.2f B per logical page\n", types[t], per);
			EXPECT(per <= 16.0, "%s plans %.2f bytes per logical page", types[t], per);
		}
	}
	plan_per_logical_page(small, ARRAY_SIZE(small), true);
	plan_per_logical_page(small_digest, ARRAY_SIZE(small_digest), true);
}

int test_data_store(int argc, char **argv)
{
	test_digest_merge();
	test_none();
	test_kernel_refuses();
	test_modes_count_alike();
	test_bytes_per_logical_page();
	printf("data_store: ok\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_dftl.c - DFTL (ftl_type=dftl, ftl/ftl_dftl.c) against the page FTL.
 *
 * One seeded request sequence (page writes and overwrites keeping the
 * logical space about 90% mapped, TRIMs, reads; arrivals spaced so the
 * timing model matters) runs on several devices of one geometry, with a
 * shadow copy of every page checked on each read and at the end, and
 * ssd_ftl_check() after every GC step:
 *
 * - a CMT as large as the logical space: every statistic is the page
 *   FTL's (programs, GC relocations, erases, erase counts, every latency
 *   and busy time) but the CMT's own counters: no translation page is ever
 *   written or read, the misses are the compulsory ones (one per lpn first
 *   looked up) and hits + misses are the lookups;
 * - a small CMT: misses, translation reads and writes and translation GC
 *   all happen, the flash's map counters are exactly the translation
 *   traffic, host programs are the page FTL's, reads wait for their
 *   entries (more read latency), and the modeled map RAM is the CMT's
 *   entries plus the GTD;
 * - a larger CMT misses less and writes fewer translation pages.
 *
 * usage: dftl [--ops N]
 */
#include "unit.h"
#include "ftl/ftl_dftl.h"

#define DFTL_GEOMETRY	"page_size_bytes=512", "logical_block_bytes=512", \
			"pages_per_block=16", "blocks_per_chip=32", "chips=4", \
			"channels=2", "op_percent=15"

static int submit_at(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length,
		     void *buf, u64 arrival_ns)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = op, .offset_bytes = offset, .length_bytes = length,
		.data = &fi.it, .arrival_ns = arrival_ns,
	};
	u64 done_ns;

	flat_iter_init(&fi, buf);
	return ssd_device_submit(dev, &req, &done_ns);
}

static void fill_page(u8 *page, u32 size, u64 lpn, u64 ver)
{
	u64 seed = lpn * 1000003 + ver * 7919 + 1, i;

	for (i = 0; i < size; i += 8) {
		u64 v = rng_next(&seed);

		memcpy(page + i, &v, 8);
	}
}

struct dftl_run {
	struct ssd_stats st;
	u64 lookups;		/* host map lookups the sequence made */
	u64 distinct;		/* lpns first looked up */
};

/*
 * The sequence on a device of @settings; every read checked against the
 * shadow (version 0 = unmapped, zeros).
 */
static void run(const char *const *settings, unsigned int count, u64 ops, struct dftl_run *res)
{
	struct ssd_device *dev = make_device(settings, count);
	struct ftl *ftl = unit_ftl(dev);
	u32 psize = dev->cfg.page_size_bytes;
	u64 pages = ftl->logical_pages, rng = 2024, arrival = 0, mapped = 0, next_ver = 1, i;
	u64 *ver = calloc(pages, sizeof(u64));
	u8 *seen = calloc(pages, 1);
	u8 *page = malloc(psize), *back = malloc(psize), *zero = calloc(1, psize);

	EXPECT(ver && seen && page && back && zero, "out of memory");
	memset(res, 0, sizeof(*res));
	ftl->gc_step_hook = unit_check_ftl;
	for (i = 0; i < ops; i++) {
		u64 lpn = rng_below(&rng, pages), kind = rng_below(&rng, 100);

		arrival += rng_below(&rng, 4000000);
		if (mapped * 10 < pages * 9 || kind < 55) {
			ver[lpn] ? 0 : mapped++;
			ver[lpn] = next_ver++;
			fill_page(page, psize, lpn, ver[lpn]);
			EXPECT(submit_at(dev, SSD_OP_WRITE, lpn * psize, psize, page, arrival) == 0,
			       "write");
			res->lookups++;
		} else if (kind < 70) {
			res->lookups += ver[lpn] != 0;
			if (!ver[lpn])
				continue;
			mapped--;
			ver[lpn] = 0;
			EXPECT(submit_at(dev, SSD_OP_TRIM, lpn * psize, psize, NULL, arrival) == 0,
			       "trim");
		} else {
			EXPECT(submit_at(dev, SSD_OP_READ, lpn * psize, psize, back, arrival) == 0,
			       "read");
			res->lookups++;
			if (ver[lpn])
				fill_page(page, psize, lpn, ver[lpn]);
			EXPECT(!memcmp(back, ver[lpn] ? page : zero, psize),
			       "lpn %llu read wrong data", (unsigned long long)lpn);
		}
		if (!seen[lpn] && (ver[lpn] || kind >= 70)) {
			seen[lpn] = 1;
			res->distinct++;
		}
	}
	for (i = 0; i < pages; i++) {
		res->lookups++;
		res->distinct += !seen[i];
		if (ver[i])
			fill_page(page, psize, i, ver[i]);
		EXPECT(submit_at(dev, SSD_OP_READ, i * psize, psize, back, arrival) == 0, "read");
		EXPECT(!memcmp(back, ver[i] ? page : zero, psize), "lpn %llu wrong at the end",
		       (unsigned long long)i);
	}
	EXPECT(ssd_device_check(dev) == 0, "device check");
	ssd_device_get_stats(dev, &res->st);
	free(ver);
	free(seen);
	free(page);
	free(back);
	free(zero);
	ssd_device_destroy(dev);
}

static void print_run(const char *name, const struct dftl_run *r)
{
	const struct ssd_stats *st = &r->st;

	printf("dftl %s: hits %llu misses %llu, translation reads %llu writes %llu gc %llu, programs host %llu gc %llu map %llu, erases %llu, read latency %llu us, map RAM %llu bytes\n",
	       name, (unsigned long long)st->dftl_cmt_hits,
	       (unsigned long long)st->dftl_cmt_misses,
	       (unsigned long long)st->dftl_translation_reads,
	       (unsigned long long)st->dftl_translation_writes,
	       (unsigned long long)st->dftl_translation_gc_pages,
	       (unsigned long long)st->flash_program_host_pages,
	       (unsigned long long)st->flash_program_gc_pages,
	       (unsigned long long)st->flash_program_map_pages,
	       (unsigned long long)st->flash_erase_blocks,
	       (unsigned long long)(st->read_latency_ns_total / 1000),
	       (unsigned long long)st->ftl_map_ram_bytes);
}

/* A CMT holding every entry: the page FTL's statistics, to the nanosecond. */
static void test_large_cmt(const struct dftl_run *page, u64 ops)
{
	static const char *const s[] = { DFTL_GEOMETRY, "ftl_type=dftl",
					 "dftl_cmt_entries=1073741824" };
	struct ssd_stats a = page->st, b;
	struct dftl_run big;

	run(s, ARRAY_SIZE(s), ops, &big);
	print_run("cmt=all", &big);
	b = big.st;
	EXPECT(b.gc_relocated_pages > 0 && b.flash_erase_blocks > 0, "GC never ran");
	EXPECT(b.dftl_translation_reads == 0 && b.dftl_translation_writes == 0 &&
	       b.dftl_translation_gc_pages == 0 && b.flash_program_map_pages == 0 &&
	       b.flash_read_map_pages == 0, "a CMT of every entry moved translation pages");
	EXPECT(b.dftl_cmt_misses == big.distinct && b.dftl_cmt_hits + b.dftl_cmt_misses ==
	       big.lookups, "hits %llu misses %llu, %llu lookups of %llu lpns",
	       (unsigned long long)b.dftl_cmt_hits, (unsigned long long)b.dftl_cmt_misses,
	       (unsigned long long)big.lookups, (unsigned long long)big.distinct);
	/* Everything else is the page FTL's. */
	b.dftl_cmt_hits = 0;
	b.dftl_cmt_misses = 0;
	b.ftl_metadata_bytes = a.ftl_metadata_bytes;
	b.ftl_map_ram_bytes = a.ftl_map_ram_bytes;
	b.spare_buffer_bytes = a.spare_buffer_bytes;
	b.data_limit_bytes = a.data_limit_bytes;
#define SAME(name)							\
	EXPECT(a.name == b.name, "%s: page %llu, dftl %llu", #name,	\
	       (unsigned long long)a.name, (unsigned long long)b.name);
	SSD_STATS_FIELDS(SAME)
#undef SAME
}

/* A small CMT: translation traffic, all of it under the map cause. */
static void test_small_cmt(const struct dftl_run *page, u64 ops, struct dftl_run *small)
{
	static const char *const s[] = { DFTL_GEOMETRY, "ftl_type=dftl", "dftl_cmt_entries=16" };
	const struct ssd_stats *st = &small->st;
	u64 tpages, ram;

	run(s, ARRAY_SIZE(s), ops, small);
	print_run("cmt=16", small);
	EXPECT(st->dftl_cmt_misses > 0 && st->dftl_translation_reads > 0 &&
	       st->dftl_translation_writes > 0 && st->dftl_translation_gc_pages > 0,
	       "a 16-entry CMT moved no translation pages");
	EXPECT(st->dftl_cmt_hits + st->dftl_cmt_misses == small->lookups,
	       "hits %llu + misses %llu != %llu lookups", (unsigned long long)st->dftl_cmt_hits,
	       (unsigned long long)st->dftl_cmt_misses, (unsigned long long)small->lookups);
	EXPECT(st->flash_program_map_pages ==
	       st->dftl_translation_writes + st->dftl_translation_gc_pages &&
	       st->flash_read_map_pages == st->dftl_translation_reads +
	       st->dftl_translation_gc_pages,
	       "map programs %llu reads %llu", (unsigned long long)st->flash_program_map_pages,
	       (unsigned long long)st->flash_read_map_pages);
	EXPECT(st->flash_program_pages == st->flash_program_host_pages +
	       st->flash_program_gc_pages + st->flash_program_map_pages,
	       "programs %llu", (unsigned long long)st->flash_program_pages);
	EXPECT(st->flash_program_host_pages == page->st.flash_program_host_pages,
	       "host programs %llu, the page FTL's %llu",
	       (unsigned long long)st->flash_program_host_pages,
	       (unsigned long long)page->st.flash_program_host_pages);
	EXPECT(st->read_latency_ns_total > page->st.read_latency_ns_total,
	       "reads waited for no translation page");
	/* 512-byte pages: 128 entries a translation page. */
	tpages = (small->st.logical_capacity_bytes / 512 + 127) / 128;
	ram = 16 * 2 * sizeof(u32) + tpages * sizeof(u32);
	EXPECT(st->ftl_map_ram_bytes == ram, "map RAM %llu bytes, expected %llu",
	       (unsigned long long)st->ftl_map_ram_bytes, (unsigned long long)ram);
	EXPECT(st->ftl_map_ram_bytes < page->st.ftl_map_ram_bytes,
	       "DFTL's map RAM %llu is not below the page map's %llu",
	       (unsigned long long)st->ftl_map_ram_bytes,
	       (unsigned long long)page->st.ftl_map_ram_bytes);
}

int test_dftl(int argc, char **argv)
{
	static const char *const page_s[] = { DFTL_GEOMETRY, "ftl_type=page" };
	static const char *const mid_s[] = { DFTL_GEOMETRY, "ftl_type=dftl",
					     "dftl_cmt_entries=256" };
	struct dftl_run page, small, mid;
	u64 ops = 40000;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ops") && i + 1 < argc)
			ops = strtoull(argv[++i], NULL, 0);
		else
			FAIL("usage: dftl [--ops N]");
	}
	run(page_s, ARRAY_SIZE(page_s), ops, &page);
	print_run("page", &page);
	test_large_cmt(&page, ops);
	test_small_cmt(&page, ops, &small);
	run(mid_s, ARRAY_SIZE(mid_s), ops, &mid);
	print_run("cmt=256", &mid);
	EXPECT(mid.st.dftl_cmt_misses < small.st.dftl_cmt_misses &&
	       mid.st.dftl_translation_writes < small.st.dftl_translation_writes,
	       "a 256-entry CMT missed %llu and wrote %llu, a 16-entry one %llu and %llu",
	       (unsigned long long)mid.st.dftl_cmt_misses,
	       (unsigned long long)mid.st.dftl_translation_writes,
	       (unsigned long long)small.st.dftl_cmt_misses,
	       (unsigned long long)small.st.dftl_translation_writes);
	printf("dftl: ok\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen_blocks.c - a primary-storage block trace with duplicate
 * content (tracegen dedup-blocks), for the dedup-aware caches when the
 * real dedup traces are not at hand.
 *
 * The address space (--space-mib) is cut into regions of --region-kib;
 * a request picks a region by Zipf(--zipf) over popularity ranks (mapped
 * to regions by a seeded permutation), starts at a uniform page of it and
 * covers 1 to --request-max-kib / 4 pages (uniform).  It is a read with
 * probability --read-percent, else a write.  A write is, with probability
 * --dup-percent, a copy: its pages get the current content of as many
 * pages at the same offset of another region chosen the same way (a copy
 * of popular data, aligned as file and VM-image copies are, so whole
 * blocks repeat); else it writes new content.  A page never written
 * holds content unique to its address.  Reads carry the current content's
 * hashes.  One 32-hex-digit hash per 4 KiB block (FIU format).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/tracegen/tracegen.h"

struct bopts {
	uint64_t requests, pages, region_pages, max_pages, seed;
	double zipf, read, dup;
	const char *out;
};

static void busage(FILE *f)
{
	fprintf(f,
		"usage: tracegen dedup-blocks [options]\n"
		"  --requests N         requests, 1-100000000 (200000)\n"
		"  --space-mib N        address space, 1-1048576 MiB (1024)\n"
		"  --region-kib N       region of the popularity ranks, 4-1048576 KiB,\n"
		"                       a multiple of 4 (64)\n"
		"  --zipf X             Zipf exponent of region popularity, 0-3 (0.9)\n"
		"  --read-percent P     reads among requests, 0-100 (50)\n"
		"  --dup-percent P      writes that copy other content, 0-100 (30)\n"
		"  --request-max-kib N  largest request, 4-4096 KiB, a multiple of 4 (64)\n"
		"  --seed N             PRNG seed (1)\n"
		"  -o FILE              output (default stdout)\n");
}

static void bparse(struct bopts *o, int argc, char **argv)
{
	uint64_t space_mib = 1024, region_kib = 64, max_kib = 64;

	*o = (struct bopts){ .requests = 200000, .seed = 1, .zipf = 0.9, .read = 0.5,
			     .dup = 0.3 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help")) {
			busage(stdout);
			exit(0);
		}
		if (!v) {
			fprintf(stderr, "tracegen: %s needs a value (tracegen dedup-blocks --help)\n", a);
			exit(2);
		}
		i++;
		if (!strcmp(a, "--requests"))
			o->requests = tg_integer(a, v, 1, 100000000);
		else if (!strcmp(a, "--space-mib"))
			space_mib = tg_integer(a, v, 1, 1048576);
		else if (!strcmp(a, "--region-kib"))
			region_kib = tg_integer(a, v, 4, 1048576);
		else if (!strcmp(a, "--zipf"))
			o->zipf = tg_number(a, v, 0, 3);
		else if (!strcmp(a, "--read-percent"))
			o->read = tg_number(a, v, 0, 100) / 100;
		else if (!strcmp(a, "--dup-percent"))
			o->dup = tg_number(a, v, 0, 100) / 100;
		else if (!strcmp(a, "--request-max-kib"))
			max_kib = tg_integer(a, v, 4, 4096);
		else if (!strcmp(a, "--seed"))
			o->seed = tg_integer(a, v, 0, UINT64_MAX);
		else if (!strcmp(a, "-o"))
			o->out = v;
		else {
			fprintf(stderr, "tracegen: unknown option %s (tracegen dedup-blocks --help)\n", a);
			exit(2);
		}
	}
	if (region_kib % 4 || max_kib % 4) {
		fprintf(stderr, "tracegen: --region-kib and --request-max-kib must be multiples of 4\n");
		exit(2);
	}
	o->pages = space_mib * 256;
	o->region_pages = region_kib / 4;
	o->max_pages = max_kib / 4;
	if (o->region_pages > o->pages) {
		fprintf(stderr, "tracegen: --region-kib %llu: larger than --space-mib\n",
			(unsigned long long)region_kib);
		exit(2);
	}
}

/* A page picked by region popularity, uniform within the region. */
static uint64_t pick_page(const struct bopts *o, const struct tg_zipf *z, const uint64_t *perm,
			  struct tg_rng *r)
{
	uint64_t region = perm[tg_zipf_draw(z, r)];

	return region * o->region_pages + tg_below(r, o->region_pages);
}

int tg_dedup_blocks(int argc, char **argv)
{
	struct bopts o;
	struct tg_rng rng;
	struct tg_zipf z;
	uint64_t *content, *ids, *perm, regions, next_id = 1;
	FILE *f = stdout;

	bparse(&o, argc, argv);
	rng.state = o.seed;
	regions = o.pages / o.region_pages;
	content = calloc(o.pages, sizeof(*content));
	ids = malloc(o.max_pages * sizeof(*ids));
	if (!content || !ids || tg_zipf_init(&z, regions, o.zipf))
		return 1;
	perm = tg_permutation(regions, &rng);
	if (!perm)
		return 1;
	if (o.out && !(f = fopen(o.out, "w"))) {
		perror(o.out);
		return 1;
	}
	for (uint64_t i = 0; i < o.requests; i++) {
		uint64_t page = pick_page(&o, &z, perm, &rng);
		uint64_t pages = 1 + tg_below(&rng, o.max_pages);
		char op = tg_uniform(&rng) < o.read ? 'R' : 'W';

		uint64_t src = UINT64_MAX;

		if (page + pages > o.pages)
			pages = o.pages - page;
		if (op == 'W' && tg_uniform(&rng) < o.dup) {
			src = perm[tg_zipf_draw(&z, &rng)] * o.region_pages + page % o.region_pages;
			if (src + pages > o.pages)
				src = o.pages - pages;
		}
		for (uint64_t k = 0; k < pages; k++) {
			uint64_t p = page + k;

			if (op == 'W' && src != UINT64_MAX)
				content[p] = content[src + k] ? content[src + k] :
					     (1ULL << 63) | (src + k);
			else if (op == 'W')
				content[p] = next_id++;
			ids[k] = content[p] ? content[p] : (1ULL << 63) | p;
		}
		tg_write_line(f, i * 1000, 0, "synth", page, pages, op, ids, o.seed);
	}
	if (f != stdout && fclose(f)) {
		perror(o.out);
		return 1;
	}
	tg_zipf_free(&z);
	free(perm);
	free(content);
	free(ids);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen - writes synthetic block traces with content hashes, in the
 * FIU format ssdsim and cachesim read (tracegen.h):
 *
 *   tracegen zipf-files [options]     Zipf file reads over files with
 *                                     shared chunks (tracegen_zipf.c)
 *   tracegen dedup-blocks [options]   reads and writes over a Zipf address
 *                                     space with duplicate content
 *                                     (tracegen_blocks.c)
 *
 * Deterministic: the same options and seed give the same trace.  This
 * file has the shared helpers.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tracegen/tracegen.h"

uint64_t tg_next(struct tg_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double tg_uniform(struct tg_rng *r)
{
	return (tg_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

uint64_t tg_below(struct tg_rng *r, uint64_t n)
{
	return n ? (uint64_t)(tg_uniform(r) * (double)n) % n : 0;
}

int tg_zipf_init(struct tg_zipf *z, uint64_t n, double exponent)
{
	double sum = 0;

	z->cdf = malloc(n * sizeof(double));
	if (!z->cdf)
		return -1;
	z->n = n;
	for (uint64_t i = 0; i < n; i++) {
		sum += pow((double)(i + 1), -exponent);
		z->cdf[i] = sum;
	}
	for (uint64_t i = 0; i < n; i++)
		z->cdf[i] /= sum;
	return 0;
}

void tg_zipf_free(struct tg_zipf *z)
{
	free(z->cdf);
	z->cdf = NULL;
}

uint64_t tg_zipf_draw(const struct tg_zipf *z, struct tg_rng *r)
{
	double u = tg_uniform(r);
	uint64_t lo = 0, hi = z->n - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] > u)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

uint64_t *tg_permutation(uint64_t n, struct tg_rng *r)
{
	uint64_t *p = malloc((n ? n : 1) * sizeof(*p));

	if (!p)
		return NULL;
	for (uint64_t i = 0; i < n; i++)
		p[i] = i;
	for (uint64_t i = n; i > 1; i--) {
		uint64_t j = tg_below(r, i), t = p[i - 1];

		p[i - 1] = p[j];
		p[j] = t;
	}
	return p;
}

void tg_write_line(FILE *f, uint64_t time_ns, uint64_t pid, const char *process,
		   uint64_t page, uint64_t pages, char op, const uint64_t *ids, uint64_t salt)
{
	fprintf(f, "%llu %llu %s %llu %llu %c 6 0 ", (unsigned long long)time_ns,
		(unsigned long long)pid, process, (unsigned long long)(page * 8),
		(unsigned long long)(pages * 8), op);
	for (uint64_t i = 0; i < pages; i++) {
		struct tg_rng h = { ids[i] ^ salt };
		uint64_t a = tg_next(&h), b = tg_next(&h);

		fprintf(f, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
	}
	fputc('\n', f);
}

double tg_number(const char *opt, const char *v, double lo, double hi)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || *end || isnan(x) || x < lo || x > hi) {
		fprintf(stderr, "tracegen: %s %s: must be a number from %g to %g\n", opt, v, lo, hi);
		exit(2);
	}
	return x;
}

uint64_t tg_integer(const char *opt, const char *v, uint64_t lo, uint64_t hi)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (errno || end == v || *end || v[0] == '-' || x < lo || x > hi) {
		fprintf(stderr, "tracegen: %s %s: must be an integer from %llu to %llu\n", opt, v,
			(unsigned long long)lo, (unsigned long long)hi);
		exit(2);
	}
	return x;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "zipf-files"))
		return tg_zipf_files(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "dedup-blocks"))
		return tg_dedup_blocks(argc - 1, argv + 1);
	fprintf(stderr, "usage: tracegen zipf-files|dedup-blocks [options]   (--help for each)\n");
	return 2;
}

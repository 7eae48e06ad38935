// SPDX-License-Identifier: GPL-2.0
/*
 * tracegen_zipf.c - Zipf file reads over files with shared chunks, the
 * PLC-Cache paper's workload (tracegen zipf-files).
 *
 * --files files get sizes log-uniform between --file-min-kib and
 * --file-max-kib (whole 4 KiB chunks).  Their content is made run by run
 * (runs of geometric length, mean --dup-run-kib): with probability
 * --dup-percent a run copies as many consecutive chunks from a uniformly
 * chosen earlier place of the files made so far, else it is new chunks.
 * The files lie one after another in the address space.
 *
 * The trace first stores every file in order (writes of --request-kib,
 * process "store"; --no-store leaves them out), then reads whole files,
 * each chosen by Zipf(--alpha) over popularity ranks (ranks map to files by
 * a seeded permutation), in requests of --request-kib (process "read"),
 * until --read-mib have been read.  Rank i is drawn with probability
 * proportional to 1 / i^(1+alpha), the PLC-Cache paper's eq. (1)
 * (plc-cache-msst-2014.txt:945; --zipf-form eq1, the default), or to
 * i^-alpha (--zipf-form power: the usual Zipf law, which this generator
 * drew before).  The pid field is the file's number.  A summary (files,
 * logical and unique bytes, duplicate share, reads, the exponent drawn
 * with) goes to stderr.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/tracegen/tracegen.h"

struct zopts {
	uint64_t files, min_pages, max_pages, run_pages, read_bytes, req_pages, seed;
	double alpha, dup;
	int store;
	int power_form;		/* 1: P(i) ~ i^-alpha; 0: eq. (1), 1 / i^(1+alpha) */
	const char *out;
};

static void zusage(FILE *f)
{
	fprintf(f,
		"usage: tracegen zipf-files [options]\n"
		"  --files N            files, 1-10000000 (2000)\n"
		"  --file-min-kib N     smallest file, 4-1048576 KiB (16)\n"
		"  --file-max-kib N     largest file, min-1048576 KiB (1024)\n"
		"  --alpha X            Zipf parameter of file popularity, 0-3 (0.47)\n"
		"  --zipf-form F        eq1: P(i) ~ 1/i^(1+alpha), the PLC-Cache paper's eq. (1);\n"
		"                       power: P(i) ~ i^-alpha (eq1)\n"
		"  --dup-percent P      share of runs copied from earlier files, 0-100 (30)\n"
		"  --dup-run-kib N      mean run length, 4-65536 KiB (64)\n"
		"  --read-mib N         read volume, 1-100000000 MiB (1024)\n"
		"  --request-kib N      request size, 4-65536 KiB, a multiple of 4 (128)\n"
		"  --seed N             PRNG seed (1)\n"
		"  --no-store           leave out the writes that store the files\n"
		"  -o FILE              output (default stdout)\n");
}

static void zparse(struct zopts *o, int argc, char **argv)
{
	uint64_t min_kib = 16, max_kib = 1024, req_kib = 128;

	*o = (struct zopts){ .files = 2000, .run_pages = 16, .read_bytes = 1024ULL << 20,
			     .seed = 1, .alpha = 0.47, .dup = 0.30, .store = 1 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--help")) {
			zusage(stdout);
			exit(0);
		} else if (!strcmp(a, "--no-store")) {
			o->store = 0;
			continue;
		}
		if (!v) {
			fprintf(stderr, "tracegen: %s needs a value (tracegen zipf-files --help)\n", a);
			exit(2);
		}
		i++;
		if (!strcmp(a, "--zipf-form")) {
			if (strcmp(v, "eq1") && strcmp(v, "power")) {
				fprintf(stderr, "tracegen: --zipf-form %s: must be eq1 or power\n", v);
				exit(2);
			}
			o->power_form = !strcmp(v, "power");
		} else if (!strcmp(a, "--files"))
			o->files = tg_integer(a, v, 1, 10000000);
		else if (!strcmp(a, "--file-min-kib"))
			min_kib = tg_integer(a, v, 4, 1048576);
		else if (!strcmp(a, "--file-max-kib"))
			max_kib = tg_integer(a, v, 4, 1048576);
		else if (!strcmp(a, "--alpha"))
			o->alpha = tg_number(a, v, 0, 3);
		else if (!strcmp(a, "--dup-percent"))
			o->dup = tg_number(a, v, 0, 100) / 100;
		else if (!strcmp(a, "--dup-run-kib"))
			o->run_pages = tg_integer(a, v, 4, 65536) / 4;
		else if (!strcmp(a, "--read-mib"))
			o->read_bytes = tg_integer(a, v, 1, 100000000) << 20;
		else if (!strcmp(a, "--request-kib"))
			req_kib = tg_integer(a, v, 4, 65536);
		else if (!strcmp(a, "--seed"))
			o->seed = tg_integer(a, v, 0, UINT64_MAX);
		else if (!strcmp(a, "-o"))
			o->out = v;
		else {
			fprintf(stderr, "tracegen: unknown option %s (tracegen zipf-files --help)\n", a);
			exit(2);
		}
	}
	if (max_kib < min_kib) {
		fprintf(stderr, "tracegen: --file-max-kib %llu: must be at least --file-min-kib %llu\n",
			(unsigned long long)max_kib, (unsigned long long)min_kib);
		exit(2);
	}
	if (req_kib % 4) {
		fprintf(stderr, "tracegen: --request-kib %llu: must be a multiple of 4\n",
			(unsigned long long)req_kib);
		exit(2);
	}
	o->min_pages = min_kib / 4;
	o->max_pages = max_kib / 4;
	o->req_pages = req_kib / 4;
}

/* One file's requests (store or read), @req_pages at most each. */
static void emit_file(FILE *f, const struct zopts *o, uint64_t *time_ns, uint64_t file,
		      const char *process, char op, uint64_t base, uint64_t pages,
		      const uint64_t *ids)
{
	for (uint64_t at = 0; at < pages; at += o->req_pages) {
		uint64_t n = pages - at < o->req_pages ? pages - at : o->req_pages;

		tg_write_line(f, *time_ns, file, process, base + at, n, op, ids + at, o->seed);
		*time_ns += 1000;
	}
}

int tg_zipf_files(int argc, char **argv)
{
	struct zopts o;
	struct tg_rng rng;
	struct tg_zipf zipf;
	uint64_t *size, *start, *ids, *rank_to_file, total = 0, next_id = 1, dup_pages = 0;
	uint64_t time_ns = 0, read = 0, read_requests = 0;
	FILE *f = stdout;

	zparse(&o, argc, argv);
	rng.state = o.seed;
	size = malloc(o.files * sizeof(*size));
	start = malloc(o.files * sizeof(*start));
	if (!size || !start)
		return 1;
	for (uint64_t i = 0; i < o.files; i++) {
		double lo = (double)o.min_pages, hi = (double)o.max_pages;
		double x = lo * pow(hi / lo, tg_uniform(&rng));

		size[i] = (uint64_t)(x + 0.5);
		if (size[i] < o.min_pages)
			size[i] = o.min_pages;
		if (size[i] > o.max_pages)
			size[i] = o.max_pages;
		start[i] = total;
		total += size[i];
	}
	ids = malloc(total * sizeof(*ids));
	if (!ids)
		return 1;
	for (uint64_t at = 0; at < total;) {
		uint64_t run = 1;

		while (run < total - at && tg_uniform(&rng) >= 1.0 / o.run_pages)
			run++;
		if (at && tg_uniform(&rng) < o.dup) {
			uint64_t from = tg_below(&rng, at);

			for (uint64_t k = 0; k < run; k++)
				ids[at + k] = ids[from + (k % (at - from))];
			dup_pages += run;
		} else {
			for (uint64_t k = 0; k < run; k++)
				ids[at + k] = next_id++;
		}
		at += run;
	}
	if (o.out && !(f = fopen(o.out, "w"))) {
		perror(o.out);
		return 1;
	}
	if (o.store)
		for (uint64_t i = 0; i < o.files; i++)
			emit_file(f, &o, &time_ns, i, "store", 'W', start[i], size[i],
				  ids + start[i]);
	if (tg_zipf_init(&zipf, o.files, o.power_form ? o.alpha : 1.0 + o.alpha))
		return 1;
	rank_to_file = tg_permutation(o.files, &rng);
	while (read < o.read_bytes) {
		uint64_t file = rank_to_file[tg_zipf_draw(&zipf, &rng)];

		emit_file(f, &o, &time_ns, file, "read", 'R', start[file], size[file],
			  ids + start[file]);
		read += size[file] * 4096;
		read_requests += (size[file] + o.req_pages - 1) / o.req_pages;
	}
	fprintf(stderr, "files %llu\nlogical_bytes %llu\nunique_bytes %llu\ndup_share %.6f\n"
		"read_requests %llu\nread_bytes %llu\nzipf_exponent %.6f\n",
		(unsigned long long)o.files,
		(unsigned long long)total * 4096, (unsigned long long)(next_id - 1) * 4096,
		total ? (double)dup_pages / total : 0.0, (unsigned long long)read_requests,
		(unsigned long long)read, o.power_form ? o.alpha : 1.0 + o.alpha);
	if (f != stdout && fclose(f)) {
		perror(o.out);
		return 1;
	}
	tg_zipf_free(&zipf);
	free(rank_to_file);
	free(ids);
	free(size);
	free(start);
	return 0;
}

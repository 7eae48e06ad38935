/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracegen.h - what the trace generators share: the seeded PRNG
 * (splitmix64), Zipf sampling by rank, and the FIU line they write
 * (time_ns pid process lba_sectors size_sectors R|W major minor md5...,
 * one 32-hex-digit hash per 4 KiB block: ssdsim and cachesim read it).
 * A chunk's hash is a function of its content id alone.
 */
#ifndef TRACEGEN_H
#define TRACEGEN_H

#include <stdint.h>
#include <stdio.h>

struct tg_rng {
	uint64_t state;
};

uint64_t tg_next(struct tg_rng *r);
/* Uniform in [0, 1). */
double tg_uniform(struct tg_rng *r);
/* Uniform in [0, n). */
uint64_t tg_below(struct tg_rng *r, uint64_t n);

/* Ranks 1..n with P(rank r) proportional to r^-exponent (the caller
 * passes 1 + alpha for the PLC-Cache paper's eq. (1)). */
struct tg_zipf {
	double *cdf;
	uint64_t n;
};

int tg_zipf_init(struct tg_zipf *z, uint64_t n, double exponent);
void tg_zipf_free(struct tg_zipf *z);
/* A rank, 0-based (0 is the most popular). */
uint64_t tg_zipf_draw(const struct tg_zipf *z, struct tg_rng *r);
/* A seeded permutation of 0..n-1 (rank -> item), or NULL. */
uint64_t *tg_permutation(uint64_t n, struct tg_rng *r);

/* One request line; ids[i] is the content of its i-th 4 KiB block. */
void tg_write_line(FILE *f, uint64_t time_ns, uint64_t pid, const char *process,
		   uint64_t page, uint64_t pages, char op, const uint64_t *ids, uint64_t salt);

/* Option parsing with the option named in every refusal. */
double tg_number(const char *opt, const char *v, double lo, double hi);
uint64_t tg_integer(const char *opt, const char *v, uint64_t lo, uint64_t hi);

int tg_zipf_files(int argc, char **argv);
int tg_dedup_blocks(int argc, char **argv);

#endif /* TRACEGEN_H */

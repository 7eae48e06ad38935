// SPDX-License-Identifier: GPL-2.0
/*
 * sha1_page_ns.c - the host CPU cost of the dedup layer's SHA-1 in
 * userspace: nanoseconds per 4 KiB page of ssd_sha1_digest(), the function
 * ssdsim and the unit tests fingerprint pages with.  Hashes 256 distinct
 * pseudo-random pages round after round, keeps the fastest of 5 runs
 * (the least disturbed by other processes), and prints the XOR of all
 * digests of one pass, so two builds can be shown to compute the same
 * fingerprints.  Usage: sha1_page_ns [PAGES_PER_RUN]   (make bench-sha1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/ssd_platform.h"

#define PAGE_BYTES	4096
#define DISTINCT_PAGES	256
#define RUNS		5

static u8 pages[DISTINCT_PAGES][PAGE_BYTES];

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long per_run = argc > 1 ? atol(argv[1]) : 20000;
	u8 digest[SSD_SHA1_BYTES], xor[SSD_SHA1_BYTES] = { 0 };
	double best = 0;
	u64 state = 0x9e3779b97f4a7c15ull;
	unsigned int i, j;

	if (per_run <= 0) {
		fprintf(stderr, "sha1_page_ns: PAGES_PER_RUN must be > 0\n");
		return 2;
	}
	for (i = 0; i < DISTINCT_PAGES; i++)
		for (j = 0; j < PAGE_BYTES; j++) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			pages[i][j] = (u8)(state >> 56);
		}
	for (i = 0; i < DISTINCT_PAGES; i++) {
		ssd_sha1_digest(pages[i], PAGE_BYTES, digest);
		for (j = 0; j < SSD_SHA1_BYTES; j++)
			xor[j] ^= digest[j];
	}
	for (i = 0; i < RUNS; i++) {
		double t0 = now_ns(), ns;
		long n;

		for (n = 0; n < per_run; n++)
			ssd_sha1_digest(pages[n % DISTINCT_PAGES], PAGE_BYTES, digest);
		ns = (now_ns() - t0) / per_run;
		if (!i || ns < best)
			best = ns;
	}
	printf("sha1 of a 4 KiB page: %.0f ns (%.0f MB/s), best of %d runs of %ld pages\n",
	       best, PAGE_BYTES / best * 1e3, RUNS, per_run);
	printf("xor of %d page digests: ", DISTINCT_PAGES);
	for (j = 0; j < SSD_SHA1_BYTES; j++)
		printf("%02x", xor[j]);
	printf("\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * sim_progress.c - the progress line on stderr (sim_progress.h).
 */
#include <stdio.h>
#include <unistd.h>

#include "tools/ssdsim/sim_progress.h"

/* Redraws at most this often. */
#define REDRAW_NS	250000000LL

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

void sim_progress_start(struct sim_progress *p, int mode, unsigned int passes)
{
	p->on = mode > 0 || (mode < 0 && isatty(STDERR_FILENO));
	p->drawn = false;
	p->passes = passes ? passes : 1;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	/* The first tick draws. */
	p->last.tv_sec = 0;
	p->last.tv_nsec = 0;
}

/* A count as 1234, 12.3k, 4.56M. */
static void human_count(double v, char *buf, size_t bytes)
{
	if (v >= 1e6)
		snprintf(buf, bytes, "%.2fM", v / 1e6);
	else if (v >= 1e4)
		snprintf(buf, bytes, "%.1fk", v / 1e3);
	else
		snprintf(buf, bytes, "%.0f", v);
}

void sim_progress_tick(struct sim_progress *p, uint64_t requests, unsigned int pass,
		       uint64_t done, uint64_t total)
{
	char count[32], rate[32], left[64] = "";
	struct timespec now;
	double s, share;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (p->drawn && ns_between(&p->last, &now) < REDRAW_NS)
		return;
	p->last = now;
	s = ns_between(&p->start, &now) / 1e9;
	human_count((double)requests, count, sizeof(count));
	human_count(s > 0 ? requests / s : 0, rate, sizeof(rate));
	if (total) {
		share = ((double)pass + (double)done / (double)total) / p->passes;
		if (share > 0)
			snprintf(left, sizeof(left), ", %.0f%%, ETA %.0f s", 100 * share,
				 s / share - s);
	}
	if (p->passes > 1)
		fprintf(stderr, "\rssdsim: pass %u/%u, %s requests, %s/s%s   ", pass + 1,
			p->passes, count, rate, left);
	else
		fprintf(stderr, "\rssdsim: %s requests, %s/s%s   ", count, rate, left);
	p->drawn = true;
}

void sim_progress_end(struct sim_progress *p)
{
	if (p->drawn)
		fprintf(stderr, "\r%-79s\r", "");
	p->drawn = false;
}

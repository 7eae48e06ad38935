/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_derived.h - the figures the tools derive from the counters of
 * struct ssdemu_stats, each computed here once: WAF (all programs and
 * TLC-only), mean latencies, the dedup ratio, the mean erase count, the
 * SLC write cache's bypasses and write hit ratio.  The counters are the
 * table's (stats_fields.h); the kernel does no floating point and derives
 * none of these.
 */
#ifndef SSD_STATS_DERIVED_H
#define SSD_STATS_DERIVED_H

#include "include/ssdemu_ioctl.h"

/* Bytes programmed into flash / bytes the host wrote; < 0 if the host wrote nothing. */
double stats_waf_of(unsigned long long program_pages, unsigned long long page_size_bytes,
		    unsigned long long host_write_bytes);
/* WAF of every program, and of the TLC programs alone; < 0 if undefined. */
double stats_waf(const struct ssdemu_stats *st);
double stats_waf_tlc(const struct ssdemu_stats *st);
/* Mean latency in microseconds of @commands summing @total_ns; < 0 if none. */
double stats_mean_us(unsigned long long commands, unsigned long long total_ns);
/* Mean read and write latency, us; < 0 if none (or a writer without them). */
double stats_read_mean_us(const struct ssdemu_stats *st);
double stats_write_mean_us(const struct ssdemu_stats *st);
/* Logical pages holding data per page stored (dedup=1); < 0 if undefined. */
double stats_dedup_ratio(const struct ssdemu_stats *st);
/* The mean erase count of a block. */
double stats_erase_count_mean(const struct ssdemu_stats *st);
/* Write misses the SLC write cache sent to TLC, for every reason. */
unsigned long long stats_cache_bypass_pages(const struct ssdemu_stats *st);
/* Cache write hits per host page write; 0 if the host wrote nothing. */
double stats_cache_write_hit_ratio(const struct ssdemu_stats *st);

#endif /* SSD_STATS_DERIVED_H */

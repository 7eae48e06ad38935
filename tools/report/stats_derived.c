// SPDX-License-Identifier: GPL-2.0
/*
 * stats_derived.c - the derived figures of stats_derived.h.
 */
#include <stddef.h>

#include "tools/report/stats_derived.h"
#include "tools/report/stats_fields.h"

double stats_waf_of(unsigned long long program_pages, unsigned long long page_size_bytes,
		    unsigned long long host_write_bytes)
{
	if (!host_write_bytes)
		return -1.0;
	return (double)program_pages * page_size_bytes / (double)host_write_bytes;
}

double stats_waf(const struct ssdemu_stats *st)
{
	return stats_waf_of(st->flash_program_pages, st->page_size_bytes, st->host_write_bytes);
}

double stats_waf_tlc(const struct ssdemu_stats *st)
{
	return stats_waf_of(st->flash_program_tlc_pages, st->page_size_bytes,
			    st->host_write_bytes);
}

double stats_mean_us(unsigned long long commands, unsigned long long total_ns)
{
	if (!commands)
		return -1.0;
	return (double)total_ns / 1000.0 / (double)commands;
}

double stats_read_mean_us(const struct ssdemu_stats *st)
{
	if (!stats_known(st, offsetof(struct ssdemu_stats, read_latency_ns_total)))
		return -1.0;
	return stats_mean_us(st->read_commands, st->read_latency_ns_total);
}

double stats_write_mean_us(const struct ssdemu_stats *st)
{
	if (!stats_known(st, offsetof(struct ssdemu_stats, write_latency_ns_total)))
		return -1.0;
	return stats_mean_us(st->write_commands, st->write_latency_ns_total);
}

double stats_dedup_ratio(const struct ssdemu_stats *st)
{
	if (!stats_known(st, offsetof(struct ssdemu_stats, dedup_physical_pages)) ||
	    !st->dedup_physical_pages)
		return -1.0;
	return (double)st->dedup_logical_pages / (double)st->dedup_physical_pages;
}

double stats_erase_count_mean(const struct ssdemu_stats *st)
{
	return st->erase_count_mean_milli / 1000.0;
}

unsigned long long stats_cache_bypass_pages(const struct ssdemu_stats *st)
{
	return st->cache_bypass_size_pages + st->cache_bypass_dice_pages +
	       st->cache_bypass_policy_pages + st->cache_bypass_delay_pages +
	       st->cache_bypass_inout_pages;
}

double stats_cache_write_hit_ratio(const struct ssdemu_stats *st)
{
	if (!st->host_write_pages)
		return 0.0;
	return (double)st->cache_write_hit_pages / (double)st->host_write_pages;
}

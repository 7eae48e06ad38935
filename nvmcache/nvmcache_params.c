// SPDX-License-Identifier: GPL-2.0
/*
 * nvmcache_params.c - the configuration keys the write cache's algorithms
 * read, handed to cachealg/ as its parameters (struct cache_params, whose
 * fields carry the keys' names), and RCE's setting for cache_rce=1.  The
 * device keeps its counters compact: PLC's in a byte and RCE's notes in
 * two, saturating.
 */
#include "nvmcache/nvmcache_internal.h"

_Static_assert(CACHE_PROCACHE_CLASSES == SSD_PROCACHE_CLASSES,
	       "ProCache's size classes: one count in cachealg/ and common/");

void ssd_nvmcache_params(const struct ssd_config *cfg, struct cache_params *p)
{
	const u64 class_ppm[SSD_PROCACHE_CLASSES] = {
		cfg->procache_p_class0_ppm, cfg->procache_p_class1_ppm,
		cfg->procache_p_class2_ppm, cfg->procache_p_class3_ppm,
		cfg->procache_p_class4_ppm, cfg->procache_p_class5_ppm,
		cfg->procache_p_class6_ppm, cfg->procache_p_class7_ppm,
	};
	u32 k;

	memset(p, 0, sizeof(*p));
	p->cache_gclock_max_priority = (u32)cfg->cache_gclock_max_priority;
	p->cache_s3fifo_small_percent = (u32)cfg->cache_s3fifo_small_percent;
	p->cache_s3fifo_ghost_percent = (u32)cfg->cache_s3fifo_ghost_percent;
	p->cache_s3fifo_move_hits = (u32)cfg->cache_s3fifo_move_hits;
	p->cache_s3fifo_fill_main = cfg->cache_s3fifo_fill_main;
	p->procache_c_bytes = cfg->procache_c_bytes;
	for (k = 0; k < SSD_PROCACHE_CLASSES; k++)
		p->procache_p_ppm[k] = cfg->procache_p_vector ? class_ppm[k] : cfg->procache_p_ppm;
	p->page_bytes = cfg->page_size_bytes;
	p->refcnt_threshold = (u32)cfg->refcnt_threshold;
	p->refcnt_decay_writes = cfg->refcnt_decay_writes;
	p->larc_ghost_pages = cfg->larc_ghost_pages;
	p->tinylfu_sample_writes = cfg->tinylfu_sample_writes;
	p->plc_access_threshold = (u32)cfg->plc_access_threshold;
	p->plc_delay = (u32)cfg->plc_delay;
	p->plc_inout_percent = (u32)cfg->plc_inout_percent;
	p->plc_inout_form = (u8)cfg->plc_inout_form;
	p->plc_inout_f = (u8)cfg->plc_inout_f;
	p->plc_priority_init = (u8)cfg->plc_priority_init;
	p->plc_delay_hit = (u8)cfg->plc_delay_hit;
	p->plc_hand_passes = cfg->plc_hand_passes;
	p->plc_filter = true;
	p->plc_delayed = true;
	p->plc_inout = true;
	p->plc_count_bytes = 1;
}

const struct cache_rce_params *ssd_nvmcache_rce(const struct ssd_config *cfg)
{
	static const struct cache_rce_params rce = {
		.fall_percent = 50,
		.note_bytes = sizeof(u16),
	};

	return cfg->cache_rce ? &rce : NULL;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * nvmcache_params.c - what the write cache hands its algorithms
 * (cachealg/) besides the cache's size: the device's configuration, whose
 * keys each policy reads itself (cachealg_knob(), in its own file: no
 * line here per policy), the page size, and compact counts (PLC's in a
 * byte, saturating); and RCE's setting for cache_rce=1, its notes in two
 * bytes, saturating.  Without BHI (a page has one part) every victim goes
 * to RCE; a spared page's note is renewed at each of its turns and, a
 * scan having spared every page, the replacement's choice leaves: a write
 * the cache admitted always finds room (the device's rule since RCE came).
 */
#include "nvmcache/nvmcache_internal.h"

void ssd_nvmcache_params(const struct ssd_config *cfg, struct cache_params *p)
{
	memset(p, 0, sizeof(*p));
	p->cfg = cfg;
	p->page_bytes = cfg->page_size_bytes;
}

const struct cache_rce_params *ssd_nvmcache_rce(const struct ssd_config *cfg)
{
	static const struct cache_rce_params rce = {
		.fall_percent = 50,
		.note_bytes = sizeof(u16),
		.remark = true,
		.forced_drop = true,
	};

	return cfg->cache_rce ? &rce : NULL;
}

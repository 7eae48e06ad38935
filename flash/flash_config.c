// SPDX-License-Identifier: GPL-2.0
/*
 * flash_config.c - the flash's geometry and the timing model's latencies
 * taken from a device configuration (the per-page-type latency keys fall
 * back to the common ones when 0).
 */
#include "flash/flash_config.h"

void ssd_flash_geometry_from(const struct ssd_config *cfg, struct flash_geometry *geo)
{
	geo->page_size_bytes = cfg->page_size_bytes;
	geo->pages_per_block = cfg->pages_per_block;
	geo->blocks_per_chip = cfg->blocks_per_chip;
	geo->chips = cfg->chips;
	geo->channels = cfg->channels;
}

/* The latency of @type pages: the per-type key, or the common one if 0. */
static u64 typed(u64 per_type_ns, u64 common_ns)
{
	return per_type_ns ? per_type_ns : common_ns;
}

void ssd_flash_timing_params_from(const struct ssd_config *cfg, struct timing_params *p)
{
	u32 type;

	memset(p, 0, sizeof(*p));
	p->chips = cfg->chips;
	p->channels = cfg->channels;
	p->page_size_bytes = cfg->page_size_bytes;
	p->read_priority = cfg->read_priority;
	p->channel_mb_per_s = cfg->channel_mb_per_s;
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_LSB] = typed(cfg->read_lsb_ns, cfg->read_ns);
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_CSB] = typed(cfg->read_csb_ns, cfg->read_ns);
	p->read_ns[FLASH_MODE_TLC][FLASH_PAGE_MSB] = typed(cfg->read_msb_ns, cfg->read_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_LSB] =
		typed(cfg->program_lsb_ns, cfg->program_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_CSB] =
		typed(cfg->program_csb_ns, cfg->program_ns);
	p->program_ns[FLASH_MODE_TLC][FLASH_PAGE_MSB] =
		typed(cfg->program_msb_ns, cfg->program_ns);
	p->erase_ns[FLASH_MODE_TLC] = cfg->erase_ns;
	/* SLC pages are all alike. */
	for (type = 0; type < FLASH_PAGE_NR; type++) {
		p->read_ns[FLASH_MODE_SLC][type] = cfg->slc_read_ns;
		p->program_ns[FLASH_MODE_SLC][type] = cfg->slc_program_ns;
	}
	p->erase_ns[FLASH_MODE_SLC] = cfg->slc_erase_ns;
}

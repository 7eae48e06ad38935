// SPDX-License-Identifier: GPL-2.0
/*
 * flash_wear.c - wear-out faults of the flash: the chance that a program
 * or an erase fails as a block's erase count passes pe_cycle_limit, drawn
 * from the faults' own PRNG (fault_seed, never the seed stream), the time
 * a failed program takes, the failure counters, and the end-of-life
 * read-only state.  What a failure does to the data (retirement, moving
 * valid pages, spares) is the FTL's (ftl/ftl_retire.c).  With
 * grown_bad_ppm=0 nothing here draws, counts or takes time.
 */
#include "flash/flash.h"
#include "flash/flash_config.h"
#include "flash/flash_timing.h"

/* Mixed into fault_seed: this feature's own stream. */
#define FLASH_WEAR_SEED_MIX	0x57454152474f4f44ULL

void ssd_flash_wear_init(struct flash *fl, const struct ssd_config *cfg)
{
	memset(&fl->wear, 0, sizeof(fl->wear));
	ssd_rand_seed(&fl->wear.rand, cfg->fault_seed ^ FLASH_WEAR_SEED_MIX);
	fl->wear.grown_bad_ppm = cfg->grown_bad_ppm;
	fl->wear.pe_cycle_limit = cfg->pe_cycle_limit;
}

u64 ssd_flash_fail_ppm(u64 grown_bad_ppm, u64 pe_cycle_limit, u64 erase_count)
{
	u64 step = max_t(u64, 1, div_u64(pe_cycle_limit, 10)), doublings, ppm;

	if (!grown_bad_ppm || erase_count < pe_cycle_limit)
		return 0;
	doublings = div64_u64(erase_count - pe_cycle_limit, step);
	if (doublings >= 20)
		return SSD_PPM;
	ppm = grown_bad_ppm << doublings;
	return min_t(u64, ppm, SSD_PPM);
}

static bool wear_draw(struct flash *fl, u64 erase_count)
{
	u64 ppm = ssd_flash_fail_ppm(fl->wear.grown_bad_ppm, fl->wear.pe_cycle_limit,
				     erase_count);

	return ppm && ssd_rand_ppm(&fl->wear.rand, ppm);
}

bool ssd_flash_program_fails(struct flash *fl, u32 ppa, u64 erase_count, u64 start_ns,
			     u64 *done_ns)
{
	u32 block = flash_block_of(fl, ppa);

	*done_ns = start_ns;
	if (!wear_draw(fl, erase_count))
		return false;
	fl->wear.program_failures++;
	*done_ns = ssd_timing_program(fl->timing, flash_chip_of_block(fl, block),
				  flash_block_mode(fl, block),
				  (ppa % fl->geo.pages_per_block) % FLASH_PAGE_NR, start_ns);
	return true;
}

bool ssd_flash_erase_fails(struct flash *fl, u64 erase_count)
{
	if (!wear_draw(fl, erase_count))
		return false;
	fl->wear.erase_failures++;
	return true;
}

void ssd_flash_set_read_only(struct flash *fl)
{
	fl->wear.read_only = true;
}

void ssd_flash_count_refused(struct flash *fl, u64 pages)
{
	fl->wear.refused_pages += pages;
}

void ssd_flash_wear_save(const struct flash *fl, struct ssd_snap_writer *w)
{
	ssd_snap_put_u64(w, fl->wear.rand.state);
	ssd_snap_put_u64(w, fl->wear.program_failures);
	ssd_snap_put_u64(w, fl->wear.erase_failures);
	ssd_snap_put_u64(w, fl->wear.refused_pages);
	ssd_snap_put_u8(w, fl->wear.read_only);
}

void ssd_flash_wear_load(struct flash *fl, struct ssd_snap_reader *r)
{
	u8 read_only;

	fl->wear.rand.state = ssd_snap_get_u64(r);
	fl->wear.program_failures = ssd_snap_get_u64(r);
	fl->wear.erase_failures = ssd_snap_get_u64(r);
	fl->wear.refused_pages = ssd_snap_get_u64(r);
	read_only = ssd_snap_get_u8(r);
	if (!r->error && read_only > 1)
		ssd_snap_refuse(r, "flash read-only flag %u", read_only);
	fl->wear.read_only = read_only == 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme_dftl.c - ftl_type=dftl: the page scheme's placement and GC
 * with the map kept on flash and dftl_cmt_entries of it cached
 * (ftl_dftl.c, ftl_dftl_state.c), as a mapping scheme (ftl_scheme.c): its
 * key check, tables, map lookups, counters, check and snapshot part.  Its
 * controller RAM is the CMT's entries and the GTD.
 */
#include "ftl/ftl_dftl.h"

const struct ssd_config_key ssd_key_dftl_cmt_entries =
	SSD_CONFIG_KEY(dftl_cmt_entries, 16384, 1, 1ULL << 30, 0, NULL,
		       "DFTL (ftl_type=dftl): mapping entries its cached mapping table holds");

static const struct ssd_config_key *const dftl_keys[] = { &ssd_key_dftl_cmt_entries, NULL };

/*
 * Translation blocks come out of the main region: its data may fill the
 * region less their peak number, so data GC always finds a victim.
 */
static int dftl_validate(const struct ssd_config *cfg)
{
	u64 main_blocks = cfg->chips * (cfg->blocks_per_chip - cfg->slc_blocks_per_chip);
	u64 low = ssd_config_gc_low_free_blocks(cfg);
	u64 peak = ssd_ftl_dftl_peak_blocks(cfg);

	if (main_blocks <= peak ||
	    ssd_config_logical_pages(cfg) >
	    ssd_region_valid_max(main_blocks - peak, low, cfg->chips, cfg->pages_per_block)) {
		ssd_dev_err(cfg->name, "op_percent=%llu refused: too little spare space for DFTL's %llu translation blocks beside the data in the TLC region of %llu blocks (raise op_percent or blocks_per_chip)",
			    (unsigned long long)cfg->op_percent, (unsigned long long)peak,
			    (unsigned long long)main_blocks);
		return -EINVAL;
	}
	return 0;
}

static int dftl_init(struct ftl *ftl, const struct ssd_config *cfg)
{
	return ssd_ftl_dftl_init(ftl, cfg);
}

static void dftl_get_stats(const struct ftl *ftl, struct ssd_stats *st)
{
	const struct ftl_dftl_counters *dc = &dftl_of(ftl)->counters;

	st->dftl_cmt_hits = dc->cmt_hits;
	st->dftl_cmt_misses = dc->cmt_misses;
	st->dftl_translation_reads = dc->translation_reads;
	st->dftl_translation_writes = dc->translation_writes;
	st->dftl_translation_gc_pages = dc->translation_gc_pages;
}

static void dftl_reset_stats(struct ftl *ftl)
{
	memset(&dftl_of(ftl)->counters, 0, sizeof(dftl_of(ftl)->counters));
}

const struct ftl_scheme ssd_ftl_scheme_dftl = {
	.name = "dftl",
	.keys = dftl_keys,
	.validate = dftl_validate,
	.metadata_bytes = ssd_ftl_dftl_table_bytes,
	.init = dftl_init,
	.exit = ssd_ftl_dftl_exit,
	.map_ram_bytes = ssd_ftl_dftl_map_ram_bytes,
	.table_bytes = ssd_ftl_dftl_bytes,
	.check = ssd_ftl_dftl_check,
	.save = ssd_ftl_dftl_save,
	.load = ssd_ftl_dftl_load,
	.get_stats = dftl_get_stats,
	.reset_stats = dftl_reset_stats,
	.map_lookup = ssd_ftl_dftl_lookup,
	.map_gc_moved = ssd_ftl_dftl_gc_update,
};

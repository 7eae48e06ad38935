// SPDX-License-Identifier: GPL-2.0
/*
 * flash_store.c - the registry of data store modes: data_store's values
 * (common/ssd_config.h enum ssd_data_store, in order, the first the
 * default: auto, which the core keeps as bytes).  What each keeps is the page pool's and the flash's business
 * (common/ssd_pagepool.h, flash.h).
 */
#include "flash/flash.h"

static const char *const data_stores[SSD_DATA_NR] = {
	[SSD_DATA_AUTO] = "auto",
	[SSD_DATA_BYTES] = "bytes",
	[SSD_DATA_DIGEST] = "digest",
	[SSD_DATA_NONE] = "none",
};

static const char *data_store_name(u32 value)
{
	return data_stores[value];
}

const struct ssd_config_choice ssd_data_store_choice = {
	.nr = SSD_DATA_NR,
	.name = data_store_name,
};

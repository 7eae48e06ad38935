// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_memory.c - the memory plan of a device, worked out from its
 * configuration before anything is allocated: the device itself, the
 * controller's arrays, the request log, the working-set bitmap, the
 * flash's tables and each
 * enabled layer's, against memory_limit_mb.  A unit test holds the plan
 * equal to what is allocated, to the byte.
 */
#include "device/ssd_device_internal.h"

static u64 add_bytes(u64 a, u64 b)
{
	if (a == SSD_TABLE_TOO_BIG || b == SSD_TABLE_TOO_BIG)
		return SSD_TABLE_TOO_BIG;
	return a + b;
}

static u64 mib_up(u64 bytes)
{
	return (bytes + (1ULL << 20) - 1) >> 20;
}

/*
 * The tables as ssd_controller_init(), ssd_request_log_init(),
 * ssd_device_create(), ssd_flash_init() and the layers make them (a channel's booking list of the timing model may
 * grow later, up to its own bound).
 */
int ssd_memory_plan(const struct ssd_config *cfg,
		    const struct ssd_layer_type *const *types, unsigned int nr_types,
		    struct ssd_memory_plan *plan)
{
	const char *owner = "device";
	unsigned int i;
	u32 content;
	u64 bytes;

	bytes = ssd_tables_add(0, 1, 1, sizeof(struct ssd_device));
	bytes = ssd_controller_table_bytes(bytes, cfg->cmd_queue_depth);
	bytes = ssd_tables_add(bytes, 1, cfg->request_log_entries,
			       sizeof(struct ssd_log_entry));
	bytes = ssd_tables_add(bytes, 1, ssd_working_set_words(ssd_config_logical_pages(cfg)),
			       sizeof(u64));
	if (bytes != SSD_TABLE_TOO_BIG) {
		owner = "flash";
		bytes = ssd_flash_table_bytes(bytes, cfg);
	}
	for (i = 0; i < nr_types && bytes != SSD_TABLE_TOO_BIG; i++) {
		if (!ssd_stack_enabled(types[i], cfg) || !types[i]->metadata_bytes)
			continue;
		owner = types[i]->name;
		bytes = add_bytes(bytes, types[i]->metadata_bytes(cfg));
	}
	if (bytes == SSD_TABLE_TOO_BIG) {
		ssd_dev_err(cfg->name, "geometry refused: a table of the %s would be over %llu MiB, more than one allocation may hold (chips=%llu blocks_per_chip=%llu pages_per_block=%llu)",
			    owner, (unsigned long long)(SSD_MAX_TABLE_BYTES >> 20),
			    (unsigned long long)cfg->chips,
			    (unsigned long long)cfg->blocks_per_chip,
			    (unsigned long long)cfg->pages_per_block);
		return -EINVAL;
	}

	content = ssd_config_content_bytes(cfg);
	plan->metadata_bytes = bytes;
	plan->pool_bytes = SSD_PAGEPOOL_SPARE * (u64)content;
	plan->limit_bytes = cfg->memory_limit_mb ? cfg->memory_limit_mb << 20 :
			    ssd_total_ram_bytes() / 2;
	if (bytes + plan->pool_bytes + content > plan->limit_bytes) {
		ssd_dev_err(cfg->name, "memory_limit_mb=%llu%s: metadata needs %llu MiB and page buffers %llu MiB, leaving no room for data in %llu MiB (raise memory_limit_mb, up to %llu, or use fewer chips, blocks_per_chip or pages_per_block)",
			    (unsigned long long)cfg->memory_limit_mb,
			    cfg->memory_limit_mb ? "" : " (half of the RAM)",
			    (unsigned long long)mib_up(bytes),
			    (unsigned long long)mib_up(plan->pool_bytes),
			    (unsigned long long)(plan->limit_bytes >> 20),
			    (unsigned long long)SSD_MAX_MEMORY_LIMIT_MB);
		return -EINVAL;
	}
	/* Without page bytes (data_store=none) data costs no RAM: no cap. */
	plan->data_pages = content ? div64_u64(plan->limit_bytes - bytes - plan->pool_bytes,
					       content) : U64_MAX;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme_page.c - ftl_type=page, the default: the main region is
 * page-mapped by the common machinery (ftl.c, ftl_alloc.c, ftl_gc.c), so
 * every op but the RAM figure is the common path's.  Its controller RAM is
 * the page map: one 4-byte entry per logical page.
 */
#include "ftl/ftl_internal.h"

static u64 page_map_ram_bytes(const struct ftl *ftl)
{
	return ftl->logical_pages * sizeof(u32);
}

const struct ftl_scheme ssd_ftl_scheme_page = {
	.name = "page",
	.map_ram_bytes = page_map_ram_bytes,
};

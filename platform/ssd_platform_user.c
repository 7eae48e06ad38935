// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_platform_user.c - the userspace side of ssd_platform.h: what the
 * kernel provides itself (kstrtou64, the RAM size) and the switch that
 * silences logging.  Built only into the userspace library, never into the
 * module.
 */
#include <unistd.h>

#include "ssd_platform.h"

int ssd_log_quiet;
u64 ssd_zalloc_bytes_total;
long ssd_page_alloc_budget = -1;

/* Same contract as kstrtou64(str, 0, out): whole string, one trailing \n. */
int ssd_parse_u64(const char *str, u64 *out)
{
	unsigned long long value;
	char *end;

	if (!str || *str == '\0' || *str == '-' || *str == '+' || *str == ' ')
		return -EINVAL;
	errno = 0;
	value = strtoull(str, &end, 0);
	if (errno == ERANGE)
		return -ERANGE;
	if (end == str)
		return -EINVAL;
	if (*end == '\n')
		end++;
	if (*end != '\0')
		return -EINVAL;
	*out = value;
	return 0;
}

/* Like totalram_pages() << PAGE_SHIFT; 0 if the system does not say. */
u64 ssd_total_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_bytes = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page_bytes <= 0)
		return 0;
	return (u64)pages * (u64)page_bytes;
}

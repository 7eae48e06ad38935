/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_group.h - struct ssdemu_stats for people (`ssdctl stats DEV`):
 * grouped, layers that are off left out, sizes, times and ratios in units.
 */
#ifndef SSD_STATS_GROUP_H
#define SSD_STATS_GROUP_H

#include <stdio.h>

#include "include/ssdemu_ioctl.h"

void stats_print_grouped(FILE *out, const struct ssdemu_stats *st);

#endif /* SSD_STATS_GROUP_H */

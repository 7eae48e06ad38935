/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats_faults.h - what the tools say of a reading's faults, errors and
 * refusals, so that no failed request goes unseen: which counters are
 * those (the table's fault groups, stats_fields.h: read errors and
 * injection, wear-out, failed and refused requests; no list of names of
 * its own), the ones not zero, and the warning line when a host request
 * failed or was refused.  ssdsim's summary and `ssdctl stats` print them.
 */
#ifndef SSD_STATS_FAULTS_H
#define SSD_STATS_FAULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "include/ssdemu_ioctl.h"

/* Whether counter @i (stats_fields.h) is a fault, error or refusal counter. */
bool stats_field_is_fault(size_t i);
/* How many fault counters of @st are not zero. */
size_t stats_fault_count(const struct ssdemu_stats *st);
/*
 * Every fault counter of @st that is not zero, "name value" separated by
 * ", ", lines wrapped at @width columns and indented by @indent spaces
 * after the first; 0 if none (nothing printed), else how many.
 */
size_t stats_print_faults(FILE *out, const struct ssdemu_stats *st, unsigned int indent,
			  unsigned int width);
/*
 * "WARNING: 2000 of 2000 host reads failed" (and the writes and other
 * requests failed or refused) with a newline, when any host request
 * failed or was refused; nothing (false) otherwise.
 */
bool stats_print_warning(FILE *out, const struct ssdemu_stats *st);
/*
 * " (F failed, R refused: in no latency)" after a latency figure, when
 * any request of its kind failed or was refused; nothing otherwise.
 */
void stats_print_not_timed(FILE *out, unsigned long long failed, unsigned long long refused);

#endif /* SSD_STATS_FAULTS_H */

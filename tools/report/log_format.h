/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log_format.h - the text form of the request log, one request per line:
 *
 *   arrival_ns op offset_bytes length_bytes completion_ns
 *
 * with op one of R W T Z F (read, write, trim, write-zeroes, flush).
 * `ssdctl log` prints it from the kernel, `ssdsim --completions` from the
 * simulator, and ssdsim replays it (trace format "ssdemu").
 */
#ifndef SSD_LOG_FORMAT_H
#define SSD_LOG_FORMAT_H

#include <stdio.h>

#include "include/ssdemu_ioctl.h"

void log_entry_print(FILE *out, const struct ssdemu_log_entry *entry);
/* Parse one line; 0 or -1. */
int log_entry_parse(const char *line, struct ssdemu_log_entry *entry);

#endif /* SSD_LOG_FORMAT_H */

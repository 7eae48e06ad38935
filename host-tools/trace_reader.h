/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_reader.h - reads block traces line by line into one record type.
 *
 * Formats (auto-detected from the first data line; a line that matches
 * none is refused as an unrecognised format):
 *   mqsim  DiskSim/MQSim ASCII: arrival_ns device lba_sectors size_sectors
 *          type (1 = read, 0 = write)
 *   fiu    FIU SRCMap blkparse-style: time_ns pid process lba_sectors
 *          size_sectors R|W major minor md5-per-block
 *   ssdemu the request log of `ssdctl log` (log_format.h): arrival times
 *          are kept as they are, not made relative to the first request;
 *          a write may end with its data's MD5s as fiu has them
 *   blkparse  blkparse's default text output of a blktrace of one device;
 *          the D (issue) events are the requests, all else is skipped;
 *          read whole and sorted by time (a piped blkparse is not sorted)
 */
#ifndef SSD_TRACE_READER_H
#define SSD_TRACE_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "include/ssdemu_ioctl.h"

enum trace_format {
	TRACE_AUTO,
	TRACE_MQSIM,
	TRACE_FIU,
	TRACE_SSDEMU,
	TRACE_BLKPARSE,
};

struct trace_record {
	uint64_t arrival_ns;		/* relative to the trace's first record */
	uint64_t offset_bytes;
	uint64_t length_bytes;
	unsigned int op;		/* enum ssdemu_log_op */
	const char *content_hash;	/* hex MD5s of the data (fiu, ssdemu), or NULL */
};

struct trace_reader {
	FILE *file;
	const char *path;
	enum trace_format format;
	unsigned long line;
	bool have_first;
	bool have_device;		/* blkparse: the one device replayed */
	unsigned int device;
	uint64_t first_ns;
	char *buf;
	size_t buf_bytes;
	struct trace_record *sorted;	/* blkparse: every record, by time */
	size_t sorted_count;
	size_t sorted_next;
};

int trace_open(struct trace_reader *tr, const char *path, enum trace_format format);
/*
 * 1 with a record, 0 at the end, -1 after printing a parse error.  A data
 * request may have length 0 (the caller decides what to do with it).
 */
int trace_next(struct trace_reader *tr, struct trace_record *rec);
void trace_close(struct trace_reader *tr);
int trace_parse_format(const char *name, enum trace_format *format);
/* The format's name ("auto" until the first data line was read). */
const char *trace_format_name(enum trace_format format);

#endif /* SSD_TRACE_READER_H */

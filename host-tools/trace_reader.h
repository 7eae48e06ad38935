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
 *   blkparse  blkparse's default text output of a blktrace of one device
 *          (or of several, with a disk chosen); the D (issue) events are
 *          the requests, all else is skipped; read whole and sorted by time
 *          (a piped blkparse is not sorted)
 *
 * mqsim names a record's disk by a number, fiu and blkparse by
 * "major,minor"; an ssdemu request log has none.  The reader counts every
 * request of each disk (trace_disks.h) and, with a disk chosen, returns
 * only that disk's requests.
 */
#ifndef SSD_TRACE_READER_H
#define SSD_TRACE_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "host-tools/trace_disks.h"
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
	bool has_device;		/* the format names the record's disk */
	uint64_t device;		/* its disk (trace_disks.h) */
};

struct trace_reader {
	FILE *file;
	const char *path;
	enum trace_format format;
	unsigned long line;
	bool have_first;
	bool have_device;		/* blkparse: the one device replayed */
	uint64_t device;
	struct trace_disk_spec disk;	/* set before reading: this disk only */
	struct trace_disks disks;	/* the requests of every disk read */
	bool disk_checked;		/* @disk checked against the format */
	uint64_t first_ns;
	char *buf;
	size_t buf_bytes;
	struct trace_record *sorted;	/* blkparse: every record, by time */
	size_t sorted_count;
	size_t sorted_next;
};

int trace_open(struct trace_reader *tr, const char *path, enum trace_format format);
/*
 * Return only the requests of @disk from now on (before the first
 * record).  The first record refuses a format without disk numbers or one
 * that names disks otherwise.
 */
void trace_select_disk(struct trace_reader *tr, const struct trace_disk_spec *disk);
/* Whether @format names disks "major,minor" (fiu, blkparse). */
bool trace_format_disk_pair(enum trace_format format);
/*
 * 1 with a record, 0 at the end, -1 after printing a parse error.  A data
 * request may have length 0 (the caller decides what to do with it).
 */
int trace_next(struct trace_reader *tr, struct trace_record *rec);
void trace_close(struct trace_reader *tr);
int trace_parse_format(const char *name, enum trace_format *format);
/*
 * How far the reader is: bytes of the file consumed and its size (total
 * 0 if unknown, e.g. a pipe; then done is what was read).
 */
void trace_progress(const struct trace_reader *tr, uint64_t *done_bytes, uint64_t *total_bytes);
/* The format's name ("auto" until the first data line was read). */
const char *trace_format_name(enum trace_format format);

#endif /* SSD_TRACE_READER_H */

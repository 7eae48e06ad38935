/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_reader.h - reads block traces into one record type.
 *
 * Formats (docs/trace-formats.md; auto-detected from the first bytes or
 * the first data line; a line that matches none is refused as an
 * unrecognised format):
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
 *   msr    MSR Cambridge / SNIA IOTTA CSV: Timestamp (100 ns ticks),
 *          Hostname,DiskNumber,Read|Write,Offset (bytes),Size (bytes),
 *          ResponseTime
 *   spc    SPC-1 / UMass ASCII: ASU,LBA (512 bytes),Size (bytes),r|w,
 *          Timestamp (s)
 *   oracle libCacheSim's oracleGeneral binary: 24-byte records {u32 time
 *          (s), u64 obj_id (512-byte sector), u32 obj_size (bytes), i64
 *          next access}, all reads
 *   vscsi  VMware vscsi binary, record versions 1 and 2 (SCSI commands)
 *   lcs-csv  libCacheSim csv: columns named by a header line (time,
 *          obj_id, obj_size, op, and common aliases), or time,obj_id,
 *          obj_size[,op] without one
 *   lcs-txt  libCacheSim txt: one obj_id (512-byte sector) per line, reads
 *          of 512 bytes
 *   oracle-opns  libCacheSim's oracleGeneralOpNS binary: 27-byte records
 *          {u32 time, u64 obj_id, u32 obj_size, u8 op, u16 ns, i64 next
 *          access}; op a get/set/delete (read, write, trim), ns the disk.
 *          Auto-detected from a file name holding "oracleGeneralOpNS"
 * Any of them may be zstd-compressed (the magic says so).  Files are
 * mapped, pipes and FIFOs read (trace_input.h).
 *
 * mqsim, msr, spc and oracle-opns name a record's disk by a number, fiu and blkparse
 * by "major,minor"; the others have none.  The reader counts every
 * request of each disk (trace_disks.h) and, with a disk chosen, returns
 * only that disk's requests.
 */
#ifndef SSD_TRACE_READER_H
#define SSD_TRACE_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/trace/trace_disks.h"
#include "tools/trace/trace_input.h"
#include "include/ssdemu_ioctl.h"

enum trace_format {
	TRACE_AUTO,
	TRACE_MQSIM,
	TRACE_FIU,
	TRACE_SSDEMU,
	TRACE_BLKPARSE,
	TRACE_MSR,
	TRACE_SPC,
	TRACE_ORACLE,
	TRACE_VSCSI,
	TRACE_LCS_CSV,
	TRACE_LCS_TXT,
	TRACE_ORACLE_OPNS,
	TRACE_FORMAT_NR,
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

/* The columns of an lcs-csv trace (0 = none), counted from 1. */
struct trace_csv_columns {
	char delimiter;
	bool known;			/* the header (or the default) was taken */
	unsigned int time, obj_id, obj_size, op, count;
};

struct trace_reader {
	struct trace_input in;
	const char *path;
	enum trace_format format;
	unsigned long line;		/* the line read last (binary: the record) */
	unsigned long data_lines;	/* lines not blank nor comments (binary: records) */
	enum trace_format looks_like;	/* a named format: what its first data line
					   is detected as (TRACE_AUTO: none) */
	bool have_first;
	bool have_device;		/* blkparse: the one device replayed */
	uint64_t device;
	struct trace_disk_spec disk;	/* set before reading: this disk only */
	uint64_t disk_device;		/* its device (a HOST_N one once seen) */
	struct trace_disks disks;	/* the requests of every disk read */
	bool disk_checked;		/* @disk checked against the format */
	uint64_t first_ns;
	char *buf;			/* the line being parsed, NUL-terminated */
	size_t buf_bytes;
	struct trace_csv_columns csv;	/* lcs-csv */
	size_t record_bytes;		/* binary formats: one record's size */
	unsigned int vscsi_version;
	struct trace_record *sorted;	/* blkparse: every record, by time */
	size_t sorted_count;
	size_t sorted_next;
};

int trace_open(struct trace_reader *tr, const char *path, enum trace_format format);
/* Read the @bytes at @data as the trace named @name (the fuzzer's way). */
int trace_open_memory(struct trace_reader *tr, const char *name, const void *data,
		      size_t bytes, enum trace_format format);
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
 * request may have length 0 (the caller decides what to do with it).  A
 * trace of data lines none of which the format takes (a blkparse reader
 * skipping every line of an MSR trace) ends in an error naming the format
 * and the one the lines look like; one of no data lines (empty, or
 * comments only) ends with 0.
 */
int trace_next(struct trace_reader *tr, struct trace_record *rec);
void trace_close(struct trace_reader *tr);
/* @name ("auto", "mqsim", ...) into *@format; -1 if it names none. */
int trace_parse_format(const char *name, enum trace_format *format);
/* The format's name ("auto" until the first data line was read). */
const char *trace_format_name(enum trace_format format);
/* The names trace_parse_format() takes, "auto|mqsim|...", for messages. */
const char *trace_format_list(void);
/*
 * Bytes of the trace file consumed so far and the file's size (0 if
 * unknown: a pipe).  A zstd trace counts its compressed bytes.
 */
void trace_progress(const struct trace_reader *tr, uint64_t *done_bytes,
		    uint64_t *total_bytes);

#endif /* SSD_TRACE_READER_H */

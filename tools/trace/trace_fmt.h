/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_fmt.h - the parsers of each trace format, for trace_reader.c
 * alone.  A line parser takes one NUL-terminated data line (blanks at its
 * start, comments and empty lines already skipped) and returns 0 with a
 * record (its own time in *@time_ns), 1 for a line to skip, -1 for a
 * malformed line (the reader names it) or -2 after its own message.  A
 * record parser does the same with one binary record.  The detectors say
 * whether a first line or the first bytes are of their format.
 */
#ifndef SSD_TRACE_FMT_H
#define SSD_TRACE_FMT_H

#include "tools/trace/trace_reader.h"

/* Offsets and lengths end below 2^63 bytes: beyond is a broken trace. */
#define TRACE_MAX_BYTES		(1ULL << 63)

/* A text format's parser of one line, and a binary format's of one record. */
typedef int trace_line_parser(struct trace_reader *tr, char *line, struct trace_record *rec,
			      uint64_t *time_ns);
typedef int trace_record_parser(struct trace_reader *tr, const unsigned char *p,
				struct trace_record *rec, uint64_t *time_ns);

/* trace_fmt_text.c: the whitespace-separated formats. */
trace_line_parser trace_parse_mqsim, trace_parse_fiu, trace_parse_ssdemu, trace_parse_blkparse;
bool trace_is_blkparse(const char *line);
bool trace_is_mqsim(const char *line);

/* trace_fmt_csv.c: the comma-separated formats and libCacheSim's text. */
trace_line_parser trace_parse_msr, trace_parse_spc, trace_parse_lcs_csv, trace_parse_lcs_txt;
/* An lcs-csv header line: its columns into @cols; false if it is none. */
bool trace_lcs_csv_header(const char *line, struct trace_csv_columns *cols);

/* trace_fmt_bin.c: the binary formats. */
trace_record_parser trace_parse_oracle, trace_parse_oracle_opns, trace_parse_vscsi;
/* Whether the first bytes are not text (a control byte other than blanks). */
bool trace_looks_binary(const unsigned char *p, size_t bytes);
/* The vscsi record version (1, 2) of the first records, 0 if neither. */
unsigned int trace_vscsi_version(const unsigned char *p, size_t bytes);
/* Record size of vscsi @version. */
size_t trace_vscsi_record_bytes(unsigned int version);

/* The SCSI opcode's operation: 0, or -1 for one that is no read, write or flush. */
int trace_scsi_op(unsigned int opcode, unsigned int *op);

#endif /* SSD_TRACE_FMT_H */

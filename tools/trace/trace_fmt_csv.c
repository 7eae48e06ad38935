// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt_csv.c - the delimited trace formats (trace_fmt.h): MSR
 * Cambridge / SNIA CSV, SPC-1 ASCII, libCacheSim's csv (columns by a
 * header) and its txt (one object id a line).
 */
#include <string.h>

#include "tools/trace/trace_fmt.h"
#include "tools/trace/trace_scan.h"

#define MAX_FIELDS	32
#define SECTOR_BYTES	512

/* Split @line at @delim in place, each field's blanks trimmed: the count. */
static int split(char *line, char delim, char **fields, int max)
{
	char *p = line;
	int n = 0;

	for (;;) {
		char *start = (char *)scan_blanks(p), *last = start, c;

		for (p = start; *p && *p != delim; p++)
			if (!scan_is_blank(*p))
				last = p + 1;
		if (n == max)
			return max + 1;
		fields[n++] = start;
		c = *p;
		*last = '\0';
		if (!c)
			return n;
		p++;
	}
}

/* A whole field holding a decimal number. */
static bool field_u64(const char *field, uint64_t *out)
{
	const char *end = scan_u64(field, out);

	return end && !*end;
}

static uint64_t times_unit(uint64_t count, uint64_t unit)
{
	return count > UINT64_MAX / unit ? UINT64_MAX : count * unit;
}

/* Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime */
int trace_parse_msr(struct trace_reader *tr, char *line, struct trace_record *rec,
		    uint64_t *time_ns)
{
	uint64_t ticks, disk, offset, size, response;
	char *f[MAX_FIELDS];
	const char *type;

	uint32_t host;

	if (split(line, ',', f, MAX_FIELDS) != 7 || !field_u64(f[0], &ticks) || !*f[1] ||
	    !field_u64(f[2], &disk) || !field_u64(f[4], &offset) || !field_u64(f[5], &size) ||
	    !field_u64(f[6], &response) || ticks > UINT64_MAX / 100 || disk > UINT32_MAX ||
	    trace_disks_host(&tr->disks, f[1], strlen(f[1]), &host))
		return -1;
	type = f[3];
	if (scan_word_is(type, strlen(type), "read"))
		rec->op = SSDEMU_OP_READ;
	else if (scan_word_is(type, strlen(type), "write"))
		rec->op = SSDEMU_OP_WRITE;
	else
		return -1;
	*time_ns = ticks * 100;
	rec->offset_bytes = offset;
	rec->length_bytes = size;
	rec->content_hash = NULL;
	rec->has_device = true;
	/* Disks are numbered per host: the host is part of the disk. */
	rec->device = (uint64_t)host << 32 | disk;
	if (tr->disk.host[0] && !strcmp(tr->disk.host, f[1]))
		tr->disk_device = (rec->device & ~(uint64_t)UINT32_MAX) | tr->disk.device;
	return 0;
}

/* ASU,LBA,Size,Opcode,Timestamp[,...] */
int trace_parse_spc(struct trace_reader *tr, char *line, struct trace_record *rec,
		    uint64_t *time_ns)
{
	uint64_t asu, lba, size;
	char *f[MAX_FIELDS];
	const char *end;
	int n = split(line, ',', f, MAX_FIELDS);

	if (n < 5 || n > MAX_FIELDS || !field_u64(f[0], &asu) || !field_u64(f[1], &lba) ||
	    !field_u64(f[2], &size) || strlen(f[3]) != 1 ||
	    !(end = scan_seconds_ns(f[4], time_ns)) || *end)
		return -1;
	switch (f[3][0] | 0x20) {
	case 'r':
		rec->op = SSDEMU_OP_READ;
		break;
	case 'w':
		rec->op = SSDEMU_OP_WRITE;
		break;
	default:
		return -1;
	}
	rec->offset_bytes = times_unit(lba, SECTOR_BYTES);
	rec->length_bytes = size;
	rec->content_hash = NULL;
	rec->has_device = true;
	rec->device = asu;
	return 0;
}

/* One object id (decimal, or hexadecimal after 0x) a line: a sector read. */
int trace_parse_lcs_txt(struct trace_reader *tr, char *line, struct trace_record *rec,
			uint64_t *time_ns)
{
	uint64_t id;
	const char *end = scan_any_u64(line, &id);

	if (!end || *scan_blanks(end))
		return -1;
	*time_ns = 0;
	rec->offset_bytes = times_unit(id, SECTOR_BYTES);
	rec->length_bytes = SECTOR_BYTES;
	rec->op = SSDEMU_OP_READ;
	rec->content_hash = NULL;
	rec->has_device = false;
	rec->device = 0;
	return 0;
}

/* libCacheSim's guess: the most frequent of tab , | : (weighted that way). */
static char csv_delimiter(const char *line)
{
	static const char delims[] = "\t,|:";
	int best = 0;
	char delim = ',';

	for (int i = 0; delims[i]; i++) {
		int count = 0;

		for (const char *p = line; *p; p++)
			count += *p == delims[i];
		if (count * (4 - i) > best) {
			best = count * (4 - i);
			delim = delims[i];
		}
	}
	return delim;
}

struct column_name {
	const char *name;
	size_t at;			/* its field of struct trace_csv_columns */
};

static const struct column_name column_names[] = {
	{ "time", offsetof(struct trace_csv_columns, time) },
	{ "timestamp", offsetof(struct trace_csv_columns, time) },
	{ "clock_time", offsetof(struct trace_csv_columns, time) },
	{ "real_time", offsetof(struct trace_csv_columns, time) },
	{ "ts", offsetof(struct trace_csv_columns, time) },
	{ "obj_id", offsetof(struct trace_csv_columns, obj_id) },
	{ "id", offsetof(struct trace_csv_columns, obj_id) },
	{ "key", offsetof(struct trace_csv_columns, obj_id) },
	{ "lbn", offsetof(struct trace_csv_columns, obj_id) },
	{ "lba", offsetof(struct trace_csv_columns, obj_id) },
	{ "block", offsetof(struct trace_csv_columns, obj_id) },
	{ "obj_size", offsetof(struct trace_csv_columns, obj_size) },
	{ "size", offsetof(struct trace_csv_columns, obj_size) },
	{ "len", offsetof(struct trace_csv_columns, obj_size) },
	{ "length", offsetof(struct trace_csv_columns, obj_size) },
	{ "op", offsetof(struct trace_csv_columns, op) },
	{ "op_type", offsetof(struct trace_csv_columns, op) },
	{ "opcode", offsetof(struct trace_csv_columns, op) },
	{ "cmd", offsetof(struct trace_csv_columns, op) },
	{ "type", offsetof(struct trace_csv_columns, op) },
	{ "rw", offsetof(struct trace_csv_columns, op) },
};

bool trace_lcs_csv_header(const char *line, struct trace_csv_columns *cols)
{
	char copy[1024], *f[MAX_FIELDS];
	struct trace_csv_columns c = { .delimiter = csv_delimiter(line) };
	int n;

	if (strlen(line) + SCAN_PAD >= sizeof(copy))
		return false;
	strcpy(copy, line);
	n = split(copy, c.delimiter, f, MAX_FIELDS);
	if (n < 2 || n > MAX_FIELDS)
		return false;
	for (int i = 0; i < n; i++) {
		for (size_t k = 0; k < sizeof(column_names) / sizeof(column_names[0]); k++) {
			unsigned int *col = (unsigned int *)((char *)&c + column_names[k].at);

			if (scan_word_is(f[i], strlen(f[i]), column_names[k].name)) {
				if (!*col)
					*col = i + 1;
				break;
			}
		}
	}
	if (!c.obj_id)
		return false;
	c.count = n;
	c.known = true;
	*cols = c;
	return true;
}

/* An op as libCacheSim's traces spell it: a word, or a SCSI opcode in hex. */
static int csv_op(const char *field, unsigned int *op)
{
	static const struct {
		const char *word;
		unsigned int op;
	} words[] = {
		{ "r", SSDEMU_OP_READ }, { "read", SSDEMU_OP_READ }, { "get", SSDEMU_OP_READ },
		{ "w", SSDEMU_OP_WRITE }, { "write", SSDEMU_OP_WRITE },
		{ "set", SSDEMU_OP_WRITE }, { "put", SSDEMU_OP_WRITE },
		{ "d", SSDEMU_OP_TRIM }, { "delete", SSDEMU_OP_TRIM }, { "trim", SSDEMU_OP_TRIM },
		{ "discard", SSDEMU_OP_TRIM }, { "f", SSDEMU_OP_FLUSH },
		{ "flush", SSDEMU_OP_FLUSH },
	};
	size_t len = strlen(field);
	uint64_t opcode;
	const char *end;

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (scan_word_is(field, len, words[i].word)) {
			*op = words[i].op;
			return 0;
		}
	if (field[0] == '0' && (field[1] == 'x' || field[1] == 'X'))
		field += 2;
	end = scan_hex_u64(field, &opcode);
	if (!end || *end || opcode > 0xff)
		return -1;
	return trace_scsi_op((unsigned int)opcode, op);
}

/* The columns without a header: time,obj_id,obj_size[,op]. */
static void default_columns(const char *line, struct trace_csv_columns *cols)
{
	memset(cols, 0, sizeof(*cols));
	cols->delimiter = csv_delimiter(line);
	cols->time = 1;
	cols->obj_id = 2;
	cols->obj_size = 3;
	cols->op = 4;
	cols->known = true;
}

int trace_parse_lcs_csv(struct trace_reader *tr, char *line, struct trace_record *rec,
			uint64_t *time_ns)
{
	struct trace_csv_columns *c = &tr->csv;
	uint64_t id, size = SECTOR_BYTES;
	char *f[MAX_FIELDS];
	const char *end;
	int n;

	if (!c->known) {
		if (trace_lcs_csv_header(line, c)) {
			tr->data_lines--;	/* a header, not data */
			return 1;
		}
		default_columns(line, c);
	}
	n = split(line, c->delimiter, f, MAX_FIELDS);
	if (n > MAX_FIELDS || c->obj_id > (unsigned int)n)
		return -1;
	end = scan_any_u64(f[c->obj_id - 1], &id);
	if (!end || *end)
		return -1;
	*time_ns = 0;
	if (c->time && c->time <= (unsigned int)n && *f[c->time - 1] &&
	    (!(end = scan_seconds_ns(f[c->time - 1], time_ns)) || *end))
		return -1;
	if (c->obj_size && c->obj_size <= (unsigned int)n && *f[c->obj_size - 1] &&
	    !field_u64(f[c->obj_size - 1], &size))
		return -1;
	rec->op = SSDEMU_OP_READ;
	if (c->op && c->op <= (unsigned int)n && *f[c->op - 1] && csv_op(f[c->op - 1], &rec->op))
		return -1;
	rec->offset_bytes = times_unit(id, SECTOR_BYTES);
	rec->length_bytes = size;
	rec->content_hash = NULL;
	rec->has_device = false;
	rec->device = 0;
	return 0;
}

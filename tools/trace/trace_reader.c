// SPDX-License-Identifier: GPL-2.0
/*
 * trace_reader.c - the trace reader (trace_reader.h): opening, detecting
 * the format, handing each line or record to its format's parser
 * (trace_fmt_*.c), the checks every record passes, blkparse's sort and
 * the census of disks.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/trace/trace_fmt.h"
#include "tools/trace/trace_scan.h"
#include "tools/msg/msg.h"

struct format_info {
	const char *name;
	trace_line_parser *parse_line;		/* text formats */
	trace_record_parser *parse_record;	/* binary formats */
	size_t record_bytes;			/* 0: set at the first read (vscsi) */
	bool has_disks;
	bool disk_pair;
};

static const struct format_info formats[TRACE_FORMAT_NR] = {
	[TRACE_AUTO] = { "auto" },
	[TRACE_MQSIM] = { "mqsim", trace_parse_mqsim, .has_disks = true },
	[TRACE_FIU] = { "fiu", trace_parse_fiu, .has_disks = true, .disk_pair = true },
	[TRACE_SSDEMU] = { "ssdemu", trace_parse_ssdemu },
	[TRACE_BLKPARSE] = { "blkparse", trace_parse_blkparse, .has_disks = true,
			     .disk_pair = true },
	[TRACE_MSR] = { "msr", trace_parse_msr, .has_disks = true },
	[TRACE_SPC] = { "spc", trace_parse_spc, .has_disks = true },
	[TRACE_ORACLE] = { "oracle", NULL, trace_parse_oracle, 24 },
	[TRACE_VSCSI] = { "vscsi", NULL, trace_parse_vscsi },
	[TRACE_LCS_CSV] = { "lcs-csv", trace_parse_lcs_csv },
	[TRACE_LCS_TXT] = { "lcs-txt", trace_parse_lcs_txt },
	[TRACE_ORACLE_OPNS] = { "oracle-opns", NULL, trace_parse_oracle_opns, 27,
				.has_disks = true },
};

int trace_parse_format(const char *name, enum trace_format *format)
{
	for (int f = 0; f < TRACE_FORMAT_NR; f++)
		if (!strcmp(name, formats[f].name)) {
			*format = f;
			return 0;
		}
	return -1;
}

const char *trace_format_name(enum trace_format format)
{
	return format < TRACE_FORMAT_NR ? formats[format].name : "?";
}

const char *trace_format_list(void)
{
	/* The names of formats[] in order (the tests hold every one to it). */
	return "auto|mqsim|fiu|ssdemu|blkparse|msr|spc|oracle|vscsi|lcs-csv|lcs-txt|oracle-opns";
}

bool trace_format_disk_pair(enum trace_format format)
{
	return formats[format].disk_pair;
}

static bool is_binary(enum trace_format format)
{
	return formats[format].parse_record != NULL;
}

static void init(struct trace_reader *tr, const char *path, enum trace_format format)
{
	tr->path = path;
	tr->format = format;
}

int trace_open(struct trace_reader *tr, const char *path, enum trace_format format)
{
	memset(tr, 0, sizeof(*tr));
	if (trace_input_open(&tr->in, path))
		return -1;
	init(tr, path, format);
	return 0;
}

int trace_open_memory(struct trace_reader *tr, const char *name, const void *data,
		      size_t bytes, enum trace_format format)
{
	memset(tr, 0, sizeof(*tr));
	if (trace_input_memory(&tr->in, name, data, bytes))
		return -1;
	init(tr, name, format);
	return 0;
}

void trace_select_disk(struct trace_reader *tr, const struct trace_disk_spec *disk)
{
	tr->disk = *disk;
	/* A host's disk is known once the host is seen (none: nothing matches). */
	tr->disk_device = disk->host[0] ? UINT64_MAX : disk->device;
}

void trace_close(struct trace_reader *tr)
{
	trace_input_close(&tr->in);
	free(tr->buf);
	free(tr->sorted);
	trace_disks_free(&tr->disks);
	tr->buf = NULL;
	tr->sorted = NULL;
}

void trace_progress(const struct trace_reader *tr, uint64_t *done_bytes,
		    uint64_t *total_bytes)
{
	trace_input_progress(&tr->in, done_bytes, total_bytes);
	/* A sorted blkparse trace was read whole at its first record. */
	if (tr->sorted && tr->sorted_count && *total_bytes)
		*done_bytes = (uint64_t)((double)*total_bytes * tr->sorted_next /
					 tr->sorted_count);
}

/* The text formats in the order they are tried on a first line. */
static const enum trace_format text_order[] = {
	TRACE_BLKPARSE, TRACE_MQSIM, TRACE_SSDEMU, TRACE_FIU, TRACE_MSR, TRACE_SPC,
	TRACE_LCS_TXT,
};

/* The format of a first data line; TRACE_AUTO if none. */
static enum trace_format detect_line(struct trace_reader *tr, const char *line)
{
	struct trace_csv_columns cols;
	struct trace_record rec;
	size_t len = strlen(line);
	enum trace_format found = TRACE_AUTO;
	uint64_t time_ns;
	char *copy;

	if (trace_is_blkparse(line))
		return TRACE_BLKPARSE;
	if (trace_is_mqsim(line))
		return TRACE_MQSIM;
	copy = malloc(len + 1 + SCAN_PAD);
	if (!copy)
		return TRACE_AUTO;
	for (size_t i = 2; i < sizeof(text_order) / sizeof(text_order[0]); i++) {
		memcpy(copy, line, len + 1);
		if (!formats[text_order[i]].parse_line(tr, copy, &rec, &time_ns)) {
			found = text_order[i];
			break;
		}
	}
	free(copy);
	if (found == TRACE_AUTO && trace_lcs_csv_header(line, &cols))
		found = TRACE_LCS_CSV;
	return found;
}

/*
 * What a data line of a trace whose format was named looks like, for the
 * message if the format takes none of its lines: detected as if no format
 * were named, by a reader of its own (the parsers keep state in theirs).
 */
static enum trace_format sniff_line(const struct trace_reader *tr, const char *line)
{
	struct trace_reader *probe = calloc(1, sizeof(*probe));
	enum trace_format found;

	if (!probe)
		return TRACE_AUTO;
	probe->path = tr->path;
	found = detect_line(probe, line);
	trace_disks_free(&probe->disks);	/* an MSR line names its host */
	free(probe);
	return found;
}

/* A trace of data lines without a record: the format named is not its own. */
static int check_records_found(struct trace_reader *tr)
{
	const char *name = formats[tr->format].name;
	const char *like = formats[tr->looks_like].name;

	if (tr->have_first || !tr->data_lines)
		return 0;
	if (tr->looks_like != TRACE_AUTO && tr->looks_like != tr->format)
		msg_say("%s: the %s reader took none of its %lu data lines (they look like %s: --format %s, or leave --format out)\n",
			tr->path, name, tr->data_lines, like, like);
	else
		msg_say("%s: the %s reader took none of its %lu data lines: not a %s trace? (name its format with --format)\n",
			tr->path, name, tr->data_lines, name);
	return -1;
}

/* Binary formats are told by their first bytes, before any line is read. */
static int detect_binary(struct trace_reader *tr)
{
	long held = trace_input_fill(&tr->in, 512);

	if (held < 0)
		return -1;
	/* oracleGeneralOpNS is told from oracleGeneral by libCacheSim's file name. */
	if (tr->format == TRACE_AUTO && trace_looks_binary(tr->in.pos, held))
		tr->format = trace_vscsi_version(tr->in.pos, held) ? TRACE_VSCSI :
			     strstr(tr->path, "oracleGeneralOpNS") ? TRACE_ORACLE_OPNS :
			     TRACE_ORACLE;
	if (tr->format == TRACE_VSCSI) {
		tr->vscsi_version = trace_vscsi_version(tr->in.pos, held);
		if (held && !tr->vscsi_version) {
			msg_say("%s: not a vscsi trace (its first records are of neither version 1 nor 2)\n",
				tr->path);
			return -1;
		}
		tr->record_bytes = trace_vscsi_record_bytes(tr->vscsi_version);
	} else if (is_binary(tr->format)) {
		tr->record_bytes = formats[tr->format].record_bytes;
	}
	return 0;
}

/* The next line to parse, NUL-terminated in tr->buf: 1, 0 at the end, -1. */
static int next_line(struct trace_reader *tr, char **line)
{
	const unsigned char *text;
	size_t len;
	int ret;

	while ((ret = trace_input_line(&tr->in, &text, &len)) > 0) {
		const unsigned char *cr;
		char *p;

		tr->line++;
		cr = memchr(text, '\r', len);
		if (cr)
			len = cr - text;
		if (len + 1 + SCAN_PAD > tr->buf_bytes) {
			size_t bytes = tr->buf_bytes ? tr->buf_bytes : 256;
			char *grown;

			while (bytes < len + 1 + SCAN_PAD)
				bytes *= 2;
			grown = realloc(tr->buf, bytes);
			if (!grown) {
				msg_say("%s: out of memory reading the trace\n", tr->path);
				return -1;
			}
			tr->buf = grown;
			tr->buf_bytes = bytes;
		}
		memcpy(tr->buf, text, len);
		tr->buf[len] = '\0';
		p = tr->buf;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		tr->data_lines++;
		*line = p;
		return 1;
	}
	return ret;
}

/* Where the reader is, for a message: "path:line" or "path: record N". */
static void where(const struct trace_reader *tr)
{
	if (is_binary(tr->format))
		msg_say("%s: record %lu: ", tr->path, tr->line);
	else
		msg_say("%s:%lu: ", tr->path, tr->line);
}

/* One binary record: 1, 0 at the end, -1 after a message. */
static int read_binary(struct trace_reader *tr, struct trace_record *rec, uint64_t *time_ns)
{
	const unsigned char *p;
	int ret = trace_input_record(&tr->in, tr->record_bytes, &p);

	if (ret <= 0)
		return ret;
	tr->line++;
	tr->data_lines++;
	if (ret == 2) {
		where(tr);
		msg_say("truncated: %zu of its %zu bytes\n",
			(size_t)(tr->in.end - tr->in.pos), tr->record_bytes);
		return -1;
	}
	ret = formats[tr->format].parse_record(tr, p, rec, time_ns);
	if (ret == -1) {
		where(tr);
		msg_say("not a %s record\n", formats[tr->format].name);
	}
	return ret ? -1 : 1;
}

/* One text record: 1, 0 at the end, -1 after a message. */
static int read_text(struct trace_reader *tr, struct trace_record *rec, uint64_t *time_ns)
{
	char *line;
	int ret;

	while ((ret = next_line(tr, &line)) > 0) {
		if (tr->data_lines == 1 && tr->format != TRACE_AUTO)
			tr->looks_like = sniff_line(tr, line);
		if (tr->format == TRACE_AUTO) {
			tr->format = detect_line(tr, line);
			if (tr->format == TRACE_AUTO) {
				msg_say("%s:%lu: trace format not recognised (not %s); name it with --format\n",
					tr->path, tr->line, trace_format_list() + strlen("auto|"));
				return -1;
			}
		}
		ret = formats[tr->format].parse_line(tr, line, rec, time_ns);
		if (ret == 1)
			continue;
		if (ret == -2)
			return -1;
		if (ret) {
			msg_say("%s:%lu: not a %s trace line\n", tr->path, tr->line,
				formats[tr->format].name);
			return -1;
		}
		return 1;
	}
	return ret;
}

/* The next record as the file holds it, with its own time in arrival_ns. */
static int read_record(struct trace_reader *tr, struct trace_record *rec)
{
	uint64_t time_ns;
	int ret;

	if (!tr->line && (tr->format == TRACE_AUTO || is_binary(tr->format)) &&
	    !tr->record_bytes && detect_binary(tr))
		return -1;
	ret = is_binary(tr->format) ? read_binary(tr, rec, &time_ns) :
				      read_text(tr, rec, &time_ns);
	if (ret <= 0)
		return ret;
	if (rec->offset_bytes > TRACE_MAX_BYTES ||
	    rec->length_bytes > TRACE_MAX_BYTES - rec->offset_bytes) {
		where(tr);
		msg_say("a request beyond 2^63 bytes (offset %llu, length %llu) refused\n",
			(unsigned long long)rec->offset_bytes,
			(unsigned long long)rec->length_bytes);
		return -1;
	}
	rec->arrival_ns = time_ns;
	return 1;
}

struct timed_record {
	struct trace_record rec;
	uint64_t seq;			/* file order, for a stable sort */
};

static int by_time(const void *a, const void *b)
{
	const struct timed_record *x = a, *y = b;

	if (x->rec.arrival_ns != y->rec.arrival_ns)
		return x->rec.arrival_ns < y->rec.arrival_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * blkparse reading a live pipe prints each CPU's events in batches, not in
 * time order: read the whole trace, starting with @first, and sort it.
 */
static int load_sorted(struct trace_reader *tr, const struct trace_record *first)
{
	struct timed_record *all = NULL;
	size_t count = 0, room = 0;
	struct trace_record rec = *first;
	int ret = 1;

	while (ret == 1) {
		if (count == room) {
			struct timed_record *grown;

			room = room ? room * 2 : 4096;
			grown = realloc(all, room * sizeof(*all));
			if (!grown) {
				msg_say("%s: out of memory sorting the trace\n", tr->path);
				free(all);
				return -1;
			}
			all = grown;
		}
		all[count].rec = rec;
		all[count].seq = count;
		count++;
		ret = read_record(tr, &rec);
	}
	if (ret < 0) {
		free(all);
		return -1;
	}
	qsort(all, count, sizeof(*all), by_time);
	tr->sorted = malloc(count * sizeof(*tr->sorted));
	if (!tr->sorted) {
		msg_say("%s: out of memory sorting the trace\n", tr->path);
		free(all);
		return -1;
	}
	for (size_t i = 0; i < count; i++)
		tr->sorted[i] = all[i].rec;
	free(all);
	tr->sorted_count = count;
	tr->sorted_next = 0;
	return 0;
}

/* The next record in time order, whatever its disk. */
static int next_any(struct trace_reader *tr, struct trace_record *rec)
{
	uint64_t time_ns;
	int ret;

	if (tr->sorted) {
		if (tr->sorted_next == tr->sorted_count)
			return 0;
		*rec = tr->sorted[tr->sorted_next++];
	} else {
		ret = read_record(tr, rec);
		if (!ret)
			return check_records_found(tr);
		if (ret < 0)
			return ret;
		if (tr->format == TRACE_BLKPARSE) {
			if (load_sorted(tr, rec))
				return -1;
			*rec = tr->sorted[tr->sorted_next++];
		}
	}
	time_ns = rec->arrival_ns;
	if (!tr->have_first) {
		tr->have_first = true;
		/* A request log is already in the device's own time. */
		tr->first_ns = tr->format == TRACE_SSDEMU ? 0 : time_ns;
	}
	rec->arrival_ns = time_ns >= tr->first_ns ? time_ns - tr->first_ns : 0;
	return 1;
}

/* A chosen disk must be one the format can name, spelled its way. */
static int check_disk(struct trace_reader *tr)
{
	const char *name = formats[tr->format].name;
	char disk[48];

	tr->disk_checked = true;
	tr->disks.pair = trace_format_disk_pair(tr->format);
	if (!tr->disk.set)
		return 0;
	trace_disk_spec_name(&tr->disk, disk, sizeof(disk));
	if (tr->format == TRACE_SSDEMU) {
		msg_say("%s: --disk %s refused: an ssdemu request log names no disks\n",
			tr->path, disk);
		return -1;
	}
	if (!formats[tr->format].has_disks) {
		msg_say("%s: --disk %s refused: a %s trace names no disks\n", tr->path,
			disk, name);
		return -1;
	}
	if (tr->disk.host[0] && tr->format != TRACE_MSR) {
		msg_say("%s: --disk %s refused: a %s trace names no hosts (--disk N)\n",
			tr->path, disk, name);
		return -1;
	}
	if (tr->disk.pair != tr->disks.pair) {
		msg_say("%s: --disk %s refused: a %s trace names its disks %s\n",
			tr->path, disk, name,
			tr->disks.pair ? "major,minor (--disk 8,16)" : "by a number (--disk 3)");
		return -1;
	}
	return 0;
}

int trace_next(struct trace_reader *tr, struct trace_record *rec)
{
	int ret;

	while ((ret = next_any(tr, rec)) > 0) {
		if (!tr->disk_checked && check_disk(tr))
			return -1;
		if (!rec->has_device)
			return 1;
		if (trace_disks_add(&tr->disks, rec->device)) {
			msg_say("%s: out of memory counting disks\n", tr->path);
			return -1;
		}
		if (!tr->disk.set || rec->device == tr->disk_device)
			return 1;
	}
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace_reader.c - parsers of the trace formats listed in trace_reader.h.
 */
#include <stdlib.h>
#include <string.h>

#include "log_format.h"
#include "trace_reader.h"

int trace_parse_format(const char *name, enum trace_format *format)
{
	if (!strcmp(name, "auto"))
		*format = TRACE_AUTO;
	else if (!strcmp(name, "mqsim"))
		*format = TRACE_MQSIM;
	else if (!strcmp(name, "fiu"))
		*format = TRACE_FIU;
	else if (!strcmp(name, "ssdemu"))
		*format = TRACE_SSDEMU;
	else
		return -1;
	return 0;
}

int trace_open(struct trace_reader *tr, const char *path, enum trace_format format)
{
	memset(tr, 0, sizeof(*tr));
	tr->file = fopen(path, "r");
	if (!tr->file) {
		perror(path);
		return -1;
	}
	tr->path = path;
	tr->format = format;
	return 0;
}

void trace_close(struct trace_reader *tr)
{
	if (tr->file)
		fclose(tr->file);
	free(tr->buf);
	tr->file = NULL;
	tr->buf = NULL;
}

static const char *const format_names[] = {
	[TRACE_AUTO] = "auto", [TRACE_MQSIM] = "mqsim", [TRACE_FIU] = "fiu",
	[TRACE_SSDEMU] = "ssdemu",
};

/*
 * mqsim lines have five numbers, ssdemu lines an op letter second, fiu
 * lines a process name third.
 */
static enum trace_format detect(const char *line)
{
	unsigned long long a, b, c, d, e;
	struct ssdemu_log_entry entry;
	char extra;

	if (sscanf(line, "%llu %llu %llu %llu %llu %c", &a, &b, &c, &d, &e, &extra) == 5)
		return TRACE_MQSIM;
	if (!log_entry_parse(line, &entry))
		return TRACE_SSDEMU;
	return TRACE_FIU;
}

static int parse_ssdemu(char *line, struct trace_record *rec, uint64_t *time_ns)
{
	struct ssdemu_log_entry entry;

	if (log_entry_parse(line, &entry))
		return -1;
	*time_ns = entry.arrival_ns;
	rec->offset_bytes = entry.offset_bytes;
	rec->length_bytes = entry.length_bytes;
	rec->op = entry.op;
	rec->content_hash = NULL;
	return 0;
}

static int parse_mqsim(char *line, struct trace_record *rec, uint64_t *time_ns)
{
	unsigned long long t, dev, lba, sectors, type;

	if (sscanf(line, "%llu %llu %llu %llu %llu", &t, &dev, &lba, &sectors, &type) != 5 ||
	    type > 1)
		return -1;
	*time_ns = t;
	rec->offset_bytes = lba * 512;
	rec->length_bytes = sectors * 512;
	rec->op = type == 0 ? SSDEMU_OP_WRITE : SSDEMU_OP_READ;
	rec->content_hash = NULL;
	return 0;
}

static int parse_fiu(char *line, struct trace_record *rec, uint64_t *time_ns)
{
	unsigned long long t, pid, lba, sectors, major, minor;
	char process[64], rw[4];
	int hash_at = 0;

	if (sscanf(line, "%llu %llu %63s %llu %llu %3s %llu %llu %n", &t, &pid, process,
		   &lba, &sectors, rw, &major, &minor, &hash_at) != 8 ||
	    (rw[0] != 'R' && rw[0] != 'W') || rw[1])
		return -1;
	*time_ns = t;
	rec->offset_bytes = lba * 512;
	rec->length_bytes = sectors * 512;
	rec->op = rw[0] == 'W' ? SSDEMU_OP_WRITE : SSDEMU_OP_READ;
	rec->content_hash = hash_at && line[hash_at] ? line + hash_at : NULL;
	return 0;
}

int trace_next(struct trace_reader *tr, struct trace_record *rec)
{
	while (getline(&tr->buf, &tr->buf_bytes, tr->file) >= 0) {
		uint64_t time_ns;
		char *p = tr->buf;
		int ret;

		tr->line++;
		p[strcspn(p, "\r\n")] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (tr->format == TRACE_AUTO)
			tr->format = detect(p);
		if (tr->format == TRACE_MQSIM)
			ret = parse_mqsim(p, rec, &time_ns);
		else if (tr->format == TRACE_FIU)
			ret = parse_fiu(p, rec, &time_ns);
		else
			ret = parse_ssdemu(p, rec, &time_ns);
		if (ret || (rec->length_bytes == 0 && rec->op != SSDEMU_OP_FLUSH)) {
			fprintf(stderr, "%s:%lu: not a %s trace line\n", tr->path, tr->line,
				format_names[tr->format]);
			return -1;
		}
		if (!tr->have_first) {
			tr->have_first = true;
			/* A request log is already in the device's own time. */
			tr->first_ns = tr->format == TRACE_SSDEMU ? 0 : time_ns;
		}
		rec->arrival_ns = time_ns >= tr->first_ns ? time_ns - tr->first_ns : 0;
		return 1;
	}
	return 0;
}

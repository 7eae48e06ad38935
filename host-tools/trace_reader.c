// SPDX-License-Identifier: GPL-2.0
/*
 * trace_reader.c - parsers of the trace formats listed in trace_reader.h.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "host-tools/log_format.h"
#include "host-tools/trace_reader.h"

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
	else if (!strcmp(name, "blkparse"))
		*format = TRACE_BLKPARSE;
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

void trace_select_disk(struct trace_reader *tr, const struct trace_disk_spec *disk)
{
	tr->disk = *disk;
}

bool trace_format_disk_pair(enum trace_format format)
{
	return format == TRACE_FIU || format == TRACE_BLKPARSE;
}

void trace_close(struct trace_reader *tr)
{
	if (tr->file)
		fclose(tr->file);
	free(tr->buf);
	free(tr->sorted);
	trace_disks_free(&tr->disks);
	tr->file = NULL;
	tr->buf = NULL;
	tr->sorted = NULL;
}

static const char *const format_names[] = {
	[TRACE_AUTO] = "auto", [TRACE_MQSIM] = "mqsim", [TRACE_FIU] = "fiu",
	[TRACE_SSDEMU] = "ssdemu", [TRACE_BLKPARSE] = "blkparse",
};

const char *trace_format_name(enum trace_format format)
{
	return format_names[format];
}

/* blkparse event lines open with the device, "major,minor". */
static bool blkparse_event(const char *line, unsigned int *major, unsigned int *minor)
{
	int end = 0;

	return sscanf(line, "%u,%u%n", major, minor, &end) == 2 &&
	       (line[end] == ' ' || line[end] == '\t');
}

static int parse_fiu(char *line, struct trace_record *rec, uint64_t *time_ns);
static int parse_ssdemu(char *line, struct trace_record *rec, uint64_t *time_ns);

/*
 * mqsim lines have five numbers, ssdemu lines an op letter second, fiu
 * lines a process name third, blkparse lines a device "8,0" first.
 * TRACE_AUTO if the line is none of these.
 */
static enum trace_format detect(char *line)
{
	unsigned long long a, b, c, d, e;
	struct ssdemu_log_entry entry;
	struct trace_record rec;
	unsigned int major, minor;
	uint64_t time_ns;
	bool is_ssdemu;
	char extra, *copy;

	if (blkparse_event(line, &major, &minor))
		return TRACE_BLKPARSE;
	if (sscanf(line, "%llu %llu %llu %llu %llu %c", &a, &b, &c, &d, &e, &extra) == 5)
		return TRACE_MQSIM;
	if (!log_entry_parse(line, &entry))
		return TRACE_SSDEMU;
	copy = strdup(line);
	is_ssdemu = copy && !parse_ssdemu(copy, &rec, &time_ns);
	free(copy);
	if (is_ssdemu)
		return TRACE_SSDEMU;
	if (!parse_fiu(line, &rec, &time_ns))
		return TRACE_FIU;
	return TRACE_AUTO;
}

/*
 * A request log line, optionally followed (on writes) by the data's MD5s,
 * 32 hex digits each, concatenated, as an fiu line carries them
 * (workload/replay.py writes these).  The hashes are cut off the line.
 */
static int parse_ssdemu(char *line, struct trace_record *rec, uint64_t *time_ns)
{
	struct ssdemu_log_entry entry;
	char *hashes = NULL;
	int rest = 0;

	if (sscanf(line, "%*u %*c %*u %*u %*u %n", &rest) == 0 && rest && line[rest]) {
		size_t digits = strspn(line + rest, "0123456789abcdefABCDEF");

		if (line[rest + digits] || !digits || digits % 32)
			return -1;
		hashes = line + rest;
		line[rest - 1] = '\0';
	}
	if (log_entry_parse(line, &entry))
		return -1;
	if (hashes && entry.op != SSDEMU_OP_WRITE)
		return -1;
	*time_ns = entry.arrival_ns;
	rec->offset_bytes = entry.offset_bytes;
	rec->length_bytes = entry.length_bytes;
	rec->op = entry.op;
	rec->content_hash = hashes;
	rec->has_device = false;
	rec->device = 0;
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
	rec->has_device = true;
	rec->device = dev;
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
	if (major > UINT32_MAX || minor > UINT32_MAX)
		return -1;
	rec->has_device = true;
	rec->device = TRACE_DISK_PAIR(major, minor);
	return 0;
}

/*
 * The op of a blkparse RWBS string: an optional leading F (preflush), then
 * D (discard), W (write), R (read) or N (no data: a flush when F led).
 * A lone F is a flush as the kernel's own tracepoints spell it.
 * Write-zeroes requests carry a W and read as writes.
 */
static int rwbs_op(const char *rwbs, unsigned int *op)
{
	bool preflush = rwbs[0] == 'F' && rwbs[1];

	if (!strcmp(rwbs, "F")) {
		*op = SSDEMU_OP_FLUSH;
		return 0;
	}
	switch (rwbs[preflush]) {
	case 'D':
		*op = SSDEMU_OP_TRIM;
		return 0;
	case 'W':
		*op = SSDEMU_OP_WRITE;
		return 0;
	case 'R':
		*op = SSDEMU_OP_READ;
		return 0;
	case 'N':
		*op = SSDEMU_OP_FLUSH;
		return preflush ? 0 : 1;
	}
	return -1;
}

/*
 * blkparse's default output: "maj,min cpu seq sec.nsec pid action rwbs
 * [sector + count] [comm]".  Only D (issued to the driver) events are
 * requests the device saw; other actions and the summary are skipped.
 * 0 with a record, 1 for a line to skip, -1 malformed, -2 already reported.
 */
static int parse_blkparse(struct trace_reader *tr, char *line, struct trace_record *rec,
			  uint64_t *time_ns)
{
	unsigned long long seq, sec, sector = 0, count = 0, frac_ns;
	unsigned int major, minor, cpu, pid;
	uint64_t device;
	char frac[16], action[4], rwbs[12];
	size_t digits;
	int rest = 0;
	int ret;

	if (!blkparse_event(line, &major, &minor))
		return 1;
	if (sscanf(line, "%*u,%*u %u %llu %llu.%15[0-9] %u %3s %11s %n", &cpu, &seq, &sec,
		   frac, &pid, action, rwbs, &rest) != 7)
		return -1;
	if (strcmp(action, "D"))
		return 1;
	device = TRACE_DISK_PAIR(major, minor);
	if (!tr->have_device) {
		tr->have_device = true;
		tr->device = device;
	} else if (device != tr->device && !tr->disk.set) {
		fprintf(stderr, "%s:%lu: a second device %u,%u; trace one device only, or choose one (ssdsim --disk %u,%u)\n",
			tr->path, tr->line, major, minor, (unsigned int)(tr->device >> 32),
			(unsigned int)(tr->device & UINT32_MAX));
		return -2;
	}
	ret = rwbs_op(rwbs, &rec->op);
	if (ret)
		return ret;
	if (rest && sscanf(line + rest, "%llu + %llu", &sector, &count) != 2)
		count = 0;
	/* A data request without data is nothing the device has to do. */
	if (count == 0 && rec->op != SSDEMU_OP_FLUSH)
		return 1;
	/* The fraction has nine digits from blkparse; scale any other count. */
	digits = strlen(frac);
	frac_ns = 0;
	for (size_t i = 0; i < 9; i++)
		frac_ns = frac_ns * 10 + (i < digits ? frac[i] - '0' : 0);
	*time_ns = sec * 1000000000ULL + frac_ns;
	rec->offset_bytes = sector * 512;
	rec->length_bytes = count * 512;
	rec->content_hash = NULL;
	rec->has_device = true;
	rec->device = device;
	return 0;
}

/* The next record as the file holds it, with its own time in arrival_ns. */
static int read_record(struct trace_reader *tr, struct trace_record *rec)
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
		if (tr->format == TRACE_AUTO) {
			tr->format = detect(p);
			if (tr->format == TRACE_AUTO) {
				fprintf(stderr, "%s:%lu: trace format not recognised (not mqsim, fiu, blkparse or an ssdemu request log); name it with --format\n",
					tr->path, tr->line);
				return -1;
			}
		}
		if (tr->format == TRACE_BLKPARSE)
			ret = parse_blkparse(tr, p, rec, &time_ns);
		else if (tr->format == TRACE_MQSIM)
			ret = parse_mqsim(p, rec, &time_ns);
		else if (tr->format == TRACE_FIU)
			ret = parse_fiu(p, rec, &time_ns);
		else
			ret = parse_ssdemu(p, rec, &time_ns);
		if (ret == 1)
			continue;
		if (ret == -2)
			return -1;
		if (ret) {
			fprintf(stderr, "%s:%lu: not a %s trace line\n", tr->path, tr->line,
				format_names[tr->format]);
			return -1;
		}
		rec->arrival_ns = time_ns;
		return 1;
	}
	return 0;
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
				fprintf(stderr, "%s: out of memory sorting the trace\n", tr->path);
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
		fprintf(stderr, "%s: out of memory sorting the trace\n", tr->path);
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
		if (ret <= 0)
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
	char name[48];

	tr->disk_checked = true;
	tr->disks.pair = trace_format_disk_pair(tr->format);
	if (!tr->disk.set)
		return 0;
	trace_disk_name(tr->disk.pair, tr->disk.device, name, sizeof(name));
	if (tr->format == TRACE_SSDEMU) {
		fprintf(stderr, "%s: --disk %s refused: an ssdemu request log names no disks\n",
			tr->path, name);
		return -1;
	}
	if (tr->disk.pair != tr->disks.pair) {
		fprintf(stderr, "%s: --disk %s refused: a %s trace names its disks %s\n",
			tr->path, name, format_names[tr->format],
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
			fprintf(stderr, "%s: out of memory counting disks\n", tr->path);
			return -1;
		}
		if (!tr->disk.set || rec->device == tr->disk.device)
			return 1;
	}
	return ret;
}

/*
 * The trivial version (ftell/fstat) that the i22-readers branch replaces:
 * bytes of the file consumed and its size (0 if not a regular file);
 * a sorted blkparse trace (read whole) by its records returned.
 */
void trace_progress(const struct trace_reader *tr, uint64_t *done_bytes, uint64_t *total_bytes)
{
	struct stat sb;
	long at;

	*done_bytes = 0;
	*total_bytes = 0;
	if (!tr->file || fstat(fileno(tr->file), &sb) || !S_ISREG(sb.st_mode))
		return;
	*total_bytes = (uint64_t)sb.st_size;
	if (tr->sorted) {
		*done_bytes = tr->sorted_count ? *total_bytes * tr->sorted_next /
						 tr->sorted_count : *total_bytes;
		return;
	}
	at = ftell(tr->file);
	*done_bytes = at > 0 ? (uint64_t)at : 0;
}

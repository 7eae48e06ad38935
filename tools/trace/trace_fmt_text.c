// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt_text.c - the whitespace-separated trace formats (trace_fmt.h):
 * mqsim, fiu, the ssdemu request log and blkparse's text, parsed with the
 * scanner of trace_scan.h.
 */
#include <string.h>

#include "tools/trace/trace_fmt.h"
#include "tools/trace/trace_scan.h"
#include "tools/msg/msg.h"

/* @count units of @unit bytes; UINT64_MAX (refused as huge) on overflow. */
static uint64_t times_unit(uint64_t count, uint64_t unit)
{
	return count > UINT64_MAX / unit ? UINT64_MAX : count * unit;
}

bool trace_is_mqsim(const char *line)
{
	uint64_t v;

	for (int i = 0; i < 5; i++) {
		line = scan_field_u64(line, &v);
		if (!line)
			return false;
	}
	return !*scan_blanks(line);
}

int trace_parse_mqsim(struct trace_reader *tr, char *line, struct trace_record *rec,
		      uint64_t *time_ns)
{
	uint64_t t, dev, lba, sectors, type;
	const char *p = line;

	if (!(p = scan_field_u64(p, &t)) || !(p = scan_field_u64(p, &dev)) ||
	    !(p = scan_field_u64(p, &lba)) || !(p = scan_field_u64(p, &sectors)) ||
	    !scan_u64(scan_blanks(p), &type) || type > 1)
		return -1;
	*time_ns = t;
	rec->offset_bytes = times_unit(lba, 512);
	rec->length_bytes = times_unit(sectors, 512);
	rec->op = type == 0 ? SSDEMU_OP_WRITE : SSDEMU_OP_READ;
	rec->content_hash = NULL;
	rec->has_device = true;
	rec->device = dev;
	return 0;
}

int trace_parse_fiu(struct trace_reader *tr, char *line, struct trace_record *rec,
		    uint64_t *time_ns)
{
	uint64_t t, pid, lba, sectors, major, minor;
	const char *p = line, *word, *rw;
	size_t len, rw_len;

	if (!(p = scan_field_u64(p, &t)) || !(p = scan_field_u64(p, &pid)) ||
	    !(p = scan_word(p, &word, &len)) || !(p = scan_field_u64(p, &lba)) ||
	    !(p = scan_field_u64(p, &sectors)) || !(p = scan_word(p, &rw, &rw_len)) ||
	    !(p = scan_field_u64(p, &major)) || !(p = scan_field_u64(p, &minor)))
		return -1;
	if (rw_len != 1 || (rw[0] != 'R' && rw[0] != 'W') || major > UINT32_MAX ||
	    minor > UINT32_MAX)
		return -1;
	p = scan_blanks(p);
	*time_ns = t;
	rec->offset_bytes = times_unit(lba, 512);
	rec->length_bytes = times_unit(sectors, 512);
	rec->op = rw[0] == 'W' ? SSDEMU_OP_WRITE : SSDEMU_OP_READ;
	rec->content_hash = *p ? p : NULL;
	rec->has_device = true;
	rec->device = TRACE_DISK_PAIR(major, minor);
	return 0;
}

static const char op_letters[] = "RWTZF";

/*
 * A request log line (log_format.h), optionally followed (on writes) by
 * the data's MD5s, 32 hex digits each, concatenated, as an fiu line
 * carries them (workload/replay.py writes these).
 */
int trace_parse_ssdemu(struct trace_reader *tr, char *line, struct trace_record *rec,
		       uint64_t *time_ns)
{
	uint64_t arrival, offset, length, completion;
	const char *p = line, *op, *where, *hashes;
	size_t len, digits = 0;

	if (!(p = scan_field_u64(p, &arrival)) || !(p = scan_word(p, &op, &len)) ||
	    len != 1 || !(where = strchr(op_letters, op[0])) ||
	    !(p = scan_field_u64(p, &offset)) || !(p = scan_field_u64(p, &length)) ||
	    length > UINT32_MAX || !(p = scan_field_u64(p, &completion)))
		return -1;
	hashes = scan_blanks(p);
	if (*hashes) {
		while (scan_hex_digit(hashes[digits]) >= 0)
			digits++;
		if (hashes[digits] || digits % 32 || where - op_letters != SSDEMU_OP_WRITE)
			return -1;
	}
	*time_ns = arrival;
	rec->offset_bytes = offset;
	rec->length_bytes = length;
	rec->op = where - op_letters;
	rec->content_hash = digits ? hashes : NULL;
	rec->has_device = false;
	rec->device = 0;
	return 0;
}

/* A decimal number of at most UINT32_MAX. */
static const char *scan_u32(const char *p, unsigned int *out)
{
	uint64_t v;

	p = scan_u64(p, &v);
	if (!p || v > UINT32_MAX)
		return NULL;
	*out = (unsigned int)v;
	return p;
}

/* blkparse event lines open with the device, "major,minor". */
static const char *blkparse_event(const char *line, unsigned int *major, unsigned int *minor)
{
	const char *p = scan_u32(line, major);

	if (!p || *p != ',' || !(p = scan_u32(scan_blanks(p + 1), minor)) ||
	    (*p != ' ' && *p != '\t'))
		return NULL;
	return p;
}

bool trace_is_blkparse(const char *line)
{
	unsigned int major, minor;

	return blkparse_event(line, &major, &minor) != NULL;
}

/*
 * The op of a blkparse RWBS string: an optional leading F (preflush), then
 * D (discard), W (write), R (read) or N (no data: a flush when F led).
 * A lone F is a flush as the kernel's own tracepoints spell it.
 * Write-zeroes requests carry a W and read as writes.
 */
static int rwbs_op(const char *rwbs, size_t len, unsigned int *op)
{
	bool preflush = rwbs[0] == 'F' && len > 1;

	if (len == 1 && rwbs[0] == 'F') {
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
 */
int trace_parse_blkparse(struct trace_reader *tr, char *line, struct trace_record *rec,
			 uint64_t *time_ns)
{
	uint64_t seq, sec, sector = 0, count = 0, frac_ns = 0, device;
	unsigned int major, minor, cpu, pid;
	const char *p, *action, *rwbs, *q;
	size_t action_len, rwbs_len;
	int digits = 0, ret;

	p = blkparse_event(line, &major, &minor);
	if (!p)
		return 1;
	if (!(p = scan_u32(scan_blanks(p), &cpu)) || !(p = scan_field_u64(p, &seq)) ||
	    !(p = scan_u64(scan_blanks(p), &sec)) || *p != '.' || !scan_is_digit(p[1]))
		return -1;
	for (p++; scan_is_digit(*p); p++)
		if (digits < 9) {
			frac_ns = frac_ns * 10 + (uint64_t)(*p - '0');
			digits++;
		}
	for (; digits < 9; digits++)
		frac_ns *= 10;
	/* As scanf read it, the action may follow the pid without a blank. */
	if ((*p && !scan_is_blank(*p)) || !(p = scan_u32(scan_blanks(p), &pid)) ||
	    !(p = scan_word(p, &action, &action_len)) ||
	    !(p = scan_word(p, &rwbs, &rwbs_len)))
		return -1;
	if (action_len != 1 || action[0] != 'D')
		return 1;
	device = TRACE_DISK_PAIR(major, minor);
	if (!tr->have_device) {
		tr->have_device = true;
		tr->device = device;
	} else if (device != tr->device && !tr->disk.set) {
		msg_say("%s:%lu: a second device %u,%u; trace one device only, or choose one (ssdsim --disk %u,%u)\n",
			tr->path, tr->line, major, minor, (unsigned int)(tr->device >> 32),
			(unsigned int)(tr->device & UINT32_MAX));
		return -2;
	}
	ret = rwbs_op(rwbs, rwbs_len, &rec->op);
	if (ret)
		return ret;
	q = scan_u64(scan_blanks(p), &sector);
	if (q) {
		q = scan_blanks(q);
		if (*q != '+' || !scan_u64(scan_blanks(q + 1), &count))
			count = 0;
	}
	/* A data request without data is nothing the device has to do. */
	if (count == 0 && rec->op != SSDEMU_OP_FLUSH)
		return 1;
	if (sec > (UINT64_MAX - frac_ns) / 1000000000ULL)
		return -1;
	*time_ns = sec * 1000000000ULL + frac_ns;
	rec->offset_bytes = times_unit(sector, 512);
	rec->length_bytes = times_unit(count, 512);
	rec->content_hash = NULL;
	rec->has_device = true;
	rec->device = device;
	return 0;
}

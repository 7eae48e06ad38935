// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_snap.c - the snapshot stream of ssd_snap.h: sections framed with a
 * tag, a length and a CRC-32, little-endian integers, arrays and structs
 * written field by field through a small staging buffer.
 */
#include "common/ssd_snap.h"

/* Integers converted per chunk: the staging buffer on the stack. */
#define SNAP_CHUNK_BYTES	512

static void raw_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	int ret;

	if (w->error || !len)
		return;
	ret = w->write ? w->write(w, buf, len) : 0;
	if (ret) {
		w->error = ret;
		return;
	}
	w->bytes += len;
}

static void raw_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	int ret;

	if (r->error || !len)
		return;
	ret = r->read(r, buf, len);
	if (ret) {
		if (ret == -ENODATA)
			ssd_dev_err(r->dev_name, "snapshot refused: truncated after %llu bytes",
				    (unsigned long long)r->bytes);
		r->error = ret == -ENODATA ? -EINVAL : ret;
		return;
	}
	r->bytes += len;
}

static void le_store(u8 *p, u64 v, u32 bytes)
{
	u32 i;

	for (i = 0; i < bytes; i++)
		p[i] = (u8)(v >> (8 * i));
}

static u64 le_load(const u8 *p, u32 bytes)
{
	u64 v = 0;
	u32 i;

	for (i = 0; i < bytes; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

static u64 mem_load(const void *p, u32 bytes)
{
	switch (bytes) {
	case 1:
		return *(const u8 *)p;
	case 2:
		return *(const u16 *)p;
	case 4:
		return *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static void mem_store(void *p, u64 v, u32 bytes)
{
	switch (bytes) {
	case 1:
		*(u8 *)p = (u8)v;
		break;
	case 2:
		*(u16 *)p = (u16)v;
		break;
	case 4:
		*(u32 *)p = (u32)v;
		break;
	default:
		*(u64 *)p = v;
		break;
	}
}

void ssd_snap_counter_init(struct ssd_snap_writer *w)
{
	memset(w, 0, sizeof(*w));
	w->dev_name = "";
}

void ssd_snap_put(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	if (w->error)
		return;
	if (len > w->section_left) {
		ssd_dev_err(w->dev_name, "snapshot: a section's payload is longer than announced");
		w->error = -EIO;
		return;
	}
	w->crc = ssd_crc32(w->crc, buf, len);
	w->section_left -= len;
	raw_write(w, buf, len);
}

/* A tag as its four characters ("DATA"), '?' for what is not printable. */
static void tag_name(u32 tag, char name[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		char c = (char)(tag >> (8 * i));

		name[i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	name[4] = '\0';
}

void ssd_snap_get(struct ssd_snap_reader *r, void *buf, size_t len)
{
	char name[5];

	if (r->error)
		return;
	if (len > r->section_left) {
		tag_name(r->section_tag, name);
		ssd_snap_refuse(r, "section %s ends %llu bytes before what it must hold",
				name, (unsigned long long)(len - r->section_left));
		return;
	}
	raw_read(r, buf, len);
	if (r->error)
		return;
	r->crc = ssd_crc32(r->crc, buf, len);
	r->section_left -= len;
}

void ssd_snap_begin(struct ssd_snap_writer *w, u32 tag, u64 payload_bytes)
{
	u8 head[12];

	if (w->error)
		return;
	if (w->section_left) {
		ssd_dev_err(w->dev_name, "snapshot: a section began inside another");
		w->error = -EIO;
		return;
	}
	le_store(head, tag, 4);
	le_store(head + 4, payload_bytes, 8);
	raw_write(w, head, sizeof(head));
	w->crc = 0;
	w->section_left = payload_bytes;
}

void ssd_snap_end(struct ssd_snap_writer *w)
{
	u8 crc[4];

	if (w->error)
		return;
	if (w->section_left) {
		ssd_dev_err(w->dev_name, "snapshot: a section's payload is %llu bytes short",
			    (unsigned long long)w->section_left);
		w->error = -EIO;
		return;
	}
	le_store(crc, w->crc, 4);
	raw_write(w, crc, sizeof(crc));
}

void ssd_snap_open(struct ssd_snap_reader *r, u32 tag, u64 max_bytes, u64 *payload_bytes)
{
	char name[5], want_name[5];
	u8 head[12];
	u32 got;
	u64 len;

	*payload_bytes = 0;
	raw_read(r, head, sizeof(head));
	if (r->error)
		return;
	got = (u32)le_load(head, 4);
	len = le_load(head + 4, 8);
	tag_name(got, name);
	tag_name(tag, want_name);
	if (got != tag) {
		ssd_snap_refuse(r, "section '%s' found where '%s' belongs (a snapshot of another stack or version?)",
				name, want_name);
		return;
	}
	if (len > max_bytes) {
		ssd_snap_refuse(r, "section %s of %llu bytes, at most %llu fit this device",
				name, (unsigned long long)len, (unsigned long long)max_bytes);
		return;
	}
	r->section_tag = tag;
	r->section_left = len;
	r->crc = 0;
	r->in_section = true;
	*payload_bytes = len;
}

bool ssd_snap_corrupt(struct ssd_snap_reader *r)
{
	u8 chunk[SNAP_CHUNK_BYTES];
	char name[5];

	if (r->error || !r->in_section)
		return false;
	r->in_section = false;
	while (r->section_left) {
		size_t len = min_t(u64, r->section_left, sizeof(chunk));

		raw_read(r, chunk, len);
		if (r->error)
			return true;	/* truncated: logged */
		r->crc = ssd_crc32(r->crc, chunk, len);
		r->section_left -= len;
	}
	raw_read(r, chunk, 4);
	if (r->error)
		return true;
	if (le_load(chunk, 4) == r->crc)
		return false;
	tag_name(r->section_tag, name);
	ssd_dev_err(r->dev_name, "snapshot refused: section %s: checksum mismatch (the file is corrupted)",
		    name);
	r->error = -EINVAL;
	return true;
}

void ssd_snap_close(struct ssd_snap_reader *r)
{
	char name[5];
	u8 crc[4];
	u32 want = r->crc;

	if (r->error)
		return;
	tag_name(r->section_tag, name);
	if (r->section_left) {
		ssd_snap_refuse(r, "section %s holds %llu bytes more than this device reads",
				name, (unsigned long long)r->section_left);
		return;
	}
	r->in_section = false;
	raw_read(r, crc, sizeof(crc));
	if (!r->error && le_load(crc, 4) != want)
		ssd_snap_refuse(r, "section %s: checksum mismatch (the file is corrupted)", name);
}

void ssd_snap_put_u8(struct ssd_snap_writer *w, u8 v)
{
	ssd_snap_put(w, &v, 1);
}

void ssd_snap_put_u32(struct ssd_snap_writer *w, u32 v)
{
	u8 b[4];

	le_store(b, v, 4);
	ssd_snap_put(w, b, 4);
}

void ssd_snap_put_u64(struct ssd_snap_writer *w, u64 v)
{
	u8 b[8];

	le_store(b, v, 8);
	ssd_snap_put(w, b, 8);
}

u8 ssd_snap_get_u8(struct ssd_snap_reader *r)
{
	u8 v = 0;

	ssd_snap_get(r, &v, 1);
	return r->error ? 0 : v;
}

u32 ssd_snap_get_u32(struct ssd_snap_reader *r)
{
	u8 b[4] = { 0 };

	ssd_snap_get(r, b, 4);
	return r->error ? 0 : (u32)le_load(b, 4);
}

u64 ssd_snap_get_u64(struct ssd_snap_reader *r)
{
	u8 b[8] = { 0 };

	ssd_snap_get(r, b, 8);
	return r->error ? 0 : le_load(b, 8);
}

void ssd_snap_put_array(struct ssd_snap_writer *w, const void *array, u64 count, u32 bytes)
{
	u8 chunk[SNAP_CHUNK_BYTES];
	const u8 *p = array;
	u32 used = 0;
	u64 i;

	for (i = 0; i < count && !w->error; i++) {
		le_store(chunk + used, mem_load(p + i * bytes, bytes), bytes);
		used += bytes;
		if (used + bytes > sizeof(chunk)) {
			ssd_snap_put(w, chunk, used);
			used = 0;
		}
	}
	ssd_snap_put(w, chunk, used);
}

void ssd_snap_get_array(struct ssd_snap_reader *r, void *array, u64 count, u32 bytes)
{
	u8 chunk[SNAP_CHUNK_BYTES];
	u8 *p = array;
	u64 i = 0;

	while (i < count && !r->error) {
		u64 n = min_t(u64, count - i, sizeof(chunk) / bytes);
		u64 j;

		ssd_snap_get(r, chunk, n * bytes);
		if (r->error)
			return;
		for (j = 0; j < n; j++)
			mem_store(p + (i + j) * bytes, le_load(chunk + j * bytes, bytes), bytes);
		i += n;
	}
}

u64 ssd_snap_get_ns(struct ssd_snap_reader *r, const char *what)
{
	u64 ns = ssd_snap_get_u64(r);

	if (!r->error && ns > SSD_SNAP_MAX_NS) {
		ssd_snap_refuse(r, "%s at %llu ns, beyond %llu", what, (unsigned long long)ns,
				(unsigned long long)SSD_SNAP_MAX_NS);
		return 0;
	}
	return ns;
}

void ssd_snap_get_ns_array(struct ssd_snap_reader *r, u64 *array, u64 count, const char *what)
{
	u64 i;

	ssd_snap_get_array(r, array, count, sizeof(u64));
	for (i = 0; i < count && !r->error; i++)
		if (array[i] > SSD_SNAP_MAX_NS)
			ssd_snap_refuse(r, "%s %llu at %llu ns, beyond %llu", what,
					(unsigned long long)i, (unsigned long long)array[i],
					(unsigned long long)SSD_SNAP_MAX_NS);
}

u64 ssd_snap_structs_bytes(u64 count, const struct ssd_snap_field *fields, u32 nr_fields)
{
	u64 bytes = 0;
	u32 f;

	for (f = 0; f < nr_fields; f++)
		bytes += fields[f].bytes;
	return count * bytes;
}

void ssd_snap_put_structs(struct ssd_snap_writer *w, const void *base, u64 count,
			  size_t stride, const struct ssd_snap_field *fields, u32 nr_fields)
{
	u8 chunk[SNAP_CHUNK_BYTES];
	const u8 *p = base;
	u32 used = 0, f;
	u64 i;

	for (i = 0; i < count && !w->error; i++) {
		for (f = 0; f < nr_fields; f++) {
			if (used + fields[f].bytes > sizeof(chunk)) {
				ssd_snap_put(w, chunk, used);
				used = 0;
			}
			le_store(chunk + used, mem_load(p + i * stride + fields[f].offset,
							fields[f].bytes), fields[f].bytes);
			used += fields[f].bytes;
		}
	}
	ssd_snap_put(w, chunk, used);
}

void ssd_snap_get_structs(struct ssd_snap_reader *r, void *base, u64 count, size_t stride,
			  const struct ssd_snap_field *fields, u32 nr_fields)
{
	u64 one = ssd_snap_structs_bytes(1, fields, nr_fields), i = 0;
	u8 chunk[SNAP_CHUNK_BYTES];
	u8 *p = base;

	if (!one || one > sizeof(chunk)) {
		ssd_dev_err(r->dev_name, "snapshot: a struct of %llu bytes", (unsigned long long)one);
		r->error = -EINVAL;
		return;
	}
	while (i < count && !r->error) {
		u64 n = min_t(u64, count - i, sizeof(chunk) / one), j;
		u32 used = 0, f;

		ssd_snap_get(r, chunk, n * one);
		if (r->error)
			return;
		for (j = 0; j < n; j++)
			for (f = 0; f < nr_fields; f++) {
				mem_store(p + (i + j) * stride + fields[f].offset,
					  le_load(chunk + used, fields[f].bytes), fields[f].bytes);
				used += fields[f].bytes;
			}
		i += n;
	}
}

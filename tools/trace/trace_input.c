// SPDX-License-Identifier: GPL-2.0
/*
 * trace_input.c - the bytes of a trace (trace_input.h): mapped, read in
 * chunks, or decompressed from zstd, and handed out by lines or records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "tools/trace/trace_input.h"
#include "tools/msg/msg.h"

#define CHUNK_BYTES	(1u << 20)
/* Mapped pages read are dropped from the process this many bytes at a time. */
#define RELEASE_BYTES	(1u << 20)

static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
static const unsigned char nothing[1];

static bool is_zstd(const unsigned char *p, size_t bytes)
{
	return bytes >= sizeof(zstd_magic) && !memcmp(p, zstd_magic, sizeof(zstd_magic));
}

static int out_of_memory(const struct trace_input *in)
{
	msg_say("%s: out of memory reading the trace\n", in->path);
	return -1;
}

/*
 * A mapped trace's pages, once read, count in the process's RSS until
 * dropped: drop them (the page cache keeps them) every RELEASE_BYTES, up
 * to a chunk before @consumed, so a replay's memory is the simulator's.
 */
static void release_behind(struct trace_input *in, size_t consumed)
{
	size_t upto;

	if (!in->unmap || consumed < in->released + RELEASE_BYTES)
		return;
	upto = (consumed - CHUNK_BYTES) & ~(size_t)(sysconf(_SC_PAGESIZE) - 1);
	if (upto > in->released &&
	    !madvise((void *)(in->map + in->released), upto - in->released, MADV_DONTNEED))
		in->released = upto;
}

/* Room for @bytes in the window's buffer, keeping what it holds. */
static int grow_buf(struct trace_input *in, size_t bytes)
{
	size_t held = in->end - in->pos, room = in->buf_room ? in->buf_room : CHUNK_BYTES;
	unsigned char *grown;

	while (room < bytes)
		room *= 2;
	if (in->buf && in->pos != in->buf)
		memmove(in->buf, in->pos, held);
	if (room != in->buf_room) {
		grown = realloc(in->buf, room);
		if (!grown)
			return out_of_memory(in);
		in->buf = grown;
		in->buf_room = room;
	}
	in->pos = in->buf;
	in->end = in->buf + held;
	return 0;
}

/* Read up to @bytes from the file into @dst: the count, 0 at its end, -1 on error. */
static long read_raw(struct trace_input *in, unsigned char *dst, size_t bytes)
{
	ssize_t n;

	do
		n = read(in->fd, dst, bytes);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		msg_perror(in->path);
		return -1;
	}
	in->raw_done += n;
	return n;
}

/* Compressed bytes for the decompressor: 1, 0 at the file's end, -1 on error. */
static int more_compressed(struct trace_input *in)
{
	long n;

	if (in->zpos < in->zend)
		return 1;
	if (in->fd < 0)
		return 0;
	if (!in->zbuf) {
		in->zbuf = malloc(ZSTD_DStreamInSize());
		if (!in->zbuf)
			return out_of_memory(in);
		in->zbuf_room = ZSTD_DStreamInSize();
	}
	n = read_raw(in, in->zbuf, in->zbuf_room);
	if (n <= 0)
		return n;
	in->zpos = 0;
	in->zend = n;
	return 1;
}

/* Decompress into the window's free room until some bytes come out or the end. */
static int decompress_more(struct trace_input *in)
{
	ZSTD_outBuffer out = {
		.dst = (unsigned char *)in->end, .size = in->buf + in->buf_room - in->end,
	};

	while (!out.pos) {
		const unsigned char *src = in->fd < 0 ? in->map : in->zbuf;
		ZSTD_inBuffer zin;
		size_t ret;
		int more = more_compressed(in);

		if (more < 0)
			return -1;
		if (!more) {
			if (in->zstd_frame_open) {
				msg_say("%s: the zstd stream is truncated\n", in->path);
				return -1;
			}
			in->at_eof = true;
			return 0;
		}
		zin.src = src;
		zin.size = in->zend;
		zin.pos = in->zpos;
		ret = ZSTD_decompressStream(in->zstd, &out, &zin);
		in->zpos = zin.pos;
		if (in->fd < 0)
			release_behind(in, in->zpos);
		if (ZSTD_isError(ret)) {
			msg_say("%s: not a valid zstd stream: %s\n", in->path,
				ZSTD_getErrorName(ret));
			return -1;
		}
		in->zstd_frame_open = ret != 0;
	}
	in->end += out.pos;
	return 0;
}

long trace_input_fill(struct trace_input *in, size_t want)
{
	while ((size_t)(in->end - in->pos) < want && !in->at_eof) {
		long n;

		if (grow_buf(in, want > CHUNK_BYTES ? want : CHUNK_BYTES))
			return -1;
		if (in->zstd) {
			if (decompress_more(in))
				return -1;
			continue;
		}
		n = read_raw(in, (unsigned char *)in->end, in->buf + in->buf_room - in->end);
		if (n < 0)
			return -1;
		if (!n)
			in->at_eof = true;
		in->end += n;
	}
	return in->end - in->pos;
}

/* Start reading: the window over the map, or a stream (zstd or not). */
static int start(struct trace_input *in)
{
	if (in->fd < 0 && !is_zstd(in->map, in->map_bytes)) {
		in->pos = in->map;
		in->end = in->map + in->map_bytes;
		in->at_eof = true;
		return 0;
	}
	if (in->fd >= 0) {
		/* A pipe: its first bytes say whether it is compressed. */
		if (trace_input_fill(in, sizeof(zstd_magic)) < 0)
			return -1;
		if (!is_zstd(in->pos, in->end - in->pos))
			return 0;
		in->zbuf_room = in->buf_room;
		in->zbuf = in->buf;
		in->zpos = 0;
		in->zend = in->end - in->pos;
		in->buf = NULL;
		in->buf_room = 0;
		in->pos = in->end = NULL;
		in->at_eof = false;
	} else {
		in->zpos = 0;
		in->zend = in->map_bytes;
	}
	in->zstd = ZSTD_createDStream();
	if (!in->zstd || ZSTD_isError(ZSTD_initDStream(in->zstd)))
		return out_of_memory(in);
	return grow_buf(in, CHUNK_BYTES);
}

int trace_input_open(struct trace_input *in, const char *path)
{
	struct stat st;
	void *map;

	memset(in, 0, sizeof(*in));
	in->path = path;
	in->fd = open(path, O_RDONLY);
	if (in->fd < 0 || fstat(in->fd, &st)) {
		msg_perror(path);
		trace_input_close(in);
		return -1;
	}
	if (S_ISREG(st.st_mode)) {
		in->raw_total = st.st_size;
		map = st.st_size ? mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, in->fd, 0) :
				   (void *)nothing;
		if (map != MAP_FAILED) {
			if (st.st_size) {
				madvise(map, st.st_size, MADV_SEQUENTIAL);
				in->unmap = true;
			}
			in->map = map;
			in->map_bytes = st.st_size;
			close(in->fd);
			in->fd = -1;
		}
	}
	if (start(in)) {
		trace_input_close(in);
		return -1;
	}
	return 0;
}

int trace_input_memory(struct trace_input *in, const char *name, const void *data,
		       size_t bytes)
{
	memset(in, 0, sizeof(*in));
	in->path = name;
	in->fd = -1;
	in->map = bytes ? data : nothing;
	in->map_bytes = bytes;
	in->raw_total = bytes;
	if (start(in)) {
		trace_input_close(in);
		return -1;
	}
	return 0;
}

void trace_input_close(struct trace_input *in)
{
	if (in->unmap)
		munmap((void *)in->map, in->map_bytes);
	if (in->fd >= 0)
		close(in->fd);
	if (in->zstd)
		ZSTD_freeDStream(in->zstd);
	free(in->buf);
	free(in->zbuf);
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}

int trace_input_line(struct trace_input *in, const unsigned char **line, size_t *len)
{
	size_t searched = 0;

	if (in->fd < 0 && !in->zstd)
		release_behind(in, in->pos - in->map);
	for (;;) {
		size_t held = in->end - in->pos;
		const unsigned char *nl = held > searched ?
			memchr(in->pos + searched, '\n', held - searched) : NULL;

		if (nl || in->at_eof) {
			if (!nl && !held)
				return 0;
			*line = in->pos;
			*len = nl ? (size_t)(nl - in->pos) : held;
			in->pos = nl ? nl + 1 : in->end;
			return 1;
		}
		searched = held;
		if (trace_input_fill(in, held + 1) < 0)
			return -1;
	}
}

int trace_input_record(struct trace_input *in, size_t bytes, const unsigned char **rec)
{
	long held;

	if (in->fd < 0 && !in->zstd)
		release_behind(in, in->pos - in->map);
	held = trace_input_fill(in, bytes);
	if (held < 0)
		return -1;
	if (!held)
		return 0;
	if ((size_t)held < bytes)
		return 2;
	*rec = in->pos;
	in->pos += bytes;
	return 1;
}

void trace_input_progress(const struct trace_input *in, uint64_t *done_bytes,
			  uint64_t *total_bytes)
{
	if (in->zstd)
		*done_bytes = in->fd < 0 ? in->zpos : in->raw_done - (in->zend - in->zpos);
	else if (in->fd < 0)
		*done_bytes = in->pos - in->map;
	else
		*done_bytes = in->raw_done - (in->end - in->pos);
	*total_bytes = in->raw_total;
}

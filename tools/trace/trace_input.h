/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_input.h - the bytes of a trace file for the trace readers: a
 * regular file is mapped whole (no copy); a pipe or a FIFO is read in
 * chunks; a zstd-compressed trace (magic 28 b5 2f fd, whatever its name)
 * is decompressed as a stream.  The readers take it a line or a record at
 * a time from a window of the bytes; this file knows nothing of formats.
 */
#ifndef SSD_TRACE_INPUT_H
#define SSD_TRACE_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct trace_input {
	const char *path;
	int fd;				/* -1: mapped whole, or memory */
	const unsigned char *map;	/* the file's (or memory's) bytes, if whole */
	size_t map_bytes;
	bool unmap;			/* @map is ours to munmap */
	size_t released;		/* bytes of @map read and dropped from memory */
	uint64_t raw_done;		/* bytes of the file (compressed) taken */
	uint64_t raw_total;		/* the file's size; 0 if unknown (a pipe) */
	/* The window of (decompressed) bytes not yet consumed. */
	const unsigned char *pos, *end;
	bool at_eof;			/* nothing follows @end */
	unsigned char *buf;		/* the window's storage when not @map */
	size_t buf_room;
	void *zstd;			/* ZSTD_DStream, or NULL */
	unsigned char *zbuf;		/* compressed bytes read from @fd */
	size_t zbuf_room, zpos, zend;	/* compressed bytes in zbuf[zpos, zend) */
	bool zstd_frame_open;		/* a frame started and not finished */
};

/* Open @path: 0, or -1 after a message naming it. */
int trace_input_open(struct trace_input *in, const char *path);
/* The @bytes at @data as if they were a file named @name (not copied). */
int trace_input_memory(struct trace_input *in, const char *name, const void *data,
		       size_t bytes);
void trace_input_close(struct trace_input *in);
/*
 * Make at least @want bytes available from in->pos (fewer only at the
 * end); the count available, or -1 after a message (a read or zstd error).
 */
long trace_input_fill(struct trace_input *in, size_t want);
/*
 * The next line (without its '\n') in *@line, *@len: 1, 0 at the end,
 * -1 after a message.  The bytes stay valid until the next call.
 */
int trace_input_line(struct trace_input *in, const unsigned char **line, size_t *len);
/*
 * The next @bytes bytes in *@rec: 1, 0 at a clean end, 2 for a partial
 * record at the end (its bytes left unconsumed), -1 after a message.
 */
int trace_input_record(struct trace_input *in, size_t bytes, const unsigned char **rec);
/* Bytes of the file consumed and its size (0 if unknown). */
void trace_input_progress(const struct trace_input *in, uint64_t *done_bytes,
			  uint64_t *total_bytes);
/* Whether the input is zstd-compressed. */
static inline bool trace_input_compressed(const struct trace_input *in)
{
	return in->zstd != NULL;
}

#endif /* SSD_TRACE_INPUT_H */

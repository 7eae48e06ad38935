// SPDX-License-Identifier: GPL-2.0
/*
 * csim_trace.c - loads a trace into memory for the host cache simulator
 * (csim_trace.h), through trace_reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim.h"
#include "tools/cachesim/csim_map.h"
#include "tools/cachesim/csim_trace.h"
#include "tools/trace/hex_digit.h"

uint64_t csim_md5_key(const char *h)
{
	uint64_t hi = 0, lo = 0;

	for (int i = 0; i < 16; i++)
		hi = hi << 4 | hex_digit(h[i]);
	for (int i = 16; i < 32; i++)
		lo = lo << 4 | hex_digit(h[i]);
	return hi ^ csim_mix64(lo);
}

static void grow_reqs(struct csim_trace *t)
{
	if (t->nr < t->room)
		return;
	t->room = t->room ? 2 * t->room : 4096;
	t->reqs = realloc(t->reqs, t->room * sizeof(*t->reqs));
	if (!t->reqs)
		csim_oom();
}

static uint64_t take_fps(struct csim_trace *t, uint32_t pages)
{
	uint64_t at = t->nr_fps;

	if (t->nr_fps + pages > t->fps_room) {
		while (t->nr_fps + pages > t->fps_room)
			t->fps_room = t->fps_room ? 2 * t->fps_room : 65536;
		t->fps = realloc(t->fps, t->fps_room * sizeof(*t->fps));
		t->partial = realloc(t->partial, t->fps_room);
		if (!t->fps || !t->partial)
			csim_oom();
	}
	memset(t->fps + at, 0, pages * sizeof(*t->fps));
	memset(t->partial + at, 0, pages);
	t->nr_fps += pages;
	return at;
}

/* Spread the request's hashes over its pages (csim_trace.h). */
static void hash_pages(struct csim_trace *t, struct csim_req *r, const struct trace_record *rec)
{
	size_t nr = strlen(rec->content_hash) / 32;
	uint64_t per, first_byte = r->page * CSIM_PAGE_BYTES;
	uint64_t end = rec->offset_bytes + rec->length_bytes;

	if (!nr || rec->length_bytes % nr) {
		t->hash_mismatch++;
		return;
	}
	per = rec->length_bytes / nr;
	r->fp_at = take_fps(t, r->pages);
	for (size_t i = 0; i < nr; i++) {
		uint64_t at = rec->offset_bytes + i * per;
		uint64_t pg = (at - first_byte) / CSIM_PAGE_BYTES;
		uint64_t *fp = &t->fps[r->fp_at + pg];

		*fp = csim_mix64(*fp ^ csim_md5_key(rec->content_hash + 32 * i) ^
				 (at % CSIM_PAGE_BYTES) * 0x9e3779b97f4a7c15ULL);
	}
	for (uint32_t pg = 0; pg < r->pages; pg++) {
		uint64_t start = first_byte + (uint64_t)pg * CSIM_PAGE_BYTES;

		if (!t->fps[r->fp_at + pg])
			t->fps[r->fp_at + pg] = 1;
		if (start < rec->offset_bytes || start + CSIM_PAGE_BYTES > end)
			t->partial[r->fp_at + pg] = 1;
	}
}

/* Record the content a page's first appearance shows, if a whole-page read. */
static void first_sight(struct csim_trace *t, struct csim_map *seen, const struct csim_req *r)
{
	for (uint32_t i = 0; i < r->pages; i++) {
		uint64_t page = r->page + i;

		if (csim_map_get(seen, page) != CSIM_NONE)
			continue;
		if (csim_map_put(seen, page, 0))
			csim_oom();
		if (r->op != CSIM_REQ_READ || r->fp_at == CSIM_NO_FPS || t->partial[r->fp_at + i])
			continue;
		if (t->nr_initial == t->initial_room) {
			t->initial_room = t->initial_room ? 2 * t->initial_room : 65536;
			t->initial_fp = realloc(t->initial_fp, t->initial_room * sizeof(uint64_t));
			if (!t->initial_fp)
				csim_oom();
		}
		t->initial_fp[t->nr_initial] = t->fps[r->fp_at + i];
		if (csim_map_put(&t->initial, page, (uint32_t)t->nr_initial++))
			csim_oom();
	}
}

int csim_trace_load(struct csim_trace *t, const char *path, enum trace_format format)
{
	struct trace_reader tr;
	struct trace_record rec;
	struct csim_map seen;
	int ret;

	memset(t, 0, sizeof(*t));
	t->path = path;
	if (csim_map_init(&t->initial, 1024) || csim_map_init(&seen, 1024))
		csim_oom();
	if (trace_open(&tr, path, format))
		return -1;
	while ((ret = trace_next(&tr, &rec)) > 0) {
		struct csim_req *r;

		if (rec.op == SSDEMU_OP_FLUSH) {
			t->skipped_flush++;
			continue;
		}
		if (!rec.length_bytes) {
			t->skipped_zero_length++;
			continue;
		}
		grow_reqs(t);
		r = &t->reqs[t->nr++];
		r->page = rec.offset_bytes / CSIM_PAGE_BYTES;
		r->pages = (uint32_t)((rec.offset_bytes + rec.length_bytes - 1) / CSIM_PAGE_BYTES -
				      r->page + 1);
		r->op = rec.op == SSDEMU_OP_READ ? CSIM_REQ_READ :
			rec.op == SSDEMU_OP_WRITE ? CSIM_REQ_WRITE : CSIM_REQ_TRIM;
		r->fp_at = CSIM_NO_FPS;
		if (rec.content_hash && r->op != CSIM_REQ_TRIM)
			hash_pages(t, r, &rec);
		first_sight(t, &seen, r);
	}
	csim_map_free(&seen);
	t->format = trace_format_name(tr.format);
	trace_close(&tr);
	return ret < 0 ? -1 : 0;
}

void csim_trace_free(struct csim_trace *t)
{
	free(t->reqs);
	free(t->fps);
	free(t->partial);
	free(t->initial_fp);
	csim_map_free(&t->initial);
	memset(t, 0, sizeof(*t));
}

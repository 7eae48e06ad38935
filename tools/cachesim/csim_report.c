// SPDX-License-Identifier: GPL-2.0
/*
 * csim_report.c - cachesim's output (csim_report.h).  One printer for
 * both forms: each figure is a (key, value) pair, printed as a text line
 * or a JSON member.
 */
#include <inttypes.h>

#include "tools/cachesim/csim_report.h"

struct out {
	FILE *f;
	bool json, first;
	const char *indent;
};

static void key(struct out *o, const char *k)
{
	if (o->json) {
		fprintf(o->f, "%s\n%s\"%s\": ", o->first ? "" : ",", o->indent, k);
		o->first = false;
	} else {
		fprintf(o->f, "%-32s ", k);
	}
}

static void end(struct out *o)
{
	if (!o->json)
		fputc('\n', o->f);
}

static void u64v(struct out *o, const char *k, uint64_t v)
{
	key(o, k);
	fprintf(o->f, "%" PRIu64, v);
	end(o);
}

static void dblv(struct out *o, const char *k, double v)
{
	key(o, k);
	fprintf(o->f, "%.6f", v);
	end(o);
}

static void strv(struct out *o, const char *k, const char *v)
{
	key(o, k);
	fprintf(o->f, o->json ? "\"%s\"" : "%s", v);
	end(o);
}

static double ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

void csim_report_trace(FILE *f, const struct csim_trace_info *ti, bool json)
{
	struct out o = { .f = f, .json = json, .first = true, .indent = "    " };
	const struct csim_census *b = ti->blocks, *ch = ti->chunks;
	uint64_t written = ch->pages[CSIM_REQ_WRITE];

	if (json)
		fprintf(f, "{\n  \"trace\": {");
	strv(&o, "path", ti->t->path);
	strv(&o, "format", ti->t->format);
	u64v(&o, "read_requests", b->requests[CSIM_REQ_READ]);
	u64v(&o, "write_requests", b->requests[CSIM_REQ_WRITE]);
	u64v(&o, "trim_requests", b->requests[CSIM_REQ_TRIM]);
	u64v(&o, "read_pages", b->pages[CSIM_REQ_READ]);
	u64v(&o, "write_pages", written);
	u64v(&o, "skipped_zero_length_requests", ti->t->skipped_zero_length);
	u64v(&o, "hash_mismatch_requests", ti->t->hash_mismatch);
	u64v(&o, "block_bytes", ti->block_bytes);
	u64v(&o, "read_block_accesses", b->block_accesses[CSIM_REQ_READ]);
	u64v(&o, "write_block_accesses", b->block_accesses[CSIM_REQ_WRITE]);
	u64v(&o, "distinct_blocks", b->distinct_blocks);
	u64v(&o, "distinct_block_contents", b->distinct_block_fps);
	u64v(&o, "working_set_bytes", b->distinct_blocks * ti->block_bytes);
	u64v(&o, "unique_block_bytes", b->distinct_block_fps * ti->block_bytes);
	u64v(&o, "distinct_chunks", ch->distinct_page_fps);
	u64v(&o, "unique_chunk_bytes", ch->distinct_page_fps * CSIM_PAGE_BYTES);
	dblv(&o, "write_dup_page_share", ratio(ch->write_pages_dup, written));
	u64v(&o, "unit_bytes", ti->unit_bytes);
	u64v(&o, "units", ch->units);
	u64v(&o, "max_unit_refs", ch->max_unit_refs);
	if (json)
		fprintf(f, "\n  },\n  \"runs\": [");
}

static void quadrants(struct out *o, const struct csim_run *r)
{
	const struct csim_cache *c = r->c;
	uint64_t q[4] = { 0 }, total = 0;
	static const char *const names[4] = { "qa", "qb", "qc", "qd" };
	char k[32];

	for (uint64_t u = 0; u < c->unit_fills_room; u++) {
		uint64_t fills = c->unit_fills[u];
		uint64_t acc = u < r->unit_room ? r->unit_accesses[u] : 0;
		bool popular = acc >= r->quad_popular_accesses;
		bool repeat = fills >= r->quad_repeat_writes;

		if (!fills)
			continue;
		q[(popular ? 0 : 2) + (repeat ? 1 : 0)] += fills * c->fill_unit_bytes;
		total += fills * c->fill_unit_bytes;
	}
	for (int i = 0; i < 4; i++) {
		snprintf(k, sizeof(k), "%s_bytes", names[i]);
		u64v(o, k, q[i]);
		snprintf(k, sizeof(k), "%s_share", names[i]);
		dblv(o, k, ratio(q[i], total));
	}
}

void csim_report_run(FILE *f, const struct csim_run *r, bool json, bool first)
{
	struct out o = { .f = f, .json = json, .first = true, .indent = "      " };
	const struct csim_cache *c = r->c;
	const struct csim_stats *st = &c->st;
	struct csim_memory m = { 0 };
	uint64_t acc = st->accesses[CSIM_READ] + st->accesses[CSIM_WRITE];
	uint64_t hits = st->hits[CSIM_READ] + st->hits[CSIM_WRITE];

	c->policy->memory(c, &m);
	if (json)
		fprintf(f, "%s\n    {", first ? "" : ",");
	else
		fputc('\n', f);
	strv(&o, "policy", c->policy->name);
	strv(&o, "granularity", r->granularity);
	strv(&o, "writes", r->writes);
	u64v(&o, "cache_bytes", r->cache_bytes);
	u64v(&o, "capacity", c->p.capacity);
	u64v(&o, "meta_entries", c->policy->kind == CSIM_DEDUP ? c->p.meta_entries : 0);
	u64v(&o, "read_accesses", st->accesses[CSIM_READ]);
	u64v(&o, "read_hits", st->hits[CSIM_READ]);
	dblv(&o, "read_hit_ratio", ratio(st->hits[CSIM_READ], st->accesses[CSIM_READ]));
	u64v(&o, "write_accesses", st->accesses[CSIM_WRITE]);
	u64v(&o, "write_hits", st->hits[CSIM_WRITE]);
	dblv(&o, "overall_hit_ratio", ratio(hits, acc));
	u64v(&o, "cache_write_bytes", st->fill_bytes[CSIM_FILL_READ] + st->fill_bytes[CSIM_FILL_WRITE]);
	u64v(&o, "cache_write_bytes_read_fill", st->fill_bytes[CSIM_FILL_READ]);
	u64v(&o, "cache_write_bytes_write", st->fill_bytes[CSIM_FILL_WRITE]);
	u64v(&o, "evictions", st->evictions);
	u64v(&o, "invalidations", st->invalidations);
	if (c->policy->kind == CSIM_PLAIN)
		u64v(&o, "stale_reads", st->stale_reads);
	if (c->policy->kind == CSIM_DEDUP) {
		u64v(&o, "meta_evictions", st->meta_evictions);
		u64v(&o, "dedup_fills_saved", st->dedup_fills_saved);
		u64v(&o, "bhi_cold_drops", st->bhi_cold_drops);
		u64v(&o, "bhi_stale_drops", st->bhi_stale_drops);
		u64v(&o, "rce_single_drops", st->rce_single_drops);
		u64v(&o, "rce_fall_drops", st->rce_fall_drops);
		u64v(&o, "rce_moves", st->rce_moves);
		u64v(&o, "rce_forced_drops", st->rce_forced_drops);
		u64v(&o, "bhi_hot_keeps", st->bhi_hot_keeps);
		u64v(&o, "bhi_hot_drops", st->bhi_hot_drops);
		u64v(&o, "cdac_no_victim", st->cdac_no_victim);
	}
	if (c->policy->kind == CSIM_UNIT) {
		u64v(&o, "plc_filtered", st->plc_filtered);
		u64v(&o, "plc_delayed", st->plc_delayed);
		u64v(&o, "plc_inout_refused", st->plc_inout_refused);
	}
	if (c->unit_mode)
		quadrants(&o, r);
	u64v(&o, "memory_bytes_per_block", m.bytes_per_block);
	u64v(&o, "memory_bytes_per_address", m.bytes_per_address);
	u64v(&o, "memory_bytes_per_ghost", m.bytes_per_ghost);
	u64v(&o, "memory_bytes_per_unit_tracked", m.bytes_per_unit_tracked);
	u64v(&o, "memory_peak_bytes", m.peak_bytes);
	dblv(&o, "seconds", r->seconds);
	if (json)
		fprintf(f, "\n    }");
}

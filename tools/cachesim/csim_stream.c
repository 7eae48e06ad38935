// SPDX-License-Identifier: GPL-2.0
/*
 * csim_stream.c - from a loaded trace to policy accesses (csim_stream.h).
 */
#include <stdlib.h>
#include <string.h>

#include "tools/cachesim/csim_map.h"
#include "tools/cachesim/csim_stream.h"

struct stream {
	const struct csim_trace *t;
	const struct csim_stream_opts *o;
	struct csim_cache *c;
	struct csim_census *census;
	struct csim_map page_slot;		/* page -> slot of page_fp */
	uint64_t *page_fp;
	uint8_t *touched;			/* by slot: the trace showed it (unit runs) */
	uint64_t nr_pages, pages_room;
	struct csim_map seen_fps;		/* census: chunk and block contents */
	struct csim_map seen_blocks;
	struct csim_map seen_block_fps;
	/* unit mode */
	struct csim_map unit_of;		/* chunk fingerprint -> unit */
	uint32_t *refs;				/* by unit */
	uint64_t *stamp;			/* by unit: last request + 1 */
	uint32_t **acc;
	uint64_t *acc_room;
	uint64_t units_room, nr_units, open_fill;
	uint64_t *batch_units, *batch_pages;	/* one read's units, in order */
	uint64_t batch_room;
	uint64_t now;
};

static void grow32(uint32_t **a, uint64_t *room, uint64_t need)
{
	uint64_t r = *room ? *room : 1024;

	if (need < *room)
		return;
	while (r <= need)
		r *= 2;
	*a = realloc(*a, r * sizeof(**a));
	if (!*a)
		csim_oom();
	memset(*a + *room, 0, (r - *room) * sizeof(**a));
	*room = r;
}

static uint64_t get_page(struct stream *s, uint64_t page)
{
	uint32_t slot = csim_map_get(&s->page_slot, page);

	return slot == CSIM_NONE ? 0 : s->page_fp[slot];
}

static void set_page(struct stream *s, uint64_t page, uint64_t fp)
{
	uint32_t slot = csim_map_get(&s->page_slot, page);

	if (slot == CSIM_NONE) {
		if (s->nr_pages == s->pages_room) {
			s->pages_room = s->pages_room ? 2 * s->pages_room : 65536;
			s->page_fp = realloc(s->page_fp, s->pages_room * sizeof(uint64_t));
			s->touched = realloc(s->touched, s->pages_room);
			if (!s->page_fp || !s->touched)
				csim_oom();
		}
		slot = (uint32_t)s->nr_pages++;
		if (csim_map_put(&s->page_slot, page, slot))
			csim_oom();
	}
	s->page_fp[slot] = fp;
	s->touched[slot] = 1;
}

static uint64_t nonzero(uint64_t fp)
{
	return fp ? fp : 1;
}

/* Content of a page the trace never showed: unique to its address. */
static uint64_t unseen(uint64_t page)
{
	return nonzero(csim_mix64(page ^ 0x5eedf00dcafe1234ULL));
}

/* The page's content: as stored (initially the trace's initial content). */
static uint64_t content(struct stream *s, uint64_t page)
{
	uint64_t fp = get_page(s, page);

	return fp ? fp : unseen(page);
}

/* Unit mode: the unit of a chunk, appended to the open unit if new. */
static uint64_t unit_of(struct stream *s, uint64_t fp)
{
	uint32_t u = csim_map_get(&s->unit_of, fp);

	if (u != CSIM_NONE)
		return u;
	if (!s->nr_units || s->open_fill == s->o->unit_pages) {
		s->nr_units++;
		s->open_fill = 0;
		if (s->nr_units > s->units_room) {
			uint64_t room = s->units_room ? 2 * s->units_room : 1024;

			s->refs = realloc(s->refs, room * sizeof(*s->refs));
			s->stamp = realloc(s->stamp, room * sizeof(*s->stamp));
			if (!s->refs || !s->stamp)
				csim_oom();
			memset(s->refs + s->units_room, 0,
			       (room - s->units_room) * sizeof(*s->refs));
			memset(s->stamp + s->units_room, 0,
			       (room - s->units_room) * sizeof(*s->stamp));
			s->units_room = room;
		}
	}
	s->open_fill++;
	u = (uint32_t)(s->nr_units - 1);
	if (csim_map_put(&s->unit_of, fp, u))
		csim_oom();
	return u;
}

/* The unit of a page's current content, or CSIM_NONE if the trace has not shown it. */
static uint64_t page_unit(struct stream *s, uint64_t page)
{
	uint32_t slot = csim_map_get(&s->page_slot, page);

	if (slot == CSIM_NONE || !s->touched[slot] || !s->page_fp[slot])
		return CSIM_NONE;
	return csim_map_get(&s->unit_of, s->page_fp[slot]);
}

static int64_t run_change(struct stream *s, uint64_t page, uint64_t unit)
{
	int64_t d = 1;

	if (page && page_unit(s, page - 1) == unit)
		d--;
	if (page_unit(s, page + 1) == unit)
		d--;
	return d;
}

/* A page's content becomes @fp: in unit mode, move it between units' runs. */
static void store(struct stream *s, uint64_t page, uint64_t fp)
{
	if (s->o->unit_pages) {
		uint64_t old = page_unit(s, page), now = unit_of(s, fp);

		if (old == now)
			return;
		if (old != CSIM_NONE)
			s->refs[old] -= (uint32_t)run_change(s, page, old);
		s->refs[now] += (uint32_t)run_change(s, page, now);
	}
	set_page(s, page, fp);
}

/* Apply request @r's content to the primary storage. */
static void apply(struct stream *s, const struct csim_req *r, uint64_t seq)
{
	const struct csim_trace *t = s->t;

	for (uint32_t i = 0; i < r->pages; i++) {
		uint64_t page = r->page + i, fp;

		if (r->op == CSIM_REQ_TRIM) {
			set_page(s, page, 0);
			continue;
		}
		if (r->fp_at != CSIM_NO_FPS) {
			fp = t->fps[r->fp_at + i];
			if (t->partial[r->fp_at + i])
				fp = nonzero(csim_mix64(content(s, page) * 31 + fp));
		} else if (r->op == CSIM_REQ_WRITE) {
			fp = nonzero(csim_mix64(page * 0x9e3779b97f4a7c15ULL + seq + 1));
		} else {
			fp = content(s, page);
		}
		if (s->census) {
			bool seen = csim_map_get(&s->seen_fps, fp) != CSIM_NONE;

			if (!seen && csim_map_put(&s->seen_fps, fp, 0))
				csim_oom();
			if (r->op == CSIM_REQ_WRITE && seen)
				s->census->write_pages_dup++;
		}
		store(s, page, fp);
	}
}

static uint64_t block_fp(struct stream *s, uint64_t block)
{
	uint32_t k = s->o->block_pages;
	uint64_t h = 0;

	if (k == 1)
		return content(s, block);
	for (uint32_t i = 0; i < k; i++)
		h = csim_mix64(h ^ (content(s, block * k + i) + i));
	return nonzero(h);
}

static void count(struct csim_cache *c, enum csim_op op, bool hit, uint64_t weight)
{
	c->st.accesses[op] += weight;
	if (hit)
		c->st.hits[op] += weight;
}

static void census_block(struct stream *s, uint64_t block, uint64_t fp)
{
	if (csim_map_get(&s->seen_blocks, block) == CSIM_NONE &&
	    csim_map_put(&s->seen_blocks, block, 0))
		csim_oom();
	if (csim_map_get(&s->seen_block_fps, fp) == CSIM_NONE &&
	    csim_map_put(&s->seen_block_fps, fp, 0))
		csim_oom();
}

static void block_request(struct stream *s, const struct csim_req *r)
{
	uint32_t k = s->o->block_pages;
	uint64_t first = r->page / k, last = (r->page + r->pages - 1) / k;
	struct csim_cache *c = s->c;

	for (uint64_t b = first; b <= last; b++) {
		struct csim_access a = { .key = b };
		uint64_t lo = b * k > r->page ? b * k : r->page;
		uint64_t hi = (b + 1) * k < r->page + r->pages ? (b + 1) * k : r->page + r->pages;

		for (uint64_t p = lo; p < hi; p++)
			a.parts |= 1u << (p - b * k);
		if (s->census) {
			s->census->block_accesses[r->op]++;
			if (r->op != CSIM_REQ_TRIM)
				census_block(s, b, block_fp(s, b));
			continue;
		}
		c->now = ++s->now;
		if (r->op == CSIM_REQ_TRIM) {
			c->policy->invalidate(c, b);
			continue;
		}
		a.op = r->op == CSIM_REQ_READ ? CSIM_READ : CSIM_WRITE;
		if (a.op == CSIM_WRITE && s->o->writes == CSIM_WRITE_INVALIDATE) {
			c->policy->invalidate(c, b);
			count(c, CSIM_WRITE, false, 1);
			continue;
		}
		a.fp = block_fp(s, b);
		a.allocate = a.op == CSIM_READ || s->o->writes == CSIM_WRITE_THROUGH;
		a.now = s->now;
		count(c, a.op, c->policy->access(c, &a), 1);
	}
}

static void unit_request(struct stream *s, const struct csim_req *r, uint64_t seq)
{
	struct csim_cache *c = s->c;
	uint64_t nr = 0;

	if (r->op != CSIM_REQ_READ) {
		if (c && r->op == CSIM_REQ_WRITE)
			count(c, CSIM_WRITE, false, r->pages);
		return;
	}
	if (r->pages > s->batch_room) {
		s->batch_room = r->pages;
		s->batch_units = realloc(s->batch_units, r->pages * sizeof(uint64_t));
		s->batch_pages = realloc(s->batch_pages, r->pages * sizeof(uint64_t));
		if (!s->batch_units || !s->batch_pages)
			csim_oom();
	}
	/* The units the read touches, each once, in order of first touch. */
	for (uint32_t i = 0; i < r->pages; i++) {
		uint64_t u = page_unit(s, r->page + i);

		if (s->stamp[u] == seq + 1) {
			for (uint64_t j = nr; j-- > 0;)
				if (s->batch_units[j] == u) {
					s->batch_pages[j]++;
					break;
				}
			continue;
		}
		s->stamp[u] = seq + 1;
		s->batch_units[nr] = u;
		s->batch_pages[nr++] = 1;
	}
	for (uint64_t j = 0; j < nr; j++) {
		uint64_t u = s->batch_units[j];
		struct csim_access a = { .key = u, .op = CSIM_READ, .allocate = true,
					 .refs = s->refs[u] };

		if (s->acc) {
			grow32(s->acc, s->acc_room, u);
			(*s->acc)[u]++;
		}
		if (!c)
			continue;
		c->unit_refs = s->refs;
		c->now = a.now = ++s->now;
		count(c, CSIM_READ, c->policy->access(c, &a), s->batch_pages[j]);
	}
}

void csim_stream_run(const struct csim_trace *t, const struct csim_stream_opts *o,
		     struct csim_cache *c, struct csim_census *census,
		     uint32_t **unit_accesses, uint64_t *unit_room)
{
	struct stream s = { .t = t, .o = o, .c = c, .census = census,
			    .acc = unit_accesses, .acc_room = unit_room };

	/* The primary storage starts with the initial content (csim_trace.h). */
	s.pages_room = s.nr_pages = t->nr_initial;
	s.page_fp = malloc((t->nr_initial ? t->nr_initial : 1) * sizeof(uint64_t));
	s.touched = calloc(t->nr_initial ? t->nr_initial : 1, 1);
	if (!s.page_fp || !s.touched || csim_map_copy(&s.page_slot, &t->initial))
		csim_oom();
	if (t->nr_initial)
		memcpy(s.page_fp, t->initial_fp, t->nr_initial * sizeof(uint64_t));
	if (csim_map_init(&s.unit_of, 1 << 16) ||
	    csim_map_init(&s.seen_fps, 16) || csim_map_init(&s.seen_blocks, 16) ||
	    csim_map_init(&s.seen_block_fps, 16))
		csim_oom();
	for (uint64_t i = 0; i < t->nr; i++) {
		const struct csim_req *r = &t->reqs[i];

		apply(&s, r, i);
		if (census) {
			census->requests[r->op]++;
			census->pages[r->op] += r->pages;
		}
		if (o->unit_pages)
			unit_request(&s, r, i);
		else
			block_request(&s, r);
	}
	if (census) {
		census->distinct_blocks = s.seen_blocks.count;
		census->distinct_block_fps = s.seen_block_fps.count;
		census->distinct_page_fps = s.seen_fps.count;
		census->units = s.nr_units;
		for (uint64_t u = 0; u < s.nr_units; u++)
			if (s.refs[u] > census->max_unit_refs)
				census->max_unit_refs = s.refs[u];
	}
	csim_map_free(&s.page_slot);
	csim_map_free(&s.unit_of);
	csim_map_free(&s.seen_fps);
	csim_map_free(&s.seen_blocks);
	csim_map_free(&s.seen_block_fps);
	free(s.page_fp);
	free(s.touched);
	free(s.refs);
	free(s.stamp);
	free(s.batch_units);
	free(s.batch_pages);
}

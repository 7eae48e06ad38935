// SPDX-License-Identifier: GPL-2.0
/*
 * admit_procache.c - ProCache ("Don't make cache too complex", PLOS ONE
 * 2017, Algorithm 1): a miss of a request of procache_c_bytes or more
 * bypasses the cache (cold: sequential data); a smaller one enters with
 * probability p, rolled once per host request with the owner's seeded
 * PRNG, so all the missing pages of a request share one verdict.  p may
 * depend on the request's size class ceil(log2 pages), capped at
 * CACHE_PROCACHE_CLASSES - 1 (the paper's section 3 vector form: the
 * owner gives p per class, all equal otherwise).  No per-page state: its
 * memory is this struct.
 */
#include "cachealg/cachealg_internal.h"

/* The die and the verdict of the request being served. */
struct procache_state {
	u64 c_bytes;			/* 0: no size limit */
	u64 p_ppm[CACHE_PROCACHE_CLASSES];	/* all equal unless the vector form */
	u32 page_shift;
	u64 last_seq;			/* request the verdict below is for */
	enum cache_verdict last_verdict;
};

static u32 log2_up(u64 value)
{
	u32 shift = 0;

	while (shift < 63 && (1ULL << shift) < value)
		shift++;
	return shift;
}

static int procache_init(struct cachealg *c)
{
	struct procache_state *pc = c->admit_state;
	u32 k;

	pc->c_bytes = c->p.procache_c_bytes;
	pc->page_shift = log2_up(c->p.page_bytes);
	for (k = 0; k < CACHE_PROCACHE_CLASSES; k++)
		pc->p_ppm[k] = c->p.procache_p_ppm[k];
	pc->last_seq = 0;
	return 0;
}

/* The size class of a request of @bytes: ceil(log2 pages), capped. */
static u32 size_class(const struct procache_state *pc, u64 bytes)
{
	u64 pages = (bytes + (1ULL << pc->page_shift) - 1) >> pc->page_shift;

	return min_t(u32, log2_up(pages ? pages : 1), CACHE_PROCACHE_CLASSES - 1);
}

static enum cache_verdict procache_decide(struct cachealg *c, u64 lpn,
					  const struct cache_req *req)
{
	struct procache_state *pc = c->admit_state;
	enum cache_verdict verdict;

	/* One verdict per host request; a page from no request rolls alone. */
	if (req->seq && req->seq == pc->last_seq)
		return pc->last_verdict;
	if (pc->c_bytes && req->bytes >= pc->c_bytes)
		verdict = CACHE_BYPASS_SIZE;
	else if (ssd_rand_ppm(c->rand, pc->p_ppm[size_class(pc, req->bytes)]))
		verdict = CACHE_ADMIT;
	else
		verdict = CACHE_BYPASS_DICE;
	pc->last_seq = req->seq;
	pc->last_verdict = verdict;
	return verdict;
}

/* Snapshots: the request the verdict is for, and the verdict (the die is c->rand). */
static void procache_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct procache_state *pc = c->admit_state;

	ssd_snap_put_u64(w, pc->last_seq);
	ssd_snap_put_u32(w, pc->last_verdict);
}

static void procache_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct procache_state *pc = c->admit_state;
	u32 verdict;

	pc->last_seq = ssd_snap_get_u64(r);
	verdict = ssd_snap_get_u32(r);
	if (!r->error && verdict >= CACHE_VERDICT_NR)
		ssd_snap_refuse(r, "%s ProCache: verdict %u", c->who, verdict);
	else
		pc->last_verdict = verdict;
}

const struct cache_admit_ops ssd_cache_admit_procache = {
	.name = "procache",
	.state_bytes = sizeof(struct procache_state),
	.init = procache_init,
	.decide = procache_decide,
	.save = procache_save,
	.load = procache_load,
};

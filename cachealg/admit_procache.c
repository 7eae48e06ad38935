// SPDX-License-Identifier: GPL-2.0
/*
 * admit_procache.c - ProCache ("Don't make cache too complex", PLOS ONE
 * 2017, Algorithm 1): a miss of a request larger than procache_c_bytes
 * bypasses the cache (cold: sequential data); a smaller one enters with
 * probability p, rolled once per host request with the owner's seeded
 * PRNG, so all the missing pages of a request share one verdict.
 * Algorithm 1's comparison symbol is lost in the paper's text ("if the
 * request size [?] c then it is cold"); Fig 8 counts the requests "the
 * same or less than the cut-off size", so a request of exactly c may
 * enter by default; procache_c_inclusive=0 bypasses it too (size >= c is
 * cold).  Algorithm 1's hit ("if the requested block is already in the
 * cache") is of the whole request by default: a request hits only if all
 * its pages are cached, and otherwise every page takes its verdict (a
 * cold one invalidates its cached pages); procache_hit_per_page=1 makes
 * a request's cached pages hits and its other pages take the verdict
 * (the rule before issue 32).  The owner applies it (whole_requests: the
 * write cache, nvmcache/nvmcache_layer.c).  docs/papers.md quotes the
 * rules.
 * With procache_p_vector=1, p depends on the request's size class
 * ceil(log2 pages), capped at PROCACHE_CLASSES - 1 (the paper's
 * section 3 vector form).  No per-page state: its memory is this struct.
 */
#include "cachealg/cachealg_internal.h"

/* ProCache's size classes of the vector form p[ceil(log2 pages)]. */
#define PROCACHE_CLASSES	8

static const struct ssd_config_key procache_p_ppm =
	SSD_CONFIG_KEY(procache_p_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache: chance (ppm) that a write miss enters the cache");
static const struct ssd_config_key procache_c_bytes =
	SSD_CONFIG_KEY(procache_c_bytes, 0, 0, U64_MAX, 0, NULL,
		       "ProCache: the cut-off c: larger requests bypass (procache_c_inclusive); 0 = none");
static const struct ssd_config_key procache_c_inclusive =
	SSD_CONFIG_KEY(procache_c_inclusive, 1, 0, 1, 0, NULL,
		       "ProCache: 1 = size <= c may enter (Fig 8's reading), 0 = size >= c bypasses");
static const struct ssd_config_key procache_hit_per_page =
	SSD_CONFIG_KEY(procache_hit_per_page, 0, 0, 1, 0, NULL,
		       "ProCache: 0 = a request hits when all its pages are cached, 1 = per page");
static const struct ssd_config_key procache_p_vector =
	SSD_CONFIG_KEY(procache_p_vector, 0, 0, 1, 0, NULL,
		       "ProCache: 1 = p by size class (procache_p_classK_ppm), 0 = procache_p_ppm");
static const struct ssd_config_key procache_p_class_ppm[PROCACHE_CLASSES] = {
	SSD_CONFIG_KEY(procache_p_class0_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 1-page requests"),
	SSD_CONFIG_KEY(procache_p_class1_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 2-page requests"),
	SSD_CONFIG_KEY(procache_p_class2_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 3-4-page requests"),
	SSD_CONFIG_KEY(procache_p_class3_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 5-8-page requests"),
	SSD_CONFIG_KEY(procache_p_class4_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 9-16-page requests"),
	SSD_CONFIG_KEY(procache_p_class5_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 17-32-page requests"),
	SSD_CONFIG_KEY(procache_p_class6_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of 33-64-page requests"),
	SSD_CONFIG_KEY(procache_p_class7_ppm, 100000, 0, SSD_PPM, 0, NULL,
		       "ProCache vector: p of requests of 65 pages or more"),
};

static const struct ssd_config_key *const procache_keys[] = {
	&procache_p_ppm, &procache_c_bytes, &procache_c_inclusive, &procache_hit_per_page,
	&procache_p_vector,
	&procache_p_class_ppm[0], &procache_p_class_ppm[1], &procache_p_class_ppm[2],
	&procache_p_class_ppm[3], &procache_p_class_ppm[4], &procache_p_class_ppm[5],
	&procache_p_class_ppm[6], &procache_p_class_ppm[7], NULL,
};

/* The die and the verdict of the request being served. */
struct procache_state {
	u64 c_bytes;			/* 0: no size limit */
	bool c_inclusive;		/* a request of exactly c bytes may enter */
	bool hit_per_page;		/* a request's cached pages hit alone */
	u64 p_ppm[PROCACHE_CLASSES];	/* all equal unless the vector form */
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
	bool vector = cachealg_knob(&c->p, &procache_p_vector);
	u32 k;

	pc->c_bytes = cachealg_knob(&c->p, &procache_c_bytes);
	pc->c_inclusive = cachealg_knob(&c->p, &procache_c_inclusive);
	pc->hit_per_page = cachealg_knob(&c->p, &procache_hit_per_page);
	pc->page_shift = log2_up(c->p.page_bytes);
	for (k = 0; k < PROCACHE_CLASSES; k++)
		pc->p_ppm[k] = cachealg_knob(&c->p, vector ? &procache_p_class_ppm[k] :
					     &procache_p_ppm);
	pc->last_seq = 0;
	return 0;
}

/* Algorithm 1's "requested block": the whole request, unless hit_per_page. */
static bool procache_whole_requests(const struct cachealg *c)
{
	const struct procache_state *pc = c->admit_state;

	return !pc->hit_per_page;
}

/* Whether a request of @bytes is cold by its size alone (Algorithm 1's c). */
static bool too_large(const struct procache_state *pc, u64 bytes)
{
	if (!pc->c_bytes)
		return false;
	return pc->c_inclusive ? bytes > pc->c_bytes : bytes >= pc->c_bytes;
}

/* The size class of a request of @bytes: ceil(log2 pages), capped. */
static u32 size_class(const struct procache_state *pc, u64 bytes)
{
	u64 pages = (bytes + (1ULL << pc->page_shift) - 1) >> pc->page_shift;

	return min_t(u32, log2_up(pages ? pages : 1), PROCACHE_CLASSES - 1);
}

static enum cache_verdict procache_decide(struct cachealg *c, u64 lpn,
					  const struct cache_req *req)
{
	struct procache_state *pc = c->admit_state;
	enum cache_verdict verdict;

	/* One verdict per host request; a page from no request rolls alone. */
	if (req->seq && req->seq == pc->last_seq)
		return pc->last_verdict;
	if (too_large(pc, req->bytes))
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
	.keys = procache_keys,
	.state_bytes = sizeof(struct procache_state),
	.init = procache_init,
	.whole_requests = procache_whole_requests,
	.decide = procache_decide,
	.save = procache_save,
	.load = procache_load,
};

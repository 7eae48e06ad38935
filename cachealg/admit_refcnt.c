// SPDX-License-Identifier: GPL-2.0
/*
 * admit_refcnt.c - REFCNT (Hsieh et al., as the ProCache paper's
 * Algorithm 3 gives it): a counter per key (logical page), halved (right
 * shift) for all keys every refcnt_decay_writes accesses.  By default
 * Algorithm 3 as written: a miss whose counter is below refcnt_threshold
 * adds one to it and bypasses, one whose counter reached it enters, so a
 * page enters on its (threshold + 1)-th write and its counter stops at the
 * threshold; a hit stays in the cache and counts as a write (its counter
 * rises to the threshold too).  refcnt_count_first=1 is the rule before
 * issue 32: every access counts first (saturating at 255) and a miss
 * enters once its counter has reached the threshold, on the threshold-th
 * write.  Its memory is the counter array: one byte per key of the
 * logical space, the per-LBA RAM ProCache does without.  docs/papers.md
 * (P12-P14) quotes the rules.
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key refcnt_threshold =
	SSD_CONFIG_KEY(refcnt_threshold, 2, 1, 255, 0, NULL,
		       "REFCNT: a page's writes counted before it may enter");
static const struct ssd_config_key refcnt_decay_writes =
	SSD_CONFIG_KEY(refcnt_decay_writes, 0, 0, U64_MAX, 0, NULL,
		       "REFCNT: page writes between right shifts of every counter; 0 = 2 x cache_pages");

static const struct ssd_config_key refcnt_count_first =
	SSD_CONFIG_KEY(refcnt_count_first, 0, 0, 1, 0, NULL,
		       "REFCNT: 0 = Algorithm 3, 1 = count every access first, enter at the threshold");

static const struct ssd_config_key *const refcnt_keys[] = {
	&refcnt_threshold, &refcnt_decay_writes, &refcnt_count_first, NULL,
};

struct refcnt_state {
	u8 *count;			/* [logical pages] */
	u64 pages;
	u64 threshold;
	u64 decay_writes;
	u64 writes;			/* since the last decay */
	bool count_first;		/* the rule before issue 32 */
};

static u64 refcnt_table_bytes(u64 total, const struct cache_params *p, u32 capacity, u64 keys)
{
	return ssd_tables_add(total, 1, keys, sizeof(u8));
}

static int refcnt_init(struct cachealg *c)
{
	struct refcnt_state *rc = c->admit_state;

	rc->pages = c->keys;
	rc->threshold = cachealg_knob(&c->p, &refcnt_threshold);
	rc->decay_writes = cachealg_knob(&c->p, &refcnt_decay_writes);
	rc->count_first = cachealg_knob(&c->p, &refcnt_count_first);
	if (!rc->decay_writes)
		rc->decay_writes = 2ULL * c->dir.capacity;
	rc->writes = 0;
	rc->count = ssd_zalloc(rc->pages);
	return rc->count ? 0 : -ENOMEM;
}

static void refcnt_exit(struct cachealg *c)
{
	struct refcnt_state *rc = c->admit_state;

	ssd_free(rc->count);
	rc->count = NULL;
}

/* Algorithm 3's count: one more write, up to the threshold. */
static void count_write(struct refcnt_state *rc, u64 lpn)
{
	if (rc->count[lpn] < rc->threshold)
		rc->count[lpn]++;
}

/* Every access: the decay's clock; with count_first, the count too. */
static void refcnt_access(struct cachealg *c, u64 lpn)
{
	struct refcnt_state *rc = c->admit_state;
	u64 i;

	if (rc->count_first && rc->count[lpn] < U8_MAX)
		rc->count[lpn]++;
	if (++rc->writes < rc->decay_writes)
		return;
	rc->writes = 0;
	for (i = 0; i < rc->pages; i++)
		rc->count[i] >>= 1;
}

/* A write to a cached page stays a hit; Algorithm 3 counts it as a write. */
static void refcnt_hit(struct cachealg *c, u32 slot)
{
	struct refcnt_state *rc = c->admit_state;

	if (!rc->count_first)
		count_write(rc, c->dir.lpn[slot]);
}

/* Algorithm 3: below the threshold, count and write into flash; else cache. */
static enum cache_verdict refcnt_decide(struct cachealg *c, u64 lpn,
					const struct cache_req *req)
{
	struct refcnt_state *rc = c->admit_state;

	if (rc->count[lpn] >= rc->threshold)
		return CACHE_ADMIT;
	if (!rc->count_first)
		count_write(rc, lpn);
	return CACHE_BYPASS_POLICY;
}

/* Snapshots: every page's counter and the writes since the last decay. */
static void refcnt_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct refcnt_state *rc = c->admit_state;

	ssd_snap_put_array(w, rc->count, rc->pages, sizeof(u8));
	ssd_snap_put_u64(w, rc->writes);
}

static void refcnt_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct refcnt_state *rc = c->admit_state;

	ssd_snap_get_array(r, rc->count, rc->pages, sizeof(u8));
	rc->writes = ssd_snap_get_u64(r);
	if (!r->error && rc->writes >= rc->decay_writes)
		ssd_snap_refuse(r, "%s REFCNT: %llu writes since the decay, it comes every %llu",
				c->who, (unsigned long long)rc->writes,
				(unsigned long long)rc->decay_writes);
}

const struct cache_admit_ops ssd_cache_admit_refcnt = {
	.name = "refcnt",
	.keys = refcnt_keys,
	.state_bytes = sizeof(struct refcnt_state),
	.table_bytes = refcnt_table_bytes,
	.init = refcnt_init,
	.exit = refcnt_exit,
	.access = refcnt_access,
	.hit = refcnt_hit,
	.decide = refcnt_decide,
	.save = refcnt_save,
	.load = refcnt_load,
};

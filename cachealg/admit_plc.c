// SPDX-License-Identifier: GPL-2.0
/*
 * admit_plc.c - PLC-Cache (Liu, Chai, Xiao, Qin, MSST 2014): keep Popular
 * and Long-term Cached data, write the flash cache as little as possible.
 * Three rules decide a miss of key b (the paper's pseudo code,
 * plc-cache-msst-2014.txt about line 675; docs/papers.md, PLC-Cache):
 *
 *   popularity filter  b enters only if its access count (every access,
 *                      hit or miss) exceeds plc_access_threshold; a key's
 *                      count is reset when it is evicted
 *   delayed eviction   the cache full, the replacement policy's victim a
 *                      (with gclock, the paper's CLOCK ring: the hand
 *                      lowers inner priorities until one is 0, and stays
 *                      on it) has a delay count, plc_delay when it
 *                      entered, +1 at each hit (the slides); each attempt
 *                      lowers it, and while it stays above 0 the
 *                      replacement is abandoned and b is not cached
 *   in-out comparison  a is replaced by b only if b has more references
 *                      than a (the owner tells them: a dedup layer's
 *                      counts, the files sharing a container; one each
 *                      otherwise) or b's access count exceeds f(a's access
 *                      count) x plc_access_threshold, f a's access count
 *                      over the threshold within [1, 2] (the text leaves
 *                      f's mapping open: this is the one that needs no
 *                      constant of its own)
 *
 * A key that enters gets its access count, its hotness, as its inner
 * priority (the paper: "according to its hotness").  With room in the
 * cache only the filter applies.  The filter is decide(), the other two
 * replace(), so an owner may ask the replacement for its victim only once
 * the filter let b through (the host simulator does).
 *
 * Other readings are parameters (keys): the slides' in-out form, b's
 * count > m x a's (m = plc_inout_percent / 100), and the paper's with a
 * constant f (plc_inout_f=1, f = plc_inout_percent / 100); an inner
 * priority of 0; a hit leaving the delay as it is or setting it back to
 * plc_delay; the hand passing an abandoned or refused victim by
 * (requeue); the host simulator's ablations, each rule on or off.
 *
 * The paper's cache unit is a 2 MB container of chunks; in the device it
 * is one page, in the host simulator a container.  Memory: an access
 * count per key and a delay count per cached key, each of plc_count_bytes
 * (the device: one byte, saturating; the host simulator: four).
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key plc_access_threshold =
	SSD_CONFIG_KEY(plc_access_threshold, 4, 0, 254, 0, NULL,
		       "PLC: a miss enters only if its page's access count exceeds this");
static const struct ssd_config_key plc_delay =
	SSD_CONFIG_KEY(plc_delay, 2, 0, 255, 0, NULL,
		       "PLC: delay count of a cached page; an attempt to evict it lowers it, abandoned while > 0");
static const struct ssd_config_key plc_inout_percent =
	SSD_CONFIG_KEY(plc_inout_percent, 100, 100, 200, 0, NULL,
		       "PLC: the factor x 100 of the slides' in-out form (m), or of the paper's with plc_inout_f=1 (f)");
static const struct ssd_config_key plc_inout_form =
	SSD_CONFIG_KEY(plc_inout_form, 0, 0, 1, 0, NULL,
		       "PLC in-out: 0 = the paper's, b's access count > f(a's) x plc_access_threshold; 1 = the slides', > m x a's");
static const struct ssd_config_key plc_inout_f =
	SSD_CONFIG_KEY(plc_inout_f, 0, 0, 1, 0, NULL,
		       "PLC in-out, the paper's form: f = 0: a's access count / plc_access_threshold within [1, 2]; 1: plc_inout_percent / 100");
static const struct ssd_config_key plc_priority_init =
	SSD_CONFIG_KEY(plc_priority_init, 0, 0, 1, 0, NULL,
		       "PLC: a page's inner priority as it enters: 0 = its access count, its hotness (the paper); 1 = 0");
static const struct ssd_config_key plc_delay_hit =
	SSD_CONFIG_KEY(plc_delay_hit, 0, 0, 2, 0, NULL,
		       "PLC: a hit's delay count: 0 = +1 (the slides); 1 = back to plc_delay; 2 = unchanged");
static const struct ssd_config_key plc_hand_passes =
	SSD_CONFIG_KEY(plc_hand_passes, 0, 0, 1, 0, NULL,
		       "PLC: 1 = the hand passes an abandoned or refused victim by; 0 = it stays on it (the pseudo code)");
static const struct ssd_config_key plc_filter =
	SSD_CONFIG_KEY(plc_filter, 1, 0, 1, 0, NULL,
		       "PLC: 0 = no popularity filter (an ablation); 1 = the paper's");
static const struct ssd_config_key plc_delayed =
	SSD_CONFIG_KEY(plc_delayed, 1, 0, 1, 0, NULL,
		       "PLC: 0 = no delayed eviction (an ablation); 1 = the paper's");
static const struct ssd_config_key plc_inout =
	SSD_CONFIG_KEY(plc_inout, 1, 0, 1, 0, NULL,
		       "PLC: 0 = no in-out comparison (an ablation); 1 = the paper's");

static const struct ssd_config_key *const plc_keys[] = {
	&plc_access_threshold, &plc_delay, &plc_inout_percent, &plc_inout_form, &plc_inout_f,
	&plc_priority_init, &plc_delay_hit, &plc_hand_passes, &plc_filter, &plc_delayed,
	&plc_inout, NULL,
};

/* What a hit does to the delay count (plc_delay_hit). */
enum plc_delay_hit {
	PLC_DELAY_HIT_ADD,	/* +1 (the slides) */
	PLC_DELAY_HIT_RESET,	/* back to plc_delay */
	PLC_DELAY_HIT_KEEP,	/* unchanged */
};

struct plc_state {
	void *access;		/* [keys]: access counts */
	void *delay;		/* [capacity]: delay counts */
	u8 bytes;		/* of a count */
	/* The keys, read at init. */
	u32 threshold, delay_start, inout_percent;
	bool inout_slides, inout_f_constant, priority_zero, hand_passes;
	enum plc_delay_hit delay_hit;
	bool filter, delayed, inout;	/* each rule on (0: an ablation) */
};

static u8 count_bytes(const struct cache_params *p)
{
	return p->count_bytes ? p->count_bytes : 1;
}

static u64 plc_table_bytes(u64 total, const struct cache_params *p, u32 capacity, u64 keys)
{
	total = ssd_tables_add(total, 1, keys, count_bytes(p));
	return ssd_tables_add(total, 1, capacity, count_bytes(p));
}

static int plc_init(struct cachealg *c)
{
	struct plc_state *plc = c->admit_state;

	plc->bytes = count_bytes(&c->p);
	plc->threshold = (u32)cachealg_knob(&c->p, &plc_access_threshold);
	plc->delay_start = (u32)cachealg_knob(&c->p, &plc_delay);
	plc->inout_percent = (u32)cachealg_knob(&c->p, &plc_inout_percent);
	plc->inout_slides = cachealg_knob(&c->p, &plc_inout_form) == 1;
	plc->inout_f_constant = cachealg_knob(&c->p, &plc_inout_f) == 1;
	plc->priority_zero = cachealg_knob(&c->p, &plc_priority_init) == 1;
	plc->delay_hit = (enum plc_delay_hit)cachealg_knob(&c->p, &plc_delay_hit);
	plc->hand_passes = cachealg_knob(&c->p, &plc_hand_passes);
	plc->filter = cachealg_knob(&c->p, &plc_filter);
	plc->delayed = cachealg_knob(&c->p, &plc_delayed);
	plc->inout = cachealg_knob(&c->p, &plc_inout);
	plc->access = ssd_zalloc(c->keys * plc->bytes);
	plc->delay = ssd_zalloc(c->dir.capacity ? (u64)c->dir.capacity * plc->bytes : 1);
	return plc->access && plc->delay ? 0 : -ENOMEM;
}

static void plc_exit(struct cachealg *c)
{
	struct plc_state *plc = c->admit_state;

	ssd_free(plc->access);
	ssd_free(plc->delay);
	plc->access = NULL;
	plc->delay = NULL;
}

static u32 access_of(const struct plc_state *plc, u64 key)
{
	return cache_count_get(plc->access, plc->bytes, key);
}

static u32 delay_of(const struct plc_state *plc, u32 slot)
{
	return cache_count_get(plc->delay, plc->bytes, slot);
}

static void plc_access(struct cachealg *c, u64 key)
{
	struct plc_state *plc = c->admit_state;

	cache_count_set(plc->access, plc->bytes, key, access_of(plc, key) + 1);
}

/* A hit: the delay count +1 (the slides), back to plc_delay, or kept. */
static void plc_hit(struct cachealg *c, u32 slot)
{
	struct plc_state *plc = c->admit_state;

	if (plc->delay_hit == PLC_DELAY_HIT_ADD)
		cache_count_set(plc->delay, plc->bytes, slot, delay_of(plc, slot) + 1);
	else if (plc->delay_hit == PLC_DELAY_HIT_RESET)
		cache_count_set(plc->delay, plc->bytes, slot, plc->delay_start);
}

/* The popularity filter. */
static enum cache_verdict plc_decide(struct cachealg *c, u64 key, const struct cache_req *req)
{
	struct plc_state *plc = c->admit_state;

	if (plc->filter && access_of(plc, key) <= plc->threshold)
		return CACHE_BYPASS_POLICY;
	return CACHE_ADMIT;
}

/* A replacement abandoned or refused: the hand may pass the victim by. */
static enum cache_verdict spare(struct cachealg *c, u32 victim, enum cache_verdict verdict)
{
	const struct plc_state *plc = c->admit_state;

	if (plc->hand_passes && c->repl->requeue)
		c->repl->requeue(c, victim);
	return verdict;
}

/*
 * The in-out comparison by access counts: whether b's count @b beats a's
 * @a.  The paper's: b > f(a) x threshold, f(a) = a / threshold within
 * [1, 2] (so b > a, between the threshold and twice it), or a constant
 * f; the slides': b > m x a.
 */
static bool more_popular(const struct plc_state *plc, u64 b, u64 a)
{
	u64 thr = plc->threshold;

	if (plc->inout_slides)
		return b * 100 > a * plc->inout_percent;
	if (plc->inout_f_constant)
		return b * 100 > thr * plc->inout_percent;
	return b > min_t(u64, max_t(u64, a, thr), 2 * thr);
}

/* Delayed eviction, then the in-out comparison. */
static enum cache_verdict plc_replace(struct cachealg *c, u64 key, u32 victim)
{
	struct plc_state *plc = c->admit_state;
	u32 delay = delay_of(plc, victim);
	u64 old;

	if (plc->delayed && delay) {
		cache_count_set(plc->delay, plc->bytes, victim, --delay);
		if (delay)
			return spare(c, victim, CACHE_BYPASS_DELAY);
	}
	old = c->dir.lpn[victim];
	if (!plc->inout || cachealg_refs(c, key) > cachealg_refs(c, old) ||
	    more_popular(plc, access_of(plc, key), access_of(plc, old)))
		return CACHE_ADMIT;
	return spare(c, victim, CACHE_BYPASS_INOUT);
}

/* A key enters: its delay count, and its hotness as its inner priority. */
static void plc_entered(struct cachealg *c, u32 slot)
{
	struct plc_state *plc = c->admit_state;

	cache_count_set(plc->delay, plc->bytes, slot, plc->delay_start);
	if (!plc->priority_zero && c->repl->prioritize)
		c->repl->prioritize(c, slot, access_of(plc, c->dir.lpn[slot]));
}

static void plc_left(struct cachealg *c, u32 slot, bool evicted)
{
	struct plc_state *plc = c->admit_state;

	if (evicted)
		cache_count_set(plc->access, plc->bytes, c->dir.lpn[slot], 0);
}

/* Snapshots: every key's access count and every slot's delay count. */
static void plc_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct plc_state *plc = c->admit_state;

	ssd_snap_put_array(w, plc->access, c->keys, plc->bytes);
	ssd_snap_put_array(w, plc->delay, c->dir.capacity, plc->bytes);
}

static void plc_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct plc_state *plc = c->admit_state;
	u32 slot;

	ssd_snap_get_array(r, plc->access, c->keys, plc->bytes);
	ssd_snap_get_array(r, plc->delay, c->dir.capacity, plc->bytes);
	/* A delay starts at plc_delay and only falls, unless hits raise it. */
	for (slot = 0; slot < c->dir.capacity && !r->error && plc->delay_hit; slot++)
		if (delay_of(plc, slot) > min_t(u32, plc->delay_start, cache_count_max(plc->bytes)))
			ssd_snap_refuse(r, "%s PLC: slot %u delay %u, plc_delay is %u", c->who,
					slot, delay_of(plc, slot),
					min_t(u32, plc->delay_start, cache_count_max(plc->bytes)));
}

const struct cache_admit_ops ssd_cache_admit_plc = {
	.name = "plc",
	.keys = plc_keys,
	.state_bytes = sizeof(struct plc_state),
	.dedup_aware = true,
	.table_bytes = plc_table_bytes,
	.init = plc_init,
	.exit = plc_exit,
	.access = plc_access,
	.hit = plc_hit,
	.decide = plc_decide,
	.replace = plc_replace,
	.entered = plc_entered,
	.left = plc_left,
	.save = plc_save,
	.load = plc_load,
};

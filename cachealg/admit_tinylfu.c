// SPDX-License-Identifier: GPL-2.0
/*
 * admit_tinylfu.c - TinyLFU (Einziger et al., ACM ToS 2017) as a cache
 * admission filter: every access is recorded in a doorkeeper bitmap
 * (first sighting) or, if the doorkeeper has it, in a count-min sketch of
 * TINYLFU_ROWS rows of 4-bit counters; every tinylfu_sample_writes
 * accesses the counters halve and the doorkeeper clears.  A miss enters
 * if the cache has room or if its estimated frequency beats the
 * replacement victim's.  Width: a power of two at least the cache's size.
 * The row seeds come from the owner's PRNG.  Memory: the sketch and the
 * doorkeeper.
 */
#include "cachealg/cachealg_internal.h"

static const struct ssd_config_key tinylfu_sample_writes =
	SSD_CONFIG_KEY(tinylfu_sample_writes, 0, 0, U64_MAX, 0, NULL,
		       "TinyLFU: page writes between halvings of the sketch; 0 = 10 x cache_pages");

static const struct ssd_config_key *const tinylfu_keys[] = { &tinylfu_sample_writes, NULL };

/* A count-min sketch of 4 rows with a doorkeeper bitmap. */
#define TINYLFU_ROWS	4
#define TINYLFU_MAX	15		/* 4-bit counters, kept in bytes */
struct tinylfu_state {
	u8 *sketch;			/* [TINYLFU_ROWS * width] */
	u8 *doorkeeper;			/* [width]: width * 8 bits */
	u32 width_mask;			/* width - 1, width a power of two */
	u64 row_seed[TINYLFU_ROWS];
	u64 sample_writes;
	u64 writes;			/* since the last halving */
};

static u32 sketch_width(u32 capacity)
{
	u32 w = 64;

	while (w < capacity)
		w <<= 1;
	return w;
}

static u64 tinylfu_table_bytes(u64 total, const struct cache_params *p, u32 capacity, u64 keys)
{
	u32 w = sketch_width(capacity);

	total = ssd_tables_add(total, 1, (u64)TINYLFU_ROWS * w, sizeof(u8));
	return ssd_tables_add(total, 1, w, sizeof(u8));
}

static int tinylfu_init(struct cachealg *c)
{
	struct tinylfu_state *t = c->admit_state;
	u32 w = sketch_width(c->dir.capacity), r;

	t->width_mask = w - 1;
	t->sample_writes = cachealg_knob(&c->p, &tinylfu_sample_writes);
	if (!t->sample_writes)
		t->sample_writes = 10ULL * c->dir.capacity;
	t->writes = 0;
	for (r = 0; r < TINYLFU_ROWS; r++)
		t->row_seed[r] = ssd_rand_next(c->rand);
	t->sketch = ssd_zalloc((u64)TINYLFU_ROWS * w);
	t->doorkeeper = ssd_zalloc(w);
	if (!t->sketch || !t->doorkeeper) {
		ssd_free(t->sketch);
		ssd_free(t->doorkeeper);
		t->sketch = NULL;
		t->doorkeeper = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void tinylfu_exit(struct cachealg *c)
{
	struct tinylfu_state *t = c->admit_state;

	ssd_free(t->sketch);
	ssd_free(t->doorkeeper);
	t->sketch = NULL;
	t->doorkeeper = NULL;
}

static u32 row_index(const struct tinylfu_state *t, u32 row, u64 lpn)
{
	return row * (t->width_mask + 1) + ((u32)ssd_hash64(lpn ^ t->row_seed[row]) &
					     t->width_mask);
}

/* The doorkeeper's bit of @lpn: one hash into width * 8 bits. */
static void door_bit(const struct tinylfu_state *t, u64 lpn, u32 *byte, u8 *mask)
{
	u64 h = ssd_hash64(lpn ^ t->row_seed[0] ^ 0x5bd1e995ULL);

	*byte = (u32)(h >> 3) & t->width_mask;
	*mask = 1U << (h & 7);
}

static u32 estimate(const struct tinylfu_state *t, u64 lpn)
{
	u32 r, est = TINYLFU_MAX, byte;
	u8 mask;

	for (r = 0; r < TINYLFU_ROWS; r++)
		est = min_t(u32, est, t->sketch[row_index(t, r, lpn)]);
	door_bit(t, lpn, &byte, &mask);
	return est + !!(t->doorkeeper[byte] & mask);
}

static void tinylfu_access(struct cachealg *c, u64 lpn)
{
	struct tinylfu_state *t = c->admit_state;
	u32 r, byte, w = t->width_mask + 1;
	u8 mask;

	door_bit(t, lpn, &byte, &mask);
	if (!(t->doorkeeper[byte] & mask)) {
		t->doorkeeper[byte] |= mask;
	} else {
		for (r = 0; r < TINYLFU_ROWS; r++) {
			u8 *cnt = &t->sketch[row_index(t, r, lpn)];

			if (*cnt < TINYLFU_MAX)
				(*cnt)++;
		}
	}
	if (++t->writes < t->sample_writes)
		return;
	t->writes = 0;
	for (r = 0; r < TINYLFU_ROWS * w; r++)
		t->sketch[r] >>= 1;
	memset(t->doorkeeper, 0, w);
}

/* The cache full: the candidate's estimate must beat the victim's. */
static enum cache_verdict tinylfu_replace(struct cachealg *c, u64 lpn, u32 victim)
{
	return estimate(c->admit_state, lpn) > estimate(c->admit_state, c->dir.lpn[victim]) ?
	       CACHE_ADMIT : CACHE_BYPASS_POLICY;
}

/*
 * Snapshots: the sketch, the doorkeeper and the writes since the last
 * halving (the row seeds come from the seed, drawn again at creation).
 */
static void tinylfu_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct tinylfu_state *t = c->admit_state;
	u32 width = t->width_mask + 1;

	ssd_snap_put_array(w, t->sketch, (u64)TINYLFU_ROWS * width, sizeof(u8));
	ssd_snap_put_array(w, t->doorkeeper, width, sizeof(u8));
	ssd_snap_put_u64(w, t->writes);
}

static void tinylfu_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct tinylfu_state *t = c->admit_state;
	u32 width = t->width_mask + 1, i;

	ssd_snap_get_array(r, t->sketch, (u64)TINYLFU_ROWS * width, sizeof(u8));
	for (i = 0; i < TINYLFU_ROWS * width && !r->error; i++)
		if (t->sketch[i] > TINYLFU_MAX)
			ssd_snap_refuse(r, "%s TinyLFU: counter %u is %u, at most %u", c->who,
					i, t->sketch[i], TINYLFU_MAX);
	ssd_snap_get_array(r, t->doorkeeper, width, sizeof(u8));
	t->writes = ssd_snap_get_u64(r);
	if (!r->error && t->writes >= t->sample_writes)
		ssd_snap_refuse(r, "%s TinyLFU: %llu writes since the halving, it comes every %llu",
				c->who, (unsigned long long)t->writes,
				(unsigned long long)t->sample_writes);
}

const struct cache_admit_ops ssd_cache_admit_tinylfu = {
	.name = "tinylfu",
	.keys = tinylfu_keys,
	.state_bytes = sizeof(struct tinylfu_state),
	.table_bytes = tinylfu_table_bytes,
	.init = tinylfu_init,
	.exit = tinylfu_exit,
	.access = tinylfu_access,
	.replace = tinylfu_replace,
	.save = tinylfu_save,
	.load = tinylfu_load,
};

// SPDX-License-Identifier: GPL-2.0
/*
 * repl_arc.c - ARC replacement (Megiddo and Modha, "ARC: A Self-Tuning,
 * Low Overhead Replacement Cache", FAST'03), as libCacheSim's ARC.c runs
 * it, hit for hit.
 *
 * The cached pages are in T1 (seen once since they entered) or T2 (hit
 * since, or entered from a ghost list); B1 and B2 remember the lpns (no
 * data) of pages evicted from T1 and T2.  A ghost hit in B1 raises the
 * target size p of T1 by max(|B2|/|B1|, 1), one in B2 lowers it by
 * max(|B1|/|B2|, 1); REPLACE evicts the LRU page of T1 into B1 if T1 is
 * over p (or at p and the page came from B2), else the LRU page of T2
 * into B2.  A miss in all four lists (case IV) first trims the ghosts:
 * when |T1| + |B1| reaches the cache size, the LRU of B1 goes (or, with
 * B1 empty, the LRU page of T1 leaves without a ghost); else, when the
 * four lists hold twice the cache size, the LRU of B2 goes.
 *
 * Where libCacheSim differs from the paper, this follows libCacheSim:
 *  - p and the deltas are binary64 floating point (|B2|/|B1| is not an
 *    integer), and p is compared with |T1| exactly as a C double is.  The
 *    kernel has no floating point, so p is kept as a binary64 value in
 *    integers (struct arc_real: a 53-bit significand and an exponent)
 *    with the same correctly rounded division, addition and subtraction
 *    (round to nearest, ties to even), so every comparison agrees.
 *  - Case IV-A tests |T1| + |B1| >= c (the paper: = c), and case IV-B
 *    drops the LRU of B2 whenever the lists hold 2c or more (the paper
 *    also first requires |T1| + |T2| + |B1| + |B2| >= c, which holds
 *    whenever the cache is full).
 * And where a cache with an admission policy differs from a simulator:
 *  - The owner asks for the victim (victim()) before the admission
 *    policy decides, so a ghost hit adapts p and leaves its ghost list
 *    only when the key is admitted (remove() of the victim, or insert()
 *    if the cache had room): victim() changes nothing and chooses from p
 *    as the ghost hit would set it.  Under cache_policy=always this is
 *    libCacheSim's order exactly.
 *  - A TRIM drops the key from T1 or T2 without a ghost (libCacheSim's
 *    remove does the same); the cache then has room, and the next misses
 *    enter without evicting, as they do in libCacheSim before the cache
 *    first fills.
 *  - A victim asked for CACHE_RECLAIM (room for no key: the host
 *    simulator's D-ARC freeing a data block) is REPLACE alone: the LRU of
 *    the list p chooses goes to its ghost list, without case IV's trims.
 *  - A pinned slot (c->pinned) is no victim: the next of its list is, or,
 *    if it is alone there, the other list's LRU.
 *
 * Layout: the directory's order (c->dir) is T1 followed by T2, each from
 * MRU to LRU: T1's MRU is the head, t1_tail ends T1, and T2 runs from the
 * slot after it to the tail.  A byte per slot says which list holds it.
 * The ghost lists are one struct cache_set of the cache's size (B1 + B2
 * never exceed it when only misses evict: see ghost_add(); the owner may
 * give more, ghost_entries), ordered B1 then B2 the same way, with a
 * byte per ghost slot.  Memory per cached key: 1 byte + the ghost set (16
 * bytes per slot + 4 per hash bucket) + 1 byte.
 */
#include "cachealg/cachealg_internal.h"

/* A non-negative binary64 value m * 2^e: m == 0, or 2^52 <= m < 2^53. */
struct arc_real {
	u64 m;
	s32 e;
};

#define REAL_BITS	53

enum { ARC_T1, ARC_T2 };
enum { ARC_B1, ARC_B2 };

struct arc_state {
	u8 *list;		/* [capacity]: ARC_T1 or ARC_T2 of each directory slot */
	u8 *ghost_list;		/* [ghost capacity]: ARC_B1 or ARC_B2 of each ghost slot */
	struct cache_set ghost;	/* B1 (head side) then B2, each MRU first */
	u32 t1, t2, b1, b2;
	u32 t1_tail;		/* the LRU slot of T1, or CACHE_NONE */
	u32 b1_tail;		/* the LRU ghost slot of B1, or CACHE_NONE */
	struct arc_real p;	/* the target size of T1 */
	/* The page the last victim() was asked for, and what its arrival did. */
	u64 arrival;
	bool arrival_asked;	/* victim() named it, remove() did not apply it yet */
	bool arrival_done;	/* remove() applied it ... */
	bool arrival_ghost;	/* ... and it was a ghost hit: it enters T2 */
};

/* binary64 arithmetic on integers (the kernel has no floating point). */

static struct arc_real real_zero(void)
{
	return (struct arc_real){ 0, 0 };
}

/* The value n (< 2^53), exactly. */
static struct arc_real real_of(u64 n)
{
	struct arc_real r = { n, 0 };

	if (!n)
		return r;
	while (r.m < (1ULL << (REAL_BITS - 1))) {
		r.m <<= 1;
		r.e--;
	}
	return r;
}

/*
 * x * 2^e rounded to binary64 (nearest, ties to even).  x > 0 is exact,
 * or, when bits were lost before, odd with the exact value strictly
 * between x - 1 and x + 1 (bit 0 is "sticky"); then at most one left
 * shift is needed, which the callers guarantee, and no rounding boundary
 * lies in that interval.
 */
static struct arc_real real_round(u64 x, s32 e)
{
	struct arc_real r;
	u32 low;

	while (x < (1ULL << (REAL_BITS + 2))) {
		x <<= 1;
		e--;
	}
	while (x >= (1ULL << (REAL_BITS + 3))) {
		x = (x >> 1) | (x & 1);
		e++;
	}
	/* 53 bits, then guard, round and sticky. */
	low = x & 7;
	r.m = x >> 3;
	r.e = e + 3;
	if (low > 4 || (low == 4 && (r.m & 1)))
		r.m++;
	if (r.m == (1ULL << REAL_BITS)) {
		r.m >>= 1;
		r.e++;
	}
	return r;
}

/* -1, 0 or 1 as a < b, a == b, a > b. */
static int real_cmp(struct arc_real a, struct arc_real b)
{
	if (!a.m || !b.m)
		return (a.m != 0) - (b.m != 0);
	if (a.e != b.e)
		return a.e < b.e ? -1 : 1;
	return (a.m > b.m) - (a.m < b.m);
}

/* x >> d, with the bits shifted out kept as a sticky bit 0. */
static u64 shift_sticky(u64 x, s32 d)
{
	u64 y;

	if (d <= 0)
		return x;
	if (d >= 64)
		return x != 0;
	y = x >> d;
	if (x & ((1ULL << d) - 1))
		y |= 1;
	return y;
}

static struct arc_real real_add(struct arc_real a, struct arc_real b)
{
	if (!a.m)
		return b;
	if (!b.m)
		return a;
	if (a.e < b.e) {
		struct arc_real t = a;

		a = b;
		b = t;
	}
	return real_round((a.m << 3) + shift_sticky(b.m << 3, a.e - b.e), a.e - 3);
}

/* a - b for a > b > 0. */
static struct arc_real real_sub(struct arc_real a, struct arc_real b)
{
	return real_round((a.m << 3) - shift_sticky(b.m << 3, a.e - b.e), a.e - 3);
}

/* a / b for a > b > 0 (32-bit counts): long division to 55 bits + sticky. */
static struct arc_real real_div(u32 a, u32 b)
{
	u64 q = a / b, r = a % b;
	s32 frac = 0;

	while (q < (1ULL << (REAL_BITS + 1))) {
		r <<= 1;
		q <<= 1;
		if (r >= b) {
			r -= b;
			q |= 1;
		}
		frac++;
	}
	return real_round((q << 1) | (r != 0), -frac - 1);
}

/* libCacheSim's delta: MAX((double)num / den, 1), den > 0. */
static struct arc_real arc_delta(u32 num, u32 den)
{
	return num > den ? real_div(num, den) : real_of(1);
}

/* p after a ghost hit in @list: MIN(p + delta, c), or MAX(p - delta, 0). */
static struct arc_real arc_adapt(const struct arc_state *st, u32 capacity, int list)
{
	struct arc_real delta, c = real_of(capacity), sum;

	if (list == ARC_B1) {
		delta = arc_delta(st->b2, st->b1);
		sum = real_add(st->p, delta);
		return real_cmp(sum, c) < 0 ? sum : c;
	}
	delta = arc_delta(st->b1, st->b2);
	return real_cmp(st->p, delta) > 0 ? real_sub(st->p, delta) : real_zero();
}

/* The directory's lists. */

/* T2's MRU end: just after T1's last page, or the head. */
static void t2_add_mru(struct cachealg *c, struct arc_state *st, u32 slot)
{
	if (st->t1)
		ssd_cache_set_move_after(&c->dir, slot, st->t1_tail);
	else
		ssd_cache_set_move_head(&c->dir, slot);
}

/* Take @slot out of T1 (its position in the directory stays). */
static void t1_unlink(struct cachealg *c, struct arc_state *st, u32 slot)
{
	if (slot == st->t1_tail)
		st->t1_tail = st->t1 > 1 ? c->dir.prev[slot] : CACHE_NONE;
	st->t1--;
}

/* The ghost lists. */

static void ghost_remove(struct arc_state *st, u32 g)
{
	if (st->ghost_list[g] == ARC_B1) {
		if (g == st->b1_tail)
			st->b1_tail = st->b1 > 1 ? st->ghost.prev[g] : CACHE_NONE;
		st->b1--;
	} else {
		st->b2--;
	}
	ssd_cache_set_remove(&st->ghost, g);
}

/*
 * @lpn enters the MRU end of B1 or B2.  Ghosts are added only by an
 * eviction of a full cache, after the trims of case IV, so B1 + B2 stays
 * within the cache size; if it ever did not, the oldest ghost would go.
 */
static void ghost_add(struct arc_state *st, u64 lpn, int list)
{
	u32 g;

	if (st->ghost.count == st->ghost.capacity)
		ghost_remove(st, st->b2 ? st->ghost.tail : st->b1_tail);
	g = ssd_cache_set_insert(&st->ghost, lpn);
	st->ghost_list[g] = list;
	if (list == ARC_B1) {
		if (!st->b1)
			st->b1_tail = g;
		st->b1++;
	} else {
		if (st->b1)
			ssd_cache_set_move_after(&st->ghost, g, st->b1_tail);
		st->b2++;
	}
}

/*
 * libCacheSim's _ARC_to_replace(): the LRU of T1 if T1 is over p (or at
 * p after a B2 hit) and not empty, or if T2 is empty; else the LRU of T2.
 */
static bool replace_from_t1(const struct arc_state *st, struct arc_real p, bool b2_hit)
{
	int cmp = real_cmp(real_of(st->t1), p);

	return (st->t1 && (cmp > 0 || (cmp == 0 && b2_hit))) || !st->t2;
}

/* Case IV-A: L1 = T1 + B1 is full (libCacheSim: T1 + B1 + 1 > c). */
static bool l1_full(const struct cachealg *c, const struct arc_state *st)
{
	return (u64)st->t1 + st->b1 >= c->dir.capacity;
}

/* The LRU slot of T1 (@t1) or T2, passing the pinned slot by. */
static u32 lru_of(const struct cachealg *c, const struct arc_state *st, bool t1)
{
	u32 slot = t1 ? st->t1_tail : c->dir.tail;

	if (slot == CACHE_NONE || slot != c->pinned)
		return slot;
	if ((t1 ? st->t1 : st->t2) > 1)
		return c->dir.prev[slot];
	slot = t1 ? c->dir.tail : st->t1_tail;
	return slot == c->pinned ? CACHE_NONE : slot;
}

/* The victim for @lpn; changes nothing (see the header). */
static u32 arc_victim(struct cachealg *c, u64 lpn)
{
	struct arc_state *st = c->repl_state;
	u32 g;

	st->arrival = lpn;
	st->arrival_asked = true;
	st->arrival_done = false;
	if (lpn == CACHE_RECLAIM)
		return lru_of(c, st, replace_from_t1(st, st->p, false));
	g = ssd_cache_set_find(&st->ghost, lpn);
	if (g != CACHE_NONE) {
		int list = st->ghost_list[g];

		return lru_of(c, st, replace_from_t1(st, arc_adapt(st, c->dir.capacity, list),
						     list == ARC_B2));
	}
	if (l1_full(c, st) && !st->b1)
		return lru_of(c, st, true);
	return lru_of(c, st, replace_from_t1(st, st->p, false));
}

/* @lpn enters the cache: a ghost hit adapts p and leaves its list. */
static bool arc_arrive(struct cachealg *c, struct arc_state *st, u64 lpn)
{
	u32 g = ssd_cache_set_find(&st->ghost, lpn);

	if (g == CACHE_NONE)
		return false;
	st->p = arc_adapt(st, c->dir.capacity, st->ghost_list[g]);
	ghost_remove(st, g);
	return true;
}

static void arc_remove(struct cachealg *c, u32 slot, bool evicted)
{
	struct arc_state *st = c->repl_state;
	bool ghost = evicted, ghost_hit = false, reclaim = false;
	int list = st->list[slot];

	if (evicted && st->arrival_asked) {
		reclaim = st->arrival == CACHE_RECLAIM;
		ghost_hit = !reclaim && arc_arrive(c, st, st->arrival);
		st->arrival_ghost = ghost_hit;
		st->arrival_asked = false;
		st->arrival_done = true;
	}
	if (evicted && !ghost_hit && !reclaim) {
		/* Case IV: trim the ghosts first. */
		if (l1_full(c, st)) {
			if (st->b1)
				ghost_remove(st, st->b1_tail);
			else
				ghost = false;
		} else if ((u64)st->t1 + st->t2 + st->b1 + st->b2 >= 2ULL * c->dir.capacity &&
			   st->b2) {
			ghost_remove(st, st->ghost.tail);
		}
	}
	if (list == ARC_T1)
		t1_unlink(c, st, slot);
	else
		st->t2--;
	if (ghost)
		ghost_add(st, c->dir.lpn[slot], list == ARC_T1 ? ARC_B1 : ARC_B2);
}

static void arc_insert(struct cachealg *c, u32 slot)
{
	struct arc_state *st = c->repl_state;
	u64 lpn = c->dir.lpn[slot];
	bool t2;

	if (st->arrival_done && st->arrival == lpn)
		t2 = st->arrival_ghost;
	else
		t2 = arc_arrive(c, st, lpn);
	st->arrival_asked = false;
	st->arrival_done = false;
	st->arrival_ghost = false;
	if (t2) {
		st->list[slot] = ARC_T2;
		t2_add_mru(c, st, slot);
		st->t2++;
		return;
	}
	/* The layer put it at the head: T1's MRU end. */
	st->list[slot] = ARC_T1;
	if (!st->t1)
		st->t1_tail = slot;
	st->t1++;
}

/* Case I: a hit moves the page to T2's MRU end. */
static void arc_hit(struct cachealg *c, u32 slot)
{
	struct arc_state *st = c->repl_state;

	st->arrival_asked = false;
	if (st->list[slot] == ARC_T1) {
		t1_unlink(c, st, slot);
		st->list[slot] = ARC_T2;
		st->t2++;
	}
	t2_add_mru(c, st, slot);
}

/* The MRU end of the page's own list, without a hit. */
static void arc_requeue(struct cachealg *c, u32 slot)
{
	struct arc_state *st = c->repl_state;

	if (st->list[slot] == ARC_T2) {
		t2_add_mru(c, st, slot);
		return;
	}
	if (slot == st->t1_tail && st->t1 > 1)
		st->t1_tail = c->dir.prev[slot];
	ssd_cache_set_move_head(&c->dir, slot);
}

/* The ghost lists' room: the cache's size unless the owner gives more. */
static u32 ghost_capacity(const struct cache_params *p, u32 capacity)
{
	return (u32)max_t(u64, capacity, min_t(u64, p->ghost_entries, U32_MAX - 1));
}

static u64 arc_table_bytes(u64 total, const struct cache_params *p, u32 capacity)
{
	u32 ghosts = ghost_capacity(p, capacity);

	total = ssd_tables_add(total, 1, capacity, sizeof(u8));
	total = ssd_tables_add(total, 1, ghosts, sizeof(u8));
	return ssd_cache_set_bytes(total, ghosts);
}

static int arc_init(struct cachealg *c)
{
	struct arc_state *st = c->repl_state;
	u32 ghosts = ghost_capacity(&c->p, c->dir.capacity);

	st->t1_tail = CACHE_NONE;
	st->b1_tail = CACHE_NONE;
	st->list = ssd_zalloc(c->dir.capacity);
	st->ghost_list = ssd_zalloc(ghosts);
	if (!st->list || !st->ghost_list)
		return -ENOMEM;
	return ssd_cache_set_init(&st->ghost, ghosts);
}

static void arc_exit(struct cachealg *c)
{
	struct arc_state *st = c->repl_state;

	ssd_cache_set_exit(&st->ghost);
	ssd_free(st->list);
	ssd_free(st->ghost_list);
	st->list = NULL;
	st->ghost_list = NULL;
}

/*
 * The first @n1 entries of @set's order carry @first in @tags, the rest
 * the other value, and @tail1 is the last of the first part.
 */
static bool split_ok(const struct cache_set *set, const u8 *tags, u32 n1, u32 tail1, int first)
{
	u32 slot, i = 0, last = CACHE_NONE;

	for (slot = set->head; slot != CACHE_NONE; slot = set->next[slot], i++) {
		if ((tags[slot] == first) != (i < n1))
			return false;
		if (i < n1)
			last = slot;
	}
	return last == tail1;
}

static int arc_check(struct cachealg *c)
{
	struct arc_state *st = c->repl_state;
	u32 g;
	int ret = ssd_cache_set_check(&st->ghost, c->dev_name, c->who, "ARC ghost lists");

	if (ret)
		return ret;
	if ((u64)st->t1 + st->t2 != c->dir.count || (u64)st->b1 + st->b2 != st->ghost.count ||
	    !split_ok(&c->dir, st->list, st->t1, st->t1_tail, ARC_T1) ||
	    !split_ok(&st->ghost, st->ghost_list, st->b1, st->b1_tail, ARC_B1)) {
		ssd_dev_err(c->dev_name, "%s: ARC: T1 %u + T2 %u (directory %u), B1 %u + B2 %u (ghosts %u) disagree with the lists",
			    c->who, st->t1, st->t2, c->dir.count, st->b1, st->b2, st->ghost.count);
		return -EUCLEAN;
	}
	if (real_cmp(st->p, real_of(c->dir.capacity)) > 0 ||
	    (st->p.m && (st->p.m >> (REAL_BITS - 1)) != 1)) {
		ssd_dev_err(c->dev_name, "%s: ARC: target p out of [0, %u]", c->who,
			    c->dir.capacity);
		return -EUCLEAN;
	}
	for (g = st->ghost.head; g != CACHE_NONE; g = st->ghost.next[g])
		if (ssd_cache_set_find(&c->dir, st->ghost.lpn[g]) != CACHE_NONE) {
			ssd_dev_err(c->dev_name, "%s: ARC: lpn %u both cached and a ghost",
				    c->who, st->ghost.lpn[g]);
			return -EUCLEAN;
		}
	return 0;
}

/*
 * Snapshots: the list byte of every slot and ghost slot, the ghost set,
 * the four sizes, the two list ends, p (its significand and exponent) and
 * the pending arrival; arc_check() then holds the lists to the sizes.
 */
static void arc_save(struct cachealg *c, struct ssd_snap_writer *w)
{
	struct arc_state *st = c->repl_state;

	ssd_snap_put_array(w, st->list, c->dir.capacity, sizeof(u8));
	ssd_snap_put_array(w, st->ghost_list, st->ghost.capacity, sizeof(u8));
	ssd_cache_set_save(&st->ghost, w);
	ssd_snap_put_u32(w, st->t1);
	ssd_snap_put_u32(w, st->t2);
	ssd_snap_put_u32(w, st->b1);
	ssd_snap_put_u32(w, st->b2);
	ssd_snap_put_u32(w, st->t1_tail);
	ssd_snap_put_u32(w, st->b1_tail);
	ssd_snap_put_u64(w, st->p.m);
	ssd_snap_put_u32(w, (u32)st->p.e);
	ssd_snap_put_u64(w, st->arrival);
	ssd_snap_put_u8(w, st->arrival_asked);
	ssd_snap_put_u8(w, st->arrival_done);
	ssd_snap_put_u8(w, st->arrival_ghost);
}

/* A byte per slot, each 0 or 1: which of two lists holds the slot. */
static void load_bits(struct cachealg *c, struct ssd_snap_reader *r, u8 *bits, u32 slots,
		      const char *what)
{
	u32 i;

	ssd_snap_get_array(r, bits, slots, sizeof(u8));
	for (i = 0; i < slots && !r->error; i++)
		if (bits[i] > 1)
			ssd_snap_refuse(r, "%s ARC: %s slot %u in list %u", c->who, what, i,
					bits[i]);
}

/* A bool of the snapshot: 0 or 1. */
static bool load_bool(struct cachealg *c, struct ssd_snap_reader *r)
{
	u8 v = ssd_snap_get_u8(r);

	if (v > 1)
		ssd_snap_refuse(r, "%s ARC: a flag is %u", c->who, v);
	return v == 1;
}

static void arc_load(struct cachealg *c, struct ssd_snap_reader *r)
{
	struct arc_state *st = c->repl_state;
	u32 capacity = c->dir.capacity;

	load_bits(c, r, st->list, capacity, "directory");
	load_bits(c, r, st->ghost_list, st->ghost.capacity, "ghost");
	ssd_cache_set_load(&st->ghost, r, c->keys, c->who, "ARC ghost lists");
	st->t1 = ssd_snap_get_u32(r);
	st->t2 = ssd_snap_get_u32(r);
	st->b1 = ssd_snap_get_u32(r);
	st->b2 = ssd_snap_get_u32(r);
	st->t1_tail = ssd_snap_get_u32(r);
	st->b1_tail = ssd_snap_get_u32(r);
	st->p.m = ssd_snap_get_u64(r);
	st->p.e = (s32)ssd_snap_get_u32(r);
	st->arrival = ssd_snap_get_u64(r);
	st->arrival_asked = load_bool(c, r);
	st->arrival_done = load_bool(c, r);
	st->arrival_ghost = load_bool(c, r);
	if (r->error)
		return;
	/* The list ends are slots; arc_check() says whether the right ones. */
	if ((st->t1_tail != CACHE_NONE && st->t1_tail >= capacity) ||
	    (st->b1_tail != CACHE_NONE && st->b1_tail >= st->ghost.capacity) ||
	    st->arrival >= c->keys)
		ssd_snap_refuse(r, "%s ARC: list ends %u/%u, arrival %llu out of range", c->who,
				st->t1_tail, st->b1_tail, (unsigned long long)st->arrival);
	/* p is a normal binary64 value at most the cache size, or 0 (exactly). */
	else if (st->p.m ? (st->p.m >> (REAL_BITS - 1)) != 1 || st->p.e < -1100 ||
			   real_cmp(st->p, real_of(capacity)) > 0 : st->p.e != 0)
		ssd_snap_refuse(r, "%s ARC: target p = %llu * 2^%d out of [0, %u]", c->who,
				(unsigned long long)st->p.m, st->p.e, capacity);
}

/* The ghosts: B1 and B2. */
static u32 arc_ghosts(const struct cachealg *c)
{
	const struct arc_state *st = c->repl_state;

	return st->ghost.count;
}

/* The keys of the list @slot is in: T1 or T2. */
static u32 arc_queue_count(const struct cachealg *c, u32 slot)
{
	const struct arc_state *st = c->repl_state;

	return st->list[slot] == ARC_T1 ? st->t1 : st->t2;
}

const struct cache_repl_ops ssd_cache_repl_arc = {
	.name = "arc",
	.rce = true,
	.state_bytes = sizeof(struct arc_state),
	.table_bytes = arc_table_bytes,
	.init = arc_init,
	.exit = arc_exit,
	.insert = arc_insert,
	.hit = arc_hit,
	.victim = arc_victim,
	.remove = arc_remove,
	.requeue = arc_requeue,
	.ghosts = arc_ghosts,
	.queue_count = arc_queue_count,
	.check = arc_check,
	.save = arc_save,
	.load = arc_load,
};

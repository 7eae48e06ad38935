// SPDX-License-Identifier: GPL-2.0
/*
 * cachealg.c - one cache (struct cachealg, cachealg.h): its tables sized
 * and made, and the steps every owner drives it with - an access, a hit,
 * a victim (with RCE), the admission's verdict, an insert, a removal -
 * each calling the policies' ops in one order, so that the device and the
 * host simulator run the same algorithm.  The policies are the repl_*.c,
 * admit_*.c and evict_rce.c files; the owners keep the lists of the ones
 * they offer.
 */
#include "cachealg/cachealg_internal.h"

u64 cachealg_knob(const struct cache_params *p, const struct ssd_config_key *key)
{
	u32 i;

	if (p->cfg)
		return ssd_config_get(p->cfg, key);
	for (i = 0; i < p->nr_knobs; i++)
		if (!ssd_strcmp(p->knobs[i].name, key->name))
			return p->knobs[i].value;
	return key->default_value;
}

/* A policy's state struct, if it has one. */
static u64 state_table(u64 total, u32 state_bytes)
{
	return state_bytes ? ssd_tables_add(total, 1, 1, state_bytes) : total;
}

static u64 repl_tables(const struct cache_repl_ops *repl, u64 total,
		       const struct cache_params *p, u32 capacity)
{
	return repl->table_bytes ? repl->table_bytes(total, p, capacity) : total;
}

static u64 admit_tables(const struct cache_admit_ops *admit, u64 total,
			const struct cache_params *p, u32 capacity, u64 keys)
{
	return admit->table_bytes ? admit->table_bytes(total, p, capacity, keys) : total;
}

u64 ssd_cachealg_bytes(u64 total, const struct cache_repl_ops *repl,
		       const struct cache_admit_ops *admit, const struct cache_params *p,
		       u32 capacity, u64 keys, const struct cache_rce_params *rce)
{
	total = state_table(total, admit->state_bytes);
	total = state_table(total, repl->state_bytes);
	total = ssd_cache_set_bytes(total, capacity);
	total = repl_tables(repl, total, p, capacity);
	total = ssd_cachealg_rce_bytes(total, rce, capacity);
	total = rce ? ssd_tables_add(total, 1, 1, sizeof(struct cache_rce)) : total;
	return admit_tables(admit, total, p, capacity, keys);
}

void ssd_cachealg_exit(struct cachealg *c)
{
	if (c->admit_state && c->admit->exit)
		c->admit->exit(c);
	ssd_free(c->admit_state);
	c->admit_state = NULL;
	if (c->repl_state && c->repl->exit)
		c->repl->exit(c);
	ssd_free(c->repl_state);
	c->repl_state = NULL;
	if (c->rce)
		ssd_free(c->rce->note);
	ssd_free(c->rce);
	c->rce = NULL;
	ssd_cache_set_exit(&c->dir);
}

int ssd_cachealg_init(struct cachealg *c, const struct cache_repl_ops *repl,
		      const struct cache_admit_ops *admit, const struct cache_params *p,
		      u32 capacity, u64 keys, const struct cache_rce_params *rce)
{
	int ret;

	c->repl = repl;
	c->admit = admit;
	c->p = *p;
	c->keys = keys;
	c->pinned = CACHE_NONE;
	c->repl_state = NULL;
	c->admit_state = NULL;
	c->rce = NULL;
	c->dir_bytes = ssd_cache_set_bytes(0, capacity);
	c->repl_bytes = repl_tables(repl, 0, p, capacity);
	c->admit_bytes = admit_tables(admit, 0, p, capacity, keys);
	ret = ssd_cache_set_init(&c->dir, capacity);
	if (!ret && rce) {
		c->rce = ssd_zalloc(sizeof(*c->rce));
		if (c->rce) {
			c->rce->p = *rce;
			c->rce->note = ssd_zalloc((u64)capacity * rce->note_bytes);
		}
		if (!c->rce || !c->rce->note)
			ret = -ENOMEM;
	}
	if (!ret && repl->state_bytes) {
		c->repl_state = ssd_zalloc(repl->state_bytes);
		if (!c->repl_state)
			ret = -ENOMEM;
	}
	if (!ret && repl->init)
		ret = repl->init(c);
	if (!ret && admit->state_bytes) {
		c->admit_state = ssd_zalloc(admit->state_bytes);
		if (!c->admit_state)
			ret = -ENOMEM;
	}
	if (!ret && admit->init)
		ret = admit->init(c);
	/* The policies have read their keys: the owner's are not kept. */
	c->p.cfg = NULL;
	c->p.knobs = NULL;
	c->p.nr_knobs = 0;
	if (ret)
		ssd_cachealg_exit(c);
	return ret;
}

void ssd_cachealg_access(struct cachealg *c, u64 key)
{
	if (c->admit->access)
		c->admit->access(c, key);
}

void ssd_cachealg_hit(struct cachealg *c, u32 slot)
{
	if (c->repl->hit)
		c->repl->hit(c, slot);
	if (c->admit->hit)
		c->admit->hit(c, slot);
	if (c->rce && c->rce->p.forget_on_hit)
		cache_count_set(c->rce->note, c->rce->p.note_bytes, slot, 0);
}

u32 ssd_cache_repl_victim(struct cachealg *c, u64 key)
{
	u32 slot;

	if (c->repl->victim)
		return c->repl->victim(c, key);
	slot = c->dir.tail;
	if (slot != CACHE_NONE && slot == c->pinned)
		slot = c->dir.prev[slot];
	return slot;
}

u32 ssd_cachealg_victim(struct cachealg *c, u64 key)
{
	u32 victim = ssd_cache_repl_victim(c, key);

	return c->rce ? ssd_cache_rce_victim(c, key, victim) : victim;
}

enum cache_verdict ssd_cachealg_admits(struct cachealg *c, u64 key, const struct cache_req *req)
{
	return c->admit->decide ? c->admit->decide(c, key, req) : CACHE_ADMIT;
}

enum cache_verdict ssd_cachealg_replaces(struct cachealg *c, u64 key, u32 victim)
{
	return c->admit->replace ? c->admit->replace(c, key, victim) : CACHE_ADMIT;
}

enum cache_verdict ssd_cachealg_decide(struct cachealg *c, u64 key, const struct cache_req *req,
				       u32 victim)
{
	enum cache_verdict verdict = ssd_cachealg_admits(c, key, req);

	if (verdict != CACHE_ADMIT || victim == CACHE_NONE)
		return verdict;
	return ssd_cachealg_replaces(c, key, victim);
}

u32 ssd_cachealg_insert(struct cachealg *c, u64 key)
{
	u32 slot = ssd_cache_set_insert(&c->dir, key);

	if (c->rce)
		cache_count_set(c->rce->note, c->rce->p.note_bytes, slot, 0);
	if (c->repl->insert)
		c->repl->insert(c, slot);
	if (c->admit->entered)
		c->admit->entered(c, slot);
	return slot;
}

void ssd_cachealg_remove(struct cachealg *c, u32 slot, bool evicted)
{
	if (c->admit->left)
		c->admit->left(c, slot, evicted);
	if (c->repl->remove)
		c->repl->remove(c, slot, evicted);
	ssd_cache_set_remove(&c->dir, slot);
}

u32 ssd_cachealg_entries(const struct cachealg *c)
{
	return c->dir.count + (c->repl->ghosts ? c->repl->ghosts(c) : 0);
}

int ssd_cachealg_check(struct cachealg *c)
{
	int ret = ssd_cache_set_check(&c->dir, c->dev_name, c->who, "directory");

	if (!ret && c->repl->check)
		ret = c->repl->check(c);
	if (!ret && c->admit->check)
		ret = c->admit->check(c);
	return ret;
}

void ssd_cachealg_save_policies(struct cachealg *c, struct ssd_snap_writer *w)
{
	if (c->repl->save)
		c->repl->save(c, w);
	if (c->admit->save)
		c->admit->save(c, w);
}

void ssd_cachealg_load_policies(struct cachealg *c, struct ssd_snap_reader *r)
{
	if (!r->error && c->repl->load)
		c->repl->load(c, r);
	if (!r->error && c->admit->load)
		c->admit->load(c, r);
}

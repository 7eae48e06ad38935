// SPDX-License-Identifier: GPL-2.0
/*
 * cache_policies.c - the registry of the write cache's policies: the
 * values of cache_policy are "none" (no cache layer) and then the entries
 * of admit_policies[], in order; those of cache_replacement the entries of
 * repl_policies[] (the first is the default).  Each is named by its ops
 * table, whose algorithm is in cachealg/ and which lists the keys the
 * policy owns.  A new policy is one file there (its ops table declared in
 * cachealg/cachealg.h) and one line here.  The selector keys cache_policy
 * and cache_replacement are declared here too (collected by
 * device/ssd_keys.c).
 */
#include "nvmcache/nvmcache_internal.h"

static const struct cache_admit_ops *const admit_policies[] = {
	&ssd_cache_admit_always,
	&ssd_cache_admit_procache,
	&ssd_cache_admit_refcnt,
	&ssd_cache_admit_larc,
	&ssd_cache_admit_tinylfu,
	&ssd_cache_admit_plc,
};

static const struct cache_repl_ops *const repl_policies[] = {
	&ssd_cache_repl_lru,
	&ssd_cache_repl_clock,
	&ssd_cache_repl_fifo,
	&ssd_cache_repl_gclock,
	&ssd_cache_repl_arc,
	&ssd_cache_repl_sieve,
	&ssd_cache_repl_s3fifo,
};

const struct cache_admit_ops *ssd_cache_admit_of(u64 value)
{
	return value ? admit_policies[value - 1] : NULL;
}

const struct cache_repl_ops *ssd_cache_repl_of(u64 value)
{
	return repl_policies[value];
}

static const char *cache_policy_name(u32 value)
{
	return value ? admit_policies[value - 1]->name : "none";
}

static const struct ssd_config_key *const *cache_policy_keys(u32 value)
{
	return value ? admit_policies[value - 1]->keys : NULL;
}

static const char *cache_replacement_name(u32 value)
{
	return repl_policies[value]->name;
}

static const struct ssd_config_key *const *cache_replacement_keys(u32 value)
{
	return repl_policies[value]->keys;
}

static const struct ssd_config_choice cache_policy_choice = {
	.nr = ARRAY_SIZE(admit_policies) + 1,
	.name = cache_policy_name,
	.keys = cache_policy_keys,
};

static const struct ssd_config_choice cache_replacement_choice = {
	.nr = ARRAY_SIZE(repl_policies),
	.name = cache_replacement_name,
	.keys = cache_replacement_keys,
};

const struct ssd_config_key ssd_key_cache_policy =
	SSD_CONFIG_SELECTOR(cache_policy, &cache_policy_choice,
			    "SLC write cache admission policy (none: no cache)");

const struct ssd_config_key ssd_key_cache_replacement =
	SSD_CONFIG_SELECTOR(cache_replacement, &cache_replacement_choice,
			    "SLC write cache replacement policy");

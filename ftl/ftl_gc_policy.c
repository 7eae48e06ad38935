// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc_policy.c - the registry of GC victim policies: gc_policy's values
 * are the entries of gc_policies[], in order (the first is the default),
 * named by their ops tables, each with the keys it owns.  A new policy is
 * one file and one line here.  The selector key gc_policy is declared
 * here too (ssd_key_gc_policy, collected by device/ssd_keys.c).
 */
#include "ftl/ftl_internal.h"

static const struct ftl_gc_policy *const gc_policies[] = {
	&ssd_ftl_gc_greedy,
	&ssd_ftl_gc_cost_benefit,
};

const struct ftl_gc_policy *ssd_ftl_gc_policy_of(u64 value)
{
	return gc_policies[value];
}

static const char *gc_policy_name(u32 value)
{
	return gc_policies[value]->name;
}

static const struct ssd_config_key *const *gc_policy_keys(u32 value)
{
	return gc_policies[value]->keys;
}

static const struct ssd_config_choice gc_policy_choice = {
	.nr = ARRAY_SIZE(gc_policies),
	.name = gc_policy_name,
	.keys = gc_policy_keys,
};

const struct ssd_config_key ssd_key_gc_policy =
	SSD_CONFIG_SELECTOR(gc_policy, &gc_policy_choice, "GC victim policy");

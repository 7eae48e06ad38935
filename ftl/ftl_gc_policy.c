// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_gc_policy.c - the registry of GC victim policies: gc_policy's values
 * are the entries of gc_policies[], in order (the first is the default),
 * named by their ops tables.  A new policy is one file and one line here.
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

const struct ssd_config_choice ssd_gc_policy_choice = {
	.nr = ARRAY_SIZE(gc_policies),
	.name = gc_policy_name,
};

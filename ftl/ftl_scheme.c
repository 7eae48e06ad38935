// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme.c - the registry of mapping schemes: ftl_type's values are the
 * entries of ftl_schemes[], in order (the first, page, is the default),
 * named by their ops tables, each with the keys it owns.  A new scheme is
 * one file and one line here.  The selector key ftl_type is declared here
 * too (ssd_key_ftl_type, collected by device/ssd_keys.c).
 */
#include "ftl/ftl_internal.h"

static const struct ftl_scheme *const ftl_schemes[] = {
	&ssd_ftl_scheme_page,
	&ssd_ftl_scheme_block,
	&ssd_ftl_scheme_bast,
	&ssd_ftl_scheme_fast,
	&ssd_ftl_scheme_dftl,
};

const struct ftl_scheme *ssd_ftl_scheme_of(u64 value)
{
	return ftl_schemes[value];
}

static const char *ftl_type_name(u32 value)
{
	return ftl_schemes[value]->name;
}

static const struct ssd_config_key *const *ftl_type_keys(u32 value)
{
	return ftl_schemes[value]->keys;
}

static const struct ssd_config_choice ftl_type_choice = {
	.nr = ARRAY_SIZE(ftl_schemes),
	.name = ftl_type_name,
	.keys = ftl_type_keys,
};

const struct ssd_config_key ssd_key_ftl_type =
	SSD_CONFIG_SELECTOR(ftl_type, &ftl_type_choice,
			    "how the FTL maps the main (TLC) region; the SLC cache region is always page-mapped");

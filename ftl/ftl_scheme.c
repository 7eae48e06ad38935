// SPDX-License-Identifier: GPL-2.0
/*
 * ftl_scheme.c - the registry of mapping schemes: ftl_type's values are the
 * entries of ftl_schemes[], in order (the first, page, is the default),
 * named by their ops tables.  A new scheme is one file and one line here.
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

const struct ssd_config_choice ssd_ftl_type_choice = {
	.nr = ARRAY_SIZE(ftl_schemes),
	.name = ftl_type_name,
};

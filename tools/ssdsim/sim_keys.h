/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_keys.h - the configuration keys as ssdsim shows them: --list-keys
 * grouped by layer (flash, FTL, write cache, dedup, device and host), each
 * with its default, its range (min..max, or an enum key's names) and its
 * help, kernel-only and ssdsim-only keys marked; the same as JSON or as
 * the old tab-separated lines for scripts; and the one table of keys that
 * have no effect in a configuration (a cache size without a cache policy),
 * warned about when a run is given one.
 */
#ifndef SSD_SIM_KEYS_H
#define SSD_SIM_KEYS_H

#include <stdio.h>

#include "common/ssd_config.h"

enum sim_keys_form {
	SIM_KEYS_TEXT,		/* grouped, for people */
	SIM_KEYS_JSON,		/* a list of objects, for programs */
	SIM_KEYS_TSV,		/* name TAB default TAB help, as before */
};

/* The layer a key belongs to, as --list-keys heads it. */
const char *sim_key_group(const struct ssd_config_key *key);
struct sim_values;
/* Every key as --list-keys --json lists it, as values (a list of objects). */
void sim_keys_values(struct sim_values *vs);
/* Every key on @out in @form; the JSON form is @keys (sim_keys_values()). */
void sim_keys_print(FILE *out, enum sim_keys_form form, const struct sim_values *keys);
/*
 * Why @key has no effect in @cfg (into @why), or 0 if it has one.  The
 * table of (key, condition) is sim_keys.c's.
 */
int sim_key_inert(const struct ssd_config *cfg, const struct ssd_config_key *key,
		  char *why, size_t why_bytes);
/*
 * A warning on stderr for each of the @nr "key=value" arguments @pairs
 * that has no effect in @cfg.  The number of warnings.
 */
int sim_keys_warn_inert(const struct ssd_config *cfg, char *const *pairs, int nr);

#endif /* SSD_SIM_KEYS_H */

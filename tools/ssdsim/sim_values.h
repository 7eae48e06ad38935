/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_values.h - a run's result as a list of typed values in the order
 * and nesting of ssdsim's --json (struct ssdsim_value, ssdsim_api.h): an
 * object or array opens, its members follow, an END closes it.  What
 * --json prints of ssdsim's own fields, what --fields names, and what
 * libssdsim.so hands its callers are this one list, so a value is named,
 * nested and formatted in one place (sim_result.c, sim_keys.c).
 *
 * Owns the list (every name and text copied in), its JSON rendering in
 * ssdsim's layout (the top container's members a line each, deeper ones
 * inline) and the walk of its leaves by path (latency.write.p99_ns).
 */
#ifndef SSD_SIM_VALUES_H
#define SSD_SIM_VALUES_H

#include <stdbool.h>
#include <stdio.h>

#include "platform/ssd_platform.h"
#include "tools/ssdsim/ssdsim_api.h"

struct sim_values {
	struct ssdsim_value *v;
	size_t count, room;
	unsigned int depth;		/* containers open */
	bool failed;			/* out of memory: the list is incomplete */
};

void sim_values_init(struct sim_values *vs);
void sim_values_free(struct sim_values *vs);

/*
 * Append a value named @name (NULL inside an array).  A number is kept
 * as --json prints it with @fmt ("%.6f", "%g"): its text, and the double
 * that text reads as (an integer if it has no point or exponent, as a
 * JSON reader takes it).  Out of memory sets vs->failed.
 */
void sim_values_object(struct sim_values *vs, const char *name);
void sim_values_array(struct sim_values *vs, const char *name);
void sim_values_end(struct sim_values *vs);
void sim_values_uint(struct sim_values *vs, const char *name, u64 value);
void sim_values_real(struct sim_values *vs, const char *name, const char *fmt, double value);
void sim_values_text(struct sim_values *vs, const char *name, const char *text);
void sim_values_bool(struct sim_values *vs, const char *name, bool value);
void sim_values_null(struct sim_values *vs, const char *name);

/*
 * The members @v[0..@n) of a top container as --json writes them: each
 * on its own line, after a comma if @more (members printed before them).
 */
void sim_values_print_members(FILE *out, const struct ssdsim_value *v, size_t n, bool more);
/* The whole list (one container) as --json writes it, newline-terminated. */
void sim_values_print_json(FILE *out, const struct sim_values *vs);

/* A leaf: its path from the top ("latency.write.p99_ns"; array members by index). */
typedef int (*sim_values_leaf_fn)(void *ctx, const char *path, const struct ssdsim_value *v);
/* Call @fn for every leaf in order; stops at and returns its first non-zero. */
int sim_values_walk(const struct sim_values *vs, sim_values_leaf_fn fn, void *ctx);

#endif /* SSD_SIM_VALUES_H */

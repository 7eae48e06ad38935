/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_fields.h - ssdsim --fields: chosen values of the run's result,
 * named as --json names them (a nested value by its path:
 * latency.write.p99_ns, config.cache_policy, run.window.iops), as one CSV
 * header and row (--csv) or "name value" lines.  The values are those
 * --json prints (sim_values.h), so every counter and derived value is a
 * field, and stays one under its name.
 */
#ifndef SSD_SIM_FIELDS_H
#define SSD_SIM_FIELDS_H

#include <stdbool.h>
#include <stdio.h>

struct sim_values;

/*
 * Check the comma-separated @fields against the names in @vs, and
 * against @also (NULL-terminated: names that may appear only later):
 * 0, or -1 after naming each unknown field with the names close to it.
 */
int sim_fields_check(const struct sim_values *vs, const char *fields, const char *const *also);
/*
 * @fields of @vs on @out, as CSV (@csv) or lines; a field absent from
 * @vs (a value undefined in this run) is empty in CSV, "null" in lines.
 * @fields NULL: every field, as CSV.  0, or -1 after a message (unknown
 * names, out of memory).
 */
int sim_fields_print(FILE *out, const struct sim_values *vs, const char *fields, bool csv,
		     const char *const *also);

#endif /* SSD_SIM_FIELDS_H */

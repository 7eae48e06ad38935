/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdsim_api.h - the C API of libssdsim.so (`make python`), which the
 * Python package ssdsim (ssdsim/_lib.py) binds with ctypes.
 *
 * A run (ssdsim_run()) takes ssdsim's command line and returns a result:
 * the exit status the program gives, the messages it says (warnings,
 * notes, and a refusal's reason: what the program prints on stderr, a
 * line each) and its values, which are everything --json holds (the
 * device's counters by the stats field table, the latency summaries, the
 * wrap and remap census, the trace's summary, the configuration, how the
 * run measured) as a list of typed values in --json's order and nesting.
 * The library prints nothing: the ssdsim program is this run with a
 * printer (text summary, --json, --fields, --csv) over the same result.
 *
 * A device handle runs requests one at a time as ssdsim's replay does
 * (the placement of sim_place.h without a remap, the data of sim_data.h,
 * the same request numbering), so the times equal those of `ssdsim
 * --completions` for the same requests.
 *
 * Strings handed back as char * are malloc'd: free them with
 * ssdsim_api_free().  Calls on different handles may run in different
 * threads at once (each thread's messages are collected on their own);
 * one handle is one thread's.
 */
#ifndef SSDSIM_API_H
#define SSDSIM_API_H

#include <stddef.h>
#include <stdint.h>

#define SSDSIM_API_VERSION 2

int ssdsim_api_version(void);
void ssdsim_api_free(void *p);

/* A value's type: a scalar, or a container that the next values fill up to its END. */
enum ssdsim_type {
	SSDSIM_NULL,
	SSDSIM_BOOL,		/* uint: 0 or 1 */
	SSDSIM_UINT,		/* uint */
	SSDSIM_REAL,		/* real */
	SSDSIM_TEXT,		/* text */
	SSDSIM_OBJECT,		/* opens an object: named members until its END */
	SSDSIM_ARRAY,		/* opens an array: unnamed members until its END */
	SSDSIM_END,		/* closes the innermost object or array */
};

struct ssdsim_value {
	const char *name;	/* its key in the object holding it; NULL in an array, for END */
	int type;		/* enum ssdsim_type */
	uint64_t uint;
	double real;		/* the number as --json prints it (rounded as printed) */
	/* TEXT: the string; any other scalar: its literal as --json writes it. */
	const char *text;
};

struct ssdsim_result;

/*
 * Run ssdsim with @argv (@argc of them, argv[0] the program's name) in
 * this process.  NULL only if out of memory.  --json, --fields, --csv
 * and --verbose choose how the program prints; the result is the same
 * whichever is given.  --list-keys gives the keys (its --json list).
 */
struct ssdsim_result *ssdsim_run(int argc, const char *const *argv);
/* The exit status the program gives: 0, 1 (refused or failed), 2 (usage). */
int ssdsim_result_status(const struct ssdsim_result *r);
/*
 * What the run said, in order: a line each, its newline included; joined,
 * what the program prints on stderr (with a non-zero status, the refusal).
 */
size_t ssdsim_result_message_count(const struct ssdsim_result *r);
const char *ssdsim_result_message(const struct ssdsim_result *r, size_t i);
/* The values (none if the run was refused), valid until the result is freed. */
size_t ssdsim_result_value_count(const struct ssdsim_result *r);
const struct ssdsim_value *ssdsim_result_values(const struct ssdsim_result *r);
void ssdsim_result_free(struct ssdsim_result *r);

/*
 * Check a configuration without making a device: the preset @config_path
 * (or NULL) and the "key=value" strings of @keys applied as ssdsim applies
 * them, then the core's validation of the whole (ssd_device_validate_config()).
 * 0, or -1 with the message in *@err (an unknown key named).
 */
int ssdsim_api_config_check(const char *config_path, int nr_keys, const char *const *keys,
			    char **err);

struct ssdsim_api_device;

/*
 * A device from the preset @config_path (NULL: the defaults) and the
 * @nr_keys "key=value" strings of @keys, applied in order.  Its data
 * store is chosen as ssdsim chooses it (sim_store.h): the one a
 * data_store key names, else bytes if @keep_data (ssdsim --data), a
 * digest with dedup on, none otherwise.  NULL if it was refused, the
 * message (ssdsim's) in *@err.
 */
struct ssdsim_api_device *ssdsim_api_device_create(const char *config_path, int nr_keys,
						   const char *const *keys, int keep_data,
						   char **err);
/*
 * Run one request: @op as enum ssdemu_log_op (0 read, 1 write, 2 trim,
 * 3 write zeroes, 4 flush), @content_hash the hex MD5s of a write's data
 * as in an FIU trace (or NULL).  Returns 0 with the arrival the device
 * gave it (arrivals are made non-decreasing) and its completion in
 * *@arrival_ns_out, *@completion_ns; 1 if it was skipped, as ssdsim skips
 * a data request of no length or a TRIM of less than one logical block;
 * -1 with the message in *@err if it failed (nothing was done).
 */
int ssdsim_api_device_submit(struct ssdsim_api_device *d, unsigned int op,
			     uint64_t offset_bytes, uint64_t length_bytes, uint64_t arrival_ns,
			     const char *content_hash, uint64_t *arrival_ns_out,
			     uint64_t *completion_ns, char **err);
/*
 * The device's statistics, as a result whose values are those `ssdsim
 * --json` prints of a device (status 0); NULL if out of memory.
 */
struct ssdsim_result *ssdsim_api_device_stats(struct ssdsim_api_device *d);
/* Zero the counters (the state stays). */
void ssdsim_api_device_reset_stats(struct ssdsim_api_device *d);
void ssdsim_api_device_destroy(struct ssdsim_api_device *d);

#endif /* SSDSIM_API_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdsim_api.h - the C API of libssdsim.so (`make python`), which the
 * Python package ssdsim (ssdsim/_lib.py) binds with ctypes.
 *
 * Two ways in.  ssdsim_api_run() is the ssdsim program itself
 * (ssdsim_main()) with argv-like arguments, what it would print on stdout
 * and stderr handed back as strings: with --json, the statistics are the
 * binary's, byte for byte.  A device handle runs requests one at a time
 * as ssdsim's replay does (the placement of sim_place.h without a remap,
 * the data of sim_data.h, the same request numbering), so the times equal
 * those of `ssdsim --completions` for the same requests.
 *
 * Strings handed back are malloc'd: free them with ssdsim_api_free().
 * Calls on different handles may run in different threads at once (each
 * thread's printing is captured on its own); one handle is one thread's.
 */
#ifndef SSDSIM_API_H
#define SSDSIM_API_H

#include <stdint.h>

#define SSDSIM_API_VERSION 1

int ssdsim_api_version(void);

/*
 * Run ssdsim with @argv (@argc of them, argv[0] the program's name): its
 * exit status, its stdout in *@out and its stderr in *@err.
 */
int ssdsim_api_run(int argc, const char *const *argv, char **out, char **err);
void ssdsim_api_free(void *p);

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
/* The device's statistics as `ssdsim --json` prints them. */
char *ssdsim_api_device_stats(struct ssdsim_api_device *d);
/* Zero the counters (the state stays). */
void ssdsim_api_device_reset_stats(struct ssdsim_api_device *d);
void ssdsim_api_device_destroy(struct ssdsim_api_device *d);

#endif /* SSDSIM_API_H */

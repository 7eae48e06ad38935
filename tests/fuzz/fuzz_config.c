// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_config.c - libFuzzer harness of the configuration path: the input
 * is a configs/ *.conf file (tools/report/conf_file.c) whose pairs go through
 * ssd_config_set() (common/ssd_config.c), as in ssdsim; each line is also
 * tried as a command-line "key=value".  Properties checked: a value taken
 * shows (ssd_config_show()) as text that sets the same value again; a
 * configuration that validates and is small (at most 2^16 flash pages;
 * memory_limit_mb held to 64) builds a device that passes its consistency
 * check.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools/report/conf_file.h"
#include "common/ssd_config.h"
#include "device/ssd_device.h"
#include "tests/fuzz/fuzz_quiet.h"

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	struct ssd_config *cfg = ctx;
	const struct ssd_config_key *k;
	struct ssd_config again;
	char shown[96];

	if (ssd_config_set(cfg, key, value))
		return 0;	/* refused: the next pair still counts */
	/* What was taken shows as text that is taken as the same value. */
	k = ssd_config_find(key);
	if (!k)
		abort();
	ssd_config_show(cfg, k, shown, sizeof(shown));
	again = *cfg;
	if (ssd_config_set(&again, key, shown) || memcmp(&again, cfg, sizeof(again)))
		abort();
	return 0;
}

/* Build, check and destroy a device, if the configuration is small. */
static void build(const struct ssd_config *cfg)
{
	struct ssd_device *dev;

	struct ssd_config small = *cfg;

	/* At most 64 MiB of the fuzzer's memory (0 would be half the RAM). */
	if (small.memory_limit_mb == 0 || small.memory_limit_mb > 64)
		small.memory_limit_mb = 16;
	if (ssd_device_validate_config(&small))
		return;
	if (ssd_config_physical_pages(&small) > (1 << 16) ||
	    small.request_log_entries > (1 << 16) || small.cmd_queue_depth > (1 << 12))
		return;
	if (ssd_device_create(&dev, &small))
		return;
	if (ssd_device_check(dev))
		abort();
	ssd_device_destroy(dev);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet_stderr();
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct ssd_config cfg;
	char path[64], line[600];
	size_t start = 0;
	int fd;

	ssd_log_quiet = 1;
	fd = memfd_create("fuzz.conf", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ssd_config_defaults(&cfg);
	conf_file_read(path, set_pair, &cfg);
	close(fd);
	build(&cfg);

	/* Each line as a command-line pair. */
	ssd_config_defaults(&cfg);
	while (start < size) {
		size_t end = start;

		while (end < size && data[end] != '\n')
			end++;
		if (end - start < sizeof(line)) {
			memcpy(line, data + start, end - start);
			line[end - start] = '\0';
			conf_pair_arg(line, set_pair, &cfg);
		}
		start = end + 1;
	}
	return 0;
}

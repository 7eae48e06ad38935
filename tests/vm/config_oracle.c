// SPDX-License-Identifier: GPL-2.0
/*
 * config_oracle - the userspace answer to "would this key take this
 * value?", for the configfs fuzz test: the kernel and userspace parse with
 * the same ssd_config_set(), so they must agree on every value.
 *
 * stdin: one "key<TAB>hex-bytes" line per question (the value as written
 * to configfs, newline included); stdout: "ok" or "refused" per line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ssd_config.h"
#include "device/ssd_device.h"

static int unhex(const char *hex, char *out, size_t out_bytes)
{
	size_t n = 0;

	while (hex[0] && hex[1] && hex[0] != '\n') {
		unsigned int byte;

		if (n + 1 >= out_bytes || sscanf(hex, "%2x", &byte) != 1)
			return -1;
		out[n++] = (char)byte;
		hex += 2;
	}
	out[n] = '\0';
	return 0;
}

int main(void)
{
	static char line[65536], value[32768];
	struct ssd_config cfg;

	ssd_log_quiet = 1;
	while (fgets(line, sizeof(line), stdin)) {
		char *tab = strchr(line, '\t');

		if (!tab || unhex(tab + 1, value, sizeof(value))) {
			fprintf(stderr, "config_oracle: bad line: %s", line);
			return 2;
		}
		*tab = '\0';
		ssd_config_defaults(&cfg);
		puts(ssd_config_set(&cfg, line, value) ? "refused" : "ok");
	}
	return 0;
}

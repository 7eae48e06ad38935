// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer harness of ssdsim's trace readers
 * (host-tools/trace_reader.c): the first byte picks the format (auto,
 * mqsim, fiu, ssdemu, blkparse), the rest is the trace.  Every record
 * read must be a known operation; reading stops at the end, at a parse
 * error or after 100000 records.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host-tools/trace_reader.h"

/*
 * The parsers' messages go to stdio's stderr, sent to /dev/null here;
 * sanitizer and libFuzzer reports write to file descriptor 2 and stay.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const enum trace_format formats[] = {
		TRACE_AUTO, TRACE_MQSIM, TRACE_FIU, TRACE_SSDEMU, TRACE_BLKPARSE,
	};
	struct trace_reader tr;
	struct trace_record rec;
	unsigned long n = 0;
	int ret;

	if (size < 2)
		return 0;
	memset(&tr, 0, sizeof(tr));
	tr.format = formats[data[0] % 5];
	tr.path = "fuzz";
	tr.file = fmemopen((void *)(data + 1), size - 1, "r");
	if (!tr.file)
		abort();
	while ((ret = trace_next(&tr, &rec)) == 1 && n++ < 100000) {
		if (rec.op > SSDEMU_OP_FLUSH)
			abort();
	}
	trace_close(&tr);
	return 0;
}

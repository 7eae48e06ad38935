// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer harness of the trace readers
 * (host-tools/trace_reader.c, trace_fmt_*.c, trace_input.c): the first
 * byte picks the format (auto or one of every reader), the rest is the
 * trace, read from memory as a mapped file is (a zstd one decompressed).
 * Every record read must be a known operation within 2^63 bytes, and the
 * progress never passes the trace's size; reading stops at the end, at a
 * parse error or after 100000 records.
 */
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
	struct trace_reader tr;
	struct trace_record rec;
	uint64_t done, total;
	unsigned long n = 0;
	int ret;

	if (size < 2)
		return 0;
	if (trace_open_memory(&tr, "fuzz", data + 1, size - 1, data[0] % TRACE_FORMAT_NR))
		return 0;
	while ((ret = trace_next(&tr, &rec)) == 1 && n++ < 100000) {
		if (rec.op > SSDEMU_OP_FLUSH || rec.offset_bytes > (1ULL << 63) ||
		    rec.length_bytes > (1ULL << 63) - rec.offset_bytes)
			abort();
		trace_progress(&tr, &done, &total);
		if (done > total)
			abort();
	}
	if (trace_format_name(tr.format) == NULL)
		abort();
	trace_close(&tr);
	return 0;
}

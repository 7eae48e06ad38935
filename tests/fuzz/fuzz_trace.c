// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_trace.c - libFuzzer harness of the trace readers
 * (tools/trace/trace_reader.c, trace_fmt_*.c, trace_input.c): the first
 * byte picks the format (auto or one of every reader), the rest is the
 * trace, read from memory as a mapped file is (a zstd one decompressed).
 * Every record read must be a known operation within 2^63 bytes, and the
 * progress never passes the trace's size; reading stops at the end, at a
 * parse error or after 100000 records (a zstd input that decompresses
 * to more than 1 MiB is skipped).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "tools/trace/trace_reader.h"
#include "tests/fuzz/fuzz_quiet.h"

/*
 * Whether @data is a zstd stream that decompresses to more than 1 MiB:
 * such a bomb (a few bytes of RLE blocks make hundreds of MB of empty
 * lines) is read linearly and right, only slowly, so it is not fuzzed.
 */
static bool zstd_bomb(const unsigned char *data, size_t size)
{
	static unsigned char out[1 << 16];
	ZSTD_inBuffer in = { data, size, 0 };
	size_t total = 0, ret = 1;
	ZSTD_DStream *ds;

	if (size < 4 || data[0] != 0x28 || data[1] != 0xb5 || data[2] != 0x2f || data[3] != 0xfd)
		return false;
	ds = ZSTD_createDStream();
	if (!ds)
		abort();
	while (ret && in.pos < in.size && total <= (1u << 20)) {
		ZSTD_outBuffer o = { out, sizeof(out), 0 };

		ret = ZSTD_decompressStream(ds, &o, &in);
		if (ZSTD_isError(ret) || (!o.pos && in.pos == in.size))
			break;
		total += o.pos;
	}
	ZSTD_freeDStream(ds);
	return total > (1u << 20);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet_stderr();
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct trace_reader tr;
	struct trace_record rec;
	uint64_t done, total;
	unsigned long n = 0;
	int ret;

	if (size < 2 || zstd_bomb(data + 1, size - 1))
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

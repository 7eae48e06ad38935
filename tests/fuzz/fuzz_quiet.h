/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz_quiet.h - what the parser harnesses share: the parsers' messages go
 * to stdio's stderr, sent to /dev/null here; sanitizer and libFuzzer
 * reports write to file descriptor 2 and stay.
 */
#ifndef FUZZ_QUIET_H
#define FUZZ_QUIET_H

#include <stdio.h>

static inline void fuzz_quiet_stderr(void)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
}

#endif /* FUZZ_QUIET_H */

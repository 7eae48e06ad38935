/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hex_digit.h - one hexadecimal digit's value, for the tools that read
 * MD5s from traces (ssdsim's page data, cachesim's fingerprints).
 */
#ifndef TOOLS_HEX_DIGIT_H
#define TOOLS_HEX_DIGIT_H

/* The value of hex digit @c; 0 for anything else (traces are checked first). */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 0;
}

#endif /* TOOLS_HEX_DIGIT_H */

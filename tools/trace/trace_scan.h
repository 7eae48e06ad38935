/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_scan.h - the scanner the text trace readers parse with, in place
 * of scanf: fields of a NUL-terminated line, decimal and hexadecimal
 * numbers with overflow refused, and decimal seconds in nanoseconds.
 * Every function returns the position after what it read, or NULL if the
 * text there is not what it reads.
 */
#ifndef SSD_TRACE_SCAN_H
#define SSD_TRACE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline bool scan_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline bool scan_is_digit(char c)
{
	return (unsigned char)(c - '0') < 10;
}

static inline const char *scan_blanks(const char *p)
{
	while (scan_is_blank(*p))
		p++;
	return p;
}

/*
 * Every text the scanner reads has SCAN_PAD readable bytes after its NUL,
 * so digits are taken eight at a time (a chunk holding the NUL is no
 * digits: what lies past it never counts).
 */
#define SCAN_PAD	8

/* Whether the 8 bytes of @chunk (little-endian) are all digits. */
static inline bool scan_eight_digits(uint64_t chunk)
{
	return ((chunk & 0xf0f0f0f0f0f0f0f0ULL) |
		(((chunk + 0x0606060606060606ULL) & 0xf0f0f0f0f0f0f0f0ULL) >> 4)) ==
	       0x3333333333333333ULL;
}

/* The value of eight digits (Lemire's SWAR conversion). */
static inline uint64_t scan_eight_value(uint64_t chunk)
{
	chunk -= 0x3030303030303030ULL;
	chunk = chunk * 10 + (chunk >> 8);
	return ((chunk & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
		((chunk >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >> 32;
}

static inline uint64_t scan_load8(const char *p)
{
	uint64_t chunk;

	memcpy(&chunk, p, sizeof(chunk));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	chunk = __builtin_bswap64(chunk);
#endif
	return chunk;
}

/*
 * A decimal number of at most UINT64_MAX.  Nineteen digits never overflow:
 * only a twentieth is checked (leading zeros skipped first).
 */
static inline const char *scan_u64(const char *p, uint64_t *out)
{
	const char *start;
	uint64_t v = 0, chunk;

	if (!scan_is_digit(*p))
		return NULL;
	while (*p == '0' && scan_is_digit(p[1]))
		p++;
	start = p;
	while (p - start <= 8 && scan_eight_digits(chunk = scan_load8(p))) {
		v = v * 100000000ULL + scan_eight_value(chunk);
		p += 8;
	}
	for (; scan_is_digit(*p) && p - start < 19; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	if (scan_is_digit(*p)) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10 || scan_is_digit(p[1]))
			return NULL;
		v = v * 10 + d;
		p++;
	}
	*out = v;
	return p;
}

/*
 * Blanks, then a decimal number (a '+' before it taken, as scanf takes
 * one; a '-' is no number) that ends at a blank or the line's end.
 */
static inline const char *scan_field_u64(const char *p, uint64_t *out)
{
	p = scan_blanks(p);
	p = scan_u64(p + (*p == '+'), out);
	return p && (!*p || scan_is_blank(*p)) ? p : NULL;
}

static inline int scan_hex_digit(char c)
{
	if (scan_is_digit(c))
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* A hexadecimal number (no prefix) of at most UINT64_MAX. */
static inline const char *scan_hex_u64(const char *p, uint64_t *out)
{
	uint64_t v = 0;
	const char *start = p;
	int d;

	while ((d = scan_hex_digit(*p)) >= 0) {
		if (v >> 60)
			return NULL;
		v = v << 4 | (unsigned int)d;
		p++;
	}
	if (p == start)
		return NULL;
	*out = v;
	return p;
}

/* A number as strtoull(, , 0) reads one: decimal, or hexadecimal after 0x. */
static inline const char *scan_any_u64(const char *p, uint64_t *out)
{
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		return scan_hex_u64(p + 2, out);
	return scan_u64(p, out);
}

/*
 * Seconds with an optional fraction ("12", "12.5", "0.000001") in
 * nanoseconds: digits past the ninth decimal are dropped.
 */
static inline const char *scan_seconds_ns(const char *p, uint64_t *ns)
{
	uint64_t sec, frac = 0;
	int digits = 0;

	p = scan_u64(p, &sec);
	if (!p || sec > UINT64_MAX / 1000000000ULL - 1)
		return NULL;
	if (*p == '.') {
		p++;
		for (; scan_is_digit(*p); p++)
			if (digits < 9) {
				frac = frac * 10 + (uint64_t)(*p - '0');
				digits++;
			}
	}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return p;
}

/* Blanks, then a word up to the next blank: its start, with *@len. */
static inline const char *scan_word(const char *p, const char **word, size_t *len)
{
	const char *start = scan_blanks(p);

	for (p = start; *p && !scan_is_blank(*p); p++)
		;
	if (p == start)
		return NULL;
	*word = start;
	*len = p - start;
	return p;
}

/* @a[0, @len) equals the NUL-terminated @b, letters in any case. */
static inline bool scan_word_is(const char *a, size_t len, const char *b)
{
	size_t i;

	for (i = 0; i < len && b[i]; i++)
		if ((a[i] | 0x20) != (b[i] | 0x20))
			return false;
	return i == len && !b[i];
}

#endif /* SSD_TRACE_SCAN_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_platform_user.c - the userspace side of ssd_platform.h: what the
 * kernel provides itself (kstrtou64, the RAM size, CRC-32 from zlib),
 * where messages go (stderr, or a thread's sink) and the switch that
 * silences them.  Built only into the userspace library, never into the
 * module.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "platform/ssd_platform.h"

int ssd_log_quiet;
static __thread ssd_log_sink_fn *log_sink;
u64 ssd_zalloc_bytes_total;
long ssd_page_alloc_budget = -1;

void ssd_log_set_sink(ssd_log_sink_fn *sink)
{
	log_sink = sink;
}

void ssd_log_print(const char *fmt, ...)
{
	char *text = NULL;
	va_list ap, again;
	int len;

	va_start(ap, fmt);
	if (!log_sink) {
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		return;
	}
	va_copy(again, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	if (len >= 0)
		text = malloc(len + 1);
	if (text)
		vsnprintf(text, len + 1, fmt, again);
	va_end(again);
	va_end(ap);
	log_sink(text ? text : "ssdemu: out of memory for a message\n");
	free(text);
}

/*
 * kstrtou64(str, 0, out)'s grammar, character for character, so that a
 * value is taken or refused alike in configfs and in ssdsim (the configfs
 * fuzz test holds them equal): an optional '+', then "0x" and hex digits,
 * or '0' and octal digits, or decimal digits; the whole string, but for
 * one trailing newline.  strtoull() would also take blanks and a sign.
 */
int ssd_parse_u64(const char *str, u64 *out)
{
	unsigned int base = 10;
	const char *p;
	u64 value = 0;

	if (!str)
		return -EINVAL;
	if (*str == '+')
		str++;
	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X') && isxdigit((unsigned char)str[2])) {
		base = 16;
		str += 2;
	} else if (str[0] == '0') {
		base = 8;
	}
	for (p = str; *p; p++) {
		unsigned int digit;

		if (*p >= '0' && *p <= '9')
			digit = *p - '0';
		else if (*p >= 'a' && *p <= 'f')
			digit = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'F')
			digit = *p - 'A' + 10;
		else
			break;
		if (digit >= base)
			break;
		if (value > (U64_MAX - digit) / base)
			return -ERANGE;
		value = value * base + digit;
	}
	if (p == str)
		return -EINVAL;
	if (*p == '\n')
		p++;
	if (*p != '\0')
		return -EINVAL;
	*out = value;
	return 0;
}

/* Like totalram_pages() << PAGE_SHIFT; 0 if the system does not say. */
u64 ssd_total_ram_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES);
	long page_bytes = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page_bytes <= 0)
		return 0;
	return (u64)pages * (u64)page_bytes;
}

u32 ssd_crc32(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;

	/* zlib takes lengths as uInt: feed it in pieces. */
	while (len) {
		uInt n = len > 0x40000000 ? 0x40000000 : (uInt)len;

		crc = (u32)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

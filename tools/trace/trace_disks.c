// SPDX-License-Identifier: GPL-2.0
/*
 * trace_disks.c - naming, choosing and counting a trace's disks (see
 * trace_disks.h).  The census is an array sorted by device number, found
 * by bisection: traces hold a few disks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/trace/trace_disks.h"

/* A decimal number of at most @max, ending at *@end; -1 if none. */
static int parse_number(const char *text, uint64_t max, uint64_t *out, const char **end)
{
	uint64_t value = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (value > (max - (uint64_t)(*p - '0')) / 10)
			return -1;
		value = value * 10 + (uint64_t)(*p - '0');
	}
	*out = value;
	*end = p;
	return 0;
}

/* "HOST_N": a host name (no comma) and a disk number after its last '_'. */
static int parse_host_disk(const char *text, struct trace_disk_spec *spec)
{
	const char *under = strrchr(text, '_'), *end;
	uint64_t disk;

	if (!under || under == text || under - text >= TRACE_DISK_HOST_BYTES ||
	    memchr(text, ',', under - text) ||
	    parse_number(under + 1, UINT32_MAX, &disk, &end) || *end)
		return -1;
	memset(spec, 0, sizeof(*spec));
	spec->set = true;
	spec->device = disk;
	memcpy(spec->host, text, under - text);
	return 0;
}

int trace_disk_parse(const char *text, struct trace_disk_spec *spec)
{
	uint64_t first, second;
	const char *end;

	if (*text < '0' || *text > '9')
		return parse_host_disk(text, spec);
	if (parse_number(text, UINT64_MAX, &first, &end))
		return -1;
	memset(spec, 0, sizeof(*spec));
	spec->set = true;
	if (!*end) {
		spec->device = first;
		return 0;
	}
	if (*end != ',' || first > UINT32_MAX ||
	    parse_number(end + 1, UINT32_MAX, &second, &end) || *end)
		return -1;
	spec->pair = true;
	spec->device = TRACE_DISK_PAIR(first, second);
	return 0;
}

void trace_disk_name(bool pair, uint64_t device, char *buf, size_t bytes)
{
	if (pair)
		snprintf(buf, bytes, "%" PRIu64 ",%" PRIu64, device >> 32, device & UINT32_MAX);
	else
		snprintf(buf, bytes, "%" PRIu64, device);
}

void trace_disk_spec_name(const struct trace_disk_spec *spec, char *buf, size_t bytes)
{
	if (spec->host[0])
		snprintf(buf, bytes, "%s_%" PRIu64, spec->host, spec->device);
	else
		trace_disk_name(spec->pair, spec->device, buf, bytes);
}

void trace_disks_name(const struct trace_disks *disks, uint64_t device, char *buf,
		      size_t bytes)
{
	if (disks->nr_hosts && device >> 32 < disks->nr_hosts)
		snprintf(buf, bytes, "%s_%" PRIu64, disks->hosts[device >> 32],
			 device & UINT32_MAX);
	else
		trace_disk_name(disks->pair, device, buf, bytes);
}

int trace_disks_host(struct trace_disks *disks, const char *name, size_t len,
		     uint32_t *index)
{
	char (*grown)[TRACE_DISK_HOST_BYTES];
	size_t i;

	if (!len || len >= TRACE_DISK_HOST_BYTES)
		return -1;
	for (i = 0; i < disks->nr_hosts; i++)
		if (!strncmp(disks->hosts[i], name, len) && !disks->hosts[i][len]) {
			*index = i;
			return 0;
		}
	/* Few hosts: grown one at a time. */
	if (disks->nr_hosts >= UINT32_MAX - 1)
		return -1;
	grown = realloc(disks->hosts, (i + 1) * sizeof(*grown));
	if (!grown)
		return -1;
	disks->hosts = grown;
	memset(grown[i], 0, sizeof(grown[i]));
	memcpy(grown[i], name, len);
	disks->nr_hosts++;
	*index = i;
	return 0;
}

/* Where @device is, or would go, in the sorted census. */
static size_t position(const struct trace_disks *disks, uint64_t device)
{
	size_t lo = 0, hi = disks->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (disks->v[mid].device < device)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int trace_disks_add(struct trace_disks *disks, uint64_t device)
{
	size_t at = disks->last;

	/* Traces hold long runs of one disk's requests. */
	if (at < disks->count && disks->v[at].device == device) {
		disks->v[at].requests++;
		return 0;
	}
	at = position(disks, device);
	disks->last = at;

	if (at < disks->count && disks->v[at].device == device) {
		disks->v[at].requests++;
		return 0;
	}
	if (disks->count == disks->room) {
		size_t room = disks->room ? 2 * disks->room : 16;
		struct trace_disk_count *grown = realloc(disks->v, room * sizeof(*grown));

		if (!grown)
			return -1;
		disks->v = grown;
		disks->room = room;
	}
	memmove(disks->v + at + 1, disks->v + at, (disks->count - at) * sizeof(*disks->v));
	disks->v[at].device = device;
	disks->v[at].requests = 1;
	disks->count++;
	return 0;
}

uint64_t trace_disks_requests(const struct trace_disks *disks, uint64_t device)
{
	size_t at = position(disks, device);

	return at < disks->count && disks->v[at].device == device ? disks->v[at].requests : 0;
}

void trace_disks_free(struct trace_disks *disks)
{
	free(disks->v);
	free(disks->hosts);
	memset(disks, 0, sizeof(*disks));
}

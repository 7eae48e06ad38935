// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_inject.c - targeted error injection, null_blk's badblocks for the
 * logical space: a list of 512-byte sector ranges whose reads, writes or
 * both fail (the configfs attribute inject_errors, ssdsim --inject).  Owns
 * the list's commands ("+r 1000-1007", "+w 2048-4095", "+rw 8", "-r
 * 1000-1007", "clear"), their refusals, the list's text, and the lookups
 * the request path makes (ssd_request.c decides what a hit fails).  The
 * list is a plain value: the kernel glue keeps one per configfs item,
 * before and while powered on, and hands it to the device with
 * ssd_device_set_inject().  Portable.
 */
#include "device/ssd_device_internal.h"

/* Parse a decimal u64 at *@p, moving *@p past it; -EINVAL if none or too big. */
static int parse_sector(const char **p, u64 *out)
{
	const char *s = *p;
	u64 v = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (U64_MAX - (u64)(*s - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (u64)(*s - '0');
	}
	*p = s;
	*out = v;
	return 0;
}

static bool starts_with(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return false;
	return true;
}

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static bool at_end(const char *s)
{
	s = skip_blanks(s);
	if (*s == '\n')
		s++;
	return *s == '\0';
}

/* The index of the range [@first, @last], or -1. */
static int find_range(const struct ssd_inject_list *list, u64 first, u64 last)
{
	u32 i;

	for (i = 0; i < list->nr; i++)
		if (list->range[i].first_sector == first && list->range[i].last_sector == last)
			return i;
	return -1;
}

/* The letters of @ops as a command writes them. */
static const char *ops_name(u32 ops)
{
	if (ops == SSD_INJECT_READ)
		return "r";
	return ops == SSD_INJECT_WRITE ? "w" : "rw";
}

int ssd_inject_command(struct ssd_inject_list *list, const char *cmd, u64 capacity_bytes,
		       const char *name)
{
	u64 sectors = capacity_bytes / SSD_SECTOR_BYTES, first, last;
	const char *p = skip_blanks(cmd);
	bool add;
	u32 ops = 0;
	int i;

	if (starts_with(p, "clear") && at_end(p + 5)) {
		list->nr = 0;
		return 0;
	}
	if (*p != '+' && *p != '-')
		goto malformed;
	add = *p++ == '+';
	for (; *p == 'r' || *p == 'w'; p++)
		ops |= *p == 'r' ? SSD_INJECT_READ : SSD_INJECT_WRITE;
	if (!ops || (*p != ' ' && *p != '\t'))
		goto malformed;
	p = skip_blanks(p);
	if (parse_sector(&p, &first))
		goto malformed;
	last = first;
	if (*p == '-') {
		p++;
		if (parse_sector(&p, &last))
			goto malformed;
	}
	if (!at_end(p))
		goto malformed;
	if (first > last || last >= sectors) {
		ssd_dev_err(name, "inject_errors \"%c%s %llu-%llu\" refused: sectors (512 bytes) must be first <= last <= %llu, the last of the device",
			    add ? '+' : '-', ops_name(ops), (unsigned long long)first,
			    (unsigned long long)last, (unsigned long long)(sectors - 1));
		return -EINVAL;
	}
	i = find_range(list, first, last);
	if (!add) {
		if (i < 0 || !(list->range[i].ops & ops)) {
			ssd_dev_err(name, "inject_errors \"-%s %llu-%llu\" refused: no such range injected for those operations",
				    ops_name(ops), (unsigned long long)first, (unsigned long long)last);
			return -EINVAL;
		}
		list->range[i].ops &= ~ops;
		if (!list->range[i].ops)
			list->range[i] = list->range[--list->nr];
		return 0;
	}
	if (i >= 0) {
		list->range[i].ops |= ops;
		return 0;
	}
	if (list->nr >= SSD_INJECT_MAX_RANGES) {
		ssd_dev_err(name, "inject_errors refused: %u ranges injected already, the most there may be",
			    SSD_INJECT_MAX_RANGES);
		return -ENOSPC;
	}
	list->range[list->nr].first_sector = first;
	list->range[list->nr].last_sector = last;
	list->range[list->nr].ops = ops;
	list->nr++;
	return 0;

malformed:
	ssd_dev_err(name, "inject_errors refused: expected \"+r|+w|+rw|-r|-w|-rw FIRST[-LAST]\" (512-byte sectors) or \"clear\"");
	return -EINVAL;
}

int ssd_inject_show(const struct ssd_inject_list *list, char *buf, u32 len)
{
	u32 i, n = 0;

	for (i = 0; i < list->nr && n < len; i++) {
		const struct ssd_inject_range *r = &list->range[i];

		n += ssd_snprintf(buf + n, len - n, "%s%s %llu-%llu\n",
				  r->ops & SSD_INJECT_READ ? "r" : "",
				  r->ops & SSD_INJECT_WRITE ? "w" : "",
				  (unsigned long long)r->first_sector,
				  (unsigned long long)r->last_sector);
	}
	return min_t(u32, n, len);
}

bool ssd_inject_hit(const struct ssd_inject_list *list, u32 ops, u64 offset_bytes,
		    u64 length_bytes, u64 *first_bytes)
{
	u64 first = offset_bytes / SSD_SECTOR_BYTES;
	u64 last = (offset_bytes + length_bytes - 1) / SSD_SECTOR_BYTES;
	u64 hit = U64_MAX;
	u32 i;

	if (!length_bytes)
		return false;
	for (i = 0; i < list->nr; i++) {
		const struct ssd_inject_range *r = &list->range[i];

		if (!(r->ops & ops) || r->last_sector < first || r->first_sector > last)
			continue;
		hit = min_t(u64, hit, max_t(u64, r->first_sector, first));
	}
	if (hit == U64_MAX)
		return false;
	*first_bytes = max_t(u64, hit * SSD_SECTOR_BYTES, offset_bytes);
	return true;
}

void ssd_device_set_inject(struct ssd_device *dev, const struct ssd_inject_list *list)
{
	/* Between requests: a long one gives the state lock back midway. */
	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	dev->inject = *list;
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_bad_blocks.c - the front end's part of bad blocks and end of life:
 * parsing a list of factory bad blocks ("12 40-43", from configfs or
 * ssdsim --bad-blocks), handing it down the stack before first use (the
 * layer op mark_bad_blocks: the FTL answers), and whether the device is
 * read-only.  The blocks' fate is the FTL's (ftl/ftl_retire.c), the
 * failures the flash's (flash/flash_wear.c).
 */
#include "device/ssd_device_internal.h"

static bool list_sep(char c)
{
	return c == ' ' || c == ',' || c == '\n' || c == '\t';
}

/* A decimal number at *@p (moved past it) below @limit, else false. */
static bool parse_num(const char **p, u32 limit, u32 *out)
{
	u64 v = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9') {
		v = v * 10 + (u64)(*s - '0');
		if (v >= limit)
			return false;
		s++;
	}
	*p = s;
	*out = (u32)v;
	return true;
}

int ssd_block_list_parse(const char *name, const char *list, u32 total_blocks,
			 u32 *blocks, u32 max, u32 *nr)
{
	const char *p = list;

	*nr = 0;
	for (;;) {
		u32 first, last, b;

		while (list_sep(*p))
			p++;
		if (!*p)
			return 0;
		if (!parse_num(&p, total_blocks, &first))
			goto bad;
		last = first;
		if (*p == '-') {
			p++;
			if (!parse_num(&p, total_blocks, &last) || last < first)
				goto bad;
		}
		if (*p && !list_sep(*p))
			goto bad;
		for (b = first; ; b++) {
			if (blocks && *nr < max)
				blocks[*nr] = b;
			/* More than every block once is no list of bad blocks. */
			if (++(*nr) > total_blocks)
				goto bad;
			if (b == last)
				break;
		}
	}
bad:
	ssd_dev_err(name, "bad_blocks refused at offset %u: accepted is a list of block numbers and ranges like \"12 40-43\", each below %u (chips * blocks_per_chip)",
		    (u32)(p - list), total_blocks);
	return -EINVAL;
}

int ssd_device_mark_bad_blocks(struct ssd_device *dev, const u32 *blocks, u32 nr)
{
	int ret;

	ssd_lock_take(&dev->lock);
	if (dev->request_seq) {
		ssd_dev_err(dev->cfg.name, "bad_blocks refused: the device has served requests");
		ret = -EINVAL;
	} else {
		ret = ssd_stack_mark_bad_blocks(dev, blocks, nr);
	}
	ssd_lock_give(&dev->lock);
	return ret;
}

int ssd_device_mark_bad_list(struct ssd_device *dev, const char *list)
{
	u32 total = flash_total_blocks(&dev->flash), nr, *blocks;
	int ret;

	ret = ssd_block_list_parse(dev->cfg.name, list, total, NULL, 0, &nr);
	if (ret || !nr)
		return ret;
	blocks = ssd_zalloc((size_t)nr * sizeof(*blocks));
	if (!blocks)
		return -ENOMEM;
	ret = ssd_block_list_parse(dev->cfg.name, list, total, blocks, nr, &nr);
	if (!ret)
		ret = ssd_device_mark_bad_blocks(dev, blocks, nr);
	ssd_free(blocks);
	return ret;
}

bool ssd_device_read_only(struct ssd_device *dev)
{
	return flash_read_only(&dev->flash);
}

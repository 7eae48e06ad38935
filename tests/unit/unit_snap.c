// SPDX-License-Identifier: GPL-2.0
/*
 * unit_snap.c - a snapshot in memory for the unit tests: save a device
 * into it, load a device from it, copy a device through it, and compare
 * two devices' counters.
 */
#include "unit.h"

static int mem_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	struct mem_snap *m = container_of(w, struct mem_snap, w);

	if (m->len + len > m->cap) {
		u64 cap = m->cap ? m->cap : 1 << 20;

		while (cap < m->len + len)
			cap *= 2;
		m->bytes = realloc(m->bytes, cap);
		EXPECT(m->bytes, "out of memory");
		m->cap = cap;
	}
	memcpy(m->bytes + m->len, buf, len);
	m->len += len;
	return 0;
}

static int mem_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	struct mem_snap *m = container_of(r, struct mem_snap, r);

	if (m->pos + len > m->len)
		return -ENODATA;
	memcpy(buf, m->bytes + m->pos, len);
	m->pos += len;
	return 0;
}

void snap_save(struct ssd_device *dev, struct mem_snap *m)
{
	memset(m, 0, sizeof(*m));
	m->w.write = mem_write;
	EXPECT(ssd_device_save(dev, &m->w) == 0, "save failed");
}

void snap_rewind(struct mem_snap *m)
{
	memset(&m->r, 0, sizeof(m->r));
	m->r.read = mem_read;
	m->r.dev_name = "";
	m->pos = 0;
}

int snap_load(struct mem_snap *m, struct ssd_device **out)
{
	struct ssd_config cfg;
	u64 data_pages;
	int ret;

	snap_rewind(m);
	memset(&cfg, 0, sizeof(cfg));
	ret = ssd_snapshot_read_config(&m->r, &cfg, &data_pages);
	if (ret)
		return ret;
	return ssd_device_create_from(out, &cfg, &m->r, data_pages);
}

struct ssd_device *snap_copy(struct ssd_device *dev)
{
	struct ssd_device *out = NULL;
	struct mem_snap m;

	snap_save(dev, &m);
	EXPECT(snap_load(&m, &out) == 0, "load refused");
	free(m.bytes);
	return out;
}

void expect_same_stats(struct ssd_device *a, struct ssd_device *b, const char *when)
{
	struct ssd_stats sa, sb;

	ssd_device_get_stats(a, &sa);
	ssd_device_get_stats(b, &sb);
#define SAME(name) EXPECT(sa.name == sb.name, "%s: %s %llu != %llu", when, #name, \
			  (unsigned long long)sa.name, (unsigned long long)sb.name);
	SSD_STATS_FIELDS(SAME)
#undef SAME
}

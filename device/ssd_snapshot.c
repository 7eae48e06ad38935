// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_snapshot.c - a whole device in one snapshot, and a device made from
 * one.  The sections, in order (common/ssd_snap.h frames each):
 *
 *   HEAD  magic, format version, page size, pages of data
 *   CONF  every key as "key=value" lines (the vocabulary, not a layout)
 *   DEVC  the front end's counters, working set and clock, the controller
 *   FLSH  the flash's counters, cell modes, the timing model's state
 *   DATA  the data of every page that holds some, once each
 *   ...   each layer's own section, bottom first (its type's snap_tag)
 *   END   nothing: the file is complete
 *
 * Saving quiesces the device: it holds the request lock (no request enters
 * the model) and the state lock for the whole save, so the snapshot is one
 * instant of the model, and the device goes on afterwards as if nothing
 * happened.  The request log is not saved; a device made from a snapshot
 * starts with an empty one.  Loading is only into a device being created:
 * any refusal destroys it, so a bad file changes nothing.
 */
#include "device/ssd_device_internal.h"

#define SNAP_MAGIC		"ssdemu snapshot"	/* 16 bytes with its NUL */
/*
 * 2: a flash counter per cause grew by SSD_CAUSE_MAP (issue 21).  4: the
 * dedup filter's index of live chunks only with dedup_filter_live_chunks=1
 * (issue 32): a version-3 file with dedup_filter=1 holds it but not the key.
 * 5: the front end's working set (a host counter and its bitmap) and the
 * controller's failed and refused requests (issue 33).
 */
#define SNAP_VERSION		5
#define SNAP_HEAD		SSD_SNAP_TAG('H', 'E', 'A', 'D')
#define SNAP_CONF		SSD_SNAP_TAG('C', 'O', 'N', 'F')
#define SNAP_DEVC		SSD_SNAP_TAG('D', 'E', 'V', 'C')
#define SNAP_FLSH		SSD_SNAP_TAG('F', 'L', 'S', 'H')
#define SNAP_DATA		SSD_SNAP_TAG('D', 'A', 'T', 'A')
#define SNAP_END		SSD_SNAP_TAG('E', 'N', 'D', ' ')
/* A configuration line: a key, '=', a value, a newline. */
#define SNAP_CONF_LINE_BYTES	128
/* Stacks are short: dedup, a cache, the FTL (and a test's layer). */
#define SNAP_MAX_LAYERS		8

typedef void (*snap_save_fn)(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w);

/* One section: its length from a counting run of @fn, then @fn for real. */
static void put_section(struct ssd_device *dev, struct ssd_snap_writer *w, u32 tag,
			snap_save_fn fn, void *arg)
{
	struct ssd_snap_writer counter;

	ssd_snap_counter_init(&counter);
	counter.section_left = U64_MAX;
	fn(dev, arg, &counter);
	ssd_snap_begin(w, tag, counter.bytes);
	fn(dev, arg, w);
	ssd_snap_end(w);
}

static void save_head(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	char magic[16] = SNAP_MAGIC;

	ssd_snap_put(w, magic, sizeof(magic));
	ssd_snap_put_u32(w, SNAP_VERSION);
	ssd_snap_put_u32(w, dev->page_bytes);
	ssd_snap_put_u64(w, flash_data_pages(&dev->flash));
}

static void save_conf(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	char line[SNAP_CONF_LINE_BYTES];
	unsigned int i, nr = ssd_config_nr_keys();

	for (i = 0; i < nr; i++) {
		const struct ssd_config_key *key = ssd_config_key_at(i);
		int n = ssd_snprintf(line, sizeof(line), "%s=", key->name);

		n += ssd_config_show(&dev->cfg, key, line + n, sizeof(line) - n);
		ssd_snap_put(w, line, min_t(int, n, sizeof(line) - 1));
	}
}

static u64 working_set_words(const struct ssd_device *dev)
{
	return ssd_working_set_words(dev->capacity_bytes >> dev->page_shift);
}

/* Bits set in @x. */
static u32 bits_set(u64 x)
{
	u32 n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

/*
 * The working set read back: no page beyond the logical ones, and as many
 * pages as its counter says.
 */
static void check_working_set(struct ssd_device *dev, struct ssd_snap_reader *r)
{
	u64 pages = dev->capacity_bytes >> dev->page_shift, words = working_set_words(dev);
	u64 set = 0, i;

	if (r->error)
		return;
	if ((pages & 63) && (dev->working_set[words - 1] >> (pages & 63)))
		ssd_snap_refuse(r, "the working set holds pages beyond the %llu logical ones",
				(unsigned long long)pages);
	for (i = 0; i < words; i++)
		set += bits_set(dev->working_set[i]);
	if (set != dev->host.working_set_pages)
		ssd_snap_refuse(r, "the working set holds %llu pages, its counter says %llu",
				(unsigned long long)set,
				(unsigned long long)dev->host.working_set_pages);
}

static void save_devc(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	ssd_snap_put_u64(w, dev->capacity_bytes);
	ssd_snap_put_counters(w, &dev->host);
	ssd_snap_put_u64(w, dev->last_arrival_ns);
	ssd_snap_put_u64(w, dev->virtual_time_ns);
	ssd_snap_put_u64(w, dev->request_seq);
	ssd_snap_put_counters(w, &dev->power);
	ssd_snap_put_array(w, dev->working_set, working_set_words(dev), sizeof(u64));
	/* The page buffers kept spare: they show in the stats. */
	ssd_snap_put_u32(w, dev->pool.nr_spare);
	ssd_controller_save(&dev->controller, w);
}

static void save_flsh(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	ssd_flash_save(&dev->flash, w);
}

static void save_data(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	ssd_flash_save_data(&dev->flash, w);
}

static void save_layer(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
	struct ssd_layer *layer = arg;

	layer->ops->save(layer, w);
}

static void save_nothing(struct ssd_device *dev, void *arg, struct ssd_snap_writer *w)
{
}

/* The stack bottom first; its depth, or 0 if too deep. */
static u32 layers_bottom_up(struct ssd_device *dev, struct ssd_layer **out)
{
	struct ssd_layer *layer;
	u32 n = 0, i;

	for (layer = dev->top; layer; layer = layer->lower) {
		if (n == SNAP_MAX_LAYERS)
			return 0;
		out[n++] = layer;
	}
	for (i = 0; i < n / 2; i++) {
		layer = out[i];
		out[i] = out[n - 1 - i];
		out[n - 1 - i] = layer;
	}
	return n;
}

int ssd_device_save(struct ssd_device *dev, struct ssd_snap_writer *w)
{
	struct ssd_layer *layers[SNAP_MAX_LAYERS];
	u32 nr, i;

	w->dev_name = dev->cfg.name;
	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	nr = layers_bottom_up(dev, layers);
	for (i = 0; i < nr; i++)
		if (!layers[i]->ops->save || !layers[i]->type || !layers[i]->type->snap_tag)
			break;
	if (!nr || i < nr) {
		ssd_dev_err(dev->cfg.name, "snapshot: layer %s cannot be saved",
			    nr ? layers[i]->name : "(stack too deep)");
		w->error = -EOPNOTSUPP;
		goto unlock;
	}
	put_section(dev, w, SNAP_HEAD, save_head, NULL);
	put_section(dev, w, SNAP_CONF, save_conf, NULL);
	put_section(dev, w, SNAP_DEVC, save_devc, NULL);
	put_section(dev, w, SNAP_FLSH, save_flsh, NULL);
	put_section(dev, w, SNAP_DATA, save_data, NULL);
	for (i = 0; i < nr; i++)
		put_section(dev, w, layers[i]->type->snap_tag, save_layer, layers[i]);
	put_section(dev, w, SNAP_END, save_nothing, NULL);
unlock:
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
	return w->error;
}

/* One "key=value\n" line of CONF, at most SNAP_CONF_LINE_BYTES. */
static void read_conf_line(struct ssd_snap_reader *r, char *line, struct ssd_config *cfg)
{
	char *eq;
	u32 n = 0;
	int ret;

	for (;;) {
		char c = (char)ssd_snap_get_u8(r);

		if (r->error)
			return;
		if (c == '\n')
			break;
		if (n + 1 >= SNAP_CONF_LINE_BYTES || !c) {
			ssd_snap_refuse(r, "a configuration line is not text of at most %u bytes",
					SNAP_CONF_LINE_BYTES);
			return;
		}
		line[n++] = c;
	}
	line[n] = '\0';
	eq = line;
	while (*eq && *eq != '=')
		eq++;
	if (!*eq) {
		ssd_snap_refuse(r, "configuration line '%s' has no '='", line);
		return;
	}
	*eq = '\0';
	ret = ssd_config_set(cfg, line, eq + 1);
	if (ret)
		ssd_snap_refuse(r, "configuration %s=%s (from a newer or other ssdemu?)", line,
				eq + 1);
}

_Static_assert(SSD_SNAPSHOT_HEAD_BYTES == 12 + sizeof(SNAP_MAGIC),
	       "HEAD's frame (tag, length) and the magic");

bool ssd_snapshot_recognise(const void *head, size_t bytes)
{
	const u8 *p = head;
	u32 tag;

	if (bytes < SSD_SNAPSHOT_HEAD_BYTES)
		return false;
	tag = p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
	return tag == SNAP_HEAD && !memcmp(p + 12, SNAP_MAGIC, sizeof(SNAP_MAGIC));
}

int ssd_snapshot_read_config(struct ssd_snap_reader *r, struct ssd_config *cfg,
			     u64 *data_pages)
{
	char name[SSD_CONFIG_NAME_BYTES], line[SNAP_CONF_LINE_BYTES];
	char magic[16] = { 0 };
	u64 len;
	u32 version;

	memcpy(name, cfg->name, sizeof(name));
	ssd_config_defaults(cfg);
	memcpy(cfg->name, name, sizeof(name));
	ssd_snap_open(r, SNAP_HEAD, 64, &len);
	ssd_snap_get(r, magic, sizeof(magic));
	if (!r->error && memcmp(magic, SNAP_MAGIC, sizeof(magic)))
		return ssd_snap_refuse(r, "not an ssdemu snapshot");
	version = ssd_snap_get_u32(r);
	if (!r->error && version != SNAP_VERSION)
		return ssd_snap_refuse(r, "format version %u, this build reads version %u",
				       version, SNAP_VERSION);
	ssd_snap_get_u32(r);	/* the page size: CONF says it again */
	*data_pages = ssd_snap_get_u64(r);
	ssd_snap_close(r);
	ssd_snap_open(r, SNAP_CONF, (u64)ssd_config_nr_keys() * SNAP_CONF_LINE_BYTES, &len);
	while (!r->error && r->section_left)
		read_conf_line(r, line, cfg);
	ssd_snap_close(r);
	return r->error;
}

static void load_devc(struct ssd_device *dev, struct ssd_snap_reader *r, u32 *spare_out)
{
	u64 capacity = ssd_snap_get_u64(r);
	u32 spare;

	if (!r->error && capacity != dev->capacity_bytes) {
		ssd_snap_refuse(r, "a device of %llu bytes, this one has %llu",
				(unsigned long long)capacity,
				(unsigned long long)dev->capacity_bytes);
		return;
	}
	ssd_snap_get_counters(r, &dev->host);
	dev->last_arrival_ns = ssd_snap_get_ns(r, "the last arrival");
	dev->virtual_time_ns = ssd_snap_get_ns(r, "the virtual time");
	dev->request_seq = ssd_snap_get_u64(r);
	ssd_snap_get_counters(r, &dev->power);
	ssd_snap_get_array(r, dev->working_set, working_set_words(dev), sizeof(u64));
	check_working_set(dev, r);
	spare = ssd_snap_get_u32(r);
	if (!r->error && spare > SSD_PAGEPOOL_SPARE) {
		ssd_snap_refuse(r, "%u spare page buffers, at most %u", spare,
				SSD_PAGEPOOL_SPARE);
		return;
	}
	*spare_out = spare;
	ssd_controller_load(&dev->controller, r);
}

/* Every section after CONF, into @dev just created; 0 or the reader's error. */
static int load_state(struct ssd_device *dev, struct ssd_snap_reader *r)
{
	struct ssd_layer *layers[SNAP_MAX_LAYERS];
	u32 nr = layers_bottom_up(dev, layers), i, spare = 0;
	u64 len;

	for (i = 0; i < nr; i++)
		if (!layers[i]->ops->load || !layers[i]->type || !layers[i]->type->snap_tag)
			return ssd_snap_refuse(r, "layer %s cannot be loaded", layers[i]->name);
	if (!nr)
		return ssd_snap_refuse(r, "the stack is too deep");
	ssd_snap_open(r, SNAP_DEVC, U64_MAX, &len);
	load_devc(dev, r, &spare);
	ssd_snap_close(r);
	ssd_snap_open(r, SNAP_FLSH, U64_MAX, &len);
	ssd_flash_load(&dev->flash, r);
	ssd_snap_close(r);
	ssd_snap_open(r, SNAP_DATA, U64_MAX, &len);
	ssd_flash_load_data(&dev->flash, r, dev->data_limit_pages);
	ssd_snap_close(r);
	for (i = 0; i < nr && !r->error; i++) {
		ssd_snap_open(r, layers[i]->type->snap_tag, U64_MAX, &len);
		layers[i]->ops->load(layers[i], r);
		ssd_snap_close(r);
	}
	ssd_snap_open(r, SNAP_END, 0, &len);
	ssd_snap_close(r);
	/* The spare page buffers last: loading the data takes spares first. */
	if (!r->error && ssd_pagepool_reserve(&dev->pool, spare))
		r->error = -ENOMEM;
	for (i = 0; i < nr && !r->error; i++)
		if (layers[i]->ops->check(layers[i]))
			return ssd_snap_refuse(r, "the %s's state is not consistent",
					       layers[i]->name);
	return r->error;
}

int ssd_device_create_from(struct ssd_device **out, const struct ssd_config *cfg,
			   struct ssd_snap_reader *r, u64 data_pages)
{
	struct ssd_memory_plan plan;
	struct ssd_device *dev;
	int ret;

	r->dev_name = cfg->name;
	/* The data must fit before anything is allocated. */
	ret = ssd_stack_validate(cfg, ssd_default_stack, ssd_default_stack_size);
	if (!ret)
		ret = ssd_memory_plan(cfg, ssd_default_stack, ssd_default_stack_size, &plan);
	if (ret)
		return ret;
	if (data_pages > min_t(u64, plan.data_pages, ssd_config_physical_pages(cfg))) {
		ssd_dev_err(cfg->name, "snapshot refused: %llu pages of data, the device holds at most %llu (memory_limit_mb, the geometry)",
			    (unsigned long long)data_pages,
			    (unsigned long long)min_t(u64, plan.data_pages,
						      ssd_config_physical_pages(cfg)));
		return -EINVAL;
	}
	ret = ssd_device_create(&dev, cfg);
	if (ret)
		return ret;
	ret = load_state(dev, r);
	if (ret) {
		ssd_device_destroy(dev);
		return ret;
	}
	*out = dev;
	return 0;
}

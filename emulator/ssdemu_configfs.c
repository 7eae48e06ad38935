// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_configfs.c - /sys/kernel/config/ssdemu, null_blk style: mkdir
 * makes a device, one attribute per configuration key (named as in
 * configs/ *.conf; made at module load from the vocabulary,
 * device/ssd_keys.c), `power` brings the disk up and down, rmdir frees it.
 * Keys refuse writes while powered (-EBUSY); bad values get -EINVAL and a
 * kernel message naming the key and the accepted range.  The item owns the
 * configuration and the power state; a power-on's disk (ssdemu_blk.c) may
 * outlive the item.  Snapshots (ssdemu_snapshot.c): `snapshot_from` names
 * a file the next power=1 makes the device from, the keys written to the
 * item overriding the file's; writing a path to the write-only
 * `snapshot_save` saves the powered device there.  Both take absolute
 * paths only.  `inject_errors` makes sector ranges fail reads or writes
 * (device/ssd_inject.c), before and while powered.  Writing 1 to the
 * write-only `power_cut` cuts the power: the disk goes as on a forced
 * power-off, losing what was not durable (volatile_write_cache=1), and the
 * item keeps the core's durable state for the next power=1 (keys refuse
 * writes until then).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/configfs.h>
#include <linux/ctype.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "emulator/ssdemu.h"

static inline struct ssdemu_dev *to_ssdemu_dev(struct config_item *item)
{
	return container_of(item, struct ssdemu_dev, item);
}

/*
 * The configuration keys' attributes, one per key of the vocabulary
 * (device/ssd_keys.c), made at module load by ssdemu_configfs_init():
 * configfs hands show and store no attribute, so each index has its own
 * pair, which calls key_show() or key_store() with it.
 */
static const struct ssd_config_key *ssdemu_keys[SSD_CONFIG_MAX_KEYS] __ro_after_init;

static ssize_t key_show(struct config_item *item, unsigned int index, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = ssd_config_show(&dev->cfg, ssdemu_keys[index], page, PAGE_SIZE);
	mutex_unlock(&dev->lock);
	return ret;
}

static ssize_t key_store(struct config_item *item, unsigned int index,
			 const char *page, size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	const struct ssd_config_key *key = ssdemu_keys[index];
	int ret;

	mutex_lock(&dev->lock);
	if (dev->sd) {
		pr_err("%s: %s cannot change while powered (write power=0 first)\n",
		       dev->cfg.name, key->name);
		ret = -EBUSY;
	} else if (dev->cut_core) {
		pr_err("%s: %s cannot change after a power cut (write power=1 to bring the device back)\n",
		       dev->cfg.name, key->name);
		ret = -EBUSY;
	} else {
		ret = ssd_config_set_key(&dev->cfg, key, page);
	}
	/* Written: it overrides a snapshot's value (ssdemu_snapshot.c). */
	if (!ret)
		set_bit(index, dev->keys_set);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

/* The show/store pair of key index 10 * t + u. */
#define SSDEMU_KEY_FNS(t, u)						\
static ssize_t ssdemu_key_##t##u##_show(struct config_item *item, char *page) \
{									\
	return key_show(item, 10 * t + u, page);			\
}									\
static ssize_t ssdemu_key_##t##u##_store(struct config_item *item,	\
					 const char *page, size_t count) \
{									\
	return key_store(item, 10 * t + u, page, count);		\
}
#define SSDEMU_KEY_FNS10(t)						\
	SSDEMU_KEY_FNS(t, 0) SSDEMU_KEY_FNS(t, 1) SSDEMU_KEY_FNS(t, 2)	\
	SSDEMU_KEY_FNS(t, 3) SSDEMU_KEY_FNS(t, 4) SSDEMU_KEY_FNS(t, 5)	\
	SSDEMU_KEY_FNS(t, 6) SSDEMU_KEY_FNS(t, 7) SSDEMU_KEY_FNS(t, 8)	\
	SSDEMU_KEY_FNS(t, 9)
SSDEMU_KEY_FNS10(0)
SSDEMU_KEY_FNS10(1)
SSDEMU_KEY_FNS10(2)
SSDEMU_KEY_FNS10(3)
SSDEMU_KEY_FNS10(4)
SSDEMU_KEY_FNS10(5)
SSDEMU_KEY_FNS10(6)
SSDEMU_KEY_FNS10(7)
SSDEMU_KEY_FNS10(8)
SSDEMU_KEY_FNS10(9)
SSDEMU_KEY_FNS10(10)
SSDEMU_KEY_FNS10(11)
SSDEMU_KEY_FNS10(12)
SSDEMU_KEY_FNS10(13)
SSDEMU_KEY_FNS10(14)
SSDEMU_KEY_FNS10(15)

static const struct ssdemu_key_fns {
	ssize_t (*show)(struct config_item *item, char *page);
	ssize_t (*store)(struct config_item *item, const char *page, size_t count);
} ssdemu_key_fns[] = {
#define SSDEMU_KEY_FN(t, u) { ssdemu_key_##t##u##_show, ssdemu_key_##t##u##_store },
#define SSDEMU_KEY_FN10(t)						\
	SSDEMU_KEY_FN(t, 0) SSDEMU_KEY_FN(t, 1) SSDEMU_KEY_FN(t, 2)	\
	SSDEMU_KEY_FN(t, 3) SSDEMU_KEY_FN(t, 4) SSDEMU_KEY_FN(t, 5)	\
	SSDEMU_KEY_FN(t, 6) SSDEMU_KEY_FN(t, 7) SSDEMU_KEY_FN(t, 8)	\
	SSDEMU_KEY_FN(t, 9)
	SSDEMU_KEY_FN10(0) SSDEMU_KEY_FN10(1) SSDEMU_KEY_FN10(2) SSDEMU_KEY_FN10(3)
	SSDEMU_KEY_FN10(4) SSDEMU_KEY_FN10(5) SSDEMU_KEY_FN10(6) SSDEMU_KEY_FN10(7)
	SSDEMU_KEY_FN10(8) SSDEMU_KEY_FN10(9) SSDEMU_KEY_FN10(10) SSDEMU_KEY_FN10(11)
	SSDEMU_KEY_FN10(12) SSDEMU_KEY_FN10(13) SSDEMU_KEY_FN10(14) SSDEMU_KEY_FN10(15)
#undef SSDEMU_KEY_FN10
#undef SSDEMU_KEY_FN
};
static_assert(ARRAY_SIZE(ssdemu_key_fns) == SSD_CONFIG_MAX_KEYS);

static ssize_t ssdemu_power_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%d\n", READ_ONCE(to_ssdemu_dev(item)->sd) != NULL);
}

static ssize_t ssdemu_power_store(struct config_item *item, const char *page,
				  size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	unsigned int on;
	int ret;

	/* Strictly 0 or 1 (kstrtobool would take "yes" or "12abc" as 1). */
	ret = kstrtouint(page, 0, &on);
	if (ret || on > 1) {
		pr_err("%s: power refused: write 1 or 0\n", to_ssdemu_dev(item)->cfg.name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (on && !dev->sd)
		ret = ssdemu_power_on(dev);
	else if (!on)
		ret = ssdemu_power_off(dev, false);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdemu_, power);

/*
 * Write-only: 1 cuts the power (ssdemu_power_cut()): what was not durable
 * is lost, the disk goes, power reads 0, and the next power=1 brings the
 * device back with its durable state.
 */
static ssize_t ssdemu_power_cut_store(struct config_item *item, const char *page,
				      size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	unsigned int on;
	int ret;

	ret = kstrtouint(page, 0, &on);
	if (ret || on != 1) {
		ssd_dev_err(dev->cfg.name, "power_cut refused: write 1");
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	ret = ssdemu_power_cut(dev);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR_WO(ssdemu_, power_cut);

/*
 * A path written to snapshot_from or snapshot_save: absolute (the kernel
 * opens it, maybe from another process than the writer's), without the
 * trailing newline; blanks alone clear it (*@out NULL).  0 or -EINVAL,
 * logged; -ENOMEM.
 */
static int parse_path(struct ssdemu_dev *dev, const char *attr, const char *page,
		      size_t count, char **out)
{
	size_t len = count;
	char *path;

	*out = NULL;
	if (strnlen(page, count) != count) {
		ssd_dev_err(dev->cfg.name, "%s refused: the path holds a NUL byte", attr);
		return -EINVAL;
	}
	while (len && isspace(page[len - 1]))
		len--;
	if (!len)
		return 0;
	if (page[0] != '/') {
		ssd_dev_err(dev->cfg.name, "%s refused: '%.*s' is not an absolute path",
			    attr, (int)min_t(size_t, len, 64), page);
		return -EINVAL;
	}
	if (len >= PATH_MAX) {
		ssd_dev_err(dev->cfg.name, "%s refused: a path of %zu bytes, at most %d",
			    attr, len, PATH_MAX - 1);
		return -EINVAL;
	}
	path = kmemdup_nul(page, len, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	*out = path;
	return 0;
}

/* The snapshot power=1 makes the device from: a path, empty for none. */
static ssize_t ssdemu_snapshot_from_show(struct config_item *item, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%s\n", dev->snapshot_from ? dev->snapshot_from : "");
	mutex_unlock(&dev->lock);
	return ret;
}

static ssize_t ssdemu_snapshot_from_store(struct config_item *item, const char *page,
					  size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	char *path;
	int ret;

	mutex_lock(&dev->lock);
	if (dev->sd) {
		ssd_dev_err(dev->cfg.name, "snapshot_from cannot change while powered (write power=0 first)");
		ret = -EBUSY;
	} else if (dev->cut_core) {
		ssd_dev_err(dev->cfg.name, "snapshot_from cannot change after a power cut (write power=1 to bring the device back)");
		ret = -EBUSY;
	} else {
		ret = parse_path(dev, "snapshot_from", page, count, &path);
		if (!ret) {
			kfree(dev->snapshot_from);
			dev->snapshot_from = path;
		}
	}
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdemu_, snapshot_from);

/* Write-only: save the powered device to the path written. */
static ssize_t ssdemu_snapshot_save_store(struct config_item *item, const char *page,
					  size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	char *path;
	int ret;

	ret = parse_path(dev, "snapshot_save", page, count, &path);
	if (ret)
		return ret;
	if (!path) {
		ssd_dev_err(dev->cfg.name, "snapshot_save refused: write the path of the file to save to");
		return -EINVAL;
	}
	/* The item's lock keeps the disk powered: power-off waits for the save. */
	mutex_lock(&dev->lock);
	if (!dev->sd) {
		ssd_dev_err(dev->cfg.name, "snapshot_save refused: not powered, nothing to save");
		ret = -ENXIO;
	} else {
		ret = ssdemu_snapshot_save(dev->sd, path);
	}
	mutex_unlock(&dev->lock);
	kfree(path);
	return ret ? ret : count;
}
CONFIGFS_ATTR_WO(ssdemu_, snapshot_save);

/*
 * Factory bad blocks power=1 marks before first use ("12 40-43": block
 * numbers chip * blocks_per_chip + block, and ranges), empty for none.
 * Checked against the geometry when written (and again at power-on, with
 * the FTL's own checks: main region only, ftl_type=page).
 */
static ssize_t ssdemu_bad_blocks_show(struct config_item *item, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%s\n", dev->bad_blocks ? dev->bad_blocks : "");
	mutex_unlock(&dev->lock);
	return ret;
}

static ssize_t ssdemu_bad_blocks_store(struct config_item *item, const char *page,
				       size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	size_t len = count;
	char *list = NULL;
	u32 nr;
	int ret = 0;

	if (strnlen(page, count) != count) {
		ssd_dev_err(dev->cfg.name, "bad_blocks refused: the list holds a NUL byte");
		return -EINVAL;
	}
	while (len && isspace(page[len - 1]))
		len--;
	if (len) {
		list = kmemdup_nul(page, len, GFP_KERNEL);
		if (!list)
			return -ENOMEM;
	}
	mutex_lock(&dev->lock);
	if (dev->sd) {
		ssd_dev_err(dev->cfg.name, "bad_blocks cannot change while powered (write power=0 first)");
		ret = -EBUSY;
	} else if (list) {
		ret = ssd_block_list_parse(dev->cfg.name, list,
					   dev->cfg.chips * dev->cfg.blocks_per_chip, NULL, 0, &nr);
	}
	if (!ret) {
		kfree(dev->bad_blocks);
		dev->bad_blocks = list;
		list = NULL;
	}
	mutex_unlock(&dev->lock);
	kfree(list);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdemu_, bad_blocks);

/* Read-only: the block device name, empty while off. */
static ssize_t ssdemu_disk_name_show(struct config_item *item, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%s\n", dev->sd ? dev->sd->disk->disk_name : "");
	mutex_unlock(&dev->lock);
	return ret;
}
CONFIGFS_ATTR_RO(ssdemu_, disk_name);

/* Read-only: the logical capacity the configuration gives, in bytes. */
static ssize_t ssdemu_capacity_bytes_show(struct config_item *item, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%llu\n", ssd_config_logical_pages(&dev->cfg) *
			 dev->cfg.page_size_bytes);
	mutex_unlock(&dev->lock);
	return ret;
}
CONFIGFS_ATTR_RO(ssdemu_, capacity_bytes);

/*
 * inject_errors (device/ssd_inject.c): "+r 1000-1007", "+w 2048-4095",
 * "+rw 8", "-r 1000-1007", "clear"; 512-byte sectors.  Taken while off
 * (applied at power-on) and while powered (from the next request on);
 * shows the ranges, one "r|w|rw FIRST-LAST" a line.
 */
static ssize_t ssdemu_inject_errors_show(struct config_item *item, char *page)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = ssd_inject_show(&dev->inject, page, PAGE_SIZE);
	mutex_unlock(&dev->lock);
	return ret;
}

static ssize_t ssdemu_inject_errors_store(struct config_item *item, const char *page,
					  size_t count)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);
	char *cmd;
	u64 capacity;
	int ret;

	cmd = kstrndup(page, count, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	mutex_lock(&dev->lock);
	capacity = dev->sd ? ssd_device_capacity_bytes(dev->sd->core) :
		   ssd_config_logical_pages(&dev->cfg) * dev->cfg.page_size_bytes;
	/* A refused command leaves the list as it was. */
	ret = ssd_inject_command(&dev->inject, cmd, capacity, dev->cfg.name);
	if (!ret && dev->sd)
		ssd_device_set_inject(dev->sd->core, &dev->inject);
	mutex_unlock(&dev->lock);
	kfree(cmd);
	return ret ? ret : count;
}
CONFIGFS_ATTR(ssdemu_, inject_errors);

/* A device's attributes beside its keys'. */
static struct configfs_attribute *const ssdemu_other_attrs[] = {
	&ssdemu_attr_power,
	&ssdemu_attr_power_cut,
	&ssdemu_attr_snapshot_from,
	&ssdemu_attr_bad_blocks,
	&ssdemu_attr_snapshot_save,
	&ssdemu_attr_disk_name,
	&ssdemu_attr_capacity_bytes,
	&ssdemu_attr_inject_errors,
};

/* The keys' attributes, made by ssdemu_configfs_init(). */
static struct configfs_attribute ssdemu_key_attrs[SSD_CONFIG_MAX_KEYS] __ro_after_init;

/* A device's attributes: the keys', the others', NULL. */
static struct configfs_attribute *
ssdemu_dev_attrs[SSD_CONFIG_MAX_KEYS + ARRAY_SIZE(ssdemu_other_attrs) + 1] __ro_after_init;

/*
 * rmdir: the last reference to the item.  Power-off cannot be refused here
 * (an open disk dies under its openers); the disk, if still open, lives on
 * without the item.
 */
static void ssdemu_dev_release(struct config_item *item)
{
	struct ssdemu_dev *dev = to_ssdemu_dev(item);

	mutex_lock(&dev->lock);
	ssdemu_power_off(dev, true);
	if (dev->cut_core)
		ssd_device_destroy(dev->cut_core);
	mutex_unlock(&dev->lock);
	mutex_destroy(&dev->lock);
	kfree(dev->snapshot_from);
	kfree(dev->bad_blocks);
	kfree(dev);
}

static struct configfs_item_operations ssdemu_dev_ops = {
	.release = ssdemu_dev_release,
};

static const struct config_item_type ssdemu_dev_type = {
	.ct_item_ops = &ssdemu_dev_ops,
	.ct_attrs = ssdemu_dev_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_item *ssdemu_make_item(struct config_group *group,
					    const char *name)
{
	struct ssdemu_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return ERR_PTR(-ENOMEM);
	mutex_init(&dev->lock);
	ssd_config_defaults(&dev->cfg);
	/* The core's messages and the glue's name the device by it. */
	ssd_config_set_name(&dev->cfg, name);
	config_item_init_type_name(&dev->item, name, &ssdemu_dev_type);
	return &dev->item;
}

static void ssdemu_drop_item(struct config_group *group, struct config_item *item)
{
	config_item_put(item);
}

/*
 * Read-only, at the top: every key a device accepts, a name per line (the
 * help texts do not fit a page: ssdsim --list-keys prints them;
 * ssd_config_keys_check(), at module load, holds the names to
 * SSD_CONFIG_FEATURES_BYTES).
 */
static ssize_t ssdemu_group_features_show(struct config_item *item, char *page)
{
	ssize_t len = 0;
	unsigned int i;

	for (i = 0; i < SSD_CONFIG_MAX_KEYS && ssdemu_keys[i]; i++)
		len += scnprintf(page + len, PAGE_SIZE - len, "%s\n", ssdemu_keys[i]->name);
	return len;
}
CONFIGFS_ATTR_RO(ssdemu_group_, features);

static struct configfs_attribute *ssdemu_group_attrs[] = {
	&ssdemu_group_attr_features,
	NULL,
};

static struct configfs_group_operations ssdemu_group_ops = {
	.make_item = ssdemu_make_item,
	.drop_item = ssdemu_drop_item,
};

static const struct config_item_type ssdemu_group_type = {
	.ct_group_ops = &ssdemu_group_ops,
	.ct_attrs = ssdemu_group_attrs,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem ssdemu_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = "ssdemu",
			.ci_type = &ssdemu_group_type,
		},
	},
};

/* One attribute per key of the vocabulary, then the others. */
static int make_dev_attrs(void)
{
	unsigned int nr = ssd_config_nr_keys(), i;

	if (nr > SSD_CONFIG_MAX_KEYS) {
		pr_err("%u configuration keys, at most %u (SSD_CONFIG_MAX_KEYS)\n", nr,
		       SSD_CONFIG_MAX_KEYS);
		return -E2BIG;
	}
	for (i = 0; i < nr; i++) {
		ssdemu_keys[i] = ssd_config_key_at(i);
		ssdemu_key_attrs[i] = (struct configfs_attribute) {
			.ca_name = ssdemu_keys[i]->name,
			.ca_owner = THIS_MODULE,
			.ca_mode = 0644,
			.show = ssdemu_key_fns[i].show,
			.store = ssdemu_key_fns[i].store,
		};
		ssdemu_dev_attrs[i] = &ssdemu_key_attrs[i];
	}
	memcpy(&ssdemu_dev_attrs[nr], ssdemu_other_attrs, sizeof(ssdemu_other_attrs));
	return 0;
}

int ssdemu_configfs_init(void)
{
	int ret = make_dev_attrs();

	if (ret)
		return ret;
	config_group_init(&ssdemu_subsys.su_group);
	mutex_init(&ssdemu_subsys.su_mutex);
	return configfs_register_subsystem(&ssdemu_subsys);
}

void ssdemu_configfs_exit(void)
{
	configfs_unregister_subsystem(&ssdemu_subsys);
}

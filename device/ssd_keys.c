// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_keys.c - the vocabulary: every key a device takes, collected from
 * the core's keys (common/ssd_config.h) and the registries of the layers
 * of the default stack, bottom first (the FTL's, the SLC cache's: each
 * layer type's selectors), each selector followed by the keys its
 * registry's entries own, in the registries' order.  Listing, finding and setting keys by
 * name, the kernel's check of ssdsim-only keys, and which entry owns a
 * key, all go through the one walk below; nothing is cached, so there is
 * no state beyond the const tables it walks.  A key two entries of a
 * registry list (ftl_log_blocks: bast and fast) is collected once, where
 * it first appears.
 */
#include "device/ssd_device_internal.h"

/* The keys entry @value of @sel's registry owns (NULL-terminated), or NULL. */
static const struct ssd_config_key *const *entry_keys(const struct ssd_config_key *sel,
						      u32 value)
{
	return sel->choice->keys ? sel->choice->keys(value) : NULL;
}

static bool lists(const struct ssd_config_key *sel, u32 value, const struct ssd_config_key *key)
{
	const struct ssd_config_key *const *k;

	for (k = entry_keys(sel, value); k && *k; k++)
		if (*k == key)
			return true;
	return false;
}

/* Whether no entry of @sel's registry before @value lists @key. */
static bool first_listed(const struct ssd_config_key *sel, u32 value,
			 const struct ssd_config_key *key)
{
	u32 v;

	for (v = 0; v < value; v++)
		if (lists(sel, v, key))
			return false;
	return true;
}

/*
 * Called for each key in order with its place and its registry's selector
 * (NULL for the core's keys and the selectors); true stops the walk.
 */
typedef bool (*key_visit_fn)(const struct ssd_config_key *key, u32 index,
			     const struct ssd_config_key *sel, void *arg);

/* Walk the vocabulary; the key the walk stopped at, or NULL. */
static const struct ssd_config_key *walk(key_visit_fn visit, void *arg)
{
	const struct ssd_config_key *const *sel, *const *k;
	u32 index = 0, t, v;

	for (v = 0; v < ssd_config_nr_core_keys; v++)
		if (visit(&ssd_config_core_keys[v], index++, NULL, arg))
			return &ssd_config_core_keys[v];
	for (t = ssd_default_stack_size; t-- > 0;) {
		for (sel = ssd_default_stack[t]->selectors; sel && *sel; sel++) {
			if (visit(*sel, index++, NULL, arg))
				return *sel;
			for (v = 0; v < (*sel)->choice->nr; v++)
				for (k = entry_keys(*sel, v); k && *k; k++)
					if (first_listed(*sel, v, *k) &&
					    visit(*k, index++, *sel, arg))
						return *k;
		}
	}
	return NULL;
}

static bool count_key(const struct ssd_config_key *key, u32 index,
		      const struct ssd_config_key *sel, void *arg)
{
	(*(unsigned int *)arg)++;
	return false;
}

unsigned int ssd_config_nr_keys(void)
{
	unsigned int n = 0;

	walk(count_key, &n);
	return n;
}

static bool at_index(const struct ssd_config_key *key, u32 index,
		     const struct ssd_config_key *sel, void *arg)
{
	return index == *(unsigned int *)arg;
}

const struct ssd_config_key *ssd_config_key_at(unsigned int index)
{
	return walk(at_index, &index);
}

static bool named(const struct ssd_config_key *key, u32 index,
		  const struct ssd_config_key *sel, void *arg)
{
	return !ssd_strcmp(key->name, arg);
}

const struct ssd_config_key *ssd_config_find(const char *name)
{
	return walk(named, (void *)name);
}

/* What the walk found of one key: its place and its selector. */
struct key_place {
	const struct ssd_config_key *key;
	u32 index;
	const struct ssd_config_key *sel;
};

static bool place_of(const struct ssd_config_key *key, u32 index,
		     const struct ssd_config_key *sel, void *arg)
{
	struct key_place *p = arg;

	if (key != p->key)
		return false;
	p->index = index;
	p->sel = sel;
	return true;
}

int ssd_config_key_index(const struct ssd_config_key *key)
{
	struct key_place p = { .key = key };

	return walk(place_of, &p) ? (int)p.index : -ENOENT;
}

const struct ssd_config_key *ssd_config_key_selector(const struct ssd_config_key *key)
{
	struct key_place p = { .key = key };

	return walk(place_of, &p) ? p.sel : NULL;
}

bool ssd_config_key_owned_by(const struct ssd_config_key *key, u32 value)
{
	const struct ssd_config_key *sel = ssd_config_key_selector(key);

	return sel && value < sel->choice->nr && lists(sel, value, key);
}

int ssd_config_set(struct ssd_config *cfg, const char *name, const char *value)
{
	const struct ssd_config_key *key = ssd_config_find(name);

	if (!key) {
		ssd_dev_err(cfg->name, "unknown configuration key '%s'", name);
		return -ENOENT;
	}
	return ssd_config_set_key(cfg, key, value);
}

const char *ssd_config_choice_name(const struct ssd_config *cfg, const char *name)
{
	const struct ssd_config_key *key = ssd_config_find(name);

	if (!key || !(key->flags & SSD_KEY_ENUM))
		return NULL;
	return key->choice->name(ssd_config_get(cfg, key));
}

/* The first ssdsim-only key of @arg (a struct ssd_config) not at its default. */
static bool sim_only_changed(const struct ssd_config_key *key, u32 index,
			     const struct ssd_config_key *sel, void *arg)
{
	const struct ssd_config *cfg = arg;
	u64 value = ssd_config_get(cfg, key);

	if (!(key->flags & SSD_KEY_SIM_ONLY) || value == key->default_value)
		return false;
	/* The kernel keeps bytes: a snapshot ssdsim saved with --data loads. */
	return ssd_strcmp(key->name, "data_store") || value != SSD_DATA_BYTES;
}

int ssd_config_check_kernel(const struct ssd_config *cfg)
{
	const struct ssd_config_key *key = walk(sim_only_changed, (void *)cfg);
	char value[64];
	size_t len;

	if (!key)
		return 0;
	ssd_config_show(cfg, key, value, sizeof(value));
	len = ssd_strlen(value);
	if (len && value[len - 1] == '\n')
		value[len - 1] = '\0';
	ssd_dev_err(cfg->name, "%s=%s refused: ssdsim only; the kernel module accepts %s only",
		    key->name, value, (key->flags & SSD_KEY_ENUM) ?
		    key->choice->name(key->default_value) : "the default");
	return -EINVAL;
}

/* What ssd_config_keys_check() counts over the walk; the first fault found. */
struct keys_census {
	unsigned int keys, owned;
	size_t features_bytes;
	const struct ssd_config_key *bad;
	const char *why;
};

static bool census_key(const struct ssd_config_key *key, u32 index,
		       const struct ssd_config_key *sel, void *arg)
{
	struct keys_census *c = arg;
	const struct ssd_config_key *first = ssd_config_find(key->name);

	c->keys++;
	c->owned += !!(key->flags & SSD_KEY_OWNED);
	c->features_bytes += ssd_strlen(key->name) + 1;
	if (first != key)
		c->why = "its name is another key's";
	else if (!!sel != !!(key->flags & SSD_KEY_OWNED))
		c->why = sel ? "a policy's key not declared with SSD_CONFIG_KEY()" :
			 "declared with SSD_CONFIG_KEY() but no policy's";
	else if (!key->help || !key->help[0])
		c->why = "it has no help";
	else if ((key->flags & SSD_KEY_ENUM) && (!key->choice || !key->choice->nr))
		c->why = "an enum key without values";
	else if (key->default_value < key->min_value ||
		 key->default_value > ssd_config_key_max(key))
		c->why = "its default is outside its range";
	else
		return false;
	c->bad = key;
	return true;
}

int ssd_config_keys_check(void)
{
	struct keys_census c = { 0 };

	if (walk(census_key, &c)) {
		ssd_log_err("configuration key %s refused: %s", c.bad->name, c.why);
		return -EINVAL;
	}
	if (c.keys > SSD_CONFIG_MAX_KEYS || c.owned > SSD_CONFIG_MAX_OWNED_KEYS ||
	    c.features_bytes >= SSD_CONFIG_FEATURES_BYTES) {
		ssd_log_err("%u configuration keys (%u of policies, names %zu bytes): at most %u (%u, %u bytes; common/ssd_config.h)",
			    c.keys, c.owned, c.features_bytes, SSD_CONFIG_MAX_KEYS,
			    SSD_CONFIG_MAX_OWNED_KEYS, SSD_CONFIG_FEATURES_BYTES - 1);
		return -EINVAL;
	}
	return 0;
}

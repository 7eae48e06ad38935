// SPDX-License-Identifier: GPL-2.0
/*
 * sim_keys.c - the configuration keys as ssdsim shows them (sim_keys.h):
 * the layer of each key, --list-keys in its three forms (the JSON one as
 * values, which libssdsim.so hands out too), and the table of keys
 * without effect in a configuration.  The keys are the vocabulary's
 * (device/ssd_keys.c); a policy's keys go with their registry's selector,
 * so a new policy needs nothing here.
 */
#include <stdio.h>
#include <string.h>

#include "device/ssd_device.h"
#include "tools/ssdsim/sim_keys.h"
#include "tools/ssdsim/sim_values.h"
#include "tools/msg/msg.h"

/* The layers, in the order --list-keys shows them. */
static const char *const groups[] = {
	"flash geometry and timing", "FTL", "write cache", "dedup", "device and host",
};

/*
 * Name prefixes of each layer's keys; a key matching none is "device and
 * host".  A policy's key is in its registry's selector's layer.
 */
static const struct {
	const char *prefix;
	unsigned int group;
} group_prefixes[] = {
	{ "page_size_bytes", 0 }, { "pages_per_block", 0 }, { "blocks_per_chip", 0 },
	{ "slc_", 0 }, { "chips", 0 }, { "channel", 0 }, { "read_ns", 0 },
	{ "read_lsb_ns", 0 }, { "read_csb_ns", 0 }, { "read_msb_ns", 0 },
	{ "read_priority", 0 }, { "program_", 0 }, { "erase_ns", 0 },
	{ "op_percent", 1 }, { "gc_", 1 }, { "wl_", 1 }, { "ftl_", 1 },
	{ "read_unwritten_flash", 1 },
	{ "cache_", 2 },
	{ "dedup", 3 },
};

static bool has_prefix(const char *name, const char *prefix)
{
	return !strncmp(name, prefix, strlen(prefix));
}

const char *sim_key_group(const struct ssd_config_key *key)
{
	const struct ssd_config_key *sel = ssd_config_key_selector(key);

	if (sel)
		key = sel;
	for (size_t i = 0; i < sizeof(group_prefixes) / sizeof(group_prefixes[0]); i++)
		if (has_prefix(key->name, group_prefixes[i].prefix))
			return groups[group_prefixes[i].group];
	return groups[4];
}

static bool kernel_only(const struct ssd_config_key *key)
{
	return key->flags & SSD_KEY_KERNEL_ONLY;
}

static bool sim_only(const struct ssd_config_key *key)
{
#ifdef SSD_KEY_SIM_ONLY
	return key->flags & SSD_KEY_SIM_ONLY;
#else
	return false;
#endif
}

/* @key's default as it would be written ("page", "4096"). */
static void default_text(const struct ssd_config_key *key, char *buf, size_t bytes)
{
	struct ssd_config cfg;

	ssd_config_defaults(&cfg);
	ssd_config_show(&cfg, key, buf, bytes);
	buf[strcspn(buf, "\n")] = '\0';
}

/* "512..65536, a power of 2", or an enum key's names "page|block|...". */
static void range_text(const struct ssd_config_key *key, char *buf, size_t bytes)
{
	size_t used = 0;

	buf[0] = '\0';
	if (key->flags & SSD_KEY_ENUM) {
		for (u32 v = 0; v < key->choice->nr && used < bytes; v++)
			used += snprintf(buf + used, bytes - used, "%s%s", v ? "|" : "",
					 key->choice->name(v));
		return;
	}
	used = snprintf(buf, bytes, "%llu..%llu", (unsigned long long)key->min_value,
			(unsigned long long)key->max_value);
	if (key->flags & SSD_KEY_POW2 && used < bytes)
		snprintf(buf + used, bytes - used, ", power of 2");
}

static void print_text_key(FILE *out, const struct ssd_config_key *key)
{
	char def[64], range[256];

	default_text(key, def, sizeof(def));
	range_text(key, range, sizeof(range));
	fprintf(out, "  %-28s %-10s %s%s%s\n", key->name, def, range,
		kernel_only(key) ? "  [kernel only]" : "",
		sim_only(key) ? "  [ssdsim only]" : "");
	fprintf(out, "  %-28s %s\n", "", key->help);
}

static void list_text(FILE *out)
{
	fprintf(out, "Configuration keys (key=value on the command line, in a .conf file, in configfs\n"
		"and `ssdctl create`): name, default, range, help.  Byte keys (*_bytes, and\n"
		"*_mb in MiB) take binary sizes too: 8KiB, 4k, 1GiB (K = KiB = 1024; kB and MB\n"
		"are refused).  [kernel only]: ssdsim accepts and ignores it.\n");
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		fprintf(out, "\n%s\n", groups[g]);
		for (unsigned int k = 0, nr = ssd_config_nr_keys(); k < nr; k++)
			if (sim_key_group(ssd_config_key_at(k)) == groups[g])
				print_text_key(out, ssd_config_key_at(k));
	}
}

void sim_keys_values(struct sim_values *vs)
{
	sim_values_array(vs, NULL);
	for (unsigned int k = 0, nr = ssd_config_nr_keys(); k < nr; k++) {
		const struct ssd_config_key *key = ssd_config_key_at(k);
		char def[64], help[512];

		default_text(key, def, sizeof(def));
		ssd_config_describe(key, help, sizeof(help));
		sim_values_object(vs, NULL);
		sim_values_text(vs, "name", key->name);
		sim_values_text(vs, "group", sim_key_group(key));
		sim_values_text(vs, "default", def);
		if (key->flags & SSD_KEY_ENUM) {
			sim_values_null(vs, "min");
			sim_values_null(vs, "max");
			sim_values_array(vs, "choices");
			for (u32 v = 0; v < key->choice->nr; v++)
				sim_values_text(vs, NULL, key->choice->name(v));
			sim_values_end(vs);
		} else {
			sim_values_uint(vs, "min", key->min_value);
			sim_values_uint(vs, "max", key->max_value);
			sim_values_null(vs, "choices");
		}
		sim_values_bool(vs, "power_of_2", key->flags & SSD_KEY_POW2);
		sim_values_uint(vs, "unit_bytes", ssd_config_key_unit_bytes(key));
		sim_values_bool(vs, "kernel_only", kernel_only(key));
		sim_values_bool(vs, "sim_only", sim_only(key));
		sim_values_text(vs, "help", help);
		sim_values_end(vs);
	}
	sim_values_end(vs);
}

static void list_tsv(FILE *out)
{
	for (unsigned int k = 0, nr = ssd_config_nr_keys(); k < nr; k++) {
		const struct ssd_config_key *key = ssd_config_key_at(k);
		char def[64], help[512];

		default_text(key, def, sizeof(def));
		ssd_config_describe(key, help, sizeof(help));
		fprintf(out, "%s\t%s\t%s\n", key->name, def, help);
	}
}

void sim_keys_print(FILE *out, enum sim_keys_form form, const struct sim_values *keys)
{
	if (form == SIM_KEYS_JSON)
		sim_values_print_json(out, keys);
	else if (form == SIM_KEYS_TSV)
		list_tsv(out);
	else
		list_text(out);
}

/*
 * The table of keys without effect.  A rule covers the keys named
 * @prefix (a whole name, or a prefix), but @except; @inert says why the
 * key does nothing in @cfg (into @why), or returns 0.  @arg is its
 * argument.  A policy's keys are covered by their registry's selector's
 * rules too, and do nothing unless the selector names a policy that owns
 * them (not_owner()): none of them needs a line here.
 */
struct inert_rule {
	const char *prefix;
	const char *except;
	int (*inert)(const struct ssd_config *cfg, const char *arg, char *why, size_t n);
	const char *arg;
};

static int no_cache(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	if (cfg->cache_policy)
		return 0;
	return snprintf(why, n, "cache_policy=none: there is no write cache");
}

static int no_destage(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	if (!cfg->cache_policy || cfg->cache_destage_high_percent)
		return 0;
	return snprintf(why, n, "cache_destage_high_percent=0: background destage is off");
}

/* @arg "1": procache_p_vector=1 (the classes), "0": the single p. */
static int p_form(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	const struct ssd_config_key *form = ssd_config_find("procache_p_vector");
	u64 vector = arg[0] == '1';

	if (!form || !cfg->cache_policy || ssd_config_get(cfg, form) != vector)
		return 0;
	return snprintf(why, n, "procache_p_vector=%llu: %s is used",
			(unsigned long long)vector,
			vector ? "p by size class (procache_p_classK_ppm)" : "procache_p_ppm");
}

static int no_dedup(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	if (cfg->dedup)
		return 0;
	return snprintf(why, n, "dedup=0: deduplication is off");
}

static int no_filter(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	if (!cfg->dedup || cfg->dedup_filter)
		return 0;
	return snprintf(why, n, "dedup_filter=0: no sampling filter");
}

static int no_slc(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	if (cfg->slc_blocks_per_chip)
		return 0;
	return snprintf(why, n, "slc_blocks_per_chip=0: there is no SLC region");
}

static int kernel_glue(const struct ssd_config *cfg, const char *arg, char *why, size_t n)
{
	return snprintf(why, n, "only the kernel's blk-mq glue uses it; ssdsim ignores it");
}

static const struct inert_rule inert_rules[] = {
	{ "cache_", "cache_policy", no_cache, NULL },
	{ "procache_p_class", NULL, p_form, "0" },
	{ "procache_p_ppm", NULL, p_form, "1" },
	{ "cache_destage_low_percent", NULL, no_destage, NULL },
	{ "dedup_", NULL, no_dedup, NULL },
	{ "dedup_sample_", NULL, no_filter, NULL },
	{ "dedup_filter_live_chunks", NULL, no_filter, NULL },
	{ "slc_", "slc_blocks_per_chip", no_slc, NULL },
	{ "hw_queues", NULL, kernel_glue, NULL },
	{ "queue_depth", NULL, kernel_glue, NULL },
};

/*
 * The first rule covering @name that finds it inert; a policy's key's
 * selector (@selector) is covered by its rules' exceptions too: without
 * a cache (cache_policy=none) the admission policies' keys do nothing.
 */
static int rules_inert(const struct ssd_config *cfg, const char *name, bool selector,
		       char *why, size_t why_bytes)
{
	for (size_t i = 0; i < sizeof(inert_rules) / sizeof(inert_rules[0]); i++) {
		const struct inert_rule *r = &inert_rules[i];

		if (!has_prefix(name, r->prefix) ||
		    (!selector && r->except && !strcmp(name, r->except)))
			continue;
		if (r->inert(cfg, r->arg, why, why_bytes))
			return 1;
	}
	return 0;
}

/* @key, a policy's, when @sel (its registry's selector) names none that owns it. */
static int not_owner(const struct ssd_config *cfg, const struct ssd_config_key *key,
		     const struct ssd_config_key *sel, char *why, size_t n)
{
	u64 value = ssd_config_get(cfg, sel);
	const char *current = sel->choice->name(value);
	unsigned int owners = 0;
	char names[256] = "";
	size_t used = 0;

	if (ssd_config_key_owned_by(key, value))
		return 0;
	for (u32 v = 0; v < sel->choice->nr && used < sizeof(names); v++)
		if (ssd_config_key_owned_by(key, v))
			used += snprintf(names + used, sizeof(names) - used, "%s%s",
					 owners++ ? "," : "", sel->choice->name(v));
	if (owners > 1)
		return snprintf(why, n, "it tunes %s in {%s}, and %s=%s", sel->name, names,
				sel->name, current);
	return snprintf(why, n, "it tunes %s=%s, and %s=%s", sel->name, names, sel->name,
			current);
}

int sim_key_inert(const struct ssd_config *cfg, const struct ssd_config_key *key,
		  char *why, size_t why_bytes)
{
	const struct ssd_config_key *sel = ssd_config_key_selector(key);

	if (sel && (rules_inert(cfg, sel->name, true, why, why_bytes) ||
		    not_owner(cfg, key, sel, why, why_bytes)))
		return 1;
	return rules_inert(cfg, key->name, false, why, why_bytes);
}

int sim_keys_warn_inert(const struct ssd_config *cfg, char *const *pairs, int nr)
{
	int warned = 0;

	for (int i = 0; i < nr; i++) {
		const struct ssd_config_key *key;
		size_t len = strcspn(pairs[i], "=");
		char name[64], why[160];

		if (len >= sizeof(name))
			continue;
		memcpy(name, pairs[i], len);
		name[len] = '\0';
		key = ssd_config_find(name);
		if (key && sim_key_inert(cfg, key, why, sizeof(why))) {
			msg_say("ssdsim: warning: %s has no effect here: %s\n", pairs[i],
				why);
			warned++;
		}
	}
	return warned;
}

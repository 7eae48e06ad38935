// SPDX-License-Identifier: GPL-2.0
/*
 * test_config.c - the configuration vocabulary: every value is parsed,
 * range-checked and cross-validated the same way configfs will do it.
 */
#include "unit.h"

static void expect_set(struct ssd_config *cfg, const char *key, const char *value,
		       int expected)
{
	int ret = ssd_config_set(cfg, key, value);

	EXPECT(ret == expected, "%s=%s returned %d, expected %d", key, value, ret,
	       expected);
}

static void expect_invalid_after(const char *key, const char *value)
{
	struct ssd_config cfg;

	ssd_config_defaults(&cfg);
	expect_set(&cfg, key, value, 0);
	EXPECT(ssd_device_validate_config(&cfg) == -EINVAL, "%s=%s validated", key, value);
}

/* @key=@value accepted as @expected (in the key's own unit). */
static void expect_size(const char *key, const char *value, u64 expected)
{
	struct ssd_config cfg;
	u64 got;

	ssd_config_defaults(&cfg);
	expect_set(&cfg, key, value, 0);
	got = ssd_config_get(&cfg, ssd_config_find(key));
	EXPECT(got == expected, "%s=%s gave %llu, expected %llu", key, value,
	       (unsigned long long)got, (unsigned long long)expected);
}

/* Byte-valued keys take binary size suffixes (ssd_config.h). */
static void test_byte_suffixes(void)
{
	struct ssd_config cfg;
	u64 v;

	expect_size("page_size_bytes", "8KiB", 8192);
	expect_size("page_size_bytes", "16k", 16384);
	expect_size("page_size_bytes", "2K\n", 2048);
	expect_size("dedup_buffer_bytes", "32MiB", 32ULL << 20);
	expect_size("dedup_buffer_bytes", "1TiB", 1ULL << 40);
	expect_size("procache_c_bytes", "64K", 65536);
	expect_size("procache_c_bytes", "010K", 10240);	/* decimal, not octal */
	expect_size("procache_c_bytes", "0K", 0);
	expect_size("procache_c_bytes", "0x10", 16);	/* no suffix: as before */
	expect_size("procache_c_bytes", "16777215T", 16777215ULL << 40);
	expect_size("memory_limit_mb", "2GiB", 2048);
	expect_size("memory_limit_mb", "3M", 3);
	expect_size("memory_limit_mb", "512", 512);	/* MiB, as before */
	expect_size("memory_limit_mb", "1T", 1ULL << 20);
	ssd_config_defaults(&cfg);
	expect_set(&cfg, "page_size_bytes", "8XiB", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "8KB", -EINVAL);	/* decimal: refused */
	expect_set(&cfg, "page_size_bytes", "8kB", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "8 KiB", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "KiB", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "-8K", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "+8K", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "1.5K", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "8KiBKiB", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "128K", -EINVAL);	/* over its max */
	expect_set(&cfg, "page_size_bytes", "3K", -EINVAL);	/* not a power of two */
	expect_set(&cfg, "procache_c_bytes", "16777216T", -EINVAL);	/* 2^64: overflow */
	expect_set(&cfg, "procache_c_bytes", "99999999999999999999999K", -EINVAL);
	expect_set(&cfg, "memory_limit_mb", "1536KiB", -EINVAL);	/* 1.5 MiB */
	expect_set(&cfg, "memory_limit_mb", "100", 0);
	expect_set(&cfg, "memory_limit_mb", "17TiB", -EINVAL);	/* over 16 TiB */
	EXPECT(cfg.page_size_bytes == 4096 &&
	       ssd_config_get(&cfg, ssd_config_find("procache_c_bytes")) == 0 &&
	       cfg.memory_limit_mb == 100, "a refused size changed the configuration");
	/* Keys that are not sizes take no suffix. */
	expect_set(&cfg, "chips", "8K", -EINVAL);
	expect_set(&cfg, "channel_mb_per_s", "1K", -EINVAL);
	expect_set(&cfg, "program_ns", "1K", -EINVAL);
	EXPECT(ssd_parse_bytes("4k", 1, &v) == 0 && v == 4096, "4k");
	EXPECT(ssd_parse_bytes("1GiB", 4096, &v) == 0 && v == 262144, "1GiB in pages");
	EXPECT(ssd_parse_bytes("6K", 4096, &v) == -EDOM, "6K in pages");
	EXPECT(ssd_parse_bytes("16777216T", 1, &v) == -ERANGE, "2^64 T");
	EXPECT(ssd_parse_bytes("8XiB", 1, &v) == -EINVAL, "8XiB");
}

/*
 * The vocabulary (device/ssd_keys.c): the core's keys, then each registry's
 * selector and its entries' keys, each key once, found by name and index;
 * a policy's key's value kept in the configuration, its default until set.
 */
static void test_vocabulary(void)
{
	static const struct ssd_config_key many[SSD_CONFIG_MAX_OWNED_KEYS + 1] = {
		[0 ... SSD_CONFIG_MAX_OWNED_KEYS] =
			SSD_CONFIG_KEY(unit_key, 7, 0, 9, 0, NULL, "a unit test's key"),
	};
	const struct ssd_config_key *plc_delay = ssd_config_find("plc_delay");
	const struct ssd_config_key *log_blocks = ssd_config_find("ftl_log_blocks");
	const struct ssd_config_key *policy = ssd_config_find("cache_policy");
	const struct ssd_config_key *type = ssd_config_find("ftl_type");
	unsigned int nr = ssd_config_nr_keys(), i, named;
	struct ssd_config cfg, copy;

	EXPECT(ssd_config_keys_check() == 0, "the vocabulary does not hold together");
	for (i = 0; i < nr; i++) {
		const struct ssd_config_key *key = ssd_config_key_at(i);

		EXPECT(key && ssd_config_find(key->name) == key, "key %u", i);
		EXPECT(ssd_config_key_index(key) == (int)i, "%s's index", key->name);
		EXPECT(i >= ssd_config_nr_core_keys || key == &ssd_config_core_keys[i],
		       "%s: the core's keys come first, in order", key->name);
		EXPECT(!ssd_config_key_selector(key) == !(key->flags & SSD_KEY_OWNED),
		       "%s: owned, or a registry's", key->name);
	}
	EXPECT(!ssd_config_key_at(nr), "a key past the last");
	EXPECT(ssd_config_key_index(&many[0]) == -ENOENT, "a key of no registry has an index");
	/* A policy's key: its registry, its owner, its place. */
	EXPECT(plc_delay && log_blocks && policy && type, "keys missing");
	EXPECT(ssd_config_key_selector(plc_delay) == policy, "plc_delay's registry");
	EXPECT(ssd_config_key_index(plc_delay) > ssd_config_key_index(policy),
	       "a policy's key before its selector");
	for (i = 0; i < policy->choice->nr; i++)
		EXPECT(ssd_config_key_owned_by(plc_delay, i) ==
		       !strcmp(policy->choice->name(i), "plc"), "plc_delay owned by %s",
		       policy->choice->name(i));
	/* Shared by bast and fast, listed by both, collected once. */
	EXPECT(ssd_config_key_selector(log_blocks) == type, "ftl_log_blocks' registry");
	for (i = 0, named = 0; i < type->choice->nr; i++)
		named += ssd_config_key_owned_by(log_blocks, i);
	EXPECT(named == 2, "ftl_log_blocks owned by %u schemes", named);
	for (i = 0, named = 0; i < nr; i++)
		named += !strcmp(ssd_config_key_at(i)->name, "ftl_log_blocks");
	EXPECT(named == 1, "ftl_log_blocks listed %u times", named);
	EXPECT(!ssd_config_key_selector(policy) && !ssd_config_key_selector(type),
	       "a selector is a registry's own key");

	/* Values: the default until set, set once, the configuration's own. */
	ssd_config_defaults(&cfg);
	EXPECT(cfg.nr_owned == 0 && ssd_config_get(&cfg, plc_delay) == 2, "plc_delay default");
	expect_set(&cfg, "plc_delay", "5", 0);
	expect_set(&cfg, "plc_delay", "6\n", 0);
	expect_set(&cfg, "plc_delay", "256", -EINVAL);
	EXPECT(cfg.nr_owned == 1 && ssd_config_get(&cfg, plc_delay) == 6, "plc_delay set");
	copy = cfg;
	expect_set(&copy, "plc_delay", "1", 0);
	EXPECT(ssd_config_get(&cfg, plc_delay) == 6 && ssd_config_get(&copy, plc_delay) == 1,
	       "a copy shares a value");
	EXPECT(!strcmp(ssd_config_choice_name(&cfg, "cache_policy"), "none"), "cache_policy");
	/* As many owned values as a configuration holds, and no more. */
	ssd_config_defaults(&cfg);
	for (i = 0; i < SSD_CONFIG_MAX_OWNED_KEYS; i++)
		EXPECT(ssd_config_put(&cfg, &many[i], i % 10) == 0, "owned value %u", i);
	EXPECT(ssd_config_put(&cfg, &many[i], 1) == -ENOSPC, "one owned value too many");
	EXPECT(ssd_config_get(&cfg, &many[3]) == 3 && ssd_config_get(&cfg, &many[i]) == 7,
	       "owned values");
}

int test_config(int argc, char **argv)
{
	const struct ssd_config_key *key;
	struct ssd_config cfg;
	char buf[64];

	size_t features_bytes = 0;
	unsigned int k;

	ssd_config_defaults(&cfg);
	EXPECT(ssd_device_validate_config(&cfg) == 0, "defaults must validate");
	/* The module's configfs `features`: every name and its newline in a page. */
	for (k = 0; k < ssd_config_nr_keys(); k++)
		features_bytes += strlen(ssd_config_key_at(k)->name) + 1;
	EXPECT(features_bytes < SSD_CONFIG_FEATURES_BYTES,
	       "the key names (%zu bytes) no longer fit configfs features", features_bytes);

	ssd_log_quiet = 1;
	/* Values refused when written. */
	expect_set(&cfg, "no_such_key", "1", -ENOENT);
	expect_set(&cfg, "chips", "0", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "3000", -EINVAL);
	expect_set(&cfg, "page_size_bytes", "131072", -EINVAL);
	expect_set(&cfg, "op_percent", "100", -EINVAL);
	expect_set(&cfg, "op_percent", "0", -EINVAL);
	expect_set(&cfg, "chips", "-1", -EINVAL);
	expect_set(&cfg, "chips", "", -EINVAL);
	expect_set(&cfg, "chips", "\n", -EINVAL);
	expect_set(&cfg, "chips", "12abc", -EINVAL);
	expect_set(&cfg, "chips", "99999999999999999999999", -EINVAL);
	expect_set(&cfg, "gc_policy", "lru", -EINVAL);
	EXPECT(cfg.chips == 8 && cfg.page_size_bytes == 4096 && cfg.op_percent == 7,
	       "a refused value changed the configuration");

	/* Values accepted, in the forms a shell or a config file produces. */
	expect_set(&cfg, "chips", "16\n", 0);
	EXPECT(cfg.chips == 16, "chips=%llu", (unsigned long long)cfg.chips);
	expect_set(&cfg, "chips", "0x8", 0);
	EXPECT(cfg.chips == 8, "chips=%llu", (unsigned long long)cfg.chips);
	/* kstrtou64()'s grammar exactly (the configfs fuzz test found "+7"). */
	expect_set(&cfg, "chips", "+7", 0);
	EXPECT(cfg.chips == 7, "chips=%llu", (unsigned long long)cfg.chips);
	expect_set(&cfg, "chips", "010", 0);
	EXPECT(cfg.chips == 8, "chips=%llu", (unsigned long long)cfg.chips);
	expect_set(&cfg, "chips", "08", -EINVAL);
	expect_set(&cfg, "chips", " 5", -EINVAL);
	expect_set(&cfg, "chips", "\t5", -EINVAL);
	expect_set(&cfg, "chips", "+-5", -EINVAL);
	expect_set(&cfg, "chips", "++5", -EINVAL);
	expect_set(&cfg, "chips", "0x", -EINVAL);
	expect_set(&cfg, "controller_ns", "18446744073709551616", -EINVAL);
	expect_set(&cfg, "controller_ns", "0xffffffffffffffff", -EINVAL);
	expect_set(&cfg, "chips", "8", 0);
	expect_set(&cfg, "gc_policy", "cost_benefit\n", 0);
	EXPECT(!strcmp(ssd_config_choice_name(&cfg, "gc_policy"), "cost_benefit"), "gc_policy");
	key = ssd_config_find("gc_policy");
	ssd_config_show(&cfg, key, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "cost_benefit\n"), "show gave '%s'", buf);
	key = ssd_config_find("page_size_bytes");
	ssd_config_show(&cfg, key, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "4096\n"), "show gave '%s'", buf);

	/* Combinations refused when the device is created. */
	expect_invalid_after("logical_block_bytes", "1024");
	expect_invalid_after("channels", "3");		/* 8 chips */
	expect_invalid_after("op_percent", "1");	/* too little room for GC */
	expect_invalid_after("gc_low_free_blocks", "2");
	/* Background GC's high watermark: 8 chips, 512 blocks, low 10: 11..255. */
	expect_invalid_after("gc_background_free_blocks", "10");
	expect_invalid_after("gc_background_free_blocks", "256");
	{
		struct ssd_config bg;

		ssd_config_defaults(&bg);
		expect_set(&bg, "gc_background_free_blocks", "11", 0);
		EXPECT(ssd_device_validate_config(&bg) == 0, "watermark 11 refused");
		expect_set(&bg, "gc_background_free_blocks", "255", 0);
		EXPECT(ssd_device_validate_config(&bg) == 0, "watermark 255 refused");
		/* With an SLC region of 8 * 8 blocks, half of that bounds it. */
		expect_set(&bg, "slc_blocks_per_chip", "8", 0);
		EXPECT(ssd_device_validate_config(&bg) == -EINVAL, "255 over the SLC region");
		expect_set(&bg, "gc_background_free_blocks", "31", 0);
		EXPECT(ssd_device_validate_config(&bg) == 0, "31 with an SLC region refused");
	}
	{
		struct ssd_config small;

		ssd_config_defaults(&small);
		expect_set(&small, "page_size_bytes", "2048", 0);
		EXPECT(ssd_device_validate_config(&small) == -EINVAL,
		       "4 KiB logical blocks on 2 KiB pages accepted");
		expect_set(&small, "logical_block_bytes", "512", 0);
		EXPECT(ssd_device_validate_config(&small) == 0, "512 B blocks on 2 KiB pages");
	}
	{
		struct ssd_config huge;

		ssd_config_defaults(&huge);
		expect_set(&huge, "chips", "1024", 0);
		expect_set(&huge, "channels", "256", 0);
		expect_set(&huge, "blocks_per_chip", "1048576", 0);
		EXPECT(ssd_device_validate_config(&huge) == -EINVAL, "2^38 pages accepted");
	}
	{
		/*
		 * An SLC region may not read or program slower than the
		 * fastest TLC page (here the lower page, 30 us and 400 us);
		 * without a region the slc_* keys are unused and not checked.
		 */
		struct ssd_config slc;

		ssd_config_defaults(&slc);
		expect_set(&slc, "read_lsb_ns", "30000", 0);
		expect_set(&slc, "program_lsb_ns", "400000", 0);
		expect_set(&slc, "slc_read_ns", "30001", 0);
		EXPECT(ssd_device_validate_config(&slc) == 0, "unused slc_read_ns refused");
		expect_set(&slc, "slc_blocks_per_chip", "8", 0);
		EXPECT(ssd_device_validate_config(&slc) == -EINVAL,
		       "an SLC read slower than the TLC lower page accepted");
		expect_set(&slc, "slc_read_ns", "30000", 0);
		EXPECT(ssd_device_validate_config(&slc) == 0, "an SLC read as fast refused");
		expect_set(&slc, "slc_program_ns", "400001", 0);
		EXPECT(ssd_device_validate_config(&slc) == -EINVAL,
		       "an SLC program slower than the TLC lower page accepted");
		expect_set(&slc, "slc_program_ns", "400000", 0);
		expect_set(&slc, "slc_erase_ns", "9000000", 0);
		EXPECT(ssd_device_validate_config(&slc) == 0, "the SLC erase is not checked");
	}
	test_byte_suffixes();
	test_vocabulary();
	/* Every key has a help text and a default inside its own range. */
	for (unsigned int i = 0; i < ssd_config_nr_keys(); i++) {
		key = ssd_config_key_at(i);
		EXPECT(key->help && key->help[0], "%s has no help", key->name);
		EXPECT(key->default_value >= key->min_value &&
		       key->default_value <= ssd_config_key_max(key), "%s default", key->name);
	}
	ssd_log_quiet = 0;
	printf("config: %u keys checked\n", ssd_config_nr_keys());
	return 0;
}

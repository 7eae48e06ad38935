// SPDX-License-Identifier: GPL-2.0
/*
 * unit_main.c - entry point of ssd_unit_tests: one subcommand per test
 * group, run by tests/unit/test_core.py.  Also the shared helpers.
 */
#include "unit.h"

void make_config(struct ssd_config *cfg, const char *const *settings, unsigned int count)
{
	unsigned int i;

	ssd_config_defaults(cfg);
	for (i = 0; i < count; i++) {
		char key[64];
		const char *eq = strchr(settings[i], '=');

		EXPECT(eq && (size_t)(eq - settings[i]) < sizeof(key), "bad setting %s",
		       settings[i]);
		memcpy(key, settings[i], eq - settings[i]);
		key[eq - settings[i]] = '\0';
		EXPECT(ssd_config_set(cfg, key, eq + 1) == 0, "refused %s", settings[i]);
	}
}

struct ssd_device *make_device_stack(const char *const *settings, unsigned int count,
				     const struct ssd_layer_type *const *types,
				     unsigned int nr_types)
{
	struct ssd_config cfg;
	struct ssd_device *dev;

	make_config(&cfg, settings, count);
	EXPECT(ssd_device_create_stack(&dev, &cfg, types, nr_types) == 0, "device refused");
	return dev;
}

struct ssd_device *make_device(const char *const *settings, unsigned int count)
{
	return make_device_stack(settings, count, ssd_default_stack, ssd_default_stack_size);
}

int submit(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length, void *buf)
{
	struct flat_iter fi;
	struct ssd_request req = {
		.op = op, .offset_bytes = offset, .length_bytes = length,
		.data = &fi.it,
	};
	u64 done_ns;

	flat_iter_init(&fi, buf);
	return ssd_device_submit(dev, &req, &done_ns);
}

void unit_check_ftl(const struct ftl *ftl)
{
	if (ssd_ftl_check(ftl))
		FAIL("ssd_ftl_check failed after a GC step");
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} tests[] = {
		{ "model", test_model },
		{ "config", test_config },
		{ "alloc", test_alloc },
		{ "timing", test_timing },
		{ "layers", test_layers },
		{ "memory", test_memory },
		{ "regions", test_regions },
		{ "counters", test_counters },
		{ "check", test_check },
		{ "cache", test_cache },
		{ "cache_dedup", test_cache_dedup },
		{ "dedup", test_dedup },
		{ "destage", test_destage },
		{ "dedup_engines", test_dedup_engines },
		{ "snapshot", test_snapshot },
		{ "wear", test_wear },
		{ "faults_wear", test_faults_wear },
		{ "dftl", test_dftl },
		{ "merges", test_merges },
		{ "data_store", test_data_store },
		{ "rber", test_rber },
		{ "power", test_power },
	};
	unsigned int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TEST [args]; TEST is one of", argv[0]);
		for (i = 0; i < ARRAY_SIZE(tests); i++)
			fprintf(stderr, " %s", tests[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(tests); i++)
		if (!strcmp(argv[1], tests[i].name))
			return tests[i].run(argc - 1, argv + 1);
	fprintf(stderr, "unknown test %s\n", argv[1]);
	return 2;
}

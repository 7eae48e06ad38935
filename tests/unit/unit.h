/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - shared helpers of the userspace unit tests of the portable core:
 * failure reporting and a seeded PRNG (expect.h), the layers of a device,
 * devices made from key=value strings, in-memory snapshots.
 */
#ifndef SSD_UNIT_H
#define SSD_UNIT_H

#include "expect.h"
#include "user/flat_iter.h"
#include "device/ssd_device_internal.h"
#include "ftl/ftl_internal.h"
#include "flash/flash_timing.h"

/* The layer called @name in @dev's stack, or NULL. */
static inline struct ssd_layer *unit_layer(struct ssd_device *dev, const char *name)
{
	struct ssd_layer *layer;

	for (layer = dev->top; layer; layer = layer->lower)
		if (!strcmp(layer->name, name))
			return layer;
	return NULL;
}

/* The bottom layer of @dev's stack (the FTL). */
static inline struct ssd_layer *unit_bottom(struct ssd_device *dev)
{
	struct ssd_layer *layer = dev->top;

	while (layer->lower)
		layer = layer->lower;
	return layer;
}

/* The FTL at the bottom of @dev's stack of layers. */
static inline struct ftl *unit_ftl(struct ssd_device *dev)
{
	return ssd_ftl_from_layer(unit_bottom(dev));
}

/* Build a device from "key=value" strings; exits on refusal. */
struct ssd_device *make_device(const char *const *settings, unsigned int count);
/* The same with a stack of layer types, top first. */
struct ssd_device *make_device_stack(const char *const *settings, unsigned int count,
				     const struct ssd_layer_type *const *types,
				     unsigned int nr_types);
/* Parse "key=value" strings into @cfg over its defaults; exits on refusal. */
void make_config(struct ssd_config *cfg, const char *const *settings, unsigned int count);

/* An FTL's gc_step_hook: the consistency check after every GC step, fatal if it fails. */
void unit_check_ftl(const struct ftl *ftl);
/* Submit one request with a flat buffer; returns the submit result. */
int submit(struct ssd_device *dev, enum ssd_op op, u64 offset, u64 length, void *buf);

/* A snapshot in memory (unit_snap.c): the writer appends, the reader reads from @pos. */
struct mem_snap {
	struct ssd_snap_writer w;
	struct ssd_snap_reader r;
	u8 *bytes;
	u64 len, cap, pos;
};

/* Save @dev into @m (zeroed first); a failure fails the test. */
void snap_save(struct ssd_device *dev, struct mem_snap *m);
/* Point @m's reader at its first byte. */
void snap_rewind(struct mem_snap *m);
/* Load @m into a new device; its result, *@out set on success. */
int snap_load(struct mem_snap *m, struct ssd_device **out);
/* A new device loaded from a snapshot of @dev; a refusal fails the test. */
struct ssd_device *snap_copy(struct ssd_device *dev);
/* Every counter of @a and @b equal, or the test fails naming it. */
void expect_same_stats(struct ssd_device *a, struct ssd_device *b, const char *when);

int test_model(int argc, char **argv);
int test_config(int argc, char **argv);
int test_alloc(int argc, char **argv);
int test_timing(int argc, char **argv);
int test_layers(int argc, char **argv);
int test_memory(int argc, char **argv);
int test_regions(int argc, char **argv);
int test_counters(int argc, char **argv);
int test_check(int argc, char **argv);
int test_cache(int argc, char **argv);
int test_cache_dedup(int argc, char **argv);
int test_dedup(int argc, char **argv);
int test_destage(int argc, char **argv);
int test_dedup_engines(int argc, char **argv);
int test_snapshot(int argc, char **argv);
int test_wear(int argc, char **argv);
int test_faults_wear(int argc, char **argv);
int test_dftl(int argc, char **argv);
int test_merges(int argc, char **argv);
int test_data_store(int argc, char **argv);
int test_rber(int argc, char **argv);
int test_power(int argc, char **argv);

#endif /* SSD_UNIT_H */

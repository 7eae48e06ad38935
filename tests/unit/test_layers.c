// SPDX-License-Identifier: GPL-2.0
/*
 * test_layers.c - the page-level layer interface (common/ssd_layer.h): a
 * pass-through layer that counts what it forwards is slipped in above the
 * FTL; data written through it reads back, every page operation reaches it
 * exactly once, an optional op it lacks (chips_free_ns) is answered by
 * the layer below, its counters land in the device's statistics, and a layer
 * switched off by the configuration is left out of the stack.
 */
#include "unit.h"

struct count_layer {
	struct ssd_layer layer;
	u64 reads, writes, trims, flushes;
};

static struct count_layer *to_count(struct ssd_layer *layer)
{
	return (struct count_layer *)layer;
}

static int count_read(struct ssd_layer *layer, u64 lpn, struct ssd_io *io,
		      const void **data)
{
	to_count(layer)->reads++;
	return layer->lower->ops->read(layer->lower, lpn, io, data);
}

static int count_write(struct ssd_layer *layer, u64 lpn, void *buf, struct ssd_io *io)
{
	to_count(layer)->writes++;
	return layer->lower->ops->write(layer->lower, lpn, buf, io);
}

static int count_trim(struct ssd_layer *layer, u64 lpn, struct ssd_io *io)
{
	to_count(layer)->trims++;
	return layer->lower->ops->trim(layer->lower, lpn, io);
}

static int count_flush(struct ssd_layer *layer, struct ssd_io *io)
{
	to_count(layer)->flushes++;
	return layer->lower->ops->flush(layer->lower, io);
}

/* Reported through a field no other layer fills, to see it arrive. */
static void count_get_stats(struct ssd_layer *layer, struct ssd_stats *st)
{
	st->gc_foreground_runs += 1000000;
}

static void count_reset_stats(struct ssd_layer *layer)
{
}

static int count_check(struct ssd_layer *layer)
{
	return 0;
}

static void count_destroy(struct ssd_layer *layer)
{
	ssd_free(layer);
}

static const struct ssd_layer_ops count_ops = {
	.read = count_read, .write = count_write, .trim = count_trim,
	.flush = count_flush, .get_stats = count_get_stats,
	.reset_stats = count_reset_stats, .check = count_check,
	.destroy = count_destroy,
};

static int count_create(const struct ssd_config *cfg, const struct ssd_layer_env *env,
			struct ssd_layer *lower, struct ssd_layer **out)
{
	struct count_layer *cl = ssd_zalloc(sizeof(*cl));

	if (!cl)
		return -ENOMEM;
	cl->layer.ops = &count_ops;
	cl->layer.name = "count";
	*out = &cl->layer;
	return 0;
}

/* Switched on by the request log key, to have a key to switch it with. */
static bool count_enabled(const struct ssd_config *cfg)
{
	return cfg->request_log_entries != 0;
}

static const struct ssd_layer_type count_type = {
	.name = "count", .enabled = count_enabled, .create = count_create,
};

static struct ssd_device *make_stack(u64 log_entries)
{
	static const struct ssd_layer_type *const stack[] = { &count_type, &ssd_ftl_layer_type };
	struct ssd_config cfg;
	struct ssd_device *dev;
	char value[32];

	ssd_config_defaults(&cfg);
	snprintf(value, sizeof(value), "%llu", (unsigned long long)log_entries);
	EXPECT(ssd_config_set(&cfg, "request_log_entries", value) == 0, "log key");
	EXPECT(ssd_device_create_stack(&dev, &cfg, stack, ARRAY_SIZE(stack)) == 0, "create");
	return dev;
}

int test_layers(int argc, char **argv)
{
	struct ssd_device *dev = make_stack(16);
	struct count_layer *cl = to_count(dev->top);
	u8 out[3 * 4096], in[3 * 4096], patch[512];
	struct ssd_stats st;
	u32 i;

	EXPECT(!strcmp(dev->top->name, "count") && !strcmp(dev->top->lower->name, "ftl") &&
	       !dev->top->lower->lower, "stack is not count -> ftl");
	for (i = 0; i < sizeof(out); i++)
		out[i] = (u8)(i * 7 + 3);
	/* Three whole pages, then a partial one (read-modify-write). */
	EXPECT(submit(dev, SSD_OP_WRITE, 4096, sizeof(out), out) == 0, "write");
	memset(patch, 0x5a, sizeof(patch));
	EXPECT(submit(dev, SSD_OP_WRITE, 4096 + 512, 512, patch) == 0, "partial write");
	memcpy(out + 512, patch, sizeof(patch));
	EXPECT(submit(dev, SSD_OP_READ, 4096, sizeof(in), in) == 0, "read");
	EXPECT(!memcmp(in, out, sizeof(in)), "data changed on its way through the stack");
	/* An optional op the layer lacks is asked of the one below. */
	EXPECT(ssd_layer_chips_free_ns(dev->top, 1, SSD_REGION_MAIN) ==
	       dev->top->lower->ops->chips_free_ns(dev->top->lower, 1, SSD_REGION_MAIN) &&
	       ssd_layer_chips_free_ns(dev->top, 1, SSD_REGION_MAIN) > 0,
	       "chips_free_ns not answered from below");
	EXPECT(submit(dev, SSD_OP_TRIM, 4096, 8192, NULL) == 0, "trim");
	EXPECT(submit(dev, SSD_OP_FLUSH, 0, 0, NULL) == 0, "flush");
	EXPECT(submit(dev, SSD_OP_READ, 4096, 4096, in) == 0, "read trimmed");
	for (i = 0; i < 4096; i++)
		EXPECT(in[i] == 0, "trimmed page reads %u at %u", in[i], i);
	EXPECT(cl->writes == 4 && cl->reads == 1 + 3 + 1 && cl->trims == 2 && cl->flushes == 1,
	       "forwarded r%llu w%llu t%llu f%llu", (unsigned long long)cl->reads,
	       (unsigned long long)cl->writes, (unsigned long long)cl->trims,
	       (unsigned long long)cl->flushes);
	ssd_device_get_stats(dev, &st);
	EXPECT(st.gc_foreground_runs >= 1000000, "the layer's counters were not gathered");
	EXPECT(st.host_write_pages == 4 && st.valid_pages == 1, "host %llu valid %llu",
	       (unsigned long long)st.host_write_pages, (unsigned long long)st.valid_pages);
	EXPECT(ssd_device_check(dev) == 0, "check");
	ssd_device_destroy(dev);

	/* The key off: the layer is not built. */
	dev = make_stack(0);
	EXPECT(!strcmp(dev->top->name, "ftl"), "a disabled layer was built");
	ssd_device_destroy(dev);
	printf("layers: pass-through layer slipped in, switched off ok\n");
	return 0;
}

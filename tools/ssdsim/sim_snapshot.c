// SPDX-License-Identifier: GPL-2.0
/*
 * sim_snapshot.c - snapshot files for ssdsim (sim_snapshot.h): stdio
 * streams behind the core's writer and reader callbacks.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/ssdsim/sim_snapshot.h"
#include "tools/msg/msg.h"

/* Large stdio buffers: the data section is most of the file. */
#define STREAM_BUFFER_BYTES	(1 << 20)

struct file_writer {
	struct ssd_snap_writer w;
	FILE *f;
};

struct file_reader {
	struct ssd_snap_reader r;
	FILE *f;
};

static int file_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	struct file_writer *fw = container_of(w, struct file_writer, w);

	return fwrite(buf, 1, len, fw->f) == len ? 0 : -(errno ? errno : EIO);
}

static int file_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	struct file_reader *fr = container_of(r, struct file_reader, r);

	if (fread(buf, 1, len, fr->f) == len)
		return 0;
	return ferror(fr->f) ? -(errno ? errno : EIO) : -ENODATA;
}

static int apply_keys(const char *path, char *const *keys, int nr_keys, struct ssd_config *cfg)
{
	for (int i = 0; i < nr_keys; i++) {
		const char *eq = strchr(keys[i], '=');
		size_t n = (size_t)(eq - keys[i]);
		char key[128];

		if (n < sizeof(key)) {
			memcpy(key, keys[i], n);
			key[n] = '\0';
		}
		if (n >= sizeof(key) || ssd_config_set(cfg, key, eq + 1)) {
			msg_say("ssdsim: %s refused over the snapshot %s\n", keys[i], path);
			return -1;
		}
	}
	return 0;
}

/* Why a read failed, for the caller's message. */
static const char *read_failure(int err)
{
	if (err == -ENODATA)
		return "the file ends early (truncated?)";
	if (err == -EINVAL)
		return "refused (see above)";
	return strerror(-err);
}

/* Whether @f begins with the tag of a snapshot's first section; rewound. */
static bool begins_as_snapshot(FILE *f)
{
	unsigned char tag[4];
	bool ok = fread(tag, 1, sizeof(tag), f) == sizeof(tag) && !memcmp(tag, "HEAD", 4);

	rewind(f);
	return ok;
}

int sim_snapshot_load(const char *path, char *const *keys, int nr_keys, struct ssd_config *cfg,
		      struct ssd_device **dev, u64 *bytes)
{
	struct file_reader fr;
	u64 data_pages;
	int ret;

	memset(&fr, 0, sizeof(fr));
	fr.r.read = file_read;
	fr.r.dev_name = "";
	fr.f = fopen(path, "rb");
	if (!fr.f) {
		msg_say("ssdsim: --from %s: %s\n", path, strerror(errno));
		return -1;
	}
	setvbuf(fr.f, NULL, _IOFBF, STREAM_BUFFER_BYTES);
	if (!begins_as_snapshot(fr.f)) {
		msg_say("ssdsim: --from %s: not an ssdemu snapshot (it does not begin with a snapshot's header)\n",
			path);
		fclose(fr.f);
		return -1;
	}
	ssd_config_defaults(cfg);
	ret = ssd_snapshot_read_config(&fr.r, cfg, &data_pages);
	if (!ret && apply_keys(path, keys, nr_keys, cfg)) {
		fclose(fr.f);
		return -1;
	}
	if (!ret)
		ret = ssd_device_create_from(dev, cfg, &fr.r, data_pages);
	if (!ret && fgetc(fr.f) != EOF) {
		msg_say("ssdsim: --from %s: bytes after the snapshot's end: not one snapshot\n",
			path);
		ssd_device_destroy(*dev);
		*dev = NULL;
		fclose(fr.f);
		return -1;
	}
	*bytes = fr.r.bytes;
	fclose(fr.f);
	if (ret) {
		msg_say("ssdsim: --from %s: snapshot not loaded: %s\n", path,
			read_failure(ret));
		return -1;
	}
	return 0;
}

/* A writer that refuses its first write: ssd_device_save() checks the stack before it. */
static int refuse_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	return -ECANCELED;
}

int sim_snapshot_probe(struct ssd_device *dev)
{
	struct ssd_snap_writer w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.write = refuse_write;
	ret = ssd_device_save(dev, &w);
	if (ret == -ECANCELED)
		return 0;
	if (ret == -EOPNOTSUPP)
		msg_say("ssdsim: --save refused before the replay: a layer of this device's stack cannot be saved (the core says which above)\n");
	else
		msg_say("ssdsim: --save refused: %s\n", strerror(-ret));
	return -1;
}

int sim_save_open(struct sim_save *save, const char *path)
{
	size_t tmp_bytes = strlen(path) + 32;

	memset(save, 0, sizeof(*save));
	save->path = path;
	save->tmp = malloc(tmp_bytes);
	if (!save->tmp) {
		msg_say("ssdsim: out of memory\n");
		return -1;
	}
	/* Beside the target, so the rename stays on one file system. */
	snprintf(save->tmp, tmp_bytes, "%s.tmp.%ld", path, (long)getpid());
	save->f = fopen(save->tmp, "wb");
	if (!save->f) {
		msg_say("ssdsim: --save %s: %s\n", path, strerror(errno));
		free(save->tmp);
		save->tmp = NULL;
		return -1;
	}
	setvbuf(save->f, NULL, _IOFBF, STREAM_BUFFER_BYTES);
	return 0;
}

int sim_save_commit(struct sim_save *save, struct ssd_device *dev, u64 *bytes)
{
	struct file_writer fw;
	int ret;

	memset(&fw, 0, sizeof(fw));
	fw.w.write = file_write;
	fw.f = save->f;
	ret = ssd_device_save(dev, &fw.w);
	if (fclose(save->f) && !ret)
		ret = -(errno ? errno : EIO);
	save->f = NULL;
	if (!ret && rename(save->tmp, save->path))
		ret = -errno;
	if (ret) {
		msg_say("ssdsim: --save %s: nothing saved: %s\n", save->path,
			strerror(-ret));
		sim_save_abort(save);
		return -1;
	}
	*bytes = fw.w.bytes;
	free(save->tmp);
	save->tmp = NULL;
	return 0;
}

void sim_save_abort(struct sim_save *save)
{
	if (save->f)
		fclose(save->f);
	if (save->tmp)
		unlink(save->tmp);
	free(save->tmp);
	save->f = NULL;
	save->tmp = NULL;
}

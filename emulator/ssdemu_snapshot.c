// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_snapshot.c - snapshot files in the kernel: a powered device saved
 * to a file (configfs snapshot_save) and a device made from one at power=1
 * (configfs snapshot_from).  The format and what it holds are the core's
 * (device/ssd_device.h, common/ssd_snap.h); this file owns the files: it
 * opens the path in the writing process's context (its credentials, its
 * root), refuses anything but a regular file, and streams the bytes
 * through one chunk buffer with kernel_write()/kernel_read(), so neither
 * side holds a second copy of the data.
 *
 * Consistency: ssd_device_save() holds the core's request lock and state
 * lock for the whole save, so the file is one instant of the model; no
 * request enters the model meanwhile (queue_rq waits: the queue is
 * BLK_MQ_F_BLOCKING).  Requests the model has already served but whose
 * modeled completion time has not come (timing=1) are in the snapshot as
 * done: their data, their counters, their flash time.  The queue is not
 * frozen: freezing waits for those completions, which may be minutes of
 * modeled backlog away, and gains nothing.  The save takes no model time.
 * The device goes on afterwards unchanged.
 *
 * Loading: the file's configuration is the device's, except the keys the
 * user wrote to this configfs item, which override it; the core refuses
 * an override that changes the shape of its tables (geometry, the stack).
 * Anything wrong with the file destroys what was built: nothing is left.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/namei.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>

#include "emulator/ssdemu.h"

/* Bytes moved per kernel_read()/kernel_write(): the only staging buffer. */
#define SSDEMU_SNAP_CHUNK_BYTES		(256 * 1024)

/* A snapshot file and its chunk buffer, written or read in order. */
struct snap_file {
	struct ssd_snap_writer w;
	struct ssd_snap_reader r;
	struct file *file;
	loff_t pos;
	u8 *buf;
	size_t fill;		/* bytes in buf: to write, or read and not taken */
	size_t taken;		/* reading: bytes of buf already given out */
};

static int flush_chunk(struct snap_file *sf)
{
	size_t done = 0;

	while (done < sf->fill) {
		ssize_t n = kernel_write(sf->file, sf->buf + done, sf->fill - done, &sf->pos);

		if (n < 0)
			return n;
		if (!n)
			return -EIO;
		done += n;
	}
	sf->fill = 0;
	/* A killed saver stops the save (and with it the wait of queue_rq). */
	if (fatal_signal_pending(current))
		return -EINTR;
	return 0;
}

static int snap_file_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	struct snap_file *sf = container_of(w, struct snap_file, w);
	int ret;

	while (len) {
		size_t n = min(len, SSDEMU_SNAP_CHUNK_BYTES - sf->fill);

		memcpy(sf->buf + sf->fill, buf, n);
		sf->fill += n;
		buf += n;
		len -= n;
		if (sf->fill == SSDEMU_SNAP_CHUNK_BYTES) {
			ret = flush_chunk(sf);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* The next chunk of the file: 0, -ENODATA at its end, or an error. */
static int read_chunk(struct snap_file *sf)
{
	ssize_t n;

	if (fatal_signal_pending(current))
		return -EINTR;
	n = kernel_read(sf->file, sf->buf, SSDEMU_SNAP_CHUNK_BYTES, &sf->pos);
	if (n < 0)
		return n;
	if (!n)
		return -ENODATA;
	sf->fill = n;
	sf->taken = 0;
	return 0;
}

static int snap_file_read(struct ssd_snap_reader *r, void *buf, size_t len)
{
	struct snap_file *sf = container_of(r, struct snap_file, r);
	int ret;

	while (len) {
		size_t n;

		if (sf->taken == sf->fill) {
			ret = read_chunk(sf);
			if (ret)
				return ret;
		}
		n = min(len, sf->fill - sf->taken);
		memcpy(buf, sf->buf + sf->taken, n);
		sf->taken += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Open @path for @what ("snapshot_save", "snapshot_from") and take the
 * chunk buffer; 0 or an error, logged.
 */
static int snap_file_open(struct snap_file *sf, const char *dev_name, const char *what,
			  const char *path, int flags)
{
	struct path found;
	bool regular;
	int ret;

	memset(sf, 0, sizeof(*sf));
	/*
	 * Not even opened unless it is a regular file (or, to save, missing):
	 * opening a device or a FIFO may block or do something.
	 */
	ret = kern_path(path, LOOKUP_FOLLOW, &found);
	if (ret && !(ret == -ENOENT && (flags & O_CREAT))) {
		ssd_dev_err(dev_name, "%s %s: cannot open it: error %d", what, path, ret);
		return ret;
	}
	if (!ret) {
		regular = d_is_reg(found.dentry);
		path_put(&found);
		if (!regular) {
			ssd_dev_err(dev_name, "%s %s refused: not a regular file", what, path);
			return -EINVAL;
		}
	}
	sf->file = filp_open(path, flags | O_LARGEFILE, 0600);
	if (IS_ERR(sf->file)) {
		ret = PTR_ERR(sf->file);
		sf->file = NULL;
		ssd_dev_err(dev_name, "%s %s: cannot open it: error %d", what, path, ret);
		return ret;
	}
	if (!S_ISREG(file_inode(sf->file)->i_mode)) {
		ssd_dev_err(dev_name, "%s %s refused: not a regular file", what, path);
		filp_close(sf->file, NULL);
		sf->file = NULL;
		return -EINVAL;
	}
	sf->buf = kvmalloc(SSDEMU_SNAP_CHUNK_BYTES, GFP_KERNEL);
	if (!sf->buf) {
		filp_close(sf->file, NULL);
		sf->file = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void snap_file_close(struct snap_file *sf)
{
	kvfree(sf->buf);
	if (sf->file)
		filp_close(sf->file, NULL);
}

/*
 * Whether @file lives on @disk: saving there would deadlock (the save holds
 * the device's request lock while the file's writeback needs the device).
 */
static bool file_on_disk(struct file *file, struct gendisk *disk)
{
	struct block_device *bdev = file_inode(file)->i_sb->s_bdev;

	return bdev && bdev->bd_disk == disk;
}

static int refuse_write(struct ssd_snap_writer *w, const void *buf, size_t len)
{
	return -ECANCELED;
}

/*
 * Whether the core can save @core (every layer can), asked before any file
 * is touched: its save stops at the first byte it writes.  0 or the core's
 * refusal, which it logs.
 */
static int probe_save(struct ssd_device *core)
{
	struct ssd_snap_writer w = { .write = refuse_write, .dev_name = "" };
	int ret = ssd_device_save(core, &w);

	return ret == -ECANCELED ? 0 : ret;
}

int ssdemu_snapshot_save(struct ssdemu_disk *sd, const char *path)
{
	struct snap_file sf;
	u64 start_ns = ktime_get_ns();
	int ret;

	ret = probe_save(sd->core);
	if (ret) {
		ssd_dev_err(sd->name, "snapshot_save %s refused: %s cannot be saved (error %d)",
			    path, sd->disk->disk_name, ret);
		return ret;
	}
	/* No O_TRUNC yet: a refused file keeps its contents. */
	ret = snap_file_open(&sf, sd->name, "snapshot_save", path, O_WRONLY | O_CREAT);
	if (ret)
		return ret;
	if (file_on_disk(sf.file, sd->disk)) {
		ssd_dev_err(sd->name, "snapshot_save %s refused: the file is on %s itself", path,
			    sd->disk->disk_name);
		ret = -EINVAL;
		goto out;
	}
	ret = vfs_truncate(&sf.file->f_path, 0);
	if (ret) {
		ssd_dev_err(sd->name, "snapshot_save %s: cannot truncate it: error %d", path, ret);
		goto out;
	}
	sf.w.write = snap_file_write;
	ret = ssd_device_save(sd->core, &sf.w);
	if (!ret)
		ret = flush_chunk(&sf);
	/* Written means on the file system's disk: the save may be all a user keeps. */
	if (!ret)
		ret = vfs_fsync(sf.file, 0);
	if (ret) {
		/* Not a partial file, which may fill its file system: an empty one. */
		ssd_dev_err(sd->name, "snapshot_save %s failed after %llu bytes: error %d (the file is left empty)",
			    path, (unsigned long long)sf.w.bytes, ret);
		vfs_truncate(&sf.file->f_path, 0);
		goto out;
	}
	pr_info("%s: %s saved to %s: %llu MiB in %llu ms\n", sd->name, sd->disk->disk_name,
		path, (unsigned long long)sf.w.bytes >> 20,
		div_u64(ktime_get_ns() - start_ns, NSEC_PER_MSEC));
out:
	snap_file_close(&sf);
	return ret;
}

/* The keys written to the item override the file's; say which changed. */
static int apply_overrides(struct ssdemu_dev *dev, struct ssd_config *cfg)
{
	unsigned int i, nr = ssd_config_nr_keys();
	char mine[64], theirs[64];
	int ret;

	for (i = 0; i < nr; i++) {
		const struct ssd_config_key *key = ssd_config_key_at(i);

		if (!test_bit(i, dev->keys_set))
			continue;
		ssd_config_show(&dev->cfg, key, mine, sizeof(mine));
		ssd_config_show(cfg, key, theirs, sizeof(theirs));
		if (!strcmp(mine, theirs))
			continue;
		ret = ssd_config_set_key(cfg, key, mine);
		if (ret)
			return ret;
		strim(mine);
		strim(theirs);
		pr_info("%s: snapshot_from: %s=%s written to the item, the file has %s\n",
			dev->cfg.name, key->name, mine, theirs);
	}
	return 0;
}

/* Nothing may follow the snapshot's end: that is not the file that was saved. */
static int check_at_end(struct snap_file *sf)
{
	int ret;

	if (sf->taken == sf->fill) {
		ret = read_chunk(sf);
		if (ret == -ENODATA)
			return 0;
		if (ret)
			return ret;
	}
	ssd_dev_err(sf->r.dev_name, "snapshot refused: bytes after its end (at byte %llu)",
		    (unsigned long long)sf->r.bytes);
	return -EINVAL;
}

int ssdemu_snapshot_create(struct ssdemu_dev *dev, struct ssd_config *cfg,
			   struct ssd_device **core)
{
	struct snap_file sf;
	u64 data_pages;
	int ret;

	ret = snap_file_open(&sf, dev->cfg.name, "snapshot_from", dev->snapshot_from,
			     O_RDONLY);
	if (ret)
		return ret;
	sf.r.read = snap_file_read;
	sf.r.dev_name = dev->cfg.name;
	/* The item's name; every key from the file. */
	*cfg = dev->cfg;
	ret = ssd_snapshot_read_config(&sf.r, cfg, &data_pages);
	if (!ret)
		ret = apply_overrides(dev, cfg);
	if (!ret)
		ret = ssd_device_create_from(core, cfg, &sf.r, data_pages);
	if (ret)
		goto out;
	ret = check_at_end(&sf);
	if (ret) {
		ssd_device_destroy(*core);
		*core = NULL;
	}
out:
	if (ret)
		ssd_dev_err(dev->cfg.name, "snapshot_from %s: no device made (error %d)",
			    dev->snapshot_from, ret);
	snap_file_close(&sf);
	return ret;
}

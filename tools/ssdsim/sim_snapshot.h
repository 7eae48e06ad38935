/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_snapshot.h - ssdsim's snapshot files: a device made from one
 * (--from) and one written at the end (--save), streamed through stdio
 * (the core's ssd_snap_writer/reader callbacks, common/ssd_snap.h), so no
 * copy of the file is staged in memory.  Every failure is said on stderr
 * (the core says why a file is refused) and leaves nothing behind: a
 * refused file makes no device, a failed save leaves no file (it is
 * written beside the target and renamed over it when complete).
 */
#ifndef SSD_SIM_SNAPSHOT_H
#define SSD_SIM_SNAPSHOT_H

#include <stdio.h>

#include "device/ssd_device.h"

/*
 * A device from the snapshot at @path into *@dev, its configuration in
 * @cfg, then @keys (key=value, @nr_keys of them) applied over it: keys
 * that shape the device's tables are refused by the core.  0 or -1.
 * *@bytes: the file's size.
 */
int sim_snapshot_load(const char *path, char *const *keys, int nr_keys, struct ssd_config *cfg,
		      struct ssd_device **dev, u64 *bytes);
/* Whether @dev can be saved (every layer of its stack can): 0 or -1. */
int sim_snapshot_probe(struct ssd_device *dev);
/*
 * A save to @path, in two steps: opened before the work (so a path that
 * cannot be written is refused before it), committed after it.  0 or -1
 * after a message; the commit's *@bytes is the file's size.  An open save
 * that is not committed is aborted: its partial file removed.
 */
struct sim_save {
	const char *path;
	char *tmp;			/* written here, renamed to @path */
	FILE *f;
};

int sim_save_open(struct sim_save *save, const char *path);
int sim_save_commit(struct sim_save *save, struct ssd_device *dev, u64 *bytes);
void sim_save_abort(struct sim_save *save);

#endif /* SSD_SIM_SNAPSHOT_H */

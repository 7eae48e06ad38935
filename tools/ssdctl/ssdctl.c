// SPDX-License-Identifier: GPL-2.0
/*
 * ssdctl - manage ssdemu devices and read their statistics.
 *
 *   ssdctl create NAME --config FILE [key=value ...]   prints /dev/ssdemuN
 *   ssdctl create NAME --from SNAPSHOT [key=value ...]
 *   ssdctl destroy NAME
 *   ssdctl snapshot save DEV FILE
 *   ssdctl stats DEV [--json | --raw]
 *   ssdctl watch DEV [--interval S] [--count N] [--since FILE]
 *   ssdctl reset DEV
 *   ssdctl check DEV
 *   ssdctl log DEV         prints and empties the request log
 *   ssdctl inject DEV [+r|+w|+rw|-r|-w|-rw FIRST[-LAST] | clear]
 *
 * create/destroy/snapshot drive configfs (/sys/kernel/config/ssdemu, or
 * $SSDEMU_CONFIGFS); stats/reset/check/log are ioctls on the block device.
 * The kernel opens snapshot files itself, so they are passed as absolute
 * paths.  Depends on libc only.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/report/conf_file.h"
#include "tools/report/log_format.h"
#include "tools/ssdctl/ssdctl_help.h"
#include "tools/ssdctl/stats_group.h"
#include "tools/report/stats_print.h"
#include "tools/ssdctl/stats_watch.h"

static const char *configfs_root(void)
{
	const char *root = getenv("SSDEMU_CONFIGFS");

	return root ? root : "/sys/kernel/config/ssdemu";
}

/* @dir = the configfs item of device @name; 2 (said) if it does not fit. */
static int item_dir(const char *name, char *dir, size_t dir_bytes)
{
	if (snprintf(dir, dir_bytes, "%s/%s", configfs_root(), name) >= (int)dir_bytes) {
		fprintf(stderr, "ssdctl: device name too long\n");
		return 2;
	}
	return 0;
}

static int usage(void)
{
	ssdctl_help_all(stderr);
	return 2;
}

/* Open the attribute @attr of device directory @dir: a descriptor or -errno. */
static int open_attr(const char *dir, const char *attr, int flags)
{
	char path[1024];
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, flags);
	return fd < 0 ? -errno : fd;
}

/* Write @value to the attribute @attr of device directory @dir. */
static int write_attr(const char *dir, const char *attr, const char *value)
{
	ssize_t n;
	int fd = open_attr(dir, attr, O_WRONLY);

	if (fd < 0)
		return fd;
	n = write(fd, value, strlen(value));
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

static int read_attr(const char *dir, const char *attr, char *buf, size_t len)
{
	ssize_t n;
	int fd = open_attr(dir, attr, O_RDONLY);

	if (fd < 0)
		return fd;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int set_pair(void *ctx, const char *key, const char *value, const char *where)
{
	const char *dir = ctx;
	int ret = write_attr(dir, key, value);

	if (ret == -ENOENT)
		fprintf(stderr, "ssdctl: %s: unknown key '%s' (see %s/features)\n",
			where, key, configfs_root());
	else if (ret)
		fprintf(stderr, "ssdctl: %s: %s=%s refused: %s (dmesg says why)\n",
			where, key, value, strerror(-ret));
	return ret ? -1 : 0;
}

/* The absolute path of @file, which must exist, in @out (PATH_MAX bytes). */
static int absolute_existing(const char *file, char *out)
{
	if (!realpath(file, out)) {
		fprintf(stderr, "ssdctl: %s: %s\n", file, strerror(errno));
		return -1;
	}
	return 0;
}

static int cmd_create(int argc, char **argv)
{
	const char *name, *from = NULL, *config = NULL;
	char dir[512], disk[64], snapshot[PATH_MAX];
	int i, ret;

	if (argc < 2)
		return usage();
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--from") && i + 1 < argc)
			from = argv[++i];
		else if (!strcmp(argv[i], "--config") && i + 1 < argc)
			config = argv[++i];
	}
	if (from && config) {
		fprintf(stderr, "ssdctl: --from takes the configuration from the snapshot; "
			"change keys with key=value, not --config\n");
		return 2;
	}
	if (from && absolute_existing(from, snapshot))
		return 1;
	name = argv[1];
	if (!*name || strchr(name, '/')) {
		fprintf(stderr, "ssdctl: bad device name '%s'\n", name);
		return 2;
	}
	if (item_dir(name, dir, sizeof(dir)))
		return 2;
	if (mkdir(dir, 0755)) {
		fprintf(stderr, "ssdctl: mkdir %s: %s%s\n", dir, strerror(errno),
			errno == ENOENT ? " (is ssdemu.ko loaded?)" : "");
		return 1;
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--config") && i + 1 < argc) {
			ret = conf_file_read(argv[++i], set_pair, dir);
		} else if (!strcmp(argv[i], "--from") && i + 1 < argc) {
			i++;
			ret = 0;
		} else {
			ret = conf_pair_arg(argv[i], set_pair, dir);
		}
		if (ret)
			goto undo;
	}
	if (from) {
		ret = write_attr(dir, "snapshot_from", snapshot);
		if (ret) {
			fprintf(stderr, "ssdctl: snapshot_from %s refused: %s (dmesg says why)\n",
				snapshot, strerror(-ret));
			goto undo;
		}
	}
	ret = write_attr(dir, "power", "1");
	if (ret) {
		fprintf(stderr, "ssdctl: power on refused: %s (dmesg says why)\n",
			strerror(-ret));
		goto undo;
	}
	if (read_attr(dir, "disk_name", disk, sizeof(disk)) || !*disk) {
		fprintf(stderr, "ssdctl: %s has no disk_name\n", dir);
		goto undo;
	}
	printf("/dev/%s\n", disk);
	return 0;
undo:
	rmdir(dir);
	return 1;
}

/*
 * CMD NAME: @value written to NAME's configfs attribute @attr (its directory
 * in @dir, the write's 0 or -errno in *@ret).  Returns ssdctl's exit status
 * when there is nothing to write (a usage error, no such device), else 0.
 */
static int write_item_attr(int argc, char **argv, char *dir, size_t dir_len,
			   const char *attr, const char *value, int *ret)
{
	if (argc != 2)
		return usage();
	if (item_dir(argv[1], dir, dir_len))
		return 2;
	*ret = write_attr(dir, attr, value);
	return 0;
}

/* power-cut NAME: configfs power_cut=1; power-on NAME: power=1. */
static int cmd_power(int argc, char **argv, const char *attr)
{
	char dir[512];
	int ret, status = write_item_attr(argc, argv, dir, sizeof(dir), attr, "1", &ret);

	if (status)
		return status;
	if (ret) {
		fprintf(stderr, "ssdctl: %s %s: %s (dmesg says why)\n", argv[0], argv[1],
			strerror(-ret));
		return 1;
	}
	return 0;
}

static int cmd_destroy(int argc, char **argv)
{
	char dir[512];
	int ret, status = write_item_attr(argc, argv, dir, sizeof(dir), "power", "0", &ret);

	if (status)
		return status;
	if (ret) {
		fprintf(stderr, "ssdctl: power off %s: %s%s\n", argv[1], strerror(-ret),
			ret == -EBUSY ? " (the disk is open)" : "");
		return 1;
	}
	if (rmdir(dir)) {
		fprintf(stderr, "ssdctl: rmdir %s: %s\n", dir, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * The configfs directory of @dev: a device NAME, or its block device
 * (/dev/ssdemuN, found by the items' disk_name).
 */
static int find_item(const char *dev, char *dir, size_t len)
{
	char real[PATH_MAX], disk[64], item[512];
	const char *base;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (!strchr(dev, '/')) {
		if (snprintf(dir, len, "%s/%s", configfs_root(), dev) < (int)len &&
		    !stat(dir, &st) && S_ISDIR(st.st_mode))
			return 0;
	}
	if (!realpath(dev, real)) {
		fprintf(stderr, "ssdctl: %s: not a device name nor a block device: %s\n", dev,
			strerror(errno));
		return -1;
	}
	base = strrchr(real, '/') + 1;
	d = opendir(configfs_root());
	if (!d) {
		fprintf(stderr, "ssdctl: %s: %s (is ssdemu.ko loaded?)\n", configfs_root(),
			strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    snprintf(item, sizeof(item), "%s/%s", configfs_root(), de->d_name) >=
		    (int)sizeof(item) || stat(item, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (!read_attr(item, "disk_name", disk, sizeof(disk)) && !strcmp(disk, base)) {
			closedir(d);
			if (snprintf(dir, len, "%s", item) >= (int)len)
				return -1;
			return 0;
		}
	}
	closedir(d);
	fprintf(stderr, "ssdctl: %s is not a powered ssdemu device\n", dev);
	return -1;
}

/*
 * Save to a temporary file beside @file, then rename it over @file: a
 * failed save leaves @file as it was.  The kernel writes (and fsyncs) the
 * temporary file; its path is absolute, the directory's realpath.
 */
static int cmd_snapshot_save(const char *dev, const char *file)
{
	char dir[512], parent[PATH_MAX], real_parent[PATH_MAX], tmp[PATH_MAX], final[PATH_MAX];
	const char *slash = strrchr(file, '/'), *base = slash ? slash + 1 : file;
	int ret, fd;

	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		fprintf(stderr, "ssdctl: %s: not a file name\n", file);
		return 2;
	}
	if (find_item(dev, dir, sizeof(dir)))
		return 1;
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - file) + 1 : 1,
		 slash ? file : ".");
	if (!realpath(parent, real_parent)) {
		fprintf(stderr, "ssdctl: %s: %s\n", parent, strerror(errno));
		return 1;
	}
	if (snprintf(final, sizeof(final), "%s/%s", strcmp(real_parent, "/") ? real_parent : "",
		     base) >= (int)sizeof(final) ||
	    snprintf(tmp, sizeof(tmp), "%s.tmp-%ld", final, (long)getpid()) >= (int)sizeof(tmp)) {
		fprintf(stderr, "ssdctl: %s: path too long\n", file);
		return 2;
	}
	ret = write_attr(dir, "snapshot_save", tmp);
	if (ret) {
		fprintf(stderr, "ssdctl: %s: snapshot save to %s: %s (dmesg says why)\n", dev, file,
			strerror(-ret));
		unlink(tmp);
		return 1;
	}
	if (rename(tmp, final)) {
		fprintf(stderr, "ssdctl: rename %s to %s: %s\n", tmp, final, strerror(errno));
		unlink(tmp);
		return 1;
	}
	/* The rename itself on disk too. */
	fd = open(real_parent, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	return 0;
}

static int cmd_snapshot(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "save"))
		return cmd_snapshot_save(argv[2], argv[3]);
	return usage();
}

static int open_dev(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		fprintf(stderr, "ssdctl: %s: %s\n", path, strerror(errno));
	return fd;
}

static int read_stats(const char *dev, struct ssdemu_stats *st)
{
	int fd = open_dev(dev);

	if (fd < 0)
		return -1;
	memset(st, 0, sizeof(*st));
	if (ioctl(fd, SSDEMU_IOC_GET_STATS, st)) {
		fprintf(stderr, "ssdctl: %s: stats: %s\n", dev, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* stats DEV [--json | --raw]: grouped for people, or every counter by name. */
/*
 * ssdctl inject DEV [CMD ...]: the words of CMD ("+r 1000-1007", "clear")
 * written to the item's inject_errors; without CMD, its list.
 */
static int cmd_inject(int argc, char **argv)
{
	char dir[512], cmd[256] = "", list[4096];
	size_t used = 0;
	int i, ret;

	if (argc < 2)
		return usage();
	if (find_item(argv[1], dir, sizeof(dir)))
		return 1;
	if (argc == 2) {
		/* Every line (read_attr() keeps the first). */
		ssize_t n = -1;
		int fd;

		if (snprintf(list, sizeof(list), "%s/inject_errors", dir) < (int)sizeof(list)) {
			fd = open(list, O_RDONLY);
			if (fd >= 0) {
				n = read(fd, list, sizeof(list) - 1);
				close(fd);
			}
		}
		if (n < 0) {
			fprintf(stderr, "ssdctl: %s: inject_errors: %s\n", argv[1], strerror(errno));
			return 1;
		}
		fwrite(list, 1, n, stdout);
		return 0;
	}
	for (i = 2; i < argc; i++) {
		int n = snprintf(cmd + used, sizeof(cmd) - used, "%s%s", i > 2 ? " " : "",
				 argv[i]);

		if (n < 0 || (size_t)n >= sizeof(cmd) - used) {
			fprintf(stderr, "ssdctl: inject: command too long\n");
			return 2;
		}
		used += n;
	}
	ret = write_attr(dir, "inject_errors", cmd);
	if (ret) {
		fprintf(stderr, "ssdctl: %s: inject '%s' refused: %s (dmesg says why)\n",
			argv[1], cmd, strerror(-ret));
		return 1;
	}
	return 0;
}

static int cmd_stats(int argc, char **argv)
{
	struct ssdemu_stats st;
	const char *form = "";

	if (argc < 2 || argc > 3)
		return usage();
	if (argc == 3) {
		form = argv[2];
		if (strcmp(form, "--json") && strcmp(form, "--raw"))
			return usage();
	}
	if (read_stats(argv[1], &st))
		return 1;
	if (!strcmp(form, "--json"))
		stats_print_json(stdout, &st);
	else if (!strcmp(form, "--raw"))
		stats_print_text(stdout, &st);
	else
		stats_print_grouped(stdout, &st);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile sig_atomic_t watch_stop;

static void watch_interrupt(int sig)
{
	watch_stop = 1;
}

/* A number > 0 (or >= 0 if @zero_ok) in @arg, else -1 with a message. */
static double positive_arg(const char *opt, const char *arg, int zero_ok)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || v != v || v < 0 || (!zero_ok && v == 0) ||
	    v > 86400.0 * 365) {
		fprintf(stderr, "ssdctl: %s %s: not a number %s 0\n", opt, arg,
			zero_ok ? ">=" : ">");
		return -1;
	}
	return v;
}

/*
 * watch DEV [--interval S] [--count N] [--since FILE]: every S seconds
 * (default 1) the counters that moved, N times or until interrupted.  With
 * --since, a first report at once against FILE (`ssdctl stats DEV --json`
 * saved earlier), so what happened in between is not missed.
 */
static int cmd_watch(int argc, char **argv)
{
	double interval_s = 1.0, count = 0, t_before, t_after;
	struct ssdemu_stats before, after;
	const char *since = NULL;
	unsigned long long report = 0;
	struct sigaction sa;
	int i;

	if (argc < 2)
		return usage();
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--interval") && i + 1 < argc) {
			interval_s = positive_arg("--interval", argv[++i], 0);
			if (interval_s < 0)
				return 2;
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
			count = positive_arg("--count", argv[++i], 0);
			if (count < 0 || count != (unsigned long)count) {
				fprintf(stderr, "ssdctl: --count: a whole number > 0\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--since") && i + 1 < argc) {
			since = argv[++i];
		} else {
			return usage();
		}
	}
	if (since) {
		FILE *in = fopen(since, "r");
		struct stat sst;
		int ret;

		if (!in) {
			fprintf(stderr, "ssdctl: %s: %s\n", since, strerror(errno));
			return 1;
		}
		ret = stats_read_json(in, since, &before);
		fclose(in);
		if (ret)
			return 1;
		if (stat(since, &sst))
			return 1;
		/* The reading's age: from the file's modification to now. */
		t_before = now_s() - (time(NULL) - sst.st_mtime);
	} else {
		if (read_stats(argv[1], &before))
			return 1;
		t_before = now_s();
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = watch_interrupt;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!watch_stop && (!count || report < (unsigned long long)count)) {
		if (!since || report) {
			struct timespec ts = {
				.tv_sec = (time_t)interval_s,
				.tv_nsec = (long)((interval_s - (time_t)interval_s) * 1e9),
			};

			/* An interrupted sleep ends the watch after one last report. */
			nanosleep(&ts, NULL);
		}
		if (read_stats(argv[1], &after))
			return 1;
		t_after = now_s();
		report++;
		printf("--- %s report %llu: %.1f s%s\n", argv[1], report, t_after - t_before,
		       since && report == 1 ? " since the saved reading" : "");
		stats_print_deltas(stdout, &before, &after, t_after - t_before);
		fflush(stdout);
		before = after;
		t_before = t_after;
	}
	return 0;
}

static int cmd_simple_ioctl(int argc, char **argv, unsigned long request,
			    const char *what)
{
	int fd, ret;

	if (argc != 2)
		return usage();
	fd = open_dev(argv[1]);
	if (fd < 0)
		return 1;
	ret = ioctl(fd, request);
	if (ret)
		fprintf(stderr, "ssdctl: %s: %s: %s\n", argv[1], what, strerror(errno));
	close(fd);
	return ret ? 1 : 0;
}

/* Drain the request log to stdout; its dropped count goes to stderr. */
static int cmd_log(int argc, char **argv)
{
	static struct ssdemu_log_entry entries[4096];
	struct ssdemu_log_read arg;
	int fd;

	if (argc != 2)
		return usage();
	fd = open_dev(argv[1]);
	if (fd < 0)
		return 1;
	do {
		memset(&arg, 0, sizeof(arg));
		arg.entries = (uintptr_t)entries;
		arg.max_entries = sizeof(entries) / sizeof(entries[0]);
		if (ioctl(fd, SSDEMU_IOC_READ_LOG, &arg)) {
			fprintf(stderr, "ssdctl: %s: log: %s\n", argv[1], strerror(errno));
			close(fd);
			return 1;
		}
		for (unsigned int i = 0; i < arg.nr_entries; i++)
			log_entry_print(stdout, &entries[i]);
	} while (arg.nr_entries == arg.max_entries);
	close(fd);
	if (arg.dropped_entries)
		fprintf(stderr, "ssdctl: %s: %llu requests were not logged (log full)\n",
			argv[1], (unsigned long long)arg.dropped_entries);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (ssdctl_is_help(argv[1]) || !strcmp(argv[1], "help")) {
		if (argc > 2)
			return ssdctl_help_cmd(argv[2]);
		ssdctl_help_all(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		ssdctl_version();
		return 0;
	}
	for (int i = 2; i < argc; i++)
		if (ssdctl_is_help(argv[i]))
			return ssdctl_help_cmd(argv[1]);
	if (!strcmp(argv[1], "create"))
		return cmd_create(argc - 1, argv + 1);
	if (!strcmp(argv[1], "destroy"))
		return cmd_destroy(argc - 1, argv + 1);
	if (!strcmp(argv[1], "snapshot"))
		return cmd_snapshot(argc - 1, argv + 1);
	if (!strcmp(argv[1], "power-cut"))
		return cmd_power(argc - 1, argv + 1, "power_cut");
	if (!strcmp(argv[1], "power-on"))
		return cmd_power(argc - 1, argv + 1, "power");
	if (!strcmp(argv[1], "stats"))
		return cmd_stats(argc - 1, argv + 1);
	if (!strcmp(argv[1], "inject"))
		return cmd_inject(argc - 1, argv + 1);
	if (!strcmp(argv[1], "watch"))
		return cmd_watch(argc - 1, argv + 1);
	if (!strcmp(argv[1], "reset"))
		return cmd_simple_ioctl(argc - 1, argv + 1, SSDEMU_IOC_RESET_STATS, "reset");
	if (!strcmp(argv[1], "log"))
		return cmd_log(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check")) {
		int ret = cmd_simple_ioctl(argc - 1, argv + 1, SSDEMU_IOC_CHECK, "check");

		if (!ret)
			printf("%s: consistent\n", argv[2]);
		return ret;
	}
	return usage();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_probe - pokes /dev/ssdemuN's ioctls with bad input, for the VM
 * tests.  Prints one "name=result" line per probe; exits 1 if any probe
 * got an answer other than the one the ABI promises.
 *
 *   ioctl_probe errors DEV   unknown ioctl, bad pointer, short and long
 *                            struct sizes
 *   ioctl_probe fd N         GET_STATS on inherited fd N, prints errno name
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "include/ssdemu_ioctl.h"

static int failures;

static void expect(const char *name, int ret, int expected_errno)
{
	int err = ret ? errno : 0;

	printf("%s=%s\n", name, err ? strerror(err) : "ok");
	if (err != expected_errno) {
		printf("  expected %s\n", expected_errno ? strerror(expected_errno) : "ok");
		failures++;
	}
}

/* What an older ssdctl (a struct with only 3 fields) would pass. */
struct stats_v0 {
	__u32 version;
	__u32 struct_bytes;
	__u64 logical_capacity_bytes;
};

/* What a newer ssdctl (a struct twice as large) would pass. */
struct stats_future {
	struct ssdemu_stats now;
	__u64 later[64];
};

static int probe_errors(const char *path)
{
	struct stats_future future;
	struct stats_v0 old;
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror(path);
		return 1;
	}
	expect("unknown_nr", ioctl(fd, _IO(SSDEMU_IOC_MAGIC, 99)), ENOTTY);
	expect("unknown_type", ioctl(fd, _IO('Z', 1)), ENOTTY);
	expect("stats_wrong_dir", ioctl(fd, _IOW(SSDEMU_IOC_MAGIC, 1,
						 struct ssdemu_stats), &future), ENOTTY);
	expect("stats_null", ioctl(fd, SSDEMU_IOC_GET_STATS, NULL), EFAULT);
	expect("stats_bad_pointer", ioctl(fd, SSDEMU_IOC_GET_STATS, (void *)16), EFAULT);
	expect("stats_too_short", ioctl(fd, _IOR(SSDEMU_IOC_MAGIC, 1, __u32), &old),
	       EINVAL);

	memset(&old, 0xff, sizeof(old));
	expect("stats_old_size", ioctl(fd, _IOR(SSDEMU_IOC_MAGIC, 1, struct stats_v0),
				       &old), 0);
	if (old.struct_bytes != sizeof(struct ssdemu_stats) ||
	    old.version != SSDEMU_STATS_VERSION || old.logical_capacity_bytes == ~0ULL) {
		printf("  old-size struct not filled: bytes=%u version=%u\n",
		       old.struct_bytes, old.version);
		failures++;
	}
	memset(&future, 0xee, sizeof(future));
	expect("stats_new_size", ioctl(fd, _IOR(SSDEMU_IOC_MAGIC, 1,
						struct stats_future), &future), 0);
	if (future.now.struct_bytes != sizeof(struct ssdemu_stats) ||
	    future.later[0] != 0xeeeeeeeeeeeeeeeeULL) {
		printf("  kernel wrote past its own struct\n");
		failures++;
	}
	expect("check", ioctl(fd, SSDEMU_IOC_CHECK), 0);
	expect("reset_with_arg_size", ioctl(fd, _IOR(SSDEMU_IOC_MAGIC, 2, __u64), &old),
	       ENOTTY);
	close(fd);
	return failures ? 1 : 0;
}

static int probe_fd(const char *fd_text)
{
	struct ssdemu_stats st;
	int fd = atoi(fd_text);

	if (ioctl(fd, SSDEMU_IOC_GET_STATS, &st))
		printf("fd_stats=%s\n", strerror(errno));
	else
		printf("fd_stats=ok\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "errors"))
		return probe_errors(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fd"))
		return probe_fd(argv[2]);
	fprintf(stderr, "usage: ioctl_probe errors DEV | fd N\n");
	return 2;
}

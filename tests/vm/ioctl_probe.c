// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_probe - pokes /dev/ssdemuN's ioctls with bad input, for the VM
 * tests.  Prints one "name=result" line per probe; exits 1 if any probe
 * got an answer other than the one the ABI promises.
 *
 *   ioctl_probe errors DEV   unknown ioctl, bad pointer, short and long
 *                            struct sizes
 *   ioctl_probe fd N         GET_STATS on inherited fd N, prints errno name
 *   ioctl_probe stale N      every command, with valid arguments, on
 *                            inherited fd N whose disk is gone: each must
 *                            answer ENXIO
 *   ioctl_probe check-loop DEV FIFO
 *                            CHECK on DEV back to back until one fails;
 *                            after the first, one line into FIFO (the
 *                            caller's cue); prints "CHECKLOOP ok=N
 *                            end_errno=E" and then GET_STATS's answer on
 *                            the same fd
 *   ioctl_probe isolation BUSY OTHER POWER_ATTR
 *                            a child on CPU 1 runs CHECK on BUSY back to
 *                            back; once its first check is done, this
 *                            process, on CPU 0, times GET_STATS,
 *                            RESET_STATS, CHECK and READ_LOG on OTHER and
 *                            power cycles through POWER_ATTR (a third
 *                            device's configfs power), then stops the
 *                            child.  Prints "ISOLATION checks=N
 *                            check_ms_min=.. check_ms_max=.. calls=N
 *                            call_ms_max=.. cycles=N cycle_ms_max=..";
 *                            exits 1 if any call failed
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
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

/* Each command, with valid arguments, on an fd whose disk is gone. */
static int probe_stale(const char *fd_text)
{
	struct ssdemu_log_entry entries[4];
	struct ssdemu_log_read log = {
		.entries = (unsigned long)entries,
		.max_entries = 4,
	};
	struct ssdemu_stats st;
	int fd = atoi(fd_text);

	expect("stale_stats", ioctl(fd, SSDEMU_IOC_GET_STATS, &st), ENXIO);
	expect("stale_reset", ioctl(fd, SSDEMU_IOC_RESET_STATS), ENXIO);
	expect("stale_check", ioctl(fd, SSDEMU_IOC_CHECK), ENXIO);
	expect("stale_read_log", ioctl(fd, SSDEMU_IOC_READ_LOG, &log), ENXIO);
	return failures ? 1 : 0;
}

static int probe_check_loop(const char *path, const char *fifo)
{
	struct ssdemu_stats st;
	int fd = open(path, O_RDONLY);
	unsigned long ok = 0;
	int err, cue;

	if (fd < 0) {
		perror(path);
		return 1;
	}
	while (!ioctl(fd, SSDEMU_IOC_CHECK)) {
		if (++ok > 1)
			continue;
		cue = open(fifo, O_WRONLY);
		if (cue < 0 || write(cue, "checking\n", 9) != 9) {
			perror(fifo);
			return 1;
		}
		close(cue);
	}
	err = errno;
	printf("CHECKLOOP ok=%lu end_errno=%d\n", ok, err);
	expect("after_check_loop_stats", ioctl(fd, SSDEMU_IOC_GET_STATS, &st), ENXIO);
	close(fd);
	return failures ? 1 : 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		exit(1);
	}
}

/* What the checking child reports through a pipe. */
struct check_report {
	unsigned long checks;
	double ms_min, ms_max;
	int err;			/* errno of a failed check, or 0 */
};

/* CHECK on @path until a byte arrives on @stop; after the first, cue @go. */
static void check_until_stopped(const char *path, int go, int stop, int report)
{
	struct check_report r = { .ms_min = 1e12 };
	struct pollfd pfd = { .fd = stop, .events = POLLIN };
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		r.err = errno;
	} else {
		do {
			double t0 = now_ms(), ms;

			if (ioctl(fd, SSDEMU_IOC_CHECK)) {
				r.err = errno;
				break;
			}
			ms = now_ms() - t0;
			r.ms_min = ms < r.ms_min ? ms : r.ms_min;
			r.ms_max = ms > r.ms_max ? ms : r.ms_max;
			if (++r.checks == 1 && write(go, "g", 1) != 1)
				r.err = errno;
		} while (!r.err && poll(&pfd, 1, 0) == 0);
	}
	if (r.err && !r.checks && write(go, "g", 1) != 1)
		_exit(1);
	if (write(report, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static int write_attr(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	ssize_t n = (ssize_t)strlen(value);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, value, n) != n)
		ret = -1;
	close(fd);
	return ret;
}

/* Time one call of @what into *@max_ms; count a failure. */
#define TIMED(max_ms, what)						\
	do {								\
		double t0_ = now_ms(), ms_;				\
		if ((what) != 0) {					\
			printf("  %s failed: %s\n", #what, strerror(errno)); \
			failures++;					\
		}							\
		ms_ = now_ms() - t0_;					\
		if (ms_ > *(max_ms))					\
			*(max_ms) = ms_;				\
	} while (0)

static int probe_isolation(const char *busy, const char *other, const char *power)
{
	struct ssdemu_log_entry entries[16];
	struct ssdemu_log_read log = {
		.entries = (unsigned long)entries,
		.max_entries = 16,
	};
	int go[2], stop[2], report[2], fd, i, status;
	double call_ms_max = 0, cycle_ms_max = 0;
	struct check_report r;
	struct ssdemu_stats st;
	unsigned long calls = 0, cycles = 0;
	pid_t child;
	char c;

	if (pipe(go) || pipe(stop) || pipe(report)) {
		perror("pipe");
		return 1;
	}
	child = fork();
	if (child < 0) {
		perror("fork");
		return 1;
	}
	if (!child) {
		pin_to_cpu(1);
		check_until_stopped(busy, go[1], stop[0], report[1]);
	}
	pin_to_cpu(0);
	fd = open(other, O_RDONLY);
	if (fd < 0) {
		perror(other);
		return 1;
	}
	/* The child's first check is done: it is checking from now on. */
	if (read(go[0], &c, 1) != 1) {
		perror("read go");
		return 1;
	}
	for (i = 0; i < 200; i++) {
		TIMED(&call_ms_max, ioctl(fd, SSDEMU_IOC_GET_STATS, &st));
		calls++;
		if (i % 50)
			continue;
		TIMED(&call_ms_max, ioctl(fd, SSDEMU_IOC_RESET_STATS));
		TIMED(&call_ms_max, ioctl(fd, SSDEMU_IOC_CHECK));
		TIMED(&call_ms_max, ioctl(fd, SSDEMU_IOC_READ_LOG, &log));
		calls += 3;
		TIMED(&cycle_ms_max, write_attr(power, "0"));
		TIMED(&cycle_ms_max, write_attr(power, "1"));
		cycles++;
	}
	close(fd);
	if (write(stop[1], "s", 1) != 1 || read(report[0], &r, sizeof(r)) != sizeof(r)) {
		perror("stop the checking child");
		return 1;
	}
	waitpid(child, &status, 0);
	if (r.err) {
		printf("  CHECK on %s failed: %s\n", busy, strerror(r.err));
		failures++;
	}
	printf("ISOLATION checks=%lu check_ms_min=%.1f check_ms_max=%.1f calls=%lu call_ms_max=%.2f cycles=%lu cycle_ms_max=%.1f\n",
	       r.checks, r.ms_min, r.ms_max, calls, call_ms_max, cycles, cycle_ms_max);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "errors"))
		return probe_errors(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "fd"))
		return probe_fd(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "stale"))
		return probe_stale(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "check-loop"))
		return probe_check_loop(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "isolation"))
		return probe_isolation(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: ioctl_probe errors DEV | fd N | stale N | check-loop DEV FIFO | isolation BUSY OTHER POWER_ATTR\n");
	return 2;
}

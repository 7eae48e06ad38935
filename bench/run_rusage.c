// SPDX-License-Identifier: GPL-2.0
/*
 * run_rusage.c - run a command and report its CPU time and peak RSS, for
 * the bench (bench/simspeed.py):
 *
 *   run_rusage COMMAND [ARG]...
 *
 * prints, as the last line of its stderr, "run_rusage: cpu_s=S
 * peak_rss_kb=K" for the command alone (wait4), and exits with its status.
 * A small process of its own forks the command: Linux counts the memory a
 * process had before its exec in the peak RSS of what it runs, so a
 * command started by a large process (the bench's Python) would be
 * charged for it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: run_rusage COMMAND [ARG]...\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("run_rusage: fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[1], argv + 1);
		fprintf(stderr, "run_rusage: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("run_rusage: wait4");
		return 1;
	}
	fprintf(stderr, "run_rusage: cpu_s=%.6f peak_rss_kb=%ld\n",
		ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6, ru.ru_maxrss);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ssdctl_help.c - ssdctl's help texts: one entry per subcommand (its
 * usage, a summary line for `ssdctl --help`, the full description for
 * `ssdctl SUBCMD --help`) and the version.
 */
#include <string.h>

#include "tools/ssdctl/ssdctl_help.h"

#ifndef SSDEMU_VERSION
#define SSDEMU_VERSION "unknown"
#endif

static const struct {
	const char *name;
	const char *usage;
	const char *summary;
	const char *text;
} commands[] = {
	{ "create", "ssdctl create NAME --config FILE [key=value ...]\n"
		    "       ssdctl create NAME --from SNAPSHOT [key=value ...]",
	  "create and power on a device; prints its /dev/ssdemuN",
	  "Makes the configfs item NAME, writes the keys of FILE (key=value lines,\n"
	  "configs/*.conf) and then the key=value arguments, and powers the device\n"
	  "on.  --from makes it from a snapshot instead: the configuration is the\n"
	  "file's, key=value pairs override keys that do not change the device's\n"
	  "shape (timing, latencies, request_log_entries, ...).  The keys a module\n"
	  "knows: /sys/kernel/config/ssdemu/features.  On a refused key nothing is\n"
	  "left behind (dmesg says why).\n" },
	{ "destroy", "ssdctl destroy NAME",
	  "power off and remove a device (its data is lost)",
	  "Powers the device NAME off and removes its configfs item.  Refused\n"
	  "while the block device is open (mounted, or held by a program).\n" },
	{ "power-cut", "ssdctl power-cut NAME",
	  "cut a device's power: what was not durable is lost",
	  "Cuts the power of the device NAME (configfs power_cut): its disk goes\n"
	  "at once, as if unplugged, even while open or mounted.  With\n"
	  "volatile_write_cache=1 the writes not yet flushed are lost (counted in\n"
	  "power_cut_lost_pages); with 0 nothing is.  The device keeps its durable\n"
	  "state: `ssdctl power-on NAME` brings it back (docs/faults.md).\n" },
	{ "power-on", "ssdctl power-on NAME",
	  "power a device on again (after power-cut)",
	  "Powers the device NAME on (configfs power=1) and brings its disk back;\n"
	  "after a power cut, with the state that was durable.\n" },
	{ "snapshot", "ssdctl snapshot save DEV FILE",
	  "save a powered device's whole state to a file",
	  "Writes the device (DEV: /dev/ssdemuN or its NAME) to FILE: data,\n"
	  "mapping, wear, caches and statistics.  FILE is replaced only once the\n"
	  "whole snapshot is written.  `ssdctl create NAME --from FILE` brings it\n"
	  "back.\n" },
	{ "stats", "ssdctl stats DEV [--json | --raw]",
	  "print a device's statistics, grouped",
	  "Reads the device's counters with one ioctl and prints them grouped\n"
	  "(device, host, flash by region and cause, GC, wear, cache, dedup,\n"
	  "timing, RAM) with rates and ratios in units; groups of layers that are\n"
	  "off are left out.  --raw prints every counter by name, one a line;\n"
	  "--json prints every counter as one JSON object.\n" },
	{ "watch", "ssdctl watch DEV [--interval S] [--count N] [--since FILE]",
	  "show the counters that move, every S seconds",
	  "Prints, every S seconds (default 1), the counters that moved since the\n"
	  "last report (change and change per second, and the interval's MiB\n"
	  "written, MiB/s and WAF), N times (--count) or until interrupted.\n"
	  "--since FILE first reports the change since FILE, a `stats DEV --json`\n"
	  "saved earlier.\n" },
	{ "reset", "ssdctl reset DEV",
	  "zero a device's statistics",
	  "Sets the device's counters back to zero; the data, the mapping and the\n"
	  "wear stay as they are.\n" },
	{ "check", "ssdctl check DEV",
	  "check a device's internal consistency",
	  "Checks the device's invariants (mapping against flash, free and valid\n"
	  "page counts, caches, dedup reference counts) and prints \"consistent\", or\n"
	  "fails with the first broken one (dmesg says which).\n" },
	{ "inject", "ssdctl inject DEV [+r|+w|+rw|-r|-w|-rw FIRST[-LAST] | clear]",
	  "make sector ranges fail reads or writes; list them",
	  "Writes the command to the device's inject_errors (DEV: /dev/ssdemuN or\n"
	  "its NAME): +r, +w, +rw add a range of 512-byte sectors whose reads,\n"
	  "writes or both fail with EIO; -r, -w, -rw take it off; clear empties\n"
	  "the list.  Without a command, prints the list.  docs/faults.md.\n" },
	{ "log", "ssdctl log DEV",
	  "print and empty the request log",
	  "Drains the device's request log (request_log_entries > 0): one line per\n"
	  "host request with its times and the flash work it caused.  Requests\n"
	  "that did not fit in the log are counted on stderr.\n" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

bool ssdctl_is_help(const char *arg)
{
	return !strcmp(arg, "--help") || !strcmp(arg, "-h");
}

void ssdctl_help_all(FILE *out)
{
	unsigned int i;

	fprintf(out, "usage: ssdctl COMMAND ARGS   (ssdctl COMMAND --help for one command)\n"
		"       ssdctl --version\n\n"
		"Creates, inspects and removes ssdemu devices (the ssdemu.ko module).\n\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(out, "\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(out, "%s %s\n", i ? "      " : "usage:", commands[i].usage);
	fprintf(out, "\nDEV is /dev/ssdemuN; configfs is /sys/kernel/config/ssdemu "
		"($SSDEMU_CONFIGFS).\n");
}

int ssdctl_help_cmd(const char *cmd)
{
	unsigned int i;

	for (i = 0; i < NR_COMMANDS; i++) {
		if (strcmp(commands[i].name, cmd))
			continue;
		printf("usage: %s\n\n%s: %s.\n\n%s", commands[i].usage, commands[i].name,
		       commands[i].summary, commands[i].text);
		return 0;
	}
	fprintf(stderr, "ssdctl: unknown command '%s' (ssdctl --help)\n", cmd);
	return 2;
}

void ssdctl_version(void)
{
	printf("ssdctl %s\n", SSDEMU_VERSION);
}

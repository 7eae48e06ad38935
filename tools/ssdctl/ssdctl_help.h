/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdctl_help.h - what ssdctl says about itself: --help (every
 * subcommand, one line each), SUBCMD --help (its usage and what it does)
 * and --version (the VERSION file's, as the module's MODULE_VERSION).
 */
#ifndef SSDCTL_HELP_H
#define SSDCTL_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* Whether @arg asks for help (--help, -h). */
bool ssdctl_is_help(const char *arg);

/* Every subcommand's usage and summary to @out. */
void ssdctl_help_all(FILE *out);

/* @cmd's usage and description to stdout: 0, or 2 (to stderr) if unknown. */
int ssdctl_help_cmd(const char *cmd);

/* "ssdctl VERSION" to stdout. */
void ssdctl_version(void);

#endif /* SSDCTL_HELP_H */

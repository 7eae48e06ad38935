/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdsim_main.h - the whole of ssdsim as a function (ssdsim.c): the
 * binary's main() calls it with stdout to print on (ssdsim_cli.c), the
 * shared library's ssdsim_run() with none, and hands the result over.
 */
#ifndef SSDSIM_MAIN_H
#define SSDSIM_MAIN_H

#include <stdio.h>

struct sim_result;

/*
 * ssdsim with @argv (argv[0] the program's name): what it computed into
 * @res (initialised by the caller), printed on @out as the options ask
 * if @out is not NULL; its messages through tools/msg.  The exit status.
 */
int ssdsim_main(int argc, char **argv, FILE *out, struct sim_result *res);

#endif /* SSDSIM_MAIN_H */

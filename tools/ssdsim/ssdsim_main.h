/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdsim_main.h - the whole of ssdsim as a function (ssdsim.c): the
 * binary's main() calls it (ssdsim_cli.c), and so does the shared
 * library's ssdsim_api_run() with its output captured.
 */
#ifndef SSDSIM_MAIN_H
#define SSDSIM_MAIN_H

/* ssdsim with @argv (argv[0] the program's name); the exit status. */
int ssdsim_main(int argc, char **argv);

#endif /* SSDSIM_MAIN_H */

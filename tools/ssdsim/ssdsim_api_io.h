/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssdsim_api_io.h - where libssdsim.so's printing goes.  Every object of
 * the shared library (the core, the platform and ssdsim's sources) is
 * compiled with `-include tools/ssdsim/ssdsim_api_io.h` (Makefile, `make
 * python`): stdout and stderr, and printf()/perror() that use them, become
 * this thread's streams, which ssdsim_api.c points at memory while a call
 * runs (open_memstream) and which are the process's own otherwise.  So
 * the library runs ssdsim's own code, unchanged, and hands back what it
 * printed; the binary is built without this file.
 */
#ifndef SSDSIM_API_IO_H
#define SSDSIM_API_IO_H

#include <stdio.h>

/* This thread's stream for @fd (1: stdout, 2: stderr). */
FILE *ssdsim_api_stream(int fd);
/* perror() onto this thread's stderr. */
void ssdsim_api_perror(const char *what);
/* This thread's streams from now on (NULL: the process's own). */
void ssdsim_api_capture(FILE *out, FILE *err);

#undef stdout
#undef stderr
#define stdout (ssdsim_api_stream(1))
#define stderr (ssdsim_api_stream(2))
#define printf(...) fprintf(stdout, __VA_ARGS__)
#define vprintf(fmt, ap) vfprintf(stdout, fmt, ap)
#define puts(s) fprintf(stdout, "%s\n", s)
#define putchar(c) fputc(c, stdout)
#define perror(s) ssdsim_api_perror(s)

#endif /* SSDSIM_API_IO_H */

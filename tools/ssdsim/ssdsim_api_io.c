// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim_api_io.c - the streams of ssdsim_api_io.h: per thread, the
 * process's stdout and stderr unless ssdsim_api_capture() set others.
 */
#include <errno.h>
#include <string.h>

#include "tools/ssdsim/ssdsim_api_io.h"

static __thread FILE *api_out, *api_err;

void ssdsim_api_capture(FILE *out, FILE *err)
{
	api_out = out;
	api_err = err;
}

/* The C library's own streams, below the header's names for them. */
#undef stdout
#undef stderr

FILE *ssdsim_api_stream(int fd)
{
	if (fd == 1)
		return api_out ? api_out : stdout;
	return api_err ? api_err : stderr;
}

void ssdsim_api_perror(const char *what)
{
	const char *msg = strerror(errno);

	if (what && what[0])
		fprintf(ssdsim_api_stream(2), "%s: %s\n", what, msg);
	else
		fprintf(ssdsim_api_stream(2), "%s\n", msg);
}

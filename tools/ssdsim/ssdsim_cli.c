// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim_cli.c - the ssdsim binary's entry point: the program is
 * ssdsim_main() (ssdsim.c), printing its result on stdout and its
 * messages on stderr; the shared library runs the same without printing.
 */
#include "tools/ssdsim/sim_result.h"
#include "tools/ssdsim/ssdsim_main.h"

int main(int argc, char **argv)
{
	struct sim_result res;
	int status;

	sim_result_init(&res);
	status = ssdsim_main(argc, argv, stdout, &res);
	sim_result_free(&res);
	return status;
}

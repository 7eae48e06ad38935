// SPDX-License-Identifier: GPL-2.0
/*
 * ssdsim_cli.c - the ssdsim binary's entry point; the program is
 * ssdsim_main() (ssdsim.c), which the shared library runs as well.
 */
#include "tools/ssdsim/ssdsim_main.h"

int main(int argc, char **argv)
{
	return ssdsim_main(argc, argv);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_progress.h - a long replay's progress on stderr: requests done, the
 * rate and, when the trace's size is known, the share done and the time
 * left, redrawn in place (\r) at most four times a second and cleared at
 * the end.  On when stderr is a terminal, or as --progress/--no-progress
 * say.
 */
#ifndef SSD_SIM_PROGRESS_H
#define SSD_SIM_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct sim_progress {
	bool on;
	bool drawn;			/* a line is on the terminal */
	unsigned int passes;		/* warm-up passes + the measured one */
	struct timespec start;
	struct timespec last;		/* of the last redraw */
};

/* @mode: 1 on, 0 off, -1 when stderr is a terminal. */
void sim_progress_start(struct sim_progress *p, int mode, unsigned int passes);
/*
 * @requests done in all, in pass @pass (0-based), the trace's bytes
 * @done of @total (0: unknown) in this pass: redrawn if it is time.
 */
void sim_progress_tick(struct sim_progress *p, uint64_t requests, unsigned int pass,
		       uint64_t done, uint64_t total);
/* Clear the line. */
void sim_progress_end(struct sim_progress *p);

#endif /* SSD_SIM_PROGRESS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_disks.h - the disks of a block trace: how one is named (a number
 * in MQSim's traces, "major,minor" in blkparse's and FIU's), the choice of
 * one (ssdsim --disk), and the census of the requests each disk holds.
 * Does not read traces (trace_reader.h does, and fills the census).
 */
#ifndef SSD_TRACE_DISKS_H
#define SSD_TRACE_DISKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A disk of a "major,minor" trace is major << 32 | minor. */
#define TRACE_DISK_PAIR(major, minor)	((uint64_t)(major) << 32 | (uint32_t)(minor))

struct trace_disk_spec {
	bool set;			/* replay this disk only */
	bool pair;			/* named "major,minor", not by one number */
	uint64_t device;
};

struct trace_disk_count {
	uint64_t device;
	uint64_t requests;
};

/* The disks seen, by device number, with their requests. */
struct trace_disks {
	struct trace_disk_count *v;
	size_t count;
	size_t room;
	bool pair;			/* how the trace names them */
	size_t last;			/* where the last request's disk is */
};

/* "N" or "MAJOR,MINOR" into @spec; -1 if it is neither. */
int trace_disk_parse(const char *text, struct trace_disk_spec *spec);
/* @device as the trace names it ("3", "8,16") into @buf. */
void trace_disk_name(bool pair, uint64_t device, char *buf, size_t bytes);
/* Count one request of @device; -1 out of memory. */
int trace_disks_add(struct trace_disks *disks, uint64_t device);
/* Requests of @device seen (0 if none). */
uint64_t trace_disks_requests(const struct trace_disks *disks, uint64_t device);
void trace_disks_free(struct trace_disks *disks);

#endif /* SSD_TRACE_DISKS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_disks.h - the disks of a block trace: how one is named (a number
 * in MQSim's traces, "major,minor" in blkparse's and FIU's, "HOST_N" in
 * MSR Cambridge's, whose disks are numbered per host), the choice of
 * one (ssdsim --disk), and the census of the requests each disk holds.
 * Does not read traces (trace_reader.h does, and fills the census).
 */
#ifndef SSD_TRACE_DISKS_H
#define SSD_TRACE_DISKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A disk of a "major,minor" trace is major << 32 | minor; of a trace
 * naming hosts, the host's index (in order of appearance) << 32 | its disk
 * number, so a trace of one host numbers its disks as the trace does.
 */
#define TRACE_DISK_PAIR(major, minor)	((uint64_t)(major) << 32 | (uint32_t)(minor))
#define TRACE_DISK_HOST_BYTES	32

struct trace_disk_spec {
	bool set;			/* replay this disk only */
	bool pair;			/* named "major,minor", not by one number */
	uint64_t device;		/* with @host: the disk number on it */
	char host[TRACE_DISK_HOST_BYTES];	/* named "HOST_N" ("" if not) */
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
	char (*hosts)[TRACE_DISK_HOST_BYTES];	/* the hosts named, by index */
	size_t nr_hosts;
};

/* "N", "MAJOR,MINOR" or "HOST_N" into @spec; -1 if it is none. */
int trace_disk_parse(const char *text, struct trace_disk_spec *spec);
/* @device as the trace names it ("3", "8,16") into @buf. */
void trace_disk_name(bool pair, uint64_t device, char *buf, size_t bytes);
/* @spec as given ("3", "8,16", "hm_1") into @buf. */
void trace_disk_spec_name(const struct trace_disk_spec *spec, char *buf, size_t bytes);
/* A disk of the census as the trace names it ("hm_1" where it names hosts). */
void trace_disks_name(const struct trace_disks *disks, uint64_t device, char *buf,
		      size_t bytes);
/*
 * The index of host @name (@len bytes), added if new: 0, or -1 if it is
 * too long or out of memory.
 */
int trace_disks_host(struct trace_disks *disks, const char *name, size_t len,
		     uint32_t *index);
/* Count one request of @device; -1 out of memory. */
int trace_disks_add(struct trace_disks *disks, uint64_t device);
/* Requests of @device seen (0 if none). */
uint64_t trace_disks_requests(const struct trace_disks *disks, uint64_t device);
void trace_disks_free(struct trace_disks *disks);

#endif /* SSD_TRACE_DISKS_H */

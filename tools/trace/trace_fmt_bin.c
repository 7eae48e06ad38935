// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fmt_bin.c - the binary trace formats (trace_fmt.h): libCacheSim's
 * oracleGeneral and oracleGeneralOpNS, and VMware's vscsi (both versions), little-endian records
 * read in place from the mapped or decompressed trace.
 */
#include "tools/trace/trace_fmt.h"
#include "tools/msg/msg.h"

#define SECTOR_BYTES	512

static uint64_t le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t times_unit(uint64_t count, uint64_t unit)
{
	return count > UINT64_MAX / unit ? UINT64_MAX : count * unit;
}

bool trace_looks_binary(const unsigned char *p, size_t bytes)
{
	if (bytes > 512)
		bytes = 512;
	for (size_t i = 0; i < bytes; i++)
		if (p[i] < 0x20 && (p[i] < '\t' || p[i] > '\r'))
			return true;
	return false;
}

int trace_scsi_op(unsigned int opcode, unsigned int *op)
{
	switch (opcode) {
	case 0x08: case 0x28: case 0xa8: case 0x88:	/* READ (6, 10, 12, 16) */
		*op = SSDEMU_OP_READ;
		return 0;
	case 0x0a: case 0x2a: case 0xaa: case 0x8a:	/* WRITE (6, 10, 12, 16) */
		*op = SSDEMU_OP_WRITE;
		return 0;
	case 0x35: case 0x91:				/* SYNCHRONIZE CACHE (10, 16) */
		*op = SSDEMU_OP_FLUSH;
		return 0;
	}
	return -1;
}

/* {u32 time_s, u64 obj_id, u32 obj_size, i64 next_access_vtime} */
int trace_parse_oracle(struct trace_reader *tr, const unsigned char *p,
		       struct trace_record *rec, uint64_t *time_ns)
{
	*time_ns = le(p, 4) * 1000000000ULL;
	rec->offset_bytes = times_unit(le(p + 4, 8), SECTOR_BYTES);
	rec->length_bytes = le(p + 12, 4);
	rec->op = SSDEMU_OP_READ;
	rec->content_hash = NULL;
	rec->has_device = false;
	rec->device = 0;
	return 0;
}

/*
 * {u32 time_s, u64 obj_id, u32 obj_size, u8 op, u16 ns, i64 next_access_vtime},
 * packed (27 bytes).  op is libCacheSim's req_op_e; ns (a namespace: the
 * volume of the MSR traces libCacheSim converted) is the record's disk.
 */
int trace_parse_oracle_opns(struct trace_reader *tr, const unsigned char *p,
			    struct trace_record *rec, uint64_t *time_ns)
{
	unsigned int op = p[16];

	switch (op) {
	case 1: case 2: case 12:		/* GET, GETS, READ */
		rec->op = SSDEMU_OP_READ;
		break;
	case 3: case 4: case 5: case 6:		/* SET, ADD, CAS, REPLACE */
	case 7: case 8: case 10: case 11:	/* APPEND, PREPEND, INCR, DECR */
	case 13: case 14:			/* WRITE, UPDATE */
		rec->op = SSDEMU_OP_WRITE;
		break;
	case 9:					/* DELETE */
		rec->op = SSDEMU_OP_TRIM;
		break;
	default:
		msg_say("%s: record %lu: libCacheSim op %u is no read, write or delete\n",
			tr->path, tr->line, op);
		return -2;
	}
	*time_ns = le(p, 4) * 1000000000ULL;
	rec->offset_bytes = times_unit(le(p + 4, 8), SECTOR_BYTES);
	rec->length_bytes = le(p + 12, 4);
	rec->content_hash = NULL;
	rec->has_device = true;
	rec->device = le(p + 17, 2);
	return 0;
}

/*
 * Version 1: {u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts};
 * version 2: {u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG, u64 lbn, u64 ts,
 * u64 rt}.  The version's number is ver's high byte; ts is microseconds.
 */
size_t trace_vscsi_record_bytes(unsigned int version)
{
	return version == 2 ? 40 : 32;
}

unsigned int trace_vscsi_version(const unsigned char *p, size_t bytes)
{
	for (unsigned int version = 2; version >= 1; version--) {
		size_t size = trace_vscsi_record_bytes(version), at = version == 2 ? 2 : 14;
		size_t records = bytes / size < 2 ? bytes / size : 2;
		bool all = records > 0;

		for (size_t i = 0; i < records; i++)
			all &= le(p + i * size + at, 2) >> 8 == version;
		if (all)
			return version;
	}
	return 0;
}

int trace_parse_vscsi(struct trace_reader *tr, const unsigned char *p,
		      struct trace_record *rec, uint64_t *time_ns)
{
	bool v2 = tr->vscsi_version == 2;
	unsigned int cmd = le(p + (v2 ? 0 : 12), 2);
	uint64_t len = le(p + (v2 ? 8 : 4), 4), ts_us = le(p + 24, 8);

	if (le(p + (v2 ? 2 : 14), 2) >> 8 != tr->vscsi_version) {
		msg_say("%s: record %lu: not a vscsi version %u record\n", tr->path,
			tr->line, tr->vscsi_version);
		return -2;
	}
	if (trace_scsi_op(cmd, &rec->op)) {
		msg_say("%s: record %lu: SCSI command 0x%x is no read, write or flush\n",
			tr->path, tr->line, cmd);
		return -2;
	}
	if (ts_us > UINT64_MAX / 1000)
		return -1;
	*time_ns = ts_us * 1000;
	rec->offset_bytes = times_unit(le(p + 16, 8), SECTOR_BYTES);
	rec->length_bytes = len;
	rec->content_hash = NULL;
	rec->has_device = false;
	rec->device = 0;
	return 0;
}

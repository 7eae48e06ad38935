// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_nvme.c - the NVMe passthrough ioctls on /dev/ssdemuN, as far as a
 * block device that is no NVMe controller can answer them, so that
 * nvme-cli's id-ctrl, id-ns, smart-log, error-log and get-log work on it
 * (docs/nvme.md).  NVME_IOCTL_ID answers namespace 1; NVME_IOCTL_ADMIN_CMD
 * and NVME_IOCTL_ADMIN64_CMD answer Identify (controller, namespace 1,
 * active namespace list) and Get Log Page (error log, SMART / Health and
 * the vendor page 0xC0 of the core's counters).  Every other admin opcode
 * and every I/O passthrough command gets an NVMe status, as the nvme
 * driver returns it: positive, the status field with Do Not Retry.  So do
 * an unknown CNS, log page, namespace or a transfer that does not fit;
 * those are kept in the error log.  A command the ioctl cannot carry
 * (flags, metadata) is -EINVAL, memory that cannot be read or written
 * -EFAULT.  Nothing here changes the device, and the core is used under
 * core_lock only while its counters are read.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/nvme.h>
#include <linux/nvme_ioctl.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "abi/ssd_abi.h"
#include "emulator/ssdemu.h"

/* Do Not Retry: NVME_SC_DNR in 6.1, NVME_STATUS_DNR in 6.12. */
#define SSDEMU_NVME_DNR		0x4000

/* MDTS: transfers up to 2^5 pages of 4 KiB (CAP.MPSMIN = 0). */
#define SSDEMU_NVME_MDTS	5
#define SSDEMU_NVME_MAX_XFER	((4096U) << SSDEMU_NVME_MDTS)

/* The composite temperature: modeled, not measured (313 K = 40 C). */
#define SSDEMU_NVME_TEMP_K	313

/* The vendor log page's identifier, size and layout version. */
#define SSDEMU_NVME_LOG_VENDOR	0xc0
#define SSDEMU_NVME_VENDOR_BYTES	512
#define SSDEMU_NVME_VENDOR_LAYOUT	2

/* The byte of a command an error is in (the error log's parameter location). */
#define SSDEMU_NVME_AT_OPCODE	0
#define SSDEMU_NVME_AT_NSID	4
#define SSDEMU_NVME_AT_CDW10	40
#define SSDEMU_NVME_AT_CDW12	48
#define SSDEMU_NVME_AT_NONE	0xffff

/*
 * The vendor page (0xC0): u64 little-endian fields, three of its own (the
 * layout version, the number of fields that follow it and waf_milli),
 * then the counters the table of counters gives a field of it
 * (SSDEMU_STATS_COUNTERS, its vendor column, include/ssdemu_ioctl.h), at
 * that field.  docs/nvme.md has the table, made of the same column, which
 * tests/vm/test_nvme_vm.py checks.
 */
#define SSDEMU_VENDOR_OWN_FIELDS	3

/* Each counter's field in the page, in the table's order (0: not in it). */
#define SSDEMU_VENDOR_FIELD(name, unit, group, since, source, vendor, help)	\
	{ offsetof(struct ssdemu_stats, name), vendor },

static const struct {
	u16 offset;			/* in struct ssdemu_stats */
	u8 field;
} vendor_fields[] = {
	SSDEMU_STATS_COUNTERS(SSDEMU_VENDOR_FIELD)
};

/* The counters in the page (+ 1 each), and whether each one's field is in it. */
#define SSDEMU_VENDOR_COUNT(name, unit, group, since, source, vendor, help)	\
	+ !!(vendor)
#define SSDEMU_VENDOR_FITS(name, unit, group, since, source, vendor, help)	\
	(!(vendor) || ((vendor) >= SSDEMU_VENDOR_OWN_FIELDS &&			\
		       (vendor) < SSDEMU_NVME_VENDOR_BYTES / 8)) &&
#define SSDEMU_VENDOR_COUNTERS	(0 SSDEMU_STATS_COUNTERS(SSDEMU_VENDOR_COUNT))

/* The largest log page (SMART, vendor), built whole before the transfer. */
#define SSDEMU_NVME_LOG_MAX_BYTES	512

/* A passthrough command, from either ioctl's struct. */
struct nvme_cmd {
	struct nvme_passthru_cmd64 c;
	u16 sqid;			/* 0: admin, 1: I/O */
	u16 error_at;			/* SSDEMU_NVME_AT_*, for the error log */
};

void ssdemu_nvme_init(struct ssdemu_disk *sd, const struct ssd_config *cfg)
{
	sd->nvme_info.capacity_bytes = ssd_device_capacity_bytes(sd->core);
	sd->nvme_info.logical_block_bytes = cfg->logical_block_bytes;
	sd->nvme_info.page_size_bytes = cfg->page_size_bytes;
	sd->nvme_info.pe_cycle_limit = cfg->pe_cycle_limit;
	sd->nvme_info.wear_faults = cfg->bad_block_ppm || cfg->grown_bad_ppm;
	sd->nvme_info.volatile_write_cache = cfg->volatile_write_cache;
	spin_lock_init(&sd->nvme_errors.lock);
}

/* An NVMe string field: ASCII, space padded, not terminated. */
static void put_str(char *dst, size_t dst_bytes, const char *src)
{
	size_t len = min(strlen(src), dst_bytes);

	memcpy(dst, src, len);
	memset(dst + len, ' ', dst_bytes - len);
}

/* A 128-bit little-endian counter of a log page. */
static void put_u128(u8 *dst, u64 value)
{
	__le64 lo = cpu_to_le64(value);

	memcpy(dst, &lo, sizeof(lo));
	memset(dst + sizeof(lo), 0, 16 - sizeof(lo));
}

static void id_ctrl(struct ssdemu_disk *sd, struct nvme_id_ctrl *id)
{
	put_str(id->sn, sizeof(id->sn), sd->name);
	put_str(id->mn, sizeof(id->mn), "ssdemu");
	put_str(id->fr, sizeof(id->fr), SSDEMU_VERSION);
	id->mdts = SSDEMU_NVME_MDTS;
	id->ver = cpu_to_le32(0x10400);		/* NVMe 1.4 */
	id->frmw = 0x3;				/* one slot, read-only */
	id->lpa = 0x4;				/* Get Log Page offsets */
	id->elpe = SSDEMU_NVME_ERROR_ENTRIES - 1;
	id->wctemp = cpu_to_le16(343);
	id->cctemp = cpu_to_le16(353);
	put_u128(id->tnvmcap, sd->nvme_info.capacity_bytes);
	id->vwc = sd->nvme_info.volatile_write_cache;
	id->sqes = 0x66;
	id->cqes = 0x44;
	id->nn = cpu_to_le32(1);
	snprintf(id->subnqn, sizeof(id->subnqn), "nqn.2026-11.io.ssdemu:%s", sd->name);
}

static void id_ns(struct ssdemu_disk *sd, struct nvme_id_ns *id)
{
	const struct ssdemu_nvme_info *info = &sd->nvme_info;
	u64 lbas = div_u64(info->capacity_bytes, info->logical_block_bytes);
	u16 page_lbas = info->page_size_bytes / info->logical_block_bytes;

	id->nsze = cpu_to_le64(lbas);
	id->ncap = cpu_to_le64(lbas);
	id->nuse = cpu_to_le64(lbas);
	/* NPWG, NPWA, NPDG, NPDA hold: writes and discards of whole flash pages. */
	id->nsfeat = 1 << 4;
	id->npwg = cpu_to_le16(page_lbas - 1);
	id->npwa = cpu_to_le16(page_lbas - 1);
	id->npdg = cpu_to_le16(page_lbas - 1);
	id->npda = cpu_to_le16(page_lbas - 1);
	put_u128(id->nvmcap, info->capacity_bytes);
	id->nlbaf = 0;
	id->flbas = 0;
	id->lbaf[0].ds = ilog2(info->logical_block_bytes);
}

/* Identify: 4 KiB of data, into @buf (zeroed). */
static u16 identify(struct ssdemu_disk *sd, struct nvme_cmd *cmd, void *buf)
{
	u32 nsid = cmd->c.nsid;
	__le32 *list = buf;

	switch (cmd->c.cdw10 & 0xff) {
	case NVME_ID_CNS_NS:
		if (nsid != 1) {
			cmd->error_at = SSDEMU_NVME_AT_NSID;
			return NVME_SC_INVALID_NS;
		}
		id_ns(sd, buf);
		return 0;
	case NVME_ID_CNS_CTRL:
		id_ctrl(sd, buf);
		return 0;
	case NVME_ID_CNS_NS_ACTIVE_LIST:
		/* The active namespaces above @nsid: 1 or none. */
		if (nsid >= 0xfffffffe) {
			cmd->error_at = SSDEMU_NVME_AT_NSID;
			return NVME_SC_INVALID_NS;
		}
		if (nsid < 1)
			list[0] = cpu_to_le32(1);
		return 0;
	default:
		cmd->error_at = SSDEMU_NVME_AT_CDW10;
		return NVME_SC_INVALID_FIELD;
	}
}

/* The error log: the last errors, newest first; 64 bytes each. */
static u32 error_log(struct ssdemu_disk *sd, void *buf)
{
	struct ssdemu_nvme_errors *e = &sd->nvme_errors;
	struct nvme_error_slot *slot = buf;
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&e->lock, flags);
	for (n = e->count; n > 0 && e->count - n < SSDEMU_NVME_ERROR_ENTRIES; n--, slot++) {
		const struct ssdemu_nvme_error *err =
			&e->entry[(n - 1) % SSDEMU_NVME_ERROR_ENTRIES];

		slot->error_count = cpu_to_le64(err->error_count);
		slot->sqid = cpu_to_le16(err->sqid);
		slot->cmdid = cpu_to_le16(0xffff);
		/* The completion's status field: bit 0 is the phase tag. */
		slot->status_field = cpu_to_le16(err->status << 1);
		slot->param_error_location = cpu_to_le16(err->param_location);
		slot->nsid = cpu_to_le32(err->nsid);
	}
	spin_unlock_irqrestore(&e->lock, flags);
	return SSDEMU_NVME_ERROR_ENTRIES * sizeof(*slot);
}

static u64 errors_logged(struct ssdemu_disk *sd)
{
	unsigned long flags;
	u64 count;

	spin_lock_irqsave(&sd->nvme_errors.lock, flags);
	count = sd->nvme_errors.count;
	spin_unlock_irqrestore(&sd->nvme_errors.lock, flags);
	return count;
}

static void log_error(struct ssdemu_disk *sd, const struct nvme_cmd *cmd, u16 status)
{
	struct ssdemu_nvme_errors *e = &sd->nvme_errors;
	struct ssdemu_nvme_error *err;
	unsigned long flags;

	spin_lock_irqsave(&e->lock, flags);
	err = &e->entry[e->count % SSDEMU_NVME_ERROR_ENTRIES];
	err->error_count = ++e->count;
	err->nsid = cmd->c.nsid;
	err->sqid = cmd->sqid;
	err->status = status;
	err->param_location = cmd->error_at;
	spin_unlock_irqrestore(&e->lock, flags);
}

/* NVMe's data units: thousands of 512-byte units, rounded up. */
static u64 data_units(u64 bytes)
{
	return DIV_ROUND_UP_ULL(DIV_ROUND_UP_ULL(bytes, 512), 1000);
}

/*
 * Available spare: free blocks against the blocks over-provisioning adds
 * (physical less logical capacity), at most 100%.  The threshold is the
 * floor of free blocks only GC may take (SSD_GC_RESERVED_BLOCKS).
 */
static void spare(const struct ssd_stats *st, struct nvme_smart_log *log)
{
	u64 block_bytes = st->page_size_bytes * st->pages_per_block;
	u64 op_blocks = 0;

	if (block_bytes && st->physical_capacity_bytes > st->logical_capacity_bytes)
		op_blocks = div64_u64(st->physical_capacity_bytes -
				      st->logical_capacity_bytes, block_bytes);
	if (!op_blocks) {
		log->avail_spare = st->free_blocks ? 100 : 0;
		log->spare_thresh = 0;
		return;
	}
	log->avail_spare = min_t(u64, 100, div64_u64(st->free_blocks * 100, op_blocks));
	log->spare_thresh = min_t(u64, 100, DIV_ROUND_UP_ULL(SSD_GC_RESERVED_BLOCKS * 100,
							      op_blocks));
	if (log->avail_spare < log->spare_thresh)
		log->critical_warning |= NVME_SMART_CRIT_SPARE;
}

/*
 * With bad blocks or wear-out on (docs/faults.md), the spares are blocks
 * the FTL may still retire: available spare is what is left of them, the
 * threshold 10%, and critical warning bit 3 says the device turned
 * read-only at its end of life.
 */
#define SSDEMU_SPARE_THRESH_PERCENT	10

static void wear_spare(const struct ssd_stats *st, struct nvme_smart_log *log)
{
	log->avail_spare = st->spare_blocks_initial ?
			   div64_u64(st->spare_blocks * 100, st->spare_blocks_initial) : 0;
	log->spare_thresh = SSDEMU_SPARE_THRESH_PERCENT;
	if (log->avail_spare < log->spare_thresh)
		log->critical_warning |= NVME_SMART_CRIT_SPARE;
	if (st->read_only)
		log->critical_warning |= NVME_SMART_CRIT_MEDIA;
}

static void smart_log(struct ssdemu_disk *sd, const struct ssd_stats *st,
		      struct nvme_smart_log *log)
{
	u64 limit_milli = sd->nvme_info.pe_cycle_limit * 1000;

	log->temperature[0] = SSDEMU_NVME_TEMP_K & 0xff;
	log->temperature[1] = SSDEMU_NVME_TEMP_K >> 8;
	if (sd->nvme_info.wear_faults || st->bad_blocks_factory || st->bad_blocks_grown)
		wear_spare(st, log);
	else
		spare(st, log);
	log->percent_used = min_t(u64, 255,
				  div64_u64(st->erase_count_mean_milli * 100, limit_milli));
	put_u128(log->data_units_read, data_units(st->host_read_bytes));
	put_u128(log->data_units_written, data_units(st->host_write_bytes));
	put_u128(log->host_reads, st->read_commands);
	put_u128(log->host_writes, st->write_commands);
	put_u128(log->ctrl_busy_time, div64_u64(st->controller_busy_ns, 60ULL * NSEC_PER_SEC));
	put_u128(log->power_on_hours, div64_u64(st->virtual_time_ns, 3600ULL * NSEC_PER_SEC));
	/* Every host page the medium failed: uncorrectable or injected. */
	put_u128(log->media_errors, st->host_read_error_pages + st->host_write_error_pages);
	put_u128(log->unsafe_shutdowns, st->power_cuts);
	put_u128(log->num_err_log_entries, errors_logged(sd));
	log->temp_sensor[0] = cpu_to_le16(SSDEMU_NVME_TEMP_K);
}

/* WAF by pages in thousandths: flash programs per host page written; 0 before one. */
static u64 waf_milli(const struct ssdemu_stats *st)
{
	return st->host_write_pages ?
	       div64_u64(st->flash_program_pages * 1000, st->host_write_pages) : 0;
}

/* The page from the core's counters, converted to the ABI's struct in @abi. */
static u32 vendor_log(const struct ssd_stats *st, struct ssdemu_stats *abi, __le64 *f)
{
	u32 i;

	ssd_stats_to_uapi(st, abi);
	f[0] = cpu_to_le64(SSDEMU_NVME_VENDOR_LAYOUT);
	f[1] = cpu_to_le64(1 + SSDEMU_VENDOR_COUNTERS);	/* waf_milli and the counters */
	f[2] = cpu_to_le64(waf_milli(abi));
	for (i = 0; i < ARRAY_SIZE(vendor_fields); i++)
		if (vendor_fields[i].field)
			f[vendor_fields[i].field] =
				cpu_to_le64(*(const u64 *)((const u8 *)abi + vendor_fields[i].offset));
	return SSDEMU_NVME_VENDOR_BYTES;
}

/*
 * A log page built whole into @page (zeroed, SSDEMU_NVME_LOG_MAX_BYTES):
 * its size in *@bytes, or an NVMe status; a negative errno if the core is
 * gone.
 */
static int build_log(struct ssdemu_disk *sd, struct nvme_cmd *cmd, u8 lid, void *page,
		     u32 *bytes)
{
	struct ssd_device *core;
	struct {
		struct ssd_stats core;
		struct ssdemu_stats abi;	/* the vendor page's */
	} *st;
	u32 nsid = cmd->c.nsid;

	BUILD_BUG_ON(sizeof(struct nvme_smart_log) > SSDEMU_NVME_LOG_MAX_BYTES);
	BUILD_BUG_ON(SSDEMU_NVME_VENDOR_BYTES > SSDEMU_NVME_LOG_MAX_BYTES);
	BUILD_BUG_ON(SSDEMU_NVME_ERROR_ENTRIES * 64 > SSDEMU_NVME_LOG_MAX_BYTES);
	BUILD_BUG_ON(sizeof(struct nvme_error_slot) != 64);
	BUILD_BUG_ON(!(SSDEMU_STATS_COUNTERS(SSDEMU_VENDOR_FITS) 1));
	BUILD_BUG_ON(sizeof(struct ssdemu_stats) > U16_MAX);
	switch (lid) {
	case NVME_LOG_ERROR:
		*bytes = error_log(sd, page);
		return 0;
	case NVME_LOG_SMART:
		/* The controller's (0, all) or namespace 1's: the same. */
		if (nsid != 0 && nsid != 1 && nsid != NVME_NSID_ALL) {
			cmd->error_at = SSDEMU_NVME_AT_NSID;
			return NVME_SC_INVALID_NS;
		}
		break;
	case SSDEMU_NVME_LOG_VENDOR:
		break;
	default:
		cmd->error_at = SSDEMU_NVME_AT_CDW10;
		return NVME_SC_INVALID_LOG_PAGE;
	}
	st = kzalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	core = ssdemu_core_get(sd);
	if (!core) {
		kfree(st);
		return -ENXIO;
	}
	ssd_device_get_stats(core, &st->core);
	ssdemu_core_put(sd);
	if (lid == NVME_LOG_SMART) {
		smart_log(sd, &st->core, page);
		*bytes = sizeof(struct nvme_smart_log);
	} else {
		*bytes = vendor_log(&st->core, &st->abi, page);
	}
	kfree(st);
	return 0;
}

/* Get Log Page: NUMD dwords from the offset LPO of the page. */
static int get_log(struct ssdemu_disk *sd, struct nvme_cmd *cmd, void *buf, u32 *xfer)
{
	const struct nvme_passthru_cmd64 *c = &cmd->c;
	u64 numd = ((u64)(c->cdw11 & 0xffff) << 16 | c->cdw10 >> 16) + 1;
	u64 offset = (u64)c->cdw13 << 32 | c->cdw12;
	u32 page_bytes;
	void *page;
	int ret;

	if (numd * 4 > SSDEMU_NVME_MAX_XFER) {
		cmd->error_at = SSDEMU_NVME_AT_CDW10;
		return NVME_SC_INVALID_FIELD;
	}
	if (offset & 3) {
		cmd->error_at = SSDEMU_NVME_AT_CDW12;
		return NVME_SC_INVALID_FIELD;
	}
	page = kzalloc(SSDEMU_NVME_LOG_MAX_BYTES, GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	ret = build_log(sd, cmd, c->cdw10 & 0xff, page, &page_bytes);
	if (!ret && offset > page_bytes) {
		cmd->error_at = SSDEMU_NVME_AT_CDW12;
		ret = NVME_SC_INVALID_FIELD;
	}
	if (!ret) {
		/* Past the end of the page: zeros. */
		memcpy(buf, page + offset, page_bytes - offset);
		*xfer = numd * 4;
	}
	kfree(page);
	return ret;
}

/*
 * An admin command's data into @buf (zeroed, SSDEMU_NVME_MAX_XFER bytes):
 * its length in *@xfer, or an NVMe status, or a negative errno.
 */
static int admin_cmd(struct ssdemu_disk *sd, struct nvme_cmd *cmd, void *buf, u32 *xfer)
{
	int ret;

	switch (cmd->c.opcode) {
	case nvme_admin_identify:
		ret = identify(sd, cmd, buf);
		if (!ret)
			*xfer = NVME_IDENTIFY_DATA_SIZE;
		return ret;
	case nvme_admin_get_log_page:
		return get_log(sd, cmd, buf, xfer);
	default:
		cmd->error_at = SSDEMU_NVME_AT_OPCODE;
		return NVME_SC_INVALID_OPCODE;
	}
}

/* One passthrough command (@is64: struct nvme_passthru_cmd64). */
static int passthru(struct ssdemu_disk *sd, void __user *argp, bool is64, bool admin)
{
	struct nvme_passthru_cmd __user *ucmd = argp;
	struct nvme_passthru_cmd64 __user *ucmd64 = argp;
	struct nvme_cmd cmd = { .sqid = admin ? 0 : 1 };
	u32 xfer = 0;
	void *buf;
	int ret;

	/* The 32-bit struct is the 64-bit one up to its result. */
	BUILD_BUG_ON(offsetof(struct nvme_passthru_cmd, result) !=
		     offsetof(struct nvme_passthru_cmd64, rsvd2));
	if (copy_from_user(&cmd.c, argp, is64 ? sizeof(cmd.c) :
			   offsetof(struct nvme_passthru_cmd, result)))
		return -EFAULT;
	/* As the nvme driver: no flags; and no metadata on these commands. */
	if (cmd.c.flags || cmd.c.metadata_len || cmd.c.metadata)
		return -EINVAL;
	if (!admin) {
		/* Reads and writes go through the block device, not here. */
		cmd.error_at = SSDEMU_NVME_AT_OPCODE;
		ret = NVME_SC_INVALID_OPCODE;
		goto status;
	}
	buf = kvzalloc(SSDEMU_NVME_MAX_XFER, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = admin_cmd(sd, &cmd, buf, &xfer);
	/* The data must fit the buffer the command gave: else Invalid Field. */
	if (!ret && xfer > cmd.c.data_len) {
		cmd.error_at = SSDEMU_NVME_AT_NONE;
		ret = NVME_SC_INVALID_FIELD;
	}
	if (!ret && copy_to_user(u64_to_user_ptr(cmd.c.addr), buf, xfer))
		ret = -EFAULT;
	kvfree(buf);
	if (ret < 0)
		return ret;
status:
	if (ret) {
		ret |= SSDEMU_NVME_DNR;
		log_error(sd, &cmd, ret);
	}
	/* Completion dword 0: nothing these commands return there. */
	if (is64 ? put_user(0ULL, &ucmd64->result) : put_user(0U, &ucmd->result))
		return -EFAULT;
	return ret;
}

int ssdemu_nvme_ioctl(struct ssdemu_disk *sd, unsigned int cmd, void __user *argp)
{
	switch (cmd) {
	case NVME_IOCTL_ID:
		return 1;
	case NVME_IOCTL_ADMIN_CMD:
		return passthru(sd, argp, false, true);
	case NVME_IOCTL_ADMIN64_CMD:
		return passthru(sd, argp, true, true);
	case NVME_IOCTL_IO_CMD:
		return passthru(sd, argp, false, false);
	case NVME_IOCTL_IO64_CMD:
		return passthru(sd, argp, true, false);
	default:
		return -ENOTTY;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl_fuzz - hostile ioctls on /dev/ssdemuN, for the VM tests.
 *
 *   ioctl_fuzz DEV RANDOM_CALLS SEED
 *   ioctl_fuzz fd:N RANDOM_CALLS SEED   on inherited fd N, whose disk is
 *                                      gone: ENXIO is allowed too
 *
 * 1. Every SSDEMU_IOC_* command with NULL, unmapped, read-only, kernel,
 *    misaligned and page-straddling pointers (and READ_LOG with such
 *    pointers inside its struct, and every max_entries boundary).
 * 2. RANDOM_CALLS random calls, each with a random pointer of the kinds
 *    above: a quarter real commands (READ_LOG with random contents), a
 *    quarter random numbers of ssdemu's type (number, direction, size) so
 *    that they reach its dispatch, half random numbers of any type.
 * 3. NVMe passthrough (emulator/ssdemu_nvme.c): fixed commands whose
 *    answer is known (an NVMe status for a bogus opcode, CNS, log page,
 *    nsid, length or offset; EFAULT for NULL, unmapped, read-only and
 *    kernel data buffers; EINVAL for flags and metadata), then
 *    RANDOM_CALLS / 2 random ones: random opcodes, nsids, CNS and log ids,
 *    lengths, offsets and pointers, through each passthrough ioctl.  An
 *    NVMe status other than the five the driver gives is "other".
 * The answers allowed are 0 (a valid command on valid memory), a positive
 * NVMe status, and EFAULT, ENOTTY, EINVAL (and ENXIO on a removed disk);
 * anything else is counted as "other".  Prints one line
 * per category: "IOCTL cat=C calls=N ok=N efault=N enotty=N einval=N
 * other=N", and the first few "other" answers; exits 1 if there was any.
 * Block-layer ioctl types (0x12, 'X') are never drawn: they are the
 * block layer's own (discard, partitions), not the driver's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/nvme_ioctl.h>

#include "include/ssdemu_ioctl.h"

#define PAGE_BYTES	4096UL
/* Large enough for any _IOC_SIZE and for READ_LOG's largest read. */
#define BUF_BYTES	(65536UL * sizeof(struct ssdemu_log_entry) + PAGE_BYTES)

struct tally {
	const char *name;
	unsigned long calls, ok, efault, enotty, einval, enxio, other;
};

static int fd;
static int stale_fd;		/* the disk was removed: ENXIO is an answer */
static unsigned long others_shown;
static void *valid_buf, *ro_page, *unmapped_page, *edge_ptr;

static void count(struct tally *t, unsigned long cmd, const char *what, int ret)
{
	int err = ret < 0 ? errno : 0;

	t->calls++;
	switch (err) {
	case 0:
		t->ok++;
		break;
	case EFAULT:
		t->efault++;
		break;
	case ENOTTY:
		t->enotty++;
		break;
	case EINVAL:
		t->einval++;
		break;
	case ENXIO:
		if (stale_fd) {
			t->enxio++;
			break;
		}
		/* fall through */
	default:
		t->other++;
		if (others_shown++ < 20)
			printf("OTHER cat=%s cmd=0x%08lx arg=%s: %s\n", t->name, cmd,
			       what, strerror(err));
	}
}

static void report(const struct tally *t)
{
	printf("IOCTL cat=%s%s calls=%lu ok=%lu efault=%lu enotty=%lu einval=%lu enxio=%lu other=%lu\n",
	       stale_fd ? "stale_" : "", t->name, t->calls, t->ok, t->efault, t->enotty,
	       t->einval, t->enxio, t->other);
}

/* The hostile pointers, with a name each. */
static void *pointer(unsigned int kind, const char **name)
{
	static const char *const names[] = {
		"null", "low", "unmapped", "read-only", "kernel", "misaligned",
		"page-edge", "valid",
	};

	*name = names[kind];
	switch (kind) {
	case 0: return NULL;
	case 1: return (void *)16;
	case 2: return unmapped_page;
	case 3: return ro_page;
	case 4: return (void *)0xffffffff81000000UL;
	case 5: return (char *)valid_buf + 1;
	case 6: return edge_ptr;
	default: return valid_buf;
	}
}
#define NR_POINTERS	8

static void fixed_commands(void)
{
	static const unsigned long cmds[] = {
		SSDEMU_IOC_GET_STATS, SSDEMU_IOC_RESET_STATS, SSDEMU_IOC_CHECK,
		SSDEMU_IOC_READ_LOG,
	};
	struct tally t = { .name = "commands" };
	struct tally l = { .name = "read_log_struct" };
	static const __u32 max_entries[] = { 0, 1, 65536, 65537, 0xffffffffu };
	unsigned int i, k, m;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		for (k = 0; k < NR_POINTERS; k++) {
			const char *name;
			void *p = pointer(k, &name);

			count(&t, cmds[i], name, ioctl(fd, cmds[i], p));
		}
	}
	report(&t);

	/* A well-formed READ_LOG struct whose entries point anywhere. */
	for (k = 0; k < NR_POINTERS; k++) {
		for (m = 0; m < sizeof(max_entries) / sizeof(max_entries[0]); m++) {
			struct ssdemu_log_read arg = { 0 };
			const char *name;

			arg.entries = (uintptr_t)pointer(k, &name);
			/* "misaligned" and "page-edge" hold the struct itself */
			arg.max_entries = max_entries[m];
			count(&l, SSDEMU_IOC_READ_LOG, name, ioctl(fd, SSDEMU_IOC_READ_LOG, &arg));
		}
	}
	report(&l);
}

static void random_commands(unsigned long calls, unsigned int seed)
{
	struct tally ours = { .name = "random_ssdemu_type" };
	struct tally any = { .name = "random_any_type" };
	unsigned long i;

	srand(seed);
	for (i = 0; i < calls; i++) {
		unsigned long cmd = ((unsigned long)rand() << 16) ^ (unsigned long)rand();
		unsigned int kind = rand() % NR_POINTERS;
		unsigned int type;
		const char *name;
		void *p = pointer(kind, &name);

		if (kind == 7)	/* random bytes in the buffer: READ_LOG's struct */
			memset(valid_buf, rand() & 0xff, 64);
		cmd &= 0xffffffffUL;
		if (i % 4 == 0) {
			/* one of the real commands, random memory behind it */
			static const unsigned long real[] = {
				SSDEMU_IOC_GET_STATS, SSDEMU_IOC_RESET_STATS,
				SSDEMU_IOC_CHECK, SSDEMU_IOC_READ_LOG,
			};
			struct ssdemu_log_read *arg = valid_buf;

			cmd = real[rand() % 4];
			if (kind == 7 && rand() % 2) {
				arg->entries = (uintptr_t)pointer(rand() % NR_POINTERS, &name);
				arg->max_entries = rand() % 70000;
			}
			count(&ours, cmd, name, ioctl(fd, cmd, p));
			continue;
		}
		if (i % 2 == 0) {
			/* ssdemu's type; number 0..7, random direction and size */
			cmd = _IOC(rand() % 4, SSDEMU_IOC_MAGIC, rand() % 8,
				   rand() % (_IOC_SIZEMASK + 1));
			count(&ours, cmd, name, ioctl(fd, cmd, p));
			continue;
		}
		type = _IOC_TYPE(cmd);
		if (type == 0x12 || type == 'X')
			cmd ^= 0x40 << _IOC_TYPESHIFT;
		count(&any, cmd, name, ioctl(fd, cmd, p));
	}
	report(&ours);
	report(&any);
}

/* The NVMe statuses the driver answers (with Do Not Retry). */
static int nvme_status_known(int ret)
{
	return ret == 0 || ret == 0x4001 || ret == 0x4002 || ret == 0x400b || ret == 0x4109;
}

/* A call whose answer is known: @want >= 0 a return value, < 0 -errno. */
static void nvme_expect(struct tally *t, const char *what, unsigned long cmd, void *arg,
			int want)
{
	int ret = ioctl(fd, cmd, arg);
	int got = ret < 0 ? -errno : ret;

	if (stale_fd) {
		count(t, cmd, what, ret);
		return;
	}
	t->calls++;
	if (got == want) {
		if (got == -EFAULT)
			t->efault++;
		else if (got == -EINVAL)
			t->einval++;
		else
			t->ok++;
		return;
	}
	t->other++;
	if (others_shown++ < 20)
		printf("OTHER cat=%s %s: got %d, want %d\n", t->name, what, got, want);
}

static void nvme_fixed(void)
{
	struct tally t = { .name = "nvme_fixed" };
	struct nvme_passthru_cmd c;
	struct nvme_passthru_cmd64 c64;
	unsigned int k;

	nvme_expect(&t, "id", NVME_IOCTL_ID, NULL, 1);
	/* Identify Controller into each kind of buffer. */
	for (k = 0; k < NR_POINTERS; k++) {
		const char *name;
		void *p = pointer(k, &name);

		memset(&c, 0, sizeof(c));
		c.opcode = 0x06;
		c.cdw10 = 1;
		c.addr = (uintptr_t)p;
		c.data_len = 4096;
		/* 4 KiB fit behind "misaligned" and "valid" only. */
		nvme_expect(&t, name, NVME_IOCTL_ADMIN_CMD, &c,
			    k == 5 || k == 7 ? 0 : -EFAULT);
	}
	memset(&c, 0, sizeof(c));
	c.opcode = 0x06;
	c.cdw10 = 1;
	c.addr = (uintptr_t)valid_buf;
	c.data_len = 100;
	nvme_expect(&t, "identify-short", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.data_len = 4096;
	c.cdw10 = 0x77;
	nvme_expect(&t, "identify-cns", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.cdw10 = 0;
	c.nsid = 2;
	nvme_expect(&t, "identify-nsid", NVME_IOCTL_ADMIN_CMD, &c, 0x400b);
	c.nsid = 1;
	c.flags = 1;
	nvme_expect(&t, "flags", NVME_IOCTL_ADMIN_CMD, &c, -EINVAL);
	c.flags = 0;
	c.metadata_len = 8;
	nvme_expect(&t, "metadata", NVME_IOCTL_ADMIN_CMD, &c, -EINVAL);
	c.metadata_len = 0;
	c.opcode = 0xff;
	nvme_expect(&t, "opcode", NVME_IOCTL_ADMIN_CMD, &c, 0x4001);
	nvme_expect(&t, "io", NVME_IOCTL_IO_CMD, &c, 0x4001);
	/* Get Log Page SMART: 512 bytes, then bad namespaces, lengths, offsets. */
	c.opcode = 0x02;
	c.nsid = 0xffffffff;
	c.cdw10 = 0x02 | 127 << 16;
	c.data_len = 512;
	nvme_expect(&t, "smart", NVME_IOCTL_ADMIN_CMD, &c, 0);
	c.nsid = 7;
	nvme_expect(&t, "smart-nsid", NVME_IOCTL_ADMIN_CMD, &c, 0x400b);
	c.nsid = 0;
	c.cdw10 = 0x02 | 0xffffu << 16;
	c.cdw11 = 0xffff;
	c.data_len = 0xffffffff;
	nvme_expect(&t, "log-huge", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.cdw10 = 0x02 | 127 << 16;
	c.cdw11 = 0;
	c.data_len = 511;
	nvme_expect(&t, "log-short", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.data_len = 512;
	c.cdw12 = 2;
	nvme_expect(&t, "log-offset-odd", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.cdw12 = 0;
	c.cdw13 = 1;
	nvme_expect(&t, "log-offset-far", NVME_IOCTL_ADMIN_CMD, &c, 0x4002);
	c.cdw13 = 0;
	c.cdw10 = 0x7f | 127 << 16;
	nvme_expect(&t, "log-id", NVME_IOCTL_ADMIN_CMD, &c, 0x4109);
	c.cdw10 = 0x02 | 127 << 16;
	c.addr = 0;
	nvme_expect(&t, "log-null", NVME_IOCTL_ADMIN_CMD, &c, -EFAULT);
	/* The 64-bit struct, and the struct itself unreadable. */
	memset(&c64, 0, sizeof(c64));
	c64.opcode = 0x02;
	c64.cdw10 = 0xc0 | 127 << 16;
	c64.addr = (uintptr_t)valid_buf;
	c64.data_len = 512;
	nvme_expect(&t, "vendor64", NVME_IOCTL_ADMIN64_CMD, &c64, 0);
	nvme_expect(&t, "struct-null", NVME_IOCTL_ADMIN_CMD, NULL, -EFAULT);
	nvme_expect(&t, "struct64-edge", NVME_IOCTL_ADMIN64_CMD, edge_ptr, -EFAULT);
	report(&t);
}

static void nvme_random(unsigned long calls)
{
	static const unsigned long cmds[] = {
		NVME_IOCTL_ADMIN_CMD, NVME_IOCTL_ADMIN64_CMD, NVME_IOCTL_IO_CMD,
		NVME_IOCTL_IO64_CMD, NVME_IOCTL_ID,
	};
	static const __u32 nsids[] = { 0, 1, 2, 0xfffffffe, 0xffffffff };
	static const __u32 lens[] = { 0, 4, 511, 512, 4096, 131072, 131076, 0xffffffff };
	struct tally t = { .name = "random_nvme" };
	struct nvme_passthru_cmd64 c;
	unsigned long i;

	for (i = 0; i < calls; i++) {
		unsigned long cmd = cmds[rand() % 5];
		unsigned int kind = rand() % NR_POINTERS;
		const char *name;
		void *arg = pointer(rand() % 4 ? 7 : rand() % NR_POINTERS, &name);
		int ret;

		memset(&c, 0, sizeof(c));
		c.opcode = rand() % 3 ? (rand() % 2 ? 0x02 : 0x06) : rand() & 0xff;
		c.flags = rand() % 16 ? 0 : rand() & 0xff;
		c.nsid = rand() % 4 ? nsids[rand() % 5] : (__u32)rand();
		c.addr = (uintptr_t)pointer(kind, &name);
		c.data_len = rand() % 4 ? lens[rand() % 8] : (__u32)rand();
		c.metadata_len = rand() % 16 ? 0 : rand();
		c.cdw10 = rand() % 2 ? (__u32)(rand() % 4) : (__u32)rand();
		if (rand() % 2)
			c.cdw10 = (rand() % 2 ? 0xc0 : rand() % 4) | (__u32)(rand() % 256) << 16;
		c.cdw11 = rand() % 2 ? 0 : (__u32)rand();
		c.cdw12 = rand() % 2 ? 0 : (__u32)(rand() % 1024);
		c.cdw13 = rand() % 8 ? 0 : (__u32)rand();
		if (arg == valid_buf)
			memcpy(valid_buf, &c, sizeof(c));
		ret = ioctl(fd, cmd, arg);
		if (ret > 0 && !(cmd == NVME_IOCTL_ID ? ret == 1 : nvme_status_known(ret))) {
			t.calls++;
			t.other++;
			if (others_shown++ < 20)
				printf("OTHER cat=%s cmd=0x%08lx: NVMe status 0x%x\n", t.name,
				       cmd, ret);
			continue;
		}
		count(&t, cmd, name, ret);
	}
	report(&t);
}

int main(int argc, char **argv)
{
	char *pages;

	if (argc != 4) {
		fprintf(stderr, "usage: ioctl_fuzz DEV RANDOM_CALLS SEED\n");
		return 2;
	}
	if (!strncmp(argv[1], "fd:", 3)) {
		fd = atoi(argv[1] + 3);
		stale_fd = 1;
	} else {
		fd = open(argv[1], O_RDWR);
	}
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	valid_buf = mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ro_page = mmap(NULL, PAGE_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* Two pages, the second unmapped: the edge pointer straddles them. */
	pages = mmap(NULL, 2 * PAGE_BYTES, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unmapped_page = mmap(NULL, PAGE_BYTES, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (valid_buf == MAP_FAILED || ro_page == MAP_FAILED || pages == MAP_FAILED ||
	    unmapped_page == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	munmap(unmapped_page, PAGE_BYTES);
	munmap(pages + PAGE_BYTES, PAGE_BYTES);
	edge_ptr = pages + PAGE_BYTES - 8;
	fixed_commands();
	random_commands(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	nvme_fixed();
	nvme_random(strtoul(argv[2], NULL, 0) / 2);
	close(fd);
	return others_shown ? 1 : 0;
}

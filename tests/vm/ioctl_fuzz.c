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
 * The answers allowed are 0 (a valid command on valid memory) and EFAULT,
 * ENOTTY, EINVAL (and ENXIO on a removed disk); anything else is counted as "other".  Prints one line
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
	close(fd);
	return others_shown ? 1 : 0;
}

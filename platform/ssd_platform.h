/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_platform.h - the only platform services the portable core may use.
 *
 * The firmware core (common/, device/, dedup/, nvmcache/, ftl/, flash/)
 * compiles unchanged into the kernel module and into a userspace static
 * library.  Every kernel or libc facility it needs is mapped here:
 * fixed-width types, allocation, one lock type, rescheduling, the machine's
 * RAM size, logging, 64-bit division, memory helpers, SHA-1 and CRC-32.
 * No other core file includes kernel or libc headers.  What is not
 * header-only: ssd_platform_user.c and ssd_sha1_user.c (userspace, SHA-1
 * by OpenSSL's libcrypto) and ssd_sha1_kernel.c (the module, SHA-1 by the
 * kernel's crypto API).
 *
 * Messages: ssd_log_err() for the module as a whole, ssd_dev_err() and
 * ssd_dev_warn_once() for one device, named by its first argument (the
 * configfs item; "" for none).  In the kernel every message starts with
 * the module's name (pr_fmt), in userspace with "ssdemu: ".
 */
#ifndef SSD_PLATFORM_H
#define SSD_PLATFORM_H

#ifdef __KERNEL__

#ifndef pr_fmt
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#endif

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/crc32.h>

/*
 * Metadata tables: sized from the geometry, allocated when a disk powers
 * on.  The device checks their sizes first (SSD_MAX_TABLE_BYTES, and the
 * memory limit); a failure here is -ENOMEM for power=1, never an OOM kill.
 */
static inline void *ssd_zalloc(size_t bytes)
{
	if (bytes > INT_MAX)	/* kvmalloc() would WARN */
		return NULL;
	return kvzalloc(bytes, GFP_KERNEL | __GFP_RETRY_MAYFAIL);
}

static inline void ssd_free(void *ptr)
{
	kvfree(ptr);
}

/*
 * Small tables that grow while a request is served, under the device lock:
 * may sleep but never starts I/O (GFP_NOIO), may fail.  Freed with
 * ssd_free().
 */
static inline void *ssd_zalloc_noio(size_t bytes)
{
	return kzalloc(bytes, GFP_NOIO | __GFP_NOWARN);
}

/*
 * Flash page buffers, allocated under the device lock from queue_rq
 * (BLK_MQ_F_BLOCKING): they may sleep, but never start I/O to get memory
 * (GFP_NOIO: reclaim could write back to this very device), and give up
 * rather than loop or call the OOM killer (__GFP_RETRY_MAYFAIL), so a real
 * shortage fails the I/O.  Callers reserve them before a request changes
 * any state (ssd_pagepool_reserve()).
 */
#define SSD_PAGE_GFP	(__GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static inline void *ssd_page_alloc(size_t bytes)
{
	unsigned int noio;
	void *ptr;

	/* Whole pages straight from the page allocator, as brd does. */
	if (bytes == PAGE_SIZE)
		return (void *)__get_free_page(GFP_NOIO | SSD_PAGE_GFP);
	if (bytes < PAGE_SIZE)
		return kmalloc(bytes, GFP_NOIO | SSD_PAGE_GFP);
	/* kvmalloc() needs GFP_KERNEL for its vmalloc fallback: NOIO by scope. */
	noio = memalloc_noio_save();
	ptr = kvmalloc(bytes, GFP_KERNEL | SSD_PAGE_GFP);
	memalloc_noio_restore(noio);
	return ptr;
}

static inline void ssd_page_free(void *ptr, size_t bytes)
{
	if (bytes == PAGE_SIZE)
		free_page((unsigned long)ptr);
	else
		kvfree(ptr);
}

/*
 * The device locks: sleeping locks, held across a request, which runs in
 * queue_rq of a BLK_MQ_F_BLOCKING queue (process context).
 */
struct ssd_lock {
	struct mutex mutex;
};

#define ssd_lock_init(l)	mutex_init(&(l)->mutex)
#define ssd_lock_destroy(l)	mutex_destroy(&(l)->mutex)
#define ssd_lock_take(l)	mutex_lock(&(l)->mutex)
#define ssd_lock_give(l)	mutex_unlock(&(l)->mutex)

/* Let the scheduler run something else during a long request. */
#define ssd_cond_resched()	cond_resched()

/* RAM of the machine, in bytes (what the memory limit defaults from). */
static inline u64 ssd_total_ram_bytes(void)
{
	return (u64)totalram_pages() << PAGE_SHIFT;
}

#define ssd_log_err(fmt, ...)	pr_err(fmt "\n", ##__VA_ARGS__)
#define ssd_log_info(fmt, ...)	pr_info(fmt "\n", ##__VA_ARGS__)
#define ssd_dev_err(name, fmt, ...) \
	pr_err("%s%s" fmt "\n", (name), (name)[0] ? ": " : "", ##__VA_ARGS__)
/* A broken invariant of the core: a kernel WARN, once per call site. */
#define ssd_dev_warn_once(name, fmt, ...) \
	WARN_ONCE(1, pr_fmt("%s%s" fmt "\n"), (name), (name)[0] ? ": " : "", \
		  ##__VA_ARGS__)

#define ssd_snprintf		snprintf
#define ssd_strcmp		strcmp
#define ssd_strlen		strlen

static inline int ssd_parse_u64(const char *str, u64 *out)
{
	return kstrtou64(str, 0, out);
}

/*
 * CRC-32 (IEEE 802.3, as zlib's crc32()) of @len bytes at @buf, continuing
 * @crc (0 to start): the kernel's lib/crc32, built into vmlinux.
 */
static inline u32 ssd_crc32(u32 crc, const void *buf, size_t len)
{
	return ~crc32_le(~crc, buf, len);
}

/*
 * SHA-1 through the kernel's crypto API (ssd_sha1_kernel.c): one "sha1"
 * shash transform for the module, allocated by ssd_sha1_init() before any
 * device exists and freed by ssd_sha1_exit() after the last one; the
 * crypto API picks the fastest driver loaded (sha1-ssse3/avx/ni, else
 * sha1-generic).
 */
int ssd_sha1_init(void);
void ssd_sha1_exit(void);
/* The driver ssd_sha1_init() got ("sha1-ni", "sha1-generic", ...). */
const char *ssd_sha1_driver(void);

#else /* userspace */

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

/* Like the kernel's: each argument is evaluated once. */
#define min_t(type, a, b) \
	({ type __a = (a), __b = (b); __a < __b ? __a : __b; })
#define max_t(type, a, b) \
	({ type __a = (a), __b = (b); __a > __b ? __a : __b; })

/* Bytes ssd_zalloc() was asked for, ever: tests check size estimates. */
extern u64 ssd_zalloc_bytes_total;

/* The same bound as the kernel's (see SSD_MAX_TABLE_BYTES). */
static inline void *ssd_zalloc(size_t bytes)
{
	if (bytes > 0x7fffffff)
		return NULL;
	__atomic_fetch_add(&ssd_zalloc_bytes_total, bytes, __ATOMIC_RELAXED);
	return calloc(1, bytes ? bytes : 1);
}

static inline void ssd_free(void *ptr)
{
	free(ptr);
}

static inline void *ssd_zalloc_noio(size_t bytes)
{
	return calloc(1, bytes ? bytes : 1);
}

/* Page buffers ssd_page_alloc() still gives; < 0 (the default): no end. */
extern long ssd_page_alloc_budget;

/* Tests make page allocation fail with the budget. */
static inline void *ssd_page_alloc(size_t bytes)
{
	if (!ssd_page_alloc_budget)
		return NULL;
	if (ssd_page_alloc_budget > 0)
		ssd_page_alloc_budget--;
	return malloc(bytes);
}

static inline void ssd_page_free(void *ptr, size_t bytes)
{
	free(ptr);
}

struct ssd_lock {
	pthread_mutex_t mutex;
};

#define ssd_lock_init(l)	pthread_mutex_init(&(l)->mutex, NULL)
#define ssd_lock_destroy(l)	pthread_mutex_destroy(&(l)->mutex)
#define ssd_lock_take(l)	pthread_mutex_lock(&(l)->mutex)
#define ssd_lock_give(l)	pthread_mutex_unlock(&(l)->mutex)

#define ssd_cond_resched()	do { } while (0)

/* sysconf(_SC_PHYS_PAGES) * the page size (ssd_platform_user.c). */
u64 ssd_total_ram_bytes(void);

/* Userspace callers may silence messages, e.g. for negative unit tests. */
extern int ssd_log_quiet;

/*
 * Every message of the core in userspace: printf() onto stderr, or, while
 * this thread has a sink (ssd_log_set_sink()), the formatted text to it:
 * a tool that hands its messages back instead of printing them
 * (libssdsim.so) sets one.  ssd_platform_user.c.
 */
void ssd_log_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
typedef void ssd_log_sink_fn(const char *text);
/* This thread's messages to @sink from now on (NULL: stderr again). */
void ssd_log_set_sink(ssd_log_sink_fn *sink);

#define ssd_log_err(fmt, ...) \
	do { \
		if (!ssd_log_quiet) \
			ssd_log_print("ssdemu: " fmt "\n", ##__VA_ARGS__); \
	} while (0)
#define ssd_log_info(fmt, ...) \
	do { \
		if (!ssd_log_quiet) \
			ssd_log_print("ssdemu: " fmt "\n", ##__VA_ARGS__); \
	} while (0)
#define ssd_dev_err(name, fmt, ...) \
	ssd_log_err("%s%s" fmt, (name), (name)[0] ? ": " : "", ##__VA_ARGS__)

/*
 * A broken invariant of the core: reported once per call site.  The
 * fuzzers build with SSD_WARN_ABORTS: in the kernel this is a WARN, which
 * no input may cause, so there it is a crash to keep.
 */
#ifdef SSD_WARN_ABORTS
#define SSD_WARN_END()	abort()
#else
#define SSD_WARN_END()	do { } while (0)
#endif
#define ssd_dev_warn_once(name, fmt, ...) \
	do { \
		static int __warned; \
		if (!__warned) { \
			__warned = 1; \
			ssd_log_print("ssdemu: WARNING: %s%s" fmt "\n", (name), \
				      (name)[0] ? ": " : "", ##__VA_ARGS__); \
			SSD_WARN_END(); \
		} \
	} while (0)

#define ssd_snprintf		snprintf
#define ssd_strcmp		strcmp
#define ssd_strlen		strlen

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

int ssd_parse_u64(const char *str, u64 *out);


/* CRC-32 as the kernel's: zlib's crc32() (ssd_platform_user.c). */
u32 ssd_crc32(u32 crc, const void *buf, size_t len);

#endif /* __KERNEL__ */

#define SSD_SHA1_BYTES	20

/*
 * The SHA-1 (FIPS 180-4) of @len bytes at @data into @out: the kernel's
 * crypto_shash in the module (ssd_sha1_kernel.c), OpenSSL's libcrypto in
 * userspace (ssd_sha1_user.c).  Never sleeps; safe in any context the
 * core runs in.
 */
void ssd_sha1_digest(const void *data, size_t len, u8 out[SSD_SHA1_BYTES]);

/*
 * A scheduling point every 4096 steps of a loop over a device's pages: a
 * consistency check of a big device runs for seconds under the device
 * lock, and must not hold its CPU (and the work bound to it) that long.
 */
static inline void ssd_check_resched(u64 step)
{
	if (!(step & 4095))
		ssd_cond_resched();
}

static inline bool ssd_is_power_of_2(u64 n)
{
	return n != 0 && (n & (n - 1)) == 0;
}

/*
 * The largest table ssd_zalloc() hands out: kvmalloc() refuses (with a
 * WARN) anything over INT_MAX bytes.  Userspace keeps the same bound, so a
 * geometry is accepted or refused alike everywhere.
 */
#define SSD_MAX_TABLE_BYTES	0x7fffffffULL
/* What a sum of table sizes becomes once one table is over that bound. */
#define SSD_TABLE_TOO_BIG	U64_MAX

/*
 * @total plus @nr_tables tables of @count entries of @entry_bytes each:
 * SSD_TABLE_TOO_BIG if one such table (or @total already) is too big.
 */
static inline u64 ssd_tables_add(u64 total, u64 nr_tables, u64 count, u64 entry_bytes)
{
	if (total == SSD_TABLE_TOO_BIG || count > SSD_MAX_TABLE_BYTES / entry_bytes)
		return SSD_TABLE_TOO_BIG;
	return total + nr_tables * count * entry_bytes;
}

#endif /* SSD_PLATFORM_H */

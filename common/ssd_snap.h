/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ssd_snap.h - the snapshot stream: how the core writes a device's state
 * to a file and reads it back, in the module and in ssdsim alike.
 *
 * A snapshot is a sequence of sections, each a tag, a payload length, the
 * payload and a CRC-32 of the payload (the platform's ssd_crc32(), zlib's
 * polynomial).  Every integer is little-endian, whatever the CPU; structs
 * are written field by field (struct ssd_snap_field), never as memory
 * images, and pointers never.  The writer and the reader are callbacks,
 * so the kernel streams to a struct file and ssdsim to stdio, and nothing
 * is staged in RAM: page data goes from the page buffers to the file.
 *
 * Errors are sticky: after the first one every put and get does nothing
 * and the writer's or reader's error field holds it, so a save or load
 * function checks once, at its end.  A reader never trusts what it reads:
 * every length and index is checked by its user before it is used (a
 * snapshot is input, like a trace).  Portable.
 */
#ifndef SSD_SNAP_H
#define SSD_SNAP_H

#include "platform/ssd_platform.h"

/* Four characters as a section tag, in file order ("FTL " is 'F' first). */
#define SSD_SNAP_TAG(a, b, c, d) \
	((u32)(a) | (u32)(b) << 8 | (u32)(c) << 16 | (u32)(d) << 24)

struct ssd_snap_writer {
	/* Write @len bytes; 0 or a negative errno. */
	int (*write)(struct ssd_snap_writer *w, const void *buf, size_t len);
	u64 bytes;		/* written so far, the framing included */
	u32 crc;		/* of the current section's payload */
	u64 section_left;	/* payload bytes the current section still owes */
	int error;
	const char *dev_name;	/* for messages */
};

struct ssd_snap_reader {
	/* Read exactly @len bytes; 0, -ENODATA at the end, or a negative errno. */
	int (*read)(struct ssd_snap_reader *r, void *buf, size_t len);
	u64 bytes;		/* read so far */
	u32 crc;
	u64 section_left;	/* payload bytes of the current section not read */
	u32 section_tag;
	bool in_section;	/* opened and not closed: its CRC not yet read */
	int error;
	const char *dev_name;
};

/* A field of a struct written to a snapshot: its offset and width (1, 2, 4, 8). */
struct ssd_snap_field {
	u32 offset;
	u32 bytes;
};

#define SSD_SNAP_FIELD(type, member) \
	{ offsetof(type, member), sizeof(((type *)0)->member) }

/*
 * A writer that only counts (ssd_snap_counter_init()): a save function run
 * with it gives its section's length, which the real run then writes
 * first.  Save functions must write the same bytes each time they run.
 */
void ssd_snap_counter_init(struct ssd_snap_writer *w);

/* Sections: the tag and the exact payload length, then the payload. */
void ssd_snap_begin(struct ssd_snap_writer *w, u32 tag, u64 payload_bytes);
/* Write the CRC; -EIO (logged) if the payload was not the length begun. */
void ssd_snap_end(struct ssd_snap_writer *w);
/*
 * Read the next section's header; -EINVAL (logged) unless its tag is @tag
 * and its length at most @max_bytes.  *@payload_bytes gets the length.
 */
void ssd_snap_open(struct ssd_snap_reader *r, u32 tag, u64 max_bytes, u64 *payload_bytes);
/* Check the CRC and that the whole payload was read: -EINVAL (logged). */
void ssd_snap_close(struct ssd_snap_reader *r);

void ssd_snap_put(struct ssd_snap_writer *w, const void *buf, size_t len);
void ssd_snap_put_u8(struct ssd_snap_writer *w, u8 v);
void ssd_snap_put_u32(struct ssd_snap_writer *w, u32 v);
void ssd_snap_put_u64(struct ssd_snap_writer *w, u64 v);
/* @count integers of @bytes each (1, 2, 4 or 8) at @array, little-endian. */
void ssd_snap_put_array(struct ssd_snap_writer *w, const void *array, u64 count, u32 bytes);
/* @count structs of @stride bytes at @base, the fields @fields of each. */
void ssd_snap_put_structs(struct ssd_snap_writer *w, const void *base, u64 count,
			  size_t stride, const struct ssd_snap_field *fields, u32 nr_fields);

/*
 * Virtual times in a snapshot are at most this (2^62 ns, 146 years), so
 * the model's sums of times never wrap: a later time is a larger one.
 */
#define SSD_SNAP_MAX_NS		(1ULL << 62)

void ssd_snap_get(struct ssd_snap_reader *r, void *buf, size_t len);
u8 ssd_snap_get_u8(struct ssd_snap_reader *r);
u32 ssd_snap_get_u32(struct ssd_snap_reader *r);
u64 ssd_snap_get_u64(struct ssd_snap_reader *r);
void ssd_snap_get_array(struct ssd_snap_reader *r, void *array, u64 count, u32 bytes);
/* A virtual time (@what names it): refused over SSD_SNAP_MAX_NS. */
u64 ssd_snap_get_ns(struct ssd_snap_reader *r, const char *what);
/* @count virtual times into @array, each refused over SSD_SNAP_MAX_NS. */
void ssd_snap_get_ns_array(struct ssd_snap_reader *r, u64 *array, u64 count, const char *what);
void ssd_snap_get_structs(struct ssd_snap_reader *r, void *base, u64 count, size_t stride,
			  const struct ssd_snap_field *fields, u32 nr_fields);

/*
 * The counters of a struct of u64 counters and nothing else at @counters
 * (a struct of another size does not build), each written in the order
 * the struct declares it: a counter added to the struct is in the
 * snapshot, with no list of fields to keep.
 */
#define ssd_snap_nr_counters(counters)					\
	({								\
		_Static_assert(sizeof(*(counters)) % sizeof(u64) == 0,	\
			       "a struct of u64 counters");		\
		sizeof(*(counters)) / sizeof(u64);			\
	})
#define ssd_snap_put_counters(w, counters)				\
	ssd_snap_put_array(w, counters, ssd_snap_nr_counters(counters), sizeof(u64))
#define ssd_snap_get_counters(r, counters)				\
	ssd_snap_get_array(r, counters, ssd_snap_nr_counters(counters), sizeof(u64))

/* Bytes ssd_snap_put_structs() writes for @count structs of @fields. */
u64 ssd_snap_structs_bytes(u64 count, const struct ssd_snap_field *fields, u32 nr_fields);

/*
 * Inside a section, whether its payload is corrupt: the rest of it is read
 * and its CRC checked.  A mismatch (or a truncated file) is logged and made
 * the reader's error: true.  False outside a section, after an error, or
 * when the section is intact (the reader is then past it: use it only to
 * refuse).
 */
bool ssd_snap_corrupt(struct ssd_snap_reader *r);

/*
 * Refuse what was read: log why (naming the device) and make -EINVAL the
 * reader's error if it has none yet.  Inside a section its checksum is
 * verified first, so a corrupted file is refused as corrupted, not for
 * the nonsense its flipped byte made (ssd_snap_corrupt()).  Evaluates to
 * -EINVAL.
 */
#define ssd_snap_refuse(r, fmt, ...)					\
	({								\
		if (!(r)->error && !ssd_snap_corrupt(r))		\
			ssd_dev_err((r)->dev_name, "snapshot refused: " fmt, \
				    ##__VA_ARGS__);			\
		if (!(r)->error)					\
			(r)->error = -EINVAL;				\
		-EINVAL;						\
	})

#endif /* SSD_SNAP_H */

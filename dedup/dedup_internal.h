/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup_internal.h - the workings of in-device deduplication (Kim et al.,
 * "Deduplication in SSDs: Model and Quantitative Analysis", MSST 2012), a
 * layer of the request path above the write cache and the FTL; private to
 * dedup/ (dedup.h is its public face; white-box unit tests see this too).
 *
 * Mapping with one indirection.  The layer maps each host page (lpn) to a
 * chunk id, and chunk ids are the lpns it reads, writes and trims in the
 * layer below: a chunk is one page of unique data, stored once below.
 * Many host pages may share a chunk; each chunk has a reference count (the
 * host pages mapping to it).  A duplicate write points its lpn at the
 * existing chunk (refcount + 1) and reaches no layer below; a TRIM drops
 * a reference, and a chunk whose count falls to zero is trimmed below and
 * its id goes back on the free list.  An overwrite of a page whose chunk
 * is unshared (refcount 1) with data that is no duplicate keeps the chunk
 * id and rewrites it below (its old fingerprint leaves the store, the new
 * one enters), as a plain FTL rewrites the same logical page, so a write
 * cache below sees the rewrite as one; only a duplicate, or an overwrite
 * of a shared chunk (which drops a reference), changes the page's chunk
 * id.  The layers below see one lpn per chunk, so GC moves a shared page
 * with the one map update it makes for any page, whatever its refcount:
 * the chunk map is the reverse map the paper asks for.
 *
 * Write buffer.  A write waits in a FIFO buffer (dedup_buffer_pages
 * entries, at most dedup_buffer_bytes); a rewrite of a buffered page
 * replaces its data in place, a read of one is served from the buffer, a
 * TRIM drops it.  The dedup decision is taken when a write leaves the
 * buffer: the oldest leaves when a new write finds it full, all leave on
 * a FLUSH.  A write that enters the buffer lets go of its page's old
 * chunk at once: a shared one loses a reference; an unshared one is
 * reserved for it (its old data stays readable below, it can no longer be
 * matched: chunk_slot DEDUP_RESERVED) and is rewritten when the write
 * leaves as unique data, or trimmed if it leaves as a duplicate or is
 * trimmed.  So a buffered write with a reserved chunk needs no new page
 * when it leaves and one without needs at most one (the front end's data
 * cap counts on that: see dedup_pending_pages()).
 *
 * Decision of a leaving write: with the sampling filter on, its sample
 * (dedup_sample_bytes at dedup_sample_offset_bytes) is looked up among the
 * buffered writes (Kim's buckets: a write is fingerprinted if another
 * buffered write had its sample while it waited, the one that left
 * before it included), and with dedup_filter_live_chunks=1 among the
 * other buffered writes now and the live chunks; only a write whose
 * sample recurs is fingerprinted (SHA-1), the others are written as unique
 * chunks, never shared.  With the live chunks, a chunk that matches but
 * was written without a fingerprint is fingerprinted then (read from below
 * and hashed, "late"), so the filter loses no duplicate that the store
 * would find.  The fingerprint is looked up in the store: a hit is a
 * duplicate, a miss writes a new chunk below and enters the store.  The
 * store holds every live fingerprint (dedup_store_entries = 0) or the last
 * N used (an LRU: the recency-based store).
 *
 * Time: fingerprints and lookups run on the controller's dedup engines
 * (dedup_hash_engines of them, 1 by default), each a serial timeline of
 * this layer (dedup_hash_ns per SHA-1: 80 us for the paper's hardware
 * engine; 813 us ARM9, 5772 us ARM7, 6212 us MicroBlaze in software;
 * dedup_lookup_ns per store lookup); a job goes to the engine free first.
 * The flash program of a unique chunk starts when its fingerprint and
 * lookup are done.  By default a write is fingerprinted when it leaves
 * the buffer, on the path of the write that pushed it out; with
 * dedup_hash_overlap=1 its fingerprint and lookup are booked from the
 * moment its data entered the buffer (in buffer order, as a firmware
 * hashing buffered writes would), so a write that waited longer than
 * that does not wait for it when it leaves.  Which writes are
 * fingerprinted, and what the lookup finds, is decided when they leave,
 * as without overlap: only time changes.  Late fingerprints read their
 * chunk below when the write that needs them leaves.  Portable.
 */
#ifndef SSD_DEDUP_INTERNAL_H
#define SSD_DEDUP_INTERNAL_H

#include "common/ssd_layer.h"
#include "dedup/dedup.h"
#include "dedup/dedup_sha1.h"

#define DEDUP_NONE	U32_MAX		/* no chunk / no slot / end of a list */
#define DEDUP_EVICTED	(U32_MAX - 1)	/* chunk_slot: fingerprint left the LRU */
#define DEDUP_RESERVED	(U32_MAX - 2)	/* chunk_slot: held by a buffered overwrite */

/* One fingerprint of the store. */
struct dedup_store_slot {
	u8 sha1[DEDUP_SHA1_BYTES];
	u32 chunk;		/* the live chunk with this fingerprint */
	u32 hash_next;		/* next slot of the hash bucket */
	u32 lru_prev, lru_next;	/* recency list, most recent first */
};

/* One buffered write. */
struct dedup_buffer_entry {
	u64 lpn;		/* U64_MAX: a hole left by a TRIM */
	void *buf;		/* the page data (a flash page buffer) */
	/* The host request it came from (ssd_io), passed down when it leaves. */
	u64 request_seq;
	u64 request_bytes;
	u32 chunk;		/* the lpn's unshared chunk it reserves, or DEDUP_NONE */
	u32 sample_key;		/* hash of the filter's sample */
	u32 lpn_next;		/* next entry of the lpn hash bucket */
	u32 sample_next;	/* next and previous entries of the */
	u32 sample_prev;	/* sample hash bucket (DEDUP_NONE: first) */
	/* Filter: another buffered write had its sample while it waited. */
	bool paired;
	/* When its data entered the buffer (or replaced the data there). */
	u64 ready_ns;
};

/*
 * One sample key of live chunks (filter on): how many of them the store
 * can match (fingerprinted and in the store, or never fingerprinted), and
 * the one never fingerprinted, if any (there is at most one: a write whose
 * sample matches is fingerprinted, and it fingerprints that one first).
 */
struct dedup_sample {
	u32 key;
	u32 next;		/* next entry of the hash bucket, or of the free list */
	u32 matchable;		/* live chunks with this key not evicted from the store */
	u32 unhashed;		/* the chunk with this key never fingerprinted, or DEDUP_NONE */
};

struct dedup_counters {
	u64 chunks_written;	/* writes that left the buffer (decisions) */
	u64 fingerprinted;	/* SHA-1s computed, late ones included */
	u64 late_fingerprints;	/* of live chunks, on a sample match */
	u64 filtered;		/* written without a fingerprint (filter) */
	u64 duplicates;		/* leaving writes that matched a live chunk */
	u64 store_hits;
	u64 store_misses;
	u64 store_evictions;
	u64 buffer_rewrites;	/* writes that replaced a buffered write */
	u64 buffer_trims;	/* buffered writes a TRIM dropped */
	u64 buffer_reads;	/* reads served from the buffer */
	u64 engine_busy_ns;	/* dedup engine time: hashing and lookups */
	u64 hash_wait_ns;	/* leaving writes' wait for their fingerprints */
};

struct dedup {
	struct ssd_layer layer;
	struct ssd_pagepool *pool;
	const char *dev_name;
	u64 pages;		/* host pages = chunk ids */
	u32 page_bytes;
	/* Configuration. */
	bool filter;		/* dedup_filter: over the buffered writes */
	bool filter_chunks;	/* and the live chunks (dedup_filter_live_chunks) */
	u32 sample_bytes, sample_offset;
	u64 hash_ns, lookup_ns, program_ns;
	u32 engines;		/* dedup_hash_engines */
	bool overlap;		/* dedup_hash_overlap */
	u64 engine_load_ppm;	/* see ssd_dedup_engine_load_ppm() */
	/* The map: lpn -> chunk, refcount and free list of chunks. */
	u32 *l2c;		/* [pages] */
	u32 *refcount;		/* [pages] by chunk id; 0: free */
	u32 *free_next;		/* [pages] singly linked free list */
	u32 free_head;
	u64 nr_free;
	u64 mapped_lpns;	/* lpns mapped to a chunk (not buffered) */
	/* Per chunk: its store slot, DEDUP_NONE or DEDUP_EVICTED. */
	u32 *chunk_slot;	/* [pages] */
	/* Sampling filter over live chunks (filter_chunks only). */
	u32 *chunk_sample;	/* [pages] sample key of each live chunk */
	struct dedup_sample *samples;	/* [pages]: one per key at most */
	u32 *sample_buckets;	/* [sample_mask + 1] */
	u32 sample_mask;
	u32 sample_free;	/* free entries, linked by next */
	/* The fingerprint store. */
	struct dedup_store_slot *slots;	/* [store_cap] */
	u32 *store_buckets;	/* [store_mask + 1] */
	u32 store_mask;
	u32 store_cap;
	u32 store_used;
	bool store_lru;		/* an LRU of dedup_store_entries; else full */
	u32 lru_head, lru_tail;	/* most and least recent */
	u32 slot_free;		/* free slots, linked by hash_next */
	/* The write buffer: a FIFO ring. */
	struct dedup_buffer_entry *buffer;	/* [buffer_cap] */
	u32 *buffer_lpn_buckets;		/* [buffer_mask + 1] */
	u32 *buffer_sample_buckets;		/* [buffer_mask + 1] */
	u32 buffer_mask;
	u32 buffer_cap;
	u32 buffer_head;	/* oldest position */
	u32 buffer_slots;	/* positions in use, holes included */
	u32 buffered;		/* live entries */
	u32 buffered_new;	/* live entries without a reserved chunk */
	/* The dedup engines' timelines: when each is next free. */
	u64 engine_free_ns[SSD_DEDUP_MAX_ENGINES];
	u64 metadata_bytes;
	struct dedup_counters counters;
};

/* The tables ssd_dedup_init() allocates for @cfg (see ssd_tables_add()). */
u64 ssd_dedup_table_bytes(const struct ssd_config *cfg);

int ssd_dedup_init(struct dedup *dd, const struct ssd_config *cfg,
	       const struct ssd_layer_env *env);
void ssd_dedup_exit(struct dedup *dd);

int ssd_dedup_read(struct dedup *dd, u64 lpn, struct ssd_io *io, const void **data);
int ssd_dedup_write(struct dedup *dd, u64 lpn, void *buf, struct ssd_io *io);
int ssd_dedup_trim(struct dedup *dd, u64 lpn, struct ssd_io *io);
/* Every buffered write leaves the buffer, then the layer below flushes. */
int ssd_dedup_flush(struct dedup *dd, struct ssd_io *io);

/*
 * A power cut: every buffered write is dropped, unwritten (a volatile
 * write cache's loss); the chunk a write reserved is released as on a
 * TRIM, so its page reads zeros.  Returns the writes dropped.
 */
u64 ssd_dedup_power_cut(struct dedup *dd, u64 now_ns);

/* Whether a write of @lpn now takes no new data page (ssd_layer_ops.holds). */
bool ssd_dedup_holds(const struct dedup *dd, u64 lpn);

/*
 * Buffered writes that may each need one data page when they leave: those
 * without a reserved chunk (one with it rewrites that chunk's page).
 */
static inline u64 dedup_pending_pages(const struct dedup *dd)
{
	return dd->buffered_new;
}

/* The chunk @lpn maps to, or DEDUP_NONE (unmapped or buffered). */
static inline u32 dedup_chunk_of(const struct dedup *dd, u64 lpn)
{
	return dd->l2c[lpn];
}

/* Whether @lpn is in the write buffer. */
bool ssd_dedup_is_buffered(const struct dedup *dd, u64 lpn);

/*
 * Full consistency check (refcounts, free list, store, sample index,
 * buffer), linear in the device size: 0 or -EUCLEAN (logged).  It counts
 * references in the refcount table itself and puts it back as it was.
 */
int ssd_dedup_check(struct dedup *dd);

/*
 * The model's break-even duplication rate at QD1, in ppm (dedup/README.md):
 * with the fingerprint on the write path (no overlap, or no buffer),
 * Kim's (hash + lookup) / program; with dedup_hash_overlap=1 and a
 * buffer, 0 if the engines fingerprint a page in no more than a program
 * ((hash + lookup) / engines <= program), else that ratio (over 100%:
 * never).
 */
u64 ssd_dedup_break_even_ppm(const struct dedup *dd);

/*
 * The engines' time per page over the flash's at full write bandwidth, in
 * ppm: ((hash + lookup) / engines) / max((transfer + program) / chips,
 * transfer / channels), for @cfg.  Up to 10^6 the engines keep up with the
 * flash and at full load dedup pays from any duplicate rate; above, they
 * bound the write throughput, and at full load it never pays.
 */
u64 ssd_dedup_engine_load_ppm(const struct ssd_config *cfg);

/* The dedup layer of @layer, or NULL if it is another layer. */
struct dedup *ssd_dedup_from_layer(struct ssd_layer *layer);

/*
 * Snapshots: the layer's DDUP section (dedup_snap.c), with the parts of
 * the sample index (dedup_sample.c) and the store (dedup_store.c) in their
 * files.  Loading checks every index and list before anything walks it;
 * ssd_dedup_check() (the device runs it after the load) checks the rest.
 */
void ssd_dedup_save(struct dedup *dd, struct ssd_snap_writer *w);
void ssd_dedup_load(struct dedup *dd, struct ssd_snap_reader *r);
void ssd_dedup_sample_save(const struct dedup *dd, struct ssd_snap_writer *w);
void ssd_dedup_sample_load(struct dedup *dd, struct ssd_snap_reader *r);
void ssd_dedup_store_save(const struct dedup *dd, struct ssd_snap_writer *w);
void ssd_dedup_store_load(struct dedup *dd, struct ssd_snap_reader *r);

/* The write buffer (dedup.c): the filter's key of @page (0 with the filter off). */
u32 ssd_dedup_buffer_key(const struct dedup *dd, const void *page);
/*
 * Put write @w (its lpn not buffered) at free ring position @e and index
 * it; the caller counts the position in buffer_slots.
 */
void ssd_dedup_buffer_place(struct dedup *dd, u32 e, const struct dedup_buffer_entry *w);

/* The sample index of live chunks (dedup_sample.c), filter_chunks only. */
u32 ssd_dedup_sample_find(const struct dedup *dd, u32 key);
void ssd_dedup_sample_add(struct dedup *dd, u32 chunk, u32 key, bool hashed);
void ssd_dedup_sample_hashed(struct dedup *dd, u32 chunk);
void ssd_dedup_sample_evicted(struct dedup *dd, u32 chunk);
void ssd_dedup_sample_remove(struct dedup *dd, u32 chunk);
void ssd_dedup_sample_reset(struct dedup *dd);

/* Fingerprint store internals (dedup_store.c). */
u32 ssd_dedup_store_find(struct dedup *dd, const u8 sha1[DEDUP_SHA1_BYTES]);
void ssd_dedup_store_touch(struct dedup *dd, u32 slot);
void ssd_dedup_store_insert(struct dedup *dd, u32 chunk, const u8 sha1[DEDUP_SHA1_BYTES]);
void ssd_dedup_store_remove(struct dedup *dd, u32 chunk);
void ssd_dedup_store_reset(struct dedup *dd);

#endif /* SSD_DEDUP_INTERNAL_H */

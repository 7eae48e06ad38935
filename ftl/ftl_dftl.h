/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftl_dftl.h - DFTL's cached mapping table (Gupta et al., ASPLOS 2009),
 * private to ftl/: the model of a controller that keeps the main region's
 * page map on flash, in translation pages, and only dftl_cmt_entries of its
 * entries in RAM.  See ftl_dftl.c.
 *
 * The simulator's own L2P stays the truth about where data is; this model
 * says which entries the controller has in RAM (the CMT, LRU, each entry
 * clean or dirty), where each translation page is on flash (the GTD), and
 * what keeping them costs: translation page reads and writes as flash
 * operations under SSD_CAUSE_MAP, on translation blocks (main-region blocks
 * in state FTL_BLOCK_TRANSLATION) with their own GC.
 */
#ifndef SSD_FTL_DFTL_H
#define SSD_FTL_DFTL_H

#include "common/ssd_slot_list.h"
#include "ftl/ftl_internal.h"

struct ftl_dftl_counters {
	u64 cmt_hits;			/* host map lookups the CMT held */
	u64 cmt_misses;			/* host map lookups that loaded an entry */
	u64 translation_reads;		/* translation pages read (misses, write-backs) */
	u64 translation_writes;		/* translation pages written back */
	u64 translation_gc_pages;	/* translation pages translation GC moved */
};

enum dftl_pending {
	DFTL_PENDING_NO,	/* not on the list */
	DFTL_PENDING_YES,	/* on the list, to be written back */
	DFTL_PENDING_DONE,	/* on the list, already written back */
};

struct ftl_dftl {
	u32 cmt_entries;	/* slots: min(dftl_cmt_entries, logical pages) */
	u32 entries_per_tpage;	/* map entries (u32) in one flash page */
	u32 nr_tpages;		/* translation pages covering the logical space */
	/* The CMT: slots on an LRU list, most recent at the head. */
	u32 *slot_lpn;		/* [cmt_entries]: cached lpn, FTL_NONE if unused */
	u32 *slot_prev;		/* [cmt_entries] */
	u32 *slot_next;		/* [cmt_entries] */
	u8 *slot_dirty;		/* [cmt_entries]: differs from its translation page */
	u32 lru_head, lru_tail, nr_used;
	u32 *lpn_slot;		/* [logical pages]: its slot or FTL_NONE (the lookup index) */
	/* The GTD: where each translation page is. */
	u32 *gtd;		/* [nr_tpages]: ppa, or FTL_NONE while never written */
	/*
	 * Translation pages GC changed behind the CMT, written back at the
	 * next lookup: pending[] says whether a page is on pending_list and
	 * still to write (a write-back for an eviction may get there first).
	 */
	u8 *pending;		/* [nr_tpages]: enum dftl_pending */
	u32 *pending_list;	/* [nr_tpages]: a stack of those tpages */
	u32 nr_pending;
	/* Translation blocks: FTL_BLOCK_TRANSLATION blocks of the main region. */
	u32 *tblocks;		/* [tblock_limit + 1] */
	u32 nr_tblocks;
	u32 tblock_limit;	/* more triggers translation GC */
	u32 topen;		/* the block new translation pages go to, or FTL_NONE */
	u32 tchip_cursor;	/* ties of the chip a new translation block comes from */
	struct ftl_dftl_counters counters;
};

static inline struct ftl_dftl *dftl_of(const struct ftl *ftl)
{
	return ftl->scheme_data;
}

/* The LRU of the CMT's slots, the most recent at the head. */
static inline struct ssd_slot_list dftl_lru(struct ftl_dftl *d)
{
	return (struct ssd_slot_list){ d->slot_prev, d->slot_next, &d->lru_head, &d->lru_tail };
}

/* dftl_cmt_entries, the key DFTL owns (ftl_scheme_dftl.c). */
extern const struct ssd_config_key ssd_key_dftl_cmt_entries;

/* Translation blocks DFTL may hold at once for @cfg (its peak, during translation GC). */
u64 ssd_ftl_dftl_peak_blocks(const struct ssd_config *cfg);
/* Bytes of the tables ssd_ftl_dftl_init() allocates for @cfg (see ssd_tables_add()). */
u64 ssd_ftl_dftl_table_bytes(u64 total, const struct ssd_config *cfg);
/* Bytes of the simulator's DFTL tables (part of ftl_metadata_bytes). */
u64 ssd_ftl_dftl_bytes(const struct ftl *ftl);
/* Modeled controller RAM of the map: CMT entries (lpn + ppa) and the GTD. */
u64 ssd_ftl_dftl_map_ram_bytes(const struct ftl *ftl);

int ssd_ftl_dftl_init(struct ftl *ftl, const struct ssd_config *cfg);
void ssd_ftl_dftl_exit(struct ftl *ftl);

/*
 * A map lookup of @lpn in the main region from @start_ns on, making its
 * entry the most recent and, with @update, dirty (host write, TRIM): a hit
 * costs nothing; a miss may first write back the LRU entry's translation
 * page (with every dirty entry of that page) and reads the entry's
 * translation page if it was ever written.  Returns when the mapping is
 * known; *@done_ns (>= that) when every flash operation it started ends.
 */
u64 ssd_ftl_dftl_lookup(struct ftl *ftl, u64 lpn, bool update, u64 start_ns, u64 *done_ns);
/* GC moved @lpn: its cached entry turns dirty, else its translation page is pending. */
void ssd_ftl_dftl_gc_update(struct ftl *ftl, u64 lpn);

/* The invariants (ssd_ftl_check() has checked the blocks' states). */
int ssd_ftl_dftl_check(const struct ftl *ftl);
void ssd_ftl_dftl_save(const struct ftl *ftl, struct ssd_snap_writer *w);
void ssd_ftl_dftl_load(struct ftl *ftl, struct ssd_snap_reader *r);

#endif /* SSD_FTL_DFTL_H */

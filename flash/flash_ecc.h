/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash_ecc.h - private to flash/ (unit tests see it): the read error
 * model (flash_ecc.c).  A page read draws the bit errors of each ECC
 * codeword from the raw bit error rate of its block (wear, retention); the
 * ECC corrects them, with read retries (timed reads) past ecc_soft_bits,
 * or the page is uncorrectable.  The flash calls it in one line from each
 * of init, exit, program, erase, read, stats and snapshots; it exists only
 * while rber_base_ppb > 0 (fl->ecc NULL otherwise: nothing changes).
 */
#ifndef SSD_FLASH_ECC_H
#define SSD_FLASH_ECC_H

#include "common/ssd_rand.h"
#include "flash/flash.h"

/* The most RBER the model gives, in ppb: half the bits (random data). */
#define FLASH_ECC_MAX_RBER_PPB	500000000ULL
#define FLASH_ECC_PPB		1000000000ULL
#define FLASH_ECC_NS_PER_DAY	86400000000000ULL

struct flash_ecc {
	/* The keys (see SSD_CONFIG_KEYS). */
	u64 base_ppb;
	u64 wear_ppb;
	u64 retention_ppb_per_day;
	u32 pe_cycle_limit;
	u32 codeword_bits;
	u32 codewords;			/* per page */
	u32 correct_bits;		/* t */
	u32 soft_bits;
	u32 retry_max;
	struct ssd_rand rand;		/* fault_seed mixed with FLASH_ECC_SEED_MIX */
	/* Per block: the end of its last program, its erases since power-on. */
	u64 *program_ns;
	u32 *erase_count;
	/* Counters (reset with the flash's). */
	u64 retry_pages;
	u64 corrected_codewords;
	u64 uncorrectable_pages;
	u64 uncorrectable_host_pages;
};

/* The tables ssd_flash_ecc_init() allocates for @cfg, added to @total. */
u64 ssd_flash_ecc_table_bytes(u64 total, const struct ssd_config *cfg, u32 total_blocks);
/* fl->ecc for @cfg, or NULL with the model off; -ENOMEM. */
int ssd_flash_ecc_init(struct flash *fl, const struct ssd_config *cfg);
void ssd_flash_ecc_exit(struct flash *fl);

/* @block's page program ended at @done_ns; @block was erased. */
void ssd_flash_ecc_programmed(struct flash *fl, u32 block, u64 done_ns);
void ssd_flash_ecc_erased(struct flash *fl, u32 block);

/* The RBER of @block's pages read at @now_ns, in ppb. */
u64 ssd_flash_ecc_rber_ppb(const struct flash_ecc *e, u32 block, u64 now_ns);

/*
 * A read of data page @ppa, sensed from @start_ns and at the controller
 * at *@done_ns: draws its codewords' errors and books the retries it
 * needs on the chip after it (*@done_ns moves to the last one's end).
 * 0 (corrected) or -EBADMSG (uncorrectable: the data stays as it is).
 */
int ssd_flash_ecc_read(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
		       u64 *done_ns);

void ssd_flash_ecc_get_stats(const struct flash *fl, struct ssd_stats *st);
void ssd_flash_ecc_reset_counters(struct flash *fl);
/* The model's state at the end of the FLSH section (only when it is on). */
void ssd_flash_ecc_save(const struct flash *fl, struct ssd_snap_writer *w);
void ssd_flash_ecc_load(struct flash *fl, struct ssd_snap_reader *r);

#endif /* SSD_FLASH_ECC_H */

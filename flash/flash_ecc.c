// SPDX-License-Identifier: GPL-2.0
/*
 * flash_ecc.c - read errors: the raw bit error rate (RBER) of a page, the
 * bit errors each ECC codeword of a read gets, the ECC's corrections, the
 * read retries past ecc_soft_bits and uncorrectable pages.  Owns the
 * per-block state the model needs (the end of the block's last program,
 * 8 bytes, and its erase count, 4 bytes: nothing per page), its PRNG and
 * its counters.  It does not own what an uncorrectable read does to a
 * request (the FTL and the front end) nor the flash's other counters.
 *
 * RBER of a block at time now, in ppb (parts per billion of bits), with
 * w = erase count / pe_cycle_limit and d = days since its last program:
 *
 *   rber = rber_base_ppb + rber_wear_ppb * w^2
 *          + rber_retention_ppb_per_day * d * (1 + w)
 *
 * capped at half the bits.  Each codeword of a read gets a Poisson number
 * of bit errors of mean codeword bits * rber (the binomial's limit: rber
 * is small), drawn from the model's own PRNG (fault_seed mixed with a
 * constant), in fixed point: deterministic from the seed and the request
 * sequence, the same in the kernel and in ssdsim.  A codeword with at most
 * ecc_soft_bits errors is corrected at no cost.  If any has more, the page
 * is read again (a read retry: a timed read on its chip, after the last)
 * at a better read reference voltage, modeled as the RBER halved at each
 * retry, and the codewords still above ecc_soft_bits draw again; one at
 * most ecc_correct_bits (t) is then corrected.  A page with a codeword
 * above t after read_retry_max retries is uncorrectable: the read returns
 * -EBADMSG and its data stays as it is, so a later read may succeed.
 * Reads of pages that hold no data (unwritten pages, DFTL translation
 * pages) are not modeled.
 */
#include "flash/flash_ecc.h"
#include "flash/flash_timing.h"

/* Mixed into fault_seed: the read error model's own stream. */
#define FLASH_ECC_SEED_MIX	0x52424552ecc0ecc0ULL
/* Fixed point: Q32 probabilities and means. */
#define Q32			(1ULL << 32)

int ssd_flash_validate(const struct ssd_config *cfg)
{
	if (!cfg->rber_base_ppb && (cfg->rber_wear_ppb || cfg->rber_retention_ppb_per_day)) {
		ssd_dev_err(cfg->name, "%s=%llu refused: read errors are off (rber_base_ppb=0); set rber_base_ppb to 1..100000000 first",
			    cfg->rber_wear_ppb ? "rber_wear_ppb" : "rber_retention_ppb_per_day",
			    (unsigned long long)(cfg->rber_wear_ppb ? cfg->rber_wear_ppb :
						 cfg->rber_retention_ppb_per_day));
		return -EINVAL;
	}
	/* The codeword's size matters only with the model on (pages may be 512 bytes). */
	if (cfg->rber_base_ppb && cfg->ecc_codeword_bytes > cfg->page_size_bytes) {
		ssd_dev_err(cfg->name, "ecc_codeword_bytes=%llu refused: larger than page_size_bytes=%llu with read errors on; accepted range 64..%llu",
			    (unsigned long long)cfg->ecc_codeword_bytes,
			    (unsigned long long)cfg->page_size_bytes,
			    (unsigned long long)cfg->page_size_bytes);
		return -EINVAL;
	}
	if (cfg->rber_base_ppb && cfg->ecc_correct_bits >= cfg->ecc_codeword_bytes * 8) {
		ssd_dev_err(cfg->name, "ecc_correct_bits=%llu refused: not fewer than the %llu bits of a codeword (ecc_codeword_bytes=%llu)",
			    (unsigned long long)cfg->ecc_correct_bits,
			    (unsigned long long)cfg->ecc_codeword_bytes * 8,
			    (unsigned long long)cfg->ecc_codeword_bytes);
		return -EINVAL;
	}
	if (cfg->ecc_soft_bits > cfg->ecc_correct_bits) {
		ssd_dev_err(cfg->name, "ecc_soft_bits=%llu refused: above ecc_correct_bits=%llu; accepted range 0..%llu",
			    (unsigned long long)cfg->ecc_soft_bits,
			    (unsigned long long)cfg->ecc_correct_bits,
			    (unsigned long long)cfg->ecc_correct_bits);
		return -EINVAL;
	}
	return 0;
}

u64 ssd_flash_ecc_table_bytes(u64 total, const struct ssd_config *cfg, u32 total_blocks)
{
	if (!cfg->rber_base_ppb)
		return total;
	total = ssd_tables_add(total, 1, total_blocks, sizeof(u64));
	return ssd_tables_add(total, 1, total_blocks, sizeof(u32));
}

int ssd_flash_ecc_init(struct flash *fl, const struct ssd_config *cfg)
{
	struct flash_ecc *e;

	fl->ecc = NULL;
	if (!cfg->rber_base_ppb)
		return 0;
	e = ssd_zalloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->base_ppb = cfg->rber_base_ppb;
	e->wear_ppb = cfg->rber_wear_ppb;
	e->retention_ppb_per_day = cfg->rber_retention_ppb_per_day;
	e->pe_cycle_limit = cfg->pe_cycle_limit;
	e->codeword_bits = cfg->ecc_codeword_bytes * 8;
	e->codewords = cfg->page_size_bytes / cfg->ecc_codeword_bytes;
	e->correct_bits = cfg->ecc_correct_bits;
	e->soft_bits = cfg->ecc_soft_bits;
	e->retry_max = cfg->read_retry_max;
	ssd_rand_seed(&e->rand, ssd_hash64(cfg->fault_seed ^ FLASH_ECC_SEED_MIX));
	e->program_ns = ssd_zalloc((u64)fl->total_blocks * sizeof(*e->program_ns));
	e->erase_count = ssd_zalloc((u64)fl->total_blocks * sizeof(*e->erase_count));
	fl->ecc = e;
	if (!e->program_ns || !e->erase_count) {
		ssd_flash_ecc_exit(fl);
		return -ENOMEM;
	}
	return 0;
}

void ssd_flash_ecc_exit(struct flash *fl)
{
	struct flash_ecc *e = fl->ecc;

	if (!e)
		return;
	ssd_free(e->program_ns);
	ssd_free(e->erase_count);
	ssd_free(e);
	fl->ecc = NULL;
}

void ssd_flash_ecc_programmed(struct flash *fl, u32 block, u64 done_ns)
{
	if (fl->ecc)
		fl->ecc->program_ns[block] = done_ns;
}

void ssd_flash_set_erase_count(struct flash *fl, u32 block, u32 erase_count)
{
	if (fl->ecc)
		fl->ecc->erase_count[block] = erase_count;
}

void ssd_flash_ecc_erased(struct flash *fl, u32 block)
{
	if (fl->ecc && fl->ecc->erase_count[block] < U32_MAX)
		fl->ecc->erase_count[block]++;
}

u64 ssd_flash_ecc_rber_ppb(const struct flash_ecc *e, u32 block, u64 now_ns)
{
	u64 ec = e->erase_count[block], limit = e->pe_cycle_limit;
	u64 rber = e->base_ppb;

	/* wear * (ec / limit)^2, in two steps that cannot overflow. */
	if (e->wear_ppb) {
		u64 wear = div64_u64(e->wear_ppb * ec, limit);

		if (wear < FLASH_ECC_MAX_RBER_PPB)
			wear = div64_u64(wear * ec, limit);
		rber += min_t(u64, wear, FLASH_ECC_MAX_RBER_PPB);
	}
	/* retention * days * (1 + ec / limit), days in thousandths. */
	if (e->retention_ppb_per_day && now_ns > e->program_ns[block]) {
		u64 mdays = div64_u64(now_ns - e->program_ns[block], FLASH_ECC_NS_PER_DAY / 1000);
		u64 ret = div64_u64(e->retention_ppb_per_day * mdays, 1000);

		ret = min_t(u64, ret, FLASH_ECC_MAX_RBER_PPB);
		ret = div64_u64(ret * (limit + ec), limit);
		rber += min_t(u64, ret, FLASH_ECC_MAX_RBER_PPB);
	}
	return min_t(u64, rber, FLASH_ECC_MAX_RBER_PPB);
}

/* e^-x for x in [0, 1], both Q32: a Taylor series of x / 256, squared 8 times. */
static u64 exp_neg_q32(u64 x)
{
	u64 y = x >> 8, y2, y3, r;
	int i;

	if (!y)
		return Q32 - x;
	y2 = (y * y) >> 32;
	y3 = (y2 * y) >> 32;
	r = Q32 - y + y2 / 2 - y3 / 6;
	for (i = 0; i < 8; i++)
		r = (r * r) >> 32;
	return r;
}

/* A Poisson draw of mean @m (Q32, at most 1), by the inverse of its CDF; at most @cap. */
static u32 poisson_piece(struct ssd_rand *rand, u64 m, u32 cap)
{
	u64 u = ssd_rand_next(rand) >> 32;
	u64 p = exp_neg_q32(m), cdf = p;
	u32 k = 0;

	while (u >= cdf && k < cap) {
		k++;
		p = div_u64((p * m) >> 32, k);
		if (!p)
			break;
		cdf += p;
	}
	return k;
}

/*
 * The bit errors of one codeword at @rber_ppb: Poisson of mean bits * rber,
 * drawn as a sum of pieces of mean at most 1; stops at @cap (nothing
 * needs to know how far past t a codeword is).
 */
static u32 draw_errors(struct flash_ecc *e, u64 rber_ppb, u32 cap)
{
	u64 x = (u64)e->codeword_bits * rber_ppb;
	u64 q = div64_u64(x, FLASH_ECC_PPB);
	u64 mean = (q << 32) + div64_u64((x - q * FLASH_ECC_PPB) << 32, FLASH_ECC_PPB);
	u32 n = 0;

	while (mean && n < cap) {
		u64 m = min_t(u64, mean, Q32);

		n += poisson_piece(&e->rand, m, cap - n);
		mean -= m;
	}
	return n;
}

int ssd_flash_ecc_read(struct flash *fl, u32 ppa, enum ssd_cause cause, u64 start_ns,
		       u64 *done_ns)
{
	struct flash_ecc *e = fl->ecc;
	u32 block = flash_block_of(fl, ppa);
	u64 rber;
	u32 cw, left = 0, retry;

	if (!e || !flash_page_holds(fl, ppa))
		return 0;
	rber = ssd_flash_ecc_rber_ppb(e, block, start_ns);
	/* The first read: count the codewords beyond the soft limit. */
	for (cw = 0; cw < e->codewords; cw++) {
		u32 bits = draw_errors(e, rber, e->correct_bits + 1);

		if (bits > e->soft_bits)
			left++;
		else if (bits)
			e->corrected_codewords++;
	}
	/* Retries: each a timed read of the page, the RBER halved each time. */
	for (retry = 0; left && retry < e->retry_max; retry++) {
		u32 still = 0;

		*done_ns = ssd_timing_read(fl->timing, flash_chip_of_block(fl, block),
				       flash_block_mode(fl, block),
				       (ppa % fl->geo.pages_per_block) % FLASH_PAGE_NR,
				       cause == SSD_CAUSE_HOST, *done_ns);
		e->retry_pages++;
		rber >>= 1;
		for (cw = 0; cw < left; cw++) {
			if (draw_errors(e, rber, e->correct_bits + 1) > e->correct_bits)
				still++;
			else
				e->corrected_codewords++;
		}
		left = still;
	}
	if (!left)
		return 0;
	e->uncorrectable_pages++;
	if (cause == SSD_CAUSE_HOST)
		e->uncorrectable_host_pages++;
	return -EBADMSG;
}

void ssd_flash_ecc_get_stats(const struct flash *fl, struct ssd_stats *st)
{
	const struct flash_ecc *e = fl->ecc;

	if (!e)
		return;
	st->flash_read_retry_pages = e->retry_pages;
	st->read_corrected_codewords = e->corrected_codewords;
	st->read_uncorrectable_pages = e->uncorrectable_pages;
	st->read_uncorrectable_host_pages = e->uncorrectable_host_pages;
	st->flash_metadata_bytes += (u64)fl->total_blocks *
				    (sizeof(*e->program_ns) + sizeof(*e->erase_count));
}

void ssd_flash_ecc_reset_counters(struct flash *fl)
{
	struct flash_ecc *e = fl->ecc;

	if (!e)
		return;
	e->retry_pages = 0;
	e->corrected_codewords = 0;
	e->uncorrectable_pages = 0;
	e->uncorrectable_host_pages = 0;
}

void ssd_flash_ecc_save(const struct flash *fl, struct ssd_snap_writer *w)
{
	const struct flash_ecc *e = fl->ecc;

	if (!e)
		return;
	ssd_snap_put_u64(w, e->rand.state);
	ssd_snap_put_u64(w, e->retry_pages);
	ssd_snap_put_u64(w, e->corrected_codewords);
	ssd_snap_put_u64(w, e->uncorrectable_pages);
	ssd_snap_put_u64(w, e->uncorrectable_host_pages);
	ssd_snap_put_array(w, e->program_ns, fl->total_blocks, sizeof(u64));
	ssd_snap_put_array(w, e->erase_count, fl->total_blocks, sizeof(u32));
}

/*
 * The model's part of the FLSH section, if the file has one.  A file saved
 * with read errors off has none: the model starts at the load (pages
 * programmed now, the erase counts the FTL gives after its own load,
 * ssd_flash_set_erase_count()).  A file saved with them on, loaded with
 * them off: its part is read and dropped.
 */
void ssd_flash_ecc_load(struct flash *fl, struct ssd_snap_reader *r)
{
	struct flash_ecc *e = fl->ecc;
	u64 i;

	if (!e) {
		for (i = 0; r->section_left && !r->error; i++)
			ssd_snap_get_u32(r);
		return;
	}
	if (!r->section_left) {
		for (i = 0; i < fl->total_blocks; i++)
			e->program_ns[i] = fl->timing->horizon_ns;
		return;
	}
	e->rand.state = ssd_snap_get_u64(r);
	e->retry_pages = ssd_snap_get_u64(r);
	e->corrected_codewords = ssd_snap_get_u64(r);
	e->uncorrectable_pages = ssd_snap_get_u64(r);
	e->uncorrectable_host_pages = ssd_snap_get_u64(r);
	ssd_snap_get_array(r, e->program_ns, fl->total_blocks, sizeof(u64));
	ssd_snap_get_array(r, e->erase_count, fl->total_blocks, sizeof(u32));
}

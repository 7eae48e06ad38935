// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_config.c - a key's value in a configuration: the core's keys,
 * reading and setting any key's value (a field, or an owned key's entry),
 * parsing and range checks, and the geometry's cross-key validation.
 * Shared by configfs (kernel) and ssdsim (userspace), so a value is
 * accepted or refused the same way everywhere.  Which keys there are is
 * the vocabulary's (device/ssd_keys.c).
 */
#include "common/ssd_config.h"

const struct ssd_config_key ssd_config_core_keys[] = {
#define SSD_CONFIG_ENTRY(n, def, lo, hi, fl, ch, text)			\
	{ .name = #n, .default_value = (def), .min_value = (lo),	\
	  .max_value = (hi), .flags = (fl), .choice = (ch),		\
	  .help = (text), .offset = offsetof(struct ssd_config, n) },
	SSD_CONFIG_KEYS(SSD_CONFIG_ENTRY)
#undef SSD_CONFIG_ENTRY
};

const unsigned int ssd_config_nr_core_keys = ARRAY_SIZE(ssd_config_core_keys);

/* data_store's values, in enum ssd_data_store's order (auto the default). */
static const char *const data_stores[SSD_DATA_NR] = {
	[SSD_DATA_AUTO] = "auto",
	[SSD_DATA_BYTES] = "bytes",
	[SSD_DATA_DIGEST] = "digest",
	[SSD_DATA_NONE] = "none",
};

static const char *data_store_name(u32 value)
{
	return data_stores[value];
}

const struct ssd_config_choice ssd_data_store_choice = {
	.nr = SSD_DATA_NR,
	.name = data_store_name,
};

/* @cfg's entry of the owned key @key, or NULL if it has none. */
static const struct ssd_config_value *owned_value(const struct ssd_config *cfg,
						   const struct ssd_config_key *key)
{
	u64 i;

	for (i = 0; i < cfg->nr_owned && i < SSD_CONFIG_MAX_OWNED_KEYS; i++)
		if (cfg->owned[i].key == key)
			return &cfg->owned[i];
	return NULL;
}

u64 ssd_config_get(const struct ssd_config *cfg, const struct ssd_config_key *key)
{
	const struct ssd_config_value *v;

	if (!(key->flags & SSD_KEY_OWNED))
		return *(const u64 *)((const char *)cfg + key->offset);
	v = owned_value(cfg, key);
	return v ? v->value : key->default_value;
}

int ssd_config_put(struct ssd_config *cfg, const struct ssd_config_key *key, u64 value)
{
	struct ssd_config_value *v;

	if (!(key->flags & SSD_KEY_OWNED)) {
		*(u64 *)((char *)cfg + key->offset) = value;
		return 0;
	}
	v = (struct ssd_config_value *)owned_value(cfg, key);
	if (!v) {
		if (cfg->nr_owned >= SSD_CONFIG_MAX_OWNED_KEYS) {
			ssd_dev_err(cfg->name, "%s refused: a configuration holds at most %u policy keys (SSD_CONFIG_MAX_OWNED_KEYS)",
				    key->name, SSD_CONFIG_MAX_OWNED_KEYS);
			return -ENOSPC;
		}
		v = &cfg->owned[cfg->nr_owned++];
		v->key = key;
	}
	v->value = value;
	return 0;
}

void ssd_config_defaults(struct ssd_config *cfg)
{
	unsigned int i;

	/* The selectors at their first entries, no owned key given a value. */
	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < ssd_config_nr_core_keys; i++)
		ssd_config_put(cfg, &ssd_config_core_keys[i],
			       ssd_config_core_keys[i].default_value);
}

void ssd_config_set_name(struct ssd_config *cfg, const char *name)
{
	size_t len = min_t(size_t, ssd_strlen(name), sizeof(cfg->name) - 1);

	memcpy(cfg->name, name, len);
	cfg->name[len] = '\0';
}

u64 ssd_config_key_max(const struct ssd_config_key *key)
{
	if (key->flags & SSD_KEY_ENUM)
		return key->choice->nr - 1;
	return key->max_value;
}

/* ", "-separated names of @key's values into @buf; the length. */
static size_t choice_names(const struct ssd_config_key *key, char *buf, size_t buf_bytes)
{
	size_t used = 0;
	u32 i;

	buf[0] = '\0';
	for (i = 0; i < key->choice->nr && used < buf_bytes; i++)
		used += ssd_snprintf(buf + used, buf_bytes - used, "%s%s", i ? ", " : "",
				     key->choice->name(i));
	return min_t(size_t, used, buf_bytes - 1);
}

int ssd_config_describe(const struct ssd_config_key *key, char *buf, size_t buf_bytes)
{
	size_t used = ssd_snprintf(buf, buf_bytes, "%s", key->help);

	if (!(key->flags & SSD_KEY_ENUM) || used + 3 >= buf_bytes)
		return min_t(size_t, used, buf_bytes - 1);
	used += ssd_snprintf(buf + used, buf_bytes - used, ": ");
	return used + choice_names(key, buf + used, buf_bytes - used);
}

/* Copy @value without trailing whitespace; -EINVAL if it does not fit. */
static int trim_value(const char *value, char *out, size_t out_bytes)
{
	size_t len = ssd_strlen(value);

	while (len && (value[len - 1] == '\n' || value[len - 1] == ' ' ||
		       value[len - 1] == '\t' || value[len - 1] == '\r'))
		len--;
	if (len == 0 || len >= out_bytes)
		return -EINVAL;
	memcpy(out, value, len);
	out[len] = '\0';
	return 0;
}

/* A binary size suffix and its shift; K and KiB alike (see the header). */
static const struct {
	const char *suffix;
	unsigned int shift;
} byte_suffixes[] = {
	{ "KiB", 10 }, { "MiB", 20 }, { "GiB", 30 }, { "TiB", 40 },
	{ "K", 10 }, { "M", 20 }, { "G", 30 }, { "T", 40 },
	{ "k", 10 }, { "m", 20 }, { "g", 30 }, { "t", 40 },
};

/* Decimal suffixes, refused rather than guessed at (see the header). */
static const char *const decimal_suffixes[] = { "kB", "KB", "MB", "GB", "TB" };

/* Whether @text ends with @suffix and has decimal digits before it. */
static bool digits_then(const char *text, size_t len, const char *suffix)
{
	size_t slen = ssd_strlen(suffix), i;

	if (len <= slen || ssd_strcmp(text + len - slen, suffix))
		return false;
	for (i = 0; i < len - slen; i++)
		if (text[i] < '0' || text[i] > '9')
			return false;
	return true;
}

/* Whether @text is a number with a decimal suffix (kB, MB...). */
static bool decimal_suffix(const char *text)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(decimal_suffixes); i++)
		if (digits_then(text, ssd_strlen(text), decimal_suffixes[i]))
			return true;
	return false;
}

int ssd_parse_bytes(const char *text, u64 unit_bytes, u64 *out)
{
	size_t len = ssd_strlen(text), i, end;
	unsigned int shift;
	u64 value = 0;

	if (decimal_suffix(text))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(byte_suffixes); i++)
		if (digits_then(text, len, byte_suffixes[i].suffix))
			break;
	/* No suffix: a number of units, in kstrtou64's grammar. */
	if (i == ARRAY_SIZE(byte_suffixes))
		return ssd_parse_u64(text, out) ? -EINVAL : 0;
	shift = byte_suffixes[i].shift;
	end = len - ssd_strlen(byte_suffixes[i].suffix);
	/* Decimal digits only (a leading 0 is not octal here). */
	for (i = 0; i < end; i++) {
		if (value > (U64_MAX - 9) / 10)
			return -ERANGE;
		value = value * 10 + (u64)(text[i] - '0');
	}
	if (value > (U64_MAX >> shift))
		return -ERANGE;
	value <<= shift;
	if (!unit_bytes || value % unit_bytes)
		return -EDOM;
	*out = value / unit_bytes;
	return 0;
}

/* The unit of a byte-valued key, by its name's unit; 0 if it is not one. */
u64 ssd_config_key_unit_bytes(const struct ssd_config_key *key)
{
	size_t len = ssd_strlen(key->name);

	if (key->flags & SSD_KEY_ENUM)
		return 0;
	if (len > 6 && !ssd_strcmp(key->name + len - 6, "_bytes"))
		return 1;
	if (len > 3 && !ssd_strcmp(key->name + len - 3, "_mb"))
		return 1ULL << 20;
	return 0;
}

/*
 * Parse @text as @key's number (a byte key's may have a size suffix):
 * 0, 1 if refused with a message said here, -EINVAL if not a number.
 */
static int parse_number(const struct ssd_config *cfg, const struct ssd_config_key *key,
			const char *text, u64 *out)
{
	u64 unit = ssd_config_key_unit_bytes(key);
	int ret;

	if (!unit)
		return ssd_parse_u64(text, out) ? -EINVAL : 0;
	if (decimal_suffix(text)) {
		ssd_dev_err(cfg->name, "%s=%s refused: sizes are binary: write KiB, MiB, GiB, TiB (or K, M, G, T), 1024 each",
			    key->name, text);
		return 1;
	}
	ret = ssd_parse_bytes(text, unit, out);
	if (ret == -EDOM)
		ssd_dev_err(cfg->name, "%s=%s refused: not a whole number of MiB", key->name,
			    text);
	else if (ret == -ERANGE)
		ssd_dev_err(cfg->name, "%s=%s refused: too large", key->name, text);
	else
		return ret ? -EINVAL : 0;
	return 1;
}

static int parse_enum(const struct ssd_config_key *key, const char *text, u64 *out)
{
	u32 i;

	for (i = 0; i < key->choice->nr; i++) {
		if (!ssd_strcmp(key->choice->name(i), text)) {
			*out = i;
			return 0;
		}
	}
	return -EINVAL;
}

static void log_enum_refusal(const struct ssd_config *cfg, const struct ssd_config_key *key,
			     const char *text)
{
	char names[160];

	choice_names(key, names, sizeof(names));
	ssd_dev_err(cfg->name, "%s=%s refused: accepted values are %s", key->name, text,
		    names);
}

int ssd_config_set_key(struct ssd_config *cfg, const struct ssd_config_key *key,
		       const char *value)
{
	char text[64];
	u64 parsed;
	int ret;

	if (trim_value(value, text, sizeof(text))) {
		ssd_dev_err(cfg->name, "%s: empty or overlong value refused", key->name);
		return -EINVAL;
	}
	if (key->flags & SSD_KEY_ENUM) {
		if (parse_enum(key, text, &parsed)) {
			log_enum_refusal(cfg, key, text);
			return -EINVAL;
		}
		return ssd_config_put(cfg, key, parsed);
	}
	ret = parse_number(cfg, key, text, &parsed);
	if (ret > 0)
		return -EINVAL;
	if (ret || parsed < key->min_value || parsed > key->max_value) {
		ssd_dev_err(cfg->name, "%s=%s refused: accepted range is %llu..%llu",
			    key->name, text,
			    (unsigned long long)key->min_value,
			    (unsigned long long)key->max_value);
		return -EINVAL;
	}
	if ((key->flags & SSD_KEY_POW2) && !ssd_is_power_of_2(parsed)) {
		ssd_dev_err(cfg->name, "%s=%s refused: must be a power of two in %llu..%llu",
			    key->name, text,
			    (unsigned long long)key->min_value,
			    (unsigned long long)key->max_value);
		return -EINVAL;
	}
	return ssd_config_put(cfg, key, parsed);
}

int ssd_config_show(const struct ssd_config *cfg, const struct ssd_config_key *key,
		    char *buf, size_t buf_bytes)
{
	u64 value = ssd_config_get(cfg, key);

	if (key->flags & SSD_KEY_ENUM)
		return ssd_snprintf(buf, buf_bytes, "%s\n", key->choice->name(value));
	return ssd_snprintf(buf, buf_bytes, "%llu\n", (unsigned long long)value);
}

/* A TLC page type's latency: its own key, or the common one when 0. */
static u64 type_ns(u64 type_ns, u64 common_ns)
{
	return type_ns ? type_ns : common_ns;
}

/*
 * With an SLC region, an SLC-mode read or program slower than the fastest
 * TLC page's is refused: SLC mode senses and places one threshold where a
 * TLC lower page needs the same or more, so such a region cannot exist,
 * and a cache in it would make every time comparison meaningless.  The
 * erase is not checked: an SLC-mode block is erased like a TLC one.
 */
static int validate_slc_latencies(const struct ssd_config *cfg)
{
	u64 read_ns = min_t(u64, type_ns(cfg->read_lsb_ns, cfg->read_ns),
			    min_t(u64, type_ns(cfg->read_csb_ns, cfg->read_ns),
				  type_ns(cfg->read_msb_ns, cfg->read_ns)));
	u64 program_ns = min_t(u64, type_ns(cfg->program_lsb_ns, cfg->program_ns),
			       min_t(u64, type_ns(cfg->program_csb_ns, cfg->program_ns),
				     type_ns(cfg->program_msb_ns, cfg->program_ns)));

	if (!cfg->slc_blocks_per_chip)
		return 0;
	if (cfg->slc_read_ns > read_ns) {
		ssd_dev_err(cfg->name, "slc_read_ns=%llu refused: slower than the fastest TLC page read, %llu ns; with an SLC region (slc_blocks_per_chip > 0) the accepted range is 1..%llu",
			    (unsigned long long)cfg->slc_read_ns,
			    (unsigned long long)read_ns, (unsigned long long)read_ns);
		return -EINVAL;
	}
	if (cfg->slc_program_ns > program_ns) {
		ssd_dev_err(cfg->name, "slc_program_ns=%llu refused: slower than the fastest TLC page program, %llu ns; with an SLC region (slc_blocks_per_chip > 0) the accepted range is 1..%llu",
			    (unsigned long long)cfg->slc_program_ns,
			    (unsigned long long)program_ns, (unsigned long long)program_ns);
		return -EINVAL;
	}
	return 0;
}

int ssd_config_validate(const struct ssd_config *cfg)
{
	u64 total_blocks = cfg->chips * cfg->blocks_per_chip;

	if (cfg->logical_block_bytes != 512 && cfg->logical_block_bytes != 4096) {
		ssd_dev_err(cfg->name, "logical_block_bytes=%llu refused: accepted values are 512, 4096",
			    (unsigned long long)cfg->logical_block_bytes);
		return -EINVAL;
	}
	if (cfg->logical_block_bytes > cfg->page_size_bytes) {
		ssd_dev_err(cfg->name, "logical_block_bytes=%llu refused: larger than page_size_bytes=%llu",
			    (unsigned long long)cfg->logical_block_bytes,
			    (unsigned long long)cfg->page_size_bytes);
		return -EINVAL;
	}
	if (cfg->chips % cfg->channels) {
		ssd_dev_err(cfg->name, "channels=%llu refused: must divide chips=%llu",
			    (unsigned long long)cfg->channels,
			    (unsigned long long)cfg->chips);
		return -EINVAL;
	}
	/* Physical page numbers are u32 with U32_MAX meaning "none". */
	if (total_blocks * cfg->pages_per_block >= U32_MAX) {
		ssd_dev_err(cfg->name, "geometry refused: %llu physical pages exceed the 2^32-1 limit",
			    (unsigned long long)(total_blocks * cfg->pages_per_block));
		return -EINVAL;
	}
	if (cfg->slc_blocks_per_chip >= cfg->blocks_per_chip) {
		ssd_dev_err(cfg->name, "slc_blocks_per_chip=%llu refused: leaves no TLC blocks of blocks_per_chip=%llu",
			    (unsigned long long)cfg->slc_blocks_per_chip,
			    (unsigned long long)cfg->blocks_per_chip);
		return -EINVAL;
	}
	if (ssd_config_logical_pages(cfg) == 0) {
		ssd_dev_err(cfg->name, "geometry refused: logical capacity is zero");
		return -EINVAL;
	}
	return validate_slc_latencies(cfg);
}

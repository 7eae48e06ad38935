/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf_file.h - reads configs/ *.conf: `key = value` lines, `#` comments.
 * Used by ssdctl (which writes each pair to configfs) and ssdsim (which
 * feeds them to ssd_config_set()).
 */
#ifndef SSD_CONF_FILE_H
#define SSD_CONF_FILE_H

/* Called per pair; a non-zero return stops reading and is returned. */
typedef int (*conf_pair_fn)(void *ctx, const char *key, const char *value,
			    const char *where);

/*
 * Read @path, calling @fn for each pair in order.  Returns 0, the first
 * non-zero @fn result, or -1 after printing a message for a malformed line
 * or an unreadable file.
 */
int conf_file_read(const char *path, conf_pair_fn fn, void *ctx);

/* Split "key=value" (from a command line) and call @fn; -1 if malformed. */
int conf_pair_arg(const char *arg, conf_pair_fn fn, void *ctx);

#endif /* SSD_CONF_FILE_H */

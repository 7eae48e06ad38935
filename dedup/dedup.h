/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup.h - in-device deduplication (Kim et al., MSST 2012), the folder's
 * one public header: a layer of the request path (common/ssd_layer.h),
 * the top one when dedup=1, and the self-test of its SHA-1.  Its workings
 * are dedup_internal.h, private to dedup/.  Portable.
 */
#ifndef SSD_DEDUP_H
#define SSD_DEDUP_H

#include "common/ssd_layer.h"

/* On with dedup=1; owns the dedup_* keys. */
extern const struct ssd_layer_type ssd_dedup_layer_type;

/*
 * Check the FIPS 180 test vectors ("abc", the empty message, the 448-bit
 * message, a million 'a') against the SHA-1 the fingerprints use: 0, or
 * -EINVAL after logging the first one that differs.  The module runs it
 * when it loads.
 */
int ssd_dedup_sha1_self_test(void);

#endif /* SSD_DEDUP_H */

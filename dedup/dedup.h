/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dedup.h - in-device deduplication (Kim et al., MSST 2012), the folder's
 * one public header: a layer of the request path (common/ssd_layer.h),
 * the top one when dedup=1 (under the volatile write cache).  Its layer
 * type carries the self-test of its SHA-1 (ssd_layer_type.self_test).
 * Its workings are dedup_internal.h, private to dedup/.  Portable.
 */
#ifndef SSD_DEDUP_H
#define SSD_DEDUP_H

#include "common/ssd_layer.h"

/* On with dedup=1; owns the dedup_* keys. */
extern const struct ssd_layer_type ssd_dedup_layer_type;

#endif /* SSD_DEDUP_H */

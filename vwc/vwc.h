/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vwc.h - the volatile write cache (NVMe's "Volatile Write Cache"), the
 * folder's one public header: a layer of the request path
 * (common/ssd_layer.h), the top one when volatile_write_cache=1.  It is
 * one of four things called a cache here, and the only one in DRAM that
 * a power cut empties: the SLC write cache is nvmcache/ (cache_* keys),
 * the host-side cache simulator is cachesim, libCacheSim is the reference
 * the replacement policies are checked against.
 *
 * Keys: volatile_write_cache (0: the device is power-loss protected and
 * the layer is not stacked), write_cache_pages (the buffer's size).
 *
 * A write is acknowledged once its page is in the buffer: no flash time
 * (the controller's command time is the front end's).  A rewrite of a
 * buffered page replaces its data in place; a read of one is served from
 * the buffer; a TRIM drops it and goes below.  When a new page finds the
 * buffer full, the oldest page goes to the layer below (FIFO), and the
 * write that pushed it out completes when that write below does.  A FLUSH
 * sends every page below, oldest first, then flushes the layers below (the
 * dedup write buffer), and completes when the last of them does; the
 * front end flushes it after a FUA write's pages.  A power cut
 * (ssd_layer_ops.power_cut) drops every buffered page: those writes were
 * acknowledged but never durable.  Its snapshot section keeps the tag
 * WBUF, so snapshots saved before the folder had its name still load.
 * docs/faults.md tells the rest.
 *
 * Like every layer it sees common/ only (layers.mk).  Portable.
 */
#ifndef SSD_VWC_H
#define SSD_VWC_H

#include "common/ssd_layer.h"

/* On with volatile_write_cache=1; owns write_cache_pages. */
extern const struct ssd_layer_type ssd_vwc_layer_type;

#endif /* SSD_VWC_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftl.h - the page-mapped flash translation layer, the folder's one public
 * header: the FTL is the bottom layer of the request path, reached through
 * common/ssd_layer.h like every layer (factory bad blocks included: its
 * mark_bad_blocks op), so all the front end needs is its layer type.  Its
 * workings (maps, regions, GC) are ftl_internal.h, private to ftl/ (and
 * the white-box unit tests).  Portable.
 */
#ifndef SSD_FTL_H
#define SSD_FTL_H

#include "common/ssd_layer.h"

/*
 * The FTL over env->flash: always on, the bottom of every stack.  Owns
 * gc_*, slc_blocks_per_chip's region, op_percent's spare space and
 * read_unwritten_flash.
 */
extern const struct ssd_layer_type ssd_ftl_layer_type;

#endif /* SSD_FTL_H */

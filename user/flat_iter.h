/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flat_iter.h - a struct ssd_data_iter over one flat buffer: how userspace
 * (ssdsim, the unit tests) hands request data to the core: the request's
 * bytes, or with data_store=digest its sector ids (SSD_DIGEST_ID_BYTES
 * per 512-byte sector, in order).
 */
#ifndef SSD_FLAT_ITER_H
#define SSD_FLAT_ITER_H

#include "device/ssd_device.h"

struct flat_iter {
	struct ssd_data_iter it;
	u8 *pos;		/* the next byte of the request */
};

void flat_iter_init(struct flat_iter *fi, void *buf);

#endif /* SSD_FLAT_ITER_H */

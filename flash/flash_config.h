/* SPDX-License-Identifier: GPL-2.0 */
/*
 * flash_config.h - private to flash/: a configuration's flash geometry and
 * timing parameters (flash_config.c).
 */
#ifndef SSD_FLASH_CONFIG_H
#define SSD_FLASH_CONFIG_H

#include "flash/flash.h"
#include "flash/flash_timing.h"

void ssd_flash_geometry_from(const struct ssd_config *cfg, struct flash_geometry *geo);
void ssd_flash_timing_params_from(const struct ssd_config *cfg, struct timing_params *p);
/* The wear-out fault state of @cfg (flash_wear.c): nothing failed yet. */
void ssd_flash_wear_init(struct flash *fl, const struct ssd_config *cfg);

#endif /* SSD_FLASH_CONFIG_H */

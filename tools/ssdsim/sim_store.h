/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim_store.h - which data store ssdsim's device keeps (data_store): the
 * one the key names, bytes with --data, and for data_store=auto (the
 * default) no more than the run needs: a digest of every page when something may look at content
 * (dedup=1, or a trace whose first record carries content hashes), none
 * otherwise.  No counter depends on the choice.
 */
#ifndef SSD_SIM_STORE_H
#define SSD_SIM_STORE_H

#include "common/ssd_config.h"
#include "tools/ssdsim/sim_options.h"

/*
 * Set cfg->data_store for a device made from @cfg (not from a snapshot,
 * which brings its own): 0, or -1 after a message.
 */
int sim_store_choose(const struct sim_options *o, struct ssd_config *cfg);

#endif /* SSD_SIM_STORE_H */

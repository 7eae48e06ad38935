// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_blk.c - the block-layer glue: the block major, bringing a disk up
 * and down, and turning each blk-mq request into one ssd_device request
 * whose data the core copies straight between the request's pages and its
 * flash page buffers (an iov_iter over the request's bio_vecs).  The queue
 * is BLK_MQ_F_BLOCKING (as null_blk's blocking=1): queue_rq runs the core
 * under its mutex and may sleep to allocate page buffers (GFP_NOIO).  With
 * timing=1 the request completes at its modeled time, by an absolute
 * hrtimer armed at submit (no spinning, no reserved CPU); lateness against
 * the model is counted.  Power-off does not wait for the modeled times: it
 * completes every pending request at once (ssdemu_expedite()).
 *
 * Lifetime: a power-on (struct ssdemu_disk) belongs to its gendisk and is
 * freed by the gendisk's free_disk; power-off takes its core away and
 * drops the driver's reference, and an fd still open keeps the rest.  The
 * configfs item is not needed by anything here once power-off returns.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/wait_bit.h>

#include "emulator/ssdemu.h"
#include "common/ssd_pagepool.h"

/* Minor numbers per disk: the disk and up to 15 partitions. */
#define SSDEMU_MINORS		16

/*
 * The bio_vecs one request may carry: the queue's max_segments (each
 * bio_vec is at least one segment), so they fit the array in the request's
 * driver data.  The block layer's default, so requests are as large as
 * before (512 KiB of scattered 4 KiB pages).
 */
#define SSDEMU_MAX_SEGMENTS	BLK_MAX_SEGMENTS

static int ssdemu_major;
static DEFINE_IDA(ssdemu_indexes);
/* Disks added and not yet freed: module exit waits for their free_disk. */
static atomic_t ssdemu_live_disks = ATOMIC_INIT(0);

/* Per-request driver data. */
struct ssdemu_cmd {
	/* Completes the request at its modeled time. */
	struct hrtimer timer;
	struct ssdemu_disk *sd;
	u64 target_ns;			/* ktime_get_ns() clock */
	blk_status_t status;
	/* The request's data as the core takes it (READ and WRITE). */
	struct ssd_data_iter data;
	struct iov_iter iter;
	struct bio_vec bvec[SSDEMU_MAX_SEGMENTS];
};

/* The core takes the next @len bytes a WRITE carries. */
static void ssdemu_copy_in(struct ssd_data_iter *it, void *dst, u32 len)
{
	struct ssdemu_cmd *cmd = container_of(it, struct ssdemu_cmd, data);

	/* The core asks for the request's bytes, no more. */
	WARN_ON_ONCE(copy_from_iter(dst, len, &cmd->iter) != len);
}

/* The core gives the next @len bytes of a READ (@src NULL: zeros). */
static void ssdemu_copy_out(struct ssd_data_iter *it, const void *src, u32 len)
{
	struct ssdemu_cmd *cmd = container_of(it, struct ssdemu_cmd, data);
	size_t done;

	if (src)
		done = copy_to_iter(src, len, &cmd->iter);
	else
		done = iov_iter_zero(len, &cmd->iter);
	WARN_ON_ONCE(done != len);
}

/*
 * Point @cmd's iterator at @rq's data: its bio_vecs, collected by the
 * block layer's own walk (bios split in the middle of a bio_vec included).
 */
static int map_data(struct ssdemu_cmd *cmd, struct request *rq)
{
	struct req_iterator iter;
	struct bio_vec bv;
	unsigned int nr = 0;

	rq_for_each_bvec(bv, rq, iter) {
		/* The block layer keeps to max_segments: a broken invariant. */
		if (WARN_ON_ONCE(nr == SSDEMU_MAX_SEGMENTS))
			return -EIO;
		cmd->bvec[nr++] = bv;
	}
	iov_iter_bvec(&cmd->iter, op_is_write(req_op(rq)) ? ITER_SOURCE : ITER_DEST,
		      cmd->bvec, nr, blk_rq_bytes(rq));
	return 0;
}

/* The CPU wrote a READ's data: flush the pages where caches alias. */
static void flush_read_pages(struct request *rq)
{
	struct req_iterator iter;
	struct bio_vec bv;

	rq_for_each_segment(bv, rq, iter)
		flush_dcache_page(bv.bv_page);
}

static int rq_to_ssd_op(struct request *rq, enum ssd_op *op)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		*op = SSD_OP_READ;
		return 0;
	case REQ_OP_WRITE:
		*op = SSD_OP_WRITE;
		return 0;
	case REQ_OP_DISCARD:
		*op = SSD_OP_TRIM;
		return 0;
	case REQ_OP_WRITE_ZEROES:
		*op = SSD_OP_WRITE_ZEROES;
		return 0;
	case REQ_OP_FLUSH:
		*op = SSD_OP_FLUSH;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static enum hrtimer_restart ssdemu_timer_fired(struct hrtimer *timer)
{
	struct ssdemu_cmd *cmd = container_of(timer, struct ssdemu_cmd, timer);

	ssdemu_lateness_add(&cmd->sd->lateness, cmd->target_ns, ktime_get_ns());
	blk_mq_end_request(blk_mq_rq_from_pdu(cmd), cmd->status);
	return HRTIMER_NORESTART;
}

/*
 * Complete @rq at virtual time @completion_ns: now if timing is off, else
 * by an absolute timer (at once if the emulator is already behind).
 */
static void complete_at(struct ssdemu_disk *sd, struct request *rq,
			blk_status_t status, u64 completion_ns)
{
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);
	u64 now_ns;

	/* Power-off has begun: nothing waits for modeled time any more. */
	if (!sd->timing || READ_ONCE(sd->tearing_down)) {
		blk_mq_end_request(rq, status);
		return;
	}
	cmd->target_ns = sd->epoch_ns + completion_ns;
	cmd->status = status;
	now_ns = ktime_get_ns();
	if (cmd->target_ns <= now_ns) {
		ssdemu_lateness_add(&sd->lateness, cmd->target_ns, now_ns);
		blk_mq_end_request(rq, status);
		return;
	}
	hrtimer_start(&cmd->timer, ns_to_ktime(cmd->target_ns), HRTIMER_MODE_ABS);
}

static int ssdemu_init_request(struct blk_mq_tag_set *set, struct request *rq,
			       unsigned int hctx_idx, unsigned int numa_node)
{
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);

	ssdemu_hrtimer_init(&cmd->timer, ssdemu_timer_fired);
	cmd->sd = set->driver_data;
	cmd->data.copy_in = ssdemu_copy_in;
	cmd->data.copy_out = ssdemu_copy_out;
	return 0;
}

/*
 * Runs the core unlocked by the glue: power-off takes the core away only
 * after del_gendisk(), when no request can reach here any more.
 */
static blk_status_t ssdemu_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct ssdemu_disk *sd = hctx->queue->queuedata;
	struct ssd_request req = {
		.offset_bytes = (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
		.length_bytes = blk_rq_bytes(rq),
	};
	u64 completion_ns, good_bytes;
	int ret;

	/*
	 * The device receives the command once the block layer has issued
	 * it: the moment blktrace records as D, whose times ssdsim replays as
	 * arrivals.
	 */
	blk_mq_start_request(rq);
	req.arrival_ns = ktime_get_ns() - sd->epoch_ns;
	ret = rq_to_ssd_op(rq, &req.op);
	req.fua = req.op == SSD_OP_WRITE && (rq->cmd_flags & REQ_FUA);
	if (!ret && (req.op == SSD_OP_READ || req.op == SSD_OP_WRITE)) {
		ret = map_data(cmd, rq);
		req.data = &cmd->data;
	}
	if (!ret)
		ret = ssd_device_submit_io(sd->core, &req, &completion_ns, &good_bytes);
	/*
	 * A media error (an uncorrectable page, an injected sector) fails at
	 * once: the bytes before the first failed one complete, the rest
	 * fail with EIO, so the host sees exactly the failed sectors (as far
	 * as its bios split there).
	 */
	if (ret == -EIO) {
		if (req.op == SSD_OP_READ)
			flush_read_pages(rq);
		if (!good_bytes || blk_update_request(rq, BLK_STS_OK, good_bytes))
			blk_mq_end_request(rq, BLK_STS_IOERR);
		else
			__blk_mq_end_request(rq, BLK_STS_OK);
		return BLK_STS_OK;
	}
	/*
	 * A refused request was not timed: it fails at once.  -ENOSPC (the
	 * data store is full) reaches the writer as ENOSPC.  -ENOMEM means
	 * page buffers could not be had even after reclaim: an I/O error,
	 * not BLK_STS_RESOURCE, which blk-mq would retry without end.
	 */
	if (ret) {
		/*
		 * -EROFS: the end of life (the core logged it once); the disk
		 * turns read-only for the block layer too, once.
		 */
		if (ret == -EROFS && !test_and_set_bit(0, &sd->read_only_set))
			set_disk_ro(sd->disk, true);
		blk_mq_end_request(rq, ret == -ENOMEM || ret == -EROFS ? BLK_STS_IOERR :
				   errno_to_blk_status(ret));
		return BLK_STS_OK;
	}
	if (req.op == SSD_OP_READ)
		flush_read_pages(rq);
	complete_at(sd, rq, BLK_STS_OK, completion_ns);
	return BLK_STS_OK;
}

static const struct blk_mq_ops ssdemu_mq_ops = {
	.queue_rq = ssdemu_queue_rq,
	.init_request = ssdemu_init_request,
};

/*
 * The last reference to the gendisk is gone: power-off's, or that of the
 * last fd opened before it.  Power-off has already taken the core and
 * freed the tag set; the index (and so the disk's minors) is given back
 * only now, so a new disk never takes the numbers of one still open.
 */
static void ssdemu_free_disk(struct gendisk *disk)
{
	struct ssdemu_disk *sd = disk->private_data;

	ida_free(&ssdemu_indexes, sd->index);
	mutex_destroy(&sd->core_lock);
	kfree(sd);
	if (atomic_dec_and_test(&ssdemu_live_disks))
		wake_up_var(&ssdemu_live_disks);
}

static const struct block_device_operations ssdemu_fops = {
	.owner = THIS_MODULE,
	.ioctl = ssdemu_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
	.free_disk = ssdemu_free_disk,
};

static int alloc_tag_set(struct ssdemu_disk *sd, const struct ssd_config *cfg)
{
	struct blk_mq_tag_set *set = &sd->tag_set;

	set->ops = &ssdemu_mq_ops;
	/*
	 * The model serves one request at a time: one hardware queue unless
	 * the hw_queues key asks for more (0: one per CPU).
	 */
	set->nr_hw_queues = cfg->hw_queues ? cfg->hw_queues : nr_cpu_ids;
	set->queue_depth = cfg->queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct ssdemu_cmd);
	/* queue_rq sleeps: the core's mutex, GFP_NOIO page buffers. */
	set->flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_BLOCKING;
	set->driver_data = sd;
	return blk_mq_alloc_tag_set(set);
}

static struct gendisk *alloc_disk(struct ssdemu_disk *sd, const struct ssd_config *cfg)
{
	struct ssdemu_limits lim = {
		.logical_block_bytes = cfg->logical_block_bytes,
		.physical_block_bytes = min_t(u64, cfg->page_size_bytes, PAGE_SIZE),
		.io_min_bytes = cfg->page_size_bytes,
		/* At most 512 KiB, and no more pages than the spare pool holds. */
		.max_hw_sectors = min_t(u64, 1024, SSD_PAGEPOOL_SPARE *
					cfg->page_size_bytes >> SECTOR_SHIFT),
		.max_segments = SSDEMU_MAX_SEGMENTS,
		.max_discard_sectors = UINT_MAX >> SECTOR_SHIFT,
		.discard_granularity_bytes = cfg->page_size_bytes,
		.max_write_zeroes_sectors = UINT_MAX >> SECTOR_SHIFT,
		/*
		 * A write-back cache is always advertised (FLUSH drains the
		 * dedup write buffer); FUA with volatile_write_cache=1.
		 */
		.fua = cfg->volatile_write_cache,
	};
	struct gendisk *disk;

	disk = ssdemu_alloc_disk(&sd->tag_set, &lim, sd);
	if (IS_ERR(disk))
		return disk;
	disk->major = ssdemu_major;
	disk->first_minor = sd->index * SSDEMU_MINORS;
	disk->minors = SSDEMU_MINORS;
	disk->fops = &ssdemu_fops;
	disk->private_data = sd;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "ssdemu%d", sd->index);
	set_capacity(disk, ssd_device_capacity_bytes(sd->core) >> SECTOR_SHIFT);
	return disk;
}

/*
 * What ssdemu_expedite() did, for its kernel message (named from the
 * power-on's copy: configfs has freed the item's name by the time rmdir
 * releases it).
 */
struct ssdemu_expedited {
	u64 now_ns;
	unsigned int requests;
	u64 ahead_ns_max;		/* how far the latest was from its time */
};

/*
 * A started request whose timer is still queued: take the timer back and
 * end the request now, with the status the model gave it.  A timer that is
 * running ends the request itself (hrtimer_cancel() waits for it and
 * returns 0), so no request is ended twice.
 */
static bool expedite_one(struct request *rq, void *data)
{
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct ssdemu_expedited *e = data;

	if (!hrtimer_cancel(&cmd->timer))
		return true;
	e->requests++;
	if (cmd->target_ns > e->now_ns)
		e->ahead_ns_max = max(e->ahead_ns_max, cmd->target_ns - e->now_ns);
	blk_mq_end_request(rq, cmd->status);
	return true;
}

/*
 * Power-off must not wait for the model: a deep queue on slow flash holds
 * minutes of modeled backlog, and del_gendisk() waits for every request in
 * flight (the hung-task detector fired).  The model has already done each
 * request when it was submitted (data stored, read data copied out), so a
 * request only waits for its time: end them all now with their own status.
 * Written data is not lost by completing early; power-off discards the
 * device's data anyway.  From the moment tearing_down is set, complete_at()
 * ends new requests at once (the writeback del_gendisk() issues, and any I/O
 * that gets in before the disk is marked dead).  Quiescing the queue waits
 * for every queue_rq that may not have seen the flag, so after it each
 * started request has its timer armed or is already ended.
 */
static void ssdemu_expedite(struct ssdemu_disk *sd)
{
	struct request_queue *q = sd->disk->queue;
	struct ssdemu_expedited e = { 0 };

	WRITE_ONCE(sd->tearing_down, true);
	blk_mq_quiesce_queue(q);
	e.now_ns = ktime_get_ns();
	blk_mq_tagset_busy_iter(&sd->tag_set, expedite_one, &e);
	blk_mq_unquiesce_queue(q);
	if (e.requests)
		pr_info("%s: %s: power off: %u requests completed at once, up to %llu ms before their modeled time\n",
			sd->name, sd->disk->disk_name, e.requests,
			div_u64(e.ahead_ns_max, NSEC_PER_MSEC));
}

/*
 * The core of a power-on: from the snapshot file if snapshot_from is set,
 * else new from the item's configuration.  *@cfg gets the configuration
 * the core was made with.
 */
static int create_core(struct ssdemu_dev *dev, struct ssd_config *cfg,
		       struct ssd_device **core)
{
	int ret;

	/* After a power cut: the same core, with what was durable. */
	if (dev->cut_core) {
		*cfg = dev->cfg;
		*core = dev->cut_core;
		dev->cut_core = NULL;
		ssd_device_power_restore(*core);
		return 0;
	}
	if (dev->snapshot_from && dev->bad_blocks) {
		ssd_dev_err(dev->cfg.name, "bad_blocks refused with snapshot_from: the snapshot holds its bad blocks (write an empty bad_blocks)");
		return -EINVAL;
	}
	if (dev->snapshot_from)
		return ssdemu_snapshot_create(dev, cfg, core);
	*cfg = dev->cfg;
	ret = ssd_device_create(core, cfg);
	if (ret || !dev->bad_blocks)
		return ret;
	/* Factory bad blocks, before the first request (add_disk's reads). */
	ret = ssd_device_mark_bad_list(*core, dev->bad_blocks);
	if (ret) {
		ssd_device_destroy(*core);
		*core = NULL;
	}
	return ret;
}

/* Called with dev->lock held and the device off. */
int ssdemu_power_on(struct ssdemu_dev *dev)
{
	struct ssd_config *cfg;
	struct ssdemu_disk *sd;
	struct gendisk *disk;
	bool from_cut;
	u64 start_ns;
	int ret;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);
	if (!sd || !cfg) {
		kfree(cfg);
		kfree(sd);
		return -ENOMEM;
	}
	mutex_init(&sd->core_lock);
	spin_lock_init(&sd->lateness.lock);
	strscpy(sd->name, dev->cfg.name, sizeof(sd->name));
	from_cut = !!dev->cut_core;
	ret = create_core(dev, cfg, &sd->core);
	if (ret)
		goto free_sd;
	ssd_device_set_inject(sd->core, &dev->inject);
	sd->timing = cfg->timing;
	ssdemu_nvme_init(sd, cfg);
	ret = ida_alloc_max(&ssdemu_indexes, (MINORMASK + 1) / SSDEMU_MINORS - 1,
			    GFP_KERNEL);
	if (ret < 0)
		goto destroy_core;
	sd->index = ret;
	ret = alloc_tag_set(sd, cfg);
	if (ret)
		goto free_index;
	disk = alloc_disk(sd, cfg);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		goto free_tags;
	}
	sd->disk = disk;
	/* Made from the snapshot of a worn-out device: read-only from the start. */
	if (ssd_device_read_only(sd->core)) {
		set_bit(0, &sd->read_only_set);
		set_disk_ro(disk, true);
	}
	/*
	 * Now is the core's virtual time (0 when new, the saved clock from a
	 * snapshot): add_disk() already reads the partition table.
	 */
	start_ns = ssd_device_virtual_time_ns(sd->core);
	sd->epoch_ns = ktime_get_ns() - start_ns;
	ret = add_disk(disk);
	if (ret)
		goto put_disk;
	/* From here on free_disk frees sd, the index with it. */
	atomic_inc(&ssdemu_live_disks);
	WRITE_ONCE(dev->sd, sd);
	/* The item shows what the device was made with. */
	dev->cfg = *cfg;
	kfree(cfg);
	pr_info("%s: %s up, %llu MiB logical, %llu chips, hw_queues=%u; memory limit %llu MiB: %llu MiB metadata, data up to %llu MiB\n",
		sd->name, disk->disk_name,
		ssd_device_capacity_bytes(sd->core) >> 20, dev->cfg.chips,
		sd->tag_set.nr_hw_queues,
		ssd_device_memory_limit_bytes(sd->core) >> 20,
		DIV_ROUND_UP_ULL(ssd_device_metadata_bytes(sd->core), 1 << 20),
		ssd_device_data_limit_bytes(sd->core) >> 20);
	if (from_cut)
		pr_info("%s: %s back after a power cut with its durable state; its clock goes on from %llu ns\n",
			sd->name, disk->disk_name, start_ns);
	else if (dev->snapshot_from)
		pr_info("%s: %s made from snapshot %s; its clock goes on from %llu ns\n",
			sd->name, disk->disk_name, dev->snapshot_from, start_ns);
	return 0;

put_disk:
	/* Never added: free_disk is not called, the queue goes with the disk. */
	put_disk(disk);
free_tags:
	blk_mq_free_tag_set(&sd->tag_set);
free_index:
	ida_free(&ssdemu_indexes, sd->index);
destroy_core:
	/*
	 * A core a power cut kept stays kept for the next power=1 (cut again:
	 * the failed power-on counts as one more unsafe shutdown).
	 */
	if (from_cut) {
		ssd_device_power_cut(sd->core, NULL);
		dev->cut_core = sd->core;
	} else {
		ssd_device_destroy(sd->core);
	}
free_sd:
	mutex_destroy(&sd->core_lock);
	kfree(cfg);
	kfree(sd);
	return ret;
}

static void power_down(struct ssdemu_dev *dev, bool keep_core);

/*
 * Called with dev->lock held.  Refuses while the disk is open unless @force
 * (rmdir, which cannot fail): then the disk dies under its openers, whose
 * I/O and ioctls fail from now on, as with null_blk.  Never waits for
 * modeled time: pending requests complete at once (ssdemu_expedite()).
 * Waits for an ioctl of this device that is using the core (a
 * consistency check: linear in the device's size), for no other device.
 *
 * The order: expedite (nothing waits for modeled time), del_gendisk() (no
 * new I/O, the queue drained and torn down: queue_rq is done with the
 * core), take the core away under core_lock (the ioctls of fds still open
 * see -ENXIO from now on), destroy it, free the tag set (the queue no
 * longer uses it, as in virtio_blk), drop the driver's reference to the
 * disk: free_disk frees the rest then, or when the last fd is closed.
 */
int ssdemu_power_off(struct ssdemu_dev *dev, bool force)
{
	struct ssdemu_disk *sd = dev->sd;

	if (!sd)
		return 0;
	if (!force && disk_openers(sd->disk)) {
		pr_err("%s: %s is open, power=0 refused\n", sd->name,
		       sd->disk->disk_name);
		return -EBUSY;
	}
	power_down(dev, false);
	return 0;
}

/*
 * Cut the power of a powered device (dev->lock held): the core drops what
 * was not durable and fails every request from then on, then the disk goes
 * as on a forced power-off, but the core is kept in the item for the next
 * power=1.  -EINVAL (logged) if not powered.
 */
int ssdemu_power_cut(struct ssdemu_dev *dev)
{
	struct ssdemu_disk *sd = dev->sd;
	u64 lost = 0;
	int ret;

	if (!sd) {
		ssd_dev_err(dev->cfg.name, "power_cut refused: not powered");
		return -EINVAL;
	}
	mutex_lock(&sd->core_lock);
	ret = ssd_device_power_cut(sd->core, &lost);
	mutex_unlock(&sd->core_lock);
	pr_info("%s: %s power cut: %llu acknowledged pages lost%s\n", sd->name,
		sd->disk->disk_name, lost, ret ? " (the drain to flash failed)" : "");
	power_down(dev, true);
	return 0;
}

/* The disk goes; the core with it, or kept in dev->cut_core (@keep_core). */
static void power_down(struct ssdemu_dev *dev, bool keep_core)
{
	struct ssdemu_disk *sd = dev->sd;
	struct ssd_device *core;

	if (disk_openers(sd->disk))
		pr_info("%s: %s removed while open: its openers' I/O and ioctls fail from now on\n",
			sd->name, sd->disk->disk_name);
	ssdemu_expedite(sd);
	pr_info("%s: %s down\n", sd->name, sd->disk->disk_name);
	del_gendisk(sd->disk);
	mutex_lock(&sd->core_lock);
	core = sd->core;
	WRITE_ONCE(sd->core, NULL);
	mutex_unlock(&sd->core_lock);
	if (keep_core)
		dev->cut_core = core;
	else
		ssd_device_destroy(core);
	blk_mq_free_tag_set(&sd->tag_set);
	WRITE_ONCE(dev->sd, NULL);
	put_disk(sd->disk);
}

int ssdemu_blk_init(void)
{
	ssdemu_major = register_blkdev(0, KBUILD_MODNAME);
	return ssdemu_major < 0 ? ssdemu_major : 0;
}

/*
 * Every device is powered off (configfs holds the module while an item
 * exists, and an open disk holds it too).  The block layer drops its
 * module reference on the last close before it releases the disk, so a
 * disk removed while open may still be on its way to free_disk: wait.
 */
void ssdemu_blk_exit(void)
{
	wait_var_event(&ssdemu_live_disks, !atomic_read(&ssdemu_live_disks));
	unregister_blkdev(ssdemu_major, KBUILD_MODNAME);
}

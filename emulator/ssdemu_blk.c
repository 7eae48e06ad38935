// SPDX-License-Identifier: GPL-2.0
/*
 * ssdemu_blk.c - the block-layer glue: bringing a disk up and down, and
 * turning each blk-mq request into one ssd_device request whose data the
 * core copies straight between the request's pages and its flash page
 * buffers (an iov_iter over the request's bio_vecs).  The queue is
 * BLK_MQ_F_BLOCKING (as null_blk's blocking=1): queue_rq runs the core
 * under its mutex and may sleep to allocate page buffers (GFP_NOIO).
 * With timing=1 the request completes at its modeled time, by an absolute
 * hrtimer armed at submit (no spinning, no reserved CPU); lateness against
 * the model is counted.  Power-off does not wait for the modeled times: it
 * completes every pending request at once (ssdemu_expedite()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bio.h>
#include <linux/highmem.h>
#include <linux/idr.h>
#include <linux/ktime.h>
#include <linux/uio.h>

#include "emulator/ssdemu.h"

/*
 * The bio_vecs one request may carry: the queue's max_segments (each
 * bio_vec is at least one segment), so they fit the array in the request's
 * driver data.  The block layer's default, so requests are as large as
 * before (512 KiB of scattered 4 KiB pages).
 */
#define SSDEMU_MAX_SEGMENTS	BLK_MAX_SEGMENTS

/* Per-request driver data. */
struct ssdemu_cmd {
	/* Completes the request at its modeled time. */
	struct hrtimer timer;
	struct ssdemu_dev *dev;
	u64 target_ns;			/* ktime_get_ns() clock */
	blk_status_t status;
	/* The request's data as the core takes it (READ and WRITE). */
	struct ssd_data_iter data;
	struct iov_iter iter;
	struct bio_vec bvec[SSDEMU_MAX_SEGMENTS];
};

static DEFINE_IDA(ssdemu_indexes);
int ssdemu_major;

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

static void record_completion(struct ssdemu_dev *dev, u64 target_ns)
{
	struct ssdemu_lateness *l = &dev->lateness;
	u64 now_ns = ktime_get_ns();
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	l->timed_completions++;
	if (now_ns > target_ns) {
		l->late_completions++;
		l->late_ns_total += now_ns - target_ns;
		l->late_ns_max = max(l->late_ns_max, now_ns - target_ns);
	}
	spin_unlock_irqrestore(&l->lock, flags);
}

static enum hrtimer_restart ssdemu_timer_fired(struct hrtimer *timer)
{
	struct ssdemu_cmd *cmd = container_of(timer, struct ssdemu_cmd, timer);

	record_completion(cmd->dev, cmd->target_ns);
	blk_mq_end_request(blk_mq_rq_from_pdu(cmd), cmd->status);
	return HRTIMER_NORESTART;
}

void ssdemu_fill_lateness(struct ssdemu_dev *dev, struct ssdemu_stats *stats)
{
	struct ssdemu_lateness *l = &dev->lateness;
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	stats->timed_completions = l->timed_completions;
	stats->late_completions = l->late_completions;
	stats->late_ns_total = l->late_ns_total;
	stats->late_ns_max = l->late_ns_max;
	spin_unlock_irqrestore(&l->lock, flags);
}

void ssdemu_reset_lateness(struct ssdemu_dev *dev)
{
	struct ssdemu_lateness *l = &dev->lateness;
	unsigned long flags;

	spin_lock_irqsave(&l->lock, flags);
	l->timed_completions = 0;
	l->late_completions = 0;
	l->late_ns_total = 0;
	l->late_ns_max = 0;
	spin_unlock_irqrestore(&l->lock, flags);
}

/*
 * Complete @rq at virtual time @completion_ns: now if timing is off, else
 * by an absolute timer (at once if the emulator is already behind).
 */
static void complete_at(struct ssdemu_dev *dev, struct request *rq,
			blk_status_t status, u64 completion_ns)
{
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);

	/* Power-off has begun: nothing waits for modeled time any more. */
	if (!dev->cfg.timing || READ_ONCE(dev->tearing_down)) {
		blk_mq_end_request(rq, status);
		return;
	}
	cmd->target_ns = dev->epoch_ns + completion_ns;
	cmd->status = status;
	if (cmd->target_ns <= ktime_get_ns()) {
		record_completion(dev, cmd->target_ns);
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
	cmd->dev = set->driver_data;
	cmd->data.copy_in = ssdemu_copy_in;
	cmd->data.copy_out = ssdemu_copy_out;
	return 0;
}

static blk_status_t ssdemu_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct ssdemu_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct ssdemu_dev *dev = hctx->queue->queuedata;
	struct ssd_request req = {
		.offset_bytes = (u64)blk_rq_pos(rq) << SECTOR_SHIFT,
		.length_bytes = blk_rq_bytes(rq),
	};
	u64 completion_ns;
	int ret;

	/*
	 * The device receives the command once the block layer has issued
	 * it: the moment blktrace records as D, whose times ssdsim replays as
	 * arrivals.
	 */
	blk_mq_start_request(rq);
	req.arrival_ns = ktime_get_ns() - dev->epoch_ns;
	ret = rq_to_ssd_op(rq, &req.op);
	if (!ret && (req.op == SSD_OP_READ || req.op == SSD_OP_WRITE)) {
		ret = map_data(cmd, rq);
		req.data = &cmd->data;
	}
	if (!ret)
		ret = ssd_device_submit(dev->core, &req, &completion_ns);
	/*
	 * A refused request was not timed: it fails at once.  -ENOSPC (the
	 * data store is full) reaches the writer as ENOSPC.  -ENOMEM means
	 * page buffers could not be had even after reclaim: an I/O error,
	 * not BLK_STS_RESOURCE, which blk-mq would retry without end.
	 */
	if (ret) {
		blk_mq_end_request(rq, ret == -ENOMEM ? BLK_STS_IOERR :
				   errno_to_blk_status(ret));
		return BLK_STS_OK;
	}
	if (req.op == SSD_OP_READ)
		flush_read_pages(rq);
	complete_at(dev, rq, BLK_STS_OK, completion_ns);
	return BLK_STS_OK;
}

static const struct blk_mq_ops ssdemu_mq_ops = {
	.queue_rq = ssdemu_queue_rq,
	.init_request = ssdemu_init_request,
};

static const struct block_device_operations ssdemu_fops = {
	.owner = THIS_MODULE,
	.ioctl = ssdemu_ioctl,
	.compat_ioctl = blkdev_compat_ptr_ioctl,
};

static int alloc_tag_set(struct ssdemu_dev *dev)
{
	struct blk_mq_tag_set *set = &dev->tag_set;

	memset(set, 0, sizeof(*set));
	set->ops = &ssdemu_mq_ops;
	/*
	 * The model serves one request at a time: one hardware queue unless
	 * the hw_queues key asks for more (0: one per CPU).
	 */
	set->nr_hw_queues = dev->cfg.hw_queues ? dev->cfg.hw_queues : nr_cpu_ids;
	set->queue_depth = dev->cfg.queue_depth;
	set->numa_node = NUMA_NO_NODE;
	set->cmd_size = sizeof(struct ssdemu_cmd);
	/* queue_rq sleeps: the core's mutex, GFP_NOIO page buffers. */
	set->flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_BLOCKING;
	set->driver_data = dev;
	return blk_mq_alloc_tag_set(set);
}

static int add_disk_for(struct ssdemu_dev *dev)
{
	const struct ssd_config *cfg = &dev->cfg;
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
	};
	struct gendisk *disk;
	int ret;

	disk = ssdemu_alloc_disk(&dev->tag_set, &lim, dev);
	if (IS_ERR(disk))
		return PTR_ERR(disk);
	disk->major = ssdemu_major;
	disk->first_minor = dev->index * SSDEMU_MINORS;
	disk->minors = SSDEMU_MINORS;
	disk->fops = &ssdemu_fops;
	disk->private_data = dev;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "ssdemu%d", dev->index);
	set_capacity(disk, ssd_device_capacity_bytes(dev->core) >> SECTOR_SHIFT);
	dev->disk = disk;
	ret = add_disk(disk);
	if (ret) {
		put_disk(disk);
		dev->disk = NULL;
	}
	return ret;
}

/*
 * What ssdemu_expedite() did, for its kernel message (named from the
 * configuration's copy: configfs has freed the item's name by the time
 * rmdir releases it).
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
static void ssdemu_expedite(struct ssdemu_dev *dev)
{
	struct request_queue *q = dev->disk->queue;
	struct ssdemu_expedited e = { 0 };

	WRITE_ONCE(dev->tearing_down, true);
	blk_mq_quiesce_queue(q);
	e.now_ns = ktime_get_ns();
	blk_mq_tagset_busy_iter(&dev->tag_set, expedite_one, &e);
	blk_mq_unquiesce_queue(q);
	if (e.requests)
		pr_info("%s: %s: power off: %u requests completed at once, up to %llu ms before their modeled time\n",
			dev->cfg.name, dev->disk->disk_name, e.requests,
			div_u64(e.ahead_ns_max, NSEC_PER_MSEC));
}

/* Called with dev->lock held and the device off. */
int ssdemu_power_on(struct ssdemu_dev *dev)
{
	int ret;

	ret = ssd_device_create(&dev->core, &dev->cfg);
	if (ret)
		return ret;
	ret = ida_alloc_max(&ssdemu_indexes, (MINORMASK + 1) / SSDEMU_MINORS - 1,
			    GFP_KERNEL);
	if (ret < 0)
		goto destroy_core;
	dev->index = ret;
	ret = alloc_tag_set(dev);
	if (ret)
		goto free_index;
	dev->epoch_ns = ktime_get_ns();
	dev->tearing_down = false;
	spin_lock_init(&dev->lateness.lock);
	ssdemu_reset_lateness(dev);
	ret = add_disk_for(dev);
	if (ret)
		goto free_tags;
	dev->powered = true;
	pr_info("%s: %s up, %llu MiB logical, %llu chips, hw_queues=%u; memory limit %llu MiB: %llu MiB metadata, data up to %llu MiB\n",
		dev->cfg.name, dev->disk->disk_name,
		ssd_device_capacity_bytes(dev->core) >> 20, dev->cfg.chips,
		dev->tag_set.nr_hw_queues,
		ssd_device_memory_limit_bytes(dev->core) >> 20,
		DIV_ROUND_UP_ULL(ssd_device_metadata_bytes(dev->core), 1 << 20),
		ssd_device_data_limit_bytes(dev->core) >> 20);
	return 0;

free_tags:
	blk_mq_free_tag_set(&dev->tag_set);
free_index:
	ida_free(&ssdemu_indexes, dev->index);
	dev->index = -1;
destroy_core:
	ssd_device_destroy(dev->core);
	dev->core = NULL;
	return ret;
}

/*
 * Called with dev->lock held.  Refuses while the disk is open unless @force
 * (rmdir, which cannot fail): then the disk dies under its openers, whose
 * I/O and ioctls fail from now on, as with null_blk.  Never waits for
 * modeled time: pending requests complete at once (ssdemu_expedite()).
 */
int ssdemu_power_off(struct ssdemu_dev *dev, bool force)
{
	if (!dev->powered)
		return 0;
	if (!force && disk_openers(dev->disk)) {
		pr_err("%s: %s is open, power=0 refused\n", dev->cfg.name,
		       dev->disk->disk_name);
		return -EBUSY;
	}
	if (disk_openers(dev->disk))
		pr_info("%s: %s removed while open: its openers' I/O fails from now on\n",
			dev->cfg.name, dev->disk->disk_name);
	ssdemu_expedite(dev);
	pr_info("%s: %s down\n", dev->cfg.name, dev->disk->disk_name);
	del_gendisk(dev->disk);
	/* No I/O can reach the core now; keep ioctls on stale fds out too. */
	mutex_lock(&ssdemu_teardown_lock);
	dev->disk->private_data = NULL;
	mutex_unlock(&ssdemu_teardown_lock);
	put_disk(dev->disk);
	dev->disk = NULL;
	blk_mq_free_tag_set(&dev->tag_set);
	ssd_device_destroy(dev->core);
	dev->core = NULL;
	ida_free(&ssdemu_indexes, dev->index);
	dev->index = -1;
	dev->powered = false;
	return 0;
}

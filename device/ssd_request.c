// SPDX-License-Identifier: GPL-2.0
/*
 * ssd_request.c - the request path of the front end: a host request is
 * admitted by the command queue and the controller, split into flash
 * pages handed to the top layer (a partial page is read, merged and
 * rewritten), refused before it changes anything if the data store has no
 * room for the pages it writes, counted and logged.  What moves between
 * the request and a page buffer follows data_store (ssd_device.h): bytes,
 * sector ids, or nothing.
 */
#include "device/ssd_device_internal.h"

/*
 * Put bytes [@off, @off + @len) of a page into its buffer @buf: the
 * request's (@data) or zeros (@data NULL), as bytes or sector ids.
 */
static void fill_buffer(const struct ssd_device *dev, void *buf, u32 off, u32 len,
			struct ssd_data_iter *data)
{
	switch (dev->pool.store) {
	case SSD_DATA_BYTES:
		if (data)
			data->copy_in(data, (u8 *)buf + off, len);
		else
			memset((u8 *)buf + off, 0, len);
		break;
	case SSD_DATA_DIGEST:
		buf = (u8 *)buf + off / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES;
		if (data)
			data->copy_ids(data, buf, len);
		else
			memset(buf, 0, len / SSD_SECTOR_BYTES * SSD_DIGEST_ID_BYTES);
		break;
	default:
		break;
	}
}

/* A host page operation of @req from @start_ns: its request, and a WRITE's pages. */
static struct ssd_io host_io(const struct ssd_device *dev, const struct ssd_request *req,
			     u64 start_ns)
{
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST,
			     .request_seq = dev->request_seq,
			     .request_bytes = req->length_bytes };

	if (req->op == SSD_OP_WRITE && req->length_bytes) {
		io.request_lpn = req->offset_bytes >> dev->page_shift;
		io.request_pages = ((req->offset_bytes + req->length_bytes - 1) >>
				    dev->page_shift) - io.request_lpn + 1;
	}
	return io;
}

/*
 * Write bytes [@off, @off + @len) of page @lpn, from the request (@data) or
 * zeros (@data NULL), from @start_ns on; *@done_ns is when it is on flash.
 * A partial page is merged with its current contents, read first.
 */
static int write_page(struct ssd_device *dev, const struct ssd_request *req, u64 lpn,
		      u32 off, u32 len, struct ssd_data_iter *data, u64 start_ns,
		      u64 *done_ns)
{
	void *buf = ssd_pagepool_get(&dev->pool);
	struct ssd_io io = host_io(dev, req, start_ns);
	int ret;

	if (!buf)
		return -ENOMEM;
	if (len < dev->page_bytes) {
		const void *old;

		io.merge = true;
		ret = dev->top->ops->read(dev->top, lpn, &io, &old);
		io.merge = false;
		if (ret) {
			ssd_pagepool_put(&dev->pool, buf);
			*done_ns = io.done_ns;
			return ret;
		}
		io.start_ns = io.done_ns;
		if (old) {
			memcpy(buf, old, dev->pool.page_bytes);
			dev->host.rmw_pages++;
		} else {
			memset(buf, 0, dev->pool.page_bytes);
		}
	}
	fill_buffer(dev, buf, off, len, data);
	io.region = SSD_REGION_MAIN;
	ret = dev->top->ops->write(dev->top, lpn, buf, &io);
	*done_ns = io.done_ns;
	if (!ret)
		dev->host.write_pages++;
	return ret;
}

/* One page of @req, its flash work starting at @start_ns, ending *@done_ns. */
static int do_page(struct ssd_device *dev, const struct ssd_request *req,
		   u64 lpn, u32 off, u32 len, u64 start_ns, u64 *done_ns)
{
	struct ssd_io io = host_io(dev, req, start_ns);
	bool whole = len == dev->page_bytes;
	const void *old;
	int ret = 0;

	*done_ns = start_ns;
	switch (req->op) {
	case SSD_OP_READ:
		ret = dev->top->ops->read(dev->top, lpn, &io, &old);
		if (ret && ret != -EBADMSG)
			return ret;
		/* Uncorrectable: the host gets an error, its buffer zeros. */
		if (ret)
			old = NULL;
		if (dev->pool.store == SSD_DATA_BYTES)
			req->data->copy_out(req->data, old ? (const u8 *)old + off : NULL, len);
		if (!ret)
			dev->host.read_pages++;
		*done_ns = io.done_ns;
		return ret;
	case SSD_OP_WRITE:
		return write_page(dev, req, lpn, off, len, req->data, start_ns, done_ns);
	case SSD_OP_WRITE_ZEROES:
		if (!whole)
			return write_page(dev, req, lpn, off, len, NULL, start_ns, done_ns);
		ret = dev->top->ops->trim(dev->top, lpn, &io);
		*done_ns = io.done_ns;
		return ret;
	case SSD_OP_TRIM:
		/* Discard is advisory: a partial page keeps its data. */
		if (whole) {
			ret = dev->top->ops->trim(dev->top, lpn, &io);
			*done_ns = io.done_ns;
		}
		return ret;
	default:
		return -EINVAL;
	}
}

static void count_request(struct ssd_device *dev, const struct ssd_request *req)
{
	switch (req->op) {
	case SSD_OP_READ:
		dev->host.read_bytes += req->length_bytes;
		break;
	case SSD_OP_WRITE:
		dev->host.write_bytes += req->length_bytes;
		break;
	case SSD_OP_TRIM:
	case SSD_OP_WRITE_ZEROES:
		dev->host.trim_bytes += req->length_bytes;
		break;
	case SSD_OP_FLUSH:
		dev->host.flush_count++;
		break;
	}
}

/*
 * The pages @req writes, which need a page buffer each: every page of a
 * WRITE, the partial first and last pages of a WRITE_ZEROES (its whole
 * pages are unmapped).  *@lpns gets up to two of them for a WRITE_ZEROES,
 * the first one for a WRITE (the others follow it).
 */
static u64 written_pages(const struct ssd_device *dev, const struct ssd_request *req,
			 u64 lpns[2])
{
	u64 end = req->offset_bytes + req->length_bytes;
	u64 mask = dev->page_bytes - 1;
	u64 first = req->offset_bytes >> dev->page_shift;
	u64 last = (end - 1) >> dev->page_shift;
	u64 nr = 0;

	if (!req->length_bytes)
		return 0;
	lpns[0] = first;
	if (req->op == SSD_OP_WRITE)
		return last - first + 1;
	if (req->op != SSD_OP_WRITE_ZEROES)
		return 0;
	if ((req->offset_bytes & mask) || (first == last && (end & mask)))
		lpns[nr++] = first;
	if ((end & mask) && last != first)
		lpns[nr++] = last;
	return nr;
}

/* Whether @new_pages more pages of data fit under the data store's cap. */
static bool data_fits(const struct ssd_device *dev, u64 new_pages)
{
	return flash_data_pages(&dev->flash) + new_pages <= dev->data_limit_pages;
}

/*
 * Before @req changes anything: -ENOSPC if the pages it writes that hold
 * no data yet do not fit in the data store beside the pages layers hold
 * back (a write buffer) that may need one later, -ENOMEM if the page buffers
 * it needs cannot be had.  (Whole pages a WRITE_ZEROES unmaps are not
 * counted as room: the check stays simple and errs on the safe side.)
 */
static int prepare_request(struct ssd_device *dev, const struct ssd_request *req)
{
	u64 lpns[2], nr, new_pages = 0, pending, i;

	nr = written_pages(dev, req, lpns);
	if (!nr)
		return 0;
	pending = ssd_stack_pending_pages(dev);
	if (!data_fits(dev, pending + nr)) {
		for (i = 0; i < nr; i++) {
			u64 lpn = req->op == SSD_OP_WRITE ? lpns[0] + i : lpns[i];

			if (!ssd_stack_holds(dev, lpn))
				new_pages++;
		}
		if (!data_fits(dev, pending + new_pages))
			return -ENOSPC;
	}
	return ssd_pagepool_reserve(&dev->pool, min_t(u64, nr, U32_MAX));
}

/* The pages [@pos, @end) touch. */
static u64 pages_of(const struct ssd_device *dev, u64 pos, u64 end)
{
	return end > pos ? ((end - 1) >> dev->page_shift) - (pos >> dev->page_shift) + 1 : 0;
}

/*
 * A FUA write's pages are on flash before it completes: with a volatile
 * write cache, every buffer drains as on a FLUSH (the pages acknowledged
 * before it go too: a device may always make more durable).
 */
static int force_unit_access(struct ssd_device *dev, u64 start_ns, u64 *done_ns)
{
	struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST };
	int ret = 0;

	dev->power.fua_writes++;
	if (dev->cfg.volatile_write_cache) {
		ret = dev->top->ops->flush(dev->top, &io);
		*done_ns = max_t(u64, *done_ns, io.done_ns);
	}
	return ret;
}

/* Let statistics, checks and the scheduler in; no other request. */
static void break_lock(struct ssd_device *dev)
{
	ssd_lock_give(&dev->lock);
	ssd_cond_resched();
	ssd_lock_take(&dev->lock);
	dev->lock_breaks++;
}

/*
 * Whether write-like @req touches a sector injected to fail writes: it
 * fails whole before it changes anything.
 */
static bool write_injected(struct ssd_device *dev, const struct ssd_request *req)
{
	u64 hit;

	if (!dev->inject.nr || (req->op != SSD_OP_WRITE && req->op != SSD_OP_WRITE_ZEROES))
		return false;
	if (!ssd_inject_hit(&dev->inject, SSD_INJECT_WRITE, req->offset_bytes,
			    req->length_bytes, &hit))
		return false;
	dev->write_error_pages += ((req->offset_bytes + req->length_bytes - 1) >> dev->page_shift) -
				  (req->offset_bytes >> dev->page_shift) + 1;
	return true;
}

/*
 * Page bytes [@pos, + @len) of @req ended with @ret: a media error
 * (-EBADMSG: uncorrectable) or, for a read, an injected sector in it sets
 * *@fail_at to the first failed byte if earlier.  A read goes on (0), a
 * write stops (-EBADMSG).
 */
static int media_error(struct ssd_device *dev, const struct ssd_request *req, u64 pos,
		       u32 len, int ret, u64 *fail_at)
{
	u64 hit = pos;

	if (!ret && (req->op != SSD_OP_READ || !dev->inject.nr ||
		     !ssd_inject_hit(&dev->inject, SSD_INJECT_READ, pos, len, &hit)))
		return 0;
	if (ret && ret != -EBADMSG)
		return ret;
	*fail_at = min_t(u64, *fail_at, hit);
	if (req->op == SSD_OP_READ) {
		if (!ret)
			dev->host.read_pages--;
		dev->read_error_pages++;
		return 0;
	}
	dev->write_error_pages++;
	return -EBADMSG;
}

int ssd_device_submit(struct ssd_device *dev, const struct ssd_request *req,
		      u64 *completion_ns)
{
	u64 good_bytes;

	return ssd_device_submit_io(dev, req, completion_ns, &good_bytes);
}

/* The controller's kind of @req, for its per-kind counters. */
static enum controller_op_kind op_kind(const struct ssd_request *req)
{
	return req->op == SSD_OP_READ ? CONTROLLER_OP_READ :
	       req->op == SSD_OP_WRITE ? CONTROLLER_OP_WRITE : CONTROLLER_OP_OTHER;
}

/* Whether @req is one the device can take at all: an operation, in range. */
static bool request_valid(const struct ssd_device *dev, const struct ssd_request *req)
{
	u64 end = req->offset_bytes + req->length_bytes;

	if (req->op > SSD_OP_FLUSH ||
	    (req->op != SSD_OP_FLUSH && (end < req->offset_bytes || end > dev->capacity_bytes)))
		return false;
	/* Sector ids describe whole sectors only. */
	return dev->pool.store != SSD_DATA_DIGEST ||
	       !((req->offset_bytes | req->length_bytes) & (SSD_SECTOR_BYTES - 1));
}

/*
 * Before @req is admitted: -EINVAL (out of range), -EIO (power off, or a
 * write to an injected sector), -EROFS (end of life) or what
 * prepare_request() says (-ENOSPC, -ENOMEM); each counted, in no latency:
 * failed if the host gets an I/O error the device did not choose
 * (injected, no page buffer), refused otherwise.
 */
static int admit_request(struct ssd_device *dev, const struct ssd_request *req)
{
	enum controller_outcome outcome = CONTROLLER_REFUSED;
	int ret = 0;

	if (!request_valid(dev, req)) {
		ret = -EINVAL;
	} else if (dev->powered_off) {
		ret = -EIO;
	} else if (write_injected(dev, req)) {
		outcome = CONTROLLER_FAILED;
		ret = -EIO;
	} else if (req->op != SSD_OP_READ && req->op != SSD_OP_FLUSH &&
		   flash_read_only(&dev->flash)) {
		/* End of life (ftl/ftl_retire.c): reads only. */
		ssd_flash_count_refused(&dev->flash, pages_of(dev, req->offset_bytes,
							      req->offset_bytes + req->length_bytes));
		ret = -EROFS;
	} else {
		ret = prepare_request(dev, req);
		/* No page buffer for it: the host gets an I/O error. */
		if (ret == -ENOMEM)
			outcome = CONTROLLER_FAILED;
	}
	if (ret)
		ssd_controller_count(&dev->controller, op_kind(req), outcome);
	return ret;
}

/*
 * The working set: each logical page a host read or write touches sets its
 * bit, and the first time it does counts it (working_set_pages).
 */
static void touch_page(struct ssd_device *dev, const struct ssd_request *req, u64 lpn)
{
	u64 bit = 1ULL << (lpn & 63);

	if (req->op == SSD_OP_TRIM || (dev->working_set[lpn >> 6] & bit))
		return;
	dev->working_set[lpn >> 6] |= bit;
	dev->host.working_set_pages++;
}

int ssd_device_submit_io(struct ssd_device *dev, const struct ssd_request *req,
			 u64 *completion_ns, u64 *good_bytes)
{
	u64 pos = req->offset_bytes;
	u64 end = req->offset_bytes + req->length_bytes;
	u64 fail_at = U64_MAX;
	struct ssd_log_entry entry;
	u64 arrival_ns, start_ns, done_ns;
	int ret;

	*good_bytes = 0;

	ssd_lock_take(&dev->request_lock);
	ssd_lock_take(&dev->lock);
	ret = admit_request(dev, req);
	if (ret) {
		/* Declined at once: it ends as it arrives. */
		*completion_ns = max_t(u64, req->arrival_ns, dev->last_arrival_ns);
		goto unlock;
	}
	dev->request_seq++;
	arrival_ns = max_t(u64, req->arrival_ns, dev->last_arrival_ns);
	dev->last_arrival_ns = arrival_ns;
	start_ns = ssd_controller_command_start(&dev->controller, arrival_ns);
	/*
	 * Background work first, while the horizon is still the previous
	 * command's start: work on chips that went idle since may fill the gap.
	 */
	ssd_stack_idle(dev, start_ns);
	ssd_flash_set_horizon(&dev->flash, start_ns);
	done_ns = start_ns;
	if (req->op == SSD_OP_FLUSH) {
		struct ssd_io io = { .start_ns = start_ns, .cause = SSD_CAUSE_HOST };

		ret = dev->top->ops->flush(dev->top, &io);
		done_ns = max_t(u64, done_ns, io.done_ns);
	} else {
		u32 pages = 0;

		while (pos < end) {
			u64 lpn = pos >> dev->page_shift;
			u32 off = pos & (dev->page_bytes - 1);
			u32 len = min_t(u64, dev->page_bytes - off, end - pos);
			u64 page_done_ns;

			/*
			 * Every page starts from start_ns and the request
			 * lock keeps other requests out of the model, so a
			 * break changes no time.
			 */
			if (++pages > dev->resched_pages) {
				break_lock(dev);
				pages = 1;
			}
			touch_page(dev, req, lpn);
			ret = do_page(dev, req, lpn, off, len, start_ns, &page_done_ns);
			ret = media_error(dev, req, pos, len, ret, &fail_at);
			if (ret == -EROFS)
				ssd_flash_count_refused(&dev->flash, pages_of(dev, pos, end));
			if (ret && ret != -EBADMSG)
				break;
			done_ns = max_t(u64, done_ns, page_done_ns);
			if (ret)
				break;
			pos += len;
		}
		if (!ret && req->fua && req->op == SSD_OP_WRITE)
			ret = force_unit_access(dev, start_ns, &done_ns);
	}
	/* A media error: the request ran (timed, logged), the host gets -EIO. */
	if (fail_at != U64_MAX)
		ret = -EIO;
	/* Only a completed request has a latency (failed, refused: counted). */
	if (!ret)
		ssd_controller_command_done(&dev->controller, arrival_ns, done_ns, op_kind(req));
	else
		ssd_controller_command_ended(&dev->controller, done_ns, op_kind(req),
					     ret == -EROFS || ret == -ENOSPC ?
					     CONTROLLER_REFUSED : CONTROLLER_FAILED);
	if (!ret)
		count_request(dev, req);
	dev->virtual_time_ns = max_t(u64, dev->virtual_time_ns, done_ns);

	entry.arrival_ns = arrival_ns;
	entry.completion_ns = done_ns;
	entry.offset_bytes = req->offset_bytes;
	entry.length_bytes = req->length_bytes;
	entry.op = req->op;
	ssd_request_log_add(&dev->log, &entry);
	*completion_ns = done_ns;
	/* Any other -EIO (a broken invariant) completes nothing. */
	if (!ret)
		*good_bytes = req->length_bytes;
	else if (ret == -EIO && fail_at != U64_MAX)
		*good_bytes = fail_at - req->offset_bytes;
unlock:
	ssd_lock_give(&dev->lock);
	ssd_lock_give(&dev->request_lock);
	return ret;
}

/* SPDX-License-Identifier: ISC */
/*
 * io_uring engine: registered files and buffers, one buffer per slot, the
 * queue refilled by the caller; a group of targets shares one ring, each
 * target's file registered at its index.  Completions already in the ring
 * are taken without a syscall; the engine sleeps in the kernel only when
 * none is.  A commit is a write linked to an IORING_OP_FSYNC (datasync
 * unless a full fsync is asked): one submission, completed by the fsync's
 * completion.  The only file that includes liburing.
 */
#include <sys/uio.h>

#include <errno.h>
#include <limits.h>
#include <liburing.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "target.h"
#include "xmalloc.h"

#define ENGINE_URING_HEAD	(1ULL << 32)	/* user data: a linked write */
#define ENGINE_URING_NO_HEAD	INT_MIN		/* head_res: none linked */

struct engine_uring {
	struct io_uring	 ring;
	int		 fixed_file;	/* fds registered, target i at i */
	int		 fixed_bufs;	/* buffers registered */
	unsigned	 pending;	/* prepared, not yet submitted */
	void		*pool;		/* iodepth * max_bs, aligned */
	uint64_t	*submit_ns;	/* per slot */
	int		*head_res;	/* per slot: result of a linked write */
	struct engine_done *stash;	/* reaped from the ring, not yet given */
	unsigned	 nstash;
	unsigned	 stash_pos;
};

static uint64_t
engine_uring_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

static void
engine_uring_fill(void *buf, size_t len)
{
	uint64_t	*p = buf, x = 0x9e3779b97f4a7c15ULL ^ (uintptr_t)buf;
	size_t		 i;

	for (i = 0; i < len / sizeof(*p); i++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		p[i] = x;
	}
}

static int
engine_uring_open(struct engine *e)
{
	struct engine_uring	*u;
	struct iovec		*iov;
	unsigned		 entries, i, nfd;
	int			*fds, ret;

	u = xcalloc(1, sizeof(*u));
	e->priv = u;
	/* Room for a linked write and fsync per slot. */
	for (entries = 1; entries < 2 * e->iodepth; entries <<= 1)
		;
	if ((ret = io_uring_queue_init(entries, &u->ring, 0)) < 0) {
		free(u);
		e->priv = NULL;
		return (ret);
	}
	if (posix_memalign(&u->pool, 4096, (size_t)e->iodepth * e->max_bs)) {
		io_uring_queue_exit(&u->ring);
		free(u);
		e->priv = NULL;
		return (-ENOMEM);
	}
	engine_uring_fill(u->pool, (size_t)e->iodepth * e->max_bs);
	u->submit_ns = xcalloc(e->iodepth, sizeof(*u->submit_ns));
	u->head_res = xcalloc(e->iodepth, sizeof(*u->head_res));
	u->stash = xcalloc(e->iodepth, sizeof(*u->stash));

	/* Registered files and buffers save per-I/O work; both optional. */
	nfd = e->ntargets > 1 ? e->ntargets : 1;
	fds = xcalloc(nfd, sizeof(*fds));
	for (i = 0; i < nfd; i++)
		fds[i] = nfd > 1 ? e->targets[i]->fd : e->target->fd;
	u->fixed_file = io_uring_register_files(&u->ring, fds, nfd) == 0;
	free(fds);
	iov = xcalloc(e->iodepth, sizeof(*iov));
	for (i = 0; i < e->iodepth; i++) {
		iov[i].iov_base = (char *)u->pool + (size_t)i * e->max_bs;
		iov[i].iov_len = e->max_bs;
	}
	u->fixed_bufs = io_uring_register_buffers(&u->ring, iov,
	    e->iodepth) == 0;
	free(iov);
	return (0);
}

/* Prepare io's read or write on sqe. */
static void
engine_uring_prep_rw(struct engine *e, struct io_uring_sqe *sqe,
    const struct engine_io *io, int fd, int fixed_file)
{
	struct engine_uring	*u = e->priv;
	void			*buf;

	buf = (char *)u->pool + (size_t)io->slot * e->max_bs;
	if (u->fixed_bufs && io->write)
		io_uring_prep_write_fixed(sqe, fd, buf, io->len, io->offset,
		    io->slot);
	else if (u->fixed_bufs)
		io_uring_prep_read_fixed(sqe, fd, buf, io->len, io->offset,
		    io->slot);
	else if (io->write)
		io_uring_prep_write(sqe, fd, buf, io->len, io->offset);
	else
		io_uring_prep_read(sqe, fd, buf, io->len, io->offset);
	if (fixed_file)
		sqe->flags |= IOSQE_FIXED_FILE;
}

/*
 * Queue one I/O: a read or write, or for a commit a write linked to an
 * fsync (or the fsync alone for len 0); the last SQE names the slot.
 */
static int
engine_uring_queue(struct engine *e, const struct engine_io *io)
{
	struct engine_uring	*u = e->priv;
	struct io_uring_sqe	*sqe;
	int			 fixed, fd, sync;

	sync = io->write && io->sync != ENGINE_SYNC_NONE;
	if (io_uring_sq_space_left(&u->ring) < (sync && io->len > 0 ? 2U : 1U))
		return (-EBUSY);
	/* Registered: the slot's target at its index; any other file not. */
	fixed = u->fixed_file && (io->file == NULL ||
	    io->file == engine_target(e, io->slot));
	fd = fixed ? (int)engine_slot_target(e, io->slot) :
	    (io->file != NULL ? io->file : engine_target(e, io->slot))->fd;
	u->head_res[io->slot] = ENGINE_URING_NO_HEAD;
	if (!sync || io->len > 0) {
		sqe = io_uring_get_sqe(&u->ring);
		engine_uring_prep_rw(e, sqe, io, fd, fixed);
		io_uring_sqe_set_data64(sqe, io->slot |
		    (sync ? ENGINE_URING_HEAD : 0));
		if (sync)
			sqe->flags |= IOSQE_IO_LINK;
	}
	if (sync) {
		sqe = io_uring_get_sqe(&u->ring);
		io_uring_prep_fsync(sqe, fd, io->sync == ENGINE_SYNC_DATA ?
		    IORING_FSYNC_DATASYNC : 0);
		if (fixed)
			sqe->flags |= IOSQE_FIXED_FILE;
		io_uring_sqe_set_data64(sqe, io->slot);
	}
	return (0);
}

static int
engine_uring_submit(struct engine *e, const struct engine_io *ios, unsigned n)
{
	struct engine_uring	*u = e->priv;
	uint64_t		 now;
	unsigned		 i;
	int			 ret;

	for (i = 0; i < n; i++)
		if ((ret = engine_uring_queue(e, &ios[i])) != 0)
			return (ret);
	/* Stamped just before the enter that submits them (in reap). */
	now = engine_uring_clock();
	for (i = 0; i < n; i++)
		u->submit_ns[ios[i].slot] = now;
	u->pending += n;
	return (0);
}

/*
 * What a completion reports: a commit's written bytes once its fsync
 * succeeded (or was cancelled by a short write), else the error.
 */
static int
engine_uring_commit_res(int head, int res)
{
	if (head == ENGINE_URING_NO_HEAD)
		return (res);
	if (head < 0 || res >= 0 || res == -ECANCELED)
		return (head);
	return (res);
}

/* Stamp every completion in the CQ ring now and move it to the stash. */
static void
engine_uring_collect(struct engine *e)
{
	struct engine_uring	*u = e->priv;
	struct io_uring_cqe	*cqe;
	struct engine_done	*d;
	uint64_t		 now = 0, data;
	unsigned		 head, n = 0;

	if (u->stash_pos > 0) {		/* keep the unread ones in front */
		memmove(u->stash, u->stash + u->stash_pos,
		    (u->nstash - u->stash_pos) * sizeof(*u->stash));
		u->nstash -= u->stash_pos;
		u->stash_pos = 0;
	}
	io_uring_for_each_cqe(&u->ring, head, cqe) {
		if (u->nstash == e->iodepth)
			break;
		if (n++ == 0)
			now = engine_uring_clock();
		data = io_uring_cqe_get_data64(cqe);
		if (data & ENGINE_URING_HEAD) {
			/* The write of a commit: its fsync completes it. */
			u->head_res[(unsigned)data] = cqe->res;
			continue;
		}
		d = &u->stash[u->nstash++];
		d->slot = (unsigned)data;
		d->res = engine_uring_commit_res(u->head_res[d->slot],
		    cqe->res);
		d->lat_ns = now - u->submit_ns[d->slot];
	}
	io_uring_cq_advance(&u->ring, n);
}

/* Hand out up to max stashed completions. */
static unsigned
engine_uring_give(struct engine_uring *u, struct engine_done *done,
    unsigned max)
{
	unsigned	n = 0;

	while (n < max && u->stash_pos < u->nstash)
		done[n++] = u->stash[u->stash_pos++];
	return (n);
}

/*
 * Hand out completions, first those stashed, then those already in the
 * ring; submit what is pending in the same enter that sleeps for min, if
 * there are fewer than min.  Completions are stamped when first seen, so a
 * caller reaping one at a time (to resubmit each I/O's replacement at
 * once, which keeps the device queue full) still gets true latencies.
 */
static int
engine_uring_reap(struct engine *e, struct engine_done *done, unsigned max,
    unsigned min)
{
	struct engine_uring	*u = e->priv;
	struct io_uring_cqe	*cqe;
	unsigned		 n;
	int			 ret;

	n = engine_uring_give(u, done, max);
	if (n < max) {
		engine_uring_collect(e);
		n += engine_uring_give(u, done + n, max - n);
	}
	if (u->pending > 0) {
		/* One enter: submit, and wait too if nothing is ready. */
		if (n >= min || n == max)
			ret = io_uring_submit(&u->ring);
		else
			ret = io_uring_submit_and_wait(&u->ring, 1);
		if (ret < 0 && ret != -EINTR)
			return (ret);
		if (ret >= 0)
			u->pending = 0;
		if (n < max) {
			engine_uring_collect(e);
			n += engine_uring_give(u, done + n, max - n);
		}
	}
	while (n < min && n < max) {
		ret = io_uring_wait_cqe_nr(&u->ring, &cqe, 1);
		if (ret == -EINTR)
			break;		/* the caller checks for a stop */
		if (ret < 0)
			return (ret);
		engine_uring_collect(e);
		n += engine_uring_give(u, done + n, max - n);
	}
	return ((int)n);
}

static uint64_t
engine_uring_now(struct engine *e)
{
	(void)e;
	return (engine_uring_clock());
}

static void
engine_uring_close(struct engine *e)
{
	struct engine_uring	*u = e->priv;

	if (u == NULL)
		return;
	/*
	 * The ring is torn down asynchronously after its fd closes; drop the
	 * registered file first so the target (an O_EXCL block device) is
	 * released when close returns, not some time after exit.
	 */
	if (u->fixed_file)
		io_uring_unregister_files(&u->ring);
	io_uring_queue_exit(&u->ring);
	free(u->pool);
	free(u->submit_ns);
	free(u->head_res);
	free(u->stash);
	free(u);
	e->priv = NULL;
}

const struct engine_ops engine_uring_ops = {
	.name = "io_uring",
	.open = engine_uring_open,
	.submit = engine_uring_submit,
	.reap = engine_uring_reap,
	.now_ns = engine_uring_now,
	.close = engine_uring_close,
};

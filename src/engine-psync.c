/* SPDX-License-Identifier: ISC */
/*
 * psync engine: pread/pwrite (then fdatasync or fsync for a commit), for
 * systems without io_uring and for commits made by system calls.  At
 * iodepth 1 submit performs the I/O itself (on the target of its slot, or
 * the file it names); deeper, each slot has a thread of its own (as each
 * database connection does), submit hands the I/O to it and reap waits for
 * what the threads finished.  Latency is taken by whoever performs the
 * I/O, around the system calls only.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "target.h"
#include "xmalloc.h"

struct engine_psync_slot {
	struct engine		*e;
	pthread_t		 thread;
	pthread_cond_t		 wake;
	struct engine_io	 io;
	int			 queued;	/* io waits for the thread */
};

struct engine_psync {
	void			*buf;		/* max_bs per slot, aligned */
	struct engine_done	*done;		/* completed, not yet reaped */
	unsigned		 ndone;
	unsigned		 inflight;	/* handed to threads */
	struct engine_psync_slot *slot;		/* NULL at iodepth 1 */
	unsigned		 nthreads;	/* started */
	int			 quit;
	pthread_mutex_t		 lock;
	pthread_cond_t		 finished;
};

static uint64_t
engine_psync_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

/* Perform one I/O from buf; fill d (slot, bytes or -errno, latency). */
static void
engine_psync_do(struct engine *e, const struct engine_io *io, void *buf,
    struct engine_done *d)
{
	const struct target	*t = io->file != NULL ? io->file :
				     engine_target(e, io->slot);
	uint64_t		 t0;
	ssize_t			 r = 0;

	t0 = engine_psync_clock();
	if (io->len > 0) {
		do {
			if (io->write)
				r = pwrite(t->fd, buf, io->len, io->offset);
			else
				r = pread(t->fd, buf, io->len, io->offset);
		} while (r < 0 && errno == EINTR);
	}
	if (r >= 0 && io->write && io->sync != ENGINE_SYNC_NONE) {
		if ((io->sync == ENGINE_SYNC_FULL ? fsync(t->fd) :
		    fdatasync(t->fd)) != 0)
			r = -1;
	}
	d->lat_ns = engine_psync_clock() - t0;
	d->slot = io->slot;
	d->res = r < 0 ? -errno : (int)r;
}

static void *
engine_psync_thread(void *arg)
{
	struct engine_psync_slot	*s = arg;
	struct engine			*e = s->e;
	struct engine_psync		*p = e->priv;
	struct engine_done		 d;
	struct engine_io		 io;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!s->queued && !p->quit)
			pthread_cond_wait(&s->wake, &p->lock);
		if (p->quit)
			break;
		io = s->io;
		pthread_mutex_unlock(&p->lock);
		engine_psync_do(e, &io, (char *)p->buf + (size_t)io.slot *
		    e->max_bs, &d);
		pthread_mutex_lock(&p->lock);
		s->queued = 0;
		p->done[p->ndone++] = d;
		p->inflight--;
		pthread_cond_signal(&p->finished);
	}
	pthread_mutex_unlock(&p->lock);
	return (NULL);
}

static void
engine_psync_stop(struct engine_psync *p)
{
	unsigned	i;

	if (p->slot == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->quit = 1;
	for (i = 0; i < p->nthreads; i++)
		pthread_cond_signal(&p->slot[i].wake);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nthreads; i++) {
		pthread_join(p->slot[i].thread, NULL);
		pthread_cond_destroy(&p->slot[i].wake);
	}
	free(p->slot);
	p->slot = NULL;
}

/* One thread per slot; signals go to the caller's thread, not these. */
static int
engine_psync_start(struct engine *e)
{
	struct engine_psync	*p = e->priv;
	sigset_t		 all, old;
	unsigned		 i;
	int			 ret = 0;

	p->slot = xcalloc(e->iodepth, sizeof(*p->slot));
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < e->iodepth && ret == 0; i++) {
		p->slot[i].e = e;
		pthread_cond_init(&p->slot[i].wake, NULL);
		ret = -pthread_create(&p->slot[i].thread, NULL,
		    engine_psync_thread, &p->slot[i]);
		if (ret == 0)
			p->nthreads++;
		else
			pthread_cond_destroy(&p->slot[i].wake);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return (ret);
}

static void
engine_psync_free(struct engine *e)
{
	struct engine_psync	*p = e->priv;

	engine_psync_stop(p);
	pthread_cond_destroy(&p->finished);
	pthread_mutex_destroy(&p->lock);
	free(p->buf);
	free(p->done);
	free(p);
	e->priv = NULL;
}

static int
engine_psync_open(struct engine *e)
{
	struct engine_psync	*p;
	uint64_t		*w;
	size_t			 i, n;
	int			 ret;

	p = xcalloc(1, sizeof(*p));
	n = (size_t)e->iodepth * e->max_bs;
	if (posix_memalign(&p->buf, 4096, n)) {
		free(p);
		return (-ENOMEM);
	}
	for (w = p->buf, i = 0; i < n / sizeof(*w); i++)
		w[i] = (i + 1) * 0x9e3779b97f4a7c15ULL;
	p->done = xcalloc(e->iodepth, sizeof(*p->done));
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->finished, NULL);
	e->priv = p;
	if (e->iodepth > 1 && (ret = engine_psync_start(e)) != 0) {
		engine_psync_free(e);
		return (ret);
	}
	return (0);
}

static int
engine_psync_submit(struct engine *e, const struct engine_io *ios,
    unsigned n)
{
	struct engine_psync		*p = e->priv;
	struct engine_psync_slot	*s;
	unsigned			 i;

	if (p->slot == NULL) {
		for (i = 0; i < n; i++) {
			if (p->ndone == e->iodepth)
				return (-EBUSY);
			engine_psync_do(e, &ios[i], p->buf,
			    &p->done[p->ndone++]);
		}
		return (0);
	}
	pthread_mutex_lock(&p->lock);
	for (i = 0; i < n; i++) {
		s = &p->slot[ios[i].slot % e->iodepth];
		if (ios[i].slot >= e->iodepth || s->queued) {
			pthread_mutex_unlock(&p->lock);
			return (-EBUSY);
		}
		s->io = ios[i];
		s->queued = 1;
		p->inflight++;
		pthread_cond_signal(&s->wake);
	}
	pthread_mutex_unlock(&p->lock);
	return (0);
}

static int
engine_psync_reap(struct engine *e, struct engine_done *done, unsigned max,
    unsigned min)
{
	struct engine_psync	*p = e->priv;
	unsigned		 n, i;

	pthread_mutex_lock(&p->lock);
	while (p->ndone < min && p->ndone < max && p->inflight > 0)
		pthread_cond_wait(&p->finished, &p->lock);
	n = p->ndone < max ? p->ndone : max;
	for (i = 0; i < n; i++)
		done[i] = p->done[i];
	for (i = n; i < p->ndone; i++)
		p->done[i - n] = p->done[i];
	p->ndone -= n;
	pthread_mutex_unlock(&p->lock);
	return ((int)n);
}

static uint64_t
engine_psync_now(struct engine *e)
{
	(void)e;
	return (engine_psync_clock());
}

static void
engine_psync_close(struct engine *e)
{
	if (e->priv != NULL)
		engine_psync_free(e);
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.open = engine_psync_open,
	.submit = engine_psync_submit,
	.reap = engine_psync_reap,
	.now_ns = engine_psync_now,
	.close = engine_psync_close,
};

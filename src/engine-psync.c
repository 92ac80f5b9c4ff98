/* SPDX-License-Identifier: ISC */
/*
 * psync engine: pread/pwrite, one I/O at a time, for systems without
 * io_uring.  submit performs the I/O; reap hands back what completed.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "target.h"
#include "xmalloc.h"

struct engine_psync {
	void			*buf;		/* max_bs, aligned */
	struct engine_done	*done;		/* completed, not yet reaped */
	unsigned		 ndone;
};

static uint64_t
engine_psync_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

static int
engine_psync_open(struct engine *e)
{
	struct engine_psync	*p;
	uint64_t		*w;
	size_t			 i;

	p = xcalloc(1, sizeof(*p));
	if (posix_memalign(&p->buf, 4096, e->max_bs)) {
		free(p);
		return (-ENOMEM);
	}
	for (w = p->buf, i = 0; i < e->max_bs / sizeof(*w); i++)
		w[i] = (i + 1) * 0x9e3779b97f4a7c15ULL;
	p->done = xcalloc(e->iodepth, sizeof(*p->done));
	e->priv = p;
	return (0);
}

static int
engine_psync_submit(struct engine *e, const struct engine_io *ios,
    unsigned n)
{
	struct engine_psync	*p = e->priv;
	struct engine_done	*d;
	uint64_t		 t0;
	ssize_t			 r;
	unsigned		 i;

	for (i = 0; i < n; i++) {
		if (p->ndone == e->iodepth)
			return (-EBUSY);
		t0 = engine_psync_clock();
		do {
			if (ios[i].write)
				r = pwrite(e->target->fd, p->buf, ios[i].len,
				    ios[i].offset);
			else
				r = pread(e->target->fd, p->buf, ios[i].len,
				    ios[i].offset);
		} while (r < 0 && errno == EINTR);
		d = &p->done[p->ndone++];
		d->slot = ios[i].slot;
		d->res = r < 0 ? -errno : (int)r;
		d->lat_ns = engine_psync_clock() - t0;
	}
	return (0);
}

static int
engine_psync_reap(struct engine *e, struct engine_done *done, unsigned max,
    unsigned min)
{
	struct engine_psync	*p = e->priv;
	unsigned		 n, i;

	(void)min;	/* everything submitted has completed */
	n = p->ndone < max ? p->ndone : max;
	for (i = 0; i < n; i++)
		done[i] = p->done[i];
	for (i = n; i < p->ndone; i++)
		p->done[i - n] = p->done[i];
	p->ndone -= n;
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
	struct engine_psync	*p = e->priv;

	if (p == NULL)
		return;
	free(p->buf);
	free(p->done);
	free(p);
	e->priv = NULL;
}

const struct engine_ops engine_psync_ops = {
	.name = "psync",
	.open = engine_psync_open,
	.submit = engine_psync_submit,
	.reap = engine_psync_reap,
	.now_ns = engine_psync_now,
	.close = engine_psync_close,
};

/* SPDX-License-Identifier: ISC */
/*
 * The simulated engine: I/Os go to the struct sim of their file or their
 * slot's target, which decides their completion time at once; reap moves
 * the virtual clock (one for a group: the targets share a host) forward to
 * the completions it has to wait for.  Nothing sleeps.  A write to be made
 * durable (a sync asked, or a file opened O_DSYNC) asks the volume for a
 * flush when its write completes, in virtual-time order, and completes
 * when the flush does.  Files opened without O_DIRECT take any offset and
 * length: the volume sees the blocks they cover.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "sim.h"
#include "target.h"
#include "xmalloc.h"

#define ENGINE_SIM_CALL_NS	1000	/* a flush alone: the system call */

struct engine_sim_io {
	uint64_t	done_ns;
	uint64_t	submit_ns;
	uint64_t	seq;		/* ties complete in submission order */
	uint32_t	len;
	unsigned	slot;
	int		flush;		/* a flush follows at done_ns */
	struct sim	*sim;		/* the volume it went to */
};

struct engine_sim {
	struct sim		*sim;
	struct engine_sim_io	*heap;		/* in flight, by done_ns */
	unsigned		 n;
	unsigned char		*busy;		/* per slot */
	uint64_t		 seq;
};

static int
engine_sim_before(const struct engine_sim_io *a, const struct engine_sim_io *b)
{
	if (a->done_ns != b->done_ns)
		return (a->done_ns < b->done_ns);
	return (a->seq < b->seq);
}

static void
engine_sim_push(struct engine_sim *es, const struct engine_sim_io *io)
{
	unsigned	i = es->n++, parent;

	while (i > 0) {
		parent = (i - 1) / 2;
		if (!engine_sim_before(io, &es->heap[parent]))
			break;
		es->heap[i] = es->heap[parent];
		i = parent;
	}
	es->heap[i] = *io;
}

static void
engine_sim_pop(struct engine_sim *es, struct engine_sim_io *out)
{
	struct engine_sim_io	 last;
	unsigned		 i = 0, c;

	*out = es->heap[0];
	last = es->heap[--es->n];
	for (;;) {
		c = 2 * i + 1;
		if (c >= es->n)
			break;
		if (c + 1 < es->n && engine_sim_before(&es->heap[c + 1],
		    &es->heap[c]))
			c++;
		if (!engine_sim_before(&es->heap[c], &last))
			break;
		es->heap[i] = es->heap[c];
		i = c;
	}
	if (es->n > 0)
		es->heap[i] = last;
}

static int
engine_sim_open(struct engine *e)
{
	struct engine_sim	*es;
	struct target		*t;
	unsigned		 i;

	if (e->iodepth == 0)
		return (-EINVAL);
	for (i = 0; i < e->iodepth; i++) {
		t = engine_target(e, i);
		if (t == NULL || t->type != TARGET_SIM || t->sim == NULL ||
		    !sim_same_host(t->sim, e->target->sim))
			return (-EINVAL);
	}
	es = xcalloc(1, sizeof *es);
	es->sim = e->target->sim;
	es->heap = xcalloc(e->iodepth, sizeof *es->heap);
	es->busy = xcalloc(e->iodepth, 1);
	e->priv = es;
	return (0);
}

/*
 * The target io goes to: its file, or its slot's target; NULL if it is
 * not a simulated volume on the engine's host.
 */
static const struct target *
engine_sim_file(struct engine *e, const struct engine_io *io)
{
	struct engine_sim	*es = e->priv;
	const struct target	*t = io->file != NULL ? io->file :
				     engine_target(e, io->slot);

	if (t->type != TARGET_SIM || t->sim == NULL ||
	    !sim_same_host(t->sim, es->sim))
		return (NULL);
	return (t);
}

static int
engine_sim_check(struct engine *e, const struct engine_io *io)
{
	struct engine_sim	*es = e->priv;
	const struct target	*t;
	uint64_t		 size;
	uint32_t		 lbs;

	if (io->slot >= e->iodepth || (t = engine_sim_file(e, io)) == NULL)
		return (-EINVAL);
	size = sim_size(t->sim);
	lbs = sim_block_size(t->sim);
	if (es->busy[io->slot])
		return (-EBUSY);
	if (io->len == 0 && !(io->write && io->sync != ENGINE_SYNC_NONE))
		return (-EINVAL);
	if (t->direct && (io->len % lbs != 0 || io->offset % lbs != 0))
		return (-EINVAL);
	if ((e->max_bs > 0 && io->len > e->max_bs) || io->offset > size ||
	    io->len > size - io->offset)
		return (-EINVAL);
	return (0);
}

/* Hand io to the volume at now: its (first) stage's end into *q. */
static void
engine_sim_start(struct engine *e, const struct engine_io *io, uint64_t now,
    struct engine_sim_io *q)
{
	struct engine_sim	*es = e->priv;
	const struct target	*t = engine_sim_file(e, io);
	uint32_t		 lbs = sim_block_size(t->sim);
	uint64_t		 from, to;

	q->submit_ns = now;
	q->seq = es->seq++;
	q->len = io->len;
	q->slot = io->slot;
	q->sim = t->sim;
	q->flush = io->write && (io->sync != ENGINE_SYNC_NONE || t->dsync);
	if (io->len == 0) {
		q->done_ns = now + ENGINE_SIM_CALL_NS;
		return;
	}
	/* Buffered: the page cache moves whole blocks. */
	from = io->offset / lbs * lbs;
	to = (io->offset + io->len + lbs - 1) / lbs * lbs;
	q->done_ns = sim_submit(t->sim, now, from, (uint32_t)(to - from),
	    io->write);
}

static int
engine_sim_submit(struct engine *e, const struct engine_io *ios, unsigned n)
{
	struct engine_sim	*es = e->priv;
	struct engine_sim_io	 io;
	uint64_t		 now = sim_now(es->sim);
	unsigned		 i, j;
	int			 error;

	/* All or nothing: check every I/O (and duplicate slots) first. */
	for (i = 0; i < n; i++) {
		if ((error = engine_sim_check(e, &ios[i])) != 0) {
			for (j = 0; j < i; j++)
				es->busy[ios[j].slot] = 0;
			return (error);
		}
		es->busy[ios[i].slot] = 1;
	}
	for (i = 0; i < n; i++) {
		engine_sim_start(e, &ios[i], now, &io);
		engine_sim_push(es, &io);
	}
	return (0);
}

static int
engine_sim_reap(struct engine *e, struct engine_done *done, unsigned max,
    unsigned min)
{
	struct engine_sim	*es = e->priv;
	struct engine_sim_io	 io;
	uint64_t		 now = sim_now(es->sim);
	unsigned		 n = 0;

	if (min > max)
		return (-EINVAL);
	if (min > es->n)
		min = es->n;	/* waiting for more would never end */
	while (n < max && es->n > 0) {
		if (es->heap[0].done_ns > now) {
			if (n >= min)
				break;
			now = es->heap[0].done_ns;
			sim_advance(es->sim, now);
		}
		engine_sim_pop(es, &io);
		if (io.flush) {
			/* The write is done: now its flush, in time order. */
			io.flush = 0;
			io.done_ns = sim_flush(io.sim, io.done_ns);
			engine_sim_push(es, &io);
			continue;
		}
		es->busy[io.slot] = 0;
		done[n].slot = io.slot;
		done[n].res = (int)io.len;
		done[n].lat_ns = io.done_ns - io.submit_ns;
		n++;
	}
	return ((int)n);
}

static uint64_t
engine_sim_now_ns(struct engine *e)
{
	struct engine_sim	*es = e->priv;

	return (sim_now(es->sim));
}

static void
engine_sim_idle(struct engine *e, uint64_t ns)
{
	struct engine_sim	*es = e->priv;

	sim_advance(es->sim, sim_now(es->sim) + ns);
}

static void
engine_sim_close(struct engine *e)
{
	struct engine_sim	*es = e->priv;

	if (es == NULL)
		return;
	free(es->heap);
	free(es->busy);
	free(es);
	e->priv = NULL;
}

/* The simulated engine: virtual time on a TARGET_SIM target. */
const struct engine_ops engine_sim_ops = {
	.name = "sim",
	.virtual_time = 1,
	.open = engine_sim_open,
	.submit = engine_sim_submit,
	.reap = engine_sim_reap,
	.now_ns = engine_sim_now_ns,
	.idle = engine_sim_idle,
	.close = engine_sim_close,
};

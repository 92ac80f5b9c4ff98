/* SPDX-License-Identifier: ISC */
/*
 * The simulated engine: I/Os go to the target's struct sim, which decides
 * their completion time at once; reap moves the virtual clock forward to
 * the completions it has to wait for.  Nothing sleeps.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"
#include "sim.h"
#include "target.h"
#include "xmalloc.h"

struct engine_sim_io {
	uint64_t	done_ns;
	uint64_t	submit_ns;
	uint64_t	seq;		/* ties complete in submission order */
	uint32_t	len;
	unsigned	slot;
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

	if (e->target == NULL || e->target->type != TARGET_SIM ||
	    e->target->sim == NULL || e->iodepth == 0)
		return (-EINVAL);
	es = xcalloc(1, sizeof *es);
	es->sim = e->target->sim;
	es->heap = xcalloc(e->iodepth, sizeof *es->heap);
	es->busy = xcalloc(e->iodepth, 1);
	e->priv = es;
	return (0);
}

static int
engine_sim_check(struct engine *e, const struct engine_io *io)
{
	struct engine_sim	*es = e->priv;
	uint64_t		 size = sim_size(es->sim);
	uint32_t		 lbs = sim_block_size(es->sim);

	if (io->slot >= e->iodepth)
		return (-EINVAL);
	if (es->busy[io->slot])
		return (-EBUSY);
	if (io->len == 0 || io->len % lbs != 0 || io->offset % lbs != 0 ||
	    (e->max_bs > 0 && io->len > e->max_bs))
		return (-EINVAL);
	if (io->offset > size || io->len > size - io->offset)
		return (-EINVAL);
	return (0);
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
		io.submit_ns = now;
		io.done_ns = sim_submit(es->sim, now, ios[i].offset,
		    ios[i].len, ios[i].write);
		io.seq = es->seq++;
		io.len = ios[i].len;
		io.slot = ios[i].slot;
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
engine_sim_idle(struct engine *e, uint64_t t)
{
	struct engine_sim	*es = e->priv;

	sim_advance(es->sim, t);
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

/* SPDX-License-Identifier: ISC */
/* The shared test engine: see t_engine.h. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "t_engine.h"

static int
t_engine_open(struct engine *e)
{
	(void)e;
	return (0);
}

static int
t_engine_submit(struct engine *e, const struct engine_io *ios, unsigned n)
{
	struct t_engine		*te = e->priv;
	struct engine_done	*d;
	unsigned		 i;
	double			 j;

	for (i = 0; i < n; i++) {
		j = 1 + te->jitter * (2 * rng_uniform(&te->r) - 1);
		d = &te->done[te->ndone];
		d->slot = ios[i].slot;
		d->res = (int)ios[i].len;
		if (te->fail_after >= 0 && te->nio >= (uint64_t)te->fail_after)
			d->res = -EIO;
		d->lat_ns = (uint64_t)(te->lat_ns * j);
		te->due[te->ndone++] = te->now + d->lat_ns;
		te->nio++;
		if (ios[i].write && ios[i].offset < te->low_write)
			te->low_write = ios[i].offset;
		if (ios[i].len != te->bs) {
			te->seq_bytes += ios[i].len;
			continue;
		}
		te->nrandom++;
		if (ios[i].offset % te->bs != 0)
			te->misaligned = 1;
		if (ios[i].offset + ios[i].len > te->ws)
			te->outside = 1;
		else if (te->hits != NULL)
			te->hits[ios[i].offset / te->bs]++;
		if (te->nrandom <= 256)
			te->first[te->nrandom - 1] = ios[i].offset / te->bs;
	}
	te->inflight += n;
	if (te->inflight > te->max_inflight)
		te->max_inflight = te->inflight;
	return (0);
}

/* The earliest I/O due completes; the clock moves to it. */
static int
t_engine_reap(struct engine *e, struct engine_done *done, unsigned max,
    unsigned min)
{
	struct t_engine	*te = e->priv;
	unsigned	 i, best = 0;

	(void)max;
	if (te->ndone == 0 || min == 0)
		return (0);
	for (i = 1; i < te->ndone; i++)
		if (te->due[i] < te->due[best])
			best = i;
	if (te->due[best] > te->now)
		te->now = te->due[best];
	done[0] = te->done[best];
	te->done[best] = te->done[te->ndone - 1];
	te->due[best] = te->due[te->ndone - 1];
	te->ndone--;
	te->inflight--;
	return (1);
}

static uint64_t
t_engine_now(struct engine *e)
{
	struct t_engine	*te = e->priv;

	return (te->now);
}

static void
t_engine_idle(struct engine *e, uint64_t ns)
{
	struct t_engine	*te = e->priv;

	te->now += ns;
}

static void
t_engine_close(struct engine *e)
{
	(void)e;
}

static const struct engine_ops t_engine_ops = {
	.name = "test", .virtual_time = 1, .open = t_engine_open,
	.submit = t_engine_submit, .reap = t_engine_reap,
	.now_ns = t_engine_now, .idle = t_engine_idle,
	.close = t_engine_close,
};

/* Set up the test engine; see t_engine.h. */
void
t_engine_setup(struct t_engine *te, struct engine *e, struct target *t,
    unsigned depth, uint64_t lat_ns, double jitter, uint64_t ws, uint64_t bs)
{
	memset(te, 0, sizeof(*te));
	te->lat_ns = lat_ns;
	te->jitter = jitter;
	te->ws = ws;
	te->bs = bs;
	te->low_write = UINT64_MAX;
	te->fail_after = -1;
	rng_seed(&te->r, 42);
	memset(e, 0, sizeof(*e));
	e->ops = &t_engine_ops;
	e->target = t;
	e->iodepth = depth < T_ENGINE_SLOTS ? depth : T_ENGINE_SLOTS;
	e->max_bs = 1U << 20;
	e->priv = te;
}

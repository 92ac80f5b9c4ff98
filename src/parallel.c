/* SPDX-License-Identifier: ISC */
/*
 * Several targets at once: one engine opened on the group (one io_uring
 * ring with every file registered, or one virtual clock), each target kept
 * at the same depth with uniform random I/O over its own working set.  A
 * completion's replacement goes out before the next completion is taken,
 * as in the sampler, so no target's queue runs dry while another's is
 * served.  Every interval closes for all targets at once, so the sum of a
 * column is the aggregate of that interval.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "engine.h"
#include "hist.h"
#include "interrupt.h"
#include "limits.h"
#include "parallel.h"
#include "progress.h"
#include "rng.h"
#include "sampler.h"
#include "target.h"
#include "together.h"
#include "xmalloc.h"

#define PARALLEL_PROGRESS_NS	100000000ULL	/* 100 ms of engine time */

/* One target's share of the queue. */
struct parallel_lane {
	unsigned	*free_slot;
	unsigned	 nfree;
	uint64_t	 lo;		/* offsets in [lo, ws) */
	uint64_t	 ws;
	uint64_t	 tick_ios;	/* in the current interval */
	double		 tick_lat_ns;
};

/* The run: engine, lanes, the batch to submit. */
struct parallel_run {
	struct engine		 e;
	const struct parallel_spec *spec;
	struct rng		*rng;
	struct parallel_lane	*lane;
	size_t			 n;
	struct engine_io	*batch;
	unsigned		 nbatch;
	unsigned		 inflight;
	int			 error;		/* first -errno */
};

/* Queue one random I/O on a free slot of lane i. */
static void
parallel_add(struct parallel_run *pr, size_t i)
{
	struct parallel_lane	*l = &pr->lane[i];
	struct engine_io	*io = &pr->batch[pr->nbatch++];

	io->slot = l->free_slot[--l->nfree];
	io->write = pr->spec->write;
	io->len = pr->spec->bs;
	io->offset = rng_offset(pr->rng, l->lo, l->ws - l->lo, pr->spec->bs);
}

/*
 * Lane i of target t: its slots, and offsets in [0, ws) that keep writes
 * off the header block of a file tierprobe created.
 */
static void
parallel_lane_init(struct parallel_run *pr, size_t i, const struct target *t)
{
	struct parallel_lane	*l = &pr->lane[i];
	unsigned		 d = pr->spec->iodepth, k;
	uint32_t		 bs = pr->spec->bs;

	l->free_slot = xcalloc(d, sizeof *l->free_slot);
	for (k = 0; k < d; k++)
		l->free_slot[l->nfree++] = (unsigned)i * d + d - 1 - k;
	l->ws = pr->spec->ws_bytes[i] / bs * bs;
	if (pr->spec->write) {
		l->lo = (t->keep_bytes + bs - 1) / bs * bs;
		if (l->lo >= l->ws)
			l->lo = 0;
	}
}

/* Close every interval that ended by now, for each target and the sum. */
static void
parallel_tick(struct parallel_run *pr, struct parallel_result *r,
    uint64_t t0, uint64_t now, uint64_t *next)
{
	struct timeline_sample	 s, sum;
	struct parallel_lane	*l;
	double			 step = pr->spec->interval_s, lat = 0;
	size_t			 i;

	while (now >= *next) {
		memset(&sum, 0, sizeof sum);
		sum.t_s = (double)(*next - t0) / 1e9;
		lat = 0;
		for (i = 0; i < pr->n; i++) {
			l = &pr->lane[i];
			s.t_s = sum.t_s;
			s.iops = (double)l->tick_ios / step;
			s.bytes_per_s = s.iops * pr->spec->bs;
			s.lat_us_mean = l->tick_ios > 0 ? l->tick_lat_ns /
			    (double)l->tick_ios / 1e3 : NAN;
			timeline_add(&r->timeline[i], &s);
			sum.iops += s.iops;
			sum.bytes_per_s += s.bytes_per_s;
			lat += l->tick_lat_ns;
			l->tick_ios = 0;
			l->tick_lat_ns = 0;
		}
		sum.lat_us_mean = sum.iops > 0 ? lat / (sum.iops * step) /
		    1e3 : NAN;
		timeline_add(&r->sum_timeline, &sum);
		*next += (uint64_t)(step * 1e9);
	}
}

/* Take one completion (waiting for it), put the next I/O on its slot. */
static int
parallel_cycle(struct parallel_run *pr, struct parallel_result *r, int stop)
{
	struct engine_done	 d;
	struct parallel_lane	*l;
	size_t			 i;
	int			 n;

	if (pr->nbatch > 0) {
		if ((n = pr->e.ops->submit(&pr->e, pr->batch, pr->nbatch)) < 0)
			return (n);
		pr->inflight += pr->nbatch;
		pr->nbatch = 0;
	}
	if (pr->inflight == 0)
		return (0);
	if ((n = pr->e.ops->reap(&pr->e, &d, 1, 1)) <= 0)
		return (n == -EINTR ? 0 : n);
	pr->inflight--;
	i = engine_slot_target(&pr->e, d.slot);
	l = &pr->lane[i];
	l->free_slot[l->nfree++] = d.slot;
	if (d.res < 0 || (uint32_t)d.res != pr->spec->bs) {
		if (pr->error == 0)
			pr->error = d.res < 0 ? d.res : -EIO;
		return (0);
	}
	hist_add(r->point[i].hist, d.lat_ns);
	hist_add(r->sum.hist, d.lat_ns);
	l->tick_ios++;
	l->tick_lat_ns += (double)d.lat_ns;
	if (!stop)
		parallel_add(pr, i);
	return (1);
}

/* The figures of a point over seconds: its histogram's count and mean. */
static void
parallel_point_close(struct point *p, double seconds, uint32_t bs)
{
	p->ios = p->hist->count;
	p->seconds = seconds;
	p->iops = seconds > 0 ? (double)p->ios / seconds : 0;
	p->bytes_per_s = p->iops * bs;
	point_summarise(p);
}

static void
parallel_point_init(struct point *p, const struct parallel_spec *spec,
    uint64_t ws, unsigned depth)
{
	memset(p, 0, sizeof *p);
	p->ws_bytes = ws;
	p->bs = spec->bs;
	p->iodepth = depth;
	p->write = spec->write;
	p->ci95_rel = NAN;
	p->cpu_util = NAN;
	p->hist = xmalloc(sizeof *p->hist);
	hist_init(p->hist);
}

/* Drive the targets together; see parallel.h. */
int
parallel_run(struct target **t, size_t n, struct rng *rng,
    const struct parallel_spec *spec, struct parallel_result *r)
{
	struct parallel_run	 pr;
	uint64_t		 t0, now, next_tick, next_cb, last_done, ws = 0;
	double			 cpu0, wait0, wait, seconds;
	size_t			 i;
	int			 rc, stop = 0, got;

	memset(r, 0, sizeof *r);
	r->cpu_util = NAN;
	r->ntargets = n;
	r->point = xcalloc(n, sizeof *r->point);
	r->timeline = xcalloc(n, sizeof *r->timeline);
	for (i = 0; i < n; i++) {
		parallel_point_init(&r->point[i], spec, spec->ws_bytes[i],
		    spec->iodepth);
		ws += spec->ws_bytes[i];
	}
	parallel_point_init(&r->sum, spec, ws, spec->iodepth * (unsigned)n);

	memset(&pr, 0, sizeof pr);
	rc = engine_open_group(&pr.e, spec->engine, t, (unsigned)n,
	    spec->iodepth, spec->bs);
	if (rc != 0)
		return (rc);
	pr.spec = spec;
	pr.rng = rng;
	pr.n = n;
	pr.lane = xcalloc(n, sizeof *pr.lane);
	pr.batch = xcalloc(pr.e.iodepth, sizeof *pr.batch);
	for (i = 0; i < n; i++)
		parallel_lane_init(&pr, i, t[i]);

	cpu0 = sampler_cpu_s();
	wait0 = sampler_cpu_wait_s();
	t0 = last_done = pr.e.ops->now_ns(&pr.e);
	next_tick = t0 + (uint64_t)(spec->interval_s * 1e9);
	next_cb = t0 + PARALLEL_PROGRESS_NS;
	for (i = 0; i < n; i++) {
		while (pr.lane[i].nfree > 0)
			parallel_add(&pr, i);
	}
	while (!stop || pr.inflight > 0 || pr.nbatch > 0) {
		if ((got = parallel_cycle(&pr, r, stop)) < 0) {
			/* The engine failed: closing it cancels the rest. */
			if (pr.error == 0)
				pr.error = got;
			break;
		}
		now = pr.e.ops->now_ns(&pr.e);
		if (got > 0)
			last_done = now;
		if (!stop)
			parallel_tick(&pr, r, t0, now, &next_tick);
		if (now >= next_cb) {
			r->sum.ios = r->sum.hist->count;
			r->sum.seconds = (double)(now - t0) / 1e9;
			r->sum.iops = r->sum.ios / r->sum.seconds;
			progress_update(&r->sum, r->sum.seconds, NULL);
			next_cb = now + PARALLEL_PROGRESS_NS;
		}
		if (!stop && (pr.error != 0 || interrupt_requested() ||
		    (double)(now - t0) / 1e9 >= spec->seconds)) {
			stop = 1;
			pr.nbatch = 0;
		}
	}
	seconds = (double)(last_done - t0) / 1e9;
	if (!pr.e.ops->virtual_time && seconds > 0) {
		wait = sampler_cpu_wait_s() - wait0;
		r->cpu_util = (sampler_cpu_s() - cpu0 +
		    (isfinite(wait) ? wait : 0)) / seconds;
	}
	for (i = 0; i < n; i++)
		parallel_point_close(&r->point[i], seconds, spec->bs);
	parallel_point_close(&r->sum, seconds, spec->bs);
	r->sum.cpu_util = r->cpu_util;
	engine_close(&pr.e);
	for (i = 0; i < n; i++)
		free(pr.lane[i].free_slot);
	free(pr.lane);
	free(pr.batch);
	if (pr.error != 0)
		return (pr.error);
	r->interrupted = interrupt_requested();
	return (r->interrupted ? 1 : 0);
}

/* Release what a result owns. */
void
parallel_result_free(struct parallel_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntargets; i++) {
		point_free(&r->point[i]);
		timeline_free(&r->timeline[i]);
	}
	free(r->point);
	free(r->timeline);
	point_free(&r->sum);
	timeline_free(&r->sum_timeline);
	r->point = NULL;
	r->timeline = NULL;
	r->ntargets = 0;
}

/*
 * A target's figures alone, from its limit sweeps (NULL: unknown) and its
 * bandwidth run alone (NULL: none).  A sweep point's bandwidth is not
 * what the run together is judged against: under a throttle that lets a
 * clump through at a time, a point that starts within a clump and ends
 * with one counts half a clump more than its time allows (3 to 8% over a
 * one-second point under blk-throttle); the run alone is measured as the
 * run together is, over whole intervals.  The noise of a sweep's ceiling
 * is unknown: the CI of a point is that of its mean latency.
 */
static void
parallel_alone(const struct limits_result *l, const struct timeline *bwtl,
    struct together_alone *iops, struct together_alone *bw)
{
	double	cap;
	int	held;

	iops->rate = bw->rate = iops->noise = bw->noise = NAN;
	iops->capped = bw->capped = 0;
	if (l == NULL)
		return;
	held = !l->burst.detected && !l->burst.variable;
	together_alone_rate(&l->timeline, 0, held, l->iops_limit ==
	    CEILINGS_IOPS_CAP ? l->iops_ceiling : NAN, l->iops_max_seen, iops);
	cap = (l->bandwidth_limit == CEILINGS_BW_CAP ||
	    l->bandwidth_limit == CEILINGS_BW_ACCOUNTING) ?
	    l->bandwidth_ceiling_bytes_per_s : NAN;
	if (bwtl != NULL)
		together_alone_rate(bwtl, 1, held, cap, l->bandwidth_max_seen,
		    bw);
	else {
		bw->capped = isfinite(cap);
		bw->rate = bw->capped ? cap : l->bandwidth_max_seen;
	}
}

/* The run as the analysis sees it. */
static void
parallel_as_run(const struct parallel_result *r, struct together_run *run)
{
	run->ntargets = r->ntargets;
	run->timeline = r->timeline;
	run->sum = &r->sum_timeline;
	run->cpu_util = r->cpu_util;
	run->interrupted = r->interrupted;
}

/* One run of the phase, as point i of its progress. */
static int
parallel_step(struct target **t, size_t n, struct rng *rng,
    const struct parallel_spec *spec, size_t i, struct parallel_result *r)
{
	struct point	p;
	int		rc;

	memset(&p, 0, sizeof p);
	p.bs = spec->bs;
	p.iodepth = spec->iodepth * (unsigned)n;
	progress_point_start(i, &p);
	rc = parallel_run(t, n, rng, spec, r);
	if (r->sum.hist != NULL)
		progress_point_done(&r->sum);
	return (rc);
}

/* Move run r's timelines into the result: the sum into *sum. */
static void
parallel_keep(struct parallel_result *r, struct together_result *out,
    struct timeline *sum, int bandwidth)
{
	size_t	i;

	*sum = r->sum_timeline;
	memset(&r->sum_timeline, 0, sizeof r->sum_timeline);
	for (i = 0; i < r->ntargets; i++) {
		if (bandwidth)
			out->per_target[i].bandwidth_timeline = r->timeline[i];
		else
			out->per_target[i].timeline = r->timeline[i];
		memset(&r->timeline[i], 0, sizeof r->timeline[i]);
	}
}

/*
 * Target i alone at the bandwidth run's size and depth, as point i of the
 * phase's progress: its timeline into *tl, its work into *prior.
 */
static int
parallel_bw_alone(struct target **t, size_t i, struct rng *rng,
    const struct parallel_spec *bw, struct timeline *tl,
    struct ceilings_prior *prior)
{
	struct parallel_spec	 one = *bw;
	struct parallel_result	 r;
	int			 rc;

	one.ws_bytes = &bw->ws_bytes[i];
	rc = parallel_step(&t[i], 1, rng, &one, i, &r);
	if (r.sum.hist != NULL)
		limits_prior_from_point(&r.sum, prior);
	*tl = r.sum_timeline;
	memset(&r.sum_timeline, 0, sizeof r.sum_timeline);
	parallel_result_free(&r);
	return (rc);
}

/* The together phase; see parallel.h. */
int
parallel_together(struct target **t, size_t n, struct rng *rng,
    const struct parallel_together *spec,
    const struct limits_result *const *alone, struct together_result *out)
{
	struct parallel_result	 bw, io;
	struct together_alone	*ai, *ab;
	struct together_run	 run_bw, run_io;
	struct ceilings_prior	*prior;
	struct timeline		*bwtl;
	int			*burst, rc = 0, ran_bw = 0, ran_io = 0;
	size_t			 i, np = spec->nprior;

	together_result_init(out, n);
	out->bs = spec->iops.bs;
	out->iodepth = spec->iops.iodepth;
	out->bandwidth_bs = spec->bandwidth.bs;
	out->bandwidth_iodepth = spec->bandwidth.iodepth;
	ai = xcalloc(n, sizeof *ai);
	ab = xcalloc(n, sizeof *ab);
	burst = xcalloc(n, sizeof *burst);
	bwtl = xcalloc(n, sizeof *bwtl);
	prior = xcalloc(np + n + 1, sizeof *prior);
	if (np > 0)
		memcpy(prior, spec->prior, np * sizeof *prior);

	progress_phase("together", n + 2, PROGRESS_BS);
	for (i = 0; i < n && rc == 0; i++) {
		if (alone[i] != NULL)
			rc = parallel_bw_alone(t, i, rng, &spec->bandwidth,
			    &bwtl[i], &prior[np++]);
	}
	if (rc == 0) {
		ran_bw = 1;
		rc = parallel_step(t, n, rng, &spec->bandwidth, n, &bw);
	}
	if (rc == 0) {
		ran_io = 1;
		rc = parallel_step(t, n, rng, &spec->iops, n + 1, &io);
	}
	progress_end();

	for (i = 0; i < n; i++) {
		out->per_target[i].path = xstrdup(t[i]->path);
		parallel_alone(alone[i], bwtl[i].n > 0 ? &bwtl[i] : NULL,
		    &ai[i], &ab[i]);
		burst[i] = alone[i] != NULL && alone[i]->burst.detected;
	}
	/* The bandwidth run drained a shared bucket too. */
	if (ran_bw) {
		limits_prior_from_point(&bw.sum, &prior[np++]);
		parallel_as_run(&bw, &run_bw);
	}
	if (ran_io)
		parallel_as_run(&io, &run_io);
	together_analyse(ai, ab, burst, n, ran_io ? &run_io : NULL,
	    ran_bw ? &run_bw : NULL, prior, np, out);

	if (ran_bw) {
		out->bandwidth_seconds = bw.sum.seconds;
		parallel_keep(&bw, out, &out->bandwidth_timeline, 1);
		parallel_result_free(&bw);
	}
	if (ran_io) {
		out->seconds = io.sum.seconds;
		parallel_keep(&io, out, &out->timeline, 0);
		parallel_result_free(&io);
	}
	out->interrupted = rc == 1;
	for (i = 0; i < n; i++)
		timeline_free(&bwtl[i]);
	free(bwtl);
	free(prior);
	free(ai);
	free(ab);
	free(burst);
	return (rc);
}

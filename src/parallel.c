/* SPDX-License-Identifier: ISC */
/*
 * Several targets at once, each kept at the same depth with uniform random
 * I/O over its own working set: in real time a thread and an engine (an
 * io_uring ring) per target, in virtual time one engine over the group
 * (one virtual clock).  A completion's replacement goes out before the
 * next completion is taken, as in the sampler, so no target's queue runs
 * dry while another's is served.  Every interval closes at the same
 * instant on the one clock for all targets, so the sum of a column is the
 * aggregate of that interval.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* Where the threads wait after their run until the figures are read. */
struct parallel_gate {
	pthread_mutex_t	 lock;
	pthread_cond_t	 open;
	int		 released;
};

/*
 * A worker: one engine over targets [first, first + n) of the run, its
 * lanes, the batch to submit, and its share of the figures.  In real time
 * each target has a worker and a thread of its own, all on one clock (a
 * thread driving every ring became the limit before the files did); in
 * virtual time one worker drives the group on the group's clock.
 */
struct parallel_run {
	struct engine		 e;
	const struct parallel_spec *spec;
	struct rng		 rng;
	struct parallel_lane	*lane;
	size_t			 first;
	size_t			 n;
	struct point		*point;		/* the run's, from first */
	struct timeline		*timeline;
	struct point		 sum;		/* this worker's targets */
	struct timeline		 sum_timeline;
	struct engine_io	*batch;
	unsigned		 nbatch;
	unsigned		 inflight;
	uint64_t		 t0;
	uint64_t		 last_done;
	int			 progress;	/* report it (one worker) */
	int			 error;		/* first -errno */
	_Atomic int		*abort;		/* a worker failed */
	_Atomic uint64_t	 ios;		/* done so far */
	_Atomic size_t		*running;	/* threads not ended */
	struct parallel_gate	*gate;		/* held until released */
	pthread_t		 thread;
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
	io->offset = rng_offset(&pr->rng, l->lo, l->ws - l->lo, pr->spec->bs);
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
	l->ws = pr->spec->ws_bytes[pr->first + i] / bs * bs;
	if (pr->spec->write) {
		l->lo = (t->keep_bytes + bs - 1) / bs * bs;
		if (l->lo >= l->ws)
			l->lo = 0;
	}
}

/* Close every interval that ended by now, for each target and the sum. */
static void
parallel_tick(struct parallel_run *pr, uint64_t now, uint64_t *next)
{
	struct timeline_sample	 s, sum;
	struct parallel_lane	*l;
	double			 step = pr->spec->interval_s, lat = 0;
	size_t			 i;

	while (now >= *next) {
		memset(&sum, 0, sizeof sum);
		sum.t_s = (double)(*next - pr->t0) / 1e9;
		lat = 0;
		for (i = 0; i < pr->n; i++) {
			l = &pr->lane[i];
			s.t_s = sum.t_s;
			s.iops = (double)l->tick_ios / step;
			s.bytes_per_s = s.iops * pr->spec->bs;
			s.lat_us_mean = l->tick_ios > 0 ? l->tick_lat_ns /
			    (double)l->tick_ios / 1e3 : NAN;
			timeline_add(&pr->timeline[i], &s);
			sum.iops += s.iops;
			sum.bytes_per_s += s.bytes_per_s;
			lat += l->tick_lat_ns;
			l->tick_ios = 0;
			l->tick_lat_ns = 0;
		}
		sum.lat_us_mean = sum.iops > 0 ? lat / (sum.iops * step) /
		    1e3 : NAN;
		timeline_add(&pr->sum_timeline, &sum);
		*next += (uint64_t)(step * 1e9);
	}
}

/* Take one completion (waiting for it), put the next I/O on its slot. */
static int
parallel_cycle(struct parallel_run *pr, int stop)
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
	hist_add(pr->point[i].hist, d.lat_ns);
	hist_add(pr->sum.hist, d.lat_ns);
	atomic_fetch_add_explicit(&pr->ios, 1, memory_order_relaxed);
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

/*
 * Run worker pr from pr->t0 until spec->seconds have passed, an I/O
 * failed, another worker failed or an interrupt came; then drain it.
 */
static void
parallel_work(struct parallel_run *pr)
{
	const struct parallel_spec *spec = pr->spec;
	uint64_t		 now, next_tick, next_cb;
	size_t			 i;
	int			 stop = 0, got;

	next_tick = pr->t0 + (uint64_t)(spec->interval_s * 1e9);
	next_cb = pr->t0 + PARALLEL_PROGRESS_NS;
	pr->last_done = pr->t0;
	for (i = 0; i < pr->n; i++) {
		while (pr->lane[i].nfree > 0)
			parallel_add(pr, i);
	}
	while (!stop || pr->inflight > 0 || pr->nbatch > 0) {
		if ((got = parallel_cycle(pr, stop)) < 0) {
			/* The engine failed: closing it cancels the rest. */
			if (pr->error == 0)
				pr->error = got;
			atomic_store(pr->abort, 1);
			break;
		}
		now = pr->e.ops->now_ns(&pr->e);
		if (got > 0)
			pr->last_done = now;
		if (!stop)
			parallel_tick(pr, now, &next_tick);
		if (pr->progress && now >= next_cb) {
			pr->sum.ios = pr->sum.hist->count;
			pr->sum.seconds = (double)(now - pr->t0) / 1e9;
			pr->sum.iops = pr->sum.ios / pr->sum.seconds;
			progress_update(&pr->sum, pr->sum.seconds, NULL);
			next_cb = now + PARALLEL_PROGRESS_NS;
		}
		if (pr->error != 0)
			atomic_store(pr->abort, 1);
		if (!stop && (atomic_load(pr->abort) || interrupt_requested() ||
		    (double)(now - pr->t0) / 1e9 >= spec->seconds)) {
			stop = 1;
			pr->nbatch = 0;
		}
	}
}

/*
 * Worker w of the run over n targets of t from first: its engine (a
 * group of them in virtual time), lanes and figures.  Returns 0 or -errno.
 */
static int
parallel_worker_open(struct parallel_run *w, struct target **t, size_t first,
    size_t n, const struct parallel_spec *spec, struct rng *rng,
    struct parallel_result *r, _Atomic int *abort)
{
	size_t	i;
	int	rc;

	memset(w, 0, sizeof *w);
	w->spec = spec;
	w->first = first;
	w->n = n;
	w->point = &r->point[first];
	w->timeline = &r->timeline[first];
	w->abort = abort;
	rng_seed(&w->rng, rng_next(rng));
	parallel_point_init(&w->sum, spec, 0, spec->iodepth * (unsigned)n);
	rc = engine_open_group(&w->e, spec->engine, &t[first], (unsigned)n,
	    spec->iodepth, spec->bs);
	if (rc != 0)
		return (rc);
	w->lane = xcalloc(n, sizeof *w->lane);
	w->batch = xcalloc(w->e.iodepth, sizeof *w->batch);
	for (i = 0; i < n; i++)
		parallel_lane_init(w, i, t[first + i]);
	return (0);
}

static void
parallel_worker_close(struct parallel_run *w)
{
	size_t	i;

	engine_close(&w->e);
	for (i = 0; w->lane != NULL && i < w->n; i++)
		free(w->lane[i].free_slot);
	free(w->lane);
	free(w->batch);
	point_free(&w->sum);
	timeline_free(&w->sum_timeline);
}

/*
 * The sum of the workers' figures into r: latencies pooled, and each
 * interval the sum of the workers' (as many intervals as every worker
 * closed).
 */
static void
parallel_merge(struct parallel_run *w, size_t nw, struct parallel_result *r)
{
	struct timeline_sample	 s;
	size_t			 i, k, nk = SIZE_MAX;
	double			 lat;

	for (i = 0; i < nw; i++) {
		hist_merge(r->sum.hist, w[i].sum.hist);
		if (w[i].sum_timeline.n < nk)
			nk = w[i].sum_timeline.n;
	}
	for (k = 0; k < nk; k++) {
		memset(&s, 0, sizeof s);
		s.t_s = w[0].sum_timeline.v[k].t_s;
		lat = 0;
		for (i = 0; i < nw; i++) {
			s.iops += w[i].sum_timeline.v[k].iops;
			s.bytes_per_s += w[i].sum_timeline.v[k].bytes_per_s;
			if (w[i].sum_timeline.v[k].iops > 0)
				lat += w[i].sum_timeline.v[k].lat_us_mean *
				    w[i].sum_timeline.v[k].iops;
		}
		s.lat_us_mean = s.iops > 0 ? lat / s.iops : NAN;
		timeline_add(&r->sum_timeline, &s);
	}
}

/* Progress of the workers' sum until every thread's run has ended. */
static void
parallel_watch(struct parallel_run *w, size_t nw, _Atomic size_t *running)
{
	struct timespec	 ts = { 0, PARALLEL_PROGRESS_NS };
	struct point	 p;
	size_t		 i;

	memset(&p, 0, sizeof p);
	p.lat_us.p50 = NAN;
	while (atomic_load(running) > 0) {
		nanosleep(&ts, NULL);
		p.ios = 0;
		for (i = 0; i < nw; i++)
			p.ios += atomic_load_explicit(&w[i].ios,
			    memory_order_relaxed);
		p.seconds = (double)(w[0].e.ops->now_ns(&w[0].e) - w[0].t0) /
		    1e9;
		p.iops = p.seconds > 0 ? p.ios / p.seconds : 0;
		progress_update(&p, p.seconds, NULL);
	}
}

/*
 * A worker's thread: its run, then one fewer running, alive (so its wait
 * for a CPU still counts in sampler_cpu_wait_s) until the gate opens.
 */
static void *
parallel_thread(void *arg)
{
	struct parallel_run	*w = arg;

	parallel_work(w);
	atomic_fetch_sub(w->running, 1);
	pthread_mutex_lock(&w->gate->lock);
	while (!w->gate->released)
		pthread_cond_wait(&w->gate->open, &w->gate->lock);
	pthread_mutex_unlock(&w->gate->lock);
	return (NULL);
}

/* The cores n threads can use: n, or the CPUs we may run on if fewer. */
static double
parallel_cores(size_t n)
{
	cpu_set_t	set;
	int		k;

	if (sched_getaffinity(0, sizeof set, &set) == 0 &&
	    (k = CPU_COUNT(&set)) > 0 && (size_t)k < n)
		return (k);
	return (n > 0 ? (double)n : 1);
}

/* Drive the targets together; see parallel.h. */
int
parallel_run(struct target **t, size_t n, struct rng *rng,
    const struct parallel_spec *spec, struct parallel_result *r)
{
	struct parallel_gate	 gate = { PTHREAD_MUTEX_INITIALIZER,
				     PTHREAD_COND_INITIALIZER, 0 };
	struct parallel_run	*w;
	_Atomic int		 abort = 0;
	_Atomic size_t		 running = 0;
	uint64_t		 t0, last_done = 0, ws = 0;
	double			 cpu0, wait0, wait, seconds;
	size_t			 i, nw = 0, nt = 0;
	int			 rc = 0, virt;

	memset(r, 0, sizeof *r);
	r->cpu_util = NAN;
	r->cpu_cores = 1;
	r->ntargets = n;
	r->point = xcalloc(n, sizeof *r->point);
	r->timeline = xcalloc(n, sizeof *r->timeline);
	for (i = 0; i < n; i++) {
		parallel_point_init(&r->point[i], spec, spec->ws_bytes[i],
		    spec->iodepth);
		ws += spec->ws_bytes[i];
	}
	parallel_point_init(&r->sum, spec, ws, spec->iodepth * (unsigned)n);

	w = xcalloc(n, sizeof *w);
	rc = parallel_worker_open(&w[nw++], t, 0, n, spec, rng, r, &abort);
	virt = rc == 0 && w[0].e.ops->virtual_time;
	if (rc == 0 && !virt && n > 1) {
		parallel_worker_close(&w[--nw]);
		while (nw < n && rc == 0) {
			rc = parallel_worker_open(&w[nw], t, nw, 1, spec, rng,
			    r, &abort);
			nw++;
		}
	}
	if (rc != 0)
		goto out;

	cpu0 = sampler_cpu_s();
	wait0 = sampler_cpu_wait_s();
	t0 = w[0].e.ops->now_ns(&w[0].e);
	for (i = 0; i < nw; i++)
		w[i].t0 = t0;
	if (virt) {
		w[0].progress = 1;
		parallel_work(&w[0]);
	} else {
		for (i = 0; i < nw; i++) {
			w[i].running = &running;
			w[i].gate = &gate;
			atomic_fetch_add(&running, 1);
			if ((rc = -pthread_create(&w[i].thread, NULL,
			    parallel_thread, &w[i])) != 0) {
				atomic_fetch_sub(&running, 1);
				atomic_store(&abort, 1);
				break;
			}
		}
		nt = i;
		parallel_watch(w, nt, &running);
	}
	for (i = 0; i < nw; i++) {
		if (w[i].last_done > last_done)
			last_done = w[i].last_done;
		if (rc == 0 && w[i].error != 0)
			rc = w[i].error;
	}
	seconds = (double)(last_done - t0) / 1e9;
	if (!virt && seconds > 0) {
		wait = sampler_cpu_wait_s() - wait0;
		r->cpu_util = (sampler_cpu_s() - cpu0 +
		    (isfinite(wait) ? wait : 0)) / seconds;
		r->cpu_cores = parallel_cores(nt);
	}
	pthread_mutex_lock(&gate.lock);
	gate.released = 1;
	pthread_cond_broadcast(&gate.open);
	pthread_mutex_unlock(&gate.lock);
	for (i = 0; i < nt; i++)
		pthread_join(w[i].thread, NULL);
	parallel_merge(w, nw, r);
	for (i = 0; i < n; i++)
		parallel_point_close(&r->point[i], seconds, spec->bs);
	parallel_point_close(&r->sum, seconds, spec->bs);
	r->sum.cpu_util = r->cpu_util;
out:
	for (i = 0; i < nw; i++)
		parallel_worker_close(&w[i]);
	free(w);
	if (rc != 0)
		return (rc);
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
	    l->bandwidth_limit == CEILINGS_BW_ACCOUNTING ||
	    l->bandwidth_limit == CEILINGS_BW_UNIT_OR_CAP) ?
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
	run->cpu_cores = r->cpu_cores;
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

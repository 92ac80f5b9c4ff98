/* SPDX-License-Identifier: ISC */
/*
 * Measure one point.  Three phases on one queue kept at iodepth:
 *
 * 1. warm: large sequential reads over [warm_from, ws), the part earlier
 *    points did not touch, so caches hold blocks of this working set;
 * 2. settle: random I/O in windows until the window means are steady
 *    (stats_is_steady over the last SAMPLER_STEADY_WINDOWS windows);
 * 3. measure: uniform random aligned offsets drawn with replacement (never
 *    a visit-each-block-once map, which would break the C/S hit model),
 *    until the 95% CI of the mean latency is within the precision asked.
 *
 * The CI uses batch means (batches of several queue depths), since with a
 * full queue successive latencies are correlated.  A paced point runs all
 * three at depth 1 and starts its measured I/Os at most pace_iops a
 * second, spinning between them: under a rate cap they then never queue,
 * and the CPU is as busy as in a closed loop (no wake-up from idle, and a
 * busy CPU's waits met as there).  With pace_sleep it sleeps instead,
 * leaving the CPU to kernel threads the I/O needs (a flush's).
 */
#include <sys/resource.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "hist.h"
#include "interrupt.h"
#include "point.h"
#include "rng.h"
#include "sampler.h"
#include "stats.h"
#include "target.h"
#include "timeline.h"
#include "xmalloc.h"

#define SAMPLER_WARM_CHUNK	(1U << 20)	/* sequential warm-up reads */
#define SAMPLER_STEADY_WINDOWS	5
#define SAMPLER_SETTLE_MAX	200		/* windows at most */
#define SAMPLER_MIN_BATCHES	10
#define SAMPLER_PROGRESS_NS	100000000ULL	/* 100 ms of engine time */

/* The queue: slots free for the next I/O, and a batch to submit. */
struct sampler_queue {
	struct engine		*e;
	unsigned		 depth;
	unsigned		 inflight;
	unsigned		*free_slot;
	unsigned		 nfree;
	struct engine_io	*batch;
	unsigned		 nbatch;
	struct engine_done	*done;
	int			 error;		/* first -errno seen */
	uint64_t		*slot_len;	/* bytes asked, per slot */
};

static void
sampler_queue_init(struct sampler_queue *q, struct engine *e, unsigned depth)
{
	unsigned	i;

	memset(q, 0, sizeof(*q));
	q->e = e;
	q->depth = depth;
	q->free_slot = xcalloc(depth, sizeof(*q->free_slot));
	q->batch = xcalloc(depth, sizeof(*q->batch));
	q->done = xcalloc(depth, sizeof(*q->done));
	q->slot_len = xcalloc(depth, sizeof(*q->slot_len));
	for (i = 0; i < depth; i++)
		q->free_slot[q->nfree++] = depth - 1 - i;
}

static void
sampler_queue_fini(struct sampler_queue *q)
{
	free(q->free_slot);
	free(q->batch);
	free(q->done);
	free(q->slot_len);
}

/* Queue one I/O on a free slot (the caller checked nfree > 0). */
static struct engine_io *
sampler_queue_add(struct sampler_queue *q, uint64_t off, uint32_t len,
    int write)
{
	struct engine_io	*io = &q->batch[q->nbatch++];

	memset(io, 0, sizeof(*io));
	io->slot = q->free_slot[--q->nfree];
	io->offset = off;
	io->len = len;
	io->write = write;
	q->slot_len[io->slot] = len;
	return (io);
}

/*
 * Submit the batch and reap at least one completion if any I/O is in flight.
 * Returns the number of completions in q->done (errors are recorded in
 * q->error and their slots freed), or -errno if the engine failed.
 */
static int
sampler_queue_cycle(struct sampler_queue *q)
{
	int	n, i, ok = 0;

	if (q->nbatch > 0) {
		if ((n = q->e->ops->submit(q->e, q->batch, q->nbatch)) < 0)
			return (n);
		q->inflight += q->nbatch;
		q->nbatch = 0;
	}
	if (q->inflight == 0)
		return (0);
	/*
	 * One completion per cycle: its replacement goes out before the next
	 * completion is handled, which keeps the device's queue full (taking
	 * all ready completions first cost 14% of IOPS at iodepth 32 here).
	 */
	if ((n = q->e->ops->reap(q->e, q->done, 1, 1)) < 0)
		return (n == -EINTR ? 0 : n);
	for (i = 0; i < n; i++) {
		q->inflight--;
		q->free_slot[q->nfree++] = q->done[i].slot;
		if (q->done[i].res < 0 ||
		    (uint64_t)q->done[i].res != q->slot_len[q->done[i].slot]) {
			if (q->error == 0)
				q->error = q->done[i].res < 0 ?
				    q->done[i].res : -EIO;
			continue;
		}
		q->done[ok++] = q->done[i];
	}
	return (ok);
}

/* Wait for everything in flight; completions are dropped. */
static int
sampler_queue_drain(struct sampler_queue *q)
{
	int	n;

	q->nbatch = 0;
	while (q->inflight > 0)
		if ((n = sampler_queue_cycle(q)) < 0)
			return (n);
	return (0);
}

/*
 * Read [from, to) sequentially in large chunks at full depth; no chunk
 * is started that would end, at the pace of those before it, after the
 * engine time deadline.
 */
static int
sampler_warm_sequential(struct sampler_queue *q, uint64_t from, uint64_t to,
    uint32_t bs, uint64_t deadline)
{
	uint32_t	chunk = q->e->max_bs < SAMPLER_WARM_CHUNK ?
			    q->e->max_bs : SAMPLER_WARM_CHUNK;
	uint64_t	off = from, len, lat_sum = 0, nlat = 0;
	int		n, i;

	/* Whole I/Os of bs, at least one: never a read of no bytes. */
	chunk = chunk < bs ? bs : chunk - chunk % bs;
	if (chunk == 0 || chunk > q->e->max_bs)
		return (-EINVAL);
	while (off < to || q->inflight > 0) {
		if (q->e->ops->now_ns(q->e) + (nlat > 0 ? lat_sum / nlat : 0) >=
		    deadline)
			off = to;
		while (q->nfree > 0 && off < to && !interrupt_requested() &&
		    q->error == 0) {
			len = to - off < chunk ? to - off : chunk;
			sampler_queue_add(q, off, (uint32_t)len, 0);
			off += len;
		}
		if (interrupt_requested() || q->error != 0)
			off = to;
		if ((n = sampler_queue_cycle(q)) < 0)
			return (n);
		for (i = 0; i < n; i++)
			lat_sum += q->done[i].lat_ns;
		nlat += (uint64_t)n;
	}
	return (q->error);
}

/*
 * Issue random I/O for every free slot (or what sp->next says).  Writes
 * keep off the target's header block (target.keep_bytes), so a test file
 * stays recognisable.
 */
static void
sampler_fill_random(struct sampler_queue *q, struct rng *r,
    const struct sample_spec *sp)
{
	struct engine_io	*io;
	uint64_t		 lo = 0;

	if (sp->next != NULL) {
		while (q->nfree > 0) {
			io = sampler_queue_add(q, 0, 0, 0);
			sp->next(io, sp->next_arg);
			q->slot_len[io->slot] = io->len;
		}
		return;
	}

	if (sp->write && q->e->target != NULL) {
		lo = q->e->target->keep_bytes;
		lo = (lo + sp->bs - 1) / sp->bs * sp->bs;
		if (lo >= sp->ws_bytes)
			lo = 0;
	}
	while (q->nfree > 0)
		sampler_queue_add(q, rng_offset(r, lo, sp->ws_bytes - lo,
		    sp->bs), sp->bs, sp->write);
}

/* A timeline being filled: the interval open now and what it counted. */
struct sampler_tick {
	struct timeline			*tl;	/* NULL: none */
	const struct sample_spec	*sp;
	unsigned			 depth;
	uint64_t			 origin;
	uint64_t			 start;	/* of the open interval */
	uint64_t			 next;	/* its end */
	uint64_t			 ios;
	double				 lat_sum;
};

static void
sampler_tick_init(struct sampler_tick *k, struct timeline *tl,
    const struct sample_spec *sp, unsigned depth, uint64_t origin,
    uint64_t now)
{
	memset(k, 0, sizeof *k);
	if (tl == NULL || !(sp->interval_s > 0))
		return;
	k->tl = tl;
	k->sp = sp;
	k->depth = depth;
	k->origin = origin;
	k->start = now;
	k->next = now + (uint64_t)(sp->interval_s * 1e9);
}

static void
sampler_tick_count(struct sampler_tick *k, const struct engine_done *done,
    int n)
{
	int	i;

	for (i = 0; i < n; i++)
		k->lat_sum += (double)done[i].lat_ns;
	k->ios += (uint64_t)n;
}

/* Close the interval open now, ending at end. */
static void
sampler_tick_close(struct sampler_tick *k, uint64_t end)
{
	struct timeline_sample	s;

	memset(&s, 0, sizeof s);
	s.t_s = (double)(end - k->origin) / 1e9;
	s.dt_s = (double)(end - k->start) / 1e9;
	s.iops = (double)k->ios / s.dt_s;
	s.bytes_per_s = s.iops * k->sp->bs;
	s.lat_us_mean = k->ios > 0 ? k->lat_sum / (double)k->ios / 1e3 : NAN;
	s.iodepth = k->depth;
	s.bs = k->sp->bs;
	s.phase = k->sp->tl_phase;
	timeline_add(k->tl, &s);
	k->ios = 0;
	k->lat_sum = 0;
	k->start = end;
}

/* Close the intervals that ended by now. */
static void
sampler_tick(struct sampler_tick *k, uint64_t now)
{
	if (k->tl == NULL)
		return;
	while (now >= k->next) {
		sampler_tick_close(k, k->next);
		k->next += (uint64_t)(k->sp->interval_s * 1e9);
	}
}

/* Random I/O in windows until the window mean latencies are steady. */
static int
sampler_settle(struct sampler_queue *q, struct rng *r,
    const struct sample_spec *sp, double budget_ns, struct sampler_tick *k)
{
	double		 means[SAMPLER_STEADY_WINDOWS];
	struct stats	 w;
	uint64_t	 t0 = q->e->ops->now_ns(q->e), per_window;
	unsigned	 nwin = 0;
	int		 n, i;

	per_window = 64 + 8 * (uint64_t)q->depth;
	stats_init(&w);
	while (!interrupt_requested() && q->error == 0) {
		sampler_fill_random(q, r, sp);
		if ((n = sampler_queue_cycle(q)) < 0)
			return (n);
		for (i = 0; i < n; i++)
			stats_add(&w, (double)q->done[i].lat_ns);
		sampler_tick_count(k, q->done, n);
		sampler_tick(k, q->e->ops->now_ns(q->e));
		if ((double)(q->e->ops->now_ns(q->e) - t0) > budget_ns)
			break;
		if (w.n < per_window)
			continue;
		means[nwin++ % SAMPLER_STEADY_WINDOWS] = stats_mean(&w);
		stats_init(&w);
		if (nwin >= SAMPLER_STEADY_WINDOWS && stats_is_steady(means,
		    SAMPLER_STEADY_WINDOWS, 0.20, 0.10))
			break;
		if (nwin >= SAMPLER_SETTLE_MAX)
			break;
	}
	return (q->error);
}

/* CPU time of this process so far, user and system, in seconds. */
double
sampler_cpu_s(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	    (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
}

/* Time this process's threads waited for a CPU; see sampler.h. */
double
sampler_cpu_wait_s(void)
{
	DIR			*d;
	FILE			*f;
	struct dirent		*de;
	char			 path[64];
	unsigned long long	 run, wait;
	double			 sum = 0;
	int			 seen = 0;

	if ((d = opendir("/proc/self/task")) == NULL)
		return (NAN);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/self/task/%.16s/schedstat",
		    de->d_name);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fscanf(f, "%llu %llu", &run, &wait) == 2) {
			sum += wait / 1e9;
			seen = 1;
		}
		fclose(f);
	}
	closedir(d);
	return (seen ? sum : NAN);
}

static double
sampler_wall_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

/*
 * I/Os a second over a point, counted from its first reaped completion to
 * its last: a cap that passes I/O in clumps (blk-throttle's slices) ends a
 * point on a clump but starts it anywhere between two, and counting from t0
 * would add half a clump (3-8% over a 1 s point).
 */
static double
sampler_rate(uint64_t ios, uint64_t t0, uint64_t first_done,
    uint64_t first_ios, uint64_t last_done)
{
	if (last_done > first_done && ios > first_ios)
		return ((double)(ios - first_ios) /
		    ((double)(last_done - first_done) / 1e9));
	if (last_done > t0)
		return ((double)ios / ((double)(last_done - t0) / 1e9));
	return (0);
}

/* Measure one point; see sampler.h. */
int
sampler_measure(struct engine *e, struct rng *r, const struct sample_spec *sp,
    struct point *pt, struct timeline *tl, sampler_progress_cb cb, void *arg)
{
	struct sampler_queue	 q;
	struct sampler_tick	 k;
	struct stats		 batches, cur;
	uint64_t		 t0, tw, now, last_done, next_cb, deadline;
	uint64_t		 first_done = 0, first_ios = 0;
	uint64_t		 batch_len, min_ios, gap_ns = 0, next_start;
	uint64_t		 lat_sum = 0;
	double			 cpu0, wall0, elapsed, budget_ns, limit_s;
	size_t			 ntl;
	int			 n, i, ret = 0, stop = 0;

	memset(pt, 0, sizeof(*pt));
	pt->ws_bytes = sp->ws_bytes;
	pt->bs = sp->bs;
	pt->write = sp->write;
	pt->hist = xmalloc(sizeof(*pt->hist));
	hist_init(pt->hist);
	pt->ci95_rel = INFINITY;
	pt->cpu_util = NAN;

	sampler_queue_init(&q, e, sp->pace_iops > 0 ? 1 :
	    sp->iodepth < e->iodepth ? sp->iodepth : e->iodepth);
	pt->iodepth = q.depth;
	tw = e->ops->now_ns(e);
	budget_ns = sp->max_time_s * 1e9;
	deadline = sp->total_time_s > 0 ? tw + (uint64_t)(sp->total_time_s *
	    1e9) : UINT64_MAX;
	sampler_tick_init(&k, sp->tl_whole ? tl : NULL, sp, q.depth,
	    sp->tl_origin_ns, tw);

	if (sp->warm_from < sp->ws_bytes &&
	    (ret = sampler_warm_sequential(&q, sp->warm_from, sp->ws_bytes,
	    sp->bs, deadline)) != 0)
		goto out;
	budget_ns = sp->settle_s > 0 ? sp->settle_s * 1e9 : budget_ns / 4;
	now = e->ops->now_ns(e);
	if (deadline != UINT64_MAX)
		budget_ns = fmin(budget_ns, now < deadline ?
		    (double)(deadline - now) / 2 : 0);
	if (sp->warm_random && budget_ns > 0 && (ret = sampler_settle(&q, r,
	    sp, budget_ns, &k)) != 0)
		goto out;

	if (sp->on_measure != NULL)
		sp->on_measure(sp->on_measure_arg);
	cpu0 = sampler_cpu_s();
	wall0 = sampler_wall_s();
	t0 = last_done = e->ops->now_ns(e);
	pt->warm_seconds = (double)(t0 - tw) / 1e9;
	next_cb = t0 + SAMPLER_PROGRESS_NS;
	if (!sp->tl_whole)
		sampler_tick_init(&k, tl, sp, q.depth, t0, t0);
	ntl = tl != NULL ? tl->n : 0;
	batch_len = 8 * (uint64_t)q.depth < 32 ? 32 : 8 * (uint64_t)q.depth;
	min_ios = sp->min_ios > SAMPLER_MIN_BATCHES * batch_len ? sp->min_ios :
	    SAMPLER_MIN_BATCHES * batch_len;
	stats_init(&batches);
	stats_init(&cur);
	if (sp->pace_iops > 0)
		gap_ns = (uint64_t)(1e9 / sp->pace_iops);
	next_start = t0;
	/* The time limit, and what the whole point's leaves of it. */
	limit_s = sp->max_time_s;
	if (deadline != UINT64_MAX)
		limit_s = fmin(limit_s, t0 < deadline ?
		    (double)(deadline - t0) / 1e9 : 0);
	stop = limit_s <= sp->lat_hint_s || interrupt_requested();
	while (!stop || q.inflight > 0) {
		if (!stop && gap_ns > 0 && q.inflight == 0) {
			now = e->ops->now_ns(e);
			if (now < next_start && sp->pace_sleep)
				engine_idle(e, next_start - now);
			else if (now < next_start)
				engine_spin(e, next_start - now);
			next_start = e->ops->now_ns(e) + gap_ns;
		}
		if (!stop)
			sampler_fill_random(&q, r, sp);
		if ((n = sampler_queue_cycle(&q)) < 0) {
			ret = n;
			break;
		}
		now = e->ops->now_ns(e);
		for (i = 0; i < n; i++) {
			lat_sum += q.done[i].lat_ns;
			hist_add(pt->hist, q.done[i].lat_ns);
			stats_add(&cur, (double)q.done[i].lat_ns);
			if (cur.n == batch_len) {
				/* The CI only moves when a batch closes. */
				stats_add(&batches, stats_mean(&cur));
				stats_init(&cur);
				if (batches.n >= 2)
					pt->ci95_rel = stats_ci95_rel(&batches);
			}
		}
		if (n > 0) {
			last_done = now;
			if (first_ios == 0) {
				first_done = now;
				first_ios = (uint64_t)n;
			}
		}
		sampler_tick_count(&k, q.done, n);
		sampler_tick(&k, now);
		if (cb != NULL && now >= next_cb) {
			pt->ios = pt->hist->count;
			pt->seconds = (double)(now - t0) / 1e9;
			pt->iops = pt->seconds > 0 ? pt->ios / pt->seconds : 0;
			pt->lat_us.p50 = pt->ios > 0 ?
			    hist_percentile(pt->hist, 0.50) / 1e3 : NAN;
			cb(pt, pt->seconds, arg);
			next_cb = now + SAMPLER_PROGRESS_NS;
		}
		if (stop)
			continue;
		if (q.error != 0 || interrupt_requested()) {
			stop = 1;
			continue;
		}
		/*
		 * No I/O is started that would end, at the mean latency so
		 * far, after the limit: a point of I/Os that take long (a
		 * large --bs) stays within it too.  A point of fixed length
		 * (a timeline's) runs to it.
		 */
		elapsed = (double)(now - t0) / 1e9;
		if (elapsed + (sp->fixed_time ? 0 : pt->hist->count > 0 ?
		    (double)lat_sum / (double)pt->hist->count / 1e9 :
		    sp->lat_hint_s) >= limit_s)
			stop = 1;
		else if (sp->tl_enough != NULL && k.tl != NULL &&
		    k.tl->n > ntl) {
			ntl = k.tl->n;
			stop = sp->tl_enough(k.tl, sp->tl_arg);
		}
		else if (!sp->fixed_time && pt->hist->count >= min_ios &&
		    elapsed >= sp->min_time_s)
			stop = pt->ci95_rel <= sp->precision;
	}
	if (k.tl != NULL && sp->tl_whole && last_done > k.start)
		sampler_tick_close(&k, last_done);
	pt->ios = pt->hist->count;
	pt->seconds = (double)(last_done - t0) / 1e9;
	pt->iops = sampler_rate(pt->ios, t0, first_done, first_ios,
	    last_done);
	pt->bytes_per_s = pt->iops * sp->bs;
	if (!e->ops->virtual_time && sampler_wall_s() > wall0)
		pt->cpu_util = (sampler_cpu_s() - cpu0) /
		    (sampler_wall_s() - wall0);
	point_summarise(pt);
	if (ret == 0)
		ret = q.error;
out:
	if (ret != 0)
		sampler_queue_drain(&q);
	sampler_queue_fini(&q);
	if (ret == 0 && interrupt_requested())
		ret = 1;
	return (ret);
}

/* SPDX-License-Identifier: ISC */
/*
 * The state a burst bucket may have been in when each figure of a report
 * was measured (bucket.h), from where in the run's phases a drop fell:
 * set on every point and section after a run and again when a report is
 * read back, so both give the same states.
 */
#include <math.h>
#include <stddef.h>

#include "bucket.h"
#include "report.h"

/* A run's phases on one target, in the order they ran (probe_measure). */
enum report_state_phase {
	STATE_SCAN,
	STATE_SWEEPS,			/* read sweeps, first touch: the
					   sweeps' clock */
	STATE_SUSTAIN,			/* the sustained run's clock */
	STATE_AFTER,			/* bandwidth after a drop */
	STATE_SEQ,			/* sequential writes, their refill */
	STATE_WSWEEPS,			/* write sweeps */
	STATE_WSUSTAIN,
	STATE_WAFTER,
	STATE_MIXED,
	STATE_COMMITS,
	STATE_TOGETHER,			/* several targets at once: IOPS */
	STATE_TOGETHER_BW,		/* then bandwidth */
};

/*
 * When a sweep point ran on the sweeps' clock: the span of the timeline's
 * intervals of its phase, depth and size; NANs when none match.
 */
static void
report_state_span(const struct limits_result *l, const struct point *p,
    int phase, double *t0, double *t1)
{
	const struct timeline_sample	*s;
	size_t				 i;

	*t0 = *t1 = NAN;
	for (i = 0; i < l->sweep_timeline.n; i++) {
		s = &l->sweep_timeline.v[i];
		if (s->phase != phase || s->iodepth != p->iodepth ||
		    s->bs != p->bs)
			continue;
		if (!(s->t_s - s->dt_s >= *t0))
			*t0 = s->t_s - s->dt_s;
		if (!(s->t_s <= *t1))
			*t1 = s->t_s;
	}
}

/*
 * The states of n sweep points of phase (limits_phase), merged into the
 * state of the ceiling they gave.  A drop inside the sweeps leaves the
 * ceiling to the points that ended before it (limits.c), if any did.
 */
static int
report_state_sweep(const struct bucket_drop *d, const struct limits_result *l,
    struct point *v, size_t n, int phase, int clock)
{
	double	t0, t1;
	int	all = BUCKET_UNKNOWN, before = BUCKET_UNKNOWN;
	size_t	i;

	for (i = 0; i < n; i++) {
		report_state_span(l, &v[i], phase, &t0, &t1);
		v[i].state = bucket_state(d, clock, t0, t1);
		all = bucket_state_merge(all, v[i].state);
		if (v[i].state == BUCKET_FULL)
			before = BUCKET_FULL;
	}
	return (d->phase == clock && isfinite(d->t_s) &&
	    before != BUCKET_UNKNOWN ? before : all);
}

/*
 * The states of a limits run whose sweeps ran in phase sweeps, followed
 * by its sustained run and the bandwidth measured after a drop.
 */
static void
report_state_limits(const struct bucket_drop *d, struct limits_result *l,
    int sweeps)
{
	const struct timeline_sample	*s;
	const struct burst		*b = &l->burst;
	double				 end;
	size_t				 i;

	l->iops_state = report_state_sweep(d, l, l->qd_points, l->nqd,
	    LIMITS_PHASE_IODEPTH, sweeps);
	l->bandwidth_state = report_state_sweep(d, l, l->bs_points, l->nbs,
	    LIMITS_PHASE_BS, sweeps);
	if (l->acct_probe.ios > 0)
		(void)report_state_sweep(d, l, &l->acct_probe, 1,
		    LIMITS_PHASE_ACCOUNTING, sweeps);
	l->first_touch.state = BUCKET_UNKNOWN;
	for (i = 0; l->first_touch.measured && i < l->sweep_timeline.n; i++) {
		s = &l->sweep_timeline.v[i];
		if (s->phase == LIMITS_PHASE_FIRST_TOUCH)
			l->first_touch.state = bucket_state_merge(
			    l->first_touch.state, bucket_state(d, sweeps,
			    s->t_s - s->dt_s, s->t_s));
	}
	if (l->first_touch.measured && l->first_touch.state == BUCKET_UNKNOWN)
		l->first_touch.state = bucket_state(d, sweeps, NAN, NAN);
	l->sustain_state = l->long_run_state = BUCKET_UNKNOWN;
	if (l->timeline.n == 0)
		return;
	/* The run's length as run; an older report's, its last interval. */
	end = l->sustain_s > 0 ? l->sustain_s :
	    l->timeline.v[l->timeline.n - 1].t_s;
	l->sustain_state = bucket_state(d, sweeps + 1, 0, end);
	/* The baseline: the run's part after the drop, or all of it. */
	l->long_run_state = l->sustain_state;
	if (isfinite(l->long_run_iops) && b->detected && !b->exhausted)
		l->long_run_state = bucket_state(d, sweeps + 1, b->drop_t_s,
		    end);
	if (isfinite(l->baseline_bandwidth))
		l->long_run_state = bucket_state_merge(l->long_run_state,
		    bucket_state(d, sweeps + 2, NAN, NAN));
}

/*
 * The states of the commits, s unless a bucket that may have been full
 * before them ran dry among them (writepath_drop): full before the row
 * that may have held the drop, draining in it, empty after.
 */
static void
report_state_sync(struct sync_result *sy, int s)
{
	long	k = -1;
	size_t	i;

	if (s == BUCKET_MAY_BE_FULL)
		k = writepath_drop(sy->rows, sy->nrows, &sy->again);
	sy->state = sy->nrows == 0 ? BUCKET_UNKNOWN : k >= 0 ?
	    BUCKET_DRAINING : s;
	for (i = 0; i < sy->nrows; i++)
		sy->rows[i].pt.state = k < 0 ? s : (long)i < k ? BUCKET_FULL :
		    (long)i == k ? BUCKET_DRAINING : BUCKET_EMPTY;
	sy->again.pt.state = sy->again.pt.ios == 0 ? BUCKET_UNKNOWN :
	    k >= 0 ? BUCKET_EMPTY : s;
}

/*
 * The states of one target's figures, the first drop among its phases in
 * d (and, of several targets, the run together's).
 */
static void
report_state_one(struct report *r, const struct bucket_drop *d)
{
	struct writes_result	*w = r->writes;
	size_t			 i;
	int			 s;

	if (r->scan != NULL) {
		s = bucket_state(d, STATE_SCAN, NAN, NAN);
		r->scan->state = s;
		for (i = 0; i < r->scan->npoints; i++)
			r->scan->points[i].state = s;
	}
	if (r->limits != NULL)
		report_state_limits(d, r->limits, STATE_SWEEPS);
	if (w != NULL) {
		w->state = w->timeline.n > 0 ? bucket_state(d, STATE_SEQ, NAN,
		    NAN) : BUCKET_UNKNOWN;
		if (w->limits != NULL)
			report_state_limits(d, w->limits, STATE_WSWEEPS);
		w->mixed.state = w->mixed.ios > 0 ? bucket_state(d,
		    STATE_MIXED, NAN, NAN) : BUCKET_UNKNOWN;
	}
	if (r->sync != NULL)
		report_state_sync(r->sync, bucket_state(d, STATE_COMMITS, NAN,
		    NAN));
}

/* The first drop of one target's run, after which nothing else counts. */
static void
report_state_drop(const struct report *r, struct bucket_drop *d)
{
	if (r->limits != NULL)
		bucket_drop_add(d, &r->limits->burst, STATE_SWEEPS,
		    STATE_SUSTAIN);
	if (r->writes != NULL && r->writes->limits != NULL)
		bucket_drop_add(d, &r->writes->limits->burst, STATE_WSWEEPS,
		    STATE_WSUSTAIN);
}

/* Set the state of every figure of r; see report.h. */
void
report_state_apply(struct report *r)
{
	struct together_result	*t = r->together;
	struct bucket_drop	 d, shared;
	size_t			 i;

	bucket_drop_none(&shared);
	if (t != NULL)
		bucket_drop_add(&shared, &t->burst, STATE_TOGETHER,
		    STATE_TOGETHER);
	for (i = 0; i < r->ntargets; i++) {
		d = shared;
		report_state_drop(&r->targets[i], &d);
		report_state_one(&r->targets[i], &d);
	}
	if (t != NULL) {
		t->state = t->seconds > 0 ? bucket_state(&shared,
		    STATE_TOGETHER, 0, isfinite(t->burst.drop_t_s) ?
		    t->burst.drop_t_s : t->seconds) : BUCKET_UNKNOWN;
		/*
		 * A drop of the sum's I/Os leaves an allowance of bytes
		 * (an instance's is a bucket of its own) as it was.
		 */
		t->bandwidth_state = t->bandwidth_seconds > 0 ?
		    BUCKET_MAY_BE_FULL : BUCKET_UNKNOWN;
	}
	if (r->ntargets > 0)
		return;
	bucket_drop_none(&d);
	report_state_drop(r, &d);
	report_state_one(r, &d);
}

/* Whether a bucket ran dry in any phase of r's run; see report.h. */
int
report_state_drained(const struct report *r)
{
	struct bucket_drop	d;
	size_t			i;

	bucket_drop_none(&d);
	if (r->together != NULL)
		bucket_drop_add(&d, &r->together->burst, STATE_TOGETHER,
		    STATE_TOGETHER);
	for (i = 0; i < r->ntargets; i++)
		report_state_drop(&r->targets[i], &d);
	report_state_drop(r, &d);
	return (d.phase >= 0);
}

/* The burst a bucket ran dry in, in any phase of r; see report.h. */
const struct burst *
report_drain(const struct report *r, const char **phase)
{
	const char	*dummy;

	if (phase == NULL)
		phase = &dummy;
	*phase = NULL;
	if (r->limits != NULL && r->limits->burst.detected) {
		*phase = "reads";
		return (&r->limits->burst);
	}
	if (r->writes != NULL && r->writes->limits != NULL &&
	    r->writes->limits->burst.detected) {
		*phase = "writes";
		return (&r->writes->limits->burst);
	}
	return (NULL);
}

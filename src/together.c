/* SPDX-License-Identifier: ISC */
/*
 * Volume or instance: the sum of several targets driven together against
 * the sum of their ceilings alone, per resource; a shared bucket from the
 * aggregate timeline.  Pure: no I/O.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "stats.h"
#include "together.h"
#include "xmalloc.h"

/*
 * The rule.  A run's figure is the mean of its sum timeline, leaving out
 * the first interval (the queues filling) and, when the aggregate drops
 * for good (a bucket ran dry), everything from the interval before the
 * drop on; its 95% interval is that of a series whose successive
 * intervals may cancel (stats_series_ci95: a throttle's clump of I/O
 * counted in one interval or the next).  A figure alone is the same mean
 * over a run of the target alone.  The
 * ratio r of that figure to the sum alone S is known within e, the
 * combined relative 95% half-widths of both; with g = TOGETHER_GAP:
 *
 *   r + e < 1 - g       shared: a limit above them, worth the figure;
 *   r - e >= 1 - g      volumes: each target's own ceiling binds (and
 *                       unknown if r - e > 1 + g when every figure alone
 *                       was a ceiling: together cannot beat them);
 *   otherwise           unknown: the drop is within the noise;
 *
 * and unknown when a target has no figure alone, the run is shorter than
 * TOGETHER_MIN_INTERVALS, or our CPU (TOGETHER_CPU_BOUND, counting the
 * time our threads waited for one) was the limit of the run together.  A drop on the aggregate that no target showed alone is a shared
 * bucket (burst_shared); none is sought when our CPU was the limit.
 */
#define TOGETHER_GAP		0.05
#define TOGETHER_MIN_INTERVALS	3

/* "volumes", "shared", or NULL. */
const char *
together_bound_name(int b)
{
	static const char *const names[] = {
		[TOGETHER_UNKNOWN] = NULL,
		[TOGETHER_VOLUMES] = "volumes",
		[TOGETHER_SHARED] = "shared",
	};

	if (b < 0 || (size_t)b >= sizeof names / sizeof names[0])
		return (NULL);
	return (names[b]);
}

static void
together_verdict_init(struct together_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->ceiling = v->sum_alone = v->ratio = NAN;
	v->shared = v->shared_low = v->shared_high = NAN;
	v->bound = TOGETHER_UNKNOWN;
}

/* Initialise a result of n targets with every figure unknown. */
void
together_result_init(struct together_result *r, size_t n)
{
	size_t	i;

	memset(r, 0, sizeof *r);
	r->seconds = r->bandwidth_seconds = NAN;
	r->cpu_util = r->bandwidth_cpu_util = NAN;
	together_verdict_init(&r->iops);
	together_verdict_init(&r->bandwidth);
	ceilings_burst(NULL, 0, NULL, 0, NAN, &r->burst);
	r->burst.baseline_iops = NAN;
	r->burst_shared = -1;
	r->ntargets = n;
	r->per_target = xcalloc(n, sizeof *r->per_target);
	for (i = 0; i < n; i++) {
		r->per_target[i].iops = NAN;
		r->per_target[i].bandwidth_bytes_per_s = NAN;
		r->per_target[i].alone_iops = NAN;
		r->per_target[i].alone_bandwidth_bytes_per_s = NAN;
	}
}

/* Release what a result owns. */
void
together_result_free(struct together_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntargets; i++) {
		free(r->per_target[i].path);
		timeline_free(&r->per_target[i].timeline);
		timeline_free(&r->per_target[i].bandwidth_timeline);
	}
	free(r->per_target);
	r->per_target = NULL;
	r->ntargets = 0;
	timeline_free(&r->timeline);
	timeline_free(&r->bandwidth_timeline);
}

/*
 * The intervals [*from, *to) of a timeline of n that make its figure: all
 * but the first, and those before a lasting drop at drop_t_s (NAN: none).
 */
static void
together_window(const struct timeline *tl, double drop_t_s, size_t *from,
    size_t *to)
{
	size_t	n = tl->n, i;

	*from = n > TOGETHER_MIN_INTERVALS ? 1 : 0;
	*to = n;
	if (isfinite(drop_t_s)) {
		for (i = 0; i < n && tl->v[i].t_s < drop_t_s; i++)
			;
		if (i > *from + TOGETHER_MIN_INTERVALS)
			*to = i;
	}
}

/*
 * Mean of v[from, to) of a timeline (IOPS, or bytes/s when bytes), and
 * into *half the 95% half-width of that mean (stats_series_ci95).
 */
static double
together_mean(const struct timeline *tl, size_t from, size_t to, int bytes,
    double *half)
{
	double	*x, mean, sd;
	size_t	 i;

	*half = INFINITY;
	if (to <= from)
		return (NAN);
	x = xcalloc(to - from, sizeof *x);
	for (i = from; i < to; i++)
		x[i - from] = bytes ? tl->v[i].bytes_per_s : tl->v[i].iops;
	stats_mean_sd(x, to - from, &mean, &sd);
	*half = stats_series_ci95(x, to - from);
	free(x);
	return (mean);
}

/* A target's figure alone; see together.h. */
void
together_alone_rate(const struct timeline *tl, int bytes, int held,
    double ceiling, double max_seen, struct together_alone *a)
{
	double	half;
	size_t	from, to;

	a->capped = isfinite(ceiling);
	a->rate = a->capped ? ceiling : max_seen;
	a->noise = NAN;
	if (!held || tl->n < TOGETHER_MIN_INTERVALS + 1)
		return;
	together_window(tl, NAN, &from, &to);
	a->rate = together_mean(tl, from, to, bytes, &half);
	a->noise = a->rate > 0 ? half / a->rate : NAN;
}

/*
 * Whether our CPU, busy or waited for, may have held run down: its threads
 * took nearly all the cores they could (one each, no more than we may run
 * on).
 */
static int
together_cpu_busy(const struct together_run *run)
{
	double	cores = run->cpu_cores >= 1 ? run->cpu_cores : 1;

	return (isfinite(run->cpu_util) &&
	    run->cpu_util >= TOGETHER_CPU_BOUND * cores);
}

/* The verdict for one resource; see the rule above. */
static void
together_judge(const struct together_alone *alone, size_t n,
    const struct together_run *run, int bytes, double drop_t_s,
    struct together_verdict *v, struct together_result *r)
{
	double		 noise = 0, e, half, one, rel;
	size_t		 i, from, to;
	int		 all_capped = 1;

	v->sum_alone = 0;
	for (i = 0; i < n; i++) {
		if (!isfinite(alone[i].rate)) {
			v->sum_alone = NAN;
			snprintf(v->why, sizeof v->why, "target %zu has no "
			    "figure alone", i + 1);
			break;
		}
		v->sum_alone += alone[i].rate;
		all_capped &= alone[i].capped;
		if (isfinite(alone[i].noise))
			noise += alone[i].noise * alone[i].rate *
			    alone[i].noise * alone[i].rate;
	}
	if (run == NULL) {
		snprintf(v->why, sizeof v->why, "not measured together");
		return;
	}
	together_window(run->sum, drop_t_s, &from, &to);
	v->ceiling = together_mean(run->sum, from, to, bytes, &half);
	for (i = 0; i < n; i++) {
		if (bytes)
			r->per_target[i].bandwidth_bytes_per_s = together_mean(
			    &run->timeline[i], from, to, 1, &one);
		else
			r->per_target[i].iops = together_mean(
			    &run->timeline[i], from, to, 0, &one);
	}
	if (to - from < TOGETHER_MIN_INTERVALS) {
		snprintf(v->why, sizeof v->why, "the run together was too "
		    "short: %zu intervals", to - from);
		return;
	}
	if (!isfinite(v->sum_alone) || !(v->sum_alone > 0))
		return;
	v->ratio = v->ceiling / v->sum_alone;
	/* A run our CPU held down says nothing of the volumes, either way. */
	if (together_cpu_busy(run)) {
		r->cpu_bound = 1;
		snprintf(v->why, sizeof v->why, "this machine's CPU was the "
		    "limit (%.2f cores busy or waited for, of %.0f)",
		    run->cpu_util, run->cpu_cores >= 1 ? run->cpu_cores : 1);
		return;
	}
	rel = v->ceiling > 0 ? half / v->ceiling : INFINITY;
	e = v->ratio * sqrt(rel * rel + noise / (v->sum_alone *
	    v->sum_alone));
	if (v->ratio - e > 1 + TOGETHER_GAP && all_capped) {
		snprintf(v->why, sizeof v->why, "together the targets beat "
		    "the sum of their ceilings alone by %.0f%%: the figures "
		    "disagree", 100 * (v->ratio - 1));
		return;
	}
	if (v->ratio - e >= 1 - TOGETHER_GAP) {
		v->bound = TOGETHER_VOLUMES;
		return;
	}
	if (!(v->ratio + e < 1 - TOGETHER_GAP)) {
		snprintf(v->why, sizeof v->why, "together is %.0f%% %s the "
		    "sum alone, within the noise (+-%.0f%%)",
		    100 * fabs(1 - v->ratio), v->ratio > 1 ? "above" : "below",
		    100 * e);
		return;
	}
	v->bound = TOGETHER_SHARED;
	v->shared = v->ceiling;
	v->shared_low = v->ceiling - half;
	v->shared_high = v->ceiling + half;
}

/* Analyse the runs together; see together.h. */
void
together_analyse(const struct together_alone *alone_iops,
    const struct together_alone *alone_bw, const int *alone_burst, size_t n,
    const struct together_run *iops, const struct together_run *bw,
    const struct ceilings_prior *prior, size_t nprior,
    struct together_result *r)
{
	double	drop = NAN;
	size_t	i;
	int	any_alone = 0;

	for (i = 0; i < n; i++) {
		r->per_target[i].alone_iops = alone_iops[i].rate;
		r->per_target[i].alone_bandwidth_bytes_per_s = alone_bw[i].rate;
		any_alone |= alone_burst[i];
	}
	if (iops != NULL)
		r->cpu_util = iops->cpu_util;
	if (iops != NULL && together_cpu_busy(iops))
		snprintf(r->note, sizeof r->note, "no bucket sought on the "
		    "sum: a drop could be this machine's CPU");
	else if (iops != NULL) {
		ceilings_burst(iops->sum->v, iops->sum->n, prior, nprior, NAN,
		    &r->burst);
		if (r->burst.detected && !r->burst.exhausted) {
			drop = r->burst.drop_t_s;
			r->burst_shared = !any_alone;
		}
	}
	if (bw != NULL)
		r->bandwidth_cpu_util = bw->cpu_util;
	together_judge(alone_iops, n, iops, 0, drop, &r->iops, r);
	together_judge(alone_bw, n, bw, 1, NAN, &r->bandwidth, r);
}

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
 * drop on; its 95% interval is Student's over those intervals.  The
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
 * TOGETHER_MIN_INTERVALS, or our CPU (TOGETHER_CPU_BOUND) was the limit of
 * a sum that came out short.  A drop on the aggregate that no target
 * showed alone is a shared bucket (burst_shared).
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
	r->cpu_util = NAN;
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

/* Mean of v[from, to) of a timeline (IOPS, or bytes/s when bytes). */
static double
together_mean(const struct timeline *tl, size_t from, size_t to, int bytes,
    struct stats *st)
{
	size_t	i;

	stats_init(st);
	for (i = from; i < to; i++)
		stats_add(st, bytes ? tl->v[i].bytes_per_s : tl->v[i].iops);
	return (to > from ? stats_mean(st) : NAN);
}

/* A target's IOPS alone; see together.h. */
void
together_alone_iops(const struct timeline *tl, int held, double ceiling,
    double max_seen, struct together_alone *a)
{
	struct stats	st;
	size_t		from, to;

	a->capped = isfinite(ceiling);
	a->rate = a->capped ? ceiling : max_seen;
	a->noise = NAN;
	if (!held || tl->n < TOGETHER_MIN_INTERVALS + 1)
		return;
	together_window(tl, NAN, &from, &to);
	a->rate = together_mean(tl, from, to, 0, &st);
	a->noise = a->rate > 0 ? stats_ci95(&st) / a->rate : NAN;
}

/* The verdict for one resource; see the rule above. */
static void
together_judge(const struct together_alone *alone, size_t n,
    const struct together_run *run, int bytes, double drop_t_s,
    struct together_verdict *v, struct together_result *r)
{
	struct stats	 st, one;
	double		 noise = 0, e, half, rel;
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
	v->ceiling = together_mean(run->sum, from, to, bytes, &st);
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
	half = stats_ci95(&st);
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
		snprintf(v->why, sizeof v->why, "together is %.0f%% below the "
		    "sum alone, within the noise (+-%.0f%%)",
		    100 * (1 - v->ratio), 100 * e);
		return;
	}
	if (!bytes && isfinite(run->cpu_util) &&
	    run->cpu_util >= TOGETHER_CPU_BOUND) {
		r->cpu_bound = 1;
		snprintf(v->why, sizeof v->why, "this machine's CPU was the "
		    "limit (%.2f cores busy)", run->cpu_util);
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
	if (iops != NULL) {
		r->cpu_util = iops->cpu_util;
		ceilings_burst(iops->sum->v, iops->sum->n, prior, nprior, NAN,
		    &r->burst);
		if (r->burst.detected && !r->burst.exhausted) {
			drop = r->burst.drop_t_s;
			r->burst_shared = !any_alone;
		}
	}
	together_judge(alone_iops, n, iops, 0, drop, &r->iops, r);
	together_judge(alone_bw, n, bw, 1, NAN, &r->bandwidth, r);
}

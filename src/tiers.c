/* SPDX-License-Identifier: ISC */
/*
 * Cache tiers from a working-set scan: latency modes, hit-ratio curves and a
 * change-point cross-check.  Pure: points in, a result out.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "fit.h"
#include "hist.h"
#include "rng.h"
#include "point.h"
#include "tiermodel.h"
#include "tiers.h"
#include "units.h"
#include "xmalloc.h"

/*
 * The model.  A read is served by one of a few places (caches, then the
 * backing store), each with a latency distribution of its own shape: a
 * page-cache hit is a narrow spike, a throttled disk a spike with stalls a
 * thousand times its median.  Under uniform random reads drawn with
 * replacement over a working set S, caches holding C_k blocks between them
 * (the k fastest places) serve min(1, C_k / S) of the reads, whatever their
 * replacement policy.  A working set measured again after the scan passed
 * it (a point after another of the same ws) is kept apart: the tiers are
 * fitted without it, and it tells whether a place's latency drifted with
 * the clock (steps 3 and 5).
 *
 * 0. Points set aside.  As min(1, C_k / S) cannot fall as S shrinks,
 *    neither can the share of a point's reads faster than a deep valley
 *    of the pooled histogram between two places (one whose slower side
 *    holds under 5% of some point's reads in the smallest octave of ws:
 *    no second speed of the fastest place; and below the median read of
 *    the largest working set: not in the store's own latency, where a
 *    capped disk's stalls come and go).  A point slower there than
 *    two larger working sets or more, by 0.15 and 4 sd, was measured
 *    while something else slowed the volume: set aside, and said, when
 *    the rest are analysed and give more tiers (or the whole is not
 *    analysed); else kept, and the doubt said (tiers_analyse).
 * 1. Classes.  The reads of every point are binned 2% wide in ln(latency).
 *    A cut at a latency t between two places shows as a fraction F(S) of
 *    each point's reads faster than t that follows the law: with the two
 *    places' shapes overlapping, F = b + (a - b) min(1, C / S) (with fewer
 *    than 5 points, plainly min(1, C / S)).  Cuts are found greedily: the
 *    cut whose fractions follow the law best (the chi2 gained over a
 *    constant fraction, divided by the misfit chi2 / dof when above 1),
 *    then within each latency range between cuts the same on the range's
 *    reads alone (the law conditional on the capacities on either side),
 *    while a cut gains clearly, fits, sets most of the faster reads apart
 *    from most of the slower (a - b at least 0.7), leaves either side 5% of
 *    some point's reads, has medians 1.5x apart on either side (a real
 *    disk's latency drifts by less than that between points, real caches
 *    differ by far more) and a capacity 10% away from its neighbours'.
 *    Among the cuts scoring nearly as well (or half as well in a deep
 *    valley: a cut through a class's spike can fit better by chance), the
 *    one deepest in a valley of the pooled histogram is kept.  A range is
 *    searched when two points or more hold 20 of its reads.  A latency
 *    that drifts with S (a cache hit slower in a larger working set) or a
 *    tail that grows with the miss rate (throttle stalls) fails the law
 *    and makes no class.
 * 2. Shapes and fractions.  Where a deep valley parts two classes (the
 *    smoothed pooled density at the cut below 0.3 of the lower of their
 *    peaks), each is its reads as they are, within its range: real places
 *    (a page-cache spike, a throttled disk's spike and stalls) have shapes
 *    no model knows, and next to nothing crosses such a valley.  Where
 *    classes overlap, each is one lognormal, whose tail carries over the
 *    cut.  Shapes and capacities are fitted together by EM, every point's
 *    shares following the law (each at least 1e-4); classes whose medians
 *    come out less than 1.5x apart are one, and a class between capacities
 *    less than 10% apart is none.  Then each point's shares are fitted
 *    alone with the shapes held: those fractions judge the law in step 3.
 * 3. Capacities.  Between classes i and i + 1 lies a candidate cache: F(S),
 *    the fraction of reads in classes 0..i, is fitted with min(1, C / S) by
 *    weighted least squares, the class's share of the reads the faster
 *    classes leave divided first by its plateau when below 1 (its mean over
 *    the points between the previous cache and C: a real cache serves some
 *    hits slower than its class, at every ws).  A point's
 *    variance is the inverse of its Fisher information about F (binomial
 *    F (1 - F) / n when the classes do not overlap, more when they do) plus
 *    0.01^2 for drift and shape error.
 *    The 95% interval of C comes from the chi2 profile (Student t, scaled
 *    up by the misfit), widened where classes overlap to +-1.96 sd of a
 *    bootstrap that redraws every bin count and refits the whole chain, as
 *    the shapes' error is shared by all points.  The candidate is a cache
 *    only if the curve fits (chi2 / dof <= 9), explains the data far better
 *    than a constant fraction (a device whose own latency is bimodal has
 *    fractions that do not depend on S), follows the law itself (min(1,
 *    (C / S)^alpha) fitted alongside must not put alpha clearly away from
 *    1: a bimodal store behind a cache gives F = a + b C / S, alpha well
 *    below 1), and has an interval that excludes 0 and the largest ws
 *    scanned; when it reaches the largest ws from above half of it, the
 *    cache is reported as at least its interval's lower end.  A law needs
 *    points to be tested on: two above C (through one, any curve fits),
 *    and two between the capacities either side, the only sizes where the
 *    class's share differs from that of a neighbouring class split off
 *    one place; a candidate with fewer is untested.  Two more rules
 *    from the physics.  Below a cache's capacity every read hits it or a
 *    faster one, so a cache behind it serves nothing there: when the
 *    classes up to the next accepted boundary hold 5% or more of the two
 *    tiers' reads at the points below C, they are this cache's hits at a
 *    second speed (a daemon's thread woken on another CPU), in a mix that
 *    may move with the load once reads miss it, and the two are one cache,
 *    unless between the capacities, where every read is still a hit of
 *    the one place, their share rises as a cache behind would make it.
 *    And a cache's fractions depend on ws alone: an accepted boundary
 *    between classes less than 2x apart whose split moved when a working
 *    set was measured again is a latency that drifted across the cut (a
 *    disk under other work), no cache; with none measured again the scan
 *    is asked to measure one (again_ws), as for a second speed without a
 *    point between the capacities.  The classes
 *    between two accepted boundaries make one tier; those after the last
 *    are the backing store.  Latencies are quantiles of the bins weighted
 *    by their responsibilities for the tier's classes, at the points past
 *    the faster tiers, each point's reads weighing 1 / its reads.
 * 4. Cross-check.  PELT (L2 cost) segments the mean ln(latency) of the points
 *    in ws order.  Under the model that series is flat up to the smallest
 *    cache and moves towards the backing latency beyond it, so the two
 *    methods agree when there is no shift without a cache and no cache
 *    without a shift, no shift before the smallest cache's interval, and a
 *    shift within [C, 4C] of every cache.
 * 5. Nothing silent.  Every deep valley of the pooled histogram (smoothed,
 *    below 0.3 of the lower peak either side) sets classes of reads apart.  One
 *    whose share changes with ws is explained by a tier boundary in its
 *    valley, by moving with the main class of its tier or store (the one
 *    with the most reads where that tier's share peaks) at all but two
 *    points, by a median within 1.5x of that class's (one place whose
 *    latency shifted with the load, as a throttled disk's does), by
 *    gaining on it where it is the faster of the two (a cache in front
 *    serves first: its share of the two never rises with ws; a disk
 *    switching between two latencies from point to point does), or, beyond
 *    the backing store's main class, by growing with it (the store's slow
 *    tail; not as it shrinks: with no tier the store holds every class,
 *    and a cache's hits may lead it), or by being its tier's hits at a
 *    second speed (step 3).  Nor are the classes either side of
 *    a boundary whose law failed (a misfit, or no fit) explained when
 *    their split of their tier's reads (or the store's) moves with ws
 *    between the caches either side, at two points or more: a place with
 *    two latencies keeps its split, a cache whose fractions the overlap of
 *    classes skewed does not, and its misses come to outnumber its hits
 *    (a throttled store's stalls grow with its rate, but stay the fewer).
 *    A class that grows with ws is explained too when its place's latency
 *    drifted with the clock: a working set measured again split the
 *    place's reads otherwise between its classes, or moved their p50 by
 *    1.2x; with none measured again the scan is asked to measure one, and
 *    meanwhile such a class behind the last tier is a doubt the note says,
 *    the tiers standing.
 *    Any other is reported, and the analysis is not trusted.  Nor is it
 *    where the points are too few to tell: an untested candidate, or a
 *    class seen at one point only, which no cut could search, unless it is
 *    the slowest class seen at the largest ws (the store's slow tail, or
 *    the misses of a cache past unseen_from, below); nor where the store's
 *    p50, point by point past the last tier, climbs with ws (rising at two
 *    steps or more, falling at none, 1.5x in all): a cache hidden in front
 *    of it, its class overlapping the store's without a valley, does so; a
 *    store alone keeps its latency, or switches between two, or drifts
 *    with the clock (a working set measured again tells, and the scan is
 *    asked for one).  The note says where more points would tell.  And a
 *    cache above 0.95 times the second largest ws has fewer than two
 *    points missing 5% of their reads in it, which steps 1 and 3 need: the
 *    result gives that size (unseen_from), past which one could go unseen.
 */

#define TIERS_BIN		0.02	/* ln units: bins of the reads */
#define TIERS_SMOOTH		0.05	/* ln units: pooled density kernel */
#define TIERS_CUT_STEP		0.05	/* ln units between cuts tried */
#define TIERS_CUT_GRID		40	/* capacities tried per cut */
#define TIERS_CUT_RCHI2		16.0	/* a cut's law may misfit this much */
#define TIERS_CUT_SPLIT		0.7	/* a - b: reads set apart by a cut */
#define TIERS_CUT_SHARE		0.05	/* either side: of some point's reads */
#define TIERS_CUT_MIN_READS	20	/* reads in a range to count a point */
#define TIERS_CUT_FREE		5	/* fewer points: the plain law */
#define TIERS_CUT_NEAR		0.9	/* cuts scoring this much of the best */
#define TIERS_CUT_VALLEY	0.5	/* or this much, in a deep valley */
#define TIERS_CUT_APART		1.1	/* capacities this far apart */
#define TIERS_MIN_RATIO		1.5	/* latency ratio between places */
#define TIERS_INIT_ITER		20	/* an overlapping class's first EM */
#define TIERS_MIN_SIGMA		0.01	/* ln units: its least sd */
#define TIERS_EM_FLOOR		1e-4	/* least share the law gives a class */
#define TIERS_EM_ITER		300
#define TIERS_EM_TOL		1e-8	/* relative change of loglik */
#define TIERS_EM_CHECK		4	/* rounds between looks at it */
#define TIERS_CAP_STEP		1.25	/* a round moves a capacity this far */
#define TIERS_CAP_ITER		12	/* golden-section steps of a round */
#define TIERS_SYS_SD		0.01	/* floor on a hit fraction's sd */
#define TIERS_MAX_RCHI2		9.0	/* misfit allowed, chi2 / dof */
#define TIERS_ALPHA_TOL		0.15	/* (C / S)^alpha: alpha 1 +- this, */
#define TIERS_ALPHA_Z		3.5	/* or within this many se */
#define TIERS_MIN_EVIDENCE	25.0	/* chi2 gained over a constant */
#define TIERS_NO_MISS		0.98	/* F above this: all reads hit */
#define TIERS_CP_FLOOR		0.05	/* sd of a point's mean ln latency */
#define TIERS_CP_REACH		4.0	/* a shift is due within [C, 4C] */
#define TIERS_CP_PENALTY	2.0	/* times BIC: a split of pure noise
					   over ~20 points stays rare */
#define TIERS_MIN_POINTS	3
#define TIERS_ENOUGH_MIN_IOS	200	/* per-point rule: never fewer */
#define TIERS_ENOUGH_SHARE	0.1	/* classes with a share this large */
#define TIERS_ENOUGH_MIX_IOS	613	/* two or more of them: a share's move
					   of TIERS_MOVES between two points
					   shows at TIERS_RISE_Z sd, 0.5
					   (TIERS_RISE_Z / TIERS_MOVES)^2 */
#define TIERS_NEAR		0.03	/* ws this close count as measured */
#define TIERS_BOOT_REPS		16	/* bootstrap replicates */
#define TIERS_BOOT_ITER		20	/* EM rounds of a replicate */
#define TIERS_BOOT_SEED		0x7469657273ULL	/* fixed: pure function */
#define TIERS_HARD		0.3	/* a valley this deep (of the lower of
					   its peaks) parts classes */
#define TIERS_MOVES		0.1	/* a share off by this moves apart, */
#define TIERS_APART_POINTS	3	/* at this many points */
#define TIERS_RISE_Z		3.5	/* a share rising by this many sd */
#define TIERS_TOGETHER		0.3	/* or within 30% of it: one place */
#define TIERS_TAIL_TOP		0.8	/* a slow tail holds this of its most at
					   the largest ws */
#define TIERS_GROWS		0.1	/* grows from this of its largest */
#define TIERS_BOTH_POINTS	2	/* two classes sharing fewer points take
					   turns: one place */
#define TIERS_TEST_POINTS	2	/* points where a share changes, to
					   test the law on */
#define TIERS_SEEN_POINTS	2	/* a class seen at fewer points may
					   hide another: no cut searched */
#define TIERS_CLIMB		1.5	/* the store's p50 climbs this much */
#define TIERS_CLIMB_STEPS	2	/* in this many steps, */
#define TIERS_CLIMB_Z		2.0	/* each rising this many sd */
#define TIERS_AGAIN_WHOLE	0.1	/* a group's share of a point's reads
					   worth measuring again */
#define TIERS_TAIL_OUT		4.0	/* a store's reads past its tier's
					   slow tail: this many times it */
#define TIERS_ASIDE		0.15	/* a point's reads slower than a
					   larger working set's by this */
#define TIERS_ASIDE_Z		4.0	/* and this many sd, */
#define TIERS_ASIDE_AT		2	/* at this many larger ones */
#define TIERS_MAX_ASIDE		4	/* points set aside at most */
#define TIERS_DRIFT_RATIO	2.0	/* a disk drifts by less during a
					   scan; real caches differ more */
#define TIERS_DRIFT_SAID	1.2	/* a p50 moving this much, said */

/* Per-point bins: count of each nonzero bin. */
struct tiers_pt {
	const struct point	*p;
	size_t			 off;	/* into tiers_work.pb / pc */
	size_t			 nb;
	double			 n;	/* reads */
	double			 s;	/* ws, bytes */
};

/* A cut between two classes: the first pooled bin of the slower one. */
struct tiers_cut {
	size_t		 j;
	double		 c;		/* capacity (bytes) of the law's fit */
	double		 gain;		/* chi2 gained over a constant */
	double		 chi2;		/* chi2 / dof of the law's fit */
	double		 top;		/* a and b of F = b + (a - b) law */
	double		 floor;
	double		 dens;		/* smoothed pooled density there */
	int		 soft;		/* no valley: the classes overlap */
};

/*
 * A working set measured again after the scan passed it: the point after
 * another of the same ws.  The tiers are fitted without it (its caches
 * were warmed again from the start, not left as a growing scan leaves
 * them); its class shares, the shapes held, tell a place whose latency
 * drifted with the clock.
 */
struct tiers_ag {
	const struct point *p;
	size_t		 orig;		/* its first measurement, in pt */
	double		 n;		/* reads */
	size_t		 nb;
	size_t		*pb;		/* its bins: pooled bin, */
	double		*pc;		/* reads */
	double		 pi[TIERS_MAX_MODES];	/* class shares */
};

/* A boundary whose slower classes serve its cache's hits (step 3). */
struct tiers_speed {
	int		 seen;		/* 1 one cache; 2 no point where a
					   cache behind would show, 3 no such
					   size; 0 not so */
	double		 share;		/* the slower reads' share below it */
	double		 lo;		/* where a cache behind would show */
	double		 hi;
};

struct tiers_work {
	size_t		 np;
	struct tiers_pt	*pt;		/* ascending ws */
	size_t		 nb;		/* nonzero pooled bins */
	double		*x;		/* ln(ns) of each, ascending */
	double		*w;		/* pooled counts */
	int		*gbin;		/* global bin of each */
	double		*dens;		/* smoothed density of the points'
					   histograms, each summing to 1 */
	double		*cum;		/* [p * (nb + 1) + j]: reads of point
					   p in bins [0, j) */
	size_t		*pb;		/* per-point bin: index into x */
	double		*pc;		/* per-point bin: count */
	size_t		 k;		/* classes */
	struct tiers_cut cut[TIERS_MAX_MODES - 1];	/* ascending j */
	double		 cap[TIERS_MAX_MODES - 1];	/* law's capacities */
	struct fit_gmm	 g[TIERS_MAX_MODES];	/* overlapping classes'
						   lognormals, ln ns */
	double		*f;		/* [m * nb + j] class shapes */
	double		*pw;		/* [p * k + m] point shares */
	double		*s;		/* ws / max ws of each point */
	double		*bvar;		/* [i * np + p] variance of point
					   p's fraction in classes [0, i] */
	double		*modew;		/* [m * nb + j] counts per class */
	double		 boot_sd[TIERS_MAX_MODES];	/* bootstrap sd of ln
					   p50 of classes [m, k) past the
					   capacity before m; NAN: none */
	struct tiers_speed speed[TIERS_MAX_MODES - 1];	/* per boundary */
	struct tiers_ag	*ag;		/* points measured again */
	size_t		 nag;
};

static int
tiers_cmp_pt(const void *a, const void *b)
{
	const struct tiers_pt	*pa = a, *pb = b;

	if (pa->p->ws_bytes != pb->p->ws_bytes)
		return (pa->p->ws_bytes < pb->p->ws_bytes ? -1 : 1);
	return ((pa->p > pb->p) - (pa->p < pb->p));
}

static int
tiers_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

static int
tiers_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return ((x > y) - (x < y));
}

/* ln of a bucket's value in ns (at least 1 ns). */
static double
tiers_bucket_ln(size_t b)
{
	return (log(fmax(hist_bucket_value(b), 1)));
}

/* The bin (TIERS_BIN wide in ln ns) of each histogram bucket, ascending. */
static int *
tiers_bins(void)
{
	int	*bin;
	size_t	 b;

	bin = xcalloc(HIST_BUCKETS, sizeof *bin);
	for (b = 0; b < HIST_BUCKETS; b++)
		bin[b] = (int)(tiers_bucket_ln(b) / TIERS_BIN);
	return (bin);
}

/* The share min(1, c / s) caches of c serve; c 0: none, INFINITY: all. */
static double
tiers_law(double c, double s)
{
	if (c <= 0)
		return (0);
	if (isinf(c))
		return (1);
	return (fmin(1, c / s));
}

/* Reads of point p in pooled bins [0, j). */
static double
tiers_cum(const struct tiers_work *wk, size_t p, size_t j)
{
	return (wk->cum[p * (wk->nb + 1) + j]);
}

/*
 * Gather the usable points and their reads, pooled and per point, in bins
 * of TIERS_BIN in ln(ns): finer than any place's latency spread, and
 * coarser than the histogram, whose buckets are 0.4% wide, so EM has fewer
 * values to visit.
 */
static int
tiers_gather(const struct point *pts, size_t n, struct tiers_work *wk)
{
	double		*pool, *sx, *dens;
	size_t		*map, nbin, i, b, j, total = 0, at;
	int		*bin, last;
	const struct hist *h;

	wk->pt = xcalloc(n + 1, sizeof *wk->pt);
	for (i = 0; i < n; i++) {
		if (pts[i].hist == NULL || pts[i].hist->count == 0 ||
		    pts[i].ws_bytes == 0)
			continue;
		wk->pt[wk->np].s = (double)pts[i].ws_bytes;
		wk->pt[wk->np++].p = &pts[i];
	}
	if (wk->np == 0)
		return (-1);
	qsort(wk->pt, wk->np, sizeof *wk->pt, tiers_cmp_pt);
	/* A ws measured again, after its first: kept apart. */
	for (i = 0, j = 0; i < wk->np; i++) {
		if (j > 0 && wk->pt[i].p->ws_bytes ==
		    wk->pt[j - 1].p->ws_bytes) {
			wk->ag = xreallocarray(wk->ag, wk->nag + 1,
			    sizeof *wk->ag);
			memset(&wk->ag[wk->nag], 0, sizeof *wk->ag);
			wk->ag[wk->nag].p = wk->pt[i].p;
			wk->ag[wk->nag++].orig = j - 1;
			continue;
		}
		wk->pt[j++] = wk->pt[i];
	}
	wk->np = j;

	bin = tiers_bins();
	nbin = (size_t)bin[HIST_BUCKETS - 1] + 1;
	pool = xcalloc(nbin, sizeof *pool);
	sx = xcalloc(nbin, sizeof *sx);
	dens = xcalloc(nbin, sizeof *dens);
	for (i = 0; i < wk->np; i++) {
		h = wk->pt[i].p->hist;
		last = -1;
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (h->bucket[b] == 0)
				continue;
			pool[bin[b]] += h->bucket[b];
			sx[bin[b]] += h->bucket[b] * tiers_bucket_ln(b);
			dens[bin[b]] += h->bucket[b] / (double)h->count;
			if (bin[b] != last)
				wk->pt[i].nb++, total++;
			last = bin[b];
		}
	}
	map = xcalloc(nbin, sizeof *map);
	wk->x = xcalloc(nbin, sizeof *wk->x);
	wk->w = xcalloc(nbin, sizeof *wk->w);
	wk->gbin = xcalloc(nbin, sizeof *wk->gbin);
	wk->dens = xcalloc(nbin, sizeof *wk->dens);
	for (b = 0; b < nbin; b++) {
		if (pool[b] == 0)
			continue;
		map[b] = wk->nb;
		wk->x[wk->nb] = sx[b] / pool[b];
		wk->gbin[wk->nb] = (int)b;
		wk->w[wk->nb++] = pool[b];
	}
	/* Smoothed: a bin's density sums the bins within TIERS_SMOOTH. */
	for (j = 0; j < wk->nb; j++)
		for (b = 0; b < wk->nb; b++)
			if (fabs(wk->x[b] - wk->x[j]) <= TIERS_SMOOTH)
				wk->dens[j] += dens[wk->gbin[b]];
	wk->pb = xcalloc(total + 1, sizeof *wk->pb);
	wk->pc = xcalloc(total + 1, sizeof *wk->pc);
	wk->cum = xcalloc(wk->np * (wk->nb + 1), sizeof *wk->cum);
	for (i = 0, at = 0; i < wk->np; i++) {
		h = wk->pt[i].p->hist;
		wk->pt[i].off = at;
		last = -1;
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (h->bucket[b] == 0)
				continue;
			if (bin[b] != last) {
				wk->pb[at++] = map[bin[b]];
				last = bin[b];
			}
			wk->pc[at - 1] += h->bucket[b];
			wk->pt[i].n += h->bucket[b];
		}
		for (j = 0; j < wk->pt[i].nb; j++)
			wk->cum[i * (wk->nb + 1) + wk->pb[wk->pt[i].off + j] +
			    1] = wk->pc[wk->pt[i].off + j];
		for (j = 0; j < wk->nb; j++)
			wk->cum[i * (wk->nb + 1) + j + 1] +=
			    wk->cum[i * (wk->nb + 1) + j];
	}
	free(map);
	free(dens);
	free(sx);
	free(pool);
	free(bin);
	return (0);
}

static void
tiers_work_free(struct tiers_work *wk)
{
	size_t	i;

	for (i = 0; i < wk->nag; i++) {
		free(wk->ag[i].pb);
		free(wk->ag[i].pc);
	}
	free(wk->ag);
	free(wk->pt);
	free(wk->x);
	free(wk->w);
	free(wk->gbin);
	free(wk->dens);
	free(wk->cum);
	free(wk->pb);
	free(wk->pc);
	free(wk->f);
	free(wk->pw);
	free(wk->s);
	free(wk->bvar);
	free(wk->modew);
}

/*
 * The x (ln ns) where weights w over ascending x reach q of their sum, each
 * bin's weight spread over the half bins either side of its x.
 */
static double
tiers_quantile(const double *x, const double *w, size_t n, double q)
{
	double	total = 0, acc = 0, lo, hi;
	size_t	i;

	for (i = 0; i < n; i++)
		total += w[i];
	if (!(total > 0))
		return (NAN);
	for (i = 0; i < n; i++) {
		if (acc + w[i] >= q * total && w[i] > 0) {
			lo = x[i] - TIERS_BIN / 2;
			hi = x[i] + TIERS_BIN / 2;
			return (lo + (hi - lo) * (q * total - acc) / w[i]);
		}
		acc += w[i];
	}
	return (x[n - 1]);
}

/*
 * Fit the law conditional on the range [lo, hi) of pooled bins, between
 * caches of clo and chi (0 and INFINITY at the ends), to the points'
 * fractions of the range's reads in bins [lo, j): F = b + (a - b) L, L the
 * share of caches of C among the range's reads.  Fills *cut with the best C
 * on a log grid; returns -1 when too few points see the range or no C
 * makes a law of it.
 */
static int
tiers_cut_fit(const struct tiers_work *wk, size_t lo, size_t hi, double clo,
    double chi, size_t j, struct tiers_cut *cut)
{
	double	 f[64], v[64], s[64], l[64], *fp = f, *vp = v, *sp = s, *lp = l;
	double	 nn, den, sw = 0, sf = 0, c0 = 0, mean, smin, smax, c, ft;
	double	 swl, swf, swll, swlf, d, b, chi2, best = INFINITY, m1 = 0;
	double	 m2 = 0, cmin, cmax;
	size_t	 p, g, np = 0;

	if (wk->np > 64) {
		fp = xcalloc(4 * wk->np, sizeof *fp);
		vp = fp + wk->np;
		sp = vp + wk->np;
		lp = sp + wk->np;
	}
	for (p = 0; p < wk->np; p++) {
		m1 = fmax(m1, (tiers_cum(wk, p, j) - tiers_cum(wk, p, lo)) /
		    wk->pt[p].n);
		m2 = fmax(m2, (tiers_cum(wk, p, hi) - tiers_cum(wk, p, j)) /
		    wk->pt[p].n);
		nn = tiers_cum(wk, p, hi) - tiers_cum(wk, p, lo);
		den = tiers_law(chi, wk->pt[p].s) - tiers_law(clo, wk->pt[p].s);
		if (nn < TIERS_CUT_MIN_READS || den < 0.02)
			continue;
		fp[np] = (tiers_cum(wk, p, j) - tiers_cum(wk, p, lo)) / nn;
		ft = fmin(fmax(fp[np], 0.5 / nn), 1 - 0.5 / nn);
		vp[np] = ft * (1 - ft) / nn + TIERS_SYS_SD * TIERS_SYS_SD;
		sp[np++] = wk->pt[p].s;
	}
	cut->gain = -INFINITY;
	if (np < TIERS_SEEN_POINTS || m1 < TIERS_CUT_SHARE ||
	    m2 < TIERS_CUT_SHARE)
		goto out;
	for (p = 0; p < np; p++) {
		sw += 1 / vp[p];
		sf += fp[p] / vp[p];
	}
	mean = sf / sw;
	for (p = 0; p < np; p++)
		c0 += (fp[p] - mean) * (fp[p] - mean) / vp[p];
	smin = sp[0];
	smax = sp[np - 1];
	cmin = fmax(clo * TIERS_CUT_APART, smin / 1.25);
	cmax = fmin(chi / TIERS_CUT_APART, smax);
	if (!(cmin < cmax))
		goto out;
	for (g = 0; g < TIERS_CUT_GRID; g++) {
		c = cmin * pow(cmax / cmin, g / (TIERS_CUT_GRID - 1.0));
		swl = swf = swll = swlf = 0;
		for (p = 0; p < np; p++) {
			lp[p] = (tiers_law(c, sp[p]) - tiers_law(clo, sp[p])) /
			    (tiers_law(chi, sp[p]) - tiers_law(clo, sp[p]));
			swl += lp[p] / vp[p];
			swf += fp[p] / vp[p];
			swll += lp[p] * lp[p] / vp[p];
			swlf += lp[p] * fp[p] / vp[p];
		}
		den = sw * swll - swl * swl;
		if (np < TIERS_CUT_FREE) {
			b = 0;
			d = 1;
		} else {
			if (!(den > 0))
				continue;
			d = (sw * swlf - swl * swf) / den;
			b = (swf - d * swl) / sw;
			if (b < 0) {
				b = 0;
				d = swlf / swll;
			}
		}
		if (d <= 0)
			continue;
		for (chi2 = 0, p = 0; p < np; p++)
			chi2 += (fp[p] - b - d * lp[p]) *
			    (fp[p] - b - d * lp[p]) / vp[p];
		if (chi2 < best) {
			best = chi2;
			cut->c = c;
			cut->top = b + d;
			cut->floor = b;
		}
	}
	if (isfinite(best)) {
		cut->j = j;
		cut->chi2 = best / (np < TIERS_CUT_FREE ? np - 1 : np - 3);
		cut->gain = c0 - best;
	}
out:
	if (fp != f)
		free(fp);
	return (isfinite(cut->gain) ? 0 : -1);
}

/* Whether a cut makes two places: see the model, step 1. */
static int
tiers_cut_ok(const struct tiers_work *wk, size_t lo, size_t hi,
    const struct tiers_cut *cut)
{
	double	m1, m2;

	if (!(cut->gain >= TIERS_MIN_EVIDENCE) ||
	    cut->gain < 3 * cut->chi2 || cut->chi2 > TIERS_CUT_RCHI2 ||
	    cut->top - cut->floor < TIERS_CUT_SPLIT || cut->top > 1.02)
		return (0);
	m1 = tiers_quantile(wk->x + lo, wk->w + lo, cut->j - lo, 0.5);
	m2 = tiers_quantile(wk->x + cut->j, wk->w + cut->j, hi - cut->j, 0.5);
	return (m2 - m1 >= log(TIERS_MIN_RATIO));
}

/* How good a cut is: its gain, less where its law fits worse than noise. */
static double
tiers_cut_score(const struct tiers_cut *cut)
{
	return (cut->gain / fmax(1, cut->chi2));
}

/*
 * The best cut of the range [lo, hi) between caches of clo and chi, tried
 * every TIERS_CUT_STEP: of the cuts scoring TIERS_CUT_NEAR of the most, or
 * TIERS_CUT_VALLEY of it in a deep valley (the pooled density below
 * TIERS_HARD of the lower peak either side, within the range), the one
 * where the pooled density is lowest.  A cut through a class's spike may
 * fit better by chance (which side its flank falls on, point to point)
 * but parts the classes less well than the valley.  Returns 0, or -1 if
 * none.
 */
static int
tiers_range_cut(const struct tiers_work *wk, size_t lo, size_t hi,
    double clo, double chi, struct tiers_cut *best)
{
	struct tiers_cut	*c;
	size_t			 j, n = 0, i;
	double			 last = -INFINITY, most = -INFINITY, *below;
	double			*above, sc;
	int			*hard;

	c = xcalloc(hi - lo + 1, sizeof *c);
	hard = xcalloc(hi - lo + 1, sizeof *hard);
	below = xcalloc(2 * (hi - lo + 1), sizeof *below);
	above = below + hi - lo + 1;
	for (j = lo; j < hi; j++)
		below[j - lo + 1] = fmax(below[j - lo], wk->dens[j]);
	for (j = hi; j > lo; j--)
		above[j - lo - 1] = fmax(above[j - lo], wk->dens[j - 1]);
	for (j = lo + 1; j < hi; j++) {
		if (wk->x[j] - last < TIERS_CUT_STEP)
			continue;
		last = wk->x[j];
		if (tiers_cut_fit(wk, lo, hi, clo, chi, j, &c[n]) != 0)
			continue;
		if (!tiers_cut_ok(wk, lo, hi, &c[n]))
			continue;
		c[n].dens = fmin(wk->dens[j - 1], wk->dens[j]);
		if (wk->x[j] - wk->x[j - 1] > 1.5 * TIERS_BIN)
			c[n].dens = 0;	/* empty bins between */
		hard[n] = c[n].dens <= TIERS_HARD * fmin(below[j - lo],
		    above[j - lo]);
		most = fmax(most, tiers_cut_score(&c[n]));
		n++;
	}
	for (i = 0; i < n; i++) {
		sc = tiers_cut_score(&c[i]);
		if (sc < TIERS_CUT_NEAR * most &&
		    (!hard[i] || sc < TIERS_CUT_VALLEY * most))
			continue;
		if (!isfinite(best->gain) || c[i].dens < best->dens)
			*best = c[i];
	}
	free(below);
	free(hard);
	free(c);
	return (n > 0 ? 0 : -1);
}

/*
 * Step 1: cut the pooled bins into classes, greedily, best cut first; each
 * range between cuts is searched once, when it appears.
 */
static void
tiers_cuts(struct tiers_work *wk)
{
	struct tiers_cut	 cand[TIERS_MAX_MODES];
	int			 have[TIERS_MAX_MODES];	/* 1 found, -1 none,
							   0 not searched */
	size_t			 i, pick;

	memset(have, 0, sizeof have);
	wk->k = 1;
	while (wk->k < TIERS_MAX_MODES) {
		for (i = 0; i < wk->k; i++) {
			if (have[i] != 0)
				continue;
			cand[i].gain = -INFINITY;
			have[i] = tiers_range_cut(wk,
			    i == 0 ? 0 : wk->cut[i - 1].j,
			    i + 1 == wk->k ? wk->nb : wk->cut[i].j,
			    i == 0 ? 0 : wk->cut[i - 1].c,
			    i + 1 == wk->k ? INFINITY : wk->cut[i].c,
			    &cand[i]) == 0 ? 1 : -1;
		}
		for (pick = wk->k, i = 0; i < wk->k; i++)
			if (have[i] == 1 && (pick == wk->k ||
			    tiers_cut_score(&cand[i]) >
			    tiers_cut_score(&cand[pick])))
				pick = i;
		if (pick == wk->k)
			break;
		/* Range pick becomes ranges pick and pick + 1. */
		memmove(&wk->cut[pick + 1], &wk->cut[pick],
		    (wk->k - 1 - pick) * sizeof *wk->cut);
		wk->cut[pick] = cand[pick];
		memmove(&cand[pick + 2], &cand[pick + 1],
		    (wk->k - 1 - pick) * sizeof *cand);
		memmove(&have[pick + 2], &have[pick + 1],
		    (wk->k - 1 - pick) * sizeof *have);
		have[pick] = have[pick + 1] = 0;
		wk->k++;
	}
	for (i = 0; i + 1 < wk->k; i++)
		wk->cap[i] = wk->cut[i].c;
}

/* The pooled bins [lo, hi) of class m. */
static void
tiers_range(const struct tiers_work *wk, size_t m, size_t *lo, size_t *hi)
{
	*lo = m == 0 ? 0 : wk->cut[m - 1].j;
	*hi = m + 1 == wk->k ? wk->nb : wk->cut[m].j;
}

/*
 * Whether class m overlaps a neighbour: a cut next to it where the pooled
 * histogram has no valley.  Such a class has a parametric shape.
 */
static int
tiers_soft(const struct tiers_work *wk, size_t m)
{
	return ((m > 0 && wk->cut[m - 1].soft) ||
	    (m + 1 < wk->k && wk->cut[m].soft));
}

/* The pooled bins [lo, hi) class m may hold reads in. */
static void
tiers_reach(const struct tiers_work *wk, size_t m, size_t *lo, size_t *hi)
{
	tiers_range(wk, m, lo, hi);
	if (m > 0 && wk->cut[m - 1].soft)
		*lo = 0;
	if (m + 1 < wk->k && wk->cut[m].soft)
		*hi = wk->nb;
}

/*
 * Class m's shape f over the pooled bins from its reads n there (its
 * responsibilities; NULL at the start): where valleys set the class
 * apart, its reads as they are, in its range; where it overlaps a
 * neighbour, its lognormal g (one EM round on n), whose tail carries over
 * the soft cut.
 */
static void
tiers_shape(const struct tiers_work *wk, size_t m, struct fit_gmm *g,
    const double *n, double *f)
{
	struct fit_gmm	was;
	size_t		lo, hi, j, c;
	double		sum = 0, z;

	tiers_reach(wk, m, &lo, &hi);
	memset(f, 0, wk->nb * sizeof *f);
	if (!tiers_soft(wk, m)) {
		for (j = lo; j < hi; j++)
			sum += n[j];
		for (j = lo; j < hi && sum > 0; j++)
			f[j] = n[j] / sum;
		return;
	}
	was = *g;
	if (n != NULL && fit_gmm_refine(wk->x, n, wk->nb, TIERS_MIN_SIGMA, 1,
	    g) != 0)
		*g = was;
	for (j = lo; j < hi; j++) {
		for (c = 0; c < g->k; c++) {
			z = (wk->x[j] - g->mu[c]) / g->sigma[c];
			if (fabs(z) < 8)
				f[j] += g->weight[c] * exp(-0.5 * z * z) /
				    g->sigma[c];
		}
		sum += f[j];
	}
	for (j = lo; j < hi && sum > 0; j++)
		f[j] /= sum;
}

/* A class's starting lognormal g from its range's reads (n bins x, w). */
static void
tiers_mix_init(const double *x, const double *w, size_t n, struct fit_gmm *g)
{
	struct fit_gmm	was;

	fit_gmm_start(x, w, n, 1, TIERS_MIN_SIGMA, g);
	was = *g;
	if (fit_gmm_refine(x, w, n, TIERS_MIN_SIGMA, TIERS_INIT_ITER, g) != 0)
		*g = was;
}

/*
 * Starting shapes.  A cut is soft where the classes on either side overlap
 * (the pooled density there is above TIERS_HARD of the lower of their
 * peaks); then both start as lognormals fitted to their range's reads.
 * Any other class starts as its range's reads.
 */
static void
tiers_shapes_init(struct tiers_work *wk)
{
	double	*n, peak[TIERS_MAX_MODES];
	size_t	 m, j, lo, hi;

	for (m = 0; m < wk->k; m++) {
		tiers_range(wk, m, &lo, &hi);
		for (peak[m] = 0, j = lo; j < hi; j++)
			peak[m] = fmax(peak[m], wk->dens[j]);
	}
	for (m = 0; m + 1 < wk->k; m++)
		wk->cut[m].soft = wk->cut[m].dens >
		    TIERS_HARD * fmin(peak[m], peak[m + 1]);
	wk->f = xcalloc(wk->k * wk->nb, sizeof *wk->f);
	n = xcalloc(wk->nb, sizeof *n);
	for (m = 0; m < wk->k; m++) {
		tiers_range(wk, m, &lo, &hi);
		memset(n, 0, wk->nb * sizeof *n);
		memcpy(n + lo, wk->w + lo, (hi - lo) * sizeof *n);
		if (tiers_soft(wk, m))
			tiers_mix_init(wk->x + lo, wk->w + lo, hi - lo,
			    &wk->g[m]);
		tiers_shape(wk, m, &wk->g[m], tiers_soft(wk, m) ? NULL : n,
		    wk->f + m * wk->nb);
	}
	free(n);
}

/* The law's shares of k classes at ws s, each at least TIERS_EM_FLOOR. */
static void
tiers_law_shares(const double *cap, size_t k, double s, double *pi)
{
	double	l, prev = 0, sum = 0;
	size_t	m;

	for (m = 0; m < k; m++) {
		l = m + 1 == k ? 1 : tiers_law(cap[m], s);
		pi[m] = fmax(l - prev, TIERS_EM_FLOOR);
		prev = fmax(prev, l);
		sum += pi[m];
	}
	for (m = 0; m < k; m++)
		pi[m] /= sum;
}

/*
 * The part of the expected log-likelihood of the classes' reads nk that
 * capacity i moves, at c: the shares of classes i and i + 1.
 */
static double
tiers_law_q(const struct tiers_work *wk, const double *cap, size_t i,
    double c, const double *nk)
{
	double	lp, li, ln, q = 0;
	size_t	p, k = wk->k;

	for (p = 0; p < wk->np; p++) {
		lp = i == 0 ? 0 : tiers_law(cap[i - 1], wk->pt[p].s);
		li = tiers_law(c, wk->pt[p].s);
		ln = i + 2 < k ? tiers_law(cap[i + 1], wk->pt[p].s) : 1;
		q += nk[p * k + i] * log(fmax(li - lp, TIERS_EM_FLOOR)) +
		    nk[p * k + i + 1] * log(fmax(ln - li, TIERS_EM_FLOOR));
	}
	return (q);
}

/*
 * Capacity i maximising tiers_law_q within TIERS_CAP_STEP of where it is
 * (golden section); EM rounds take it further when the optimum lies beyond.
 */
static void
tiers_law_cap(const struct tiers_work *wk, double *cap, size_t i,
    const double *nk)
{
	const double	 g = (sqrt(5) - 1) / 2;
	double		 lo, hi, x1, x2, f1, f2;
	int		 it;

	lo = log(fmax(cap[i] / TIERS_CAP_STEP, i == 0 ? 0 :
	    cap[i - 1] * 1.001));
	hi = log(i + 2 < wk->k ? fmin(cap[i] * TIERS_CAP_STEP,
	    cap[i + 1] / 1.001) : cap[i] * TIERS_CAP_STEP);
	if (!(lo < hi))
		return;
	x1 = hi - g * (hi - lo);
	x2 = lo + g * (hi - lo);
	f1 = tiers_law_q(wk, cap, i, exp(x1), nk);
	f2 = tiers_law_q(wk, cap, i, exp(x2), nk);
	for (it = 0; it < TIERS_CAP_ITER; it++) {
		if (f1 > f2) {
			hi = x2;
			x2 = x1;
			f2 = f1;
			x1 = hi - g * (hi - lo);
			f1 = tiers_law_q(wk, cap, i, exp(x1), nk);
		} else {
			lo = x1;
			x1 = x2;
			f1 = f2;
			x2 = lo + g * (hi - lo);
			f2 = tiers_law_q(wk, cap, i, exp(x2), nk);
		}
	}
	cap[i] = exp((lo + hi) / 2);
}

/*
 * Step 2, first half: EM of the classes' mixtures g (shapes f) and the
 * capacities cap together, each point's shares following the law, on the
 * per-point counts pc, for at most max_iter rounds.
 */
static void
tiers_law_em(const struct tiers_work *wk, const double *pc, double *cap,
    struct fit_gmm *g, double *f, int max_iter)
{
	const struct tiers_pt	*pt;
	double			*nf, *nk, pi[TIERS_MAX_MODES], r, m, c;
	double			 ll, prev = -INFINITY;
	size_t			 p, q, j, i, k = wk->k, nb = wk->nb;
	int			 it;

	if (k == 1)
		return;
	nf = xcalloc(k * nb, sizeof *nf);
	nk = xcalloc(wk->np * k, sizeof *nk);
	for (it = 0; it < max_iter; it++) {
		memset(nf, 0, k * nb * sizeof *nf);
		memset(nk, 0, wk->np * k * sizeof *nk);
		ll = 0;
		for (p = 0; p < wk->np; p++) {
			pt = &wk->pt[p];
			tiers_law_shares(cap, k, pt->s, pi);
			for (q = pt->off; q < pt->off + pt->nb; q++) {
				if ((c = pc[q]) == 0)
					continue;
				j = wk->pb[q];
				for (m = 0, i = 0; i < k; i++)
					m += pi[i] * f[i * nb + j];
				if (!(m > 0))
					continue;
				if (it % TIERS_EM_CHECK == 0)
					ll += c * log(m);
				for (i = 0; i < k; i++) {
					r = c * pi[i] * f[i * nb + j] / m;
					nk[p * k + i] += r;
					nf[i * nb + j] += r;
				}
			}
		}
		for (i = 0; i < k; i++)
			tiers_shape(wk, i, &g[i], nf + i * nb, f + i * nb);
		for (i = 0; i + 1 < k; i++)
			tiers_law_cap(wk, cap, i, nk);
		if (it % TIERS_EM_CHECK != 0)
			continue;
		if (fabs(ll - prev) <= TIERS_EM_TOL * fabs(ll))
			break;
		prev = ll;
	}
	free(nk);
	free(nf);
}

/*
 * A point's shares pi of k classes with shapes f (class m's mass at bin
 * bin[q] is f[m * stride + bin[q]]), by EM on the shares alone from the
 * pi given, over n bins with counts c, until no share moves by tol.
 */
static void
tiers_shares(const double *f, size_t stride, size_t k, const size_t *bin,
    const double *c, size_t n, double tol, double *pi)
{
	double	nw[TIERS_MAX_MODES], total = 0, m, d;
	size_t	q, i;
	int	it;

	for (q = 0; q < n; q++)
		total += c[q];
	for (it = 0; it < 500 && total > 0 && k > 1; it++) {
		memset(nw, 0, sizeof nw);
		for (q = 0; q < n; q++) {
			for (m = 0, i = 0; i < k; i++)
				m += pi[i] * f[i * stride + bin[q]];
			if (!(m > 0))
				continue;
			for (i = 0; i < k; i++)
				nw[i] += c[q] * pi[i] * f[i * stride + bin[q]] /
				    m;
		}
		for (m = 0, i = 0; i < k; i++)
			m += nw[i];
		if (!(m > 0))
			break;
		for (d = 0, i = 0; i < k; i++) {
			nw[i] /= m;
			d = fmax(d, fabs(nw[i] - pi[i]));
			pi[i] = nw[i];
		}
		if (d < tol)
			break;
	}
}

/* Every point's shares with the shapes held, from the law's (into pw). */
static void
tiers_point_shares(const struct tiers_work *wk, const double *pc,
    const double *cap, const double *f, double *pw)
{
	const struct tiers_pt	*pt;
	size_t			 p;

	for (p = 0; p < wk->np; p++) {
		pt = &wk->pt[p];
		tiers_law_shares(cap, wk->k, pt->s, pw + p * wk->k);
		tiers_shares(f, wk->nb, wk->k, wk->pb + pt->off, pc + pt->off,
		    pt->nb, 1e-7, pw + p * wk->k);
	}
}

/* Steps 1 and 2: the classes, their shapes and every point's shares. */
static void
tiers_classes(struct tiers_work *wk, struct tiers_result *r)
{
	size_t	m;

	tiers_cuts(wk);
	for (;;) {
		tiers_shapes_init(wk);
		tiers_law_em(wk, wk->pc, wk->cap, wk->g, wk->f, TIERS_EM_ITER);
		/*
		 * Classes whose medians came out close are one place; a class
		 * between capacities close together is none.
		 */
		for (m = 0; m + 1 < wk->k; m++) {
			if (tiers_quantile(wk->x, wk->f + (m + 1) * wk->nb,
			    wk->nb, 0.5) - tiers_quantile(wk->x, wk->f +
			    m * wk->nb, wk->nb, 0.5) < log(TIERS_MIN_RATIO))
				break;
			if (m + 2 < wk->k && wk->cap[m + 1] <
			    TIERS_CUT_APART * wk->cap[m]) {
				m += wk->cut[m + 1].gain < wk->cut[m].gain;
				break;
			}
		}
		if (m + 1 >= wk->k)
			break;
		memmove(&wk->cut[m], &wk->cut[m + 1],
		    (wk->k - 2 - m) * sizeof *wk->cut);
		wk->k--;
		for (m = 0; m + 1 < wk->k; m++)
			wk->cap[m] = wk->cut[m].c;
		free(wk->f);
	}
	wk->pw = xcalloc(wk->np * wk->k, sizeof *wk->pw);
	tiers_point_shares(wk, wk->pc, wk->cap, wk->f, wk->pw);
	r->nmodes = wk->k;
	for (m = 0; m < wk->k; m++)
		r->mode[m].cut_us = m + 1 < wk->k ?
		    exp(wk->x[wk->cut[m].j]) / 1000 : INFINITY;
	r->shape_bin0 = wk->gbin[0];
	r->shape_nbins = (size_t)(wk->gbin[wk->nb - 1] - wk->gbin[0]) + 1;
	r->shape = xcalloc(wk->k * r->shape_nbins, sizeof *r->shape);
	for (m = 0; m < wk->k; m++) {
		size_t	j;

		for (j = 0; j < wk->nb; j++)
			r->shape[m * r->shape_nbins +
			    (size_t)(wk->gbin[j] - wk->gbin[0])] =
			    wk->f[m * wk->nb + j];
	}
}

/* Per point: class fractions and the pooled counts of each class. */
static void
tiers_fractions(struct tiers_work *wk, struct tiers_result *r)
{
	struct tiers_pt	*pt;
	double		*pi, mean, sd, s, m, c;
	size_t		 p, q, j, i, k = wk->k, nb = wk->nb;

	wk->modew = xcalloc(k * nb, sizeof *wk->modew);
	r->npoints = wk->np;
	r->point_ws = xcalloc(wk->np, sizeof *r->point_ws);
	r->point_ios = xcalloc(wk->np, sizeof *r->point_ios);
	r->point_mode_frac = xcalloc(wk->np * k, sizeof *r->point_mode_frac);
	r->point_mlog = xcalloc(wk->np, sizeof *r->point_mlog);
	for (p = 0; p < wk->np; p++) {
		pt = &wk->pt[p];
		pi = wk->pw + p * k;
		mean = 0;
		for (q = pt->off; q < pt->off + pt->nb; q++) {
			j = wk->pb[q];
			c = wk->pc[q];
			mean += wk->x[j] * c;
			for (m = 0, i = 0; i < k; i++)
				m += pi[i] * wk->f[i * nb + j];
			for (i = 0; i < k; i++)
				wk->modew[i * nb + j] += m > 0 ?
				    c * pi[i] * wk->f[i * nb + j] / m :
				    (i + 1 == k ? c : 0);
		}
		for (i = 0; i < k; i++)
			r->point_mode_frac[p * k + i] = pi[i];
		r->point_ws[p] = pt->p->ws_bytes;
		r->point_ios[p] = (uint64_t)pt->n;
		r->point_mlog[p] = mean / pt->n;
	}

	for (s = 0, j = 0; j < nb; j++)
		s += wk->w[j];
	for (i = 0; i < k; i++) {
		const double *mw = wk->modew + i * nb;
		double sw = 0, sx = 0, sxx = 0;

		for (j = 0; j < nb; j++) {
			sw += mw[j];
			sx += mw[j] * wk->x[j];
		}
		mean = sw > 0 ? sx / sw : NAN;
		for (j = 0; j < nb; j++)
			sxx += mw[j] * (wk->x[j] - mean) * (wk->x[j] - mean);
		sd = sw > 0 ? sqrt(sxx / sw) : NAN;
		r->mode[i].share = sw / s;
		r->mode[i].mu = mean;
		r->mode[i].sigma = sd;
		r->mode[i].lat_us_p50 =
		    exp(tiers_quantile(wk->x, mw, nb, 0.50)) / 1000;
		r->mode[i].lat_us_p99 =
		    exp(tiers_quantile(wk->x, mw, nb, 0.99)) / 1000;
		r->mode[i].tier = -1;
	}
}

/*
 * The class shares of the points measured again (wk->ag), the shapes
 * held, from their first measurement's: each bucket of their histogram
 * in the pooled bin nearest its own.
 */
static void
tiers_again_shares(struct tiers_work *wk, const struct tiers_result *r)
{
	struct tiers_ag	*g;
	const struct hist *h;
	size_t		 q, b, lo, hi, mid;
	int		*bin;

	bin = tiers_bins();
	for (q = 0; q < wk->nag; q++) {
		g = &wk->ag[q];
		h = g->p->hist;
		g->pb = xcalloc(wk->nb, sizeof *g->pb);
		g->pc = xcalloc(wk->nb, sizeof *g->pc);
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (h->bucket[b] == 0)
				continue;
			for (lo = 0, hi = wk->nb - 1; lo < hi; ) {
				mid = (lo + hi) / 2;
				if (wk->gbin[mid] < bin[b])
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo > 0 && bin[b] - wk->gbin[lo - 1] <
			    wk->gbin[lo] - bin[b])
				lo--;
			if (g->nb == 0 || g->pb[g->nb - 1] != lo)
				g->pb[g->nb++] = lo;
			g->pc[g->nb - 1] += h->bucket[b];
			g->n += h->bucket[b];
		}
		memcpy(g->pi, r->point_mode_frac + g->orig * r->nmodes,
		    r->nmodes * sizeof *g->pi);
		tiers_shares(wk->f, wk->nb, wk->k, g->pb, g->pc, g->nb, 1e-7,
		    g->pi);
	}
	free(bin);
}

/*
 * Observed Fisher information about fr, the fraction of reads in the
 * classes of the mask in, in n bins (counts c; bin[q] indexes the k shapes
 * f, stride apart), given the shapes of the two groups of classes: the
 * point's
 * shares w within each group, or the pooled ones w0 when a group is
 * (nearly) absent from the point.  It is n / (fr (1 - fr)) when the
 * groups do not overlap, less when they do.
 */
static double
tiers_frac_info(const double *f, size_t stride, size_t k, const double *w,
    const double *w0, unsigned in, double fr, const size_t *bin,
    const double *c, size_t n)
{
	double	wa = 0, wb = 0, fa, fb, mix, info = 0;
	size_t	q, j;

	for (j = 0; j < k; j++) {
		if (in & (1U << j))
			wa += w[j];
		else
			wb += w[j];
	}
	if (wa < 1e-3 || wb < 1e-3) {
		w = w0;
		for (wa = wb = 0, j = 0; j < k; j++) {
			if (in & (1U << j))
				wa += w[j];
			else
				wb += w[j];
		}
	}
	for (q = 0; q < n; q++) {
		fa = fb = 0;
		for (j = 0; j < k; j++) {
			if (in & (1U << j))
				fa += w[j] * f[j * stride + bin[q]] / wa;
			else
				fb += w[j] * f[j * stride + bin[q]] / wb;
		}
		mix = fr * fa + (1 - fr) * fb;
		if (mix > 0)
			info += c[q] * (fa - fb) * (fa - fb) / (mix * mix);
	}
	return (info);
}

/*
 * Variance of point p's fraction fr of reads in classes [0, i]: the
 * inverse of its Fisher information, and at least binomial.
 */
static double
tiers_frac_var(const struct tiers_work *wk, const struct tiers_result *r,
    size_t p, size_t i, double fr)
{
	const struct tiers_pt	*pt = &wk->pt[p];
	double			 w0[TIERS_MAX_MODES], info, ft;
	size_t			 m;

	for (m = 0; m < wk->k; m++)
		w0[m] = r->mode[m].share;
	info = tiers_frac_info(wk->f, wk->nb, wk->k, wk->pw + p * wk->k, w0,
	    (1U << (i + 1)) - 1, fr, wk->pb + pt->off, wk->pc + pt->off,
	    pt->nb);
	ft = fmin(fmax(fr, 0.5 / pt->n), 1 - 0.5 / pt->n);
	return (fmax(info > 0 ? 1 / info : INFINITY, ft * (1 - ft) / pt->n));
}

/*
 * Fit min(1, C / S) to the fractions f (variances var) of n points at ws s.
 * Of the reads the faster classes leave (1 - fp), the class holds a share;
 * when that share's plateau a is below 1, the share is divided by a and
 * the fit done again.  The plateau is its weighted mean over the points
 * between lo and the fitted C (below it by TIERS_CUT_APART), two at least.
 * Some hits of a real cache are slower than its class (a read preempted,
 * a daemon's reply late): the class then holds a of the reads the cache
 * serves at every ws, and points just below C would pull C down by that.
 */
static int
tiers_fit_plateau(const double *s, const double *f, const double *fp,
    const double *var, size_t n, double lo, struct fit_capacity *fc)
{
	double	*g, *v, sw = 0, swf = 0, a, rest, w;
	size_t	 p, in = 0;
	int	 rc;

	if (fit_capacity(s, f, var, n, fc) != 0)
		return (-1);
	for (p = 0; p < n; p++) {
		rest = 1 - fp[p];
		if (s[p] <= lo || s[p] * TIERS_CUT_APART > fc->c ||
		    rest < TIERS_CUT_SHARE)
			continue;
		w = rest * rest / var[p];
		sw += w;
		swf += w * (f[p] - fp[p]) / rest;
		in++;
	}
	if (in < 2 || !(swf < sw))
		return (0);
	a = swf / sw;
	g = xcalloc(2 * n, sizeof *g);
	v = g + n;
	for (p = 0; p < n; p++) {
		g[p] = fp[p] + (f[p] - fp[p]) / a;
		v[p] = var[p] / (a * a);
	}
	rc = fit_capacity(s, g, v, n, fc);
	free(g);
	return (rc);
}

/*
 * Fit min(1, C / S) to the fraction of reads in classes [0, i] and judge the
 * shape of the curve; the interval is judged later (tiers_judge), once the
 * bootstrap has had its say.  A candidate leaves with verdict TIERS_TIER.
 */
static void
tiers_boundary_fit(struct tiers_work *wk, const struct tiers_result *r,
    size_t i, struct tiers_boundary *bd)
{
	struct fit_capacity	 fc;
	double			*f, *fp, *var = wk->bvar + i * wk->np, smax;
	size_t			 p, m, nmiss = 0;

	memset(bd, 0, sizeof *bd);
	smax = (double)r->max_ws;
	f = xcalloc(2 * wk->np, sizeof *f);
	fp = f + wk->np;
	for (p = 0; p < wk->np; p++) {
		for (m = 0; m < i; m++)
			fp[p] += r->point_mode_frac[p * r->nmodes + m];
		f[p] = fp[p] + r->point_mode_frac[p * r->nmodes + i];
		var[p] = tiers_frac_var(wk, r, p, i, f[p]) +
		    TIERS_SYS_SD * TIERS_SYS_SD;
		if (f[p] < TIERS_NO_MISS)
			nmiss++;
	}
	if (nmiss == 0) {
		bd->verdict = TIERS_NO_MISSES;
		goto out;
	}
	if (tiers_fit_plateau(wk->s, f, fp, var, wk->np, i == 0 ? 0 :
	    r->boundary[i - 1].capacity_bytes / smax, &fc) != 0) {
		bd->verdict = TIERS_NO_FIT;
		goto out;
	}
	bd->capacity_bytes = fc.c * smax;
	bd->low_bytes = fc.low * smax;
	bd->high_bytes = fc.high * smax;
	bd->chi2 = fc.chi2;
	bd->chi2_const = fc.chi2_const;
	bd->rchi2 = fc.chi2 / fc.dof;
	bd->alpha = fc.alpha;
	bd->alpha_se = fc.alpha_se;
	if (bd->rchi2 > TIERS_MAX_RCHI2)
		bd->verdict = TIERS_MISFIT;
	else if (fc.chi2_const - fc.chi2 <
	    fmax(TIERS_MIN_EVIDENCE, 3 * fc.chi2))
		bd->verdict = TIERS_FLAT;
	else
		bd->verdict = TIERS_TIER;
out:
	free(f);
}

/* A Poisson deviate of the given mean (normal beyond 30). */
static double
tiers_poisson(struct rng *g, double mean)
{
	double	limit, prod = 1, k = -1;

	if (mean <= 0)
		return (0);
	if (mean > 30)
		return (fmax(0, round(mean + sqrt(mean) * rng_normal(g))));
	limit = exp(-mean);
	do {
		k++;
		prod *= rng_uniform(g);
	} while (prod > limit);
	return (k);
}

/*
 * Add the reads of point p in modes [first, last] (bin counts pc, shapes
 * f, the point's shares pi), each weighing 1 / the point's reads, to sum
 * (per pooled bin) and the squares of their weights to *sww (if not NULL).
 * Returns how many reads the modes hold.
 */
static double
tiers_group_add(const struct tiers_work *wk, size_t p, const double *pc,
    const double *f, const double *pi, size_t first, size_t last,
    double *sum, double *sww)
{
	const struct tiers_pt	*pt = &wk->pt[p];
	double			 total = 0, m, c;
	size_t			 i, b, q, k = wk->k, nb = wk->nb;

	for (q = pt->off; q < pt->off + pt->nb; q++) {
		b = wk->pb[q];
		for (m = 0, i = 0; i < k; i++)
			m += pi[i] * f[i * nb + b];
		for (i = first; i <= last && m > 0; i++) {
			c = pc[q] * pi[i] * f[i * nb + b] / m;
			sum[b] += c / pt->n;
			total += c;
			/* c reads of weight (c / pc) / n each */
			if (sww != NULL)
				*sww += c * c / pc[q] / (pt->n * pt->n);
		}
	}
	return (total);
}

/*
 * ln p50 of the reads of modes [first, last] at the points above lo, as
 * tiers_group_latency weighs them, from bin counts pc, shapes f and shares
 * pw; NAN when they hold fewer than TIERS_CUT_MIN_READS.  sum is nb
 * scratch.
 */
static double
tiers_group_x50(const struct tiers_work *wk, const double *pc,
    const double *f, const double *pw, size_t first, size_t last, double lo,
    double *sum)
{
	double	total = 0;
	size_t	p;

	memset(sum, 0, wk->nb * sizeof *sum);
	for (p = 0; p < wk->np; p++)
		if (wk->pt[p].s > lo)
			total += tiers_group_add(wk, p, pc, f, pw + p * wk->k,
			    first, last, sum, NULL);
	if (total < TIERS_CUT_MIN_READS)
		return (NAN);
	return (tiers_quantile(wk->x, sum, wk->nb, 0.50));
}

/*
 * Widen the candidates' intervals to cover the read-level sampling error
 * of the whole chain: each replicate redraws every bucket count (Poisson),
 * refits the mixture from the current one, the fractions and the
 * capacities.  The mixture's shapes are shared by all points, so their
 * error does not average out across points as binomial noise does.  Each
 * replicate also gives the p50 of the classes from m on, past the
 * candidate before m (wk->boot_sd).
 */
static void
tiers_bootstrap(struct tiers_work *wk, struct tiers_result *r)
{
	struct fit_capacity	 fc;
	struct rng		 rng;
	struct tiers_boundary	*bd;
	double			*pc, *pw, *f, *fp, *shape, c;
	double			 cap[TIERS_MAX_MODES - 1];
	struct fit_gmm		 g[TIERS_MAX_MODES];
	double			 sum[TIERS_MAX_MODES], sum2[TIERS_MAX_MODES];
	double			 asum[TIERS_MAX_MODES], asum2[TIERS_MAX_MODES];
	size_t			 agot[TIERS_MAX_MODES];
	size_t			 got[TIERS_MAX_MODES], total, p, q, i, j;
	double			 lsum[TIERS_MAX_MODES], lsum2[TIERS_MAX_MODES];
	double			*scratch, x;
	size_t			 lgot[TIERS_MAX_MODES];
	size_t			 k = wk->k;
	int			 rep, any = 0;

	for (i = 0; i < TIERS_MAX_MODES; i++)
		wk->boot_sd[i] = NAN;
	for (i = 0; i + 1 < r->nmodes; i++)
		any |= r->boundary[i].verdict == TIERS_TIER &&
		    wk->cut[i].soft;
	if (!any)
		return;
	total = wk->pt[wk->np - 1].off + wk->pt[wk->np - 1].nb;
	pc = xcalloc(total + 1, sizeof *pc);
	pw = xcalloc(wk->np * k, sizeof *pw);
	f = xcalloc(wk->np * k, sizeof *f);
	fp = xcalloc(wk->np, sizeof *fp);
	shape = xcalloc(k * wk->nb, sizeof *shape);
	memset(sum, 0, sizeof sum);
	memset(sum2, 0, sizeof sum2);
	memset(got, 0, sizeof got);
	memset(asum, 0, sizeof asum);
	memset(asum2, 0, sizeof asum2);
	memset(agot, 0, sizeof agot);
	memset(lsum, 0, sizeof lsum);
	memset(lsum2, 0, sizeof lsum2);
	memset(lgot, 0, sizeof lgot);
	scratch = xcalloc(wk->nb, sizeof *scratch);
	rng_seed(&rng, TIERS_BOOT_SEED);
	for (rep = 0; rep < TIERS_BOOT_REPS; rep++) {
		for (q = 0; q < total; q++)
			pc[q] = tiers_poisson(&rng, wk->pc[q]);
		memcpy(cap, wk->cap, sizeof cap);
		memcpy(g, wk->g, sizeof g);
		memcpy(shape, wk->f, k * wk->nb * sizeof *shape);
		tiers_law_em(wk, pc, cap, g, shape, TIERS_BOOT_ITER);
		tiers_point_shares(wk, pc, cap, shape, pw);
		for (i = 0; i < k; i++) {
			x = tiers_group_x50(wk, pc, shape, pw, i, k - 1,
			    i == 0 ? 0 : r->boundary[i - 1].capacity_bytes,
			    scratch);
			if (isfinite(x)) {
				lsum[i] += x;
				lsum2[i] += x * x;
				lgot[i]++;
			}
		}
		/* cumulative: f[p][i] = reads in classes [0, i] */
		for (p = 0; p < wk->np; p++)
			for (c = 0, j = 0; j < k; j++)
				f[p * k + j] = c += pw[p * k + j];
		for (i = 0; i + 1 < r->nmodes; i++) {
			bd = &r->boundary[i];
			if (bd->verdict != TIERS_TIER || !wk->cut[i].soft)
				continue;
			for (p = 0; p < wk->np; p++) {
				wk->s[wk->np + p] = f[p * k + i];
				fp[p] = i == 0 ? 0 : f[p * k + i - 1];
			}
			if (tiers_fit_plateau(wk->s, wk->s + wk->np, fp,
			    wk->bvar + i * wk->np, wk->np, i == 0 ? 0 :
			    r->boundary[i - 1].capacity_bytes / r->max_ws,
			    &fc) != 0)
				continue;
			c = fc.c * r->max_ws;
			sum[i] += c;
			sum2[i] += c * c;
			got[i]++;
			if (isfinite(fc.alpha)) {
				asum[i] += fc.alpha;
				asum2[i] += fc.alpha * fc.alpha;
				agot[i]++;
			}
		}
	}
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		if (bd->verdict != TIERS_TIER || got[i] < TIERS_BOOT_REPS / 2)
			continue;
		c = sum[i] / got[i];
		bd->boot_se_bytes = sqrt(fmax(0, sum2[i] / got[i] - c * c) *
		    got[i] / (got[i] - 1));
		c = 1.96 * bd->boot_se_bytes;
		bd->low_bytes = fmin(bd->low_bytes, bd->capacity_bytes - c);
		bd->high_bytes = fmax(bd->high_bytes, bd->capacity_bytes + c);
		if (agot[i] >= TIERS_BOOT_REPS / 2 && isfinite(bd->alpha)) {
			c = asum[i] / agot[i];
			bd->alpha_se = fmax(bd->alpha_se, sqrt(fmax(0,
			    asum2[i] / agot[i] - c * c) * agot[i] /
			    (agot[i] - 1)));
		}
	}
	for (i = 0; i < k; i++) {
		if (lgot[i] < TIERS_BOOT_REPS / 2)
			continue;
		x = lsum[i] / lgot[i];
		wk->boot_sd[i] = sqrt(fmax(0, lsum2[i] / lgot[i] - x * x) *
		    lgot[i] / (lgot[i] - 1));
	}
	free(scratch);
	free(shape);
	free(fp);
	free(f);
	free(pw);
	free(pc);
}

/*
 * The verdict on a candidate: fractions that follow min(1, (C/S)^alpha)
 * with alpha clearly away from 1 are no cache; then the interval must
 * exclude 0 and max ws.
 */
static void
tiers_judge(struct tiers_boundary *bd, double max_ws)
{
	if (bd->verdict != TIERS_TIER)
		return;
	if (isfinite(bd->alpha) && fabs(bd->alpha - 1) > TIERS_ALPHA_TOL &&
	    fabs(bd->alpha - 1) > TIERS_ALPHA_Z * bd->alpha_se)
		bd->verdict = TIERS_MISFIT;
	else if (bd->low_bytes <= 0)
		bd->verdict = TIERS_WIDE;
	else if (bd->high_bytes >= max_ws)
		bd->verdict = bd->low_bytes >= 0.5 * max_ws ? TIERS_AT_LEAST :
		    TIERS_WIDE;
}

/* Append sentence to r->note, "; " after what it holds. */
static void
tiers_note_add(struct tiers_result *r, const char *sentence)
{
	size_t	len = strlen(r->note);

	snprintf(r->note + len, sizeof r->note - len, "%s%s",
	    len > 0 ? "; " : "", sentence);
}

/* Whether boundary i's verdict makes it a cache, so far. */
static int
tiers_accepted(const struct tiers_result *r, size_t i)
{
	return (r->boundary[i].verdict == TIERS_TIER ||
	    r->boundary[i].verdict == TIERS_AT_LEAST);
}

/*
 * Whether accepted boundary i rests on too few points to test the law
 * (step 3): fewer than TIERS_TEST_POINTS above its capacity (one point
 * past C fits any curve through it), or, where its classes' shares differ
 * from a place split in two (their ratio changes only between the
 * neighbouring capacities), fewer than TIERS_TEST_POINTS there.  If so,
 * sets the window (*lo, *hi) and its points *n of the rule that failed.
 */
static int
tiers_untested(const struct tiers_result *r, size_t i, double *lo,
    double *hi, size_t *n)
{
	const struct tiers_boundary *bd = &r->boundary[i];
	double	 a = 0, b = INFINITY, w[2][2];
	size_t	 j, p, k, c[2] = { 0, 0 };

	if (!tiers_accepted(r, i))
		return (0);
	for (j = i; j > 0; j--)
		if (tiers_accepted(r, j - 1)) {
			a = r->boundary[j - 1].capacity_bytes;
			break;
		}
	for (j = i + 1; j + 1 < r->nmodes; j++)
		if (tiers_accepted(r, j)) {
			b = r->boundary[j].capacity_bytes;
			break;
		}
	w[0][0] = a;
	w[0][1] = b;
	w[1][0] = bd->verdict == TIERS_AT_LEAST ? 0 : bd->capacity_bytes;
	w[1][1] = INFINITY;
	for (k = 0; k < 2; k++)
		for (p = 0; p < r->npoints; p++)
			c[k] += r->point_ws[p] > w[k][0] &&
			    r->point_ws[p] < w[k][1];
	for (k = 0; k < 2; k++) {
		if (c[k] >= TIERS_TEST_POINTS)
			continue;
		*lo = w[k][0];
		*hi = w[k][1];
		*n = c[k];
		return (1);
	}
	return (0);
}

/*
 * The share of classes [first, i] of shares pi (a point's) into *a and of
 * (i, last] into *b.
 */
static void
tiers_split(const double *pi, size_t first, size_t i, size_t last, double *a,
    double *b)
{
	size_t	m;

	*a = *b = 0;
	for (m = first; m <= last; m++)
		*(m <= i ? a : b) += pi[m];
}

/*
 * Whether the reads of classes [first, last] split at i otherwise when a
 * working set was measured again (wk->ag): 1 when the share of [first, i]
 * moved at one by TIERS_MOVES and TIERS_RISE_Z sd, each measurement with
 * TIERS_CUT_MIN_READS in those classes (*at: the one that moved most); 0
 * when none did; -1 when none was measured again with those reads.
 */
static int
tiers_time_moves(const struct tiers_work *wk, const struct tiers_result *r,
    size_t first, size_t i, size_t last, size_t *at)
{
	const struct tiers_ag	*g;
	double			 x[2], n[2], a, b, d, best = 0;
	size_t			 q, k;
	int			 rc = -1;

	for (q = 0; q < wk->nag; q++) {
		g = &wk->ag[q];
		for (k = 0; k < 2; k++) {
			tiers_split(k == 0 ? r->point_mode_frac + g->orig *
			    r->nmodes : g->pi, first, i, last, &a, &b);
			n[k] = (a + b) * (k == 0 ? wk->pt[g->orig].n : g->n);
			x[k] = n[k] > 0 ? a / (a + b) : 0;
			x[k] = fmin(fmax(x[k], 0.5 / fmax(n[k], 1)),
			    1 - 0.5 / fmax(n[k], 1));
		}
		if (n[0] < TIERS_CUT_MIN_READS || n[1] < TIERS_CUT_MIN_READS)
			continue;
		if (rc < 0)
			rc = 0;
		d = fabs(x[0] - x[1]);
		if (d > TIERS_MOVES && d > best && d > TIERS_RISE_Z *
		    sqrt(x[0] * (1 - x[0]) / n[0] + x[1] * (1 - x[1]) / n[1] +
		    2 * TIERS_SYS_SD * TIERS_SYS_SD)) {
			best = d;
			*at = q;
			rc = 1;
		}
	}
	return (rc);
}

/* Ask for ws to be measured behind the scan's front, once. */
static void
tiers_again(struct tiers_result *r, uint64_t ws)
{
	size_t	i;

	for (i = 0; i < r->nagain; i++)
		if (fabs((double)r->again_ws[i] - ws) <= TIERS_NEAR * ws)
			return;
	if (r->nagain < TIERS_MAX_AGAIN)
		r->again_ws[r->nagain++] = ws;
}

/*
 * A latency drifting with the clock, not a cache (step 3): an accepted
 * boundary whose classes either side are less than TIERS_DRIFT_RATIO
 * apart (a disk under other work drifted from 77 to 116 us here, a cut
 * at 1.5x; real caches differ by far more) is no cache when, a working
 * set measured again, the reads of the two places split otherwise
 * (tiers_time_moves): a cache's share depends on ws alone.  With none
 * measured again, the analysis asks for one: the smallest past its
 * capacity where the two places hold TIERS_AGAIN_WHOLE of the reads, the
 * first measured of them.
 */
static void
tiers_drifts(const struct tiers_work *wk, struct tiers_result *r)
{
	double	a, b;
	size_t	i, j, p, at, first = 0;

	for (i = 0; i + 1 < r->nmodes; i++) {
		if (!tiers_accepted(r, i))
			continue;
		for (j = i + 1; j + 1 < r->nmodes && !tiers_accepted(r, j);
		    j++)
			;
		if (r->mode[i + 1].lat_us_p50 < TIERS_DRIFT_RATIO *
		    r->mode[i].lat_us_p50) {
			switch (tiers_time_moves(wk, r, first, i, j, &at)) {
			case 1:
				r->boundary[i].verdict = TIERS_DRIFTS;
				continue;
			case -1:
				for (p = 0; p < wk->np; p++) {
					tiers_split(r->point_mode_frac + p *
					    r->nmodes, first, i, j, &a, &b);
					if (wk->pt[p].s >
					    r->boundary[i].capacity_bytes &&
					    a + b >= TIERS_AGAIN_WHOLE)
						break;
				}
				if (p < wk->np)
					tiers_again(r, wk->pt[p].p->ws_bytes);
				break;
			}
		}
		first = i + 1;
	}
}

/*
 * A cache whose hits come at two speeds (step 3).  Below a cache's
 * capacity every read is a hit of it or of a faster one, so a cache behind
 * it serves nothing there: the slower classes up to the next accepted
 * boundary hold, at the points between the capacity before and this one,
 * less than TIERS_CUT_SHARE of the two tiers' reads.  When they hold more,
 * they serve this cache's hits at a second speed (a daemon's thread woken
 * on another CPU), in a mix that may move with the load once reads miss
 * it, and the two boundaries are one cache unless, between their
 * capacities, their share rises above what it was below by TIERS_MOVES
 * and TIERS_RISE_Z sd at some point: where a cache behind serves its own
 * hits and, every read still a hit of the one place, the mix cannot have
 * moved: at the points from where such a cache would have raised it by
 * TIERS_MOVES, C / (1 - TIERS_MOVES / (1 - q)) for a share q below, to
 * the next capacity.  Without a point there the boundary is not counted
 * either, the note says so and the analysis asks for one (again_ws).
 */
static void
tiers_second_speeds(struct tiers_work *wk, struct tiers_result *r)
{
	struct tiers_speed	*sp;
	size_t			 i, j, p, first = 0, between;
	double			 lo = 0, c, cn, a, b, n, sa, sb, q, v, w, x;
	int			 rise;

	for (i = 0; i + 1 < r->nmodes; i++) {
		if (!tiers_accepted(r, i))
			continue;
		for (j = i + 1; j + 1 < r->nmodes && !tiers_accepted(r, j);
		    j++)
			;
		if (j + 1 == r->nmodes)
			break;		/* the store behind: its own rules */
		c = r->boundary[i].capacity_bytes;
		for (sa = sb = 0, p = 0; p < wk->np; p++) {
			if (!(wk->pt[p].s > lo &&
			    wk->pt[p].s * TIERS_CUT_APART <= c))
				continue;
			tiers_split(r->point_mode_frac + p * r->nmodes, first,
			    i, j, &a, &b);
			sa += (a + b) * wk->pt[p].n;
			sb += b * wk->pt[p].n;
		}
		if (sb < TIERS_CUT_MIN_READS || sb < TIERS_CUT_SHARE * sa) {
			first = i + 1;
			lo = c;
			continue;
		}
		q = sb / sa;
		v = q * (1 - q) / sa + TIERS_SYS_SD * TIERS_SYS_SD;
		/* Where a cache behind would have raised it by TIERS_MOVES. */
		w = q < 1 - TIERS_MOVES ? c / (1 - TIERS_MOVES / (1 - q)) :
		    INFINITY;
		cn = r->boundary[j].capacity_bytes;
		for (rise = 0, between = 0, p = 0; p < wk->np; p++) {
			if (!(wk->pt[p].s >= w && wk->pt[p].s <= cn))
				continue;
			tiers_split(r->point_mode_frac + p * r->nmodes, first,
			    i, j, &a, &b);
			if ((n = (a + b) * wk->pt[p].n) < TIERS_CUT_MIN_READS)
				continue;
			between++;
			x = fmin(fmax(b / (a + b), 0.5 / n), 1 - 0.5 / n);
			rise |= x - q > TIERS_MOVES && x - q > TIERS_RISE_Z *
			    sqrt(x * (1 - x) / n + v + TIERS_SYS_SD *
			    TIERS_SYS_SD);
		}
		if (rise) {
			first = i + 1;
			lo = c;
			continue;
		}
		r->boundary[i].verdict = TIERS_SECOND_SPEED;
		sp = &wk->speed[i];
		sp->seen = between > 0 ? 1 : w < cn ? 2 : 3;
		sp->share = q;
		sp->lo = w;
		sp->hi = cn;
		if (sp->seen == 2)
			tiers_again(r, (uint64_t)llround(sqrt(w * cn)));
	}
}

/*
 * Say which tiers serve hits at two speeds (tiers_second_speeds), and
 * where a point would tell a cache behind one when none did.
 */
static void
tiers_say_speeds(const struct tiers_work *wk, struct tiers_result *r)
{
	const struct tiers_speed *sp;
	char			 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char			 c[UNITS_BUFSZ], d[UNITS_BUFSZ], line[384];
	size_t			 i;
	int			 t, n;

	for (i = 0; i + 1 < r->nmodes; i++) {
		sp = &wk->speed[i];
		if (sp->seen == 0 || (t = r->mode[i].tier) < 0)
			continue;
		units_format_lat_us(r->mode[i].lat_us_p50, a, sizeof a);
		units_format_lat_us(r->mode[i + 1].lat_us_p50, b, sizeof b);
		units_format_size((uint64_t)sp->lo, c, sizeof c);
		units_format_size((uint64_t)sp->hi, d, sizeof d);
		n = snprintf(line, sizeof line, "tier %d serves hits at two "
		    "speeds, ~%s and ~%s (the slower %.0f%% of them where it "
		    "serves every read)", t + 1, a, b, 100 * sp->share);
		if (sp->seen == 1)
			snprintf(line + n, sizeof line - n, ": one cache, not "
			    "two");
		else if (sp->seen == 2)
			snprintf(line + n, sizeof line - n, ", counted as one "
			    "cache: no point between %s and %s tells whether "
			    "the slower are a cache of their own", c, d);
		else
			snprintf(line + n, sizeof line - n, ", counted as one "
			    "cache: a cache of the slower up to %s would look "
			    "the same", d);
		tiers_note_add(r, line);
	}
}

/*
 * The ln p50 of weights sum over the pooled bins, and in *se its standard
 * error from sampling, sww the sum of the squared weights of the reads:
 * 0.5 sqrt(sww) / (the density at the p50, the weight within TIERS_SMOOTH
 * of it over 2 TIERS_SMOOTH); NAN when no weight lies there.
 */
static double
tiers_x50(const struct tiers_work *wk, const double *sum, double sww,
    double *se)
{
	double	x50, near = 0;
	size_t	b;

	x50 = tiers_quantile(wk->x, sum, wk->nb, 0.50);
	for (b = 0; b < wk->nb; b++)
		if (fabs(wk->x[b] - x50) <= TIERS_SMOOTH)
			near += sum[b];
	*se = near > 0 ? 0.5 * sqrt(sww) * 2 * TIERS_SMOOTH / near : NAN;
	return (x50);
}

/*
 * p50 and p99 (us) of the reads of modes [first, last] at the points whose
 * ws is above lo (past the faster tiers), each point's reads weighing 1 /
 * its reads: a point that ran long (a mean held back by a few stalled
 * reads) would otherwise make the group's latency its own.  All points'
 * reads when those hold fewer than TIERS_CUT_MIN_READS of the group.  If
 * se is not NULL, the standard error of ln p50 goes there, NAN in that
 * case: from sampling, 0.5 sqrt(sum of the squared weights) / (their sum
 * times the density of ln latency at the p50, their weight within
 * TIERS_SMOOTH of it); where classes overlap (tiers_bootstrap ran), at
 * least the bootstrap's sd: the split of the reads between overlapping
 * classes moves the p50 more than sampling does.
 */
static void
tiers_group_latency(const struct tiers_work *wk, size_t first, size_t last,
    double lo, double *p50, double *p99, double *se)
{
	double	*sum, total = 0, sww = 0, x50, sampling;
	size_t	 i, b, p, nb = wk->nb;

	if (se != NULL)
		*se = NAN;
	sum = xcalloc(nb, sizeof *sum);
	for (p = 0; p < wk->np; p++)
		if (wk->pt[p].s > lo)
			total += tiers_group_add(wk, p, wk->pc, wk->f,
			    wk->pw + p * wk->k, first, last, sum, &sww);
	if (total < TIERS_CUT_MIN_READS) {
		memset(sum, 0, nb * sizeof *sum);
		for (i = first; i <= last; i++)
			for (b = 0; b < nb; b++)
				sum[b] += wk->modew[i * nb + b];
	}
	x50 = tiers_x50(wk, sum, sww, &sampling);
	*p50 = exp(x50) / 1000;
	*p99 = exp(tiers_quantile(wk->x, sum, nb, 0.99)) / 1000;
	if (se != NULL && total >= TIERS_CUT_MIN_READS && isfinite(sampling))
		*se = isfinite(wk->boot_sd[first]) ?
		    fmax(sampling, wk->boot_sd[first]) : sampling;
	free(sum);
}

/*
 * ln p50 of the reads of nb bins (pooled bin pb[q], reads pc[q]) in the
 * pooled bins [lo, hi), and its standard error (sampling, and
 * TIERS_CP_FLOOR of drift) in *se; NAN when they are fewer than
 * TIERS_CUT_MIN_READS.  sum is nb scratch.
 */
static double
tiers_bins_x50(const struct tiers_work *wk, const size_t *pb,
    const double *pc, size_t nb, size_t lo, size_t hi, double *sum,
    double *se)
{
	double	n = 0, x;
	size_t	q;

	memset(sum, 0, wk->nb * sizeof *sum);
	for (q = 0; q < nb; q++)
		if (pb[q] >= lo && pb[q] < hi)
			n += pc[q];
	if (n < TIERS_CUT_MIN_READS)
		return (NAN);
	for (q = 0; q < nb; q++)
		if (pb[q] >= lo && pb[q] < hi)
			sum[pb[q]] += pc[q] / n;
	x = tiers_x50(wk, sum, 1 / n, se);
	*se = sqrt(*se * *se + TIERS_CP_FLOOR * TIERS_CP_FLOOR);
	return (isfinite(*se) ? x : NAN);
}

/*
 * Whether the place of classes [first, last] drifted with the clock: a
 * working set measured again split its reads otherwise between its
 * classes (tiers_time_moves), or moved their p50 by TIERS_RISE_Z sd and
 * TIERS_DRIFT_SAID at least.  1 so (*at the again point, x[] the two ln
 * p50 there, NAN when too few reads), 0 not, -1 none measured again with
 * those reads.
 */
static int
tiers_group_drifted(const struct tiers_work *wk, const struct tiers_result *r,
    size_t first, size_t last, size_t *at, double *x)
{
	const struct tiers_ag	*g;
	const struct tiers_pt	*pt;
	double			*sum, y[2], se[2], v, most = 0;
	size_t			 k, q, lo, hi, j, split_at = 0, p50_at = 0;
	int			 split = -1, rc, pairs = 0;

	for (k = first; k < last && split < 1; k++) {
		rc = tiers_time_moves(wk, r, first, k, last, &j);
		if (rc > split) {
			split = rc;
			split_at = j;
		}
	}
	tiers_range(wk, first, &lo, &j);
	tiers_range(wk, last, &j, &hi);
	sum = xcalloc(wk->nb, sizeof *sum);
	x[0] = x[1] = NAN;
	for (q = 0; q < wk->nag; q++) {
		g = &wk->ag[q];
		pt = &wk->pt[g->orig];
		y[0] = tiers_bins_x50(wk, wk->pb + pt->off, wk->pc + pt->off,
		    pt->nb, lo, hi, sum, &se[0]);
		y[1] = tiers_bins_x50(wk, g->pb, g->pc, g->nb, lo, hi, sum,
		    &se[1]);
		if (!isfinite(y[0]) || !isfinite(y[1]))
			continue;
		pairs++;
		v = fabs(y[0] - y[1]);
		if ((split == 1 && q == split_at) || (split < 1 && v > most &&
		    v >= log(TIERS_DRIFT_SAID) && v > TIERS_RISE_Z *
		    hypot(se[0], se[1]))) {
			most = split == 1 ? INFINITY : v;
			p50_at = q;
			x[0] = y[0];
			x[1] = y[1];
		}
	}
	free(sum);
	if (split == 1 || most > 0) {
		*at = split == 1 ? split_at : p50_at;
		return (1);
	}
	return (split == 0 || pairs > 0 ? 0 : -1);
}

/*
 * Say which places' latency drifted during the scan (tiers_group_drifted),
 * and the boundaries found to be such a drift (tiers_drifts).
 */
static void
tiers_say_drift(const struct tiers_work *wk, struct tiers_result *r)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ], who[32];
	char	line[256];
	double	x[2];
	size_t	t, first, last, at, k;

	for (t = 0, first = 0; t <= r->ntiers; t++, first = last + 1) {
		last = t < r->ntiers ? r->tier[t].first_mode +
		    r->tier[t].nmodes - 1 : r->nmodes - 1;
		if (tiers_group_drifted(wk, r, first, last, &at, x) != 1)
			continue;
		if (t < r->ntiers)
			snprintf(who, sizeof who, "tier %zu", t + 1);
		else
			snprintf(who, sizeof who, "the store");
		units_format_size(wk->ag[at].p->ws_bytes, a, sizeof a);
		if (isfinite(x[0]))
			snprintf(line, sizeof line, "%s's latency drifted "
			    "during the scan: measured twice at %s, its reads' "
			    "p50 was %s, then %s", who, a, units_format_lat_us(
			    exp(x[0]) / 1000, b, sizeof b),
			    units_format_lat_us(exp(x[1]) / 1000, c,
			    sizeof c));
		else
			snprintf(line, sizeof line, "%s's latency drifted "
			    "during the scan: measured twice at %s, its reads "
			    "split otherwise between its classes of latency",
			    who, a);
		tiers_note_add(r, line);
	}
	for (k = 0; k + 1 < r->nmodes; k++) {
		if (r->boundary[k].verdict != TIERS_DRIFTS)
			continue;
		snprintf(line, sizeof line, "no cache at %s: the reads faster "
		    "than ~%s took another share when a working set was "
		    "measured again, as a latency drifting across that cut "
		    "does", units_format_size((uint64_t)
		    r->boundary[k].capacity_bytes, a, sizeof a),
		    units_format_lat_us(r->mode[k].cut_us, b, sizeof b));
		tiers_note_add(r, line);
	}
}

/*
 * Make boundary i untested and say why: n points between lo and hi
 * (INFINITY: above lo), where its share would change.
 */
static void
tiers_say_untested(struct tiers_result *r, size_t i, double lo, double hi,
    size_t n)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char	d[UNITS_BUFSZ], line[256];

	r->boundary[i].verdict = TIERS_UNTESTED;
	snprintf(line, sizeof line, "a possible cache of %s (reads at ~%s) "
	    "is not tested: %zu working set%s %s %s%s%s, where its share "
	    "would change; more points there would tell",
	    units_format_size((uint64_t)r->boundary[i].capacity_bytes, a,
	    sizeof a), units_format_lat_us(r->mode[i].lat_us_p50, b,
	    sizeof b), n, n == 1 ? "" : "s", isinf(hi) ? "above" : "between",
	    units_format_size((uint64_t)lo, c, sizeof c), isinf(hi) ? "" :
	    " and ", isinf(hi) ? "" : units_format_size((uint64_t)hi, d,
	    sizeof d));
	tiers_note_add(r, line);
}

/* Judge every boundary; the accepted ones split the modes into tiers. */
static void
tiers_assemble(struct tiers_work *wk, struct tiers_result *r)
{
	struct tiers_boundary	*bd;
	struct tier		*t;
	size_t			 i, m, p, first = 0, nt, n[TIERS_MAX_MODES];
	double			 prev = 0, lo[TIERS_MAX_MODES];
	double			 hi[TIERS_MAX_MODES];
	int			 closed = 0, untested[TIERS_MAX_MODES];

	wk->s = xcalloc(2 * wk->np, sizeof *wk->s);	/* s, then scratch */
	for (p = 0; p < wk->np; p++)
		wk->s[p] = wk->pt[p].p->ws_bytes / (double)r->max_ws;
	wk->bvar = xcalloc(r->nmodes * wk->np, sizeof *wk->bvar);
	for (i = 0; i + 1 < r->nmodes; i++)
		tiers_boundary_fit(wk, r, i, &r->boundary[i]);
	tiers_bootstrap(wk, r);
	for (i = 0; i + 1 < r->nmodes; i++)
		tiers_judge(&r->boundary[i], (double)r->max_ws);
	tiers_drifts(wk, r);
	tiers_second_speeds(wk, r);
	for (i = 0; i + 1 < r->nmodes; i++)
		untested[i] = tiers_untested(r, i, &lo[i], &hi[i], &n[i]);
	for (i = 0; i + 1 < r->nmodes; i++)
		if (untested[i])
			tiers_say_untested(r, i, lo[i], hi[i], n[i]);
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		if (bd->verdict != TIERS_TIER && bd->verdict != TIERS_AT_LEAST)
			continue;
		if (closed || bd->capacity_bytes <= prev) {
			bd->verdict = TIERS_NOT_LARGER;
			continue;
		}
		if (r->ntiers == TIERS_MAX) {
			bd->verdict = TIERS_OVER;
			continue;
		}
		t = &r->tier[r->ntiers];
		t->first_mode = first;
		t->nmodes = i + 1 - first;
		t->fit_rchi2 = bd->rchi2;
		if (bd->verdict == TIERS_AT_LEAST) {
			t->at_least = 1;
			t->capacity_bytes = (uint64_t)llround(bd->low_bytes);
			t->capacity_low_bytes = t->capacity_bytes;
			t->capacity_high_bytes = 0;
			closed = 1;
		} else {
			t->capacity_bytes =
			    (uint64_t)llround(bd->capacity_bytes);
			t->capacity_low_bytes =
			    (uint64_t)llround(bd->low_bytes);
			t->capacity_high_bytes =
			    (uint64_t)llround(bd->high_bytes);
		}
		tiers_group_latency(wk, first, i, prev, &t->lat_us_p50,
		    &t->lat_us_p99, NULL);
		for (m = first; m <= i; m++)
			r->mode[m].tier = (int)r->ntiers;
		prev = bd->capacity_bytes;
		first = i + 1;
		r->ntiers++;
	}
	tiers_group_latency(wk, first, r->nmodes - 1, prev,
	    &r->backing_p50_us, &r->backing_p99_us, &r->backing_p50_se);
	tiers_say_speeds(wk, r);

	nt = r->ntiers + 1;
	r->point_tier_frac = xcalloc(r->npoints * nt,
	    sizeof *r->point_tier_frac);
	for (p = 0; p < r->npoints; p++) {
		for (m = 0; m < r->nmodes; m++) {
			i = r->mode[m].tier < 0 ? r->ntiers :
			    (size_t)r->mode[m].tier;
			r->point_tier_frac[p * nt + i] +=
			    r->point_mode_frac[p * r->nmodes + m];
		}
	}
}

/*
 * Say in words how far mean latency drifted without a cache, and between
 * which sizes (the ratio of the segments' geometric means); tiers_note
 * says what it means.
 */
static void
tiers_drift(const struct tiers_result *r, const size_t *cps, size_t ncp,
    char *why, size_t len)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	size_t	end = ncp > 1 ? cps[1] : r->npoints, p;
	double	lo = 0, hi = 0, pct;

	for (p = 0; p < cps[0]; p++)
		lo += r->point_mlog[p] / cps[0];
	for (p = cps[0]; p < end; p++)
		hi += r->point_mlog[p] / (end - cps[0]);
	pct = 100 * (exp(hi - lo) - 1);
	snprintf(why, len, "latency drifted %s %.0f%% between %s and %s",
	    pct >= 0 ? "up" : "down", fabs(pct),
	    units_format_size(r->point_ws[cps[0] - 1], a, sizeof a),
	    units_format_size(r->point_ws[cps[0]], b, sizeof b));
}

/*
 * Cross-check with a change-point segmentation of the points' mean
 * ln(latency); sets r->agree and, on disagreement, why.
 */
static void
tiers_crosscheck(const struct tiers_work *wk, struct tiers_result *r,
    char *why, size_t len)
{
	char		 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	const double	*y = r->point_mlog;
	struct tier	*t;
	size_t		 cps[TIERS_MAX_CP], ncp, np = r->npoints, p, i, k, q;
	double		 var = 0, v, d;

	if (np < 4)
		return;
	for (p = 0; p < np; p++) {
		v = 0;
		for (q = 0; q < wk->pt[p].nb; q++) {
			d = wk->x[wk->pb[wk->pt[p].off + q]] - y[p];
			v += wk->pc[wk->pt[p].off + q] * d * d;
		}
		var += v / wk->pt[p].n / wk->pt[p].n;
	}
	var = fmax(var / np, TIERS_CP_FLOOR * TIERS_CP_FLOOR);
	ncp = changepoint_pelt(y, np, TIERS_CP_PENALTY *
	    changepoint_penalty(np, var), 1, cps, TIERS_MAX_CP);
	r->ncp = ncp;
	for (i = 0; i < ncp; i++)
		r->cp_ws[i] = r->point_ws[cps[i]];

	r->agree = 1;
	if (r->ntiers == 0) {
		if (ncp > 0) {
			r->agree = 0;
			tiers_drift(r, cps, ncp, why, len);
		}
		return;
	}
	if (ncp == 0) {
		r->agree = 0;
		snprintf(why, len, "latency modes show %zu cache%s but mean "
		    "latency does not shift with ws", r->ntiers,
		    r->ntiers == 1 ? "" : "s");
		return;
	}
	if (r->cp_ws[0] < r->tier[0].capacity_low_bytes) {
		r->agree = 0;
		snprintf(why, len, "mean latency shifts at %s, below the "
		    "smallest cache (%s)",
		    units_format_size(r->cp_ws[0], a, sizeof a),
		    units_format_size(r->tier[0].capacity_bytes, b, sizeof b));
	}
	for (k = 0; k < r->ntiers; k++) {
		t = &r->tier[k];
		if (t->at_least)
			continue;
		for (i = 0; i < ncp; i++) {
			if (r->point_ws[cps[i]] > t->capacity_low_bytes &&
			    r->point_ws[cps[i] - 1] <
			    TIERS_CP_REACH * t->capacity_high_bytes)
				break;
		}
		if (i < ncp) {
			t->capacity_cp_bytes = (uint64_t)llround(sqrt(
			    (double)r->point_ws[cps[i] - 1] *
			    r->point_ws[cps[i]]));
			continue;
		}
		if (r->agree) {
			snprintf(why, len, "no mean-latency shift between %s "
			    "and %.0fx that size, where the modes place "
			    "cache %zu",
			    units_format_size(t->capacity_bytes, a, sizeof a),
			    TIERS_CP_REACH, k + 1);
		}
		r->agree = 0;
	}
}

/* A class of reads between two valleys: pooled bins [lo, hi). */
struct tiers_seg {
	size_t	lo;
	size_t	hi;
	double	peak;		/* highest smoothed density */
	double	valley;		/* density of the valley above; 0: none */
	double	share_max;	/* largest share of a point's reads */
	int	group;		/* tier, or -1: backing */
};

/* Point p's share of reads in segment g. */
static double
tiers_seg_share(const struct tiers_work *wk, const struct tiers_seg *g,
    size_t p)
{
	return ((tiers_cum(wk, p, g->hi) - tiers_cum(wk, p, g->lo)) /
	    wk->pt[p].n);
}

/* The median ln(ns) of the pooled reads of segment g. */
static double
tiers_seg_median(const struct tiers_work *wk, const struct tiers_seg *g)
{
	return (tiers_quantile(wk->x + g->lo, wk->w + g->lo, g->hi - g->lo,
	    0.5));
}

/* Join segment i and i + 1 of n; returns n - 1. */
static size_t
tiers_seg_join(const struct tiers_work *wk, struct tiers_seg *g, size_t n,
    size_t i)
{
	size_t	p;

	g[i].hi = g[i + 1].hi;
	g[i].peak = fmax(g[i].peak, g[i + 1].peak);
	g[i].valley = g[i + 1].valley;
	for (g[i].share_max = 0, p = 0; p < wk->np; p++)
		g[i].share_max = fmax(g[i].share_max,
		    tiers_seg_share(wk, &g[i], p));
	memmove(&g[i + 1], &g[i + 2], (n - i - 2) * sizeof *g);
	return (n - 1);
}

/*
 * The classes of reads the pooled histogram sets apart: split at every
 * local minimum of the smoothed density (and every gap), then join each
 * segment holding less than TIERS_CUT_SHARE of every point's reads to its
 * neighbour across the shallower minimum, then any two whose minimum is
 * above TIERS_HARD of the lower peak.  g holds wk->nb entries; returns
 * how many segments.
 */
static size_t
tiers_segments(const struct tiers_work *wk, struct tiers_seg *g)
{
	size_t	n = 0, j, i, best, p;
	double	r, worst;
	int	split = 1, gap;

	for (j = 0; j < wk->nb; j++) {
		gap = j > 0 && wk->x[j] - wk->x[j - 1] > 1.5 * TIERS_BIN;
		if (gap && n > 0)
			g[n - 1].valley = 0;
		if (split || gap) {
			g[n].lo = j;
			g[n].peak = 0;
			g[n].valley = 0;
			n++;
		}
		g[n - 1].hi = j + 1;
		g[n - 1].peak = fmax(g[n - 1].peak, wk->dens[j]);
		/* A local minimum ends the segment. */
		split = j > 0 && j + 1 < wk->nb && !gap &&
		    wk->x[j + 1] - wk->x[j] <= 1.5 * TIERS_BIN &&
		    wk->dens[j] <= wk->dens[j - 1] &&
		    wk->dens[j] < wk->dens[j + 1];
		if (split)
			g[n - 1].valley = wk->dens[j];
	}
	for (i = 0; i < n; i++)
		for (g[i].share_max = 0, p = 0; p < wk->np; p++)
			g[i].share_max = fmax(g[i].share_max,
			    tiers_seg_share(wk, &g[i], p));
	for (;;) {
		best = n;
		for (i = 0; i < n && n > 1; i++) {
			if (g[i].share_max >= TIERS_CUT_SHARE)
				continue;
			if (i == 0 || (i + 1 < n && g[i].valley >
			    g[i - 1].valley))
				best = i;
			else
				best = i - 1;
			break;
		}
		if (best == n) {
			worst = TIERS_HARD;
			for (i = 0; i + 1 < n; i++) {
				r = g[i].valley / fmin(g[i].peak,
				    g[i + 1].peak);
				if (r > worst) {
					worst = r;
					best = i;
				}
			}
		}
		if (best == n)
			break;
		n = tiers_seg_join(wk, g, n, best);
	}
	return (n);
}

/* The class holding pooled bin j. */
static size_t
tiers_bin_class(const struct tiers_work *wk, size_t j)
{
	size_t	m;

	for (m = 0; m + 1 < wk->k && j >= wk->cut[m].j; m++)
		;
	return (m);
}

/* The tier (or -1: backing) of the class holding pooled bin j. */
static int
tiers_bin_group(const struct tiers_work *wk, const struct tiers_result *r,
    size_t j)
{
	return (r->mode[tiers_bin_class(wk, j)].tier);
}

/*
 * Whether segment g's reads are mostly a tier's hits at its second speed
 * (tiers_second_speeds): its median lies in a class past a boundary found
 * so, with no accepted boundary between.
 */
static int
tiers_seg_second(const struct tiers_work *wk, const struct tiers_result *r,
    const struct tiers_seg *g)
{
	double	half = 0, acc = 0;
	size_t	j, m;

	for (j = g->lo; j < g->hi; j++)
		half += wk->w[j] / 2;
	for (j = g->lo; j + 1 < g->hi && (acc += wk->w[j]) < half; j++)
		;
	for (m = tiers_bin_class(wk, j); m > 0; m--) {
		if (r->boundary[m - 1].verdict == TIERS_SECOND_SPEED)
			return (1);
		if (tiers_accepted(r, m - 1))
			return (0);
	}
	return (0);
}

/*
 * Whether segment x moves with segment lead of its group: x's share is
 * within TIERS_MOVES (or TIERS_TOGETHER of itself) of what lead's predicts,
 * by the median ratio of the two over the points where lead holds
 * TIERS_CUT_SHARE or more, at all points but fewer than TIERS_APART_POINTS
 * (a place whose latency shifts at a point splits over a valley there, but
 * does not move apart over a range of working sets as a cache does).
 */
static int
tiers_seg_together(const struct tiers_work *wk, const struct tiers_seg *x,
    const struct tiers_seg *lead)
{
	double	*ratio, rho, a, b;
	size_t	 p, n = 0, apart = 0;

	ratio = xcalloc(wk->np, sizeof *ratio);
	for (p = 0; p < wk->np; p++) {
		b = tiers_seg_share(wk, lead, p);
		if (b >= TIERS_CUT_SHARE)
			ratio[n++] = tiers_seg_share(wk, x, p) / b;
	}
	qsort(ratio, n, sizeof *ratio, tiers_cmp_double);
	rho = n == 0 ? 0 : (ratio[(n - 1) / 2] + ratio[n / 2]) / 2;
	free(ratio);
	for (p = 0; p < wk->np; p++) {
		a = tiers_seg_share(wk, x, p);
		b = tiers_seg_share(wk, lead, p);
		if (fabs(a - rho * b) > TIERS_MOVES &&
		    fabs(a - rho * b) > TIERS_TOGETHER * a)
			apart++;
	}
	return (apart < TIERS_APART_POINTS);
}

/*
 * Whether segments x and y take turns: both hold TIERS_CUT_SHARE of a
 * point's reads at fewer than TIERS_BOTH_POINTS points.  One place whose
 * latency switched between regimes (hits paced by a cap's bucket, then
 * not) does so; a second cache shares the points past it with the store.
 */
static int
tiers_seg_turns(const struct tiers_work *wk, const struct tiers_seg *x,
    const struct tiers_seg *y)
{
	size_t	p, both = 0;

	for (p = 0; p < wk->np; p++)
		if (tiers_seg_share(wk, x, p) >= TIERS_CUT_SHARE &&
		    tiers_seg_share(wk, y, p) >= TIERS_CUT_SHARE)
			both++;
	return (both < TIERS_BOTH_POINTS);
}

/*
 * Whether the share part / whole of np points' reads (whole and part
 * shares of reads[p] reads each), over the points where whole holds
 * TIERS_CUT_SHARE and TIERS_CUT_MIN_READS, moves by TIERS_MOVES and
 * TIERS_RISE_Z sd: rising with ws between two points, or, if away, either
 * way from the first point at TIERS_TEST_POINTS points or more (one point
 * apart, the last, may be a place whose latency shifted there; a cache
 * moves it at every point past its size).
 */
static int
tiers_share_moves(const double *part, const double *whole,
    const double *reads, size_t np, int away)
{
	double	*q, *v, n, d;
	size_t	 p, a, nq = 0, apart = 0;
	int	 moves = 0;

	q = xcalloc(2 * np + 1, sizeof *q);
	v = q + np;
	for (p = 0; p < np; p++) {
		n = whole[p] * reads[p];
		if (whole[p] < TIERS_CUT_SHARE || n < TIERS_CUT_MIN_READS)
			continue;
		q[nq] = part[p] / whole[p];
		d = fmin(fmax(q[nq], 0.5 / n), 1 - 0.5 / n);
		v[nq++] = d * (1 - d) / n + TIERS_SYS_SD * TIERS_SYS_SD;
	}
	if (away) {
		for (p = 1; p < nq; p++)
			apart += fabs(q[p] - q[0]) > TIERS_MOVES &&
			    fabs(q[p] - q[0]) > TIERS_RISE_Z * sqrt(v[p] + v[0]);
		moves = apart >= TIERS_TEST_POINTS;
	}
	for (p = 1; p < nq && !away && !moves; p++)
		for (a = 0; a < p; a++)
			if (q[p] - q[a] > TIERS_MOVES && q[p] - q[a] >
			    TIERS_RISE_Z * sqrt(v[p] + v[a]))
				moves = 1;
	free(q);
	return (moves);
}

/*
 * Whether segments x and y of one group are one place whose latency
 * shifted: the faster one's share of their reads rises with ws
 * (tiers_share_moves).  A cache in front of a slower place serves first:
 * its share of the two never rises.
 */
static int
tiers_seg_shifted(const struct tiers_work *wk, const struct tiers_seg *x,
    const struct tiers_seg *y)
{
	const struct tiers_seg	*fast = x->lo < y->lo ? x : y;
	double			*part, *whole, *reads;
	size_t			 p;
	int			 rises;

	part = xcalloc(3 * wk->np, sizeof *part);
	whole = part + wk->np;
	reads = whole + wk->np;
	for (p = 0; p < wk->np; p++) {
		part[p] = tiers_seg_share(wk, fast, p);
		whole[p] = tiers_seg_share(wk, x, p) +
		    tiers_seg_share(wk, y, p);
		reads[p] = wk->pt[p].n;
	}
	rises = tiers_share_moves(part, whole, reads, wk->np, 0);
	free(part);
	return (rises);
}

/*
 * Whether classes [first, i] and [i + 1, last], one tier between caches
 * of lo and hi bytes (or the store: hi INFINITY), split at a boundary that
 * is no cache, share its reads in a ratio that moves with ws between lo
 * and hi (tiers_share_moves, away from the first point's at two points
 * or more).  A place with two latencies
 * keeps its split at every ws; a cache of C in front of a slower place
 * does not, for ws between lo and hi: beyond hi the tier's reads are its
 * hits, split C / hi, whatever ws (hits that slow when the store's share
 * grows past the cache, as under a rate cap, move there).  Then the
 * boundary's law failed on a cache (classes that overlap skew the
 * fractions) or the classes are something else; either way the tiers do
 * not explain them.  Only if the slower side comes to hold most of the
 * reads at some point, as a cache's misses do: a throttled store's stalls
 * grow with the rate of its reads, but stay the fewer.
 */
static int
tiers_split_moves(const struct tiers_work *wk, const struct tiers_result *r,
    size_t first, size_t i, size_t last, double lo, double hi)
{
	double	*part, *whole, *reads;
	size_t	 p, m;
	int	 moves, overtakes;

	part = xcalloc(3 * wk->np, sizeof *part);
	whole = part + wk->np;
	reads = whole + wk->np;
	for (p = 0; p < wk->np; p++) {
		reads[p] = wk->pt[p].n;
		if (!(wk->pt[p].s > lo && wk->pt[p].s <= hi))
			continue;
		for (m = first; m <= last; m++) {
			whole[p] += r->point_mode_frac[p * r->nmodes + m];
			if (m <= i)
				part[p] += r->point_mode_frac[p * r->nmodes +
				    m];
		}
	}
	moves = tiers_share_moves(part, whole, reads, wk->np, 1);
	for (overtakes = 0, p = 0; p < wk->np; p++)
		overtakes |= whole[p] > 0 && part[p] < whole[p] / 2;
	free(part);
	return (moves && overtakes);
}

/*
 * Where a class of reads, share[p * stride] of point p's reads, grows:
 * its largest share is at point *to, and it holds TIERS_GROWS of that
 * from point *from on.
 */
static void
tiers_growth(const struct tiers_work *wk, const double *share, size_t stride,
    size_t *from, size_t *to)
{
	size_t	p;

	for (*to = 0, p = 0; p < wk->np; p++)
		if (share[p * stride] > share[*to * stride])
			*to = p;
	for (*from = 0; *from < *to && share[*from * stride] <
	    TIERS_GROWS * share[*to * stride]; (*from)++)
		;
}

/*
 * Add a class of reads at lat_us, share[p * stride] of point p's reads,
 * to r's unexplained classes, unless one within TIERS_MIN_RATIO of its
 * latency is there or the list is full.
 */
static void
tiers_add_unexplained(const struct tiers_work *wk, struct tiers_result *r,
    double lat_us, const double *share, size_t stride)
{
	struct tiers_unexplained *u;
	size_t			 pmax, pfrom, i;

	for (i = 0; i < r->nunexplained; i++)
		if (fabs(log(r->unexplained[i].lat_us_p50 / lat_us)) <
		    log(TIERS_MIN_RATIO))
			return;
	if (r->nunexplained == TIERS_MAX_UNEXPLAINED)
		return;
	tiers_growth(wk, share, stride, &pfrom, &pmax);
	u = &r->unexplained[r->nunexplained++];
	u->lat_us_p50 = lat_us;
	u->share_max = share[pmax * stride];
	u->from_ws = wk->pt[pfrom].p->ws_bytes;
	u->to_ws = wk->pt[pmax].p->ws_bytes;
}

/*
 * A class of reads at lat_us that grows with ws in the place of classes
 * [first, last] (tier grp, or -1: the store), share[p * stride] of point
 * p's reads, which step 5 cannot explain: whether the clock does.  A
 * cache's class holds the share min(1, C / S) gives it whenever a
 * working set is measured; a place whose latency drifts during the scan
 * (a disk under other work) changes its classes' shares with the time a
 * point is measured, which a scan growing its working set ties to ws.
 * So: a place that drifted at a working set measured again
 * (tiers_group_drifted) explains it (tiers_say_drift says so); one that
 * kept its reads as they were leaves it unexplained.  With none measured
 * again, the scan is asked to measure again the smallest working set
 * where the place holds TIERS_AGAIN_WHOLE of the reads (the first
 * measured of them, the furthest in time from the end); until then a
 * class behind the last tier, which leaves the tiers as they are, is a
 * doubt said in the note, and any other unexplained.  Returns 1 when the
 * class is explained, or only in doubt.
 */
static int
tiers_drifted(const struct tiers_work *wk, struct tiers_result *r,
    double lat_us, size_t first, size_t last, int grp, const double *share,
    size_t stride)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char	again[UNITS_BUFSZ + 32], line[320];
	double	x[2], in, out;
	size_t	p, at, from, to;
	int	rc;

	if ((rc = tiers_group_drifted(wk, r, first, last, &at, x)) >= 0)
		return (rc);
	for (p = 0; p < wk->np; p++) {
		tiers_split(r->point_mode_frac + p * r->nmodes, first, last,
		    last, &in, &out);
		if (in >= TIERS_AGAIN_WHOLE &&
		    in * wk->pt[p].n >= TIERS_CUT_MIN_READS)
			break;
	}
	again[0] = '\0';
	if (p < wk->np) {
		tiers_again(r, wk->pt[p].p->ws_bytes);
		snprintf(again, sizeof again, "; measuring %s again would "
		    "tell", units_format_size(wk->pt[p].p->ws_bytes, c,
		    sizeof c));
	}
	if (grp >= 0 || r->ntiers == 0)
		return (0);
	tiers_growth(wk, share, stride, &from, &to);
	snprintf(line, sizeof line, "reads at ~%s grow between %s and %s: "
	    "a cache in front of the store, or the store's latency drifting "
	    "during the scan%s", units_format_lat_us(lat_us, a, sizeof a),
	    units_format_size(wk->pt[from].p->ws_bytes, b, sizeof b),
	    units_format_size(wk->pt[to].p->ws_bytes, c, sizeof c), again);
	tiers_note_add(r, line);
	return (1);
}

/*
 * The boundaries whose law failed (no fit, or a misfit) while their
 * classes' split moves with ws (tiers_split_moves): the slower class is
 * unexplained.
 */
static void
tiers_unexplained_splits(const struct tiers_work *wk, struct tiers_result *r)
{
	size_t	i, first = 0, last;
	double	lo = 0, hi;

	for (i = 0; i + 1 < r->nmodes; i++) {
		if (tiers_accepted(r, i)) {
			first = i + 1;
			lo = r->boundary[i].capacity_bytes;
			continue;
		}
		if (r->boundary[i].verdict != TIERS_MISFIT &&
		    r->boundary[i].verdict != TIERS_NO_FIT)
			continue;
		for (last = i + 1; last + 1 < r->nmodes &&
		    !tiers_accepted(r, last); last++)
			;
		hi = last + 1 < r->nmodes ? r->boundary[last].capacity_bytes :
		    INFINITY;
		if (tiers_split_moves(wk, r, first, i, last, lo, hi) &&
		    !tiers_drifted(wk, r, r->mode[i + 1].lat_us_p50, first,
		    last, r->mode[first].tier, r->point_mode_frac + i + 1,
		    r->nmodes))
			tiers_add_unexplained(wk, r, r->mode[i + 1].lat_us_p50,
			    r->point_mode_frac + i + 1, r->nmodes);
	}
}

/*
 * Step 5: the classes of reads set apart by valleys whose shares change
 * with ws and that no tier explains, and those of the boundaries whose law
 * failed while their split moves; clears r->analysed if any.
 */
static void
tiers_unexplained(const struct tiers_work *wk, struct tiers_result *r)
{
	struct tiers_seg	*g, *lead;
	double			 best, s, top, gs, held[TIERS_MAX + 1], *share;
	double			 lat;
	size_t			 n, i, m, p, pmax, first, last;
	int			 grp;

	g = xcalloc(wk->nb + 1, sizeof *g);
	share = xcalloc(wk->np, sizeof *share);
	n = tiers_segments(wk, g);
	for (i = 0; i < n; i++) {
		/* The group holding most of its reads. */
		memset(held, 0, sizeof held);
		for (m = g[i].lo; m < g[i].hi; m++)
			held[tiers_bin_group(wk, r, m) + 1] += wk->w[m];
		for (g[i].group = -1, m = 1; m <= r->ntiers; m++)
			if (held[m] > held[g[i].group + 1])
				g[i].group = (int)m - 1;
	}
	for (grp = -1; grp < (int)r->ntiers; grp++) {
		first = grp < 0 ? (r->ntiers == 0 ? 0 :
		    r->tier[r->ntiers - 1].first_mode +
		    r->tier[r->ntiers - 1].nmodes) : r->tier[grp].first_mode;
		last = grp < 0 ? r->nmodes - 1 : first +
		    r->tier[grp].nmodes - 1;
		/* Its lead: the segment with most reads where it peaks. */
		for (pmax = 0, top = -1, p = 0; p < wk->np; p++) {
			for (gs = 0, i = 0; i < n; i++)
				if (g[i].group == grp)
					gs += tiers_seg_share(wk, &g[i], p);
			if (gs > top) {
				top = gs;
				pmax = p;
			}
		}
		for (lead = NULL, best = -1, i = 0; i < n; i++) {
			if (g[i].group != grp)
				continue;
			s = tiers_seg_share(wk, &g[i], pmax);
			if (s > best) {
				best = s;
				lead = &g[i];
			}
		}
		for (i = 0; i < n && lead != NULL; i++) {
			if (g[i].group != grp || &g[i] == lead ||
			    tiers_seg_together(wk, &g[i], lead) ||
			    tiers_seg_turns(wk, &g[i], lead))
				continue;
			/* Medians close: one place whose latency shifted. */
			if (fabs(tiers_seg_median(wk, &g[i]) -
			    tiers_seg_median(wk, lead)) < log(TIERS_MIN_RATIO))
				continue;
			/* The faster gaining on the slower: one place. */
			if (tiers_seg_shifted(wk, &g[i], lead))
				continue;
			/* Its tier's hits at a second speed (step 3). */
			if (tiers_seg_second(wk, r, &g[i]))
				continue;
			/*
			 * The store's slow tail grows up to the top with the
			 * store: a class growing as its lead shrinks is the
			 * store behind a cache no tier explains.
			 */
			if (grp == -1 && g[i].lo > lead->lo &&
			    tiers_seg_share(wk, &g[i], wk->np - 1) >=
			    TIERS_TAIL_TOP * g[i].share_max &&
			    tiers_seg_share(wk, lead, wk->np - 1) >=
			    TIERS_TAIL_TOP * lead->share_max)
				continue;
			for (p = 0; p < wk->np; p++)
				share[p] = tiers_seg_share(wk, &g[i], p);
			lat = exp(tiers_seg_median(wk, &g[i])) / 1000;
			if (!tiers_drifted(wk, r, lat, first, last, grp, share,
			    1))
				tiers_add_unexplained(wk, r, lat, share, 1);
		}
	}
	free(share);
	tiers_unexplained_splits(wk, r);
	if (r->nunexplained > 0)
		r->analysed = 0;
	free(g);
}

/* Say in r->note what a reader should know: disagreement, loose ends. */
static void
tiers_note(struct tiers_result *r, const char *why)
{
	char			 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char			 c[UNITS_BUFSZ];
	const struct tiers_boundary *bd;
	const struct tiers_unexplained *u;
	size_t			 i, len;
	int			 open = 0;

	for (i = 0; i < r->nunexplained; i++) {
		u = &r->unexplained[i];
		len = strlen(r->note);
		snprintf(r->note + len, sizeof r->note - len, "%sa class of "
		    "reads at ~%s grows between %s and %s and is not "
		    "explained: %s?", len > 0 ? "; " : "",
		    units_format_lat_us(u->lat_us_p50, a, sizeof a),
		    units_format_size(u->from_ws, b, sizeof b),
		    units_format_size(u->to_ws, c, sizeof c),
		    r->ntiers == 0 ? "a cache" : "another cache");
	}
	for (i = 0; i + 1 < r->nmodes; i++)
		open |= r->boundary[i].verdict == TIERS_WIDE ||
		    r->boundary[i].verdict == TIERS_UNTESTED;
	if (r->agree == 0) {
		len = strlen(r->note);
		snprintf(r->note + len, sizeof r->note - len, "%s%s%s%s",
		    len > 0 ? "; " : "", r->ntiers > 0 ?
		    "methods disagree: " : "", why, r->ntiers > 0 ||
		    r->nunexplained > 0 || open ? "" : r->nmodes == 1 ?
		    " but no second class of latency appeared, so no cache" :
		    " but no class of reads took a cache's share, so no "
		    "cache");
	}
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		if (bd->verdict != TIERS_WIDE)
			continue;
		len = strlen(r->note);
		snprintf(r->note + len, sizeof r->note - len,
		    "%sa possible cache of %s (95%%: %s to %s) is not "
		    "established", len > 0 ? "; " : "",
		    units_format_size((uint64_t)fmax(bd->capacity_bytes, 0),
		    a, sizeof a),
		    units_format_size((uint64_t)fmax(bd->low_bytes, 0),
		    b, sizeof b),
		    units_format_size((uint64_t)fmax(bd->high_bytes, 0),
		    c, sizeof c));
		break;
	}
}

/*
 * Nothing silent where the points are too few: a boundary whose law could
 * not be tested (tiers_untested, said when judged), else a shift of mean
 * latency without a tier seen at fewer than TIERS_TEST_POINTS points
 * (tiers_drift called it a drift), or a class of reads that holds
 * TIERS_CUT_SHARE of fewer than TIERS_SEEN_POINTS points' reads, too few
 * to search it for another cut (step 1), may hide a cache or make a false
 * one.  Each clears r->analysed; the class is said in r->note unless a
 * boundary next to it was.
 */
static void
tiers_too_few(const struct tiers_work *wk, struct tiers_result *r)
{
	char	 a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ], line[256];
	double	 share;
	size_t	 m, p, n, at = 0;

	for (m = 0; m + 1 < r->nmodes; m++)
		if (r->boundary[m].verdict == TIERS_UNTESTED)
			r->analysed = 0;
	for (n = 0, p = 0; r->analysed && r->ntiers == 0 && r->ncp > 0 &&
	    p < wk->np; p++)
		n += r->point_ws[p] >= r->cp_ws[0];
	if (n > 0 && n < TIERS_TEST_POINTS) {
		snprintf(line, sizeof line, "but only %zu working set lies "
		    "above that shift, too few to tell a cache from a drift; "
		    "more points there would tell", n);
		tiers_note_add(r, line);
		r->analysed = 0;
	}
	for (m = 0; m < r->nmodes; m++) {
		for (n = 0, p = 0; p < wk->np; p++) {
			share = r->point_mode_frac[p * r->nmodes + m];
			if (share >= TIERS_CUT_SHARE &&
			    share * wk->pt[p].n >= TIERS_CUT_MIN_READS) {
				at = p;
				n++;
			}
		}
		if (n == 0 || n >= TIERS_SEEN_POINTS ||
		    (m > 0 && r->boundary[m - 1].verdict == TIERS_UNTESTED) ||
		    (m + 1 < r->nmodes &&
		    r->boundary[m].verdict == TIERS_UNTESTED))
			continue;
		units_format_lat_us(r->mode[m].lat_us_p50, a, sizeof a);
		units_format_size(wk->pt[at].p->ws_bytes, b, sizeof b);
		if (m + 1 == r->nmodes && at + 1 == wk->np && r->unseen_from) {
			/* Past what any cut could see: said, not doubted. */
			units_format_size(r->unseen_from, c, sizeof c);
			snprintf(line, sizeof line, "reads at ~%s are seen at "
			    "the largest working set only (%s): the store's "
			    "slow tail, or the misses of a cache larger than "
			    "%s, which this scan cannot see", a, b, c);
			tiers_note_add(r, line);
			continue;
		}
		snprintf(line, sizeof line, "reads at ~%s are seen at one "
		    "working set only (%s), too few to tell whether they come "
		    "from one place or more; more points around it would "
		    "tell", a, b);
		tiers_note_add(r, line);
		r->analysed = 0;
	}
}

/*
 * A cache hidden between the last tier and the store: its class overlaps
 * the store's without a valley (2 and 7 ms), so no cut parts them and they
 * make one class.  The store's p50 at the points past the last tier then
 * climbs with ws, from the hidden cache's latency towards the store's, as
 * the cache's share of those reads falls; a store alone keeps its latency,
 * or switches between two from point to point.  So when that p50 (its
 * standard error from sampling, and TIERS_CP_FLOOR of drift) rises by
 * TIERS_CLIMB_Z sd at TIERS_CLIMB_STEPS steps between points or more, falls
 * by TIERS_RISE_Z sd at none, and climbs by TIERS_CLIMB in all, the
 * analysis is not trusted and the note says where more points would tell.
 * A point counts where the store's classes hold TIERS_TAIL_OUT times the
 * largest share they hold below the last tier's capacity, where the store
 * serves nothing: a point just past it holds few misses, outnumbered by
 * the tier's slow hits (a page cache's at ~10 us, where a disk under load
 * takes ~100), and their p50 is not the store's.
 */
static void
tiers_store_climbs(const struct tiers_work *wk, struct tiers_result *r)
{
	const struct tier *t;
	char		 a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char		 d[UNITS_BUFSZ], line[320], tail[64];
	double		*sum, *x, *se, sww, v, y[2], tail_share = 0;
	size_t		*at, p, n = 0, first, rises = 0, falls = 0, k;
	int		 drifts;

	if (!r->analysed || r->ntiers == 0)
		return;
	t = &r->tier[r->ntiers - 1];
	first = t->first_mode + t->nmodes;
	sum = xcalloc(wk->nb + 2 * wk->np, sizeof *sum);
	x = sum + wk->nb;
	se = x + wk->np;
	at = xcalloc(wk->np, sizeof *at);
	for (p = 0; p < wk->np && first < r->nmodes; p++) {
		tiers_split(r->point_mode_frac + p * r->nmodes, first,
		    r->nmodes - 1, r->nmodes - 1, &v, &sww);
		if (wk->pt[p].s <= t->capacity_bytes)
			tail_share = fmax(tail_share, v);
	}
	for (p = 0; p < wk->np && first < r->nmodes; p++) {
		tiers_split(r->point_mode_frac + p * r->nmodes, first,
		    r->nmodes - 1, r->nmodes - 1, &v, &sww);
		if (!(wk->pt[p].s > t->capacity_bytes) ||
		    v < TIERS_TAIL_OUT * tail_share)
			continue;
		memset(sum, 0, wk->nb * sizeof *sum);
		sww = 0;
		if (tiers_group_add(wk, p, wk->pc, wk->f, wk->pw + p * wk->k,
		    first, r->nmodes - 1, sum, &sww) < TIERS_CUT_MIN_READS)
			continue;
		x[n] = tiers_x50(wk, sum, sww, &v);
		if (!isfinite(v))
			continue;
		se[n] = sqrt(v * v + TIERS_CP_FLOOR * TIERS_CP_FLOOR);
		at[n++] = p;
	}
	for (p = 1; p < n; p++) {
		v = sqrt(se[p] * se[p] + se[p - 1] * se[p - 1]);
		rises += x[p] - x[p - 1] > TIERS_CLIMB_Z * v;
		falls += x[p - 1] - x[p] > TIERS_RISE_Z * v;
	}
	/*
	 * Measured again, the store drifted with the clock, or did not; the
	 * first measured of its points tells best (the furthest in time from
	 * the end): until it is measured again, a drift is not ruled out.
	 */
	drifts = tiers_group_drifted(wk, r, first, r->nmodes - 1, &k, y);
	for (p = 0; p < n; p++) {
		tiers_split(r->point_mode_frac + at[p] * r->nmodes, first,
		    r->nmodes - 1, r->nmodes - 1, &v, &sww);
		if (v >= TIERS_AGAIN_WHOLE)
			break;
	}
	for (k = 0; p < n && k < wk->nag; k++)
		if (wk->ag[k].orig == at[p])
			p = n;
	if (drifts == 0 && p < n)
		drifts = -1;
	if (drifts >= 0 || p == n)
		snprintf(tail, sizeof tail, "more points there would tell");
	else
		snprintf(tail, sizeof tail, "measuring %s again would tell",
		    units_format_size(wk->pt[at[p]].p->ws_bytes, a, sizeof a));
	if (rises >= TIERS_CLIMB_STEPS && falls == 0 && drifts != 1 &&
	    x[n - 1] - x[0] >= log(TIERS_CLIMB)) {
		if (drifts < 0 && p < n)
			tiers_again(r, wk->pt[at[p]].p->ws_bytes);
		snprintf(line, sizeof line, "the backing store's latency "
		    "climbs from ~%s at %s to ~%s at %s: a cache in front of "
		    "it%s? %s", units_format_lat_us(exp(x[0]) / 1000, a,
		    sizeof a), units_format_size(wk->pt[at[0]].p->ws_bytes, b,
		    sizeof b), units_format_lat_us(exp(x[n - 1]) / 1000, c,
		    sizeof c), units_format_size(wk->pt[at[n - 1]].p->ws_bytes,
		    d, sizeof d), drifts == 0 ? "" : ", or its latency "
		    "drifting during the scan", tail);
		tiers_note_add(r, line);
		r->analysed = 0;
	}
	free(at);
	free(sum);
}

/*
 * Step 0: the points slower than a larger working set allows.  Under
 * uniform random reads a cache's share of them, min(1, C / S), cannot
 * fall as S shrinks, so neither can the reads faster than any valley of
 * the pooled histogram between two places (tiers_segments): one below
 * the median read of the largest working set (above it lies the store's
 * own latency, whose stalls under a cap come and go), whose slower side
 * holds under TIERS_CUT_SHARE of some point's reads in the smallest
 * octave of ws (else it parts a place's two speeds).  A point
 * whose reads slower than such a valley exceed those of TIERS_ASIDE_AT
 * larger working sets or more by TIERS_ASIDE and TIERS_ASIDE_Z sd was
 * measured while something else slowed the volume (a daemon's threads
 * kept from the CPU, a cache not warm yet): the tiers are fitted without
 * it.  The worst first, then again on the rest, TIERS_MAX_ASIDE at most.
 * Marks aside[p] (wk->pt order), returns how many; *lat_us is the valley
 * of the first.
 */
static size_t
tiers_aside(const struct tiers_work *wk, int *aside, double *lat_us)
{
	struct tiers_seg	*g;
	size_t			 ns, p, q, k, at, worst, mid, nout = 0;
	double			 fp, fq, sd, d, least, most, np, nq, low;
	size_t			 cut = 0;

	g = xcalloc(wk->nb + 1, sizeof *g);
	ns = tiers_segments(wk, g);
	/* The store's median bin at the largest working set. */
	for (mid = 0; mid < wk->nb && tiers_cum(wk, wk->np - 1, mid + 1) <
	    wk->pt[wk->np - 1].n / 2; mid++)
		;
	while (nout < TIERS_MAX_ASIDE) {
		worst = wk->np;
		most = 0;
		for (p = 0; p + 1 < wk->np; p++) {
			if (aside[p])
				continue;
			np = wk->pt[p].n;
			for (k = 1; k < ns && g[k].lo <= mid; k++) {
				/* A place's second speed is no valley. */
				for (low = 1, q = 0; q < wk->np &&
				    wk->pt[q].s <= 2 * wk->pt[0].s; q++)
					low = fmin(low, 1 - tiers_cum(wk, q,
					    g[k].lo) / wk->pt[q].n);
				if (low >= TIERS_CUT_SHARE)
					continue;
				fp = 1 - tiers_cum(wk, p, g[k].lo) / np;
				least = INFINITY;
				for (at = 0, q = p + 1; q < wk->np; q++) {
					if (aside[q])
						continue;
					nq = wk->pt[q].n;
					fq = 1 - tiers_cum(wk, q, g[k].lo) / nq;
					d = fp - fq;
					sd = sqrt(fmax(fp * (1 - fp), 0.25 /
					    np) / np + fmax(fq * (1 - fq),
					    0.25 / nq) / nq);
					if (d > TIERS_ASIDE &&
					    d > TIERS_ASIDE_Z * sd) {
						at++;
						least = fmin(least, d);
					}
				}
				if (at >= TIERS_ASIDE_AT && least > most) {
					most = least;
					worst = p;
					cut = g[k].lo;
				}
			}
		}
		if (worst == wk->np)
			break;
		if (nout++ == 0)
			*lat_us = exp(wk->x[cut]) / 1000;
		aside[worst] = 1;
	}
	free(g);
	return (nout);
}

/*
 * The points of pts that tiers_aside does not set apart, into *kept (nk
 * of them; NULL when none is set apart), and in list and why (len bytes
 * each) which are, and why; returns how many are set apart.
 */
static size_t
tiers_kept(const struct point *pts, size_t n, struct point **kept,
    size_t *nk, char *list, char *why, size_t len)
{
	struct tiers_work	 wk;
	char			 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	int			*aside;
	double			 lat = 0;
	size_t			 p, i, nout, at;

	*kept = NULL;
	*list = '\0';
	memset(&wk, 0, sizeof wk);
	nout = 0;
	if (tiers_gather(pts, n, &wk) == 0) {
		aside = xcalloc(wk.np + 1, sizeof *aside);
		nout = tiers_aside(&wk, aside, &lat);
		if (nout > 0)
			*kept = xcalloc(n, sizeof **kept);
		for (*nk = 0, i = 0; i < n && nout > 0; i++) {
			for (p = 0; p < wk.np; p++)
				if (aside[p] && wk.pt[p].p == &pts[i])
					break;
			if (p == wk.np) {
				(*kept)[(*nk)++] = pts[i];
				continue;
			}
			at = strlen(list);
			snprintf(list + at, len - at, "%s%s",
			    at > 0 ? ", " : "", units_format_size(
			    pts[i].ws_bytes, a, sizeof a));
		}
		free(aside);
	}
	tiers_work_free(&wk);
	if (nout > 0)
		snprintf(why, len, "more of %s reads were slower than ~%s than "
		    "at larger working sets, which no cache makes (something "
		    "else slowed the volume while %s measured)", nout == 1 ?
		    "its" : "their", units_format_lat_us(lat, b, sizeof b),
		    nout == 1 ? "it was" : "they were");
	return (nout);
}

/*
 * The smallest cache the points cannot see: one is seen when
 * TIERS_TEST_POINTS points or more above it hold TIERS_CUT_SHARE of
 * misses each (a cut needs a class holding that much of some point's
 * reads, and its law points to be tested on, step 1 and 3), so a cache
 * above (1 - TIERS_CUT_SHARE) times the TIERS_TEST_POINTS-th largest ws
 * could go unseen.
 */
static void
tiers_unseen(const struct tiers_work *wk, struct tiers_result *r)
{
	if (wk->np >= TIERS_TEST_POINTS)
		r->unseen_from = (uint64_t)((1 - TIERS_CUT_SHARE) *
		    wk->pt[wk->np - TIERS_TEST_POINTS].s);
}

/* Steps 1 to 5 on pts. */
static int
tiers_fit(const struct point *pts, size_t n, struct tiers_result *r)
{
	struct tiers_work	wk;
	char			why[200] = "";
	int			rc = -1;

	tiers_result_free(r);
	memset(&wk, 0, sizeof wk);
	if (tiers_gather(pts, n, &wk) != 0) {
		snprintf(r->note, sizeof r->note, "no latency histograms");
		goto out;
	}
	r->min_ws = wk.pt[0].p->ws_bytes;
	r->max_ws = wk.pt[wk.np - 1].p->ws_bytes;
	tiers_unseen(&wk, r);
	if (wk.np < TIERS_MIN_POINTS) {
		snprintf(r->note, sizeof r->note, "%zu point%s: tiers need at "
		    "least %d", wk.np, wk.np == 1 ? "" : "s",
		    TIERS_MIN_POINTS);
		goto out;
	}
	tiers_classes(&wk, r);
	tiers_fractions(&wk, r);
	tiers_again_shares(&wk, r);
	tiers_assemble(&wk, r);
	tiers_crosscheck(&wk, r, why, sizeof why);
	r->fitted = r->analysed = 1;
	tiers_unexplained(&wk, r);
	tiers_say_drift(&wk, r);
	tiers_note(r, why);
	tiers_too_few(&wk, r);
	tiers_store_climbs(&wk, r);
	rc = 0;
out:
	tiers_work_free(&wk);
	return (rc);
}

/*
 * Find the cache tiers in the points of a scan.  The points step 0 sets
 * aside blur the law of a cache (two caches merged into one), but a
 * kernel's cache follows it only roughly, and a point set aside can take
 * a law's evidence with it: the fit without them is kept when it is
 * analysed and finds more tiers than the fit with them, or that one is
 * not analysed; else the fit with them, and the note says the doubt.
 */
static enum tiers_method tiers_method = TIERS_RULES;

void
tiers_set_method(enum tiers_method m)
{
	tiers_method = m;
}

enum tiers_method
tiers_get_method(void)
{
	return (tiers_method);
}

int
tiers_analyse(const struct point *pts, size_t n, struct tiers_result *r)
{
	struct tiers_result	 all;
	struct point		*kept;
	char			 list[256], why[256], said[512];
	size_t			 nk = 0;
	int			 rc;

	if (tiers_method == TIERS_MODEL)
		return (tiermodel_analyse(pts, n, r));
	if (tiers_kept(pts, n, &kept, &nk, list, why, sizeof list) == 0)
		return (tiers_fit(pts, n, r));
	tiers_result_init(&all);
	rc = tiers_fit(pts, n, &all);
	if (tiers_fit(kept, nk, r) == 0 && r->analysed && (rc != 0 ||
	    !all.analysed || r->ntiers > all.ntiers)) {
		rc = 0;
		snprintf(said, sizeof said, "%s set aside: %s", list, why);
		tiers_note_add(r, said);
	} else {
		tiers_result_free(r);
		*r = all;
		tiers_result_init(&all);
		snprintf(said, sizeof said, "%s kept, though %s", list, why);
		tiers_note_add(r, said);
	}
	tiers_result_free(&all);
	free(kept);
	return (rc);
}

/* A boundary with a fitted capacity worth more reads. */
static int
tiers_is_candidate(enum tiers_verdict v)
{
	return (v == TIERS_TIER || v == TIERS_AT_LEAST || v == TIERS_WIDE);
}

/* Add ws to the plan unless it is out of range or near a measured one. */
static void
tiers_plan_add(double ws, uint64_t min_ws, uint64_t max_ws, uint32_t align,
    const uint64_t *have, size_t nhave, uint64_t *out, size_t *nout,
    size_t max_out)
{
	uint64_t	v;
	size_t		i;

	if (*nout >= max_out || !(ws > 0))
		return;
	if (align == 0)
		align = 1;
	ws = fmin(fmax(ws, (double)min_ws), (double)max_ws);
	v = (uint64_t)llround(ws / align) * align;
	if (v < align)
		v = align;
	if (v < min_ws || v > max_ws)
		return;
	for (i = 0; i < nhave; i++)
		if (fabs((double)v - have[i]) <= TIERS_NEAR * have[i])
			return;
	for (i = 0; i < *nout; i++)
		if (fabs((double)v - out[i]) <= TIERS_NEAR * out[i])
			return;
	out[(*nout)++] = v;
}

/* The working-set sizes to measure next in an adaptive scan. */
size_t
tiers_next_points(const struct point *pts, size_t n,
    const struct tiers_result *r, uint64_t min_ws, uint64_t max_ws,
    uint32_t align, uint64_t *out, size_t max_out)
{
	static const double	 above[] = { 1.15, 1.4, 2.0 };
	const struct tiers_boundary *bd;
	uint64_t		*have, lo, hi;
	size_t			 nhave, nout = 0, i, j, best;
	double			 c, ratio;

	have = xcalloc(n + 1, sizeof *have);
	for (i = 0; i < n; i++)
		have[i] = pts[i].ws_bytes;
	nhave = n;
	qsort(have, nhave, sizeof *have, tiers_cmp_u64);

	if (r != NULL && r->fitted) {
		/* Capacities not yet known to the target: sample above them. */
		for (i = 0; i + 1 < r->nmodes; i++) {
			bd = &r->boundary[i];
			if (!tiers_is_candidate(bd->verdict))
				continue;
			c = bd->capacity_bytes;
			if (bd->verdict == TIERS_TIER &&
			    (bd->high_bytes - bd->low_bytes) / 2 <=
			    TIERS_TARGET_REL * c)
				continue;
			lo = 0;
			hi = 0;
			for (j = 0; j < nhave; j++) {
				if (have[j] <= c)
					lo = have[j];
				else if (hi == 0)
					hi = have[j];
			}
			if (lo > 0 && hi > 0 && (double)hi / lo > 1.1)
				tiers_plan_add(sqrt((double)lo * hi), min_ws,
				    max_ws, align, have, nhave, out, &nout,
				    max_out);
			for (j = 0; j < sizeof above / sizeof above[0]; j++)
				tiers_plan_add(c * above[j], min_ws, max_ws,
				    align, have, nhave, out, &nout, max_out);
		}
		/* Where mean latency bends between two distant points. */
		for (i = 0; i + 1 < r->npoints; i++) {
			ratio = (double)r->point_ws[i + 1] / r->point_ws[i];
			if (ratio > 1.15 && fabs(r->point_mlog[i + 1] -
			    r->point_mlog[i]) > 0.1)
				tiers_plan_add(sqrt((double)r->point_ws[i] *
				    r->point_ws[i + 1]), min_ws, max_ws, align,
				    have, nhave, out, &nout, max_out);
		}
	} else {
		/* Nothing to go on: fill the widest gaps of the grid. */
		while (nout < max_out) {
			best = nhave;
			ratio = 1.5;
			for (i = 0; i + 1 < nhave; i++) {
				if ((double)have[i + 1] / have[i] > ratio) {
					ratio = (double)have[i + 1] / have[i];
					best = i;
				}
			}
			if (best == nhave)
				break;
			j = nout;
			tiers_plan_add(sqrt((double)have[best] *
			    have[best + 1]), min_ws, max_ws, align, have,
			    nhave, out, &nout, max_out);
			if (nout == j)
				break;
			have = xreallocarray(have, nhave + 1, sizeof *have);
			have[nhave++] = out[nout - 1];
			qsort(have, nhave, sizeof *have, tiers_cmp_u64);
		}
	}
	free(have);
	qsort(out, nout, sizeof *out, tiers_cmp_u64);
	return (nout);
}

/* Whether every capacity candidate's interval is within target_rel. */
int
tiers_pinned(const struct tiers_result *r, double target_rel)
{
	const struct tiers_boundary	*bd;
	size_t				 i;

	if (r == NULL || !r->fitted)
		return (0);
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		if (bd->verdict == TIERS_WIDE)
			return (0);
		if (bd->verdict == TIERS_TIER && (bd->high_bytes -
		    bd->low_bytes) / 2 > target_rel * bd->capacity_bytes)
			return (0);
	}
	return (1);
}

/* Whether the backing store's p50 has a 95% interval within target_rel. */
int
tiers_backing_pinned(const struct tiers_result *r, double target_rel)
{
	if (r == NULL || !r->fitted || isnan(r->backing_p50_se))
		return (1);
	return (1.96 * r->backing_p50_se <= log1p(target_rel));
}

/*
 * Whether n reads in nb bins (bin, counts c) pin fr, the fraction of reads
 * in the classes of the mask in, to target_rel.
 */
static int
tiers_frac_enough(const struct tiers_result *r, const double *pi,
    const double *w0, unsigned in, double fr, const size_t *bin,
    const double *c, size_t nb, double n, double target_rel)
{
	double	info, var;

	info = tiers_frac_info(r->shape, r->shape_nbins, r->nmodes, pi, w0,
	    in, fr, bin, c, nb);
	var = fmax(info > 0 ? 1 / info : INFINITY, fr * (1 - fr) / n);
	return (sqrt(var) / fr <= target_rel);
}

/* Whether a point's partial histogram pins every class and candidate. */
int
tiers_point_enough(const struct tiers_result *r, uint64_t ws_bytes,
    const struct hist *h, double target_rel)
{
	const struct tiers_boundary *bd;
	double		 w0[TIERS_MAX_MODES], pi[TIERS_MAX_MODES], *c, f, n;
	double		 prev;
	size_t		 b, nb = 0, i, j, *bin, k;
	long		 at;
	int		 any = 0, rc = 1, mixed;

	if (r == NULL || !r->fitted || r->shape == NULL || h == NULL)
		return (-1);
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		any |= tiers_is_candidate(bd->verdict);
	}
	if (!any && r->nmodes < 2)
		return (-1);
	if (h->count < TIERS_ENOUGH_MIN_IOS)
		return (0);

	k = r->nmodes;
	bin = xcalloc(HIST_BUCKETS, sizeof *bin);
	c = xcalloc(HIST_BUCKETS, sizeof *c);
	for (b = 0; b < HIST_BUCKETS; b++) {
		if (h->bucket[b] == 0)
			continue;
		at = (long)(tiers_bucket_ln(b) / TIERS_BIN) - r->shape_bin0;
		if (at < 0 || at >= (long)r->shape_nbins)
			continue;	/* no class was seen there */
		if (nb > 0 && bin[nb - 1] == (size_t)at) {
			c[nb - 1] += h->bucket[b];
			continue;
		}
		bin[nb] = (size_t)at;
		c[nb++] = h->bucket[b];
	}
	for (j = 0; j < k; j++)
		w0[j] = pi[j] = r->mode[j].share;
	tiers_shares(r->shape, r->shape_nbins, k, bin, c, nb, 1e-7, pi);
	n = (double)h->count;
	for (mixed = 0, i = 0; i < k; i++)
		mixed += pi[i] >= TIERS_ENOUGH_SHARE;
	if (mixed >= 2 && n < TIERS_ENOUGH_MIX_IOS)
		rc = 0;
	for (prev = 0, i = 0; i < k; i++) {
		/* Every class with a share worth a word, to target_rel. */
		f = pi[i];
		if (f >= TIERS_ENOUGH_SHARE && !tiers_frac_enough(r, pi, w0,
		    1U << i, f, bin, c, nb, n, target_rel))
			rc = 0;
		f = prev += pi[i];
		if (i + 1 == k)
			break;
		bd = &r->boundary[i];
		if (!tiers_is_candidate(bd->verdict))
			continue;
		if ((double)ws_bytes <= bd->capacity_bytes)
			continue;	/* below the cache: all hits */
		if (f < 0.1)
			continue;	/* deep in the tail: little to say */
		if (!tiers_frac_enough(r, pi, w0, (1U << (i + 1)) - 1, f, bin,
		    c, nb, n, target_rel))
			rc = 0;
	}
	free(c);
	free(bin);
	return (rc);
}

/* Share of reads each tier serves at working set ws, by the model. */
void
tiers_model_share(const struct tiers_result *r, double ws, double *share)
{
	double	prev = 0, hit;
	size_t	i;

	for (i = 0; i < r->ntiers; i++) {
		hit = fmin(1, r->tier[i].capacity_bytes / ws);
		share[i] = hit - prev;
		prev = hit;
	}
	share[r->ntiers] = 1 - prev;
}

/* Mean latency the model predicts at working set ws, from tier p50s. */
double
tiers_model_lat_us(const struct tiers_result *r, double ws)
{
	double	share[TIERS_MAX + 1], sum = 0;
	size_t	i;

	tiers_model_share(r, ws, share);
	for (i = 0; i < r->ntiers; i++)
		sum += share[i] * r->tier[i].lat_us_p50;
	if (share[r->ntiers] > 0) {
		if (!isfinite(r->backing_p50_us))
			return (NAN);
		sum += share[r->ntiers] * r->backing_p50_us;
	}
	return (sum);
}

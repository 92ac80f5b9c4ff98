/* SPDX-License-Identifier: ISC */
/*
 * Ceilings and burst buckets from measured points: pure analysis (arrays in,
 * results out), no I/O.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "changepoint.h"
#include "fit.h"
#include "hist.h"
#include "point.h"
#include "stats.h"
#include "timeline.h"
#include "xmalloc.h"

/*
 * The iodepth sweep.  IOPS(d) at 4 KiB rises as d / lat0 while the device
 * has idle parallelism, then stops at a ceiling.  By Little's law (I/Os in
 * flight = IOPS x latency), once IOPS is flat the latency grows in
 * proportion to d: that is what a rate cap looks like, and it is told from
 * an unsaturated device by the last doubling of depth: a gain below
 * CEILINGS_FLAT_GAIN means the curve has flattened.  A flat curve is only
 * the volume's if the queue really was full (IOPS x latency / d near 1)
 * and our own CPU was not saturated.  IOPS falling by more than
 * 1 - CEILINGS_DROP_MAX, and beyond both points' 95% intervals, as the
 * queue deepens is no knee but a change of state (a burst bucket running
 * dry): only the points before the fall are analysed.  The ceiling is the
 * knee fit's (fit.c, a smooth min(d / lat0, c)) when at least
 * CEILINGS_FIT_PLATEAU points lie on the plateau and the fit agrees with
 * their median within CEILINGS_FIT_AGREE; otherwise the median (with a
 * knee at the plateau's edge the smooth corner pulls the fitted ceiling
 * up).
 *
 * A ceiling comes with a 95% interval from its plateau's np points, each
 * known to its own relative half-width e (ci95_rel of the mean latency,
 * which by Little's law is the rate's), widened to hold for all np at
 * once (Bonferroni: z at 1 - 0.025 / np): the device sustained at least
 * max y (1 - k e) and, as far as the sweep shows, at most max y (1 + k e),
 * k = z / 1.96.  An estimate outside that interval (below it: a plateau
 * still creeping up, as on a fast real disk) is moved to its edge, so a
 * ceiling is never put below a point by more than the point's own error,
 * nor its interval below any point.  Where no ceiling shows (still rising
 * at the sweep's edge, or tierprobe's CPU or queue the limit), the most
 * seen is reported as a lower bound (its own 1 - e), with no upper end.
 *
 * Caches in front of the store serve a share h of the sweeps' reads when
 * the working set cannot be made large enough to make it negligible (the
 * plan sizes it at 50 times the last cache where the target allows).
 * Hits that stay at cache latency while the queue is deep did not wait
 * for the limit: it bounded the misses alone, and the store's ceiling is
 * the measured one times 1 - h (h as fitted by the scan).  Hits that
 * queue like misses share the limit: then the ceiling holds as measured.
 *
 * The block-size sweep runs at one depth past the knee.  Bandwidth rises
 * with size until a cap; IOPS stays at the IOPS ceiling until then.  An
 * imposed cap is a sharp corner and its level is the plateau's (median, or
 * the fit when they agree, as above).  A device without one bends gently
 * (transfer time adds to latency: bandwidth = d x bs / (lat0 + bs / rate),
 * the knee model with sharpness 1) and approaches its rate only as sizes
 * grow without bound; then, if the fit is good, the fitted asymptote is the
 * ceiling, as long as it is within CEILINGS_ASYMPTOTE_MAX of what was seen
 * (the last doubling gained under 10%, so it cannot be much further).
 *
 * A volume that counts I/O in units of A bytes shows a signature: IOPS
 * flat up to a swept size A, exactly halving at 2A, and bandwidth flat at
 * c x A from there.  So does a bandwidth cap of c x A, at every size that
 * is a multiple of A, as the sweep's are: the sweep alone cannot tell
 * them apart (A is then only a candidate).  An I/O of 1.5 A can: a volume
 * that counts whole units (splits larger I/O, as EBS does) charges it two,
 * so it runs at c / 2, while a bandwidth cap lets c / 1.5 through.  The
 * probe at that size, within the sweep's tolerance of one rate and not of
 * the other, decides; otherwise both stay possible.
 *
 * The sustained run's per-interval IOPS is cut into segments of constant
 * mean by PELT (changepoint.c), and adjacent segments whose means differ by
 * less than CEILINGS_MERGE_REL, or by less than CEILINGS_MERGE_SE standard
 * errors, are merged.  A burst is a run of high segments
 * followed by a last, lower one that never recovers: a drop that recovers
 * is variability.  The bucket size is the I/O done above the baseline rate
 * before the drop, counted as a deficit that starts at zero (a full bucket)
 * and refills at the baseline rate: D = max(0, D + ios - baseline x t)
 * over the prior work (sweeps, scan), then over the run's intervals.
 *
 * A run that holds one level may follow a drop in the sweeps: their
 * per-interval work at the run's working set is searched from the end for
 * the last interval clearly above the run's level (ceilings_burst_before);
 * the credits are D up to it.  The sweeps vary the load, so only a level
 * above the run's counts, never one below.  Without a drop, the I/O drawn
 * until a drop could last have shown is what a bucket had to supply to
 * stay unseen: for a bucket of C credits refilling at b over the time T,
 * C + b x T below it means it ran dry within the run, before the sweeps
 * (then the level held is its baseline) or after (and seen).
 */
#define CEILINGS_FLAT_GAIN	1.10	/* per doubling of depth or size */
#define CEILINGS_CPU_BUSY	0.90	/* of one core */
#define CEILINGS_LITTLE_MIN	0.80
#define CEILINGS_KNEE_FRAC	0.90
#define CEILINGS_PLATEAU_FRAC	0.90
#define CEILINGS_FIT_AGREE	0.02
#define CEILINGS_FIT_PLATEAU	3	/* points, for the fit's ceiling */
#define CEILINGS_ACCT_TOL_MIN	0.03	/* flat IOPS, then flat bandwidth */
#define CEILINGS_ACCT_TOL_MAX	0.07
#define CEILINGS_ACCT_TOL_PROBE	0.10	/* the probe's own, at most: the
					   two rates it tells differ by a
					   quarter */
#define CEILINGS_SMOOTH_K	4	/* a gentler bend: no imposed cap */
#define CEILINGS_SMOOTH_RMS	0.03
#define CEILINGS_ASYMPTOTE_MAX	1.15	/* x the largest bandwidth seen */
#define CEILINGS_MERGE_REL	0.15
#define CEILINGS_MERGE_SE	4.0
#define CEILINGS_DROP_MAX	0.80	/* baseline at most this x burst */
#define CEILINGS_SWEEP_DROP_MAX	0.50	/* the same, for a drop the run
					   did not see */
#define CEILINGS_EMPTY_MAX	0.70	/* run at most this x ref_iops */
/* Shortest segment of a sustained run, in intervals. */
#define CEILINGS_MIN_SEG	(CEILINGS_BURST_MIN_INTERVALS / 2)
#define CEILINGS_HELD_Z		1.645	/* one-sided 95% */
#define CEILINGS_BASE_REL	0.05	/* an empty bucket's work, above
					   the baseline */
#define CEILINGS_CACHE_MIN	0.005	/* a share of hits worth correcting */
#define CEILINGS_FT_RATIO	1.5
#define CEILINGS_FT_Z		3.0

struct ceilings_xy {
	double	x;			/* depth or block size */
	double	iops;
	double	bw;
	double	lat_us;
	double	cpu;
	double	ci;			/* relative 95% half-width; 0 unknown */
};

static int
ceilings_cmp_x(const void *a, const void *b)
{
	const struct ceilings_xy	*pa = a, *pb = b;

	return ((pa->x > pb->x) - (pa->x < pb->x));
}

/* Points as (x, iops, ...) sorted by x; x is depth or size.  Caller frees. */
static struct ceilings_xy *
ceilings_sorted(const struct point *pts, size_t n, int by_bs)
{
	struct ceilings_xy	*v;
	size_t			 i;

	v = xcalloc(n ? n : 1, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].x = by_bs ? pts[i].bs : pts[i].iodepth;
		v[i].iops = pts[i].iops;
		v[i].bw = pts[i].bytes_per_s;
		v[i].lat_us = pts[i].lat_us.mean;
		v[i].cpu = pts[i].cpu_util;
		v[i].ci = isfinite(pts[i].ci95_rel) && pts[i].ci95_rel > 0 ?
		    pts[i].ci95_rel : 0;
	}
	qsort(v, n, sizeof *v, ceilings_cmp_x);
	return (v);
}

static double
ceilings_y(const struct ceilings_xy *p, int bw)
{
	return (bw ? p->bw : p->iops);
}

/*
 * The 95% interval of a ceiling *c from plateau points [from, n), and *c
 * moved into it (an asymptote above the points widens it instead).
 */
static void
ceilings_interval(const struct ceilings_xy *v, size_t from, size_t n, int bw,
    double *c, double *lo, double *hi)
{
	double	y, k;
	size_t	i;

	k = fit_normal_quantile(1 - 0.025 / (n - from)) / 1.96;
	*lo = *hi = -INFINITY;
	for (i = from; i < n; i++) {
		y = ceilings_y(&v[i], bw);
		*lo = fmax(*lo, y * (1 - k * v[i].ci));
		*hi = fmax(*hi, y * (1 + k * v[i].ci));
	}
	*c = fmax(*c, *lo);
	*hi = fmax(*hi, *c);
}

/* No ceiling within the sweep: the most seen, point i, as a lower bound. */
static void
ceilings_lower_bound(const struct ceilings_xy *v, size_t i, int bw, double *c,
    double *lo, double *hi, int *at_least)
{
	*c = ceilings_y(&v[i], bw);
	*lo = *c * (1 - v[i].ci);
	*hi = NAN;
	*at_least = 1;
}

/* Gain of y from point i-1 to i, per doubling of x. */
static double
ceilings_gain(const struct ceilings_xy *v, size_t i, int bw)
{
	double	y0, y1, doublings;

	y0 = bw ? v[i - 1].bw : v[i - 1].iops;
	y1 = bw ? v[i].bw : v[i].iops;
	doublings = log2(v[i].x / v[i - 1].x);
	if (!(y0 > 0) || !(doublings > 0))
		return (NAN);
	return (pow(y1 / y0, 1 / doublings));
}

/*
 * Our side of points [from, to): median CPU use and median Little's law
 * ratio (I/Os in flight by IOPS x mean latency, over the depth asked).
 */
static void
ceilings_host(const struct ceilings_xy *v, size_t from, size_t to,
    struct ceilings_iops *out)
{
	double	*cpu, *lit;
	size_t	 i, nc = 0, nl = 0;

	cpu = xcalloc(to - from + 1, sizeof *cpu);
	lit = xcalloc(to - from + 1, sizeof *lit);
	for (i = from; i < to; i++) {
		if (isfinite(v[i].cpu))
			cpu[nc++] = v[i].cpu;
		if (isfinite(v[i].lat_us) && v[i].lat_us > 0)
			lit[nl++] = v[i].iops * v[i].lat_us * 1e-6 / v[i].x;
	}
	out->cpu_util = stats_median(cpu, nc);
	out->little_ratio = stats_median(lit, nl);
	free(cpu);
	free(lit);
}

/* Analyse an iodepth sweep; see ceilings.h. */
int
ceilings_iops(const struct point *pts, size_t n, struct ceilings_iops *out)
{
	struct ceilings_xy	*v;
	struct fit_knee		 fk;
	double			*x, *y, *plat, median, gain;
	size_t			 i, imax, first, np;
	int			 fitted;

	memset(out, 0, sizeof *out);
	out->limit = CEILINGS_IOPS_UNKNOWN;
	out->ceiling = out->ceiling_low = out->ceiling_high = NAN;
	out->knee_fit = NAN;
	out->lat0_us = NAN;
	out->max_seen = NAN;
	out->cpu_util = NAN;
	out->little_ratio = NAN;
	if (n == 0)
		return (-1);

	v = ceilings_sorted(pts, n, 0);
	/*
	 * A fall is a change of state, not a knee: keep what came before.
	 * Within the points' own noise (a busy host) it is no fall.
	 */
	for (i = 1, imax = 0; i < n; i++) {
		if (v[i].iops < CEILINGS_DROP_MAX * v[imax].iops &&
		    v[i].iops * (1 + v[i].ci) <
		    v[imax].iops * (1 - v[imax].ci)) {
			out->fell_iodepth = v[i].x;
			n = i;
			break;
		}
		if (v[i].iops > v[imax].iops)
			imax = i;
	}
	out->max_seen = v[imax].iops;
	out->max_seen_iodepth = v[imax].x;
	ceilings_host(v, n - 1, n, out);
	out->lat0_us = v[0].lat_us;
	if (n < 2) {
		ceilings_lower_bound(v, imax, 0, &out->ceiling,
		    &out->ceiling_low, &out->ceiling_high, &out->at_least);
		free(v);
		return (-1);
	}

	x = xcalloc(n, sizeof *x);
	y = xcalloc(n, sizeof *y);
	for (i = 0; i < n; i++) {
		x[i] = v[i].x;
		y[i] = v[i].iops;
	}
	fitted = (n >= 3 && fit_knee(x, y, n, &fk) == 0);
	/* A knee below the first depth: the cap binds from the start. */
	if (fitted && fk.knee_x >= v[0].x) {
		out->knee_fit = fk.knee_x;
		out->fit_converged = fk.converged;
	}

	/* Still rising over the last doubling: no ceiling within reach. */
	gain = ceilings_gain(v, n - 1, 0);
	if (!(gain < CEILINGS_FLAT_GAIN)) {
		out->limit = CEILINGS_IOPS_UNSATURATED;
		goto done;
	}

	/* The plateau: from the first point near the top to the end. */
	for (first = 0; first < n; first++) {
		if (v[first].iops >= CEILINGS_PLATEAU_FRAC * out->max_seen)
			break;
	}
	plat = xcalloc(n, sizeof *plat);
	for (i = first, np = 0; i < n; i++)
		plat[np++] = v[i].iops;
	median = stats_median(plat, np);
	free(plat);
	ceilings_host(v, first, n, out);

	if (isfinite(out->cpu_util) && out->cpu_util >= CEILINGS_CPU_BUSY) {
		out->limit = CEILINGS_IOPS_CPU;
		goto done;
	}
	if (isfinite(out->little_ratio) &&
	    out->little_ratio < CEILINGS_LITTLE_MIN) {
		out->limit = CEILINGS_IOPS_QUEUE;
		goto done;
	}
	out->limit = CEILINGS_IOPS_CAP;
	if (v[0].iops >= CEILINGS_KNEE_FRAC * median)
		out->lat0_us = NAN;
	if (fitted && np >= CEILINGS_FIT_PLATEAU &&
	    fabs(fk.ceiling / median - 1) <= CEILINGS_FIT_AGREE)
		out->ceiling = fk.ceiling;
	else
		out->ceiling = median;
	ceilings_interval(v, first, n, 0, &out->ceiling, &out->ceiling_low,
	    &out->ceiling_high);
	out->knee_iodepth = out->max_seen_iodepth;
	for (i = 0; i < n; i++) {
		if (v[i].iops >= CEILINGS_KNEE_FRAC * out->ceiling) {
			out->knee_iodepth = v[i].x;
			break;
		}
	}

done:
	if (out->limit != CEILINGS_IOPS_CAP)
		ceilings_lower_bound(v, imax, 0, &out->ceiling,
		    &out->ceiling_low, &out->ceiling_high, &out->at_least);
	free(x);
	free(y);
	free(v);
	return (0);
}

/* Whether an iodepth sweep should go deeper; see ceilings.h. */
int
ceilings_iops_rising(const struct point *pts, size_t n)
{
	struct ceilings_iops	c;

	if (ceilings_iops(pts, n, &c) != 0)
		return (0);
	return (c.limit == CEILINGS_IOPS_UNSATURATED);
}

/* The store's ceiling under cache hits; see ceilings.h. */
int
ceilings_cache_correct(const struct point *pts, size_t n, double h,
    double lat_us, struct ceilings_iops *c)
{
	const struct point	*deep = NULL;
	size_t			 i;

	if (!(h >= CEILINGS_CACHE_MIN && h < 1) || !isfinite(lat_us))
		return (0);
	for (i = 0; i < n; i++) {
		if (deep == NULL || pts[i].iodepth > deep->iodepth)
			deep = &pts[i];
	}
	if (deep == NULL || deep->hist == NULL || deep->hist->count == 0 ||
	    hist_fraction_below(deep->hist, lat_us * 1e3) < h / 2)
		return (0);
	c->ceiling *= 1 - h;
	c->ceiling_low *= 1 - h;
	c->ceiling_high *= 1 - h;
	return (1);
}

/*
 * The probe's verdict on candidate unit a (IOPS level before it, tol the
 * sweep's): CEILINGS_BW_ACCOUNTING, CEILINGS_BW_CAP, or
 * CEILINGS_BW_UNIT_OR_CAP when it tells neither (or there is none).
 */
static enum ceilings_bw_limit
ceilings_acct_probe(const struct point *probe, double a, double level,
    double tol)
{
	double	units, acct, cap, t;

	if (probe == NULL || probe->ios == 0 || !(probe->bytes_per_s > 0) ||
	    !((double)probe->bs > a) || fmod(probe->bs, a) == 0)
		return (CEILINGS_BW_UNIT_OR_CAP);
	/* Its own noise too (twice its 95% half-width), short of the gap. */
	if (isfinite(probe->ci95_rel))
		tol = fmax(tol, fmin(2 * probe->ci95_rel,
		    CEILINGS_ACCT_TOL_PROBE));
	units = ceil(probe->bs / a);
	acct = level / units * probe->bs;
	cap = level * a;
	t = probe->bytes_per_s;
	if (fabs(t / acct - 1) <= tol && fabs(t / cap - 1) > tol)
		return (CEILINGS_BW_ACCOUNTING);
	if (fabs(t / cap - 1) <= tol && fabs(t / acct - 1) > tol)
		return (CEILINGS_BW_CAP);
	return (CEILINGS_BW_UNIT_OR_CAP);
}

/* The size that tells a candidate unit from a cap; see ceilings.h. */
uint32_t
ceilings_acct_probe_bs(const struct ceilings_bw *b)
{
	if (b->limit != CEILINGS_BW_UNIT_OR_CAP || b->acct_candidate < 2)
		return (0);
	return ((uint32_t)(b->acct_candidate / 2 * 3));
}

/* Analyse a block-size sweep; see ceilings.h. */
int
ceilings_bandwidth(const struct point *pts, size_t n,
    const struct point *probe, struct ceilings_bw *out)
{
	struct ceilings_xy	*v;
	struct fit_knee		 fk;
	double			*x, *y, *plat, *iops, *tail, median, i0, gain;
	double			 want, level, tol, tmed;
	size_t			 i, j, k, first, np, nd;
	int			 ok;

	memset(out, 0, sizeof *out);
	out->limit = CEILINGS_BW_UNKNOWN;
	out->acct_why = CEILINGS_ACCT_HIDDEN;
	out->ceiling = out->ceiling_low = out->ceiling_high = NAN;
	out->max_seen = NAN;
	out->iops_small = NAN;
	out->optimal_io_bytes = NAN;
	if (n == 0)
		return (-1);

	v = ceilings_sorted(pts, n, 1);
	j = 0;
	for (i = 1; i < n; i++) {
		if (v[i].bw > v[j].bw)
			j = i;
	}
	out->max_seen = v[j].bw;
	out->max_seen_bs = v[j].x;
	out->iops_small = i0 = v[0].iops;
	if (n < 2) {
		ceilings_lower_bound(v, j, 1, &out->ceiling, &out->ceiling_low,
		    &out->ceiling_high, &out->at_least);
		free(v);
		return (-1);
	}

	gain = ceilings_gain(v, n - 1, 1);
	if (!(gain < CEILINGS_FLAT_GAIN)) {
		out->limit = CEILINGS_BW_UNSATURATED;
		ceilings_lower_bound(v, j, 1, &out->ceiling, &out->ceiling_low,
		    &out->ceiling_high, &out->at_least);
		free(v);
		return (0);
	}

	/* The ceiling: knee fit of bandwidth on size, checked as above. */
	for (first = 0; first < n; first++) {
		if (v[first].bw >= CEILINGS_PLATEAU_FRAC * out->max_seen)
			break;
	}
	plat = xcalloc(n, sizeof *plat);
	for (i = first, np = 0; i < n; i++)
		plat[np++] = v[i].bw;
	median = stats_median(plat, np);
	free(plat);
	x = xcalloc(n, sizeof *x);
	y = xcalloc(n, sizeof *y);
	for (i = 0; i < n; i++) {
		x[i] = v[i].x;
		y[i] = v[i].bw;
	}
	out->ceiling = median;
	if (n >= 3 && fit_knee(x, y, n, &fk) == 0) {
		if (fk.sharpness < CEILINGS_SMOOTH_K &&
		    fk.knee_x >= v[0].x &&
		    fk.rms_log <= CEILINGS_SMOOTH_RMS &&
		    fk.ceiling >= median &&
		    fk.ceiling <= CEILINGS_ASYMPTOTE_MAX * out->max_seen) {
			out->ceiling = fk.ceiling;
			out->asymptote = 1;
		} else if (np >= CEILINGS_FIT_PLATEAU &&
		    fabs(fk.ceiling / median - 1) <= CEILINGS_FIT_AGREE)
			out->ceiling = fk.ceiling;
	}
	free(x);
	free(y);
	ceilings_interval(v, first, n, 1, &out->ceiling, &out->ceiling_low,
	    &out->ceiling_high);
	out->limit = CEILINGS_BW_CAP;
	if (i0 > 0)
		out->optimal_io_bytes = out->ceiling / i0;

	/*
	 * Accounting: IOPS flat through v[j] (j >= 1: two sizes at least),
	 * then, for two sizes at least, falling exactly in proportion to
	 * size, so bandwidth stays at the flat level times v[j]'s size.  The
	 * level is the median of the flat run, so one noisy point does not
	 * decide.  v[j] itself and the point after it tell accounting from a
	 * bandwidth cap just below level x v[j]: they must be within tol,
	 * three robust standard deviations of the other points about their
	 * levels (but within CEILINGS_ACCT_TOL_MIN .. CEILINGS_ACCT_TOL_MAX);
	 * the other points within twice that.
	 */
	iops = xcalloc(n, sizeof *iops);
	tail = xcalloc(n, sizeof *tail);
	for (j = n - 2; j-- > 1;) {
		for (i = 0; i <= j; i++)
			iops[i] = v[i].iops;
		level = stats_median(iops, j + 1);
		for (k = j + 1, np = 0; k < n; k++)
			tail[np++] = v[k].bw;
		tmed = stats_median(tail, np);

		/* Noise: the flat run before v[j], the tail after v[j+1]. */
		for (i = 0, nd = 0; i < j; i++)
			iops[nd++] = fabs(v[i].iops / level - 1);
		for (k = j + 2; k < n; k++)
			iops[nd++] = fabs(v[k].bw / tmed - 1);
		tol = 3 * 1.4826 * stats_median(iops, nd);
		tol = fmax(CEILINGS_ACCT_TOL_MIN, fmin(tol,
		    CEILINGS_ACCT_TOL_MAX));

		want = level * v[j].x;
		ok = fabs(v[j].iops / level - 1) <= tol &&
		    fabs(v[j + 1].bw / want - 1) <= tol &&
		    fabs(tmed / want - 1) <= tol;
		for (i = 0; i <= j; i++) {
			if (fabs(v[i].iops / level - 1) > 2 * tol)
				ok = 0;
		}
		for (k = j + 1; k < n; k++) {
			if (fabs(v[k].bw / want - 1) > 2 * tol)
				ok = 0;
		}
		if (ok) {
			out->acct_candidate = v[j].x;
			out->limit = ceilings_acct_probe(probe, v[j].x, level,
			    tol);
			if (out->limit == CEILINGS_BW_UNIT_OR_CAP)
				out->acct_why = CEILINGS_ACCT_UNIT_OR_CAP;
			else
				out->acct_candidate = 0;
			if (out->limit == CEILINGS_BW_ACCOUNTING) {
				out->accounting_bytes = v[j].x;
				out->acct_why = CEILINGS_ACCT_FOUND;
			}
			break;
		}
	}
	free(iops);
	free(tail);
	free(v);
	return (0);
}

/*
 * Merge adjacent segments whose means are closer than CEILINGS_MERGE_REL or
 * not CEILINGS_MERGE_SE standard errors apart (noise variance var per
 * interval), closest first.  Returns the number of segments left.
 */
static size_t
ceilings_merge(size_t *start, double *mean, double *len, size_t k,
    double var)
{
	double	rel, se, best, a, b;
	size_t	i, at;

	for (;;) {
		best = INFINITY;
		at = 0;
		for (i = 0; i + 1 < k; i++) {
			a = mean[i];
			b = mean[i + 1];
			rel = a == b ? 0 : fabs(a - b) / fmax(fabs(a), fabs(b));
			se = sqrt(var * (1 / len[i] + 1 / len[i + 1]));
			if (!(rel < CEILINGS_MERGE_REL) &&
			    !(fabs(a - b) < CEILINGS_MERGE_SE * se))
				continue;
			if (rel < best) {
				best = rel;
				at = i;
			}
		}
		if (!isfinite(best))
			return (k);
		mean[at] = (mean[at] * len[at] + mean[at + 1] * len[at + 1]) /
		    (len[at] + len[at + 1]);
		len[at] += len[at + 1];
		for (i = at + 1; i + 1 < k; i++) {
			start[i] = start[i + 1];
			mean[i] = mean[i + 1];
			len[i] = len[i + 1];
		}
		k--;
	}
}

/* Rate of a prior entry in accounted I/Os per second; NAN for idle time. */
static double
ceilings_prior_rate(const struct ceilings_prior *p)
{
	return (p->seconds > 0 && p->ios > 0 ? p->ios / p->seconds : NAN);
}

/* Median rate of the entries of load in p[0..n); NAN if none. */
static double
ceilings_load_median(const struct ceilings_prior *p, size_t n, unsigned load,
    double *buf)
{
	size_t	i, k = 0;

	for (i = 0; i < n; i++) {
		if (p[i].load == load && isfinite(ceilings_prior_rate(&p[i])))
			buf[k++] = ceilings_prior_rate(&p[i]);
	}
	return (stats_median(buf, k));
}

/* Whether entry p is clearly above base (see ceilings_burst_before). */
static int
ceilings_prior_above(const struct ceilings_prior *p, double base, double var,
    double dt)
{
	double	rate = ceilings_prior_rate(p);

	return (p->load != 0 && rate >= base / CEILINGS_DROP_MAX &&
	    rate - base >= CEILINGS_MERGE_SE * sqrt(var * dt / p->seconds));
}

/*
 * The burst rate before a drop after p[n - 1]: the loads that reached the
 * highest level (their medians within CEILINGS_PLATEAU_FRAC of the
 * highest), all their intervals pooled.
 */
static double
ceilings_burst_level(const struct ceilings_prior *p, size_t n)
{
	double	*buf, *med, top = 0, ios = 0, sec = 0;
	size_t	 i;

	buf = xcalloc(n, sizeof *buf);
	med = xcalloc(n, sizeof *med);
	for (i = 0; i < n; i++) {
		med[i] = p[i].load != 0 ? ceilings_load_median(p, n, p[i].load,
		    buf) : NAN;
		if (med[i] > top)
			top = med[i];
	}
	for (i = 0; i < n; i++) {
		if (med[i] >= CEILINGS_PLATEAU_FRAC * top) {
			ios += p[i].ios;
			sec += p[i].seconds;
		}
	}
	free(med);
	free(buf);
	return (ios / sec);
}

/*
 * Whether the work from p[0] on ran at base or below, as it does once a
 * bucket is empty: from the first entry that asks at least what the run
 * does to the last (with the idle time before it, which earns the
 * credits the work may spend above base), at most CEILINGS_BASE_REL above
 * base plus CEILINGS_HELD_Z standard errors.  Work that asks less tells
 * nothing: it runs below base with a bucket or without.  No such work:
 * yes.
 */
static int
ceilings_prior_at_base(const struct ceilings_prior *p, size_t n, double base,
    double var, double dt)
{
	double	ios = 0, sec = 0, rate;
	size_t	i, first, last;

	for (first = 0; first < n && !p[first].demanding; first++)
		continue;
	if (first == n)
		return (1);
	for (last = first, i = first; i < n; i++) {
		if (p[i].demanding)
			last = i;
	}
	while (first > 0 && p[first - 1].ios == 0)
		first--;
	for (i = first; i <= last; i++) {
		ios += p[i].ios;
		sec += p[i].seconds;
	}
	if (!(sec > 0))
		return (1);
	rate = ios / sec;
	return (rate - base <= CEILINGS_BASE_REL * base +
	    CEILINGS_HELD_Z * sqrt(var * dt / sec));
}

/*
 * The run held one level, base: did a bucket run dry in the comparable
 * work before it (the sweeps)?  The drop follows the last comparable entry
 * clearly above base, by 1 / CEILINGS_DROP_MAX and by CEILINGS_MERGE_SE
 * standard errors (var is the run's noise variance per interval of dt
 * seconds, scaled to the entry's length), and confirmed by the entries
 * of its load ending with it (two at least, CEILINGS_MIN_SEG at most,
 * most of them as clearly above), so one noisy interval does not decide.
 * An empty bucket stays empty: the work after the drop that asks at least
 * what the run does must have run at base (a disk whose rate wanders, or
 * that gives more at the sweeps' deeper queues than at the run's, has no
 * drop).  And a drop the run did not see must at least halve the rate
 * (CEILINGS_SWEEP_DROP_MAX): a shared disk's rate wandered by a third
 * between a sweep point and the run, while buckets that run dry in
 * minutes fall much further (FIELD-NOTES.md: st1 and sc1 to about a
 * sixth, Azure P4 to a thirtieth, an m5.large's EBS link to a fifth).
 * Returns how many entries came before the drop (*burst the rate before
 * it), 0 if none did.
 */
static size_t
ceilings_burst_before(const struct ceilings_prior *p, size_t n, double base,
    double var, double dt, double *burst)
{
	size_t	i, j, k, above;

	*burst = NAN;
	for (j = n; j-- > 0;) {
		if (!ceilings_prior_above(&p[j], base, var, dt))
			continue;
		for (i = j + 1, k = above = 0; i-- > 0 &&
		    k < CEILINGS_MIN_SEG && p[i].load == p[j].load;) {
			k++;
			above += ceilings_prior_above(&p[i], base, var, dt);
		}
		if (k >= 2 && 2 * above > k)
			break;
	}
	if (j == (size_t)-1)
		return (0);
	/* The work after the interval it ran dry in, which mixes both. */
	for (i = j + 1; i < n && p[i].load == 0; i++)
		continue;
	if (i + 1 < n && !ceilings_prior_at_base(p + i + 1, n - i - 1, base,
	    var, dt))
		return (0);
	/* Without p[j], in which it may have run dry: its load has more. */
	*burst = ceilings_burst_level(p, j);
	if (!(base <= CEILINGS_SWEEP_DROP_MAX * *burst)) {
		*burst = NAN;
		return (0);
	}
	return (j + 1);
}

/* Credits spent above base over the first n prior entries. */
static double
ceilings_deficit(const struct ceilings_prior *p, size_t n, double base)
{
	double	deficit = 0, d;
	size_t	i;

	for (i = 0; i < n; i++) {
		d = deficit + p[i].ios - base * p[i].seconds;
		deficit = d > 0 ? d : 0;
	}
	return (deficit);
}

/*
 * No bucket ran dry: what the run rules out.  A drop is seen if it leaves
 * CEILINGS_MIN_SEG intervals after it, so the I/O drawn until then (the
 * prior work and the run's first n - CEILINGS_MIN_SEG intervals) is what
 * a bucket would have had to supply to stay unseen.
 */
static void
ceilings_burst_held(const struct ceilings_prior *p, size_t np,
    const struct timeline_sample *tl, const double *x, const double *dt,
    size_t n, double level, struct burst *out)
{
	double	ios = 0;
	size_t	i;

	for (i = 0; i < np; i++)
		ios += p[i].ios;
	for (i = 0; i + CEILINGS_MIN_SEG < n; i++)
		ios += x[i] * dt[i];
	out->held_iops = level;
	out->held_s = tl[n - CEILINGS_MIN_SEG - 1].t_s;
	out->ruled_out_below_ios = ios;
}

/* Find a burst bucket in a sustained run's timeline; see ceilings.h. */
int
ceilings_burst(const struct timeline_sample *tl, size_t n,
    const struct ceilings_prior *prior, size_t nprior, double ref_iops,
    struct burst *out)
{
	double	*x, *dt, *mean, *len, var, floor_var, med, pen, t0, d;
	double	 sum, tsum, base, deficit, whole, burst;
	size_t	*cps, *start, ncp, k, i, s, e, first, drop;
	int	 monotone, long_only, comparable = 0;

	memset(out, 0, sizeof *out);
	out->burst_iops = NAN;
	out->baseline_iops = NAN;
	out->duration_s = NAN;
	out->credits_ios = NAN;
	out->observed_s = NAN;
	out->drop_t_s = NAN;
	out->prior_credits_ios = NAN;
	out->drop_sweep_t_s = NAN;
	out->held_iops = NAN;
	out->held_s = NAN;
	out->ruled_out_below_ios = NAN;
	if (n == 0)
		return (-1);

	x = xcalloc(n, sizeof *x);
	dt = xcalloc(n, sizeof *dt);
	t0 = 0;
	sum = tsum = 0;
	for (i = 0; i < n; i++) {
		x[i] = tl[i].iops;
		dt[i] = tl[i].dt_s > 0 ? tl[i].dt_s : tl[i].t_s - t0;
		if (!(dt[i] > 0))
			dt[i] = 1;
		t0 = tl[i].t_s;
		sum += x[i] * dt[i];
		tsum += dt[i];
	}
	whole = sum / tsum;
	out->baseline_iops = whole;
	if (n < CEILINGS_BURST_MIN_INTERVALS) {
		free(x);
		free(dt);
		return (-1);
	}
	for (i = 0; i < nprior; i++)
		comparable |= prior[i].load != 0;

	/* Segments of constant mean; a deterministic series has no noise. */
	med = stats_median(x, n);
	var = changepoint_noise_var(x, n);
	floor_var = 1e-4 * med * med + 1;
	if (!(var >= floor_var))
		var = floor_var;
	pen = changepoint_penalty(n, var);
	cps = xcalloc(n, sizeof *cps);
	ncp = changepoint_pelt(x, n, pen, CEILINGS_MIN_SEG, cps, n);

	k = ncp + 1;
	start = xcalloc(k, sizeof *start);
	mean = xcalloc(k, sizeof *mean);
	len = xcalloc(k, sizeof *len);
	for (s = 0; s < k; s++) {
		start[s] = s == 0 ? 0 : cps[s - 1];
		e = s + 1 < k ? cps[s] : n;
		sum = tsum = 0;
		for (i = start[s]; i < e; i++) {
			sum += x[i] * dt[i];
			tsum += dt[i];
		}
		mean[s] = sum / tsum;
		len[s] = tsum;
	}
	free(cps);
	k = ceilings_merge(start, mean, len, k, var);
	out->nchanges = k - 1;

	/* A short low start is the queue filling up, not a level. */
	first = 0;
	if (k >= 2 && mean[0] < mean[1] &&
	    (len[0] <= 5 || len[0] <= 0.05 * t0))
		first = 1;

	monotone = 1;
	for (s = first; s + 1 < k; s++) {
		if (mean[s + 1] > mean[s])
			monotone = 0;
	}
	base = mean[k - 1];

	if (k - first < 2) {
		/*
		 * One level: no drop, unless the bucket ran dry before the
		 * run, found in the sweeps (or, without them to search, a
		 * run well below the rate they measured at its depth).
		 */
		out->baseline_iops = base;
		drop = ceilings_burst_before(prior, nprior, base, var,
		    stats_median(dt, n), &burst);
		if (drop > 0) {
			out->detected = 1;
			out->exhausted = 1;
			out->burst_iops = burst;
			out->prior_drop = drop;
			out->credits_ios = out->prior_credits_ios =
			    ceilings_deficit(prior, drop, base);
			out->duration_s = out->credits_ios / (burst - base);
		} else if (!comparable && isfinite(ref_iops) &&
		    base < CEILINGS_EMPTY_MAX * ref_iops) {
			out->detected = 1;
			out->exhausted = 1;
			out->burst_iops = ref_iops;
		} else
			ceilings_burst_held(prior, nprior, tl, x, dt, n, base,
			    out);
		goto done;
	}
	if (!monotone || !(base <= CEILINGS_DROP_MAX * mean[first])) {
		out->variable = 1;
		ceilings_burst_held(prior, nprior, tl, x, dt, n, whole, out);
		goto done;
	}

	/* A burst: everything before the last segment ran above baseline. */
	drop = start[k - 1];
	out->detected = 1;
	out->baseline_iops = base;
	deficit = ceilings_deficit(prior, nprior, base);
	out->prior_credits_ios = deficit;
	for (i = 0; i < drop; i++) {
		d = deficit + (x[i] - base) * dt[i];
		deficit = d > 0 ? d : 0;
	}

	/*
	 * The burst rate: the levels before the drop, leaving out short
	 * segments (the second the bucket ran dry mixes both rates), unless
	 * there is nothing else.
	 */
	sum = tsum = 0;
	for (long_only = 1; long_only >= 0 && !(tsum > 0); long_only--) {
		for (s = first; s + 1 < k; s++) {
			if (long_only && len[s] < 2 * CEILINGS_MIN_SEG)
				continue;
			sum += mean[s] * len[s];
			tsum += len[s];
		}
	}
	out->burst_iops = sum / tsum;
	out->drop_t_s = tl[drop - 1].t_s;
	out->observed_s = tl[drop - 1].t_s;
	out->credits_ios = deficit;
	if (out->burst_iops > base)
		out->duration_s = deficit / (out->burst_iops - base);

done:
	free(start);
	free(mean);
	free(len);
	free(x);
	free(dt);
	return (0);
}

/*
 * Whether a sustained run's rate held: one level (no change, no drop, no
 * variability), and a drop of 1 - CEILINGS_DROP_MAX from its first third
 * to its last ruled out at 95% (one-sided, noise from successive
 * intervals).
 */
int
ceilings_held(const struct timeline_sample *tl, size_t n)
{
	struct burst	 b;
	double		*x, var, a = 0, z = 0;
	size_t		 i, k = n / 3;

	if (n < 2 * CEILINGS_MIN_SEG || ceilings_burst(tl, n, NULL, 0, NAN,
	    &b) != 0 || b.detected || b.variable || b.nchanges != 0)
		return (0);
	x = xcalloc(n, sizeof *x);
	for (i = 0; i < n; i++)
		x[i] = tl[i].iops;
	var = changepoint_noise_var(x, n);
	for (i = 0; i < k; i++) {
		a += x[i] / k;
		z += x[n - k + i] / k;
	}
	free(x);
	return (z - a > -(1 - CEILINGS_DROP_MAX) * a +
	    CEILINGS_HELD_Z * sqrt(2 * var / k));
}

/* Compare paired first and second read latencies; see ceilings.h. */
void
ceilings_first_touch(const double *first, const double *second, size_t n,
    struct first_touch *out)
{
	double	s1 = 0, s2 = 0, z;
	size_t	i, slower = 0;

	memset(out, 0, sizeof *out);
	out->first_p50_us = out->first_mean_us = NAN;
	out->second_p50_us = out->second_mean_us = NAN;
	out->ratio = out->slower_fraction = NAN;
	if (n == 0)
		return;
	out->measured = 1;
	out->blocks = n;
	for (i = 0; i < n; i++) {
		s1 += first[i];
		s2 += second[i];
		if (first[i] > second[i])
			slower++;
	}
	out->first_mean_us = s1 / n;
	out->second_mean_us = s2 / n;
	out->first_p50_us = stats_median(first, n);
	out->second_p50_us = stats_median(second, n);
	if (out->second_mean_us > 0)
		out->ratio = out->first_mean_us / out->second_mean_us;
	out->slower_fraction = (double)slower / n;

	/* Sign test on the pairs, and a large gap in mean and median. */
	z = (slower - n / 2.0) / sqrt(n / 4.0);
	out->detected = z >= CEILINGS_FT_Z &&
	    out->ratio >= CEILINGS_FT_RATIO &&
	    out->first_p50_us >= CEILINGS_FT_RATIO * out->second_p50_us;
	/* The same test the other way: the volume changed between them. */
	if (-z >= CEILINGS_FT_Z && out->ratio * CEILINGS_FT_RATIO <= 1 &&
	    out->second_p50_us >= CEILINGS_FT_RATIO * out->first_p50_us)
		out->changed = CEILINGS_FT_SLOWER;
}

/* Name of an IOPS limit, for reports. */
const char *
ceilings_iops_limit_name(enum ceilings_iops_limit l)
{
	static const char	*names[] = {
		[CEILINGS_IOPS_UNKNOWN] = "unknown",
		[CEILINGS_IOPS_CAP] = "cap",
		[CEILINGS_IOPS_UNSATURATED] = "unsaturated",
		[CEILINGS_IOPS_CPU] = "cpu",
		[CEILINGS_IOPS_QUEUE] = "queue",
	};

	if ((size_t)l >= sizeof names / sizeof names[0])
		return ("unknown");
	return (names[l]);
}

/* Name of a bandwidth limit, for reports. */
const char *
ceilings_bw_limit_name(enum ceilings_bw_limit l)
{
	static const char	*names[] = {
		[CEILINGS_BW_UNKNOWN] = "unknown",
		[CEILINGS_BW_CAP] = "cap",
		[CEILINGS_BW_ACCOUNTING] = "accounting",
		[CEILINGS_BW_UNSATURATED] = "unsaturated",
		[CEILINGS_BW_UNIT_OR_CAP] = "unit_or_cap",
	};

	if ((size_t)l >= sizeof names / sizeof names[0])
		return ("unknown");
	return (names[l]);
}

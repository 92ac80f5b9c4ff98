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
#include "tiers.h"
#include "units.h"
#include "xmalloc.h"

/*
 * The model.  A read is served by one of a few places (caches, then the
 * backing store), each with its own latency distribution.  Under uniform
 * random reads drawn with replacement over a working set S, caches holding
 * C_k blocks between them (the k fastest places) serve min(1, C_k / S) of the
 * reads, whatever their replacement policy.
 *
 * 1. Modes.  The histograms of all points are pooled into bins 1% wide in
 *    ln(latency) and a Gaussian mixture is fitted by EM over the bins
 *    (weights = counts), k = 1, 2, ... up to 5 components while BIC keeps
 *    improving.  Adjacent components that are not clearly separated
 *    (Ashman's D = |mu1 - mu2| / sqrt((s1^2 + s2^2) / 2) below 2, or
 *    medians less than 1.5x apart: a real disk's latency drifts by more
 *    than that between points, and real caches differ by far more), or
 *    negligible, are one mode: a skewed latency shape is fitted by several
 *    components, but it is still one place.
 * 2. Fractions.  The mixture is refitted with the components shared and a
 *    mixing weight per point (EM over every point's bins): the weights are
 *    the fraction of that point's reads from each mode, and points served
 *    by one place alone (below the smallest cache, between two caches) pin
 *    that place's shape where a pooled fit would lean on the reads in which
 *    places overlap.
 * 3. Capacities.  Between modes i and i + 1 lies a candidate cache: F(S), the
 *    fraction of reads in modes 0..i, is fitted with min(1, C / S) by
 *    weighted least squares.  A point's variance is the inverse of its
 *    Fisher information about F (binomial F (1 - F) / n when the modes do
 *    not overlap, more when they do) plus 0.01^2 for drift and shape error.
 *    The 95% interval of C comes from the chi2 profile (Student t, scaled
 *    up by the misfit), widened to +-1.96 sd of a bootstrap that redraws
 *    every bin count and refits the whole chain, as the shapes' error is
 *    shared by all points.  The candidate is a cache only if the curve fits
 *    (chi2 / dof <= 9), explains the data far better than a constant
 *    fraction (a device whose own latency is bimodal has fractions that do
 *    not depend on S), follows the law itself (min(1, (C / S)^alpha) fitted
 *    alongside must not put alpha clearly away from 1: a bimodal store
 *    behind a cache gives F = a + b C / S, alpha well below 1), and has an
 *    interval that excludes 0 and the largest ws scanned; when it reaches
 *    the largest ws from above half of it, the cache is reported as at
 *    least its interval's lower end.  The modes between two accepted
 *    boundaries make one tier; those after the last are the backing store.
 *    Latencies are quantiles of the pooled bins weighted by their
 *    responsibilities for the tier's modes.
 * 4. Cross-check.  PELT (L2 cost) segments the mean ln(latency) of the points
 *    in ws order.  Under the model that series is flat up to the smallest
 *    cache and moves towards the backing latency beyond it, so the two
 *    methods agree when there is no shift without a cache and no cache
 *    without a shift, no shift before the smallest cache's interval, and a
 *    shift within [C, 4C] of every cache.
 */

#define TIERS_BIN		0.01	/* ln units: bins of the reads */
#define TIERS_MIN_SIGMA		0.01	/* ln units: that resolution */
#define TIERS_SEPARATION	2.0	/* Ashman's D between modes */
#define TIERS_MIN_RATIO		1.5	/* latency ratio between modes */
#define TIERS_MIN_WEIGHT	1e-3	/* smaller components join a mode */
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
#define TIERS_NEAR		0.03	/* ws this close count as measured */
#define TIERS_BOOT_REPS		30	/* bootstrap replicates */
#define TIERS_BOOT_SEED		0x7469657273ULL	/* fixed: pure function */

/* Per-point buckets: ln value and count of each nonzero bucket. */
struct tiers_pt {
	const struct point	*p;
	size_t			 off;	/* into tiers_work.pb / pc */
	size_t			 nb;
	double			 n;	/* reads */
};

struct tiers_work {
	size_t		 np;
	struct tiers_pt	*pt;		/* ascending ws */
	size_t		 nb;		/* nonzero pooled buckets */
	double		*x;		/* ln(ns) of each, ascending */
	double		*w;		/* pooled counts */
	size_t		*pb;		/* per-point bucket: index into x */
	double		*pc;		/* per-point bucket: count */
	double		*px;		/* per-point bucket: ln(ns) */
	size_t		*off;		/* bins of point p: off[p] to
					   off[p + 1] - 1 */
	double		*pw;		/* [p * k + j] point mixing weights */
	double		*s;		/* ws / max ws of each point */
	double		*bvar;		/* [i * np + p] variance of point p's
					   fraction of reads in modes [0, i] */
	double		*modew;		/* [m * nb + b] counts per mode */
	struct fit_gmm	 g;
};

/* Set up an empty result. */
void
tiers_result_init(struct tiers_result *r)
{
	size_t	i;

	memset(r, 0, sizeof *r);
	r->backing_p50_us = NAN;
	r->backing_p99_us = NAN;
	r->backing_capped_p50_us = NAN;
	r->backing_capped_mean_us = NAN;
	for (i = 0; i < TIERS_MAX; i++)
		r->tier[i].capped_lat_us_p50 =
		    r->tier[i].capped_lat_us_mean = NAN;
	r->agree = -1;
}

/* Release what a result owns and reset it. */
void
tiers_result_free(struct tiers_result *r)
{
	if (r == NULL)
		return;
	free(r->point_ws);
	free(r->point_ios);
	free(r->point_mode_frac);
	free(r->point_tier_frac);
	free(r->point_mlog);
	tiers_result_init(r);
}

static int
tiers_cmp_pt(const void *a, const void *b)
{
	const struct tiers_pt	*pa = a, *pb = b;

	if (pa->p->ws_bytes != pb->p->ws_bytes)
		return (pa->p->ws_bytes < pb->p->ws_bytes ? -1 : 1);
	return ((pa->p > pb->p) - (pa->p < pb->p));
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

/*
 * EM on the mixing weights only, components fixed: the fractions pi[] of the
 * nb values x (counts c) from each of k components, until no weight moves by
 * tol.  With resp non-NULL, also the responsibilities [b * k + j].
 */
static void
tiers_weights(const double *mu, const double *sigma, const double *w0,
    size_t k, const double *x, const double *c, size_t nb, double tol,
    double *pi, double *resp)
{
	double	*lphi, nw[FIT_GMM_MAX], r[FIT_GMM_MAX], n = 0, m, s, z, d;
	size_t	 b, j;
	int	 it;

	lphi = xreallocarray(NULL, nb * k + 1, sizeof *lphi);
	for (b = 0; b < nb; b++) {
		n += c[b];
		for (j = 0; j < k; j++) {
			z = (x[b] - mu[j]) / sigma[j];
			lphi[b * k + j] = -0.5 * z * z - log(sigma[j]);
		}
	}
	for (j = 0; j < k; j++)
		pi[j] = w0[j];
	for (it = 0; it < 500 && n > 0; it++) {
		memset(nw, 0, sizeof nw);
		for (b = 0; b < nb; b++) {
			m = -INFINITY;
			for (j = 0; j < k; j++)
				if (pi[j] > 0 && lphi[b * k + j] > m)
					m = lphi[b * k + j];
			s = 0;
			for (j = 0; j < k; j++) {
				r[j] = pi[j] > 0 ?
				    pi[j] * exp(lphi[b * k + j] - m) : 0;
				s += r[j];
			}
			for (j = 0; j < k; j++) {
				r[j] /= s;
				nw[j] += c[b] * r[j];
				if (resp != NULL)
					resp[b * k + j] = r[j];
			}
		}
		d = 0;
		for (j = 0; j < k; j++) {
			nw[j] /= n;
			d = fmax(d, fabs(nw[j] - pi[j]));
			pi[j] = nw[j];
		}
		if (d < tol)
			break;
	}
	free(lphi);
}

/* The bin (TIERS_BIN wide in ln ns) of each histogram bucket, ascending. */
static size_t *
tiers_bins(void)
{
	size_t	*bin, b;

	bin = xcalloc(HIST_BUCKETS, sizeof *bin);
	for (b = 0; b < HIST_BUCKETS; b++)
		bin[b] = (size_t)(tiers_bucket_ln(b) / TIERS_BIN);
	return (bin);
}

/*
 * Gather the usable points and their reads, pooled and per point, in bins
 * of TIERS_BIN in ln(ns): finer than any latency mode, and coarser than the
 * histogram, whose buckets are 0.4% wide, so EM has fewer values to visit.
 */
static int
tiers_gather(const struct point *pts, size_t n, struct tiers_work *wk)
{
	double		*pool, *sx;
	size_t		*bin, *map, nbin, i, b, total = 0, at, last;
	const struct hist *h;

	wk->pt = xcalloc(n + 1, sizeof *wk->pt);
	for (i = 0; i < n; i++) {
		if (pts[i].hist == NULL || pts[i].hist->count == 0 ||
		    pts[i].ws_bytes == 0)
			continue;
		wk->pt[wk->np++].p = &pts[i];
	}
	if (wk->np == 0)
		return (-1);
	qsort(wk->pt, wk->np, sizeof *wk->pt, tiers_cmp_pt);

	bin = tiers_bins();
	nbin = bin[HIST_BUCKETS - 1] + 1;
	pool = xcalloc(nbin, sizeof *pool);
	sx = xcalloc(nbin, sizeof *sx);
	for (i = 0; i < wk->np; i++) {
		h = wk->pt[i].p->hist;
		last = SIZE_MAX;
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (h->bucket[b] == 0)
				continue;
			pool[bin[b]] += h->bucket[b];
			sx[bin[b]] += h->bucket[b] * tiers_bucket_ln(b);
			if (bin[b] != last)
				wk->pt[i].nb++, total++;
			last = bin[b];
		}
	}
	map = xcalloc(nbin, sizeof *map);
	wk->x = xcalloc(nbin, sizeof *wk->x);
	wk->w = xcalloc(nbin, sizeof *wk->w);
	for (b = 0; b < nbin; b++) {
		if (pool[b] == 0)
			continue;
		map[b] = wk->nb;
		wk->x[wk->nb] = sx[b] / pool[b];
		wk->w[wk->nb++] = pool[b];
	}
	wk->pb = xcalloc(total + 1, sizeof *wk->pb);
	wk->pc = xcalloc(total + 1, sizeof *wk->pc);
	wk->px = xcalloc(total + 1, sizeof *wk->px);
	for (i = 0, at = 0; i < wk->np; i++) {
		h = wk->pt[i].p->hist;
		wk->pt[i].off = at;
		last = SIZE_MAX;
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (h->bucket[b] == 0)
				continue;
			if (bin[b] != last) {
				wk->pb[at] = map[bin[b]];
				wk->px[at++] = wk->x[map[bin[b]]];
				last = bin[b];
			}
			wk->pc[at - 1] += h->bucket[b];
			wk->pt[i].n += h->bucket[b];
		}
	}
	free(map);
	free(sx);
	free(pool);
	free(bin);
	return (0);
}

static void
tiers_work_free(struct tiers_work *wk)
{
	free(wk->pt);
	free(wk->x);
	free(wk->w);
	free(wk->pb);
	free(wk->pc);
	free(wk->px);
	free(wk->off);
	free(wk->pw);
	free(wk->s);
	free(wk->bvar);
	free(wk->modew);
}

/* Ashman's D between two normal components. */
static double
tiers_separation(double mu1, double s1, double mu2, double s2)
{
	return (fabs(mu1 - mu2) / sqrt((s1 * s1 + s2 * s2) / 2));
}

/* Group the components into modes: adjacent ones not clearly apart join. */
static void
tiers_modes(struct tiers_work *wk, struct tiers_result *r)
{
	const struct fit_gmm	*g = &wk->g;
	size_t			 j, m = 0;

	r->ncomp = g->k;
	for (j = 0; j < g->k; j++) {
		if (j > 0 &&
		    tiers_separation(g->mu[j - 1], g->sigma[j - 1], g->mu[j],
		    g->sigma[j]) >= TIERS_SEPARATION &&
		    g->mu[j] - g->mu[j - 1] >= log(TIERS_MIN_RATIO) &&
		    g->weight[j - 1] >= TIERS_MIN_WEIGHT &&
		    g->weight[j] >= TIERS_MIN_WEIGHT)
			m++;
		r->comp[j].weight = g->weight[j];
		r->comp[j].mu = g->mu[j];
		r->comp[j].sigma = g->sigma[j];
		r->comp[j].mode = m;
	}
	r->nmodes = m + 1;
}

/* The x (ln ns) where weights w over ascending x reach q of their sum. */
static double
tiers_quantile(const double *x, const double *w, size_t n, double q)
{
	double	total = 0, acc = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		total += w[i];
	if (!(total > 0))
		return (NAN);
	for (i = 0; i < n; i++) {
		acc += w[i];
		if (acc >= q * total)
			return (x[i]);
	}
	return (x[n - 1]);
}

/* Responsibilities [b * k + j] of g's components with weights pi. */
static void
tiers_resp(const struct fit_gmm *g, const double *pi, const double *x,
    size_t nb, double *resp)
{
	double	ld[FIT_GMM_MAX], m, s, z;
	size_t	b, j;

	for (b = 0; b < nb; b++) {
		m = -INFINITY;
		for (j = 0; j < g->k; j++) {
			z = (x[b] - g->mu[j]) / g->sigma[j];
			ld[j] = pi[j] > 0 ? log(pi[j]) - log(g->sigma[j]) -
			    0.5 * z * z : -INFINITY;
			m = fmax(m, ld[j]);
		}
		for (s = 0, j = 0; j < g->k; j++)
			s += ld[j] > -INFINITY ? exp(ld[j] - m) : 0;
		for (j = 0; j < g->k; j++)
			resp[b * g->k + j] = ld[j] > -INFINITY ?
			    exp(ld[j] - m) / s : 0;
	}
}

/*
 * Refit the pooled mixture with a mixing weight per point (fit_gmm_groups):
 * the points where one place serves every read (below the smallest cache,
 * between two caches) then pin that place's shape, which a pooled fit
 * leaves to the reads where places overlap.  Sets wk->pw; keeps the pooled
 * fit, with per-point weights for its shapes, should the refit fail.
 */
static void
tiers_refine(struct tiers_work *wk)
{
	struct fit_gmm	 g = wk->g;
	double		*pw, t;
	size_t		 p, i, j, k = g.k;

	wk->off = xcalloc(wk->np + 1, sizeof *wk->off);
	for (p = 0; p < wk->np; p++)
		wk->off[p + 1] = wk->pt[p].off + wk->pt[p].nb;
	wk->pw = xcalloc(wk->np * k, sizeof *wk->pw);
	for (p = 0; p < wk->np; p++)
		tiers_weights(g.mu, g.sigma, g.weight, k,
		    wk->px + wk->pt[p].off, wk->pc + wk->pt[p].off,
		    wk->pt[p].nb, 1e-9, wk->pw + p * k, NULL);
	pw = xcalloc(wk->np * k, sizeof *pw);
	memcpy(pw, wk->pw, wk->np * k * sizeof *pw);
	if (fit_gmm_groups(wk->px, wk->pc, wk->off, wk->np, TIERS_MIN_SIGMA,
	    1000, &g, pw) == 0) {
		/* Keep components in mu order, with their weights. */
		for (i = 1; i < k; i++) {
			for (j = i; j > 0 && g.mu[j - 1] > g.mu[j]; j--) {
				t = g.mu[j]; g.mu[j] = g.mu[j - 1];
				g.mu[j - 1] = t;
				t = g.sigma[j]; g.sigma[j] = g.sigma[j - 1];
				g.sigma[j - 1] = t;
				t = g.weight[j]; g.weight[j] = g.weight[j - 1];
				g.weight[j - 1] = t;
				for (p = 0; p < wk->np; p++) {
					t = pw[p * k + j];
					pw[p * k + j] = pw[p * k + j - 1];
					pw[p * k + j - 1] = t;
				}
			}
		}
		wk->g = g;
		memcpy(wk->pw, pw, wk->np * k * sizeof *pw);
	}
	free(pw);
}

/* Per point: mode fractions and the pooled counts of each mode. */
static void
tiers_fractions(struct tiers_work *wk, struct tiers_result *r)
{
	const struct fit_gmm	*g = &wk->g;
	struct tiers_pt		*pt;
	double			*xs, *resp, *pi, mean, sd, s;
	size_t			 p, b, j, m, k = g->k, nm = r->nmodes;

	wk->modew = xcalloc(nm * wk->nb, sizeof *wk->modew);
	r->npoints = wk->np;
	r->point_ws = xcalloc(wk->np, sizeof *r->point_ws);
	r->point_ios = xcalloc(wk->np, sizeof *r->point_ios);
	r->point_mode_frac = xcalloc(wk->np * nm, sizeof *r->point_mode_frac);
	r->point_mlog = xcalloc(wk->np, sizeof *r->point_mlog);
	for (p = 0; p < wk->np; p++) {
		pt = &wk->pt[p];
		xs = xreallocarray(NULL, pt->nb + 1, sizeof *xs);
		resp = xreallocarray(NULL, pt->nb * k + 1, sizeof *resp);
		mean = 0;
		for (b = 0; b < pt->nb; b++) {
			xs[b] = wk->x[wk->pb[pt->off + b]];
			mean += xs[b] * wk->pc[pt->off + b];
		}
		pi = wk->pw + p * k;
		tiers_resp(g, pi, xs, pt->nb, resp);
		for (b = 0; b < pt->nb; b++)
			for (j = 0; j < k; j++)
				wk->modew[r->comp[j].mode * wk->nb +
				    wk->pb[pt->off + b]] +=
				    wk->pc[pt->off + b] * resp[b * k + j];
		for (j = 0; j < k; j++)
			r->point_mode_frac[p * nm + r->comp[j].mode] += pi[j];
		r->point_ws[p] = pt->p->ws_bytes;
		r->point_ios[p] = (uint64_t)pt->n;
		r->point_mlog[p] = mean / pt->n;
		free(resp);
		free(xs);
	}

	s = 0;
	for (b = 0; b < wk->nb; b++)
		s += wk->w[b];
	for (m = 0; m < nm; m++) {
		const double *mw = wk->modew + m * wk->nb;
		double sw = 0, sx = 0, sxx = 0;

		for (b = 0; b < wk->nb; b++) {
			sw += mw[b];
			sx += mw[b] * wk->x[b];
		}
		mean = sw > 0 ? sx / sw : NAN;
		for (b = 0; b < wk->nb; b++)
			sxx += mw[b] * (wk->x[b] - mean) * (wk->x[b] - mean);
		sd = sw > 0 ? sqrt(sxx / sw) : NAN;
		r->mode[m].share = sw / s;
		r->mode[m].mu = mean;
		r->mode[m].sigma = sd;
		r->mode[m].lat_us_p50 =
		    exp(tiers_quantile(wk->x, mw, wk->nb, 0.50)) / 1000;
		r->mode[m].lat_us_p99 =
		    exp(tiers_quantile(wk->x, mw, wk->nb, 0.99)) / 1000;
		r->mode[m].tier = -1;
	}
}


/*
 * Observed Fisher information about f, the fraction of reads in modes
 * [0, i], in nb buckets (ln values x, counts c), given the shapes of the two
 * groups of components: the point's weights w within each group, or the
 * pooled ones when a group is (nearly) absent from the point.  It is
 * n / (f (1 - f)) when the groups do not overlap, less when they do.
 */
static double
tiers_frac_info(const struct tiers_result *r, const double *w, size_t i,
    double f, const double *x, const double *c, size_t nb)
{
	double		 w0[FIT_GMM_MAX], wa = 0, wb = 0, fa, fb, mix, d, z;
	double		 info = 0;
	size_t		 q, j;

	for (j = 0; j < r->ncomp; j++) {
		if (r->comp[j].mode <= i)
			wa += w[j];
		else
			wb += w[j];
	}
	if (wa < 1e-3 || wb < 1e-3) {
		for (j = 0; j < r->ncomp; j++)
			w0[j] = r->comp[j].weight;
		w = w0;
	}
	for (wa = wb = 0, j = 0; j < r->ncomp; j++) {
		if (r->comp[j].mode <= i)
			wa += w[j];
		else
			wb += w[j];
	}
	for (q = 0; q < nb; q++) {
		fa = fb = 0;
		for (j = 0; j < r->ncomp; j++) {
			z = (x[q] - r->comp[j].mu) / r->comp[j].sigma;
			d = w[j] * exp(-0.5 * z * z) / r->comp[j].sigma;
			if (r->comp[j].mode <= i)
				fa += d / wa;
			else
				fb += d / wb;
		}
		mix = f * fa + (1 - f) * fb;
		if (mix > 0)
			info += c[q] * (fa - fb) * (fa - fb) / (mix * mix);
	}
	return (info);
}

/*
 * Variance of point p's fraction f of reads in modes [0, i]: the inverse of
 * its Fisher information, and at least binomial.
 */
static double
tiers_frac_var(const struct tiers_work *wk, const struct tiers_result *r,
    size_t p, size_t i, double f)
{
	const struct tiers_pt	*pt = &wk->pt[p];
	double			 info, ft;

	info = tiers_frac_info(r, wk->pw + p * wk->g.k, i, f,
	    wk->px + pt->off, wk->pc + pt->off, pt->nb);
	ft = fmin(fmax(f, 0.5 / pt->n), 1 - 0.5 / pt->n);
	return (fmax(info > 0 ? 1 / info : INFINITY, ft * (1 - ft) / pt->n));
}

/*
 * Fit min(1, C / S) to the fraction of reads in modes [0, i] and judge the
 * shape of the curve; the interval is judged later (tiers_judge), once the
 * bootstrap has had its say.  A candidate leaves with verdict TIERS_TIER.
 */
static void
tiers_boundary_fit(struct tiers_work *wk, const struct tiers_result *r,
    size_t i, struct tiers_boundary *bd)
{
	struct fit_capacity	 fc;
	double			*f, *var = wk->bvar + i * wk->np, smax;
	size_t			 p, m, nmiss = 0;

	memset(bd, 0, sizeof *bd);
	smax = (double)r->max_ws;
	f = xcalloc(wk->np, sizeof *f);
	for (p = 0; p < wk->np; p++) {
		for (m = 0; m <= i; m++)
			f[p] += r->point_mode_frac[p * r->nmodes + m];
		var[p] = tiers_frac_var(wk, r, p, i, f[p]) +
		    TIERS_SYS_SD * TIERS_SYS_SD;
		if (f[p] < TIERS_NO_MISS)
			nmiss++;
	}
	if (nmiss == 0) {
		bd->verdict = TIERS_NO_MISSES;
		goto out;
	}
	if (fit_capacity(wk->s, f, var, wk->np, &fc) != 0) {
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
 * Widen the candidates' intervals to cover the read-level sampling error
 * of the whole chain: each replicate redraws every bucket count (Poisson),
 * refits the mixture from the current one, the fractions and the
 * capacities.  The mixture's shapes are shared by all points, so their
 * error does not average out across points as binomial noise does.
 */
static void
tiers_bootstrap(struct tiers_work *wk, struct tiers_result *r)
{
	struct fit_capacity	 fc;
	struct fit_gmm		 g;
	struct rng		 rng;
	struct tiers_boundary	*bd;
	double			*pc, *pw, *f, c;
	double			 sum[TIERS_MAX_MODES], sum2[TIERS_MAX_MODES];
	double			 asum[TIERS_MAX_MODES], asum2[TIERS_MAX_MODES];
	size_t			 agot[TIERS_MAX_MODES];
	size_t			 got[TIERS_MAX_MODES], total, p, q, i, j;
	int			 rep, any = 0;

	for (i = 0; i + 1 < r->nmodes; i++)
		any |= r->boundary[i].verdict == TIERS_TIER;
	if (!any)
		return;
	total = wk->pt[wk->np - 1].off + wk->pt[wk->np - 1].nb;
	pc = xcalloc(total + 1, sizeof *pc);
	pw = xcalloc(wk->np * wk->g.k, sizeof *pw);
	f = xcalloc(wk->np * r->nmodes, sizeof *f);
	memset(sum, 0, sizeof sum);
	memset(sum2, 0, sizeof sum2);
	memset(got, 0, sizeof got);
	memset(asum, 0, sizeof asum);
	memset(asum2, 0, sizeof asum2);
	memset(agot, 0, sizeof agot);
	rng_seed(&rng, TIERS_BOOT_SEED);
	for (rep = 0; rep < TIERS_BOOT_REPS; rep++) {
		for (q = 0; q < total; q++)
			pc[q] = tiers_poisson(&rng, wk->pc[q]);
		g = wk->g;
		memcpy(pw, wk->pw, wk->np * g.k * sizeof *pw);
		if (fit_gmm_groups(wk->px, pc, wk->off, wk->np,
		    TIERS_MIN_SIGMA, 200, &g, pw) != 0)
			continue;
		/* cumulative: f[p][i] = reads in modes [0, i] */
		memset(f, 0, wk->np * r->nmodes * sizeof *f);
		for (p = 0; p < wk->np; p++)
			for (j = 0; j < g.k; j++)
				for (i = r->comp[j].mode; i < r->nmodes; i++)
					f[p * r->nmodes + i] += pw[p * g.k + j];
		for (i = 0; i + 1 < r->nmodes; i++) {
			bd = &r->boundary[i];
			if (bd->verdict != TIERS_TIER)
				continue;
			for (p = 0; p < wk->np; p++)
				wk->s[wk->np + p] = f[p * r->nmodes + i];
			if (fit_capacity(wk->s, wk->s + wk->np, wk->bvar +
			    i * wk->np, wk->np, &fc) != 0)
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

/* p50 and p99 (us) of the pooled reads of modes [first, last]. */
static void
tiers_group_latency(const struct tiers_work *wk, size_t first, size_t last,
    double *p50, double *p99)
{
	double	*sum;
	size_t	 m, b;

	sum = xcalloc(wk->nb, sizeof *sum);
	for (m = first; m <= last; m++)
		for (b = 0; b < wk->nb; b++)
			sum[b] += wk->modew[m * wk->nb + b];
	*p50 = exp(tiers_quantile(wk->x, sum, wk->nb, 0.50)) / 1000;
	*p99 = exp(tiers_quantile(wk->x, sum, wk->nb, 0.99)) / 1000;
	free(sum);
}

/* Judge every boundary; the accepted ones split the modes into tiers. */
static void
tiers_assemble(struct tiers_work *wk, struct tiers_result *r)
{
	struct tiers_boundary	*bd;
	struct tier		*t;
	size_t			 i, m, p, first = 0, nt;
	double			 prev = 0;
	int			 closed = 0;

	wk->s = xcalloc(2 * wk->np, sizeof *wk->s);	/* s, then scratch */
	for (p = 0; p < wk->np; p++)
		wk->s[p] = wk->pt[p].p->ws_bytes / (double)r->max_ws;
	wk->bvar = xcalloc(r->nmodes * wk->np, sizeof *wk->bvar);
	for (i = 0; i + 1 < r->nmodes; i++)
		tiers_boundary_fit(wk, r, i, &r->boundary[i]);
	tiers_bootstrap(wk, r);
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		tiers_judge(bd, (double)r->max_ws);
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
		tiers_group_latency(wk, first, i, &t->lat_us_p50,
		    &t->lat_us_p99);
		for (m = first; m <= i; m++)
			r->mode[m].tier = (int)r->ntiers;
		prev = bd->capacity_bytes;
		first = i + 1;
		r->ntiers++;
	}
	tiers_group_latency(wk, first, r->nmodes - 1, &r->backing_p50_us,
	    &r->backing_p99_us);

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
 * Say in words what a shift in mean latency without a second latency mode
 * means: how far latency drifted, between which sizes, and that it is not
 * a cache (the drift is the ratio of the segments' geometric means).
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
	snprintf(why, len, "latency drifted %s %.0f%% between %s and %s but "
	    "no second class of latency appeared, so no cache",
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

/* Say in r->note what a reader should know: disagreement, loose ends. */
static void
tiers_note(struct tiers_result *r, const char *why)
{
	char			 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char			 c[UNITS_BUFSZ];
	const struct tiers_boundary *bd;
	size_t			 i, len;

	if (r->agree == 0)
		snprintf(r->note, sizeof r->note, "%s%s", r->ntiers > 0 ?
		    "methods disagree: " : "", why);
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

/* Find the cache tiers in the points of a scan. */
int
tiers_analyse(const struct point *pts, size_t n, struct tiers_result *r)
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
	if (wk.np < TIERS_MIN_POINTS) {
		snprintf(r->note, sizeof r->note, "%zu point%s: tiers need at "
		    "least %d", wk.np, wk.np == 1 ? "" : "s",
		    TIERS_MIN_POINTS);
		goto out;
	}
	if (fit_gmm_bic(wk.x, wk.w, wk.nb, TIERS_MAX_MODES, TIERS_MIN_SIGMA,
	    &wk.g) != 0) {
		snprintf(r->note, sizeof r->note, "latency mixture fit failed");
		goto out;
	}
	tiers_refine(&wk);
	tiers_modes(&wk, r);
	tiers_fractions(&wk, r);
	tiers_assemble(&wk, r);
	tiers_crosscheck(&wk, r, why, sizeof why);
	tiers_note(r, why);
	r->analysed = 1;
	rc = 0;
out:
	tiers_work_free(&wk);
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

	if (r != NULL && r->analysed) {
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

	if (r == NULL || !r->analysed)
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

/* Whether a point's partial histogram pins every capacity candidate. */
int
tiers_point_enough(const struct tiers_result *r, uint64_t ws_bytes,
    const struct hist *h, double target_rel)
{
	const struct tiers_boundary *bd;
	double		 mu[FIT_GMM_MAX], sigma[FIT_GMM_MAX], w0[FIT_GMM_MAX];
	double		 pi[FIT_GMM_MAX], *x, *c, f, n, info, var;
	size_t		 b, nb = 0, i, j;
	int		 any = 0, rc = 1;

	if (r == NULL || !r->analysed || r->ncomp == 0 || h == NULL)
		return (-1);
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		any |= tiers_is_candidate(bd->verdict);
	}
	if (!any)
		return (-1);
	if (h->count < TIERS_ENOUGH_MIN_IOS)
		return (0);

	x = xcalloc(HIST_BUCKETS, sizeof *x);
	c = xcalloc(HIST_BUCKETS, sizeof *c);
	for (b = 0; b < HIST_BUCKETS; b++) {
		if (h->bucket[b] == 0)
			continue;
		x[nb] = tiers_bucket_ln(b);
		c[nb++] = h->bucket[b];
	}
	for (j = 0; j < r->ncomp; j++) {
		mu[j] = r->comp[j].mu;
		sigma[j] = r->comp[j].sigma;
		w0[j] = r->comp[j].weight;
	}
	tiers_weights(mu, sigma, w0, r->ncomp, x, c, nb, 1e-7, pi, NULL);
	n = (double)h->count;
	for (i = 0; i + 1 < r->nmodes; i++) {
		bd = &r->boundary[i];
		if (!tiers_is_candidate(bd->verdict))
			continue;
		if ((double)ws_bytes <= bd->capacity_bytes)
			continue;	/* below the cache: all hits */
		f = 0;
		for (j = 0; j < r->ncomp; j++)
			if (r->comp[j].mode <= i)
				f += pi[j];
		if (f < 0.1)
			continue;	/* deep in the tail: little to say */
		info = tiers_frac_info(r, pi, i, f, x, c, nb);
		var = fmax(info > 0 ? 1 / info : INFINITY, f * (1 - f) / n);
		if (sqrt(var) / f > target_rel)
			rc = 0;
	}
	free(c);
	free(x);
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

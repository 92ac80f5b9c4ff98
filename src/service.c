/* SPDX-License-Identifier: ISC */
/*
 * Service latency apart from a rate cap's queue.  Under a cap of R IOPS a
 * closed loop at depth d sees about d / R per read whatever serves it, so
 * a cache faster than that looks as slow as the cap, and the mixture of
 * the scan gives it a latency that is neither.  Reading a point again one
 * read at a time, paced at a quarter of the rate it ran at, keeps every read
 * under the cap: what it measures is the store's own latency.  Each store
 * is read at the point the tiers model gives it the largest share, and
 * its reads are told from the other stores' by order: the fastest share
 * of a point's reads are the fastest store's (exact when the stores'
 * latencies do not overlap, and close for its median when they do a
 * little).
 */
#include <math.h>
#include <string.h>

#include "hist.h"
#include "point.h"
#include "service.h"

/* The point (index) to read store j at again; n for none. */
static size_t
service_best_point(const struct point *pts, size_t n,
    const struct tiers_result *r, size_t j)
{
	double	share[SERVICE_STORES], best_share = SERVICE_MIN_SHARE;
	size_t	p, best = n, last = n;

	for (p = 0; p < n; p++) {
		if (pts[p].hist == NULL || !(pts[p].iops > 0))
			continue;
		tiers_model_share(r, (double)pts[p].ws_bytes, share);
		if (share[j] > best_share)
			best_share = share[j], best = p;
		last = p;
	}
	if (best == n)
		return (n);
	tiers_model_share(r, (double)pts[last].ws_bytes, share);
	return (share[j] >= SERVICE_NEAR * best_share ? last : best);
}

/* Plan the probes; see service.h. */
size_t
service_plan(const struct point *pts, size_t n, const struct tiers_result *r,
    struct service_plan *plan)
{
	struct service_probe	*pr;
	size_t			 at[SERVICE_STORES], j, p;
	double			 least;

	memset(plan, 0, sizeof *plan);
	for (j = 0; j < SERVICE_STORES; j++)
		plan->probe_of[j] = -1;
	if (!r->analysed || n == 0)
		return (0);
	plan->nstores = r->ntiers + 1;
	for (j = 0; j < plan->nstores; j++)
		at[j] = service_best_point(pts, n, r, j);
	/* One probe per point chosen, in the points' (ascending) order. */
	for (p = 0; p < n; p++) {
		pr = &plan->probe[plan->nprobes];
		memset(pr, 0, sizeof *pr);
		least = INFINITY;
		for (j = 0; j < plan->nstores; j++) {
			if (at[j] != p)
				continue;
			if (isinf(least))
				tiers_model_share(r, (double)pts[p].ws_bytes,
				    pr->share);
			plan->probe_of[j] = (int)plan->nprobes;
			least = fmin(least, pr->share[j]);
		}
		if (isinf(least))
			continue;
		pr->point = p;
		pr->ws_bytes = pts[p].ws_bytes;
		pr->pace_iops = SERVICE_PACE * pts[p].iops;
		pr->first_ios = (uint64_t)ceil(SERVICE_FIRST / least);
		pr->min_ios = (uint64_t)ceil(SERVICE_READS / least);
		if (pr->min_ios > SERVICE_MAX_IOS)
			pr->min_ios = SERVICE_MAX_IOS;
		plan->nprobes++;
	}
	return (plan->nprobes);
}

/*
 * The fractions of h's reads below store's and up to its end, by the
 * stores' shares; -1 when there are none to tell.
 */
static int
service_bounds(const struct hist *h, const double *share, size_t nstores,
    size_t store, double *lo, double *hi)
{
	double	below = 0, total = 0;
	size_t	j;

	if (h == NULL || h->count == 0 || store >= nstores ||
	    !(share[store] > 0))
		return (-1);
	for (j = 0; j < nstores; j++) {
		if (j < store)
			below += share[j];
		total += share[j];
	}
	*lo = below / total;
	*hi = (below + share[store]) / total;
	return (0);
}

/* The q-quantile of one store's reads in h; see service.h. */
double
service_slice(const struct hist *h, const double *share, size_t nstores,
    size_t store, double q)
{
	double	lo, hi;

	if (service_bounds(h, share, nstores, store, &lo, &hi) != 0)
		return (NAN);
	return (hist_percentile(h, lo + q * (hi - lo)) / 1e3);
}

/* The mean of one store's reads in h; see service.h. */
double
service_slice_mean(const struct hist *h, const double *share,
    size_t nstores, size_t store)
{
	double	lo, hi, below = 0, k, in, sum = 0, n = 0;
	size_t	i;

	if (service_bounds(h, share, nstores, store, &lo, &hi) != 0)
		return (NAN);
	lo *= (double)h->count;
	hi *= (double)h->count;
	for (i = 0; i < HIST_BUCKETS && below < hi; i++) {
		k = (double)h->bucket[i];
		in = fmin(below + k, hi) - fmax(below, lo);
		if (in > 0) {
			sum += in * hist_bucket_value(i);
			n += in;
		}
		below += k;
	}
	return (n > 0 ? sum / n / 1e3 : NAN);
}

/*
 * Standard error of the ln of h's q-quantile: the binomial sd of the
 * fraction of reads below it over the density of ln latency there (the
 * reads within SERVICE_DENS_LN either side); INFINITY when none are.
 */
static double
service_quantile_se(const struct hist *h, double q)
{
	double	x = hist_percentile(h, q), d;

	d = (hist_fraction_below(h, x * exp(SERVICE_DENS_LN)) -
	    hist_fraction_below(h, x * exp(-SERVICE_DENS_LN))) /
	    (2 * SERVICE_DENS_LN);
	return (d > 0 ? sqrt(q * (1 - q) / (double)h->count) / d : INFINITY);
}

/*
 * Whether store j's p50 in h (the scan's point) is above its p50 in the
 * probe pp beyond chance: by SERVICE_APART_Z standard errors of the
 * difference of their ln.
 */
static int
service_apart(const struct service_probe *pr, size_t nstores, size_t j,
    const struct hist *h, const struct hist *pp)
{
	double	lo, hi, q, se;

	if (service_bounds(h, pr->share, nstores, j, &lo, &hi) != 0)
		return (0);
	q = (lo + hi) / 2;
	se = hypot(service_quantile_se(h, q), service_quantile_se(pp, q));
	return (log(hist_percentile(h, q) / hist_percentile(pp, q)) >=
	    SERVICE_APART_Z * se);
}

/*
 * Store j of plan against its probe pp: its p50 and mean in the scan's
 * point (capped[2]), and its own p50 and p99: the paced ones, but the
 * scan's p50 when lower (a cap that stalls leaves the median unqueued, and
 * a read after a pause may be slower).  Whether a cap holds it.
 */
static int
service_judge(const struct service_plan *plan, const struct point *pts,
    size_t j, const struct point *pp, double *capped, double *p50,
    double *p99)
{
	const struct service_probe	*pr = &plan->probe[plan->probe_of[j]];
	const struct hist		*h = pts[pr->point].hist;
	int				 held;

	capped[0] = service_slice(h, pr->share, plan->nstores, j, 0.5);
	capped[1] = service_slice_mean(h, pr->share, plan->nstores, j);
	*p50 = service_slice(pp->hist, pr->share, plan->nstores, j, 0.5);
	*p99 = service_slice(pp->hist, pr->share, plan->nstores, j, 0.99);
	held = (capped[0] >= SERVICE_QUEUED * *p50 && service_apart(pr,
	    plan->nstores, j, h, pp->hist)) || capped[1] >=
	    SERVICE_STALLED * service_slice_mean(pp->hist, pr->share,
	    plan->nstores, j);
	*p50 = fmin(*p50, capped[0]);
	return (held);
}

/* Whether a cap holds a store probe k reads; see service.h. */
int
service_held(const struct service_plan *plan, const struct point *pts,
    size_t k, const struct point *pp)
{
	double	capped[2], p50, p99;
	size_t	j;

	for (j = 0; j < plan->nstores; j++)
		if (plan->probe_of[j] == (int)k &&
		    service_judge(plan, pts, j, pp, capped, &p50, &p99))
			return (1);
	return (0);
}

/* Judge the stores and write their figures; see service.h. */
size_t
service_apply(const struct service_plan *plan, const struct point *pts,
    const struct point *const *probed, struct tiers_result *r)
{
	const struct point	*pp;
	double			 capped[2], p50, p99;
	size_t			 j, ncapped = 0;

	for (j = 0; j < plan->nstores && j <= r->ntiers; j++) {
		if (plan->probe_of[j] < 0 ||
		    (pp = probed[plan->probe_of[j]]) == NULL)
			continue;
		if (!service_judge(plan, pts, j, pp, capped, &p50, &p99))
			continue;
		ncapped++;
		if (j < r->ntiers) {
			r->tier[j].lat_us_p50 = p50;
			r->tier[j].lat_us_p99 = p99;
			r->tier[j].capped_lat_us_p50 = capped[0];
			r->tier[j].capped_lat_us_mean = capped[1];
		} else {
			r->backing_p50_us = p50;
			r->backing_p99_us = p99;
			r->backing_capped_p50_us = capped[0];
			r->backing_capped_mean_us = capped[1];
		}
	}
	return (ncapped);
}

/* SPDX-License-Identifier: ISC */
/* One measured point: its latency summary and what it owns. */
#include <math.h>
#include <stdlib.h>

#include "hist.h"
#include "point.h"


/* Fill pt->lat_us from pt->hist. */
void
point_summarise(struct point *pt)
{
	const struct hist	*h = pt->hist;

	if (h == NULL || h->count == 0) {
		pt->lat_us.mean = pt->lat_us.p50 = pt->lat_us.p90 = NAN;
		pt->lat_us.p99 = pt->lat_us.p999 = NAN;
		return;
	}
	pt->lat_us.mean = hist_mean(h) / 1e3;
	pt->lat_us.p50 = hist_percentile(h, 0.50) / 1e3;
	pt->lat_us.p90 = hist_percentile(h, 0.90) / 1e3;
	pt->lat_us.p99 = hist_percentile(h, 0.99) / 1e3;
	pt->lat_us.p999 = NAN;
	if (h->count >= POINT_P999_MIN_IOS)
		pt->lat_us.p999 = hist_percentile(h, 0.999) / 1e3;
}

/* Free what a point owns. */
void
point_free(struct point *pt)
{
	if (pt == NULL)
		return;
	free(pt->hist);
	pt->hist = NULL;
}

/* Bytes a point read or wrote, its warm-up counted at its rate. */
double
point_bytes(const struct point *p)
{
	return (((double)p->ios + p->iops * p->warm_seconds) * p->bs);
}

/*
 * The latency at level p of pt's tail (p from 0.9): an exponential tail
 * through its p90 and p99 (beyond the p99, through its p99 and p99.9 when
 * it has one), q(p) = q90 + (q99 - q90) log10(0.1 / (1 - p)).
 */
static double
point_tail_at(const struct point *pt, double p)
{
	const struct lat_summary	*l = &pt->lat_us;

	if (p > 0.99 && isfinite(l->p999))
		return (l->p99 + (l->p999 - l->p99) * log10(0.01 / (1 - p)));
	return (l->p90 + (l->p99 - l->p90) * log10(0.1 / (1 - p)));
}

/*
 * The 95% interval of pt's p99, from order statistics: the ranks of a
 * p99 of n reads lie within n (0.99 +- 1.96 sqrt(0.99 x 0.01 / n)), read
 * off the tail of point_tail_at.  Past the slowest read, the slowest is
 * the high end when it lies above the p99 97.5% of the time (0.99^n at
 * most 0.025: 368 reads or more), read at its rank n / (n + 1); with fewer
 * reads nothing bounds it (INFINITY).  NAN and NAN without a p90 and p99.
 */
void
point_p99_interval(const struct point *pt, double *lo, double *hi)
{
	double	n = (double)pt->ios, d;

	*lo = *hi = NAN;
	if (!(n > 0) || !isfinite(pt->lat_us.p90) ||
	    !isfinite(pt->lat_us.p99) || pt->lat_us.p99 < pt->lat_us.p90)
		return;
	d = 1.96 * sqrt(0.99 * 0.01 / n);
	*lo = fmax(point_tail_at(pt, 0.99 - d), pt->lat_us.p90);
	if (0.99 + d < n / (n + 1))
		*hi = point_tail_at(pt, 0.99 + d);
	else if (pow(0.99, n) <= 0.025)
		*hi = point_tail_at(pt, n / (n + 1));
	else
		*hi = INFINITY;
}

/* SPDX-License-Identifier: ISC */
/* Online mean and variance (Welford), Student t confidence intervals, the
 * median, and the SNIA steady-state rule. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xmalloc.h"

/* Two-sided 95% Student t quantiles (the 0.975 quantile), df 1 to 30. */
static const double stats_t95_table[] = {
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582,
	2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
	2.200985, 2.178813, 2.160369, 2.144787, 2.131450,
	2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873, 2.068658, 2.063899, 2.059539,
	2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
};
#define STATS_T95_TABLE \
	(sizeof stats_t95_table / sizeof stats_t95_table[0])

/* Forget all values. */
void
stats_init(struct stats *s)
{
	s->n = 0;
	s->mean = 0;
	s->m2 = 0;
}

/* Add one value. */
void
stats_add(struct stats *s, double x)
{
	double	d;

	s->n++;
	d = x - s->mean;
	s->mean += d / (double)s->n;
	s->m2 += d * (x - s->mean);
}

/* Mean of the values added; 0 when none. */
double
stats_mean(const struct stats *s)
{
	return (s->mean);
}

/* Sample variance (n - 1 in the denominator); 0 if fewer than 2 values. */
double
stats_var(const struct stats *s)
{
	if (s->n < 2)
		return (0);
	return (s->m2 / (double)(s->n - 1));
}

/* Sample standard deviation. */
double
stats_sd(const struct stats *s)
{
	return (sqrt(stats_var(s)));
}

/*
 * The 0.975 quantile of Student's t with df degrees of freedom: a table to
 * 30, then the Cornish-Fisher expansion around the normal quantile (error
 * below 1e-6 there); INFINITY for df 0.
 */
double
stats_t95(uint64_t df)
{
	const double	z = 1.959963984540054;
	double		z2 = z * z, g1, g2, g3, g4, d;

	if (df == 0)
		return (INFINITY);
	if (df <= STATS_T95_TABLE)
		return (stats_t95_table[df - 1]);
	g1 = z * (z2 + 1) / 4;
	g2 = z * ((5 * z2 + 16) * z2 + 3) / 96;
	g3 = z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384;
	g4 = z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) /
	    92160;
	d = (double)df;
	return (z + g1 / d + g2 / (d * d) + g3 / (d * d * d) +
	    g4 / (d * d * d * d));
}

/* Half-width of the 95% confidence interval of the mean; INFINITY if n < 2. */
double
stats_ci95(const struct stats *s)
{
	if (s->n < 2)
		return (INFINITY);
	return (stats_t95(s->n - 1) * stats_sd(s) / sqrt((double)s->n));
}

/* The confidence half-width relative to the mean. */
double
stats_ci95_rel(const struct stats *s)
{
	if (s->n < 2 || s->mean == 0)
		return (INFINITY);
	return (stats_ci95(s) / fabs(s->mean));
}

/*
 * Half-width of the 95% interval of the mean of a series of n rates over
 * contiguous intervals.  A rate limiter that lets its I/O through in
 * clumps puts a clump on one side of an interval's end or the other, so
 * a high interval is followed by a low one and the mean is better known
 * than independent values would say.  The variance of the mean is the
 * long-run variance over n, estimated as Newey and West do with one lag
 * (lag-0 plus the lag-1 autocovariance), but no less than half the lag-0
 * variance however alternating the series, with Student's t.  INFINITY
 * if n < 3.
 */
double
stats_series_ci95(const double *xs, size_t n)
{
	double	mean, sd, g0, g1 = 0;
	size_t	i;

	if (n < 3)
		return (INFINITY);
	stats_mean_sd(xs, n, &mean, &sd);
	for (i = 1; i < n; i++)
		g1 += (xs[i] - mean) * (xs[i - 1] - mean);
	g0 = sd * sd;
	g1 /= (double)(n - 1);
	return (stats_t95(n - 1) * sqrt(fmax(g0 + g1, g0 / 2) / (double)n));
}

/*
 * Steady state in the SNIA sense over xs[0..n): max - min within
 * max_excursion of |mean|, and the fitted line's rise over the window,
 * |slope| * (n - 1), within max_slope of |mean|.  Needs n >= 2, finite
 * values and a non-zero mean.
 */
int
stats_is_steady(const double *xs, size_t n, double max_excursion,
    double max_slope)
{
	double	mean, sd, lo, hi, sxy = 0, sxx = 0, xbar, slope;
	size_t	i;

	if (n < 2)
		return (0);
	stats_mean_sd(xs, n, &mean, &sd);
	if (!isfinite(mean) || mean == 0)
		return (0);
	lo = hi = xs[0];
	xbar = (double)(n - 1) / 2;
	for (i = 0; i < n; i++) {
		if (xs[i] < lo)
			lo = xs[i];
		if (xs[i] > hi)
			hi = xs[i];
		sxy += ((double)i - xbar) * (xs[i] - mean);
		sxx += ((double)i - xbar) * ((double)i - xbar);
	}
	if (hi - lo > max_excursion * fabs(mean))
		return (0);
	slope = sxy / sxx;
	if (fabs(slope) * (double)(n - 1) > max_slope * fabs(mean))
		return (0);
	return (1);
}

/* Mean and sample standard deviation of xs[0..n); both 0 when n is 0. */
void
stats_mean_sd(const double *xs, size_t n, double *mean, double *sd)
{
	struct stats	s;
	size_t		i;

	stats_init(&s);
	for (i = 0; i < n; i++)
		stats_add(&s, xs[i]);
	*mean = stats_mean(&s);
	*sd = stats_sd(&s);
}

static int
stats_cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return ((x > y) - (x < y));
}

/* Median of xs[0..n) (copied: xs is untouched); NAN when n is 0. */
double
stats_median(const double *xs, size_t n)
{
	double	*c, m;

	if (n == 0)
		return (NAN);
	c = xreallocarray(NULL, n, sizeof *c);
	memcpy(c, xs, n * sizeof *c);
	qsort(c, n, sizeof *c, stats_cmp_double);
	m = (n % 2) ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	free(c);
	return (m);
}

/* SPDX-License-Identifier: ISC */
/*
 * Log-linear latency histogram: add, merge, mean, percentiles, the
 * geometric mean's precision.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hist.h"

/*
 * Layout.  With H = 2^(HIST_SUB_BITS-1) (128): values below 2H are exact,
 * one bucket each (indices 0 .. 2H-1).  Above, a value whose top bit is bit
 * m is shifted right by s = m - (HIST_SUB_BITS-1), leaving a mantissa in
 * [H, 2H); its index is s * H + mantissa, so every power-of-two group holds H
 * buckets of width 2^s.  A value in such a bucket is at least H * 2^s, so the
 * midpoint is within 2^(s-1) / (H * 2^s) = 1/(2H) = 0.39% of it.  The last
 * index, HIST_BUCKETS - 1, ends just below HIST_MAX_NS; values from there up
 * are put in it and counted in overflow.
 */
#define HIST_HALF	((uint64_t)1 << (HIST_SUB_BITS - 1))

/* Empty the histogram. */
void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

/* Bucket index of a value in ns. */
size_t
hist_index(uint64_t v)
{
	unsigned int	m, s;

	if (v >= HIST_MAX_NS)
		return (HIST_BUCKETS - 1);
	if (v < 2 * HIST_HALF)
		return ((size_t)v);
	m = 63 - (unsigned int)__builtin_clzll(v);
	s = m - (HIST_SUB_BITS - 1);
	return ((size_t)(s * HIST_HALF + (v >> s)));
}

/* Lowest value of a bucket, ns. */
uint64_t
hist_bucket_low(size_t i)
{
	uint64_t	s;

	if (i < 2 * HIST_HALF)
		return (i);
	s = i / HIST_HALF - 1;
	return ((i - s * HIST_HALF) << s);
}

/* One past the highest value of a bucket, ns. */
uint64_t
hist_bucket_high(size_t i)
{
	if (i < 2 * HIST_HALF)
		return (i + 1);
	return (hist_bucket_low(i) + ((uint64_t)1 << (i / HIST_HALF - 1)));
}

/* Midpoint of the whole numbers in a bucket, ns. */
double
hist_bucket_value(size_t i)
{
	return ((hist_bucket_low(i) + (double)(hist_bucket_high(i) - 1)) / 2);
}

/* Add one value in ns. */
void
hist_add(struct hist *h, uint64_t v)
{
	if (h->count == 0 || v < h->min_ns)
		h->min_ns = v;
	if (h->count == 0 || v > h->max_ns)
		h->max_ns = v;
	if (v >= HIST_MAX_NS)
		h->overflow++;
	h->count++;
	h->sum_ns += (double)v;
	h->bucket[hist_index(v)]++;
}

/* Add the values of src to dst. */
void
hist_merge(struct hist *dst, const struct hist *src)
{
	size_t	i;

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (dst->count == 0 || src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->sum_ns += src->sum_ns;
	for (i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

/* Mean of the values added, ns; 0 when empty. */
double
hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return (0);
	return (h->sum_ns / h->count);
}

/* The geometric mean's 95% half-width, relative: see hist.h. */
double
hist_log_ci95(const struct hist *h)
{
	double	sx = 0, sxx = 0, x, n = (double)h->count, var;
	size_t	i;

	if (h->count < 2)
		return (INFINITY);
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		x = log(fmax(hist_bucket_value(i), 1));
		sx += x * h->bucket[i];
		sxx += x * x * h->bucket[i];
	}
	var = fmax(0, (sxx - sx * sx / n) / (n - 1));
	return (1.96 * sqrt(var / n));
}

/*
 * The q-quantile in ns, taking rank q * (count - 1) among the sorted values
 * and spreading the values of each bucket evenly over it; clamped to the
 * exact minimum and maximum, so q = 0 and q = 1 are exact.
 */
double
hist_percentile(const struct hist *h, double q)
{
	double		rank, low, width, f, v;
	uint64_t	below = 0, k;
	size_t		i;

	if (h->count == 0)
		return (0);
	if (!(q > 0))
		return ((double)h->min_ns);
	if (q >= 1)
		return ((double)h->max_ns);
	rank = q * (double)(h->count - 1);
	for (i = 0; i < HIST_BUCKETS - 1; i++) {
		k = h->bucket[i];
		if (k != 0 && rank < (double)(below + k))
			break;
		below += k;
	}
	k = h->bucket[i];
	low = (double)hist_bucket_low(i);
	width = (double)(hist_bucket_high(i) - 1) - low;
	if (i == HIST_BUCKETS - 1 && h->overflow != 0)
		v = (double)h->max_ns;
	else if (k == 0)
		v = hist_bucket_value(i);
	else {
		f = (rank - (double)below + 0.5) / (double)k;
		v = low + (f < 1 ? f : 1) * width;
	}
	if (v < (double)h->min_ns)
		v = (double)h->min_ns;
	if (v > (double)h->max_ns)
		v = (double)h->max_ns;
	return (v);
}

/* Fraction of values whose bucket midpoint is below threshold_ns. */
double
hist_fraction_below(const struct hist *h, double threshold_ns)
{
	uint64_t	n = 0;
	size_t		i;

	if (h->count == 0)
		return (0);
	for (i = 0; i < HIST_BUCKETS && hist_bucket_value(i) < threshold_ns;
	    i++)
		n += h->bucket[i];
	return ((double)n / (double)h->count);
}

/* Largest gap between the cumulative fractions of a and b (Kolmogorov). */
double
hist_distance(const struct hist *a, const struct hist *b)
{
	double	ca = 0, cb = 0, d = 0;
	size_t	i;

	if (a->count == 0 || b->count == 0)
		return (0);
	for (i = 0; i < HIST_BUCKETS; i++) {
		ca += (double)a->bucket[i] / (double)a->count;
		cb += (double)b->bucket[i] / (double)b->count;
		d = fmax(d, fabs(ca - cb));
	}
	return (d);
}

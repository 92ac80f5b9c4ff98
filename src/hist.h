/* SPDX-License-Identifier: ISC */
/*
 * Log-linear latency histogram in constant memory.
 *
 * Values are nanoseconds.  Buckets are linear inside each power-of-two
 * group (2^(HIST_SUB_BITS-1) buckets a group), so a value is known to within
 * its bucket and represented by the bucket's midpoint: relative error below
 * 1% from 100 ns to over 100 s.  Values above HIST_MAX_NS land in the last
 * bucket and are counted in "overflow".  (Layout details: hist.c.)
 */
#ifndef HIST_H
#define HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS	8
#define HIST_GROUPS	30		/* top group reaches 2^37 ns ~ 137 s */
#define HIST_BUCKETS	((HIST_GROUPS + 1) << (HIST_SUB_BITS - 1))
#define HIST_MAX_NS	((uint64_t)1 << (HIST_GROUPS + HIST_SUB_BITS - 1))

struct hist {
	uint64_t	count;			/* values added */
	uint64_t	overflow;		/* values above HIST_MAX_NS */
	double		sum_ns;			/* exact sum, for the mean */
	uint64_t	min_ns;
	uint64_t	max_ns;
	uint64_t	bucket[HIST_BUCKETS];
};

void	 hist_init(struct hist *);
void	 hist_add(struct hist *, uint64_t);
void	 hist_merge(struct hist *, const struct hist *);

/* Bucket index of a value, and the midpoint value (ns) of a bucket. */
size_t	 hist_index(uint64_t);
double	 hist_bucket_value(size_t);
/* Lower and upper (exclusive) bounds of a bucket, ns. */
uint64_t hist_bucket_low(size_t);
uint64_t hist_bucket_high(size_t);

/* Mean (exact), and the q-quantile (0 <= q <= 1) in ns; 0 when empty. */
double	 hist_mean(const struct hist *);
double	 hist_percentile(const struct hist *, double);

/*
 * Half-width of the 95% confidence interval of the mean ln(value), from
 * the bucket midpoints: the geometric mean's relative precision, which a
 * few values a thousand times the others do not hold back as they do the
 * mean's.  INFINITY with fewer than two values.
 */
double	 hist_log_ci95(const struct hist *);

/* Fraction of values below a threshold in ns (bucket midpoints compared). */
double	 hist_fraction_below(const struct hist *, double);

/*
 * The two-sample Kolmogorov-Smirnov statistic of two histograms: the
 * largest gap between their cumulative fractions; 0 if either is empty.
 */
double	 hist_distance(const struct hist *, const struct hist *);

#endif

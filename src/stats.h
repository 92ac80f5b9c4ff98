/* SPDX-License-Identifier: ISC */
/* Online statistics (Welford), batch means, and the steady-state rule. */
#ifndef STATS_H
#define STATS_H

#include <stddef.h>
#include <stdint.h>

struct stats {
	uint64_t	n;
	double		mean;
	double		m2;		/* sum of squared deviations */
};

void	stats_init(struct stats *);
void	stats_add(struct stats *, double);
double	stats_mean(const struct stats *);
double	stats_var(const struct stats *);	/* sample variance; 0 if n < 2 */
double	stats_sd(const struct stats *);
/* Half-width of the 95% confidence interval of the mean (Student t). */
double	stats_ci95(const struct stats *);
/* stats_ci95 / |mean|; INFINITY when undefined. */
double	stats_ci95_rel(const struct stats *);
/*
 * Half-width of the 95% interval of the mean of a series of rates over
 * contiguous intervals, whose successive values may be correlated.
 */
double	stats_series_ci95(const double *, size_t);
/* Two-sided 95% Student t quantile for df degrees of freedom. */
double	stats_t95(uint64_t);

/*
 * Steady state in the SNIA sense over the last n values of xs: max - min
 * within max_excursion (e.g. 0.20) of the mean, and the least-squares line's
 * rise across the window within max_slope (e.g. 0.10) of the mean.
 */
int	stats_is_steady(const double *, size_t, double, double);

/* Mean and sample standard deviation of an array (sd 0 when n < 2). */
void	stats_mean_sd(const double *, size_t, double *, double *);

/* Median of an array (left untouched); NAN when it is empty. */
double	stats_median(const double *, size_t);

#endif

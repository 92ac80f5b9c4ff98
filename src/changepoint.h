/* SPDX-License-Identifier: ISC */
/* Change points in a series: PELT with the L2 (mean shift) cost. */
#ifndef CHANGEPOINT_H
#define CHANGEPOINT_H

#include <stddef.h>

/*
 * Optimal segmentation of x[0..n) minimising the sum of squared deviations
 * from each segment's mean plus penalty per change point, with segments of at
 * least min_seg values.  Writes up to max change points (index of the first
 * value of each new segment, ascending) to cps and returns their number.
 */
size_t	changepoint_pelt(const double *, size_t, double, size_t, size_t *,
	    size_t);

/* A BIC-style penalty for series of length n with noise variance var. */
double	changepoint_penalty(size_t, double);

/* Robust noise variance of x from successive differences (MAD based). */
double	changepoint_noise_var(const double *, size_t);

#endif

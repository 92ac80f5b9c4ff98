/* SPDX-License-Identifier: ISC */
/*
 * Cache tiers from a working-set scan: pure analysis of the measured points
 * (latency histograms against working-set size), no I/O.
 */
#ifndef TIERS_H
#define TIERS_H

#include <stddef.h>
#include <stdint.h>

struct point;

#define TIERS_MAX	4		/* caches in front of the store */

struct tier {
	uint64_t	capacity_bytes;
	uint64_t	capacity_low_bytes;	/* 95% interval */
	uint64_t	capacity_high_bytes;
	int		at_least;	/* larger than the largest ws scanned:
					   capacity_bytes is a lower bound */
	double		lat_us_p50;
	double		lat_us_p99;
};

struct tiers_result {
	int		analysed;	/* tiers and backing are filled */
	size_t		ntiers;
	struct tier	tier[TIERS_MAX];	/* fastest first */
	double		backing_p50_us;	/* NAN when unknown */
	double		backing_p99_us;
	char		note[256];	/* e.g. methods disagree; "" if none */
};

/* Find the tiers in n points of a scan.  Returns 0, or -1 if inconclusive. */
int	tiers_analyse(const struct point *, size_t, struct tiers_result *);

#endif

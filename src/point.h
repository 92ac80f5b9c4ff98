/* SPDX-License-Identifier: ISC */
/*
 * One measured point (working set, I/O size, depth) and its latency
 * summary: what the sampler fills and the analysis and reports read.
 */
#ifndef POINT_H
#define POINT_H

#include <stdint.h>

#include "hist.h"

struct lat_summary {			/* microseconds */
	double	mean;
	double	p50;
	double	p90;
	double	p99;
	double	p999;
};

#define POINT_MIXED	2	/* reads and writes mixed */

/* One measured point. */
struct point {
	uint64_t	 ws_bytes;	/* working set: offsets in [0, ws) */
	uint32_t	 bs;		/* bytes per I/O */
	unsigned	 iodepth;
	int		 write;		/* 0 reads, 1 writes, POINT_MIXED */
	uint64_t	 ios;		/* I/Os measured (after warm-up) */
	double		 seconds;	/* device time measured */
	double		 warm_seconds;	/* device time spent warming */
	double		 iops;
	double		 bytes_per_s;
	double		 ci95_rel;	/* achieved CI half-width / mean lat */
	double		 cpu_util;	/* our CPU time / wall time */
	struct lat_summary lat_us;
	struct hist	*hist;		/* owned: latencies, ns; may be NULL */
	int		 state;		/* enum bucket_state it was measured
					   in (report_state_apply) */
};

/*
 * I/Os a p99.9 needs: from this many on, all of them fall below the true
 * 99.9th percentile with a chance under 2.5% (0.999^n <= 0.025), so its
 * distribution-free 95% interval, between two order statistics, closes
 * at or below the slowest I/O.  With fewer, the p99.9 is unknown.
 */
#define POINT_P999_MIN_IOS	3688

/*
 * Fill pt->lat_us from pt->hist; p999 stays NAN below POINT_P999_MIN_IOS
 * I/Os.
 */
void	point_summarise(struct point *);
/* Free what a point owns (its histogram); the struct stays. */
void	point_free(struct point *);
/* Bytes a point read or wrote, its warm-up counted at its rate. */
double	point_bytes(const struct point *);

#endif

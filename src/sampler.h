/* SPDX-License-Identifier: ISC */
/*
 * Measure one point: uniform random aligned I/O over [0, ws) drawn with
 * replacement at a fixed bs and iodepth, until the mean latency is known to
 * the requested precision or the time budget is spent.
 */
#ifndef SAMPLER_H
#define SAMPLER_H

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

struct engine;
struct rng;

struct lat_summary {			/* microseconds */
	double	mean;
	double	p50;
	double	p90;
	double	p99;
	double	p999;
};

/* One measured point. */
struct point {
	uint64_t	 ws_bytes;	/* working set: offsets in [0, ws) */
	uint32_t	 bs;		/* bytes per I/O */
	unsigned	 iodepth;
	int		 write;
	uint64_t	 ios;		/* I/Os measured (after warm-up) */
	double		 seconds;	/* device time measured */
	double		 warm_seconds;	/* device time spent warming */
	double		 iops;
	double		 bytes_per_s;
	double		 ci95_rel;	/* achieved CI half-width / mean lat */
	double		 cpu_util;	/* our CPU time / wall time */
	struct lat_summary lat_us;
	struct hist	*hist;		/* owned: latencies, ns; may be NULL */
};

/* One interval of a timeline: per interval, never cumulative. */
struct timeline_sample {
	double	t_s;			/* interval end, from the start */
	double	iops;
	double	bytes_per_s;
	double	lat_us_mean;
};

struct timeline {
	struct timeline_sample	*v;
	size_t			 n;
	size_t			 cap;
};

struct sample_spec {
	uint64_t	ws_bytes;	/* offsets in [0, ws_bytes) */
	uint64_t	warm_from;	/* sequential warm-up over [warm_from, ws) */
	int		warm_random;	/* random I/O until latency is steady */
	uint32_t	bs;
	unsigned	iodepth;
	int		write;
	double		precision;	/* stop when ci95_rel <= this ... */
	double		min_time_s;	/* ... but not before this */
	double		max_time_s;	/* ... or when this much time passed */
	uint64_t	min_ios;	/* and not before this many I/Os */
	int		fixed_time;	/* run exactly max_time_s */
	double		interval_s;	/* > 0: fill a timeline at this step */
};

/* Progress hook, called about ten times a second with the partial point. */
typedef void (*sampler_progress_cb)(const struct point *, double, void *);

/*
 * Measure spec on an open engine (whose iodepth is at least spec's) into pt
 * (pt->hist allocated here; free with point_free).  tl may be NULL.
 * Stops early, with what it has, when an interrupt is requested.
 * Returns 0, 1 if interrupted, or -errno on an I/O error.
 */
int	sampler_measure(struct engine *, struct rng *,
	    const struct sample_spec *, struct point *, struct timeline *,
	    sampler_progress_cb, void *);

/* Fill pt->lat_us from pt->hist. */
void	point_summarise(struct point *);
void	point_free(struct point *);
void	timeline_add(struct timeline *, const struct timeline_sample *);
void	timeline_free(struct timeline *);

#endif

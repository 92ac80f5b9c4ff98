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

struct engine;
struct point;
struct rng;
struct timeline;

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

/* CPU time of this process so far, user and system, in seconds. */
double	sampler_cpu_s(void);
/*
 * Time the calling thread has waited for a CPU while runnable, in seconds
 * (the kernel's schedstat run delay), or NAN where it is not kept.
 */
double	sampler_cpu_wait_s(void);

#endif

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
struct engine_io;
struct point;
struct rng;
struct timeline;

/*
 * Where a slot's next I/O goes, for other patterns than uniform random
 * reads or writes: fill io's write, sync, len, offset and file (its slot is
 * set), with arg from the spec.
 */
typedef void (*sampler_next_cb)(struct engine_io *, void *);

struct sample_spec {
	uint64_t	ws_bytes;	/* offsets in [0, ws_bytes) */
	uint64_t	warm_from;	/* sequential warm-up over [warm_from, ws) */
	int		warm_random;	/* random I/O until latency is steady */
	double		settle_s;	/* ... for at most this; 0: a quarter
					   of max_time_s */
	uint32_t	bs;
	unsigned	iodepth;
	int		write;		/* 1: writes; POINT_MIXED */
	double		precision;	/* stop when ci95_rel <= this ... */
	double		min_time_s;	/* ... but not before this */
	double		max_time_s;	/* ... or when this much time passed */
	double		total_time_s;	/* > 0: the whole point, its warm-ups
					   included, ends within this */
	double		lat_hint_s;	/* an I/O's latency until one is
					   measured (a top-up); 0: none */
	uint64_t	min_ios;	/* and not before this many I/Os */
	int		fixed_time;	/* run exactly max_time_s */
	double		pace_iops;	/* > 0: measure one I/O at a time,
					   started at most this many a
					   second (the engine spins between) */
	int		pace_sleep;	/* ... or sleeps, leaving the CPU to
					   the kernel threads a flush needs */
	double		interval_s;	/* > 0: fill a timeline at this step */
	int		tl_whole;	/* the timeline also covers the random
					   warm-up and ends with the last,
					   partial interval ... */
	uint64_t	tl_origin_ns;	/* ... its t_s from this engine time
					   (otherwise from the measuring's
					   start) */
	int		tl_phase;	/* timeline_sample.phase */
	/*
	 * NULL, or called each time an interval of the timeline closes
	 * while measuring: nonzero ends the point before max_time_s.
	 */
	int		(*tl_enough)(const struct timeline *, void *);
	void		*tl_arg;
	sampler_next_cb	next;		/* NULL: uniform random over ws */
	void		*next_arg;
	void		(*on_measure)(void *); /* NULL, or called once as
					   the measuring begins, after the
					   warm-ups */
	void		*on_measure_arg;
};

/*
 * Progress hook, called about every 100 ms of device time with the partial
 * point (ios, seconds, iops and lat_us.p50 filled) and its device time.
 */
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
 * Time this process's live threads (io_uring's workers too) have waited
 * for a CPU while runnable, in seconds (the kernel's schedstat run delay),
 * or NAN where it is not kept.
 */
double	sampler_cpu_wait_s(void);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * The write path, analysed (pure: arrays in, results out): the fastest
 * way to commit, what the cost of a flush says about a write cache, and
 * write-back buffers in a sustained write run.
 */
#ifndef WRITEPATH_H
#define WRITEPATH_H

#include <stddef.h>
#include <stdint.h>

#include "point.h"

struct timeline_sample;

/* One measured commit point: method, size and writers. */
struct commit_point {
	int		method;		/* index into the runner's methods */
	uint32_t	bs;		/* bytes per commit */
	unsigned	writers;	/* each with one commit in flight */
	int		shared;		/* all writers append to one file */
	struct point	pt;		/* iops: commits/s; lat_us: a commit */
};

#define WRITEPATH_PACE		0.25	/* paced writes: this much of the rate
					   of writes back to back */
#define WRITEPATH_QUEUED	1.2	/* back to back, a write this many
					   times a paced one waited for a
					   rate cap */
#define WRITEPATH_DROP		0.75	/* measured again, under this much of
					   its first rate: the state changed */
#define WRITEPATH_FLOOR		0.15	/* above the rate again by more (and
					   its CI): before the change */

/* What the timing of flushes says; figures are medians in us, or NAN. */
struct writepath_flush {
	double	write_us;		/* a plain O_DIRECT write */
	double	dsync_write_us;		/* an O_DIRECT|O_DSYNC write */
	double	fdatasync_us;		/* a write then fdatasync */
	double	empty_fdatasync_us;	/* fdatasync with nothing written */
	double	paced_write_us;		/* a plain write, one at a time at
					   WRITEPATH_PACE of its rate back
					   to back; NAN if not measured */
	double	paced_dsync_write_us;	/* an O_DSYNC write so */
	int	queued;			/* 1: writes back to back waited for
					   a rate cap, so the flush is the
					   paced pair's; 0: they did not;
					   -1: no paced pair */
	double	flush_us;		/* dsync - plain, of the pair that
					   did not wait */
	int	suspect;		/* 1: a volatile cache, said so, whose
					   flush costs too little to persist
					   anything; 0: flushes cost time;
					   -1: cannot tell */
};

/* A write-back buffer: a fast rate that drops once some bytes went in. */
struct wbuffer {
	int	detected;
	double	fast_bytes_per_s;	/* before the drop; NAN */
	int	fast_at_least;		/* the drop came within the first
					   interval: a lower bound */
	double	slow_bytes_per_s;	/* after it (the run's mean if none) */
	double	bytes;			/* taken at the fast rate above the
					   slow one: the buffer; NAN */
	double	low_bytes;		/* 95% interval of bytes */
	double	high_bytes;
	double	fill_s;			/* when the buffer was full (at most,
					   with fast_at_least) */
	double	idle_s;			/* pause before the second run */
	double	refilled_bytes;		/* buffer found again after it */
	double	drain_bytes_per_s;	/* refilled_bytes / idle_s; NAN */
	double	drain_s;		/* bytes / drain rate: a full buffer
					   emptied; NAN */
	int	drain_at_most;		/* drain_s is an upper bound: the
					   buffer was whole again */
};

/*
 * The point of rows[n] with most commits per second among those of one
 * writer at size bs; -1 when none has one.
 */
long	writepath_best(const struct commit_point *, size_t, uint32_t);

/*
 * Where the commits' state changed (a burst bucket ran dry), from a point
 * of one writer measured again after rows[n] (in the order they ran):
 * under WRITEPATH_DROP of its first rate, clear of
 * both CIs, the rows from the first after which none ran faster than the
 * rate again (WRITEPATH_FLOOR) are of the state again was.  Returns that
 * row k: rows before it ran before the change, row k may have held it,
 * rows after it ran after; n when only again did; -1 when none showed.
 */
long	writepath_drop(const struct commit_point *, size_t,
	    const struct commit_point *);

/*
 * Whether a point's commits/s cannot be told from another's: their 95%
 * intervals (ci95_rel of the mean commit time) overlap.
 */
int	writepath_tied(const struct commit_point *,
	    const struct commit_point *);

/* Flush evidence with nothing measured: every figure NAN, suspect -1. */
void	writepath_flush_init(struct writepath_flush *);
/*
 * Judge the flush evidence from its medians (those not measured NAN) and
 * what the device says of its cache (sysfs queue/write_cache: "write
 * back", "write through" or "" unknown): fills queued, flush_us and
 * suspect.
 */
void	writepath_flush(struct writepath_flush *, const char *);
/*
 * Whether the paced pair is wanted: both writes were measured back to back
 * on a device that may get flushes (it does not say "write through").
 */
int	writepath_flush_pace(const struct writepath_flush *, const char *);
/* The plain write the flush is set against: the paced one if queued. */
double	writepath_flush_write_us(const struct writepath_flush *);

/*
 * A write-back buffer in a sustained run's timeline of n intervals (bytes
 * per second in each), from an empty buffer.  Returns 0, or -1 when the
 * run is too short to tell (out says "not detected").
 */
int	writepath_buffer(const struct timeline_sample *, size_t,
	    struct wbuffer *);

/*
 * How fast the buffer of b drains: the second run of n intervals came
 * after idle_s seconds of rest.
 */
void	writepath_drain(struct wbuffer *, const struct timeline_sample *,
	    size_t, double);

#endif

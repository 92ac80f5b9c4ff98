/* SPDX-License-Identifier: ISC */
/*
 * Ceilings and burst buckets from measured points: pure analysis (arrays in,
 * results out), no I/O.  limits.c measures, this file decides.
 */
#ifndef CEILINGS_H
#define CEILINGS_H

#include <stddef.h>
#include <stdint.h>

struct point;
struct timeline_sample;

/* What stopped IOPS from rising with the queue depth. */
enum ceilings_iops_limit {
	CEILINGS_IOPS_UNKNOWN,		/* too few points to tell */
	CEILINGS_IOPS_CAP,		/* a rate cap: past the knee latency
					   grows in proportion to depth */
	CEILINGS_IOPS_UNSATURATED,	/* still rising at the largest depth */
	CEILINGS_IOPS_CPU,		/* tierprobe's CPU (>= 90% of a core) */
	CEILINGS_IOPS_QUEUE,		/* the engine kept fewer I/Os in flight
					   than asked (Little's law) */
};

/* What stopped bandwidth from rising with the block size. */
enum ceilings_bw_limit {
	CEILINGS_BW_UNKNOWN,		/* too few points */
	CEILINGS_BW_CAP,		/* a bandwidth cap (or the device's) */
	CEILINGS_BW_ACCOUNTING,		/* the IOPS cap counted in units of
					   io_accounting bytes */
	CEILINGS_BW_UNSATURATED,	/* still rising at the largest size */
	CEILINGS_BW_UNIT_OR_CAP,	/* the IOPS cap counted in units of
					   acct_candidate bytes, or a
					   bandwidth cap: the same rates */
};

/* Why a block-size sweep gives no accounting size. */
enum ceilings_acct_why {
	CEILINGS_ACCT_FOUND,		/* accounting_bytes is it */
	CEILINGS_ACCT_HIDDEN,		/* no unit shows at the sizes
					   measured: bandwidth (a cap, or the
					   device's) holds large I/O first */
	CEILINGS_ACCT_UNIT_OR_CAP,	/* IOPS counted in units of
					   acct_candidate bytes and a bandwidth
					   cap of the IOPS ceiling times that
					   give the same rates at every size
					   measured */
};

/* The iodepth sweep, analysed. */
struct ceilings_iops {
	enum ceilings_iops_limit limit;
	double		ceiling;	/* IOPS: the cap; when at_least, the
					   most seen; NAN without points */
	double		ceiling_low;	/* 95% interval; high is NAN when */
	double		ceiling_high;	/* at_least */
	int		at_least;	/* no cap found (not limit CAP): the
					   ceiling is a lower bound */
	unsigned	knee_iodepth;	/* smallest swept depth reaching 90%
					   of the ceiling; 0 without one */
	double		knee_fit;	/* fitted knee depth (where d / lat0
					   meets the ceiling); NAN when the
					   fit failed or the knee is below
					   the smallest depth */
	double		lat0_us;	/* mean latency at the smallest depth,
					   below the knee; NAN when a cap
					   binds there already */
	double		max_seen;	/* highest IOPS measured */
	unsigned	max_seen_iodepth;
	double		cpu_util;	/* median over the plateau (the last
					   point when rising); NAN unknown */
	double		little_ratio;	/* IOPS x mean latency / depth, same:
					   1 when the queue was kept full */
	int		fit_converged;
	unsigned	fell_iodepth;	/* IOPS fell below 0.8 x a shallower
					   depth's here: the points from it
					   on are left out; 0 if not */
};

/* The block-size sweep, analysed. */
struct ceilings_bw {
	enum ceilings_bw_limit limit;
	double		ceiling;	/* bytes/s, as ceilings_iops */
	double		ceiling_low;
	double		ceiling_high;
	int		at_least;	/* still rising at the largest size */
	double		max_seen;	/* highest bytes/s measured */
	uint32_t	max_seen_bs;
	uint64_t	accounting_bytes; /* 0: not observable */
	enum ceilings_acct_why acct_why; /* why accounting_bytes is 0 */
	uint64_t	acct_candidate;	/* the unit IOPS may be counted in,
					   flat up to it and halving after:
					   0 if none */
	double		iops_small;	/* IOPS at the smallest size */
	double		optimal_io_bytes; /* ceiling / iops_small: the size
					   where both ceilings meet; NAN */
	int		asymptote;	/* no sharp cap: the ceiling is the
					   fitted limit of a smooth curve,
					   above what 1 MiB I/Os reached */
};

/* Intervals of a sustained run below which no burst can be told. */
#define CEILINGS_BURST_MIN_INTERVALS	6

/*
 * Burst bucket from a sustained run.  Rates are I/Os per second; the
 * bucket size counts the I/O spent above baseline before the drop (sweeps,
 * a scan), so it is the size of a full bucket, or of what was left in it
 * when the run began if something had drained it before.
 */
struct burst {
	int	detected;		/* a lasting drop: a bucket ran dry */
	double	burst_iops;		/* rate before the drop; NAN if none */
	int	burst_at_least;		/* burst_iops is a lower bound (and
					   duration_s an upper one): no depth
					   reached a ceiling before the drop
					   (set by limits.c) */
	double	baseline_iops;		/* rate after it (the whole run's mean
					   when there is no drop) */
	double	duration_s;		/* how long a full bucket lasts at
					   burst_iops: credits / (burst -
					   baseline); NAN if unknown */
	double	credits_ios;		/* bucket size; NAN if unknown */
	double	observed_s;		/* burst seen in the sustained run */
	double	drop_t_s;		/* time of the drop in the run */
	double	prior_credits_ios;	/* spent above baseline before it */
	int	exhausted;		/* empty before the sustained run: the
					   drop came in the work before it
					   (prior_drop), or, with no sweeps
					   to search, the run went well below
					   the sweeps' rate (size unknown) */
	size_t	prior_drop;		/* the prior entries before the drop;
					   0: it was not in them */
	double	drop_sweep_t_s;		/* when, on the sweeps' clock (set by
					   limits.c); NAN */
	int	variable;		/* level changes that recovered:
					   variability, not a bucket */
	size_t	nchanges;		/* level changes kept after merging */
	double	held_iops;		/* no drop: the rate the run held */
	double	held_s;			/* no drop: how long a drop would
					   still have shown (the run less its
					   last CEILINGS_MIN_SEG intervals) */
	double	ruled_out_below_ios;	/* no drop: the I/O drawn in that
					   time and before; a bucket that
					   cannot supply as much (credits
					   and refill) would have shown */
};

/* Why the two first-touch passes compare states, not reads. */
enum ceilings_ft_changed {
	CEILINGS_FT_SAME,		/* one state: first against second */
	CEILINGS_FT_BUCKET,		/* a bucket ran dry between them */
	CEILINGS_FT_SLOWER,		/* second reads markedly slower, which
					   no first-read cost makes */
};

/* First reads of blocks against second reads of the same blocks. */
struct first_touch {
	int		measured;
	int		detected;	/* first reads markedly slower (never
					   when changed) */
	enum ceilings_ft_changed changed; /* the passes ran in two states */
	uint64_t	blocks;
	double		first_p50_us;
	double		first_mean_us;
	double		second_p50_us;
	double		second_mean_us;
	double		ratio;		/* first_mean / second_mean */
	double		slower_fraction; /* blocks whose first read was slower */
	int		state;		/* enum bucket_state of the passes
					   (set by the report) */
};

/* Work done on the volume before the sustained run, in time order. */
struct ceilings_prior {
	double		ios;		/* accounted I/Os (0: idle time) */
	double		seconds;	/* device time they took */
	unsigned	load;		/* 0: not comparable with the run
					   (other offsets: a scan, first
					   reads); else shared by the
					   intervals of one sweep point over
					   the run's working set */
	int		demanding;	/* comparable, and asks at least
					   what the run does (its I/O size,
					   a queue as deep or deeper) */
};

/*
 * Analyse an iodepth sweep of n points (any order).  Returns 0, or -1 when
 * there are fewer than two points (out->limit is UNKNOWN).
 */
int	ceilings_iops(const struct point *, size_t, struct ceilings_iops *);
/*
 * Whether an iodepth sweep of n points that reached its planned depth
 * should go deeper: IOPS still rising over its last doubling (the limit
 * ceilings_iops finds is UNSATURATED).  Returns 1 or 0.
 */
int	ceilings_iops_rising(const struct point *, size_t);

/*
 * The store's IOPS ceiling when caches served a share h (fitted, 0..1) of
 * the sweep's reads.  If the hits stayed fast at the deepest of the n
 * points (at least h / 2 of its reads at or below lat_us, the slowest
 * cache's p99), they did not wait for the limit, which then bounds the
 * misses alone: c's ceiling and interval are scaled by 1 - h, and 1 is
 * returned.  Otherwise (hits queue like misses: the limit binds them
 * all; h below 2%, negligible; no histogram) c is left and 0 returned.
 */
int	ceilings_cache_correct(const struct point *, size_t, double, double,
	    struct ceilings_iops *);

/*
 * Analyse a block-size sweep of n points (any order, one depth) and the
 * probe that tells accounting from a bandwidth cap (NULL, or ios 0: none;
 * see ceilings_acct_probe_bs).  Returns 0, or -1 when there are fewer than
 * two points.
 */
int	ceilings_bandwidth(const struct point *, size_t, const struct point *,
	    struct ceilings_bw *);
/*
 * The size of I/O to probe when b cannot tell its candidate unit from a
 * bandwidth cap: 1.5 units (a volume that counts whole units charges it
 * two, a bandwidth cap 1.5); 0 when there is nothing to tell.
 */
uint32_t ceilings_acct_probe_bs(const struct ceilings_bw *);

/*
 * Find a burst bucket in a sustained run's timeline of n intervals (at one
 * load, rates in accounted I/Os).  prior lists the work done before it
 * (nprior may be 0); when the run holds one level, the comparable entries
 * (per-interval, load != 0) are searched for a drop before it.  Without
 * such entries ref_iops, the rate the sweeps measured at the run's depth
 * (NAN if unknown), tells a bucket that was empty before the run began.
 * A pure function of the timeline and the priors.  Returns 0, or -1 if
 * the run is too short to tell (out says "not detected").
 */
int	ceilings_burst(const struct timeline_sample *, size_t,
	    const struct ceilings_prior *, size_t, double, struct burst *);

/*
 * Whether the rate of a sustained run of n intervals held: one level, and
 * a drop of a fifth or more from its first third to its last ruled out at
 * 95% confidence.  0 when it did not, or n is too short to tell.
 */
int	ceilings_held(const struct timeline_sample *, size_t);

/*
 * Compare n paired latencies (us) of first and second reads of the same
 * blocks (second reads markedly slower: changed, CEILINGS_FT_SLOWER).
 * Fills out; never fails.
 */
void	ceilings_first_touch(const double *, const double *, size_t,
	    struct first_touch *);

/* Names for reports: "cap", "unsaturated", "cpu", ... */
const char *ceilings_iops_limit_name(enum ceilings_iops_limit);
const char *ceilings_bw_limit_name(enum ceilings_bw_limit);

#endif

/* SPDX-License-Identifier: ISC */
/* Ceilings and burst buckets: iodepth, block-size and sustained sweeps. */
#ifndef LIMITS_H
#define LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "ceilings.h"
#include "point.h"
#include "timeline.h"

struct rng;
struct target;

#define LIMITS_SUSTAIN_S	120.0	/* default sustained run */
#define LIMITS_SUSTAIN_QUICK_S	8.0	/* a quick run's, at least */
#define LIMITS_SWEEP_INTERVAL_S	0.25	/* the sweeps' timeline */
#define LIMITS_MAX_BS		(1024 * 1024)	/* block-size sweep's top */
#define LIMITS_EXT_BS		(4 * 1024 * 1024) /* ... while still rising */
#define LIMITS_FT_SPAN		(256ULL << 20)	/* first-touch region */

/* What a sample of the sweeps' timeline measured (timeline_sample.phase). */
enum limits_phase {
	LIMITS_PHASE_NONE,
	LIMITS_PHASE_IODEPTH,		/* the iodepth sweep */
	LIMITS_PHASE_BS,		/* the block-size sweep */
	LIMITS_PHASE_FIRST_TOUCH,	/* a first-touch pass (one sample) */
	LIMITS_PHASE_FLUSH,		/* emptying the caches (one sample) */
	LIMITS_PHASE_ACCOUNTING,	/* the probe of 1.5 accounting units */
};
#define LIMITS_NPHASES	(LIMITS_PHASE_ACCOUNTING + 1)

/* Why a sweep stopped where it did. */
enum limits_stop {
	LIMITS_STOP_NONE,		/* not run */
	LIMITS_STOP_FLAT,		/* the rate stopped rising */
	LIMITS_STOP_EDGE,		/* the deepest queue or largest size
					   allowed (bandwidth: still rising) */
	LIMITS_STOP_ENGINE,		/* the engine holds fewer I/Os than
					   --max-iodepth */
	LIMITS_STOP_TARGET,		/* larger I/Os do not fit the working
					   set */
	LIMITS_STOP_INTERRUPTED,
	LIMITS_STOP_ERROR,		/* an I/O error */
};

struct limits_spec {
	uint64_t	ws_bytes;	/* beyond the caches; 0: whole target */
	uint32_t	bs;		/* for the iodepth sweep, 4 KiB */
	unsigned	max_iodepth;
	unsigned	deep_iodepth;	/* > max_iodepth: while IOPS still rise
					   there, deeper steps up to this */
	double		sustain_s;	/* 0: LIMITS_SUSTAIN_S */
	double		sustain_min_s;	/* > 0: end the sustained run after
					   this once its rate held
					   (ceilings_held) */
	int		no_sustain;	/* no sustained run (the quick
					   preset's write sweeps) */
	unsigned	depth_step;	/* factor between the sweeps' depths,
					   0: 2 */
	unsigned	size_step;	/* and between their sizes, 0: 2 */
	int		no_acct_probe;	/* no probe of 1.5 accounting units
					   (the quick preset) */
	double		settle_s;	/* a point's random warm-up, at most;
					   0: a quarter of its time */
	int		write;
	double		precision;	/* 0: 2% */
	double		max_time_s;	/* per point; 0: 10 s */
	const char	*engine;	/* engine name (plan.c chooses it); one
					   is opened per sweep */
	int		first_touch;	/* compare first and second reads */
	uint64_t	first_touch_from; /* bytes below were read already this
					   run (the scan's max ws), or 0 */
	uint64_t	cache_bytes;	/* largest cache tier found by a scan;
					   0: unknown (ws is taken as the
					   bound), for the first-touch flush */
	double		cache_share;	/* of reads over ws the caches serve,
					   as the scan fitted it; 0: none */
	double		cache_lat_us;	/* reads this fast came from a cache
					   (the slowest tier's p99); NAN */
	const struct ceilings_prior *prior; /* I/O done on the volume before
					   (a scan), oldest first, for the
					   burst credits; may be NULL */
	size_t		nprior;
	/*
	 * NULL, or called as each phase begins ("sweeps", "sustained",
	 * "after-drop"; seconds NAN) and as the sweeps and the sustained
	 * run end (name NULL, seconds their length on the sweeps' clock):
	 * EBS's counters are read there.
	 */
	void		(*on_phase)(void *, const char *, double);
	void		*on_phase_arg;
};

struct limits_result {
	uint64_t	 ws_bytes;	/* offsets of every sweep: [0, ws) */
	int		 write;

	/* The iodepth sweep (4 KiB random). */
	double		 iops_ceiling;		/* NAN: none measured */
	double		 iops_ceiling_low;	/* 95% interval; high NAN */
	double		 iops_ceiling_high;	/* when at_least */
	int		 iops_ceiling_at_least;	/* no cap within the sweep:
						   the most seen, a lower
						   bound */
	enum limits_stop qd_stop;
	unsigned	 iops_knee_iodepth;	/* 0: none */
	double		 iops_max_seen;
	unsigned	 iops_max_seen_iodepth;
	enum ceilings_iops_limit iops_limit;	/* which limit was hit */
	int		 cpu_bound;		/* our CPU was the bottleneck:
						   no ceiling is reported */
	double		 cpu_util;		/* ours, on the plateau (cores) */
	double		 little_ratio;		/* IOPS x latency / depth */
	double		 lat0_us;		/* at depth 1, below the knee;
						   NAN: the cap binds there */
	double		 iops_knee_fit;		/* fitted knee depth; NAN */
	double		 cache_share;		/* spec's; NAN: no caches
						   known */
	int		 iops_ceiling_corrected; /* the store's: the hits of
						   cache_share did not count
						   against the limit */

	/*
	 * The block-size sweep (4 KiB .. 1 MiB, then up to 4 MiB while
	 * still rising, as deep as 64 MiB of buffers allow) at bs_iodepth.
	 */
	unsigned	 bs_iodepth;
	double		 bandwidth_ceiling_bytes_per_s;	/* as iops_ceiling */
	double		 bandwidth_ceiling_low;
	double		 bandwidth_ceiling_high;
	int		 bandwidth_ceiling_at_least;
	enum limits_stop bs_stop;
	double		 bandwidth_max_seen;		/* bytes/s */
	enum ceilings_bw_limit bandwidth_limit;		/* cap, accounting,
							   unsaturated */
	uint64_t	 io_accounting_bytes;	/* 0: not observable */
	enum ceilings_acct_why io_accounting_why; /* why it is 0 (FOUND:
						   known, or no sizes) */
	uint64_t	 io_accounting_candidate; /* UNIT_OR_CAP: the unit,
						   or bandwidth cap's size */
	struct point	 acct_probe;		/* at 1.5 candidate units,
						   after the sweep (ios == 0:
						   not run) */
	double		 optimal_io_bytes;	/* bandwidth / IOPS ceiling */

	/* The sustained run at sustain_iodepth, 1 s intervals. */
	unsigned	 sustain_iodepth;
	double		 sustain_s;		/* as run (may be cut short) */
	int		 sustain_early;		/* ended once the rate held */
	double		 sustain_start_s;	/* on the sweeps' clock */
	struct burst	 burst;
	double		 long_run_iops;		/* the baseline a bucket fell
						   to; NAN: not known */
	double		 baseline_bandwidth;	/* bytes/s after the bucket
						   ran dry; NAN */

	struct first_touch first_touch;		/* measured == 0: not run */
	uint64_t	 first_touch_flush_bytes; /* read between the passes
						   to empty the caches */

	struct point	*qd_points;
	size_t		 nqd;
	struct point	*bs_points;
	size_t		 nbs;
	struct point	 sustain;		/* the sustained run as a whole
						   (ios == 0: not run) */
	struct timeline	 timeline;		/* per interval, not cumulative */
	struct timeline	 sweep_timeline;	/* the work before the
						   sustained run, per interval,
						   on one clock ... */
	uint64_t	 clock0_ns;		/* ... from this engine time
						   (limits.c's) */
	int		 clock_set;
	int		 iops_state;		/* enum bucket_state of the
						   points the IOPS ceiling, */
	int		 bandwidth_state;	/* the bandwidth ceiling, */
	int		 sustain_state;		/* the sustained run and */
	int		 long_run_state;	/* the long-run figures came
						   from (report_state_apply) */
	int		 interrupted;
	char		 note[256];		/* what was skipped and why; "" */
};

/* When a fixed-time run may end early: past min_s, once its rate held. */
struct limits_early {
	double	min_s;
	int	ended;			/* set when it said so */
};

/* Initialise a result with every figure unknown. */
void	limits_result_init(struct limits_result *);
/*
 * Run the sweeps on target, opening an engine for each (their buffers
 * differ).  Writes only if spec->write, and then only to a target opened
 * for writing.  Returns 0, 1 if interrupted, or -errno (partial result
 * kept and analysed).
 */
int	limits_run(struct target *, struct rng *, const struct limits_spec *,
	    struct limits_result *);
/* Release the points and timeline of a result; NULL is a no-op. */
void	limits_result_free(struct limits_result *);

/*
 * Work a point did on the volume, for limits_spec.prior: its I/Os (those of
 * its warm-up estimated at the measured rate) and device time.
 */
void	limits_prior_from_point(const struct point *, struct ceilings_prior *);
/* Name of a phase of the sweeps' timeline ("iodepth", ...); NULL past. */
const char *limits_phase_name(int);
/*
 * Device time the iodepth and block-size sweeps and the first-touch test
 * may take at most (not the sustained run), in seconds.
 */
double	limits_max_seconds(const struct limits_spec *);
/*
 * A sampler's tl_enough for a struct limits_early: whether the timeline,
 * past min_s, shows a rate that held (ceilings_held).
 */
int	limits_held_enough(const struct timeline *, void *);
/* Names for reports: "flat", "edge", ...; NULL past the last. */
const char *limits_stop_name(enum limits_stop);
/* Bytes of a file target the run touches (ws, plus the first-touch span). */
uint64_t limits_need_bytes(const struct limits_spec *);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * Several targets driven together: a queue each (one over the group in
 * virtual time), one clock, random I/O at the same size and depth on each,
 * figures per interval for each target and for their sum.
 */
#ifndef PARALLEL_H
#define PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#include "point.h"
#include "timeline.h"

struct ceilings_prior;
struct limits_result;
struct rng;
struct target;
struct together_result;

struct parallel_spec {
	uint32_t	 bs;
	unsigned	 iodepth;	/* per target */
	int		 write;
	double		 seconds;	/* the run lasts this long */
	double		 interval_s;	/* timeline step */
	const uint64_t	*ws_bytes;	/* per target: offsets in [0, ws) */
	const char	*engine;	/* engine name, opened on the group */
};

struct parallel_result {
	size_t		 ntargets;
	struct point	*point;		/* per target: the run as a whole */
	struct timeline	*timeline;	/* per target, per interval */
	struct point	 sum;		/* all targets: I/Os and bytes per
					   second summed, latencies pooled */
	struct timeline	 sum_timeline;
	double		 cpu_util;	/* our CPU time, plus the time our
					   threads waited for a CPU, / wall
					   time; NAN in virtual time */
	double		 cpu_cores;	/* the most cpu_util could be: our
					   threads (one a target), or the CPUs
					   we may run on if fewer */
	int		 interrupted;
};

/*
 * Drive the n targets of t together for spec->seconds into r (allocated
 * here; free with parallel_result_free).  Stops early, with what it has,
 * on an interrupt: every I/O in flight is drained first.  Returns 0, 1 if
 * interrupted, or -errno (the engine would not open, or an I/O failed).
 */
int	parallel_run(struct target **, size_t, struct rng *,
	    const struct parallel_spec *, struct parallel_result *);
/* Release what a result owns; NULL is a no-op. */
void	parallel_result_free(struct parallel_result *);

/* The together phase (plan_together sets it up). */
struct parallel_together {
	struct parallel_spec	 bandwidth;	/* large I/O, run first */
	struct parallel_spec	 iops;		/* small I/O, the long run */
	const struct ceilings_prior *prior;	/* work before the phase on
						   all targets, oldest first */
	size_t			 nprior;
};

/*
 * Drive each of the n targets of t alone at the bandwidth run's size and
 * depth, then all together, the bandwidth run then the IOPS run, and judge
 * them against alone[i], each target's limit sweeps (NULL: not
 * measured), into out (initialised here; free with
 * together_result_free).  Returns as parallel_run; the runs measured are
 * analysed either way.
 */
int	parallel_together(struct target **, size_t, struct rng *,
	    const struct parallel_together *,
	    const struct limits_result *const *, struct together_result *);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * Volume or instance?  Several targets measured alone and then driven
 * together: per resource (IOPS, bandwidth), whether the sum together is
 * what their own ceilings allow ("volumes") or a limit above them binds
 * ("shared"), with that limit's value; a bucket seen on the aggregate only.
 * Pure analysis: figures in, verdict out.
 */
#ifndef TOGETHER_H
#define TOGETHER_H

#include <stddef.h>
#include <stdint.h>

#include "ceilings.h"
#include "point.h"
#include "timeline.h"

#define TOGETHER_MAX		64	/* targets in one run */
#define TOGETHER_CPU_BOUND	0.9	/* of the cores our threads could
				   use: our CPU was the limit */

/* What bounds a resource when the targets run together. */
enum together_bound {
	TOGETHER_UNKNOWN,		/* the figures cannot tell (why says) */
	TOGETHER_VOLUMES,		/* each target's own ceiling */
	TOGETHER_SHARED,		/* a limit above them all */
};

/* One target measured alone, for one resource. */
struct together_alone {
	double	rate;			/* its ceiling, or the most it reached;
					   NAN: not measured */
	int	capped;			/* rate is a ceiling, not a bound */
	double	noise;			/* relative 95% half-width, or NAN */
};

/* One run of all targets together (parallel.h measures it). */
struct together_run {
	size_t			 ntargets;
	const struct timeline	*timeline;	/* per target */
	const struct timeline	*sum;		/* their sum per interval */
	double			 cpu_util;	/* cores; NAN: virtual time */
	double			 cpu_cores;	/* the most cpu_util could be
						   (our threads or CPUs) */
	int			 interrupted;
};

/* One target's figures together, and the run's per-interval figures. */
struct together_target {
	char		*path;
	double		 iops;			/* in the IOPS run */
	double		 bandwidth_bytes_per_s;	/* in the bandwidth run */
	double		 alone_iops;		/* for comparison */
	double		 alone_bandwidth_bytes_per_s;
	struct timeline	 timeline;		/* IOPS run */
	struct timeline	 bandwidth_timeline;
};

/* The verdict for one resource. */
struct together_verdict {
	double	ceiling;		/* the sum together; NAN unknown */
	double	sum_alone;		/* the sum of the ceilings alone */
	double	ratio;			/* ceiling / sum_alone */
	int	bound;			/* enum together_bound */
	double	shared;			/* the shared limit; NAN unless
					   bound is SHARED */
	double	shared_low;		/* its 95% interval */
	double	shared_high;
	char	why[192];		/* why bound is UNKNOWN; "" */
};

struct together_result {
	uint32_t		 bs;		/* the IOPS run */
	unsigned		 iodepth;	/* per target */
	double			 seconds;
	uint32_t		 bandwidth_bs;	/* the bandwidth run */
	unsigned		 bandwidth_iodepth;
	double			 bandwidth_seconds;
	struct together_verdict	 iops;
	struct together_verdict	 bandwidth;
	int			 cpu_bound;	/* our CPU held a sum down */
	double			 cpu_util;	/* cores, IOPS run; NAN */
	double			 bandwidth_cpu_util; /* bandwidth run */
	struct burst		 burst;		/* on the aggregate IOPS */
	int			 burst_shared;	/* the drop showed on the
						   aggregate only: -1 no drop */
	int			 state;		/* enum bucket_state of the
						   IOPS run's figures, */
	int			 bandwidth_state; /* the bandwidth run's (set
						   by the report) */
	int			 interrupted;
	struct together_target	*per_target;
	size_t			 ntargets;
	struct timeline		 timeline;	/* the sum, IOPS run */
	struct timeline		 bandwidth_timeline;
	char			 note[256];	/* what was skipped and why */
};

/*
 * Analyse the IOPS run iops and the bandwidth run bw (either NULL if not
 * run) of n targets against each measured alone (alone_iops[i],
 * alone_bw[i]; alone_burst[i] says a bucket showed alone).  prior is the
 * work done on the targets before the IOPS run, oldest first, for the
 * size of a shared bucket.  Fills the verdicts, the burst and the
 * per-target figures of out, whose per_target[] (n) the caller allocated;
 * copies no timeline.
 */
void	together_analyse(const struct together_alone *,
	    const struct together_alone *, const int *, size_t,
	    const struct together_run *, const struct together_run *,
	    const struct ceilings_prior *, size_t, struct together_result *);
/*
 * A target's figure alone (IOPS, or bytes/s when bytes): the mean of a
 * run of it alone, timeline tl (all intervals but the first), with its 95%
 * interval as the noise, when the run held one level (held); else
 * ceiling, or max_seen when there is none.  capped says ceiling is a cap.
 */
void	together_alone_rate(const struct timeline *, int, int, double, double,
	    struct together_alone *);
/* Initialise a result of n targets with every figure unknown. */
void	together_result_init(struct together_result *, size_t);
/* Release what a result owns; NULL is a no-op. */
void	together_result_free(struct together_result *);
/* "volumes", "shared", or NULL for TOGETHER_UNKNOWN. */
const char *together_bound_name(int);

#endif

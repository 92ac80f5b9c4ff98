/* SPDX-License-Identifier: ISC */
/* Ceilings and burst buckets: iodepth, block-size and sustained sweeps. */
#ifndef LIMITS_H
#define LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "sampler.h"

struct rng;
struct target;

struct burst {
	int	detected;
	double	burst_iops;		/* NAN when not detected */
	double	baseline_iops;
	double	duration_s;
	double	credits_ios;
};

struct limits_spec {
	uint64_t	ws_bytes;	/* beyond the caches */
	uint32_t	bs;		/* for the iodepth sweep, 4 KiB */
	unsigned	max_iodepth;
	double		sustain_s;
	int		write;
	double		precision;
	double		max_time_s;	/* per point */
	const char	*engine;	/* engine name; one is opened per sweep */
};

struct limits_result {
	uint64_t	 ws_bytes;
	double		 iops_ceiling;		/* NAN: none found */
	unsigned	 iops_knee_iodepth;	/* 0: none */
	double		 iops_max_seen;
	int		 cpu_bound;		/* our CPU was the bottleneck */
	double		 bandwidth_ceiling_bytes_per_s;	/* NAN: none */
	uint64_t	 io_accounting_bytes;	/* 0: not observable */
	struct burst	 burst;
	struct point	*qd_points;
	size_t		 nqd;
	struct point	*bs_points;
	size_t		 nbs;
	struct timeline	 timeline;
	int		 interrupted;
};

/* Initialise a result with every figure unknown. */
void	limits_result_init(struct limits_result *);
/*
 * Run the sweeps on target, opening an engine for each (their buffers
 * differ).  Returns 0, 1 if interrupted, or -errno (partial result kept).
 */
int	limits_run(struct target *, struct rng *, const struct limits_spec *,
	    struct limits_result *);
void	limits_result_free(struct limits_result *);

#endif

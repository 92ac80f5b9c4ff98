/* SPDX-License-Identifier: ISC */
/* The working-set scan: measure latency at growing working-set sizes. */
#ifndef SCAN_H
#define SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "point.h"
#include "tiers.h"

struct engine;
struct rng;

struct scan_spec {
	uint64_t	min_ws;
	uint64_t	max_ws;
	uint64_t	step;		/* > 0: linear grid of this step */
	unsigned	points;		/* otherwise: log grid of this many */
	uint32_t	bs;
	unsigned	iodepth;
	double		precision;	/* per point, relative CI half-width */
	double		max_time_s;	/* per point */
	double		budget_s;	/* device time for the scan, 0 = none */
	uint32_t	align;		/* grid sizes are multiples of this */
	/*
	 * NULL, or called as each working set's measuring begins (point
	 * NULL: after its warm-ups) and once it is measured (its point):
	 * EBS's counters are read there.
	 */
	void		(*on_point)(void *, uint64_t, const struct point *);
	void		*on_point_arg;
};

struct scan_result {
	struct point	*points;	/* sorted by ws_bytes */
	size_t		 npoints;
	double		 device_time_s;	/* I/O time spent, warm-up included */
	double		 after_ios;	/* the paced reads after the points,
					   warm-ups at their rate ... */
	double		 after_s;	/* ... and the time they took, the
					   rests before them included */
	int		 interrupted;
	struct tiers_result tiers;	/* of every point, as measured */
	unsigned	 analyses;	/* times the tiers were fitted */
	char		 caveat[256];	/* why how it read may misplace the
					   tiers (plan_scan_caveat); "" */
	int		 state;		/* enum bucket_state of its reads
					   (report_state_apply) */
};

/*
 * Run the scan on an open engine.  Returns 0, 1 if interrupted (partial
 * result kept), or -errno on an I/O error (partial result kept).
 */
int	scan_run(struct engine *, struct rng *, const struct scan_spec *,
	    struct scan_result *);
/* Release the points and tiers of a result; NULL is a no-op. */
void	scan_result_free(struct scan_result *);

#endif

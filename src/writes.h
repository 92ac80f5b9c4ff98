/* SPDX-License-Identifier: ISC */
/*
 * The write side of a volume: write ceilings, write-back buffers (a fast
 * rate that drops once some bytes went in) and how fast they drain, and a
 * database's mixed point of reads and writes.
 */
#ifndef WRITES_H
#define WRITES_H

#include <stddef.h>
#include <stdint.h>

#include "limits.h"
#include "point.h"
#include "timeline.h"
#include "writepath.h"

struct rng;
struct target;

#define WRITES_SEQ_BS		(1024 * 1024)	/* the sequential run */
#define WRITES_SEQ_IODEPTH	8
#define WRITES_READ_FRACTION	0.70		/* the mixed point */

struct writes_spec {
	struct limits_spec limits;	/* the write sweeps (write set) */
	uint64_t	 ws_bytes;	/* offsets of the runs; 0: the target */
	double		 sustain_s;	/* each sustained run */
	double		 sustain_min_s;	/* > 0: the sequential run ends after
					   this once its rate held */
	double		 seq_precision;	/* > 0: ... or once the 95% interval
					   of its mean rate is within this
					   (the quick preset) */
	unsigned	 sweep_step;	/* the write sweeps' limits_spec.step */
	int		 no_sustain;	/* and their no_sustain */
	int		 no_mixed;	/* no 70/30 point */
	int		 no_drain;	/* a buffer found is not written
					   again after a pause */
	unsigned	 mixed_iodepth;	/* 0: the write knee, else 1 */
	double		 precision;	/* the mixed point's */
	double		 max_time_s;
	const char	*engine;
};

struct writes_result {
	struct limits_result *limits;	/* the write sweeps; NULL: not run */
	uint32_t	 seq_bs;
	unsigned	 seq_iodepth;
	double		 interval_s;	/* of the timelines */
	struct timeline	 timeline;	/* sequential writes, per interval */
	struct timeline	 refill;	/* the same after an idle pause */
	struct wbuffer	 buffer;
	double		 seq_low_bytes_per_s;	/* 95% interval of the mean */
	double		 seq_high_bytes_per_s;	/* rate when no buffer showed */
	int		 seq_early;	/* ended before sustain_s: the rate
					   held or was known well enough */
	struct point	 mixed;		/* ios 0: not measured */
	double		 mixed_read_fraction;
	int		 state;		/* enum bucket_state of the sequential
					   runs (report_state_apply) */
	int		 interrupted;
	char		 note[256];	/* what was skipped and why; "" */
};

/*
 * Device time the write side of spec may take, every point and run at its
 * time limit (a buffer found is written again).
 */
double	writes_max_seconds(const struct writes_spec *);
/* Initialise a result with nothing measured. */
void	writes_result_init(struct writes_result *);
/*
 * Measure the write side of target t (opened for writing): sequential
 * 1 MiB writes for sustain_s with a timeline (a buffer, if the rate drops),
 * an idle pause and a second run (how much drained), the write sweeps, and
 * reads and writes mixed 70/30 at the knee.  Returns 0, 1 if interrupted,
 * or -errno (partial result kept).
 */
int	writes_run(struct target *, struct rng *, const struct writes_spec *,
	    struct writes_result *);
/* Release what a result owns; NULL is a no-op. */
void	writes_result_free(struct writes_result *);

#endif

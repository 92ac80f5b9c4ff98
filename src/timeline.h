/* SPDX-License-Identifier: ISC */
/* A timeline: figures per interval of a run, never cumulative. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stddef.h>
#include <stdint.h>

/* One interval of a timeline. */
struct timeline_sample {
	double		t_s;		/* interval end, from the start */
	double		dt_s;		/* its length; 0: unknown (the step
					   from the previous t_s) */
	double		iops;
	double		bytes_per_s;
	double		lat_us_mean;
	unsigned	iodepth;	/* the load: I/Os kept in flight */
	uint32_t	bs;		/* and their size; 0: unknown */
	int		phase;		/* the caller's tag for the work */
};

struct timeline {
	struct timeline_sample	*v;
	size_t			 n;
	size_t			 cap;
};

/* Append one interval (copied). */
void	timeline_add(struct timeline *, const struct timeline_sample *);
/* Free a timeline's samples and reset it to empty. */
void	timeline_free(struct timeline *);

#endif

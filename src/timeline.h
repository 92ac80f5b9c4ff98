/* SPDX-License-Identifier: ISC */
/* A timeline: figures per interval of a run, never cumulative. */
#ifndef TIMELINE_H
#define TIMELINE_H

#include <stddef.h>

/* One interval of a timeline. */
struct timeline_sample {
	double	t_s;			/* interval end, from the start */
	double	iops;
	double	bytes_per_s;
	double	lat_us_mean;
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

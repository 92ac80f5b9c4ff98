/* SPDX-License-Identifier: ISC */
/*
 * The figures of a report by name: one table maps each alias that
 * expectations and fleets use ("iops", "tier1.capacity") to the report
 * figure it stands for (JSON path, unit); report_figure reads its value.
 */
#ifndef FIGURES_H
#define FIGURES_H

#include <stddef.h>

#include "units.h"

#define FIGURES_PATHSZ	64

/* A figure's value in one report, with its interval. */
struct figures_value {
	char		path[FIGURES_PATHSZ];	/* N resolved */
	double		value;		/* NAN: unknown, see why */
	double		low;		/* 95% interval, or mean +- */
	double		high;		/* 2 sd of runs; NAN: none */
	int		at_least;	/* value is a lower bound */
	int		at_most;	/* value is an upper bound */
	int		drained;	/* a bucket ran dry in some phase
					   of the run */
	int		repeated;	/* value: mean over runs */
	int		state;		/* enum bucket_state it was measured
					   in; 0: none applies */
	char		why[128];
};

/* Where a figure's value comes from (report_figure reads it). */
enum figures_source {
	FIGURES_HEADLINE,	/* a figure of report_headlines */
	FIGURES_TIERS,		/* how many caches the scan found */
	FIGURES_CAPACITY,	/* a headline, with the tier's interval */
	FIGURES_BURST,		/* 1 when a burst bucket showed, else 0 */
	FIGURES_COMMIT,		/* of the fastest commit method */
	FIGURES_LONG_RUN,	/* a ceiling, or once a bucket ran dry in
				   any phase, the rate after it */
};

/*
 * A figure: alias "tierN.p50" (N from 1) stands for the JSON path
 * "scan.tiers[N].lat_us_p50" (N from 0).  better: +1 when higher is
 * better, -1 when lower is, 0 when neither; discrete: a whole count, which
 * == and != may compare; fleet: a figure of the fleet table.
 */
struct figures_def {
	const char	*alias;
	const char	*path;
	enum units_kind unit;
	const char	*label;		/* for people */
	const char	*section;	/* top-level key holding it */
	int		 better;
	int		 discrete;
	int		 fleet;
	enum figures_source source;
	const char	*axis;		/* a plot's axis; NULL: the unit's */
};

/* How many figures the table holds, and the i-th. */
size_t			 figures_count(void);
const struct figures_def *figures_at(size_t);

/*
 * The figure named name ("iops", "tier2.capacity"); for tierN names, the
 * N (1 and up) goes to *index, otherwise 0.  NULL if no figure is so named.
 */
const struct figures_def *figures_find(const char *, unsigned *);

/*
 * The figure an expectation on def asks for when it asks for a burst rate:
 * "burst_iops" for "iops", "burst_bandwidth" for "bandwidth", else def.
 */
const struct figures_def *figures_burst_of(const struct figures_def *);

/* Whether def is the burst figure of a long-run one ("burst_iops"). */
int			 figures_is_burst(const struct figures_def *);

/* The aliases, comma-separated, for messages ("tiers, tierN.capacity"). */
const char		*figures_names(void);

/* The JSON path of def for tier index (figures_find's), in buf. */
char			*figures_path(const struct figures_def *, unsigned,
			    char *, size_t);

/* The label of def for people, N replaced ("tier 2 capacity"), in buf. */
char			*figures_label(const struct figures_def *, unsigned,
			    char *, size_t);

#endif

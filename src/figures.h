/* SPDX-License-Identifier: ISC */
/*
 * The figures of a report by name: one table maps each alias that
 * expectations and fleets use ("iops", "tier1.capacity") to the report
 * figure it stands for (JSON path, unit), and reads its value.
 */
#ifndef FIGURES_H
#define FIGURES_H

#include <stddef.h>

#include "report.h"

#define FIGURES_PATHSZ	64

/* A figure's value in one report, with its interval. */
struct figures_value {
	char		path[FIGURES_PATHSZ];	/* scan.tiers[0].capacity_bytes */
	double		value;		/* NAN: unknown (why says why) */
	double		low;		/* 95% interval, or mean +- 2 sd over */
	double		high;		/* --repeat runs; NAN when unknown */
	int		at_least;	/* value is only a lower bound */
	int		repeated;	/* value is a mean over runs */
	char		why[128];
};

struct figures_def {
	const char	*alias;		/* "tierN.p50": N counts from 1 */
	const char	*path;		/* JSON path: [N] counts from 0 */
	enum report_unit unit;
	const char	*label;		/* for people */
	const char	*section;	/* top-level key that holds it */
	int		 better;	/* +1 higher is better, -1 lower, 0 n/a */
	int		 discrete;	/* a whole count: == and != apply */
	int		 fleet;		/* a figure of the fleet table */
	void		(*get)(const struct report *, const struct figures_def *,
			    unsigned, struct figures_value *);
};

/* How many figures the table holds, and the i-th. */
size_t			 figures_count(void);
const struct figures_def *figures_at(size_t);

/*
 * The figure named name ("iops", "tier2.capacity"); for tierN names, the
 * N (1 and up) goes to *index, otherwise 0.  NULL if no figure is so named.
 */
const struct figures_def *figures_find(const char *, unsigned *);

/* The aliases, comma-separated, for messages ("tiers, tierN.capacity"). */
const char		*figures_names(void);

/* The value of figure def (index as figures_find gave) in report r. */
void			 figures_get(const struct report *,
			    const struct figures_def *, unsigned,
			    struct figures_value *);

/* The label of def for people, N replaced ("tier 2 capacity"), in buf. */
char			*figures_label(const struct figures_def *, unsigned,
			    char *, size_t);

#endif

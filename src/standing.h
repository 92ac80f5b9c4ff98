/* SPDX-License-Identifier: ISC */
/*
 * A figure's standing, decided in one place: how far a run establishes it
 * (measured, bounded or unknown), whether a burst bucket may have lifted
 * it, and whether a drain seen in any phase of the run contradicts it;
 * and an expectation on it judged met, missed or open from that.
 * verdict, check, compare and fleet render these decisions.  Pure.
 */
#ifndef STANDING_H
#define STANDING_H

#include "check.h"

/* How far a run establishes a figure (verdict_standing's values). */
enum standing_kind {
	STANDING_UNKNOWN,		/* not at all */
	STANDING_MEASURED,		/* the figure itself */
	STANDING_BOUNDED,		/* the most, or the least, it can be */
};

/* Which side a bound is on (enum report_bound's values). */
enum standing_bound {
	STANDING_BOUND_NONE,		/* the figure itself */
	STANDING_BOUND_AT_MOST,		/* the most it can be */
	STANDING_BOUND_AT_LEAST,	/* the least it can be */
};

/* Why a figure stands as it does. */
enum standing_why {
	STANDING_WHY_NONE,		/* measured, no bucket in question */
	STANDING_WHY_NOT_ESTABLISHED,	/* no value */
	STANDING_WHY_AT_MOST,		/* a bound from above */
	STANDING_WHY_AT_LEAST,		/* a bound from below */
	STANDING_WHY_MAY_BE_FULL,	/* no drain seen: a bucket may have
					   lifted it */
	STANDING_WHY_CONTRADICTED,	/* a burst figure: a drain seen in
					   the run puts the long run below
					   it */
	STANDING_WHY_BURST,		/* asked as a burst figure */
	STANDING_WHY_LONG_RUN,		/* measured after a drain */
};

/* A figure as a run gave it. */
struct standing_figure {
	double	value;			/* NAN: unknown */
	double	low;			/* interval; NANs: none */
	double	high;
	int	bound;			/* enum standing_bound */
	int	state;			/* enum bucket_state it was measured
					   in */
	int	drained;		/* a bucket ran dry in some phase of
					   the run */
	int	of_burst;		/* asked as a burst figure: measured
					   while a bucket is full is what it
					   is */
};

/* The decision on a figure. */
struct standing {
	int	kind;			/* enum standing_kind */
	int	bound;			/* enum standing_bound */
	int	burst;			/* a bucket may have lifted it */
	int	contradicted;		/* and a drain says it did: in the
					   long run it is at most this */
	int	why;			/* enum standing_why */
};

/* An expectation on a figure, judged. */
struct standing_outcome {
	enum check_verdict verdict;
	int	borderline;		/* threshold inside the interval */
	int	lifted;			/* met only while a bucket may be
					   full, no drain against it: what
					   --accept-burst accepts */
	int	why;			/* enum standing_why of an open or
					   contradicted verdict */
};

/* Decide the standing of figure f into s. */
void	standing_decide(const struct standing_figure *, struct standing *);
/*
 * Judge "f op threshold" on f decided as s: a figure not established is
 * unknown; a bound (or a burst figure a drain contradicted, which is at
 * most its value in the long run) is met or missed only when every value
 * it allows agrees, else unknown; a figure a bucket may have lifted with
 * no drain seen is met "lifted".
 */
void	standing_judge(const struct standing_figure *,
	    const struct standing *, enum check_op, double,
	    struct standing_outcome *);
/* Whether an outcome passes: met, and not lifted unless accept_burst. */
int	standing_passes(const struct standing_outcome *, int);
/* Whether a OP b. */
int	standing_holds(enum check_op, double, double);
/* "measured", "bounded", "unknown"; NULL past the last. */
const char *standing_kind_name(int);

#endif

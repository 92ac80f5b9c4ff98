/* SPDX-License-Identifier: ISC */
/*
 * One module decides a figure's standing.  A value the run could not
 * establish is unknown; a value known only from one side is bounded; any
 * other is measured.  Orthogonal to that, the bucket state it was measured
 * in says whether a burst bucket may have lifted it (full, may be full,
 * draining), and a drain seen in any phase of the run (or the state full or
 * draining, which a drain implies) says it did: such a figure is a burst
 * figure, and the long run is at most it.  Expectations are judged on that
 * decision, so check, the verdict, compare and fleet never disagree.
 */
#include <math.h>
#include <stddef.h>

#include "bucket.h"
#include "standing.h"

/* Whether a OP b. */
int
standing_holds(enum check_op op, double a, double b)
{
	switch (op) {
	case CHECK_GE:
		return (a >= b);
	case CHECK_LE:
		return (a <= b);
	case CHECK_GT:
		return (a > b);
	case CHECK_LT:
		return (a < b);
	case CHECK_EQ:
		return (a == b);
	case CHECK_NE:
		return (a != b);
	}
	return (0);
}

/* "measured", "bounded", "unknown"; NULL past the last. */
const char *
standing_kind_name(int k)
{
	static const char *const names[] = {
		[STANDING_UNKNOWN] = "unknown",
		[STANDING_MEASURED] = "measured",
		[STANDING_BOUNDED] = "bounded",
	};

	if (k < 0 || k > STANDING_BOUNDED)
		return (NULL);
	return (names[k]);
}

/* Decide the standing of figure f. */
void
standing_decide(const struct standing_figure *f, struct standing *s)
{
	s->kind = STANDING_MEASURED;
	s->bound = STANDING_BOUND_NONE;
	s->burst = s->contradicted = 0;
	s->why = STANDING_WHY_NONE;
	if (!isfinite(f->value)) {
		s->kind = STANDING_UNKNOWN;
		s->why = STANDING_WHY_NOT_ESTABLISHED;
		return;
	}
	if (f->bound == STANDING_BOUND_AT_MOST ||
	    f->bound == STANDING_BOUND_AT_LEAST) {
		s->kind = STANDING_BOUNDED;
		s->bound = f->bound;
		s->why = f->bound == STANDING_BOUND_AT_MOST ?
		    STANDING_WHY_AT_MOST : STANDING_WHY_AT_LEAST;
	}
	if (f->of_burst) {
		if (s->why == STANDING_WHY_NONE)
			s->why = STANDING_WHY_BURST;
		return;
	}
	if (f->state == BUCKET_EMPTY && s->why == STANDING_WHY_NONE)
		s->why = STANDING_WHY_LONG_RUN;
	if (!bucket_state_lifted(f->state) || s->bound ==
	    STANDING_BOUND_AT_LEAST)
		return;
	s->burst = 1;
	s->contradicted = f->drained || f->state == BUCKET_FULL ||
	    f->state == BUCKET_DRAINING;
	s->why = s->contradicted ? STANDING_WHY_CONTRADICTED :
	    s->why == STANDING_WHY_NONE ? STANDING_WHY_MAY_BE_FULL : s->why;
}

/* Judge "f op threshold" on f decided as s. */
void
standing_judge(const struct standing_figure *f, const struct standing *s,
    enum check_op op, double threshold, struct standing_outcome *o)
{
	int	at_v, other;

	o->verdict = CHECK_UNKNOWN;
	o->borderline = o->lifted = 0;
	o->why = s->why;
	if (s->kind == STANDING_UNKNOWN)
		return;
	if (s->bound == STANDING_BOUND_AT_LEAST || s->bound ==
	    STANDING_BOUND_AT_MOST || s->contradicted) {
		/*
		 * The true value is anywhere from the bound on: up to
		 * infinity for a lower bound, down to 0 for an upper one
		 * and for a burst figure of a bucket that ran dry.
		 */
		at_v = standing_holds(op, f->value, threshold);
		other = standing_holds(op, s->bound == STANDING_BOUND_AT_LEAST ?
		    INFINITY : 0, threshold);
		o->verdict = at_v && other ? CHECK_MET : !at_v && !other ?
		    CHECK_MISSED : CHECK_UNKNOWN;
		return;
	}
	o->verdict = standing_holds(op, f->value, threshold) ? CHECK_MET :
	    CHECK_MISSED;
	if (isfinite(f->low) && isfinite(f->high) && threshold >= f->low &&
	    threshold <= f->high)
		o->borderline = 1;
	o->lifted = o->verdict == CHECK_MET && s->burst;
	if (o->verdict == CHECK_MET && !s->burst)
		o->why = STANDING_WHY_NONE;
}

/* Whether o passes: met, and not lifted unless accept_burst. */
int
standing_passes(const struct standing_outcome *o, int accept_burst)
{
	return (o->verdict == CHECK_MET && (!o->lifted || accept_burst));
}

/* SPDX-License-Identifier: ISC */
/*
 * The state a burst bucket may have been in when a figure was measured:
 * where in a run's phases a bucket ran dry (if it did), and from that the
 * state of each phase or point.  Pure: no I/O.
 */
#ifndef BUCKET_H
#define BUCKET_H

struct burst;

/* The state a figure was measured in. */
enum bucket_state {
	BUCKET_UNKNOWN,			/* not measured (null in JSON) */
	BUCKET_FULL,			/* before a drop the run saw: a burst
					   figure */
	BUCKET_MAY_BE_FULL,		/* the run saw no drop: a bucket may
					   still have been full */
	BUCKET_DRAINING,		/* a bucket ran dry while it was
					   measured: both rates mixed */
	BUCKET_EMPTY,			/* after a bucket ran dry: a baseline
					   figure */
	BUCKET_UNAFFECTED,		/* no bucket changes it (a size) */
};
#define BUCKET_NSTATES	(BUCKET_UNAFFECTED + 1)

/*
 * Where a run's first drop fell: in phase (the caller numbers its phases
 * in the order they ran), at t_s on that phase's clock (NAN: somewhere in
 * it).  phase < 0: the run saw none.
 */
struct bucket_drop {
	int	phase;
	double	t_s;
};

/* A drop that was not seen. */
void	bucket_drop_none(struct bucket_drop *);
/*
 * Where burst b (of a limits run: its sweeps are phase sweeps, its
 * sustained run phase run) says a bucket ran dry: in the sustained run at
 * its drop time, in the sweeps at the time on their clock, or somewhere in
 * the sweeps or after them when only the run's low rate told (no time).
 * Kept in *d only if earlier than the drop d holds already.
 */
void	bucket_drop_add(struct bucket_drop *, const struct burst *, int,
	    int);
/* Keep in *d the earlier of *d and (phase, t_s). */
void	bucket_drop_at(struct bucket_drop *, int, double);
/*
 * The state of a figure measured in phase over [t0, t1] of its clock
 * (NANs: the whole phase): may be full without a drop, full before it,
 * empty after it, draining across it.
 */
enum bucket_state bucket_state(const struct bucket_drop *, int, double,
	    double);
/*
 * The state of a figure drawn from figures measured in states a and b:
 * the same state, the other one where one is unknown or unaffected, may
 * be full where one may be, else draining (both sides of a drop).
 */
enum bucket_state bucket_state_merge(enum bucket_state, enum bucket_state);
/*
 * Whether a bucket may have lifted a figure of this state above the long
 * run's: full, may be full or draining.
 */
int	bucket_state_lifted(enum bucket_state);
/* The state's JSON word ("may_be_full"); NULL for unknown and past. */
const char *bucket_state_name(int);
/*
 * The state as a table cell's mark: "full", "full?", "draining", "empty";
 * "" where no bucket matters (unknown, unaffected).
 */
const char *bucket_state_mark(int);

#endif

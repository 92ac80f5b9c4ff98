/* SPDX-License-Identifier: ISC */
/*
 * The state a burst bucket may have been in when a figure was measured.
 * A run's phases follow one another (scan, sweeps, sustained run, writes,
 * commits); the first drop the run saw splits them: what ran before it
 * was measured with credits in the bucket (full), what ran after it at
 * the baseline (empty), the phase it fell in across both (draining).  A
 * run that saw no drop cannot say a bucket was not full throughout.
 */
#include <math.h>
#include <stddef.h>

#include "bucket.h"
#include "ceilings.h"

/* A drop that was not seen. */
void
bucket_drop_none(struct bucket_drop *d)
{
	d->phase = -1;
	d->t_s = NAN;
}

/* Keep in *d the earlier of *d and (phase, t_s); NAN is any time. */
void
bucket_drop_at(struct bucket_drop *d, int phase, double t_s)
{
	if (phase < 0)
		return;
	if (d->phase >= 0 && (d->phase < phase || (d->phase == phase &&
	    !(t_s < d->t_s))))
		return;
	d->phase = phase;
	d->t_s = t_s;
}

/* Where burst b says a bucket ran dry, if earlier than *d; see bucket.h. */
void
bucket_drop_add(struct bucket_drop *d, const struct burst *b, int sweeps,
    int run)
{
	if (!b->detected)
		return;
	if (!b->exhausted)
		bucket_drop_at(d, run, b->drop_t_s);
	else
		bucket_drop_at(d, sweeps, b->drop_sweep_t_s);
}

/* The state of a figure measured in phase over [t0, t1]; see bucket.h. */
enum bucket_state
bucket_state(const struct bucket_drop *d, int phase, double t0, double t1)
{
	if (d->phase < 0)
		return (BUCKET_MAY_BE_FULL);
	if (phase < d->phase)
		return (BUCKET_FULL);
	if (phase > d->phase)
		return (BUCKET_EMPTY);
	if (isnan(d->t_s) || isnan(t0) || isnan(t1))
		return (BUCKET_DRAINING);
	if (t1 <= d->t_s)
		return (BUCKET_FULL);
	if (t0 >= d->t_s)
		return (BUCKET_EMPTY);
	return (BUCKET_DRAINING);
}

/* The state of a figure drawn from figures of states a and b. */
enum bucket_state
bucket_state_merge(enum bucket_state a, enum bucket_state b)
{
	if (a == b || b == BUCKET_UNKNOWN || b == BUCKET_UNAFFECTED)
		return (a);
	if (a == BUCKET_UNKNOWN || a == BUCKET_UNAFFECTED)
		return (b);
	if (a == BUCKET_MAY_BE_FULL || b == BUCKET_MAY_BE_FULL)
		return (BUCKET_MAY_BE_FULL);
	return (BUCKET_DRAINING);
}

/* Whether a bucket may have lifted a figure of this state. */
int
bucket_state_lifted(enum bucket_state s)
{
	return (s == BUCKET_FULL || s == BUCKET_MAY_BE_FULL ||
	    s == BUCKET_DRAINING);
}

static const struct {
	const char	*name;
	const char	*mark;
} bucket_states[BUCKET_NSTATES] = {
	[BUCKET_UNKNOWN] = { NULL, "" },
	[BUCKET_FULL] = { "full", "full" },
	[BUCKET_MAY_BE_FULL] = { "may_be_full", "full?" },
	[BUCKET_DRAINING] = { "draining", "draining" },
	[BUCKET_EMPTY] = { "empty", "empty" },
	[BUCKET_UNAFFECTED] = { "unaffected", "" },
};

/* The state's JSON word; NULL for unknown and past the last. */
const char *
bucket_state_name(int s)
{
	if (s < 0 || s >= BUCKET_NSTATES)
		return (NULL);
	return (bucket_states[s].name);
}

/* The state as a table cell's mark; "" where no bucket matters. */
const char *
bucket_state_mark(int s)
{
	if (s < 0 || s >= BUCKET_NSTATES)
		return ("");
	return (bucket_states[s].mark);
}

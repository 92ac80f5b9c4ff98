/* SPDX-License-Identifier: ISC */
/*
 * The write side, measured.
 *
 * 1. Sequential 1 MiB writes at depth WRITES_SEQ_IODEPTH for sustain_s (or
 *    past sustain_min_s until the rate held, or was known to
 *    seq_precision: the quick preset), with a timeline of
 *    WRITES_INTERVAL_S intervals, wrapping over the working set: first,
 *    so that no other write filled a buffer before.
 *    A write-back buffer shows as a fast rate that falls to a slow one;
 *    writepath_buffer sizes it.
 * 2. If one showed (unless no_drain): rest for half the time the slow
 *    rate would take to empty it (between 1 s and sustain_s), so that it
 *    drains in part at the rate it drains, then write again for long
 *    enough to fill what drained (twice the first fill time, at least
 *    WRITES_REFILL_MIN_S): the buffer found again is what drained.
 * 3. The write sweeps (limits with --rw write): IOPS ceiling and knee,
 *    bandwidth ceiling, and (unless no_sustain) a sustained run of random
 *    4 KiB writes at twice the knee depth whose timeline shows a drop in
 *    IOPS.
 * 4. Unless no_mixed, random 4 KiB reads and writes, WRITES_READ_FRACTION
 *    reads, at the read knee depth (else the write knee), until the mean
 *    latency is known to the precision.
 *
 * Writes keep off the target's header block.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "interrupt.h"
#include "progress.h"
#include "rng.h"
#include "sampler.h"
#include "stats.h"
#include "target.h"
#include "writes.h"
#include "xmalloc.h"

#define WRITES_INTERVAL_S	1.0
#define WRITES_REFILL_MIN_S	8.0
#define WRITES_MIXED_BS		4096
#define WRITES_PRECISION	0.02
#define WRITES_MAX_TIME_S	10.0
#define WRITES_MIN_INTERVALS	4	/* for an interval of the mean rate */

/* Where the next sequential write goes: [lo, hi), wrapping. */
struct writes_seq {
	uint64_t	lo;
	uint64_t	hi;
	uint64_t	pos;
	uint32_t	bs;
};

/* Where the next mixed I/O goes: random, reads or writes. */
struct writes_mix {
	struct rng	*rng;
	uint64_t	 lo;
	uint64_t	 hi;
	double		 read_fraction;
};

static void
writes_next_seq(struct engine_io *io, void *arg)
{
	struct writes_seq	*s = arg;

	if (s->pos + s->bs > s->hi)
		s->pos = s->lo;
	io->write = 1;
	io->len = s->bs;
	io->offset = s->pos;
	s->pos += s->bs;
}

static void
writes_next_mixed(struct engine_io *io, void *arg)
{
	struct writes_mix	*m = arg;

	io->write = rng_uniform(m->rng) >= m->read_fraction;
	io->len = WRITES_MIXED_BS;
	io->offset = rng_offset(m->rng, m->lo, m->hi - m->lo, WRITES_MIXED_BS);
}

/* Device time the write side may take at most; see writes.h. */
double
writes_max_seconds(const struct writes_spec *spec)
{
	double	mixed, sustain, again;

	mixed = spec->no_mixed ? 0 : spec->max_time_s > 0 ? spec->max_time_s :
	    WRITES_MAX_TIME_S;
	sustain = spec->limits.no_sustain ? 0 : spec->limits.sustain_s > 0 ?
	    spec->limits.sustain_s : LIMITS_SUSTAIN_S;
	/* A buffer found is written again: twice its fill time, at most. */
	again = spec->no_drain ? 0 : fmax(2 * spec->sustain_s,
	    WRITES_REFILL_MIN_S);
	return (spec->sustain_s + again + limits_max_seconds(&spec->limits) +
	    sustain + mixed * 1.25);
}

/* Initialise a result with nothing measured. */
void
writes_result_init(struct writes_result *r)
{
	memset(r, 0, sizeof(*r));
	writepath_buffer(NULL, 0, &r->buffer);
	r->seq_low_bytes_per_s = r->seq_high_bytes_per_s = NAN;
	r->mixed.lat_us.mean = r->mixed.lat_us.p50 = NAN;
	r->mixed.lat_us.p90 = r->mixed.lat_us.p99 = NAN;
	r->mixed.lat_us.p999 = r->mixed.ci95_rel = NAN;
	r->mixed.cpu_util = NAN;
	r->mixed_read_fraction = NAN;
}

/* Release what a result owns. */
void
writes_result_free(struct writes_result *r)
{
	if (r == NULL)
		return;
	limits_result_free(r->limits);
	free(r->limits);
	r->limits = NULL;
	timeline_free(&r->timeline);
	timeline_free(&r->refill);
	point_free(&r->mixed);
}

/* Append a note, "; "-separated. */
static void
writes_note(struct writes_result *r, const char *msg)
{
	size_t	len = strlen(r->note);

	snprintf(r->note + len, sizeof(r->note) - len, "%s%s",
	    len != 0 ? "; " : "", msg);
}

/* When the sequential run may end: see writes_seq_enough. */
struct writes_enough {
	double	min_s;
	double	precision;		/* 0: only once the rate held */
	int	ended;
};

/*
 * The mean rate of a sequential run's intervals and the half-width of its
 * 95% interval (INFINITY with fewer than WRITES_MIN_INTERVALS).
 */
static double
writes_seq_rate(const struct timeline *tl, double *half)
{
	double	*x, mean, sd;
	size_t	 i;

	*half = INFINITY;
	if (tl->n == 0)
		return (NAN);
	x = xcalloc(tl->n, sizeof *x);
	for (i = 0; i < tl->n; i++)
		x[i] = tl->v[i].bytes_per_s;
	stats_mean_sd(x, tl->n, &mean, &sd);
	*half = tl->n >= WRITES_MIN_INTERVALS ? stats_series_ci95(x, tl->n) :
	    INFINITY;
	free(x);
	return (mean);
}

/*
 * A sampler's tl_enough for a struct writes_enough: past min_s, the rate
 * held (ceilings_held), or its mean is known to the precision.
 */
static int
writes_seq_enough(const struct timeline *tl, void *arg)
{
	struct writes_enough	*we = arg;
	struct limits_early	 le = { we->min_s, 0 };
	double			 mean, half;

	if (limits_held_enough(tl, &le))
		return (we->ended = 1);
	if (we->precision <= 0 || tl->n == 0 ||
	    tl->v[tl->n - 1].t_s < we->min_s)
		return (0);
	mean = writes_seq_rate(tl, &half);
	return (we->ended = half <= we->precision * mean);
}

/*
 * Sequential writes for seconds into tl, or past min_s (if > 0) until the
 * rate held or was known to precision (if > 0); *early says if it ended
 * so.  Returns as sampler_measure.
 */
static int
writes_sequential(struct engine *e, struct writes_seq *seq, double seconds,
    double min_s, double precision, const char *phase, struct timeline *tl,
    int *early)
{
	struct sample_spec	ss;
	struct writes_enough	we = { min_s, precision, 0 };
	struct point		pt;
	int			rc;

	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = ss.warm_from = seq->hi;
	ss.bs = seq->bs;
	ss.iodepth = e->iodepth;
	ss.write = 1;
	ss.fixed_time = 1;
	ss.max_time_s = ss.min_time_s = seconds;
	ss.interval_s = WRITES_INTERVAL_S;
	if (min_s > 0 && min_s < seconds) {
		ss.tl_enough = writes_seq_enough;
		ss.tl_arg = &we;
	}
	ss.next = writes_next_seq;
	ss.next_arg = seq;
	memset(&pt, 0, sizeof(pt));
	pt.ws_bytes = seq->hi;
	pt.bs = seq->bs;
	pt.iodepth = e->iodepth;
	pt.write = 1;
	progress_phase(phase, 1, PROGRESS_BS);
	progress_point_start(0, &pt);
	rc = sampler_measure(e, NULL, &ss, &pt, tl, progress_update, NULL);
	progress_point_done(&pt);
	progress_end();
	point_free(&pt);
	*early = we.ended;
	return (rc);
}

/* Steps 1 and 2: the buffer, and how fast it drains.  Returns 0, 1, -errno. */
static int
writes_buffer(struct target *t, const struct writes_spec *spec,
    uint64_t ws, struct writes_result *r)
{
	struct writes_seq	seq;
	struct engine		e;
	double			idle, again, mean, half;
	int			rc, early;

	rc = engine_open(&e, spec->engine, t, WRITES_SEQ_IODEPTH,
	    WRITES_SEQ_BS, 1);
	if (rc != 0)
		return (rc);
	r->seq_bs = WRITES_SEQ_BS;
	r->seq_iodepth = e.iodepth;
	r->interval_s = WRITES_INTERVAL_S;
	seq.bs = WRITES_SEQ_BS;
	seq.lo = seq.pos = (t->keep_bytes + WRITES_SEQ_BS - 1) /
	    WRITES_SEQ_BS * WRITES_SEQ_BS;
	seq.hi = ws / WRITES_SEQ_BS * WRITES_SEQ_BS;
	if (seq.hi < seq.lo + 2 * (uint64_t)WRITES_SEQ_BS * e.iodepth) {
		writes_note(r, "sequential writes skipped: the target is too "
		    "small");
		engine_close(&e);
		return (0);
	}
	rc = writes_sequential(&e, &seq, spec->sustain_s, spec->sustain_min_s,
	    spec->seq_precision, "sequential writes", &r->timeline,
	    &r->seq_early);
	if (writepath_buffer(r->timeline.v, r->timeline.n, &r->buffer) != 0 &&
	    !r->seq_early)
		writes_note(r, "sequential run too short to find a buffer");
	if (!r->buffer.detected) {
		mean = writes_seq_rate(&r->timeline, &half);
		if (!isfinite(r->buffer.slow_bytes_per_s))
			r->buffer.slow_bytes_per_s = mean;
		if (isfinite(half)) {
			r->seq_low_bytes_per_s = mean - half;
			r->seq_high_bytes_per_s = mean + half;
		}
	}
	if (rc == 0 && r->buffer.detected && !spec->no_drain) {
		idle = r->buffer.bytes / r->buffer.slow_bytes_per_s / 2;
		if (!(idle >= 1))
			idle = 1;
		if (idle > spec->sustain_s)
			idle = spec->sustain_s;
		engine_idle(&e, (uint64_t)(idle * 1e9));
		again = 2 * r->buffer.fill_s;
		if (again < WRITES_REFILL_MIN_S)
			again = WRITES_REFILL_MIN_S;
		if (!interrupt_requested())
			rc = writes_sequential(&e, &seq, again, 0, 0,
			    "after a pause", &r->refill, &early);
		writepath_drain(&r->buffer, r->refill.v, r->refill.n, idle);
	}
	engine_close(&e);
	return (rc);
}

/* Step 4: the mixed point.  Returns as sampler_measure. */
static int
writes_mixed(struct target *t, struct rng *rng, const struct writes_spec *spec,
    uint64_t ws, unsigned depth, struct writes_result *r)
{
	struct sample_spec	ss;
	struct writes_mix	mix;
	struct engine		e;
	int			rc;

	rc = engine_open(&e, spec->engine, t, depth, WRITES_MIXED_BS, 1);
	if (rc != 0)
		return (rc);
	mix.rng = rng;
	mix.lo = (t->keep_bytes + WRITES_MIXED_BS - 1) / WRITES_MIXED_BS *
	    WRITES_MIXED_BS;
	mix.hi = ws / WRITES_MIXED_BS * WRITES_MIXED_BS;
	mix.read_fraction = WRITES_READ_FRACTION;
	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = ss.warm_from = ws;
	ss.warm_random = 1;
	ss.bs = WRITES_MIXED_BS;
	ss.iodepth = e.iodepth;
	ss.precision = spec->precision > 0 ? spec->precision :
	    WRITES_PRECISION;
	ss.max_time_s = spec->max_time_s > 0 ? spec->max_time_s :
	    WRITES_MAX_TIME_S;
	ss.min_time_s = ss.max_time_s < 1 ? ss.max_time_s : 1;
	ss.write = POINT_MIXED;		/* said of the point: next decides */
	ss.next = writes_next_mixed;
	ss.next_arg = &mix;
	r->mixed.ws_bytes = ws;
	r->mixed.bs = WRITES_MIXED_BS;
	r->mixed.iodepth = e.iodepth;
	progress_phase("70/30 reads and writes", 1, PROGRESS_IODEPTH);
	progress_point_start(0, &r->mixed);
	rc = sampler_measure(&e, NULL, &ss, &r->mixed, NULL, progress_update,
	    NULL);
	progress_point_done(&r->mixed);
	progress_end();
	engine_close(&e);
	r->mixed_read_fraction = WRITES_READ_FRACTION;
	return (rc);
}

/* Measure the write side of target t; see writes.h. */
int
writes_run(struct target *t, struct rng *rng, const struct writes_spec *spec,
    struct writes_result *r)
{
	uint64_t	ws;
	unsigned	depth;
	int		rc = 0;

	writes_result_init(r);
	if (!t->writable)
		return (-EPERM);
	ws = spec->ws_bytes > 0 && spec->ws_bytes < t->size ? spec->ws_bytes :
	    t->size;
	rc = writes_buffer(t, spec, ws, r);
	if (rc == 0 && !interrupt_requested()) {
		r->limits = xcalloc(1, sizeof(*r->limits));
		rc = limits_run(t, rng, &spec->limits, r->limits);
	}
	if (rc == 0 && !interrupt_requested() && !spec->no_mixed) {
		depth = spec->mixed_iodepth;
		if (depth == 0 && r->limits != NULL)
			depth = r->limits->iops_knee_iodepth;
		rc = writes_mixed(t, rng, spec, ws, depth > 0 ? depth : 1, r);
	}
	if (rc == 1 || (rc == 0 && interrupt_requested())) {
		r->interrupted = 1;
		rc = 1;
	}
	return (rc);
}

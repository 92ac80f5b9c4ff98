/* SPDX-License-Identifier: ISC */
/*
 * Ceilings and burst buckets: the iodepth, block-size and sustained sweeps
 * (and the first-touch comparison) measured here, decided in ceilings.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "engine.h"
#include "interrupt.h"
#include "limits.h"
#include "progress.h"
#include "rng.h"
#include "sampler.h"
#include "target.h"
#include "xmalloc.h"

/*
 * The plan.  All offsets are uniform random in [0, ws) with replacement,
 * ws beyond the caches, so the figures are the store's.
 *
 * 1. First touch (if asked): read LIMITS_FT_BLOCKS blocks never read by this
 *    run, at depth 1, one per stratum of [from, size), in random order.
 * 2. iodepth sweep at 4 KiB: depths 1, 2, 4 .. max_iodepth.  It stops early
 *    once two successive doublings gained less than LIMITS_EARLY_GAIN each:
 *    past a cap, deeper queues only add latency (depth / ceiling, which the
 *    report derives by Little's law) and spend burst credits.  Past
 *    max_iodepth, while IOPS still rose over the last doubling
 *    (ceilings_iops_rising), doublings go on up to deep_iodepth.
 * 3. block-size sweep 4 KiB .. 1 MiB at twice the knee depth (the knee is
 *    where 4 KiB reads reach the ceiling; larger reads take longer, so the
 *    margin keeps them at the cap), at least LIMITS_BS_MIN_DEPTH deep so a
 *    1 MiB transfer time does not pass for a limit, at most
 *    LIMITS_BS_MAX_DEPTH (buffers are 1 MiB a slot).  While bandwidth
 *    still rises, 2 MiB and 4 MiB follow (within the working set), as deep
 *    as LIMITS_BUF_BYTES of buffers allow.
 * 4. First touch, second pass: the same blocks again, in another order.
 *    Both passes must miss the caches, so that they differ only by the
 *    first read: an LRU cache of C bytes has forgotten a block once C
 *    distinct bytes were read after it.  The sweeps' random reads over ws
 *    touched about ws x (1 - exp(-bytes read / ws)) distinct bytes; if
 *    that is short of 1.1 x C (C from the scan, else ws, which lies
 *    beyond the caches), sequential 1 MiB reads from offset 0 make up the
 *    difference first.  This comes before the sustained run, which may
 *    leave a lower rate cap in force than the first pass saw.
 * 5. Sustained run at twice the knee depth for sustain_s (fixed time, or
 *    past sustain_min_s until its rate held: the quick preset) with
 *    a 1 s timeline.  All earlier I/O is handed to ceilings_burst() as
 *    work done before it, so a bucket the sweeps drained in part is still
 *    sized whole: the sweeps and first-touch passes keep one timeline on
 *    one clock (LIMITS_SWEEP_INTERVAL_S intervals, warm-ups included, idle
 *    time between them refilling a bucket), in which a bucket that ran
 *    dry before the sustained run is found.  The ceilings then come from
 *    the points measured before the drop.
 * 6. After a drop, one point at the largest size: the bandwidth in the
 *    baseline state (a gp2 volume's falls with its IOPS).
 *
 * Every point warms up with random I/O first (sampler warm_random), so a
 * rate limiter's short-term allowance does not inflate it.
 */
#define LIMITS_PRECISION	0.02
#define LIMITS_MAX_TIME_S	10.0
#define LIMITS_MIN_TIME_S	1.0
#define LIMITS_EARLY_GAIN	1.05
#define LIMITS_BS_MIN_DEPTH	8
#define LIMITS_BS_MAX_DEPTH	64
#define LIMITS_FT_BLOCKS	1024
#define LIMITS_FT_MIN_BLOCKS	64
#define LIMITS_FT_BUDGET_S	20.0	/* first pass, at most */
#define LIMITS_FLUSH_DEPTH	8
#define LIMITS_IDLE_MIN_S	1e-6	/* shorter gaps are rounding */
#define LIMITS_BUF_BYTES	(LIMITS_BS_MAX_DEPTH * LIMITS_MAX_BS)

/* Append a note to r->note, "; "-separated (cut short if it is full). */
static void
limits_note(struct limits_result *r, const char *msg)
{
	size_t	len;

	len = strlen(r->note);
	snprintf(r->note + len, sizeof r->note - len, "%s%s",
	    len != 0 ? "; " : "", msg);
}

/* Initialise a result with every figure unknown. */
void
limits_result_init(struct limits_result *r)
{
	memset(r, 0, sizeof *r);
	r->iops_ceiling = r->iops_ceiling_low = r->iops_ceiling_high = NAN;
	r->iops_max_seen = NAN;
	r->cpu_util = NAN;
	r->little_ratio = NAN;
	r->lat0_us = NAN;
	r->iops_knee_fit = NAN;
	r->cache_share = NAN;
	r->bandwidth_ceiling_bytes_per_s = NAN;
	r->bandwidth_ceiling_low = r->bandwidth_ceiling_high = NAN;
	r->bandwidth_max_seen = NAN;
	r->optimal_io_bytes = NAN;
	r->iops_limit = CEILINGS_IOPS_UNKNOWN;
	r->bandwidth_limit = CEILINGS_BW_UNKNOWN;
	r->sustain_start_s = NAN;
	r->long_run_iops = NAN;
	r->baseline_bandwidth = NAN;
	ceilings_burst(NULL, 0, NULL, 0, NAN, &r->burst);
	r->burst.baseline_iops = NAN;
	ceilings_first_touch(NULL, NULL, 0, &r->first_touch);
}

/* Release what a result owns; the struct stays.  NULL is a no-op. */
void
limits_result_free(struct limits_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nqd; i++)
		point_free(&r->qd_points[i]);
	for (i = 0; i < r->nbs; i++)
		point_free(&r->bs_points[i]);
	free(r->qd_points);
	free(r->bs_points);
	point_free(&r->sustain);
	point_free(&r->acct_probe);
	timeline_free(&r->timeline);
	timeline_free(&r->sweep_timeline);
	r->qd_points = r->bs_points = NULL;
	r->nqd = r->nbs = 0;
}

/* Bytes of a file target the run touches. */
uint64_t
limits_need_bytes(const struct limits_spec *spec)
{
	return (spec->ws_bytes + (spec->first_touch ? LIMITS_FT_SPAN : 0));
}

/* Name of a phase of the sweeps' timeline; NULL past the last. */
const char *
limits_phase_name(int phase)
{
	static const char *const names[] = {
		[LIMITS_PHASE_NONE] = "none",
		[LIMITS_PHASE_IODEPTH] = "iodepth",
		[LIMITS_PHASE_BS] = "bs",
		[LIMITS_PHASE_FIRST_TOUCH] = "first_touch",
		[LIMITS_PHASE_FLUSH] = "flush",
		[LIMITS_PHASE_ACCOUNTING] = "accounting",
	};

	if (phase < 0 || phase >= LIMITS_NPHASES)
		return (NULL);
	return (names[phase]);
}

/* The sweeps' clock: its zero is the first I/O of the run, on e's clock. */
static uint64_t
limits_clock0(struct limits_result *r, struct engine *e)
{
	if (!r->clock_set) {
		r->clock0_ns = e->ops->now_ns(e);
		r->clock_set = 1;
	}
	return (r->clock0_ns);
}

/* A sweep point keeps its intervals in the sweeps' timeline. */
static void
limits_sweep_timeline(struct limits_result *r, struct engine *e, int phase,
    struct sample_spec *ss)
{
	ss->interval_s = LIMITS_SWEEP_INTERVAL_S;
	ss->tl_whole = 1;
	ss->tl_origin_ns = limits_clock0(r, e);
	ss->tl_phase = phase;
}

/* Work done outside the sampler, from start to end: one sample of it. */
static void
limits_sweep_work(struct limits_result *r, struct engine *e, int phase,
    uint64_t start, uint64_t end, double ios, uint32_t bs, unsigned depth)
{
	struct timeline_sample	s;

	if (end <= start)
		return;
	memset(&s, 0, sizeof s);
	s.t_s = (double)(end - limits_clock0(r, e)) / 1e9;
	s.dt_s = (double)(end - start) / 1e9;
	s.iops = ios / s.dt_s;
	s.bytes_per_s = s.iops * bs;
	s.lat_us_mean = NAN;
	s.iodepth = depth;
	s.bs = bs;
	s.phase = phase;
	timeline_add(&r->sweep_timeline, &s);
}

/* The sampler's settings for one sweep point. */
static void
limits_sample_spec(const struct limits_spec *spec, uint64_t ws, uint32_t bs,
    unsigned depth, struct sample_spec *ss)
{
	memset(ss, 0, sizeof *ss);
	ss->ws_bytes = ws;
	ss->warm_from = ws;		/* no sequential warm-up */
	ss->warm_random = 1;
	ss->settle_s = spec->settle_s;
	ss->bs = bs;
	ss->iodepth = depth;
	ss->write = spec->write;
	ss->precision = spec->precision > 0 ? spec->precision :
	    LIMITS_PRECISION;
	ss->max_time_s = spec->max_time_s > 0 ? spec->max_time_s :
	    LIMITS_MAX_TIME_S;
	ss->min_time_s = ss->max_time_s < LIMITS_MIN_TIME_S ?
	    ss->max_time_s : LIMITS_MIN_TIME_S;
	ss->min_ios = 8 * (uint64_t)depth;
}

/* A phase of the sweeps on the progress line: "write ..." when they write. */
static void
limits_progress(const struct limits_spec *spec, const char *name, size_t n,
    enum progress_vary vary)
{
	char	phase[32];

	snprintf(phase, sizeof phase, "%s%s", spec->write ? "write " : "",
	    name);
	progress_phase(phase, n, vary);
}

/*
 * Measure one point into *pt with the progress hooks around it.  Returns
 * as sampler_measure().
 */
static int
limits_measure(struct engine *e, struct rng *rng, const struct sample_spec *ss,
    size_t i, struct point *pt, struct timeline *tl)
{
	int	rc;

	memset(pt, 0, sizeof *pt);
	pt->ws_bytes = ss->ws_bytes;
	pt->bs = ss->bs;
	pt->iodepth = ss->iodepth;
	pt->write = ss->write;
	progress_point_start(i, pt);
	rc = sampler_measure(e, rng, ss, pt, tl, progress_update, NULL);
	progress_point_done(pt);
	return (rc);
}

/* Factor between successive depths or sizes of a sweep: step, or 2. */
static unsigned
limits_step(unsigned step)
{
	return (step > 1 ? step : 2);
}

/*
 * Depths of the iodepth sweep: 1, step, step^2 .. max (max included), then
 * max x step, max x step^2 .. as far as deep.
 */
static size_t
limits_depths(unsigned max, unsigned deep, unsigned step, unsigned *d,
    size_t cap)
{
	size_t		n = 0;
	uint64_t	v;

	for (v = 1; v < max && n + 1 < cap; v *= step)
		d[n++] = v;
	d[n++] = max;
	for (v = (uint64_t)max * step; v <= deep && n < cap; v *= step)
		d[n++] = v;
	return (n);
}

/* The iodepth sweep.  Returns 0, 1 (interrupted) or -errno. */
static int
limits_qd_sweep(struct target *t, struct rng *rng,
    const struct limits_spec *spec, uint32_t bs, struct limits_result *r)
{
	struct sample_spec	 ss;
	struct engine		 e;
	unsigned		 depths[32], deep;
	size_t			 n, i, planned;
	double			 g1, g2;
	int			 rc;

	deep = spec->deep_iodepth > spec->max_iodepth ? spec->deep_iodepth :
	    spec->max_iodepth;
	rc = engine_open(&e, spec->engine, t, deep, bs, 1);
	if (rc != 0)
		return (rc);
	/* The psync fallback keeps one I/O in flight: sweep what it can. */
	if (e.iodepth < spec->max_iodepth)
		limits_note(r, "engine keeps fewer I/Os in flight than "
		    "--max-iodepth: depth sweep cut short");
	n = e.iodepth < spec->max_iodepth ? limits_depths(e.iodepth, 0,
	    limits_step(spec->depth_step), depths, 32) :
	    limits_depths(spec->max_iodepth, deep,
	    limits_step(spec->depth_step), depths, 32);
	for (planned = 0; planned < n && depths[planned] <= spec->max_iodepth;)
		planned++;
	r->qd_points = xcalloc(n, sizeof *r->qd_points);
	r->qd_stop = e.iodepth < spec->max_iodepth ? LIMITS_STOP_ENGINE :
	    LIMITS_STOP_EDGE;
	limits_progress(spec, "iodepth", planned, PROGRESS_IODEPTH);
	for (i = 0; i < n; i++) {
		if (interrupt_requested()) {
			rc = 1;
			break;
		}
		limits_sample_spec(spec, r->ws_bytes, bs, depths[i], &ss);
		limits_sweep_timeline(r, &e, LIMITS_PHASE_IODEPTH, &ss);
		rc = limits_measure(&e, rng, &ss, i, &r->qd_points[i],
		    &r->sweep_timeline);
		if (rc < 0) {
			point_free(&r->qd_points[i]);
			break;
		}
		r->nqd++;
		if (rc != 0)
			break;

		/* Two flat doublings in a row: past the knee. */
		if (i >= 2 && r->qd_points[i - 2].iops > 0 &&
		    r->qd_points[i - 1].iops > 0) {
			g1 = r->qd_points[i - 1].iops /
			    r->qd_points[i - 2].iops;
			g2 = r->qd_points[i].iops / r->qd_points[i - 1].iops;
			if (g1 < LIMITS_EARLY_GAIN && g2 < LIMITS_EARLY_GAIN) {
				r->qd_stop = LIMITS_STOP_FLAT;
				progress_stop_at(i + 1, "IOPS stopped rising");
				break;
			}
		}
		/* Deeper than planned only while IOPS still rise. */
		if (i + 1 >= planned && i + 1 < n) {
			if (!ceilings_iops_rising(r->qd_points, r->nqd)) {
				if (i >= planned)
					r->qd_stop = LIMITS_STOP_FLAT;
				break;
			}
			progress_more(1, "IOPS still rising");
		}
	}
	if (rc != 0)
		r->qd_stop = rc < 0 ? LIMITS_STOP_ERROR :
		    LIMITS_STOP_INTERRUPTED;
	progress_end();
	engine_close(&e);
	return (rc);
}

/*
 * Block sizes of the bs sweep: min, min x step .. top, and top itself when
 * the last step stopped short of half of it.
 */
static size_t
limits_sizes(uint32_t min, uint32_t top, unsigned step, uint32_t *v,
    size_t cap)
{
	size_t		n = 0;
	uint64_t	bs;

	for (bs = min; bs <= top && n < cap; bs *= step)
		v[n++] = bs;
	if (n > 0 && n < cap && 2 * (uint64_t)v[n - 1] <= top)
		v[n++] = top;
	return (n);
}

/* Device time the sweeps (not the sustained run) may take at most. */
double
limits_max_seconds(const struct limits_spec *spec)
{
	unsigned	depths[32];
	uint32_t	sizes[32];
	double		per;
	size_t		n;

	per = spec->max_time_s > 0 ? spec->max_time_s : LIMITS_MAX_TIME_S;
	/* The sweeps, and the accounting probe after them. */
	n = limits_depths(spec->max_iodepth, spec->deep_iodepth,
	    limits_step(spec->depth_step), depths, 32) +
	    limits_sizes(spec->bs > 0 ? spec->bs : 4096, LIMITS_EXT_BS,
	    limits_step(spec->size_step), sizes, 32) +
	    (spec->no_acct_probe ? 0 : 1);
	/* Each point settles first: for settle_s, or a quarter of its time. */
	return (n * (per + (spec->settle_s > 0 ? spec->settle_s : per / 4)) +
	    (spec->first_touch ? 2 * LIMITS_FT_BUDGET_S : 0));
}

/*
 * Points of the block-size sweep at sizes[0 .. n) on one engine of depth
 * slots of sizes[n - 1] bytes, appended to r->bs_points (room for them is
 * there).  Returns 0, 1 (interrupted) or -errno.
 */
static int
limits_bs_points(struct target *t, struct rng *rng,
    const struct limits_spec *spec, const uint32_t *sizes, size_t n,
    unsigned depth, struct limits_result *r)
{
	struct sample_spec	 ss;
	struct engine		 e;
	struct point		*pt;
	size_t			 i;
	int			 rc;

	rc = engine_open(&e, spec->engine, t, depth, sizes[n - 1], 1);
	if (rc != 0)
		return (rc);
	for (i = 0; i < n; i++) {
		if (interrupt_requested()) {
			rc = 1;
			break;
		}
		limits_sample_spec(spec, r->ws_bytes, sizes[i], e.iodepth,
		    &ss);
		limits_sweep_timeline(r, &e, LIMITS_PHASE_BS, &ss);
		pt = &r->bs_points[r->nbs];
		rc = limits_measure(&e, rng, &ss, r->nbs, pt,
		    &r->sweep_timeline);
		if (rc < 0) {
			point_free(pt);
			break;
		}
		r->nbs++;
		if (rc != 0)
			break;
	}
	engine_close(&e);
	return (rc);
}

/* Whether a run may end: past min_s, once its rate held; see limits.h. */
int
limits_held_enough(const struct timeline *tl, void *arg)
{
	struct limits_early	*le = arg;

	if (tl->n == 0 || tl->v[tl->n - 1].t_s < le->min_s)
		return (0);
	le->ended = ceilings_held(tl->v, tl->n);
	return (le->ended);
}

/*
 * The block-size sweep at depth from min_bs to top, then on to
 * LIMITS_EXT_BS while bandwidth still rises.  Returns 0, 1 (interrupted)
 * or -errno; r->bs_stop says why it stopped.
 */
static int
limits_bs_sweep(struct target *t, struct rng *rng,
    const struct limits_spec *spec, uint32_t min_bs, uint32_t top,
    unsigned depth, struct limits_result *r)
{
	struct ceilings_bw	 cb;
	uint32_t		 sizes[32], bs;
	unsigned		 d;
	size_t			 n;
	int			 rc;

	n = limits_sizes(min_bs, top, limits_step(spec->size_step), sizes, 32);
	/* Room for 2 and 4 MiB: only a top of 1 MiB goes on. */
	r->bs_points = xcalloc(n + 2, sizeof *r->bs_points);
	limits_progress(spec, "block size", n, PROGRESS_BS);
	rc = limits_bs_points(t, rng, spec, sizes, n, depth, r);
	if (r->nbs > 0)
		r->bs_iodepth = depth = r->bs_points[0].iodepth;
	r->bs_stop = LIMITS_STOP_FLAT;
	for (bs = top * 2; rc == 0 && bs <= LIMITS_EXT_BS; bs *= 2) {
		ceilings_bandwidth(r->bs_points, r->nbs, NULL, &cb);
		if (cb.limit != CEILINGS_BW_UNSATURATED)
			break;
		if (bs > r->ws_bytes) {
			r->bs_stop = LIMITS_STOP_TARGET;
			break;
		}
		/* As deep as at top, within LIMITS_BUF_BYTES of buffers. */
		d = LIMITS_BUF_BYTES / bs < depth ? LIMITS_BUF_BYTES / bs :
		    depth;
		progress_more(1, "bandwidth still rising");
		rc = limits_bs_points(t, rng, spec, &bs, 1, d, r);
		if (rc == 0 && bs == LIMITS_EXT_BS)
			r->bs_stop = LIMITS_STOP_EDGE;
	}
	if (rc != 0)
		r->bs_stop = rc < 0 ? LIMITS_STOP_ERROR :
		    LIMITS_STOP_INTERRUPTED;
	progress_end();
	return (rc);
}

/* Tell spec's on_phase that a phase begins (name) or ends (NULL). */
static void
limits_on_phase(const struct limits_spec *spec, const char *name,
    double seconds)
{
	if (spec->on_phase != NULL)
		spec->on_phase(spec->on_phase_arg, name, seconds);
}

/* The sustained run.  Returns 0, 1 (interrupted) or -errno. */
static int
limits_sustain(struct target *t, struct rng *rng,
    const struct limits_spec *spec, uint32_t bs, unsigned depth,
    double seconds, struct limits_result *r)
{
	struct sample_spec	 ss;
	struct engine		 e;
	struct limits_early	 le = { spec->sustain_min_s, 0 };
	int			 rc;

	rc = engine_open(&e, spec->engine, t, depth, bs, 1);
	if (rc != 0)
		return (rc);
	r->sustain_iodepth = e.iodepth;
	limits_sample_spec(spec, r->ws_bytes, bs, e.iodepth, &ss);
	ss.warm_random = 0;		/* the bucket starts draining at once */
	ss.fixed_time = 1;
	ss.max_time_s = seconds;
	ss.min_time_s = seconds;
	ss.interval_s = 1;
	if (le.min_s > 0 && le.min_s < seconds) {
		ss.tl_enough = limits_held_enough;
		ss.tl_arg = &le;
	}
	r->sustain_start_s = (double)(e.ops->now_ns(&e) -
	    limits_clock0(r, &e)) / 1e9;
	/* The sweeps end where the sustained run starts, on their clock. */
	limits_on_phase(spec, NULL, r->sustain_start_s);
	limits_on_phase(spec, "sustained", NAN);
	limits_progress(spec, "sustained", 1, PROGRESS_NONE);
	progress_phase_length(seconds);
	rc = limits_measure(&e, rng, &ss, 0, &r->sustain, &r->timeline);
	progress_end();
	limits_on_phase(spec, NULL, r->timeline.n > 0 ?
	    r->timeline.v[r->timeline.n - 1].t_s : NAN);
	engine_close(&e);
	if (r->timeline.n > 0)
		r->sustain_s = r->timeline.v[r->timeline.n - 1].t_s;
	r->sustain_early = le.ended;
	return (rc);
}

/*
 * Read n blocks at offsets off[order[i]] one at a time, storing each
 * latency (us) at lat[order[i]], as one sample of the sweeps' timeline.
 * Stops after budget_s of engine time.  Returns the number read, or
 * -errno.
 */
static long
limits_ft_pass(struct target *t, const char *engine, const uint64_t *off,
    const size_t *order, size_t n, uint32_t bs, double budget_s, double *lat,
    struct limits_result *r)
{
	struct engine		e;
	struct engine_io	io;
	struct engine_done	done;
	uint64_t		start;
	size_t			i;
	int			rc;

	rc = engine_open(&e, engine, t, 1, bs, 1);
	if (rc != 0)
		return (rc);
	start = e.ops->now_ns(&e);
	for (i = 0; i < n; i++) {
		if (interrupt_requested())
			break;
		if (budget_s > 0 &&
		    (e.ops->now_ns(&e) - start) * 1e-9 > budget_s)
			break;
		memset(&io, 0, sizeof io);
		io.len = bs;
		io.offset = off[order[i]];
		if ((rc = e.ops->submit(&e, &io, 1)) < 0)
			break;
		if ((rc = e.ops->reap(&e, &done, 1, 1)) < 0)
			break;
		if (rc != 1 || done.res < 0 || (uint32_t)done.res != bs) {
			rc = done.res < 0 ? done.res : -EIO;
			break;
		}
		lat[order[i]] = done.lat_ns * 1e-3;
		rc = 0;
	}
	limits_sweep_work(r, &e, LIMITS_PHASE_FIRST_TOUCH, start,
	    e.ops->now_ns(&e), (double)i, bs, 1);
	engine_close(&e);
	return (rc < 0 ? rc : (long)i);
}

/* A random permutation of 0 .. n-1 into order. */
static void
limits_shuffle(struct rng *rng, size_t *order, size_t n)
{
	size_t	i, j, tmp;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (i = n; i > 1; i--) {
		j = rng_below(rng, i);
		tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
}

/* First-touch state between the two passes. */
struct limits_ft {
	uint64_t	*off;
	size_t		*order;
	double		*first;
	double		*second;
	size_t		 n;
	uint32_t	 bs;
};

/*
 * Choose the blocks and read them the first time.  Returns 0 (ft->n may be
 * 0: skipped, with a note), 1 if interrupted, or -errno.
 */
static int
limits_ft_first(struct target *t, struct rng *rng,
    const struct limits_spec *spec, uint32_t bs, struct limits_ft *ft,
    struct limits_result *r)
{
	uint64_t	from, span, stride, *off;
	double		*lat;
	size_t		i, n;
	long		got;

	memset(ft, 0, sizeof *ft);
	ft->bs = bs;
	if (!t->direct) {
		limits_note(r, "first touch skipped: needs O_DIRECT (the "
		    "second read would hit the page cache)");
		return (0);
	}
	from = spec->first_touch_from > r->ws_bytes ?
	    spec->first_touch_from : r->ws_bytes;
	from = (from + bs - 1) / bs * bs;
	span = t->size > from ? (t->size - from) / bs * bs : 0;
	n = span / bs < LIMITS_FT_BLOCKS ? span / bs : LIMITS_FT_BLOCKS;
	if (n < LIMITS_FT_MIN_BLOCKS) {
		limits_note(r, "first touch skipped: no unread blocks beyond "
		    "the working set");
		return (0);
	}

	/* One block in each of n strata: distinct, spread over the span. */
	stride = span / n / bs * bs;
	ft->off = xcalloc(n, sizeof *ft->off);
	ft->order = xcalloc(n, sizeof *ft->order);
	ft->first = xcalloc(n, sizeof *ft->first);
	ft->second = xcalloc(n, sizeof *ft->second);
	for (i = 0; i < n; i++)
		ft->off[i] = from + i * stride +
		    rng_below(rng, stride / bs) * bs;
	limits_shuffle(rng, ft->order, n);
	got = limits_ft_pass(t, spec->engine, ft->off, ft->order, n, bs,
	    LIMITS_FT_BUDGET_S, ft->first, r);
	if (got < 0)
		return ((int)got);
	/* Keep the blocks read, in the order they were read. */
	off = xcalloc(n, sizeof *off);
	lat = xcalloc(n, sizeof *lat);
	for (i = 0; i < (size_t)got; i++) {
		off[i] = ft->off[ft->order[i]];
		lat[i] = ft->first[ft->order[i]];
	}
	free(ft->off);
	free(ft->first);
	ft->off = off;
	ft->first = lat;
	ft->n = got;
	return (interrupt_requested() ? 1 : 0);
}

/*
 * Make sure the caches forgot the first-touch blocks: read sequentially
 * from 0 what the sweeps did not cover.  Returns 0, 1 or -errno.
 */
static int
limits_ft_flush(struct target *t, const struct limits_spec *spec,
    struct limits_result *r)
{
	struct engine		 e;
	struct engine_io	 io[LIMITS_FLUSH_DEPTH];
	struct engine_done	 done[LIMITS_FLUSH_DEPTH];
	const struct point	*p;
	double			 bytes = 0, distinct, bound;
	uint64_t		 need, off = 0, t0;
	unsigned		 slots[LIMITS_FLUSH_DEPTH], nfree = 0, n, i;
	size_t			 k;
	int			 rc, got;

	for (k = 0; k < r->nqd + r->nbs; k++) {
		p = k < r->nqd ? &r->qd_points[k] : &r->bs_points[k - r->nqd];
		bytes += ((double)p->ios + p->iops * p->warm_seconds) * p->bs;
	}
	distinct = r->ws_bytes * (1 - exp(-bytes / r->ws_bytes));
	bound = spec->cache_bytes > 0 ? 1.1 * spec->cache_bytes :
	    r->ws_bytes;
	if (bound > r->ws_bytes)
		bound = r->ws_bytes;
	if (distinct >= bound)
		return (0);
	need = (uint64_t)(bound - distinct) / LIMITS_MAX_BS * LIMITS_MAX_BS;
	if (need == 0)
		return (0);

	rc = engine_open(&e, spec->engine, t, LIMITS_FLUSH_DEPTH, LIMITS_MAX_BS,
	    1);
	if (rc != 0)
		return (rc);
	t0 = e.ops->now_ns(&e);
	for (i = 0; i < e.iodepth; i++)
		slots[nfree++] = i;
	while ((off < need || nfree < e.iodepth) && rc == 0) {
		for (n = 0; nfree > 0 && off < need; n++) {
			memset(&io[n], 0, sizeof io[n]);
			io[n].slot = slots[--nfree];
			io[n].len = LIMITS_MAX_BS;
			io[n].offset = off;
			off += LIMITS_MAX_BS;
		}
		if (n > 0 && (rc = e.ops->submit(&e, io, n)) < 0)
			break;
		if ((got = e.ops->reap(&e, done, e.iodepth, 1)) < 0) {
			rc = got;
			break;
		}
		for (i = 0; i < (unsigned)got; i++) {
			slots[nfree++] = done[i].slot;
			if (done[i].res < 0)
				rc = done[i].res;
			else
				r->first_touch_flush_bytes += done[i].res;
		}
		if (interrupt_requested())
			need = off;
	}
	while (nfree < e.iodepth &&
	    (got = e.ops->reap(&e, done, e.iodepth, 1)) > 0)
		nfree += got;
	limits_sweep_work(r, &e, LIMITS_PHASE_FLUSH, t0, e.ops->now_ns(&e),
	    (double)r->first_touch_flush_bytes / LIMITS_MAX_BS, LIMITS_MAX_BS,
	    e.iodepth);
	engine_close(&e);
	if (rc < 0)
		return (rc);
	return (interrupt_requested() ? 1 : 0);
}

/* Read the blocks again and compare.  Returns 0, 1 or -errno. */
static int
limits_ft_second(struct target *t, struct rng *rng,
    const struct limits_spec *spec, struct limits_ft *ft,
    struct limits_result *r)
{
	long	got;

	if (ft->n == 0)
		return (0);
	limits_shuffle(rng, ft->order, ft->n);
	got = limits_ft_pass(t, spec->engine, ft->off, ft->order,
	    ft->n, ft->bs, 0, ft->second, r);
	if (got < 0)
		return ((int)got);
	if ((size_t)got < ft->n) {
		limits_note(r, "first touch: interrupted");
		return (1);
	}
	ceilings_first_touch(ft->first, ft->second, ft->n, &r->first_touch);
	return (0);
}

static void
limits_ft_free(struct limits_ft *ft)
{
	free(ft->off);
	free(ft->order);
	free(ft->first);
	free(ft->second);
}

/* Name of a stop reason, for reports; NULL past the last. */
const char *
limits_stop_name(enum limits_stop stop)
{
	static const char *const names[] = {
		[LIMITS_STOP_NONE] = "none",
		[LIMITS_STOP_FLAT] = "flat",
		[LIMITS_STOP_EDGE] = "edge",
		[LIMITS_STOP_ENGINE] = "engine",
		[LIMITS_STOP_TARGET] = "target",
		[LIMITS_STOP_INTERRUPTED] = "interrupted",
		[LIMITS_STOP_ERROR] = "error",
	};

	if ((unsigned)stop >= sizeof names / sizeof names[0])
		return (NULL);
	return (names[stop]);
}

/* Work a point did on the volume, for limits_spec.prior. */
void
limits_prior_from_point(const struct point *p, struct ceilings_prior *out)
{
	out->ios = (double)p->ios + p->iops * p->warm_seconds;
	out->seconds = p->seconds + p->warm_seconds;
}

/* Accounted I/Os per I/O of bs bytes: big I/Os count as several units. */
static double
limits_units(uint32_t bs, uint64_t acct)
{
	return (acct > 0 && bs > acct ? ceil((double)bs / acct) : 1);
}

/*
 * The work before the sustained run as prior entries for ceilings_burst:
 * the scan's (spec->prior), then every interval of the sweeps' timeline
 * in accounted I/Os, idle time between them as entries of no I/O.  The
 * intervals of one sweep point share a load; first-touch passes and the
 * flush read elsewhere and compare with nothing.  at[i] is when entry i
 * ended on the sweeps' clock (NAN for the scan's).  Returns the count.
 */
static size_t
limits_priors(const struct limits_spec *spec, const struct limits_result *r,
    struct ceilings_prior *prior, double *at)
{
	const struct timeline_sample	*s, *last = NULL;
	double				 end = NAN, start;
	size_t				 n = 0, i;
	unsigned			 load = 0;

	for (i = 0; i < spec->nprior; i++) {
		prior[n] = spec->prior[i];
		prior[n].load = 0;
		prior[n].demanding = 0;
		at[n++] = NAN;
	}
	for (i = 0; i <= r->sweep_timeline.n; i++) {
		s = i < r->sweep_timeline.n ? &r->sweep_timeline.v[i] : NULL;
		start = s != NULL ? s->t_s - s->dt_s : r->sustain_start_s;
		if (isfinite(end) && start - end > LIMITS_IDLE_MIN_S) {
			prior[n].ios = 0;
			prior[n].seconds = start - end;
			prior[n].load = 0;
			at[n++] = start;
		}
		if (s == NULL)
			break;
		prior[n].demanding = 0;
		if (s->phase == LIMITS_PHASE_IODEPTH ||
		    s->phase == LIMITS_PHASE_BS) {
			if (last == NULL || last->phase != s->phase ||
			    last->iodepth != s->iodepth || last->bs != s->bs)
				load++;
			prior[n].load = load;
			prior[n].demanding = s->bs == r->sustain.bs &&
			    s->iodepth >= r->sustain_iodepth;
			last = s;
		} else {
			prior[n].load = 0;
			last = NULL;
		}
		prior[n].ios = s->iops * s->dt_s *
		    limits_units(s->bs, r->io_accounting_bytes);
		prior[n].seconds = s->dt_s;
		at[n++] = end = s->t_s;
	}
	return (n);
}

/* Analyse the sustained run, counting all earlier I/O against the bucket. */
static void
limits_analyse_burst(const struct limits_spec *spec, struct limits_result *r)
{
	struct ceilings_prior	*prior;
	const struct point	*p;
	double			*at, ref = NAN;
	size_t			 n, i;

	prior = xcalloc(spec->nprior + 2 * r->sweep_timeline.n + 2,
	    sizeof *prior);
	at = xcalloc(spec->nprior + 2 * r->sweep_timeline.n + 2, sizeof *at);
	n = limits_priors(spec, r, prior, at);
	for (i = 0; i < r->nqd; i++) {
		p = &r->qd_points[i];
		if (p->iodepth == r->sustain_iodepth)
			ref = p->iops;
	}
	if (!isfinite(ref))
		ref = r->iops_ceiling;
	if (ceilings_burst(r->timeline.v, r->timeline.n, prior, n, ref,
	    &r->burst) != 0 && r->timeline.n > 0)
		limits_note(r, "sustained run too short to find a burst");
	if (r->burst.prior_drop > 0)
		r->burst.drop_sweep_t_s = at[r->burst.prior_drop - 1];
	if (r->burst.detected)
		r->long_run_iops = r->burst.baseline_iops;
	free(at);
	free(prior);
}

/* The iodepth sweep's figures from its first n points. */
static void
limits_set_iops(struct limits_result *r, const struct limits_spec *spec,
    size_t n, struct ceilings_iops *ci)
{
	ceilings_iops(r->qd_points, n, ci);
	if (spec->cache_share > 0) {
		r->cache_share = spec->cache_share;
		r->iops_ceiling_corrected = ceilings_cache_correct(
		    r->qd_points, n, spec->cache_share, spec->cache_lat_us, ci);
	}
	r->iops_limit = ci->limit;
	r->iops_ceiling = ci->ceiling;
	r->iops_ceiling_low = ci->ceiling_low;
	r->iops_ceiling_high = ci->ceiling_high;
	r->iops_ceiling_at_least = ci->at_least;
	r->iops_knee_iodepth = ci->knee_iodepth;
	r->iops_max_seen = ci->max_seen;
	r->iops_max_seen_iodepth = ci->max_seen_iodepth;
	r->cpu_bound = ci->limit == CEILINGS_IOPS_CPU;
	r->cpu_util = ci->cpu_util;
	r->little_ratio = ci->little_ratio;
	r->lat0_us = ci->lat0_us;
	r->iops_knee_fit = ci->knee_fit;
}

/*
 * The block-size sweep's figures from its first n points, and the
 * accounting probe (NULL: none, or not in the same state).
 */
static void
limits_set_bw(struct limits_result *r, size_t n, const struct point *probe)
{
	struct ceilings_bw	cb;

	ceilings_bandwidth(r->bs_points, n, probe, &cb);
	/* At a depth where IOPS still rose, a plateau may be the queue's. */
	if (r->iops_limit == CEILINGS_IOPS_UNSATURATED && !cb.at_least &&
	    isfinite(cb.ceiling)) {
		cb.limit = CEILINGS_BW_UNSATURATED;
		cb.ceiling = cb.max_seen;
		cb.ceiling_low = fmin(cb.ceiling_low, cb.max_seen);
		cb.ceiling_high = NAN;
		cb.at_least = 1;
		if (cb.acct_why == CEILINGS_ACCT_UNIT_OR_CAP) {
			cb.acct_why = CEILINGS_ACCT_HIDDEN;
			cb.acct_candidate = 0;
		}
	}
	r->io_accounting_why = n > 0 ? cb.acct_why : CEILINGS_ACCT_FOUND;
	r->io_accounting_candidate = cb.acct_candidate;
	r->bandwidth_limit = cb.limit;
	r->bandwidth_ceiling_bytes_per_s = cb.ceiling;
	r->bandwidth_ceiling_low = cb.ceiling_low;
	r->bandwidth_ceiling_high = cb.ceiling_high;
	r->bandwidth_ceiling_at_least = cb.at_least;
	r->bandwidth_max_seen = cb.max_seen;
	r->io_accounting_bytes = cb.accounting_bytes;
	r->optimal_io_bytes = NAN;
	if (!cb.at_least && !r->iops_ceiling_at_least && isfinite(cb.ceiling) &&
	    isfinite(r->iops_ceiling))
		r->optimal_io_bytes = cb.ceiling / r->iops_ceiling;
}

/* How many points of a phase ended by t on the sweeps' clock. */
static size_t
limits_points_before(const struct limits_result *r, int phase, double t)
{
	const struct timeline_sample	*v = r->sweep_timeline.v;
	size_t				 i, n = 0;

	for (i = 0; i < r->sweep_timeline.n; i++) {
		if (v[i].phase != phase)
			continue;
		if ((i + 1 == r->sweep_timeline.n || v[i + 1].phase != phase ||
		    v[i + 1].iodepth != v[i].iodepth || v[i + 1].bs != v[i].bs)
		    && v[i].t_s <= t)
			n++;
	}
	return (n);
}

/*
 * When the sweep cannot tell IOPS counted in units of a size from a
 * bandwidth cap, one point at 1.5 units (ceilings_acct_probe_bs), at the
 * sweep's depth within LIMITS_BUF_BYTES of buffers.  Returns 0, 1
 * (interrupted) or -errno.
 */
static int
limits_acct_probe(struct target *t, struct rng *rng,
    const struct limits_spec *spec, struct limits_result *r)
{
	struct ceilings_bw	 cb;
	struct sample_spec	 ss;
	struct engine		 e;
	uint32_t		 bs;
	unsigned		 d;
	int			 rc;

	ceilings_bandwidth(r->bs_points, r->nbs, NULL, &cb);
	bs = ceilings_acct_probe_bs(&cb);
	if (spec->no_acct_probe || bs == 0 || bs % t->lbs != 0 ||
	    bs > LIMITS_EXT_BS || bs > r->ws_bytes)
		return (0);
	d = LIMITS_BUF_BYTES / bs < r->bs_iodepth ? LIMITS_BUF_BYTES / bs :
	    r->bs_iodepth;
	if ((rc = engine_open(&e, spec->engine, t, d, bs, 1)) != 0)
		return (rc);
	limits_sample_spec(spec, r->ws_bytes, bs, e.iodepth, &ss);
	limits_sweep_timeline(r, &e, LIMITS_PHASE_ACCOUNTING, &ss);
	progress_phase("accounting", 1, PROGRESS_BS);
	rc = limits_measure(&e, rng, &ss, 0, &r->acct_probe,
	    &r->sweep_timeline);
	progress_end();
	engine_close(&e);
	if (rc < 0)
		point_free(&r->acct_probe);
	else
		limits_set_bw(r, r->nbs, &r->acct_probe);
	return (rc);
}

/*
 * Which ceilings the points that ended before a drop in the sweeps (nq
 * depths, nb sizes) gave, never counting none as "0".
 */
static void
limits_drop_note(struct limits_result *r, size_t nq, size_t nb)
{
	char	msg[240], d[48], b[48];

	snprintf(d, sizeof d, "the %zu %s", nq, nq == 1 ? "depth" : "depths");
	snprintf(b, sizeof b, "the %zu %s", nb, nb == 1 ? "size" : "sizes");
	if (nq == 0 && nb == 0)
		snprintf(msg, sizeof msg, "the bucket ran dry during the "
		    "sweeps, before any of their points ended: the ceilings "
		    "while it held are unknown");
	else if (nb == 0)
		snprintf(msg, sizeof msg, "the bucket ran dry during the "
		    "sweeps: the IOPS ceiling from %s measured before it; no "
		    "size ended before it, so the bandwidth while it held is "
		    "unknown", d);
	else if (nq == 0)
		snprintf(msg, sizeof msg, "the bucket ran dry during the "
		    "sweeps: the bandwidth ceiling from %s measured before it; "
		    "no depth ended before it, so the IOPS ceiling while it "
		    "held is unknown", b);
	else
		snprintf(msg, sizeof msg, "the bucket ran dry during the "
		    "sweeps: ceilings from %s and %s measured before it", d, b);
	limits_note(r, msg);
}

/*
 * A bucket that ran dry between the first-touch passes (during the
 * sweeps) leaves them comparing two states of the volume.
 */
static void
limits_ft_state(struct limits_result *r)
{
	const struct timeline_sample	*v = r->sweep_timeline.v;
	double				 first = NAN, second = NAN;
	double				 drop = r->burst.drop_sweep_t_s;
	size_t				 i;

	if (!r->first_touch.measured || !isfinite(drop))
		return;
	for (i = 0; i < r->sweep_timeline.n; i++) {
		if (v[i].phase != LIMITS_PHASE_FIRST_TOUCH)
			continue;
		if (isnan(first))
			first = v[i].t_s;
		else
			second = v[i].t_s - v[i].dt_s;
	}
	if (first <= drop && drop <= second) {
		r->first_touch.changed = CEILINGS_FT_BUCKET;
		r->first_touch.detected = 0;
	}
}

/*
 * A bucket ran dry: the ceilings are those of the points measured before
 * the drop (a sweep falling as the bucket empties is no knee), and one
 * point at the largest size measures the bandwidth left at the baseline.
 * Returns 0, 1 (interrupted) or -errno.
 */
static int
limits_after_drop(struct target *t, struct rng *rng,
    const struct limits_spec *spec, uint32_t top, struct limits_result *r)
{
	struct ceilings_iops	 ci;
	struct sample_spec	 ss;
	struct engine		 e;
	struct point		 pt;
	size_t			 nq, nb, na;
	int			 rc;

	if (isfinite(r->burst.drop_sweep_t_s)) {
		nq = limits_points_before(r, LIMITS_PHASE_IODEPTH,
		    r->burst.drop_sweep_t_s);
		nb = limits_points_before(r, LIMITS_PHASE_BS,
		    r->burst.drop_sweep_t_s);
		na = limits_points_before(r, LIMITS_PHASE_ACCOUNTING,
		    r->burst.drop_sweep_t_s);
		if (nq < r->nqd)
			limits_set_iops(r, spec, nq, &ci);
		/* The probe counts only in the state of the sizes before. */
		if (nb < r->nbs || (r->acct_probe.ios > 0 && na == 0))
			limits_set_bw(r, nb, nb == r->nbs && na > 0 ?
			    &r->acct_probe : NULL);
		limits_drop_note(r, nq, nb);
	}

	rc = engine_open(&e, spec->engine, t, r->bs_iodepth, top, 1);
	if (rc != 0)
		return (rc);
	limits_sample_spec(spec, r->ws_bytes, top, e.iodepth, &ss);
	limits_progress(spec, "baseline bandwidth", 1, PROGRESS_BS);
	rc = limits_measure(&e, rng, &ss, 0, &pt, NULL);
	progress_end();
	engine_close(&e);
	if (rc >= 0 && pt.ios > 0)
		r->baseline_bandwidth = pt.bytes_per_s;
	point_free(&pt);
	return (rc);
}

/* Run the sweeps on target; see limits.h. */
int
limits_run(struct target *t, struct rng *rng, const struct limits_spec *spec,
    struct limits_result *r)
{
	struct ceilings_iops	ci;
	struct limits_ft	ft;
	uint64_t		ws;
	uint32_t		bs, top;
	unsigned		knee, depth, bs_depth, deepest;
	double			seconds;
	char			msg[96];
	int			rc;

	limits_result_init(r);
	memset(&ft, 0, sizeof ft);
	r->write = spec->write;
	if (spec->write && !t->writable)
		return (-EPERM);
	if (spec->max_iodepth == 0)
		return (-EINVAL);

	bs = spec->bs > 0 ? spec->bs : 4096;
	if (bs < t->lbs)
		bs = t->lbs;
	ws = spec->ws_bytes > 0 && spec->ws_bytes < t->size ?
	    spec->ws_bytes : t->size;
	top = LIMITS_MAX_BS;
	while (top > bs && top > ws)
		top /= 2;
	ws = ws / top * top;
	if (ws == 0 || top < bs)
		return (-EINVAL);
	r->ws_bytes = ws;

	/* First reads of unread blocks, before anything else reads them. */
	rc = 0;
	limits_on_phase(spec, "sweeps", NAN);
	if (spec->first_touch)
		rc = limits_ft_first(t, rng, spec, bs, &ft, r);
	if (rc != 0)
		goto out;

	rc = limits_qd_sweep(t, rng, spec, bs, r);
	limits_set_iops(r, spec, r->nqd, &ci);
	if (ci.fell_iodepth != 0) {
		snprintf(msg, sizeof msg, "IOPS fell at iodepth %u: the deeper "
		    "points are left out of the ceiling", ci.fell_iodepth);
		limits_note(r, msg);
	}
	if (rc != 0 || r->nqd == 0)
		goto out;

	/* Past the knee, or as deep as IOPS went. */
	knee = ci.knee_iodepth > 0 ? ci.knee_iodepth : ci.max_seen_iodepth;
	depth = ci.knee_iodepth > 0 ? 2 * knee : knee;
	deepest = r->qd_points[r->nqd - 1].iodepth > spec->max_iodepth ?
	    r->qd_points[r->nqd - 1].iodepth : spec->max_iodepth;
	if (depth > deepest)
		depth = deepest;
	r->sustain_iodepth = depth;
	bs_depth = depth < LIMITS_BS_MIN_DEPTH ? LIMITS_BS_MIN_DEPTH : depth;
	if (bs_depth > deepest)
		bs_depth = deepest;
	r->bs_iodepth = bs_depth > LIMITS_BS_MAX_DEPTH ?
	    LIMITS_BS_MAX_DEPTH : bs_depth;

	rc = limits_bs_sweep(t, rng, spec, bs, top, r->bs_iodepth, r);
	limits_set_bw(r, r->nbs, NULL);
	if (rc == 0)
		rc = limits_acct_probe(t, rng, spec, r);
	if (rc != 0)
		goto out;

	/* Before the sustained run, which may leave a rate cap lower. */
	if (ft.n > 0 && (rc = limits_ft_flush(t, spec, r)) != 0)
		goto out;
	if ((rc = limits_ft_second(t, rng, spec, &ft, r)) != 0)
		goto out;

	if (spec->no_sustain)
		goto out;
	seconds = spec->sustain_s > 0 ? spec->sustain_s : LIMITS_SUSTAIN_S;
	rc = limits_sustain(t, rng, spec, bs, depth, seconds, r);
	limits_analyse_burst(spec, r);
	if (rc == 0 && r->burst.detected) {
		limits_on_phase(spec, "after-drop", NAN);
		rc = limits_after_drop(t, rng, spec, top, r);
	}
	/* A burst rate is measured only where a depth reached the cap. */
	r->burst.burst_at_least = r->burst.detected &&
	    r->iops_limit != CEILINGS_IOPS_CAP;
	limits_ft_state(r);

out:
	if (rc == 1 || (rc == 0 && interrupt_requested())) {
		r->interrupted = 1;
		rc = 1;
	}
	limits_ft_free(&ft);
	return (rc);
}

/* SPDX-License-Identifier: ISC */
/*
 * The plan of a measuring command: options in, per target the settings of
 * each phase out.  The only place that tells targets apart by kind (a
 * simulated volume has its own engine; a device is read for first-touch
 * cost and is not grown) and that applies presets and bounds.
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ceilings.h"
#include "parallel.h"
#include "plan.h"
#include "progress.h"
#include "units.h"
#include "xmalloc.h"

/* The share of the sweeps' reads the caches may serve, at most. */
#define PLAN_HIT_SHARE	0.02
#define PLAN_MAX_INFLIGHT	4096	/* I/Os in flight together */
#define PLAN_MAX_BUFFERS	(1ULL << 30)	/* bytes of I/O buffers */
#define PLAN_BW_MIN_S		3.0	/* the bandwidth run together */
#define PLAN_BW_MAX_S		10.0
#define PLAN_BW_INTERVALS	10
#define PLAN_MIN_INTERVALS	10	/* the IOPS run: at least, or 1 s */
#define PLAN_BW_REACHED		0.95	/* of a target's ceiling */
#define PLAN_BW_MARGIN		4	/* times the size that reached it */

/* The quick preset's sequential writes: seconds, at least, precision. */
#define PLAN_QUICK_SEQ_S	6.0
#define PLAN_QUICK_SEQ_MIN_S	4.0
#define PLAN_QUICK_SEQ_PRECISION 0.10
#define PLAN_QUICK_STEP		4	/* write sweeps: depths, sizes x4 */
#define PLAN_QUICK_COMMIT_BS	8192	/* a database page */
#define PLAN_QUICK_SETTLE_S	0.1	/* a sweep point's warm-up, at most */
#define PLAN_QUICK_DEPTH	64	/* the sweeps' depths: planned, */
#define PLAN_QUICK_DEEP_DEPTH	128	/* and reads' while IOPS still rise */

static const struct {
	const char	*name;
	const char	*text;
} plan_cuts[PLAN_NCUTS] = {
	[PLAN_CUT_WRITE_SUSTAIN] = { "write_sustain",
	    "the sustained run of writes, and a sustained run of reads "
	    "longer than 8 to 15 s (that one sees only a bucket that runs "
	    "dry so soon: the long run stays unknown)" },
	[PLAN_CUT_READ_SIZES] = { "read_sizes",
	    "reads of 8, 32, 128 and 512 KiB, and of 1.5 accounting units "
	    "(which tell a unit from a bandwidth cap)" },
	[PLAN_CUT_WRITE_STEPS] = { "write_steps",
	    "writes at every other depth and size, and of 1.5 accounting "
	    "units" },
	[PLAN_CUT_SEQ_WRITES] = { "seq_writes",
	    "sequential writes past their first seconds, and how fast a write "
	    "buffer drains" },
	[PLAN_CUT_MIXED] = { "mixed", "reads and writes mixed 70/30" },
	[PLAN_CUT_COMMIT_SIZES] = { "commit_sizes",
	    "commits at 4 KiB, 16 KiB and 2300 bytes" },
	[PLAN_CUT_COMMIT_METHODS] = { "commit_methods",
	    "commits with dsync, direct-dsync and uring-datasync" },
	[PLAN_CUT_FLUSH] = { "flush", "what a flush costs" },
	[PLAN_CUT_WRITERS] = { "writers", "2, 4 and 8 writers, and writers "
	    "with logs of their own" },
};

/* A cut's JSON word; see plan.h. */
const char *
plan_cut_name(int cut)
{
	if (cut < 0 || cut >= PLAN_NCUTS)
		return (NULL);
	return (plan_cuts[cut].name);
}

/* A cut in words; see plan.h. */
const char *
plan_cut_text(int cut)
{
	if (cut < 0 || cut >= PLAN_NCUTS)
		return (NULL);
	return (plan_cuts[cut].text);
}

/* Why pt's scan may misplace the tiers; see plan.h. */
const char *
plan_scan_caveat(const struct plan *pl, const struct plan_target *pt,
    const char *engine)
{
	if (!(pl->phases & ~pt->skip & PLAN_SCAN) || pt->type == TARGET_SIM ||
	    pt->params.direct || strcmp(engine, "io_uring") != 0)
		return (NULL);
	return ("buffered reads through io_uring: a read the page cache "
	    "misses may wait for a kernel worker thread, so a cache behind "
	    "it can show the store's latency and be missed or misplaced; "
	    "without --engine a --buffered scan reads by pread");
}

/*
 * The quick preset (run without a target, or --quick): about a minute,
 * every headline figure kept; pt->cuts says what it left out.
 */
static void
plan_quick(const struct cli_opts *o, struct plan_target *pt)
{
	struct scan_spec	*s = &pt->scan;
	struct limits_spec	*l = &pt->limits;
	struct writes_spec	*w = &pt->writes;
	struct sync_spec	*c = &pt->sync;

	if (!(o->set_mask & CLI_SET_MAX_WS))
		s->max_ws = 1ULL << 30;
	if (!(o->set_mask & CLI_SET_POINTS))
		s->points = 8;
	if (!(o->set_mask & CLI_SET_MAX_TIME)) {
		s->max_time_s = 2;
		l->max_time_s = 1;	/* a sweep point's least */
		l->settle_s = PLAN_QUICK_SETTLE_S;
		w->max_time_s = 1;
		c->max_time_s = 0.5;
	}
	if (!(o->set_mask & CLI_SET_MAX_IODEPTH)) {
		l->max_iodepth = PLAN_QUICK_DEPTH;
		l->deep_iodepth = PLAN_QUICK_DEEP_DEPTH;
	}
	if (!(o->set_mask & CLI_SET_SUSTAIN)) {
		l->sustain_s = 15;
		l->sustain_min_s = LIMITS_SUSTAIN_QUICK_S;
		w->sustain_s = PLAN_QUICK_SEQ_S;
		w->sustain_min_s = PLAN_QUICK_SEQ_MIN_S;
		w->seq_precision = PLAN_QUICK_SEQ_PRECISION;
		w->no_sustain = 1;
		w->no_drain = 1;
		pt->cuts |= 1U << PLAN_CUT_WRITE_SUSTAIN |
		    1U << PLAN_CUT_SEQ_WRITES;
	}
	l->size_step = PLAN_QUICK_STEP;
	l->no_acct_probe = 1;
	w->sweep_step = PLAN_QUICK_STEP;
	w->no_mixed = 1;
	pt->cuts |= 1U << PLAN_CUT_READ_SIZES | 1U << PLAN_CUT_WRITE_STEPS |
	    1U << PLAN_CUT_MIXED;
	if (!(o->set_mask & CLI_SET_BS)) {
		c->nsizes = 1;
		c->sizes[0] = PLAN_QUICK_COMMIT_BS;
		pt->cuts |= 1U << PLAN_CUT_COMMIT_SIZES;
	}
	if (o->methods == NULL) {
		c->methods = 1U << SYNC_FDATASYNC | 1U << SYNC_FSYNC;
		c->no_evidence = 1;
		pt->cuts |= 1U << PLAN_CUT_COMMIT_METHODS | 1U << PLAN_CUT_FLUSH;
	}
	if (o->writers == NULL) {
		c->nwriters = 2;
		c->writers[0] = 1;
		c->writers[1] = 16;
		c->shared_only = 1;
		pt->cuts |= 1U << PLAN_CUT_WRITERS;
	}
}

/* The commits' settings. */
static void
plan_sync(const struct cli_opts *o, const struct plan_target *pt,
    struct sync_spec *c)
{
	static const uint32_t	sizes[] = { 4096, 8192, 16384, 2300 };
	static const unsigned	writers[] = { 1, 2, 4, 8, 16 };
	char			*cause = NULL;
	size_t			 i;

	memset(c, 0, sizeof *c);
	c->methods = SYNC_ALL_METHODS;
	if (o->methods != NULL && sync_methods_parse(o->methods, &c->methods,
	    &cause) != 0)
		free(cause);	/* cli_check took it already */
	if (o->set_mask & CLI_SET_BS) {
		c->sizes[c->nsizes++] = o->bs;
		c->writers_bs = o->bs;
	} else {
		for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
			c->sizes[c->nsizes++] = sizes[i];
		c->writers_bs = SYNC_WAL_BS;
	}
	if (o->writers == NULL || sync_writers_parse(o->writers, c,
	    &cause) != 0) {
		c->nwriters = sizeof writers / sizeof writers[0];
		memcpy(c->writers, writers, sizeof writers);
	}
	if (o->set_mask & CLI_SET_PRECISION)
		c->precision = o->precision;
	if (o->set_mask & CLI_SET_MAX_TIME)
		c->max_time_s = o->max_time_s;
	c->engine = pt->type == TARGET_SIM ? "sim" : "psync";
	c->uring_engine = pt->type == TARGET_SIM ? "sim" : "io_uring";
}

/*
 * Whether run may write to spec: a simulated volume, a file that does
 * not exist yet (it creates it) or one tierprobe created before, named
 * directly (not through a symlink), unless it is on a read-only
 * filesystem (then run only reads, as of a file it did not create:
 * doc/safety.md).
 */
static int
plan_may_write(const struct plan_target *pt)
{
	struct stat	st;

	if (pt->type == TARGET_SIM)
		return (1);
	if (pt->type != TARGET_FILE)
		return (0);
	/* Never through a symlink (target.c refuses it). */
	if (lstat(pt->spec, &st) == 0 && S_ISLNK(st.st_mode))
		return (0);
	if (access(pt->spec, F_OK) != 0)
		return (1);
	if (access(pt->spec, W_OK) != 0 && errno == EROFS)
		return (0);
	return (target_is_ours(pt->spec));
}

/* Bytes of the target the phases read (a file is grown to them). */
static uint64_t
plan_need_bytes(const struct plan *pl, const struct plan_target *pt,
    const struct cli_opts *o)
{
	struct limits_spec	ls;
	uint64_t		need = 0;

	/* A device is never grown; the sweeps fit themselves to it. */
	if (pt->type == TARGET_SIM || (pt->type == TARGET_BLOCKDEV &&
	    !(o->set_mask & CLI_SET_MAX_WS)))
		return (o->ws);
	if (pl->phases & PLAN_LIMITS) {
		memset(&ls, 0, sizeof ls);
		ls.ws_bytes = o->ws ? o->ws : pt->scan.max_ws;
		ls.first_touch = o->first_touch;
		need = limits_need_bytes(&ls);
	}
	if ((pl->phases & PLAN_SCAN) && pt->scan.max_ws > need)
		need = pt->scan.max_ws;
	if ((pl->phases & ~pt->skip & PLAN_SYNC) && sync_need_bytes() > need)
		need = sync_need_bytes();
	return (need);
}

/* How to open and measure one target. */
static void
plan_target_make(const struct plan *pl, const struct cli_opts *o,
    const char *spec, int quick, struct plan_target *pt)
{
	struct scan_spec	*s = &pt->scan;
	struct limits_spec	*l = &pt->limits;
	struct target_params	*tp = &pt->params;
	uint64_t		 file_bytes;

	pt->spec = spec;
	pt->remove = quick && !o->keep;
	pt->max_ws_given = (o->set_mask & CLI_SET_MAX_WS) != 0;
	pt->type = target_classify(spec, &file_bytes);
	pt->engine = pt->type == TARGET_SIM ? "sim" : o->engine;
	/*
	 * A buffered read through io_uring that misses the page cache may
	 * wait for a worker thread, and its latency is then not the cache's:
	 * a buffered scan reads by pread unless asked otherwise.
	 */
	pt->scan_engine = pt->engine;
	if (o->buffered && pt->type != TARGET_SIM &&
	    !(o->set_mask & CLI_SET_ENGINE))
		pt->scan_engine = "psync";

	s->min_ws = o->min_ws;
	s->max_ws = o->max_ws;
	s->step = o->step;
	s->points = o->points;
	s->bs = o->bs;
	s->iodepth = o->iodepth;
	s->precision = o->precision;
	s->max_time_s = o->max_time_s;
	s->budget_s = o->budget_s;
	s->align = o->bs;

	l->ws_bytes = o->ws;
	l->bs = o->bs;
	l->max_iodepth = o->max_iodepth;
	l->sustain_s = o->sustain_s;
	l->write = o->write;
	l->precision = o->precision;
	l->max_time_s = o->max_time_s;
	l->engine = pt->engine;
	/*
	 * A device (or a simulated one) may be a restored snapshot: look
	 * for first-read cost.  A file's unread blocks are the filesystem's.
	 */
	l->first_touch = o->first_touch || pt->type != TARGET_FILE;

	plan_sync(o, pt, &pt->sync);
	if (pl->cmd == CLI_RUN && !plan_may_write(pt))
		pt->skip |= PLAN_SYNC | PLAN_WRITES;
	if (pl->cmd == CLI_SYNC)
		pt->skip |= PLAN_SCAN | PLAN_LIMITS;
	pt->writes.sustain_s = l->sustain_s > 0 ? l->sustain_s :
	    LIMITS_SUSTAIN_S;
	pt->writes.precision = o->precision;
	pt->writes.max_time_s = l->max_time_s;
	pt->writes.engine = pt->engine;
	if (quick || o->quick)
		plan_quick(o, pt);
	/* An existing file bounds the default scan; don't grow it. */
	if (!(o->set_mask & CLI_SET_MAX_WS) && file_bytes >= s->min_ws &&
	    file_bytes < s->max_ws)
		s->max_ws = file_bytes - file_bytes % o->bs;

	/* sync opens the target each method's way: O_DIRECT only for some. */
	tp->direct = !o->buffered && pl->cmd != CLI_SYNC;
	tp->write = ((pl->phases & PLAN_LIMITS) && o->write) ||
	    (pl->phases & ~pt->skip & (PLAN_SYNC | PLAN_WRITES));
	tp->force = o->force;
	tp->force_device = o->force_device;
	tp->seed = pl->seed;
	tp->fill_progress = progress_fill;
	tp->need_bytes = plan_need_bytes(pl, pt, o);
}

/* Plan a measuring command; see plan.h. */
void
plan_make(struct plan *pl, const struct cli_opts *o)
{
	size_t	i;
	int	quick = o->nargs == 0;

	memset(pl, 0, sizeof *pl);
	pl->cmd = o->cmd;
	if (o->cmd == CLI_SYNC)
		pl->phases = PLAN_SYNC;
	else {
		if (o->cmd != CLI_LIMITS)
			pl->phases |= PLAN_SCAN;
		if (o->cmd != CLI_SCAN)
			pl->phases |= PLAN_LIMITS;
		if (o->cmd == CLI_RUN)
			pl->phases |= PLAN_SYNC | PLAN_WRITES;
	}
	pl->seed = (o->set_mask & CLI_SET_SEED) ? o->seed :
	    (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	pl->repeat = o->repeat;
	pl->sustain_together_s = o->sustain_together_s;
	pl->ntargets = quick ? 1 : (size_t)o->nargs;
	pl->target = xcalloc(pl->ntargets, sizeof *pl->target);
	for (i = 0; i < pl->ntargets; i++) {
		plan_target_make(pl, o, quick ? PLAN_DEFAULT_TARGET :
		    o->args[i], quick, &pl->target[i]);
		pl->target[i].params.seed = pl->seed + i;
	}
}

/* Release what a plan owns. */
void
plan_free(struct plan *pl)
{
	free(pl->target);
	pl->target = NULL;
	pl->ntargets = 0;
}

/* Say in pt->note that the size opt asked for was cut to t's size. */
static void
plan_note(struct plan_target *pt, const char *opt, uint64_t asked,
    const struct target *t)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	size_t	len = strlen(pt->note);

	snprintf(pt->note + len, sizeof pt->note - len, "%s%s %s is more "
	    "than %s holds: %s used", len > 0 ? "; " : "", opt,
	    units_format_size(asked, a, sizeof a), t->path,
	    units_format_size(t->size - t->size % pt->scan.bs, b, sizeof b));
}

/* Fit a target's settings to it, once open. */
int
plan_fit(struct plan_target *pt, const struct target *t, char **cause)
{
	struct scan_spec	*s = &pt->scan;

	/* Commits alone: they fit themselves (sizes O_DIRECT refuses). */
	if ((pt->skip & (PLAN_SCAN | PLAN_LIMITS)) == (PLAN_SCAN | PLAN_LIMITS))
		return (0);
	if (s->bs % t->lbs != 0) {
		xasprintf(cause, "--bs %" PRIu32 ": not a multiple of %s's "
		    "logical block size (%" PRIu32 " bytes)", s->bs, t->path,
		    t->lbs);
		return (-1);
	}
	pt->note[0] = '\0';
	if (s->max_ws > t->size) {
		if (pt->max_ws_given)
			plan_note(pt, "--max-ws", s->max_ws, t);
		s->max_ws = t->size - t->size % s->bs;
	}
	if (pt->limits.ws_bytes > t->size) {
		plan_note(pt, "--ws", pt->limits.ws_bytes, t);
		pt->limits.ws_bytes = t->size - t->size % pt->limits.bs;
	}
	if (s->min_ws > s->max_ws) {
		xasprintf(cause, "%s holds only %" PRIu64 " bytes, less than "
		    "--min-ws: lower --min-ws", t->path, t->size);
		return (-1);
	}
	return (0);
}

/* The read sweeps' settings ls made the write sweeps' of pt. */
static void
plan_write_sweeps(const struct plan_target *pt, struct limits_spec *ls)
{
	ls->write = 1;
	ls->first_touch = 0;
	ls->deep_iodepth = 0;
	ls->depth_step = ls->size_step = pt->writes.sweep_step;
	ls->no_sustain = pt->writes.no_sustain;
}

/* The device time and span pt may take on t; see plan.h. */
void
plan_cost(const struct plan *pl, const struct plan_target *pt,
    const struct target *t, struct plan_cost *c)
{
	const struct scan_spec	*s = &pt->scan;
	struct writes_spec	 ws;
	uint64_t		 span;
	size_t			 n;

	memset(c, 0, sizeof *c);
	if (pl->phases & PLAN_SCAN) {
		n = s->step > 0 ? (s->max_ws - s->min_ws) / s->step + 1 :
		    s->points;
		/* A point settles for up to a quarter of its time first. */
		c->scan_s = n * s->max_time_s * 1.25;
		if (s->budget_s > 0 && s->budget_s < c->scan_s)
			c->scan_s = s->budget_s;
		c->warm_bytes = s->max_ws;
		c->span_bytes = s->max_ws;
	}
	if (pl->phases & PLAN_LIMITS) {
		c->sweeps_s = limits_max_seconds(&pt->limits);
		c->sustain_s = pt->limits.sustain_s > 0 ?
		    pt->limits.sustain_s : LIMITS_SUSTAIN_S;
		/* Past the caches, up to the whole target. */
		span = pt->limits.ws_bytes > 0 && !pt->limits.first_touch ?
		    pt->limits.ws_bytes : t->size;
		if (span > c->span_bytes)
			c->span_bytes = span;
	}
	if (pl->phases & ~pt->skip & PLAN_WRITES) {
		ws = pt->writes;
		ws.limits = pt->limits;
		plan_write_sweeps(pt, &ws.limits);
		c->writes_s = writes_max_seconds(&ws);
	}
	if (pl->phases & ~pt->skip & PLAN_SYNC)
		c->sync_s = sync_max_seconds(&pt->sync);
	/* Writes and commits stay within the target (writers' files aside). */
	if ((c->writes_s > 0 || c->sync_s > 0) && t->size > c->span_bytes)
		c->span_bytes = t->size;
}

/*
 * Working set of the limit sweeps: so large that the caches the scan
 * found serve under PLAN_HIT_SHARE of its reads, where the target holds
 * that much (and leaves the first-touch test its blocks); else all of it.
 */
static uint64_t
plan_limits_ws(const struct plan_target *pt, const struct target *t,
    const struct scan_result *scan)
{
	const struct tiers_result	*tr;
	const struct tier		*last;
	uint64_t			 ws = pt->scan.max_ws, room = t->size;

	if (pt->limits.ws_bytes != 0)
		return (pt->limits.ws_bytes);
	if (pt->limits.first_touch && room > 2 * LIMITS_FT_SPAN)
		room -= LIMITS_FT_SPAN;
	if (scan != NULL && scan->tiers.analysed && scan->tiers.ntiers > 0) {
		tr = &scan->tiers;
		last = &tr->tier[tr->ntiers - 1];
		ws = last->at_least ? room :
		    (uint64_t)(last->capacity_high_bytes / PLAN_HIT_SHARE);
	}
	if (ws > room)
		ws = room;
	return (ws - ws % pt->limits.bs);
}

/* Largest cache the scan found, in bytes; 0 if none. */
static uint64_t
plan_cache_bytes(const struct scan_result *scan)
{
	const struct tiers_result	*tr;

	if (scan == NULL || !scan->tiers.analysed || scan->tiers.ntiers == 0)
		return (0);
	tr = &scan->tiers;
	return (tr->tier[tr->ntiers - 1].capacity_high_bytes);
}

/* The limit sweeps' settings after the scan; see plan.h. */
void
plan_limits(const struct plan_target *pt, const struct target *t,
    const struct scan_result *scan, struct limits_spec *ls,
    struct ceilings_prior **prior)
{
	double	share[TIERS_MAX + 1];
	size_t	i;

	*ls = pt->limits;
	ls->ws_bytes = plan_limits_ws(pt, t, scan);
	ls->first_touch_from = scan != NULL ? pt->scan.max_ws : 0;
	ls->cache_bytes = plan_cache_bytes(scan);
	ls->cache_share = 0;
	ls->cache_lat_us = NAN;
	if (ls->cache_bytes > 0) {
		tiers_model_share(&scan->tiers, (double)ls->ws_bytes, share);
		ls->cache_share = 1 - share[scan->tiers.ntiers];
		ls->cache_lat_us =
		    scan->tiers.tier[scan->tiers.ntiers - 1].lat_us_p99;
	}
	*prior = NULL;
	if (scan != NULL && scan->npoints > 0) {
		*prior = xcalloc(scan->npoints + 1, sizeof **prior);
		for (i = 0; i < scan->npoints; i++)
			limits_prior_from_point(&scan->points[i], &(*prior)[i]);
		ls->nprior = scan->npoints;
		/* Its paced reads last: a bucket refills meanwhile. */
		if (scan->after_s > 0) {
			(*prior)[i].ios = scan->after_ios;
			(*prior)[i].seconds = scan->after_s;
			ls->nprior++;
		}
	}
	ls->prior = *prior;
}

/* What makes a plan of several targets impossible; see plan.h. */
int
plan_check(const struct plan *pl, char **cause)
{
	const struct plan_target	*a, *b;
	size_t				 i, j, n = pl->ntargets;
	unsigned			 depth;

	for (i = 0; i < n; i++) {
		a = &pl->target[i];
		for (j = i + 1; j < n; j++) {
			b = &pl->target[j];
			if (target_same(a->spec, b->spec)) {
				xasprintf(cause, "%s and %s are the same %s: "
				    "give each target once", a->spec, b->spec,
				    a->type == TARGET_BLOCKDEV ? "device" :
				    "file");
				return (-1);
			}
			if ((a->type == TARGET_SIM) != (b->type == TARGET_SIM)) {
				xasprintf(cause, "%s and %s: a simulated volume "
				    "runs in virtual time and cannot run with a "
				    "real target; measure them apart",
				    a->type == TARGET_SIM ? a->spec : b->spec,
				    a->type == TARGET_SIM ? b->spec : a->spec);
				return (-1);
			}
		}
	}
	if (n < 2 || !(pl->phases & PLAN_LIMITS))
		return (0);
	a = &pl->target[0];
	if (strcmp(a->engine, "psync") == 0) {
		xasprintf(cause, "--engine psync does one I/O at a time: it "
		    "cannot drive %zu targets together; use io_uring", n);
		return (-1);
	}
	depth = a->limits.max_iodepth;
	if ((uint64_t)depth * n > PLAN_MAX_INFLIGHT) {
		xasprintf(cause, "--max-iodepth %u with %zu targets keeps %llu "
		    "I/Os in flight together, more than the %d one process "
		    "holds: lower --max-iodepth to %zu", depth, n,
		    (unsigned long long)depth * n, PLAN_MAX_INFLIGHT,
		    PLAN_MAX_INFLIGHT / n);
		return (-1);
	}
	return (0);
}

/* The smallest swept size at which l reached its bandwidth ceiling. */
static uint32_t
plan_bw_size(const struct limits_result *l)
{
	double		top;
	uint32_t	bs = 0;
	size_t		i;

	top = isfinite(l->bandwidth_ceiling_bytes_per_s) ?
	    l->bandwidth_ceiling_bytes_per_s : l->bandwidth_max_seen;
	for (i = 0; i < l->nbs; i++) {
		if (l->bs_points[i].bytes_per_s >= PLAN_BW_REACHED * top &&
		    (bs == 0 || l->bs_points[i].bs < bs))
			bs = l->bs_points[i].bs;
	}
	return (bs);
}

/* Append the work of point p to prior. */
static void
plan_prior_add(struct ceilings_prior *prior, size_t *n, const struct point *p)
{
	if (p->ios > 0)
		limits_prior_from_point(p, &prior[(*n)++]);
}

/* The together phase's settings; see plan.h. */
void
plan_together(const struct plan *pl, struct target **t,
    const struct limits_result *const *alone,
    const struct scan_result *const *scan, uint64_t *ws,
    struct parallel_together *spec, struct ceilings_prior **prior)
{
	const struct plan_target	*pt = &pl->target[0];
	const struct limits_result	*l;
	struct parallel_spec		*io = &spec->iops, *bw = &spec->bandwidth;
	size_t				 n = pl->ntargets, i, k, np = 0;
	uint32_t			 bs, top = 0;
	unsigned			 depth;
	double				 s;

	memset(spec, 0, sizeof *spec);
	io->bs = pt->limits.bs;
	bw->bs = pt->limits.bs;
	io->iodepth = bw->iodepth = 1;
	for (i = 0; i < n; i++) {
		if ((l = alone[i]) == NULL) {
			ws[i] = t[i]->size;
			continue;
		}
		ws[i] = l->ws_bytes;
		depth = l->sustain_iodepth ? l->sustain_iodepth :
		    l->iops_max_seen_iodepth;
		if (depth > io->iodepth)
			io->iodepth = depth;
		if ((bs = plan_bw_size(l)) > bw->bs)
			bw->bs = bs;
		if (l->nbs > 0 && (top == 0 || l->bs_points[l->nbs - 1].bs < top))
			top = l->bs_points[l->nbs - 1].bs;
		if (l->bs_iodepth > bw->iodepth)
			bw->iodepth = l->bs_iodepth;
		np += l->nqd + l->nbs + 1;
		if (scan[i] != NULL)
			np += scan[i]->npoints;
	}
	/* Well past the IOPS caps, so the bandwidth run meets none. */
	bw->bs *= PLAN_BW_MARGIN;
	if (top > 0 && bw->bs > top)
		bw->bs = top;
	while (bw->iodepth > 1 &&
	    (uint64_t)bw->iodepth * n * bw->bs > PLAN_MAX_BUFFERS)
		bw->iodepth /= 2;
	io->write = bw->write = pt->limits.write;
	io->engine = bw->engine = pt->engine;
	io->ws_bytes = bw->ws_bytes = ws;

	s = pt->limits.sustain_s > 0 ? pt->limits.sustain_s : LIMITS_SUSTAIN_S;
	io->seconds = pl->sustain_together_s > 0 ? pl->sustain_together_s : s;
	io->interval_s = io->seconds >= PLAN_MIN_INTERVALS ? 1 :
	    io->seconds / PLAN_MIN_INTERVALS;
	s = pt->limits.max_time_s;
	bw->seconds = s < PLAN_BW_MIN_S ? PLAN_BW_MIN_S : s > PLAN_BW_MAX_S ?
	    PLAN_BW_MAX_S : s;
	bw->interval_s = bw->seconds / PLAN_BW_INTERVALS;

	*prior = xcalloc(np + 1, sizeof **prior);
	np = 0;
	for (i = 0; i < n; i++) {
		for (k = 0; scan[i] != NULL && k < scan[i]->npoints; k++)
			plan_prior_add(*prior, &np, &scan[i]->points[k]);
		if ((l = alone[i]) == NULL)
			continue;
		for (k = 0; k < l->nqd; k++)
			plan_prior_add(*prior, &np, &l->qd_points[k]);
		for (k = 0; k < l->nbs; k++)
			plan_prior_add(*prior, &np, &l->bs_points[k]);
		plan_prior_add(*prior, &np, &l->sustain);
	}
	spec->prior = *prior;
	spec->nprior = np;
}

/* The write side's settings after the sweeps; see plan.h. */
void
plan_writes(const struct plan_target *pt, const struct target *t,
    const struct scan_result *scan, const struct limits_result *limits,
    struct writes_spec *ws, struct ceilings_prior **prior)
{
	*ws = pt->writes;
	plan_limits(pt, t, scan, &ws->limits, prior);
	plan_write_sweeps(pt, &ws->limits);
	/* A buffer fills only with bytes it does not hold yet: all of t. */
	ws->ws_bytes = pt->limits.ws_bytes;
	if (limits != NULL)
		ws->mixed_iodepth = limits->iops_knee_iodepth;
}

/* Whether the plan writes report section (scan, limits, sync) for pt. */
int
plan_measures(const struct plan *pl, const struct plan_target *pt,
    const char *section)
{
	unsigned	phases = pl->phases & ~pt->skip;

	if (strcmp(section, "scan") == 0)
		return ((phases & PLAN_SCAN) != 0);
	if (strcmp(section, "limits") == 0)
		return ((phases & PLAN_LIMITS) != 0);
	/* Several targets are measured for reads only. */
	if (strcmp(section, "sync") == 0)
		return ((phases & PLAN_SYNC) != 0 && pl->ntargets == 1);
	return (0);
}

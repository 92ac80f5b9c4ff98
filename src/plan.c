/* SPDX-License-Identifier: ISC */
/*
 * The plan of a measuring command: options in, per target the settings of
 * each phase out.  The only place that tells targets apart by kind (a
 * simulated volume has its own engine; a device is read for first-touch
 * cost and is not grown) and that applies presets and bounds.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ceilings.h"
#include "plan.h"
#include "xmalloc.h"

/* The quick preset of 'run' without a target: about a minute here. */
static void
plan_quick(const struct cli_opts *o, struct scan_spec *s,
    struct limits_spec *l, struct sync_spec *c)
{
	if (!(o->set_mask & CLI_SET_MAX_WS))
		s->max_ws = 1ULL << 30;
	if (!(o->set_mask & CLI_SET_POINTS))
		s->points = 8;
	if (!(o->set_mask & CLI_SET_MAX_TIME))
		s->max_time_s = l->max_time_s = 2;
	if (!(o->set_mask & CLI_SET_MAX_IODEPTH))
		l->max_iodepth = 64;
	if (!(o->set_mask & CLI_SET_SUSTAIN))
		l->sustain_s = 15;
	if (!(o->set_mask & CLI_SET_MAX_TIME))
		c->max_time_s = 1;
	if (o->writers == NULL) {
		c->nwriters = 3;
		c->writers[0] = 1;
		c->writers[1] = 4;
		c->writers[2] = 16;
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
 * not exist yet (it creates it) or one tierprobe created before.
 */
static int
plan_may_write(const struct plan_target *pt)
{
	if (pt->type == TARGET_SIM)
		return (1);
	if (pt->type != TARGET_FILE)
		return (0);
	return (access(pt->spec, F_OK) != 0 || target_is_ours(pt->spec));
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
	pt->type = target_classify(spec, &file_bytes);
	pt->engine = pt->type == TARGET_SIM ? "sim" : o->engine;

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
	/* A device may be a restored snapshot: look for first-read cost. */
	l->first_touch = o->first_touch || pt->type == TARGET_BLOCKDEV;

	plan_sync(o, pt, &pt->sync);
	if (pl->cmd == CLI_RUN && !plan_may_write(pt))
		pt->skip |= PLAN_SYNC | PLAN_WRITES;
	if (pl->cmd == CLI_SYNC)
		pt->skip |= PLAN_SCAN | PLAN_LIMITS;
	if (quick)
		plan_quick(o, s, l, &pt->sync);
	/* An existing file bounds the default scan; don't grow it. */
	if (!(o->set_mask & CLI_SET_MAX_WS) && file_bytes >= s->min_ws &&
	    file_bytes < s->max_ws)
		s->max_ws = file_bytes - file_bytes % o->bs;

	/* sync opens the target each method's way: O_DIRECT only for some. */
	tp->direct = !o->buffered && pl->cmd != CLI_SYNC;
	tp->write = ((pl->phases & PLAN_LIMITS) && o->write) ||
	    (pl->phases & ~pt->skip & (PLAN_SYNC | PLAN_WRITES));
	pt->writes.sustain_s = l->sustain_s > 0 ? l->sustain_s :
	    LIMITS_SUSTAIN_S;
	pt->writes.precision = o->precision;
	pt->writes.max_time_s = l->max_time_s;
	pt->writes.engine = pt->engine;
	tp->force = o->force;
	tp->force_device = o->force_device;
	tp->seed = pl->seed;
	tp->quiet = o->quiet;
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
	pl->ntargets = quick ? 1 : (size_t)o->nargs;
	pl->target = xcalloc(pl->ntargets, sizeof *pl->target);
	for (i = 0; i < pl->ntargets; i++)
		plan_target_make(pl, o, quick ? PLAN_DEFAULT_TARGET :
		    o->args[i], quick, &pl->target[i]);
}

/* Release what a plan owns. */
void
plan_free(struct plan *pl)
{
	free(pl->target);
	pl->target = NULL;
	pl->ntargets = 0;
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
	if (s->max_ws > t->size)
		s->max_ws = t->size - t->size % s->bs;
	if (s->min_ws > s->max_ws) {
		xasprintf(cause, "%s holds only %" PRIu64 " bytes, less than "
		    "--min-ws: lower --min-ws", t->path, t->size);
		return (-1);
	}
	return (0);
}

/* Working set of the limit sweeps: past the last cache the scan found. */
static uint64_t
plan_limits_ws(const struct plan_target *pt, const struct target *t,
    const struct scan_result *scan)
{
	const struct tiers_result	*tr;
	uint64_t			 ws = pt->scan.max_ws;

	if (pt->limits.ws_bytes != 0)
		return (pt->limits.ws_bytes);
	if (scan != NULL && scan->tiers.analysed && scan->tiers.ntiers > 0) {
		tr = &scan->tiers;
		if (!tr->tier[tr->ntiers - 1].at_least)
			ws = 4 * tr->tier[tr->ntiers - 1].capacity_high_bytes;
	}
	if (ws > t->size)
		ws = t->size;
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
	size_t	i;

	*ls = pt->limits;
	ls->ws_bytes = plan_limits_ws(pt, t, scan);
	ls->first_touch_from = scan != NULL ? pt->scan.max_ws : 0;
	ls->cache_bytes = plan_cache_bytes(scan);
	*prior = NULL;
	if (scan != NULL && scan->npoints > 0) {
		*prior = xcalloc(scan->npoints, sizeof **prior);
		for (i = 0; i < scan->npoints; i++)
			limits_prior_from_point(&scan->points[i], &(*prior)[i]);
		ls->nprior = scan->npoints;
	}
	ls->prior = *prior;
}

/* The write side's settings after the sweeps; see plan.h. */
void
plan_writes(const struct plan_target *pt, const struct target *t,
    const struct scan_result *scan, const struct limits_result *limits,
    struct writes_spec *ws, struct ceilings_prior **prior)
{
	*ws = pt->writes;
	plan_limits(pt, t, scan, &ws->limits, prior);
	ws->limits.write = 1;
	ws->limits.first_touch = 0;
	/* A buffer fills only with bytes it does not hold yet: all of t. */
	ws->ws_bytes = pt->limits.ws_bytes;
	if (limits != NULL)
		ws->mixed_iodepth = limits->iops_knee_iodepth;
}

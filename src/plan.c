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

/* The quick preset (run without a target, or --quick): about a minute. */
static void
plan_quick(const struct cli_opts *o, struct scan_spec *s,
    struct limits_spec *l)
{
	if (!(o->set_mask & CLI_SET_MAX_WS))
		s->max_ws = 1ULL << 30;
	if (!(o->set_mask & CLI_SET_POINTS))
		s->points = 8;
	if (!(o->set_mask & CLI_SET_MAX_TIME))
		s->max_time_s = l->max_time_s = 2;
	if (!(o->set_mask & CLI_SET_MAX_IODEPTH))
		l->max_iodepth = 64;
	if (!(o->set_mask & CLI_SET_SUSTAIN)) {
		l->sustain_s = 15;
		l->sustain_min_s = LIMITS_SUSTAIN_QUICK_S;
	}
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
	return (need);
}

/* How to open and measure one target. */
static void
plan_target_make(const struct plan *pl, const struct cli_opts *o,
    const char *spec, int dflt, struct plan_target *pt)
{
	struct scan_spec	*s = &pt->scan;
	struct limits_spec	*l = &pt->limits;
	struct target_params	*tp = &pt->params;
	uint64_t		 file_bytes;

	pt->spec = spec;
	pt->remove = dflt && !o->keep;
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

	if (dflt || o->quick)
		plan_quick(o, s, l);
	/* An existing file bounds the default scan; don't grow it. */
	if (!(o->set_mask & CLI_SET_MAX_WS) && file_bytes >= s->min_ws &&
	    file_bytes < s->max_ws)
		s->max_ws = file_bytes - file_bytes % o->bs;

	tp->direct = !o->buffered;
	tp->write = (pl->phases & PLAN_LIMITS) && o->write;
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
	int	dflt = o->nargs == 0;

	memset(pl, 0, sizeof *pl);
	pl->cmd = o->cmd;
	if (o->cmd != CLI_LIMITS)
		pl->phases |= PLAN_SCAN;
	if (o->cmd != CLI_SCAN)
		pl->phases |= PLAN_LIMITS;
	pl->seed = (o->set_mask & CLI_SET_SEED) ? o->seed :
	    (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	pl->repeat = o->repeat;
	pl->ntargets = dflt ? 1 : (size_t)o->nargs;
	pl->target = xcalloc(pl->ntargets, sizeof *pl->target);
	for (i = 0; i < pl->ntargets; i++)
		plan_target_make(pl, o, dflt ? PLAN_DEFAULT_TARGET :
		    o->args[i], dflt, &pl->target[i]);
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

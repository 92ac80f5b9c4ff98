/* SPDX-License-Identifier: ISC */
/*
 * The working-set scan: one point per working-set size, smallest first, so
 * each point's sequential warm-up only reads what the previous one did not.
 * A log grid is adaptive: each point stops once its hit fractions pin the
 * capacities found so far, and points the analysis asks for ahead of the
 * current size join the queue (tiers_point_enough, tiers_next_points).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hist.h"
#include "progress.h"
#include "sampler.h"
#include "scan.h"
#include "service.h"
#include "xmalloc.h"

/* Enough I/Os per point for a p99 that means something. */
#define SCAN_MIN_IOS	2000
/* Adaptive: reads of a point's first look, and of the smallest top-up. */
#define SCAN_FIRST_IOS	400
/*
 * Adaptive: reads after which a point no class judges may stop on its
 * mean log latency, when stalled reads hold its mean back.
 */
#define SCAN_LOG_IOS	(32 * SCAN_FIRST_IOS)
/* Adaptive: points the planner may add, and asks for at a time. */
#define SCAN_MAX_ADDED	32
#define SCAN_PLAN	8
/* Adaptive: queued sizes this close to each other are one. */
#define SCAN_NEAR	0.03
/* Adaptive: sizes measured behind the front at the analysis' request. */
#define SCAN_MAX_AGAIN	4
/*
 * Adaptive: where the reads of a point differ from those of the points
 * below (by SCAN_CHANGE of their cumulative fractions at least, and by more
 * than chance: SCAN_KS_5PC is Kolmogorov-Smirnov's 5% coefficient), the
 * next point is at most SCAN_DENSE times as large: the ratio of the
 * default grid (16 points over 256x, 1.447), which it leaves as it is.
 */
#define SCAN_CHANGE	0.02
#define SCAN_KS_5PC	1.36
#define SCAN_DENSE	1.45
/*
 * Adaptive: the largest point's final top-up aims at intervals of +-4%,
 * so that capacities and the backing store's p50 land within +-5% of the
 * truth on nearly every run, and may take this many times --max-time (or
 * what --budget leaves).
 */
#define SCAN_FINISH_REL		0.04
#define SCAN_FINISH_FACTOR	3

static uint64_t
scan_round(double v, uint32_t align)
{
	uint64_t	x = (uint64_t)llround(v / align) * align;

	return (x < align ? align : x);
}

/*
 * The grid of working-set sizes of spec, ascending, each a multiple of
 * spec->align.  Returns the count; *ws is allocated (caller frees).
 */
static size_t
scan_grid(const struct scan_spec *sp, uint64_t **out)
{
	uint64_t	*ws, v;
	size_t		 n = 0, cap, i;
	double		 ratio;

	if (sp->step > 0) {
		cap = (sp->max_ws - sp->min_ws) / sp->step + 1;
		ws = xcalloc(cap, sizeof(*ws));
		for (v = sp->min_ws; v <= sp->max_ws && n < cap; v += sp->step)
			ws[n++] = scan_round((double)v, sp->align);
	} else {
		cap = sp->points > 1 ? sp->points : 1;
		ws = xcalloc(cap, sizeof(*ws));
		ratio = cap > 1 ? pow((double)sp->max_ws / sp->min_ws,
		    1.0 / (cap - 1)) : 1;
		for (i = 0; i < cap; i++) {
			v = scan_round(sp->min_ws * pow(ratio, (double)i),
			    sp->align);
			if (i == cap - 1)
				v = scan_round((double)sp->max_ws, sp->align);
			if (n == 0 || v > ws[n - 1])
				ws[n++] = v;
		}
	}
	*out = ws;
	return (n);
}

/* Device time left in the budget; INFINITY without one. */
static double
scan_budget_left(const struct scan_spec *sp, const struct scan_result *res)
{
	if (sp->budget_s <= 0)
		return (INFINITY);
	return (sp->budget_s - res->device_time_s);
}

/*
 * The whole of the next point, warm-ups included, within what is left of
 * the budget (sample_spec.total_time_s); 0 without one.
 */
static double
scan_budget_total(const struct scan_spec *sp, const struct scan_result *res)
{
	if (sp->budget_s <= 0)
		return (0);
	return (fmax(scan_budget_left(sp, res), 1e-9));
}

/* A working set and the spec whose on_point hears of it. */
struct scan_at {
	const struct scan_spec	*sp;
	uint64_t		 ws;
};

/* The measuring of a working set begins: tell the spec's on_point. */
static void
scan_point_begins(void *arg)
{
	const struct scan_at	*at = arg;

	at->sp->on_point(at->sp->on_point_arg, at->ws, NULL);
}

/* Measure the working set ws and append it to the result. */
static int
scan_measure(struct engine *e, struct rng *r, const struct scan_spec *sp,
    uint64_t ws, uint64_t *touched, struct scan_result *res)
{
	struct sample_spec	 ss;
	struct point		 pt;
	struct scan_at		 at = { sp, ws };
	int			 ret;

	memset(&ss, 0, sizeof(ss));
	if (sp->on_point != NULL) {
		ss.on_measure = scan_point_begins;
		ss.on_measure_arg = &at;
	}
	ss.ws_bytes = ws;
	/* Warm what earlier points did not read; all of it when shrinking. */
	ss.warm_from = ws > *touched ? *touched : 0;
	ss.warm_random = 1;
	ss.bs = sp->bs;
	ss.iodepth = sp->iodepth;
	ss.precision = sp->precision;
	ss.max_time_s = sp->max_time_s;
	ss.total_time_s = scan_budget_total(sp, res);
	ss.min_ios = SCAN_MIN_IOS;
	ret = sampler_measure(e, r, &ss, &pt, NULL, progress_update, NULL);
	if (sp->on_point != NULL)
		sp->on_point(sp->on_point_arg, ws, &pt);
	if (ws > *touched)
		*touched = ws;
	res->device_time_s += pt.seconds + pt.warm_seconds;
	if (pt.ios > 0) {
		res->points = xreallocarray(res->points, res->npoints + 1,
		    sizeof(*res->points));
		res->points[res->npoints++] = pt;
		progress_point_done(&pt);
	} else
		point_free(&pt);
	return (ret);
}

/* Fit the tiers to every point so far. */
static void
scan_analyse(struct scan_result *res)
{
	tiers_analyse(res->points, res->npoints, &res->tiers);
	res->analyses++;
}

/* Fold the reads of a top-up measurement into the point. */
static void
scan_merge(struct point *pt, const struct point *more)
{
	uint64_t	n = pt->ios + more->ios;

	hist_merge(pt->hist, more->hist);
	if (n > 0 && isfinite(more->ci95_rel))
		pt->ci95_rel = more->ci95_rel * sqrt((double)more->ios / n);
	pt->ios = n;
	pt->seconds += more->seconds;
	pt->warm_seconds += more->warm_seconds;
	pt->iops = pt->seconds > 0 ? pt->ios / pt->seconds : 0;
	pt->bytes_per_s = pt->iops * pt->bs;
	point_summarise(pt);
}

/*
 * Measure pt's working set again for up to left seconds (at least as many
 * reads as it has) and fold the reads into it.
 */
static int
scan_top_up(struct engine *e, struct rng *r, struct sample_spec *ss,
    struct point *pt, double left, struct scan_result *res)
{
	struct point	more;
	int		ret;

	ss->min_ios = pt->ios;
	ss->max_time_s = left;	/* nothing to warm: all of it measures */
	ss->total_time_s = 0;
	ss->lat_hint_s = pt->lat_us.mean / 1e6;
	ret = sampler_measure(e, r, ss, &more, NULL, progress_update, NULL);
	res->device_time_s += more.seconds + more.warm_seconds;
	if (more.ios > 0)
		scan_merge(pt, &more);
	point_free(&more);
	return (ret);
}

/*
 * Adaptive point: a first look of SCAN_FIRST_IOS reads, then top-ups
 * (doubling the reads, no warm-up) while the analysis of everything so far
 * with that first look says this point's class shares and hit fractions
 * are not pinned yet, or, when it has no class to judge by, while the mean
 * latency is not known to the precision asked (after SCAN_LOG_IOS reads,
 * or the mean log latency: a page-cache hit preempted for a few
 * milliseconds one read in 2,000 held the mean of five points back to
 * their 10 s limit); within the point's time limit and the budget.  The
 * point is appended to res; res->tiers stays the analysis with its first
 * look (the planner's: the next point's first look brings this one's
 * top-ups in), one fit a point; *stale says whether reads were added after
 * the last fit.
 */
static int
scan_adaptive_point(struct engine *e, struct rng *r,
    const struct scan_spec *sp, uint64_t ws, uint64_t *touched,
    struct scan_result *res, int *stale)
{
	struct sample_spec	 ss;
	struct point		*pt, more;
	struct scan_at		 at = { sp, ws };
	double			 left;
	size_t			 n0 = res->npoints;
	int			 ret, enough;

	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = ws;
	ss.warm_from = ws > *touched ? *touched : 0;
	ss.warm_random = 1;
	ss.bs = sp->bs;
	ss.iodepth = sp->iodepth;
	ss.precision = HUGE_VAL;	/* stop at min_ios */
	ss.max_time_s = fmin(sp->max_time_s, scan_budget_left(sp, res));
	ss.total_time_s = scan_budget_total(sp, res);
	ss.min_ios = SCAN_FIRST_IOS;
	if (sp->on_point != NULL) {
		ss.on_measure = scan_point_begins;
		ss.on_measure_arg = &at;
	}
	ret = sampler_measure(e, r, &ss, &more, NULL, progress_update, NULL);
	ss.on_measure = NULL;		/* the top-ups are the same point */
	if (ws > *touched)
		*touched = ws;
	res->device_time_s += more.seconds + more.warm_seconds;
	if (more.ios == 0) {
		if (sp->on_point != NULL)
			sp->on_point(sp->on_point_arg, ws, &more);
		point_free(&more);
		return (ret);
	}
	res->points = xreallocarray(res->points, res->npoints + 1,
	    sizeof(*res->points));
	res->points[res->npoints++] = more;
	pt = &res->points[n0];

	scan_analyse(res);
	*stale = 0;
	while (ret == 0) {
		enough = tiers_point_enough(&res->tiers, ws, pt->hist,
		    TIERS_TARGET_REL);
		left = fmin(sp->max_time_s - pt->seconds,
		    scan_budget_left(sp, res));
		if (enough < 0)
			enough = pt->ci95_rel <= sp->precision ||
			    (pt->ios >= SCAN_LOG_IOS &&
			    hist_log_ci95(pt->hist) <= sp->precision);
		if (enough || left <= pt->lat_us.mean / 1e6)
			break;
		ss.warm_from = ws;	/* nothing to warm, nor to settle */
		ss.warm_random = 0;
		ret = scan_top_up(e, r, &ss, pt, left, res);
		*stale = 1;
	}
	if (sp->on_point != NULL)
		sp->on_point(sp->on_point_arg, ws, pt);
	progress_point_done(pt);
	return (ret);
}

/*
 * While a capacity's interval, or the backing store's p50's, is wider than
 * SCAN_FINISH_REL, add reads to the largest point: every cache's fraction
 * shows there, it holds the most reads of the slowest modes, and it is the
 * one point whose caches are still in the state it left them in.  Bounded
 * by the budget when there is one, else by SCAN_FINISH_FACTOR times the
 * point's time limit.
 */
static int
scan_adaptive_finish(struct engine *e, struct rng *r,
    const struct scan_spec *sp, struct scan_result *res, uint64_t touched)
{
	struct sample_spec	 ss;
	struct point		*pt = NULL;
	double			 left;
	size_t			 i;
	int			 ret = 0;

	for (i = 0; i < res->npoints; i++)
		if (res->points[i].ws_bytes == touched)
			pt = &res->points[i];
	if (pt == NULL)
		return (0);
	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = pt->ws_bytes;
	ss.warm_from = pt->ws_bytes;
	ss.bs = sp->bs;
	ss.iodepth = sp->iodepth;
	ss.precision = HUGE_VAL;
	while (ret == 0 && res->tiers.fitted &&
	    (!tiers_pinned(&res->tiers, SCAN_FINISH_REL) ||
	    !tiers_backing_pinned(&res->tiers, SCAN_FINISH_REL))) {
		left = sp->budget_s > 0 ? scan_budget_left(sp, res) :
		    SCAN_FINISH_FACTOR * sp->max_time_s - pt->seconds;
		if (left <= pt->lat_us.mean / 1e6)
			break;
		ret = scan_top_up(e, r, &ss, pt, left, res);
		scan_analyse(res);
	}
	return (ret);
}

/*
 * Sort the points by ws, keeping the order they were measured in where
 * two share one (the analysis takes the later as measured again).
 */
static void
scan_sort(struct scan_result *res)
{
	struct point	pt;
	size_t		i, j;

	for (i = 1; i < res->npoints; i++) {
		pt = res->points[i];
		for (j = i; j > 0 && res->points[j - 1].ws_bytes > pt.ws_bytes;
		    j--)
			res->points[j] = res->points[j - 1];
		res->points[j] = pt;
	}
}

/*
 * Measure the sizes the analysis asks for behind the scan's front
 * (tiers_result.again_ws): a working set measured again, whose classes'
 * shares tell a drift of latency with the clock from a cache, or one
 * between two capacities, where a cache behind another serves its own
 * hits; each warmed from the start, as its caches no longer hold it, then
 * the tiers fitted again.  Once each, SCAN_MAX_AGAIN at most, within the
 * budget.  *last is the size the caches were left holding.
 */
static int
scan_again(struct engine *e, struct rng *r, const struct scan_spec *sp,
    struct scan_result *res, uint64_t touched, uint64_t *last)
{
	uint64_t	done[SCAN_MAX_AGAIN], ws;
	size_t		ndone = 0, i, k;
	int		ret = 0, stale;

	while (ret == 0 && ndone < SCAN_MAX_AGAIN && res->tiers.fitted &&
	    scan_budget_left(sp, res) > 0) {
		for (ws = 0, i = 0; i < res->tiers.nagain && ws == 0; i++) {
			ws = scan_round((double)res->tiers.again_ws[i],
			    sp->align);
			if (ws < sp->min_ws || ws > sp->max_ws)
				ws = 0;
			for (k = 0; k < ndone; k++)
				if (fabs((double)done[k] - ws) <=
				    SCAN_NEAR * ws)
					ws = 0;
		}
		if (ws == 0)
			break;
		done[ndone++] = ws;
		ret = scan_adaptive_point(e, r, sp, ws, &touched, res, &stale);
		*last = ws;
		scan_sort(res);
		scan_analyse(res);
	}
	return (ret);
}

/*
 * Insert v into the queue in order from next on, unless a queued size is
 * within SCAN_NEAR of it.
 */
static void
scan_queue_add(uint64_t v, uint64_t **queue, size_t *nq, size_t next,
    size_t *added)
{
	size_t	q;

	for (q = next; q < *nq; q++)
		if (fabs((double)(*queue)[q] - v) <= SCAN_NEAR * (double)v)
			return;
	for (q = next; q < *nq && (*queue)[q] < v; q++)
		;
	*queue = xreallocarray(*queue, *nq + 1, sizeof(**queue));
	memmove(*queue + q + 1, *queue + q, (*nq - q) * sizeof(**queue));
	(*queue)[q] = v;
	(*nq)++;
	(*added)++;
}

/*
 * Queue the planner's sizes that lie ahead of ws (behind it, the caches
 * would need warming again), unless one is queued already.
 */
static void
scan_queue_plan(const struct scan_spec *sp, struct scan_result *res,
    uint64_t ws, uint64_t **queue, size_t *nq, size_t next, size_t *added)
{
	uint64_t	plan[SCAN_PLAN];
	size_t		k, j;

	k = tiers_next_points(res->points, res->npoints, &res->tiers,
	    sp->min_ws, sp->max_ws, sp->align, plan, SCAN_PLAN);
	for (j = 0; j < k && *added < SCAN_MAX_ADDED; j++)
		if (plan[j] > ws)
			scan_queue_add(plan[j], queue, nq, next, added);
}

/*
 * Where the reads at ws differ from those of all the points below it
 * beyond chance (Kolmogorov-Smirnov at 5%, and by SCAN_CHANGE at least),
 * the shares of the classes of reads are changing: queue a size at most
 * SCAN_DENSE times ws, splitting the gap to the next queued one evenly, so
 * that a coarse grid leaves enough points to tell the classes apart where
 * they change (a second cache merged into the store, a false class).
 */
static void
scan_densify(const struct scan_spec *sp, struct scan_result *res,
    uint64_t ws, uint64_t **queue, size_t *nq, size_t next, size_t *added)
{
	const struct point	*at = NULL, *p;
	struct hist		*below;
	double			 n0, n1, gap, steps, d;
	size_t			 i;

	if (next >= *nq || *added >= SCAN_MAX_ADDED)
		return;
	below = xmalloc(sizeof(*below));
	hist_init(below);
	for (i = 0; i < res->npoints; i++) {
		p = &res->points[i];
		if (p->hist == NULL)
			continue;
		if (p->ws_bytes == ws)
			at = p;
		else if (p->ws_bytes < ws)
			hist_merge(below, p->hist);
	}
	n0 = (double)below->count;
	d = at == NULL ? 0 : hist_distance(at->hist, below);
	n1 = at == NULL ? 0 : (double)at->hist->count;
	free(below);
	if (!(n0 > 0 && n1 > 0) || d <= fmax(SCAN_CHANGE,
	    SCAN_KS_5PC * sqrt((n0 + n1) / (n0 * n1))))
		return;
	gap = (double)(*queue)[next] / ws;
	steps = ceil(log(gap) / log(SCAN_DENSE));
	if (steps > 1)
		scan_queue_add(scan_round(ws * pow(gap, 1 / steps), sp->align),
		    queue, nq, next, added);
}

/*
 * Read each store again, one read at a time and paced below the rate its
 * point ran at (service_plan): a first look, then, if a rate cap holds a
 * store it reads (service_held), the rest; and give the stores a cap
 * holds their own latency (service_apply).  Largest point first: the
 * caches still hold what the scan's largest point left in them, and the
 * smaller points are warmed from the start.  Bounded by the points' time
 * limit and the budget.
 */
static int
scan_service(struct engine *e, struct rng *r, const struct scan_spec *sp,
    struct scan_result *res, uint64_t touched)
{
	struct service_plan	 plan;
	struct sample_spec	 ss;
	struct point		 probe[SERVICE_STORES], more;
	const struct point	*probed[SERVICE_STORES];
	uint64_t		 t0 = e->ops->now_ns(e);
	size_t			 k, i;
	int			 ret = 0;

	service_plan(res->points, res->npoints, &res->tiers, &plan);
	for (i = plan.nprobes; i > 0; i--) {
		k = i - 1;
		probed[k] = NULL;
		if (ret != 0 || scan_budget_left(sp, res) <= 0)
			continue;
		engine_idle(e, (uint64_t)(SERVICE_REST_S * 1e9));
		memset(&ss, 0, sizeof(ss));
		ss.ws_bytes = plan.probe[k].ws_bytes;
		ss.warm_from = ss.ws_bytes == touched ? touched : 0;
		ss.warm_random = ss.ws_bytes != touched;
		ss.bs = sp->bs;
		ss.iodepth = 1;
		ss.precision = HUGE_VAL;
		ss.min_ios = plan.probe[k].first_ios;
		ss.max_time_s = fmin(sp->max_time_s, scan_budget_left(sp, res));
		ss.total_time_s = scan_budget_total(sp, res);
		ss.min_time_s = fmin(SERVICE_MIN_S, ss.max_time_s);
		ss.pace_iops = plan.probe[k].pace_iops;
		ret = sampler_measure(e, r, &ss, &probe[k], NULL, NULL, NULL);
		touched = ss.ws_bytes;
		res->device_time_s += probe[k].seconds + probe[k].warm_seconds;
		res->after_ios += probe[k].ios + probe[k].iops *
		    probe[k].warm_seconds;
		probed[k] = &probe[k];
		if (ret != 0 || probe[k].ios >= plan.probe[k].min_ios ||
		    !service_held(&plan, res->points, k, &probe[k]))
			continue;
		ss.warm_from = ss.ws_bytes;
		ss.warm_random = 0;
		ss.min_ios = plan.probe[k].min_ios - probe[k].ios;
		ss.max_time_s = fmin(sp->max_time_s - probe[k].seconds,
		    scan_budget_left(sp, res));
		ss.total_time_s = scan_budget_total(sp, res);
		if (ss.max_time_s <= 0)
			continue;
		ret = sampler_measure(e, r, &ss, &more, NULL, NULL, NULL);
		res->device_time_s += more.seconds + more.warm_seconds;
		res->after_ios += more.ios + more.iops * more.warm_seconds;
		if (more.ios > 0)
			scan_merge(&probe[k], &more);
		point_free(&more);
	}
	res->after_s = (double)(e->ops->now_ns(e) - t0) / 1e9;
	if (ret == 0)
		service_apply(&plan, res->points, probed, &res->tiers);
	for (k = 0; k < plan.nprobes; k++)
		if (probed[k] != NULL)
			point_free(&probe[k]);
	return (ret);
}

/* Run the scan; see scan.h. */
int
scan_run(struct engine *e, struct rng *r, const struct scan_spec *sp,
    struct scan_result *res)
{
	struct point	 next;
	uint64_t	*ws, touched = 0, last;
	size_t		 n, i, added = 0;
	int		 ret = 0, stale = 0;

	memset(res, 0, sizeof(*res));
	tiers_result_init(&res->tiers);
	n = scan_grid(sp, &ws);
	progress_phase("scan", n, PROGRESS_WS);
	for (i = 0; i < n && ret == 0; i++) {
		if (sp->budget_s > 0 && res->device_time_s >= sp->budget_s)
			break;
		memset(&next, 0, sizeof(next));
		next.ws_bytes = ws[i];
		next.bs = sp->bs;
		next.iodepth = sp->iodepth;
		progress_point_start(i, &next);
		if (sp->step > 0) {
			ret = scan_measure(e, r, sp, ws[i], &touched, res);
			continue;
		}
		ret = scan_adaptive_point(e, r, sp, ws[i], &touched, res,
		    &stale);
		if (ret == 0 && res->tiers.fitted)
			scan_queue_plan(sp, res, ws[i], &ws, &n, i + 1, &added);
		if (ret == 0)
			scan_densify(sp, res, ws[i], &ws, &n, i + 1, &added);
		progress_set_total(n);
	}
	free(ws);
	last = touched;
	if (ret == 0 && sp->step == 0) {
		if (stale)
			scan_analyse(res);
		stale = 0;
		ret = scan_adaptive_finish(e, r, sp, res, touched);
		if (ret == 0)
			ret = scan_again(e, r, sp, res, touched, &last);
	}
	progress_end();
	/* Fitted already, unless a linear grid or a stop left it behind. */
	for (i = 1; i < res->npoints; i++)
		if (res->points[i].ws_bytes < res->points[i - 1].ws_bytes)
			stale = 1;
	scan_sort(res);
	if (res->npoints > 0 && (stale || sp->step > 0))
		scan_analyse(res);
	if (ret == 0)
		ret = scan_service(e, r, sp, res, last);
	res->interrupted = ret == 1;
	return (ret);
}

/* Free what a scan result owns; the struct stays. */
void
scan_result_free(struct scan_result *res)
{
	size_t	i;

	if (res == NULL)
		return;
	for (i = 0; i < res->npoints; i++)
		point_free(&res->points[i]);
	free(res->points);
	tiers_result_free(&res->tiers);
	memset(res, 0, sizeof(*res));
}

/* SPDX-License-Identifier: ISC */
/*
 * The working-set scan: one point per working-set size, smallest first, so
 * each point's sequential warm-up only reads what the previous one did not.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "progress.h"
#include "scan.h"
#include "xmalloc.h"

/* Enough I/Os per point for a p99 that means something. */
#define SCAN_MIN_IOS	2000

static uint64_t
scan_round(double v, uint32_t align)
{
	uint64_t	x = (uint64_t)llround(v / align) * align;

	return (x < align ? align : x);
}

/* The grid of working-set sizes; see scan.h. */
size_t
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

/* Measure the working set ws and append it to the result. */
static int
scan_measure(struct engine *e, struct rng *r, const struct scan_spec *sp,
    uint64_t ws, uint64_t *touched, struct scan_result *res)
{
	struct sample_spec	 ss;
	struct point		 pt;
	int			 ret;

	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = ws;
	/* Warm what earlier points did not read; all of it when shrinking. */
	ss.warm_from = ws > *touched ? *touched : 0;
	ss.warm_random = 1;
	ss.bs = sp->bs;
	ss.iodepth = sp->iodepth;
	ss.precision = sp->precision;
	ss.max_time_s = sp->max_time_s;
	ss.min_ios = SCAN_MIN_IOS;
	ret = sampler_measure(e, r, &ss, &pt, NULL, progress_update, NULL);
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

static int
scan_cmp_ws(const void *a, const void *b)
{
	const struct point	*pa = a, *pb = b;

	return ((pa->ws_bytes > pb->ws_bytes) - (pa->ws_bytes < pb->ws_bytes));
}

/* Run the scan; see scan.h. */
int
scan_run(struct engine *e, struct rng *r, const struct scan_spec *sp,
    struct scan_result *res)
{
	struct point	 next;
	uint64_t	*ws, touched = 0;
	size_t		 n, i;
	int		 ret = 0;

	memset(res, 0, sizeof(*res));
	n = scan_grid(sp, &ws);
	progress_phase("scan", n);
	for (i = 0; i < n && ret == 0; i++) {
		if (sp->budget_s > 0 && res->device_time_s >= sp->budget_s)
			break;
		memset(&next, 0, sizeof(next));
		next.ws_bytes = ws[i];
		next.bs = sp->bs;
		next.iodepth = sp->iodepth;
		progress_point_start(i, &next);
		ret = scan_measure(e, r, sp, ws[i], &touched, res);
	}
	free(ws);
	progress_end();
	qsort(res->points, res->npoints, sizeof(*res->points), scan_cmp_ws);
	res->interrupted = ret == 1;
	if (res->npoints > 0)
		tiers_analyse(res->points, res->npoints, &res->tiers);
	return (ret);
}

/* Free what a scan result owns. */
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

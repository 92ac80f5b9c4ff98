/* SPDX-License-Identifier: ISC */
/*
 * What every renderer shares: freeing a report, its headline figures and
 * their spread over repeated runs, aligned tables, the time stamp.
 */
#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bucket.h"
#include "check.h"
#include "figures.h"
#include "report.h"
#include "standing.h"
#include "stats.h"
#include "units.h"
#include "voltype.h"
#include "writepath.h"
#include "xmalloc.h"

#define REPORT_TREND_REL	0.25	/* a trend moves a figure this much */
#define REPORT_STEP_REL		0.05	/* a step of unknown noise counts */

/*
 * Release what a report owns: path, repeat, expectations, the reports of
 * several targets, and its sections (scan, limits, sync, writes,
 * together), heap objects the report took over (freed by their modules).
 */
void
report_free(struct report *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntargets; i++)
		report_free(&r->targets[i]);
	free(r->targets);
	r->targets = NULL;
	r->ntargets = 0;
	together_result_free(r->together);
	free(r->together);
	r->together = NULL;
	scan_result_free(r->scan);
	free(r->scan);
	r->scan = NULL;
	limits_result_free(r->limits);
	free(r->limits);
	r->limits = NULL;
	sync_result_free(r->sync);
	free(r->sync);
	r->sync = NULL;
	writes_result_free(r->writes);
	free(r->writes);
	r->writes = NULL;
	free(r->repeat);
	r->repeat = NULL;
	check_list_free(r->checks);
	r->checks = NULL;
	voltype_judgement_free(r->voltypes);
	free(r->voltypes);
	r->voltypes = NULL;
	ebsstats_run_free(r->ebs);
	free(r->ebs);
	r->ebs = NULL;
	free(r->target.path);
	r->target.path = NULL;
	free(r->fault);
	r->fault = NULL;
}

/* The word of a fault's reason; see report.h. */
const char *
report_fault_word(int reason)
{
	static const char *const words[] = { "io-error", "no-space",
	    "engine", "error" };

	if (reason < 0 || reason > REPORT_FAULT_OTHER)
		return (NULL);
	return (words[reason]);
}

/* Whether a file can be written at path once the run is over; see report.h. */
int
report_output_check(const char *opt, const char *path, int replace,
    char **cause)
{
	struct stat	 st;
	char		*copy, *dir, *tmp;
	int		 fd, exists;

	exists = stat(path, &st) == 0;
	if (!exists && errno != ENOENT) {
		xasprintf(cause, "%s %s: %s", opt, path, strerror(errno));
		return (-1);
	}
	if (exists && S_ISDIR(st.st_mode)) {
		xasprintf(cause, "%s %s: is a directory; give a file name",
		    opt, path);
		return (-1);
	}
	if (exists && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))) {
		xasprintf(cause, "%s %s: is a device node; give the path of a "
		    "file to create or replace", opt, path);
		return (-1);
	}
	if (exists && replace && !S_ISREG(st.st_mode)) {
		xasprintf(cause, "%s %s: not a regular file; give the path of "
		    "a file to create or replace", opt, path);
		return (-1);
	}
	copy = xstrdup(path);
	dir = dirname(copy);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		xasprintf(cause, "%s %s: directory %s does not exist", opt,
		    path, dir);
		free(copy);
		return (-1);
	}
	xasprintf(&tmp, "%s/.tierprobe-check.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd == -1)
		xasprintf(cause, "%s %s: cannot create a file in %s: %s", opt,
		    path, dir, strerror(errno));
	else {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	free(copy);
	if (fd != -1 && exists && access(path, W_OK) != 0) {
		xasprintf(cause, "%s %s: %s", opt, path, strerror(errno));
		return (-1);
	}
	return (fd == -1 ? -1 : 0);
}

/* Median of the points' ci95_rel that are known; NAN if none. */
static double
report_median_ci(const struct point *v, size_t n)
{
	double	*x, m;
	size_t	 i, k = 0;

	if (n == 0)
		return (NAN);
	x = xreallocarray(NULL, n, sizeof *x);
	for (i = 0; i < n; i++) {
		if (isfinite(v[i].ci95_rel) && v[i].ci95_rel >= 0)
			x[k++] = v[i].ci95_rel;
	}
	m = stats_median(x, k);
	free(x);
	return (m);
}

/* Add a figure; returns it, or NULL when fig is full. */
static struct report_figure *
report_add(struct report_figure *fig, size_t max, size_t *n,
    const char *name, const char *label, enum units_kind unit, double value,
    double rel_noise)
{
	struct report_figure	*f;

	if (*n >= max)
		return (NULL);
	f = &fig[(*n)++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->label, sizeof f->label, "%s", label);
	f->unit = unit;
	f->value = value;
	f->rel_noise = rel_noise;
	return (f);
}

/* Add a figure measured in state (enum bucket_state). */
static void
report_add_in(struct report_figure *fig, size_t max, size_t *n,
    const char *name, const char *label, enum units_kind unit, double value,
    double rel_noise, int state)
{
	struct report_figure	*f;

	f = report_add(fig, max, n, name, label, unit, value, rel_noise);
	if (f != NULL)
		f->state = state;
}

/* Relative 95% half-width of a shared limit, or NAN. */
static double
report_shared_noise(const struct together_verdict *v)
{
	if (!isfinite(v->shared) || !(v->shared > 0))
		return (NAN);
	return ((v->shared_high - v->shared_low) / 2 / v->shared);
}

/*
 * The headline figures of a report of several targets: the sums together
 * and alone, the shared limits, then each target's figures, named
 * targets[i].NAME and labelled "i: LABEL", while there is room.
 */
static size_t
report_headlines_several(const struct report *r, struct report_figure *fig,
    size_t max)
{
	const struct together_result	*t = r->together;
	const struct limits_result	*l;
	struct report_figure		*one;
	char				 name[48], label[48];
	size_t				 n = 0, i, k, m;
	int				 alone = BUCKET_UNKNOWN;
	int				 alone_bw = BUCKET_UNKNOWN;

	if (t != NULL) {
		for (i = 0; i < r->ntargets; i++) {
			if ((l = r->targets[i].limits) == NULL)
				continue;
			alone = bucket_state_merge(alone, l->iops_state);
			alone_bw = bucket_state_merge(alone_bw,
			    l->bandwidth_state);
		}
		report_add_in(fig, max, &n, "together.iops_ceiling",
		    "IOPS together", UNITS_IOPS, t->iops.ceiling,
		    report_shared_noise(&t->iops), t->state);
		report_add_in(fig, max, &n, "together.sum_alone_iops",
		    "IOPS alone, summed", UNITS_IOPS, t->iops.sum_alone, NAN,
		    alone);
		report_add_in(fig, max, &n, "together.shared_iops_limit",
		    "shared IOPS limit", UNITS_IOPS, t->iops.shared,
		    report_shared_noise(&t->iops), t->state);
		report_add_in(fig, max, &n,
		    "together.bandwidth_ceiling_bytes_per_s",
		    "bandwidth together", UNITS_RATE, t->bandwidth.ceiling,
		    report_shared_noise(&t->bandwidth), t->bandwidth_state);
		report_add_in(fig, max, &n,
		    "together.sum_alone_bandwidth_bytes_per_s",
		    "bandwidth alone, summed", UNITS_RATE,
		    t->bandwidth.sum_alone, NAN, alone_bw);
		report_add_in(fig, max, &n,
		    "together.shared_bandwidth_limit_bytes_per_s",
		    "shared bandwidth limit", UNITS_RATE, t->bandwidth.shared,
		    report_shared_noise(&t->bandwidth), t->bandwidth_state);
	}
	one = xcalloc(max, sizeof *one);
	for (i = 0; i < r->ntargets && n < max; i++) {
		m = report_headlines(&r->targets[i], one, max);
		for (k = 0; k < m && n < max; k++) {
			snprintf(name, sizeof name, "targets[%zu].%s", i,
			    one[k].name);
			snprintf(label, sizeof label, "%zu: %s", i + 1,
			    one[k].label);
			fig[n] = one[k];
			memcpy(fig[n].name, name, sizeof fig[n].name);
			memcpy(fig[n].label, label, sizeof fig[n].label);
			n++;
		}
	}
	free(one);
	return (n);
}

/* The relative half-width of a tier's capacity interval, or NAN. */
static double
report_capacity_noise(const struct tier *t)
{
	if (t->at_least || t->capacity_bytes == 0 ||
	    t->capacity_high_bytes < t->capacity_low_bytes ||
	    t->capacity_high_bytes == 0)
		return (NAN);
	return ((double)(t->capacity_high_bytes - t->capacity_low_bytes) / 2 /
	    t->capacity_bytes);
}

/*
 * The 95% relative noise of the point of v[n] a ceiling came from: the
 * knee's (knee != 0), else the one with the most of IOPS (bytes: bytes/s).
 */
static double
report_point_noise(const struct point *v, size_t n, unsigned knee, int bytes)
{
	double	noise = NAN, best = -1, x;
	size_t	i;

	for (i = 0; i < n; i++) {
		x = bytes ? v[i].bytes_per_s : v[i].iops;
		if (knee != 0 ? v[i].iodepth == knee : x > best) {
			best = x;
			noise = v[i].ci95_rel;
		}
	}
	return (noise);
}

/*
 * The ceilings and burst of limits result l, named prefix + key and
 * labelled what + label ("write " for the write sweeps, which have no
 * burst figures of their own here).
 */
static void
report_headlines_limits(const struct limits_result *l, const char *prefix,
    const char *what, struct report_figure *fig, size_t max, size_t *n)
{
	const struct burst	*b = &l->burst;
	struct report_figure	*f;
	char			 name[48], label[48];

	snprintf(name, sizeof name, "%siops_ceiling", prefix);
	snprintf(label, sizeof label, "%sIOPS ceiling", what);
	report_add_in(fig, max, n, name, label, UNITS_IOPS, l->iops_ceiling,
	    report_point_noise(l->qd_points, l->nqd, l->iops_knee_iodepth, 0),
	    l->iops_state);
	if (*n > 0 && strcmp(fig[*n - 1].name, name) == 0)
		fig[*n - 1].at_least = l->iops_ceiling_at_least;
	if (what[0] == '\0')
		report_add_in(fig, max, n, "limits.iops_knee_iodepth",
		    "knee iodepth", UNITS_PLAIN, l->iops_knee_iodepth ?
		    l->iops_knee_iodepth : NAN, NAN, l->iops_state);
	snprintf(name, sizeof name, "%sbandwidth_ceiling_bytes_per_s", prefix);
	snprintf(label, sizeof label, "%sbandwidth ceiling", what);
	report_add_in(fig, max, n, name, label, UNITS_RATE,
	    l->bandwidth_ceiling_bytes_per_s, report_point_noise(l->bs_points,
	    l->nbs, 0, 1), l->bandwidth_state);
	if (*n > 0 && strcmp(fig[*n - 1].name, name) == 0)
		fig[*n - 1].at_least = l->bandwidth_ceiling_at_least;
	if (what[0] != '\0')
		return;
	report_add_in(fig, max, n, "limits.io_accounting_bytes",
	    "accounting size", UNITS_BYTES, l->io_accounting_bytes ?
	    l->io_accounting_bytes : NAN, NAN, l->bandwidth_state);
	/* A bucket's own figures: what it is, not a rate it lifted. */
	report_add(fig, max, n, "limits.burst.burst_iops", "burst IOPS",
	    UNITS_IOPS, b->detected ? b->burst_iops : NAN, NAN);
	report_add(fig, max, n, "limits.burst.baseline_iops", "baseline IOPS",
	    UNITS_IOPS, b->detected ? b->baseline_iops : NAN, NAN);
	report_add(fig, max, n, "limits.burst.duration_s", "burst duration",
	    UNITS_SECONDS, b->detected ? b->duration_s : NAN, NAN);
	report_add(fig, max, n, "limits.burst.credits_ios", "burst credits",
	    UNITS_COUNT, b->detected ? b->credits_ios : NAN, NAN);
	/* Without a drop, only the rate held: the most it can be. */
	f = report_add(fig, max, n, "limits.long_run_iops", "long-run IOPS",
	    UNITS_IOPS, isfinite(l->long_run_iops) ? l->long_run_iops :
	    b->held_iops, NAN);
	if (f != NULL) {
		f->at_most = !isfinite(l->long_run_iops);
		f->state = l->long_run_state;
	}
}

/*
 * The write side: write ceilings, sequential writes (the rate once a
 * buffer is full) and the 70/30 point.
 */
static void
report_headlines_writes(const struct report *r, struct report_figure *fig,
    size_t max, size_t *n)
{
	const struct writes_result	*w = r->writes;

	if (w == NULL)
		return;
	if (w->limits != NULL)
		report_headlines_limits(w->limits, "writes.limits.", "write ",
		    fig, max, n);
	if (w->timeline.n > 0)
		report_add_in(fig, max, n, "writes.slow_bytes_per_s",
		    "sequential writes", UNITS_RATE,
		    w->buffer.slow_bytes_per_s, NAN, w->state);
	if (w->mixed.ios > 0) {
		report_add_in(fig, max, n, "writes.mixed.iops", "70/30 IOPS",
		    UNITS_IOPS, w->mixed.iops, w->mixed.ci95_rel,
		    w->mixed.state);
		report_add_in(fig, max, n, "writes.mixed.lat_us.p99",
		    "70/30 p99", UNITS_LAT_US, w->mixed.lat_us.p99, NAN,
		    w->mixed.state);
	}
}

/*
 * Commits of the fastest method at one writer and the size it was chosen
 * at, and the most any count of writers made with it.  Named as the
 * figures of expectations (commit.rate), not by row: rows differ from
 * report to report.
 */
static void
report_headlines_commits(const struct report *r, struct report_figure *fig,
    size_t max, size_t *n)
{
	const struct sync_result	*s = r->sync;
	const struct commit_point	*one, *c, *top = NULL;
	long				 b;
	size_t				 i;

	if (s == NULL || (b = writepath_best(s->rows, s->nrows,
	    s->best_bs)) < 0)
		return;
	one = &s->rows[b];
	report_add_in(fig, max, n, "commit.rate", "commits/s, one writer",
	    UNITS_IOPS, one->pt.iops, one->pt.ci95_rel, one->pt.state);
	report_add_in(fig, max, n, "commit.p50", "commit p50, one writer",
	    UNITS_LAT_US, one->pt.lat_us.p50, NAN, one->pt.state);
	report_add_in(fig, max, n, "commit.p99", "commit p99, one writer",
	    UNITS_LAT_US, one->pt.lat_us.p99, NAN, one->pt.state);
	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->writers > 1 && c->method == one->method &&
		    c->bs == one->bs && c->pt.ios > 0 &&
		    (top == NULL || c->pt.iops > top->pt.iops))
			top = c;
	}
	if (top != NULL)
		report_add_in(fig, max, n, "commit.group_rate",
		    "commits/s, group", UNITS_IOPS, top->pt.iops,
		    top->pt.ci95_rel, top->pt.state);
}
/* The headline figures of a report into fig[max]; returns the count. */
size_t
report_headlines(const struct report *r, struct report_figure *fig,
    size_t max)
{
	const struct tiers_result	*tr;
	const struct limits_result	*l;
	const struct tier		*t;
	char				 name[48], label[48];
	double				 ci;
	size_t				 n = 0, i;
	int				 s;

	if (r->ntargets > 0)
		return (report_headlines_several(r, fig, max));
	if (r->scan != NULL && r->scan->tiers.analysed) {
		tr = &r->scan->tiers;
		s = r->scan->state;
		ci = report_median_ci(r->scan->points, r->scan->npoints);
		for (i = 0; i < tr->ntiers && i < TIERS_MAX; i++) {
			t = &tr->tier[i];
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].capacity_bytes", i);
			snprintf(label, sizeof label, "tier %zu capacity",
			    i + 1);
			report_add_in(fig, max, &n, name, label, UNITS_BYTES,
			    t->capacity_bytes > 0 ? (double)t->capacity_bytes :
			    NAN, report_capacity_noise(t), BUCKET_UNAFFECTED);
			if (n > 0 && strcmp(fig[n - 1].name, name) == 0)
				fig[n - 1].at_least = t->at_least;
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].lat_us_p50", i);
			snprintf(label, sizeof label, "tier %zu p50", i + 1);
			report_add_in(fig, max, &n, name, label, UNITS_LAT_US,
			    t->lat_us_p50, ci, s);
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].lat_us_p99", i);
			snprintf(label, sizeof label, "tier %zu p99", i + 1);
			report_add_in(fig, max, &n, name, label, UNITS_LAT_US,
			    t->lat_us_p99, NAN, s);
		}
		report_add_in(fig, max, &n, "scan.backing.lat_us_p50",
		    "backing p50", UNITS_LAT_US, tr->backing_p50_us, ci, s);
		report_add_in(fig, max, &n, "scan.backing.lat_us_p99",
		    "backing p99", UNITS_LAT_US, tr->backing_p99_us, NAN, s);
	}
	if ((l = r->limits) != NULL)
		report_headlines_limits(l, "limits.", "", fig, max, &n);
	report_headlines_writes(r, fig, max, &n);
	report_headlines_commits(r, fig, max, &n);
	for (i = 0; i < n; i++) {
		if (!isfinite(fig[i].rel_noise) || fig[i].rel_noise < 0)
			fig[i].rel_noise = NAN;
	}
	return (n);
}

/* A note on a bucket state for a section's lines; see report.h. */
const char *
report_state_note(int s)
{
	switch (s) {
	case BUCKET_FULL:
		return ("before a bucket ran dry: burst figures");
	case BUCKET_DRAINING:
		return ("while a bucket ran dry: burst and baseline mixed");
	case BUCKET_EMPTY:
		return ("after a bucket ran dry: baseline figures");
	}
	return ("");
}

/* The IOPS a shared bucket left the targets; see report.h. */
double
report_shared_long_iops(const struct report *r)
{
	const struct together_result	*t = r != NULL ? r->together : NULL;

	if (t == NULL || t->burst_shared != 1 || !t->burst.detected ||
	    t->burst.exhausted)
		return (NAN);
	return (t->burst.baseline_iops);
}

/* The IOPS limit r measured in bucket state s; see report.h. */
double
report_iops_cap_in(const struct report *r, int s)
{
	const struct limits_result	*w = NULL;

	if (r->writes != NULL)
		w = r->writes->limits;
	if (w != NULL && w->iops_state == s && isfinite(w->iops_ceiling) &&
	    !w->iops_ceiling_at_least)
		return (w->iops_ceiling);
	if (r->limits != NULL && r->limits->iops_state == s &&
	    isfinite(r->limits->iops_ceiling) &&
	    !r->limits->iops_ceiling_at_least)
		return (r->limits->iops_ceiling);
	if (r->limits != NULL && r->limits->long_run_state == s &&
	    isfinite(r->limits->long_run_iops))
		return (r->limits->long_run_iops);
	return (NAN);
}

/* Add the device time and bytes of a timeline. */
static void
report_timeline_cost(const struct timeline *tl, double *seconds,
    double *bytes)
{
	const struct timeline_sample	*v;
	double				 dt;
	size_t				 i;

	for (i = 0; i < tl->n; i++) {
		v = &tl->v[i];
		dt = v->dt_s > 0 ? v->dt_s : v->t_s - (i > 0 ? v[-1].t_s : 0);
		*seconds += dt;
		*bytes += v->bytes_per_s * dt;
	}
}

/* Add the device time and bytes of the sweeps of l (reads of bs). */
static void
report_limits_cost(const struct limits_result *l, uint32_t bs,
    double *seconds, double *bytes)
{
	const struct point	*p;
	size_t			 i;

	for (i = 0; i < l->nqd + l->nbs; i++) {
		p = i < l->nqd ? &l->qd_points[i] : &l->bs_points[i - l->nqd];
		*seconds += p->seconds + p->warm_seconds;
		*bytes += point_bytes(p);
	}
	/*
	 * The sustained run from its timeline, which the JSON keeps (its
	 * point as a whole it does not): the same figure live and loaded.
	 */
	report_timeline_cost(&l->timeline, seconds, bytes);
	*bytes += l->first_touch_flush_bytes;
	/* The flush between the first-touch passes is one sample. */
	for (i = 0; i < l->sweep_timeline.n; i++)
		if (l->sweep_timeline.v[i].phase == LIMITS_PHASE_FLUSH)
			*seconds += l->sweep_timeline.v[i].dt_s;
	if (l->first_touch.measured) {
		*seconds += l->first_touch.blocks * 1e-6 *
		    (l->first_touch.first_mean_us +
		    l->first_touch.second_mean_us);
		*bytes += 2.0 * l->first_touch.blocks * bs;
	}
}

/* Device time and bytes the measurements of a report spent; see report.h. */
void
report_cost(const struct report *r, double *seconds, double *bytes)
{
	const struct writes_result	*w = r->writes;
	const struct point		*p;
	size_t				 i;

	*seconds = *bytes = 0;
	if (r->scan != NULL) {
		*seconds += r->scan->device_time_s;
		for (i = 0; i < r->scan->npoints; i++) {
			p = &r->scan->points[i];
			*bytes += point_bytes(p);
			/* The sequential warm-ups read each byte once. */
			if (i + 1 == r->scan->npoints)
				*bytes += p->ws_bytes;
		}
	}
	if (r->limits != NULL)
		report_limits_cost(r->limits, r->target.bs, seconds, bytes);
	if (w != NULL) {
		report_timeline_cost(&w->timeline, seconds, bytes);
		report_timeline_cost(&w->refill, seconds, bytes);
		if (w->limits != NULL)
			report_limits_cost(w->limits, r->target.bs, seconds,
			    bytes);
		*seconds += w->mixed.seconds + w->mixed.warm_seconds;
		*bytes += point_bytes(&w->mixed);
	}
	if (r->sync != NULL && isfinite(r->sync->seconds)) {
		*seconds += r->sync->seconds;
		*bytes += r->sync->bytes;
	} else if (r->sync != NULL) {
		/* A report saved before sync.device_time_s: its rows. */
		for (i = 0; i < r->sync->nrows; i++) {
			p = &r->sync->rows[i].pt;
			*seconds += p->seconds + p->warm_seconds;
			*bytes += point_bytes(p);
		}
	}
}

/* Find a figure of a repeat summary by name; NULL if absent. */
const struct report_stat *
report_repeat_find(const struct report_repeat *rr, const char *name)
{
	size_t	i;

	if (rr == NULL)
		return (NULL);
	for (i = 0; i < rr->nstats; i++) {
		if (strcmp(rr->stat[i].name, name) == 0)
			return (&rr->stat[i]);
	}
	return (NULL);
}

/* Name of a trend, for reports; NULL past the last. */
const char *
report_trend_name(int trend)
{
	static const char *const names[] = {
		[REPORT_TREND_NONE] = "none",
		[REPORT_TREND_FALLING] = "falling",
		[REPORT_TREND_RISING] = "rising",
	};

	if (trend < 0 || trend > REPORT_TREND_RISING)
		return (NULL);
	return (names[trend]);
}

/* Name of a bound, for reports; NULL past the last. */
const char *
report_bound_name(int bound)
{
	static const char *const names[] = {
		[REPORT_BOUND_NONE] = "none",
		[REPORT_BOUND_AT_MOST] = "at_most",
		[REPORT_BOUND_AT_LEAST] = "at_least",
	};

	if (bound < 0 || bound > REPORT_BOUND_AT_LEAST)
		return (NULL);
	return (names[bound]);
}

/* What goes before a value with this bound in a table. */
const char *
report_bound_prefix(int bound)
{
	static const char *const prefix[] = {
		[REPORT_BOUND_NONE] = "",
		[REPORT_BOUND_AT_MOST] = "<= ",
		[REPORT_BOUND_AT_LEAST] = ">= ",
	};

	if (bound < 0 || bound > REPORT_BOUND_AT_LEAST)
		return ("");
	return (prefix[bound]);
}

/* The 95% noise of the difference of a and b (half-widths ha, hb). */
static double
report_pair_noise(double a, double ha, double b, double hb)
{
	if (isfinite(ha) && isfinite(hb))
		return (sqrt(ha * ha + hb * hb));
	return (REPORT_STEP_REL * fmax(fabs(a), fabs(b)));
}

/*
 * A trend in s->run[] (noise h[], 95% half-widths): every step beyond its
 * noise (REPORT_STEP_REL where unknown) goes the same way, and first to
 * last moved beyond both noise and REPORT_TREND_REL.  Back and forth is
 * noise, which sd and cv describe.
 */
static int
report_trend(const struct report_stat *s, const double *h)
{
	double	d, tol;
	size_t	k, a = SIZE_MAX, first = SIZE_MAX;
	int	sign = 0, step;

	for (k = 0; k < s->nrun; k++) {
		if (!isfinite(s->run[k]))
			continue;
		if (first == SIZE_MAX)
			first = k;
		if (a != SIZE_MAX) {
			d = s->run[k] - s->run[a];
			if (fabs(d) > report_pair_noise(s->run[a], h[a],
			    s->run[k], h[k])) {
				step = d > 0 ? 1 : -1;
				if (sign != 0 && step != sign)
					return (REPORT_TREND_NONE);
				sign = step;
			}
		}
		a = k;
	}
	if (sign == 0)
		return (REPORT_TREND_NONE);
	d = s->run[a] - s->run[first];
	tol = fmax(report_pair_noise(s->run[first], h[first], s->run[a], h[a]),
	    REPORT_TREND_REL * fmax(fabs(s->run[first]), fabs(s->run[a])));
	if (!(fabs(d) > tol) || (d > 0) != (sign > 0))
		return (REPORT_TREND_NONE);
	return (sign > 0 ? REPORT_TREND_RISING : REPORT_TREND_FALLING);
}

/*
 * Did the first run give s exactly and a later one give nothing at all (a
 * sweep that fell when a bucket ran dry inside it leaves its ceiling
 * unknown)?
 */
int
report_stat_lost(const struct report_stat *s)
{
	size_t	k;

	if (s->nrun == 0 || !isfinite(s->run[0]) ||
	    s->run_bound[0] != REPORT_BOUND_NONE)
		return (0);
	for (k = 1; k < s->nrun; k++)
		if (!isfinite(s->run[k]))
			return (1);
	return (0);
}

/* The burst run r saw in its reads, or in its writes after them; NULL. */
static const struct burst *
report_run_burst(const struct report *r, int *writes)
{
	*writes = 0;
	if (r->limits != NULL && r->limits->burst.detected)
		return (&r->limits->burst);
	*writes = 1;
	if (r->writes != NULL && r->writes->limits != NULL &&
	    r->writes->limits->burst.detected)
		return (&r->writes->limits->burst);
	return (NULL);
}

/* Append to buf (of len) what fmt says, after what it holds. */
static void
report_append(char *buf, size_t len, const char *fmt, ...)
{
	va_list	ap;
	size_t	o = strlen(buf);

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

/*
 * What the runs after k (0-based) that found a bucket again found in it:
 * the most credits any of them sized (NAN: none did), and whether every
 * one of those ran dry inside its sweeps.
 */
static double
report_repeat_earned(const struct report *reps, int n, int k, int *in_sweeps)
{
	const struct burst	*b;
	double			 most = NAN;
	int			 m, writes;

	*in_sweeps = 1;
	for (m = k + 1; m < n; m++) {
		if ((b = report_run_burst(&reps[m], &writes)) == NULL ||
		    !isfinite(b->credits_ios))
			continue;
		most = isnan(most) ? b->credits_ios : fmax(most,
		    b->credits_ios);
		*in_sweeps &= isfinite(b->drop_sweep_t_s);
	}
	return (most);
}

/*
 * The figures the first run gave and a later run could not, and in which
 * runs, after what buf holds: "; runs 2 and 3 gave no IOPS ceiling".
 */
static int
report_repeat_lost(const struct report *reps, const struct report_repeat *rr,
    char *buf, size_t len)
{
	struct report_figure	fig[REPORT_STATS_MAX];
	const char		*label;
	unsigned char		lost[REPORT_RUNS_MAX];
	size_t			nf, i, j, nl = 0, nr = 0, r, done = 0;

	memset(lost, 0, sizeof lost);
	for (j = 0; j < rr->nstats; j++) {
		if (!report_stat_lost(&rr->stat[j]))
			continue;
		nl++;
		for (r = 1; r < rr->stat[j].nrun; r++)
			lost[r] |= !isfinite(rr->stat[j].run[r]);
	}
	if (nl == 0)
		return (0);
	for (r = 1; r < REPORT_RUNS_MAX; r++)
		nr += lost[r];
	report_append(buf, len, "; run%s", nr == 1 ? "" : "s");
	for (r = 1; r < REPORT_RUNS_MAX; r++) {
		if (!lost[r])
			continue;
		done++;
		report_append(buf, len, "%s %zu", done == 1 ? "" : done == nr ?
		    " and" : ",", r + 1);
	}
	report_append(buf, len, " gave no");
	nf = report_headlines(&reps[0], fig, REPORT_STATS_MAX);
	for (done = 0, j = 0; j < rr->nstats; j++) {
		if (!report_stat_lost(&rr->stat[j]))
			continue;
		label = rr->stat[j].name;
		for (i = 0; i < nf; i++)
			if (strcmp(fig[i].name, label) == 0)
				label = fig[i].label;
		done++;
		report_append(buf, len, "%s %s", done == 1 ? "" : done == nl ?
		    " or" : ",", label);
	}
	return (1);
}

/*
 * Why figures moved run after run, or were lost after run 1, into
 * out->reason: where a bucket ran dry, what the runs before and after it
 * measured, the credits it earned back in between, and what was lost.
 */
static void
report_repeat_reason(const struct report *reps, int n,
    struct report_repeat *out)
{
	char			*buf = out->reason, c[UNITS_BUFSZ];
	size_t			 len = sizeof out->reason, j;
	double			 earned;
	int			 k, writes = 0, in_sweeps, trend = 0, lost = 0;

	for (j = 0; j < out->nstats; j++) {
		trend |= out->stat[j].trend != REPORT_TREND_NONE;
		lost |= report_stat_lost(&out->stat[j]);
	}
	if (!trend && !lost)
		return;
	for (k = 0; k < n; k++)
		if (report_run_burst(&reps[k], &writes) != NULL)
			break;
	if (k == n && !trend)
		return;
	buf[0] = '\0';
	if (k == n) {
		report_append(buf, len, "figures moved run after run beyond "
		    "their noise: the volume kept its state from run to run "
		    "(burst credits, caches or throttling)");
		return;
	}
	report_append(buf, len, "a burst bucket ran dry in run %d%s and the "
	    "volume kept its state from run to run", k + 1, writes ?
	    " (in its writes)" : "");
	if (k > 0)
		report_append(buf, len, ": runs before it measured the burst, "
		    "and the bucket run %d sized is what they left in it and "
		    "earned back since, not a full one", k + 1);
	earned = report_repeat_earned(reps, n, k, &in_sweeps);
	if (k + 1 < n && isnan(earned))
		report_append(buf, len, "%s runs after it measured the "
		    "baseline", k > 0 ? ";" : ":");
	else if (k + 1 < n)
		report_append(buf, len, "%s runs after it found only the ~%s "
		    "I/Os of credits it earned back in between, then the "
		    "baseline", k > 0 ? ";" : ":", units_format_value(
		    UNITS_COUNT, earned, c, sizeof c));
	if (report_repeat_lost(reps, out, buf, len) && !isnan(earned) &&
	    in_sweeps)
		report_append(buf, len, ": their sweeps fell as those credits "
		    "ran out inside them");
}

/* The bound a headline figure's value is (enum report_bound). */
int
report_figure_bound(const struct report_figure *f)
{
	if (f->at_most)
		return (REPORT_BOUND_AT_MOST);
	if (f->at_least)
		return (REPORT_BOUND_AT_LEAST);
	return (REPORT_BOUND_NONE);
}

/*
 * Mean, sd, cv and trend of s over the runs that gave the figure itself,
 * or over those that gave a bound if none did (h[]: 95% half-widths).
 */
static void
report_stat_finish(struct report_stat *s, const double *h)
{
	struct report_stat	use = *s;
	double			sum = 0, sq = 0, d;
	size_t			k;
	int			exact = 0;

	for (k = 0; k < s->nrun; k++) {
		if (isfinite(s->run[k]) && s->run_bound[k] == REPORT_BOUND_NONE)
			exact = 1;
	}
	use.n = 0;
	use.bound = REPORT_BOUND_NONE;
	for (k = 0; k < s->nrun; k++) {
		if (!isfinite(s->run[k]) || (exact &&
		    s->run_bound[k] != REPORT_BOUND_NONE)) {
			use.run[k] = NAN;
			continue;
		}
		if (!exact)
			use.bound = s->run_bound[k];
		use.n++;
		sum += s->run[k];
	}
	s->n = use.n;
	s->bound = use.bound;
	s->mean = s->n ? sum / s->n : NAN;
	for (k = 0; k < s->nrun; k++) {
		if (isfinite(use.run[k])) {
			d = use.run[k] - s->mean;
			sq += d * d;
		}
	}
	s->sd = s->n >= 2 ? sqrt(sq / (s->n - 1)) : NAN;
	s->cv = (s->n >= 2 && s->mean != 0) ? s->sd / fabs(s->mean) : NAN;
	s->trend = report_trend(&use, h);
}

/* A figure of report_headlines, its 95% interval from its noise. */
static void
report_figure_headline(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	struct report_figure	fig[REPORT_STATS_MAX];
	size_t			nf, i;

	nf = report_headlines(r, fig, REPORT_STATS_MAX);
	for (i = 0; i < nf; i++) {
		if (strcmp(fig[i].name, fv->path) == 0)
			break;
	}
	if (i == nf) {
		if (r->scan != NULL && !r->scan->tiers.analysed &&
		    strcmp(d->section, "scan") == 0)
			snprintf(fv->why, sizeof fv->why, "the scan was not "
			    "analysed");
		else if (index > 0)
			snprintf(fv->why, sizeof fv->why, "the scan found "
			    "%zu cache tier%s", r->scan->tiers.ntiers,
			    r->scan->tiers.ntiers == 1 ? "" : "s");
		else
			snprintf(fv->why, sizeof fv->why, "the report does "
			    "not hold it");
		return;
	}
	fv->value = fig[i].value;
	fv->at_least = fig[i].at_least;
	fv->at_most = fig[i].at_most;
	fv->state = fig[i].state;
	if (!isfinite(fv->value)) {
		snprintf(fv->why, sizeof fv->why, "the run could not "
		    "establish it");
		return;
	}
	if (isfinite(fig[i].rel_noise)) {
		fv->low = fv->value * (1 - fig[i].rel_noise);
		fv->high = fv->value * (1 + fig[i].rel_noise);
	}
}

/* How many caches the scan found. */
static void
report_figure_tiers(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	(void)d;
	(void)index;
	if (!r->scan->tiers.analysed) {
		snprintf(fv->why, sizeof fv->why, "the scan was not analysed");
		return;
	}
	fv->value = (double)r->scan->tiers.ntiers;
	fv->state = BUCKET_UNAFFECTED;
}

/* A tier's capacity: its interval is the tier's own. */
static void
report_figure_capacity(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct tier	*t;

	report_figure_headline(r, d, index, fv);
	if (!isfinite(fv->value))
		return;
	t = &r->scan->tiers.tier[index - 1];
	fv->low = t->capacity_low_bytes > 0 ? t->capacity_low_bytes : NAN;
	fv->high = !t->at_least && t->capacity_high_bytes > 0 ?
	    t->capacity_high_bytes : NAN;
}

/*
 * 1 when the sustained run showed a burst bucket, else 0: none seen, as
 * long as the rate it held, in that rate's state.
 */
static void
report_figure_burst(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	(void)d;
	(void)index;
	fv->value = r->limits->burst.detected ? 1 : 0;
	if (!r->limits->burst.detected)
		fv->state = r->limits->long_run_state;
}

/*
 * A figure of the fastest commit method at one writer and the size it was
 * chosen at (sync.best_method, sync.best_bs): its row of sync.methods[].
 */
static void
report_figure_commit(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct point	*pt;
	double			 ci;
	long			 b;

	(void)index;
	b = writepath_best(r->sync->rows, r->sync->nrows, r->sync->best_bs);
	if (b < 0) {
		snprintf(fv->why, sizeof fv->why, "no commit method completed "
		    "at one writer");
		return;
	}
	figures_path(d, (unsigned)b + 1, fv->path, sizeof fv->path);
	pt = &r->sync->rows[b].pt;
	fv->state = pt->state;
	ci = isfinite(pt->ci95_rel) && pt->ci95_rel >= 0 &&
	    pt->ci95_rel < 1 ? pt->ci95_rel : NAN;
	if (d->unit == UNITS_IOPS) {
		/* One writer: the rate is one over the mean latency. */
		fv->value = pt->iops;
		fv->low = fv->value / (1 + ci);
		fv->high = fv->value / (1 - ci);
	} else if (strcmp(d->alias, "commit.p50") == 0) {
		/*
		 * A median's standard error is sqrt(pi / 2) times a mean's
		 * for normal latencies: the mean's interval, that wider.
		 */
		fv->value = pt->lat_us.p50;
		fv->low = fv->value * (1 - ci * sqrt(M_PI / 2));
		fv->high = fv->value * (1 + ci * sqrt(M_PI / 2));
	} else {
		fv->value = pt->lat_us.p99;
		point_p99_interval(pt, &fv->low, &fv->high);
	}
}

/*
 * IOPS or bandwidth for the long run: once a bucket ran dry in any phase,
 * the rate after it (the reads', else the writes'), in the state it was
 * measured in; without a drain, or when no rate after it was measured,
 * the ceiling as measured (whose standing, a burst figure a drain
 * contradicts, standing.c decides).
 */
static void
report_figure_long_run(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct limits_result	*l[2];
	double				 v;
	size_t				 i;
	int				 bw = d->unit == UNITS_RATE;

	report_figure_headline(r, d, index, fv);
	fv->drained = report_state_drained(r);
	if (!fv->drained)
		return;
	l[0] = r->limits;
	l[1] = r->writes != NULL ? r->writes->limits : NULL;
	for (i = 0; i < 2; i++) {
		if (l[i] == NULL)
			continue;
		v = bw ? l[i]->baseline_bandwidth : l[i]->long_run_iops;
		if (!isfinite(v))
			continue;
		snprintf(fv->path, sizeof fv->path, "%slimits.%s", i > 0 ?
		    "writes." : "", bw ? "baseline_bandwidth_bytes_per_s" :
		    "long_run_iops");
		fv->value = v;
		fv->low = fv->high = NAN;
		fv->at_least = fv->at_most = 0;
		fv->state = l[i]->long_run_state;
		fv->why[0] = '\0';
		return;
	}
}

static void (*const report_figure_sources[])(const struct report *,
    const struct figures_def *, unsigned, struct figures_value *) = {
	[FIGURES_HEADLINE] = report_figure_headline,
	[FIGURES_TIERS] = report_figure_tiers,
	[FIGURES_CAPACITY] = report_figure_capacity,
	[FIGURES_BURST] = report_figure_burst,
	[FIGURES_COMMIT] = report_figure_commit,
	[FIGURES_LONG_RUN] = report_figure_long_run,
};

/* The sections figures come from, and the commands that measure them. */
static const struct {
	const char	*section;
	size_t		 offset;	/* of its pointer in struct report */
	const char	*by;
} report_figure_sections[] = {
	{ "scan", offsetof(struct report, scan), "run or scan" },
	{ "limits", offsetof(struct report, limits), "run or limits" },
	{ "sync", offsetof(struct report, sync), "sync" },
};

/*
 * The value of figure d (tier index as figures_find gave it) in r: with
 * --repeat, the mean over the runs and mean +- 2 sd; a figure the report
 * cannot give is NAN with why.
 */
void
report_figure(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct report_stat	*st;
	size_t				 i;

	memset(fv, 0, sizeof *fv);
	fv->value = fv->low = fv->high = NAN;
	figures_path(d, index, fv->path, sizeof fv->path);
	for (i = 0; i < sizeof report_figure_sections /
	    sizeof report_figure_sections[0]; i++) {
		if (strcmp(d->section, report_figure_sections[i].section) != 0 ||
		    *(void *const *)((const char *)r +
		    report_figure_sections[i].offset) != NULL)
			continue;
		snprintf(fv->why, sizeof fv->why, "the report has no %s "
		    "section (%s measures it)", d->section,
		    report_figure_sections[i].by);
		return;
	}
	report_figure_sources[d->source](r, d, index, fv);
	if (strncmp(d->path, "limits.burst.", 13) == 0 &&
	    !r->limits->burst.detected) {
		if (r->limits->timeline.n < CEILINGS_BURST_MIN_INTERVALS) {
			fv->value = NAN;
			snprintf(fv->why, sizeof fv->why, "the sustained run "
			    "was too short to tell (--sustain)");
		} else if (!isfinite(fv->value))
			snprintf(fv->why, sizeof fv->why, "no burst bucket "
			    "showed over the sustained run");
	}
	st = report_repeat_find(r->repeat, fv->path);
	if (st != NULL && st->n >= 2 && isfinite(st->mean) &&
	    isfinite(st->sd)) {
		fv->value = st->mean;
		fv->low = st->mean - 2 * st->sd;
		fv->high = st->mean + 2 * st->sd;
		fv->repeated = 1;
		fv->state = st->state;
		fv->why[0] = '\0';
	}
}

_Static_assert((int)REPORT_BOUND_NONE == (int)STANDING_BOUND_NONE &&
    (int)REPORT_BOUND_AT_MOST == (int)STANDING_BOUND_AT_MOST &&
    (int)REPORT_BOUND_AT_LEAST == (int)STANDING_BOUND_AT_LEAST, "one bound");

/* The figure fv as standing.c takes it; see report.h. */
void
report_standing_figure(const struct figures_value *fv, int of_burst,
    struct standing_figure *sf)
{
	sf->value = fv->value;
	sf->low = fv->low;
	sf->high = fv->high;
	sf->bound = fv->at_least ? STANDING_BOUND_AT_LEAST : fv->at_most ?
	    STANDING_BOUND_AT_MOST : STANDING_BOUND_NONE;
	sf->state = fv->state;
	sf->drained = fv->drained;
	sf->of_burst = of_burst;
}

/*
 * The value of figure d in r, one of the targets of top run together; see
 * report.h.  A bucket the targets share that ran dry together left them
 * report_shared_long_iops(top) IOPS: an iops figure above that is at most
 * it for good; one below it is not what the shared drop lowered, and
 * stands in its own bucket's state (a bucket of its own may still have
 * been full).
 */
void
report_figure_in(const struct report *top, const struct report *r,
    const struct figures_def *d, unsigned index, struct figures_value *fv)
{
	double	shared;

	report_figure(r, d, index, fv);
	if (top == NULL || top == r || d->source != FIGURES_LONG_RUN ||
	    d->unit != UNITS_IOPS || fv->state == BUCKET_EMPTY ||
	    !isfinite(fv->value) || fv->repeated ||
	    !isfinite(shared = report_shared_long_iops(top)))
		return;
	if (fv->value <= shared) {
		if (fv->state == BUCKET_FULL && !fv->drained)
			fv->state = BUCKET_MAY_BE_FULL;
		return;
	}
	snprintf(fv->path, sizeof fv->path, "together.burst.baseline_iops");
	fv->value = shared;
	fv->low = fv->high = NAN;
	fv->at_least = 0;
	fv->at_most = 1;
	fv->state = BUCKET_EMPTY;
	fv->drained = 1;
}

/* Mean, sd and cv of the headline figures of n reports, matched by name. */
void
report_repeat_aggregate(const struct report *reps, int n,
    struct report_repeat *out)
{
	struct report_figure	 fig[REPORT_STATS_MAX];
	struct report_stat	*s;
	double			*noise;
	size_t			 nf, i, j, r;
	int			 k;

	memset(out, 0, sizeof *out);
	if (n < 1)
		return;
	out->runs = n;
	noise = xcalloc(REPORT_STATS_MAX * REPORT_RUNS_MAX, sizeof *noise);
	for (k = 0; k < n && k < REPORT_RUNS_MAX; k++) {
		nf = report_headlines(&reps[k], fig, REPORT_STATS_MAX);
		for (i = 0; i < nf; i++) {
			for (j = 0; j < out->nstats; j++) {
				if (strcmp(out->stat[j].name, fig[i].name) == 0)
					break;
			}
			if (j == out->nstats) {
				if (out->nstats == REPORT_STATS_MAX)
					continue;
				s = &out->stat[out->nstats++];
				memcpy(s->name, fig[i].name, sizeof s->name);
				s->name[sizeof s->name - 1] = '\0';
				s->nrun = n < REPORT_RUNS_MAX ? n :
				    REPORT_RUNS_MAX;
				for (r = 0; r < s->nrun; r++)
					s->run[r] = NAN;
			}
			out->stat[j].run[k] = fig[i].value;
			out->stat[j].run_bound[k] = report_figure_bound(&fig[i]);
			out->stat[j].state = bucket_state_merge(
			    out->stat[j].state, fig[i].state);
			noise[j * REPORT_RUNS_MAX + k] =
			    fig[i].rel_noise * fabs(fig[i].value);
		}
	}
	for (j = 0; j < out->nstats; j++)
		report_stat_finish(&out->stat[j],
		    &noise[j * REPORT_RUNS_MAX]);
	free(noise);
	report_repeat_reason(reps, n, out);
}

/* A section heading. */
void
report_text_heading(const struct report_text *rt, const char *title)
{
	if (rt->md)
		fprintf(rt->f, "\n## %s\n\n", title);
	else
		fprintf(rt->f, "\n%s\n", title);
}

/* A line of a key-value block, wrapped under the value in text. */
void
report_text_kv(const struct report_text *rt, const char *key,
    const char *value)
{
	const char	*p = value, *brk;
	size_t		 width = 96 - 21, n;

	if (rt->md) {
		fprintf(rt->f, "- **%s**: %s\n", key, value);
		return;
	}
	do {
		n = strlen(p);
		if (n > width) {
			for (brk = p + width; brk > p && *brk != ' '; brk--)
				;
			n = brk > p ? (size_t)(brk - p) : width;
		}
		fprintf(rt->f, "%s%-18s %.*s\n", REPORT_TEXT_INDENT, p == value ?
		    key : "", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
	} while (*p != '\0');
}

/* A sentence of a summary, wrapped for text at 96 columns. */
void
report_text_sentence(const struct report_text *rt, const char *s)
{
	const char	*p = s, *brk;
	size_t		 width = 96 - 4, n;
	int		 first = 1;

	if (rt->md) {
		fprintf(rt->f, "- %s\n", s);
		return;
	}
	while (*p != '\0') {
		n = strlen(p);
		if (n > width) {
			brk = p + width;
			while (brk > p && *brk != ' ')
				brk--;
			if (brk == p)
				brk = p + width;
			n = brk - p;
		}
		fprintf(rt->f, "%s%s%.*s\n", REPORT_TEXT_INDENT, first ? "- " :
		    "  ", (int)n, p);
		p += n;
		while (*p == ' ')
			p++;
		first = 0;
	}
}

/* A figure for a table cell: NAN is REPORT_NA. */
char *
report_text_cell(enum units_kind unit, double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", REPORT_NA);
		return (buf);
	}
	return (units_format_value(unit, v, buf, len));
}

/* Why a table's p99.9 cells are n/a; see report.h. */
void
report_text_p999_note(const struct report_text *rt, const char *what,
    uint64_t lo, uint64_t hi)
{
	char	line[256], a[UNITS_BUFSZ], b[UNITS_BUFSZ], n[UNITS_BUFSZ];

	units_format_value(UNITS_IOPS, lo, a, sizeof a);
	units_format_value(UNITS_IOPS, hi, b, sizeof b);
	snprintf(line, sizeof line, "p99.9 needs %s %s at least, where its "
	    "95%% interval closes at the slowest of them; the rows with %s "
	    "made %s%s%s.", units_format_value(UNITS_IOPS, POINT_P999_MIN_IOS,
	    n, sizeof n), what, REPORT_NA, a, lo != hi ? " to " : "",
	    lo != hi ? b : "");
	if (rt->md)
		fputc('\n', rt->f);
	report_text_sentence(rt, line);
}

/* Start a table with one column per character of align ('l' or 'r'). */
void
report_table_init(struct report_table *t, const char *align)
{
	memset(t, 0, sizeof *t);
	snprintf(t->align, sizeof t->align, "%s", align);
	t->ncols = strlen(t->align);
}

/* Add a row of ncols strings, copied; NULL prints as an empty cell. */
void
report_table_add(struct report_table *t, ...)
{
	va_list		 ap;
	const char	*s;
	size_t		 i;

	t->cell = xreallocarray(t->cell, (t->nrows + 1) * t->ncols,
	    sizeof *t->cell);
	va_start(ap, t);
	for (i = 0; i < t->ncols; i++) {
		s = va_arg(ap, const char *);
		t->cell[t->nrows * t->ncols + i] = xstrdup(s != NULL ? s : "");
	}
	va_end(ap);
	t->nrows++;
}

/* Columns a cell takes on a terminal: UTF-8 characters, not bytes. */
static size_t
report_table_width(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return (n);
}

/* Print a table aligned (text) or as a pipe table (markdown), and free it. */
void
report_table_write(struct report_table *t, FILE *f, int markdown,
    const char *indent)
{
	size_t		 w[16], r, c, len, total = 0, o, pad;
	const char	*s;
	char		*line;

	memset(w, 0, sizeof w);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			s = t->cell[r * t->ncols + c];
			len = report_table_width(s);
			if (len > w[c])
				w[c] = len;
			total += strlen(s) - len;
		}
	}
	for (c = 0; c < t->ncols; c++)
		total += w[c] + 4;
	line = xmalloc(total + strlen(indent) + 2);
	for (r = 0; r < t->nrows; r++) {
		o = 0;
		line[0] = '\0';
		if (!markdown)
			o += sprintf(line, "%s", indent);
		else
			line[o++] = '|';
		for (c = 0; c < t->ncols; c++) {
			s = t->cell[r * t->ncols + c];
			pad = w[c] - report_table_width(s);
			if (markdown)
				o += sprintf(line + o, " %s |", s);
			else
				o += sprintf(line + o, "%s%*s%s%*s",
				    c ? "  " : "", t->align[c] == 'r' ?
				    (int)pad : 0, "", s, t->align[c] == 'r' ?
				    0 : (int)pad, "");
		}
		while (o > 0 && line[o - 1] == ' ')
			o--;
		line[o] = '\0';
		fprintf(f, "%s\n", line);
		if (markdown && r == 0) {
			fputc('|', f);
			for (c = 0; c < t->ncols; c++)
				fputs(t->align[c] == 'r' ? " --: |" :
				    " --- |", f);
			fputc('\n', f);
		}
	}
	free(line);
	for (r = 0; r < t->nrows * t->ncols; r++)
		free(t->cell[r]);
	free(t->cell);
	memset(t, 0, sizeof *t);
}

/* The time now as ISO 8601 UTC ("2024-05-01T10:00:00Z") into buf. */
char *
report_utc_now(char *buf, size_t len)
{
	struct tm	tm;
	time_t		t = time(NULL);

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		buf[0] = '\0';
	return (buf);
}

/* SPDX-License-Identifier: ISC */
/*
 * A report of several targets for people: the answer to "volume or
 * instance?" in one sentence per resource, alone against together per
 * target, each figure side by side with its spread and the slowest member
 * named, then each target's own report.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "units.h"
#include "xmalloc.h"

#define MULTI_COLUMNS	8	/* targets side by side; more: min .. max */
#define MULTI_STANDS_OUT 1.05	/* max / min that names the slowest */

/* "volumes" when every target is a device or simulated volume. */
static const char *
report_multi_noun(const struct report *r)
{
	size_t	i;

	for (i = 0; i < r->ntargets; i++) {
		if (strcmp(r->targets[i].target.type, "file") == 0)
			return ("targets");
	}
	return ("volumes");
}

/* Whether every target's figure alone was a ceiling, not a bound. */
static int
report_multi_capped(const struct report *r, int bytes)
{
	const struct limits_result	*l;
	size_t				 i;

	for (i = 0; i < r->ntargets; i++) {
		if ((l = r->targets[i].limits) == NULL)
			return (0);
		if (bytes ? !isfinite(l->bandwidth_ceiling_bytes_per_s) :
		    l->iops_limit != CEILINGS_IOPS_CAP)
			return (0);
	}
	return (1);
}

/* A figure with its unit: "30,000 IOPS", "811 MiB/s". */
static char *
report_multi_fmt(enum units_kind unit, double v, char *buf, size_t len)
{
	char	b[UNITS_BUFSZ];

	units_format_value(unit, v, b, sizeof b);
	snprintf(buf, len, "%s%s", b, unit == UNITS_IOPS ? " IOPS" : "");
	return (buf);
}

/*
 * The one sentence that answers the question for one resource, over the
 * time it says: until a bucket the sum saw run dry (then the sentence on
 * the bucket gives the long run), or the run's own length.
 */
static void
report_multi_verdict(struct report_text *rt, const struct report *r,
    const struct together_verdict *v, enum units_kind unit, int bytes)
{
	const struct together_result *t = r->together;
	const char	*noun = report_multi_noun(r);
	char		 s[768], a[64], b[64], c[64];
	char		 lo[UNITS_INTERVAL_BUFSZ];
	char		 iv[160] = "", d[UNITS_BUFSZ];
	const char	*alone;
	int		 dropped;

	alone = report_multi_capped(r, bytes) ? "their own caps allow" :
	    "they reached alone";
	report_multi_fmt(unit, v->ceiling, a, sizeof a);
	report_multi_fmt(unit, v->sum_alone, b, sizeof b);
	dropped = !bytes && t->burst.detected && !t->burst.exhausted;
	if (dropped && v->bound == TOGETHER_VOLUMES) {
		snprintf(s, sizeof s, "Until a bucket they share ran dry after "
		    "%s, together the %zu %s reached %s, the %s %s: nothing "
		    "above them bound them while it lasted.",
		    units_format_value(UNITS_SECONDS, t->burst.drop_t_s, d,
		    sizeof d),
		    r->ntargets, noun, a, b, alone);
		report_text_sentence(rt, s);
		return;
	}
	if (!bytes && v->bound == TOGETHER_VOLUMES) {
		snprintf(s, sizeof s, "Together the %zu %s reach %s, the %s "
		    "%s: nothing above them binds in the %s of this run, so "
		    "each sets its own pace; a bucket they share, lasting "
		    "longer, could still lower the sum.", r->ntargets, noun, a,
		    b, alone, units_format_value(UNITS_SECONDS, t->seconds, d,
		    sizeof d));
		report_text_sentence(rt, s);
		return;
	}
	switch (v->bound) {
	case TOGETHER_SHARED:
		if (isfinite(v->shared_low) && isfinite(v->shared_high))
			snprintf(iv, sizeof iv, " (95%%: %s%s)",
			    units_format_interval(unit, v->shared_low,
			    v->shared_high, lo, sizeof lo), unit == UNITS_IOPS ?
			    " IOPS" : "");
		snprintf(s, sizeof s, "Together the %zu %s reach %s, not the "
		    "%s %s: a shared limit of about %s%s sits above them (the "
		    "instance or host), so another one would add nothing.",
		    r->ntargets, noun, a, b, alone, report_multi_fmt(unit,
		    v->shared, c, sizeof c), iv);
		break;
	case TOGETHER_VOLUMES:
		snprintf(s, sizeof s, "Together the %zu %s reach %s, the %s "
		    "%s: nothing above them binds at this load, so each sets "
		    "its own pace and another would add its own.",
		    r->ntargets, noun, a, b, alone);
		break;
	default:
		snprintf(s, sizeof s, "Together the %zu %s reach %s against "
		    "%s alone; the figures cannot tell what binds: %s.",
		    r->ntargets, noun, isfinite(v->ceiling) ? a :
		    "an unknown rate", isfinite(v->sum_alone) ? b : "unknown",
		    v->why[0] != '\0' ? v->why : "no reason given");
		break;
	}
	report_text_sentence(rt, s);
}

/* A bucket on the aggregate, and whose it is. */
static void
report_multi_burst(struct report_text *rt, const struct together_result *t)
{
	const struct burst	*b = &t->burst;
	char			 s[512], a[UNITS_BUFSZ], d[UNITS_BUFSZ];
	char			 c[UNITS_BUFSZ], k[UNITS_BUFSZ];

	if (!b->detected || b->exhausted)
		return;
	units_format_value(UNITS_IOPS, b->burst_iops, a, sizeof a);
	units_format_value(UNITS_SECONDS, b->drop_t_s, d, sizeof d);
	units_format_value(UNITS_IOPS, b->baseline_iops, c, sizeof c);
	units_format_value(UNITS_COUNT, b->credits_ios, k, sizeof k);
	if (t->burst_shared == 1)
		snprintf(s, sizeof s, "The sum ran at %s IOPS for %s, then "
		    "fell to %s IOPS for good: a bucket shared by all of them "
		    "(such as an instance's burst allowance, about %s I/Os) "
		    "ran dry; no target showed it alone. In the long run that "
		    "shared limit of %s IOPS binds them, so another volume "
		    "would add nothing.", a, d, c, k, c);
	else
		snprintf(s, sizeof s, "The sum fell from %s to %s IOPS after "
		    "%s; targets showed buckets alone too, so the drop may be "
		    "theirs.", a, c, d);
	report_text_sentence(rt, s);
}

/* Alone against together, per target and for the sum. */
static void
report_multi_table(struct report_text *rt, const struct report *r)
{
	const struct together_result	*t = r->together;
	const struct together_target	*p;
	struct report_table		 tab;
	char				 n[24], ai[UNITS_BUFSZ];
	char				 ti[UNITS_BUFSZ], ab[UNITS_BUFSZ];
	char				 tb[UNITS_BUFSZ];
	size_t				 i;

	report_table_init(&tab, "llrrrr");
	report_table_add(&tab, "", "target", "IOPS alone", "together",
	    "bandwidth alone", "together");
	for (i = 0; i < t->ntargets; i++) {
		p = &t->per_target[i];
		snprintf(n, sizeof n, "%zu", i + 1);
		report_table_add(&tab, n, p->path, units_format_value(
		    UNITS_IOPS, p->alone_iops, ai, sizeof ai),
		    units_format_value(UNITS_IOPS, p->iops, ti, sizeof ti),
		    units_format_value(UNITS_RATE,
		    p->alone_bandwidth_bytes_per_s, ab, sizeof ab),
		    units_format_value(UNITS_RATE, p->bandwidth_bytes_per_s,
		    tb, sizeof tb));
	}
	report_table_add(&tab, "", "sum", units_format_value(UNITS_IOPS,
	    t->iops.sum_alone, ai, sizeof ai), units_format_value(UNITS_IOPS,
	    t->iops.ceiling, ti, sizeof ti), units_format_value(UNITS_RATE,
	    t->bandwidth.sum_alone, ab, sizeof ab), units_format_value(
	    UNITS_RATE, t->bandwidth.ceiling, tb, sizeof tb));
	if (rt->md)
		fputc('\n', rt->f);
	report_table_write(&tab, rt->f, rt->md, "  ");
}

/* How the runs together were made. */
static void
report_multi_settings(struct report_text *rt, const struct together_result *t)
{
	char	line[256], a[UNITS_BUFSZ], b[UNITS_BUFSZ];

	if (rt->md)
		fputc('\n', rt->f);
	snprintf(line, sizeof line, "random %s at iodepth %u on each, for %s",
	    units_format_size(t->bs, a, sizeof a), t->iodepth,
	    units_format_value(UNITS_SECONDS, t->seconds, b, sizeof b));
	report_text_kv(rt, "IOPS run", line);
	snprintf(line, sizeof line, "random %s at iodepth %u on each, for %s",
	    units_format_size(t->bandwidth_bs, a, sizeof a),
	    t->bandwidth_iodepth, units_format_value(UNITS_SECONDS,
	    t->bandwidth_seconds, b, sizeof b));
	report_text_kv(rt, "bandwidth run", line);
	if (isfinite(t->cpu_util) && isfinite(t->bandwidth_cpu_util)) {
		snprintf(line, sizeof line, "%.2f cores in the IOPS run, "
		    "%.2f in the bandwidth run%s", t->cpu_util,
		    t->bandwidth_cpu_util, t->cpu_bound ? ": the limit" : "");
		report_text_kv(rt, "our CPU", line);
	}
	if (t->note[0] != '\0')
		report_text_kv(rt, "note", t->note);
}

/* The verdict: one sentence per resource, the bucket, the table. */
static void
report_multi_together(struct report_text *rt, const struct report *r)
{
	const struct together_result	*t = r->together;
	char				 title[96];

	snprintf(title, sizeof title, "Volume or instance? (%zu targets "
	    "alone, then together)", r->ntargets);
	report_text_heading(rt, title);
	report_multi_verdict(rt, r, &t->iops, UNITS_IOPS, 0);
	report_multi_verdict(rt, r, &t->bandwidth, UNITS_RATE, 1);
	report_multi_burst(rt, t);
	if (t->cpu_bound)
		report_text_sentence(rt, "This machine's CPU was the limit "
		    "together: a faster host (or fewer targets) would show "
		    "more.");
	if (t->interrupted)
		report_text_sentence(rt, "The run together was interrupted: "
		    "the figures rest on what it measured.");
	if (!rt->md)
		fputc('\n', rt->f);
	report_multi_table(rt, r);
	report_multi_settings(rt, t);
}

/* The value of figure name in fig[n], or NAN; its bound into *bound. */
static double
report_multi_value(const struct report_figure *fig, size_t n,
    const char *name, int *bound)
{
	size_t	i;

	*bound = REPORT_BOUND_NONE;
	for (i = 0; i < n; i++) {
		if (strcmp(fig[i].name, name) == 0) {
			*bound = report_figure_bound(&fig[i]);
			return (fig[i].value);
		}
	}
	return (NAN);
}

/*
 * One figure of every target (v[n], bounds bound[n]) as table cells: each
 * value with "<= " or ">= " when it is a bound (or, with more than
 * MULTI_COLUMNS targets, min, median and max, marked when every value is
 * the same kind of bound), max / min, and the slowest target where the
 * figure is a speed.
 */
static void
report_multi_row(const struct report_figure *row, const double *v,
    const int *bound, size_t n, char cell[][64], size_t m)
{
	double	*x, lo = INFINITY, hi = -INFINITY, show[MULTI_COLUMNS];
	size_t	 i, k = 0, slow = n;
	int	 latency = row->unit == UNITS_LAT_US;
	int	 speed = row->unit == UNITS_IOPS || row->unit == UNITS_RATE;
	int	 all = -1, kind[MULTI_COLUMNS];
	char	 b[UNITS_BUFSZ];

	x = xcalloc(n, sizeof *x);
	for (i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		all = all == -1 || all == bound[i] ? bound[i] :
		    REPORT_BOUND_NONE;
		x[k++] = v[i];
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
		if ((latency || speed) && (slow == n ||
		    (speed ? v[i] < v[slow] : v[i] > v[slow])))
			slow = i;
	}
	if (n <= MULTI_COLUMNS) {
		memcpy(show, v, n * sizeof *v);
		memcpy(kind, bound, n * sizeof *bound);
	} else {
		show[0] = k > 0 ? lo : NAN;
		show[1] = stats_median(x, k);
		show[2] = k > 0 ? hi : NAN;
		kind[0] = kind[1] = kind[2] = all;
	}
	free(x);
	for (i = 0; i < m; i++) {
		if (isfinite(show[i]))
			snprintf(cell[i], 64, "%s%s", report_bound_prefix(
			    kind[i]), units_format_value(row->unit, show[i],
			    b, sizeof b));
		else
			snprintf(cell[i], 64, "%s", REPORT_NA);
	}
	if (k > 1 && lo > 0)
		snprintf(cell[m], 64, "%.2fx", hi / lo);
	else
		snprintf(cell[m], 64, "%s", REPORT_NA);
	cell[m + 1][0] = '\0';
	if (slow < n && lo > 0 && hi / lo >= MULTI_STANDS_OUT)
		snprintf(cell[m + 1], 64, "%zu", slow + 1);
}

/*
 * Every headline figure of the targets side by side (or their min,
 * median and max), with max / min and the slowest target where the
 * figure is a latency or a speed.
 */
static void
report_multi_spread(struct report_text *rt, const struct report *r)
{
	struct report_figure	*fig, *row;
	struct report_table	 tab;
	size_t			*nf, nrow = 0, i, j, k, m, n = r->ntargets;
	double			*v, shared = report_shared_long_iops(r);
	int			*bound, skip, capped = 0;
	char			 align[16], cell[MULTI_COLUMNS + 2][64];
	char			 note[160];
	const char		*c[15];

	fig = xcalloc(n * REPORT_STATS_MAX, sizeof *fig);
	row = xcalloc(n * REPORT_STATS_MAX, sizeof *row);
	nf = xcalloc(n, sizeof *nf);
	v = xcalloc(n, sizeof *v);
	bound = xcalloc(n, sizeof *bound);
	for (i = 0; i < n; i++) {
		nf[i] = report_headlines(&r->targets[i],
		    &fig[i * REPORT_STATS_MAX], REPORT_STATS_MAX);
		for (k = 0; k < nf[i]; k++) {
			if (isnan(report_multi_value(row, nrow,
			    fig[i * REPORT_STATS_MAX + k].name, &skip)) &&
			    !isnan(fig[i * REPORT_STATS_MAX + k].value))
				row[nrow++] = fig[i * REPORT_STATS_MAX + k];
		}
	}
	if (nrow == 0)
		goto out;
	report_text_heading(rt, "Side by side (spread across the targets)");
	m = n <= MULTI_COLUMNS ? n : 3;
	memset(align, 0, sizeof align);
	memset(align, 'r', m + 2);
	align[0] = 'l';
	align[m + 2] = 'l';
	report_table_init(&tab, align);
	for (k = 0; k < 15; k++)
		c[k] = NULL;
	c[0] = "figure";
	for (k = 0; k < m; k++) {
		if (n <= MULTI_COLUMNS)
			snprintf(cell[k], sizeof cell[k], "%zu", k + 1);
		else
			snprintf(cell[k], sizeof cell[k], "%s", k == 0 ?
			    "min" : k == 1 ? "median" : "max");
		c[k + 1] = cell[k];
	}
	c[m + 1] = "max/min";
	c[m + 2] = "slowest";
	report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
	    c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	for (j = 0; j < nrow; j++) {
		for (i = 0; i < n; i++) {
			v[i] = report_multi_value(&fig[i * REPORT_STATS_MAX],
			    nf[i], row[j].name, &bound[i]);
			/* A bucket they share left each no more. */
			if (strcmp(row[j].name, "limits.long_run_iops") == 0 &&
			    isfinite(shared) && !(v[i] <= shared)) {
				v[i] = shared;
				bound[i] = REPORT_BOUND_AT_MOST;
				capped = 1;
			}
		}
		report_multi_row(&row[j], v, bound, n, cell, m);
		c[0] = row[j].label;
		for (k = 0; k < m + 2; k++)
			c[k + 1] = cell[k];
		report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5],
		    c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	}
	report_table_write(&tab, rt->f, rt->md, "  ");
	if (capped) {
		snprintf(note, sizeof note, "Long-run IOPS: at most the %s "
		    "IOPS a bucket the targets share left them together, which "
		    "binds each alone too.", units_format_value(UNITS_IOPS,
		    shared, cell[0], sizeof cell[0]));
		report_text_sentence(rt, note);
	}
out:
	free(bound);
	free(v);
	free(nf);
	free(row);
	free(fig);
}

/* Which target sets the pace of a RAID of them, in a sentence. */
static void
report_multi_slowest(struct report_text *rt, const struct report *r)
{
	const struct report	*t;
	char			 s[512], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	double			 x, best = NAN, worst = NAN;
	size_t			 i, slow = r->ntargets;
	int			 lat = 1;

	for (i = 0; i < r->ntargets; i++) {
		t = &r->targets[i];
		if (t->limits != NULL && isfinite(t->limits->iops_ceiling)) {
			lat = 0;
			break;
		}
	}
	for (i = 0; i < r->ntargets; i++) {
		t = &r->targets[i];
		x = NAN;
		if (lat && t->scan != NULL && t->scan->tiers.analysed)
			x = t->scan->tiers.backing_p50_us;
		else if (!lat && t->limits != NULL)
			x = t->limits->iops_ceiling;
		if (!isfinite(x))
			continue;
		if (slow == r->ntargets || (lat ? x > worst : x < worst)) {
			slow = i;
			worst = x;
		}
		if (isnan(best) || (lat ? x < best : x > best))
			best = x;
	}
	if (slow == r->ntargets || !(worst > 0 && best > 0) ||
	    (lat ? worst / best : best / worst) < MULTI_STANDS_OUT)
		return;
	snprintf(s, sizeof s, "Striped together (RAID 0), the slowest member "
	    "sets the pace: target %zu (%s) has the %s %s (%s, against %s "
	    "for the best).", slow + 1, r->targets[slow].target.path,
	    lat ? "highest" : "lowest", lat ? "backing-store p50" :
	    "IOPS ceiling", units_format_value(lat ? UNITS_LAT_US :
	    UNITS_IOPS, worst, a, sizeof a), units_format_value(lat ?
	    UNITS_LAT_US : UNITS_IOPS, best, b, sizeof b));
	report_text_sentence(rt, s);
}

/* A report of several targets for people; see report.h. */
void
report_multi_write(const struct report *r, FILE *f, int markdown)
{
	struct report_text	 rt = { f, markdown };
	const struct report	*t;
	struct report		 m;
	char			 line[512], title[4200];
	const char		*cmd;
	size_t			 i;

	cmd = r->config.command[0] ? r->config.command : "run";
	if (markdown)
		fprintf(f, "# tierprobe %s: %s of %zu targets\n\n",
		    r->tool_version, cmd, r->ntargets);
	else
		fprintf(f, "tierprobe %s: %s of %zu targets\n",
		    r->tool_version, cmd, r->ntargets);
	if (r->fault != NULL)
		report_text_fault(&rt, r->fault);
	else if (r->interrupted)
		report_text_sentence(&rt, "INTERRUPTED: the run was stopped "
		    "early; the figures cover only what was measured.");
	for (i = 0; i < r->ntargets; i++) {
		snprintf(title, sizeof title, "target %zu", i + 1);
		report_text_kv(&rt, title, r->targets[i].target.path != NULL ?
		    r->targets[i].target.path : "?");
	}
	snprintf(line, sizeof line, "%s to %s, seed %llu",
	    r->started_utc[0] ? r->started_utc : "unknown",
	    r->finished_utc[0] ? r->finished_utc : "unknown",
	    (unsigned long long)r->config.seed);
	report_text_kv(&rt, "run", line);
	report_verdict_text(&rt, r);
	if (r->together != NULL)
		report_multi_together(&rt, r);
	report_multi_spread(&rt, r);
	report_multi_slowest(&rt, r);
	if (r->checks != NULL) {
		report_text_heading(&rt, "Expectations (each target)");
		report_check_write(r, r->checks, f, markdown);
	}
	for (i = 0; i < r->ntargets; i++) {
		/* Each as a report of one, with the run's settings. */
		t = &r->targets[i];
		m = *t;
		m.config = r->config;
		m.interrupted = r->interrupted;
		memcpy(m.tool_version, r->tool_version, sizeof m.tool_version);
		memcpy(m.started_utc, r->started_utc, sizeof m.started_utc);
		memcpy(m.finished_utc, r->finished_utc, sizeof m.finished_utc);
		snprintf(title, sizeof title, "Target %zu of %zu: %s", i + 1,
		    r->ntargets, t->target.path != NULL ? t->target.path :
		    "?");
		report_text_heading(&rt, title);
		report_text_member(&m, f, markdown);
	}
}

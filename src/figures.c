/* SPDX-License-Identifier: ISC */
/*
 * The figures of a report by alias.  figures_table is the one place that
 * says which report figure an alias stands for; a section added to the
 * report plugs in with a row (and its figure in report_headlines).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"

static void	figures_get_tiers(const struct report *,
		    const struct figures_def *, unsigned,
		    struct figures_value *);
static void	figures_get_capacity(const struct report *,
		    const struct figures_def *, unsigned,
		    struct figures_value *);
static void	figures_get_burst(const struct report *,
		    const struct figures_def *, unsigned,
		    struct figures_value *);

/* alias, path, unit, label, section, better, discrete, fleet, getter. */
static const struct figures_def figures_table[] = {
	{ "tiers", "scan.tiers", REPORT_UNIT_PLAIN, "cache tiers", "scan",
	  0, 1, 1, figures_get_tiers },
	{ "tierN.capacity", "scan.tiers[N].capacity_bytes", REPORT_UNIT_BYTES,
	  "tier N capacity", "scan", 0, 0, 0, figures_get_capacity },
	{ "tierN.p50", "scan.tiers[N].lat_us_p50", REPORT_UNIT_LAT_US,
	  "tier N p50", "scan", -1, 0, 0, NULL },
	{ "tierN.p99", "scan.tiers[N].lat_us_p99", REPORT_UNIT_LAT_US,
	  "tier N p99", "scan", -1, 0, 0, NULL },
	{ "p50", "scan.backing.lat_us_p50", REPORT_UNIT_LAT_US,
	  "backing p50", "scan", -1, 0, 1, NULL },
	{ "p99", "scan.backing.lat_us_p99", REPORT_UNIT_LAT_US,
	  "backing p99", "scan", -1, 0, 1, NULL },
	{ "iops", "limits.iops_ceiling", REPORT_UNIT_IOPS, "IOPS ceiling",
	  "limits", 1, 0, 1, NULL },
	{ "knee", "limits.iops_knee_iodepth", REPORT_UNIT_PLAIN,
	  "knee iodepth", "limits", 0, 1, 0, NULL },
	{ "bandwidth", "limits.bandwidth_ceiling_bytes_per_s",
	  REPORT_UNIT_RATE, "bandwidth ceiling", "limits", 1, 0, 1, NULL },
	{ "accounting", "limits.io_accounting_bytes", REPORT_UNIT_BYTES,
	  "accounting size", "limits", 0, 1, 0, NULL },
	{ "burst", "limits.burst.detected", REPORT_UNIT_PLAIN, "burst bucket",
	  "limits", 0, 1, 0, figures_get_burst },
	{ "burst.iops", "limits.burst.burst_iops", REPORT_UNIT_IOPS,
	  "burst IOPS", "limits", 1, 0, 1, NULL },
	{ "burst.baseline_iops", "limits.burst.baseline_iops",
	  REPORT_UNIT_IOPS, "baseline IOPS", "limits", 1, 0, 1, NULL },
	{ "burst.duration", "limits.burst.duration_s", REPORT_UNIT_SECONDS,
	  "burst duration", "limits", 1, 0, 0, NULL },
	{ "burst.credits", "limits.burst.credits_ios", REPORT_UNIT_COUNT,
	  "burst credits", "limits", 1, 0, 0, NULL },
};
#define FIGURES_N	(sizeof figures_table / sizeof figures_table[0])

/* How many figures the table holds. */
size_t
figures_count(void)
{
	return (FIGURES_N);
}

/* The i-th figure of the table. */
const struct figures_def *
figures_at(size_t i)
{
	return (i < FIGURES_N ? &figures_table[i] : NULL);
}

/* Match name against alias, where N in alias stands for 1..TIERS_MAX. */
static int
figures_match(const char *alias, const char *name, unsigned *index)
{
	unsigned	n;

	*index = 0;
	for (; *alias != '\0'; alias++, name++) {
		if (*alias != 'N') {
			if (*alias != *name)
				return (0);
			continue;
		}
		if (*name < '1' || *name > '9')
			return (0);
		for (n = 0; *name >= '0' && *name <= '9' && n <= TIERS_MAX;
		    name++)
			n = n * 10 + (*name - '0');
		if (n > TIERS_MAX)
			return (0);
		*index = n;
		name--;
	}
	return (*name == '\0');
}

/* The figure named name; NULL if none. */
const struct figures_def *
figures_find(const char *name, unsigned *index)
{
	size_t	i;

	for (i = 0; i < FIGURES_N; i++) {
		if (figures_match(figures_table[i].alias, name, index))
			return (&figures_table[i]);
	}
	return (NULL);
}

/* The aliases, comma-separated. */
const char *
figures_names(void)
{
	static char	buf[512];
	size_t		i, o = 0;

	if (buf[0] != '\0')
		return (buf);
	for (i = 0; i < FIGURES_N && o < sizeof buf; i++)
		o += snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "",
		    figures_table[i].alias);
	return (buf);
}

/* Copy s into buf with N replaced by n. */
static void
figures_subst(const char *s, unsigned n, char *buf, size_t len)
{
	size_t	o = 0;

	for (; *s != '\0' && o + 4 < len; s++) {
		if (*s == 'N')
			o += snprintf(buf + o, len - o, "%u", n);
		else
			buf[o++] = *s;
	}
	buf[o] = '\0';
}

/* A figure of report_headlines, its 95% interval from its noise. */
static void
figures_get_headline(const struct report *r, const struct figures_def *d,
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

/* tiers: how many caches the scan found. */
static void
figures_get_tiers(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	(void)d;
	(void)index;
	if (!r->scan->tiers.analysed) {
		snprintf(fv->why, sizeof fv->why, "the scan was not analysed");
		return;
	}
	fv->value = (double)r->scan->tiers.ntiers;
}

/* tierN.capacity: the interval is the tier's own. */
static void
figures_get_capacity(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct tier	*t;

	figures_get_headline(r, d, index, fv);
	if (!isfinite(fv->value))
		return;
	t = &r->scan->tiers.tier[index - 1];
	fv->low = t->capacity_low_bytes > 0 ? t->capacity_low_bytes : NAN;
	fv->high = !t->at_least && t->capacity_high_bytes > 0 ?
	    t->capacity_high_bytes : NAN;
}

/* burst: 1 if the sustained run showed a bucket, else 0. */
static void
figures_get_burst(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	(void)d;
	(void)index;
	fv->value = r->limits->burst.detected ? 1 : 0;
}

/* The value of figure d (tier index as figures_find gave) in report r. */
void
figures_get(const struct report *r, const struct figures_def *d,
    unsigned index, struct figures_value *fv)
{
	const struct report_stat	*st;

	memset(fv, 0, sizeof *fv);
	fv->value = fv->low = fv->high = NAN;
	figures_subst(d->path, index > 0 ? index - 1 : 0, fv->path,
	    sizeof fv->path);
	if ((strcmp(d->section, "scan") == 0 && r->scan == NULL) ||
	    (strcmp(d->section, "limits") == 0 && r->limits == NULL)) {
		snprintf(fv->why, sizeof fv->why, "the report has no %s "
		    "section (%s measures it)", d->section,
		    strcmp(d->section, "scan") == 0 ? "run or scan" :
		    "run or limits");
		return;
	}
	if (d->get != NULL)
		d->get(r, d, index, fv);
	else
		figures_get_headline(r, d, index, fv);
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
		fv->why[0] = '\0';
	}
}

/* The label of figure d for people, N replaced ("tier 2 capacity"). */
char *
figures_label(const struct figures_def *d, unsigned index, char *buf,
    size_t len)
{
	figures_subst(d->label, index, buf, len);
	return (buf);
}

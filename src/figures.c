/* SPDX-License-Identifier: ISC */
/*
 * The figures of a report by alias.  figures_table is the one place that
 * says which report figure an alias stands for; a section added to the
 * report plugs in with a row (and its figure in report_headlines).  Pure
 * data: report_figure (report.c) reads a value from a report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "tiers.h"

/*
 * alias, path, unit, label, section, better, discrete, fleet, source, and
 * a plot axis other than the unit's.
 */
static const struct figures_def figures_table[] = {
	{ "tiers", "scan.tiers", UNITS_PLAIN, "cache tiers", "scan",
	  0, 1, 1, FIGURES_TIERS, NULL },
	{ "tierN.capacity", "scan.tiers[N].capacity_bytes", UNITS_BYTES,
	  "tier N capacity", "scan", 0, 0, 0, FIGURES_CAPACITY, NULL },
	{ "tierN.p50", "scan.tiers[N].lat_us_p50", UNITS_LAT_US,
	  "tier N p50", "scan", -1, 0, 0, FIGURES_HEADLINE, NULL },
	{ "tierN.p99", "scan.tiers[N].lat_us_p99", UNITS_LAT_US,
	  "tier N p99", "scan", -1, 0, 0, FIGURES_HEADLINE, NULL },
	{ "p50", "scan.backing.lat_us_p50", UNITS_LAT_US,
	  "backing p50", "scan", -1, 0, 1, FIGURES_HEADLINE, NULL },
	{ "p99", "scan.backing.lat_us_p99", UNITS_LAT_US,
	  "backing p99", "scan", -1, 0, 1, FIGURES_HEADLINE, NULL },
	{ "iops", "limits.iops_ceiling", UNITS_IOPS, "IOPS ceiling",
	  "limits", 1, 0, 1, FIGURES_LONG_RUN, NULL },
	{ "burst_iops", "limits.iops_ceiling", UNITS_IOPS,
	  "IOPS ceiling as measured", "limits", 1, 0, 0, FIGURES_HEADLINE,
	  NULL },
	{ "knee", "limits.iops_knee_iodepth", UNITS_PLAIN,
	  "knee iodepth", "limits", 0, 1, 0, FIGURES_HEADLINE, NULL },
	{ "bandwidth", "limits.bandwidth_ceiling_bytes_per_s", UNITS_RATE,
	  "bandwidth ceiling", "limits", 1, 0, 1, FIGURES_LONG_RUN, NULL },
	{ "burst_bandwidth", "limits.bandwidth_ceiling_bytes_per_s",
	  UNITS_RATE, "bandwidth ceiling as measured", "limits", 1, 0, 0,
	  FIGURES_HEADLINE, NULL },
	{ "accounting", "limits.io_accounting_bytes", UNITS_BYTES,
	  "accounting size", "limits", 0, 1, 0, FIGURES_HEADLINE, NULL },
	{ "burst", "limits.burst.detected", UNITS_PLAIN, "burst bucket",
	  "limits", 0, 1, 0, FIGURES_BURST, NULL },
	{ "burst.iops", "limits.burst.burst_iops", UNITS_IOPS,
	  "burst IOPS", "limits", 1, 0, 1, FIGURES_HEADLINE, NULL },
	{ "burst.baseline_iops", "limits.burst.baseline_iops", UNITS_IOPS,
	  "baseline IOPS", "limits", 1, 0, 1, FIGURES_HEADLINE, NULL },
	{ "burst.duration", "limits.burst.duration_s", UNITS_SECONDS,
	  "burst duration", "limits", 1, 0, 0, FIGURES_HEADLINE, NULL },
	{ "burst.credits", "limits.burst.credits_ios", UNITS_COUNT,
	  "burst credits", "limits", 1, 0, 0, FIGURES_HEADLINE, NULL },
	{ "commit.p50", "sync.methods[N].lat_us.p50", UNITS_LAT_US,
	  "commit p50", "sync", -1, 0, 1, FIGURES_COMMIT, NULL },
	{ "commit.p99", "sync.methods[N].lat_us.p99", UNITS_LAT_US,
	  "commit p99", "sync", -1, 0, 1, FIGURES_COMMIT, NULL },
	{ "commit.rate", "sync.methods[N].ops_per_s", UNITS_IOPS,
	  "commits per second", "sync", 1, 0, 1, FIGURES_COMMIT,
	  "commits/s" },
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

/*
 * The figure an expectation on d asks for when it asks for a burst rate
 * (of_burst): the ceiling as measured for iops and bandwidth, d otherwise.
 */
const struct figures_def *
figures_burst_of(const struct figures_def *d)
{
	unsigned	index;
	char		name[32];

	if (d->source != FIGURES_LONG_RUN)
		return (d);
	snprintf(name, sizeof name, "burst_%s", d->alias);
	return (figures_find(name, &index));
}

/* Whether d is the burst figure of a long-run one ("burst_iops"). */
int
figures_is_burst(const struct figures_def *d)
{
	size_t	i;

	for (i = 0; i < FIGURES_N; i++) {
		if (figures_table[i].source == FIGURES_LONG_RUN &&
		    figures_burst_of(&figures_table[i]) == d)
			return (1);
	}
	return (0);
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

/* Copy s into buf with N replaced by n, or dropped when n is -1. */
static void
figures_subst(const char *s, long n, char *buf, size_t len)
{
	size_t	o = 0;

	for (; *s != '\0' && o + 4 < len; s++) {
		if (*s == 'N' && n >= 0)
			o += snprintf(buf + o, len - o, "%ld", n);
		else if (*s != 'N')
			buf[o++] = *s;
	}
	buf[o] = '\0';
}

/*
 * The JSON path of figure d for index (from 1; 0: none, "sync.methods[]"),
 * N resolved.
 */
char *
figures_path(const struct figures_def *d, unsigned index, char *buf,
    size_t len)
{
	figures_subst(d->path, (long)index - 1, buf, len);
	return (buf);
}

/* The label of figure d for people, N replaced ("tier 2 capacity"). */
char *
figures_label(const struct figures_def *d, unsigned index, char *buf,
    size_t len)
{
	figures_subst(d->label, index, buf, len);
	return (buf);
}

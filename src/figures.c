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

/* alias, path, unit, label, section, better, discrete, fleet, source. */
static const struct figures_def figures_table[] = {
	{ "tiers", "scan.tiers", UNITS_PLAIN, "cache tiers", "scan",
	  0, 1, 1, FIGURES_TIERS },
	{ "tierN.capacity", "scan.tiers[N].capacity_bytes", UNITS_BYTES,
	  "tier N capacity", "scan", 0, 0, 0, FIGURES_CAPACITY },
	{ "tierN.p50", "scan.tiers[N].lat_us_p50", UNITS_LAT_US,
	  "tier N p50", "scan", -1, 0, 0, FIGURES_HEADLINE },
	{ "tierN.p99", "scan.tiers[N].lat_us_p99", UNITS_LAT_US,
	  "tier N p99", "scan", -1, 0, 0, FIGURES_HEADLINE },
	{ "p50", "scan.backing.lat_us_p50", UNITS_LAT_US,
	  "backing p50", "scan", -1, 0, 1, FIGURES_HEADLINE },
	{ "p99", "scan.backing.lat_us_p99", UNITS_LAT_US,
	  "backing p99", "scan", -1, 0, 1, FIGURES_HEADLINE },
	{ "iops", "limits.iops_ceiling", UNITS_IOPS, "IOPS ceiling",
	  "limits", 1, 0, 1, FIGURES_HEADLINE },
	{ "knee", "limits.iops_knee_iodepth", UNITS_PLAIN,
	  "knee iodepth", "limits", 0, 1, 0, FIGURES_HEADLINE },
	{ "bandwidth", "limits.bandwidth_ceiling_bytes_per_s", UNITS_RATE,
	  "bandwidth ceiling", "limits", 1, 0, 1, FIGURES_HEADLINE },
	{ "accounting", "limits.io_accounting_bytes", UNITS_BYTES,
	  "accounting size", "limits", 0, 1, 0, FIGURES_HEADLINE },
	{ "burst", "limits.burst.detected", UNITS_PLAIN, "burst bucket",
	  "limits", 0, 1, 0, FIGURES_BURST },
	{ "burst.iops", "limits.burst.burst_iops", UNITS_IOPS,
	  "burst IOPS", "limits", 1, 0, 1, FIGURES_HEADLINE },
	{ "burst.baseline_iops", "limits.burst.baseline_iops", UNITS_IOPS,
	  "baseline IOPS", "limits", 1, 0, 1, FIGURES_HEADLINE },
	{ "burst.duration", "limits.burst.duration_s", UNITS_SECONDS,
	  "burst duration", "limits", 1, 0, 0, FIGURES_HEADLINE },
	{ "burst.credits", "limits.burst.credits_ios", UNITS_COUNT,
	  "burst credits", "limits", 1, 0, 0, FIGURES_HEADLINE },
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

/* The JSON path of figure d for tier index (0: none), N resolved. */
char *
figures_path(const struct figures_def *d, unsigned index, char *buf,
    size_t len)
{
	figures_subst(d->path, index > 0 ? index - 1 : 0, buf, len);
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

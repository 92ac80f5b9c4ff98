/* SPDX-License-Identifier: ISC */
/*
 * What every renderer shares: freeing a report, its headline figures and
 * their spread over repeated runs, aligned tables, the time stamp.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "stats.h"
#include "units.h"
#include "xmalloc.h"

/*
 * Release what a report owns: path, repeat, and its sections, heap
 * objects the report took over (freed by their modules).
 */
void
report_free(struct report *r)
{
	if (r == NULL)
		return;
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
	free(r->target.path);
	r->target.path = NULL;
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

static void
report_add(struct report_figure *fig, size_t max, size_t *n,
    const char *name, const char *label, enum units_kind unit, double value,
    double rel_noise)
{
	struct report_figure	*f;

	if (*n >= max)
		return;
	f = &fig[(*n)++];
	memset(f, 0, sizeof *f);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->label, sizeof f->label, "%s", label);
	f->unit = unit;
	f->value = value;
	f->rel_noise = rel_noise;
}

/* The headline figures of a report into fig[max]; returns the count. */
size_t
report_headlines(const struct report *r, struct report_figure *fig,
    size_t max)
{
	const struct tiers_result	*tr;
	const struct limits_result	*l;
	const struct tier		*t;
	const struct point		*p;
	char				 name[48], label[48];
	double				 ci, noise, best;
	size_t				 n = 0, i, j;

	if (r->scan != NULL && r->scan->tiers.analysed) {
		tr = &r->scan->tiers;
		ci = report_median_ci(r->scan->points, r->scan->npoints);
		for (i = 0; i < tr->ntiers && i < TIERS_MAX; i++) {
			t = &tr->tier[i];
			noise = NAN;
			if (!t->at_least && t->capacity_bytes > 0 &&
			    t->capacity_high_bytes >= t->capacity_low_bytes &&
			    t->capacity_high_bytes > 0)
				noise = (double)(t->capacity_high_bytes -
				    t->capacity_low_bytes) / 2 /
				    t->capacity_bytes;
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].capacity_bytes", i);
			snprintf(label, sizeof label, "tier %zu capacity",
			    i + 1);
			j = n;
			report_add(fig, max, &n, name, label,
			    UNITS_BYTES, t->capacity_bytes > 0 ?
			    (double)t->capacity_bytes : NAN, noise);
			if (n > j)
				fig[j].at_least = t->at_least;
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].lat_us_p50", i);
			snprintf(label, sizeof label, "tier %zu p50", i + 1);
			report_add(fig, max, &n, name, label,
			    UNITS_LAT_US, t->lat_us_p50, ci);
			snprintf(name, sizeof name,
			    "scan.tiers[%zu].lat_us_p99", i);
			snprintf(label, sizeof label, "tier %zu p99", i + 1);
			report_add(fig, max, &n, name, label,
			    UNITS_LAT_US, t->lat_us_p99, NAN);
		}
		report_add(fig, max, &n, "scan.backing.lat_us_p50",
		    "backing p50", UNITS_LAT_US, tr->backing_p50_us, ci);
		report_add(fig, max, &n, "scan.backing.lat_us_p99",
		    "backing p99", UNITS_LAT_US, tr->backing_p99_us,
		    NAN);
	}
	if (r->limits != NULL) {
		l = r->limits;
		noise = NAN;
		best = -1;
		for (i = 0; i < l->nqd; i++) {
			p = &l->qd_points[i];
			if (l->iops_knee_iodepth != 0 ?
			    p->iodepth == l->iops_knee_iodepth :
			    p->iops > best) {
				best = p->iops;
				noise = p->ci95_rel;
			}
		}
		report_add(fig, max, &n, "limits.iops_ceiling", "IOPS ceiling",
		    UNITS_IOPS, l->iops_ceiling, noise);
		report_add(fig, max, &n, "limits.iops_knee_iodepth",
		    "knee iodepth", UNITS_PLAIN,
		    l->iops_knee_iodepth ? l->iops_knee_iodepth : NAN, NAN);
		noise = NAN;
		best = -1;
		for (i = 0; i < l->nbs; i++) {
			p = &l->bs_points[i];
			if (p->bytes_per_s > best) {
				best = p->bytes_per_s;
				noise = p->ci95_rel;
			}
		}
		report_add(fig, max, &n, "limits.bandwidth_ceiling_bytes_per_s",
		    "bandwidth ceiling", UNITS_RATE,
		    l->bandwidth_ceiling_bytes_per_s, noise);
		report_add(fig, max, &n, "limits.io_accounting_bytes",
		    "accounting size", UNITS_BYTES,
		    l->io_accounting_bytes ? l->io_accounting_bytes : NAN,
		    NAN);
		report_add(fig, max, &n, "limits.burst.burst_iops",
		    "burst IOPS", UNITS_IOPS, l->burst.detected ?
		    l->burst.burst_iops : NAN, NAN);
		report_add(fig, max, &n, "limits.burst.baseline_iops",
		    "baseline IOPS", UNITS_IOPS, l->burst.detected ?
		    l->burst.baseline_iops : NAN, NAN);
		report_add(fig, max, &n, "limits.burst.duration_s",
		    "burst duration", UNITS_SECONDS, l->burst.detected ?
		    l->burst.duration_s : NAN, NAN);
		report_add(fig, max, &n, "limits.burst.credits_ios",
		    "burst credits", UNITS_COUNT, l->burst.detected ?
		    l->burst.credits_ios : NAN, NAN);
	}
	for (i = 0; i < n; i++) {
		if (!isfinite(fig[i].rel_noise) || fig[i].rel_noise < 0)
			fig[i].rel_noise = NAN;
	}
	return (n);
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

/* Mean, sd and cv of the headline figures of n reports, matched by name. */
void
report_repeat_aggregate(const struct report *reps, int n,
    struct report_repeat *out)
{
	struct report_figure	 fig[REPORT_STATS_MAX];
	struct report_stat	*s;
	double			 sum[REPORT_STATS_MAX];
	double			 sq[REPORT_STATS_MAX];
	double			 d;
	size_t			 nf, i, j;
	int			 k;

	memset(out, 0, sizeof *out);
	if (n < 1)
		return;
	out->runs = n;
	memset(sum, 0, sizeof sum);
	/* First pass: names in order of appearance, and means. */
	for (k = 0; k < n; k++) {
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
			}
			if (isfinite(fig[i].value)) {
				out->stat[j].n++;
				sum[j] += fig[i].value;
			}
		}
	}
	for (j = 0; j < out->nstats; j++)
		out->stat[j].mean = out->stat[j].n ? sum[j] / out->stat[j].n :
		    NAN;
	/* Second pass: squared deviations from the mean. */
	memset(sq, 0, sizeof sq);
	for (k = 0; k < n; k++) {
		nf = report_headlines(&reps[k], fig, REPORT_STATS_MAX);
		for (i = 0; i < nf; i++) {
			if (!isfinite(fig[i].value))
				continue;
			for (j = 0; j < out->nstats; j++) {
				if (strcmp(out->stat[j].name, fig[i].name) == 0)
					break;
			}
			if (j == out->nstats)
				continue;
			d = fig[i].value - out->stat[j].mean;
			sq[j] += d * d;
		}
	}
	for (j = 0; j < out->nstats; j++) {
		s = &out->stat[j];
		s->sd = s->n >= 2 ? sqrt(sq[j] / (s->n - 1)) : NAN;
		s->cv = (s->n >= 2 && s->mean != 0) ? s->sd / fabs(s->mean) :
		    NAN;
	}
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

/* A line of a key-value block. */
void
report_text_kv(const struct report_text *rt, const char *key,
    const char *value)
{
	if (rt->md)
		fprintf(rt->f, "- **%s**: %s\n", key, value);
	else
		fprintf(rt->f, "%s%-18s %s\n", REPORT_TEXT_INDENT, key, value);
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

/* A figure for a table cell: NAN is "n/a". */
char *
report_text_cell(enum units_kind unit, double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return (buf);
	}
	return (units_format_value(unit, v, buf, len));
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

/* Print a table aligned (text) or as a pipe table (markdown), and free it. */
void
report_table_write(struct report_table *t, FILE *f, int markdown,
    const char *indent)
{
	size_t		 w[16], r, c, len, total = 0, o;
	const char	*s;
	char		*line;

	memset(w, 0, sizeof w);
	for (r = 0; r < t->nrows; r++) {
		for (c = 0; c < t->ncols; c++) {
			len = strlen(t->cell[r * t->ncols + c]);
			if (len > w[c])
				w[c] = len;
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
			if (markdown)
				o += sprintf(line + o, " %s |", s);
			else
				o += sprintf(line + o, "%s%*s", c ? "  " : "",
				    t->align[c] == 'r' ? (int)w[c] : -(int)w[c],
				    s);
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

/* SPDX-License-Identifier: ISC */
/*
 * compare: headline figures of several reports side by side with ratios
 * to the first, marking differences larger than run-to-run noise and the
 * bucket state each figure was measured in: figures a bucket may have
 * lifted are never called equal.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "compare.h"
#include "ebsstats.h"
#include "report.h"
#include "standing.h"
#include "units.h"

/* A figure of one report: value and 95% half-width (NAN unknown). */
struct compare_cell {
	int	present;
	double	value;
	double	noise;
	int	bound;		/* enum report_bound */
	int	state;		/* enum bucket_state */
	struct standing st;	/* standing.c's decision on it */
};

/* Whether b differs from a by more than their combined noise. */
int
compare_differs(double a, double noise_a, double b, double noise_b)
{
	if (!isfinite(a) || !isfinite(b) || !isfinite(noise_a) ||
	    !isfinite(noise_b))
		return (-1);
	return (fabs(b - a) > sqrt(noise_a * noise_a + noise_b * noise_b));
}

/* standing.c's decision on cell c of report r. */
static void
compare_decide(const struct report *r, struct compare_cell *c)
{
	struct standing_figure	f;

	f.value = c->value;
	f.low = f.high = NAN;
	f.bound = c->bound;
	f.state = c->state;
	f.drained = report_state_drained(r);
	f.of_burst = 0;
	standing_decide(&f, &c->st);
}

/*
 * A figure of report r by name.  With repeated runs the mean is shown and
 * the noise is 2 sd (run to run), unless the figure moved run after run
 * (the mean describes no run: the report's own is shown); otherwise the
 * measurement's own 95% interval where one is known.
 */
static void
compare_lookup(const struct report *r, const struct report_figure *fig,
    size_t nf, const char *name, struct compare_cell *c)
{
	const struct report_stat	*st;
	size_t				 i;

	memset(c, 0, sizeof *c);
	c->value = c->noise = NAN;
	for (i = 0; i < nf; i++) {
		if (strcmp(fig[i].name, name) != 0)
			continue;
		c->present = 1;
		c->value = fig[i].value;
		c->bound = report_figure_bound(&fig[i]);
		c->noise = fig[i].rel_noise * fabs(fig[i].value);
		c->state = fig[i].state;
	}
	st = report_repeat_find(r->repeat, name);
	if (st != NULL && st->n >= 2 && isfinite(st->sd) &&
	    st->trend == REPORT_TREND_NONE) {
		c->present = 1;
		c->value = st->mean;
		c->noise = 2 * st->sd;
		c->bound = st->bound;
		if (st->state != BUCKET_UNKNOWN)
			c->state = st->state;
	}
	compare_decide(r, c);
}


/*
 * The mark of b against a: ! measured in different bucket states, * beyond
 * their noise, = within it (~ when a bucket may have lifted either: equal
 * only while it lasts), ? noise unknown.
 */
static const char *
compare_mark(const struct compare_cell *a, const struct compare_cell *b)
{
	int	d;

	if (*bucket_state_mark(a->state) != '\0' &&
	    *bucket_state_mark(b->state) != '\0' && a->state != b->state)
		return (" !");
	d = compare_differs(a->value, a->noise, b->value, b->noise);
	if (d == 1)
		return (" *");
	if (d < 0)
		return (" ?");
	return (a->st.burst || b->st.burst ? " ~" : " =");
}

/*
 * The bound of b / a: at most if b is at most or a at least, at least the
 * other way round; -1 if they pull both ways (no bound at all).
 */
static int
compare_ratio_bound(const struct compare_cell *a, const struct compare_cell *b)
{
	int	up, down;

	up = b->bound == REPORT_BOUND_AT_MOST ||
	    a->bound == REPORT_BOUND_AT_LEAST;
	down = b->bound == REPORT_BOUND_AT_LEAST ||
	    a->bound == REPORT_BOUND_AT_MOST;

	if (up && down)
		return (-1);
	return (up ? REPORT_BOUND_AT_MOST : down ? REPORT_BOUND_AT_LEAST :
	    REPORT_BOUND_NONE);
}

/* What a report measured: its target, or "N targets (first, ...)". */
static const char *
compare_what(const struct report *r, char *buf, size_t len)
{
	size_t	i, o;

	if (r->ntargets == 0)
		return (r->target.path != NULL ? r->target.path : "?");
	o = snprintf(buf, len, "%zu targets (", r->ntargets);
	for (i = 0; i < r->ntargets && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i > 0 ? ", " : "",
		    r->targets[i].target.path != NULL ?
		    r->targets[i].target.path : "?");
	if (o < len)
		snprintf(buf + o, len - o, ")");
	return (buf);
}

/* r's EBS counters of phases, or NULL when it has none. */
static const struct ebsstats_run *
compare_ebs(const struct report *r)
{
	return (r->ebs != NULL && r->ebs->nphases > 0 ? r->ebs : NULL);
}

/*
 * A row per phase of EBS's counters, in the order first seen: the limit
 * the counters show held it (ebsstats_held), "n/a" for a report without
 * counters of that phase; B/A says "same" or "other" when both are known.
 * Nothing when no report has counters.
 */
static void
compare_ebs_rows(const struct report *reps, int n, struct report_table *tab)
{
	const struct ebsstats_run	*e;
	const struct ebsstats_phase	*d[COMPARE_MAX];
	const char			*names[64], *c[15];
	char				 label[64];
	size_t				 nn = 0, i, j, k;

	for (k = 0; k < (size_t)n; k++) {
		if ((e = compare_ebs(&reps[k])) == NULL)
			continue;
		for (i = 0; i < e->nphases; i++) {
			for (j = 0; j < nn; j++)
				if (strcmp(names[j], e->phases[i].phase) == 0)
					break;
			if (j == nn && nn < sizeof names / sizeof names[0])
				names[nn++] = e->phases[i].phase;
		}
	}
	for (j = 0; j < nn; j++) {
		for (k = 0; k < 15; k++)
			c[k] = NULL;
		snprintf(label, sizeof label, "EBS limit held: %s", names[j]);
		c[0] = label;
		for (k = 0; k < (size_t)n; k++) {
			e = compare_ebs(&reps[k]);
			d[k] = e != NULL ? ebsstats_phase_find(e, names[j]) :
			    NULL;
			c[k == 0 ? 1 : 2 * k] = d[k] != NULL ?
			    report_ebs_limit_cell(ebsstats_held(d[k])) : "n/a";
			if (k > 0)
				c[2 * k + 1] = d[0] == NULL || d[k] == NULL ?
				    "n/a" : ebsstats_held(d[0]) ==
				    ebsstats_held(d[k]) ? "same" : "other";
		}
		report_table_add(tab, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
		    c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	}
}

/* Print reports side by side with ratios to the first. */
int
compare_write(const struct report *reps, int n, FILE *out, int markdown)
{
	struct report_figure	 fig[COMPARE_MAX][REPORT_STATS_MAX];
	size_t			 nf[COMPARE_MAX], i, j, k, nrow = 0;
	struct compare_cell	 cell[COMPARE_MAX];
	const char		*rows[COMPARE_MAX * REPORT_STATS_MAX];
	const char		*labels[COMPARE_MAX * REPORT_STATS_MAX];
	enum units_kind	 units[COMPARE_MAX * REPORT_STATS_MAX];
	struct report_table	 tab;
	char			 align[16], cells[15][UNITS_BUFSZ + 16];
	char			 v[UNITS_BUFSZ], sd[UNITS_BUFSZ];
	const char		*c[15], *m;
	const struct report_stat *st;
	int			 b, any_repeat = 0, any_at_most = 0;
	int			 any_state = 0;

	if (n < 1 || n > COMPARE_MAX)
		return (-1);
	for (k = 0; k < (size_t)n; k++) {
		nf[k] = report_headlines(&reps[k], fig[k], REPORT_STATS_MAX);
		for (i = 0; i < nf[k]; i++) {
			for (j = 0; j < nrow; j++) {
				if (strcmp(rows[j], fig[k][i].name) == 0)
					break;
			}
			if (j == nrow) {
				rows[nrow] = fig[k][i].name;
				labels[nrow] = fig[k][i].label;
				units[nrow++] = fig[k][i].unit;
			}
		}
		if (reps[k].repeat != NULL)
			any_repeat = 1;
	}

	if (markdown)
		fputs("# tierprobe compare\n\n", out);
	for (k = 0; k < (size_t)n; k++) {
		const struct report *r = &reps[k];
		char what[512];

		if (markdown)
			fprintf(out, "- **%c**: `%s` (%s%s%s, %s)%s\n",
			    (int)('A' + k), compare_what(r, what, sizeof what),
			    r->config.command[0] ? r->config.command :
			    "run", r->context.device_model[0] ? ", " : "",
			    r->context.device_model, r->started_utc[0] ?
			    r->started_utc : "time unknown", r->interrupted ?
			    " **INTERRUPTED**" : "");
		else
			fprintf(out, "%c: %s (%s%s%s, %s)%s\n",
			    (int)('A' + k), compare_what(r, what, sizeof what),
			    r->config.command[0] ? r->config.command :
			    "run", r->context.device_model[0] ? ", " : "",
			    r->context.device_model, r->started_utc[0] ?
			    r->started_utc : "time unknown", r->interrupted ?
			    " INTERRUPTED" : "");
		if (r->fault != NULL)
			fprintf(out, "%s%c FAILED: its run stopped on a fault "
			    "(%s%s%s%s); its figures are not those of a "
			    "healthy volume%s\n", markdown ? "  - **" : "   ",
			    (int)('A' + k), report_fault_word(r->fault->reason)
			    != NULL ? report_fault_word(r->fault->reason) :
			    "error", r->fault->phase[0] ? " in its " : "",
			    r->fault->phase, r->fault->phase[0] ? " phase" :
			    "", markdown ? "**" : "");
	}
	fputc('\n', out);
	if (nrow == 0) {
		fputs("No headline figures to compare (no scan, limits, writes "
		    "or commits).\n", out);
		return (0);
	}

	/* Columns: figure, A, then per other report its value and ratio. */
	memset(align, 0, sizeof align);
	align[0] = 'l';
	for (k = 1; k < 2 * (size_t)n; k++)
		align[k] = 'r';
	report_table_init(&tab, align);
	for (k = 0; k < 15; k++)
		c[k] = NULL;
	c[0] = "figure";
	for (k = 0; k < (size_t)n; k++) {
		snprintf(cells[2 * k], sizeof cells[0], "%c", (int)('A' + k));
		c[k == 0 ? 1 : 2 * k] = cells[2 * k];
		if (k > 0) {
			snprintf(cells[2 * k + 1], sizeof cells[0], "%c/A",
			    (int)('A' + k));
			c[2 * k + 1] = cells[2 * k + 1];
		}
	}
	report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
	    c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	for (i = 0; i < nrow; i++) {
		for (k = 0; k < (size_t)n; k++)
			compare_lookup(&reps[k], fig[k], nf[k], rows[i],
			    &cell[k]);
		c[0] = labels[i];
		for (k = 0; k < (size_t)n; k++) {
			char *cp = cells[2 * k];

			if (!cell[k].present)
				snprintf(cp, sizeof cells[0], "n/a");
			else {
				units_format_value(units[i], cell[k].value, v,
				    sizeof v);
				if (!isfinite(cell[k].value)) {
					cell[k].state = BUCKET_UNKNOWN;
					cell[k].bound = REPORT_BOUND_NONE;
				}
				m = bucket_state_mark(cell[k].state);
				st = report_repeat_find(reps[k].repeat,
				    rows[i]);
				if (st != NULL && st->n >= 2 &&
				    isfinite(st->sd) &&
				    st->trend == REPORT_TREND_NONE)
					snprintf(cp, sizeof cells[0],
					    "%s%s +-%s%s%s",
					    report_bound_prefix(cell[k].bound),
					    v, units_format_value(units[i],
					    st->sd, sd, sizeof sd),
					    *m != '\0' ? " " : "", m);
				else
					snprintf(cp, sizeof cells[0],
					    "%s%s%s%s", report_bound_prefix(
					    cell[k].bound), v, *m != '\0' ?
					    " " : "", m);
				any_state |= *m != '\0';
				any_at_most |= cell[k].bound ==
				    REPORT_BOUND_AT_MOST &&
				    isfinite(cell[k].value);
			}
			c[k == 0 ? 1 : 2 * k] = cp;
			if (k == 0)
				continue;
			cp = cells[2 * k + 1];
			b = compare_ratio_bound(&cell[0], &cell[k]);
			if (!isfinite(cell[0].value) ||
			    !isfinite(cell[k].value) || cell[0].value == 0 ||
			    b < 0)
				snprintf(cp, sizeof cells[0], "n/a");
			else
				snprintf(cp, sizeof cells[0], "%s%.2fx%s",
				    report_bound_prefix(b),
				    cell[k].value / cell[0].value,
				    b != REPORT_BOUND_NONE ? "" :
				    compare_mark(&cell[0], &cell[k]));
			c[2 * k + 1] = cp;
		}
		report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5],
		    c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	}
	compare_ebs_rows(reps, n, &tab);
	report_table_write(&tab, out, markdown, "");
	fputs("\nMarks: * differs from A by more than run-to-run noise (95%); "
	    "= within noise; ~ within noise while a burst bucket may have "
	    "lifted either (equal only while it lasts); ! measured in "
	    "different bucket states; ? noise unknown.\n", out);
	if (any_state)
		fputs("States: full measured before a burst bucket ran dry; "
		    "full? the run saw no bucket run dry, so one may still "
		    "have been full; draining while one ran dry; empty after "
		    "one ran dry (a baseline figure).\n", out);
	for (k = 0; k < (size_t)n; k++)
		if (compare_ebs(&reps[k]) != NULL)
			break;
	if (k < (size_t)n)
		fputs("EBS limit held: the limit EBS's own counters show "
		    "demand exceeded longest in that phase, for 5% of it at "
		    "least (none: no limit did); B/A says whether it is the "
		    "same.\n", out);
	if (any_repeat)
		fputs("Figures with +- are means and standard deviations over "
		    "repeated runs.\n", out);
	if (any_at_most)
		fputs("Long-run IOPS: the baseline a burst bucket fell to; <= "
		    "is the rate a run held without a drop, the most it can "
		    "be (a larger bucket may lower it).\n", out);
	return (0);
}

/* The word of compare_mark's mark, for JSON. */
static const char *
compare_mark_word(const char *mark)
{
	switch (mark[1]) {
	case '!':
		return ("states_differ");
	case '*':
		return ("differs");
	case '~':
		return ("within_noise_lifted");
	case '?':
		return ("noise_unknown");
	default:
		return ("within_noise");
	}
}

static json_t *
compare_json_real(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

static json_t *
compare_json_str(const char *s)
{
	return (s != NULL && *s != '\0' ? json_string(s) : json_null());
}

/* One report's value of a figure, with its ratio to the first's. */
static json_t *
compare_json_cell(struct compare_cell *a, struct compare_cell *c, int first)
{
	json_t	*o;
	int	 b;

	o = json_object();
	if (!isfinite(c->value)) {
		c->state = BUCKET_UNKNOWN;
		c->bound = REPORT_BOUND_NONE;
	}
	json_object_set_new(o, "value", compare_json_real(c->present ?
	    c->value : NAN));
	json_object_set_new(o, "noise", compare_json_real(c->present ?
	    c->noise : NAN));
	json_object_set_new(o, "bound", c->present && isfinite(c->value) ?
	    json_string(report_bound_name(c->bound)) : json_null());
	json_object_set_new(o, "state", c->present && isfinite(c->value) ?
	    compare_json_str(bucket_state_name(c->state)) : json_null());
	if (first)
		return (o);
	b = compare_ratio_bound(a, c);
	if (!a->present || !c->present || !isfinite(a->value) ||
	    !isfinite(c->value) || a->value == 0 || b < 0) {
		json_object_set_new(o, "ratio_to_first", json_null());
		json_object_set_new(o, "ratio_bound", json_null());
		json_object_set_new(o, "mark", json_null());
		return (o);
	}
	json_object_set_new(o, "ratio_to_first", json_real(c->value /
	    a->value));
	json_object_set_new(o, "ratio_bound", json_string(
	    report_bound_name(b)));
	json_object_set_new(o, "mark", b != REPORT_BOUND_NONE ? json_null() :
	    json_string(compare_mark_word(compare_mark(a, c))));
	return (o);
}

/* The comparison as one JSON document; see compare.h. */
int
compare_json(const struct report *reps, const char *const *files, int n,
    FILE *out)
{
	struct report_figure	 fig[COMPARE_MAX][REPORT_STATS_MAX];
	struct compare_cell	 cell[COMPARE_MAX];
	const char		*rows[COMPARE_MAX * REPORT_STATS_MAX];
	const char		*labels[COMPARE_MAX * REPORT_STATS_MAX];
	size_t			 nf[COMPARE_MAX], i, j, k, nrow = 0;
	json_t			*root, *cmp, *a, *o, *values;
	char			 what[512], name[2];
	int			 rc;

	if (n < 1 || n > COMPARE_MAX)
		return (-1);
	root = json_object();
	json_object_set_new(root, "schema_version",
	    json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(root, "command", json_string("compare"));
	cmp = json_object();
	a = json_array();
	for (k = 0; k < (size_t)n; k++) {
		nf[k] = report_headlines(&reps[k], fig[k], REPORT_STATS_MAX);
		for (i = 0; i < nf[k]; i++) {
			for (j = 0; j < nrow; j++)
				if (strcmp(rows[j], fig[k][i].name) == 0)
					break;
			if (j == nrow) {
				rows[nrow] = fig[k][i].name;
				labels[nrow++] = fig[k][i].label;
			}
		}
		o = json_object();
		snprintf(name, sizeof name, "%c", (int)('A' + k));
		json_object_set_new(o, "name", json_string(name));
		json_object_set_new(o, "file", compare_json_str(files[k]));
		json_object_set_new(o, "target", json_string(compare_what(
		    &reps[k], what, sizeof what)));
		json_object_set_new(o, "command", json_string(
		    reps[k].config.command[0] ? reps[k].config.command :
		    "run"));
		json_object_set_new(o, "device_model",
		    compare_json_str(reps[k].context.device_model));
		json_object_set_new(o, "started_utc",
		    compare_json_str(reps[k].started_utc));
		json_object_set_new(o, "interrupted",
		    json_boolean(reps[k].interrupted));
		json_array_append_new(a, o);
	}
	json_object_set_new(cmp, "reports", a);
	a = json_array();
	for (i = 0; i < nrow; i++) {
		for (k = 0; k < (size_t)n; k++)
			compare_lookup(&reps[k], fig[k], nf[k], rows[i],
			    &cell[k]);
		o = json_object();
		json_object_set_new(o, "figure", json_string(rows[i]));
		json_object_set_new(o, "label", json_string(labels[i]));
		values = json_array();
		for (k = 0; k < (size_t)n; k++)
			json_array_append_new(values, compare_json_cell(
			    &cell[0], &cell[k], k == 0));
		json_object_set_new(o, "values", values);
		json_array_append_new(a, o);
	}
	json_object_set_new(cmp, "figures", a);
	json_object_set_new(root, "compare", cmp);
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(6) |
	    JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return (rc == 0 ? 0 : -1);
}

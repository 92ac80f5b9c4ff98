/* SPDX-License-Identifier: ISC */
/*
 * Expectations judged against a report, for people (a table of
 * expectation, measured figure, interval, verdict) and as the
 * "expectations" JSON section, which keeps the expressions so a saved
 * report can be checked again.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "figures.h"
#include "report.h"
#include "units.h"
#include "xmalloc.h"

/* Whether a OP b. */
static int
report_check_holds(enum check_op op, double a, double b)
{
	switch (op) {
	case CHECK_GE:
		return (a >= b);
	case CHECK_LE:
		return (a <= b);
	case CHECK_GT:
		return (a > b);
	case CHECK_LT:
		return (a < b);
	case CHECK_EQ:
		return (a == b);
	case CHECK_NE:
		return (a != b);
	}
	return (0);
}

/* How bad a verdict is, to judge several targets by the worst. */
static const int report_check_badness[] = {
	[CHECK_MET] = 0,
	[CHECK_UNKNOWN] = 1,
	[CHECK_MISSED] = 2,
};

/*
 * Judge e against each target of a report of several, keeping the worst
 * verdict (missed, then unknown), the first target that gave it.
 */
static void
report_check_several(const struct check_expect *e, const struct report *r,
    struct check_result *res)
{
	struct check_result	one;
	char			path[FIGURES_PATHSZ];
	size_t			i;

	for (i = 0; i < r->ntargets; i++) {
		report_check_evaluate(e, &r->targets[i], &one);
		if (i > 0 && report_check_badness[one.verdict] <=
		    report_check_badness[res->verdict])
			continue;
		*res = one;
		res->target = i + 1;
		if (snprintf(path, sizeof path, "targets[%zu].%s", i,
		    one.fv.path) < (int)sizeof path)
			memcpy(res->fv.path, path, sizeof res->fv.path);
	}
}

/*
 * Judge expectation e against report r (of several targets: against each,
 * the worst verdict).  A figure the run could not establish makes it
 * unknown, never met; a figure known only as a lower bound is met or
 * missed only when every value above the bound agrees.
 */
void
report_check_evaluate(const struct check_expect *e, const struct report *r,
    struct check_result *res)
{
	const struct figures_value	*fv = &res->fv;
	int				 at_v, above;

	memset(res, 0, sizeof *res);
	if (r->ntargets > 0) {
		report_check_several(e, r, res);
		return;
	}
	report_figure(r, e->def, e->index, &res->fv);
	if (!isfinite(fv->value)) {
		res->verdict = CHECK_UNKNOWN;
		snprintf(res->note, sizeof res->note, "%s", fv->why);
		return;
	}
	at_v = report_check_holds(e->op, fv->value, e->threshold);
	if (fv->at_least) {
		/* The true value is anywhere from the bound up. */
		above = report_check_holds(e->op, INFINITY, e->threshold);
		res->verdict = at_v && above ? CHECK_MET : !at_v && !above ?
		    CHECK_MISSED : CHECK_UNKNOWN;
		if (res->verdict == CHECK_UNKNOWN)
			snprintf(res->note, sizeof res->note, "only a lower "
			    "bound is known: the cache is larger than the "
			    "largest working set scanned");
		return;
	}
	res->verdict = at_v ? CHECK_MET : CHECK_MISSED;
	/* Met while a bucket may have lifted it: it may not stay met. */
	res->lifted = at_v && bucket_state_lifted(fv->state);
	if (isfinite(fv->low) && isfinite(fv->high) &&
	    e->threshold >= fv->low && e->threshold <= fv->high)
		snprintf(res->note, sizeof res->note, "the threshold lies "
		    "inside the interval: another run may judge otherwise");
}

/*
 * Judge every expectation of l against r and count the verdicts; one met
 * only while a bucket may have been full fails the tally unless l accepts
 * that (--accept-burst).
 */
int
report_check_tally(const struct check_list *l, const struct report *r,
    unsigned count[3])
{
	struct check_result	res;
	size_t			i, lifted = 0;

	count[CHECK_MET] = count[CHECK_MISSED] = count[CHECK_UNKNOWN] = 0;
	for (i = 0; l != NULL && i < l->n; i++) {
		report_check_evaluate(&l->v[i], r, &res);
		count[res.verdict]++;
		lifted += res.lifted;
	}
	return (count[CHECK_MISSED] == 0 && count[CHECK_UNKNOWN] == 0 &&
	    (lifted == 0 || l->accept_burst));
}

/* "met while a bucket may still be full", ... for a lifted figure met. */
static const char *
report_check_lifted(int state)
{
	switch (state) {
	case BUCKET_FULL:
		return ("met before a bucket ran dry");
	case BUCKET_DRAINING:
		return ("met while a bucket ran dry");
	}
	return ("met while a bucket may still be full");
}

/* The measured figure as a cell: ">= 4 GiB" for a lower bound. */
static char *
report_check_measured(const struct check_expect *e,
    const struct check_result *res, char *buf, size_t len)
{
	char	v[UNITS_BUFSZ];

	units_format_value(e->def->unit, res->fv.value, v, sizeof v);
	snprintf(buf, len, "%s%s", res->fv.at_least ? ">= " : "", v);
	return (buf);
}

/* The interval as a cell: "2,994 to 3,006", "n/a". */
static char *
report_check_interval(const struct check_expect *e,
    const struct check_result *res, char *buf, size_t len)
{
	char	lo[UNITS_BUFSZ], hi[UNITS_BUFSZ];
	double	v = res->fv.value;

	if (!isfinite(res->fv.low) || !isfinite(res->fv.high)) {
		snprintf(buf, len, "n/a");
		return (buf);
	}
	units_format_value(e->def->unit, res->fv.low, lo, sizeof lo);
	units_format_value(e->def->unit, res->fv.high, hi, sizeof hi);
	if (strcmp(lo, hi) == 0 && v != 0)
		snprintf(buf, len, "+-%.2g%%%s", (res->fv.high - res->fv.low) /
		    2 / fabs(v) * 100, res->fv.repeated ? " (runs)" : "");
	else
		snprintf(buf, len, "%s to %s%s", lo, hi, res->fv.repeated ?
		    " (runs)" : "");
	return (buf);
}

/* Print the expectations of l judged against r, and the tally. */
void
report_check_write(const struct report *r, const struct check_list *l,
    FILE *f, int markdown)
{
	struct report_table	 tab;
	struct check_result	 res;
	const struct check_expect *e;
	char			 label[48], m[UNITS_BUFSZ + 4], iv[80];
	char			 figure[80];
	char			 verdict[192];
	const char		*indent = markdown ? "" : "  ";
	unsigned		 count[3] = { 0, 0, 0 }, notes = 0, lifted = 0;
	size_t			 i;

	if (l->promise != NULL)
		fprintf(f, "%s%s\n", markdown ? "- " : indent, l->promise);
	report_table_init(&tab, "llrll");
	report_table_add(&tab, "expectation", "figure", "measured",
	    "interval", "verdict");
	for (i = 0; i < l->n; i++) {
		e = &l->v[i];
		report_check_evaluate(e, r, &res);
		count[res.verdict]++;
		lifted += res.lifted;
		if (res.verdict == CHECK_UNKNOWN)
			snprintf(verdict, sizeof verdict, "unknown: %s",
			    res.note);
		else if (res.lifted)
			snprintf(verdict, sizeof verdict, "%s%s%s",
			    report_check_lifted(res.fv.state),
			    l->accept_burst ? " (accepted)" : "",
			    res.note[0] != '\0' ? " *" : "");
		else
			snprintf(verdict, sizeof verdict, "%s%s",
			    res.verdict == CHECK_MET ? "met" : "MISSED",
			    res.note[0] != '\0' ? " *" : "");
		if (res.verdict != CHECK_UNKNOWN && res.note[0] != '\0')
			notes++;
		figures_label(e->def, e->index, label, sizeof label);
		if (res.target > 0)
			snprintf(figure, sizeof figure, "%zu: %s", res.target,
			    label);
		else
			snprintf(figure, sizeof figure, "%s", label);
		report_table_add(&tab, e->text, figure,
		    report_check_measured(e, &res, m, sizeof m),
		    report_check_interval(e, &res, iv, sizeof iv), verdict);
	}
	report_table_write(&tab, f, markdown, indent);
	if (markdown)
		fputc('\n', f);
	fprintf(f, "%s%zu expectation%s: %u met, %u missed, %u unknown\n",
	    indent, l->n, l->n == 1 ? "" : "s", count[CHECK_MET],
	    count[CHECK_MISSED], count[CHECK_UNKNOWN]);
	if (lifted > 0)
		fprintf(f, "%s%u met on figures a burst bucket may have "
		    "lifted: %s\n", indent, lifted,
		    l->accept_burst ? "accepted (--accept-burst)" : "not "
		    "passed (--accept-burst accepts them)");
	if (notes > 0)
		fprintf(f, "%s* the threshold lies inside the interval: "
		    "another run may judge otherwise\n", indent);
}

/* A number: whole ones (thresholds in bytes) as integers, exactly. */
static json_t *
report_check_real(double v)
{
	if (!isfinite(v))
		return (json_null());
	if (v == floor(v) && fabs(v) < 9007199254740992.0)
		return (json_integer((json_int_t)v));
	return (json_real(v));
}

static json_t *
report_check_str(const char *s)
{
	return (s != NULL ? json_string(s) : json_null());
}

/* The "expectations" section: expressions, figures and verdicts. */
struct json_t *
report_check_json(const struct report *r, const struct check_list *l)
{
	struct check_result	 res;
	const struct check_expect *e;
	json_t			*o, *a, *io;
	unsigned		 count[3] = { 0, 0, 0 };
	size_t			 i, lifted = 0;

	o = json_object();
	json_object_set_new(o, "profile", report_check_str(l->profile));
	json_object_set_new(o, "promise", report_check_str(l->promise));
	a = json_array();
	for (i = 0; i < l->n; i++) {
		e = &l->v[i];
		report_check_evaluate(e, r, &res);
		count[res.verdict]++;
		io = json_object();
		json_object_set_new(io, "expression", json_string(e->text));
		json_object_set_new(io, "origin", report_check_str(e->origin));
		json_object_set_new(io, "figure", json_string(res.fv.path));
		json_object_set_new(io, "threshold",
		    report_check_real(e->threshold));
		json_object_set_new(io, "value",
		    report_check_real(res.fv.value));
		json_object_set_new(io, "low", report_check_real(res.fv.low));
		json_object_set_new(io, "high",
		    report_check_real(res.fv.high));
		json_object_set_new(io, "at_least",
		    json_boolean(res.fv.at_least));
		json_object_set_new(io, "state", bucket_state_name(
		    res.fv.state) != NULL ? json_string(bucket_state_name(
		    res.fv.state)) : json_null());
		json_object_set_new(io, "lifted", json_boolean(res.lifted));
		lifted += res.lifted;
		json_object_set_new(io, "verdict",
		    json_string(check_verdict_name(res.verdict)));
		json_object_set_new(io, "note", res.note[0] != '\0' ?
		    json_string(res.note) : json_null());
		json_array_append_new(a, io);
	}
	json_object_set_new(o, "items", a);
	json_object_set_new(o, "met", json_integer(count[CHECK_MET]));
	json_object_set_new(o, "missed", json_integer(count[CHECK_MISSED]));
	json_object_set_new(o, "unknown", json_integer(count[CHECK_UNKNOWN]));
	json_object_set_new(o, "lifted", json_integer(lifted));
	json_object_set_new(o, "accept_burst", json_boolean(l->accept_burst));
	return (o);
}

/* A string member, or NULL when null or absent; -1 if not a string. */
static int
report_check_get_str(const json_t *o, const char *key, const char **out)
{
	json_t	*v = json_object_get(o, key);

	*out = NULL;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_string(v))
		return (-1);
	*out = json_string_value(v);
	return (0);
}

/*
 * Read the expressions of an "expectations" section back into a new list
 * (the verdicts are judged again from the report).  Returns 0, or -1 with
 * *cause naming the key at fault.
 */
int
report_check_load(const struct json_t *o, struct check_list **out,
    char **cause)
{
	struct check_list	*l;
	const char		*s, *origin;
	json_t			*a, *io;
	char			*why;
	size_t			 i;

	*out = l = check_list_new();
	if (!json_is_object(o)) {
		xasprintf(cause, "expected an object");
		return (-1);
	}
	if (report_check_get_str(o, "profile", &s) != 0) {
		xasprintf(cause, "profile: expected a string or null");
		return (-1);
	}
	l->profile = s != NULL ? xstrdup(s) : NULL;
	if (report_check_get_str(o, "promise", &s) != 0) {
		xasprintf(cause, "promise: expected a string or null");
		return (-1);
	}
	l->promise = s != NULL ? xstrdup(s) : NULL;
	l->accept_burst = json_is_true(json_object_get(o, "accept_burst"));
	a = json_object_get(o, "items");
	if (!json_is_array(a)) {
		xasprintf(cause, "items: %s", a == NULL ? "missing" :
		    "expected an array");
		return (-1);
	}
	json_array_foreach(a, i, io) {
		if (!json_is_object(io) || report_check_get_str(io,
		    "expression", &s) != 0 || s == NULL ||
		    report_check_get_str(io, "origin", &origin) != 0) {
			xasprintf(cause, "items[%zu]: expected an object with "
			    "a string expression", i);
			return (-1);
		}
		if (check_list_add(l, s, origin != NULL ? origin : "--expect",
		    &why) != 0) {
			xasprintf(cause, "items[%zu].expression: %s", i, why);
			free(why);
			return (-1);
		}
	}
	return (0);
}

/* The line that opens the check of one report: file, target, host. */
void
report_check_heading(const char *file, const struct report *r, FILE *f,
    int markdown)
{
	const char	*host = r->labels.host[0] != '\0' ? r->labels.host :
	    r->context.hostname;
	char		 what[32];

	if (r->ntargets > 0)
		snprintf(what, sizeof what, "%zu targets", r->ntargets);
	fprintf(f, "%s%s: %s%s%s%s\n", markdown ? "\n## " : "", file,
	    r->ntargets > 0 ? what : r->target.path != NULL ?
	    r->target.path : "?", host[0] != '\0' ? " on " : "", host,
	    markdown ? "\n" : "");
}

/*
 * The checks of n reports as one JSON document: checks[] (file, host,
 * target, expectations) and the count of each verdict.  Returns 0 or -1.
 */
int
report_check_json_dump(char *const *files, const struct report *reps,
    const struct check_list *const *lists, int n, FILE *f)
{
	json_t		*root, *a, *o, *e;
	json_int_t	 count[3] = { 0, 0, 0 }, lifted = 0;
	int		 i, rc;

	root = json_object();
	json_object_set_new(root, "schema_version",
	    json_integer(REPORT_SCHEMA_VERSION));
	a = json_array();
	for (i = 0; i < n; i++) {
		o = json_object();
		json_object_set_new(o, "file", json_string(files[i]));
		json_object_set_new(o, "host", report_check_str(
		    reps[i].labels.host[0] != '\0' ? reps[i].labels.host :
		    reps[i].context.hostname[0] != '\0' ?
		    reps[i].context.hostname : NULL));
		json_object_set_new(o, "target",
		    report_check_str(reps[i].target.path));
		e = report_check_json(&reps[i], lists[i]);
		count[CHECK_MET] += json_integer_value(json_object_get(e,
		    "met"));
		count[CHECK_MISSED] += json_integer_value(json_object_get(e,
		    "missed"));
		count[CHECK_UNKNOWN] += json_integer_value(json_object_get(e,
		    "unknown"));
		lifted += json_integer_value(json_object_get(e, "lifted"));
		json_object_set_new(o, "expectations", e);
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "checks", a);
	json_object_set_new(root, "met", json_integer(count[CHECK_MET]));
	json_object_set_new(root, "missed", json_integer(count[CHECK_MISSED]));
	json_object_set_new(root, "unknown",
	    json_integer(count[CHECK_UNKNOWN]));
	json_object_set_new(root, "lifted", json_integer(lifted));
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6) |
	    JSON_ENSURE_ASCII);
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		return (-1);
	return (0);
}

/* SPDX-License-Identifier: ISC */
/*
 * Expectations judged against a report, for people (a table of
 * expectation, measured figure, interval, verdict) and as the
 * "expectations" JSON section, which keeps the expressions so a saved
 * report can be checked again; and the check of many report files, with
 * a line for each expectation not met and a summary across them.
 */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "figures.h"
#include "limits.h"
#include "report.h"
#include "scan.h"
#include "standing.h"
#include "sync.h"
#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

/* How bad a verdict is, to judge several targets by the worst. */
static const int report_check_badness[CHECK_NVERDICTS] = {
	[CHECK_MET] = 0,
	[CHECK_UNKNOWN] = 1,
	[CHECK_MISSED] = 2,
};

/* The sections figures come from: the phase, the commands that run it. */
static const struct {
	const char	*section;
	const char	*phase;		/* for people */
	const char	*commands;	/* config.command values, spaced */
} report_check_phases[] = {
	{ "scan", "scan", " run scan " },
	{ "limits", "limits", " run limits " },
	{ "sync", "commit", " run sync " },
};

/* Whether section of r is present (*present), and if so stopped early. */
static int
report_check_stopped(const struct report *r, const char *section,
    int *present)
{
	int	stopped = 0;

	*present = 0;
	if (strcmp(section, "scan") == 0 && r->scan != NULL) {
		*present = 1;
		stopped = r->scan->interrupted;
	} else if (strcmp(section, "limits") == 0 && r->limits != NULL) {
		*present = 1;
		stopped = r->limits->interrupted;
	} else if (strcmp(section, "sync") == 0 && r->sync != NULL) {
		*present = 1;
		stopped = r->sync->interrupted;
	}
	return (stopped);
}

/*
 * On an interrupted run (top), an expectation on a figure of a phase that
 * stopped early, or never began, is unknown: what that phase measured so
 * far may be short of what it would have found.  The figures of phases
 * that finished stand.
 */
static void
report_check_interrupted(const struct check_expect *e,
    const struct report *top, const struct report *r,
    struct check_result *res)
{
	const char	*phase = e->def->section, *cmds = "";
	char		 word[24];
	size_t		 i;
	int		 present, stopped;

	if (!top->interrupted)
		return;
	for (i = 0; i < sizeof report_check_phases /
	    sizeof report_check_phases[0]; i++) {
		if (strcmp(report_check_phases[i].section, phase) == 0) {
			phase = report_check_phases[i].phase;
			cmds = report_check_phases[i].commands;
		}
	}
	stopped = report_check_stopped(r, e->def->section, &present);
	snprintf(word, sizeof word, " %s ", top->config.command);
	if ((present && !stopped) || (!present && strstr(cmds, word) == NULL))
		return;
	res->verdict = CHECK_UNKNOWN;
	res->borderline = 0;
	snprintf(res->note, sizeof res->note, "the run was interrupted %s "
	    "its %s phase: run it again", present ? "during" : "before",
	    phase);
}

/* Why an expectation is unknown, from its standing, in res->note. */
static void
report_check_open_note(const struct check_expect *e,
    struct check_result *res)
{
	if (res->contradicted)
		snprintf(res->note, sizeof res->note, "measured before a "
		    "bucket ran dry, and no rate after it was measured: the "
		    "long run is lower (%s is the burst figure)",
		    figures_burst_of(e->def)->alias);
	else if (res->fv.at_least)
		snprintf(res->note, sizeof res->note, "only a lower bound is "
		    "known: the cache is larger than the largest working set "
		    "scanned");
	else if (res->fv.at_most)
		snprintf(res->note, sizeof res->note, "only an upper bound is "
		    "known: the rate the run held without a drop");
}

/*
 * A run that stopped on a fault (report.fault, of top or of its target
 * r) settles no expectation: each is unknown, so the check is not met
 * (exit 3), never passed or skipped.
 */
static void
report_check_faulted(const struct report *top, const struct report *r,
    struct check_result *res)
{
	const struct report_fault	*f = r->fault != NULL ? r->fault :
					    top->fault;

	if (f == NULL)
		return;
	res->verdict = CHECK_UNKNOWN;
	res->borderline = 0;
	snprintf(res->note, sizeof res->note, "the run stopped on a fault "
	    "(%s%s%s%s): not a healthy volume", report_fault_word(f->reason)
	    != NULL ? report_fault_word(f->reason) : "error", f->phase[0] ?
	    " in its " : "", f->phase, f->phase[0] ? " phase" : "");
}

/*
 * Judge e against r, which is top or one of its targets, as standing.c
 * decides: a figure the run could not establish is unknown, never met; a
 * bound is met or missed only when every value it allows agrees; once a
 * bucket ran dry in any phase, iops and bandwidth are the rates after it,
 * and a figure measured before it counts for no more than the long run
 * allows; a threshold inside the interval is borderline.  A run stopped on
 * a fault settles nothing (report_check_faulted).
 */
static void
report_check_one(const struct check_expect *e, const struct report *top,
    const struct report *r, struct check_result *res)
{
	const struct figures_def	*def = e->def;
	struct standing_figure		 sf;
	struct standing			 st;
	struct standing_outcome		 o;

	memset(res, 0, sizeof *res);
	/* A profile's burst rate asks for the ceiling as measured. */
	if (e->of_burst)
		def = figures_burst_of(def);
	report_figure_in(top, r, def, e->index, &res->fv);
	report_standing_figure(&res->fv, e->of_burst ||
	    figures_is_burst(def), &sf);
	standing_decide(&sf, &st);
	standing_judge(&sf, &st, e->op, e->threshold, &o);
	res->verdict = o.verdict;
	res->borderline = o.borderline;
	res->lifted = o.lifted;
	res->kind = st.kind;
	res->contradicted = st.contradicted;
	if (!isfinite(res->fv.value))
		snprintf(res->note, sizeof res->note, "%s", res->fv.why);
	else if (res->verdict == CHECK_UNKNOWN)
		report_check_open_note(e, res);
	else if (res->borderline)
		snprintf(res->note, sizeof res->note, "the threshold lies "
		    "inside the interval: another run may judge otherwise");
	report_check_interrupted(e, top, r, res);
	report_check_faulted(top, r, res);
	if (res->verdict != CHECK_MET)
		res->lifted = 0;
}

/*
 * Judge expectation e against report r (of several targets: against each,
 * the worst verdict, missed then unknown, the first target that gave it).
 */
void
report_check_evaluate(const struct check_expect *e, const struct report *r,
    struct check_result *res)
{
	struct check_result	one;
	char			path[FIGURES_PATHSZ];
	size_t			i;

	if (r->ntargets == 0) {
		report_check_one(e, r, r, res);
		return;
	}
	memset(res, 0, sizeof *res);
	for (i = 0; i < r->ntargets; i++) {
		report_check_one(e, r, &r->targets[i], &one);
		if (i > 0 && report_check_badness[one.verdict] <=
		    report_check_badness[res->verdict])
			continue;
		*res = one;
		res->target = i + 1;
		/* A figure of the run together is the top's. */
		if (strncmp(one.fv.path, "together.", 9) != 0 &&
		    snprintf(path, sizeof path, "targets[%zu].%s", i,
		    one.fv.path) < (int)sizeof path)
			memcpy(res->fv.path, path, sizeof res->fv.path);
	}
}

/* The judgement of --type in r (of a target of several: the first that
 * rules it out), or NULL when none was given or it is not ruled out. */
static const struct voltype_result *
report_check_type_ruled_out(const struct report *r, const char **spec)
{
	const struct voltype_result	*x;
	size_t				 i;

	for (i = 0; i < r->ntargets; i++)
		if ((x = report_check_type_ruled_out(&r->targets[i], spec)) !=
		    NULL)
			return (x);
	if (r->voltypes == NULL || !r->voltypes->given ||
	    r->voltypes->given_result.consistent != 0)
		return (NULL);
	*spec = r->voltypes->given_spec;
	return (&r->voltypes->given_result);
}

/* Whether what r measured rules out its --type; see report.h. */
int
report_check_type_fails(const struct report *r)
{
	const char	*spec;

	return (report_check_type_ruled_out(r, &spec) != NULL);
}

/*
 * The --type a report was run with, ruled out by what it measured, as one
 * line for people into buf: "--type gp3: ruled out by ..."; "" when none
 * is.
 */
static char *
report_check_type_line(const struct report *r, char *buf, size_t len)
{
	const struct voltype_result	*x;
	const char			*spec = "";

	buf[0] = '\0';
	if ((x = report_check_type_ruled_out(r, &spec)) != NULL)
		snprintf(buf, len, "--type %s: ruled out by %s", spec,
		    x->ruled_out_by[0] != '\0' ? x->ruled_out_by :
		    "what was measured");
	return (buf);
}

/* Judge every expectation of l against r and count the verdicts. */
int
report_check_tally(const struct check_list *l, const struct report *r,
    unsigned *count)
{
	struct check_result	res;
	size_t			i, lifted = 0;
	int			v;

	for (v = 0; v < CHECK_NVERDICTS; v++)
		count[v] = 0;
	for (i = 0; l != NULL && i < l->n; i++) {
		report_check_evaluate(&l->v[i], r, &res);
		count[res.verdict]++;
		lifted += res.lifted;
	}
	return (count[CHECK_MET] == (l != NULL ? l->n : 0) &&
	    (lifted == 0 || l->accept_burst) && !report_check_type_fails(r));
}

/*
 * The label of the figure e was judged on: its own, or the long-run rate
 * iops and bandwidth stand for once a bucket ran dry.
 */
static char *
report_check_label(const struct check_expect *e,
    const struct check_result *res, char *buf, size_t len)
{
	if (strstr(res->fv.path, "long_run_iops") != NULL)
		snprintf(buf, len, "long-run IOPS");
	else if (strcmp(res->fv.path, "together.burst.baseline_iops") == 0)
		snprintf(buf, len, "long-run IOPS, shared");
	else if (strstr(res->fv.path, "baseline_bandwidth") != NULL)
		snprintf(buf, len, "long-run bandwidth");
	else
		figures_label(e->of_burst ? figures_burst_of(e->def) : e->def,
		    e->index, buf, len);
	return (buf);
}

/*
 * A lifted figure met: standing.c calls it lifted only where no bucket ran
 * dry in the run (one that did contradicts it).
 */
#define REPORT_CHECK_LIFTED	"met while a bucket may still be full"

static char	*report_check_measured(const struct check_expect *,
		    const struct check_result *, char *, size_t);

/*
 * The outcome of the expectations of l on r in one line for the verdict,
 * naming each figure that was not met: "MISSED 1 of 2: iops>=2500
 * (long-run IOPS 100)"; "all 2 met"; "" when there is nothing to say.
 */
char *
report_check_outcome_line(const struct report *r, const struct check_list *l,
    char *buf, size_t len)
{
	const struct check_expect	*e;
	struct check_result		 res;
	unsigned			 count[CHECK_NVERDICTS], bad;
	char				 label[48], m[UNITS_BUFSZ + 4];
	char				 type[320];
	size_t				 i, o, n = l != NULL ? l->n : 0;
	int				 pass, k = 0;

	buf[0] = '\0';
	report_check_type_line(r, type, sizeof type);
	if (n == 0 && type[0] == '\0')
		return (buf);
	pass = report_check_tally(l, r, count);
	if (pass) {
		snprintf(buf, len, "%s %zu met%s", n == 1 ? "the" : "all", n,
		    l->accept_burst && n > 0 ? " (--accept-burst)" : "");
		return (buf);
	}
	bad = n - count[CHECK_MET];
	o = snprintf(buf, len, "%s", bad > 0 ? count[CHECK_MISSED] > 0 ?
	    "MISSED" : "NOT MET" : type[0] != '\0' ? "MISSED" : "NOT PASSED");
	if (bad > 0)
		o += snprintf(buf + o, o < len ? len - o : 0, " %u of %zu", bad,
		    n);
	for (i = 0; i < n && o < len; i++) {
		e = &l->v[i];
		report_check_evaluate(e, r, &res);
		if (standing_passes(&(struct standing_outcome){ .verdict =
		    res.verdict, .lifted = res.lifted }, l->accept_burst))
			continue;
		report_check_label(e, &res, label, sizeof label);
		o += snprintf(buf + o, len - o, "%s%s (%s %s%s)", k++ > 0 ?
		    ", " : ": ", e->text, label, isfinite(res.fv.value) ?
		    report_check_measured(e, &res, m, sizeof m) : "unknown",
		    res.verdict == CHECK_UNKNOWN ? ", unknown" :
		    res.verdict == CHECK_MET ? ", only while a bucket may be "
		    "full" : "");
	}
	if (type[0] != '\0' && o < len)
		snprintf(buf + o, len - o, "%s%s", k > 0 || bad > 0 ? "; " :
		    ": ", type);
	return (buf);
}

/* The count of each verdict for people: "2 met, 1 missed, 0 unknown". */
static char *
report_check_counts(const unsigned *count, char *buf, size_t len)
{
	size_t	o = 0;
	int	v;

	buf[0] = '\0';
	for (v = 0; v < CHECK_NVERDICTS && o < len; v++)
		o += snprintf(buf + o, len - o, "%s%u %s", v > 0 ? ", " : "",
		    count[v], check_verdict_name(v));
	return (buf);
}

/*
 * The measured figure as a cell: ">= 4 GiB" for a lower bound, with the
 * digits that tell it from the threshold (2,999.6 against 3,000).
 */
static char *
report_check_measured(const struct check_expect *e,
    const struct check_result *res, char *buf, size_t len)
{
	char	v[UNITS_BUFSZ];

	units_format_apart(e->def->unit, res->fv.value, e->threshold, v,
	    sizeof v);
	snprintf(buf, len, "%s%s", res->fv.at_least ? ">= " : "", v);
	return (buf);
}

/* The interval as a cell: "2,994 to 3,006", "1.4 ms and up", "n/a". */
static char *
report_check_interval(const struct check_expect *e,
    const struct check_result *res, char *buf, size_t len)
{
	char	lo[UNITS_BUFSZ], iv[UNITS_INTERVAL_BUFSZ];

	if (isfinite(res->fv.low) && res->fv.high == INFINITY) {
		snprintf(buf, len, "%s and up", units_format_value(
		    e->def->unit, res->fv.low, lo, sizeof lo));
		return (buf);
	}
	if (!isfinite(res->fv.low) || !isfinite(res->fv.high)) {
		snprintf(buf, len, "n/a");
		return (buf);
	}
	units_format_interval(e->def->unit, res->fv.low, res->fv.high, iv,
	    sizeof iv);
	snprintf(buf, len, "%s%s", iv, res->fv.repeated ? " (runs)" : "");
	return (buf);
}

/*
 * Whether the run of report r settles expectation e (judged res); if not,
 * why and what run would in buf.  Only an unknown verdict can be unsettled:
 * a bucket that did run dry settled it however short the run.
 */
static int
report_check_settled(const struct check_expect *e, const struct report *r,
    const struct check_result *res, char *buf, size_t len)
{
	if (res->verdict != CHECK_UNKNOWN)
		return (1);
	return (check_settles(e, 1, r->config.sustain_s, buf, len));
}

/*
 * Print the expectations of l judged against r: first those this run
 * cannot settle and what run would, then the table and the tally.
 */
void
report_check_write(const struct report *r, const struct check_list *l,
    FILE *f, int markdown)
{
	struct report_table	 tab;
	struct check_result	 res;
	const struct check_expect *e;
	char			 label[48], m[UNITS_BUFSZ + 4], iv[80];
	char			 figure[80], why[320], counts[96];
	char			 verdict[192];
	const char		*indent = markdown ? "" : "  ";
	unsigned		 count[CHECK_NVERDICTS], notes = 0;
	unsigned		 lifted = 0;
	size_t			 i;

	if (l->promise != NULL)
		fprintf(f, "%s%s\n", markdown ? "- " : indent, l->promise);
	for (i = 0; i < l->n; i++) {
		report_check_evaluate(&l->v[i], r, &res);
		if (!report_check_settled(&l->v[i], r, &res, why, sizeof why))
			fprintf(f, "%s%s cannot be settled by this run: %s\n",
			    markdown ? "- " : indent, l->v[i].text, why);
	}
	report_table_init(&tab, "llrll");
	report_table_add(&tab, "expectation", "figure", "measured",
	    "interval", "verdict");
	for (i = 0; i < l->n; i++) {
		e = &l->v[i];
		report_check_evaluate(e, r, &res);
		if (res.verdict == CHECK_UNKNOWN)
			snprintf(verdict, sizeof verdict, "unknown: %s",
			    res.note);
		else if (res.lifted)
			snprintf(verdict, sizeof verdict, "%s%s%s",
			    REPORT_CHECK_LIFTED,
			    l->accept_burst ? " (accepted)" : "",
			    res.borderline ? " *" : "");
		else
			snprintf(verdict, sizeof verdict, "%s%s",
			    res.verdict == CHECK_MET ? "met" : "MISSED",
			    res.borderline ? " *" : "");
		notes += res.borderline;
		lifted += res.lifted;
		report_check_label(e, &res, label, sizeof label);
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
	report_check_tally(l, r, count);
	fprintf(f, "%s%zu expectation%s: %s\n", indent, l->n,
	    l->n == 1 ? "" : "s", report_check_counts(count, counts,
	    sizeof counts));
	if (*report_check_type_line(r, why, sizeof why) != '\0')
		fprintf(f, "%sMISSED %s\n", indent, why);
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

/* The --type a report was run with, when ruled out: type_ruled_out. */
static void
report_check_type_json(const struct report *r, json_t *o)
{
	const struct voltype_result	*x;
	const char			*spec = NULL;
	json_t				*t;

	if ((x = report_check_type_ruled_out(r, &spec)) == NULL) {
		json_object_set_new(o, "type_ruled_out", json_null());
		return;
	}
	t = json_object();
	json_object_set_new(t, "type", json_string(spec));
	json_object_set_new(t, "ruled_out_by", x->ruled_out_by[0] != '\0' ?
	    json_string(x->ruled_out_by) : json_null());
	json_object_set_new(o, "type_ruled_out", t);
}

/* The "expectations" section: expressions, figures and verdicts. */
struct json_t *
report_check_json(const struct report *r, const struct check_list *l)
{
	struct check_result	 res;
	const struct check_expect *e;
	json_t			*o, *a, *io;
	unsigned		 count[CHECK_NVERDICTS];
	size_t			 i, lifted = 0;
	int			 v;

	for (v = 0; v < CHECK_NVERDICTS; v++)
		count[v] = 0;
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
		json_object_set_new(io, "at_most",
		    json_boolean(res.fv.at_most));
		json_object_set_new(io, "state", bucket_state_name(
		    res.fv.state) != NULL ? json_string(bucket_state_name(
		    res.fv.state)) : json_null());
		json_object_set_new(io, "lifted", json_boolean(res.lifted));
		json_object_set_new(io, "standing",
		    json_string(standing_kind_name(res.kind)));
		json_object_set_new(io, "contradicted",
		    json_boolean(res.contradicted));
		lifted += res.lifted;
		json_object_set_new(io, "verdict",
		    json_string(check_verdict_name(res.verdict)));
		json_object_set_new(io, "borderline",
		    json_boolean(res.borderline));
		json_object_set_new(io, "note", res.note[0] != '\0' ?
		    json_string(res.note) : json_null());
		json_object_set_new(io, "sustain_needed_s", e->sustain_s > 0 ?
		    report_check_real(e->sustain_s) : json_null());
		json_object_set_new(io, "of_burst",
		    json_boolean(e->of_burst));
		json_array_append_new(a, io);
	}
	json_object_set_new(o, "items", a);
	for (v = 0; v < CHECK_NVERDICTS; v++)
		json_object_set_new(o, check_verdict_name(v),
		    json_integer(count[v]));
	json_object_set_new(o, "lifted", json_integer(lifted));
	json_object_set_new(o, "accept_burst", json_boolean(l->accept_burst));
	report_check_type_json(r, o);
	json_object_set_new(o, "passed",
	    json_boolean(report_check_tally(l, r, count)));
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
	json_t			*a, *io, *sus;
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
		sus = json_object_get(io, "sustain_needed_s");
		if (sus != NULL && !json_is_null(sus) &&
		    (!json_is_number(sus) || !(json_number_value(sus) > 0))) {
			xasprintf(cause, "items[%zu].sustain_needed_s: "
			    "expected seconds (more than 0) or null", i);
			return (-1);
		}
		if (sus != NULL && json_is_number(sus))
			l->v[l->n - 1].sustain_s = json_number_value(sus);
		l->v[l->n - 1].of_burst =
		    json_is_true(json_object_get(io, "of_burst"));
	}
	return (0);
}

/* The host a report names: --host, else the machine's; "" if neither. */
static const char *
report_check_host(const struct report *r)
{
	return (r->labels.host[0] != '\0' ? r->labels.host :
	    r->context.hostname);
}

/* When an interrupted run stopped: " during its limits phase", or "". */
static char *
report_check_partial(const struct report *r, char *buf, size_t len)
{
	size_t	i;
	int	present;

	buf[0] = '\0';
	for (i = 0; i < sizeof report_check_phases /
	    sizeof report_check_phases[0]; i++) {
		if (report_check_stopped(r, report_check_phases[i].section,
		    &present)) {
			snprintf(buf, len, " during its %s phase",
			    report_check_phases[i].phase);
			break;
		}
	}
	return (buf);
}

/* The line that opens the check of one report: file, target, host. */
void
report_check_heading(const char *file, const struct report *r, FILE *f,
    int markdown)
{
	const char	*host = report_check_host(r);
	char		 what[32], partial[64];

	if (r->ntargets > 0)
		snprintf(what, sizeof what, "%zu targets", r->ntargets);
	fprintf(f, "%s%s: %s%s%s%s%s%s\n", markdown ? "\n## " : "", file,
	    r->ntargets > 0 ? what : r->target.path != NULL ?
	    r->target.path : "?", host[0] != '\0' ? " on " : "", host,
	    r->interrupted ? " (INTERRUPTED" : "", r->interrupted ?
	    report_check_partial(r, partial, sizeof partial) : "",
	    r->interrupted ? ": a partial report)" : "");
	if (r->fault != NULL)
		fprintf(f, "%sSTOPPED ON A FAULT:%s %s\n", markdown ? "\n**" :
		    "  ", markdown ? "**" : "", r->fault->message);
	if (markdown)
		fputc('\n', f);
}

/* How the check of one file came out (report_check_files_outcome). */
static enum report_check_outcome
report_check_file_outcome(const struct report_check_file *cf)
{
	unsigned	count[CHECK_NVERDICTS];

	if (cf->why != NULL)
		return (REPORT_CHECK_SKIPPED);
	return (report_check_tally(cf->list, &cf->rep, count) ?
	    REPORT_CHECK_MET : REPORT_CHECK_NOT_MET);
}

/* The worst outcome of the checks of fs[n]. */
enum report_check_outcome
report_check_files_outcome(const struct report_check_file *fs, size_t n)
{
	enum report_check_outcome	worst = REPORT_CHECK_MET, o;
	size_t				i;

	for (i = 0; i < n; i++) {
		o = report_check_file_outcome(&fs[i]);
		if (o > worst)
			worst = o;
	}
	return (worst);
}

/*
 * One line for each thing of cf that was not met: SKIPPED, INTERRUPTED,
 * and each expectation MISSED or UNKNOWN, naming the host and file.
 */
static void
report_check_problems(const struct report_check_file *cf, FILE *f,
    const char *indent)
{
	const struct report	*r = &cf->rep;
	const struct check_expect *e;
	struct check_result	 res;
	char			 where[32], m[UNITS_BUFSZ + 4], iv[80];
	char			 label[48], partial[64], state[32], *c;
	char			 type[320];
	const char		*host;
	size_t			 i;

	if (cf->why != NULL) {
		fprintf(f, "%sSKIPPED - %s: %s\n", indent, cf->file, cf->why);
		return;
	}
	host = report_check_host(r)[0] != '\0' ? report_check_host(r) : "-";
	if (r->fault != NULL)
		fprintf(f, "%sFAULT %s %s: the run stopped on a fault: %s\n",
		    indent, host, cf->file, r->fault->message);
	if (r->interrupted)
		fprintf(f, "%sINTERRUPTED %s %s: a partial report: the run "
		    "was interrupted%s\n", indent, host, cf->file,
		    report_check_partial(r, partial, sizeof partial));
	if (*report_check_type_line(r, type, sizeof type) != '\0')
		fprintf(f, "%sMISSED %s %s: %s\n", indent, host, cf->file,
		    type);
	for (i = 0; i < cf->list->n; i++) {
		e = &cf->list->v[i];
		report_check_evaluate(e, r, &res);
		if (res.verdict == CHECK_MET && (!res.lifted ||
		    cf->list->accept_burst))
			continue;
		where[0] = '\0';
		if (res.target > 0)
			snprintf(where, sizeof where, " (target %zu)",
			    res.target);
		if (res.verdict == CHECK_UNKNOWN) {
			fprintf(f, "%sUNKNOWN %s %s%s: %s: %s\n", indent, host,
			    cf->file, where, e->text, res.note);
			continue;
		}
		if (res.verdict == CHECK_MET) {
			/* Met only while a bucket may have lifted it. */
			fprintf(f, "%sLIFTED %s %s%s: %s: %s (--accept-burst "
			    "accepts it)\n", indent, host, cf->file, where,
			    e->text, REPORT_CHECK_LIFTED);
			continue;
		}
		/* MISSED, or another verdict short of met, in capitals. */
		snprintf(state, sizeof state, "%s",
		    check_verdict_name(res.verdict));
		for (c = state; *c != '\0'; c++)
			*c = toupper((unsigned char)*c);
		report_check_label(e, &res, label, sizeof label);
		fprintf(f, "%s%s %s %s%s: %s: %s %s (95%%: %s)%s\n", indent,
		    state, host, cf->file, where, e->text, label,
		    report_check_measured(e, &res, m, sizeof m),
		    report_check_interval(e, &res, iv, sizeof iv),
		    res.borderline ? ", the threshold inside" : "");
	}
}

/*
 * The summary across fs[n]: how many reports passed (every expectation
 * met), missed one or more, had unknowns (and none missed), were skipped
 * or interrupted; how many expectations had each verdict.
 */
static void
report_check_summary(const struct report_check_file *fs, size_t n, FILE *f,
    const char *indent)
{
	unsigned	count[CHECK_NVERDICTS], total[CHECK_NVERDICTS];
	unsigned	met = 0, missed = 0, unknown = 0, skipped = 0;
	unsigned	partial = 0, expect = 0, lifted = 0;
	char		counts[96], parts[80], lift[64];
	int		pass;
	size_t		i;
	int		v;

	for (v = 0; v < CHECK_NVERDICTS; v++)
		total[v] = 0;
	for (i = 0; i < n; i++) {
		if (fs[i].why != NULL) {
			skipped++;
			continue;
		}
		partial += fs[i].rep.interrupted != 0;
		pass = report_check_tally(fs[i].list, &fs[i].rep, count);
		for (v = 0; v < CHECK_NVERDICTS; v++) {
			total[v] += count[v];
			expect += count[v];
		}
		if (count[CHECK_MISSED] > 0 ||
		    report_check_type_fails(&fs[i].rep))
			missed++;
		else if (count[CHECK_MET] < fs[i].list->n)
			unknown++;
		else if (!pass)
			lifted++;
		else
			met++;
	}
	parts[0] = lift[0] = '\0';
	if (lifted > 0)
		snprintf(lift, sizeof lift, ", %u met only while a bucket may "
		    "be full", lifted);
	if (partial > 0)
		snprintf(parts, sizeof parts, "; %u of the %zu judged "
		    "interrupted (a partial report)", partial,
		    n - skipped);
	fprintf(f, "%s%zu report%s: %u passed, %u missed, %u unknown%s, %u "
	    "skipped%s; %u expectation%s: %s\n", indent, n, n == 1 ? "" : "s",
	    met, missed, unknown, lift, skipped, parts, expect, expect == 1 ?
	    "" : "s", report_check_counts(total, counts, sizeof counts));
}

/*
 * Print the checks of fs[n] for people (markdown: pipe tables): each
 * report's table, or why it was skipped, then a summary (the lines of what
 * was not met and the counts).  quiet: the summary only.
 */
void
report_check_files_write(const struct report_check_file *fs, size_t n,
    FILE *f, int markdown, int quiet)
{
	const char	*indent = quiet ? "" : markdown ? "- " : "  ";
	size_t		 i;

	for (i = 0; !quiet && i < n; i++) {
		if (i > 0 && !markdown)
			fputc('\n', f);
		if (fs[i].why != NULL) {
			fprintf(f, "%s%s: skipped: %s\n", markdown ? "\n## " :
			    "", fs[i].file, fs[i].why);
			continue;
		}
		report_check_heading(fs[i].file, &fs[i].rep, f, markdown);
		report_check_write(&fs[i].rep, fs[i].list, f, markdown);
	}
	if (!quiet && n == 1)
		return;
	if (!quiet)
		fprintf(f, markdown ? "\n## Summary\n\n" : "\nSummary\n");
	for (i = 0; i < n; i++)
		report_check_problems(&fs[i], f, indent);
	report_check_summary(fs, n, f, indent);
}

/*
 * The checks of fs[n] as one JSON document: checks[] (file, host, target,
 * interrupted, expectations), skipped[] (file, reason) and the count of
 * each verdict.  Returns 0 or -1.
 */
int
report_check_files_json(const struct report_check_file *fs, size_t n,
    FILE *f)
{
	const struct report	*r;
	json_t			*root, *a, *skip, *o, *e;
	json_int_t		 count[CHECK_NVERDICTS], lifted = 0;
	size_t			 i;
	int			 rc, v;

	for (v = 0; v < CHECK_NVERDICTS; v++)
		count[v] = 0;
	root = json_object();
	json_object_set_new(root, "schema_version",
	    json_integer(REPORT_SCHEMA_VERSION));
	a = json_array();
	skip = json_array();
	for (i = 0; i < n; i++) {
		o = json_object();
		json_object_set_new(o, "file", json_string(fs[i].file));
		if (fs[i].why != NULL) {
			json_object_set_new(o, "reason",
			    json_string(fs[i].why));
			json_array_append_new(skip, o);
			continue;
		}
		r = &fs[i].rep;
		json_object_set_new(o, "host", report_check_host(r)[0] !=
		    '\0' ? json_string(report_check_host(r)) : json_null());
		json_object_set_new(o, "target",
		    report_check_str(r->target.path));
		json_object_set_new(o, "interrupted",
		    json_boolean(r->interrupted));
		e = report_check_json(r, fs[i].list);
		for (v = 0; v < CHECK_NVERDICTS; v++)
			count[v] += json_integer_value(json_object_get(e,
			    check_verdict_name(v)));
		lifted += json_integer_value(json_object_get(e, "lifted"));
		json_object_set_new(o, "expectations", e);
		json_array_append_new(a, o);
	}
	json_object_set_new(root, "checks", a);
	json_object_set_new(root, "skipped", skip);
	for (v = 0; v < CHECK_NVERDICTS; v++)
		json_object_set_new(root, check_verdict_name(v),
		    json_integer(count[v]));
	json_object_set_new(root, "lifted", json_integer(lifted));
	rc = json_dumpf(root, f, JSON_INDENT(2) | JSON_REAL_PRECISION(6) |
	    JSON_ENSURE_ASCII);
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		return (-1);
	return (0);
}

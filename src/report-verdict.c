/* SPDX-License-Identifier: ISC */
/*
 * The verdict (verdict.c) for people, first in every report: a line per
 * figure a database owner decides on, with its standing, the bucket state
 * it was measured in and why, what the run saw of a bucket, and the
 * commands that would settle what it could not; and as the "verdict"
 * JSON section, derived from the report whenever it is written.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "report.h"
#include "verdict.h"
#include "voltype.h"

#define REPORT_VERDICT_WIDTH	75	/* a value's width in a text line */

/* A figure of an item for people: "at most 3,000 IOPS", "p99 1.7 ms". */
static char *
report_verdict_value(const struct verdict_item *it, char *buf, size_t len)
{
	char		 v[UNITS_BUFSZ];
	const char	*what = "", *unit = "";
	size_t		 n = strlen(it->name);

	if (n > 4 && strcmp(it->name + n - 4, ".p50") == 0)
		what = "p50 ";
	else if (n > 4 && strcmp(it->name + n - 4, ".p99") == 0)
		what = "p99 ";
	if (it->unit == UNITS_IOPS)
		unit = strncmp(it->name, "commit.", 7) == 0 ? "/s" : " IOPS";
	units_format_value(it->unit, it->value, v, sizeof v);
	snprintf(buf, len, "%s%s%s%s", what, it->bound ==
	    REPORT_BOUND_AT_MOST ? "at most " : it->bound ==
	    REPORT_BOUND_AT_LEAST ? "at least " : "", v, unit);
	return (buf);
}

/* What sets a long-run figure, for people. */
static char *
report_verdict_limit(const struct verdict_item *it, char *buf, size_t len)
{
	switch (it->limit) {
	case VOLTYPE_LIMIT_INSTANCE:
		snprintf(buf, len, "set by the instance's limits (%s, its "
		    "baseline)", it->limit_of[0] != '\0' ? it->limit_of :
		    "the instance");
		break;
	case VOLTYPE_LIMIT_CHARGE:
		snprintf(buf, len, "set by the volume's MiB/s at 1 MiB per "
		    "I/O");
		break;
	case VOLTYPE_LIMIT_VOLUME:
		snprintf(buf, len, "set by the volume's type rule");
		break;
	default:
		buf[0] = '\0';
	}
	return (buf);
}

/* The JSON word of what sets a long-run figure; NULL: not known. */
static const char *
report_verdict_limit_name(int l)
{
	switch (l) {
	case VOLTYPE_LIMIT_INSTANCE:
		return ("instance");
	case VOLTYPE_LIMIT_CHARGE:
		return ("charge");
	case VOLTYPE_LIMIT_VOLUME:
		return ("volume");
	}
	return (NULL);
}

/* How much worse a standing is, for the line of several items. */
static int
report_verdict_worse(int a, int b)
{
	static const int rank[] = {
		[VERDICT_MEASURED] = 0,
		[VERDICT_BOUNDED] = 1,
		[VERDICT_UNKNOWN] = 2,
	};

	return (rank[b] > rank[a]);
}

/*
 * Items [i, j) of one line as one sentence: their values (unknown ones
 * left out), what they are of, the worst standing, and their reasons,
 * each once.
 */
static void
report_verdict_line(const struct report_text *rt, const struct verdict *v,
    size_t i, size_t j, int uniform)
{
	const struct verdict_item	*it;
	const char			*why;
	char				 line[1024], b[128];
	size_t				 k, m, n, o = 0, nv = 0, nr = 0;
	int				 standing = VERDICT_MEASURED, seen;

	line[0] = '\0';
	for (k = i; k < j; k++) {
		it = &v->item[k];
		if (report_verdict_worse(standing, it->standing))
			standing = it->standing;
		if (!isfinite(it->value) || o >= sizeof line)
			continue;
		o += snprintf(line + o, sizeof line - o, "%s%s", nv++ > 0 ?
		    ", " : "", report_verdict_value(it, b, sizeof b));
	}
	for (k = i; k < j && o < sizeof line; k++)
		if (v->item[k].detail[0] != '\0')
			o += snprintf(line + o, sizeof line - o, nv > 0 ?
			    " (%s)" : "%s", v->item[k].detail);
	if (o < sizeof line)
		o += snprintf(line + o, sizeof line - o, "%s%s", o > 0 ? ": " :
		    "", verdict_standing_name(standing));
	for (k = i; k < j && o < sizeof line; k++) {
		it = &v->item[k];
		for (m = i, seen = 0; m < k; m++)
			seen |= strcmp(v->item[m].reason, it->reason) == 0;
		/* A state the bucket line says of every figure: not again. */
		why = it->reason;
		n = strlen(verdict_state_words(BUCKET_MAY_BE_FULL));
		if (uniform && it->state == BUCKET_MAY_BE_FULL &&
		    strncmp(why, verdict_state_words(it->state), n) == 0)
			why += why[n] == ';' ? n + 2 : why[n] == '\0' ? n : 0;
		if (why[0] != '\0' && !seen)
			o += snprintf(line + o, sizeof line - o, "%s%s",
			    nr++ == 0 ? ", " : "; ", why);
	}
	for (k = i; k < j && o < sizeof line; k++)
		if (v->item[k].limit != VOLTYPE_LIMIT_NONE) {
			o += snprintf(line + o, sizeof line - o, "; %s",
			    report_verdict_limit(&v->item[k], b, sizeof b));
			break;
		}
	report_text_kv(rt, v->item[i].line, line);
}

/*
 * The commands that would settle what the run could not, each once with
 * what it would show for every item it settles.
 */
static void
report_verdict_settle(const struct report_text *rt, const struct verdict *v)
{
	const struct verdict_item	*it, *o;
	char				 line[1024], cmdline[2048];
	size_t				 k, m, n = 0, len, first;
	int				 seen;

	for (k = 0; k < v->nitems; k++) {
		it = &v->item[k];
		for (m = 0, seen = 0; m < k; m++)
			seen |= strcmp(v->item[m].settle, it->settle) == 0;
		if (it->settle[0] == '\0' || seen)
			continue;
		/*
		 * Markdown: `command`: what it shows.  Text: the command whole
		 * on a line of its own, never wrapped (it is to be copied),
		 * then what it shows, wrapped under it.
		 */
		len = rt->md ? (size_t)snprintf(line, sizeof line, "`%s`",
		    it->settle) : 0;
		line[len] = '\0';
		first = len;
		for (m = k; m < v->nitems && len < sizeof line; m++) {
			o = &v->item[m];
			if (strcmp(o->settle, it->settle) != 0 ||
			    o->settle_reason[0] == '\0' ||
			    strstr(line, o->settle_reason) != NULL)
				continue;
			len += snprintf(line + len, sizeof line - len, "%s%s",
			    len > first ? "; " : rt->md ? ": " : "",
			    o->settle_reason);
		}
		/* Text lists them under one key; markdown keys each. */
		/* A command that a wrap at a space could split: alone. */
		if (!rt->md && strlen(it->settle) + 2 > REPORT_VERDICT_WIDTH) {
			fprintf(rt->f, "%s%-18s %s\n", REPORT_TEXT_INDENT,
			    n++ == 0 ? "to settle" : "", it->settle);
			if (line[0] != '\0')
				report_text_kv(rt, "", line);
			continue;
		}
		if (!rt->md) {
			snprintf(cmdline, sizeof cmdline, "%s%s%s", it->settle,
			    line[0] != '\0' ? ": " : "", line);
			report_text_kv(rt, n++ == 0 ? "to settle" : "",
			    cmdline);
			continue;
		}
		report_text_kv(rt, "to settle", line);
	}
}

/* A span of time for people: "30 minutes", "24 hours", "90 s". */
static char *
report_verdict_span(double s, char *buf, size_t len)
{
	if (!isfinite(s))
		snprintf(buf, len, "a while");
	else if (s >= 7200 && fmod(s, 3600) == 0)
		snprintf(buf, len, "%.0f hours", s / 3600);
	else if (s >= 120 && fmod(s, 60) == 0)
		snprintf(buf, len, "%.0f minutes", s / 60);
	else
		units_format_value(UNITS_SECONDS, s, buf, len);
	return (buf);
}

/*
 * The instance the run assumed, and from where, with its documented EBS
 * limits; or that it knows none, and why.
 */
static char *
report_verdict_instance(const struct instance_limits *il, char *buf,
    size_t len)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char	d[UNITS_BUFSZ], e[UNITS_BUFSZ];
	size_t	o;

	if (il->from == INSTANCE_NONE) {
		snprintf(buf, len, "none known: %s", il->why[0] != '\0' ?
		    il->why : "not recorded");
		return (buf);
	}
	o = snprintf(buf, len, "%s, from %s: ", il->name,
	    instance_from_name(il->from));
	if (o < len && isfinite(il->iops) && isfinite(il->bandwidth))
		o += snprintf(buf + o, len - o, "%s IOPS and %s for all its EBS "
		    "volumes", units_format_value(UNITS_IOPS, il->iops, a,
		    sizeof a), units_format_value(UNITS_RATE, il->bandwidth, b,
		    sizeof b));
	else if (o < len)
		o += snprintf(buf + o, len - o, "%s%s%s for all its EBS volumes",
		    isfinite(il->iops) ? units_format_value(UNITS_IOPS,
		    il->iops, a, sizeof a) : "", isfinite(il->iops) ? " IOPS" :
		    "", isfinite(il->bandwidth) ? units_format_value(
		    UNITS_RATE, il->bandwidth, b, sizeof b) : "");
	if (o < len && (isfinite(il->burst_iops) ||
	    isfinite(il->burst_bandwidth)))
		o += snprintf(buf + o, len - o, ", %s IOPS and %s for %s at "
		    "least once every %s", isfinite(il->burst_iops) ?
		    units_format_value(UNITS_IOPS, il->burst_iops, c,
		    sizeof c) : "?", isfinite(il->burst_bandwidth) ?
		    units_format_value(UNITS_RATE, il->burst_bandwidth, d,
		    sizeof d) : "?", report_verdict_span(il->burst_s, e,
		    sizeof e), report_verdict_span(il->burst_period_s, a,
		    sizeof a));
	if (o < len && il->source[0] != '\0')
		snprintf(buf + o, len - o, "; %s", il->source);
	return (buf);
}

/* The verdict of one target, or of several together, under title. */
static void
report_verdict_block(const struct report_text *rt, const struct verdict *v,
    const char *title, const char *outcome,
    const struct instance_limits *instance)
{
	char	line[512];
	size_t	i, j;
	int	uniform = 1;

	/* No bucket ran dry: the bucket line says what every state is. */
	for (i = 0; i < v->nitems; i++)
		if (v->item[i].state != 0 &&
		    v->item[i].state != BUCKET_MAY_BE_FULL &&
		    v->item[i].state != BUCKET_UNAFFECTED)
			uniform = 0;
	report_text_heading(rt, title);
	if (outcome != NULL && outcome[0] != '\0')
		report_text_kv(rt, "expectations", outcome);
	/* A report that does not record one (an older one) says nothing. */
	if (instance != NULL && (instance->from != INSTANCE_NONE ||
	    instance->why[0] != '\0'))
		report_text_kv(rt, "instance", report_verdict_instance(instance,
		    line, sizeof line));
	if (v->bucket[0] != '\0')
		report_text_kv(rt, "burst bucket", v->bucket);
	for (i = 0; i < v->nitems; i = j) {
		for (j = i + 1; j < v->nitems &&
		    strcmp(v->item[j].line, v->item[i].line) == 0; j++)
			continue;
		report_verdict_line(rt, v, i, j, uniform);
	}
	report_verdict_settle(rt, v);
}

/* The verdict first: of one target, or of each and of them together. */
void
report_verdict_text(const struct report_text *rt, const struct report *r)
{
	struct verdict	v;
	char		title[640], outcome[1024];
	size_t		i;

	/* The expectations' outcome once, in the first block. */
	report_check_outcome_line(r, r->checks, outcome, sizeof outcome);
	if (r->ntargets == 0) {
		verdict_build(r, NULL, &v);
		report_verdict_block(rt, &v, "Verdict (what it means for the "
		    "long run; the detail follows)", outcome, &r->instance);
		return;
	}
	if (r->together != NULL) {
		verdict_together(r, &v);
		snprintf(title, sizeof title, "Verdict: the %zu targets "
		    "together", r->ntargets);
		report_verdict_block(rt, &v, title, outcome, &r->instance);
		outcome[0] = '\0';
	}
	for (i = 0; i < r->ntargets; i++) {
		verdict_build(&r->targets[i], r, &v);
		snprintf(title, sizeof title, "Verdict: target %zu, %s", i + 1,
		    v.target);
		report_verdict_block(rt, &v, title, outcome, i == 0 &&
		    r->together == NULL ? &r->instance : NULL);
		outcome[0] = '\0';
	}
}

static json_t *
report_verdict_str(const char *s)
{
	return (s[0] != '\0' ? json_string(s) : json_null());
}

/* The JSON unit of an item. */
static const char *
report_verdict_unit(const struct verdict_item *it)
{
	switch (it->unit) {
	case UNITS_BYTES:
		return ("bytes");
	case UNITS_LAT_US:
		return ("us");
	case UNITS_RATE:
		return ("bytes/s");
	case UNITS_IOPS:
		return (strncmp(it->name, "commit.", 7) == 0 ? "commits/s" :
		    "IOPS");
	default:
		return (NULL);
	}
}

/* One verdict as a JSON object: target, bucket and items[]. */
static json_t *
report_verdict_object(const struct verdict *v)
{
	const struct verdict_item	*it;
	json_t				*o, *a, *io;
	size_t				 i;

	o = json_object();
	json_object_set_new(o, "target", json_string(v->target));
	json_object_set_new(o, "bucket", report_verdict_str(v->bucket));
	json_object_set_new(o, "drained_in", report_verdict_str(v->drained_in));
	a = json_array();
	for (i = 0; i < v->nitems; i++) {
		it = &v->item[i];
		io = json_object();
		json_object_set_new(io, "name", json_string(it->name));
		json_object_set_new(io, "line", json_string(it->line));
		json_object_set_new(io, "value", isfinite(it->value) ?
		    json_real(it->value) : json_null());
		json_object_set_new(io, "unit",
		    json_string(report_verdict_unit(it)));
		json_object_set_new(io, "standing",
		    json_string(verdict_standing_name(it->standing)));
		json_object_set_new(io, "bound", it->bound !=
		    REPORT_BOUND_NONE ? json_string(report_bound_name(
		    it->bound)) : json_null());
		json_object_set_new(io, "state", bucket_state_name(it->state) !=
		    NULL ? json_string(bucket_state_name(it->state)) :
		    json_null());
		json_object_set_new(io, "documented", isfinite(it->documented) ?
		    json_real(it->documented) : json_null());
		json_object_set_new(io, "documented_by",
		    report_verdict_str(it->documented_by));
		json_object_set_new(io, "detail",
		    report_verdict_str(it->detail));
		json_object_set_new(io, "reason",
		    report_verdict_str(it->reason));
		json_object_set_new(io, "settle",
		    report_verdict_str(it->settle));
		json_object_set_new(io, "settle_reason",
		    report_verdict_str(it->settle_reason));
		json_object_set_new(io, "limit",
		    report_verdict_limit_name(it->limit) != NULL ?
		    json_string(report_verdict_limit_name(it->limit)) :
		    json_null());
		json_object_set_new(io, "limit_of",
		    report_verdict_str(it->limit_of));
		json_array_append_new(a, io);
	}
	json_object_set_new(o, "items", a);
	return (o);
}

/* The "verdict" section of a report (a new object); see report.h. */
struct json_t *
report_verdict_json(const struct report *r)
{
	struct verdict	 v;
	json_t		*o, *a;
	size_t		 i;

	if (r->ntargets == 0) {
		verdict_build(r, NULL, &v);
		return (report_verdict_object(&v));
	}
	o = json_object();
	a = json_array();
	for (i = 0; i < r->ntargets; i++) {
		verdict_build(&r->targets[i], r, &v);
		json_array_append_new(a, report_verdict_object(&v));
	}
	json_object_set_new(o, "targets", a);
	if (r->together != NULL) {
		verdict_together(r, &v);
		json_object_set_new(o, "together", report_verdict_object(&v));
	} else
		json_object_set_new(o, "together", json_null());
	return (o);
}

/* SPDX-License-Identifier: ISC */
/*
 * Acceptance checks.  An expectation is FIGURE OP VALUE: FIGURE an alias
 * of figures.c, OP one of >= <= > < == != (== and != for whole counts
 * only), VALUE in the figure's unit.  Parsing and the list of a run's
 * expectations; report-check.c judges them against a report.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tiers.h"
#include "units.h"
#include "xmalloc.h"

static const struct {
	const char	*token;
	enum check_op	 op;
} check_ops[] = {	/* two-character operators first */
	{ ">=", CHECK_GE },
	{ "<=", CHECK_LE },
	{ "==", CHECK_EQ },
	{ "!=", CHECK_NE },
	{ ">", CHECK_GT },
	{ "<", CHECK_LT },
};
#define CHECK_NOPS	(sizeof check_ops / sizeof check_ops[0])

static const char *const check_verdicts[] = {
	[CHECK_MET] = "met",
	[CHECK_MISSED] = "missed",
	[CHECK_UNKNOWN] = "unknown",
};

/* "met", "missed", "unknown". */
const char *
check_verdict_name(enum check_verdict v)
{
	return (check_verdicts[v]);
}

/* A count: digits[.digits] with an optional k or M (powers of 1000). */
static int
check_parse_count(const char *s, int whole, double *out)
{
	const char	*p = s;
	double		 mult = 1;
	int		 digits = 0, point = 0;

	for (; isdigit((unsigned char)*p) || *p == '.'; p++) {
		if (*p == '.' && point++)
			return (-1);
		if (*p != '.')
			digits++;
	}
	if (digits == 0)
		return (-1);
	if (!whole && (*p == 'k' || *p == 'K'))
		mult = 1e3;
	else if (!whole && *p == 'M')
		mult = 1e6;
	if (mult != 1)
		p++;
	if (*p != '\0' || (whole && point))
		return (-1);
	*out = strtod(s, NULL) * mult;
	return (0);
}

/* Parse the value of an expectation on figure d into *out. */
static int
check_parse_value(const char *text, const struct figures_def *d,
    const char *name, const char *s, double *out, char **cause)
{
	char		*why = NULL, *copy;
	uint64_t	 bytes;
	size_t		 len;
	int		 rc = 0;

	switch (d->unit) {
	case UNITS_BYTES:
	case UNITS_RATE:
		copy = xstrdup(s);
		len = strlen(copy);
		if (d->unit == UNITS_RATE && len > 2 &&
		    strcmp(copy + len - 2, "/s") == 0)
			copy[len - 2] = '\0';
		rc = units_parse_size(copy, &bytes, &why);
		free(copy);
		*out = (double)bytes;
		break;
	case UNITS_LAT_US:
		len = strlen(s);
		if (len == 0 || !isalpha((unsigned char)s[len - 1])) {
			xasprintf(cause, "expectation \"%s\": %s is a latency: "
			    "give \"%s\" a unit (ns, us, ms or s), e.g. "
			    "%s<=2ms", text, name, s, name);
			return (-1);
		}
		/* FALLTHROUGH */
	case UNITS_SECONDS:
		rc = units_parse_time(s, out, &why);
		if (d->unit == UNITS_LAT_US)
			*out *= 1e6;
		break;
	case UNITS_IOPS:
	case UNITS_COUNT:
	case UNITS_PLAIN:
		if (check_parse_count(s, d->unit == UNITS_PLAIN,
		    out) == 0)
			return (0);
		xasprintf(cause, "expectation \"%s\": \"%s\" is not %s for "
		    "%s", text, s, d->unit == UNITS_PLAIN ?
		    "a whole number" : "a number (digits, optionally with k "
		    "or M for thousands or millions)", name);
		return (-1);
	}
	if (rc != 0) {
		xasprintf(cause, "expectation \"%s\": %s%s", text, why,
		    d->unit == UNITS_RATE ? " (optionally /s)" : "");
		free(why);
		return (-1);
	}
	return (0);
}

/* Parse "FIGURE OP VALUE" into e; see check.h. */
int
check_parse(const char *text, struct check_expect *e, char **cause)
{
	const char	*p, *q, *start = text;
	char		*name, *value;
	size_t		 i, len;
	int		 rc;

	memset(e, 0, sizeof *e);
	p = text + strcspn(text, "<>=!");
	if (*p == '\0') {
		xasprintf(cause, "expectation \"%s\": no comparison: write "
		    "FIGURE OP VALUE with OP one of >=, <=, >, <, ==, != "
		    "(e.g. iops>=3000)", text);
		return (-1);
	}
	for (i = 0; i < CHECK_NOPS; i++) {
		len = strlen(check_ops[i].token);
		if (strncmp(p, check_ops[i].token, len) == 0)
			break;
	}
	q = p + (i < CHECK_NOPS ? strlen(check_ops[i].token) : 0);
	if (i == CHECK_NOPS || (*q != '\0' && strchr("<>=!", *q) != NULL)) {
		len = strspn(p, "<>=!");
		xasprintf(cause, "expectation \"%s\": \"%.*s\" is not a "
		    "comparison: use >=, <=, >, <, == or !=", text, (int)len,
		    p);
		return (-1);
	}
	e->op = check_ops[i].op;

	while (p > text && isspace((unsigned char)p[-1]))
		p--;
	while (isspace((unsigned char)*start) && start < p)
		start++;
	name = xmalloc(p - start + 1);
	memcpy(name, start, p - start);
	name[p - start] = '\0';
	while (isspace((unsigned char)*q))
		q++;
	value = xstrdup(q);
	for (len = strlen(value); len > 0 &&
	    isspace((unsigned char)value[len - 1]); len--)
		value[len - 1] = '\0';

	rc = -1;
	if ((e->def = figures_find(name, &e->index)) == NULL)
		xasprintf(cause, "expectation \"%s\": unknown figure \"%s\"; "
		    "use %s (N: 1 for the fastest cache, to %d)", text, name,
		    figures_names(), TIERS_MAX);
	else if ((e->op == CHECK_EQ || e->op == CHECK_NE) &&
	    !e->def->discrete)
		xasprintf(cause, "expectation \"%s\": == and != compare "
		    "whole counts such as tiers; use >= or <= for %s", text,
		    name);
	else if (*value == '\0')
		xasprintf(cause, "expectation \"%s\": no value after the "
		    "comparison", text);
	else
		rc = check_parse_value(text, e->def, name, value,
		    &e->threshold, cause);
	free(name);
	free(value);
	if (rc == 0)
		e->text = xstrdup(text);
	return (rc);
}

/* An empty list of expectations. */
struct check_list *
check_list_new(void)
{
	return (xcalloc(1, sizeof (struct check_list)));
}

/* Free a list and what it holds; NULL is a no-op. */
void
check_list_free(struct check_list *l)
{
	size_t	i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].text);
		free(l->v[i].origin);
	}
	free(l->v);
	free(l->profile);
	free(l->promise);
	free(l);
}

/* Parse text and append it to l with its origin. */
int
check_list_add(struct check_list *l, const char *text, const char *origin,
    char **cause)
{
	struct check_expect	e;

	if (check_parse(text, &e, cause) != 0)
		return (-1);
	e.origin = xstrdup(origin);
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = e;
	return (0);
}

/* The commands that measure a report section, for messages. */
static const struct {
	const char	*section;
	const char	*by;
} check_sections[] = {
	{ "scan", "run or scan" },
	{ "limits", "run or limits" },
	{ "sync", "run or sync" },
};

/*
 * A --sustain argument longer than a bucket lasting s seconds, with time
 * for the baseline after it: s plus a tenth and a minute, rounded up.
 */
static void
check_sustain_arg(double s, char *buf, size_t len)
{
	s = s * 1.1 + 60;
	if (s >= 7200)
		snprintf(buf, len, "%.0fh", ceil(s / 3600));
	else if (s >= 120)
		snprintf(buf, len, "%.0fm", ceil(s / 60));
	else
		snprintf(buf, len, "%.0f", ceil(s));
}

/* Whether a run settles e; if not, why and what would in buf. */
int
check_settles(const struct check_expect *e, int measured, double sustain_s,
    char *buf, size_t len)
{
	const char	*by = "another command";
	char		 had[UNITS_BUFSZ], lasts[UNITS_BUFSZ], arg[32];
	size_t		 i;

	buf[0] = '\0';
	if (!measured) {
		for (i = 0; i < sizeof check_sections /
		    sizeof check_sections[0]; i++) {
			if (strcmp(check_sections[i].section,
			    e->def->section) == 0)
				by = check_sections[i].by;
		}
		snprintf(buf, len, "this run has no %s phase: %s measures %s",
		    e->def->section, by, e->def->label);
		return (0);
	}
	if (!(e->sustain_s > 0) || sustain_s > e->sustain_s)
		return (1);
	check_sustain_arg(e->sustain_s, arg, sizeof arg);
	snprintf(buf, len, "its sustained run (%s) is shorter than the "
	    "bucket lasts from full (%s): a run with --sustain %s would "
	    "settle it, or one that starts with the bucket nearly empty",
	    units_format_value(UNITS_SECONDS, sustain_s, had, sizeof had),
	    units_format_value(UNITS_SECONDS, e->sustain_s, lasts,
	    sizeof lasts), arg);
	return (0);
}

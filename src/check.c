/* SPDX-License-Identifier: ISC */
/*
 * Acceptance checks.  An expectation is FIGURE OP VALUE: FIGURE an alias
 * of figures.c, OP one of >= <= > < == != (== and != for whole counts
 * only), VALUE in the figure's unit.  A figure the run could not establish
 * makes the expectation unknown, never met; a figure known only as a lower
 * bound is met or missed only when every value above the bound agrees.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
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
	case REPORT_UNIT_BYTES:
	case REPORT_UNIT_RATE:
		copy = xstrdup(s);
		len = strlen(copy);
		if (d->unit == REPORT_UNIT_RATE && len > 2 &&
		    strcmp(copy + len - 2, "/s") == 0)
			copy[len - 2] = '\0';
		rc = units_parse_size(copy, &bytes, &why);
		free(copy);
		*out = (double)bytes;
		break;
	case REPORT_UNIT_LAT_US:
		len = strlen(s);
		if (len == 0 || !isalpha((unsigned char)s[len - 1])) {
			xasprintf(cause, "expectation \"%s\": %s is a latency: "
			    "give \"%s\" a unit (ns, us, ms or s), e.g. "
			    "%s<=2ms", text, name, s, name);
			return (-1);
		}
		/* FALLTHROUGH */
	case REPORT_UNIT_SECONDS:
		rc = units_parse_time(s, out, &why);
		if (d->unit == REPORT_UNIT_LAT_US)
			*out *= 1e6;
		break;
	case REPORT_UNIT_IOPS:
	case REPORT_UNIT_COUNT:
	case REPORT_UNIT_PLAIN:
		if (check_parse_count(s, d->unit == REPORT_UNIT_PLAIN,
		    out) == 0)
			return (0);
		xasprintf(cause, "expectation \"%s\": \"%s\" is not %s for "
		    "%s", text, s, d->unit == REPORT_UNIT_PLAIN ?
		    "a whole number" : "a number (digits, optionally with k "
		    "or M for thousands or millions)", name);
		return (-1);
	}
	if (rc != 0) {
		xasprintf(cause, "expectation \"%s\": %s%s", text, why,
		    d->unit == REPORT_UNIT_RATE ? " (optionally /s)" : "");
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

/* Whether a OP b. */
static int
check_holds(enum check_op op, double a, double b)
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

/* Judge expectation e against report r. */
void
check_evaluate(const struct check_expect *e, const struct report *r,
    struct check_result *res)
{
	const struct figures_value	*fv = &res->fv;
	int				 at_v, above;

	memset(res, 0, sizeof *res);
	figures_get(r, e->def, e->index, &res->fv);
	if (!isfinite(fv->value)) {
		res->verdict = CHECK_UNKNOWN;
		snprintf(res->note, sizeof res->note, "%s", fv->why);
		return;
	}
	at_v = check_holds(e->op, fv->value, e->threshold);
	if (fv->at_least) {
		/* The true value is anywhere from the bound up. */
		above = check_holds(e->op, INFINITY, e->threshold);
		res->verdict = at_v && above ? CHECK_MET : !at_v && !above ?
		    CHECK_MISSED : CHECK_UNKNOWN;
		if (res->verdict == CHECK_UNKNOWN)
			snprintf(res->note, sizeof res->note, "only a lower "
			    "bound is known: the cache is larger than the "
			    "largest working set scanned");
		return;
	}
	res->verdict = at_v ? CHECK_MET : CHECK_MISSED;
	if (isfinite(fv->low) && isfinite(fv->high) &&
	    e->threshold >= fv->low && e->threshold <= fv->high)
		snprintf(res->note, sizeof res->note, "the threshold lies "
		    "inside the interval: another run may judge otherwise");
}

/* Judge every expectation of l against r and count the verdicts. */
int
check_tally(const struct check_list *l, const struct report *r,
    unsigned count[3])
{
	struct check_result	res;
	size_t			i;

	count[CHECK_MET] = count[CHECK_MISSED] = count[CHECK_UNKNOWN] = 0;
	for (i = 0; l != NULL && i < l->n; i++) {
		check_evaluate(&l->v[i], r, &res);
		count[res.verdict]++;
	}
	return (count[CHECK_MISSED] == 0 && count[CHECK_UNKNOWN] == 0);
}

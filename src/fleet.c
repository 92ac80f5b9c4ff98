/* SPDX-License-Identifier: ISC */
/*
 * A fleet of volumes compared by kind.  A volume's kind is, first found:
 * its --kind label, its --expect-profile name, its simulated profile's
 * name, its device model; volumes of unknown kind are listed but never
 * compared.
 *
 * The outlier rule: in a kind of FLEET_MIN_KIND volumes or more that have
 * a figure, a volume whose figure is worse than the kind's median by more
 * than the fleet's fraction (20% by default) -- or by more than its own
 * run-to-run noise (2 sd / mean over --repeat runs) when that is wider --
 * is flagged on that figure.  Worse is below the median for rates and
 * sizes, above it for latencies: ratio < 1 - f, or ratio > 1 / (1 - f).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fleet.h"
#include "standing.h"
#include "stats.h"
#include "units.h"
#include "xmalloc.h"

/* An empty fleet; outlier is the fraction worse than the median flagged. */
struct fleet *
fleet_new(double outlier)
{
	struct fleet	*fl;
	size_t		 i;

	fl = xcalloc(1, sizeof *fl);
	fl->outlier = outlier;
	for (i = 0; i < figures_count() && fl->nfig < FLEET_FIGURES; i++) {
		if (figures_at(i)->fleet)
			fl->fig[fl->nfig++] = figures_at(i);
	}
	return (fl);
}

static void
fleet_volume_free(struct fleet_volume *v)
{
	free(v->file);
	free(v->host);
	free(v->target);
	free(v->kind);
	free(v->model);
}

/* Free a fleet and all it holds; NULL is a no-op. */
void
fleet_free(struct fleet *fl)
{
	size_t	i;

	if (fl == NULL)
		return;
	for (i = 0; i < fl->nvol; i++)
		fleet_volume_free(&fl->vol[i]);
	free(fl->vol);
	for (i = 0; i < fl->nkinds; i++)
		free(fl->kinds[i].kind);
	free(fl->kinds);
	for (i = 0; i < fl->nskip; i++) {
		free(fl->skip[i].file);
		free(fl->skip[i].why);
	}
	free(fl->skip);
	free(fl);
}

/* Note file as left out for reason why. */
void
fleet_skip(struct fleet *fl, const char *file, const char *why)
{
	fl->skip = xreallocarray(fl->skip, fl->nskip + 1, sizeof *fl->skip);
	fl->skip[fl->nskip].file = xstrdup(file);
	fl->skip[fl->nskip].why = xstrdup(why);
	fl->nskip++;
}

/*
 * The kind of the volume of r (top's, or one of its targets) and how it
 * was found; "" and NULL if unknown.
 */
static const char *
fleet_kind_of(const struct report *top, const struct report *r,
    const struct check_list *l, char *buf, size_t len)
{
	const char	*p = r->target.path, *b;
	size_t		 n;

	buf[0] = '\0';
	if (top->labels.kind[0] != '\0') {
		snprintf(buf, len, "%s", top->labels.kind);
		return ("--kind");
	}
	if (l != NULL && l->profile != NULL) {
		snprintf(buf, len, "%s", l->profile);
		return ("--expect-profile");
	}
	if (r->target.profile[0] != '\0') {
		snprintf(buf, len, "%s", r->target.profile);
		return ("sim profile");
	}
	/* Reports from before target.profile: the name it was given. */
	if (strcmp(r->target.type, "sim") == 0 && p != NULL && *p != '\0') {
		b = strrchr(p, '/');
		b = b != NULL ? b + 1 : p;
		n = strlen(b);
		if (n > 4 && strcmp(b + n - 4, ".ini") == 0)
			n -= 4;
		snprintf(buf, len, "%.*s", (int)n, b);
		return ("sim profile");
	}
	if (r->context.device_model[0] != '\0') {
		snprintf(buf, len, "%s", r->context.device_model);
		return ("device model");
	}
	return (NULL);
}

/* The tier capacities of a report for people: "64 MiB, >= 4 GiB". */
static void
fleet_caches(const struct report *r, char *buf, size_t len)
{
	const struct tiers_result	*tr;
	char				 s[UNITS_BUFSZ];
	size_t				 i, o = 0;

	buf[0] = '\0';
	if (r->scan == NULL || !r->scan->tiers.analysed)
		return;
	tr = &r->scan->tiers;
	for (i = 0; i < tr->ntiers && i < TIERS_MAX && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s%s", i ? ", " : "",
		    tr->tier[i].at_least ? ">= " : "",
		    units_format_size(tr->tier[i].capacity_bytes, s,
		    sizeof s));
}

/* The volume of fl with the same known host and target as v, or NULL. */
static struct fleet_volume *
fleet_same(struct fleet *fl, const struct fleet_volume *v)
{
	size_t	i;

	if (v->host[0] == '\0')
		return (NULL);
	for (i = 0; i < fl->nvol; i++) {
		if (strcmp(fl->vol[i].host, v->host) == 0 &&
		    strcmp(fl->vol[i].target, v->target) == 0)
			return (&fl->vol[i]);
	}
	return (NULL);
}

/*
 * Add the volume of r, which is top or one of its targets: labels, times
 * and expectations are top's, the rest r's.
 */
static void
fleet_add_one(struct fleet *fl, const char *file, const struct report *top,
    const struct report *r, const struct check_list *checks)
{
	struct fleet_volume	 v, *old;
	struct figures_value	 fv;
	struct standing_figure	 sf;
	struct standing		 st;
	char			 kind[128], *why;
	size_t			 i;
	unsigned		 index;
	int			 newer;

	memset(&v, 0, sizeof v);
	v.file = xstrdup(file);
	v.host = xstrdup(top->labels.host[0] != '\0' ? top->labels.host :
	    r->context.hostname);
	v.target = xstrdup(r->target.path != NULL ? r->target.path : "");
	v.kind_source = fleet_kind_of(top, r, checks, kind, sizeof kind);
	v.kind = xstrdup(kind);
	v.model = xstrdup(r->context.device_model);
	snprintf(v.when, sizeof v.when, "%s", top->finished_utc[0] != '\0' ?
	    top->finished_utc : top->started_utc);
	snprintf(v.started, sizeof v.started, "%s", top->started_utc);
	v.seed = top->config.seed;
	v.interrupted = top->interrupted;
	if (r->fault != NULL || top->fault != NULL)
		v.fault = report_fault_word(r->fault != NULL ?
		    r->fault->reason : top->fault->reason);
	if (v.fault == NULL && (r->fault != NULL || top->fault != NULL))
		v.fault = "error";
	fleet_caches(r, v.caches, sizeof v.caches);
	v.has_limits = r->limits != NULL;
	report_figure(r, figures_find("burst", &index), 0, &fv);
	v.burst = fv.value;
	v.ebs_limit = r->ebs != NULL ? r->ebs->sustained_limit : -1;
	for (i = 0; i < fl->nfig; i++) {
		report_figure_in(top, r, fl->fig[i], 0, &fv);
		report_standing_figure(&fv, 0, &sf);
		standing_decide(&sf, &st);
		v.value[i] = fv.value;
		v.state[i] = fv.state;
		v.lifted[i] = st.burst;
		v.contradicted[i] = st.contradicted;
		v.noise[i] = fv.repeated && fv.value != 0 ?
		    (fv.high - fv.low) / 2 / fabs(fv.value) : NAN;
		v.ratio[i] = v.limit[i] = NAN;
	}
	if (checks != NULL && checks->n > 0) {
		v.checked = 1;
		report_check_tally(checks, r, v.verdicts);
	}

	if ((old = fleet_same(fl, &v)) != NULL && strcmp(v.when,
	    old->when) == 0 && strcmp(v.started, old->started) == 0 &&
	    v.seed == old->seed) {
		/* A copy of one run: keep the first, in name order. */
		xasprintf(&why, "a duplicate of %s: the same run (host %s, "
		    "target %s, seed %llu, %s)", old->file, v.host, v.target,
		    (unsigned long long)v.seed, v.when);
		fleet_skip(fl, v.file, why);
		free(why);
		fleet_volume_free(&v);
		return;
	}
	if (old != NULL) {
		newer = strcmp(v.when, old->when) >= 0;
		xasprintf(&why, "older than %s, a report of the same host (%s) "
		    "and target (%s)", newer ? v.file : old->file, v.host,
		    v.target);
		fleet_skip(fl, newer ? old->file : v.file, why);
		free(why);
		fleet_volume_free(newer ? old : &v);
		if (newer)
			*old = v;
		return;
	}
	fl->vol = xreallocarray(fl->vol, fl->nvol + 1, sizeof *fl->vol);
	fl->vol[fl->nvol++] = v;
}

/* Add the report r read from file, a volume for each target; fleet.h. */
void
fleet_add(struct fleet *fl, const char *file, const struct report *r,
    const struct check_list *checks)
{
	size_t	i;

	if (checks == NULL)
		checks = r->checks;
	if (r->ntargets == 0)
		fleet_add_one(fl, file, r, r, checks);
	for (i = 0; i < r->ntargets; i++)
		fleet_add_one(fl, file, r, &r->targets[i], checks);
}

/* The kind named name, added if new. */
static struct fleet_kind *
fleet_kind(struct fleet *fl, const char *name)
{
	struct fleet_kind	*k;
	size_t			 i;

	for (i = 0; i < fl->nkinds; i++) {
		if (strcmp(fl->kinds[i].kind, name) == 0)
			return (&fl->kinds[i]);
	}
	fl->kinds = xreallocarray(fl->kinds, fl->nkinds + 1,
	    sizeof *fl->kinds);
	k = &fl->kinds[fl->nkinds++];
	memset(k, 0, sizeof *k);
	k->kind = xstrdup(name);
	return (k);
}

/*
 * Whether volume v's figure f counts towards kind k's median: of k, not of
 * a run stopped on a fault, known, not a burst figure a drain contradicts,
 * and of the median's basis.
 */
static int
fleet_in_basis(const struct fleet_volume *v, const struct fleet_kind *k,
    size_t f)
{
	return (strcmp(v->kind, k->kind) == 0 && v->fault == NULL &&
	    isfinite(v->value[f]) && !v->contradicted[f] &&
	    v->lifted[f] == k->of_burst[f]);
}

/*
 * What kind k's median of figure f is of, as standing.c decided each
 * volume's: figures no bucket lifted (after a drop, or none applies)
 * when FLEET_MIN_KIND volumes have one, else those a bucket may have
 * lifted.  A volume of the other basis is shown, never flagged: a
 * baseline is not slow beside a burst.
 */
static int
fleet_basis(const struct fleet *fl, const struct fleet_kind *k, size_t f)
{
	const struct fleet_volume	*v;
	size_t				 i, steady = 0, burst = 0;

	for (i = 0; i < fl->nvol; i++) {
		v = &fl->vol[i];
		if (strcmp(v->kind, k->kind) != 0 || v->fault != NULL ||
		    !isfinite(v->value[f]) || v->contradicted[f])
			continue;
		if (v->lifted[f])
			burst++;
		else
			steady++;
	}
	return (steady < FLEET_MIN_KIND && burst > steady);
}

/* Ratios and flags of figure f for the volumes of kind k. */
static void
fleet_judge(struct fleet *fl, const struct fleet_kind *k, size_t f)
{
	struct fleet_volume	*v;
	double			 lim;
	int			 better = fl->fig[f]->better;
	size_t			 i;

	for (i = 0; i < fl->nvol; i++) {
		v = &fl->vol[i];
		if (strcmp(v->kind, k->kind) != 0 || v->fault != NULL ||
		    !isfinite(v->value[f]) ||
		    !isfinite(k->median[f]) || k->median[f] <= 0 ||
		    better == 0 || v->contradicted[f] ||
		    v->lifted[f] != k->of_burst[f])
			continue;
		/* Too few to compare: no ratio, as if one were judged. */
		if (k->n[f] < FLEET_MIN_KIND)
			continue;
		v->ratio[f] = v->value[f] / k->median[f];
		v->compared = 1;
		lim = fl->outlier;
		if (isfinite(v->noise[f]) && v->noise[f] > lim)
			lim = v->noise[f] < 0.99 ? v->noise[f] : 0.99;
		v->limit[f] = lim;
		v->flagged[f] = better > 0 ? v->ratio[f] < 1 - lim :
		    v->ratio[f] > 1 / (1 - lim);
		if (v->flagged[f])
			v->outlier = 1;
	}
}

/* Medians per kind, ratios, outliers. */
void
fleet_analyse(struct fleet *fl)
{
	struct fleet_kind	*k;
	double			*x;
	size_t			 i, j, f;

	x = xcalloc(fl->nvol + 1, sizeof *x);
	for (j = 0; j < fl->nkinds; j++) {
		fl->kinds[j].nvolumes = 0;
		fl->kinds[j].compared = 0;
	}
	for (i = 0; i < fl->nvol; i++) {
		if (fl->vol[i].kind[0] != '\0')
			fleet_kind(fl, fl->vol[i].kind)->nvolumes++;
	}
	for (j = 0; j < fl->nkinds; j++) {
		k = &fl->kinds[j];
		for (f = 0; f < fl->nfig; f++) {
			k->of_burst[f] = fleet_basis(fl, k, f);
			k->n[f] = 0;
			for (i = 0; i < fl->nvol; i++) {
				if (fleet_in_basis(&fl->vol[i], k, f))
					x[k->n[f]++] = fl->vol[i].value[f];
			}
			k->median[f] = stats_median(x, k->n[f]);
			if (fl->fig[f]->better != 0 &&
			    k->n[f] >= FLEET_MIN_KIND)
				k->compared = 1;
			fleet_judge(fl, k, f);
		}
	}
	free(x);
}

/* The i-th sentence on what fl could not compare; NULL past the last. */
char *
fleet_caveat(const struct fleet *fl, size_t i)
{
	const struct fleet_kind	*k;
	char			*s;
	size_t			 j, n = 0, nokind = 0, compared = 0;

	for (j = 0; j < fl->nvol; j++)
		nokind += fl->vol[j].kind[0] == '\0';
	for (j = 0; j < fl->nkinds; j++)
		compared += fl->kinds[j].compared;
	if (fl->nvol > 0 && compared == 0) {
		if (i > 0)
			return (NULL);
		xasprintf(&s, "nothing compared: no kind has %d volumes "
		    "with a figure (%zu volume%s of %zu kind%s%s); a volume's "
		    "kind is its --kind, else its --expect-profile name, its "
		    "simulated profile's name or its device model: give the "
		    "runs of one type of volume the same --kind",
		    FLEET_MIN_KIND, fl->nvol, fl->nvol == 1 ? "" : "s",
		    fl->nkinds, fl->nkinds == 1 ? "" : "s", nokind > 0 ?
		    ", some of none" : "");
		return (s);
	}
	for (j = 0; j < fl->nkinds; j++) {
		k = &fl->kinds[j];
		if (k->compared || n++ != i)
			continue;
		xasprintf(&s, "kind %s: %zu volume%s, too few to compare (%d "
		    "needed)", k->kind, k->nvolumes, k->nvolumes == 1 ? "" :
		    "s", FLEET_MIN_KIND);
		return (s);
	}
	if (nokind > 0 && n == i) {
		xasprintf(&s, "%zu volume%s of no known kind %s not compared: "
		    "give %s runs --kind", nokind, nokind == 1 ? "" : "s",
		    nokind == 1 ? "is" : "are", nokind == 1 ? "its" :
		    "their");
		return (s);
	}
	return (NULL);
}

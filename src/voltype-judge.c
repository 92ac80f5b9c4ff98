/* SPDX-License-Identifier: ISC */
/*
 * The judgement of documented volume types against what a run measured:
 * for each type, the settings that fit best, whether a figure rules it
 * out, and for those it leaves, the long run and the run that would tell
 * them apart.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

/*
 * A measured rate m (with its 95% interval [lo, hi], or a lower bound)
 * against a documented figure e: consistent when the interval reaches
 * e (1 + VOLTYPE_OVER_PCT) from below and e (1 - tolerance) from above.
 * A cap is never exceeded, so a figure above the type's rules it out;
 * below it, the provider's tolerance allows a shortfall (AWS: at least 90%
 * of the figures 99% of the time), said as a caveat when it is more than
 * VOLTYPE_OVER_PCT.  A figure of several states (buckets full, buckets
 * empty) matches either.  Where none does, a known instance's limit at the
 * measured rate, below the type's figure, explains it: the instance hid
 * the volume's own cap.
 *
 * Settings (provisioned IOPS, throughput) are fitted: each setting takes
 * its default, the ends of its range and every value that makes a figure
 * equal a measured one (by bisection, as whole numbers), later settings
 * at their defaults meanwhile; every combination is checked, and the one
 * with fewest violations, then fewest caveats, then the smallest log
 * mismatch is kept.
 *
 * A bucket: from full, at the measured rate R (in its tokens), it lasts
 * credits / (R - baseline); a sustained run 5% longer, rounded up, shows
 * it run dry.  A run that held its rate without a drop rules out a type
 * whose bucket, with what it earned meanwhile (drawn_s at the baseline),
 * could not have supplied the I/O drawn.
 */

#define VOLTYPE_SETTLE_MARGIN	1.05	/* a run this much longer */
#define VOLTYPE_SETTLE_TAIL_S	4.0	/* intervals after a drop, needed */
#define VOLTYPE_NCANDS		32	/* values tried per setting */
#define VOLTYPE_ROUND_PCT	0.5	/* a fitted setting this close to a
					   round figure is that figure */
#define VOLTYPE_GIB		1073741824.0

enum voltype_match {
	VOLTYPE_MATCH,
	VOLTYPE_NOFIG,			/* the type imposes none */
	VOLTYPE_LOW,			/* below, within the tolerance */
	VOLTYPE_LINK,			/* an instance's limit is it */
	VOLTYPE_ABOVE,
	VOLTYPE_BELOW,
};

/* One candidate's outcome. */
struct voltype_check {
	unsigned	violations;
	unsigned	caveats;
	double		score;
	char		why[VOLTYPE_TEXT_MAX];
	char		caveat[VOLTYPE_TEXT_MAX];
	double		values[VOLTYPE_SETTINGS_MAX];
	struct voltype_figures f;
	struct voltype_path p;		/* behind the instance it is on */
	double		decisive;	/* the largest mismatch of a why */
};

/* What is judged: a type at a size against the measurement. */
struct voltype_ctx {
	const struct voltype		*t;
	const struct voltype_measured	*m;
	double				 size;
	double				 tol;
	char				 at[192]; /* "gp2 at 100 GiB" */
};

static double
voltype_or(double v, double dflt)
{
	return (isfinite(v) ? v : dflt);
}

/* m against one figure e; *score gets |ln(m / e)| when it matches. */
static enum voltype_match
voltype_vs(const struct voltype_ctx *c, double m, double lo, double hi,
    int at_least, double e, double *score)
{
	double	over = VOLTYPE_OVER_PCT / 100.0;

	*score = 0;
	if (!isfinite(e))
		return (VOLTYPE_NOFIG);
	lo = voltype_or(lo, m);
	hi = voltype_or(hi, m);
	if (at_least)
		return (lo <= e * (1 + over) ? VOLTYPE_MATCH : VOLTYPE_ABOVE);
	if (lo > e * (1 + over))
		return (VOLTYPE_ABOVE);
	if (hi < e * (1 - c->tol))
		return (VOLTYPE_BELOW);
	*score = fabs(log(m / e));
	return (hi < e * (1 - over) ? VOLTYPE_LOW : VOLTYPE_MATCH);
}

/* The known instance whose limit (one of two) is m, or NULL. */
static const struct voltype_link *
voltype_link(const struct voltype_measured *m, double v, double lo, double hi,
    int bandwidth, double below)
{
	const struct voltype_link	*k;
	double				 l, pct;
	size_t				 i;
	int				 j;

	pct = VOLTYPE_LINK_PCT / 100.0;
	lo = voltype_or(lo, v);
	hi = voltype_or(hi, v);
	for (i = 0; i < m->nlinks; i++) {
		k = &m->link[i];
		for (j = 0; j < 2; j++) {
			if (bandwidth)
				l = j ? k->burst_bandwidth : k->bandwidth;
			else
				l = j ? k->burst_iops : k->iops;
			if (isfinite(l) && hi >= l * (1 - pct) &&
			    lo <= l * (1 + pct) && !(l > below * (1 + pct)))
				return (k);
		}
	}
	return (NULL);
}

static void
voltype_say(char *buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Keep the first sentence said into buf (VOLTYPE_TEXT_MAX). */
static void
voltype_say(char *buf, const char *fmt, ...)
{
	va_list	ap;

	if (*buf != '\0')
		return;
	va_start(ap, fmt);
	vsnprintf(buf, VOLTYPE_TEXT_MAX, fmt, ap);
	va_end(ap);
}

/* A figure for a sentence: IOPS or a rate. */
static char *
voltype_fmt(int bandwidth, double v, char *buf)
{
	return (units_format_value(bandwidth ? UNITS_RATE : UNITS_IOPS, v,
	    buf, UNITS_BUFSZ));
}

/*
 * A measured rate against a figure of two states (fresh, long: NAN when
 * they are one), into k.  what names it ("IOPS", "bandwidth").
 */
static void
voltype_rate(const struct voltype_ctx *c, struct voltype_check *k,
    const char *what, int bandwidth, double m, double lo, double hi,
    int at_least, double fresh, double lng)
{
	const struct voltype_link	*l;
	enum voltype_match		 a, b, best;
	double				 sa, sb, s, top;
	char				 x[UNITS_BUFSZ], y[UNITS_BUFSZ];
	char				 z[UNITS_BUFSZ];

	if (!isfinite(m))
		return;
	a = voltype_vs(c, m, lo, hi, at_least, fresh, &sa);
	b = isfinite(lng) && fabs(lng - fresh) > 1e-9 * fresh ?
	    voltype_vs(c, m, lo, hi, at_least, lng, &sb) : a;
	if (b == a)
		sb = sa;
	best = a <= b ? a : b;
	s = a <= b ? sa : sb;
	if (best == VOLTYPE_NOFIG)
		return;
	if (best >= VOLTYPE_ABOVE) {
		top = voltype_or(fresh, lng);
		if (best == VOLTYPE_BELOW && (l = voltype_link(c->m, m, lo, hi,
		    bandwidth, top)) != NULL) {
			k->caveats++;
			voltype_say(k->caveat, "%s %s is %s's limit: the "
			    "instance may hide the volume's %s", what,
			    voltype_fmt(bandwidth, m, x), l->name,
			    voltype_fmt(bandwidth, top, y));
			return;
		}
		k->violations++;
		k->score += fabs(log(m / top));
		if (fabs(log(m / top)) > k->decisive) {
			k->decisive = fabs(log(m / top));
			k->why[0] = '\0';
		}
		if (isfinite(lng) && fabs(lng - fresh) > 1e-9 * fresh)
			voltype_say(k->why, "%s %s: %s gives %s while its "
			    "bucket lasts, %s after", what,
			    voltype_fmt(bandwidth, m, x), c->at,
			    voltype_fmt(bandwidth, fresh, y),
			    voltype_fmt(bandwidth, lng, z));
		else
			voltype_say(k->why, "%s %s: %s gives %s%s", what,
			    voltype_fmt(bandwidth, m, x), c->at,
			    voltype_fmt(bandwidth, top, y), at_least ?
			    " at most" : "");
		return;
	}
	k->score += s;
	if (best == VOLTYPE_LOW) {
		k->caveats++;
		voltype_say(k->caveat, "%s %s is %.1f%% below %s's %s, within "
		    "the %g%% the provider allows", what,
		    voltype_fmt(bandwidth, m, x), 100 * (1 - m / (a <= b ?
		    fresh : lng)), c->at, voltype_fmt(bandwidth, a <= b ?
		    fresh : lng, y), 100 * c->tol);
	}
}

/* A bucket that ran dry in the run, against the type's. */
static void
voltype_dry(const struct voltype_ctx *c, struct voltype_check *k)
{
	const struct burst		*b = &c->m->burst;
	const struct voltype_figures	*f = &k->f;
	const struct voltype_link	*l;
	double				 cap, s;
	char				 x[UNITS_BUFSZ], y[UNITS_BUFSZ];

	if (isfinite(f->burst_iops)) {
		voltype_rate(c, k, "burst IOPS", 0, b->burst_iops, NAN, NAN, 0,
		    f->fresh_iops, NAN);
		voltype_rate(c, k, "IOPS after the bucket ran dry", 0,
		    b->baseline_iops, NAN, NAN, 0, voltype_or(k->p.iops,
		    f->long_iops), NAN);
		cap = f->burst_credits / f->cost;
		if (isfinite(b->credits_ios) &&
		    b->credits_ios > cap * VOLTYPE_CREDITS_OVER) {
			k->violations++;
			voltype_say(k->why, "a bucket of %s I/Os ran dry: %s "
			    "holds %s", units_format_count(b->credits_ios, x,
			    sizeof x), c->at, units_format_count(cap, y,
			    sizeof y));
		}
		return;
	}
	if (isfinite(f->burst_bandwidth) &&
	    voltype_vs(c, b->burst_iops * f->charge, NAN, NAN, 0,
	    f->fresh_bandwidth, &s) <= VOLTYPE_LOW && voltype_vs(c,
	    b->baseline_iops * f->charge, NAN, NAN, 0, f->long_bandwidth,
	    &s) <= VOLTYPE_LOW)
		return;		/* I/O drained the byte credits */
	if (c->m->on != NULL && isfinite(c->m->on->burst_s) &&
	    voltype_vs(c, b->baseline_iops, NAN, NAN, 0, k->p.iops, &s) <=
	    VOLTYPE_LOW)
		return;		/* the instance's bucket ran dry */
	l = voltype_link(c->m, b->burst_iops, NAN, NAN, 0, INFINITY);
	if (l == NULL)
		l = voltype_link(c->m, b->baseline_iops, NAN, NAN, 0,
		    INFINITY);
	if (l != NULL && isfinite(l->burst_iops)) {
		k->caveats++;
		voltype_say(k->caveat, "the bucket that ran dry (%s to %s) "
		    "may be %s's", voltype_fmt(0, b->burst_iops, x),
		    voltype_fmt(0, b->baseline_iops, y), l->name);
		return;
	}
	k->violations++;
	if (log(b->burst_iops / b->baseline_iops) > k->decisive) {
		k->decisive = log(b->burst_iops / b->baseline_iops);
		k->why[0] = '\0';
	}
	voltype_say(k->why, "a bucket ran dry (%s to %s): %s has %s",
	    voltype_fmt(0, b->burst_iops, x), voltype_fmt(0,
	    b->baseline_iops, y), c->at, isfinite(f->burst_bandwidth) ?
	    "a bucket of bandwidth credits only, which these I/Os draw little "
	    "from" : "none");
}

/* A run that held its rate without a drop, against the type's bucket. */
static void
voltype_held(const struct voltype_ctx *c, struct voltype_check *k)
{
	const struct burst		*b = &c->m->burst;
	const struct voltype_figures	*f = &k->f;
	double				 need, cap, drawn = c->m->drawn_s;
	char				 x[UNITS_BUFSZ], y[UNITS_BUFSZ];
	char				 z[UNITS_BUFSZ];

	if (!isfinite(b->held_iops) || !isfinite(b->ruled_out_below_ios) ||
	    !isfinite(drawn))
		return;
	need = cap = NAN;
	if (isfinite(f->burst_iops) && b->held_iops * f->cost > f->iops) {
		need = b->ruled_out_below_ios * f->cost - f->iops * drawn;
		cap = f->burst_credits;
	} else if (isfinite(f->burst_bandwidth) &&
	    b->held_iops * f->charge > f->bandwidth) {
		need = b->ruled_out_below_ios * f->charge - f->bandwidth *
		    drawn;
		cap = f->burst_credit_bytes;
	}
	if (!(cap < need))
		return;
	k->violations++;
	voltype_say(k->why, "%s held %s without a drop, drawing %s I/Os: the "
	    "bucket of %s would have run dry", voltype_fmt(0, b->held_iops,
	    x), units_format_value(UNITS_SECONDS, b->held_s, y, sizeof y),
	    units_format_count(b->ruled_out_below_ios, z, sizeof z), c->at);
}

/* "gp3 at 100 GiB (iops=3000,throughput=125)" into c->at. */
static void
voltype_at(struct voltype_ctx *c, const double *values)
{
	char	set[96];

	voltype_settings_text(c->t, values, set, sizeof set);
	snprintf(c->at, sizeof c->at, "%s at %g GiB%s%s%s", c->t->name,
	    c->size, *set != '\0' ? " (" : "", set, *set != '\0' ? ")" : "");
}

/* Check the figures of t with values against the measurement into k. */
static void
voltype_check_one(const struct voltype_ctx *c0, const double *values,
    struct voltype_check *k)
{
	struct voltype_ctx		 cc = *c0, *c = &cc;
	const struct voltype_measured	*m = c->m;
	const struct voltype_figures	*f = &k->f;
	double				 cap, peak;
	char				 x[UNITS_BUFSZ], y[UNITS_BUFSZ];

	voltype_at(c, values);
	memset(k, 0, sizeof *k);
	memcpy(k->values, values, sizeof k->values);
	voltype_eval(c->t, c->size, values, m->bs, &k->f);
	voltype_path(&k->f, m->on, NAN, &k->p);
	voltype_rate(c, k, "IOPS", 0, m->iops, m->iops_low, m->iops_high,
	    m->iops_at_least, f->fresh_iops, f->long_iops);
	voltype_rate(c, k, "bandwidth", 1, m->bandwidth, m->bandwidth_low,
	    m->bandwidth_high, m->bandwidth_at_least, f->fresh_bandwidth,
	    f->long_bandwidth);
	if (m->burst.detected)
		voltype_dry(c, k);
	else
		voltype_held(c, k);
	voltype_rate(c, k, "long-run IOPS", 0, m->long_run_iops, NAN, NAN, 0,
	    voltype_or(k->p.iops, f->long_iops), NAN);
	voltype_rate(c, k, "long-run bandwidth", 1, m->long_run_bandwidth,
	    NAN, NAN, 0, f->long_bandwidth, NAN);
	/*
	 * The accounting size shows only where IOPS counted in its units
	 * hold large I/O clearly (10%) below the bandwidth cap; elsewhere a
	 * size measured is where that cap meets the IOPS one, which the
	 * figures above judge.
	 */
	cap = isfinite(f->burst_bandwidth) ? f->burst_bandwidth : f->bandwidth;
	peak = isfinite(f->burst_iops) ? f->burst_iops : f->iops;
	if (m->io_accounting > 0 && isfinite(f->io_accounting) &&
	    !(peak * f->io_accounting >= 0.9 * cap) &&
	    fabs((double)m->io_accounting - f->io_accounting) > 0.5) {
		k->violations++;
		voltype_say(k->why, "I/O counted in units of %s: %s counts %s",
		    units_format_size(m->io_accounting, x, sizeof x), c->at,
		    units_format_size((uint64_t)f->io_accounting, y,
		    sizeof y));
	}
}

/* Whether a is better than b. */
static int
voltype_better(const struct voltype_check *a, const struct voltype_check *b)
{
	if (a->violations != b->violations)
		return (a->violations < b->violations);
	if (a->caveats != b->caveats)
		return (a->caveats < b->caveats);
	return (a->score < b->score - 1e-12);
}

/* The measured values a setting's figures are fitted to. */
static size_t
voltype_targets(const struct voltype_measured *m, double *v, int *bw)
{
	size_t	n = 0;

#define ADD(x, b) do { if (isfinite(x)) { v[n] = (x); bw[n++] = (b); } } \
	while (0)
	ADD(m->iops, 0);
	ADD(m->long_run_iops, 0);
	ADD(m->burst.held_iops, 0);
	ADD(m->bandwidth, 1);
	ADD(m->long_run_bandwidth, 1);
#undef ADD
	return (n);
}

/* A figure of c's type with setting i at s (the others in values). */
static double
voltype_fig_at(const struct voltype_ctx *c, double *values, size_t i,
    double s, int which)
{
	struct voltype_figures	f;
	double			keep = values[i];

	values[i] = s;
	voltype_eval(c->t, c->size, values, c->m->bs, &f);
	values[i] = keep;
	switch (which) {
	case 0:
		return (f.fresh_iops);
	case 1:
		return (f.long_iops);
	case 2:
		return (f.fresh_bandwidth);
	default:
		return (f.long_bandwidth);
	}
}

/* Add s (whole, within [lo, hi]) to cands unless it is there. */
static void
voltype_cand(double *cands, size_t *n, double s, double lo, double hi)
{
	double	p;
	size_t	i;

	if (!isfinite(s))
		return;
	s = round(s);
	/*
	 * A setting fitted to a measurement is the round figure it is
	 * within VOLTYPE_ROUND_PCT of (3 significant digits): people
	 * provision 6,000 IOPS, not the 5,999 a run measures.
	 */
	if (s >= 1000) {
		p = pow(10, floor(log10(s)) - 2);
		if (fabs(round(s / p) * p - s) <= VOLTYPE_ROUND_PCT / 100 * s)
			s = round(s / p) * p;
	}
	if (s < lo)
		s = ceil(lo);
	if (s > hi)
		s = floor(hi);
	if (s < lo || *n == VOLTYPE_NCANDS)
		return;
	for (i = 0; i < *n; i++)
		if (cands[i] == s)
			return;
	cands[(*n)++] = s;
}

/*
 * Settings i onwards of c's type (those before are in values): every
 * candidate, keeping the best check in *best.
 */
static void
voltype_fit(const struct voltype_ctx *c, double *values, size_t i,
    struct voltype_check *best, int *have)
{
	const struct voltype	*t = c->t;
	struct voltype_check	 k;
	double			 cands[VOLTYPE_NCANDS], tv[8], lo, hi;
	double			 a, b;
	double			 x, y, flo, fhi, dlo, dhi;
	size_t			 n = 0, nt, j, w, it, l;
	int			 bw[8];

	if (i == t->nsettings) {
		voltype_check_one(c, values, &k);
		if (!*have || voltype_better(&k, best)) {
			*best = k;
			*have = 1;
		}
		return;
	}
	voltype_setting_range(t, i, c->size, values, &lo, &hi);
	if (!(lo <= hi))
		return;
	/* Later settings at their defaults (or least) while fitting i. */
	for (l = i + 1; l < t->nsettings; l++) {
		voltype_setting_range(t, l, c->size, values, &dlo, &dhi);
		values[l] = voltype_or(voltype_setting_default(t, l, c->size,
		    values), dlo);
	}
	voltype_cand(cands, &n, voltype_setting_default(t, i, c->size, values),
	    lo, hi);
	voltype_cand(cands, &n, lo, lo, hi);
	voltype_cand(cands, &n, hi, lo, hi);
	nt = voltype_targets(c->m, tv, bw);
	for (j = 0; j < nt; j++) {
		for (w = bw[j] ? 2 : 0; w < (bw[j] ? 4u : 2u); w++) {
			a = lo;
			b = hi;
			flo = voltype_fig_at(c, values, i, a, (int)w) - tv[j];
			fhi = voltype_fig_at(c, values, i, b, (int)w) - tv[j];
			if (!isfinite(flo) || !isfinite(fhi) ||
			    (flo > 0) == (fhi > 0))
				continue;
			for (it = 0; it < 80; it++) {
				x = (a + b) / 2;
				y = voltype_fig_at(c, values, i, x, (int)w) -
				    tv[j];
				if (!isfinite(y))
					break;
				if ((y > 0) == (flo > 0))
					a = x;
				else
					b = x;
			}
			voltype_cand(cands, &n, (a + b) / 2, lo, hi);
		}
	}
	for (j = 0; j < n; j++) {
		values[i] = cands[j];
		voltype_fit(c, values, i + 1, best, have);
	}
}

/* A run length rounded up: to 10 s below 1,000 s, to 100 s above. */
static double
voltype_round_up(double s)
{
	double	step = s < 1000 ? 10 : 100;

	return (ceil(s / step - 1e-9) * step);
}

/* A sustained run that sees a drain of drain_s through: NAN for none. */
static double
voltype_settle_s(double drain_s)
{
	double	d;

	if (!isfinite(drain_s) || !(drain_s > 0))
		return (drain_s);
	d = voltype_round_up(drain_s * VOLTYPE_SETTLE_MARGIN);
	if (d < drain_s + VOLTYPE_SETTLE_TAIL_S)
		d = voltype_round_up(drain_s + VOLTYPE_SETTLE_TAIL_S);
	return (d);
}

/*
 * How long the path's buckets last at the measured rate, and the run to
 * see the last run dry: of the reads at bs, and of large I/O.
 */
static void
voltype_bucket(const struct voltype_measured *m, const struct voltype *t,
    double size, const double *values, const struct voltype_figures *f,
    struct voltype_result *r)
{
	struct voltype_figures	g;
	struct voltype_path	q;
	double			rate;

	r->drain_s = r->settle_sustain_s = r->bandwidth_drain_s = NAN;
	r->bucket = isfinite(f->burst_iops) ? VOLTYPE_BUCKET_IOPS :
	    isfinite(f->burst_bandwidth) ? VOLTYPE_BUCKET_BANDWIDTH :
	    VOLTYPE_BUCKET_NONE;
	rate = isfinite(m->burst.held_iops) ? m->burst.held_iops :
	    m->burst.detected ? m->burst.burst_iops : m->iops;
	voltype_path(f, m->on, rate, &q);
	if (r->bucket == VOLTYPE_BUCKET_NONE && q.drain_by ==
	    VOLTYPE_LIMIT_INSTANCE)
		r->bucket = VOLTYPE_BUCKET_IOPS;
	if (q.drain_s > 0 && isfinite(q.drain_s)) {
		r->drain_s = q.drain_s;
		r->drain_by = q.drain_by;
	}
	r->settle_sustain_s = voltype_settle_s(r->drain_s);
	if (isfinite(r->settle_sustain_s))
		snprintf(r->settle, sizeof r->settle, "--sustain %.0f",
		    r->settle_sustain_s);
	/* Large I/O, as fast as the path lets them. */
	voltype_eval(t, size, values, 1U << 20, &g);
	voltype_path(&g, m->on, NAN, &q);
	if (q.drain_s > 0 && isfinite(q.drain_s))
		r->bandwidth_drain_s = q.drain_s;
}

/* Judge type t (at the fitted settings, or those of fixed) into r. */
static void
voltype_judge_one(const struct voltype *t, const struct voltype_measured *m,
    double size, const double *fixed, struct voltype_result *r)
{
	struct voltype_ctx	 c;
	struct voltype_check	 best;
	double			 values[VOLTYPE_SETTINGS_MAX];
	size_t			 i;
	int			 have = 0;

	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", t->name);
	snprintf(r->source, sizeof r->source, "%s", t->source);
	snprintf(r->note, sizeof r->note, "%s", t->note != NULL ? t->note :
	    "");
	r->consistent = -1;
	r->iops = r->bandwidth = r->long_run_iops = NAN;
	r->long_run_bandwidth = r->drain_s = r->settle_sustain_s = NAN;
	r->bandwidth_drain_s = NAN;
	if (m->model[0] != '\0' && t->model != NULL &&
	    !voltype_model_matches(t, m->model)) {
		r->consistent = 0;
		snprintf(r->ruled_out_by, sizeof r->ruled_out_by, "device "
		    "model \"%s\": %s volumes say \"%s\"", m->model, t->name,
		    t->model);
		return;
	}
	if (!(size > 0)) {
		snprintf(r->ruled_out_by, sizeof r->ruled_out_by, "the "
		    "volume's size is unknown");
		return;
	}
	if (size < t->size_min || size > t->size_max) {
		r->consistent = 0;
		snprintf(r->ruled_out_by, sizeof r->ruled_out_by, "size %g "
		    "GiB: %s volumes are %g to %g GiB", size, t->name,
		    t->size_min, t->size_max);
		return;
	}
	/* A store read slower than the type documents (io2 Block Express:
	 * sub-millisecond) rules it out, the provider's tolerance aside. */
	if (isfinite(t->latency_us_max) && isfinite(m->read_p50_us) &&
	    m->read_p50_us > t->latency_us_max * (1 + voltype_or(
	    t->tolerance_pct, VOLTYPE_TOLERANCE_PCT) / 100)) {
		r->consistent = 0;
		snprintf(r->ruled_out_by, sizeof r->ruled_out_by, "store "
		    "reads p50 %.0f us: %s reads take under %.0f us",
		    m->read_p50_us, t->name, t->latency_us_max);
		return;
	}
	memset(&c, 0, sizeof c);
	c.t = t;
	c.m = m;
	c.size = size;
	c.tol = voltype_or(t->tolerance_pct, VOLTYPE_TOLERANCE_PCT) / 100;
	for (i = 0; i < VOLTYPE_SETTINGS_MAX; i++)
		values[i] = fixed != NULL && i < t->nsettings ? fixed[i] : NAN;
	if (fixed != NULL) {
		voltype_check_one(&c, values, &best);
		have = 1;
	} else
		voltype_fit(&c, values, 0, &best, &have);
	if (!have) {
		r->consistent = 0;
		snprintf(r->ruled_out_by, sizeof r->ruled_out_by, "no %s "
		    "setting exists at %g GiB", t->name, size);
		return;
	}
	voltype_settings_text(t, best.values, r->settings, sizeof r->settings);
	r->consistent = best.violations == 0;
	memcpy(r->ruled_out_by, best.why, sizeof r->ruled_out_by);
	memcpy(r->caveat, best.caveat, sizeof r->caveat);
	r->iops = best.f.fresh_iops;
	r->bandwidth = best.f.fresh_bandwidth;
	r->long_run_iops = best.p.iops;
	r->long_run_iops_by = best.p.iops_by;
	r->long_run_bandwidth = best.p.bandwidth;
	r->long_run_bandwidth_by = best.p.bandwidth_by;
	r->decisive = best.decisive;
	voltype_bucket(m, t, size, best.values, &best.f, r);
}

/* Whether two long-run figures differ (one imposed, the other not). */
static int
voltype_differ(double a, double b)
{
	double	tol = VOLTYPE_TOLERANCE_PCT / 100.0;

	if (isfinite(a) != isfinite(b))
		return (1);
	return (isfinite(a) && fabs(a - b) > tol * (a > b ? a : b));
}

/* Judge the n types against m; see voltype.h. */
void
voltype_judge(const struct voltype *const *types, size_t n,
    const struct voltype_measured *m, struct voltype_judgement *j)
{
	struct voltype_result	*a, *b, *longest = NULL;
	double			 size = m->size_bytes / VOLTYPE_GIB;
	size_t			 i, k;

	memset(j, 0, sizeof *j);
	j->size_bytes = m->size_bytes > 0 ? (uint64_t)m->size_bytes : 0;
	snprintf(j->model, sizeof j->model, "%s", m->model);
	j->n = n;
	j->result = xcalloc(n > 0 ? n : 1, sizeof *j->result);
	j->settle_sustain_s = NAN;
	for (i = 0; i < n; i++) {
		voltype_judge_one(types[i], m, size, NULL, &j->result[i]);
		j->nconsistent += j->result[i].consistent == 1;
	}
	for (i = 0; i < n; i++) {
		a = &j->result[i];
		if (a->consistent != 1)
			continue;
		for (k = i + 1; k < n; k++) {
			b = &j->result[k];
			if (b->consistent == 1 && (voltype_differ(
			    a->long_run_iops, b->long_run_iops) ||
			    voltype_differ(a->long_run_bandwidth,
			    b->long_run_bandwidth)))
				j->apart = 1;
		}
		if (isfinite(a->settle_sustain_s) && (longest == NULL ||
		    a->settle_sustain_s > longest->settle_sustain_s))
			longest = a;
	}
	if (j->apart && longest != NULL) {
		j->settle_sustain_s = longest->settle_sustain_s;
		memcpy(j->settle, longest->settle, sizeof j->settle);
	}
}

/* Judge type t with the settings of spec; see voltype.h. */
int
voltype_judge_given(const struct voltype *t, const struct voltype_spec *spec,
    const struct voltype_measured *m, struct voltype_result *r,
    char **cause)
{
	double	values[VOLTYPE_SETTINGS_MAX], size;

	size = (spec->size_bytes > 0 ? (double)spec->size_bytes :
	    m->size_bytes) / VOLTYPE_GIB;
	if (!(size > 0)) {
		xasprintf(cause, "the size of the volume is unknown: give "
		    "--size, or TYPE:SIZE");
		return (-1);
	}
	if (voltype_settings(t, spec, size, values, cause) != 0)
		return (-1);
	voltype_judge_one(t, m, size, values, r);
	return (0);
}

/* Release j's results. */
void
voltype_judgement_free(struct voltype_judgement *j)
{
	if (j == NULL)
		return;
	free(j->result);
	j->result = NULL;
	j->n = 0;
}

/* Initialise m with everything unknown. */
void
voltype_measured_init(struct voltype_measured *m)
{
	memset(m, 0, sizeof *m);
	m->size_bytes = NAN;
	m->bs = 4096;
	m->iops = m->iops_low = m->iops_high = NAN;
	m->bandwidth = m->bandwidth_low = m->bandwidth_high = NAN;
	m->long_run_iops = m->long_run_bandwidth = NAN;
	m->burst.burst_iops = m->burst.baseline_iops = NAN;
	m->burst.duration_s = m->burst.credits_ios = NAN;
	m->burst.observed_s = m->burst.drop_t_s = NAN;
	m->burst.prior_credits_ios = m->burst.drop_sweep_t_s = NAN;
	m->burst.held_iops = m->burst.held_s = NAN;
	m->burst.ruled_out_below_ios = NAN;
	m->drawn_s = NAN;
	m->read_p50_us = NAN;
}

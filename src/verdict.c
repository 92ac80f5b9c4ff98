/* SPDX-License-Identifier: ISC */
/*
 * The verdict of a report, built from its figures and the bucket state
 * each was measured in (report-state.c).  A figure the run measured is
 * "measured", whatever its state; the state says whether a bucket may
 * have lifted it.  The long-run IOPS and bandwidth are measured only
 * after a bucket ran dry; without a drop the rate the run held is the
 * most they can be ("bounded"), and what settles more is a sustained run
 * VERDICT_SETTLE_FACTOR times as long (as the run's, or a default run's
 * when that is longer): it draws that many times the I/O, so a bucket up
 * to that size runs dry in it (nothing short of a drop rules them all
 * out).  The documented volume types that fit what the run measured
 * (report->voltypes, voltype.h) refine both: the long-run items say what
 * each type would keep, and when they differ the settling run is at least
 * as long as the one that tells them apart (their buckets run dry in it).
 * With --type, that type's documented figure is the one to plan with,
 * marked documented, not measured.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "peers.h"
#include "report.h"
#include "standing.h"
#include "verdict.h"
#include "voltype.h"

#define VERDICT_HELPS		1.1	/* writers together over one: more */
#define VERDICT_AT_CAP		0.95	/* of an IOPS ceiling: held by it */

/* Append to buf (of len) what fmt says. */
static void
verdict_append(char *buf, size_t len, const char *fmt, ...)
{
	va_list	ap;
	size_t	o = strlen(buf);

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

/* A new item of v on line; NULL when v is full. */
static struct verdict_item *
verdict_add(struct verdict *v, const char *name, const char *line,
    enum units_kind unit)
{
	struct verdict_item	*it;

	if (v->nitems >= VERDICT_ITEMS)
		return (NULL);
	it = &v->item[v->nitems++];
	memset(it, 0, sizeof *it);
	snprintf(it->name, sizeof it->name, "%s", name);
	snprintf(it->line, sizeof it->line, "%s", line);
	it->unit = unit;
	it->value = NAN;
	it->documented = NAN;
	return (it);
}

/* Whether s needs quoting for a shell. */
static int
verdict_unsafe(const char *s)
{
	for (; *s != '\0'; s++)
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:@%+=,-",
		    *s) == NULL)
			return (1);
	return (0);
}

/* The target as a user gives it; see verdict.h. */
char *
verdict_target(const struct report *r, char *buf, size_t len)
{
	const char	*p = r->target.path != NULL ? r->target.path : "TARGET";
	char		 t[512];
	size_t		 o = 0;

	snprintf(t, sizeof t, "%s%s", strcmp(r->target.type, "sim") == 0 &&
	    strncmp(p, "sim:", 4) != 0 ? "sim:" : "", p);
	if (!verdict_unsafe(t) || len < 3) {
		snprintf(buf, len, "%s", t);
		return (buf);
	}
	/* A quote in it ends the quoting, is escaped, and starts it again. */
	buf[o++] = '\'';
	for (p = t; *p != '\0' && o + 6 < len; p++) {
		if (*p == '\'')
			o += snprintf(buf + o, len - o, "'\\''");
		else
			buf[o++] = *p;
	}
	buf[o++] = '\'';
	buf[o] = '\0';
	return (buf);
}

_Static_assert((int)VERDICT_UNKNOWN == (int)STANDING_UNKNOWN &&
    (int)VERDICT_MEASURED == (int)STANDING_MEASURED &&
    (int)VERDICT_BOUNDED == (int)STANDING_BOUNDED,
    "standing.c decides the standing");

/* "measured", "bounded", "unknown"; NULL past the last. */
const char *
verdict_standing_name(int s)
{
	return (standing_kind_name(s));
}

/*
 * The length of a sustained run VERDICT_SETTLE_FACTOR times one of s
 * seconds, or of the default run when s is shorter (a quick preset's), so
 * that it draws at least that many times what a default run draws;
 * rounded up to 100 s.
 */
static double
verdict_settle_s(double s)
{
	double	x = VERDICT_SETTLE_FACTOR * fmax(s, LIMITS_SUSTAIN_S);

	return (ceil(x / 100) * 100);
}

/* The sustained run of r's reads, as run: seconds; 0 when none ran. */
static double
verdict_sustained_s(const struct report *r)
{
	const struct limits_result	*l = r->limits;

	if (l == NULL || l->timeline.n == 0)
		return (0);
	return (l->sustain_s > 0 ? l->sustain_s :
	    l->timeline.v[l->timeline.n - 1].t_s);
}

/*
 * The command that settles what a bucket may have lifted in r: a run as
 * long as verdict_settle_s of the sustained one (or one with the default
 * run, when none ran), a run when the report lacks a scan or commits it
 * would measure (what follows the sustained run, the writes and commits,
 * is then measured after it), else limits; with what it would show in
 * settle_reason.  opts: more options, for a limits run only.
 */
/*
 * The documented volume types of r's judgement that fit what it measured,
 * as "gp2 and gp3" into buf; 0 when none does (or none was judged).
 */
static size_t
verdict_type_names(const struct report *r, char *buf, size_t len)
{
	const struct voltype_judgement	*j = r->voltypes;
	size_t				 i, k = 0;

	buf[0] = '\0';
	if (j == NULL)
		return (0);
	for (i = 0; i < j->n; i++) {
		if (j->result[i].consistent != 1)
			continue;
		k++;
		verdict_append(buf, len, "%s%s", k == 1 ? "" : k ==
		    j->nconsistent ? " and " : ", ", j->result[i].name);
	}
	return (k);
}

static double	verdict_drain_settle(double);
static void	verdict_settle(const struct report *, const char *,
		    const char *, struct verdict_item *);

/* Whether --type was given and fits what was measured. */
static int
verdict_given_fits(const struct voltype_judgement *j)
{
	return (j->given && j->given_result.consistent == 1);
}

/*
 * The documented volume types that fit r and have a bucket of the kind
 * items settled with options opts drain (--bs: bytes, else I/O credits):
 * the longest sustained run that sees one of them run dry at the rate
 * measured (NAN: none has such a bucket), and in *who the type whose run
 * that is.  With --type: that type's alone.
 */
static double
verdict_types_settle(const struct report *r, const char *opts,
    const char **who)
{
	const struct voltype_judgement	*j = r->voltypes;
	const struct voltype_result	*x;
	int				 bytes = strstr(opts, "--bs") != NULL;
	double				 most = NAN, s;
	size_t				 i;

	*who = NULL;
	if (j == NULL)
		return (NAN);
	for (i = 0; i < j->n + (verdict_given_fits(j) ? 1 : 0); i++) {
		x = i < j->n ? &j->result[i] : &j->given_result;
		s = bytes ? verdict_drain_settle(x->bandwidth_drain_s) :
		    x->settle_sustain_s;
		if ((verdict_given_fits(j) && i < j->n) || x->consistent != 1 ||
		    !isfinite(s))
			continue;
		if (!(s <= most)) {
			most = s;
			*who = !bytes && x->drain_by ==
			    VOLTYPE_LIMIT_INSTANCE && j->on.name[0] != '\0' ?
			    j->on.name : x->name;
		}
	}
	return (most);
}

/* A run that sees a drain of s through, as voltype's: NAN for none. */
static double
verdict_drain_settle(double s)
{
	if (!isfinite(s) || !(s > 0))
		return (NAN);
	return (ceil(fmax(s * 1.05, s + 4) / 100) * 100);
}

/*
 * The long run of the documented types judged, each behind the instance
 * the volume is on (bw: bandwidth, else IOPS at the run's I/O size):
 * --type's when it fits, else that of every type that fits when they
 * keep the same (within the provider's tolerance); NAN when none does or
 * they differ.  *by: what sets it; *settle: the sustained run that sees
 * the path's last bucket run dry at the run's demand (NAN: none drains).
 */
static double
verdict_path(const struct report *r, int bw, int *by, double *settle)
{
	const struct voltype_judgement	*j = r->voltypes;
	const struct voltype_result	*x;
	double				 lo = NAN, hi = NAN, v, d;
	size_t				 i, k = 0;

	*by = VOLTYPE_LIMIT_NONE;
	*settle = NAN;
	if (j == NULL)
		return (NAN);
	for (i = 0; i < j->n + (verdict_given_fits(j) ? 1 : 0); i++) {
		x = i < j->n ? &j->result[i] : &j->given_result;
		if ((verdict_given_fits(j) && i < j->n) || x->consistent != 1)
			continue;
		v = bw ? x->long_run_bandwidth : x->long_run_iops;
		if (!isfinite(v))
			return (NAN);
		k++;
		if (!(v >= lo)) {
			lo = v;
			*by = bw ? x->long_run_bandwidth_by :
			    x->long_run_iops_by;
		}
		hi = fmax(v, isfinite(hi) ? hi : v);
		d = verdict_drain_settle(bw ? x->bandwidth_drain_s :
		    x->drain_s);
		if (isfinite(d) && !(d <= *settle))
			*settle = d;
	}
	if (k == 0 || hi - lo > VOLTYPE_TOLERANCE_PCT / 100.0 * hi) {
		*by = VOLTYPE_LIMIT_NONE;
		return (NAN);
	}
	return (lo);
}

/* The name of the instance the volume is on, as a limit's; "" none. */
static void
verdict_limit_of(const struct report *r, struct verdict_item *it, int by)
{
	it->limit = by;
	it->limit_of[0] = '\0';
	if (by == VOLTYPE_LIMIT_INSTANCE && r->voltypes != NULL)
		snprintf(it->limit_of, sizeof it->limit_of, "%s",
		    r->voltypes->on.name);
}

static void
verdict_settle(const struct report *r, const char *tgt, const char *opts,
    struct verdict_item *it)
{
	const struct burst	*b;
	const char		*cmd = "limits";
	const char		*who;
	char			 a[UNITS_BUFSZ], c[UNITS_BUFSZ], names[128];
	double			 s = verdict_sustained_s(r), typed;
	size_t			 k;

	typed = verdict_types_settle(r, opts, &who);

	if (opts[0] == '\0' && (strcmp(r->config.command, "run") == 0 ||
	    r->scan == NULL || (r->sync == NULL &&
	    strcmp(r->target.type, "blockdev") != 0)))
		cmd = "run";
	if (s == 0) {
		snprintf(it->settle, sizeof it->settle, "tierprobe %s %s%s",
		    cmd, tgt, opts);
		snprintf(it->settle_reason, sizeof it->settle_reason, "its "
		    "sustained run tells whether a bucket runs dry%s",
		    strcmp(cmd, "run") == 0 && strcmp(r->target.type,
		    "blockdev") != 0 ? ", before the commits" : "");
		return;
	}
	b = &r->limits->burst;
	/*
	 * A type's bucket: the run that sees it run dry, no longer; none
	 * known: ten times the run, once (a run that long already asks
	 * for nothing more, so settling converges).
	 */
	if (!isfinite(typed) && s >= VERDICT_SETTLE_FACTOR *
	    LIMITS_SUSTAIN_S) {
		it->settle[0] = it->settle_reason[0] = '\0';
		verdict_append(it->reason, sizeof it->reason, "; no practical "
		    "run rules out a larger bucket");
		return;
	}
	s = isfinite(typed) ? typed : verdict_settle_s(s);
	if (s > VERDICT_PRACTICAL_S) {
		it->settle[0] = it->settle_reason[0] = '\0';
		verdict_append(it->reason, sizeof it->reason, "; the run that "
		    "would see %s's bucket run dry takes %s: impractical",
		    who != NULL ? who : "a", units_format_value(UNITS_SECONDS,
		    s, a, sizeof a));
		/* What it would change. */
		k = verdict_type_names(r, names, sizeof names);
		if (isfinite(it->documented))
			verdict_append(it->reason, sizeof it->reason, ", and "
			    "would only measure the %s documented",
			    units_format_value(it->unit, it->documented, c,
			    sizeof c));
		else if (k > 1)
			verdict_append(it->reason, sizeof it->reason, ", and "
			    "would tell %s apart", names);
		return;
	}
	snprintf(it->settle, sizeof it->settle, "tierprobe %s %s%s --sustain "
	    "%.0f", cmd, tgt, opts, s);
	it->settle_reason[0] = '\0';
	k = verdict_type_names(r, names, sizeof names);
	if (isfinite(typed) && k > 1 && r->voltypes->apart &&
	    !r->voltypes->given)
		snprintf(it->settle_reason, sizeof it->settle_reason, "tells "
		    "%s apart (%s's bucket runs dry in it)", names, who);
	else if (isfinite(typed))
		snprintf(it->settle_reason, sizeof it->settle_reason, "%s's "
		    "bucket runs dry in it", who);
	if (isfinite(typed))
		;	/* the type's bucket says it */
	else if (isfinite(b->ruled_out_below_ios) && isfinite(b->held_iops))
		verdict_append(it->settle_reason, sizeof it->settle_reason,
		    isfinite(typed) ? "%s%s I/Os" : "%sdraws ~%s I/Os (this "
		    "run: %s): a bucket that large runs dry in it", "",
		    units_format_value(UNITS_COUNT, s * b->held_iops, a,
		    sizeof a), units_format_value(UNITS_COUNT,
		    b->ruled_out_below_ios, c, sizeof c));
	else
		verdict_append(it->settle_reason, sizeof it->settle_reason,
		    "%sa sustained run %.0fx as long", isfinite(typed) ?
		    "what " : "", s / fmax(verdict_sustained_s(r), 1));
	if (strcmp(cmd, "run") == 0 && strcmp(r->target.type, "blockdev") != 0)
		verdict_append(it->settle_reason, sizeof it->settle_reason,
		    ", before the commits");
}

/*
 * The command that measures what a report left out (the scan, the
 * commits): a run, which on a file or simulated volume measures both.
 */
static void
verdict_whole(const struct report *r, const char *tgt,
    struct verdict_item *it)
{
	const struct limits_result	*l = r->limits;

	/* With the longer sustained run a bucket's question asks for. */
	if (l != NULL && !l->burst.detected && isfinite(l->burst.held_iops)) {
		verdict_settle(r, tgt, "", it);
		return;
	}
	snprintf(it->settle, sizeof it->settle, "tierprobe run %s", tgt);
	snprintf(it->settle_reason, sizeof it->settle_reason, "scans for the "
	    "caches and the store%s", strcmp(r->target.type, "blockdev") != 0 ?
	    ", and measures the commits" : "");
}

/* What state s means for a figure, in a few words; "" for none. */
const char *
verdict_state_words(int s)
{
	switch (s) {
	case BUCKET_FULL:
		return ("before a bucket ran dry");
	case BUCKET_MAY_BE_FULL:
		return ("a bucket may be full");
	case BUCKET_DRAINING:
		return ("while a bucket ran dry");
	case BUCKET_EMPTY:
		return ("after a bucket ran dry");
	}
	return ("");
}

/*
 * A figure measured in state s, with its state as the reason; standing.c
 * decides its standing.
 */
static void
verdict_measured(struct verdict_item *it, double value, int s)
{
	struct standing_figure	f = { .value = value, .low = NAN,
				    .high = NAN, .state = s };
	struct standing		st;

	standing_decide(&f, &st);
	it->value = value;
	it->state = s;
	it->standing = st.kind;
	snprintf(it->reason, sizeof it->reason, "%s", isfinite(value) ?
	    verdict_state_words(s) : "not established");
}

/* A size as an option takes it: whole MiB, or GiB from 1 GiB, up. */
static char *
verdict_size_arg(uint64_t v, char *buf, size_t len)
{
	if (v >= 1ULL << 30)
		snprintf(buf, len, "%lluG", (unsigned long long)((v +
		    (1ULL << 30) - 1) >> 30));
	else
		snprintf(buf, len, "%lluM", (unsigned long long)((v +
		    (1ULL << 20) - 1) >> 20));
	return (buf);
}

/* The caches and the store, from the scan. */
static void
verdict_reads(const struct report *r, const char *tgt, struct verdict *v)
{
	const struct scan_result	*s = r->scan;
	const struct tier		*t;
	struct verdict_item		*it;
	char				 name[32], line[32], a[UNITS_BUFSZ];
	uint64_t			 top;
	size_t				 i;

	if (s == NULL || !s->tiers.analysed) {
		if ((it = verdict_add(v, "store.p50", "store", UNITS_LAT_US)) ==
		    NULL)
			return;
		if (s != NULL) {
			snprintf(it->reason, sizeof it->reason, "the scan was "
			    "not analysed as a whole (see Cache tiers)");
			return;
		}
		snprintf(it->reason, sizeof it->reason, "not scanned");
		verdict_whole(r, tgt, it);
		return;
	}
	top = s->npoints > 0 ? s->points[s->npoints - 1].ws_bytes : 0;
	for (i = 0; i < s->tiers.ntiers && i < TIERS_MAX; i++) {
		t = &s->tiers.tier[i];
		snprintf(name, sizeof name, "tier%zu.capacity", i + 1);
		snprintf(line, sizeof line, "cache %zu", i + 1);
		if ((it = verdict_add(v, name, line, UNITS_BYTES)) == NULL)
			return;
		verdict_measured(it, t->capacity_bytes > 0 ?
		    (double)t->capacity_bytes : NAN, BUCKET_UNAFFECTED);
		it->reason[0] = '\0';
		if (t->at_least && isfinite(it->value)) {
			it->standing = VERDICT_BOUNDED;
			it->bound = REPORT_BOUND_AT_LEAST;
			snprintf(it->reason, sizeof it->reason, "the scan "
			    "never outgrew it");
			snprintf(it->settle, sizeof it->settle, "tierprobe "
			    "scan %s --max-ws %s", tgt, verdict_size_arg(
			    4 * top, a, sizeof a));
			snprintf(it->settle_reason, sizeof it->settle_reason,
			    "scans working sets 4x as large");
		}
		snprintf(name, sizeof name, "tier%zu.p50", i + 1);
		if ((it = verdict_add(v, name, line, UNITS_LAT_US)) == NULL)
			return;
		verdict_measured(it, t->lat_us_p50, s->state);
	}
	if ((it = verdict_add(v, "store.p50", "store", UNITS_LAT_US)) == NULL)
		return;
	verdict_measured(it, s->tiers.backing_p50_us, s->state);
	if (s->tiers.ntiers == 0 && top > 0)
		snprintf(it->detail, sizeof it->detail, "no cache up to %s",
		    units_format_size(top, a, sizeof a));
	if ((it = verdict_add(v, "store.p99", "store", UNITS_LAT_US)) != NULL)
		verdict_measured(it, s->tiers.backing_p99_us, s->state);
}

/* A drop, where it was seen: "at 1980 s of the sustained run". */
static void
verdict_drop_where(const struct burst *b, char *buf, size_t len)
{
	char	a[UNITS_BUFSZ];

	if (!b->exhausted)
		snprintf(buf, len, "at %s of the sustained run",
		    units_format_value(UNITS_SECONDS, b->drop_t_s, a,
		    sizeof a));
	else if (isfinite(b->drop_sweep_t_s))
		snprintf(buf, len, "during the sweeps, at %s",
		    units_format_value(UNITS_SECONDS, b->drop_sweep_t_s, a,
		    sizeof a));
	else
		snprintf(buf, len, "before the sustained run, which ran well "
		    "below the sweeps' rate");
}

/*
 * What the documented volume types that fit r would keep for the long run
 * (bw: bandwidth, else IOPS), appended to it's reason: "300 if gp2 (its
 * bucket empty in ~2,000 s at this rate), 3,001 if gp3", or that every one
 * keeps the same.  With --type: that type's documented figure, which the
 * item carries as documented, not measured.
 */
static void
verdict_types_long(const struct report *r, int bw, struct verdict_item *it)
{
	const struct voltype_judgement	*j = r->voltypes;
	const struct voltype_result	*x;
	char				 a[UNITS_BUFSZ], d[UNITS_BUFSZ];
	char				 names[128], first[UNITS_BUFSZ];
	enum units_kind			 u = bw ? UNITS_RATE : UNITS_IOPS;
	double				 v;
	size_t				 i, k = 0, same = 1;

	if (j == NULL)
		return;
	if (j->given) {
		x = &j->given_result;
		if (x->consistent != 1)
			return;
		v = bw ? x->long_run_bandwidth : x->long_run_iops;
		it->documented = v;
		snprintf(it->documented_by, sizeof it->documented_by, "%.*s",
		    (int)sizeof it->documented_by - 1, j->given_spec);
		verdict_append(it->reason, sizeof it->reason, "; %s%s "
		    "documented for %.64s (--type, not measured)", isfinite(v) ?
		    units_format_value(u, v, a, sizeof a) : "no limit",
		    isfinite(v) && !bw ? " IOPS" : "", j->given_spec);
		return;
	}
	if (verdict_type_names(r, names, sizeof names) == 0)
		return;
	first[0] = '\0';
	for (i = 0; i < j->n; i++) {
		x = &j->result[i];
		if (x->consistent != 1)
			continue;
		v = bw ? x->long_run_bandwidth : x->long_run_iops;
		units_format_value(u, v, a, sizeof a);
		if (!isfinite(v))
			snprintf(a, sizeof a, "no limit");
		if (k++ == 0)
			snprintf(first, sizeof first, "%s", a);
		else if (strcmp(first, a) != 0)
			same = 0;
	}
	if (same) {
		verdict_append(it->reason, sizeof it->reason, "; %s%s in the "
		    "long run documented for %s, %s that fit%s", first,
		    isfinite(bw ? j->result[0].long_run_bandwidth : 1) && !bw &&
		    strcmp(first, "no limit") != 0 ? " IOPS" : "", names,
		    k > 1 ? "the documented types" : "the one documented type",
		    k > 1 ? "" : "s");
		return;
	}
	verdict_append(it->reason, sizeof it->reason, "; documented: ");
	for (i = 0, k = 0; i < j->n; i++) {
		x = &j->result[i];
		if (x->consistent != 1)
			continue;
		v = bw ? x->long_run_bandwidth : x->long_run_iops;
		verdict_append(it->reason, sizeof it->reason, "%s%s if %s",
		    k++ > 0 ? ", " : "", isfinite(v) ? units_format_value(u,
		    v, a, sizeof a) : "no limit", x->name);
		if (!bw && x->bucket != VOLTYPE_BUCKET_NONE &&
		    isfinite(x->drain_s))
			verdict_append(it->reason, sizeof it->reason, " (empty "
			    "after ~%s here)", units_format_value(UNITS_SECONDS,
			    x->drain_s, d, sizeof d));
	}
}

static void	verdict_types_long(const struct report *, int,
		    struct verdict_item *);

/* --type's documented figure, said as such, when it fits. */
static void
verdict_path_given(const struct report *r, int bw, struct verdict_item *it)
{
	if (r->voltypes != NULL && verdict_given_fits(r->voltypes))
		verdict_types_long(r, bw, it);
}

/*
 * The run that measures the long run the path documents for it: the one
 * that sees the last bucket in the path run dry (of the reads; of large
 * I/O for a bandwidth no read run drains), when one does and it is
 * practical; nothing when no bucket drains.
 */
static void
verdict_path_settle(const struct report *r, const char *tgt, int bw,
    struct verdict_item *it)
{
	const char	*who;

	it->settle[0] = it->settle_reason[0] = '\0';
	if (isfinite(verdict_types_settle(r, "", &who)))
		verdict_settle(r, tgt, "", it);
	else if (bw && isfinite(verdict_types_settle(r, " --bs 1M", &who)))
		verdict_settle(r, tgt, " --bs 1M", it);
}

/*
 * A bounded long-run item whose path the types agree on above what the
 * run held: the run's figure stands, the path's is documented, nothing to
 * settle.  Returns 1.
 */
static int
verdict_path_held(const struct report *r, int bw, struct verdict_item *it,
    double p, int by)
{
	char	a[UNITS_BUFSZ];

	verdict_limit_of(r, it, by);
	snprintf(it->reason, sizeof it->reason, "every documented type that "
	    "fits keeps %s once every bucket is spent", units_format_value(bw ?
	    UNITS_RATE : UNITS_IOPS, p, a, sizeof a));
	it->settle[0] = it->settle_reason[0] = '\0';
	return (1);
}

/*
 * A long-run item it (bw: bandwidth) against the long run of the path the
 * documented types judged agree on: a figure measured after a drain keeps
 * its value and names what sets it, unless the path holds it lower; one
 * the run only bounded is held to the path's, documented, with nothing to
 * settle (every type that fits keeps it).  Returns whether the path gave
 * the figure.
 */
static int
verdict_long_path(const struct report *r, const char *tgt, int bw,
    struct verdict_item *it)
{
	char	a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	double	p, settle, tol = VOLTYPE_TOLERANCE_PCT / 100.0;
	int	by;

	p = verdict_path(r, bw, &by, &settle);
	if (!isfinite(p))
		return (0);
	it->documented = p;
	if (r->voltypes != NULL && verdict_given_fits(r->voltypes))
		snprintf(it->documented_by, sizeof it->documented_by, "%.*s",
		    (int)sizeof it->documented_by - 1, r->voltypes->given_spec);
	else
		verdict_type_names(r, it->documented_by,
		    sizeof it->documented_by);
	if (it->standing == VERDICT_MEASURED && it->value >= p * (1 - tol)) {
		if (it->value <= p * (1 + tol))
			verdict_limit_of(r, it, by);
		if (it->value <= p * (1 + tol))
			return (1);
	}
	if (it->standing == VERDICT_MEASURED)
		snprintf(it->detail, sizeof it->detail, "measured %s",
		    units_format_value(bw ? UNITS_RATE : UNITS_IOPS, it->value,
		    c, sizeof c));
	if (!(p < it->value)) {
		if (it->standing != VERDICT_BOUNDED)
			return (0);
		verdict_path_held(r, bw, it, p, by);
		verdict_path_given(r, bw, it);
		verdict_path_settle(r, tgt, bw, it);
		return (1);
	}
	it->value = p;
	it->standing = VERDICT_BOUNDED;
	it->bound = REPORT_BOUND_AT_MOST;
	verdict_limit_of(r, it, by);
	snprintf(it->reason, sizeof it->reason, "the least limit in its path "
	    "once every bucket is spent (%s)", units_format_value(bw ?
	    UNITS_RATE : UNITS_IOPS, p, a, sizeof a));
	it->settle[0] = it->settle_reason[0] = '\0';
	verdict_path_given(r, bw, it);
	if (it->state != BUCKET_EMPTY)
		verdict_path_settle(r, tgt, bw, it);
	return (1);
}

/*
 * The long-run IOPS: the baseline a bucket fell to (in the reads, else
 * in the writes), or the rate the run held, the most it can be.
 */
static void
verdict_long_iops(const struct report *r, const char *tgt, struct verdict *v)
{
	const struct limits_result	*l = r->limits, *w = NULL;
	const struct burst		*b;
	struct verdict_item		*it;
	char				 where[128], a[UNITS_BUFSZ];
	char				 c[UNITS_BUFSZ];

	if ((it = verdict_add(v, "long_run.iops", "long-run IOPS",
	    UNITS_IOPS)) == NULL)
		return;
	if (r->writes != NULL)
		w = r->writes->limits;
	if (l == NULL) {
		snprintf(it->reason, sizeof it->reason, "no sustained run");
		verdict_settle(r, tgt, "", it);
		return;
	}
	b = &l->burst;
	if (!isfinite(l->long_run_iops) && w != NULL &&
	    isfinite(w->long_run_iops)) {
		l = w;
		b = &w->burst;
	}
	if (isfinite(l->long_run_iops)) {
		verdict_measured(it, l->long_run_iops, l->long_run_state);
		verdict_drop_where(b, where, sizeof where);
		snprintf(it->detail, sizeof it->detail, "%s IOPS before",
		    units_format_value(UNITS_IOPS, b->burst_iops, a,
		    sizeof a));
		snprintf(it->reason, sizeof it->reason, "the baseline: a "
		    "bucket ran dry %s%s", where, l == w ? " of the writes" :
		    "");
		verdict_long_path(r, tgt, 0, it);
		return;
	}
	if (!isfinite(b->held_iops) &&
	    l->timeline.n >= CEILINGS_BURST_MIN_INTERVALS) {
		snprintf(it->reason, sizeof it->reason, "the report does not "
		    "say what rate its sustained run held (an older "
		    "tierprobe's)");
		verdict_settle(r, tgt, "", it);
		return;
	}
	if (!isfinite(b->held_iops)) {
		snprintf(it->reason, sizeof it->reason, "the sustained run "
		    "was too short to tell (%zu intervals)", l->timeline.n);
		snprintf(it->settle, sizeof it->settle, "tierprobe limits %s "
		    "--sustain %.0f", tgt, LIMITS_SUSTAIN_S);
		snprintf(it->settle_reason, sizeof it->settle_reason, "the "
		    "default sustained run");
		return;
	}
	it->value = b->held_iops;
	it->standing = VERDICT_BOUNDED;
	it->bound = REPORT_BOUND_AT_MOST;
	it->state = l->long_run_state;
	snprintf(it->detail, sizeof it->detail, "held %s%s",
	    units_format_value(UNITS_SECONDS, b->held_s, a, sizeof a),
	    b->variable ? ", changes that recovered" : "");
	if (l->long_run_state != BUCKET_FULL &&
	    verdict_long_path(r, tgt, 0, it))
		return;
	if (l->long_run_state == BUCKET_FULL)
		snprintf(it->reason, sizeof it->reason, "held alone, before a "
		    "bucket the targets share ran dry together");
	else
		snprintf(it->reason, sizeof it->reason, "a bucket lasting "
		    "over %s could lower it",
		    units_format_value(UNITS_SECONDS, l->sustain_s, c,
		    sizeof c));
	verdict_types_long(r, 0, it);
	verdict_settle(r, tgt, "", it);
}

/*
 * Of several targets, a long-run IOPS above what a bucket they share left
 * them together: that bounds each of them too.
 */
static void
verdict_shared_iops(const struct report *top, struct verdict *v)
{
	struct verdict_item	*it;
	char			 a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	double			 shared = report_shared_long_iops(top);
	size_t			 i;

	for (i = 0, it = NULL; i < v->nitems; i++)
		if (strcmp(v->item[i].name, "long_run.iops") == 0)
			it = &v->item[i];
	if (it == NULL || !isfinite(shared) || (isfinite(it->value) &&
	    it->value <= shared))
		return;
	if (isfinite(it->value))
		snprintf(it->detail, sizeof it->detail, "%s%s IOPS alone",
		    it->standing == VERDICT_BOUNDED ? "at most " : "",
		    units_format_value(UNITS_IOPS, it->value, c, sizeof c));
	it->value = shared;
	it->standing = VERDICT_BOUNDED;
	it->bound = REPORT_BOUND_AT_MOST;
	it->state = BUCKET_EMPTY;
	snprintf(it->reason, sizeof it->reason, "a bucket the targets share "
	    "ran dry together and left them %s IOPS for good, which binds "
	    "this one alone too", units_format_value(UNITS_IOPS, shared, a,
	    sizeof a));
	it->settle[0] = it->settle_reason[0] = '\0';
}

/*
 * The most an interval of the sustained run moved when that is under half
 * the bandwidth ceiling: a bucket of bytes may never have been drawn on;
 * else NAN.
 */
static double
verdict_bw_unsustained(const struct limits_result *l)
{
	double	most = 0;
	size_t	i;

	for (i = 0; i < l->timeline.n; i++)
		most = fmax(most, l->timeline.v[i].bytes_per_s);
	return (most < l->bandwidth_ceiling_bytes_per_s / 2 ? most : NAN);
}

/* The long-run bandwidth: after a drop, else the ceiling at most. */
static void
verdict_long_bw(const struct report *r, const char *tgt, struct verdict *v)
{
	const struct limits_result	*l = r->limits;
	struct verdict_item		*it;
	const char			*who;
	char				 a[UNITS_BUFSZ];
	double				 most;

	if ((it = verdict_add(v, "long_run.bandwidth", "long-run bandwidth",
	    UNITS_RATE)) == NULL)
		return;
	if (l == NULL) {
		snprintf(it->reason, sizeof it->reason, "no size sweep");
		verdict_settle(r, tgt, "", it);
		return;
	}
	if (isfinite(l->baseline_bandwidth)) {
		verdict_measured(it, l->baseline_bandwidth,
		    l->long_run_state);
		snprintf(it->detail, sizeof it->detail, "of the largest I/Os");
		verdict_long_path(r, tgt, 1, it);
		return;
	}
	if (!isfinite(l->bandwidth_ceiling_bytes_per_s)) {
		snprintf(it->reason, sizeof it->reason, "the size sweep "
		    "found no ceiling");
		return;
	}
	it->value = l->bandwidth_ceiling_bytes_per_s;
	it->standing = VERDICT_BOUNDED;
	it->state = l->bandwidth_state;
	if (l->bandwidth_ceiling_at_least) {
		it->bound = REPORT_BOUND_AT_LEAST;
		snprintf(it->reason, sizeof it->reason, "still rising at the "
		    "largest I/Os or deepest queue tried");
		return;
	}
	it->bound = REPORT_BOUND_AT_MOST;
	if (verdict_long_path(r, tgt, 1, it))
		return;
	most = verdict_bw_unsustained(l);
	if (isfinite(most))
		snprintf(it->reason, sizeof it->reason, "in short runs only "
		    "(sustained: %s)", units_format_value(UNITS_RATE, most, a,
		    sizeof a));
	else
		snprintf(it->reason, sizeof it->reason, "no bucket ran dry: "
		    "one lasting longer could lower it");
	verdict_types_long(r, 1, it);
	/* The run that tells the types apart by their IOPS tells this. */
	if (r->voltypes != NULL && r->voltypes->apart &&
	    isfinite(verdict_types_settle(r, "", &who))) {
		verdict_settle(r, tgt, "", it);
		return;
	}
	verdict_settle(r, tgt, " --bs 1M", it);
	if (!isfinite(verdict_types_settle(r, " --bs 1M", &who)))
		snprintf(it->settle_reason, sizeof it->settle_reason, "for a "
		    "bucket of bytes");
}

/* A commit figure measured in the state of its row. */
static void
verdict_commit(const struct report *r, const char *tgt,
    const struct verdict_item *lng, struct verdict_item *it, double value,
    int s)
{
	verdict_measured(it, value, s);
	if (s == BUCKET_MAY_BE_FULL && r->limits == NULL)
		snprintf(it->reason, sizeof it->reason, "a bucket may be full: "
		    "a sync alone cannot see one run dry");
	/* Where the path's long run is known, no run is asked for. */
	if (bucket_state_lifted(s) && (lng == NULL ||
	    lng->limit == VOLTYPE_LIMIT_NONE))
		verdict_settle(r, tgt, "", it);
}

/* A commit size: "8 KiB", "2300 B". */
static char *
verdict_size(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024 != 0)
		snprintf(buf, len, "%u B", bs);
	else
		units_format_size(bs, buf, len);
	return (buf);
}

/*
 * A commit rate above the long-run IOPS the verdict states (lng, when it
 * is measured after a drain or held by a limit of the path) cannot last:
 * that is the most it keeps, the rate measured in the detail.
 */
static void
verdict_commit_cap(const struct verdict_item *lng, struct verdict_item *it)
{
	char	a[UNITS_BUFSZ], c[UNITS_BUFSZ], d[sizeof it->detail];

	if (lng == NULL || !isfinite(lng->value) || !isfinite(it->value) ||
	    (lng->standing != VERDICT_MEASURED &&
	    lng->limit == VOLTYPE_LIMIT_NONE))
		return;
	/* The path's long run is known: no run to ask for. */
	if (lng->limit != VOLTYPE_LIMIT_NONE)
		it->settle[0] = it->settle_reason[0] = '\0';
	if (!(it->value > lng->value * (1 + VOLTYPE_OVER_PCT / 100.0)))
		return;
	snprintf(d, sizeof d, "%s", it->detail);
	snprintf(it->detail, sizeof it->detail, "%.60s%smeasured %s/s", d,
	    d[0] != '\0' ? "; " : "", units_format_value(UNITS_IOPS,
	    it->value, c, sizeof c));
	it->value = lng->value;
	it->standing = VERDICT_BOUNDED;
	it->bound = REPORT_BOUND_AT_MOST;
	it->limit = lng->limit;
	snprintf(it->limit_of, sizeof it->limit_of, "%s", lng->limit_of);
	snprintf(it->reason, sizeof it->reason, "no more than the long-run "
	    "IOPS (%s) for good", units_format_value(UNITS_IOPS, lng->value,
	    a, sizeof a));
	it->settle[0] = it->settle_reason[0] = '\0';
}

/* Commits of one writer and of several. */
static void
verdict_commits(const struct report *r, const char *tgt, struct verdict *v)
{
	const struct sync_result	*s = r->sync;
	const struct commit_point	*one, *c, *most = NULL;
	struct verdict_item		*it, *lng = NULL;
	char				 a[UNITS_BUFSZ], bs[UNITS_BUFSZ];
	double				 cap;
	long				 b;
	size_t				 i;

	if ((it = verdict_add(v, "commit.rate", "commits, 1 writer",
	    UNITS_IOPS)) == NULL)
		return;
	if (s == NULL || (b = writepath_best(s->rows, s->nrows,
	    s->best_bs)) < 0) {
		snprintf(it->reason, sizeof it->reason, "not measured%s",
		    strcmp(r->target.type, "blockdev") == 0 ? " (commits "
		    "write: give a file on the volume)" : "");
		if (strcmp(r->target.type, "blockdev") != 0)
			verdict_whole(r, tgt, it);
		return;
	}
	for (i = 0; i < v->nitems; i++)
		if (strcmp(v->item[i].name, "long_run.iops") == 0)
			lng = &v->item[i];
	one = &s->rows[b];
	/* A bucket ran dry among the commits: the point measured after. */
	if (s->state == BUCKET_DRAINING && s->again.pt.ios > 0 &&
	    s->again.pt.state == BUCKET_EMPTY)
		one = &s->again;
	verdict_commit(r, tgt, lng, it, one->pt.iops, one->pt.state);
	snprintf(it->detail, sizeof it->detail, "%s, %s",
	    sync_method_name(one->method), verdict_size(one->bs, bs,
	    sizeof bs));
	verdict_commit_cap(lng, it);
	if ((it = verdict_add(v, "commit.p99", "commits, 1 writer",
	    UNITS_LAT_US)) != NULL)
		verdict_commit(r, tgt, lng, it, one->pt.lat_us.p99,
		    one->pt.state);
	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->writers > 1 && c->method == one->method &&
		    c->bs == one->bs && c->pt.ios > 0 &&
		    c->pt.state == one->pt.state &&
		    (most == NULL || c->pt.iops > most->pt.iops))
			most = c;
	}
	if (most == NULL || (it = verdict_add(v, "commit.group_rate",
	    "group commit", UNITS_IOPS)) == NULL)
		return;
	verdict_commit(r, tgt, lng, it, most->pt.iops, most->pt.state);
	snprintf(it->detail, sizeof it->detail, "%u writers%s, %.1fx one",
	    most->writers, most->shared ? " sharing a log" : "",
	    most->pt.iops / one->pt.iops);
	/* Only a ceiling of the commits' own state can explain them. */
	cap = report_iops_cap_in(r, most->pt.state);
	/* Above the limit by its noise: at it, never "held by" it. */
	if (most->pt.iops < VERDICT_HELPS * one->pt.iops && isfinite(cap) &&
	    one->pt.iops >= VERDICT_AT_CAP * cap &&
	    most->pt.iops <= cap * (1 + VOLTYPE_OVER_PCT / 100.0))
		verdict_append(it->reason, sizeof it->reason, "; no more than "
		    "one, %s the IOPS limit of that state (%s)", most->pt.iops >
		    cap ? "at" : "held by", units_format_value(UNITS_IOPS, cap,
		    a, sizeof a));
	else if (most->pt.iops < VERDICT_HELPS * one->pt.iops)
		verdict_append(it->reason, sizeof it->reason, "; no more than "
		    "one writer");
	else if (isfinite(cap) && most->pt.iops >= VERDICT_AT_CAP * cap &&
	    most->pt.iops <= cap * (1 + VOLTYPE_OVER_PCT / 100.0))
		verdict_append(it->reason, sizeof it->reason, "; %s the IOPS "
		    "limit of that state (%s)", most->pt.iops > cap ? "at" :
		    "held by", units_format_value(UNITS_IOPS, cap, a,
		    sizeof a));
	verdict_commit_cap(lng, it);
}

/*
 * What the databases that read the commits would make of them: etcd's
 * documented bar (peers.h) and PostgreSQL's fastest wal_sync_method.
 */
static void
verdict_peers(const struct report *r, const char *tgt, struct verdict *v)
{
	struct verdict_item	*it, *lng = NULL;
	struct peers_etcd	 e;
	struct peers_pg		 p;
	char			 a[UNITS_BUFSZ], bs[UNITS_BUFSZ];
	size_t			 i;

	/* As verdict_commits: the long run's limit says whether to settle. */
	for (i = 0; i < v->nitems; i++)
		if (strcmp(v->item[i].name, "long_run.iops") == 0)
			lng = &v->item[i];
	peers_etcd(r->sync, &e);
	if (e.row != NULL && (it = verdict_add(v, "commit.etcd.p99",
	    "etcd's WAL bar", UNITS_LAT_US)) != NULL) {
		verdict_commit(r, tgt, lng, it, e.row->pt.lat_us.p99,
		    e.row->pt.state);
		snprintf(it->detail, sizeof it->detail, "%s, %s",
		    sync_method_name(e.row->method), verdict_size(e.row->bs,
		    bs, sizeof bs));
		verdict_append(it->reason, sizeof it->reason, "%s%s etcd's "
		    "%s", it->reason[0] != '\0' ? "; " : "", e.met ? "meets" :
		    "misses", units_format_value(UNITS_LAT_US,
		    PEERS_ETCD_P99_US, a, sizeof a));
	}
	peers_pg(r->sync, &p);
	if (p.row != NULL && (it = verdict_add(v, "commit.postgresql",
	    "wal_sync_method", UNITS_IOPS)) != NULL) {
		verdict_commit(r, tgt, lng, it, p.row->pt.iops,
		    p.row->pt.state);
		snprintf(it->detail, sizeof it->detail, "%s, %s",
		    peers_pg_name(p.method), verdict_size(p.row->bs, bs,
		    sizeof bs));
		if (p.tied_default)
			verdict_append(it->reason, sizeof it->reason, "%s"
			    "fdatasync (the default) as fast",
			    it->reason[0] != '\0' ? "; " : "");
		if (p.unsafe)
			verdict_append(it->reason, sizeof it->reason, "%sthe "
			    "flush looks volatile: none is safe",
			    it->reason[0] != '\0' ? "; " : "");
	}
}

/*
 * What the run saw of a bucket, in a few words, into v->bucket; of one
 * of several targets (top not NULL), and of the sum together.
 */
static void
verdict_bucket(const struct report *r, const struct report *top,
    struct verdict *v)
{
	const struct limits_result	*l = r->limits;
	const struct burst		*b;
	char				 a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char				 where[128];

	if (l == NULL && r->sync != NULL &&
	    r->sync->state == BUCKET_DRAINING && r->sync->again.pt.ios > 0) {
		snprintf(v->bucket, sizeof v->bucket, "ran dry among the "
		    "commits: one writer committed %s a second after it",
		    units_format_value(UNITS_IOPS, r->sync->again.pt.iops, a,
		    sizeof a));
		return;
	}
	if (l == NULL) {
		snprintf(v->bucket, sizeof v->bucket, "no sustained run: "
		    "whether one runs dry is unknown");
		return;
	}
	b = &l->burst;
	if (!b->detected && r->writes != NULL && r->writes->limits != NULL &&
	    r->writes->limits->burst.detected)
		b = &r->writes->limits->burst;
	if (b->detected) {
		verdict_drop_where(b, where, sizeof where);
		snprintf(v->bucket, sizeof v->bucket, "ran dry %s%s: %s IOPS, "
		    "then %s", where, b == &l->burst ? "" : " of the writes",
		    units_format_value(UNITS_IOPS, b->burst_iops, a, sizeof a),
		    units_format_value(UNITS_IOPS, b->baseline_iops, c,
		    sizeof c));
	} else if (isfinite(b->held_iops))
		snprintf(v->bucket, sizeof v->bucket, "none ran dry in %s at "
		    "%s IOPS: the figures below may be burst figures",
		    units_format_value(UNITS_SECONDS, l->sustain_s, a,
		    sizeof a), units_format_value(UNITS_IOPS, b->held_iops, c,
		    sizeof c));
	else if (l->timeline.n >= CEILINGS_BURST_MIN_INTERVALS)
		snprintf(v->bucket, sizeof v->bucket, "none ran dry; the "
		    "report does not say at what rate");
	else
		snprintf(v->bucket, sizeof v->bucket, "the sustained run was "
		    "too short to tell");
	if (top != NULL && top->together != NULL &&
	    top->together->burst.detected && !b->detected)
		snprintf(v->bucket, sizeof v->bucket, "none ran dry alone in "
		    "%s; one the targets share ran dry together, after these "
		    "figures", units_format_value(UNITS_SECONDS, l->sustain_s,
		    a, sizeof a));
}

/* A --size that contradicts the volume's own size, said on it. */
static void
verdict_size_said(const struct report *r, struct verdict_item *it)
{
	char	a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	double	own = report_voltype_own_size(r);

	if (r->config.volume_size == 0 || !isfinite(own) ||
	    r->voltypes == NULL || r->voltypes->size_bytes ==
	    r->config.volume_size)
		return;
	verdict_append(it->reason, sizeof it->reason, "%s--size %s "
	    "contradicts the volume's own %s: judged at its own",
	    it->reason[0] != '\0' ? "; " : "", units_format_size(
	    r->config.volume_size, a, sizeof a), units_format_size(
	    (uint64_t)own, c, sizeof c));
}

/*
 * The volume type: the documented types that fit what the run measured,
 * or --type's, judged; none when no type was judged, or none fits and
 * none was given (a volume of no provider the types describe).
 */
static void
verdict_type(const struct report *r, const char *tgt, struct verdict *v)
{
	const struct voltype_judgement	*j = r->voltypes;
	const struct voltype_result	*g;
	struct verdict_item		*it;
	char				 names[128], a[UNITS_BUFSZ];
	size_t				 k;

	if (j == NULL || j->n == 0)
		return;
	k = verdict_type_names(r, names, sizeof names);
	if ((k == 0 && !j->given) || (it = verdict_add(v, "volume_type",
	    "volume type", UNITS_PLAIN)) == NULL)
		return;
	if (j->given) {
		g = &j->given_result;
		snprintf(it->detail, sizeof it->detail, "%.64s, as --type says",
		    j->given_spec);
		/* Ruled out is established, by the figure said. */
		it->standing = g->consistent >= 0 ? VERDICT_MEASURED :
		    VERDICT_UNKNOWN;
		snprintf(it->reason, sizeof it->reason, "%s%.200s",
		    g->consistent == 1 ? "what was measured fits its "
		    "documented figures" : g->consistent == 0 ? "ruled out by "
		    "what was measured: " : "not judged: ", g->consistent ==
		    1 ? "" : g->ruled_out_by);
		verdict_size_said(r, it);
		return;
	}
	snprintf(it->detail, sizeof it->detail, "%.70s%s%s", names,
	    j->size_bytes > 0 ? " at " : "", j->size_bytes > 0 ?
	    units_format_size(j->size_bytes, a, sizeof a) : "");
	if (k == 1) {
		it->standing = VERDICT_MEASURED;
		snprintf(it->reason, sizeof it->reason, "the one documented "
		    "type that fits what was measured");
		verdict_size_said(r, it);
		return;
	}
	verdict_size_said(r, it);
	it->standing = VERDICT_UNKNOWN;
	if (!j->apart) {
		verdict_append(it->reason, sizeof it->reason, "%sthese fit, "
		    "and keep the same figures in the long run",
		    it->reason[0] != '\0' ? "; " : "");
		return;
	}
	if (!isfinite(j->settle_sustain_s)) {
		verdict_append(it->reason, sizeof it->reason, "%sthese fit, "
		    "and differ in the long run, but no longer run tells them "
		    "apart here", it->reason[0] != '\0' ? "; " : "");
		return;
	}
	verdict_append(it->reason, sizeof it->reason, "%sthese fit, and "
	    "differ in the long run", it->reason[0] != '\0' ? "; " : "");
	verdict_settle(r, tgt, strstr(j->settle, "--bs") != NULL ? " --bs 1M" :
	    "", it);
}

/*
 * A run that stopped on a fault (report.fault) settles nothing by running
 * longer: no command is offered; the fault comes first.
 */
static void
verdict_faulted(const struct report *r, const struct report *top,
    struct verdict *v)
{
	size_t	i;

	if (r->fault == NULL && (top == NULL || top->fault == NULL))
		return;
	for (i = 0; i < v->nitems; i++) {
		v->item[i].settle[0] = '\0';
		v->item[i].settle_reason[0] = '\0';
	}
}

/*
 * EBS's own counters name the limit that held the sustained run: said in
 * the reason of the long-run figure it sets (bandwidth for a throughput
 * limit, else IOPS).
 */
static void
verdict_ebs(const struct report *r, struct verdict *v)
{
	const char	*name = "long_run.iops";
	char		 held[192];
	size_t		 i;

	report_ebs_held(r, held, sizeof held);
	if (held[0] == '\0')
		return;
	if (report_ebs_sustained_limit(r) == EBSSTATS_VOLUME_TP ||
	    report_ebs_sustained_limit(r) == EBSSTATS_INSTANCE_TP)
		name = "long_run.bandwidth";
	for (i = 0; i < v->nitems; i++)
		if (strcmp(v->item[i].name, name) == 0)
			verdict_append(v->item[i].reason,
			    sizeof v->item[i].reason, "%sEBS's counters: %s",
			    v->item[i].reason[0] != '\0' ? "; " : "", held);
}

/* The verdict of a report of one target; see verdict.h. */
void
verdict_build(const struct report *r, const struct report *top,
    struct verdict *v)
{
	const char	*phase;

	memset(v, 0, sizeof *v);
	verdict_target(r, v->target, sizeof v->target);
	if (report_drain(r, &phase) != NULL)
		snprintf(v->drained_in, sizeof v->drained_in, "%s", phase);
	verdict_bucket(r, top, v);
	verdict_type(r, v->target, v);
	verdict_reads(r, v->target, v);
	verdict_long_iops(r, v->target, v);
	verdict_shared_iops(top, v);
	verdict_long_bw(r, v->target, v);
	verdict_ebs(r, v);
	if (top == NULL) {
		verdict_commits(r, v->target, v);
		verdict_peers(r, v->target, v);
	}
	verdict_faulted(r, top, v);
}

/* The targets of a report of several, as a command line takes them. */
static void
verdict_targets(const struct report *r, char *buf, size_t len)
{
	char	t[512];
	size_t	i;

	buf[0] = '\0';
	for (i = 0; i < r->ntargets; i++)
		verdict_append(buf, len, "%s%s", i > 0 ? " " : "",
		    verdict_target(&r->targets[i], t, sizeof t));
}

/*
 * Several targets together in the long run: the IOPS of the sum after a
 * bucket ran dry on it, else the sum they held, the most it can be; and
 * the bandwidth of the sum.
 */
void
verdict_together(const struct report *r, struct verdict *v)
{
	const struct together_result	*t = r->together;
	const struct burst		*b;
	struct verdict_item		*it;
	char				 a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char				 d[UNITS_BUFSZ];

	memset(v, 0, sizeof *v);
	verdict_targets(r, v->target, sizeof v->target);
	if (t == NULL)
		return;
	b = &t->burst;
	if (b->detected && !b->exhausted)
		snprintf(v->bucket, sizeof v->bucket, "one ran dry on the sum "
		    "at %s: %s IOPS, then %s", units_format_value(
		    UNITS_SECONDS, b->drop_t_s, a, sizeof a),
		    units_format_value(UNITS_IOPS, b->burst_iops, c, sizeof c),
		    units_format_value(UNITS_IOPS, b->baseline_iops, d,
		    sizeof d));
	else
		snprintf(v->bucket, sizeof v->bucket, "none ran dry on the sum "
		    "in %s", units_format_value(UNITS_SECONDS, t->seconds, a,
		    sizeof a));
	if ((it = verdict_add(v, "together.long_run.iops", "IOPS together",
	    UNITS_IOPS)) == NULL)
		return;
	if (b->detected && !b->exhausted && isfinite(b->baseline_iops)) {
		verdict_measured(it, b->baseline_iops, BUCKET_EMPTY);
		snprintf(it->detail, sizeof it->detail, "%s IOPS for %s first",
		    units_format_value(UNITS_IOPS, b->burst_iops, a, sizeof a),
		    units_format_value(UNITS_SECONDS, b->drop_t_s, c,
		    sizeof c));
		snprintf(it->reason, sizeof it->reason, "in the long run: %s "
		    "ran dry and the sum fell to this for good, a limit "
		    "shared by all of them", t->burst_shared == 1 ? "a bucket "
		    "they share (an instance's burst allowance)" : "a bucket");
	} else if (isfinite(t->iops.ceiling)) {
		it->value = t->iops.ceiling;
		it->standing = VERDICT_BOUNDED;
		it->bound = REPORT_BOUND_AT_MOST;
		it->state = t->state;
		snprintf(it->detail, sizeof it->detail, "held %s",
		    units_format_value(UNITS_SECONDS, t->seconds, a,
		    sizeof a));
		snprintf(it->reason, sizeof it->reason, "no bucket ran dry on "
		    "the sum: one they share, lasting longer, could lower it");
		snprintf(it->settle, sizeof it->settle, "tierprobe limits %s "
		    "--sustain-together %.0f", v->target,
		    verdict_settle_s(t->seconds));
		snprintf(it->settle_reason, sizeof it->settle_reason, "a run "
		    "together %dx as long", VERDICT_SETTLE_FACTOR);
	} else
		snprintf(it->reason, sizeof it->reason, "%s", t->iops.why[0] !=
		    '\0' ? t->iops.why : "not measured together");
	if ((it = verdict_add(v, "together.bandwidth", "bandwidth together",
	    UNITS_RATE)) == NULL)
		return;
	verdict_measured(it, t->bandwidth.ceiling, t->bandwidth_state);
	if (!isfinite(it->value) && t->bandwidth.why[0] != '\0')
		snprintf(it->reason, sizeof it->reason, "%s",
		    t->bandwidth.why);
	/* A short run a bucket of bytes may have lifted: the most it is. */
	if (isfinite(it->value) && bucket_state_lifted(it->state)) {
		it->standing = VERDICT_BOUNDED;
		it->bound = REPORT_BOUND_AT_MOST;
		snprintf(it->reason, sizeof it->reason, "in %s together: a "
		    "bucket of bytes they share, lasting longer, could lower "
		    "it", units_format_value(UNITS_SECONDS,
		    t->bandwidth_seconds, a, sizeof a));
	}
	verdict_faulted(r, NULL, v);
}

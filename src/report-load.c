/* SPDX-License-Identifier: ISC */
/*
 * Read a JSON report back (schema_version 1 or older), checking the type of
 * every key it uses; a bad file gives one line naming the file and the key.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "xmalloc.h"

struct report_load {
	const char	*file;
	char		*cause;		/* the first error */
	int		 failed;
};

#define REPORT_REQUIRED	1
#define REPORT_OPTIONAL	0

static void
report_load_fail(struct report_load *ld, const char *prefix, const char *key,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
report_load_fail(struct report_load *ld, const char *prefix, const char *key,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	if (ld->failed)
		return;
	ld->failed = 1;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) == -1)
		msg = NULL;
	va_end(ap);
	xasprintf(&ld->cause, "%s: %s%s%s: %s", ld->file, prefix,
	    *prefix != '\0' && *key != '\0' ? "." : "", key,
	    msg != NULL ? msg : "bad value");
	free(msg);
}

static const char *
report_load_type(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return ("an object");
	case JSON_ARRAY:
		return ("an array");
	case JSON_STRING:
		return ("a string");
	case JSON_INTEGER:
		return ("an integer");
	case JSON_REAL:
		return ("a real number");
	case JSON_TRUE:
	case JSON_FALSE:
		return ("a boolean");
	case JSON_NULL:
		return ("null");
	}
	return ("something else");
}

/* The member key of o, or NULL (an error if required). */
static json_t *
report_load_get(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required)
{
	json_t	*v;

	if (ld->failed || o == NULL)
		return (NULL);
	v = json_object_get(o, key);
	if (v == NULL && required)
		report_load_fail(ld, prefix, key, "missing");
	return (v);
}

static json_t *
report_load_object(struct report_load *ld, const json_t *o,
    const char *prefix, const char *key, int required)
{
	json_t	*v;

	v = report_load_get(ld, o, prefix, key, required);
	if (v != NULL && !json_is_object(v)) {
		report_load_fail(ld, prefix, key, "expected an object, not %s",
		    report_load_type(v));
		return (NULL);
	}
	return (v);
}

static json_t *
report_load_array(struct report_load *ld, const json_t *o,
    const char *prefix, const char *key, int required)
{
	json_t	*v;

	v = report_load_get(ld, o, prefix, key, required);
	if (v != NULL && !json_is_array(v)) {
		report_load_fail(ld, prefix, key, "expected an array, not %s",
		    report_load_type(v));
		return (NULL);
	}
	return (v);
}

/* A number; null or absent give NAN. */
static void
report_load_real(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required, double *out)
{
	json_t	*v;

	*out = NAN;
	if ((v = report_load_get(ld, o, prefix, key, required)) == NULL ||
	    json_is_null(v))
		return;
	if (!json_is_number(v)) {
		report_load_fail(ld, prefix, key, "expected a number, not %s",
		    report_load_type(v));
		return;
	}
	*out = json_number_value(v);
}

/* A whole number in [0, max]; null or absent give 0. */
static void
report_load_uint(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required, uint64_t max, uint64_t *out)
{
	json_t		*v;
	json_int_t	 i;

	*out = 0;
	if ((v = report_load_get(ld, o, prefix, key, required)) == NULL ||
	    json_is_null(v))
		return;
	if (!json_is_integer(v)) {
		report_load_fail(ld, prefix, key,
		    "expected a whole number, not %s", report_load_type(v));
		return;
	}
	i = json_integer_value(v);
	if (i < 0 || (uint64_t)i > max) {
		report_load_fail(ld, prefix, key, "%" JSON_INTEGER_FORMAT
		    " is out of range", i);
		return;
	}
	*out = (uint64_t)i;
}

static void
report_load_u32(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required, uint32_t *out)
{
	uint64_t	v;

	report_load_uint(ld, o, prefix, key, required, UINT32_MAX, &v);
	*out = (uint32_t)v;
}

static void
report_load_unsigned(struct report_load *ld, const json_t *o,
    const char *prefix, const char *key, int required, unsigned *out)
{
	uint64_t	v;

	report_load_uint(ld, o, prefix, key, required, UINT32_MAX, &v);
	*out = (unsigned)v;
}

/* A boolean: 1, 0, or dflt when null or absent. */
static void
report_load_bool(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required, int dflt, int *out)
{
	json_t	*v;

	*out = dflt;
	if ((v = report_load_get(ld, o, prefix, key, required)) == NULL ||
	    json_is_null(v))
		return;
	if (!json_is_boolean(v)) {
		report_load_fail(ld, prefix, key, "expected true or false, "
		    "not %s", report_load_type(v));
		return;
	}
	*out = json_is_true(v);
}

/* A string into buf; null or absent give "". */
static void
report_load_str(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, int required, char *buf, size_t len)
{
	json_t	*v;

	buf[0] = '\0';
	if ((v = report_load_get(ld, o, prefix, key, required)) == NULL ||
	    json_is_null(v))
		return;
	if (!json_is_string(v)) {
		report_load_fail(ld, prefix, key, "expected a string, not %s",
		    report_load_type(v));
		return;
	}
	if (json_string_length(v) >= len) {
		report_load_fail(ld, prefix, key, "longer than %zu bytes",
		    len - 1);
		return;
	}
	snprintf(buf, len, "%s", json_string_value(v));
}

/* One of a few words. */
static void
report_load_word(struct report_load *ld, const json_t *o, const char *prefix,
    const char *key, const char *const *words, int *out)
{
	char	buf[32];
	int	i;

	report_load_str(ld, o, prefix, key, REPORT_OPTIONAL, buf, sizeof buf);
	*out = 0;
	if (ld->failed || buf[0] == '\0')
		return;
	for (i = 0; words[i] != NULL; i++) {
		if (strcmp(buf, words[i]) == 0) {
			*out = i;
			return;
		}
	}
	report_load_fail(ld, prefix, key, "\"%s\" is not %s or %s", buf,
	    words[0], words[1]);
}

static struct hist *
report_load_hist(struct report_load *ld, const json_t *o, const char *prefix)
{
	json_t		*a, *pair, *lo, *cnt;
	struct hist	*h;
	char		 key[32];
	size_t		 i;
	uint64_t	 v;
	double		 sum = 0;

	if ((a = report_load_array(ld, o, prefix, "hist",
	    REPORT_OPTIONAL)) == NULL)
		return (NULL);
	h = xmalloc(sizeof *h);
	hist_init(h);
	json_array_foreach(a, i, pair) {
		lo = json_array_get(pair, 0);
		cnt = json_array_get(pair, 1);
		if (!json_is_array(pair) || json_array_size(pair) != 2 ||
		    !json_is_integer(lo) || !json_is_integer(cnt) ||
		    json_integer_value(lo) < 0 ||
		    json_integer_value(cnt) < 0) {
			snprintf(key, sizeof key, "hist[%zu]", i);
			report_load_fail(ld, prefix, key, "expected "
			    "[lower bound in ns, count] as whole numbers");
			free(h);
			return (NULL);
		}
		v = (uint64_t)json_integer_value(lo);
		h->bucket[hist_index(v)] += (uint64_t)json_integer_value(cnt);
		h->count += (uint64_t)json_integer_value(cnt);
		sum += hist_bucket_value(hist_index(v)) *
		    (double)json_integer_value(cnt);
	}
	report_load_real(ld, o, prefix, "hist_sum_ns", REPORT_OPTIONAL,
	    &h->sum_ns);
	if (isnan(h->sum_ns))
		h->sum_ns = sum;
	report_load_uint(ld, o, prefix, "hist_min_ns", REPORT_OPTIONAL,
	    UINT64_MAX, &h->min_ns);
	report_load_uint(ld, o, prefix, "hist_max_ns", REPORT_OPTIONAL,
	    UINT64_MAX, &h->max_ns);
	report_load_uint(ld, o, prefix, "hist_overflow", REPORT_OPTIONAL,
	    UINT64_MAX, &h->overflow);
	if (ld->failed) {
		free(h);
		return (NULL);
	}
	return (h);
}

static void
report_load_point(struct report_load *ld, const json_t *o,
    const char *prefix, struct point *p)
{
	static const char *const rw[] = { "randread", "randwrite", NULL };
	json_t		*lat;
	char		 lp[80];

	memset(p, 0, sizeof *p);
	if (!json_is_object(o)) {
		report_load_fail(ld, prefix, "", "expected an object, not %s",
		    report_load_type(o));
		return;
	}
	report_load_uint(ld, o, prefix, "ws_bytes", REPORT_REQUIRED,
	    UINT64_MAX, &p->ws_bytes);
	report_load_u32(ld, o, prefix, "bs", REPORT_OPTIONAL, &p->bs);
	report_load_unsigned(ld, o, prefix, "iodepth", REPORT_OPTIONAL,
	    &p->iodepth);
	report_load_word(ld, o, prefix, "rw", rw, &p->write);
	report_load_uint(ld, o, prefix, "ios", REPORT_REQUIRED, UINT64_MAX,
	    &p->ios);
	report_load_real(ld, o, prefix, "seconds", REPORT_OPTIONAL,
	    &p->seconds);
	report_load_real(ld, o, prefix, "warm_seconds", REPORT_OPTIONAL,
	    &p->warm_seconds);
	report_load_real(ld, o, prefix, "iops", REPORT_REQUIRED, &p->iops);
	report_load_real(ld, o, prefix, "bytes_per_s", REPORT_OPTIONAL,
	    &p->bytes_per_s);
	report_load_real(ld, o, prefix, "ci95_rel", REPORT_OPTIONAL,
	    &p->ci95_rel);
	report_load_real(ld, o, prefix, "cpu_util", REPORT_OPTIONAL,
	    &p->cpu_util);
	lat = report_load_object(ld, o, prefix, "lat_us", REPORT_REQUIRED);
	snprintf(lp, sizeof lp, "%s.lat_us", prefix);
	report_load_real(ld, lat, lp, "mean", REPORT_REQUIRED,
	    &p->lat_us.mean);
	report_load_real(ld, lat, lp, "p50", REPORT_REQUIRED, &p->lat_us.p50);
	report_load_real(ld, lat, lp, "p90", REPORT_REQUIRED, &p->lat_us.p90);
	report_load_real(ld, lat, lp, "p99", REPORT_REQUIRED, &p->lat_us.p99);
	report_load_real(ld, lat, lp, "p999", REPORT_REQUIRED,
	    &p->lat_us.p999);
	p->hist = report_load_hist(ld, o, prefix);
}

static struct point *
report_load_points(struct report_load *ld, const json_t *o,
    const char *prefix, const char *key, int required, size_t *n)
{
	json_t		*a, *e;
	struct point	*v;
	char		 pp[64];
	size_t		 i;

	*n = 0;
	if ((a = report_load_array(ld, o, prefix, key, required)) == NULL ||
	    json_array_size(a) == 0)
		return (NULL);
	v = xcalloc(json_array_size(a), sizeof *v);
	json_array_foreach(a, i, e) {
		snprintf(pp, sizeof pp, "%s.%s[%zu]", prefix, key, i);
		report_load_point(ld, e, pp, &v[i]);
		*n = i + 1;
		if (ld->failed)
			break;
	}
	return (v);
}

static void
report_load_scan(struct report_load *ld, const json_t *o,
    struct scan_result *s)
{
	struct tiers_result	*tr = &s->tiers;
	struct tier		*t;
	json_t			*a, *e, *b;
	char			 tp[64];
	size_t			 i;
	int			 analysed;

	report_load_bool(ld, o, "scan", "interrupted", REPORT_OPTIONAL, 0,
	    &s->interrupted);
	report_load_real(ld, o, "scan", "device_time_s", REPORT_REQUIRED,
	    &s->device_time_s);
	s->points = report_load_points(ld, o, "scan", "points",
	    REPORT_REQUIRED, &s->npoints);
	a = report_load_array(ld, o, "scan", "tiers", REPORT_REQUIRED);
	report_load_bool(ld, o, "scan", "analysed", REPORT_OPTIONAL, -1,
	    &analysed);
	if (a != NULL && json_array_size(a) > TIERS_MAX) {
		report_load_fail(ld, "scan", "tiers", "more than %d tiers",
		    TIERS_MAX);
		return;
	}
	json_array_foreach(a, i, e) {
		snprintf(tp, sizeof tp, "scan.tiers[%zu]", i);
		if (!json_is_object(e)) {
			report_load_fail(ld, tp, "", "expected an object, "
			    "not %s", report_load_type(e));
			return;
		}
		t = &tr->tier[i];
		report_load_uint(ld, e, tp, "capacity_bytes", REPORT_REQUIRED,
		    UINT64_MAX, &t->capacity_bytes);
		report_load_uint(ld, e, tp, "capacity_low_bytes",
		    REPORT_REQUIRED, UINT64_MAX, &t->capacity_low_bytes);
		report_load_uint(ld, e, tp, "capacity_high_bytes",
		    REPORT_REQUIRED, UINT64_MAX, &t->capacity_high_bytes);
		report_load_bool(ld, e, tp, "capacity_at_least",
		    REPORT_OPTIONAL, 0, &t->at_least);
		report_load_real(ld, e, tp, "lat_us_p50", REPORT_REQUIRED,
		    &t->lat_us_p50);
		report_load_real(ld, e, tp, "lat_us_p99", REPORT_REQUIRED,
		    &t->lat_us_p99);
		tr->ntiers = i + 1;
	}
	b = report_load_object(ld, o, "scan", "backing", REPORT_REQUIRED);
	report_load_real(ld, b, "scan.backing", "lat_us_p50", REPORT_REQUIRED,
	    &tr->backing_p50_us);
	report_load_real(ld, b, "scan.backing", "lat_us_p99", REPORT_REQUIRED,
	    &tr->backing_p99_us);
	report_load_str(ld, o, "scan", "note", REPORT_OPTIONAL, tr->note,
	    sizeof tr->note);
	/* Without the flag, a result with any figure counts as analysed. */
	if (analysed == -1)
		analysed = tr->ntiers > 0 || !isnan(tr->backing_p50_us);
	tr->analysed = analysed;
}

static void
report_load_limits(struct report_load *ld, const json_t *o,
    struct limits_result *l)
{
	struct timeline_sample	 ts;
	struct first_touch	*ft;
	const char		*iops_words[6], *bw_words[5];
	json_t			*b, *a, *e;
	char			 tp[64];
	size_t			 i;
	int			 word;

	report_load_bool(ld, o, "limits", "interrupted", REPORT_OPTIONAL, 0,
	    &l->interrupted);
	report_load_uint(ld, o, "limits", "ws_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &l->ws_bytes);
	report_load_real(ld, o, "limits", "iops_ceiling", REPORT_REQUIRED,
	    &l->iops_ceiling);
	report_load_unsigned(ld, o, "limits", "iops_knee_iodepth",
	    REPORT_REQUIRED, &l->iops_knee_iodepth);
	report_load_real(ld, o, "limits", "iops_max_seen", REPORT_OPTIONAL,
	    &l->iops_max_seen);
	report_load_bool(ld, o, "limits", "cpu_bound", REPORT_OPTIONAL, 0,
	    &l->cpu_bound);
	report_load_real(ld, o, "limits", "bandwidth_ceiling_bytes_per_s",
	    REPORT_REQUIRED, &l->bandwidth_ceiling_bytes_per_s);
	report_load_uint(ld, o, "limits", "io_accounting_bytes",
	    REPORT_REQUIRED, UINT64_MAX, &l->io_accounting_bytes);
	for (i = 0; i < 5; i++) {
		iops_words[i] = ceilings_iops_limit_name(i);
		bw_words[i] = ceilings_bw_limit_name(i);
	}
	iops_words[5] = bw_words[4] = NULL;
	report_load_word(ld, o, "limits", "iops_limit", iops_words, &word);
	l->iops_limit = word;
	report_load_unsigned(ld, o, "limits", "iops_max_seen_iodepth",
	    REPORT_OPTIONAL, &l->iops_max_seen_iodepth);
	report_load_real(ld, o, "limits", "cpu_util", REPORT_OPTIONAL,
	    &l->cpu_util);
	report_load_real(ld, o, "limits", "little_ratio", REPORT_OPTIONAL,
	    &l->little_ratio);
	report_load_real(ld, o, "limits", "lat0_us", REPORT_OPTIONAL,
	    &l->lat0_us);
	report_load_unsigned(ld, o, "limits", "bs_iodepth", REPORT_OPTIONAL,
	    &l->bs_iodepth);
	report_load_real(ld, o, "limits", "bandwidth_max_seen_bytes_per_s",
	    REPORT_OPTIONAL, &l->bandwidth_max_seen);
	report_load_word(ld, o, "limits", "bandwidth_limit", bw_words, &word);
	l->bandwidth_limit = word;
	report_load_real(ld, o, "limits", "optimal_io_bytes", REPORT_OPTIONAL,
	    &l->optimal_io_bytes);
	report_load_unsigned(ld, o, "limits", "sustain_iodepth",
	    REPORT_OPTIONAL, &l->sustain_iodepth);
	report_load_real(ld, o, "limits", "sustain_s", REPORT_OPTIONAL,
	    &l->sustain_s);
	report_load_str(ld, o, "limits", "note", REPORT_OPTIONAL, l->note,
	    sizeof l->note);
	if ((b = report_load_object(ld, o, "limits", "first_touch",
	    REPORT_OPTIONAL)) != NULL) {
		ft = &l->first_touch;
		ft->measured = 1;
		report_load_bool(ld, b, "limits.first_touch", "detected",
		    REPORT_REQUIRED, 0, &ft->detected);
		report_load_uint(ld, b, "limits.first_touch", "blocks",
		    REPORT_OPTIONAL, UINT64_MAX, &ft->blocks);
		report_load_real(ld, b, "limits.first_touch", "first_p50_us",
		    REPORT_OPTIONAL, &ft->first_p50_us);
		report_load_real(ld, b, "limits.first_touch", "first_mean_us",
		    REPORT_OPTIONAL, &ft->first_mean_us);
		report_load_real(ld, b, "limits.first_touch", "second_p50_us",
		    REPORT_OPTIONAL, &ft->second_p50_us);
		report_load_real(ld, b, "limits.first_touch",
		    "second_mean_us", REPORT_OPTIONAL, &ft->second_mean_us);
		report_load_real(ld, b, "limits.first_touch", "ratio",
		    REPORT_OPTIONAL, &ft->ratio);
		report_load_real(ld, b, "limits.first_touch",
		    "slower_fraction", REPORT_OPTIONAL, &ft->slower_fraction);
	}
	b = report_load_object(ld, o, "limits", "burst", REPORT_REQUIRED);
	report_load_bool(ld, b, "limits.burst", "detected", REPORT_REQUIRED,
	    0, &l->burst.detected);
	report_load_real(ld, b, "limits.burst", "burst_iops", REPORT_REQUIRED,
	    &l->burst.burst_iops);
	report_load_real(ld, b, "limits.burst", "baseline_iops",
	    REPORT_REQUIRED, &l->burst.baseline_iops);
	report_load_real(ld, b, "limits.burst", "duration_s", REPORT_REQUIRED,
	    &l->burst.duration_s);
	report_load_real(ld, b, "limits.burst", "credits_ios",
	    REPORT_REQUIRED, &l->burst.credits_ios);
	report_load_real(ld, b, "limits.burst", "observed_s", REPORT_OPTIONAL,
	    &l->burst.observed_s);
	report_load_real(ld, b, "limits.burst", "drop_t_s", REPORT_OPTIONAL,
	    &l->burst.drop_t_s);
	report_load_real(ld, b, "limits.burst", "prior_credits_ios",
	    REPORT_OPTIONAL, &l->burst.prior_credits_ios);
	report_load_bool(ld, b, "limits.burst", "exhausted", REPORT_OPTIONAL,
	    0, &l->burst.exhausted);
	report_load_bool(ld, b, "limits.burst", "variable", REPORT_OPTIONAL,
	    0, &l->burst.variable);
	l->qd_points = report_load_points(ld, o, "limits", "qd_points",
	    REPORT_REQUIRED, &l->nqd);
	l->bs_points = report_load_points(ld, o, "limits", "bs_points",
	    REPORT_REQUIRED, &l->nbs);
	a = report_load_array(ld, o, "limits", "timeline", REPORT_REQUIRED);
	json_array_foreach(a, i, e) {
		snprintf(tp, sizeof tp, "limits.timeline[%zu]", i);
		if (!json_is_object(e)) {
			report_load_fail(ld, tp, "", "expected an object, "
			    "not %s", report_load_type(e));
			return;
		}
		report_load_real(ld, e, tp, "t_s", REPORT_REQUIRED, &ts.t_s);
		report_load_real(ld, e, tp, "iops", REPORT_REQUIRED, &ts.iops);
		report_load_real(ld, e, tp, "bytes_per_s", REPORT_OPTIONAL,
		    &ts.bytes_per_s);
		report_load_real(ld, e, tp, "lat_us_mean", REPORT_OPTIONAL,
		    &ts.lat_us_mean);
		if (ld->failed)
			return;
		if (l->timeline.n == l->timeline.cap) {
			l->timeline.cap = l->timeline.cap ?
			    l->timeline.cap * 2 : 64;
			l->timeline.v = xreallocarray(l->timeline.v,
			    l->timeline.cap, sizeof *l->timeline.v);
		}
		l->timeline.v[l->timeline.n++] = ts;
	}
}

static void
report_load_repeat(struct report_load *ld, const json_t *o,
    struct report_repeat *rr)
{
	struct report_stat	*s;
	json_t			*a, *e;
	char			 sp[64];
	size_t			 i;

	report_load_unsigned(ld, o, "repeat", "runs", REPORT_REQUIRED,
	    &rr->runs);
	a = report_load_array(ld, o, "repeat", "figures", REPORT_REQUIRED);
	json_array_foreach(a, i, e) {
		snprintf(sp, sizeof sp, "repeat.figures[%zu]", i);
		if (i >= REPORT_STATS_MAX) {
			report_load_fail(ld, "repeat", "figures",
			    "more than %d figures", REPORT_STATS_MAX);
			return;
		}
		if (!json_is_object(e)) {
			report_load_fail(ld, sp, "", "expected an object, "
			    "not %s", report_load_type(e));
			return;
		}
		s = &rr->stat[i];
		report_load_str(ld, e, sp, "name", REPORT_REQUIRED, s->name,
		    sizeof s->name);
		report_load_unsigned(ld, e, sp, "n", REPORT_REQUIRED, &s->n);
		report_load_real(ld, e, sp, "mean", REPORT_REQUIRED, &s->mean);
		report_load_real(ld, e, sp, "sd", REPORT_REQUIRED, &s->sd);
		report_load_real(ld, e, sp, "cv", REPORT_REQUIRED, &s->cv);
		rr->nstats = i + 1;
	}
}

static void
report_load_seed(struct report_load *ld, const json_t *o, uint64_t *seed)
{
	json_t		*v;
	const char	*s;
	char		*end;

	v = report_load_get(ld, o, "config", "seed", REPORT_OPTIONAL);
	if (v == NULL || !json_is_string(v)) {
		report_load_uint(ld, o, "config", "seed", REPORT_OPTIONAL,
		    UINT64_MAX, seed);
		return;
	}
	s = json_string_value(v);
	errno = 0;
	*seed = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0)
		report_load_fail(ld, "config", "seed", "\"%s\" is not a "
		    "whole number", s);
}

static void
report_load_root(struct report_load *ld, const json_t *root,
    struct report *r)
{
	static const char *const rw[] = { "read", "write", NULL };
	struct report_config	*c = &r->config;
	struct report_context	*x = &r->context;
	json_t			*o;
	uint64_t		 v;
	char			 name[32], path[4096], *why;

	o = report_load_object(ld, root, "", "tool", REPORT_REQUIRED);
	report_load_str(ld, o, "tool", "name", REPORT_REQUIRED, name,
	    sizeof name);
	report_load_str(ld, o, "tool", "version", REPORT_REQUIRED,
	    r->tool_version, sizeof r->tool_version);
	report_load_bool(ld, root, "", "interrupted", REPORT_REQUIRED, 0,
	    &r->interrupted);
	report_load_str(ld, root, "", "started_utc", REPORT_OPTIONAL,
	    r->started_utc, sizeof r->started_utc);
	report_load_str(ld, root, "", "finished_utc", REPORT_OPTIONAL,
	    r->finished_utc, sizeof r->finished_utc);

	o = report_load_object(ld, root, "", "config", REPORT_OPTIONAL);
	report_load_str(ld, o, "config", "command", REPORT_OPTIONAL,
	    c->command, sizeof c->command);
	if (c->command[0] == '\0')
		report_load_str(ld, root, "", "command", REPORT_OPTIONAL,
		    c->command, sizeof c->command);
	report_load_str(ld, o, "config", "engine", REPORT_OPTIONAL,
	    c->engine, sizeof c->engine);
	report_load_bool(ld, o, "config", "direct", REPORT_OPTIONAL, 1,
	    &c->direct);
	report_load_u32(ld, o, "config", "bs", REPORT_OPTIONAL, &c->bs);
	report_load_unsigned(ld, o, "config", "iodepth", REPORT_OPTIONAL,
	    &c->iodepth);
	report_load_seed(ld, o, &c->seed);
	report_load_uint(ld, o, "config", "min_ws_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &c->min_ws);
	report_load_uint(ld, o, "config", "max_ws_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &c->max_ws);
	report_load_uint(ld, o, "config", "step_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &c->step);
	report_load_unsigned(ld, o, "config", "points", REPORT_OPTIONAL,
	    &c->points);
	report_load_real(ld, o, "config", "precision", REPORT_OPTIONAL,
	    &c->precision);
	report_load_real(ld, o, "config", "max_time_s", REPORT_OPTIONAL,
	    &c->max_time_s);
	report_load_real(ld, o, "config", "budget_s", REPORT_OPTIONAL,
	    &c->budget_s);
	report_load_uint(ld, o, "config", "ws_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &c->ws);
	report_load_unsigned(ld, o, "config", "max_iodepth", REPORT_OPTIONAL,
	    &c->max_iodepth);
	report_load_real(ld, o, "config", "sustain_s", REPORT_OPTIONAL,
	    &c->sustain_s);
	report_load_word(ld, o, "config", "rw", rw, &c->write);

	o = report_load_object(ld, root, "", "target", REPORT_REQUIRED);
	report_load_str(ld, o, "target", "path", REPORT_REQUIRED, path,
	    sizeof path);
	if (!ld->failed)
		r->target.path = xstrdup(path);
	report_load_str(ld, o, "target", "type", REPORT_REQUIRED,
	    r->target.type, sizeof r->target.type);
	report_load_bool(ld, o, "target", "direct", REPORT_REQUIRED, 1,
	    &r->target.direct);
	report_load_str(ld, o, "target", "engine", REPORT_REQUIRED,
	    r->target.engine, sizeof r->target.engine);
	report_load_u32(ld, o, "target", "bs", REPORT_REQUIRED,
	    &r->target.bs);
	report_load_uint(ld, o, "target", "size_bytes", REPORT_OPTIONAL,
	    UINT64_MAX, &r->target.size_bytes);

	x->rotational = -1;
	o = report_load_object(ld, root, "", "context", REPORT_OPTIONAL);
	report_load_str(ld, o, "context", "hostname", REPORT_OPTIONAL,
	    x->hostname, sizeof x->hostname);
	report_load_str(ld, o, "context", "kernel", REPORT_OPTIONAL,
	    x->kernel, sizeof x->kernel);
	report_load_str(ld, o, "context", "device", REPORT_OPTIONAL,
	    x->device, sizeof x->device);
	report_load_str(ld, o, "context", "device_model", REPORT_OPTIONAL,
	    x->device_model, sizeof x->device_model);
	report_load_str(ld, o, "context", "scheduler", REPORT_OPTIONAL,
	    x->scheduler, sizeof x->scheduler);
	report_load_bool(ld, o, "context", "rotational", REPORT_OPTIONAL, -1,
	    &x->rotational);
	report_load_unsigned(ld, o, "context", "nr_requests",
	    REPORT_OPTIONAL, &x->nr_requests);
	report_load_unsigned(ld, o, "context", "read_ahead_kb",
	    REPORT_OPTIONAL, &x->read_ahead_kb);
	report_load_uint(ld, o, "context", "logical_block_bytes",
	    REPORT_OPTIONAL, UINT32_MAX, &v);
	x->logical_block = v;
	report_load_uint(ld, o, "context", "physical_block_bytes",
	    REPORT_OPTIONAL, UINT32_MAX, &v);
	x->physical_block = v;
	report_load_str(ld, o, "context", "fstype", REPORT_OPTIONAL,
	    x->fstype, sizeof x->fstype);
	report_load_str(ld, o, "context", "mount_options", REPORT_OPTIONAL,
	    x->mount_options, sizeof x->mount_options);

	o = report_load_object(ld, root, "", "labels", REPORT_OPTIONAL);
	report_load_str(ld, o, "labels", "host", REPORT_OPTIONAL,
	    r->labels.host, sizeof r->labels.host);
	report_load_str(ld, o, "labels", "kind", REPORT_OPTIONAL,
	    r->labels.kind, sizeof r->labels.kind);

	if ((o = report_load_object(ld, root, "", "scan",
	    REPORT_OPTIONAL)) != NULL) {
		r->scan = xcalloc(1, sizeof *r->scan);
		r->scan->tiers.backing_p50_us = NAN;
		r->scan->tiers.backing_p99_us = NAN;
		report_load_scan(ld, o, r->scan);
	}
	if ((o = report_load_object(ld, root, "", "limits",
	    REPORT_OPTIONAL)) != NULL) {
		r->limits = xcalloc(1, sizeof *r->limits);
		report_load_limits(ld, o, r->limits);
	}
	if ((o = report_load_object(ld, root, "", "repeat",
	    REPORT_OPTIONAL)) != NULL) {
		r->repeat = xcalloc(1, sizeof *r->repeat);
		report_load_repeat(ld, o, r->repeat);
	}
	if ((o = report_load_object(ld, root, "", "expectations",
	    REPORT_OPTIONAL)) != NULL && !ld->failed &&
	    report_check_load(o, &r->checks, &why) != 0) {
		report_load_fail(ld, "expectations", "", "%s", why);
		free(why);
	}
}

/* Read a report back.  Returns 0 or -1 with *cause (bad file: exit 2). */
int
report_load(const char *file, struct report *r, char **cause)
{
	struct report_load	 ld;
	json_error_t		 jerr;
	json_t			*root, *sv;
	json_int_t		 version;

	memset(r, 0, sizeof *r);
	memset(&ld, 0, sizeof ld);
	ld.file = file;
	root = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (root == NULL) {
		if (jerr.line > 0)
			xasprintf(cause, "%s: line %d: not a JSON report: %s",
			    file, jerr.line, jerr.text);
		else
			xasprintf(cause, "%s: %s", file, jerr.text);
		return (-1);
	}
	if (!json_is_object(root)) {
		xasprintf(cause, "%s: not a tierprobe report (top level is "
		    "%s)", file, report_load_type(root));
		json_decref(root);
		return (-1);
	}
	sv = json_object_get(root, "schema_version");
	if (sv == NULL || !json_is_integer(sv)) {
		xasprintf(cause, "%s: schema_version: %s", file, sv == NULL ?
		    "missing (not a tierprobe report)" : "expected an integer");
		json_decref(root);
		return (-1);
	}
	version = json_integer_value(sv);
	if (version < 1 || version > REPORT_SCHEMA_VERSION) {
		xasprintf(cause, "%s: schema_version: %" JSON_INTEGER_FORMAT
		    " is not supported (this tierprobe reads 1 to %d; a newer "
		    "tierprobe wrote it?)", file, version,
		    REPORT_SCHEMA_VERSION);
		json_decref(root);
		return (-1);
	}
	report_load_root(&ld, root, r);
	json_decref(root);
	if (ld.failed) {
		report_free(r);
		*cause = ld.cause;
		return (-1);
	}
	return (0);
}

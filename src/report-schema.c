/* SPDX-License-Identifier: ISC */
/*
 * Every key of a JSON report, once: the writer, the reader and the test of
 * man/tierprobe-report.5 walk these tables.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "peers.h"
#include "plan.h"
#include "report-schema.h"
#include "report.h"
#include "voltype.h"
#include "xmalloc.h"

/*
 * One table per JSON object, one row per key in output order (the order
 * report-json.c writes them).  A row says where its value lives: offset
 * and size of a member of the struct the table describes.  Objects nest
 * as sub-tables: an embedded struct (offset of it), a struct behind a
 * pointer (REPORT_SCHEMA_POINTER: absent when NULL, allocated when read),
 * or an INLINE struct whose keys sit in the parent's object.  Arrays hold
 * structs of a sub-table, either in place (max elements) or behind a
 * pointer, with a size_t count beside them.  Odd values take a get/set
 * pair instead of an offset.
 *
 * Unknown figures are written null by type (NAN, 0 for UINT_NULL, "",
 * 0 for WORD_NULL), or when shown() says the value is not known; a
 * section not run is absent, as is an optional POINTER array that is
 * NULL.  The reader refuses a file without a REQUIRED key or with a key
 * of the wrong type (one line naming file and key), gives an absent or
 * null key its unknown value (REAL NAN, UINT 0, BOOL dflt, "" strings),
 * reads an absent embedded object as all unknown, and leaves an absent
 * POINTER or shown() object out.  A key REQUIRED unless another is there
 * names that one (unless): the top-level target of a report of one, or
 * targets[] of a report of several.  A table's loaded() then derives what
 * older files lack.
 *
 * To add a section (targets[], sync, writes, fleet): put its result in a
 * struct reachable from struct report (and free it in report_free); write
 * a key array and a struct report_schema for each new object, reusing
 * the tables that fit (targets[] elements take report_schema_scan and
 * report_schema_limits as they are); add one row to the parent table,
 * OBJECT | POINTER so that a section not run stays absent; document every
 * key in tierprobe-report.5 and make the full report of
 * tests/test_report_schema.c contain the section: the test fails naming
 * any key the page misses or the round trip loses.  A table reached from
 * several places is documented once, under the path of its first use
 * (or in its own man_section).  A new per-tier key is one row in
 * report_schema_tier_keys.  A section whose shape no table can say is one
 * OBJECT | POINTER row with a get/set pair and no sub (its keys are then
 * the pair's to document and test).  New keys keep schema_version;
 * changing the meaning of one raises it.
 */

#define AT(type, member) \
	.offset = offsetof(type, member), \
	.size = sizeof(((type *)0)->member)
#define TABLE(name, type, keys, section, loaded) \
	{ name, sizeof(type), keys, sizeof keys / sizeof keys[0], section, \
	    loaded }

static json_t *
report_schema_version_get(const void *r)
{
	(void)r;
	return (json_integer(REPORT_SCHEMA_VERSION));
}

/* Checked by report_load before the walk. */
static int
report_schema_version_set(const json_t *v, void *r, const char *key,
    char **cause)
{
	(void)v;
	(void)r;
	(void)key;
	(void)cause;
	return (0);
}

static json_t *
report_schema_name_get(const void *r)
{
	(void)r;
	return (json_string("tierprobe"));
}

static int
report_schema_name_set(const json_t *v, void *r, const char *key,
    char **cause)
{
	(void)r;
	if (json_is_string(v))
		return (0);
	xasprintf(cause, "%s: expected a string, not %s", key,
	    report_schema_json_type(v));
	return (-1);
}

/* Seeds beyond json_int_t are written as a decimal string. */
static json_t *
report_schema_seed_get(const void *config)
{
	const struct report_config	*c = config;
	char				 s[32];

	if (c->seed <= INT64_MAX)
		return (json_integer((json_int_t)c->seed));
	snprintf(s, sizeof s, "%" PRIu64, c->seed);
	return (json_string(s));
}

static json_t *
report_schema_cuts_get(const void *config)
{
	const struct report_config	*c = config;
	json_t				*a = json_array();
	int				 i;

	for (i = 0; i < PLAN_NCUTS; i++)
		if (c->cuts & (1U << i))
			json_array_append_new(a, json_string(plan_cut_name(i)));
	return (a);
}

static int
report_schema_cuts_set(const json_t *v, void *config, const char *key,
    char **cause)
{
	struct report_config	*c = config;
	const json_t		*w;
	size_t			 i;
	int			 k;

	c->cuts = 0;
	if (json_is_null(v))
		return (0);
	if (!json_is_array(v)) {
		xasprintf(cause, "%s: expected an array, not %s", key,
		    report_schema_json_type(v));
		return (-1);
	}
	json_array_foreach(v, i, w) {
		for (k = 0; k < PLAN_NCUTS; k++)
			if (json_is_string(w) && strcmp(json_string_value(w),
			    plan_cut_name(k)) == 0)
				break;
		if (k == PLAN_NCUTS) {
			xasprintf(cause, "%s[%zu]: not one of the quick "
			    "preset's cuts (%s, ...)", key, i, plan_cut_name(0));
			return (-1);
		}
		c->cuts |= 1U << k;
	}
	return (0);
}

static int
report_schema_seed_set(const json_t *v, void *config, const char *key,
    char **cause)
{
	struct report_config	*c = config;
	const char		*s;
	char			*end;

	if (json_is_null(v))
		return (0);
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		c->seed = (uint64_t)json_integer_value(v);
		return (0);
	}
	if (json_is_integer(v)) {
		xasprintf(cause, "%s: %" JSON_INTEGER_FORMAT " is out of range",
		    key, json_integer_value(v));
		return (-1);
	}
	if (!json_is_string(v)) {
		xasprintf(cause, "%s: expected a whole number, not %s", key,
		    report_schema_json_type(v));
		return (-1);
	}
	s = json_string_value(v);
	errno = 0;
	c->seed = strtoull(s, &end, 10);
	if (*s < '0' || *s > '9' || *end != '\0' || errno != 0) {
		xasprintf(cause, "%s: \"%s\" is not a whole number", key, s);
		return (-1);
	}
	return (0);
}

/* A histogram: [lower bound in ns, count] per bucket that is not empty. */
static json_t *
report_schema_hist_get(const void *hist)
{
	const struct hist	*h = hist;
	json_t			*a, *pair;
	size_t			 i;

	a = json_array();
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		pair = json_array();
		json_array_append_new(pair, json_integer(
		    (json_int_t)hist_bucket_low(i)));
		json_array_append_new(pair, json_integer(
		    (json_int_t)h->bucket[i]));
		json_array_append_new(a, pair);
	}
	return (a);
}

static int
report_schema_hist_set(const json_t *a, void *hist, const char *key,
    char **cause)
{
	struct hist	*h = hist;
	json_t		*pair, *lo, *cnt;
	size_t		 i;

	if (!json_is_array(a)) {
		xasprintf(cause, "%s: expected an array, not %s", key,
		    report_schema_json_type(a));
		return (-1);
	}
	json_array_foreach(a, i, pair) {
		lo = json_array_get(pair, 0);
		cnt = json_array_get(pair, 1);
		if (!json_is_array(pair) || json_array_size(pair) != 2 ||
		    !json_is_integer(lo) || !json_is_integer(cnt) ||
		    json_integer_value(lo) < 0 ||
		    json_integer_value(cnt) < 0) {
			xasprintf(cause, "%s[%zu]: expected [lower bound in "
			    "ns, count] as whole numbers", key, i);
			return (-1);
		}
		h->bucket[hist_index((uint64_t)json_integer_value(lo))] +=
		    (uint64_t)json_integer_value(cnt);
		h->count += (uint64_t)json_integer_value(cnt);
	}
	return (0);
}

/* Without hist_sum_ns, the sum is estimated from the buckets. */
static void
report_schema_hist_loaded(void *hist)
{
	struct hist	*h = hist;
	size_t		 i;

	if (!isnan(h->sum_ns))
		return;
	h->sum_ns = 0;
	for (i = 0; i < HIST_BUCKETS; i++)
		h->sum_ns += hist_bucket_value(i) * (double)h->bucket[i];
}

static const char *
report_schema_rw(int write)
{
	static const char *const words[] = { "read", "write" };

	return (write >= 0 && write < 2 ? words[write] : NULL);
}

static const char *
report_schema_randrw(int write)
{
	static const char *const words[] = { "randread", "randwrite",
	    "randrw" };

	return (write >= 0 && write <= POINT_MIXED ? words[write] : NULL);
}

static const char *
report_schema_iops_limit(int l)
{
	if (l < 0 || l > CEILINGS_IOPS_QUEUE)
		return (NULL);
	return (ceilings_iops_limit_name(l));
}

static const char *
report_schema_bw_limit(int l)
{
	if (l < 0 || l > CEILINGS_BW_UNIT_OR_CAP)
		return (NULL);
	return (ceilings_bw_limit_name(l));
}

static const char *
report_schema_acct_why(int w)
{
	static const char *const names[] = {
		[CEILINGS_ACCT_HIDDEN] = "hidden",
		[CEILINGS_ACCT_UNIT_OR_CAP] = "unit_or_cap",
	};

	if (w <= 0 || (size_t)w >= sizeof names / sizeof names[0])
		return (NULL);
	return (names[w]);
}

static const char *
report_schema_ft_changed(int c)
{
	static const char *const names[] = {
		[CEILINGS_FT_BUCKET] = "bucket",
		[CEILINGS_FT_SLOWER] = "slower",
	};

	if (c <= 0 || (size_t)c >= sizeof names / sizeof names[0])
		return (NULL);
	return (names[c]);
}

/* Whether the commits' first point ran again. */
static int
report_schema_again_measured(const void *sync)
{
	const struct sync_result	*s = sync;

	return (s->again.pt.ios > 0);
}

/* Whether the accounting probe ran. */
static int
report_schema_acct_probe_measured(const void *limits)
{
	const struct limits_result	*l = limits;

	return (l->acct_probe.ios > 0);
}

static const char *
report_schema_stop(int stop)
{
	return (limits_stop_name(stop));
}

static int
report_schema_device_known(const void *context)
{
	const struct report_context	*x = context;

	return (x->device[0] != '\0');
}

static int
report_schema_analysed(const void *tiers)
{
	const struct tiers_result	*tr = tiers;

	return (tr->analysed);
}

static int
report_schema_not_analysed(const void *tiers)
{
	return (!report_schema_analysed(tiers));
}

/* Files without the flag: a result with any figure counts as analysed. */
static void
report_schema_tiers_loaded(void *tiers)
{
	struct tiers_result	*tr = tiers;

	if (tr->analysed == -1)
		tr->analysed = tr->ntiers > 0 || !isnan(tr->backing_p50_us);
}

static int
report_schema_burst_detected(const void *burst)
{
	const struct burst	*b = burst;

	return (b->detected);
}

static int
report_schema_first_touch_measured(const void *limits)
{
	const struct limits_result	*l = limits;

	return (l->first_touch.measured);
}

static void
report_schema_first_touch_loaded(void *first_touch)
{
	struct first_touch	*ft = first_touch;

	ft->measured = 1;
}

/* A figure's value in each run: numbers, null where unknown. */
static json_t *
report_schema_runs_get(const void *stat)
{
	const struct report_stat	*st = stat;
	json_t				*a;
	size_t				 i;

	a = json_array();
	for (i = 0; i < st->nrun && i < REPORT_RUNS_MAX; i++)
		json_array_append_new(a, isfinite(st->run[i]) ?
		    json_real(st->run[i]) : json_null());
	return (a);
}

static int
report_schema_runs_set(const json_t *a, void *stat, const char *key,
    char **cause)
{
	struct report_stat	*st = stat;
	json_t			*v;
	size_t			 i;

	if (json_is_null(a))
		return (0);
	if (!json_is_array(a) || json_array_size(a) > REPORT_RUNS_MAX) {
		xasprintf(cause, "%s: expected an array of at most %d numbers",
		    key, REPORT_RUNS_MAX);
		return (-1);
	}
	json_array_foreach(a, i, v) {
		if (!json_is_number(v) && !json_is_null(v)) {
			xasprintf(cause, "%s[%zu]: expected a number or null, "
			    "not %s", key, i, report_schema_json_type(v));
			return (-1);
		}
		st->run[i] = json_is_null(v) ? NAN : json_number_value(v);
	}
	st->nrun = i;
	return (0);
}

static json_t *
report_schema_run_bounds_get(const void *stat)
{
	const struct report_stat	*st = stat;
	json_t				*a;
	size_t				 i;

	a = json_array();
	for (i = 0; i < st->nrun && i < REPORT_RUNS_MAX; i++)
		json_array_append_new(a, json_string(report_bound_name(
		    st->run_bound[i])));
	return (a);
}

static int
report_schema_run_bounds_set(const json_t *a, void *stat, const char *key,
    char **cause)
{
	struct report_stat	*st = stat;
	json_t			*v;
	const char		*w;
	size_t			 i;
	int			 b;

	if (json_is_null(a))
		return (0);
	if (!json_is_array(a) || json_array_size(a) > REPORT_RUNS_MAX) {
		xasprintf(cause, "%s: expected an array of at most %d words",
		    key, REPORT_RUNS_MAX);
		return (-1);
	}
	json_array_foreach(a, i, v) {
		for (b = 0; (w = report_bound_name(b)) != NULL; b++) {
			if (json_is_string(v) &&
			    strcmp(json_string_value(v), w) == 0)
				break;
		}
		if (w == NULL) {
			xasprintf(cause, "%s[%zu]: expected \"none\", "
			    "\"at_most\" or \"at_least\"", key, i);
			return (-1);
		}
		st->run_bound[i] = b;
	}
	return (0);
}

static const char *
report_schema_phase(int phase)
{
	return (limits_phase_name(phase));
}

/* Files without long_run_iops: a bucket that ran dry gives it. */
static void
report_schema_limits_loaded(void *limits)
{
	struct limits_result	*l = limits;

	l->timeline.cap = l->timeline.n;
	l->sweep_timeline.cap = l->sweep_timeline.n;
	if (isnan(l->long_run_iops) && l->burst.detected)
		l->long_run_iops = l->burst.baseline_iops;
}

/* One target: the report holds its target and context at the top. */
static int
report_schema_one_target(const void *report)
{
	const struct report	*r = report;

	return (r->ntargets == 0);
}

static const char *
report_schema_bound(int b)
{
	return (b == TOGETHER_UNKNOWN ? NULL : together_bound_name(b));
}

static void
report_schema_together_loaded(void *together)
{
	struct together_result	*t = together;

	t->timeline.cap = t->timeline.n;
	t->bandwidth_timeline.cap = t->bandwidth_timeline.n;
}

static void
report_schema_per_target_loaded(void *per_target)
{
	struct together_target	*t = per_target;

	t->timeline.cap = t->timeline.n;
	t->bandwidth_timeline.cap = t->bandwidth_timeline.n;
}

static const struct report_schema_key report_schema_lat_keys[] = {
	{ .name = "mean", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct lat_summary, mean),
	  .unit = "us", .doc = "mean latency" },
	{ .name = "p50", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct lat_summary, p50),
	  .unit = "us", .doc = "median latency" },
	{ .name = "p90", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct lat_summary, p90),
	  .unit = "us", .doc = "90th percentile of the latency" },
	{ .name = "p99", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct lat_summary, p99),
	  .unit = "us", .doc = "99th percentile of the latency" },
	{ .name = "p999", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct lat_summary, p999),
	  .unit = "us", .doc = "99.9th percentile of the latency; null "
	  "under 10,000 reads" },
};
static const struct report_schema report_schema_lat =
    TABLE("lat_us", struct lat_summary, report_schema_lat_keys, NULL, NULL);

static const struct report_schema_key report_schema_hist_keys[] = {
	{ .name = "hist", .type = REPORT_SCHEMA_ARRAY,
	  .get = report_schema_hist_get, .set = report_schema_hist_set,
	  .unit = "ns", .doc = "[lower bound, count] of each non-empty "
	  "log-linear bucket" },
	{ .name = "hist_sum_ns", .type = REPORT_SCHEMA_REAL,
	  AT(struct hist, sum_ns), .unit = "ns",
	  .doc = "exact sum of the latencies" },
	{ .name = "hist_min_ns", .type = REPORT_SCHEMA_UINT,
	  AT(struct hist, min_ns), .unit = "ns", .doc = "least latency" },
	{ .name = "hist_max_ns", .type = REPORT_SCHEMA_UINT,
	  AT(struct hist, max_ns), .unit = "ns", .doc = "greatest latency" },
	{ .name = "hist_overflow", .type = REPORT_SCHEMA_UINT,
	  AT(struct hist, overflow), .unit = "I/Os",
	  .doc = "latencies beyond the last bucket" },
};
static const struct report_schema report_schema_hist =
    TABLE("hist", struct hist, report_schema_hist_keys, NULL,
    report_schema_hist_loaded);

static const struct report_schema_key report_schema_point_keys[] = {
	{ .name = "ws_bytes", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct point, ws_bytes),
	  .unit = "bytes", .doc = "working set: offsets in [0, ws_bytes)" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT, AT(struct point, bs),
	  .unit = "bytes", .doc = "I/O size" },
	{ .name = "iodepth", .type = REPORT_SCHEMA_UINT,
	  AT(struct point, iodepth), .unit = "I/Os",
	  .doc = "I/Os kept in flight" },
	{ .name = "rw", .type = REPORT_SCHEMA_WORD, AT(struct point, write),
	  .word = report_schema_randrw,
	  .doc = "randread, randwrite or randrw (both mixed)" },
	{ .name = "ios", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct point, ios),
	  .unit = "I/Os", .doc = "I/Os measured, after the warm-up" },
	{ .name = "seconds", .type = REPORT_SCHEMA_REAL,
	  AT(struct point, seconds), .unit = "s",
	  .doc = "device time measured" },
	{ .name = "warm_seconds", .type = REPORT_SCHEMA_REAL,
	  AT(struct point, warm_seconds), .unit = "s",
	  .doc = "device time spent warming up" },
	{ .name = "iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct point, iops),
	  .unit = "IOPS", .doc = "I/Os per second" },
	{ .name = "bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct point, bytes_per_s), .unit = "bytes/s",
	  .doc = "throughput" },
	{ .name = "ci95_rel", .type = REPORT_SCHEMA_REAL,
	  AT(struct point, ci95_rel), .unit = "ratio",
	  .doc = "95% CI half-width of the mean latency over the mean" },
	{ .name = "cpu_util", .type = REPORT_SCHEMA_REAL,
	  AT(struct point, cpu_util), .unit = "cores",
	  .doc = "tierprobe's CPU time over wall time" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct point, state), .word = bucket_state_name,
	  .doc = "the state a burst bucket may have been in while it was "
	  "measured (Bucket states)" },
	{ .name = "lat_us", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct point, lat_us),
	  .sub = &report_schema_lat, .doc = "latency summary" },
	{ .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_INLINE | REPORT_SCHEMA_POINTER,
	  AT(struct point, hist), .sub = &report_schema_hist,
	  .doc = "the latency histogram, when kept" },
};
static const struct report_schema report_schema_point =
    TABLE("point", struct point, report_schema_point_keys, "Points", NULL);

static const struct report_schema_key report_schema_tier_keys[] = {
	{ .name = "capacity_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct tier, capacity_bytes),
	  .unit = "bytes", .doc = "the cache's size" },
	{ .name = "capacity_low_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tier, capacity_low_bytes), .unit = "bytes",
	  .doc = "low end of its 95% interval" },
	{ .name = "capacity_high_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tier, capacity_high_bytes), .unit = "bytes",
	  .doc = "high end of its 95% interval" },
	{ .name = "capacity_at_least", .type = REPORT_SCHEMA_BOOL,
	  AT(struct tier, at_least),
	  .doc = "larger than the largest working set: a lower bound" },
	{ .name = "lat_us_p50", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct tier, lat_us_p50),
	  .unit = "us", .doc = "median latency of a read it serves" },
	{ .name = "lat_us_p99", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct tier, lat_us_p99),
	  .unit = "us", .doc = "99th percentile of that latency" },
	{ .name = "capped_lat_us_p50", .type = REPORT_SCHEMA_REAL,
	  AT(struct tier, capped_lat_us_p50), .unit = "us",
	  .doc = "median latency of its reads at the scan's iodepth when a "
	  "rate cap holds them (the two above are then its own, read "
	  "below the cap); null when no cap holds them" },
	{ .name = "capped_lat_us_mean", .type = REPORT_SCHEMA_REAL,
	  AT(struct tier, capped_lat_us_mean), .unit = "us",
	  .doc = "mean latency of those reads at the scan's iodepth; null "
	  "when no cap holds them" },
};
static const struct report_schema report_schema_tier =
    TABLE("tier", struct tier, report_schema_tier_keys, NULL, NULL);

static const struct report_schema_key report_schema_backing_keys[] = {
	{ .name = "lat_us_p50", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_result, backing_p50_us),
	  .shown = report_schema_analysed, .unit = "us",
	  .doc = "median latency of a read that misses every cache" },
	{ .name = "lat_us_p99", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_result, backing_p99_us),
	  .shown = report_schema_analysed, .unit = "us",
	  .doc = "99th percentile of that latency" },
	{ .name = "capped_lat_us_p50", .type = REPORT_SCHEMA_REAL,
	  AT(struct tiers_result, backing_capped_p50_us),
	  .shown = report_schema_analysed, .unit = "us",
	  .doc = "median latency of its reads at the scan's iodepth when a "
	  "rate cap holds them (the two above are then its own); null when "
	  "no cap holds them" },
	{ .name = "capped_lat_us_mean", .type = REPORT_SCHEMA_REAL,
	  AT(struct tiers_result, backing_capped_mean_us),
	  .shown = report_schema_analysed, .unit = "us",
	  .doc = "mean latency of those reads at the scan's iodepth" },
};
static const struct report_schema report_schema_backing =
    TABLE("backing", struct tiers_result, report_schema_backing_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_unexplained_keys[] = {
	{ .name = "lat_us_p50", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_unexplained, lat_us_p50), .unit = "us",
	  .doc = "median latency of the class's reads" },
	{ .name = "share_max", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_unexplained, share_max),
	  .doc = "its largest share of one point's reads" },
	{ .name = "from_ws_bytes", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_unexplained, from_ws), .unit = "bytes",
	  .doc = "it grows from this working set" },
	{ .name = "to_ws_bytes", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct tiers_unexplained, to_ws), .unit = "bytes",
	  .doc = "to this one" },
};
static const struct report_schema report_schema_unexplained =
    TABLE("unexplained", struct tiers_unexplained,
    report_schema_unexplained_keys, NULL, NULL);

static const struct report_schema_key report_schema_tiers_keys[] = {
	{ .name = "analysed", .type = REPORT_SCHEMA_BOOL, .dflt = -1,
	  AT(struct tiers_result, analysed),
	  .doc = "whether the tiers could be established" },
	{ .name = "tiers", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct tiers_result, tier),
	  .count = offsetof(struct tiers_result, ntiers), .max = TIERS_MAX,
	  .sub = &report_schema_tier, .shown = report_schema_analysed,
	  .doc = "the caches in front of the backing store, fastest first" },
	{ .name = "provisional_tiers", .type = REPORT_SCHEMA_ARRAY,
	  AT(struct tiers_result, tier),
	  .count = offsetof(struct tiers_result, ntiers), .max = TIERS_MAX,
	  .sub = &report_schema_tier, .shown = report_schema_not_analysed,
	  .doc = "when analysed is false: the caches found so far, not "
	  "established" },
	{ .name = "backing", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, .sub = &report_schema_backing,
	  .doc = "the store behind the caches" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct tiers_result, note),
	  .doc = "what the analysis wants a reader to know" },
	{ .name = "unseen_from_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct tiers_result, unseen_from), .unit = "bytes",
	  .doc = "a cache larger than this, up to the largest working set, "
	  "could go unseen: fewer than two points above it show its "
	  "misses; null with fewer than two points" },
	{ .name = "unexplained", .type = REPORT_SCHEMA_ARRAY,
	  AT(struct tiers_result, unexplained),
	  .count = offsetof(struct tiers_result, nunexplained),
	  .max = TIERS_MAX_UNEXPLAINED, .sub = &report_schema_unexplained,
	  .doc = "classes of reads that change with ws and no tier explains;"
	  " with one, analysed is false" },
};
static const struct report_schema report_schema_tiers =
    TABLE("tiers", struct tiers_result, report_schema_tiers_keys, NULL,
    report_schema_tiers_loaded);

static const struct report_schema_key report_schema_scan_keys[] = {
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  AT(struct scan_result, interrupted),
	  .doc = "the scan stopped early" },
	{ .name = "device_time_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct scan_result, device_time_s), .unit = "s",
	  .doc = "device time the scan spent, warm-ups included" },
	{ .name = "caveat", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct scan_result, caveat),
	  .doc = "why the way the scan read may misplace the tiers" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct scan_result, state), .word = bucket_state_name,
	  .doc = "the bucket state its latencies were measured in" },
	{ .type = REPORT_SCHEMA_OBJECT, .flags = REPORT_SCHEMA_INLINE,
	  AT(struct scan_result, tiers), .sub = &report_schema_tiers,
	  .doc = "the analysis of the points" },
	{ .name = "points", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct scan_result, points),
	  .count = offsetof(struct scan_result, npoints),
	  .sub = &report_schema_point, .doc = "the points, by growing ws; one "
	  "measured again follows its first" },
};
static const struct report_schema report_schema_scan =
    TABLE("scan", struct scan_result, report_schema_scan_keys, NULL, NULL);

static const struct report_schema_key report_schema_first_touch_keys[] = {
	{ .name = "detected", .type = REPORT_SCHEMA_BOOL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct first_touch, detected),
	  .doc = "first reads markedly slower than second ones" },
	{ .name = "blocks", .type = REPORT_SCHEMA_UINT,
	  AT(struct first_touch, blocks), .unit = "blocks",
	  .doc = "blocks read twice" },
	{ .name = "first_p50_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, first_p50_us), .unit = "us",
	  .doc = "median latency of first reads" },
	{ .name = "first_mean_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, first_mean_us), .unit = "us",
	  .doc = "mean latency of first reads" },
	{ .name = "second_p50_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, second_p50_us), .unit = "us",
	  .doc = "median latency of second reads" },
	{ .name = "second_mean_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, second_mean_us), .unit = "us",
	  .doc = "mean latency of second reads" },
	{ .name = "ratio", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, ratio), .unit = "ratio",
	  .doc = "first mean over second mean" },
	{ .name = "slower_fraction", .type = REPORT_SCHEMA_REAL,
	  AT(struct first_touch, slower_fraction), .unit = "ratio",
	  .doc = "blocks whose first read was slower" },
	{ .name = "changed", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct first_touch, changed), .word = report_schema_ft_changed,
	  .doc = "the two passes ran in two states of the volume, so they "
	  "compare states, not first reads: bucket (it ran dry between "
	  "them) or slower (second reads markedly slower); null if not" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct first_touch, state), .word = bucket_state_name,
	  .doc = "the bucket state both passes were measured in" },
};
static const struct report_schema report_schema_first_touch =
    TABLE("first_touch", struct first_touch, report_schema_first_touch_keys,
    NULL, report_schema_first_touch_loaded);

static const struct report_schema_key report_schema_burst_keys[] = {
	{ .name = "detected", .type = REPORT_SCHEMA_BOOL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct burst, detected),
	  .doc = "a burst rate fell to a baseline" },
	{ .name = "burst_iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct burst, burst_iops),
	  .shown = report_schema_burst_detected, .unit = "IOPS",
	  .doc = "rate before the drop" },
	{ .name = "burst_iops_at_least", .type = REPORT_SCHEMA_BOOL,
	  AT(struct burst, burst_at_least),
	  .shown = report_schema_burst_detected,
	  .doc = "no depth reached a ceiling before the drop: burst_iops "
	  "is a lower bound and duration_s an upper one" },
	{ .name = "baseline_iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct burst, baseline_iops),
	  .shown = report_schema_burst_detected, .unit = "IOPS",
	  .doc = "rate after the drop" },
	{ .name = "duration_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct burst, duration_s),
	  .shown = report_schema_burst_detected, .unit = "s",
	  .doc = "how long a full bucket lasts at the burst rate" },
	{ .name = "credits_ios", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct burst, credits_ios),
	  .shown = report_schema_burst_detected, .unit = "I/Os",
	  .doc = "the bucket's size" },
	{ .name = "observed_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, observed_s), .shown = report_schema_burst_detected,
	  .unit = "s", .doc = "burst seen in the sustained run" },
	{ .name = "drop_t_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, drop_t_s), .shown = report_schema_burst_detected,
	  .unit = "s", .doc = "time of the drop in the sustained run" },
	{ .name = "prior_credits_ios", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, prior_credits_ios),
	  .shown = report_schema_burst_detected, .unit = "I/Os",
	  .doc = "credits spent above the baseline before the run" },
	{ .name = "exhausted", .type = REPORT_SCHEMA_BOOL,
	  AT(struct burst, exhausted),
	  .doc = "the bucket was empty before the sustained run" },
	{ .name = "variable", .type = REPORT_SCHEMA_BOOL,
	  AT(struct burst, variable),
	  .doc = "the rate changed and recovered: no bucket" },
	{ .name = "drop_sweep_t_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, drop_sweep_t_s),
	  .shown = report_schema_burst_detected, .unit = "s",
	  .doc = "time of a drop during the sweeps, on their clock" },
	{ .name = "held_iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, held_iops), .unit = "IOPS",
	  .doc = "no drop: the rate the sustained run held" },
	{ .name = "held_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, held_s), .unit = "s",
	  .doc = "no drop: how long a drop would have shown" },
	{ .name = "ruled_out_below_ios", .type = REPORT_SCHEMA_REAL,
	  AT(struct burst, ruled_out_below_ios), .unit = "I/Os",
	  .doc = "no drop: the I/O a bucket had to supply to stay unseen" },
};
static const struct report_schema report_schema_burst =
    TABLE("burst", struct burst, report_schema_burst_keys, NULL, NULL);

static const struct report_schema_key report_schema_timeline_keys[] = {
	{ .name = "t_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct timeline_sample, t_s),
	  .unit = "s", .doc = "end of the interval, from the start" },
	{ .name = "iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct timeline_sample, iops),
	  .unit = "IOPS", .doc = "I/Os per second in the interval" },
	{ .name = "bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct timeline_sample, bytes_per_s), .unit = "bytes/s",
	  .doc = "throughput in the interval" },
	{ .name = "lat_us_mean", .type = REPORT_SCHEMA_REAL,
	  AT(struct timeline_sample, lat_us_mean), .unit = "us",
	  .doc = "mean latency in the interval" },
};
static const struct report_schema report_schema_timeline =
    TABLE("timeline", struct timeline_sample, report_schema_timeline_keys,
    NULL, NULL);

/* An interval of the sweeps: one of a timeline, and what was read. */
static const struct report_schema_key report_schema_sweep_sample_keys[] = {
	{ .type = REPORT_SCHEMA_OBJECT, .flags = REPORT_SCHEMA_INLINE,
	  .offset = 0, .size = sizeof(struct timeline_sample),
	  .sub = &report_schema_timeline,
	  .doc = "the keys of an interval of the sustained run" },
	{ .name = "dt_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct timeline_sample, dt_s), .unit = "s",
	  .doc = "length of the interval" },
	{ .name = "phase", .type = REPORT_SCHEMA_WORD,
	  AT(struct timeline_sample, phase), .word = report_schema_phase,
	  .doc = "iodepth, bs, first_touch, flush or accounting" },
	{ .name = "iodepth", .type = REPORT_SCHEMA_UINT,
	  AT(struct timeline_sample, iodepth), .unit = "I/Os",
	  .doc = "I/Os kept in flight" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT,
	  AT(struct timeline_sample, bs), .unit = "bytes",
	  .doc = "I/O size" },
};
static const struct report_schema report_schema_sweep_sample =
    TABLE("sweep_timeline", struct timeline_sample,
    report_schema_sweep_sample_keys, NULL, NULL);

static const struct report_schema_key report_schema_limits_keys[] = {
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, interrupted),
	  .doc = "the sweeps stopped early" },
	{ .name = "ws_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct limits_result, ws_bytes), .unit = "bytes",
	  .doc = "working set of the sweeps" },
	{ .name = "iops_ceiling", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct limits_result, iops_ceiling), .unit = "IOPS",
	  .doc = "most I/Os per second the volume sustains" },
	{ .name = "iops_ceiling_at_least", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, iops_ceiling_at_least),
	  .doc = "no cap within the sweep: iops_ceiling is a lower bound" },
	{ .name = "iops_ceiling_low", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, iops_ceiling_low), .unit = "IOPS",
	  .doc = "low end of the ceiling's 95% interval" },
	{ .name = "iops_ceiling_high", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, iops_ceiling_high), .unit = "IOPS",
	  .doc = "high end of it; null for a lower bound" },
	{ .name = "iodepth_sweep_stop", .type = REPORT_SCHEMA_WORD,
	  AT(struct limits_result, qd_stop), .word = report_schema_stop,
	  .doc = "why the iodepth sweep stopped" },
	{ .name = "cache_hit_share", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, cache_share), .unit = "ratio",
	  .doc = "share of the sweeps' reads the caches served, fitted" },
	{ .name = "iops_ceiling_corrected", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, iops_ceiling_corrected),
	  .doc = "iops_ceiling is the store's: measured x (1 - share)" },
	{ .name = "iops_knee_iodepth", .type = REPORT_SCHEMA_UINT_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct limits_result, iops_knee_iodepth), .unit = "I/Os",
	  .doc = "smallest queue depth reaching the ceiling" },
	{ .name = "iops_max_seen", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, iops_max_seen), .unit = "IOPS",
	  .doc = "highest IOPS of any point" },
	{ .name = "cpu_bound", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, cpu_bound),
	  .doc = "tierprobe's CPU, not the volume, limited the IOPS" },
	{ .name = "bandwidth_ceiling_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct limits_result, bandwidth_ceiling_bytes_per_s),
	  .unit = "bytes/s", .doc = "most bytes per second over the sizes" },
	{ .name = "bandwidth_ceiling_at_least", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, bandwidth_ceiling_at_least),
	  .doc = "still rising at the largest size: a lower bound" },
	{ .name = "bandwidth_ceiling_low_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, bandwidth_ceiling_low), .unit = "bytes/s",
	  .doc = "low end of the ceiling's 95% interval" },
	{ .name = "bandwidth_ceiling_high_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, bandwidth_ceiling_high), .unit = "bytes/s",
	  .doc = "high end of it; null for a lower bound" },
	{ .name = "bs_sweep_stop", .type = REPORT_SCHEMA_WORD,
	  AT(struct limits_result, bs_stop), .word = report_schema_stop,
	  .doc = "why the block-size sweep stopped" },
	{ .name = "io_accounting_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct limits_result, io_accounting_bytes), .unit = "bytes",
	  .doc = "I/O size in which the volume counts IOPS; null unless "
	  "measured" },
	{ .name = "io_accounting_why", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct limits_result, io_accounting_why),
	  .word = report_schema_acct_why,
	  .doc = "why io_accounting_bytes is null: hidden (no unit shows "
	  "at the sizes measured) or unit_or_cap (units of "
	  "io_accounting_candidate_bytes and a bandwidth cap give the same "
	  "rates); null when known or no size was measured" },
	{ .name = "io_accounting_candidate_bytes",
	  .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct limits_result, io_accounting_candidate), .unit = "bytes",
	  .doc = "with unit_or_cap, the unit it would be: IOPS flat up to it "
	  "and halving with each doubling after" },
	{ .name = "io_accounting_probe", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct limits_result, acct_probe), .sub = &report_schema_point,
	  .shown = report_schema_acct_probe_measured,
	  .doc = "the point at 1.5 candidate units that tells them apart" },
	{ .name = "iops_limit", .type = REPORT_SCHEMA_WORD,
	  AT(struct limits_result, iops_limit),
	  .word = report_schema_iops_limit, .doc = "what bounded the IOPS" },
	{ .name = "iops_max_seen_iodepth", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct limits_result, iops_max_seen_iodepth), .unit = "I/Os",
	  .doc = "depth of the highest IOPS" },
	{ .name = "cpu_util", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, cpu_util), .unit = "cores",
	  .doc = "tierprobe's CPU use on the plateau" },
	{ .name = "little_ratio", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, little_ratio), .unit = "ratio",
	  .doc = "IOPS times mean latency over depth" },
	{ .name = "lat0_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, lat0_us), .unit = "us",
	  .doc = "mean latency at the smallest depth" },
	{ .name = "bs_iodepth", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct limits_result, bs_iodepth), .unit = "I/Os",
	  .doc = "depth of the block-size sweep" },
	{ .name = "bandwidth_max_seen_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, bandwidth_max_seen), .unit = "bytes/s",
	  .doc = "highest bytes per second measured" },
	{ .name = "bandwidth_limit", .type = REPORT_SCHEMA_WORD,
	  AT(struct limits_result, bandwidth_limit),
	  .word = report_schema_bw_limit,
	  .doc = "what bounded the bandwidth" },
	{ .name = "optimal_io_bytes", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, optimal_io_bytes), .unit = "bytes",
	  .doc = "I/O size where both ceilings meet" },
	{ .name = "sustain_iodepth", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct limits_result, sustain_iodepth), .unit = "I/Os",
	  .doc = "depth of the sustained run" },
	{ .name = "sustain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, sustain_s), .unit = "s",
	  .doc = "length of the sustained run" },
	{ .name = "sustain_early", .type = REPORT_SCHEMA_BOOL,
	  AT(struct limits_result, sustain_early),
	  .doc = "the sustained run ended early: its rate held" },
	{ .name = "sustain_start_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, sustain_start_s), .unit = "s",
	  .doc = "when the sustained run began, on the sweeps' clock" },
	{ .name = "long_run_iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, long_run_iops), .unit = "IOPS",
	  .doc = "the rate a bucket fell to, when one ran dry" },
	{ .name = "baseline_bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct limits_result, baseline_bandwidth), .unit = "bytes/s",
	  .doc = "bytes per second after a bucket ran dry" },
	{ .name = "iops_ceiling_state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct limits_result, iops_state), .word = bucket_state_name,
	  .doc = "the bucket state of the points the IOPS ceiling came from" },
	{ .name = "bandwidth_ceiling_state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct limits_result, bandwidth_state),
	  .word = bucket_state_name,
	  .doc = "the same for the bandwidth ceiling" },
	{ .name = "sustain_state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct limits_result, sustain_state), .word = bucket_state_name,
	  .doc = "the bucket state of the sustained run as a whole: draining "
	  "when the drop fell in it" },
	{ .name = "long_run_state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct limits_result, long_run_state),
	  .word = bucket_state_name,
	  .doc = "the bucket state of long_run_iops and "
	  "baseline_bandwidth_bytes_per_s, or of the rate the run held "
	  "(burst.held_iops) when they are null" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct limits_result, note),
	  .doc = "what was skipped and why" },
	{ .name = "first_touch", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct limits_result, first_touch),
	  .sub = &report_schema_first_touch,
	  .shown = report_schema_first_touch_measured,
	  .doc = "first against second reads of the same blocks" },
	{ .name = "burst", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct limits_result, burst),
	  .sub = &report_schema_burst, .doc = "the burst bucket" },
	{ .name = "qd_points", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct limits_result, qd_points),
	  .count = offsetof(struct limits_result, nqd),
	  .sub = &report_schema_point, .doc = "the queue-depth sweep" },
	{ .name = "bs_points", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct limits_result, bs_points),
	  .count = offsetof(struct limits_result, nbs),
	  .sub = &report_schema_point, .doc = "the block-size sweep" },
	{ .name = "timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct limits_result, timeline.v),
	  .count = offsetof(struct limits_result, timeline.n),
	  .sub = &report_schema_timeline,
	  .doc = "the sustained run per interval" },
	{ .name = "sweep_timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER,
	  AT(struct limits_result, sweep_timeline.v),
	  .count = offsetof(struct limits_result, sweep_timeline.n),
	  .sub = &report_schema_sweep_sample,
	  .doc = "the work before the sustained run per interval" },
};
static const struct report_schema report_schema_limits =
    TABLE("limits", struct limits_result, report_schema_limits_keys, NULL,
    report_schema_limits_loaded);

static const struct report_schema_key report_schema_per_target_keys[] = {
	{ .name = "path", .type = REPORT_SCHEMA_STRING_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  .offset = offsetof(struct together_target, path), .size = 4096,
	  .doc = "the target, as targets[].target.path" },
	{ .name = "iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct together_target, iops),
	  .unit = "IOPS", .doc = "its IOPS in the IOPS run together" },
	{ .name = "bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct together_target, bandwidth_bytes_per_s),
	  .unit = "bytes/s", .doc = "its bandwidth in the bandwidth run" },
	{ .name = "alone_iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct together_target, alone_iops), .unit = "IOPS",
	  .doc = "its IOPS ceiling alone (or the most it reached)" },
	{ .name = "alone_bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct together_target, alone_bandwidth_bytes_per_s),
	  .unit = "bytes/s", .doc = "its bandwidth ceiling alone" },
	{ .name = "timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct together_target, timeline.v),
	  .count = offsetof(struct together_target, timeline.n),
	  .sub = &report_schema_timeline, .doc = "its IOPS run per interval" },
	{ .name = "bandwidth_timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER,
	  AT(struct together_target, bandwidth_timeline.v),
	  .count = offsetof(struct together_target, bandwidth_timeline.n),
	  .sub = &report_schema_timeline,
	  .doc = "its bandwidth run per interval" },
};
static const struct report_schema report_schema_per_target =
    TABLE("per_target", struct together_target,
    report_schema_per_target_keys, NULL, report_schema_per_target_loaded);

#define TR(member)	AT(struct together_result, member)
static const struct report_schema_key report_schema_together_keys[] = {
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  TR(interrupted), .doc = "the runs together stopped early" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT, TR(bs), .unit = "bytes",
	  .doc = "I/O size of the IOPS run" },
	{ .name = "iodepth", .type = REPORT_SCHEMA_UINT, TR(iodepth),
	  .unit = "I/Os", .doc = "I/Os in flight on each target in it" },
	{ .name = "seconds", .type = REPORT_SCHEMA_REAL, TR(seconds),
	  .unit = "s", .doc = "length of the IOPS run" },
	{ .name = "bandwidth_bs", .type = REPORT_SCHEMA_UINT,
	  TR(bandwidth_bs), .unit = "bytes",
	  .doc = "I/O size of the bandwidth run" },
	{ .name = "bandwidth_iodepth", .type = REPORT_SCHEMA_UINT,
	  TR(bandwidth_iodepth), .unit = "I/Os",
	  .doc = "I/Os in flight on each target in it" },
	{ .name = "bandwidth_seconds", .type = REPORT_SCHEMA_REAL,
	  TR(bandwidth_seconds), .unit = "s",
	  .doc = "length of the bandwidth run" },
	{ .name = "iops_ceiling", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(iops.ceiling), .unit = "IOPS",
	  .doc = "the sum of the targets' IOPS together" },
	{ .name = "bandwidth_ceiling_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(bandwidth.ceiling),
	  .unit = "bytes/s", .doc = "the sum of their bandwidth together" },
	{ .name = "sum_alone_iops", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(iops.sum_alone), .unit = "IOPS",
	  .doc = "the sum of their IOPS ceilings alone" },
	{ .name = "sum_alone_bandwidth_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL, .flags = REPORT_SCHEMA_REQUIRED,
	  TR(bandwidth.sum_alone), .unit = "bytes/s",
	  .doc = "the sum of their bandwidth ceilings alone" },
	{ .name = "iops_ratio", .type = REPORT_SCHEMA_REAL, TR(iops.ratio),
	  .unit = "ratio", .doc = "iops_ceiling over sum_alone_iops" },
	{ .name = "bandwidth_ratio", .type = REPORT_SCHEMA_REAL,
	  TR(bandwidth.ratio), .unit = "ratio",
	  .doc = "the same for bandwidth" },
	{ .name = "iops_bound", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(iops.bound),
	  .word = report_schema_bound,
	  .doc = "volumes, shared, or null: what bounds the IOPS together" },
	{ .name = "bandwidth_bound", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(bandwidth.bound),
	  .word = report_schema_bound,
	  .doc = "the same for bandwidth" },
	{ .name = "iops_why", .type = REPORT_SCHEMA_STRING_NULL,
	  TR(iops.why), .doc = "why iops_bound is null" },
	{ .name = "bandwidth_why", .type = REPORT_SCHEMA_STRING_NULL,
	  TR(bandwidth.why), .doc = "why bandwidth_bound is null" },
	{ .name = "shared_iops_limit", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(iops.shared), .unit = "IOPS",
	  .doc = "the shared limit, when iops_bound is shared" },
	{ .name = "shared_iops_limit_low", .type = REPORT_SCHEMA_REAL,
	  TR(iops.shared_low), .unit = "IOPS",
	  .doc = "low end of its 95% interval" },
	{ .name = "shared_iops_limit_high", .type = REPORT_SCHEMA_REAL,
	  TR(iops.shared_high), .unit = "IOPS",
	  .doc = "high end of its 95% interval" },
	{ .name = "shared_bandwidth_limit_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL, .flags = REPORT_SCHEMA_REQUIRED,
	  TR(bandwidth.shared), .unit = "bytes/s",
	  .doc = "the shared limit, when bandwidth_bound is shared" },
	{ .name = "shared_bandwidth_limit_low_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL, TR(bandwidth.shared_low),
	  .unit = "bytes/s", .doc = "low end of its 95% interval" },
	{ .name = "shared_bandwidth_limit_high_bytes_per_s",
	  .type = REPORT_SCHEMA_REAL, TR(bandwidth.shared_high),
	  .unit = "bytes/s", .doc = "high end of its 95% interval" },
	{ .name = "cpu_bound", .type = REPORT_SCHEMA_BOOL, TR(cpu_bound),
	  .doc = "tierprobe's CPU held the sum down" },
	{ .name = "cpu_util", .type = REPORT_SCHEMA_REAL, TR(cpu_util),
	  .unit = "cores",
	  .doc = "tierprobe's CPU use (and wait for one) in the IOPS run" },
	{ .name = "bandwidth_cpu_util", .type = REPORT_SCHEMA_REAL,
	  TR(bandwidth_cpu_util), .unit = "cores",
	  .doc = "the same in the bandwidth run" },
	{ .name = "burst", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, TR(burst),
	  .sub = &report_schema_burst,
	  .doc = "a bucket on the aggregate of the IOPS run" },
	{ .name = "burst_shared", .type = REPORT_SCHEMA_BOOL_NULL,
	  TR(burst_shared),
	  .doc = "the drop showed on the aggregate and no target alone" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED, TR(state),
	  .word = bucket_state_name,
	  .doc = "the bucket state of the IOPS run's figures (before its "
	  "drop, when it had one)" },
	{ .name = "bandwidth_state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  TR(bandwidth_state), .word = bucket_state_name,
	  .doc = "the bucket state of the bandwidth run" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL, TR(note),
	  .doc = "what was skipped and why" },
	{ .name = "per_target", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  TR(per_target), .count = offsetof(struct together_result, ntargets),
	  .sub = &report_schema_per_target,
	  .doc = "each target driven together, in the order of targets[]" },
	{ .name = "timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  TR(timeline.v), .count = offsetof(struct together_result, timeline.n),
	  .sub = &report_schema_timeline,
	  .doc = "the sum of the IOPS run per interval" },
	{ .name = "bandwidth_timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER, TR(bandwidth_timeline.v),
	  .count = offsetof(struct together_result, bandwidth_timeline.n),
	  .sub = &report_schema_timeline,
	  .doc = "the sum of the bandwidth run per interval" },
};
#undef TR
static const struct report_schema report_schema_together =
    TABLE("together", struct together_result, report_schema_together_keys,
    NULL, report_schema_together_loaded);
/* The fastest method by name, null when none was measured. */
static json_t *
report_schema_best_get(const void *sync)
{
	const struct sync_result	*r = sync;
	const char			*w = sync_method_name(r->best_method);

	return (w != NULL ? json_string(w) : json_null());
}

static int
report_schema_best_set(const json_t *v, void *sync, const char *key,
    char **cause)
{
	struct sync_result	*r = sync;
	const char		*w;
	int			 m;

	r->best_method = -1;
	if (json_is_null(v))
		return (0);
	if (json_is_string(v)) {
		for (m = 0; (w = sync_method_name(m)) != NULL; m++) {
			if (strcmp(w, json_string_value(v)) == 0) {
				r->best_method = m;
				return (0);
			}
		}
	}
	xasprintf(cause, "%s: expected a method name or null", key);
	return (-1);
}

/* PostgreSQL's fastest wal_sync_method (peers.c), null when none. */
static json_t *
report_schema_pg_get(const void *sync)
{
	struct peers_pg	 p;

	peers_pg(sync, &p);
	return (p.row != NULL ? json_string(peers_pg_name(p.method)) :
	    json_null());
}

/* A derived method name: checked, then derived again from the rows. */
static int
report_schema_pg_set(const json_t *v, void *sync, const char *key,
    char **cause)
{
	const char	*w;
	int		 m;

	(void)sync;
	if (json_is_null(v))
		return (0);
	for (m = 0; json_is_string(v) && (w = peers_pg_name(m)) != NULL; m++)
		if (strcmp(w, json_string_value(v)) == 0)
			return (0);
	xasprintf(cause, "%s: expected a wal_sync_method or null", key);
	return (-1);
}

/* Whether etcd's bar is met (peers.c), null when not measured. */
static json_t *
report_schema_etcd_get(const void *sync)
{
	struct peers_etcd	 e;

	peers_etcd(sync, &e);
	return (e.met < 0 ? json_null() : json_boolean(e.met));
}

/* A derived boolean: checked, then derived again from the rows. */
static int
report_schema_etcd_set(const json_t *v, void *sync, const char *key,
    char **cause)
{
	(void)sync;
	if (json_is_null(v) || json_is_boolean(v))
		return (0);
	xasprintf(cause, "%s: expected true, false or null", key);
	return (-1);
}

static const struct report_schema_key report_schema_commit_keys[] = {
	{ .name = "method", .type = REPORT_SCHEMA_WORD,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct commit_point, method),
	  .word = sync_method_name,
	  .doc = "fdatasync, fsync, dsync, direct-dsync or uring-datasync" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct commit_point, bs),
	  .unit = "bytes", .doc = "bytes written per commit" },
	{ .name = "writers", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct commit_point, writers),
	  .unit = "writers", .doc = "writers committing at once" },
	{ .name = "shared", .type = REPORT_SCHEMA_BOOL,
	  AT(struct commit_point, shared),
	  .doc = "the writers append to one shared log" },
	{ .name = "ops_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct commit_point, pt.iops),
	  .unit = "ops/s", .doc = "commits per second, all writers" },
	{ .name = "lat_us", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct commit_point, pt.lat_us),
	  .sub = &report_schema_lat, .doc = "latency of one commit" },
	{ .name = "ci95_rel", .type = REPORT_SCHEMA_REAL,
	  AT(struct commit_point, pt.ci95_rel), .unit = "ratio",
	  .doc = "95% CI half-width of the mean latency over the mean" },
	{ .name = "commits", .type = REPORT_SCHEMA_UINT,
	  AT(struct commit_point, pt.ios), .unit = "commits",
	  .doc = "commits measured, after the warm-up" },
	{ .name = "seconds", .type = REPORT_SCHEMA_REAL,
	  AT(struct commit_point, pt.seconds), .unit = "s",
	  .doc = "time measured" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct commit_point, pt.state), .word = bucket_state_name,
	  .doc = "the bucket state it was measured in" },
};
static const struct report_schema report_schema_commit =
    TABLE("commit", struct commit_point, report_schema_commit_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_sync_keys[] = {
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  AT(struct sync_result, interrupted),
	  .doc = "the commits stopped early" },
	{ .name = "best_method", .type = REPORT_SCHEMA_WORD,
	  .flags = REPORT_SCHEMA_REQUIRED, .word = sync_method_name,
	  .get = report_schema_best_get, .set = report_schema_best_set,
	  .doc = "the method with most commits per second at one writer" },
	{ .name = "best_bs", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct sync_result, best_bs), .unit = "bytes",
	  .doc = "the commit size it was chosen at" },
	{ .name = "postgresql_wal_sync_method", .type = REPORT_SCHEMA_WORD,
	  .flags = REPORT_SCHEMA_DERIVED, .word = peers_pg_name,
	  .get = report_schema_pg_get, .set = report_schema_pg_set,
	  .doc = "PostgreSQL's fastest wal_sync_method at 8 KiB and one "
	  "writer: open_datasync (dsync), fdatasync or fsync; null when "
	  "none was measured" },
	{ .name = "etcd_met", .type = REPORT_SCHEMA_BOOL_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  .get = report_schema_etcd_get, .set = report_schema_etcd_set,
	  .doc = "p99 of fdatasync at one writer and 2300 bytes under "
	  "etcd's documented 10 ms; null when not measured" },
	{ .name = "flush_us", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct sync_result, flush.flush_us), .unit = "us",
	  .doc = "what O_DSYNC adds to an O_DIRECT write: a flush; the "
	  "paced pair's when flush_queued" },
	{ .name = "write_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.write_us), .unit = "us",
	  .doc = "median of a plain O_DIRECT write" },
	{ .name = "dsync_write_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.dsync_write_us), .unit = "us",
	  .doc = "median of an O_DIRECT|O_DSYNC write" },
	{ .name = "paced_write_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.paced_write_us), .unit = "us",
	  .doc = "median of a plain O_DIRECT write one at a time, paced at "
	  "a quarter of the rate of write_us; null unless the flush looked "
	  "cheap" },
	{ .name = "paced_dsync_write_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.paced_dsync_write_us), .unit = "us",
	  .doc = "median of an O_DIRECT|O_DSYNC write so paced" },
	{ .name = "flush_queued", .type = REPORT_SCHEMA_BOOL_NULL,
	  AT(struct sync_result, flush.queued),
	  .doc = "writes back to back waited for a rate cap (write_us 1.2 "
	  "times paced_write_us or more), which hides a flush; null when "
	  "no paced pair was measured" },
	{ .name = "fdatasync_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.fdatasync_us), .unit = "us",
	  .doc = "median of a write then fdatasync" },
	{ .name = "empty_fdatasync_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, flush.empty_fdatasync_us), .unit = "us",
	  .doc = "median of an fdatasync with nothing written" },
	{ .name = "write_cache", .type = REPORT_SCHEMA_STRING_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct sync_result, write_cache),
	  .doc = "the device's sysfs queue/write_cache" },
	{ .name = "fua", .type = REPORT_SCHEMA_BOOL_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct sync_result, fua),
	  .doc = "the device's sysfs queue/fua" },
	{ .name = "flush_suspect", .type = REPORT_SCHEMA_BOOL_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct sync_result, flush.suspect),
	  .doc = "a write-back cache whose flush costs under a tenth of a "
	  "write that waited for no rate cap; null when timing cannot "
	  "tell" },
	{ .name = "files", .type = REPORT_SCHEMA_BOOL,
	  AT(struct sync_result, files),
	  .doc = "writers had files of their own, not parts of a device" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct sync_result, note),
	  .doc = "what was skipped and why" },
	{ .name = "device_time_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct sync_result, seconds), .unit = "s",
	  .doc = "device time the commits spent, warm-ups and the flush "
	  "evidence included" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct sync_result, state), .word = bucket_state_name,
	  .doc = "the bucket state the commits were measured in" },
	{ .name = "methods", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct sync_result, rows),
	  .count = offsetof(struct sync_result, nrows),
	  .sub = &report_schema_commit,
	  .doc = "one per method, size and count of writers" },
	{ .name = "again", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct sync_result, again), .sub = &report_schema_commit,
	  .shown = report_schema_again_measured,
	  .doc = "best_method at best_bs and one writer measured again after "
	  "the writers: well below its first rate, a bucket ran dry among "
	  "the commits (their states say where)" },
};
static const struct report_schema report_schema_sync =
    TABLE("sync", struct sync_result, report_schema_sync_keys, NULL, NULL);

static int
report_schema_mixed_measured(const void *writes)
{
	const struct writes_result	*w = writes;

	return (w->mixed.ios > 0);
}

static void
report_schema_writes_loaded(void *writes)
{
	struct writes_result	*w = writes;

	w->timeline.cap = w->timeline.n;
	w->refill.cap = w->refill.n;
}

static const struct report_schema_key report_schema_writes_keys[] = {
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  AT(struct writes_result, interrupted),
	  .doc = "the write runs stopped early" },
	{ .name = "buffer_detected", .type = REPORT_SCHEMA_BOOL,
	  AT(struct writes_result, buffer.detected),
	  .doc = "sequential writes fell from a fast rate to a slow one" },
	{ .name = "buffer_bytes", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct writes_result, buffer.bytes), .unit = "bytes",
	  .doc = "bytes the fast rate took above the slow one: the buffer" },
	{ .name = "buffer_low_bytes", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct writes_result, buffer.low_bytes), .unit = "bytes",
	  .doc = "low end of its 95% interval" },
	{ .name = "buffer_high_bytes", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct writes_result, buffer.high_bytes), .unit = "bytes",
	  .doc = "high end of its 95% interval" },
	{ .name = "fast_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct writes_result, buffer.fast_bytes_per_s),
	  .unit = "bytes/s", .doc = "the rate into the buffer" },
	{ .name = "slow_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED,
	  AT(struct writes_result, buffer.slow_bytes_per_s),
	  .unit = "bytes/s", .doc = "the rate once it is full" },
	{ .name = "seq_low_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, seq_low_bytes_per_s),
	  .unit = "bytes/s", .doc = "95% interval of the sequential run's "
	  "mean rate when no buffer showed (null with under 4 intervals)" },
	{ .name = "seq_high_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, seq_high_bytes_per_s),
	  .unit = "bytes/s", .doc = "its upper end" },
	{ .name = "seq_early", .type = REPORT_SCHEMA_BOOL,
	  AT(struct writes_result, seq_early),
	  .doc = "the sequential run ended before its length: its rate "
	  "held or was known to the quick preset's precision" },
	{ .name = "buffer_fill_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, buffer.fill_s), .unit = "s",
	  .doc = "when the rate fell" },
	{ .name = "fast_at_least", .type = REPORT_SCHEMA_BOOL,
	  AT(struct writes_result, buffer.fast_at_least),
	  .doc = "filled within an interval: the fast rate is a lower bound" },
	{ .name = "idle_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, buffer.idle_s), .unit = "s",
	  .doc = "the pause before the second run" },
	{ .name = "refilled_bytes", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, buffer.refilled_bytes), .unit = "bytes",
	  .doc = "buffer found again after the pause: what drained" },
	{ .name = "drain_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, buffer.drain_bytes_per_s),
	  .unit = "bytes/s", .doc = "how fast it drained while idle" },
	{ .name = "drain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, buffer.drain_s), .unit = "s",
	  .doc = "time to empty a full buffer while idle" },
	{ .name = "drain_at_most", .type = REPORT_SCHEMA_BOOL,
	  AT(struct writes_result, buffer.drain_at_most),
	  .doc = "the buffer was whole again: drain_s is an upper bound" },
	{ .name = "seq_bs", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct writes_result, seq_bs), .unit = "bytes",
	  .doc = "I/O size of the sequential runs" },
	{ .name = "seq_iodepth", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct writes_result, seq_iodepth), .unit = "I/Os",
	  .doc = "their depth" },
	{ .name = "interval_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, interval_s), .unit = "s",
	  .doc = "the timelines' step" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct writes_result, note),
	  .doc = "what was skipped and why" },
	{ .name = "timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  AT(struct writes_result, timeline.v),
	  .count = offsetof(struct writes_result, timeline.n),
	  .sub = &report_schema_timeline,
	  .doc = "the sequential run per interval" },
	{ .name = "refill_timeline", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER,
	  AT(struct writes_result, refill.v),
	  .count = offsetof(struct writes_result, refill.n),
	  .sub = &report_schema_timeline,
	  .doc = "the run after the pause per interval" },
	{ .name = "mixed", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct writes_result, mixed), .sub = &report_schema_point,
	  .shown = report_schema_mixed_measured,
	  .doc = "random reads and writes mixed at the knee" },
	{ .name = "mixed_read_fraction", .type = REPORT_SCHEMA_REAL,
	  AT(struct writes_result, mixed_read_fraction), .unit = "ratio",
	  .doc = "the share of reads in it" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct writes_result, state), .word = bucket_state_name,
	  .doc = "the bucket state of the sequential runs" },
	{ .name = "limits", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct writes_result, limits),
	  .sub = &report_schema_limits, .doc = "the write sweeps" },
};
static const struct report_schema report_schema_writes =
    TABLE("writes", struct writes_result, report_schema_writes_keys, NULL,
    report_schema_writes_loaded);

static const struct report_schema_key report_schema_stat_keys[] = {
	{ .name = "name", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_stat, name),
	  .doc = "the key of the figure" },
	{ .name = "n", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_stat, n),
	  .unit = "runs", .doc = "runs that established it" },
	{ .name = "mean", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_stat, mean),
	  .doc = "mean over the runs, in the figure's unit" },
	{ .name = "sd", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_stat, sd),
	  .doc = "sample standard deviation" },
	{ .name = "cv", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_stat, cv),
	  .unit = "ratio", .doc = "coefficient of variation, sd/mean" },
	{ .name = "trend", .type = REPORT_SCHEMA_WORD,
	  AT(struct report_stat, trend), .word = report_trend_name,
	  .doc = "none, falling or rising run after run" },
	{ .name = "bound", .type = REPORT_SCHEMA_WORD,
	  AT(struct report_stat, bound), .word = report_bound_name,
	  .doc = "none, or at_most or at_least: the runs gave only bounds" },
	{ .name = "state", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct report_stat, state), .word = bucket_state_name,
	  .doc = "the bucket state of the runs, merged" },
	{ .name = "runs", .type = REPORT_SCHEMA_ARRAY,
	  .get = report_schema_runs_get, .set = report_schema_runs_set,
	  .doc = "the figure in each run, null where unknown" },
	{ .name = "run_bounds", .type = REPORT_SCHEMA_ARRAY,
	  .get = report_schema_run_bounds_get,
	  .set = report_schema_run_bounds_set,
	  .doc = "per run: none, or the kind of bound its value is" },
};
static const struct report_schema report_schema_stat =
    TABLE("figure", struct report_stat, report_schema_stat_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_repeat_keys[] = {
	{ .name = "runs", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_repeat, runs),
	  .unit = "runs", .doc = "how many runs" },
	{ .name = "figures", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_repeat, stat),
	  .count = offsetof(struct report_repeat, nstats),
	  .max = REPORT_STATS_MAX, .sub = &report_schema_stat,
	  .doc = "one per headline figure" },
	{ .name = "reason", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_repeat, reason),
	  .doc = "why figures moved run after run" },
};
static const struct report_schema report_schema_repeat =
    TABLE("repeat", struct report_repeat, report_schema_repeat_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_tool_keys[] = {
	{ .name = "name", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_CONST,
	  .get = report_schema_name_get, .set = report_schema_name_set,
	  .doc = "always tierprobe" },
	{ .name = "version", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report, tool_version),
	  .doc = "the version that wrote the report" },
};
static const struct report_schema report_schema_tool =
    TABLE("tool", struct report, report_schema_tool_keys, NULL, NULL);

static const struct report_schema_key report_schema_config_keys[] = {
	{ .name = "command", .type = REPORT_SCHEMA_STRING,
	  AT(struct report_config, command),
	  .doc = "the sub-command: run, scan or limits" },
	{ .name = "engine", .type = REPORT_SCHEMA_STRING,
	  AT(struct report_config, engine),
	  .doc = "the I/O engine asked for" },
	{ .name = "direct", .type = REPORT_SCHEMA_BOOL, .dflt = 1,
	  AT(struct report_config, direct),
	  .doc = "O_DIRECT, false with --buffered" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, bs), .unit = "bytes",
	  .doc = "I/O size of the scan" },
	{ .name = "iodepth", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, iodepth), .unit = "I/Os",
	  .doc = "I/Os in flight of the scan" },
	{ .name = "seed", .type = REPORT_SCHEMA_UINT,
	  .get = report_schema_seed_get, .set = report_schema_seed_set,
	  .doc = "the random seed; from 2^63 a decimal string" },
	{ .name = "min_ws_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, min_ws), .unit = "bytes",
	  .doc = "smallest working set scanned" },
	{ .name = "max_ws_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, max_ws), .unit = "bytes",
	  .doc = "largest working set scanned" },
	{ .name = "step_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, step), .unit = "bytes",
	  .doc = "step of a linear grid, or 0" },
	{ .name = "points", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, points), .unit = "points",
	  .doc = "points of a logarithmic grid" },
	{ .name = "precision", .type = REPORT_SCHEMA_REAL,
	  AT(struct report_config, precision), .unit = "ratio",
	  .doc = "95% CI half-width each point aimed for" },
	{ .name = "max_time_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct report_config, max_time_s), .unit = "s",
	  .doc = "most device time per point" },
	{ .name = "budget_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct report_config, budget_s), .unit = "s",
	  .doc = "most device time of the scan, 0 for no limit" },
	{ .name = "ws_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, ws), .unit = "bytes",
	  .doc = "working set of the limits sweeps, 0 for automatic" },
	{ .name = "max_iodepth", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_config, max_iodepth), .unit = "I/Os",
	  .doc = "deepest queue tried" },
	{ .name = "sustain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct report_config, sustain_s), .unit = "s",
	  .doc = "length of the sustained run asked for" },
	{ .name = "rw", .type = REPORT_SCHEMA_WORD,
	  AT(struct report_config, write), .word = report_schema_rw,
	  .doc = "read or write" },
	{ .name = "type", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_config, type),
	  .doc = "the volume type given (--type), with its settings" },
	{ .name = "volume_size_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_config, volume_size), .unit = "bytes",
	  .doc = "the volume's size given (--size)" },
	{ .name = "quick_cuts", .type = REPORT_SCHEMA_ARRAY,
	  .get = report_schema_cuts_get, .set = report_schema_cuts_set,
	  .doc = "what the quick preset left out or cut short, as words; "
	  "empty for a full run" },
};
static const struct report_schema report_schema_config =
    TABLE("config", struct report_config, report_schema_config_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_target_keys[] = {
	{ .name = "path", .type = REPORT_SCHEMA_STRING_NULL,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_POINTER,
	  .offset = offsetof(struct report_target, path), .size = 4096,
	  .doc = "the file, block device or sim:NAME measured" },
	{ .name = "type", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_target, type),
	  .doc = "file, blockdev or sim" },
	{ .name = "direct", .type = REPORT_SCHEMA_BOOL, .dflt = 1,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_target, direct),
	  .doc = "O_DIRECT as used" },
	{ .name = "engine", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_target, engine),
	  .doc = "the I/O engine used" },
	{ .name = "bs", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_target, bs),
	  .unit = "bytes", .doc = "I/O size used" },
	{ .name = "size_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_target, size_bytes), .unit = "bytes",
	  .doc = "size of the file or device" },
	{ .name = "instance", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_target, instance),
	  .doc = "the simulated instance a simulated volume is on" },
	{ .name = "profile", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_target, profile),
	  .doc = "a simulated volume's profile name" },
};
static const struct report_schema report_schema_target =
    TABLE("target", struct report_target, report_schema_target_keys, NULL,
    NULL);

static const struct report_schema_key report_schema_context_keys[] = {
	{ .name = "hostname", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, hostname), .doc = "from uname(2)" },
	{ .name = "kernel", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, kernel), .doc = "release, from uname(2)" },
	{ .name = "device", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, device),
	  .doc = "the block device under the target" },
	{ .name = "device_model", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, device_model),
	  .doc = "its model, from sysfs" },
	{ .name = "device_size_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_context, device_size_bytes), .unit = "bytes",
	  .doc = "its size, from sysfs: the whole disk, under a file's "
	  "filesystem or a partition" },
	{ .name = "scheduler", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, scheduler),
	  .doc = "its I/O scheduler" },
	{ .name = "rotational", .type = REPORT_SCHEMA_BOOL_NULL,
	  AT(struct report_context, rotational),
	  .doc = "the disk spins" },
	{ .name = "nr_requests", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_context, nr_requests), .unit = "requests",
	  .doc = "its queue's size" },
	{ .name = "read_ahead_kb", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_context, read_ahead_kb),
	  .shown = report_schema_device_known, .unit = "KiB",
	  .doc = "its read-ahead" },
	{ .name = "logical_block_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_context, logical_block), .unit = "bytes",
	  .doc = "its logical block size" },
	{ .name = "physical_block_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct report_context, physical_block), .unit = "bytes",
	  .doc = "its physical block size" },
	{ .name = "fstype", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, fstype),
	  .doc = "the filesystem holding the target" },
	{ .name = "mount_options", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_context, mount_options),
	  .doc = "its mount options" },
};
static const struct report_schema report_schema_context =
    TABLE("context", struct report_context, report_schema_context_keys,
    NULL, NULL);

static const struct report_schema_key report_schema_labels_keys[] = {
	{ .name = "host", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_labels, host),
	  .doc = "the host name fleets show (--host)" },
	{ .name = "kind", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report_labels, kind),
	  .doc = "the kind fleets compare it with (--kind)" },
};
static const struct report_schema report_schema_labels =
    TABLE("labels", struct report_labels, report_schema_labels_keys, NULL,
    NULL);

static const char *
report_schema_instance_from(int from)
{
	return (instance_from_word(from));
}

static const struct report_schema_key report_schema_instance_keys[] = {
	{ .name = "name", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct instance_limits, name),
	  .doc = "the instance type, as m5.large" },
	{ .name = "from", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct instance_limits, from),
	  .word = report_schema_instance_from,
	  .doc = "where it was learnt: option (--instance TYPE), file "
	  "(--instance FILE), dmi (the machine's DMI identity) or sim (a "
	  "sim: target's @INSTANCE)" },
	{ .name = "iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, iops), .unit = "IOPS",
	  .doc = "IOPS (16 KiB I/O) it sustains for all its EBS volumes" },
	{ .name = "bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, bandwidth), .unit = "bytes/s",
	  .doc = "throughput it sustains for all its EBS volumes" },
	{ .name = "burst_iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, burst_iops), .unit = "IOPS",
	  .doc = "IOPS of its burst; null when it does not burst" },
	{ .name = "burst_bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, burst_bandwidth), .unit = "bytes/s",
	  .doc = "throughput of its burst; null when it does not burst" },
	{ .name = "burst_duration_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, burst_s), .unit = "s",
	  .doc = "how long its burst lasts from full" },
	{ .name = "burst_period_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct instance_limits, burst_period_s), .unit = "s",
	  .doc = "its burst is available at least once in this time" },
	{ .name = "source", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct instance_limits, source),
	  .doc = "where the figures are documented" },
	{ .name = "why", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct instance_limits, why),
	  .doc = "when none is known (from null), why" },
};
static const struct report_schema report_schema_instance =
    TABLE("instance", struct instance_limits, report_schema_instance_keys,
    NULL, NULL);

/* The expectations, judged against the whole report as it is written. */
static json_t *
report_schema_expectations_get(const void *r)
{
	const struct report	*rep = r;

	return (report_check_json(rep, rep->checks));
}

static int
report_schema_expectations_set(const json_t *v, void *r, const char *key,
    char **cause)
{
	struct report	*rep = r;
	char		*why;

	check_list_free(rep->checks);
	if (report_check_load(v, &rep->checks, &why) == 0)
		return (0);
	xasprintf(cause, "%s: %s", key, why);
	free(why);
	return (-1);
}
/* A type's bucket: null for none. */
static const char *
report_schema_bucket(int b)
{
	static const char *const words[] = {
		[VOLTYPE_BUCKET_NONE] = NULL,
		[VOLTYPE_BUCKET_IOPS] = "iops",
		[VOLTYPE_BUCKET_BANDWIDTH] = "bandwidth",
	};

	return (b >= 0 && b <= VOLTYPE_BUCKET_BANDWIDTH ? words[b] : NULL);
}

/* What sets a type's long-run figure, as JSON says it. */
static const char *
report_schema_limit(int l)
{
	static const char *const words[] = {
		[VOLTYPE_LIMIT_NONE] = NULL,
		[VOLTYPE_LIMIT_VOLUME] = "volume",
		[VOLTYPE_LIMIT_CHARGE] = "charge",
		[VOLTYPE_LIMIT_INSTANCE] = "instance",
	};

	return (l >= 0 && l <= VOLTYPE_LIMIT_INSTANCE ? words[l] : NULL);
}

static int
report_schema_type_given(const void *judgement)
{
	const struct voltype_judgement	*j = judgement;

	return (j->given);
}

/* A file with --type's judgement says so by having it. */
static void
report_schema_voltypes_loaded(void *judgement)
{
	struct voltype_judgement	*j = judgement;

	j->given = j->given_result.name[0] != '\0';
}

static const struct report_schema_key report_schema_voltype_keys[] = {
	{ .name = "name", .type = REPORT_SCHEMA_STRING,
	  AT(struct voltype_result, name),
	  .doc = "the type, as its file names it (gp2, io1, ...)" },
	{ .name = "settings", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_result, settings),
	  .doc = "the provisioned settings judged: those that fit best, or "
	  "--type's; null for a type without settings" },
	{ .name = "consistent", .type = REPORT_SCHEMA_BOOL_NULL,
	  AT(struct voltype_result, consistent),
	  .doc = "what was measured fits the type; null when not judged" },
	{ .name = "ruled_out_by", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_result, ruled_out_by),
	  .doc = "the figure that rules it out, or why it was not judged" },
	{ .name = "caveat", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_result, caveat),
	  .doc = "consistent, but: a figure below the type's within its "
	  "tolerance, or an instance's limit" },
	{ .name = "iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, iops), .unit = "IOPS",
	  .doc = "documented IOPS while its buckets are full" },
	{ .name = "bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, bandwidth), .unit = "bytes/s",
	  .doc = "documented bandwidth while its buckets are full" },
	{ .name = "long_run_iops", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, long_run_iops), .unit = "IOPS",
	  .doc = "documented IOPS once its buckets are empty; null: none "
	  "imposed" },
	{ .name = "long_run_bandwidth_bytes_per_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, long_run_bandwidth), .unit = "bytes/s",
	  .doc = "the same for bandwidth" },
	{ .name = "long_run_iops_limit", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct voltype_result, long_run_iops_by),
	  .word = report_schema_limit,
	  .doc = "what sets long_run_iops: volume, charge (1 MiB per I/O), "
	  "instance; null: none" },
	{ .name = "long_run_bandwidth_limit", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct voltype_result, long_run_bandwidth_by),
	  .word = report_schema_limit,
	  .doc = "the same for long_run_bandwidth_bytes_per_s" },
	{ .name = "drain_limit", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct voltype_result, drain_by), .word = report_schema_limit,
	  .doc = "whose bucket runs dry last in drain_s: volume, charge, "
	  "instance; null: none" },
	{ .name = "bandwidth_drain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, bandwidth_drain_s), .unit = "s",
	  .doc = "how long large I/O takes from full to the long run" },
	{ .name = "bucket", .type = REPORT_SCHEMA_WORD_NULL,
	  AT(struct voltype_result, bucket), .word = report_schema_bucket,
	  .doc = "iops, bandwidth, or null for none" },
	{ .name = "drain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, drain_s), .unit = "s",
	  .doc = "how long its bucket lasts from full at the rate measured" },
	{ .name = "settle_sustain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_result, settle_sustain_s), .unit = "s",
	  .doc = "a sustained run that would see it run dry" },
	{ .name = "settle_options", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_result, settle),
	  .doc = "the options of that run" },
	{ .name = "source", .type = REPORT_SCHEMA_STRING,
	  AT(struct voltype_result, source),
	  .doc = "the document and year of the type's rules" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_result, note),
	  .doc = "what the type's rules leave out" },
};
static const struct report_schema report_schema_voltype =
    TABLE("volume_types.types", struct voltype_result,
    report_schema_voltype_keys, NULL, NULL);

static const struct report_schema_key report_schema_voltypes_keys[] = {
	{ .name = "size_bytes", .type = REPORT_SCHEMA_UINT_NULL,
	  AT(struct voltype_judgement, size_bytes), .unit = "bytes",
	  .doc = "the volume's size judged at" },
	{ .name = "device_model", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_judgement, model),
	  .doc = "what the device said it is" },
	{ .name = "instance", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_judgement, on.name),
	  .doc = "the instance whose limits the long run includes" },
	{ .name = "consistent_types", .type = REPORT_SCHEMA_UINT,
	  AT(struct voltype_judgement, nconsistent), .unit = "types",
	  .doc = "how many types fit" },
	{ .name = "apart", .type = REPORT_SCHEMA_BOOL,
	  AT(struct voltype_judgement, apart),
	  .doc = "the types that fit differ in the long run" },
	{ .name = "settle_sustain_s", .type = REPORT_SCHEMA_REAL,
	  AT(struct voltype_judgement, settle_sustain_s), .unit = "s",
	  .doc = "the sustained run that tells them apart" },
	{ .name = "settle_options", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_judgement, settle),
	  .doc = "its options" },
	{ .name = "types", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER,
	  AT(struct voltype_judgement, result),
	  .count = offsetof(struct voltype_judgement, n),
	  .sub = &report_schema_voltype, .doc = "every documented type" },
	{ .name = "given_spec", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct voltype_judgement, given_spec),
	  .doc = "the type --type named" },
	{ .name = "given", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct voltype_judgement, given_result),
	  .sub = &report_schema_voltype, .shown = report_schema_type_given,
	  .doc = "that type judged at its settings, documented, not measured" },
};
static const struct report_schema report_schema_voltypes =
    TABLE("volume_types", struct voltype_judgement,
    report_schema_voltypes_keys, NULL, report_schema_voltypes_loaded);

static const struct report_schema_key report_schema_ebs_bin_keys[] = {
	{ .name = "lower_us", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct ebsstats_bin, lower_us),
	  .unit = "us", .doc = "the bin's lower bound" },
	{ .name = "upper_us", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct ebsstats_bin, upper_us),
	  .unit = "us", .doc = "the bin's upper bound" },
	{ .name = "count", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct ebsstats_bin, count),
	  .unit = "I/Os", .doc = "I/Os of the phase in the bin" },
};
static const struct report_schema report_schema_ebs_bin =
    TABLE("latency_histogram", struct ebsstats_bin,
    report_schema_ebs_bin_keys, NULL, NULL);

/* The limit demand exceeded longest in a phase, when it held the phase. */
static json_t *
report_schema_ebs_limit_get(const void *phase)
{
	return (json_string(ebsstats_limit_name(ebsstats_held(phase))));
}

/* A limit's name or null: derived again from the counters when read. */
static int
report_schema_ebs_limit_set(const json_t *v, void *obj, const char *key,
    char **cause)
{
	(void)obj;
	if (json_is_null(v) || json_is_string(v))
		return (0);
	xasprintf(cause, "%s: expected a limit's name or null, not %s", key,
	    report_schema_json_type(v));
	return (-1);
}

/* Quantiles derive from the histogram. */
static void
report_schema_ebs_phase_loaded(void *phase)
{
	struct ebsstats_phase	*d = phase;

	d->read_p50_us = ebsstats_hist_quantile(&d->read_hist, 0.5);
	d->read_p99_us = ebsstats_hist_quantile(&d->read_hist, 0.99);
}

static const struct report_schema_key report_schema_ebs_phase_keys[] = {
	{ .name = "phase", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct ebsstats_phase, phase),
	  .doc = "scan SIZE (a working set), sweeps, sustained, after-drop, "
	  "writes or commits" },
	{ .name = "seconds", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct ebsstats_phase, seconds),
	  .unit = "s", .doc = "the phase's device time (else the clock's) "
	  "between the two readings" },
	{ .name = "limit", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_DERIVED,
	  .get = report_schema_ebs_limit_get,
	  .set = report_schema_ebs_limit_set,
	  .doc = "the limit demand exceeded longest, if for 5% of the phase "
	  "or more; else none" },
	{ .name = "read_ops", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, read_ops), .unit = "I/Os",
	  .doc = "reads the volume served" },
	{ .name = "write_ops", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, write_ops), .unit = "I/Os",
	  .doc = "writes the volume served" },
	{ .name = "read_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, read_bytes), .unit = "bytes",
	  .doc = "bytes read" },
	{ .name = "write_bytes", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, write_bytes), .unit = "bytes",
	  .doc = "bytes written" },
	{ .name = "read_time_us", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, read_time_us), .unit = "us",
	  .doc = "time the reads took, summed" },
	{ .name = "write_time_us", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, write_time_us), .unit = "us",
	  .doc = "time the writes took, summed" },
	{ .name = "volume_iops_exceeded_us", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, exceeded_us[EBSSTATS_VOLUME_IOPS]),
	  .unit = "us", .doc = "time demand exceeded the volume's IOPS" },
	{ .name = "volume_throughput_exceeded_us", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, exceeded_us[EBSSTATS_VOLUME_TP]),
	  .unit = "us",
	  .doc = "time demand exceeded the volume's throughput" },
	{ .name = "instance_iops_exceeded_us", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, exceeded_us[EBSSTATS_INSTANCE_IOPS]),
	  .unit = "us",
	  .doc = "time demand exceeded the instance's EBS IOPS" },
	{ .name = "instance_throughput_exceeded_us",
	  .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, exceeded_us[EBSSTATS_INSTANCE_TP]),
	  .unit = "us",
	  .doc = "time demand exceeded the instance's EBS throughput" },
	{ .name = "queue_length", .type = REPORT_SCHEMA_UINT,
	  AT(struct ebsstats_phase, queue_length), .unit = "I/Os",
	  .doc = "the volume's queue at the phase's end" },
	{ .name = "read_p50_us", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct ebsstats_phase, read_p50_us), .unit = "us",
	  .doc = "median read latency by the device's histogram" },
	{ .name = "read_p99_us", .type = REPORT_SCHEMA_REAL,
	  .flags = REPORT_SCHEMA_DERIVED,
	  AT(struct ebsstats_phase, read_p99_us), .unit = "us",
	  .doc = "99th percentile of it" },
	{ .name = "own_read_p50_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct ebsstats_phase, own_read_p50_us), .unit = "us",
	  .doc = "tierprobe's median read latency of the same phase" },
	{ .name = "own_read_p99_us", .type = REPORT_SCHEMA_REAL,
	  AT(struct ebsstats_phase, own_read_p99_us), .unit = "us",
	  .doc = "tierprobe's 99th percentile of it" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct ebsstats_phase, note),
	  .doc = "a histogram count that wrapped" },
	{ .name = "read_latency_histogram", .type = REPORT_SCHEMA_ARRAY,
	  AT(struct ebsstats_phase, read_hist.bin),
	  .count = offsetof(struct ebsstats_phase, read_hist.nbins),
	  .max = EBSSTATS_BINS, .sub = &report_schema_ebs_bin,
	  .doc = "the device's read latency bins the phase added to" },
	{ .name = "write_latency_histogram", .type = REPORT_SCHEMA_ARRAY,
	  AT(struct ebsstats_phase, write_hist.bin),
	  .count = offsetof(struct ebsstats_phase, write_hist.nbins),
	  .max = EBSSTATS_BINS, .sub = &report_schema_ebs_bin,
	  .doc = "the same for writes" },
};
static const struct report_schema report_schema_ebs_phase =
    TABLE("phases", struct ebsstats_phase, report_schema_ebs_phase_keys,
    NULL, report_schema_ebs_phase_loaded);

/* The limit that held the sustained phase, from its counters. */
static void
report_schema_ebs_loaded(void *run)
{
	struct ebsstats_run	*e = run;

	e->sustained_limit = ebsstats_sustained_limit(e);
}

static const struct report_schema_key report_schema_ebs_keys[] = {
	{ .name = "source", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct ebsstats_run, source),
	  .doc = "the NVMe device read, or TIERPROBE_EBS_LOG_PAGE=FILE; null "
	  "when none" },
	{ .name = "kind", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct ebsstats_run, kind), .doc = "ebs or instance-store" },
	{ .name = "why", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct ebsstats_run, why),
	  .doc = "why there are no counters; null when there are" },
	{ .name = "note", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct ebsstats_run, note),
	  .doc = "a phase left out, and why" },
	{ .name = "phases", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct ebsstats_run, phases),
	  .count = offsetof(struct ebsstats_run, nphases),
	  .sub = &report_schema_ebs_phase,
	  .doc = "the counters' differences over each phase, in run order" },
};
static const struct report_schema report_schema_ebs =
    TABLE("ebs_stats", struct ebsstats_run, report_schema_ebs_keys, NULL,
    report_schema_ebs_loaded);

/* The verdict, derived from the whole report as it is written. */
static json_t *
report_schema_verdict_get(const void *r)
{
	return (report_verdict_json(r));
}

/* Derived: checked to be an object, then derived again when needed. */
static int
report_schema_verdict_set(const json_t *v, void *r, const char *key,
    char **cause)
{
	(void)r;
	if (json_is_object(v))
		return (0);
	xasprintf(cause, "%s: expected an object, not %s", key,
	    report_schema_json_type(v));
	return (-1);
}

/* A run stopped on a fault. */
static const struct report_schema_key report_schema_fault_keys[] = {
	{ .name = "reason", .type = REPORT_SCHEMA_WORD,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report_fault, reason),
	  .word = report_fault_word,
	  .doc = "io-error, no-space, engine or error" },
	{ .name = "errno", .type = REPORT_SCHEMA_UINT,
	  AT(struct report_fault, err), .doc = "the error number; 0 if none" },
	{ .name = "phase", .type = REPORT_SCHEMA_STRING,
	  AT(struct report_fault, phase),
	  .doc = "scan, limits, writes, sync or together" },
	{ .name = "message", .type = REPORT_SCHEMA_STRING,
	  AT(struct report_fault, message),
	  .doc = "the line tierprobe wrote on stderr" },
};
static const struct report_schema report_schema_fault =
    TABLE("fault", struct report_fault, report_schema_fault_keys, NULL,
    NULL);

/* One of several targets: as the top of a report of one. */
static const struct report_schema_key report_schema_member_keys[] = {
	{ .name = "fault", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, fault),
	  .sub = &report_schema_fault,
	  .doc = "absent unless its run stopped on a fault" },
	{ .name = "target", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report, target),
	  .sub = &report_schema_target, .doc = "what was measured" },
	{ .name = "config", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, config), .sub = &report_schema_config,
	  .doc = "its settings (its verdict reads them); absent in older "
	  "reports, which then take the top-level config" },
	{ .name = "context", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, context), .sub = &report_schema_context,
	  .doc = "where it is" },
	{ .name = "scan", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, scan),
	  .sub = &report_schema_scan, .doc = "its working-set sweep" },
	{ .name = "limits", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, limits),
	  .sub = &report_schema_limits, .doc = "its ceilings, alone" },
	{ .name = "volume_types", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, voltypes),
	  .sub = &report_schema_voltypes,
	  .doc = "the documented volume types judged against it" },
	{ .name = "sync", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, sync),
	  .sub = &report_schema_sync, .doc = "its commits, alone" },
	{ .name = "writes", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, writes),
	  .sub = &report_schema_writes,
	  .doc = "its write ceilings, buffers and mixed point, alone" },
	{ .name = "ebs_stats", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, ebs),
	  .sub = &report_schema_ebs,
	  .doc = "EBS's own counters around its phases alone" },
};
static const struct report_schema report_schema_member =
    TABLE("targets", struct report, report_schema_member_keys, NULL, NULL);

static const struct report_schema_key report_schema_root_keys[] = {
	{ .name = "schema_version", .type = REPORT_SCHEMA_UINT,
	  .flags = REPORT_SCHEMA_REQUIRED | REPORT_SCHEMA_CONST,
	  .get = report_schema_version_get, .set = report_schema_version_set,
	  .doc = "1 for this format" },
	{ .name = "tool", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, .sub = &report_schema_tool,
	  .doc = "what wrote the report" },
	{ .name = "command", .type = REPORT_SCHEMA_STRING,
	  .flags = REPORT_SCHEMA_ALIAS, AT(struct report, config.command),
	  .doc = "the sub-command, as config.command" },
	{ .name = "interrupted", .type = REPORT_SCHEMA_BOOL,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report, interrupted),
	  .doc = "the run was stopped early" },
	{ .name = "fault", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, fault),
	  .sub = &report_schema_fault,
	  .doc = "absent unless the run stopped on a fault" },
	{ .name = "started_utc", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report, started_utc), .doc = "ISO 8601 time, UTC" },
	{ .name = "finished_utc", .type = REPORT_SCHEMA_STRING_NULL,
	  AT(struct report, finished_utc), .doc = "ISO 8601 time, UTC" },
	{ .name = "config", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, config), .sub = &report_schema_config,
	  .doc = "the settings of the run" },
	{ .name = "target", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_REQUIRED, AT(struct report, target),
	  .sub = &report_schema_target, .shown = report_schema_one_target,
	  .unless = "targets", .doc = "what was measured" },
	{ .name = "context", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, context), .sub = &report_schema_context,
	  .shown = report_schema_one_target, .doc = "where it ran" },
	{ .name = "labels", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, labels), .sub = &report_schema_labels,
	  .doc = "names given for fleets" },
	{ .name = "instance", .type = REPORT_SCHEMA_OBJECT,
	  AT(struct report, instance), .sub = &report_schema_instance,
	  .doc = "the instance assumed and its documented EBS limits, or "
	  "why none is known" },
	{ .name = "verdict", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_DERIVED,
	  .get = report_schema_verdict_get, .set = report_schema_verdict_set,
	  .doc = "what the report means for the long run, figure by figure" },
	{ .name = "scan", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, scan),
	  .sub = &report_schema_scan, .doc = "the working-set sweep" },
	{ .name = "limits", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, limits),
	  .sub = &report_schema_limits, .doc = "ceilings and burst buckets" },
	{ .name = "volume_types", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, voltypes),
	  .sub = &report_schema_voltypes,
	  .doc = "the documented volume types judged against the run" },
	{ .name = "sync", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, sync),
	  .sub = &report_schema_sync, .doc = "commits" },
	{ .name = "writes", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, writes),
	  .sub = &report_schema_writes,
	  .doc = "write ceilings, buffers and the mixed point" },
	{ .name = "ebs_stats", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, ebs),
	  .sub = &report_schema_ebs,
	  .doc = "EBS's own counters around each phase" },
	{ .name = "repeat", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, repeat),
	  .sub = &report_schema_repeat, .doc = "spread over repeated runs" },
	{ .name = "expectations", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, checks),
	  .get = report_schema_expectations_get,
	  .set = report_schema_expectations_set,
	  .doc = "acceptance checks and their verdicts" },
	{ .name = "targets", .type = REPORT_SCHEMA_ARRAY,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, targets),
	  .count = offsetof(struct report, ntargets),
	  .sub = &report_schema_member,
	  .doc = "several targets: each as a report of one" },
	{ .name = "together", .type = REPORT_SCHEMA_OBJECT,
	  .flags = REPORT_SCHEMA_POINTER, AT(struct report, together),
	  .sub = &report_schema_together,
	  .doc = "several targets driven at once, and the verdict" },
};
/* Figures' states are derived: set again from what was read. */
static void
report_schema_root_loaded(void *r)
{
	struct report	*rep = r;
	size_t		 i;

	/*
	 * No instance section (an older report): none recorded, no figures,
	 * no why (the verdict then says nothing of an instance).
	 */
	if (rep->instance.from == INSTANCE_NONE &&
	    rep->instance.name[0] == '\0' && rep->instance.why[0] == '\0' &&
	    rep->instance.source[0] == '\0')
		instance_none(&rep->instance, "%s", "");
	/* A target without settings of its own (older reports): the run's. */
	for (i = 0; i < rep->ntargets; i++)
		if (rep->targets[i].config.command[0] == '\0')
			rep->targets[i].config = rep->config;
	report_state_apply(r);
}

const struct report_schema report_schema_root =
    TABLE("report", struct report, report_schema_root_keys, NULL,
    report_schema_root_loaded);

/* A JSON value's type for messages. */
const char *
report_schema_json_type(const json_t *v)
{
	static const char *const names[] = {
		[JSON_OBJECT] = "an object",
		[JSON_ARRAY] = "an array",
		[JSON_STRING] = "a string",
		[JSON_INTEGER] = "an integer",
		[JSON_REAL] = "a real number",
		[JSON_TRUE] = "a boolean",
		[JSON_FALSE] = "a boolean",
		[JSON_NULL] = "null",
	};

	if (v == NULL || (size_t)json_typeof(v) >= sizeof names /
	    sizeof names[0])
		return ("something else");
	return (names[json_typeof(v)]);
}

/* SPDX-License-Identifier: ISC */
/*
 * Description: acceptance checks: expressions parse with their units or
 * fail naming the token; verdicts on a synthetic report (met, missed,
 * unknown with why, lower bounds, intervals, repeated runs); expectations
 * survive a JSON round trip; --expect-profile derives its thresholds from
 * the profile's truth and the tolerance of its [promise]; commit figures
 * come from the fastest method at one writer, with intervals (order
 * statistics for p99); a report of several targets is judged by its worst
 * target; an interrupted run settles nothing of a phase it did not finish;
 * the measured figure prints the digits that tell it from its threshold;
 * which expectations a run cannot settle; the checks of many files, their
 * worst outcome and summary.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "check.h"
#include "profiles.h"
#include "sim.h"
#include "sync.h"
#include "t_report.h"
#include "xmalloc.h"

struct t_parse {
	const char	*text;
	const char	*alias;		/* NULL: must fail */
	unsigned	 index;
	enum check_op	 op;
	double		 threshold;
	const char	*cause_has;	/* when failing */
};

static const struct t_parse t_parses[] = {
	{ "iops>=3000", "iops", 0, CHECK_GE, 3000, NULL },
	{ " iops >= 3k ", "iops", 0, CHECK_GE, 3000, NULL },
	{ "iops>2.5k", "iops", 0, CHECK_GT, 2500, NULL },
	{ "bandwidth>=125M", "bandwidth", 0, CHECK_GE, 125 << 20, NULL },
	{ "bandwidth>=125MiB/s", "bandwidth", 0, CHECK_GE, 125 << 20, NULL },
	{ "bandwidth>=100MB/s", "bandwidth", 0, CHECK_GE, 100e6, NULL },
	{ "bandwidth>=1.5GB", "bandwidth", 0, CHECK_GE, 1.5e9, NULL },
	{ "p99<=2ms", "p99", 0, CHECK_LE, 2000, NULL },
	{ "p50<800us", "p50", 0, CHECK_LT, 800, NULL },
	{ "tier2.capacity>=1.5G", "tierN.capacity", 2, CHECK_GE,
	  1536.0 * (1 << 20), NULL },
	{ "tier1.p99<=1ms", "tierN.p99", 1, CHECK_LE, 1000, NULL },
	{ "tiers==0", "tiers", 0, CHECK_EQ, 0, NULL },
	{ "burst!=1", "burst", 0, CHECK_NE, 1, NULL },
	{ "accounting==256K", "accounting", 0, CHECK_EQ, 256 << 10, NULL },
	{ "burst.duration>=30m", "burst.duration", 0, CHECK_GE, 1800, NULL },
	{ "burst.credits>=5.4M", "burst.credits", 0, CHECK_GE, 5.4e6, NULL },
	{ "burst.baseline_iops>=270", "burst.baseline_iops", 0, CHECK_GE,
	  270, NULL },
	{ "iops", NULL, 0, 0, 0, "no comparison" },
	{ "iopz>=1", NULL, 0, 0, 0, "unknown figure \"iopz\"" },
	{ "iops=>1", NULL, 0, 0, 0, "\"=>\" is not a comparison" },
	{ "iops=1", NULL, 0, 0, 0, "\"=\" is not a comparison" },
	{ "iops>=", NULL, 0, 0, 0, "no value" },
	{ "iops==3000", NULL, 0, 0, 0, "== and != compare whole counts" },
	{ "p99<=2", NULL, 0, 0, 0, "give \"2\" a unit" },
	{ "tiers>=1.5", NULL, 0, 0, 0, "not a whole number" },
	{ "tier5.p50<=1ms", NULL, 0, 0, 0, "unknown figure \"tier5.p50\"" },
	{ "tier0.p50<=1ms", NULL, 0, 0, 0, "unknown figure" },
	{ "bandwidth>=fast", NULL, 0, 0, 0, "not a size" },
	{ "iops>=-5", NULL, 0, 0, 0, "not a number" },
	{ "iops>=1e3", NULL, 0, 0, 0, "not a number" },
	{ "p99<=2parsecs", NULL, 0, 0, 0, "not a time" },
};

static void
t_check_parse(void **state)
{
	const struct t_parse	*t;
	struct check_expect	 e;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof t_parses / sizeof t_parses[0]; i++) {
		t = &t_parses[i];
		cause = NULL;
		if (t->alias == NULL) {
			if (check_parse(t->text, &e, &cause) == 0)
				fail_msg("\"%s\" parsed", t->text);
			if (strstr(cause, t->cause_has) == NULL ||
			    strchr(cause, '\n') != NULL)
				fail_msg("\"%s\": cause \"%s\" lacks \"%s\"",
				    t->text, cause, t->cause_has);
			free(cause);
			continue;
		}
		if (check_parse(t->text, &e, &cause) != 0)
			fail_msg("\"%s\": %s", t->text, cause);
		assert_string_equal(e.def->alias, t->alias);
		assert_int_equal(e.index, t->index);
		assert_int_equal(e.op, t->op);
		assert_true(fabs(e.threshold - t->threshold) <=
		    1e-9 * fabs(t->threshold));
		assert_string_equal(e.text, t->text);
		free(e.text);
	}
}

/* Judge text against r; returns the verdict, res filled. */
static enum check_verdict
t_judge(const char *text, const struct report *r, struct check_result *res)
{
	struct check_expect	 e;
	char			*cause = NULL;

	if (check_parse(text, &e, &cause) != 0)
		fail_msg("%s: %s", text, cause);
	report_check_evaluate(&e, r, res);
	free(e.text);
	return (res->verdict);
}

struct t_verdict {
	const char		*text;
	enum check_verdict	 verdict;
	const char		*note_has;	/* NULL: no note */
};

/*
 * t_report_make: one tier of 128 MiB (120 to 136), tier p99 unknown,
 * backing p50 280 us and p99 600 us, 5,000 IOPS from a point with +-2%,
 * knee 2, bandwidth unknown, no burst bucket in a sustained run of three
 * intervals (too short to tell).
 */
static const struct t_verdict t_verdicts[] = {
	{ "iops>=4000", CHECK_MET, NULL },
	{ "iops>=6000", CHECK_MISSED, NULL },
	{ "iops>=5050", CHECK_MISSED, "inside the interval" },
	{ "iops>=4950", CHECK_MET, "inside the interval" },
	{ "iops<=4000", CHECK_MISSED, NULL },
	{ "knee==2", CHECK_MET, NULL },
	{ "knee!=2", CHECK_MISSED, NULL },
	{ "p99<=500us", CHECK_MISSED, NULL },
	{ "p99<=1ms", CHECK_MET, NULL },
	{ "p50>=100us", CHECK_MET, NULL },
	{ "tiers==1", CHECK_MET, NULL },
	{ "tiers==0", CHECK_MISSED, NULL },
	{ "tier1.capacity>=100M", CHECK_MET, NULL },
	{ "tier1.capacity>=130M", CHECK_MISSED, "inside the interval" },
	{ "tier1.p50<=100us", CHECK_MET, NULL },
	{ "tier1.p99<=1ms", CHECK_UNKNOWN, "could not establish" },
	{ "tier2.p50<=1ms", CHECK_UNKNOWN, "found 1 cache tier" },
	{ "bandwidth>=1M", CHECK_UNKNOWN, "could not establish" },
	{ "burst==0", CHECK_UNKNOWN, "too short to tell" },
	{ "burst.baseline_iops>=1", CHECK_UNKNOWN, "too short to tell" },
};

static void
t_check_verdicts(void **state)
{
	const struct t_verdict	*t;
	struct check_result	 res;
	struct report		 r;
	struct timeline_sample	 ts;
	size_t			 i;

	(void)state;
	t_report_make(&r);
	for (i = 0; i < sizeof t_verdicts / sizeof t_verdicts[0]; i++) {
		t = &t_verdicts[i];
		if (t_judge(t->text, &r, &res) != t->verdict)
			fail_msg("%s: %s, want %s (%s)", t->text,
			    check_verdict_name(res.verdict),
			    check_verdict_name(t->verdict), res.note);
		if (t->note_has == NULL && res.note[0] != '\0')
			fail_msg("%s: unexpected note \"%s\"", t->text,
			    res.note);
		if (t->note_has != NULL && strstr(res.note, t->note_has) ==
		    NULL)
			fail_msg("%s: note \"%s\" lacks \"%s\"", t->text,
			    res.note, t->note_has);
	}
	/* A capacity's interval is the tier's own, not a symmetric one. */
	t_judge("tier1.capacity>=1M", &r, &res);
	assert_true(res.fv.low == 120 << 20 && res.fv.high == 136 << 20);

	/* A sustained run long enough to tell: no bucket showed. */
	ts.iops = 5000;
	ts.bytes_per_s = ts.lat_us_mean = NAN;
	while (r.limits->timeline.n < CEILINGS_BURST_MIN_INTERVALS) {
		ts.t_s = r.limits->timeline.n + 1;
		timeline_add(&r.limits->timeline, &ts);
	}
	assert_int_equal(t_judge("burst==0", &r, &res), CHECK_MET);
	assert_int_equal(t_judge("burst.iops>=1", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no burst bucket"));
	r.limits->burst.detected = 1;
	r.limits->burst.burst_iops = 3000;
	r.limits->burst.baseline_iops = 300;
	assert_int_equal(t_judge("burst==1", &r, &res), CHECK_MET);
	assert_int_equal(t_judge("burst.baseline_iops>=270", &r, &res),
	    CHECK_MET);
	report_free(&r);
}

/* Sections not run, and a cache known only as a lower bound. */
static void
t_check_partial(void **state)
{
	struct check_result	 res;
	struct report		 r;
	struct scan_result	*scan;
	struct limits_result	*limits;

	(void)state;
	t_report_make(&r);
	r.scan->tiers.tier[0].at_least = 1;
	r.scan->tiers.tier[0].capacity_high_bytes = 0;
	assert_int_equal(t_judge("tier1.capacity>=100M", &r, &res),
	    CHECK_MET);
	assert_int_equal(t_judge("tier1.capacity<=100M", &r, &res),
	    CHECK_MISSED);
	assert_int_equal(t_judge("tier1.capacity<=1G", &r, &res),
	    CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "lower bound"));
	assert_int_equal(t_judge("tier1.capacity>=1G", &r, &res),
	    CHECK_UNKNOWN);

	r.scan->tiers.analysed = 0;
	assert_int_equal(t_judge("p99<=1ms", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "not analysed"));
	report_free(&r);

	/* A report without a section: the figures it holds are unknown. */
	t_report_make(&r);
	scan = r.scan;
	r.scan = NULL;
	assert_int_equal(t_judge("p99<=1ms", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no scan section"));
	r.scan = scan;
	limits = r.limits;
	r.limits = NULL;
	assert_int_equal(t_judge("iops>=1", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no limits section"));
	r.limits = limits;
	report_free(&r);
}

/* With --repeat, the mean over the runs and mean +- 2 sd. */
static void
t_check_repeat(void **state)
{
	struct check_result	 res;
	struct report		 r;
	struct report_stat	*st;

	(void)state;
	t_report_make(&r);
	r.repeat = xcalloc(1, sizeof *r.repeat);
	r.repeat->runs = 3;
	r.repeat->nstats = 1;
	st = &r.repeat->stat[0];
	snprintf(st->name, sizeof st->name, "limits.iops_ceiling");
	st->mean = 4000;
	st->sd = 100;
	st->n = 3;
	assert_int_equal(t_judge("iops>=4500", &r, &res), CHECK_MISSED);
	assert_true(res.fv.repeated);
	assert_true(res.fv.value == 4000 && res.fv.low == 3800 &&
	    res.fv.high == 4200);
	assert_int_equal(t_judge("iops>=4100", &r, &res), CHECK_MISSED);
	assert_non_null(strstr(res.note, "inside the interval"));
	report_free(&r);
}

/* report_check_tally counts, and the list survives a JSON round trip. */
static void
t_check_round_trip(void **state)
{
	struct report		 r, back;
	unsigned		 count[CHECK_NVERDICTS];
	char			*cause = NULL, *dir, path[256], *json;
	FILE			*f;

	(void)state;
	t_report_make(&r);
	r.checks = check_list_new();
	r.checks->profile = xstrdup("ebs-gp3");
	r.checks->promise = xstrdup("a promise");
	assert_int_equal(check_list_add(r.checks, "iops>=4000", "--expect",
	    &cause), 0);
	assert_int_equal(check_list_add(r.checks, "p99<=500us",
	    "--expect-profile ebs-gp3", &cause), 0);
	assert_int_equal(check_list_add(r.checks, "bandwidth>=1M", "--expect",
	    &cause), 0);
	assert_int_equal(check_list_add(r.checks, "iops>=", "--expect",
	    &cause), -1);
	free(cause);
	assert_int_equal(r.checks->n, 3);
	assert_int_equal(report_check_tally(r.checks, &r, count), 0);
	assert_int_equal(count[CHECK_MET], 1);
	assert_int_equal(count[CHECK_MISSED], 1);
	assert_int_equal(count[CHECK_UNKNOWN], 1);

	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/r.json", dir);
	json = t_json(&r);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	free(json);
	if (report_load(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	assert_non_null(back.checks);
	assert_int_equal(back.checks->n, 3);
	assert_string_equal(back.checks->v[1].text, "p99<=500us");
	assert_string_equal(back.checks->v[1].origin,
	    "--expect-profile ebs-gp3");
	assert_string_equal(back.checks->profile, "ebs-gp3");
	assert_string_equal(back.checks->promise, "a promise");
	report_check_tally(back.checks, &back, count);
	assert_int_equal(count[CHECK_MISSED], 1);

	/* A recorded expression that no longer parses: a bad report. */
	json = t_json(&r);
	memcpy(strstr(json, "iops>=4000"), "iopz", 4);
	f = fopen(path, "w");
	fputs(json, f);
	fclose(f);
	free(json);
	report_free(&back);
	assert_int_equal(report_load(path, &back, &cause), -1);
	assert_non_null(strstr(cause, "expectations: items[0].expression"));
	free(cause);
	t_rmdir(dir);
	free(dir);
	report_free(&r);
}

/* The thresholds of --expect-profile: the truth less the tolerance. */
static void
t_check_promise(void **state)
{
	static const char *const names[] = { "ebs-gp3", "ebs-gp2-100g",
	    "ebs-io1-4000", "classic-three-level" };
	struct check_list	*l;
	struct profile		*p;
	struct sim_truth	 t;
	char			*cause = NULL, want[64];
	double			 keep;
	size_t			 i, k;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if ((p = profiles_load(names[i], &cause)) == NULL)
			fail_msg("%s", cause);
		sim_truth_profile(p, 4096, &t);
		keep = 1 - (isfinite(p->promise_pct) ? p->promise_pct : 10) /
		    100;
		l = check_list_new();
		if (report_profile_expect(names[i], 4096, l, &cause) != 0)
			fail_msg("%s", cause);
		assert_string_equal(l->profile, p->name);
		assert_non_null(strstr(l->promise, isfinite(p->promise_pct) ?
		    "of the time" : "assumed"));
		k = 0;
		snprintf(want, sizeof want, "iops>=%.0f",
		    floor(keep * t.iops_ceiling));
		assert_string_equal(l->v[k++].text, want);
		/* In MiB/s, 0.1 below the promise at most. */
		if (isfinite(t.bandwidth_ceiling)) {
			assert_true(strncmp(l->v[k].text, "bandwidth>=",
			    11) == 0);
			assert_int_equal(l->v[k].op, CHECK_GE);
			assert_true(l->v[k].threshold <=
			    keep * t.bandwidth_ceiling);
			assert_true(l->v[k].threshold >
			    keep * t.bandwidth_ceiling - 0.1 * 1048576);
			k++;
		}
		if (t.burst_detected) {
			snprintf(want, sizeof want,
			    "burst.baseline_iops>=%.0f",
			    floor(keep * t.baseline_iops));
			assert_string_equal(l->v[k++].text, want);
		}
		assert_int_equal(l->n, k);
		snprintf(want, sizeof want, "--expect-profile %s", p->name);
		assert_string_equal(l->v[0].origin, want);
		check_list_free(l);
		profiles_free(p);
	}
	l = check_list_new();
	assert_int_equal(report_profile_expect("no-such-profile", 4096, l,
	    &cause), -1);
	free(cause);
	check_list_free(l);
}

/*
 * Commit figures: those of the fastest method at one writer and the size
 * it was chosen at, not of another size or of more writers; unknown
 * without a sync section or without such a row.
 */
static void
t_check_commit(void **state)
{
	static const struct {
		unsigned	writers;
		uint32_t	bs;
		double		iops, p50, p99;
	} rows[] = {
		{ 1, 4096, 990, 1000, 1300 },	/* another size */
		{ 1, 8192, 800, 1200, 2500 },	/* a slower method */
		{ 1, 8192, 950, 1050, 1400 },	/* the fastest */
		{ 4, 8192, 3000, 1300, 3000 },	/* more writers */
	};
	struct check_result	 res;
	struct report		 r;
	size_t			 i;

	(void)state;
	t_report_make(&r);
	assert_int_equal(t_judge("commit.p99<=1ms", &r, &res),
	    CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no sync section"));

	r.sync = xcalloc(1, sizeof *r.sync);
	sync_result_init(r.sync);
	r.sync->best_bs = 8192;
	r.sync->rows = xcalloc(sizeof rows / sizeof rows[0],
	    sizeof *r.sync->rows);
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		r.sync->rows[i].writers = rows[i].writers;
		r.sync->rows[i].bs = rows[i].bs;
		r.sync->rows[i].pt.ios = 1000;
		r.sync->rows[i].pt.iops = rows[i].iops;
		r.sync->rows[i].pt.lat_us.p50 = rows[i].p50;
		r.sync->rows[i].pt.lat_us.p99 = rows[i].p99;
	}
	r.sync->nrows = sizeof rows / sizeof rows[0];
	assert_int_equal(t_judge("commit.p99<=1.5ms", &r, &res), CHECK_MET);
	assert_true(res.fv.value == 1400);
	assert_string_equal(res.fv.path, "sync.methods[2].lat_us.p99");
	assert_int_equal(t_judge("commit.p99<=1ms", &r, &res), CHECK_MISSED);
	assert_int_equal(t_judge("commit.p50<=1ms", &r, &res), CHECK_MISSED);
	assert_true(res.fv.value == 1050);
	assert_int_equal(t_judge("commit.rate>=900", &r, &res), CHECK_MET);
	assert_true(res.fv.value == 950);

	r.sync->best_bs = 16384;
	assert_int_equal(t_judge("commit.p99<=1ms", &r, &res),
	    CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no commit method"));
	report_free(&r);
}

/*
 * A report of several targets: each expectation judged on every target,
 * the worst verdict kept with the target that gave it.
 */
static void
t_check_several(void **state)
{
	struct check_result	 res;
	struct report		 r;

	(void)state;
	memset(&r, 0, sizeof r);
	r.ntargets = 2;
	r.targets = xcalloc(2, sizeof *r.targets);
	t_report_make(&r.targets[0]);
	t_report_make(&r.targets[1]);
	r.targets[1].limits->iops_ceiling = 3000;

	assert_int_equal(t_judge("iops>=4000", &r, &res), CHECK_MISSED);
	assert_int_equal(res.target, 2);
	assert_true(res.fv.value == 3000);
	assert_string_equal(res.fv.path, "targets[1].limits.iops_ceiling");
	assert_int_equal(t_judge("iops>=2000", &r, &res), CHECK_MET);
	assert_int_equal(res.target, 1);
	assert_int_equal(t_judge("iops<=4000", &r, &res), CHECK_MISSED);
	assert_int_equal(res.target, 1);

	/* Missed outweighs unknown, whichever target comes first. */
	scan_result_free(r.targets[0].scan);
	free(r.targets[0].scan);
	r.targets[0].scan = NULL;
	r.targets[1].scan->tiers.backing_p99_us = 5000;
	assert_int_equal(t_judge("p99<=1ms", &r, &res), CHECK_MISSED);
	assert_int_equal(res.target, 2);
	assert_int_equal(t_judge("p99<=10ms", &r, &res), CHECK_UNKNOWN);
	assert_int_equal(res.target, 1);
	assert_non_null(strstr(res.note, "no scan section"));
	report_free(&r);
}

/*
 * An interrupted run: an expectation on a phase that stopped early, or
 * never began, is unknown, not met (nor missed); phases that finished are
 * judged; a phase the command never runs keeps its own reason.
 */
static void
t_check_interrupted(void **state)
{
	struct check_result	 res;
	struct report		 r;

	(void)state;
	t_report_make(&r);
	r.interrupted = 1;
	r.limits->interrupted = 1;
	assert_int_equal(t_judge("iops>=4000", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "interrupted during its limits"));
	assert_int_equal(t_judge("iops>=6000", &r, &res), CHECK_UNKNOWN);
	assert_int_equal(t_judge("p99<=1ms", &r, &res), CHECK_MET);
	assert_int_equal(t_judge("commit.p99<=1s", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "interrupted before its commit"));
	snprintf(r.config.command, sizeof r.config.command, "limits");
	assert_int_equal(t_judge("commit.p99<=1s", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "no sync section"));
	r.scan->interrupted = 1;
	assert_int_equal(t_judge("p99<=1ms", &r, &res), CHECK_UNKNOWN);
	assert_non_null(strstr(res.note, "interrupted during its scan"));

	/* Finished phases of a run that was not interrupted: as ever. */
	r.interrupted = 0;
	assert_int_equal(t_judge("iops>=4000", &r, &res), CHECK_MET);
	report_free(&r);
}

/* The p-quantile of an exponential distribution of rate 1/mean. */
static double
t_exp_quantile(double p, double mean)
{
	return (-log(1 - p) * mean);
}

/*
 * The commit figures' intervals: a p99 read off an exponential tail is
 * exact on an exponential distribution, at the order-statistic levels
 * 0.99 +- 1.96 sqrt(0.99 x 0.01 / n); it is unbounded above with fewer
 * than 368 commits, ends at the slowest commit's rank from there until
 * the level fits below it; p50 and the rate come from the mean's
 * interval; a threshold inside an interval is borderline.
 */
static void
t_check_commit_interval(void **state)
{
	static const double	 ns[] = { 100, 367, 368, 500, 1000, 20000 };
	struct check_result	 res;
	struct report		 r;
	struct point		*pt;
	double			 n, d, lo, hi;
	size_t			 i;

	(void)state;
	t_report_make(&r);
	r.sync = xcalloc(1, sizeof *r.sync);
	sync_result_init(r.sync);
	r.sync->best_bs = 8192;
	r.sync->nrows = 1;
	r.sync->rows = xcalloc(1, sizeof *r.sync->rows);
	r.sync->rows[0].writers = 1;
	r.sync->rows[0].bs = 8192;
	pt = &r.sync->rows[0].pt;
	pt->iops = 1000;
	pt->ci95_rel = 0.02;
	pt->lat_us.p50 = t_exp_quantile(0.5, 1000);
	pt->lat_us.p90 = t_exp_quantile(0.9, 1000);
	pt->lat_us.p99 = t_exp_quantile(0.99, 1000);
	pt->lat_us.p999 = NAN;
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		n = ns[i];
		pt->ios = (uint64_t)n;
		t_judge("commit.p99<=1s", &r, &res);
		d = 1.96 * sqrt(0.99 * 0.01 / n);
		assert_true(fabs(res.fv.low - t_exp_quantile(0.99 - d,
		    1000)) < 1e-6);
		if (n < 368)
			assert_true(res.fv.high == INFINITY);
		else if (0.99 + d >= n / (n + 1))
			assert_true(fabs(res.fv.high - t_exp_quantile(n /
			    (n + 1), 1000)) < 1e-6);
		else
			assert_true(fabs(res.fv.high - t_exp_quantile(0.99 +
			    d, 1000)) < 1e-6);
		assert_true(res.fv.low < res.fv.value &&
		    res.fv.value < res.fv.high);
	}
	/* Narrower the more commits. */
	pt->ios = 1000;
	t_judge("commit.p99<=1s", &r, &res);
	lo = res.fv.low;
	hi = res.fv.high;
	pt->ios = 20000;
	t_judge("commit.p99<=1s", &r, &res);
	assert_true(res.fv.low > lo && res.fv.high < hi);

	/* Borderline: met or missed, the threshold inside the interval. */
	pt->ios = 1000;
	assert_int_equal(t_judge("commit.p99<=4.7ms", &r, &res), CHECK_MET);
	assert_true(res.borderline);
	assert_int_equal(t_judge("commit.p99<=4.5ms", &r, &res),
	    CHECK_MISSED);
	assert_true(res.borderline);
	assert_int_equal(t_judge("commit.p99<=10ms", &r, &res), CHECK_MET);
	assert_false(res.borderline);

	/* The rate is one over the mean latency: its interval, inverted. */
	t_judge("commit.rate>=1", &r, &res);
	assert_true(fabs(res.fv.low - 1000 / 1.02) < 1e-9 &&
	    fabs(res.fv.high - 1000 / 0.98) < 1e-9);
	t_judge("commit.p50<=1s", &r, &res);
	assert_true(res.fv.low < res.fv.value * 0.98 &&
	    res.fv.high > res.fv.value * 1.02);
	report_free(&r);
}

/*
 * The measured figure beside its threshold: the digits that show why it
 * missed, and the borderline mark.
 */
static void
t_check_digits(void **state)
{
	struct report	 r;
	struct check_list *l;
	char		*out = NULL, *cause = NULL;
	size_t		 len;
	FILE		*f;

	(void)state;
	t_report_make(&r);
	r.limits->iops_ceiling = 4999.6;
	l = check_list_new();
	assert_int_equal(check_list_add(l, "iops>=5k", "--expect", &cause),
	    0);
	f = open_memstream(&out, &len);
	report_check_write(&r, l, f, 0);
	fclose(f);
	if (strstr(out, "4,999.6") == NULL || strstr(out, "MISSED *") ==
	    NULL)
		fail_msg("%s", out);
	free(out);
	check_list_free(l);
	report_free(&r);
}

/*
 * What settles an expectation: a run that measures its phase, with a
 * sustained run longer than the bucket --expect-profile knows of; a
 * baseline of a profile's bucket carries its duration, also through JSON.
 */
static void
t_check_settles(void **state)
{
	struct check_list	*l;
	struct check_expect	*e = NULL;
	struct report		 r, back;
	char			 why[320], *cause = NULL, *dir, path[256];
	char			*json;
	size_t			 i;
	FILE			*f;

	(void)state;
	l = check_list_new();
	if (report_profile_expect("ebs-gp2-100g", 4096, l, &cause) != 0)
		fail_msg("%s", cause);
	for (i = 0; i < l->n; i++) {
		if (strcmp(l->v[i].def->alias, "burst.baseline_iops") == 0)
			e = &l->v[i];
		else
			assert_true(l->v[i].sustain_s == 0);
	}
	assert_non_null(e);
	/* 5.4M credits drained at 3,000 - 300 IOPS. */
	assert_true(fabs(e->sustain_s - 5.4e6 / 2700) < 1);
	assert_int_equal(check_settles(e, 1, 120, why, sizeof why), 0);
	assert_non_null(strstr(why, "--sustain 38m"));
	assert_int_equal(check_settles(e, 1, 2100, why, sizeof why), 1);
	assert_int_equal(check_settles(&l->v[0], 0, 2100, why, sizeof why),
	    0);
	assert_non_null(strstr(why, "no limits phase"));
	assert_int_equal(check_settles(&l->v[0], 1, 1, why, sizeof why), 1);

	/* The instance's bucket, about 19 hours from full. */
	check_list_free(l);
	l = check_list_new();
	if (report_profile_expect("ebs-io1-4000@m5.large", 4096, l,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_true(l->v[l->n - 1].sustain_s > 18 * 3600 &&
	    l->v[l->n - 1].sustain_s < 20 * 3600);

	t_report_make(&r);
	r.checks = l;
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/r.json", dir);
	json = t_json(&r);
	f = fopen(path, "w");
	fputs(json, f);
	fclose(f);
	free(json);
	if (report_load(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	assert_true(back.checks->v[back.checks->n - 1].sustain_s ==
	    l->v[l->n - 1].sustain_s);
	assert_true(back.checks->v[0].sustain_s == 0);
	report_free(&back);
	t_rmdir(dir);
	free(dir);
	report_free(&r);
}

/*
 * Checks of several files: the worst outcome (an expectation not met over
 * a file skipped over all met), and the summary's lines naming host and
 * file of what was not met.
 */
static void
t_check_files(void **state)
{
	struct report_check_file cf[3];
	struct check_list	*l;
	char			*out = NULL, *cause = NULL;
	size_t			 len;
	FILE			*f;

	(void)state;
	memset(cf, 0, sizeof cf);
	l = check_list_new();
	assert_int_equal(check_list_add(l, "iops>=4000", "--expect", &cause),
	    0);
	assert_int_equal(check_list_add(l, "p99<=1ms", "--expect", &cause),
	    0);
	cf[0].file = "a.json";
	t_report_make(&cf[0].rep);
	snprintf(cf[0].rep.labels.host, sizeof cf[0].rep.labels.host, "hosta");
	cf[0].list = l;
	cf[1].file = "b.json";
	cf[1].why = xstrdup("line 1: not a JSON report");
	cf[2].file = "c.json";
	t_report_make(&cf[2].rep);
	snprintf(cf[2].rep.labels.host, sizeof cf[2].rep.labels.host, "hostc");
	cf[2].rep.limits->iops_ceiling = 3000;
	cf[2].list = l;

	assert_int_equal(report_check_files_outcome(cf, 1), REPORT_CHECK_MET);
	assert_int_equal(report_check_files_outcome(cf, 2),
	    REPORT_CHECK_SKIPPED);
	assert_int_equal(report_check_files_outcome(cf, 3),
	    REPORT_CHECK_NOT_MET);
	assert_int_equal(report_check_files_outcome(cf + 2, 1),
	    REPORT_CHECK_NOT_MET);

	f = open_memstream(&out, &len);
	report_check_files_write(cf, 3, f, 0, 1);
	fclose(f);
	if (strcmp(out, "SKIPPED - b.json: line 1: not a JSON report\n"
	    "MISSED hostc c.json: iops>=4000: IOPS ceiling 3,000 (95%: 2,940 "
	    "to 3,060)\n"
	    "3 reports: 1 passed, 1 missed, 0 unknown, 1 skipped; 4 "
	    "expectations: 3 met, 1 missed, 0 unknown\n") != 0)
		fail_msg("%s", out);
	free(out);
	report_free(&cf[0].rep);
	report_free(&cf[2].rep);
	free(cf[1].why);
	check_list_free(l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_check_parse),
		cmocka_unit_test(t_check_verdicts),
		cmocka_unit_test(t_check_partial),
		cmocka_unit_test(t_check_repeat),
		cmocka_unit_test(t_check_round_trip),
		cmocka_unit_test(t_check_promise),
		cmocka_unit_test(t_check_commit),
		cmocka_unit_test(t_check_several),
		cmocka_unit_test(t_check_interrupted),
		cmocka_unit_test(t_check_commit_interval),
		cmocka_unit_test(t_check_digits),
		cmocka_unit_test(t_check_settles),
		cmocka_unit_test(t_check_files),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

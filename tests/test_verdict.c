/* SPDX-License-Identifier: ISC */
/*
 * Tests for report-state.c and verdict.c on synthetic reports whose drop
 * is known: the state of every point and section with a drop in the
 * sweeps, in the sustained run, none, and on the sum of several targets;
 * the verdict's standing, bound, state and settling command for each,
 * the settling run's length, the target as a command line takes it, and
 * commits compared only with a limit of their own state.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bucket.h"
#include "point.h"
#include "report.h"
#include "t_report.h"
#include "verdict.h"
#include "xmalloc.h"

/* A point of a sweep at depth qd, rate iops, and its samples from t0. */
static void
t_sweep_point(struct limits_result *l, struct point *p, unsigned qd,
    double iops, int phase, double t0)
{
	struct timeline_sample	s;
	int			i;

	memset(p, 0, sizeof *p);
	p->ws_bytes = 1ULL << 30;
	p->bs = 4096;
	p->iodepth = qd;
	p->ios = (uint64_t)iops;
	p->seconds = 1;
	p->iops = iops;
	p->bytes_per_s = iops * 4096;
	p->ci95_rel = 0.01;
	p->lat_us.mean = p->lat_us.p50 = p->lat_us.p99 = qd * 1e6 / iops;
	p->lat_us.p90 = p->lat_us.p999 = NAN;
	memset(&s, 0, sizeof s);
	for (i = 0; i < 4; i++) {
		s.dt_s = 0.25;
		s.t_s = t0 + 0.25 * (i + 1);
		s.iops = iops;
		s.iodepth = qd;
		s.bs = 4096;
		s.phase = phase;
		timeline_add(&l->sweep_timeline, &s);
	}
}

/*
 * A run of a 100 GiB simulated volume: a scan, three depths at 3,000
 * IOPS on the sweeps' clock (1 s each), a sustained run of n intervals
 * at 3,000 IOPS and then at base from drop_at on (NAN: no drop), and
 * commits of one writer and of four.
 */
static void
t_run(struct report *r, size_t n, double drop_at, double base)
{
	struct limits_result	*l;
	struct sync_result	*s;
	struct timeline_sample	 ts;
	size_t			 i;

	t_report_make(r);
	free(r->target.path);
	r->target.path = xstrdup("ebs-gp2-100g");
	snprintf(r->target.type, sizeof r->target.type, "sim");
	l = r->limits;
	for (i = 0; i < l->nqd; i++)
		point_free(&l->qd_points[i]);
	free(l->qd_points);
	timeline_free(&l->timeline);
	l->nqd = 3;
	l->qd_points = xcalloc(3, sizeof *l->qd_points);
	for (i = 0; i < 3; i++)
		t_sweep_point(l, &l->qd_points[i], 1U << i, 3000,
		    LIMITS_PHASE_IODEPTH, (double)i);
	l->sustain_s = (double)n;
	memset(&ts, 0, sizeof ts);
	for (i = 0; i < n; i++) {
		ts.t_s = (double)i + 1;
		ts.dt_s = 1;
		ts.iops = isfinite(drop_at) && (double)i >= drop_at ? base :
		    3000;
		timeline_add(&l->timeline, &ts);
	}
	l->burst.held_iops = l->burst.held_s = NAN;
	l->burst.ruled_out_below_ios = NAN;
	l->burst.drop_t_s = l->burst.drop_sweep_t_s = NAN;
	if (isfinite(drop_at)) {
		l->burst.detected = 1;
		l->burst.burst_iops = 3000;
		l->burst.baseline_iops = l->long_run_iops = base;
		l->burst.drop_t_s = drop_at;
	} else {
		l->burst.held_iops = 3000;
		l->burst.held_s = (double)n - 3;
		l->burst.ruled_out_below_ios = 3000 * ((double)n - 3);
	}
	s = r->sync = xcalloc(1, sizeof *s);
	sync_result_init(s);
	s->nrows = 2;
	s->rows = xcalloc(2, sizeof *s->rows);
	for (i = 0; i < 2; i++) {
		s->rows[i].method = SYNC_FDATASYNC;
		s->rows[i].bs = 8192;
		s->rows[i].writers = i == 0 ? 1 : 4;
		s->rows[i].shared = i == 1;
		s->rows[i].pt.ios = 1000;
		s->rows[i].pt.iops = isfinite(drop_at) ? base : 800.0 *
		    (1 + 2 * i);
		s->rows[i].pt.lat_us.p99 = 2000;
	}
	s->best_method = SYNC_FDATASYNC;
	s->best_bs = 8192;
	report_state_apply(r);
}

/* The item of v named name; fails without one. */
static const struct verdict_item *
t_item(const struct verdict *v, const char *name)
{
	size_t	i;

	for (i = 0; i < v->nitems; i++)
		if (strcmp(v->item[i].name, name) == 0)
			return (&v->item[i]);
	fail_msg("no verdict item %s", name);
	return (NULL);
}

/* No drop: everything may have been lifted; the long run is bounded. */
static void
t_no_drop(void **state)
{
	struct report			 r;
	struct verdict			 v;
	const struct verdict_item	*it;
	size_t				 i;

	(void)state;
	t_run(&r, 120, NAN, NAN);
	assert_int_equal(r.scan->state, BUCKET_MAY_BE_FULL);
	for (i = 0; i < r.limits->nqd; i++)
		assert_int_equal(r.limits->qd_points[i].state,
		    BUCKET_MAY_BE_FULL);
	assert_int_equal(r.limits->long_run_state, BUCKET_MAY_BE_FULL);
	assert_int_equal(r.sync->state, BUCKET_MAY_BE_FULL);
	verdict_build(&r, NULL, &v);
	it = t_item(&v, "long_run.iops");
	assert_int_equal(it->standing, VERDICT_BOUNDED);
	assert_int_equal(it->bound, REPORT_BOUND_AT_MOST);
	assert_true(it->value == 3000);
	assert_int_equal(it->state, BUCKET_MAY_BE_FULL);
	/* Ten times the sustained run; a run, so that commits come after. */
	assert_string_equal(it->settle,
	    "tierprobe run sim:ebs-gp2-100g --sustain 1200");
	it = t_item(&v, "commit.rate");
	assert_int_equal(it->standing, VERDICT_MEASURED);
	assert_int_equal(it->state, BUCKET_MAY_BE_FULL);
	assert_true(it->settle[0] != '\0');
	it = t_item(&v, "tier1.capacity");
	assert_int_equal(it->state, BUCKET_UNAFFECTED);
	assert_true(strstr(v.bucket, "none ran dry in 120 s") != NULL);
	report_free(&r);

	/* A quick run's 8 s: the settling run is the default one's 10x. */
	t_run(&r, 8, NAN, NAN);
	verdict_build(&r, NULL, &v);
	assert_string_equal(t_item(&v, "long_run.iops")->settle,
	    "tierprobe run sim:ebs-gp2-100g --sustain 1200");
	report_free(&r);
	/*
	 * A run as long as that one already: no ten-times-longer request
	 * for the same question (issue 29.6); it says it cannot settle.
	 */
	t_run(&r, 3000, NAN, NAN);
	verdict_build(&r, NULL, &v);
	it = t_item(&v, "long_run.iops");
	assert_string_equal(it->settle, "");
	assert_non_null(strstr(it->reason, "no practical run rules out a "
	    "larger bucket"));
	report_free(&r);
}

/*
 * A drop in the sustained run: the sweeps and scan before it are full,
 * the run drains, the baseline and the commits after it are empty; the
 * long run is measured, and so are the commits, with nothing to settle.
 */
static void
t_drop_in_run(void **state)
{
	struct report			 r;
	struct verdict			 v;
	const struct verdict_item	*it;

	(void)state;
	t_run(&r, 100, 40, 300);
	assert_int_equal(r.scan->state, BUCKET_FULL);
	assert_int_equal(r.limits->iops_state, BUCKET_FULL);
	assert_int_equal(r.limits->sustain_state, BUCKET_DRAINING);
	assert_int_equal(r.limits->long_run_state, BUCKET_EMPTY);
	assert_int_equal(r.sync->state, BUCKET_EMPTY);
	assert_int_equal(r.sync->rows[0].pt.state, BUCKET_EMPTY);
	verdict_build(&r, NULL, &v);
	it = t_item(&v, "long_run.iops");
	assert_int_equal(it->standing, VERDICT_MEASURED);
	assert_true(it->value == 300);
	assert_int_equal(it->state, BUCKET_EMPTY);
	assert_string_equal(it->settle, "");
	it = t_item(&v, "commit.rate");
	assert_int_equal(it->state, BUCKET_EMPTY);
	assert_string_equal(it->settle, "");
	/* Four writers at the one writer's 300: the baseline holds them. */
	it = t_item(&v, "commit.group_rate");
	assert_non_null(strstr(it->reason, "no more than one"));
	assert_non_null(strstr(it->reason, "(300)"));
	it = t_item(&v, "store.p50");
	assert_int_equal(it->state, BUCKET_FULL);
	assert_true(strstr(v.bucket, "ran dry at 40.0 s") != NULL);
	report_free(&r);
}

/*
 * A drop during the sweeps, in the second depth's second: the first
 * depth was measured full, the second across the drop, the third after
 * it, the ceiling from those before; the sustained run and all after
 * it empty.
 */
static void
t_drop_in_sweeps(void **state)
{
	struct report	r;

	(void)state;
	t_run(&r, 100, NAN, NAN);
	r.limits->burst.detected = 1;
	r.limits->burst.exhausted = 1;
	r.limits->burst.drop_sweep_t_s = 1.5;
	r.limits->burst.burst_iops = 3000;
	r.limits->burst.baseline_iops = r.limits->long_run_iops = 300;
	report_state_apply(&r);
	assert_int_equal(r.scan->state, BUCKET_FULL);
	assert_int_equal(r.limits->qd_points[0].state, BUCKET_FULL);
	assert_int_equal(r.limits->qd_points[1].state, BUCKET_DRAINING);
	assert_int_equal(r.limits->qd_points[2].state, BUCKET_EMPTY);
	assert_int_equal(r.limits->iops_state, BUCKET_FULL);
	assert_int_equal(r.limits->sustain_state, BUCKET_EMPTY);
	assert_int_equal(r.limits->long_run_state, BUCKET_EMPTY);
	assert_int_equal(r.sync->state, BUCKET_EMPTY);
	report_free(&r);
}

/*
 * Commits that reach a limit of another state are not said to reach it:
 * 800 commits a second beside a read ceiling of 5,000 measured with a
 * bucket full, and no limit of their own state, is no "held by" at all.
 */
static void
t_cap_of_state(void **state)
{
	struct report	r;

	(void)state;
	t_run(&r, 120, NAN, NAN);
	assert_true(report_iops_cap_in(&r, BUCKET_MAY_BE_FULL) == 5000);
	assert_true(isnan(report_iops_cap_in(&r, BUCKET_EMPTY)));
	report_free(&r);
	t_run(&r, 100, 40, 300);
	/* The read ceiling was full; the baseline is the empty state's. */
	assert_true(report_iops_cap_in(&r, BUCKET_FULL) == 5000);
	assert_true(report_iops_cap_in(&r, BUCKET_EMPTY) == 300);
	report_free(&r);
}

/* The target as a command line takes it. */
static void
t_target(void **state)
{
	static const struct {
		const char	*type, *path, *want;
	} cases[] = {
		{ "sim", "ebs-gp3", "sim:ebs-gp3" },
		{ "sim", "sim:lying-buffer", "sim:lying-buffer" },
		{ "sim", "/p/gp2-250g.ini@m5.large",
		  "sim:/p/gp2-250g.ini@m5.large" },
		{ "file", "/mnt/db 1/tp.dat", "'/mnt/db 1/tp.dat'" },
		{ "file", "/mnt/it's", "'/mnt/it'\\''s'" },
		{ "blockdev", "/dev/nvme1n1", "/dev/nvme1n1" },
	};
	struct report	r;
	char		buf[128];
	size_t		i;

	(void)state;
	memset(&r, 0, sizeof r);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(r.target.type, sizeof r.target.type, "%s",
		    cases[i].type);
		r.target.path = (char *)cases[i].path;
		assert_string_equal(verdict_target(&r, buf, sizeof buf),
		    cases[i].want);
	}
}

/*
 * Several targets: a drop on the sum makes every figure alone a burst
 * figure (full), the sum's long run measured at the baseline; without a
 * drop the sum is bounded, settled by a longer run together.
 */
static void
t_together(void **state)
{
	struct report			 r;
	struct together_result		*t;
	struct verdict			 v;
	const struct verdict_item	*it;
	size_t				 i;

	(void)state;
	memset(&r, 0, sizeof r);
	snprintf(r.config.command, sizeof r.config.command, "limits");
	r.ntargets = 2;
	r.targets = xcalloc(2, sizeof *r.targets);
	for (i = 0; i < 2; i++) {
		t_run(&r.targets[i], 120, NAN, NAN);
		sync_result_free(r.targets[i].sync);
		free(r.targets[i].sync);
		r.targets[i].sync = NULL;
	}
	t = r.together = xcalloc(1, sizeof *t);
	together_result_init(t, 2);
	t->seconds = 9000;
	t->bandwidth_seconds = 10;
	t->iops.ceiling = 7000;
	t->bandwidth.ceiling = 500e6;
	t->burst.detected = 1;
	t->burst.burst_iops = 7000;
	t->burst.baseline_iops = 3600;
	t->burst.drop_t_s = 8000;
	t->burst_shared = 1;
	report_state_apply(&r);
	assert_int_equal(r.targets[0].limits->long_run_state, BUCKET_FULL);
	assert_int_equal(r.targets[1].scan->state, BUCKET_FULL);
	assert_int_equal(t->state, BUCKET_FULL);
	assert_int_equal(t->bandwidth_state, BUCKET_MAY_BE_FULL);
	verdict_together(&r, &v);
	it = t_item(&v, "together.long_run.iops");
	assert_int_equal(it->standing, VERDICT_MEASURED);
	assert_true(it->value == 3600);
	assert_int_equal(it->state, BUCKET_EMPTY);
	verdict_build(&r.targets[0], &r, &v);
	assert_non_null(strstr(v.bucket, "one the targets share ran dry"));
	assert_int_equal(t_item(&v, "long_run.iops")->state, BUCKET_FULL);
	for (i = 0; i < v.nitems; i++)
		assert_true(strncmp(v.item[i].name, "commit.", 7) != 0);

	t->burst.detected = 0;
	report_state_apply(&r);
	assert_int_equal(r.targets[0].limits->long_run_state,
	    BUCKET_MAY_BE_FULL);
	verdict_together(&r, &v);
	it = t_item(&v, "together.long_run.iops");
	assert_int_equal(it->standing, VERDICT_BOUNDED);
	assert_true(it->value == 7000);
	assert_string_equal(it->settle, "tierprobe limits sim:ebs-gp2-100g "
	    "sim:ebs-gp2-100g --sustain-together 90000");
	report_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_no_drop),
		cmocka_unit_test(t_drop_in_run),
		cmocka_unit_test(t_drop_in_sweeps),
		cmocka_unit_test(t_cap_of_state),
		cmocka_unit_test(t_target),
		cmocka_unit_test(t_together),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

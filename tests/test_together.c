/* SPDX-License-Identifier: ISC */
/*
 * Description: together.c on synthetic runs of two targets: the verdict per
 * resource from the sum together against the sum alone (volumes at the
 * sum, shared well below it with the limit's interval holding the truth,
 * unknown when the drop is within the noise, a target has no figure alone,
 * the run is too short, the CPU held it down, or the sum beats the
 * ceilings); a drop on the aggregate is a shared bucket only when no
 * target showed one alone and our CPU was not the limit; the per-target figures come from the same
 * intervals as the sum; the alone IOPS from a sustained run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"
#include "together.h"

#define T_N		2
#define T_INTERVALS	60

/* A run of T_N targets: target i at rate[i] (+- noise), per interval. */
struct t_run {
	struct timeline		tl[T_N];
	struct timeline		sum;
	struct together_run	run;
};

/*
 * Fill r: n intervals of 1 s, target i at rate[i] times (1 + noise x a
 * uniform draw in [-1, 1]), each at drop_rate[i] from interval drop on
 * (drop n: never).
 */
static void
t_run(struct t_run *r, const double *rate, const double *drop_rate,
    size_t n, size_t drop, double noise, double cpu, uint64_t seed)
{
	struct timeline_sample	s, sum;
	struct rng		rng;
	size_t			i, k;

	memset(r, 0, sizeof *r);
	rng_seed(&rng, seed);
	for (k = 0; k < n; k++) {
		memset(&sum, 0, sizeof sum);
		sum.t_s = s.t_s = k + 1;
		for (i = 0; i < T_N; i++) {
			s.iops = (k < drop ? rate[i] : drop_rate[i]) *
			    (1 + noise * (2 * rng_uniform(&rng) - 1));
			s.bytes_per_s = s.iops * 65536;
			s.lat_us_mean = 100;
			timeline_add(&r->tl[i], &s);
			sum.iops += s.iops;
			sum.bytes_per_s += s.bytes_per_s;
		}
		sum.lat_us_mean = 100;
		timeline_add(&r->sum, &sum);
	}
	r->run.ntargets = T_N;
	r->run.timeline = r->tl;
	r->run.sum = &r->sum;
	r->run.cpu_util = cpu;
	r->run.cpu_cores = 1;
}

static void
t_run_free(struct t_run *r)
{
	size_t	i;

	for (i = 0; i < T_N; i++)
		timeline_free(&r->tl[i]);
	timeline_free(&r->sum);
}

/* Both targets alone at a[0], a[1], capped (exact figures). */
static void
t_alone(struct together_alone *v, double a0, double a1)
{
	memset(v, 0, 2 * sizeof *v);
	v[0].rate = a0;
	v[1].rate = a1;
	v[0].capped = v[1].capped = 1;
	v[0].noise = v[1].noise = NAN;
}

/* The verdicts on the IOPS and bandwidth runs of each case. */
static void
test_verdicts(void **state)
{
	static const struct {
		const char	*what;
		double		 alone[T_N];	/* IOPS; bandwidth x 65536 */
		double		 together[T_N];
		double		 noise;		/* per interval, relative */
		size_t		 intervals;
		double		 cpu;
		int		 nan_alone;	/* target 2 has no figure */
		int		 bound;
		const char	*why;		/* in the reason, or NULL */
		double		 alone_noise;	/* relative, each alone */
		double		 cores;		/* the run's threads could
						   use (0: one) */
	} cases[] = {
		{ "at the sum", { 1000, 800 }, { 1000, 800 }, 0.02, 60, NAN,
		  0, TOGETHER_VOLUMES, NULL, 0, 0 },
		{ "4% short, exact", { 1000, 800 }, { 960, 768 }, 0, 60,
		  NAN, 0, TOGETHER_VOLUMES, NULL, 0, 0 },
		{ "a shared cap", { 1000, 800 }, { 600, 600 }, 0.02, 60, NAN,
		  0, TOGETHER_SHARED, NULL, 0, 0 },
		{ "6% short, exact", { 1000, 800 }, { 940, 752 }, 0, 60, NAN,
		  0, TOGETHER_SHARED, NULL, 0, 0 },
		{ "5% short in 40% noise", { 1000, 800 }, { 950, 760 }, 0.4,
		  12, NAN, 0, TOGETHER_UNKNOWN, "within the noise", 0, 0 },
		{ "2% over, noisy alone", { 1000, 800 }, { 1020, 816 }, 0, 60,
		  NAN, 0, TOGETHER_UNKNOWN, "2% above the sum alone", 0.15, 0 },
		{ "no figure alone", { 1000, 800 }, { 600, 600 }, 0.02, 60,
		  NAN, 1, TOGETHER_UNKNOWN, "target 2 has no figure alone", 0,
		  0 },
		{ "too short", { 1000, 800 }, { 600, 600 }, 0.02, 2, NAN, 0,
		  TOGETHER_UNKNOWN, "too short", 0, 0 },
		{ "our CPU", { 50000, 50000 }, { 30000, 30000 }, 0.01, 60,
		  0.97, 0, TOGETHER_UNKNOWN, "CPU", 0, 0 },
		{ "our CPU, at the sum alone", { 40000, 40000 },
		  { 45000, 45000 }, 0.01, 60, 0.97, 0, TOGETHER_UNKNOWN,
		  "CPU", 0, 0 },
		{ "two threads, half busy", { 50000, 50000 },
		  { 30000, 30000 }, 0.01, 60, 1.5, 0, TOGETHER_SHARED, NULL,
		  0, 2 },
		{ "two threads, both busy", { 50000, 50000 },
		  { 30000, 30000 }, 0.01, 60, 1.9, 0, TOGETHER_UNKNOWN, "CPU",
		  0, 2 },
		{ "above the ceilings", { 1000, 800 }, { 1500, 1200 }, 0.01, 60,
		  NAN, 0, TOGETHER_UNKNOWN, "beat", 0, 0 },
	};
	struct together_result	 r;
	struct together_alone	 ai[T_N], ab[T_N];
	struct t_run		 io, bw;
	int			 burst[T_N] = { 0, 0 }, busy;
	double			 sum;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_alone(ai, cases[i].alone[0], cases[i].alone[1]);
		t_alone(ab, cases[i].alone[0] * 65536,
		    cases[i].alone[1] * 65536);
		ai[0].noise = ai[1].noise = cases[i].alone_noise;
		ab[0].noise = ab[1].noise = cases[i].alone_noise;
		if (cases[i].nan_alone)
			ai[1].rate = ab[1].rate = NAN;
		t_run(&io, cases[i].together, cases[i].together,
		    cases[i].intervals, cases[i].intervals, cases[i].noise,
		    cases[i].cpu, i);
		t_run(&bw, cases[i].together, cases[i].together,
		    cases[i].intervals, cases[i].intervals, cases[i].noise,
		    cases[i].cpu, 100 + i);
		if (cases[i].cores > 0)
			io.run.cpu_cores = bw.run.cpu_cores = cases[i].cores;
		busy = cases[i].cpu > 0.9 * fmax(1, cases[i].cores);
		together_result_init(&r, T_N);
		together_analyse(ai, ab, burst, T_N, &io.run, &bw.run, NULL, 0,
		    &r);
		if (r.iops.bound != cases[i].bound ||
		    r.bandwidth.bound != cases[i].bound)
			fail_msg("%s: bounds %d and %d, want %d (why: %s)",
			    cases[i].what, r.iops.bound, r.bandwidth.bound,
			    cases[i].bound, r.iops.why);
		if (cases[i].why != NULL && strstr(r.iops.why,
		    cases[i].why) == NULL)
			fail_msg("%s: why \"%s\" lacks \"%s\"", cases[i].what,
			    r.iops.why, cases[i].why);
		if (cases[i].why == NULL)
			assert_string_equal(r.iops.why, "");
		assert_int_equal(r.cpu_bound, busy);
		if (busy)
			assert_non_null(strstr(r.bandwidth.why, "CPU"));
		sum = cases[i].together[0] + cases[i].together[1];
		if (cases[i].intervals > 3) {
			assert_true(fabs(r.iops.ceiling / sum - 1) <
			    cases[i].noise + 1e-9);
			assert_true(fabs((r.per_target[0].iops +
			    r.per_target[1].iops) / r.iops.ceiling - 1) < 1e-9);
		}
		if (r.iops.bound == TOGETHER_SHARED) {
			assert_true(r.iops.shared_low <= sum &&
			    sum <= r.iops.shared_high);
			assert_true(fabs(r.bandwidth.shared / 65536 / sum - 1) <
			    0.01);
		} else
			assert_true(isnan(r.iops.shared));
		assert_int_equal(r.burst_shared, -1);
		together_result_free(&r);
		t_run_free(&io);
		t_run_free(&bw);
	}
}

/*
 * A drop on the aggregate at 3,000 s: a shared bucket when no target
 * showed one alone, perhaps theirs when one did; the figure together is
 * the rate before the drop, and the bucket counts the work before; none
 * at all when our CPU was the limit.
 */
static void
test_shared_bucket(void **state)
{
	static const double	rate[T_N] = { 4000, 4000 };
	static const double	after[T_N] = { 1800, 1800 };
	struct ceilings_prior	prior = { .ios = 4000 * 100.0, .seconds = 100 };
	struct together_result	r;
	struct together_alone	ai[T_N], ab[T_N];
	struct t_run		io;
	int			burst[T_N] = { 0, 0 }, k;

	(void)state;
	t_alone(ai, 4000, 4000);
	t_alone(ab, NAN, NAN);
	t_run(&io, rate, after, 4000, 3000, 0.01, NAN, 9);
	for (k = 0; k < 2; k++) {
		burst[1] = k;
		together_result_init(&r, T_N);
		together_analyse(ai, ab, burst, T_N, &io.run, NULL, &prior, 1,
		    &r);
		assert_true(r.burst.detected);
		assert_int_equal(r.burst_shared, !k);
		assert_true(fabs(r.burst.burst_iops / 8000 - 1) < 0.01);
		assert_true(fabs(r.burst.baseline_iops / 3600 - 1) < 0.01);
		/* 3,000 s above the baseline, and 100 s before at 4,000. */
		assert_true(fabs(r.burst.credits_ios /
		    (4400.0 * 3000 + 400 * 100) - 1) < 0.02);
		assert_int_equal(r.iops.bound, TOGETHER_VOLUMES);
		assert_true(fabs(r.iops.ceiling / 8000 - 1) < 0.01);
		assert_int_equal(r.bandwidth.bound, TOGETHER_UNKNOWN);
		assert_non_null(strstr(r.bandwidth.why, "not measured"));
		together_result_free(&r);
	}
	/* The same drop with our CPU the limit: no bucket, no verdict. */
	io.run.cpu_util = 0.97;
	together_result_init(&r, T_N);
	together_analyse(ai, ab, burst, T_N, &io.run, NULL, &prior, 1, &r);
	assert_false(r.burst.detected);
	assert_int_equal(r.burst_shared, -1);
	assert_non_null(strstr(r.note, "CPU"));
	assert_int_equal(r.iops.bound, TOGETHER_UNKNOWN);
	assert_int_equal(r.cpu_bound, 1);
	together_result_free(&r);
	t_run_free(&io);
}

/* The IOPS alone: a sustained run's mean, or the ceiling without one. */
static void
test_alone_iops(void **state)
{
	static const double	rate[T_N] = { 1000, 500 };
	struct together_alone	a;
	struct t_run		run;

	(void)state;
	t_run(&run, rate, rate, 20, 20, 0.1, NAN, 3);
	together_alone_rate(&run.tl[0], 0, 1, 950, 990, &a);
	assert_true(a.capped);
	assert_true(fabs(a.rate / 1000 - 1) < 0.05);
	assert_true(a.noise > 0 && a.noise < 0.1);
	together_alone_rate(&run.tl[0], 0, 0, 950, 990, &a);
	assert_true(a.rate == 950 && isnan(a.noise));
	together_alone_rate(&run.tl[0], 0, 0, NAN, 990, &a);
	assert_true(a.rate == 990 && !a.capped);
	t_run_free(&run);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_shared_bucket),
		cmocka_unit_test(test_alone_iops),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

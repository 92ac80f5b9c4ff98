/* SPDX-License-Identifier: ISC */
/* Tests for stats.c: Welford on known data (and large offsets), Student t
 * quantiles, coverage of the 95% interval (of a series of rates too), the
 * steady-state rule, mean, sd and median of arrays. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"
#include "stats.h"

/* cmocka's assert_float_equal works in float: compare doubles here. */
#define T_NEAR(a, b, eps) do {						\
	double	t_a_ = (a), t_b_ = (b);					\
	if (!(fabs(t_a_ - t_b_) <= (eps)))				\
		fail_msg("%s = %.10g, want %.10g", #a, t_a_, t_b_);	\
} while (0)

static void
t_welford(void **state)
{
	static const double	 a[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	static const double	 b[] = { 4, 7, 13, 16 };
	struct stats		 s;
	size_t			 i;

	(void)state;
	stats_init(&s);
	assert_true(stats_mean(&s) == 0 && stats_var(&s) == 0);
	assert_true(isinf(stats_ci95(&s)) && isinf(stats_ci95_rel(&s)));
	stats_add(&s, 3);
	assert_true(stats_mean(&s) == 3 && stats_var(&s) == 0);
	assert_true(isinf(stats_ci95(&s)));

	stats_init(&s);
	for (i = 0; i < 8; i++)
		stats_add(&s, a[i]);
	assert_true(s.n == 8);
	T_NEAR(stats_mean(&s), 5, 1e-12);
	T_NEAR(stats_var(&s), 32.0 / 7, 1e-12);
	T_NEAR(stats_sd(&s), sqrt(32.0 / 7), 1e-12);
	/* t(7) = 2.364624 */
	T_NEAR(stats_ci95(&s), 2.364624 * sqrt(32.0 / 7) / sqrt(8),
	    1e-5);
	T_NEAR(stats_ci95_rel(&s), stats_ci95(&s) / 5, 1e-12);

	/* A large offset that ruins the naive sum of squares. */
	stats_init(&s);
	for (i = 0; i < 4; i++)
		stats_add(&s, 1e9 + b[i]);
	T_NEAR(stats_mean(&s), 1e9 + 10, 1e-6);
	T_NEAR(stats_var(&s), 30, 1e-6);

	/* Zero mean: the relative interval is undefined. */
	stats_init(&s);
	stats_add(&s, -1);
	stats_add(&s, 1);
	assert_true(isinf(stats_ci95_rel(&s)));
}

static void
t_t95(void **state)
{
	/* Reference 0.975 quantiles of Student's t. */
	static const struct {
		uint64_t	df;
		double		t;
	} ref[] = {
		{ 1, 12.706205 }, { 2, 4.302653 }, { 5, 2.570582 },
		{ 10, 2.228139 }, { 30, 2.042272 }, { 31, 2.039513 },
		{ 35, 2.030108 }, { 40, 2.021075 }, { 60, 2.000298 },
		{ 100, 1.983972 }, { 120, 1.979930 }, { 1000, 1.962339 },
		{ 10000, 1.960201 },
	};
	uint64_t	df;
	size_t		i;

	(void)state;
	assert_true(isinf(stats_t95(0)));
	for (i = 0; i < sizeof ref / sizeof ref[0]; i++) {
		if (fabs(stats_t95(ref[i].df) - ref[i].t) > 2e-6)
			fail_msg("t95(%llu) = %.7f, want %.6f",
			    (unsigned long long)ref[i].df,
			    stats_t95(ref[i].df), ref[i].t);
	}
	for (df = 1; df < 2000; df++)
		assert_true(stats_t95(df + 1) < stats_t95(df));
	T_NEAR(stats_t95(UINT64_MAX), 1.959964, 1e-6);
}

/* Fraction of trials whose 95% interval from n normal values holds the mean. */
static double
t_coverage(struct rng *r, uint64_t n, int trials)
{
	const double	mu = 50, sigma = 7;
	struct stats	s;
	uint64_t	i;
	int		t, hit = 0;

	for (t = 0; t < trials; t++) {
		stats_init(&s);
		for (i = 0; i < n; i++)
			stats_add(&s, mu + sigma * rng_normal(r));
		hit += fabs(stats_mean(&s) - mu) <= stats_ci95(&s);
	}
	return ((double)hit / trials);
}

static void
t_ci_coverage(void **state)
{
	static const uint64_t	 ns[] = { 3, 5, 40 };
	struct rng		 r;
	size_t			 i;
	double			 c;

	(void)state;
	rng_seed(&r, 95);
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		/* With 1.96 instead of t(2) this would be near 80%. */
		c = t_coverage(&r, ns[i], 1000);
		print_message("n=%llu: %.1f%% of 1000 intervals hold the mean\n",
		    (unsigned long long)ns[i], c * 100);
		assert_true(c >= 0.92 && c <= 0.98);
	}
}

/*
 * stats_series_ci95 over trials of n values from model m: 0 independent
 * normal, 1 a clump counted in one interval or the next (each value the
 * rate plus this interval's share of a clump minus the last one's), 2
 * positively correlated (AR(1), 0.6).  Returns the coverage; *ratio the
 * mean half-width over that of stats_ci95.
 */
static double
t_series(struct rng *r, size_t n, int m, int trials, double *ratio)
{
	const double	mu = 1000, sigma = 50;
	struct stats	s;
	double		x[64], prev, e, half, w = 0;
	size_t		i;
	int		t, hit = 0;

	for (t = 0; t < trials; t++) {
		stats_init(&s);
		prev = m == 1 ? rng_uniform(r) : rng_normal(r);
		for (i = 0; i < n; i++) {
			e = m == 1 ? rng_uniform(r) : rng_normal(r);
			x[i] = m == 0 ? mu + sigma * e : m == 1 ? mu + 2 *
			    sigma * (e - prev) : mu + sigma * (prev = 0.6 *
			    prev + e);
			if (m == 1)
				prev = e;
			stats_add(&s, x[i]);
		}
		half = stats_series_ci95(x, n);
		hit += fabs(stats_mean(&s) - mu) <= half;
		w += half / stats_ci95(&s);
	}
	*ratio = w / trials;
	return ((double)hit / trials);
}

static void
t_series_ci(void **state)
{
	struct rng	r;
	double		c, ratio;

	(void)state;
	rng_seed(&r, 7);
	assert_true(isinf(stats_series_ci95((double[]){ 1, 2 }, 2)));
	/* Independent values: the usual interval, about. */
	c = t_series(&r, 9, 0, 2000, &ratio);
	print_message("independent: %.1f%% hold, width x%.2f\n", 100 * c,
	    ratio);
	assert_true(c >= 0.90 && c <= 0.98);
	assert_true(ratio >= 0.7 && ratio <= 1.2);
	/* Clumps cancelling: narrower, never below 1/sqrt(2), still right. */
	c = t_series(&r, 9, 1, 2000, &ratio);
	print_message("clumps: %.1f%% hold, width x%.2f\n", 100 * c, ratio);
	assert_true(c >= 0.99);
	assert_true(ratio >= 0.70 && ratio <= 0.85);
	/* Positively correlated: wider than the usual one. */
	c = t_series(&r, 30, 2, 2000, &ratio);
	print_message("correlated: %.1f%% hold, width x%.2f\n", 100 * c,
	    ratio);
	assert_true(ratio > 1.1);
}

static void
t_steady(void **state)
{
	static const struct {
		double		xs[8];
		size_t		n;
		int		steady;
	} cases[] = {
		{ { 100, 102, 98, 101, 99 }, 5, 1 },
		/* Excursion 18% is fine, but the rise 20 > 10% of 110. */
		{ { 100, 105, 110, 115, 120 }, 5, 0 },
		/* Rise 4 of 102: fine. */
		{ { 100, 101, 102, 103, 104 }, 5, 1 },
		/* One spike: excursion 30 > 20% of 106. */
		{ { 100, 130, 100, 100, 100 }, 5, 0 },
		/* Excursion 20 of 100.2: just within; flat trend. */
		{ { 91, 110, 100, 110, 90 }, 5, 1 },
		/* Excursion 21 of 100.2: just out. */
		{ { 90, 111, 100, 100, 100 }, 5, 0 },
		/* Negative values are judged on |mean|. */
		{ { -100, -102, -98, -101, -99 }, 5, 1 },
		{ { 0, 0, 0, 0, 0 }, 5, 0 },
		{ { 100 }, 1, 0 },
		{ { 1000, 1010, 990, 1000, 1005, 995, 1000, 1000 }, 8, 1 },
		/* A slow drift of 15% over eight rounds. */
		{ { 1000, 1020, 1040, 1060, 1080, 1100, 1120, 1150 }, 8, 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (stats_is_steady(cases[i].xs, cases[i].n, 0.20, 0.10) !=
		    cases[i].steady)
			fail_msg("case %zu: want %s", i, cases[i].steady ?
			    "steady" : "not steady");
	}
	/* Looser limits accept the drifting series. */
	assert_true(stats_is_steady(cases[1].xs, 5, 0.20, 0.20));
}

static void
t_mean_sd(void **state)
{
	static const double	 a[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double			 mean, sd;

	(void)state;
	stats_mean_sd(a, 8, &mean, &sd);
	T_NEAR(mean, 5, 1e-12);
	T_NEAR(sd, sqrt(32.0 / 7), 1e-12);
	stats_mean_sd(a, 1, &mean, &sd);
	assert_true(mean == 2 && sd == 0);
	stats_mean_sd(a, 0, &mean, &sd);
	assert_true(mean == 0 && sd == 0);
}

/* The median: odd and even counts, any order, the input left alone. */
static void
t_median(void **state)
{
	static const struct {
		double	v[6];
		size_t	n;
		double	want;
	} cases[] = {
		{ { 3 }, 1, 3 },
		{ { 9, -1, 4 }, 3, 4 },
		{ { 5, 1, 10, 2 }, 4, 3.5 },
		{ { 7, 7, 7, 1, 100, 7 }, 6, 7 },
		{ { -2, -8 }, 2, -5 },
	};
	double	v[6];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(v, cases[i].v, sizeof v);
		T_NEAR(stats_median(v, cases[i].n), cases[i].want, 0);
		assert_memory_equal(v, cases[i].v, sizeof v);
	}
	assert_true(isnan(stats_median(v, 0)));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_welford),
		cmocka_unit_test(t_t95),
		cmocka_unit_test(t_ci_coverage),
		cmocka_unit_test(t_series_ci),
		cmocka_unit_test(t_steady),
		cmocka_unit_test(t_mean_sd),
		cmocka_unit_test(t_median),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

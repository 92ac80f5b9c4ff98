/* SPDX-License-Identifier: ISC */
/* Tests for hist.c: bucket layout and its error bound, percentiles of 10^6
 * lognormal and uniform values against the exact sorted-sample quantiles,
 * merge, exact mean, fraction below a threshold, overflow, the geometric
 * mean's precision, the distance of two histograms. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"
#include "rng.h"

#define T_N	1000000

static int
t_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Exact q-quantile of a sorted sample, rank q * (n - 1) interpolated. */
static double
t_quantile(const uint64_t *v, size_t n, double q)
{
	double	r = q * (double)(n - 1), f;
	size_t	i = (size_t)r;

	if (i + 1 >= n)
		return ((double)v[n - 1]);
	f = r - (double)i;
	return ((double)v[i] * (1 - f) + (double)v[i + 1] * f);
}

/* Buckets tile [0, HIST_MAX_NS) in order, and every value maps into its own. */
static void
t_layout(void **state)
{
	struct rng	r;
	uint64_t	v;
	size_t		i, j, prev = 0;
	double		mid, worst = 0;

	(void)state;
	assert_true(sizeof(struct hist) < 64 * 1024);
	assert_true(HIST_MAX_NS >= 100ULL * 1000 * 1000 * 1000);
	assert_true(hist_bucket_low(0) == 0);
	for (i = 0; i + 1 < HIST_BUCKETS; i++) {
		assert_true(hist_bucket_low(i) < hist_bucket_high(i));
		assert_true(hist_bucket_high(i) == hist_bucket_low(i + 1));
	}
	assert_true(hist_bucket_high(HIST_BUCKETS - 1) == HIST_MAX_NS);

	rng_seed(&r, 1);
	for (j = 0; j < 400000; j++) {
		/* Every value to 4096, then log-uniform up to 2^40. */
		if (j <= 4096)
			v = j;
		else
			v = (uint64_t)exp2(rng_uniform(&r) * 40);
		i = hist_index(v);
		assert_true(i < HIST_BUCKETS);
		if (v >= HIST_MAX_NS) {
			assert_true(i == HIST_BUCKETS - 1);
			continue;
		}
		assert_true(hist_bucket_low(i) <= v && v < hist_bucket_high(i));
		if (j <= 4096) {
			assert_true(i >= prev);
			prev = i;
		}
		if (v >= 100) {
			mid = hist_bucket_value(i);
			if (fabs(mid - (double)v) / (double)v > worst)
				worst = fabs(mid - (double)v) / (double)v;
		}
	}
	print_message("worst midpoint error from 100 ns: %.3f%%\n",
	    worst * 100);
	assert_true(worst <= 0.01);
	/* Values below 2^HIST_SUB_BITS are exact. */
	for (v = 0; v < 256; v++)
		assert_true(hist_bucket_value(hist_index(v)) == (double)v);
}

/* Percentiles of a sample against the sorted sample's exact quantiles. */
static void
t_check_percentiles(uint64_t *v, size_t n, const char *what)
{
	static const double	 qs[] = {
		0, 0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99,
		0.999, 0.9999, 1,
	};
	struct hist		*h;
	size_t			 i;
	double			 want, got, err, worst = 0;

	h = malloc(sizeof *h);
	hist_init(h);
	for (i = 0; i < n; i++)
		hist_add(h, v[i]);
	qsort(v, n, sizeof *v, t_cmp_u64);
	for (i = 0; i < sizeof qs / sizeof qs[0]; i++) {
		want = t_quantile(v, n, qs[i]);
		got = hist_percentile(h, qs[i]);
		err = fabs(got - want) / want;
		if (err > worst)
			worst = err;
		if (err > 0.01)
			fail_msg("%s: q %g: got %.1f, want %.1f", what, qs[i],
			    got, want);
	}
	assert_true(hist_percentile(h, 0) == (double)v[0]);
	assert_true(hist_percentile(h, 1) == (double)v[n - 1]);
	print_message("%s: worst percentile error %.3f%%\n", what,
	    worst * 100);
	free(h);
}

static void
t_percentiles(void **state)
{
	struct rng	 r;
	uint64_t	*v;
	size_t		 i;

	(void)state;
	v = malloc(T_N * sizeof *v);
	rng_seed(&r, 31337);

	/* Lognormal around 200 us, sigma 1.5: ns to seconds. */
	for (i = 0; i < T_N; i++)
		v[i] = (uint64_t)(200e3 * exp(1.5 * rng_normal(&r)));
	t_check_percentiles(v, T_N, "lognormal");

	/* Uniform over 100 ns .. 100 s. */
	for (i = 0; i < T_N; i++)
		v[i] = 100 + rng_below(&r, 100ULL * 1000 * 1000 * 1000);
	t_check_percentiles(v, T_N, "uniform 100ns-100s");

	/* Uniform in a narrow band: interpolation inside buckets. */
	for (i = 0; i < T_N; i++)
		v[i] = 50000 + rng_below(&r, 1000);
	t_check_percentiles(v, T_N, "uniform 50-51us");

	/* Two spikes: every quantile is one of two values. */
	for (i = 0; i < T_N; i++)
		v[i] = rng_below(&r, 10) < 9 ? 80000 : 5000000;
	t_check_percentiles(v, T_N, "bimodal");
	free(v);
}

static void
t_merge_mean(void **state)
{
	struct hist	*a, *b, *all, *empty;
	struct rng	 r;
	uint64_t	 v, sum = 0;
	size_t		 i;

	(void)state;
	a = malloc(sizeof *a);
	b = malloc(sizeof *b);
	all = malloc(sizeof *all);
	empty = malloc(sizeof *empty);
	hist_init(a);
	hist_init(b);
	hist_init(all);
	hist_init(empty);

	assert_true(hist_mean(a) == 0);
	assert_true(hist_percentile(a, 0.5) == 0);
	assert_true(hist_fraction_below(a, 1e9) == 0);

	rng_seed(&r, 5);
	for (i = 0; i < 100000; i++) {
		v = 1000 + rng_below(&r, 1000000000);
		sum += v;
		hist_add(all, v);
		hist_add(i % 3 == 0 ? a : b, v);
	}
	/* Merging into and from an empty histogram keeps min and max. */
	hist_merge(empty, a);
	hist_merge(empty, b);
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof *all);
	assert_memory_equal(empty, all, sizeof *all);
	hist_init(b);
	hist_merge(a, b);
	assert_memory_equal(a, all, sizeof *all);

	assert_true(all->count == 100000);
	assert_true(hist_mean(all) == (double)sum / 100000);
	free(a);
	free(b);
	free(all);
	free(empty);
}

static void
t_fraction_below(void **state)
{
	static const double	 ts[] = { 1e2, 1e3, 5e4, 1e5, 2e5, 1e6, 1e7 };
	struct hist		*h;
	struct rng		 r;
	uint64_t		*v;
	size_t			 i, j, below;
	double			 got, want, slack;

	(void)state;
	h = malloc(sizeof *h);
	v = malloc(200000 * sizeof *v);
	hist_init(h);
	rng_seed(&r, 77);
	for (i = 0; i < 200000; i++) {
		v[i] = (uint64_t)(1e5 * exp(rng_normal(&r)));
		hist_add(h, v[i]);
	}
	for (j = 0; j < sizeof ts / sizeof ts[0]; j++) {
		for (i = 0, below = 0; i < 200000; i++)
			below += v[i] < ts[j];
		want = below / 200000.0;
		got = hist_fraction_below(h, ts[j]);
		/* Only the bucket holding the threshold can be misjudged. */
		slack = h->bucket[hist_index((uint64_t)ts[j])] / 200000.0;
		if (fabs(got - want) > slack + 1e-12)
			fail_msg("below %g: got %g, want %g", ts[j], got, want);
	}
	assert_true(hist_fraction_below(h, 0) == 0);
	assert_true(hist_fraction_below(h, 1e12) == 1);
	free(v);
	free(h);
}

/*
 * The geometric mean's precision: 1.96 sd / sqrt(n) of ln(value) for a
 * lognormal (sigma 0.3: 0.0059 over 10,000 values); reads preempted for
 * 3 ms, one in 2,000, leave it below that of a sigma of 0.4 (they take the
 * mean from 1.57 to 3.07 us, and its sd from 0.48 to 67 us).
 */
static void
t_log_ci95(void **state)
{
	struct hist	h;
	struct rng	g;
	size_t		i;

	(void)state;
	hist_init(&h);
	assert_true(isinf(hist_log_ci95(&h)));
	rng_seed(&g, 3);
	for (i = 0; i < 10000; i++)
		hist_add(&h, (uint64_t)llround(1500 * exp(0.3 *
		    rng_normal(&g))));
	assert_true(fabs(hist_log_ci95(&h) / (1.96 * 0.3 / 100) - 1) < 0.05);
	for (i = 0; i < 5; i++)
		hist_add(&h, 3000000);
	assert_true(hist_log_ci95(&h) < 1.96 * 0.4 / 100);
}

/*
 * Kolmogorov-Smirnov distance: 0 for the same reads, 1 for reads that do
 * not overlap, and the share of reads that moved when a fifth of them
 * turn 10x slower (a cache's misses appearing).
 */
static void
t_distance(void **state)
{
	struct hist	*a, *b;
	size_t		 i;

	(void)state;
	a = malloc(2 * sizeof *a);
	b = a + 1;
	hist_init(a);
	hist_init(b);
	assert_true(hist_distance(a, b) == 0);
	for (i = 0; i < 1000; i++) {
		hist_add(a, 1000 + i);
		hist_add(b, 1000 + i);
	}
	assert_true(hist_distance(a, b) == 0);
	hist_init(b);
	for (i = 0; i < 1000; i++)
		hist_add(b, 100000 + i);
	assert_true(fabs(hist_distance(a, b) - 1) < 1e-12);
	hist_init(b);
	for (i = 0; i < 1000; i++)
		hist_add(b, (1000 + i) * (i % 5 == 0 ? 10 : 1));
	assert_true(fabs(hist_distance(a, b) - 0.2) < 0.01);
	assert_true(hist_distance(a, b) == hist_distance(b, a));
	free(a);
}

static void
t_overflow(void **state)
{
	struct hist	*h;

	(void)state;
	h = malloc(sizeof *h);
	hist_init(h);
	hist_add(h, 1000);
	hist_add(h, HIST_MAX_NS - 1);
	assert_true(h->overflow == 0);
	hist_add(h, HIST_MAX_NS);
	hist_add(h, UINT64_MAX / 2);
	assert_true(h->overflow == 2);
	assert_true(h->bucket[HIST_BUCKETS - 1] == 3);
	assert_true(h->max_ns == UINT64_MAX / 2);
	assert_true(h->min_ns == 1000);
	assert_true(hist_percentile(h, 1) == (double)(UINT64_MAX / 2));
	assert_true(hist_percentile(h, 0.99) >= (double)HIST_MAX_NS / 2);
	assert_true(hist_percentile(h, 0) == 1000);
	free(h);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_layout),
		cmocka_unit_test(t_percentiles),
		cmocka_unit_test(t_merge_mean),
		cmocka_unit_test(t_fraction_below),
		cmocka_unit_test(t_overflow),
		cmocka_unit_test(t_log_ci95),
		cmocka_unit_test(t_distance),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/* Tests for changepoint.c: known steps found within 2 samples, none in pure
 * noise, PELT equal to brute-force optimal partitioning on small series, the
 * robust noise variance, and the max and min_seg limits. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "changepoint.h"
#include "rng.h"

#define T_MAXCP	64

/* Sum of squared deviations from the mean of x[s..t), computed directly. */
static double
t_cost(const double *x, size_t s, size_t t)
{
	double	mean = 0, c = 0;
	size_t	i;

	for (i = s; i < t; i++)
		mean += x[i];
	mean /= (double)(t - s);
	for (i = s; i < t; i++)
		c += (x[i] - mean) * (x[i] - mean);
	return (c);
}

/* Penalised cost of a segmentation given by its change points. */
static double
t_total(const double *x, size_t n, const size_t *cps, size_t ncp,
    double penalty)
{
	double	c = 0;
	size_t	i, s = 0;

	for (i = 0; i < ncp; i++) {
		c += t_cost(x, s, cps[i]) + penalty;
		s = cps[i];
	}
	return (c + t_cost(x, s, n));
}

/* Optimal partitioning by the O(n^2) recursion, without pruning. */
static size_t
t_brute(const double *x, size_t n, double penalty, size_t min_seg,
    size_t *cps)
{
	double	*f, v;
	size_t	*last, s, t, ncp = 0, i;

	f = malloc((n + 1) * sizeof *f);
	last = calloc(n + 1, sizeof *last);
	f[0] = -penalty;
	for (t = 1; t <= n; t++) {
		f[t] = INFINITY;
		for (s = 0; s + min_seg <= t; s++) {
			if (s != 0 && s < min_seg)
				continue;
			v = f[s] + t_cost(x, s, t) + penalty;
			if (v < f[t]) {
				f[t] = v;
				last[t] = s;
			}
		}
	}
	for (t = last[n]; t > 0; t = last[t])
		ncp++;
	for (i = ncp, t = last[n]; t > 0; t = last[t])
		cps[--i] = t;
	free(last);
	free(f);
	return (ncp);
}

static void
t_known_step(void **state)
{
	double		x[400], var;
	size_t		cps[T_MAXCP], ncp, i;
	struct rng	r;

	(void)state;
	rng_seed(&r, 4000);
	for (i = 0; i < 400; i++)
		x[i] = (i < 200 ? 3000 : 300) + 30 * rng_normal(&r);
	var = changepoint_noise_var(x, 400);
	print_message("noise var %.0f (true 900)\n", var);
	assert_true(var > 900 * 0.75 && var < 900 * 1.3);
	ncp = changepoint_pelt(x, 400, changepoint_penalty(400, var), 5, cps,
	    T_MAXCP);
	assert_int_equal(ncp, 1);
	print_message("change at %zu (true 200)\n", cps[0]);
	assert_true(cps[0] >= 198 && cps[0] <= 202);
}

/* Three tiers and a small final drop, as a cache sweep might show. */
static void
t_several_steps(void **state)
{
	static const struct {
		size_t	start;
		double	level;
	} seg[] = {
		{ 0, 50000 }, { 150, 20000 }, { 420, 4000 }, { 700, 3000 },
	};
	double		x[1000], var;
	size_t		cps[T_MAXCP], ncp, i, k;
	struct rng	r;

	(void)state;
	rng_seed(&r, 17);
	for (i = 0, k = 0; i < 1000; i++) {
		if (k + 1 < 4 && i >= seg[k + 1].start)
			k++;
		x[i] = seg[k].level + 200 * rng_normal(&r);
	}
	var = changepoint_noise_var(x, 1000);
	ncp = changepoint_pelt(x, 1000, changepoint_penalty(1000, var), 10,
	    cps, T_MAXCP);
	assert_int_equal(ncp, 3);
	for (k = 1; k < 4; k++) {
		for (i = 0; i < ncp; i++) {
			if (cps[i] + 2 >= seg[k].start &&
			    cps[i] <= seg[k].start + 2)
				break;
		}
		if (i == ncp)
			fail_msg("change at %zu not found", seg[k].start);
	}

	/* With max 2 only the first two are written. */
	assert_int_equal(changepoint_pelt(x, 1000,
	    changepoint_penalty(1000, var), 10, cps, 2), 2);
	assert_true(cps[0] < cps[1] && cps[1] < 430);
}

static void
t_pure_noise(void **state)
{
	double		x[400], var;
	size_t		cps[T_MAXCP], ncp, i;
	uint64_t	seed;
	struct rng	r;

	(void)state;
	for (seed = 1; seed <= 20; seed++) {
		rng_seed(&r, seed);
		for (i = 0; i < 400; i++)
			x[i] = 1000 + 30 * rng_normal(&r);
		var = changepoint_noise_var(x, 400);
		ncp = changepoint_pelt(x, 400, changepoint_penalty(400, var),
		    5, cps, T_MAXCP);
		if (ncp != 0)
			fail_msg("seed %llu: %zu change points in noise, "
			    "first %zu", (unsigned long long)seed, ncp,
			    cps[0]);
	}
}

/* PELT's answer against the unpruned recursion on many small series. */
static void
t_against_brute_force(void **state)
{
	double		x[80], level = 0, pen, cp, cb;
	size_t		a[T_MAXCP], b[T_MAXCP], na, nb, n, min_seg, i;
	struct rng	r;
	int		trial, same = 0, nonempty = 0;

	(void)state;
	rng_seed(&r, 2012);
	for (trial = 0; trial < 400; trial++) {
		n = 8 + rng_below(&r, 73);
		min_seg = 1 + rng_below(&r, 6);
		pen = 0.5 + 20 * rng_uniform(&r);
		for (i = 0; i < n; i++) {
			if (rng_below(&r, 10) == 0)
				level = 4 * rng_normal(&r);
			x[i] = level + rng_normal(&r);
		}
		na = changepoint_pelt(x, n, pen, min_seg, a, T_MAXCP);
		nb = t_brute(x, n, pen, min_seg, b);
		for (i = 0; i < na; i++) {
			assert_true(a[i] >= min_seg && n - a[i] >= min_seg);
			assert_true(i == 0 || a[i] - a[i - 1] >= min_seg);
		}
		cp = t_total(x, n, a, na, pen);
		cb = t_total(x, n, b, nb, pen);
		if (fabs(cp - cb) > 1e-9 * (fabs(cb) + 1))
			fail_msg("trial %d: PELT cost %.12g, optimum %.12g",
			    trial, cp, cb);
		if (na == nb) {
			for (i = 0; i < na && a[i] == b[i]; i++)
				;
			same += i == na;
		}
		nonempty += nb > 0;
	}
	/* Equal costs; the same points unless two segmentations tie. */
	print_message("%d of 400 identical, %d with change points\n", same,
	    nonempty);
	assert_true(same >= 398);
	assert_true(nonempty > 200);
}

static void
t_limits(void **state)
{
	double		x[2000], var;
	size_t		cps[T_MAXCP], i;
	struct rng	r;

	(void)state;
	/* Too short for two segments of min_seg. */
	for (i = 0; i < 9; i++)
		x[i] = i < 5 ? 0 : 100;
	assert_int_equal(changepoint_pelt(x, 9, 1, 5, cps, T_MAXCP), 0);
	assert_int_equal(changepoint_pelt(x, 10, 1, 5, cps, 0), 0);
	/* min_seg 0 is taken as 1: a single odd value is its own segment. */
	for (i = 0; i < 20; i++)
		x[i] = i == 7 ? 100 : 0;
	assert_int_equal(changepoint_pelt(x, 20, 1, 0, cps, T_MAXCP), 2);
	assert_true(cps[0] == 7 && cps[1] == 8);
	/* With min_seg 2 the odd value shares a segment with a neighbour. */
	assert_int_equal(changepoint_pelt(x, 20, 1, 2, cps, T_MAXCP), 2);
	assert_true((cps[0] == 6 || cps[0] == 7) && cps[1] == cps[0] + 2);

	assert_true(changepoint_noise_var(x, 2) == 0);
	for (i = 0; i < 20; i++)
		x[i] = 5;
	assert_true(changepoint_noise_var(x, 20) == 0);
	assert_true(changepoint_penalty(1000, 4) == 8 * log(1000));

	/* A long series with a change every 200 samples. */
	rng_seed(&r, 8);
	for (i = 0; i < 2000; i++)
		x[i] = (double)(i / 200 % 2) * 10 + rng_normal(&r);
	var = changepoint_noise_var(x, 2000);
	assert_int_equal(changepoint_pelt(x, 2000,
	    changepoint_penalty(2000, var), 20, cps, T_MAXCP), 9);
	for (i = 0; i < 9; i++)
		assert_true(cps[i] + 2 >= 200 * (i + 1) &&
		    cps[i] <= 200 * (i + 1) + 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_known_step),
		cmocka_unit_test(t_several_steps),
		cmocka_unit_test(t_pure_noise),
		cmocka_unit_test(t_against_brute_force),
		cmocka_unit_test(t_limits),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

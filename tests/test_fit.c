/* SPDX-License-Identifier: ISC */
/*
 * Tests for fit.c: Gaussian mixtures by EM on weighted data, the min(1, C/S)
 * capacity fit (estimate, profile interval and its coverage at the kink, the
 * exponent test), distribution quantiles.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fit.h"
#include "rng.h"

#define T_NEAR(a, b, eps) do {						\
	double	t_a_ = (a), t_b_ = (b);					\
	if (!(fabs(t_a_ - t_b_) <= (eps)))				\
		fail_msg("%s = %.10g, want %.10g", #a, t_a_, t_b_);	\
} while (0)

#define T_BINS	2000

struct t_mix {
	size_t	k;
	double	weight[FIT_GMM_MAX];
	double	mu[FIT_GMM_MAX];
	double	sigma[FIT_GMM_MAX];
};

/*
 * Bin n draws from a mixture on a grid of width 0.01 (as a histogram does);
 * x and w get the nonzero bins, the count is returned.
 */
static size_t
t_binned(const struct t_mix *m, uint64_t n, uint64_t seed, double *x,
    double *w)
{
	static double	bins[T_BINS];
	struct rng	r;
	double		lo = 0, v, u;
	size_t		i, j, nb = 0;
	uint64_t	d;

	for (i = 0; i < T_BINS; i++)
		bins[i] = 0;
	rng_seed(&r, seed);
	for (d = 0; d < n; d++) {
		u = rng_uniform(&r);
		for (j = 0; j + 1 < m->k && u >= m->weight[j]; j++)
			u -= m->weight[j];
		v = m->mu[j] + m->sigma[j] * rng_normal(&r);
		i = (size_t)fmin(fmax((v - lo) / 0.01, 0), T_BINS - 1);
		bins[i]++;
	}
	for (i = 0; i < T_BINS; i++) {
		if (bins[i] == 0)
			continue;
		x[nb] = lo + (i + 0.5) * 0.01;
		w[nb++] = bins[i];
	}
	return (nb);
}

/* EM from the quantile start recovers a mixture's components. */
static void
t_gmm_recovers(void **state)
{
	static const struct t_mix cases[] = {
		{ 1, { 1 }, { 10 }, { 0.3 } },
		{ 2, { 0.7, 0.3 }, { 6, 9 }, { 0.2, 0.5 } },
		{ 3, { 0.5, 0.2, 0.3 }, { 4, 5.4, 6.6 }, { 0.2, 0.25, 0.3 } },
	};
	static double	x[T_BINS], w[T_BINS];
	struct fit_gmm	g;
	size_t		c, j, nb;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		nb = t_binned(&cases[c], 200000, 11 + c, x, w);
		fit_gmm_start(x, w, nb, cases[c].k, 0.01, &g);
		assert_int_equal(g.k, cases[c].k);
		assert_int_equal(fit_gmm_refine(x, w, nb, 0.01, 2000, &g), 0);
		assert_int_equal(g.k, cases[c].k);
		for (j = 0; j < g.k; j++) {
			T_NEAR(g.mu[j], cases[c].mu[j], 0.02);
			T_NEAR(g.sigma[j], cases[c].sigma[j], 0.02);
			T_NEAR(g.weight[j], cases[c].weight[j], 0.02);
		}
	}
}

/*
 * Edges: one value gives one component held at the sigma floor; a
 * component left without data makes refine fail.
 */
static void
t_gmm_edges(void **state)
{
	double		one[1] = { 5 }, wone[1] = { 100 };
	double		x[2] = { 1, 2 }, w[2] = { 10, 10 };
	struct fit_gmm	g;

	(void)state;
	fit_gmm_start(one, wone, 1, 1, 0.05, &g);
	assert_int_equal(fit_gmm_refine(one, wone, 1, 0.05, 100, &g), 0);
	assert_int_equal(g.k, 1);
	T_NEAR(g.mu[0], 5, 1e-12);
	T_NEAR(g.sigma[0], 0.05, 1e-12);
	g.k = 2;
	g.weight[0] = g.weight[1] = 0.5;
	g.mu[0] = 1.5;
	g.mu[1] = 1000;
	g.sigma[0] = g.sigma[1] = 0.1;
	assert_int_equal(fit_gmm_refine(x, w, 2, 0.05, 10, &g), -1);
}

/* Binomial hit fractions of a cache c at sizes s, n reads each. */
static void
t_fractions(struct rng *r, const double *s, size_t n, double c,
    double floor_frac, uint64_t reads, double *f, double *var)
{
	double		p, ft;
	uint64_t	hits, i;
	size_t		j;

	for (j = 0; j < n; j++) {
		p = floor_frac + (1 - floor_frac) * fmin(1, c / s[j]);
		hits = 0;
		for (i = 0; i < reads; i++)
			hits += rng_uniform(r) < p;
		f[j] = (double)hits / reads;
		ft = fmin(fmax(f[j], 0.5 / reads), 1 - 0.5 / reads);
		var[j] = ft * (1 - ft) / reads + 0.005 * 0.005;
	}
}

static void
t_capacity_exact(void **state)
{
	double			s[8], f[8], var[8];
	struct fit_capacity	fc;
	size_t			i;

	(void)state;
	for (i = 0; i < 8; i++) {
		s[i] = 0.1 * pow(1.4, (double)i);
		f[i] = fmin(1, 0.3 / s[i]);
		var[i] = 1e-4;
	}
	assert_int_equal(fit_capacity(s, f, var, 8, &fc), 0);
	T_NEAR(fc.c, 0.3, 1e-6);
	assert_true(fc.low < 0.3 && fc.high > 0.3);
	assert_true(fc.high - fc.low < 0.03);
	T_NEAR(fc.alpha, 1, 1e-4);
	assert_true(fc.chi2 < 1e-6);
	assert_true(fc.chi2_const > 100);
	assert_int_equal(fc.dof, 7);
	assert_true(fc.informative >= 4);

	/* Every read a hit: at least the largest s, no upper bound. */
	for (i = 0; i < 8; i++)
		f[i] = 1;
	if (fit_capacity(s, f, var, 8, &fc) == 0) {
		assert_true(fc.c >= 0.99 * s[7]);
		assert_true(isinf(fc.high));
	}
	assert_int_equal(fit_capacity(s, f, var, 1, &fc), -1);
}

/*
 * A point just below the capacity (f = 1 there) makes the kink of
 * min(1, C/S) sit on data: the interval must still cover the truth about as
 * often as it claims.
 */
static void
t_capacity_coverage(void **state)
{
	static const double	s[] = { 0.25, 0.5, 0.98, 1.4, 2, 2.8, 4 };
	double			f[7], var[7];
	struct fit_capacity	fc;
	struct rng		r;
	int			rep, covered = 0, fitted = 0;

	(void)state;
	rng_seed(&r, 5);
	for (rep = 0; rep < 200; rep++) {
		t_fractions(&r, s, 7, 1.0, 0, 400, f, var);
		if (fit_capacity(s, f, var, 7, &fc) != 0)
			continue;
		fitted++;
		covered += fc.low <= 1.0 && 1.0 <= fc.high;
	}
	assert_int_equal(fitted, 200);
	/* Nominal 95%; 90% allows for the binomial spread of 200 trials. */
	assert_true(covered >= 180);
}

/*
 * A backing store serving 30% of the misses from a faster mode: the
 * cumulative fraction is 0.3 + 0.7 C/S, not min(1, C'/S); the exponent
 * says so.  A real cache keeps the exponent near 1.
 */
static void
t_capacity_alpha(void **state)
{
	static const double	s[] = { 0.1, 0.2, 0.4, 0.6, 0.8, 1.1, 1.6, 2.2,
				    3, 4.2, 5.8, 8 };
	double			f[12], var[12];
	struct fit_capacity	fc;
	struct rng		r;

	(void)state;
	rng_seed(&r, 9);
	t_fractions(&r, s, 12, 1.0, 0.3, 500, f, var);
	assert_int_equal(fit_capacity(s, f, var, 12, &fc), 0);
	assert_true(isfinite(fc.alpha));
	assert_true(fabs(fc.alpha - 1) > 5 * fc.alpha_se);
	assert_true(fc.alpha < 0.8);

	t_fractions(&r, s, 12, 1.0, 0, 500, f, var);
	assert_int_equal(fit_capacity(s, f, var, 12, &fc), 0);
	assert_true(fabs(fc.alpha - 1) < 3.5 * fc.alpha_se + 0.05);
	T_NEAR(fc.c, 1.0, 0.05);
}

/* A constant fraction is not a cache: the constant fits as well. */
static void
t_capacity_flat(void **state)
{
	static const double	s[] = { 0.1, 0.2, 0.4, 0.8, 1.6, 3.2 };
	double			f[6], var[6];
	struct fit_capacity	fc;
	size_t			i;

	(void)state;
	for (i = 0; i < 6; i++) {
		f[i] = 0.3 + (i % 2 ? 0.005 : -0.005);
		var[i] = 0.3 * 0.7 / 2000 + 0.005 * 0.005;
	}
	assert_int_equal(fit_capacity(s, f, var, 6, &fc), 0);
	assert_true(fc.chi2_const < 10);
	assert_true(fc.chi2 > 10 * fc.chi2_const);
}

static void
t_quantiles(void **state)
{
	(void)state;
	T_NEAR(fit_t_quantile(0.975, 10), 2.228139, 1e-5);
	T_NEAR(fit_t_quantile(0.975, 1), 12.7062, 1e-3);
	T_NEAR(fit_normal_quantile(0.975), 1.959964, 1e-5);
	T_NEAR(fit_normal_cdf(1.959964), 0.975, 1e-6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_gmm_recovers),
		cmocka_unit_test(t_gmm_edges),
		cmocka_unit_test(t_capacity_exact),
		cmocka_unit_test(t_capacity_coverage),
		cmocka_unit_test(t_capacity_alpha),
		cmocka_unit_test(t_capacity_flat),
		cmocka_unit_test(t_quantiles),
	};

	fit_init();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

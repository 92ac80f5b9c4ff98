/* SPDX-License-Identifier: ISC */
/* Tests for rng.c: published xoshiro256** and splitmix64 outputs, seeding,
 * and uniformity of rng_below, rng_uniform, rng_normal and rng_offset by
 * chi-square over 64 bins (with a biased generator to show the test bites). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "rng.h"

#define T_BINS		64
#define T_DRAWS		200000
/* Chi-square 0.999 quantile, 63 degrees of freedom. */
#define T_CHI2_CRIT	103.44

/* Chi-square statistic of bin counts against equal expected counts. */
static double
t_chi2(const uint64_t *bins, size_t nbins, uint64_t total)
{
	double	e = (double)total / nbins, d, x = 0;
	size_t	i;

	for (i = 0; i < nbins; i++) {
		d = (double)bins[i] - e;
		x += d * d / e;
	}
	return (x);
}

/* The outputs Blackman and Vigna's reference code gives for state 1,2,3,4. */
static void
t_reference_vector(void **state)
{
	static const uint64_t want[] = {
		11520ULL, 0ULL, 1509978240ULL, 1215971899390074240ULL,
		1216172134540287360ULL, 607988272756665600ULL,
	};
	struct rng	r = { { 1, 2, 3, 4 } };
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		assert_true(rng_next(&r) == want[i]);
}

/* Seeding with 0 takes the first splitmix64 outputs from state 0. */
static void
t_seed_splitmix(void **state)
{
	struct rng	r;

	(void)state;
	rng_seed(&r, 0);
	assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
	assert_true(r.s[1] == 0x6e789e6aa1b965f4ULL);
	assert_true(r.s[2] == 0x06c45d188009454fULL);
}

static void
t_determinism(void **state)
{
	struct rng	a, b;
	uint64_t	first[100];
	size_t		i, j;

	(void)state;
	rng_seed(&a, 42);
	rng_seed(&b, 42);
	for (i = 0; i < 10000; i++)
		assert_true(rng_next(&a) == rng_next(&b));

	for (i = 0; i < 100; i++) {
		rng_seed(&a, i);
		first[i] = rng_next(&a);
		for (j = 0; j < i; j++)
			assert_true(first[j] != first[i]);
	}
	/* Neighbouring seeds give unrelated streams, not shifted copies. */
	rng_seed(&a, 1);
	rng_seed(&b, 2);
	rng_next(&b);
	for (i = 0, j = 0; i < 1000; i++)
		j += rng_next(&a) == rng_next(&b);
	assert_int_equal(j, 0);
}

/* A generator with modulo bias, to show the chi-square test detects it. */
static uint64_t
t_biased_below(struct rng *r, uint64_t n)
{
	return (rng_next(r) % n);
}

/*
 * Chi-square of draws from [0, n) put into 64 equal bins.  n is 3 * 2^62:
 * reducing modulo n would make [0, 2^62) twice as likely as the rest.
 */
static double
t_below_chi2(uint64_t (*below)(struct rng *, uint64_t), uint64_t seed)
{
	const uint64_t	n = 3ULL << 62;
	struct rng	r;
	uint64_t	bins[T_BINS] = { 0 }, v;
	size_t		i;

	rng_seed(&r, seed);
	for (i = 0; i < T_DRAWS; i++) {
		v = below(&r, n);
		assert_true(v < n);
		bins[v / (n / T_BINS)]++;
	}
	return (t_chi2(bins, T_BINS, T_DRAWS));
}

static void
t_below(void **state)
{
	static const uint64_t	 ns[] = {
		1, 2, 3, 7, 1000, 4096, (1ULL << 63) + 1, UINT64_MAX,
	};
	struct rng		 r;
	uint64_t		 seen[7] = { 0 };
	size_t			 i, j;
	double			 good, bad;

	(void)state;
	rng_seed(&r, 7);
	for (i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		for (j = 0; j < 10000; j++)
			assert_true(rng_below(&r, ns[i]) < ns[i]);
	}
	for (j = 0; j < 7000; j++)
		seen[rng_below(&r, 7)]++;
	for (j = 0; j < 7; j++)
		assert_true(seen[j] > 800 && seen[j] < 1200);

	good = t_below_chi2(rng_below, 11);
	bad = t_below_chi2(t_biased_below, 11);
	print_message("rng_below chi2 %.1f, modulo-biased %.1f (crit %.1f)\n",
	    good, bad, T_CHI2_CRIT);
	assert_true(good < T_CHI2_CRIT);
	assert_true(bad > 10 * T_CHI2_CRIT);
}

static void
t_uniform(void **state)
{
	struct rng	r;
	uint64_t	bins[T_BINS] = { 0 }, skew[T_BINS] = { 0 };
	size_t		i;
	double		u, x;

	(void)state;
	rng_seed(&r, 12345);
	for (i = 0; i < T_DRAWS; i++) {
		u = rng_uniform(&r);
		assert_true(u >= 0 && u < 1);
		bins[(size_t)(u * T_BINS)]++;
		/* A mild skew: u^1.05 is still in [0, 1). */
		skew[(size_t)(pow(u, 1.05) * T_BINS)]++;
	}
	x = t_chi2(bins, T_BINS, T_DRAWS);
	print_message("rng_uniform chi2 %.1f, u^1.05 %.1f\n", x,
	    t_chi2(skew, T_BINS, T_DRAWS));
	assert_true(x < T_CHI2_CRIT);
	assert_true(t_chi2(skew, T_BINS, T_DRAWS) > T_CHI2_CRIT);
}

static void
t_normal(void **state)
{
	struct rng	r;
	uint64_t	bins[T_BINS] = { 0 };
	size_t		i, b;
	double		z, sum = 0, sum2 = 0, mean, var, x;

	(void)state;
	rng_seed(&r, 99);
	for (i = 0; i < T_DRAWS; i++) {
		z = rng_normal(&r);
		sum += z;
		sum2 += z * z;
		/* The normal CDF maps standard normal deviates to [0, 1). */
		b = (size_t)(0.5 * erfc(-z / sqrt(2)) * T_BINS);
		bins[b < T_BINS ? b : T_BINS - 1]++;
	}
	mean = sum / T_DRAWS;
	var = sum2 / T_DRAWS - mean * mean;
	x = t_chi2(bins, T_BINS, T_DRAWS);
	print_message("rng_normal mean %.4f var %.4f chi2 %.1f\n", mean, var, x);
	assert_true(fabs(mean) < 4 / sqrt(T_DRAWS));
	assert_true(fabs(var - 1) < 4 * sqrt(2.0 / T_DRAWS));
	assert_true(x < T_CHI2_CRIT);
}

static void
t_offset(void **state)
{
	const uint64_t	base = 1ULL << 40, align = 4096;
	struct rng	r;
	uint64_t	bins[T_BINS] = { 0 }, off;
	size_t		i;
	double		x;

	(void)state;
	rng_seed(&r, 2024);
	for (i = 0; i < T_DRAWS; i++) {
		off = rng_offset(&r, base, T_BINS * align, align);
		assert_true(off >= base && off < base + T_BINS * align);
		assert_true(off % align == 0);
		bins[(off - base) / align]++;
	}
	x = t_chi2(bins, T_BINS, T_DRAWS);
	print_message("rng_offset chi2 %.1f\n", x);
	assert_true(x < T_CHI2_CRIT);

	/* Large spans and odd alignments stay in range and aligned. */
	for (i = 0; i < 10000; i++) {
		off = rng_offset(&r, 512, (1ULL << 50) * 3, 512);
		assert_true(off >= 512 && off < 512 + (1ULL << 50) * 3);
		assert_true(off % 512 == 0);
		off = rng_offset(&r, 0, 3 * 520, 520);
		assert_true(off == 0 || off == 520 || off == 1040);
	}
	assert_true(rng_offset(&r, 8192, 4096, 4096) == 8192);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_reference_vector),
		cmocka_unit_test(t_seed_splitmix),
		cmocka_unit_test(t_determinism),
		cmocka_unit_test(t_below),
		cmocka_unit_test(t_uniform),
		cmocka_unit_test(t_normal),
		cmocka_unit_test(t_offset),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * Tests for tiermodel.c (the cache law fitted as one model) on synthetic
 * scans drawn from the law with known capacities: one cache, two caches,
 * a cache whose hits come at two speeds, a store whose latency drifts
 * from point to point behind a cache, no cache; each with its count and
 * capacities within 10%, all but 3 of some 20 inside their 95% intervals;
 * the real captures in tests/data; and the cost of a 20-point scan's analysis.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fit.h"
#include "hist.h"
#include "point.h"
#include "rng.h"
#include "t_real.h"
#include "t_rel.h"
#include "tiermodel.h"
#include "tiers.h"

#define MiB	(1024.0 * 1024)
#define GiB	(1024.0 * MiB)

/* A place: up to two lognormal speeds (weight of the first, the rest). */
struct tm_place {
	double	capacity;	/* cumulative bytes; 0: the store */
	double	lat_us[2];	/* medians */
	double	sigma;
	double	w0;		/* share of the first speed; 1: one speed */
};

struct tm_case {
	const char	*name;
	size_t		 nplace;
	struct tm_place	 place[4];
	double		 drift;	/* the store's median x (1 + drift) at odd
				   points, / at even ones */
	size_t		 want;	/* tiers */
};

static struct rng tm_rng;

static void
tm_point(const struct tm_case *c, double ws, size_t idx, uint64_t ios,
    struct point *p)
{
	const struct tm_place	*pl;
	double			 u, med;
	uint64_t		 i;
	size_t			 k;

	memset(p, 0, sizeof *p);
	p->ws_bytes = (uint64_t)ws;
	p->bs = 4096;
	p->iodepth = 1;
	p->ios = ios;
	assert_non_null(p->hist = malloc(sizeof *p->hist));
	hist_init(p->hist);
	for (i = 0; i < ios; i++) {
		u = rng_uniform(&tm_rng);
		for (k = 0; k + 1 < c->nplace; k++)
			if (u < fmin(1, c->place[k].capacity / ws))
				break;
		pl = &c->place[k];
		med = rng_uniform(&tm_rng) < pl->w0 ? pl->lat_us[0] :
		    pl->lat_us[1];
		if (k + 1 == c->nplace && c->drift > 0)
			med *= idx % 2 ? 1 + c->drift : 1 / (1 + c->drift);
		hist_add(p->hist, (uint64_t)llround(fmax(1, med * 1000 *
		    exp(pl->sigma * rng_normal(&tm_rng)))));
	}
	point_summarise(p);
}

static struct point *
tm_scan(const struct tm_case *c, double smin, double smax, size_t n,
    uint64_t ios, uint64_t seed)
{
	struct point	*pts;
	size_t		 i;

	rng_seed(&tm_rng, seed);
	assert_non_null(pts = calloc(n, sizeof *pts));
	for (i = 0; i < n; i++)
		tm_point(c, smin * pow(smax / smin, (double)i / (n - 1)), i,
		    ios, &pts[i]);
	return (pts);
}

static void
tm_free(struct point *pts, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(pts[i].hist);
	free(pts);
}

static const struct tm_case tm_cases[] = {
	{ "no cache", 1, { { 0, { 300, 300 }, 0.3, 1 } }, 0, 0 },
	{ "one cache", 2, {
	    { 245 * MiB, { 2, 2 }, 0.3, 1 },
	    { 0, { 150, 150 }, 0.5, 1 } }, 0, 1 },
	{ "two caches", 3, {
	    { 1.25 * GiB, { 500, 500 }, 0.3, 1 },
	    { 2.25 * GiB, { 2000, 2000 }, 0.4, 1 },
	    { 0, { 7000, 7000 }, 0.5, 1 } }, 0, 2 },
	/* issue 31's case: the second cache's hits at ~11 and ~58 us, the
	   slower near the disk's */
	{ "two-speed second cache", 3, {
	    { 100 * MiB, { 1.6, 1.6 }, 0.1, 1 },
	    { 550 * MiB, { 11, 58 }, 0.2, 0.5 },
	    { 0, { 89, 89 }, 0.3, 1 } }, 0, 2 },
	{ "drifting store", 2, {
	    { 256 * MiB, { 2, 2 }, 0.1, 1 },
	    { 0, { 55, 55 }, 0.15, 1 } }, 0.25, 1 },
};

/* Each case on three seeds: count, analysed, capacities within 5%. */
static void
t_cases(void **state)
{
	const struct tm_case	*c;
	struct tiers_result	 r;
	struct point		*pts;
	size_t			 i, t, ncap = 0, covered = 0;
	uint64_t		 seed;
	char			 what[128];

	(void)state;
	tiers_result_init(&r);
	for (i = 0; i < sizeof tm_cases / sizeof tm_cases[0]; i++) {
		c = &tm_cases[i];
		for (seed = 1; seed <= 3; seed++) {
			pts = tm_scan(c, 64 * MiB, 4 * GiB, 16, 2000,
			    seed * 10 + i);
			assert_int_equal(tiermodel_analyse(pts, 16, &r), 0);
			snprintf(what, sizeof what, "%s, seed %llu", c->name,
			    (unsigned long long)seed);
			print_message("%s: analysed %d, %zu tiers, reason %d"
			    "\n", what, r.analysed, r.ntiers, r.reason);
			if (!r.analysed || r.ntiers != c->want)
				fail_msg("%s: analysed %d, %zu tiers, want %zu",
				    what, r.analysed, r.ntiers, c->want);
			for (t = 0; t < r.ntiers; t++) {
				print_message("  %.1f MiB (%.1f-%.1f) p50 "
				    "%.2f us\n", r.tier[t].capacity_bytes /
				    MiB, r.tier[t].capacity_low_bytes / MiB,
				    r.tier[t].capacity_high_bytes / MiB,
				    r.tier[t].lat_us_p50);
				assert_false(r.tier[t].at_least);
				T_REL_AT(what, r.tier[t].capacity_bytes,
				    c->place[t].capacity, 0.10);
				ncap++;
				covered += r.tier[t].capacity_low_bytes <=
				    c->place[t].capacity &&
				    r.tier[t].capacity_high_bytes >=
				    c->place[t].capacity;
			}
			if (c->place[c->nplace - 1].w0 == 1 && c->drift == 0)
				T_REL_AT(what, r.backing_p50_us,
				    c->place[c->nplace - 1].lat_us[0], 0.10);
			tm_free(pts, 16);
		}
	}
	/* 95% intervals: of some 20, one or two may miss by chance */
	print_message("%zu of %zu capacities inside their intervals\n",
	    covered, ncap);
	assert_true(covered + 3 >= ncap);
	tiers_result_free(&r);
}

/*
 * Real captures (tests/data/tiers-real-*.txt; truths from their headers
 * and tests/test_tiers.c): never a confident wrong count, and where the
 * count is given, capacities within 15% of the truth (the rules' own
 * errors on these reach 11%); the memory cgroup's page cache of 64 MiB
 * within 92-100% of it (the rules give 62.4-62.8 MiB; before tm_rise the
 * model gave 58.0, the store's shape holding the hits).  Known misses, not
 * asserted here: tiers-real-hier-capped.txt gives one tier, analysed,
 * where there are two (the rules do the same); second caches of
 * tiers-real-hier*.txt come out 8-11% under.
 */
struct tm_real {
	const char	*name;
	size_t		 ntiers;
	double		 cap[2];	/* MiB; 0: no capacity truth */
	int		 must;		/* 1: must be analysed */
};

static void
t_real_captures(void **state)
{
	static const struct tm_real cases[] = {
		{ "tiers-real-paged-a.txt", 1, { 0 }, 1 },
		{ "tiers-real-paged-b.txt", 1, { 0 }, 1 },
		{ "tiers-real-capped.txt", 1, { 0 }, 1 },
		{ "tiers-real-drift-once.txt", 1, { 285 }, 0 },
		{ "tiers-real-drift-again.txt", 1, { 285 }, 0 },
		{ "tiers-real-fuse.txt", 2, { 53.8, 222.4 }, 1 },
		{ "tiers-real-fuse-busy-4.txt", 2, { 84.1, 487.5 }, 1 },
		{ "tiers-real-fuse-busy-2.txt", 2, { 87.3, 440.2 }, 0 },
		{ "tiers-real-hier.txt", 2, { 92, 549 }, 1 },
		{ "tiers-real-hier-capped-b.txt", 2, { 145, 612 }, 0 },
		{ "tiers-sim-hidden-93.txt", 2, { 1280, 2304 }, 0 },
		{ "tiers-sim-hidden-99.txt", 2, { 1280, 2304 }, 0 },
	};
	const struct tm_real	*c;
	struct tiers_result	 r;
	struct point		*pts;
	size_t			 i, n, t;

	(void)state;
	tiers_result_init(&r);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		c = &cases[i];
		n = t_real(c->name, &pts);
		assert_int_equal(tiermodel_analyse(pts, n, &r), 0);
		print_message("%s: analysed %d, %zu tiers, reason %d",
		    c->name, r.analysed, r.ntiers, r.reason);
		for (t = 0; t < r.ntiers; t++)
			print_message(" %.1f", r.tier[t].capacity_bytes / MiB);
		print_message("\n");
		/* why, in scan.note too (JSON has no reason code) */
		if ((r.reason == TIERS_R_CANNOT_TELL || r.reason ==
		    TIERS_R_MORE_POSSIBLE) && r.note[0] == '\0')
			fail_msg("%s: reason %d, no note", c->name, r.reason);
		if (c->must && !r.analysed)
			fail_msg("%s: not analysed", c->name);
		if (r.analysed && r.ntiers != c->ntiers)
			fail_msg("%s: %zu tiers, want %zu", c->name, r.ntiers,
			    c->ntiers);
		for (t = 0; r.analysed && t < r.ntiers; t++)
			if (c->cap[t] > 0)
				T_REL_AT(c->name, r.tier[t].capacity_bytes /
				    MiB, c->cap[t], 0.15);
		if (c->ntiers == 1 && r.analysed && c->cap[0] == 0)
			/* 64 MiB less the programs' own (rules 62.4-62.8) */
			assert_true(r.tier[0].capacity_bytes >= 0.92 * 64 *
			    MiB && r.tier[0].capacity_bytes <= 64 * MiB);
		tm_free(pts, n);
	}
	tiers_result_free(&r);
}

/* Too few points: inconclusive, said by a reason code. */
static void
t_too_few(void **state)
{
	struct tiers_result	 r;
	struct point		*pts;

	(void)state;
	tiers_result_init(&r);
	pts = tm_scan(&tm_cases[1], 64 * MiB, 4 * GiB, 2, 500, 1);
	assert_int_equal(tiermodel_analyse(pts, 2, &r), -1);
	assert_false(r.analysed);
	assert_int_equal(r.reason, TIERS_R_TOO_FEW);
	tm_free(pts, 2);
	tiers_result_free(&r);
}

/*
 * A 20-point scan of two caches, 2,000 reads a point: analysed, its CPU
 * time printed (a figure for people and benchmarks; tests assert no
 * speed: under ASan it took over 1 s in CI).
 */
static void
t_cost(void **state)
{
	struct tiers_result	 r;
	struct point		*pts;
	clock_t			 t0;
	double			 cpu;

	(void)state;
	tiers_result_init(&r);
	pts = tm_scan(&tm_cases[3], 32 * MiB, 4 * GiB, 20, 2000, 7);
	t0 = clock();
	assert_int_equal(tiermodel_analyse(pts, 20, &r), 0);
	cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
	print_message("20 points: %.3f s of CPU, %zu tiers\n", cpu, r.ntiers);
	assert_true(r.ntiers > 0);
	tm_free(pts, 20);
	tiers_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_cases),
		cmocka_unit_test(t_real_captures),
		cmocka_unit_test(t_too_few),
		cmocka_unit_test(t_cost),
	};

	fit_init();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

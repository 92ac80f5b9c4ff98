/* SPDX-License-Identifier: ISC */
/*
 * Tests for service.c on synthetic points with a known truth (t_synth.h):
 * a store's reads told apart by order in a mixed histogram; the probes
 * planned where each store serves most, paced below the point's rate; and
 * the verdict: a store a rate cap holds (its median, or for a cap that
 * stalls now and then its mean) gets its paced latency and the capped one
 * beside it, a store no cap holds keeps its figures.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "service.h"
#include "t_rel.h"
#include "t_synth.h"
#include "tiers.h"

#define MiB	(1024.0 * 1024)
#define GiB	(1024.0 * MiB)

/* A 256 MiB cache of 180 us reads in front of a 5 ms store. */
static const struct t_model t_own = { 2, {
	{ 256 * MiB, 180, 0.2, 0 },
	{ 0, 5000, 0.3, 0 } }, 0 };
/* The same at iodepth 1 under a 4,000 IOPS cap: cache reads take 250 us. */
static const struct t_model t_capped = { 2, {
	{ 256 * MiB, 250, 0.05, 0 },
	{ 0, 5000, 0.3, 0 } }, 0 };

/* Points on a log grid from 64 MiB to 4 GiB. */
#define T_NWS	4
#define T_SMIN	(64 * MiB)
#define T_SMAX	(4 * GiB)

/* What the scan's analysis of those points would say (capacity only). */
static void
t_result(struct tiers_result *r)
{
	tiers_result_init(r);
	r->analysed = 1;
	r->ntiers = 1;
	r->tier[0].capacity_bytes = (uint64_t)(256 * MiB);
	r->tier[0].lat_us_p50 = 210;	/* the mixture's, under the cap */
	r->tier[0].lat_us_p99 = 330;
	r->backing_p50_us = 5000;
	r->backing_p99_us = 10000;
}

/* Points of model m, n reads each, the first at rate iops. */
static struct point *
t_points(const struct t_model *m, uint64_t n, double iops, uint64_t seed)
{
	struct point	*pts;
	size_t		 i;

	pts = t_scan(m, T_SMIN, T_SMAX, T_NWS, n, seed);
	for (i = 0; i < T_NWS; i++)
		pts[i].iops = iops / (i + 1);
	return (pts);
}

/* Draw every probe of plan from model m. */
static void
t_probes(const struct service_plan *plan, const struct t_model *m,
    struct point *probe, const struct point **probed)
{
	size_t	k;

	for (k = 0; k < plan->nprobes; k++) {
		t_point(m, (double)plan->probe[k].ws_bytes, T_SMIN,
		    plan->probe[k].min_ios, &probe[k]);
		probed[k] = &probe[k];
	}
}

/* Two stores in one histogram: each one's quantiles, by order. */
static void
t_slice(void **state)
{
	struct point	p;
	struct hist	empty;
	double		share[2];

	(void)state;
	rng_seed(&t_rng, 7);
	t_point(&t_own, 1 * GiB, T_SMIN, 40000, &p);
	tiers_model_share(&(struct tiers_result){ .analysed = 1,
	    .ntiers = 1, .tier = { { .capacity_bytes = 256 * MiB } } },
	    1 * GiB, share);
	T_REL(share[0], 0.25, 1e-9);
	T_REL(service_slice(p.hist, share, 2, 0, 0.5), 180, 0.05);
	T_REL(service_slice(p.hist, share, 2, 0, 0.99), 180 * exp(0.2 *
	    2.326), 0.08);
	T_REL(service_slice(p.hist, share, 2, 1, 0.5), 5000, 0.05);
	T_REL(service_slice(p.hist, share, 2, 1, 0.99), 5000 * exp(0.3 *
	    2.326), 0.08);
	T_REL(service_slice_mean(p.hist, share, 2, 0), 180 * exp(0.02),
	    0.05);
	T_REL(service_slice_mean(p.hist, share, 2, 1), 5000 * exp(0.045),
	    0.05);
	/* A store that serves nothing, or no reads at all: unknown. */
	share[0] = 0;
	share[1] = 1;
	assert_true(isnan(service_slice(p.hist, share, 2, 0, 0.5)));
	hist_init(&empty);
	assert_true(isnan(service_slice(&empty, share, 2, 1, 0.5)));
	assert_true(isnan(service_slice_mean(&empty, share, 2, 1)));
	free(p.hist);
}

/* A probe per store where it serves most, ascending, paced at half. */
static void
t_plan(void **state)
{
	struct tiers_result	 r;
	struct service_plan	 plan;
	struct point		*pts;
	const struct service_probe *pr;
	size_t			 k;

	(void)state;
	t_result(&r);
	pts = t_points(&t_capped, 2000, 4000, 1);
	assert_int_equal(service_plan(pts, T_NWS, &r, &plan), 2);
	assert_int_equal(plan.nstores, 2);
	/* The cache: the smallest point it serves all of. */
	pr = &plan.probe[plan.probe_of[0]];
	assert_int_equal(pr->point, 0);
	T_REL(pr->share[0], 1, 1e-9);
	/* The backing store: the largest point, where it serves most. */
	pr = &plan.probe[plan.probe_of[1]];
	assert_int_equal(pr->point, T_NWS - 1);
	T_REL(pr->share[1], 1 - 256 * MiB / T_SMAX, 1e-9);
	for (k = 0; k < plan.nprobes; k++) {
		pr = &plan.probe[k];
		if (k > 0)
			assert_true(pr->ws_bytes > plan.probe[k - 1].ws_bytes);
		T_REL(pr->pace_iops, SERVICE_PACE * pts[pr->point].iops, 1e-9);
		assert_true(pr->first_ios >= SERVICE_FIRST);
		assert_true(pr->min_ios >= SERVICE_READS &&
		    pr->min_ios > pr->first_ios);
	}
	/* A cache the largest point serves enough of is read there. */
	r.tier[0].capacity_bytes = (uint64_t)(3 * GiB);
	assert_int_equal(service_plan(pts, T_NWS, &r, &plan), 1);
	assert_int_equal(plan.probe[0].point, T_NWS - 1);
	assert_int_equal(plan.probe_of[0], 0);
	assert_int_equal(plan.probe_of[1], 0);
	T_REL((double)plan.probe[0].first_ios, SERVICE_FIRST / 0.25, 0.01);
	/* Nothing analysed, nothing to probe. */
	r.analysed = 0;
	assert_int_equal(service_plan(pts, T_NWS, &r, &plan), 0);
	t_free_points(pts, T_NWS);
}

/* A cache a cap holds: its own latency, and the capped one beside. */
static void
t_apply_capped(void **state)
{
	struct tiers_result	 r;
	struct service_plan	 plan;
	struct point		*pts, probe[SERVICE_STORES];
	const struct point	*probed[SERVICE_STORES];
	size_t			 k;

	(void)state;
	t_result(&r);
	pts = t_points(&t_capped, 4000, 4000, 2);
	service_plan(pts, T_NWS, &r, &plan);
	rng_seed(&t_rng, 3);
	t_probes(&plan, &t_own, probe, probed);
	assert_true(service_held(&plan, pts, plan.probe_of[0],
	    probed[plan.probe_of[0]]));
	assert_false(service_held(&plan, pts, plan.probe_of[1],
	    probed[plan.probe_of[1]]));
	assert_int_equal(service_apply(&plan, pts, probed, &r), 1);
	T_REL(r.tier[0].lat_us_p50, 180, 0.05);
	T_REL(r.tier[0].lat_us_p99, 180 * exp(0.2 * 2.326), 0.15);
	T_REL(r.tier[0].capped_lat_us_p50, 250, 0.05);
	/* The store slower than the cap keeps its figures. */
	assert_true(r.backing_p50_us == 5000 && r.backing_p99_us == 10000);
	assert_true(isnan(r.backing_capped_p50_us));
	for (k = 0; k < plan.nprobes; k++)
		free(probe[k].hist);
	t_free_points(pts, T_NWS);
}

/*
 * A cap that lets bursts through and stalls (blk-throttle): 1% of the
 * misses wait 95 ms, the median is the disk's own.  The mean tells, also
 * when the paced reads, each after a pause, are slower than the scan's
 * (2.6 times here, as on this machine's disk): the store's median is then
 * the scan's, which the cap did not queue.
 */
static void
t_apply_stalled(void **state)
{
	static const struct t_model	own = { 2, {
		{ 256 * MiB, 2, 0.2, 0 },
		{ 0, 50, 0.2, 0 } }, 0 };
	static const struct t_model	paused = { 2, {
		{ 256 * MiB, 2, 0.2, 0 },
		{ 0, 130, 0.4, 0 } }, 0 };
	const struct t_model		*models[] = { &own, &paused };
	static const struct t_model	stalled = { 3, {
		{ 256 * MiB, 2, 0.2, 0 },
		{ 0, 50, 0.2, 0.99 },
		{ 0, 95000, 0.05, 0 } }, 0 };
	struct tiers_result		 r;
	struct service_plan		 plan;
	struct point			*pts, probe[SERVICE_STORES];
	const struct point		*probed[SERVICE_STORES];
	size_t				 k, m;

	(void)state;
	pts = t_points(&stalled, 20000, 1000, 6);
	for (m = 0; m < 2; m++) {
		t_result(&r);
		r.tier[0].lat_us_p50 = 2;
		r.backing_p50_us = 51;
		service_plan(pts, T_NWS, &r, &plan);
		t_probes(&plan, models[m], probe, probed);
		assert_int_equal(service_apply(&plan, pts, probed, &r), 1);
		assert_true(isnan(r.tier[0].capped_lat_us_p50));
		T_REL(r.backing_p50_us, 50, 0.05);
		T_REL(r.backing_p99_us, models[m]->place[1].lat_us *
		    exp(models[m]->place[1].sigma * 2.326), 0.15);
		T_REL(r.backing_capped_p50_us, 50, 0.05);
		T_REL(r.backing_capped_mean_us, 0.99 * 50 * exp(0.02) +
		    0.01 * 95000, 0.15);
		for (k = 0; k < plan.nprobes; k++)
			free(probe[k].hist);
	}
	t_free_points(pts, T_NWS);
}

/*
 * No cap: paced reads like the scan's (or slower, as an idle CPU's wake-up
 * makes them) change nothing, nor do the long waits of a busy CPU, which
 * the paced reads, lasting SERVICE_MIN_S at least, meet too, while their
 * median is slower; nor does a probe that was not measured.
 */
static void
t_apply_uncapped(void **state)
{
	static const struct t_model	slower = { 2, {
		{ 256 * MiB, 230, 0.2, 0 },
		{ 0, 5500, 0.3, 0 } }, 0 };
	const struct t_model		*models[] = { &t_own, &slower };
	/* A store on a busy CPU: 2% of its reads wait 50 ms; read paced,
	   after an idle wake-up, its median is 120 us, not 50. */
	static const struct t_model	busy = { 3, {
		{ 256 * MiB, 2, 0.2, 0 },
		{ 0, 50, 0.2, 0.98 },
		{ 0, 50000, 0.05, 0 } }, 0 };
	static const struct t_model	woken = { 3, {
		{ 256 * MiB, 2, 0.2, 0 },
		{ 0, 120, 0.2, 0.98 },
		{ 0, 50000, 0.05, 0 } }, 0 };
	struct tiers_result		 r;
	struct service_plan		 plan;
	struct point			*pts, probe[SERVICE_STORES];
	const struct point		*probed[SERVICE_STORES];
	size_t				 k, m;

	(void)state;
	pts = t_points(&t_own, 4000, 5000, 4);
	for (m = 0; m < 2; m++) {
		t_result(&r);
		service_plan(pts, T_NWS, &r, &plan);
		t_probes(&plan, models[m], probe, probed);
		for (k = 0; k < plan.nprobes; k++)
			assert_false(service_held(&plan, pts, k, probed[k]));
		assert_int_equal(service_apply(&plan, pts, probed, &r), 0);
		assert_true(r.tier[0].lat_us_p50 == 210);
		assert_true(isnan(r.tier[0].capped_lat_us_p50));
		assert_true(isnan(r.backing_capped_p50_us));
		for (k = 0; k < plan.nprobes; k++)
			free(probe[k].hist);
	}
	t_free_points(pts, T_NWS);

	pts = t_points(&busy, 20000, 1000, 7);
	t_result(&r);
	service_plan(pts, T_NWS, &r, &plan);
	t_probes(&plan, &woken, probe, probed);
	assert_int_equal(service_apply(&plan, pts, probed, &r), 0);
	assert_true(isnan(r.backing_capped_p50_us));
	for (k = 0; k < plan.nprobes; k++)
		free(probe[k].hist);
	t_free_points(pts, T_NWS);

	pts = t_points(&t_capped, 4000, 4000, 5);
	t_result(&r);
	service_plan(pts, T_NWS, &r, &plan);
	for (k = 0; k < plan.nprobes; k++)
		probed[k] = NULL;
	assert_int_equal(service_apply(&plan, pts, probed, &r), 0);
	assert_true(r.tier[0].lat_us_p50 == 210);
	t_free_points(pts, T_NWS);
}

/*
 * No cap, stores that overlap (the classic three levels), the probes'
 * first looks drawn as the points were: a probe's slice of a few hundred
 * reads may come out 20% faster by chance, which is no cap.
 */
static void
t_apply_chance(void **state)
{
	static const struct t_model	three = { 3, {
		{ 1.25 * GiB, 500, 0.3, 0 },
		{ 2.25 * GiB, 2000, 0.4, 0 },
		{ 0, 7000, 0.5, 0 } }, 0 };
	struct tiers_result		 r;
	struct service_plan		 plan;
	struct point			*pts, probe[SERVICE_STORES];
	const struct point		*probed[SERVICE_STORES];
	size_t				 k, held = 0;
	uint64_t			 seed;

	(void)state;
	for (seed = 1; seed <= 200; seed++) {
		pts = t_points(&three, 3200, 400, seed);
		tiers_result_init(&r);
		r.analysed = 1;
		r.ntiers = 2;
		r.tier[0].capacity_bytes = (uint64_t)(1.25 * GiB);
		r.tier[1].capacity_bytes = (uint64_t)(2.25 * GiB);
		service_plan(pts, T_NWS, &r, &plan);
		assert_true(plan.nprobes > 0);
		for (k = 0; k < plan.nprobes; k++) {
			t_point(&three, (double)plan.probe[k].ws_bytes, T_SMIN,
			    plan.probe[k].first_ios, &probe[k]);
			probed[k] = &probe[k];
			held += service_held(&plan, pts, k, probed[k]);
			free(probe[k].hist);
		}
		t_free_points(pts, T_NWS);
	}
	assert_int_equal(held, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_slice),
		cmocka_unit_test(t_plan),
		cmocka_unit_test(t_apply_capped),
		cmocka_unit_test(t_apply_stalled),
		cmocka_unit_test(t_apply_uncapped),
		cmocka_unit_test(t_apply_chance),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

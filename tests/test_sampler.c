/* SPDX-License-Identifier: ISC */
/*
 * Description: the sampler on the test engine (t_engine.c) with known
 * latencies: offsets aligned, inside [0, ws) and drawn with replacement;
 * the queue kept at the iodepth asked; the precision and time stopping
 * rules; a p99.9 only with reads enough beyond it; warm-up coverage;
 * timelines per interval (of the measuring, or of a whole point on the
 * caller's clock) and the hook that ends a point early; the progress
 * hook's live p50; I/O errors reported.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine.h"
#include "point.h"
#include "rng.h"
#include "sampler.h"
#include "t_engine.h"
#include "target.h"
#include "timeline.h"

static struct t_engine	 te;

static void
t_setup(struct engine *e, struct target *t, unsigned depth, uint64_t lat_ns,
    double jitter, uint64_t ws, uint64_t bs)
{
	memset(t, 0, sizeof(*t));
	t_engine_setup(&te, e, t, depth, lat_ns, jitter, ws, bs);
}

static void
t_spec(struct sample_spec *sp, uint64_t ws, uint32_t bs, unsigned depth)
{
	memset(sp, 0, sizeof(*sp));
	sp->ws_bytes = ws;
	sp->warm_from = ws;
	sp->bs = bs;
	sp->iodepth = depth;
	sp->precision = 0.02;
	sp->max_time_s = 100;
}

/* Offsets aligned, inside the working set, uniform, with replacement. */
static void
test_offsets(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;
	const uint64_t		 blocks = 256;
	uint64_t		 i, j, distinct = 0;
	double			 chi = 0, expect;

	(void)state;
	t_setup(&e, &t, 4, 100000, 0.5, blocks * 4096, 4096);
	te.hits = calloc(blocks, sizeof(*te.hits));
	t_spec(&sp, blocks * 4096, 4096, 4);
	sp.fixed_time = 1;
	sp.max_time_s = 2.56;	/* 4 deep at 100 us: ~102400 I/Os */
	rng_seed(&r, 7);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL, NULL),
	    0);
	assert_false(te.misaligned);
	assert_false(te.outside);
	expect = (double)te.nrandom / blocks;
	for (i = 0; i < blocks; i++) {
		chi += (te.hits[i] - expect) * (te.hits[i] - expect) / expect;
	}
	for (i = 0; i < blocks; i++) {
		for (j = 0; j < i && te.first[j] != te.first[i]; j++)
			;
		distinct += j == i;
	}
	/* 255 degrees of freedom: the 0.999 quantile is about 330. */
	assert_true(chi < 330);
	/*
	 * With replacement, the first N draws over N blocks hit about
	 * 1 - 1/e = 63% of them; a visit-each-block-once map hits all.
	 */
	assert_true(distinct > 0.55 * blocks && distinct < 0.72 * blocks);
	assert_true(pt.ios > 50000);
	free(te.hits);
	point_free(&pt);
}

/* The queue stays at the iodepth asked, never deeper. */
static void
test_queue_depth(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;

	(void)state;
	t_setup(&e, &t, 32, 100000, 0.3, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 8);
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL, NULL),
	    0);
	assert_int_equal(te.max_inflight, 8);
	assert_int_equal(pt.iodepth, 8);
	/* Little's law on the test engine: 8 deep at 100 us = 80k IOPS. */
	assert_true(fabs(pt.iops - 80000) / 80000 < 0.02);
	point_free(&pt);
}

/* Noisier latencies need more I/Os for the same precision. */
static void
test_precision_rule(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 quiet, noisy;
	struct rng		 r;

	(void)state;
	t_setup(&e, &t, 1, 100000, 0.05, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 1);
	sp.precision = 0.005;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &quiet, NULL, NULL,
	    NULL), 0);
	assert_true(quiet.ci95_rel <= 0.005);
	t_setup(&e, &t, 1, 100000, 0.9, 1 << 20, 4096);
	assert_int_equal(sampler_measure(&e, &r, &sp, &noisy, NULL, NULL,
	    NULL), 0);
	assert_true(noisy.ci95_rel <= 0.005);
	/* Batch means of a uniform +/-90% jitter: CV 0.52 vs 0.029. */
	assert_true(noisy.ios > 50 * quiet.ios);
	/* The mean is right within the precision asked (plus bucket error). */
	assert_true(fabs(noisy.lat_us.mean - 100) < 1);
	point_free(&quiet);
	point_free(&noisy);
}

/* max_time stops a point that cannot reach the precision. */
static void
test_time_rule(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;

	(void)state;
	t_setup(&e, &t, 1, 1000000, 0.9, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 1);
	sp.precision = 0.001;
	sp.max_time_s = 0.5;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL, NULL),
	    0);
	assert_true(pt.ci95_rel > 0.001);
	/* No I/O starts that would end past the limit at the mean. */
	assert_true(pt.seconds >= 0.49 && pt.seconds < 0.505);
	/* 0.5 s of 1 ms +/- 90% latencies: 500 I/Os, sd about 12. */
	assert_true(pt.ios >= 450 && pt.ios <= 550);
	point_free(&pt);
}

/*
 * A p99.9 is given from POINT_P999_MIN_IOS reads on, where its 95%
 * interval closes below the slowest read: 0.999^3688 <= 0.025 < 0.999^3687.
 */
static void
test_tail_support(void **state)
{
	static const struct {
		double	seconds;	/* at 113 us (mean), depth 1 */
		int	known;
	} cases[] = {
		{ 0.04, 0 },		/* ~350 reads: its slowest, no more */
		{ 0.35, 0 },		/* ~3,100 */
		{ 0.5, 1 },		/* ~4,400 */
		{ 1.2, 1 },		/* ~10,600 */
	};
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;
	size_t			 i;

	(void)state;
	assert_true(pow(0.999, POINT_P999_MIN_IOS) <= 0.025);
	assert_true(pow(0.999, POINT_P999_MIN_IOS - 1) > 0.025);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_setup(&e, &t, 1, 100000, 0.5, 1 << 20, 4096);
		t_spec(&sp, 1 << 20, 4096, 1);
		sp.fixed_time = 1;
		sp.max_time_s = cases[i].seconds;
		rng_seed(&r, 1);
		assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL,
		    NULL), 0);
		assert_true(isfinite(pt.lat_us.p99));
		assert_int_equal(pt.ios >= POINT_P999_MIN_IOS, cases[i].known);
		if (cases[i].known)
			assert_true(pt.lat_us.p999 >= pt.lat_us.p99);
		else
			assert_true(isnan(pt.lat_us.p999));
		point_free(&pt);
	}
}

/* The sequential warm-up reads exactly the range it is given. */
static void
test_warm_range(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;

	(void)state;
	t_setup(&e, &t, 4, 100000, 0, 64 << 20, 4096);
	t_spec(&sp, 64 << 20, 4096, 4);
	sp.warm_from = 16 << 20;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL, NULL),
	    0);
	assert_int_equal(te.seq_bytes, 48 << 20);
	assert_true(pt.warm_seconds > 0);
	point_free(&pt);
}

/* What the progress hook saw: calls, and how many had a live p50. */
struct t_live {
	unsigned	calls;
	unsigned	with_p50;
	double		last_p50;
};

static void
t_live_cb(const struct point *p, double elapsed, void *arg)
{
	struct t_live	*lv = arg;

	lv->calls++;
	if (isfinite(p->lat_us.p50) && p->lat_us.p50 > 0 && elapsed > 0)
		lv->with_p50++;
	lv->last_p50 = p->lat_us.p50;
}

/* The progress hook gets the partial point's p50, not an empty one. */
static void
test_progress_p50(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;
	struct t_live		 lv;

	(void)state;
	memset(&lv, 0, sizeof lv);
	t_setup(&e, &t, 1, 100000, 0, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 1);
	sp.fixed_time = 1;
	sp.max_time_s = 1;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, t_live_cb,
	    &lv), 0);
	assert_true(lv.calls >= 5);
	assert_int_equal(lv.with_p50, lv.calls);
	assert_true(fabs(lv.last_p50 - 100) < 1);
	point_free(&pt);
}

/* A timeline holds per-interval rates, not cumulative ones. */
static void
test_timeline(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct timeline		 tl = { 0 };
	struct rng		 r;
	size_t			 i;

	(void)state;
	t_setup(&e, &t, 2, 200000, 0, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 2);
	sp.fixed_time = 1;
	sp.max_time_s = 10;
	sp.interval_s = 1;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, &tl, NULL, NULL),
	    0);
	assert_true(tl.n >= 9 && tl.n <= 10);
	for (i = 0; i < tl.n; i++) {
		assert_true(fabs(tl.v[i].t_s - (double)(i + 1)) < 1e-9);
		assert_true(fabs(tl.v[i].iops - 10000) <= 1);
	}
	timeline_free(&tl);
	point_free(&pt);
}

static int
t_enough_after_five(const struct timeline *tl, void *arg)
{
	(void)arg;
	return (tl->n >= 5);
}

/*
 * A whole-point timeline: the random warm-up included, the last partial
 * interval closed with its length, times on the caller's clock; and a
 * hook that ends a fixed-time point once enough intervals closed.
 */
static void
test_timeline_whole(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct timeline		 tl = { 0 };
	struct rng		 r;
	double			 ios = 0, prev;
	size_t			 i;

	(void)state;
	t_setup(&e, &t, 2, 200000, 0, 1 << 20, 4096);
	te.now = 7000000000ULL;
	t_spec(&sp, 1 << 20, 4096, 2);
	sp.warm_random = 1;
	sp.max_time_s = 2.3;
	sp.fixed_time = 1;
	sp.interval_s = 0.25;
	sp.tl_whole = 1;
	sp.tl_origin_ns = 5000000000ULL;
	sp.tl_phase = 3;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, &tl, NULL, NULL),
	    0);
	assert_true(pt.warm_seconds > 0);
	prev = 2;		/* the point began 2 s after the origin */
	for (i = 0; i < tl.n; i++) {
		assert_true(fabs(tl.v[i].t_s - tl.v[i].dt_s - prev) < 1e-6);
		assert_true(tl.v[i].dt_s > 0 && tl.v[i].dt_s <= 0.25 + 1e-9);
		assert_int_equal(tl.v[i].iodepth, 2);
		assert_int_equal(tl.v[i].bs, 4096);
		assert_int_equal(tl.v[i].phase, 3);
		ios += tl.v[i].iops * tl.v[i].dt_s;
		prev = tl.v[i].t_s;
	}
	/* Every I/O, warm-up and the last partial interval included. */
	assert_true(tl.v[tl.n - 1].dt_s < 0.25 - 1e-6);
	assert_true(fabs(ios - (double)te.nio) < 0.5);
	assert_true(fabs(prev - 2 - pt.warm_seconds - pt.seconds) < 1e-6);
	timeline_free(&tl);
	point_free(&pt);

	/* The hook ends a fixed-time point early. */
	t_setup(&e, &t, 2, 200000, 0, 1 << 20, 4096);
	t_spec(&sp, 1 << 20, 4096, 2);
	sp.fixed_time = 1;
	sp.max_time_s = 100;
	sp.interval_s = 1;
	sp.tl_enough = t_enough_after_five;
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, &tl, NULL, NULL),
	    0);
	assert_int_equal(tl.n, 5);
	assert_true(pt.seconds < 5.01);
	timeline_free(&tl);
	point_free(&pt);
}

/* An I/O error ends the point with -EIO and keeps what was measured. */
static void
test_io_error(void **state)
{
	struct engine		 e;
	struct target		 t;
	struct sample_spec	 sp;
	struct point		 pt;
	struct rng		 r;

	(void)state;
	t_setup(&e, &t, 4, 100000, 0, 1 << 20, 4096);
	te.fail_after = 5000;
	t_spec(&sp, 1 << 20, 4096, 4);
	sp.fixed_time = 1;
	rng_seed(&r, 1);
	assert_int_equal(sampler_measure(&e, &r, &sp, &pt, NULL, NULL, NULL),
	    -EIO);
	assert_int_equal(te.inflight, 0);
	assert_true(pt.ios > 4000 && pt.ios <= 5000);
	point_free(&pt);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_offsets),
		cmocka_unit_test(test_queue_depth),
		cmocka_unit_test(test_precision_rule),
		cmocka_unit_test(test_time_rule),
		cmocka_unit_test(test_tail_support),
		cmocka_unit_test(test_warm_range),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_timeline_whole),
		cmocka_unit_test(test_progress_p50),
		cmocka_unit_test(test_io_error),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * Description: the sampler on the test engine (t_engine.c) with known
 * latencies: offsets aligned, inside [0, ws) and drawn with replacement;
 * the queue kept at the iodepth asked; the precision and time stopping
 * rules; warm-up coverage; timelines per interval; I/O errors reported.
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
	assert_true(pt.seconds >= 0.5 && pt.seconds < 0.51);
	/* 0.5 s of 1 ms +/- 90% latencies: 500 I/Os, sd about 12. */
	assert_true(pt.ios >= 450 && pt.ios <= 550);
	point_free(&pt);
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
		cmocka_unit_test(test_warm_range),
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_io_error),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

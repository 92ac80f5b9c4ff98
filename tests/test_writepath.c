/* SPDX-License-Identifier: ISC */
/*
 * writepath.c on synthetic data: the fastest method is the one with most
 * commits at one writer and the size asked; methods tie when their
 * intervals overlap; the flush evidence table (suspect only on a device
 * that says "write back", and only when writes paced one at a time rule
 * out a rate cap hiding the flush; when writes back to back waited for a
 * cap, the flush is the paced pair's);
 * a write-back buffer
 * of known size in noisy timelines (size within 2%, the truth inside the
 * interval, both rates; a buffer filled within the first second gives a
 * lower bound of the fast rate, said so, one filled in the second does
 * not), none in flat or recovering ones; and
 * the drain rate after a pause.
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
#include "timeline.h"
#include "writepath.h"

#define T_MIB	(1024.0 * 1024)

static void
t_within(const char *what, double got, double want, double tol)
{
	if (!(fabs(got / want - 1) <= tol))
		fail_msg("%s: %g, want %g within %g%%", what, got, want,
		    tol * 100);
}

static void
test_best(void **state)
{
	struct commit_point	rows[5];
	static const struct {
		int		method;
		uint32_t	bs;
		unsigned	writers;
		double		iops;
	} v[5] = {
		{ 0, 8192, 1, 900 },
		{ 1, 8192, 1, 1200 },
		{ 2, 4096, 1, 5000 },	/* faster, other size */
		{ 0, 8192, 4, 3000 },	/* faster, more writers */
		{ 3, 8192, 1, 1100 },
	};
	size_t			i;

	(void)state;
	memset(rows, 0, sizeof rows);
	for (i = 0; i < 5; i++) {
		rows[i].method = v[i].method;
		rows[i].bs = v[i].bs;
		rows[i].writers = v[i].writers;
		rows[i].pt.iops = v[i].iops;
		rows[i].pt.ios = 100;
	}
	assert_int_equal(writepath_best(rows, 5, 8192), 1);
	assert_int_equal(writepath_best(rows, 5, 4096), 2);
	assert_int_equal(writepath_best(rows, 5, 16384), -1);
	rows[1].pt.ios = 0;		/* nothing measured: not a candidate */
	assert_int_equal(writepath_best(rows, 5, 8192), 4);
	assert_int_equal(writepath_best(rows, 0, 8192), -1);
}

/*
 * A bucket that ran dry among the commits: the rows from the first after
 * which none ran above the rate measured again; a slow method before the
 * drop is not it; no drop when the rate again is the first one's.
 */
static void
test_drop(void **state)
{
	struct commit_point	rows[7], again;
	static const double	v[7] = { 870, 280, 880, 860, 320, 300, 301 };
	size_t			i;

	(void)state;
	memset(rows, 0, sizeof rows);
	memset(&again, 0, sizeof again);
	for (i = 0; i < 7; i++) {
		rows[i].method = (int)i;
		rows[i].bs = 8192;
		rows[i].writers = 1;
		rows[i].pt.iops = v[i];
		rows[i].pt.ios = 100;
		rows[i].pt.ci95_rel = 0.02;
	}
	again = rows[0];
	again.pt.iops = 300;
	assert_int_equal(writepath_drop(rows, 7, &again), 4);
	/* After every row: only the point again ran after it. */
	assert_int_equal(writepath_drop(rows, 4, &again), 4);
	again.pt.iops = 800;		/* within WRITEPATH_DROP: the same */
	assert_int_equal(writepath_drop(rows, 7, &again), -1);
	again.pt.iops = 300;
	again.pt.ios = 0;		/* not measured */
	assert_int_equal(writepath_drop(rows, 7, &again), -1);
	again.pt.ios = 100;
	again.method = 9;		/* no first row to set it against */
	assert_int_equal(writepath_drop(rows, 7, &again), -1);
}

/* Overlapping 95% intervals tie, in either order; disjoint ones do not. */
static void
test_tied(void **state)
{
	struct commit_point	a, b;

	(void)state;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.pt.iops = 632;
	a.pt.ci95_rel = 0.14;		/* 544 - 720 */
	b.pt.iops = 475;
	b.pt.ci95_rel = 0.205;		/* 378 - 572 */
	assert_true(writepath_tied(&a, &b));
	assert_true(writepath_tied(&b, &a));
	b.pt.iops = 425;
	b.pt.ci95_rel = 0.243;		/* 322 - 528 */
	assert_false(writepath_tied(&a, &b));
	assert_false(writepath_tied(&b, &a));
	a.pt.ci95_rel = b.pt.ci95_rel = NAN;	/* unknown: exact only */
	assert_false(writepath_tied(&a, &b));
	b.pt.iops = 632;
	assert_true(writepath_tied(&a, &b));
}

static void
test_flush(void **state)
{
	static const struct {
		double		 write, dsync;	/* back to back */
		double		 pw, pd;	/* paced; NAN: not measured */
		const char	*cache;
		double		 flush;		/* NAN: none */
		int		 queued, suspect;
	} cases[] = {
		{ 50, 400, NAN, NAN, "write back", 350, -1, 0 }, /* a flush */
		{ 50, 400, 49, 390, "write back", 350, 0, 0 },	/* paced too */
		{ 50, 52, 50, 52, "write back", 2, 0, 1 },	/* acknowledged */
		{ 50, 40, 50, 41, "write back", 0, 0, 1 },	/* noise below 0 */
		{ 50, 52, NAN, NAN, "write through", 2, -1, -1 }, /* none sent */
		{ 50, 52, 50, 52, "", 2, 0, -1 },		/* claim unknown */
		{ 50, 400, NAN, NAN, "write through", 350, -1, 0 }, /* costs */
		{ 50, 54.9, 50, 54.9, "write back", 4.9, 0, 1 }, /* under 1/10 */
		{ 50, 55.1, NAN, NAN, "write back", 5.1, -1, 0 },
		{ NAN, 400, NAN, NAN, "write back", NAN, -1, -1 }, /* refused */
		/* Cheap, and no paced pair to rule out a cap: not judged. */
		{ 50, 52, NAN, NAN, "write back", 2, -1, -1 },
		/* Under a 300 IOPS cap: the flush hides in the wait. */
		{ 3330, 3332, 560, 1110, "write back", 550, 1, 0 },
		/* Acknowledged at once under the cap: still suspect. */
		{ 3330, 3332, 42, 43, "write back", 1, 1, 1 },
		/* Paced writes as slow: no cap, the flush is cheap. */
		{ 60, 61, 55, 56, "write back", 1, 0, 1 },
		/* A cap that counts the flush as an I/O: the paced pair's. */
		{ 50, 10000, 48, 400, "write back", 352, 1, 0 },
	};
	struct writepath_flush	f;
	size_t			i;
	int			want;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		writepath_flush_init(&f);
		f.write_us = cases[i].write;
		f.dsync_write_us = cases[i].dsync;
		f.fdatasync_us = 500;
		f.empty_fdatasync_us = 20;
		f.paced_write_us = cases[i].pw;
		f.paced_dsync_write_us = cases[i].pd;
		writepath_flush(&f, cases[i].cache);
		if (isnan(cases[i].flush))
			assert_true(isnan(f.flush_us));
		else if (fabs(f.flush_us - cases[i].flush) > 1e-9)
			fail_msg("case %zu: flush %g, want %g", i, f.flush_us,
			    cases[i].flush);
		if (f.queued != cases[i].queued ||
		    f.suspect != cases[i].suspect)
			fail_msg("case %zu: queued %d, suspect %d, want %d, %d",
			    i, f.queued, f.suspect, cases[i].queued,
			    cases[i].suspect);
		assert_true(f.fdatasync_us == 500 &&
		    f.empty_fdatasync_us == 20);
		/* The paced pair, wherever flushes may go out. */
		want = isfinite(cases[i].write) && isfinite(cases[i].dsync) &&
		    strcmp(cases[i].cache, "write through") != 0;
		if (writepath_flush_pace(&f, cases[i].cache) != want)
			fail_msg("case %zu: paced pair wanted %d", i, !want);
	}
}

/*
 * A sustained run into a buffer of cap bytes (empty at first) that drains
 * at slow: writes go in at fast (with relative noise, in 10 ms steps) as
 * far as there is room; n intervals of 1 s.
 */
static size_t
t_run(struct timeline_sample *tl, size_t n, double cap, double fast,
    double slow, double noise, uint64_t seed)
{
	struct rng	r;
	double		level = 0, bytes, in, dt = 0.01;
	size_t		i, k;

	rng_seed(&r, seed);
	for (i = 0; i < n; i++) {
		bytes = 0;
		for (k = 0; k < 100; k++) {
			in = fast * dt * (1 + noise * rng_normal(&r));
			if (in > cap - level + slow * dt)
				in = cap - level + slow * dt;
			level += in - slow * dt;
			if (level < 0)
				level = 0;
			bytes += in;
		}
		memset(&tl[i], 0, sizeof tl[i]);
		tl[i].t_s = (double)(i + 1);
		tl[i].bytes_per_s = bytes;
		tl[i].iops = bytes / T_MIB;
		tl[i].lat_us_mean = NAN;
	}
	return (n);
}

static void
test_buffer(void **state)
{
	static const struct {
		double	cap, fast, slow;
	} cases[] = {
		{ 4096 * T_MIB, 1024 * T_MIB, 200 * T_MIB },
		{ 256 * T_MIB, 1500 * T_MIB, 20 * T_MIB },	/* < 1 s */
		{ 20 * 1024 * T_MIB, 900 * T_MIB, 300 * T_MIB },
		{ 1024 * T_MIB, 1024 * T_MIB, 200 * T_MIB },	/* 1.24 s */
	};
	struct timeline_sample	tl[120];
	struct wbuffer		b;
	double			fill;
	size_t			i;
	uint64_t		seed;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (seed = 1; seed <= 10; seed++) {
			t_run(tl, 120, cases[i].cap, cases[i].fast,
			    cases[i].slow, 0.10, seed);
			assert_int_equal(writepath_buffer(tl, 120, &b), 0);
			assert_true(b.detected);
			t_within("size", b.bytes, cases[i].cap, 0.02);
			if (!(b.low_bytes <= cases[i].cap * 1.005 &&
			    b.high_bytes >= cases[i].cap * 0.995))
				fail_msg("case %zu seed %llu: %g not in %g - "
				    "%g", i, (unsigned long long)seed,
				    cases[i].cap, b.low_bytes, b.high_bytes);
			assert_true(b.high_bytes - b.low_bytes < 0.2 * b.bytes);
			t_within("slow", b.slow_bytes_per_s, cases[i].slow,
			    0.02);
			fill = cases[i].cap / (cases[i].fast - cases[i].slow);
			assert_int_equal(b.fast_at_least, fill < 1);
			if (b.fast_at_least) {
				assert_true(b.fast_bytes_per_s <
				    cases[i].fast);
				assert_true(b.fill_s >= fill);
				continue;
			}
			t_within("fast", b.fast_bytes_per_s, cases[i].fast,
			    0.03);
			t_within("fill", b.fill_s, fill, 0.05);
		}
	}
}

/* Flat, and dropping for a while then back: no buffer. */
static void
test_no_buffer(void **state)
{
	struct timeline_sample	tl[60];
	struct wbuffer		b;
	size_t			i;

	(void)state;
	t_run(tl, 60, 0, 300 * T_MIB, 300 * T_MIB, 0.03, 3);
	assert_int_equal(writepath_buffer(tl, 60, &b), 0);
	assert_false(b.detected);
	assert_true(isnan(b.bytes));
	t_within("mean", b.slow_bytes_per_s, 300 * T_MIB, 0.02);

	for (i = 20; i < 35; i++)
		tl[i].bytes_per_s /= 3;
	assert_int_equal(writepath_buffer(tl, 60, &b), 0);
	assert_false(b.detected);

	assert_int_equal(writepath_buffer(tl, 4, &b), -1);	/* too short */
	assert_false(b.detected);
}

/* A second run after a pause finds what drained. */
static void
test_drain(void **state)
{
	struct timeline_sample	first[60], again[20];
	struct wbuffer		b;
	double			cap = 2048 * T_MIB, drain = 100 * T_MIB;

	(void)state;
	t_run(first, 60, cap, 1000 * T_MIB, drain, 0.01, 5);
	assert_int_equal(writepath_buffer(first, 60, &b), 0);
	assert_true(b.detected);
	/* 8 s idle at 100 MiB/s: 800 MiB drained. */
	t_run(again, 20, 8 * drain, 1000 * T_MIB, drain, 0.01, 6);
	writepath_drain(&b, again, 20, 8);
	t_within("refilled", b.refilled_bytes, 8 * drain, 0.03);
	t_within("drain rate", b.drain_bytes_per_s, drain, 0.03);
	t_within("drain time", b.drain_s, cap / drain, 0.05);
	assert_false(b.drain_at_most);

	/* A long pause: whole again, the pause bounds the drain time. */
	t_run(again, 20, cap, 1000 * T_MIB, drain, 0.01, 7);
	writepath_drain(&b, again, 20, 40);
	assert_true(b.drain_at_most);
	assert_true(b.drain_s == 40);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_best),
		cmocka_unit_test(test_tied),
		cmocka_unit_test(test_drop),
		cmocka_unit_test(test_flush),
		cmocka_unit_test(test_buffer),
		cmocka_unit_test(test_no_buffer),
		cmocka_unit_test(test_drain),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

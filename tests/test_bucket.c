/* SPDX-License-Identifier: ISC */
/*
 * Tests for bucket.c: the state of a figure from where a run's drop fell
 * (none, before, after, across, somewhere in its phase), the earliest of
 * several drops kept, a burst's drop placed in its sustained run or its
 * sweeps, states merged, and the names.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bucket.h"
#include "ceilings.h"

/* A figure in phase 1 over [t0, t1] against a drop in phase 1 at 100 s. */
static void
t_state_at(void **state)
{
	static const struct {
		int		phase;
		double		t0, t1;
		enum bucket_state want;
	} cases[] = {
		{ 0, NAN, NAN, BUCKET_FULL },		/* an earlier phase */
		{ 2, NAN, NAN, BUCKET_EMPTY },		/* a later one */
		{ 1, 0, 99, BUCKET_FULL },		/* ended before */
		{ 1, 0, 100, BUCKET_FULL },
		{ 1, 100, 300, BUCKET_EMPTY },		/* began after */
		{ 1, 50, 150, BUCKET_DRAINING },	/* across it */
		{ 1, NAN, NAN, BUCKET_DRAINING },	/* the whole phase */
	};
	struct bucket_drop	d;
	size_t			i;

	(void)state;
	bucket_drop_none(&d);
	assert_int_equal(bucket_state(&d, 1, 0, 10), BUCKET_MAY_BE_FULL);
	assert_int_equal(bucket_state(&d, 5, NAN, NAN), BUCKET_MAY_BE_FULL);
	bucket_drop_at(&d, 1, 100);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(bucket_state(&d, cases[i].phase, cases[i].t0,
		    cases[i].t1), cases[i].want);
	/* A drop somewhere in phase 1: all of it drains. */
	bucket_drop_none(&d);
	bucket_drop_at(&d, 1, NAN);
	assert_int_equal(bucket_state(&d, 1, 0, 10), BUCKET_DRAINING);
	assert_int_equal(bucket_state(&d, 0, 0, 10), BUCKET_FULL);
}

/* The earliest drop is kept, whatever the order they are added in. */
static void
t_drop_earliest(void **state)
{
	struct bucket_drop	d;

	(void)state;
	bucket_drop_none(&d);
	bucket_drop_at(&d, -1, 5);
	assert_int_equal(d.phase, -1);
	bucket_drop_at(&d, 3, 50);
	bucket_drop_at(&d, 4, 1);
	assert_int_equal(d.phase, 3);
	assert_true(d.t_s == 50);
	bucket_drop_at(&d, 3, 20);
	assert_true(d.t_s == 20);
	bucket_drop_at(&d, 3, 30);
	assert_true(d.t_s == 20);
	bucket_drop_at(&d, 1, 900);
	assert_int_equal(d.phase, 1);
	assert_true(d.t_s == 900);
}

/* A burst's drop: none, in its sustained run, in its sweeps, unplaced. */
static void
t_drop_burst(void **state)
{
	struct bucket_drop	d;
	struct burst		b;

	(void)state;
	memset(&b, 0, sizeof b);
	b.drop_t_s = b.drop_sweep_t_s = NAN;
	bucket_drop_none(&d);
	bucket_drop_add(&d, &b, 1, 2);
	assert_int_equal(d.phase, -1);

	b.detected = 1;
	b.drop_t_s = 1980;
	bucket_drop_add(&d, &b, 1, 2);
	assert_int_equal(d.phase, 2);
	assert_true(d.t_s == 1980);
	/* Figures of the run before its drop: the burst; after: baseline. */
	assert_int_equal(bucket_state(&d, 2, 0, 1000), BUCKET_FULL);
	assert_int_equal(bucket_state(&d, 2, 1980, 3000), BUCKET_EMPTY);
	assert_int_equal(bucket_state(&d, 2, 0, 3000), BUCKET_DRAINING);
	assert_int_equal(bucket_state(&d, 5, NAN, NAN), BUCKET_EMPTY);

	/* Empty before the run: ran dry in the sweeps, at 12 s there. */
	b.exhausted = 1;
	b.drop_sweep_t_s = 12;
	bucket_drop_none(&d);
	bucket_drop_add(&d, &b, 1, 2);
	assert_int_equal(d.phase, 1);
	assert_true(d.t_s == 12);
	assert_int_equal(bucket_state(&d, 1, 3, 4), BUCKET_FULL);
	assert_int_equal(bucket_state(&d, 1, 13, 14), BUCKET_EMPTY);
	assert_int_equal(bucket_state(&d, 2, 0, 100), BUCKET_EMPTY);

	/* Only the run's low rate told: somewhere in the sweeps or after. */
	b.drop_sweep_t_s = NAN;
	bucket_drop_none(&d);
	bucket_drop_add(&d, &b, 1, 2);
	assert_int_equal(d.phase, 1);
	assert_true(isnan(d.t_s));
	assert_int_equal(bucket_state(&d, 1, 3, 4), BUCKET_DRAINING);
	assert_int_equal(bucket_state(&d, 0, NAN, NAN), BUCKET_FULL);
}

/* Merging: like with like, across a drop, unknown and unaffected. */
static void
t_merge(void **state)
{
	static const struct {
		enum bucket_state a, b, want;
	} cases[] = {
		{ BUCKET_FULL, BUCKET_FULL, BUCKET_FULL },
		{ BUCKET_FULL, BUCKET_EMPTY, BUCKET_DRAINING },
		{ BUCKET_EMPTY, BUCKET_DRAINING, BUCKET_DRAINING },
		{ BUCKET_UNKNOWN, BUCKET_EMPTY, BUCKET_EMPTY },
		{ BUCKET_EMPTY, BUCKET_UNKNOWN, BUCKET_EMPTY },
		{ BUCKET_UNAFFECTED, BUCKET_FULL, BUCKET_FULL },
		{ BUCKET_MAY_BE_FULL, BUCKET_UNAFFECTED, BUCKET_MAY_BE_FULL },
		{ BUCKET_MAY_BE_FULL, BUCKET_EMPTY, BUCKET_MAY_BE_FULL },
		{ BUCKET_UNKNOWN, BUCKET_UNKNOWN, BUCKET_UNKNOWN },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(bucket_state_merge(cases[i].a, cases[i].b),
		    cases[i].want);
}

/* Which states a bucket may have lifted, and every state's names. */
static void
t_names(void **state)
{
	int	s;

	(void)state;
	assert_true(bucket_state_lifted(BUCKET_FULL));
	assert_true(bucket_state_lifted(BUCKET_MAY_BE_FULL));
	assert_true(bucket_state_lifted(BUCKET_DRAINING));
	assert_false(bucket_state_lifted(BUCKET_EMPTY));
	assert_false(bucket_state_lifted(BUCKET_UNAFFECTED));
	assert_false(bucket_state_lifted(BUCKET_UNKNOWN));
	assert_null(bucket_state_name(BUCKET_UNKNOWN));
	assert_string_equal(bucket_state_mark(BUCKET_UNKNOWN), "");
	assert_string_equal(bucket_state_mark(BUCKET_UNAFFECTED), "");
	for (s = 1; s < BUCKET_NSTATES; s++) {
		assert_non_null(bucket_state_name(s));
		assert_true(s == BUCKET_UNAFFECTED ||
		    strlen(bucket_state_mark(s)) > 0);
	}
	assert_string_equal(bucket_state_name(BUCKET_MAY_BE_FULL),
	    "may_be_full");
	assert_null(bucket_state_name(BUCKET_NSTATES));
	assert_null(bucket_state_name(-1));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_state_at),
		cmocka_unit_test(t_drop_earliest),
		cmocka_unit_test(t_drop_burst),
		cmocka_unit_test(t_merge),
		cmocka_unit_test(t_names),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

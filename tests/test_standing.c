/* SPDX-License-Identifier: ISC */
/*
 * Tests for standing.c: a figure's standing (measured, bounded, unknown)
 * from its value and bound, whether a bucket may have lifted it and
 * whether a drain seen in any phase contradicts it; and expectations
 * judged on that decision (met, missed, unknown; borderline; lifted),
 * including a burst figure contradicted by a drain in another phase.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bucket.h"
#include "standing.h"

#define NB	STANDING_BOUND_NONE
#define MOST	STANDING_BOUND_AT_MOST
#define LEAST	STANDING_BOUND_AT_LEAST

/* The decision on figures of each value, bound, state and drain. */
static void
t_decide(void **state)
{
	static const struct {
		double	value;
		int	bound, st, drained, of_burst;
		int	kind, burst, contradicted, why;
	} cases[] = {
		{ NAN, NB, BUCKET_EMPTY, 1, 0,
		  STANDING_UNKNOWN, 0, 0, STANDING_WHY_NOT_ESTABLISHED },
		{ 300, NB, BUCKET_EMPTY, 1, 0,
		  STANDING_MEASURED, 0, 0, STANDING_WHY_LONG_RUN },
		{ 4e9, NB, BUCKET_UNAFFECTED, 1, 0,
		  STANDING_MEASURED, 0, 0, STANDING_WHY_NONE },
		/* No drain seen: a bucket may have lifted it. */
		{ 3000, NB, BUCKET_MAY_BE_FULL, 0, 0,
		  STANDING_MEASURED, 1, 0, STANDING_WHY_MAY_BE_FULL },
		/* Full before a drop of its own phase, or of another. */
		{ 3000, NB, BUCKET_FULL, 0, 0,
		  STANDING_MEASURED, 1, 1, STANDING_WHY_CONTRADICTED },
		{ 3000, NB, BUCKET_MAY_BE_FULL, 1, 0,
		  STANDING_MEASURED, 1, 1, STANDING_WHY_CONTRADICTED },
		{ 1500, NB, BUCKET_DRAINING, 1, 0,
		  STANDING_MEASURED, 1, 1, STANDING_WHY_CONTRADICTED },
		/* Asked as a burst figure: what it is. */
		{ 3000, NB, BUCKET_FULL, 1, 1,
		  STANDING_MEASURED, 0, 0, STANDING_WHY_BURST },
		/* Bounds. */
		{ 3000, MOST, BUCKET_MAY_BE_FULL, 0, 0,
		  STANDING_BOUNDED, 1, 0, STANDING_WHY_AT_MOST },
		{ 3000, MOST, BUCKET_FULL, 1, 0,
		  STANDING_BOUNDED, 1, 1, STANDING_WHY_CONTRADICTED },
		{ 4e9, LEAST, BUCKET_UNAFFECTED, 0, 0,
		  STANDING_BOUNDED, 0, 0, STANDING_WHY_AT_LEAST },
	};
	struct standing_figure	f;
	struct standing		s;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&f, 0, sizeof f);
		f.value = cases[i].value;
		f.low = f.high = NAN;
		f.bound = cases[i].bound;
		f.state = cases[i].st;
		f.drained = cases[i].drained;
		f.of_burst = cases[i].of_burst;
		standing_decide(&f, &s);
		if (s.kind != cases[i].kind || s.burst != cases[i].burst ||
		    s.contradicted != cases[i].contradicted ||
		    s.why != cases[i].why)
			fail_msg("case %zu: kind %d burst %d contradicted %d "
			    "why %d", i, s.kind, s.burst, s.contradicted,
			    s.why);
		assert_int_equal(s.bound, cases[i].kind == STANDING_BOUNDED ?
		    cases[i].bound : NB);
	}
}

/* Expectations judged on the decision. */
static void
t_judge(void **state)
{
	static const struct {
		double		value, low, high;
		int		bound, st, drained, of_burst;
		enum check_op	op;
		double		threshold;
		enum check_verdict want;
		int		borderline, lifted, passes, accepted;
	} cases[] = {
		/* The long run after a drain: 100 against 2500. */
		{ 100, NAN, NAN, NB, BUCKET_EMPTY, 1, 0, CHECK_GE, 2500,
		  CHECK_MISSED, 0, 0, 0, 0 },
		{ 100, NAN, NAN, NB, BUCKET_EMPTY, 1, 0, CHECK_GE, 90,
		  CHECK_MET, 0, 0, 1, 1 },
		/* A burst figure met, a drain seen elsewhere: the long run
		   is at most 3000, so >= is open, <= holds. */
		{ 3000, 2990, 3010, NB, BUCKET_FULL, 1, 0, CHECK_GE, 2500,
		  CHECK_UNKNOWN, 0, 0, 0, 0 },
		{ 3000, 2990, 3010, NB, BUCKET_MAY_BE_FULL, 1, 0, CHECK_GE,
		  2500, CHECK_UNKNOWN, 0, 0, 0, 0 },
		{ 3000, 2990, 3010, NB, BUCKET_FULL, 1, 0, CHECK_GE, 4000,
		  CHECK_MISSED, 0, 0, 0, 0 },
		{ 3000, 2990, 3010, NB, BUCKET_FULL, 1, 0, CHECK_LE, 5000,
		  CHECK_MET, 0, 0, 1, 1 },
		/* No drain seen: met while a bucket may be full, accepted
		   only with --accept-burst. */
		{ 3000, 2990, 3010, NB, BUCKET_MAY_BE_FULL, 0, 0, CHECK_GE,
		  2500, CHECK_MET, 0, 1, 0, 1 },
		/* The same figure asked as a burst rate: met. */
		{ 3000, 2990, 3010, NB, BUCKET_FULL, 1, 1, CHECK_GE, 2500,
		  CHECK_MET, 0, 0, 1, 1 },
		/* Inside the interval: borderline. */
		{ 3000, 2990, 3010, NB, BUCKET_EMPTY, 1, 0, CHECK_GE, 3005,
		  CHECK_MISSED, 1, 0, 0, 0 },
		/* Bounds: a cache at least 4 GB. */
		{ 4e9, 4e9, INFINITY, LEAST, BUCKET_UNAFFECTED, 0, 0,
		  CHECK_GE, 1e9, CHECK_MET, 0, 0, 1, 1 },
		{ 4e9, 4e9, INFINITY, LEAST, BUCKET_UNAFFECTED, 0, 0,
		  CHECK_GE, 8e9, CHECK_UNKNOWN, 0, 0, 0, 0 },
		{ 4e9, 4e9, INFINITY, LEAST, BUCKET_UNAFFECTED, 0, 0,
		  CHECK_LE, 1e9, CHECK_MISSED, 0, 0, 0, 0 },
		/* At most the rate held: >= open, <= met, below missed. */
		{ 3000, NAN, NAN, MOST, BUCKET_MAY_BE_FULL, 0, 0, CHECK_GE,
		  2500, CHECK_UNKNOWN, 0, 0, 0, 0 },
		{ 3000, NAN, NAN, MOST, BUCKET_MAY_BE_FULL, 0, 0, CHECK_GE,
		  3500, CHECK_MISSED, 0, 0, 0, 0 },
		/* Unknown stays unknown. */
		{ NAN, NAN, NAN, NB, BUCKET_UNKNOWN, 0, 0, CHECK_GE, 1,
		  CHECK_UNKNOWN, 0, 0, 0, 0 },
	};
	struct standing_figure	f;
	struct standing		s;
	struct standing_outcome	o;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&f, 0, sizeof f);
		f.value = cases[i].value;
		f.low = cases[i].low;
		f.high = cases[i].high;
		f.bound = cases[i].bound;
		f.state = cases[i].st;
		f.drained = cases[i].drained;
		f.of_burst = cases[i].of_burst;
		standing_decide(&f, &s);
		standing_judge(&f, &s, cases[i].op, cases[i].threshold, &o);
		if (o.verdict != cases[i].want ||
		    o.borderline != cases[i].borderline ||
		    o.lifted != cases[i].lifted ||
		    standing_passes(&o, 0) != cases[i].passes ||
		    standing_passes(&o, 1) != cases[i].accepted)
			fail_msg("case %zu: verdict %d borderline %d lifted "
			    "%d", i, o.verdict, o.borderline, o.lifted);
	}
}

/* Names, and the operators. */
static void
t_names(void **state)
{
	(void)state;
	assert_string_equal(standing_kind_name(STANDING_MEASURED),
	    "measured");
	assert_string_equal(standing_kind_name(STANDING_BOUNDED), "bounded");
	assert_string_equal(standing_kind_name(STANDING_UNKNOWN), "unknown");
	assert_null(standing_kind_name(STANDING_BOUNDED + 1));
	assert_true(standing_holds(CHECK_GE, 3, 3));
	assert_false(standing_holds(CHECK_GT, 3, 3));
	assert_true(standing_holds(CHECK_NE, 3, 4));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_decide),
		cmocka_unit_test(t_judge),
		cmocka_unit_test(t_names),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

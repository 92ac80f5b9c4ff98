/* SPDX-License-Identifier: ISC */
/*
 * compare.c: the noise rule, ratios B/A of two fixture reports, marks for
 * differences beyond run-to-run noise, and the limits on the report count.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compare.h"
#include "report.h"
#include "t_report.h"

static void
test_differs(void **state)
{
	static const struct {
		double	a, na, b, nb;
		int	want;
	} cases[] = {
		{ 100, 3, 110, 4, 1 },		/* 10 > 5 */
		{ 100, 3, 104, 4, 0 },		/* 4 < 5 */
		{ 100, 3, 95, 4, 0 },
		{ 100, 3, 94, 4, 1 },		/* 6 > 5, downwards */
		{ 100, NAN, 200, 1, -1 },
		{ 100, 1, NAN, 1, -1 },
		{ 100, 0, 100, 0, 0 },
		{ 100, 0, 100.001, 0, 1 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_int_equal(compare_differs(cases[i].a, cases[i].na,
		    cases[i].b, cases[i].nb), cases[i].want);
}

/* The line of a figure in compare output. */
static const char *
t_row(const char *out, const char *label)
{
	static char	 line[256];
	const char	*p;
	size_t		 n;

	p = strstr(out, label);
	assert_non_null(p);
	n = strcspn(p, "\n");
	snprintf(line, sizeof line, "%.*s", (int)n, p);
	return (line);
}

static void
test_two_fixtures(void **state)
{
	struct report	 reps[2];
	char		*cause = NULL, *out = NULL;
	size_t		 len;
	FILE		*f;

	(void)state;
	assert_int_equal(report_load(t_data("report-scan.json"), &reps[0],
	    &cause), 0);
	assert_int_equal(report_load(t_data("report-scan-b.json"), &reps[1],
	    &cause), 0);
	f = open_memstream(&out, &len);
	assert_int_equal(compare_write(reps, 2, f, 0), 0);
	fclose(f);
	/* 1 GiB / 1.25 GiB, beyond both intervals. */
	assert_non_null(strstr(t_row(out, "tier 1 capacity"), "0.80x *"));
	/* 80.1 / 75.2 us = 1.065: noise 1.5 (2% CI) and 1.8 (2 sd). */
	assert_non_null(strstr(t_row(out, "tier 1 p50"), "1.07x *"));
	/* 6.3 / 6.1 ms: within 2 sd = 500 us of run-to-run noise. */
	assert_non_null(strstr(t_row(out, "backing p50"), "1.03x ="));
	/* p99 carries no noise estimate. */
	assert_non_null(strstr(t_row(out, "tier 1 p99"), "1.07x ?"));
	assert_non_null(strstr(t_row(out, "tier 2 capacity"), "1.00x ="));
	assert_non_null(strstr(out, "A: /dev/nvme1n1"));
	assert_non_null(strstr(out, "B: /dev/nvme2n1"));
	free(out);

	out = NULL;
	f = open_memstream(&out, &len);
	assert_int_equal(compare_write(reps, 2, f, 1), 0);
	fclose(f);
	assert_non_null(strstr(out, "| figure | A | B | B/A |"));
	assert_non_null(strstr(out, "| --- | --: | --: | --: |"));
	free(out);

	assert_int_equal(compare_write(reps, 0, stdout, 0), -1);
	assert_int_equal(compare_write(reps, COMPARE_MAX + 1, stdout, 0), -1);
	report_free(&reps[0]);
	report_free(&reps[1]);
}

static void
test_mixed_sections(void **state)
{
	struct report	 reps[3];
	char		*cause = NULL, *out = NULL;
	size_t		 len;
	FILE		*f;

	(void)state;
	assert_int_equal(report_load(t_data("report-scan.json"), &reps[0],
	    &cause), 0);
	assert_int_equal(report_load(t_data("report-limits.json"), &reps[1],
	    &cause), 0);
	assert_int_equal(report_load(t_data("report-nulls.json"), &reps[2],
	    &cause), 0);
	f = open_memstream(&out, &len);
	assert_int_equal(compare_write(reps, 3, f, 0), 0);
	fclose(f);
	/* A has no limits: its cell is "-", ratios are n/a. */
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "-"));
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "n/a"));
	/* The third report's tier is a lower bound. */
	assert_non_null(strstr(t_row(out, "tier 1 capacity"), ">= 512 MiB"));
	free(out);
	report_free(&reps[0]);
	report_free(&reps[1]);
	report_free(&reps[2]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differs),
		cmocka_unit_test(test_two_fixtures),
		cmocka_unit_test(test_mixed_sections),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

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

/* The fixture reports, loaded once for every test. */
enum { T_SCAN, T_SCAN_B, T_LIMITS, T_NULLS, T_HELD, T_SYNC, T_NFIXTURES };
static const char *const t_fixtures[T_NFIXTURES] = {
	"report-scan.json", "report-scan-b.json", "report-limits.json",
	"report-nulls.json", "report-held.json", "report-sync.json",
};
static struct report	t_reps[T_NFIXTURES];

static int
t_setup(void **state)
{
	char	*cause = NULL;
	size_t	 i;

	(void)state;
	for (i = 0; i < T_NFIXTURES; i++) {
		if (report_load(t_data(t_fixtures[i]), &t_reps[i], &cause) !=
		    0) {
			fprintf(stderr, "%s\n", cause);
			free(cause);
			return (-1);
		}
	}
	return (0);
}

static int
t_teardown(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < T_NFIXTURES; i++)
		report_free(&t_reps[i]);
	return (0);
}

/* compare of the n fixtures named by index (text, or markdown if md). */
static char *
t_compare(int md, int n, ...)
{
	struct report	 reps[T_NFIXTURES];
	va_list		 ap;
	char		*out = NULL;
	size_t		 len;
	FILE		*f;
	int		 i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		reps[i] = t_reps[va_arg(ap, int)];
	va_end(ap);
	f = open_memstream(&out, &len);
	assert_int_equal(compare_write(reps, n, f, md), 0);
	fclose(f);
	return (out);
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
	char	*out;

	(void)state;
	out = t_compare(0, 2, T_SCAN, T_SCAN_B);
	/* 1 GiB / 1.25 GiB, beyond both intervals. */
	assert_non_null(strstr(t_row(out, "tier 1 capacity"), "0.80x *"));
	/* 80.1 / 75.2 us = 1.065: noise 1.5 (2% CI) and 1.8 (2 sd). */
	assert_non_null(strstr(t_row(out, "tier 1 p50"), "1.07x *"));
	/*
	 * 6.3 / 6.1 ms: within 2 sd = 500 us of run-to-run noise, but no
	 * scan can see a bucket run dry: equal only while it lasts.
	 */
	assert_non_null(strstr(t_row(out, "backing p50"), "6.1 ms full?"));
	assert_non_null(strstr(t_row(out, "backing p50"), "1.03x ~"));
	/* A size: no bucket changes it. */
	assert_null(strstr(t_row(out, "tier 2 capacity"), "full"));
	/* p99 carries no noise estimate. */
	assert_non_null(strstr(t_row(out, "tier 1 p99"), "1.07x ?"));
	assert_non_null(strstr(t_row(out, "tier 2 capacity"), "1.00x ="));
	assert_non_null(strstr(out, "A: /dev/nvme1n1"));
	assert_non_null(strstr(out, "B: /dev/nvme2n1"));
	free(out);

	out = t_compare(1, 2, T_SCAN, T_SCAN_B);
	assert_non_null(strstr(out, "| figure | A | B | B/A |"));
	assert_non_null(strstr(out, "| --- | --: | --: | --: |"));
	free(out);

	assert_int_equal(compare_write(t_reps, 0, stdout, 0), -1);
	assert_int_equal(compare_write(t_reps, COMPARE_MAX + 1, stdout, 0),
	    -1);
}

/*
 * A run whose bucket ran dry against one that held: figures measured
 * before the drop against figures that may have been lifted are told
 * apart (!), never equal, and the baseline is said to be one.
 */
static void
test_states(void **state)
{
	char	*out;

	(void)state;
	out = t_compare(0, 2, T_LIMITS, T_HELD);
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "full "));
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "3,000 full?"));
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "1.00x !"));
	assert_null(strstr(t_row(out, "IOPS ceiling"), "="));
	assert_non_null(strstr(t_row(out, "long-run IOPS"), "300 empty"));
	assert_non_null(strstr(out, "States: full measured before"));
	free(out);
	/* A run against itself: equal only while a bucket lasts. */
	out = t_compare(0, 2, T_HELD, T_HELD);
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "1.00x ~"));
	free(out);
}

/* Commits and writes are headline figures: two sync reports compare. */
static void
test_commits(void **state)
{
	char	*out;

	(void)state;
	out = t_compare(0, 2, T_SYNC, T_SYNC);
	assert_null(strstr(out, "No headline figures"));
	assert_non_null(strstr(t_row(out, "commits/s, one writer"),
	    "1.00x"));
	assert_non_null(strstr(out, "commit p99, one writer"));
	free(out);
}

static void
test_mixed_sections(void **state)
{
	char	*out;

	(void)state;
	out = t_compare(0, 3, T_SCAN, T_LIMITS, T_NULLS);
	/* A has no limits: its cell is "-", ratios are n/a. */
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "-"));
	assert_non_null(strstr(t_row(out, "IOPS ceiling"), "n/a"));
	/* The third report's tier is a lower bound. */
	assert_non_null(strstr(t_row(out, "tier 1 capacity"), ">= 512 MiB"));
	free(out);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_differs),
		cmocka_unit_test(test_two_fixtures),
		cmocka_unit_test(test_mixed_sections),
		cmocka_unit_test(test_states),
		cmocka_unit_test(test_commits),
	};

	return (cmocka_run_group_tests(tests, t_setup, t_teardown));
}

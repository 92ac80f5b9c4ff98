/* SPDX-License-Identifier: ISC */
/*
 * Tests for units.c: size, time and number parsers (good and bad input),
 * and the formatters for sizes, latencies, rates, counts and values by
 * kind.
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

#include "units.h"

#define KiB	((uint64_t)1024)
#define MiB	(KiB * 1024)
#define GiB	(MiB * 1024)
#define TiB	(GiB * 1024)
#define PiB	(TiB * 1024)

static const struct {
	const char	*in;
	uint64_t	 want;
} t_good_sizes[] = {
	{ "0", 0 },
	{ "512", 512 },
	{ "512B", 512 },
	{ "512b", 512 },
	{ "4k", 4 * KiB },
	{ "4K", 4 * KiB },
	{ "4KiB", 4 * KiB },
	{ "4KB", 4 * KiB },
	{ "4kib", 4 * KiB },
	{ "4 KiB", 4 * KiB },
	{ "1.5G", GiB + GiB / 2 },
	{ "1.5GiB", GiB + GiB / 2 },
	{ "0.5k", 512 },
	{ ".5k", 512 },
	{ "1.3G", 1395864371 },		/* 1.3 * 2^30 = ...371.2 */
	{ "64m", 64 * MiB },
	{ "2T", 2 * TiB },
	{ "3P", 3 * PiB },
	{ "16383P", 16383 * PiB },
	{ "18446744073709551615", UINT64_MAX },
	{ "18446744073709551615B", UINT64_MAX },
	{ "007k", 7 * KiB },
};

static const char *t_bad_sizes[] = {
	"", " ", "k", "KiB", "-1", "-4k", "+4k", "1x", "4kk", "4KiBs", "4 ",
	" 4", "4k ", "1.5", "1.5B", "1.", "1.k", ".", "1e3", "0x10", "4E",
	"4Q", "nan", "inf", "4 k B", "1,5G", "4iB",
};

static const char *t_big_sizes[] = {
	"18446744073709551616", "16384P", "99999999999999999999999k",
	"17179869184G",
};

static void
t_parse_size_good(void **state)
{
	size_t		 i;
	uint64_t	 v;
	char		*cause;

	(void)state;
	for (i = 0; i < sizeof t_good_sizes / sizeof t_good_sizes[0]; i++) {
		cause = NULL;
		v = 12345;
		if (units_parse_size(t_good_sizes[i].in, &v, &cause) != 0)
			fail_msg("\"%s\": %s", t_good_sizes[i].in, cause);
		if (v != t_good_sizes[i].want)
			fail_msg("\"%s\": got %llu, want %llu",
			    t_good_sizes[i].in, (unsigned long long)v,
			    (unsigned long long)t_good_sizes[i].want);
		assert_null(cause);
	}
}

static void
t_parse_size_bad(void **state)
{
	size_t		 i;
	uint64_t	 v;
	char		*cause, want[64];

	(void)state;
	for (i = 0; i < sizeof t_bad_sizes / sizeof t_bad_sizes[0]; i++) {
		cause = NULL;
		v = 12345;
		if (units_parse_size(t_bad_sizes[i], &v, &cause) != -1)
			fail_msg("\"%s\" accepted as %llu", t_bad_sizes[i],
			    (unsigned long long)v);
		assert_non_null(cause);
		snprintf(want, sizeof want, "\"%s\" is not a size: ",
		    t_bad_sizes[i]);
		if (strncmp(cause, want, strlen(want)) != 0)
			fail_msg("\"%s\": message %s", t_bad_sizes[i], cause);
		assert_non_null(strstr(cause, "powers of 1024"));
		assert_int_equal(v, 12345);
		free(cause);
	}
	for (i = 0; i < sizeof t_big_sizes / sizeof t_big_sizes[0]; i++) {
		cause = NULL;
		if (units_parse_size(t_big_sizes[i], &v, &cause) != -1)
			fail_msg("\"%s\" accepted", t_big_sizes[i]);
		assert_non_null(strstr(cause, "too large"));
		free(cause);
	}
}

static const struct {
	const char	*in;
	double		 want;
} t_good_times[] = {
	{ "0", 0 },
	{ "1", 1 },
	{ "1.5", 1.5 },
	{ "1.5s", 1.5 },
	{ "250us", 250e-6 },
	{ "250 us", 250e-6 },
	{ "2ms", 2e-3 },
	{ "100ns", 100e-9 },
	{ "2m", 120 },
	{ "2min", 120 },
	{ "1h", 3600 },
	{ "0.25h", 900 },
	{ ".5ms", 0.5e-3 },
};

static const char *t_bad_times[] = {
	"", "s", "ms", "-1s", "+1s", "5x", "5 ", "5ss", "5sec", "1e3", "1.",
	"5 m s", "0x1", "nan", "inf", "1,5s", "2M", "5us ",
};

static void
t_parse_time(void **state)
{
	size_t	 i;
	double	 v;
	char	*cause, want[64];

	(void)state;
	for (i = 0; i < sizeof t_good_times / sizeof t_good_times[0]; i++) {
		cause = NULL;
		if (units_parse_time(t_good_times[i].in, &v, &cause) != 0)
			fail_msg("\"%s\": %s", t_good_times[i].in, cause);
		if (fabs(v - t_good_times[i].want) >
		    1e-12 * fabs(t_good_times[i].want))
			fail_msg("\"%s\": got %g, want %g", t_good_times[i].in,
			    v, t_good_times[i].want);
	}
	for (i = 0; i < sizeof t_bad_times / sizeof t_bad_times[0]; i++) {
		cause = NULL;
		v = -7;
		if (units_parse_time(t_bad_times[i], &v, &cause) != -1)
			fail_msg("\"%s\" accepted as %g", t_bad_times[i], v);
		snprintf(want, sizeof want, "\"%s\" is not a time: ",
		    t_bad_times[i]);
		if (strncmp(cause, want, strlen(want)) != 0)
			fail_msg("\"%s\": message %s", t_bad_times[i], cause);
		assert_true(v == -7);
		free(cause);
	}
}

static const struct {
	const char	*in;
	uint64_t	 min, max;
	int		 ok;
	uint64_t	 want;
	const char	*msg;
} t_uints[] = {
	{ "1", 1, 64, 1, 1, NULL },
	{ "64", 1, 64, 1, 64, NULL },
	{ "32", 1, 64, 1, 32, NULL },
	{ "0", 0, 0, 1, 0, NULL },
	{ "18446744073709551615", 0, UINT64_MAX, 1, UINT64_MAX, NULL },
	{ "0", 1, 64, 0, 0, "from 1 to 64" },
	{ "65", 1, 64, 0, 0, "from 1 to 64" },
	{ "18446744073709551616", 0, UINT64_MAX, 0, 0, "out of range" },
	{ "", 1, 64, 0, 0, "not a whole number" },
	{ "-1", 1, 64, 0, 0, "from 1 to 64" },
	{ "1.5", 1, 64, 0, 0, "not a whole number" },
	{ "4k", 1, 8192, 0, 0, "from 1 to 8192" },
	{ "12 ", 1, 64, 0, 0, "not a whole number" },
};

static void
t_parse_uint(void **state)
{
	size_t		 i;
	uint64_t	 v;
	char		*cause;

	(void)state;
	for (i = 0; i < sizeof t_uints / sizeof t_uints[0]; i++) {
		cause = NULL;
		v = 777;
		if (units_parse_uint(t_uints[i].in, t_uints[i].min,
		    t_uints[i].max, &v, &cause) != (t_uints[i].ok ? 0 : -1))
			fail_msg("\"%s\": wrong verdict (%s)", t_uints[i].in,
			    cause != NULL ? cause : "accepted");
		if (t_uints[i].ok) {
			assert_true(v == t_uints[i].want);
			assert_null(cause);
		} else {
			assert_true(v == 777);
			if (strstr(cause, t_uints[i].msg) == NULL)
				fail_msg("\"%s\": message %s", t_uints[i].in,
				    cause);
			free(cause);
		}
	}
}

static const struct {
	uint64_t	 in;
	const char	*want;
} t_fsizes[] = {
	{ 0, "0 B" },
	{ 17, "17 B" },
	{ 1023, "1023 B" },
	{ 1024, "1 KiB" },
	{ 1536, "1.5 KiB" },
	{ 512 * KiB, "512 KiB" },
	{ 1023 * KiB, "1023 KiB" },
	{ MiB - 1, "1 MiB" },
	{ GiB + GiB / 4, "1.25 GiB" },
	{ 10 * GiB + GiB / 3, "10.3 GiB" },
	{ 123456789, "118 MiB" },
	{ 3 * TiB, "3 TiB" },
	{ 5 * PiB / 2, "2.5 PiB" },
	{ UINT64_MAX, "16 EiB" },
};

static const struct {
	double		 in;
	const char	*want;
} t_flats[] = {
	{ 75.2, "75.2 us" },
	{ 1310, "1.31 ms" },
	{ 2.1e6, "2.1 s" },
	{ 0.25, "250 ns" },
	{ 0, "0 ns" },
	{ 999.4, "999 us" },
	{ 999.6, "1 ms" },
	{ 9.996, "10 us" },
	{ 99.96, "100 us" },
	{ 123.456, "123 us" },
	{ 1.23456, "1.23 us" },
	{ 3600e6, "3600 s" },
}, t_frates[] = {
	{ 250.0 * 1024 * 1024, "250 MiB/s" },
	{ 100, "100 B/s" },
	{ 1.5 * 1024 * 1024 * 1024, "1.5 GiB/s" },
}, t_fcounts[] = {
	{ 45200, "45.2k" },
	{ 5.4e6, "5.4M" },
	{ 17, "17" },
	{ 17.26, "17.3" },
	{ 999, "999" },
	{ 1e3, "1k" },
	{ -2500, "-2.5k" },
	{ 0, "0" },
};

static void
t_format(void **state)
{
	char	buf[UNITS_BUFSZ];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t_fsizes / sizeof t_fsizes[0]; i++) {
		assert_ptr_equal(units_format_size(t_fsizes[i].in, buf,
		    sizeof buf), buf);
		assert_string_equal(buf, t_fsizes[i].want);
	}
	for (i = 0; i < sizeof t_flats / sizeof t_flats[0]; i++) {
		units_format_lat_us(t_flats[i].in, buf, sizeof buf);
		assert_string_equal(buf, t_flats[i].want);
	}
	for (i = 0; i < sizeof t_frates / sizeof t_frates[0]; i++) {
		units_format_rate(t_frates[i].in, buf, sizeof buf);
		assert_string_equal(buf, t_frates[i].want);
	}
	for (i = 0; i < sizeof t_fcounts / sizeof t_fcounts[0]; i++) {
		units_format_count(t_fcounts[i].in, buf, sizeof buf);
		assert_string_equal(buf, t_fcounts[i].want);
	}
	/* A short buffer is truncated, never overrun. */
	memset(buf, 'x', sizeof buf);
	units_format_size(GiB + GiB / 4, buf, 5);
	assert_string_equal(buf, "1.25");
	assert_int_equal(buf[5], 'x');
}

/* A value by kind: thousands separators, seconds, unknowns. */
static void
t_format_value(void **state)
{
	static const struct {
		enum units_kind	 kind;
		double		 v;
		const char	*want;
	} cases[] = {
		{ UNITS_IOPS, 3000, "3,000" },
		{ UNITS_IOPS, 1234567, "1,234,567" },
		{ UNITS_IOPS, 999, "999" },
		{ UNITS_IOPS, 2.5e7, "25M" },
		{ UNITS_PLAIN, 32, "32" },
		{ UNITS_PLAIN, -1234, "-1,234" },
		{ UNITS_SECONDS, 20, "20.0 s" },
		{ UNITS_SECONDS, 2000, "2000 s" },
		{ UNITS_SECONDS, 7200, "2.0 h" },
		{ UNITS_BYTES, 1536, "1.5 KiB" },
		{ UNITS_LAT_US, NAN, "unknown" },
		{ UNITS_BYTES, NAN, "unknown" },
		{ UNITS_IOPS, INFINITY, "unknown" },
	};
	char	buf[UNITS_BUFSZ];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(units_format_value(cases[i].kind,
		    cases[i].v, buf, sizeof buf), cases[i].want);
}

/*
 * An interval is "LOW to HIGH", with more digits when its ends would print
 * alike; never a +-percentage.
 */
static void
t_format_interval(void **state)
{
	static const struct {
		enum units_kind	 kind;
		double		 lo, hi;
		const char	*want;
	} cases[] = {
		{ UNITS_IOPS, 2992, 3008, "2,992 to 3,008" },
		{ UNITS_IOPS, 2999.6, 3000.4, "2,999.6 to 3,000.4" },
		{ UNITS_IOPS, 2999.96, 3000.04, "2,999.96 to 3,000.04" },
		{ UNITS_BYTES, 1.2 * 1073741824, 1.3 * 1073741824,
		  "1.2 GiB to 1.3 GiB" },
		{ UNITS_BYTES, 1073000000, 1074000000, "1023 MiB to 1 GiB" },
		{ UNITS_RATE, 262000000, 262200000,
		  "249.9 MiB/s to 250.1 MiB/s" },
		{ UNITS_LAT_US, 75.21, 75.24, "75.21 us to 75.24 us" },
		{ UNITS_SECONDS, 20.01, 20.04, "20.01 s to 20.04 s" },
		{ UNITS_IOPS, 3000, 3000, "3,000 to 3,000" },
		{ UNITS_IOPS, NAN, 3000, "unknown to 3,000" },
	};
	char	buf[UNITS_INTERVAL_BUFSZ];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_string_equal(units_format_interval(cases[i].kind,
		    cases[i].lo, cases[i].hi, buf, sizeof buf), cases[i].want);
}

/* What the size formatter prints parses back to within its precision. */
static void
t_format_roundtrip(void **state)
{
	char		 buf[UNITS_BUFSZ], *cause;
	uint64_t	 in, back;

	(void)state;
	for (in = 1; in < 1000 * PiB; in = in * 2 + in / 3 + 1) {
		units_format_size(in, buf, sizeof buf);
		if (units_parse_size(buf, &back, &cause) != 0)
			fail_msg("%s: %s", buf, cause);
		if (fabs((double)back - (double)in) > 0.005 * (double)in)
			fail_msg("%llu -> %s -> %llu", (unsigned long long)in,
			    buf, (unsigned long long)back);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_parse_size_good),
		cmocka_unit_test(t_parse_size_bad),
		cmocka_unit_test(t_parse_time),
		cmocka_unit_test(t_parse_uint),
		cmocka_unit_test(t_format),
		cmocka_unit_test(t_format_value),
		cmocka_unit_test(t_format_interval),
		cmocka_unit_test(t_format_roundtrip),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * Tests for instance.c: the table of EBS-optimized instance types (every
 * line well formed, its Mbps and MB/s agreeing to rounding, a baseline
 * below its maximum), a type looked up with and without a burst, an instance
 * profile file, an unknown type refused; and the DMI identity read from a
 * fake sysfs directory: EC2 and a known type, another vendor, no
 * directory, an EC2 type not in the table, a product name that is a path.
 */
#include <sys/stat.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "instance.h"

static char	t_dir[64];		/* a scratch directory */

/* The table's path in the source tree. */
static const char *
t_table(void)
{
	static char	path[4096];
	const char	*top = getenv("TOP_SRCDIR");

	snprintf(path, sizeof path, "%s/profiles/%s", top != NULL ? top :
	    TP_SRCDIR, INSTANCE_TABLE);
	return (path);
}

/* What Mbps / 8 may differ from MB/s by: 1%, or the guide's rounding
 * of Mbps to whole ones (t3.nano: 43 Mbps, 5.43 MB/s). */
static double
t_slack(double mb_s)
{
	return (fmax(0.01 * mb_s, 0.5 / 8));
}

/* Every line: a type, three figures or six; Mbps / 8 is MB/s. */
static void
t_table_lines(void **state)
{
	char	line[256], type[64];
	double	v[6];
	FILE	*f;
	int	n, rows = 0, bursts = 0;

	(void)state;
	f = fopen(t_table(), "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		n = sscanf(line, "%63s %lf %lf %lf %lf %lf %lf", type, &v[0],
		    &v[1], &v[2], &v[3], &v[4], &v[5]);
		if (n < 1 || type[0] == '#')
			continue;
		if (n != 4 && n != 7)
			fail_msg("%s: %d fields", type, n);
		if (fabs(v[0] / 8 - v[1]) > t_slack(v[1]))
			fail_msg("%s: %g Mbps is not %g MB/s", type, v[0],
			    v[1]);
		if (n == 7 && (fabs(v[3] / 8 - v[4]) > t_slack(v[4]) ||
		    v[4] >= v[1] || v[5] > v[2]))
			fail_msg("%s: baseline %g Mbps %g MB/s %g IOPS against "
			    "%g %g %g", type, v[3], v[4], v[5], v[0], v[1],
			    v[2]);
		rows++;
		bursts += n == 7;
	}
	fclose(f);
	assert_true(rows > 100);
	assert_true(bursts > 40 && bursts < rows);
}

/* Types of the table, with and without a burst, and refusals. */
static void
t_lookup(void **state)
{
	static const struct {
		const char	*type;
		double		 iops, bw, burst_iops, burst_bw;
	} cases[] = {
		{ "m5.large", 3600, 81.25e6, 18750, 593.75e6 },
		{ "m5.8xlarge", 30000, 850e6, NAN, NAN },
		{ "t3.nano", 250, 5.43e6, 11800, 260.57e6 },
		{ "m6i.4xlarge", 20000, 625e6, 40000, 1250e6 },
		{ "r5b.24xlarge", 260000, 7500e6, NAN, NAN },
		{ "c5.large", 4000, 81.25e6, 20000, 593.75e6 },
	};
	struct instance_limits	il;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (instance_lookup(cases[i].type, INSTANCE_OPTION, &il,
		    &cause) != 0)
			fail_msg("%s: %s", cases[i].type, cause);
		assert_string_equal(il.name, cases[i].type);
		assert_int_equal(il.from, INSTANCE_OPTION);
		assert_true(il.iops == cases[i].iops);
		assert_true(fabs(il.bandwidth - cases[i].bw) < 1);
		if (isnan(cases[i].burst_iops)) {
			assert_true(isnan(il.burst_iops));
			assert_true(isnan(il.burst_s));
		} else {
			assert_true(il.burst_iops == cases[i].burst_iops);
			assert_true(fabs(il.burst_bandwidth -
			    cases[i].burst_bw) < 1);
			assert_true(il.burst_s == 1800);
			assert_true(il.burst_period_s == 86400);
		}
		assert_non_null(strstr(il.source, "EC2 User Guide"));
	}
	/* A built-in instance profile outside the table. */
	assert_int_equal(instance_lookup("m1.xlarge", INSTANCE_OPTION, &il,
	    &cause), 0);
	assert_true(fabs(il.bandwidth - 62.5e6) < 1);
	assert_true(isnan(il.iops));
	assert_int_equal(instance_lookup("x9.huge", INSTANCE_OPTION, &il,
	    &cause), -1);
	assert_non_null(strstr(cause, "x9.huge"));
	free(cause);
	assert_int_equal(instance_lookup("", INSTANCE_OPTION, &il, &cause),
	    -1);
	free(cause);
}

/* Write s into t_dir/name. */
static void
t_put(const char *name, const char *s)
{
	char	path[128];
	FILE	*f;

	snprintf(path, sizeof path, "%s/%s", t_dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(s, f);
	fclose(f);
}

/* An [instance] profile file: from a file. */
static void
t_file(void **state)
{
	struct instance_limits	il;
	char			path[128], *cause = NULL;

	(void)state;
	snprintf(path, sizeof path, "%s/mine.ini", t_dir);
	t_put("mine.ini", "[instance]\nname = mine\niops = 1234\n"
	    "bandwidth = 100000000\n");
	if (instance_lookup(path, INSTANCE_OPTION, &il, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(il.from, INSTANCE_FILE);
	assert_string_equal(il.name, "mine");
	assert_true(il.iops == 1234 && il.bandwidth == 1e8);
	assert_true(isnan(il.burst_iops));
	unlink(path);
}

/* The DMI identity of fake sysfs directories. */
static void
t_dmi(void **state)
{
	static const struct {
		const char	*vendor, *product;
		int		 from;
		const char	*name, *why;
	} cases[] = {
		{ "Amazon EC2\n", "m5.large\n", INSTANCE_DMI, "m5.large",
		  NULL },
		{ "Amazon EC2", "t3.micro  \n", INSTANCE_DMI, "t3.micro",
		  NULL },
		{ "QEMU\n", "Standard PC (Q35 + ICH9, 2009)\n", INSTANCE_NONE,
		  "", "not an EC2 instance (DMI sys_vendor \"QEMU\")" },
		{ "Amazon EC2\n", "z9.tiny\n", INSTANCE_NONE, "z9.tiny",
		  "EC2 instance type z9.tiny" },
		{ "Amazon EC2\n", "../../etc/passwd\n", INSTANCE_NONE, NULL,
		  "its EBS limits are not in" },
		{ "Amazon EC2\n", NULL, INSTANCE_NONE, "",
		  "an EC2 instance of unknown type" },
	};
	struct instance_limits	il;
	char			path[128];
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_put("sys_vendor", cases[i].vendor);
		snprintf(path, sizeof path, "%s/product_name", t_dir);
		unlink(path);
		if (cases[i].product != NULL)
			t_put("product_name", cases[i].product);
		instance_from_dmi(t_dir, &il);
		if (il.from != cases[i].from)
			fail_msg("case %zu: from %d, why %s", i, il.from,
			    il.why);
		if (cases[i].name != NULL)
			assert_string_equal(il.name, cases[i].name);
		if (cases[i].why != NULL && strstr(il.why, cases[i].why) ==
		    NULL)
			fail_msg("case %zu: why \"%s\"", i, il.why);
		if (il.from == INSTANCE_NONE)
			assert_true(isnan(il.iops) && isnan(il.bandwidth));
	}
	/* The seam: $TIERPROBE_DMI_DIR when no directory is given. */
	t_put("sys_vendor", "Amazon EC2\n");
	t_put("product_name", "r5.large\n");
	setenv(INSTANCE_DMI_ENV, t_dir, 1);
	instance_from_dmi(NULL, &il);
	assert_int_equal(il.from, INSTANCE_DMI);
	assert_true(il.iops == 3600);
	/* No such directory. */
	setenv(INSTANCE_DMI_ENV, "/nonexistent-tierprobe-dmi", 1);
	instance_from_dmi(NULL, &il);
	assert_int_equal(il.from, INSTANCE_NONE);
	assert_non_null(strstr(il.why, "no DMI identity"));
	unsetenv(INSTANCE_DMI_ENV);
}

/* The order of a run's sources: option, sim:, none for sim, DMI. */
static void
t_resolve(void **state)
{
	struct instance_limits	il;
	char			*cause = NULL;

	(void)state;
	t_put("sys_vendor", "Amazon EC2\n");
	t_put("product_name", "c5.xlarge\n");
	setenv(INSTANCE_DMI_ENV, t_dir, 1);
	assert_int_equal(instance_resolve("m5.large", "m5.8xlarge", 0, &il,
	    &cause), 0);
	assert_int_equal(il.from, INSTANCE_OPTION);
	assert_string_equal(il.name, "m5.large");
	assert_int_equal(instance_resolve(NULL, "m5.8xlarge", 1, &il,
	    &cause), 0);
	assert_int_equal(il.from, INSTANCE_SIM);
	assert_string_equal(il.name, "m5.8xlarge");
	assert_int_equal(instance_resolve(NULL, NULL, 1, &il, &cause), 0);
	assert_int_equal(il.from, INSTANCE_NONE);
	assert_int_equal(instance_resolve(NULL, NULL, 0, &il, &cause), 0);
	assert_int_equal(il.from, INSTANCE_DMI);
	assert_string_equal(il.name, "c5.xlarge");
	assert_int_equal(instance_resolve("x9.huge", NULL, 0, &il, &cause),
	    -1);
	free(cause);
	unsetenv(INSTANCE_DMI_ENV);
	assert_string_equal(instance_from_name(INSTANCE_DMI), "DMI");
	assert_string_equal(instance_from_word(INSTANCE_SIM), "sim");
	assert_null(instance_from_word(INSTANCE_NONE));
}

static int
t_setup(void **state)
{
	(void)state;
	snprintf(t_dir, sizeof t_dir, "/tmp/tp-instance.XXXXXX");
	if (mkdtemp(t_dir) == NULL)
		return (-1);
	if (getenv("TOP_SRCDIR") != NULL)
		setenv("TIERPROBE_DATADIR", getenv("TOP_SRCDIR"), 1);
	return (0);
}

static int
t_teardown(void **state)
{
	char	path[128];

	(void)state;
	snprintf(path, sizeof path, "%s/sys_vendor", t_dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/product_name", t_dir);
	unlink(path);
	return (rmdir(t_dir));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_table_lines),
		cmocka_unit_test(t_lookup),
		cmocka_unit_test(t_file),
		cmocka_unit_test(t_dmi),
		cmocka_unit_test(t_resolve),
	};

	return (cmocka_run_group_tests(tests, t_setup, t_teardown));
}

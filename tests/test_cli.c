/* SPDX-License-Identifier: ISC */
/*
 * Description: the command line: sub-commands, option values and ranges,
 * options given to the wrong sub-command, operand counts, and that every
 * usage error comes with a one-line cause naming what was wrong.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

struct t_case {
	const char	*line;		/* words split on spaces */
	int		 ok;		/* parse succeeds */
	const char	*cause_has;	/* substring of the cause, if not ok */
};

static const struct t_case t_cases[] = {
	{ "run", 1, NULL },
	{ "run f.dat --keep", 1, NULL },
	{ "scan f.dat --bs 16k --iodepth 32", 1, NULL },
	{ "scan --min-ws 256M --max-ws 5.75G --step 256M f.dat", 1, NULL },
	{ "limits f.dat --rw write --max-iodepth 64 --sustain 2m", 1, NULL },
	{ "report r.json --output-format markdown", 1, NULL },
	{ "compare a.json b.json c.json", 1, NULL },
	{ "plot r.json --outdir out --format svg", 1, NULL },
	{ "prep f.dat --size 1G", 1, NULL },
	{ "profiles --show ebs-gp2-100g", 1, NULL },
	{ "check r.json", 1, NULL },
	{ "check a.json b.json --expect iops>=3000 --expect-profile ebs-gp3",
	  1, NULL },
	{ "run --kind gp3 --host db1 --expect p99<=2ms", 1, NULL },
	{ "fleet reports --output-format csv --outlier 30", 1, NULL },
	{ "plot a.json b.json --outdir out", 1, NULL },
	{ "check", 0, "check needs FILE.json" },
	{ "fleet", 0, "fleet needs" },
	{ "report r.json --output-format csv", 0, "only fleet prints csv" },
	{ "fleet d --expect-profile ebs-gp3", 0,
	  "--expect-profile is not an option of fleet" },
	{ "fleet d --outlier 80", 0, "--outlier" },
	{ "check r.json --kind gp3", 0, "--kind is not an option of check" },
	{ "run --expect", 0, "--expect needs an argument" },
	{ "scan f --points 1 --min-ws 1G --max-ws 1G", 1, NULL },
	{ "scan f --points 1", 0, "--points 1 measures one working set" },
	{ "scan f --points 0", 0, "--points" },
	{ "frobnicate", 0, "unknown command 'frobnicate'" },
	{ "scan", 0, "scan needs TARGET" },
	{ "scan a b", 1, NULL },
	{ "prep a b", 0, "extra argument 'b'" },
	{ "scan f --bs 4q", 0, "--bs" },
	{ "scan f --bs 1000", 0, "multiple of 512" },
	{ "scan f --iodepth 0", 0, "--iodepth" },
	{ "scan f --iodepth 4097", 0, "--iodepth" },
	{ "scan f --min-ws 2G --max-ws 1G", 0, "--min-ws is larger" },
	{ "scan f --nope", 0, "unknown option --nope" },
	{ "scan f --presicion 3", 0, "did you mean --precision?" },
	{ "limits f --sustian=3", 0, "did you mean --sustain?" },
	{ "run --max-iodepht 8", 0, "did you mean --max-iodepth?" },
	{ "scan f --max 3", 0, "it abbreviates --max-ws, --max-time" },
	{ "scan f --frobnicate", 0, "for scan: see tierprobe scan --help" },
	{ "sync f --repeat 3", 1, NULL },
	{ "sync f --fio-job f.fio", 1, NULL },
	{ "sync f --ws 1G", 0, "--ws is not an option of sync" },
	{ "scan f --bs", 0, "needs an argument" },
	{ "scan f --outdir x", 0, "--outdir is not an option of scan" },
	{ "scan f --engine aio", 0, "use io_uring|psync" },
	{ "scan f --precision 0", 0, "--precision" },
	{ "scan f --max-time -1", 0, "--max-time" },
	{ "report r.json --output-format yaml", 0, "text|json|markdown" },
	{ "compare a.json", 0, "compare needs" },
	{ "plot r.json", 0, "--outdir" },
	{ "prep f.dat", 0, "--size" },
	{ "limits f --rw trim", 0, "read|write" },
	{ "", 0, "no command given" },
};

static int
t_parse(const char *line, struct cli_opts *o, char **cause)
{
	static char	 buf[256];
	static char	*argv[32];
	int		 argc = 0;
	char		*w;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = (char *)(uintptr_t)"tierprobe";
	for (w = strtok(buf, " "); w != NULL; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return (cli_parse(argc, argv, o, cause));
}

static void
test_table(void **state)
{
	struct cli_opts	 o;
	char		*cause;
	size_t		 i;
	int		 ret;

	(void)state;
	for (i = 0; i < sizeof(t_cases) / sizeof(t_cases[0]); i++) {
		cause = NULL;
		ret = t_parse(t_cases[i].line, &o, &cause);
		if (t_cases[i].ok) {
			if (ret != 0)
				fail_msg("'%s' refused: %s", t_cases[i].line,
				    cause);
		} else {
			if (ret == 0)
				fail_msg("'%s' accepted", t_cases[i].line);
			assert_non_null(cause);
			if (strstr(cause, t_cases[i].cause_has) == NULL)
				fail_msg("'%s': cause '%s' lacks '%s'",
				    t_cases[i].line, cause,
				    t_cases[i].cause_has);
			assert_null(strchr(cause, '\n'));
		}
		free(cause);
		cli_free(&o);
	}
}

/* Values land in the right fields, in the right units. */
static void
test_values(void **state)
{
	struct cli_opts	 o;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(t_parse("scan --bs 16k f.dat --iodepth 32 "
	    "--precision 5 --max-time 500ms --min-ws 1M --max-ws 1.5G "
	    "--points 7 --buffered --engine psync --seed 99 -q "
	    "--output-format json", &o, &cause), 0);
	assert_int_equal(o.cmd, CLI_SCAN);
	assert_int_equal(o.nargs, 1);
	assert_string_equal(o.args[0], "f.dat");
	assert_int_equal(o.bs, 16384);
	assert_int_equal(o.iodepth, 32);
	assert_true(o.precision > 0.0499 && o.precision < 0.0501);
	assert_true(o.max_time_s > 0.4999 && o.max_time_s < 0.5001);
	assert_int_equal(o.min_ws, 1 << 20);
	assert_int_equal(o.max_ws, 1536ULL << 20);
	assert_int_equal(o.points, 7);
	assert_int_equal(o.buffered, 1);
	assert_string_equal(o.engine, "psync");
	assert_int_equal(o.seed, 99);
	assert_true(o.set_mask & CLI_SET_SEED);
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.format, CLI_FMT_JSON);
	cli_free(&o);

	assert_int_equal(t_parse("limits f --rw write --sustain 2m", &o,
	    &cause), 0);
	assert_int_equal(o.write, 1);
	assert_true(o.sustain_s > 119.9 && o.sustain_s < 120.1);
	cli_free(&o);

	/* Defaults. */
	assert_int_equal(t_parse("scan f", &o, &cause), 0);
	assert_int_equal(o.bs, 4096);
	assert_int_equal(o.iodepth, 1);
	assert_string_equal(o.engine, "io_uring");
	assert_int_equal(o.set_mask, 0);
	cli_free(&o);

	/* Defaults of every kind, parsed from the table's words. */
	assert_int_equal(t_parse("limits f", &o, &cause), 0);
	assert_true(o.precision > 0.0199 && o.precision < 0.0201);
	assert_true(o.max_time_s > 9.99 && o.max_time_s < 10.01);
	assert_true(o.sustain_s > 119.9 && o.sustain_s < 120.1);
	assert_true(o.max_ws == 4ULL << 30 && o.min_ws == 16ULL << 20);
	assert_int_equal(o.points, 16);
	assert_int_equal(o.max_iodepth, 256);
	assert_int_equal(o.repeat, 1);
	assert_int_equal(o.format, CLI_FMT_TEXT);
	assert_int_equal(o.write, 0);
	assert_int_equal(o.set_mask, 0);
	cli_free(&o);
	assert_int_equal(t_parse("fleet d", &o, &cause), 0);
	assert_true(o.outlier > 0.1999 && o.outlier < 0.2001);
	cli_free(&o);
	assert_int_equal(t_parse("plot r.json -o d", &o, &cause), 0);
	assert_string_equal(o.plot_format, "png");
	cli_free(&o);
}

/* --expect collects every expression, in order. */
static void
test_list(void **state)
{
	struct cli_opts	 o;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(t_parse("check --expect iops>=1 r.json --expect "
	    "p99<=2ms --expect-profile ebs-gp3 --expect tiers==0", &o,
	    &cause), 0);
	assert_int_equal(o.expect.n, 3);
	assert_string_equal(o.expect.v[0], "iops>=1");
	assert_string_equal(o.expect.v[1], "p99<=2ms");
	assert_string_equal(o.expect.v[2], "tiers==0");
	assert_string_equal(o.expect_profile, "ebs-gp3");
	assert_int_equal(o.nargs, 1);
	cli_free(&o);
	assert_null(o.expect.v);
	assert_int_equal(t_parse("fleet d", &o, &cause), 0);
	assert_true(o.outlier > 0.1999 && o.outlier < 0.2001);
	assert_int_equal(o.expect.n, 0);
	cli_free(&o);
}

/* --help is accepted anywhere and needs no operands. */
static void
test_help(void **state)
{
	struct cli_opts	 o;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(t_parse("scan --help", &o, &cause), 0);
	assert_int_equal(o.help, 1);
	assert_int_equal(o.cmd, CLI_SCAN);
	cli_free(&o);
	assert_int_equal(t_parse("--version", &o, &cause), 0);
	assert_int_equal(o.version, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_help),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

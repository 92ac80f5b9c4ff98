/* SPDX-License-Identifier: ISC */
/*
 * report-load.c: every fixture loads; bad files (not JSON, no or a future
 * schema_version, wrong types, missing keys) are refused with one line
 * naming the file and the key; unexplained classes survive a round trip.
 */
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

#include "report.h"
#include "t_report.h"

#define T_HEAD "{\"schema_version\": 1, \"tool\": {\"name\": \"tierprobe\", " \
	"\"version\": \"1\"}, \"interrupted\": false, \"target\": {\"path\": " \
	"\"x\", \"type\": \"file\", \"direct\": true, \"engine\": \"psync\", " \
	"\"bs\": 4096}"

static void
test_fixtures_load(void **state)
{
	static const char *const names[] = { "report-scan.json",
	    "report-scan-b.json", "report-limits.json",
	    "report-interrupted.json", "report-nulls.json" };
	struct report	 r;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (report_load(t_data(names[i]), &r, &cause) != 0)
			fail_msg("%s: %s", names[i], cause);
		report_free(&r);
	}
	assert_int_equal(report_load(t_data("report-scan.json"), &r, &cause),
	    0);
	assert_int_equal(r.scan->npoints, 10);
	assert_int_equal(r.scan->tiers.ntiers, 2);
	assert_true(r.scan->tiers.tier[0].capacity_bytes == 1342177280);
	assert_null(r.limits);
	assert_non_null(r.scan->points[0].hist);
	assert_true(r.scan->points[0].hist->count == r.scan->points[0].ios);
	report_free(&r);
	assert_int_equal(report_load(t_data("report-nulls.json"), &r, &cause),
	    0);
	assert_true(isnan(r.scan->tiers.backing_p50_us));
	assert_true(r.scan->tiers.tier[0].at_least);
	assert_int_equal(r.context.rotational, -1);
	assert_true(isnan(r.limits->iops_ceiling));
	assert_true(r.limits->cpu_bound);
	report_free(&r);
}

static void
test_bad_files(void **state)
{
	static const struct {
		const char	*text;
		const char	*want;
	} cases[] = {
		{ "this is not json", "not a JSON report" },
		{ "", "" },
		{ "[1, 2]", "top level is an array" },
		{ "{\"tool\": {}}", "schema_version: missing" },
		{ "{\"schema_version\": \"1\"}", "schema_version: expected" },
		{ "{\"schema_version\": 2}", "schema_version: 2 is not supported" },
		{ "{\"schema_version\": 0}", "schema_version: not a tierprobe "
		    "report version: 0; accepted: 1 to " },
		{ "{\"schema_version\": -3}", "not a tierprobe report version: "
		    "-3" },
		/* Impossible figures (issue 33): the key and what is accepted. */
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": "
		    "[{\"capacity_bytes\": 8192, \"capacity_low_bytes\": 4096, "
		    "\"capacity_high_bytes\": 16384, \"lat_us_p50\": -508, "
		    "\"lat_us_p99\": 9}], \"backing\": {\"lat_us_p50\": 1, "
		    "\"lat_us_p99\": 2}}}",
		    "scan.tiers[0].lat_us_p50: -508 us is impossible; "
		    "accepted: 0 to" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": "
		    "[{\"capacity_bytes\": 8192, \"capacity_low_bytes\": 16384,"
		    " \"capacity_high_bytes\": 4096, \"lat_us_p50\": 5, "
		    "\"lat_us_p99\": 9}], \"backing\": {\"lat_us_p50\": 1, "
		    "\"lat_us_p99\": 2}}}",
		    "scan.tiers[0].capacity_low_bytes: 16384 is above "
		    "capacity_high_bytes (4096)" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": -1, \"tiers\": []}}",
		    "scan.device_time_s: -1 s is impossible" },
		{ T_HEAD ", \"limits\": {\"iops_ceiling\": 1e308, "
		    "\"iops_knee_iodepth\": 1, "
		    "\"bandwidth_ceiling_bytes_per_s\": 1, "
		    "\"io_accounting_bytes\": null}}",
		    "limits.iops_ceiling: 1e+308 IOPS is impossible; accepted: "
		    "0 to 1e9" },
		{ T_HEAD ", \"limits\": {\"iops_ceiling\": 5000, "
		    "\"iops_ceiling_low\": 6000, \"iops_ceiling_high\": 5500, "
		    "\"iops_knee_iodepth\": 1, "
		    "\"bandwidth_ceiling_bytes_per_s\": 1, "
		    "\"io_accounting_bytes\": null, \"burst\": {\"detected\": "
		    "false, \"burst_iops\": null, \"baseline_iops\": null, "
		    "\"duration_s\": null, \"credits_ios\": null}, "
		    "\"qd_points\": [], \"bs_points\": [], \"timeline\": []}}",
		    "limits.iops_ceiling_low: 6000 is above iops_ceiling_high" },
		{ T_HEAD ", \"limits\": {\"iops_ceiling\": 1, "
		    "\"iops_knee_iodepth\": 1, "
		    "\"bandwidth_ceiling_bytes_per_s\": 2e12, "
		    "\"io_accounting_bytes\": null}}",
		    "limits.bandwidth_ceiling_bytes_per_s: 2e+12 bytes/s is "
		    "impossible" },
		{ T_HEAD ", \"finished_utc\": \"not a date\"}",
		    "finished_utc: \"not a date\" is not a date; accepted: "
		    "YYYY-MM-DDTHH:MM:SSZ" },
		{ T_HEAD ", \"started_utc\": \"2026-02-30T10:00:00Z\"}",
		    "started_utc: \"2026-02-30T10:00:00Z\" is not a date" },
		{ "{\"schema_version\": 1}", "tool: missing" },
		{ "{\"schema_version\": 1, \"tool\": []}",
		    "tool: expected an object, not an array" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"t\", \"version\":"
		    " 3}}", "tool.version: expected a string, not an integer" },
		{ T_HEAD "}", "" },
		{ T_HEAD ", \"interrupted\": \"no\"}", "duplicate" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
		    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
		    "\"points\": {}}}",
		    "scan.points: expected an array, not an object" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
		    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
		    "\"points\": [{\"ws_bytes\": 4096, \"ios\": 1, \"iops\": \"x\","
		    " \"lat_us\": {}}]}}",
		    "scan.points[0].iops: expected a number, not a string" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
		    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
		    "\"points\": [{\"ws_bytes\": -5, \"ios\": 1, \"iops\": 1,"
		    " \"lat_us\": {}}]}}", "scan.points[0].ws_bytes: -5 is out" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
		    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
		    "\"points\": [{\"ws_bytes\": 5, \"ios\": 1, \"iops\": 1,"
		    " \"lat_us\": {\"mean\": 1, \"p50\": 1, \"p90\": 1,"
		    " \"p99\": 1, \"p999\": 1}, \"hist\": [[1, 2, 3]]}]}}",
		    "scan.points[0].hist[0]: expected [lower bound" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
		    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
		    "\"points\": [], \"unexplained\": [3]}}",
		    "scan.unexplained[0]: expected an object, not an integer" },
		{ T_HEAD ", \"limits\": {\"iops_ceiling\": 1}}",
		    "limits.iops_knee_iodepth: missing" },
		{ T_HEAD ", \"context\": {\"rotational\": 1}}",
		    "context.rotational: expected true or false" },
		{ T_HEAD ", \"config\": {\"rw\": \"sideways\"}}",
		    "config.rw: \"sideways\" is not read or write" },
		{ T_HEAD ", \"limits\": {\"iops_ceiling\": 1, "
		    "\"iops_knee_iodepth\": 1, "
		    "\"bandwidth_ceiling_bytes_per_s\": 1, "
		    "\"io_accounting_bytes\": null, \"iops_limit\": \"fast\"}}",
		    "limits.iops_limit: \"fast\" is not unknown, cap, "
		    "unsaturated, cpu or queue" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, "
		    "\"tiers\": [{}, {}, {}, {}, {}]}}",
		    "scan.tiers: more than 4 elements" },
		{ T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [7]}}",
		    "scan.tiers[0]: expected an object, not an integer" },
		{ T_HEAD ", \"config\": {\"seed\": \"12x\"}}",
		    "config.seed: \"12x\" is not a whole number" },
		{ T_HEAD ", \"config\": {\"seed\": -1}}",
		    "config.seed: -1 is out of range" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"tierprobe\", "
		    "\"version\": \"1\"}, \"interrupted\": false, \"target\": "
		    "{\"path\": \"x\", \"type\": \"a-type-that-is-too-long\"}}",
		    "target.type: longer than 15 bytes" },
		{ "{\"schema_version\": 1, \"tool\": {\"name\": \"tierprobe\", "
		    "\"version\": \"1\"}, \"interrupted\": false, \"target\": "
		    "{\"path\": \"x\", \"type\": \"file\", \"direct\": true, "
		    "\"engine\": \"psync\", \"bs\": 4294967296}}",
		    "target.bs: 4294967296 is out of range" },
	};
	struct report	 r;
	char		*dir, path[512], *cause;
	size_t		 i;
	FILE		*f;

	(void)state;
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/bad.json", dir);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_non_null(f = fopen(path, "w"));
		fputs(cases[i].text, f);
		fclose(f);
		cause = NULL;
		if (strcmp(cases[i].text, T_HEAD "}") == 0) {
			/* The minimal valid report. */
			if (report_load(path, &r, &cause) != 0)
				fail_msg("minimal report refused: %s", cause);
			assert_null(r.scan);
			report_free(&r);
			continue;
		}
		if (report_load(path, &r, &cause) != -1)
			fail_msg("case %zu accepted", i);
		assert_non_null(cause);
		if (strstr(cause, cases[i].want) == NULL)
			fail_msg("case %zu: \"%s\" lacks \"%s\"", i, cause,
			    cases[i].want);
		assert_non_null(strstr(cause, "bad.json"));
		assert_null(strchr(cause, '\n'));
		/* Nothing is left allocated in r on failure. */
		assert_null(r.scan);
		assert_null(r.target.path);
		free(cause);
	}
	/* A directory is named as one, with what is accepted. */
	cause = NULL;
	assert_int_equal(report_load(dir, &r, &cause), -1);
	if (strstr(cause, "is a directory; accepted: a JSON report") == NULL)
		fail_msg("directory: %s", cause);
	free(cause);
	cause = NULL;
	snprintf(path, sizeof path, "%s/absent.json", dir);
	assert_int_equal(report_load(path, &r, &cause), -1);
	assert_non_null(strstr(cause, "absent.json"));
	free(cause);
	t_rmdir(dir);
	free(dir);
}

/* Write a report whose 60 scan points, one a line from line 2, span more
 * than report-lazy.c leaves in the tree; point bad (if any) holds text. */
static void
t_big(const char *path, int bad, const char *text, const char *extra)
{
	FILE	*f;
	int	 i;

	assert_non_null(f = fopen(path, "w"));
	fputs(T_HEAD ", \"scan\": {\"device_time_s\": 1, \"tiers\": [], "
	    "\"backing\": {\"lat_us_p50\": null, \"lat_us_p99\": null}, "
	    "\"points\": [\n", f);
	for (i = 0; i < 60; i++)
		fprintf(f, "{\"ws_bytes\": %d, \"ios\": 10, \"iops\": %s, "
		    "\"lat_us\": {\"mean\": 1, \"p50\": 1, \"p90\": 2, "
		    "\"p99\": 3, \"p999\": null}, \"hist\": [[1000, 10]]}%s\n",
		    4096 * (i + 1), i == bad ? text : "100", i < 59 ? "," : "");
	fprintf(f, "]}%s}\n", extra);
	fclose(f);
}

/*
 * A report read in pieces (its large arrays one element at a time) gives
 * what one read whole gives, and its errors name the line in the file and
 * the key; a large array under a key the tables do not know is still read.
 */
static void
test_pieces(void **state)
{
	struct report	 r;
	char		*dir, path[512], *cause = NULL;
	char		 many[16384];
	size_t		 o = 0;
	int		 i;

	(void)state;
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/big.json", dir);
	t_big(path, -1, NULL, "");
	if (report_load(path, &r, &cause) != 0)
		fail_msg("refused: %s", cause);
	assert_int_equal(r.scan->npoints, 60);
	assert_true(r.scan->points[59].ws_bytes == 60 * 4096);
	assert_non_null(r.scan->points[59].hist);
	assert_true(r.scan->points[59].hist->count == 10);
	report_free(&r);
	/* Lean: histograms checked, not kept. */
	assert_int_equal(report_load_with(path, &r, REPORT_LOAD_LEAN, &cause),
	    0);
	assert_int_equal(r.scan->npoints, 60);
	assert_null(r.scan->points[3].hist);
	report_free(&r);

	t_big(path, 40, "1x", "");
	assert_int_equal(report_load(path, &r, &cause), -1);
	if (strstr(cause, "big.json: line 42: not a JSON report") == NULL)
		fail_msg("syntax error in point 40: %s", cause);
	free(cause);
	t_big(path, 40, "-1", "");
	assert_int_equal(report_load(path, &r, &cause), -1);
	if (strstr(cause, "scan.points[40].iops: -1 IOPS is impossible") ==
	    NULL)
		fail_msg("impossible iops in point 40: %s", cause);
	free(cause);

	o += snprintf(many + o, sizeof many - o, ", \"unknown\": [");
	for (i = 0; i < 500; i++)	/* ~6 KiB: left out, never read */
		o += snprintf(many + o, sizeof many - o, "%s{\"a\": %d}",
		    i > 0 ? ", " : "", i);
	snprintf(many + o, sizeof many - o, "]");
	t_big(path, -1, NULL, many);
	if (report_load(path, &r, &cause) != 0)
		fail_msg("a large unknown array refused: %s", cause);
	assert_int_equal(r.scan->npoints, 60);
	report_free(&r);
	t_rmdir(dir);
	free(dir);
}

/*
 * A class of reads the tiers do not explain survives a JSON round trip, and
 * the text report says the scan is not analysed because of it.
 */
static void
test_unexplained(void **state)
{
	static const char text[] = T_HEAD ", \"scan\": {\"device_time_s\": 1,"
	    " \"analysed\": false, \"tiers\": [], \"backing\": "
	    "{\"lat_us_p50\": null, \"lat_us_p99\": null}, \"points\": [], "
	    "\"note\": \"a class of reads at ~24.1 us grows\", "
	    "\"unexplained\": [{\"lat_us_p50\": 24.1, \"share_max\": 0.64, "
	    "\"from_ws_bytes\": 151519232, \"to_ws_bytes\": 552599552}]}}";
	const struct tiers_unexplained *u;
	struct report	 r, back;
	char		*dir, path[512], *cause = NULL, *buf = NULL;
	size_t		 len = 0;
	FILE		*f;

	(void)state;
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/u.json", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs(text, f);
	fclose(f);
	if (report_load(path, &r, &cause) != 0)
		fail_msg("%s", cause);
	assert_false(r.scan->tiers.analysed);
	assert_int_equal(r.scan->tiers.nunexplained, 1);
	u = &r.scan->tiers.unexplained[0];
	assert_true(fabs(u->lat_us_p50 - 24.1) < 1e-9);
	assert_true(fabs(u->share_max - 0.64) < 1e-9);
	assert_true(u->from_ws == 151519232 && u->to_ws == 552599552);

	assert_non_null(f = open_memstream(&buf, &len));
	report_text_write(&r, f, 0);
	fclose(f);
	assert_non_null(strstr(buf, "Not analysed: a class of reads changes"));
	assert_non_null(strstr(buf, "~24.1 us grows"));
	free(buf);

	assert_int_equal(report_json_write(&r, path, &cause), 0);
	report_free(&r);
	if (report_load(path, &back, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(back.scan->tiers.nunexplained, 1);
	assert_true(back.scan->tiers.unexplained[0].to_ws == 552599552);
	report_free(&back);
	unlink(path);
	t_rmdir(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures_load),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_unexplained),
		cmocka_unit_test(test_pieces),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

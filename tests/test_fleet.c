/* SPDX-License-Identifier: ISC */
/*
 * Description: fleets: medians per kind and ratios, the outlier rule (20%
 * worse, in both directions of "worse", widened by run-to-run noise, only
 * in kinds of 3 or more, never for unknown kinds), duplicates keeping the
 * newer report whatever the order, how a kind is found, verdict counts,
 * the JSON and CSV renderings of the same fleet, the burst column, a
 * report of several targets as a volume each; copies of one run skipped as
 * duplicates, a simulated volume's kind from its profile's name, what a
 * fleet could not compare said, the CSV's units.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "check.h"
#include "fleet.h"
#include "t_report.h"
#include "timeline.h"
#include "xmalloc.h"

/* Add a synthetic report of host, kind, IOPS and backing p50 to fl. */
static void
t_add(struct fleet *fl, const char *host, const char *kind, double iops,
    double p50)
{
	struct report	r;
	char		file[64];

	t_report_make(&r);
	snprintf(r.labels.host, sizeof r.labels.host, "%s", host);
	snprintf(r.labels.kind, sizeof r.labels.kind, "%s", kind);
	r.limits->iops_ceiling = iops;
	r.scan->tiers.backing_p50_us = p50;
	snprintf(file, sizeof file, "%s.json", host);
	fleet_add(fl, file, &r, NULL);
	report_free(&r);
}

static int
t_fig(const struct fleet *fl, const char *alias)
{
	size_t	i;

	for (i = 0; i < fl->nfig; i++) {
		if (strcmp(fl->fig[i]->alias, alias) == 0)
			return ((int)i);
	}
	fail_msg("no fleet figure %s", alias);
	return (-1);
}

static const struct fleet_volume *
t_vol(const struct fleet *fl, const char *host)
{
	size_t	i;

	for (i = 0; i < fl->nvol; i++) {
		if (strcmp(fl->vol[i].host, host) == 0)
			return (&fl->vol[i]);
	}
	fail_msg("no volume of host %s", host);
	return (NULL);
}

static void
t_fleet_outliers(void **state)
{
	struct fleet			*fl;
	const struct fleet_volume	*v;
	int				 iops, p50;

	(void)state;
	fl = fleet_new(0.20);
	t_add(fl, "a", "gp3", 3000, 280);
	t_add(fl, "b", "gp3", 3000, 280);
	t_add(fl, "c", "gp3", 3100, 280);
	t_add(fl, "d", "gp3", 2900, 336);	/* 1.2x: within 25% */
	t_add(fl, "e", "gp3", 1500, 364);	/* 0.5x and 1.3x */
	t_add(fl, "f", "io1", 4000, 280);	/* kinds of 2: never judged */
	t_add(fl, "g", "io1", 2000, 280);
	fleet_analyse(fl);
	iops = t_fig(fl, "iops");
	p50 = t_fig(fl, "p50");

	assert_int_equal(fl->nkinds, 2);
	assert_true(fl->kinds[0].median[iops] == 3000);
	assert_true(fl->kinds[0].median[p50] == 280);
	assert_int_equal(fl->kinds[0].nvolumes, 5);
	v = t_vol(fl, "e");
	assert_true(v->outlier && v->flagged[iops] && v->flagged[p50]);
	assert_true(fabs(v->ratio[iops] - 0.5) < 1e-9);
	v = t_vol(fl, "d");
	assert_false(v->outlier);
	assert_true(fabs(v->ratio[p50] - 1.2) < 1e-9);
	assert_false(t_vol(fl, "a")->outlier || t_vol(fl, "c")->outlier);

	assert_true(fl->kinds[1].median[iops] == 3000);
	v = t_vol(fl, "g");
	assert_false(v->outlier);
	/* Not compared: no ratio to show as if it were (issue 33). */
	assert_true(isnan(v->ratio[iops]));
	assert_false(v->compared);
	assert_true(t_vol(fl, "e")->compared);
	fleet_free(fl);

	/* A stricter rule flags d's latency too. */
	fl = fleet_new(0.10);
	t_add(fl, "a", "gp3", 3000, 280);
	t_add(fl, "b", "gp3", 3000, 280);
	t_add(fl, "d", "gp3", 2900, 336);
	fleet_analyse(fl);
	assert_true(t_vol(fl, "d")->flagged[p50]);
	assert_false(t_vol(fl, "d")->flagged[iops]);
	fleet_free(fl);
}

/* A volume's --repeat noise widens the rule for it. */
static void
t_fleet_noise(void **state)
{
	static const double	 sds[] = { 400, 100 };
	struct fleet		*fl;
	struct report		 r;
	struct report_stat	*st;
	size_t			 i;
	int			 iops;

	(void)state;
	for (i = 0; i < 2; i++) {
		fl = fleet_new(0.20);
		t_add(fl, "a", "gp3", 3000, 280);
		t_add(fl, "b", "gp3", 3000, 280);
		t_report_make(&r);
		snprintf(r.labels.host, sizeof r.labels.host, "noisy");
		snprintf(r.labels.kind, sizeof r.labels.kind, "gp3");
		r.repeat = xcalloc(1, sizeof *r.repeat);
		r.repeat->runs = 5;
		r.repeat->nstats = 1;
		st = &r.repeat->stat[0];
		snprintf(st->name, sizeof st->name, "limits.iops_ceiling");
		st->mean = 1800;	/* 0.6x the median */
		st->sd = sds[i];
		st->n = 5;
		fleet_add(fl, "noisy.json", &r, NULL);
		report_free(&r);
		fleet_analyse(fl);
		iops = t_fig(fl, "iops");
		/* 2 sd / mean: 0.44 (rule 44%: not flagged), 0.11 (20%). */
		assert_int_equal(t_vol(fl, "noisy")->flagged[iops], i == 1);
		assert_true(fabs(t_vol(fl, "noisy")->limit[iops] -
		    (i == 0 ? 800.0 / 1800 : 0.20)) < 1e-9);
		fleet_free(fl);
	}
}

/* Same host and target: the newer stays, whichever comes first. */
static void
t_fleet_duplicates(void **state)
{
	struct fleet	*fl;
	struct report	 r;
	int		 order;

	(void)state;
	for (order = 0; order < 2; order++) {
		fl = fleet_new(0.20);
		t_report_make(&r);
		snprintf(r.labels.host, sizeof r.labels.host, "h1");
		snprintf(r.finished_utc, sizeof r.finished_utc, order ?
		    "2024-01-02T00:00:00Z" : "2024-01-01T00:00:00Z");
		fleet_add(fl, order ? "new.json" : "old.json", &r, NULL);
		snprintf(r.finished_utc, sizeof r.finished_utc, order ?
		    "2024-01-01T00:00:00Z" : "2024-01-02T00:00:00Z");
		fleet_add(fl, order ? "old.json" : "new.json", &r, NULL);
		report_free(&r);
		assert_int_equal(fl->nvol, 1);
		assert_string_equal(fl->vol[0].file, "new.json");
		assert_int_equal(fl->nskip, 1);
		assert_string_equal(fl->skip[0].file, "old.json");
		assert_non_null(strstr(fl->skip[0].why, "new.json"));
		fleet_free(fl);
	}

	/* Unknown hosts are never taken for one another. */
	fl = fleet_new(0.20);
	t_report_make(&r);
	fleet_add(fl, "x.json", &r, NULL);
	fleet_add(fl, "y.json", &r, NULL);
	report_free(&r);
	assert_int_equal(fl->nvol, 2);
	assert_int_equal(fl->nskip, 0);
	fleet_free(fl);
}

/* Kind: --kind, then the --expect-profile name, sim profile, model. */
static void
t_fleet_kinds(void **state)
{
	struct fleet		*fl;
	struct check_list	*l;
	struct report		 r;
	char			*cause = NULL;

	(void)state;
	fl = fleet_new(0.20);
	l = check_list_new();
	l->profile = xstrdup("ebs-gp3");
	assert_int_equal(check_list_add(l, "iops>=4000", "--expect", &cause),
	    0);
	t_report_make(&r);
	snprintf(r.context.device_model, sizeof r.context.device_model,
	    "Amazon Elastic Block Store");
	fleet_add(fl, "model.json", &r, NULL);
	fleet_add(fl, "profile.json", &r, l);
	snprintf(r.labels.kind, sizeof r.labels.kind, "gp3-500g");
	fleet_add(fl, "label.json", &r, l);
	r.labels.kind[0] = '\0';
	free(r.target.path);
	r.target.path = xstrdup("/etc/tierprobe/gp3-slow.ini");
	snprintf(r.target.type, sizeof r.target.type, "sim");
	fleet_add(fl, "sim.json", &r, NULL);
	r.context.device_model[0] = '\0';
	snprintf(r.target.type, sizeof r.target.type, "file");
	fleet_add(fl, "none.json", &r, NULL);
	report_free(&r);
	fleet_analyse(fl);

	assert_string_equal(fl->vol[0].kind, "Amazon Elastic Block Store");
	assert_string_equal(fl->vol[0].kind_source, "device model");
	assert_false(fl->vol[0].checked);
	assert_string_equal(fl->vol[1].kind, "ebs-gp3");
	assert_string_equal(fl->vol[1].kind_source, "--expect-profile");
	assert_true(fl->vol[1].checked);
	assert_int_equal(fl->vol[1].verdicts[CHECK_MET], 1);
	assert_string_equal(fl->vol[2].kind, "gp3-500g");
	assert_string_equal(fl->vol[2].kind_source, "--kind");
	assert_string_equal(fl->vol[3].kind, "gp3-slow");
	assert_string_equal(fl->vol[3].kind_source, "sim profile");
	assert_string_equal(fl->vol[4].kind, "");
	assert_null(fl->vol[4].kind_source);
	assert_true(isnan(fl->vol[4].ratio[t_fig(fl, "iops")]));
	assert_int_equal(fl->nkinds, 4);
	check_list_free(l);
	fleet_free(fl);
}

/* JSON and CSV say the same as the analysis. */
static void
t_fleet_render(void **state)
{
	struct fleet	*fl;
	json_t		*root, *vols, *v;
	json_error_t	 err;
	char		*buf = NULL, *c;
	size_t		 len = 0, i, rows = 0;
	int		 quoted = 0;
	FILE		*f;

	(void)state;
	fl = fleet_new(0.20);
	t_add(fl, "a", "gp3", 3000, 280);
	t_add(fl, "b", "gp3", 3000, 280);
	t_add(fl, "slow", "gp3", 1000, 280);
	fleet_skip(fl, "bad.json", "line 1: not a JSON report");
	fleet_analyse(fl);

	f = open_memstream(&buf, &len);
	assert_int_equal(report_fleet_json(fl, f), 0);
	fclose(f);
	root = json_loads(buf, 0, &err);
	assert_non_null(root);
	vols = json_object_get(json_object_get(root, "fleet"), "volumes");
	assert_int_equal(json_array_size(vols), 3);
	json_array_foreach(vols, i, v) {
		assert_int_equal(json_is_true(json_object_get(v, "outlier")),
		    strcmp(fl->vol[i].host, "slow") == 0);
		assert_true(json_real_value(json_object_get(json_object_get(v,
		    "figures"), "iops")) == fl->vol[i].value[t_fig(fl,
		    "iops")]);
	}
	v = json_array_get(vols, 2);
	assert_non_null(strstr(json_string_value(json_object_get(v,
	    "outlier_reason")), "IOPS ceiling"));
	assert_true(fabs(json_real_value(json_object_get(json_object_get(v,
	    "ratio_to_median"), "iops")) - 1.0 / 3) < 1e-5);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(json_object_get(root, "fleet"), "skipped"), 0),
	    "file")), "bad.json");
	json_decref(root);
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	report_fleet_csv(fl, f);
	fclose(f);
	assert_true(strncmp(buf, "file,host,target,kind,", 22) == 0);
	/* Records end at line breaks outside quotes (RFC 4180). */
	for (c = buf; *c != '\0'; c++) {
		if (*c == '"')
			quoted = !quoted;
		else if (*c == '\n' && !quoted)
			rows++;
	}
	assert_int_equal(rows, 1 + fl->nvol);
	assert_non_null(strstr(buf, ",\"/tmp/a \"\"quoted\"\"\\path\n\","));
	assert_non_null(strstr(buf, ",true,\"IOPS ceiling"));
	free(buf);
	fleet_free(fl);
}

/* Add a report of host whose sustained run lasted n intervals. */
static void
t_add_burst(struct fleet *fl, const char *host, size_t n, int detected)
{
	struct report		r;
	struct timeline_sample	ts;

	t_report_make(&r);
	snprintf(r.labels.host, sizeof r.labels.host, "%s", host);
	free(r.target.path);
	r.target.path = xstrdup(host);
	memset(&ts, 0, sizeof ts);
	while (r.limits->timeline.n < n) {
		ts.t_s = r.limits->timeline.n + 1;
		ts.iops = detected && ts.t_s > n / 2 ? 300 : 3000;
		timeline_add(&r.limits->timeline, &ts);
	}
	if (detected) {
		r.limits->burst.detected = 1;
		r.limits->burst.burst_iops = 3000;
		r.limits->burst.baseline_iops = 300;
	}
	fleet_add(fl, host, &r, NULL);
	report_free(&r);
}

/*
 * The burst column: a bucket that ran dry, none over a run long enough to
 * tell, and a run too short to tell, which is not "none".
 */
static void
t_fleet_burst(void **state)
{
	static const struct {
		const char	*host;
		size_t		 n;
		int		 detected;
		const char	*column;
		const char	*json;
	} cases[] = {
		{ "dry", 20, 1, "3,000 -> 300", "true" },
		{ "held", 20, 0, "none seen", "false" },
		{ "short", 3, 0, "unknown", "null" },
	};
	struct fleet	*fl;
	json_t		*root, *v;
	json_error_t	 err;
	char		*buf = NULL, *line;
	size_t		 len = 0, i;
	FILE		*f;

	(void)state;
	fl = fleet_new(0.20);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		t_add_burst(fl, cases[i].host, cases[i].n, cases[i].detected);
	fleet_analyse(fl);

	f = open_memstream(&buf, &len);
	report_fleet_write(fl, f, 0);
	fclose(f);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		line = strstr(buf, cases[i].host);
		assert_non_null(line);
		*strchr(line, '\n') = '\0';
		if (strstr(line, cases[i].column) == NULL)
			fail_msg("%s: no \"%s\" in \"%s\"", cases[i].host,
			    cases[i].column, line);
		line[strlen(line)] = '\n';
	}
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(report_fleet_json(fl, f), 0);
	fclose(f);
	root = json_loads(buf, 0, &err);
	assert_non_null(root);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = json_array_get(json_object_get(json_object_get(root,
		    "fleet"), "volumes"), i);
		assert_string_equal(json_string_value(json_object_get(v,
		    "host")), cases[i].host);
		v = json_object_get(v, "burst_detected");
		assert_string_equal(json_is_null(v) ? "null" :
		    json_is_true(v) ? "true" : "false", cases[i].json);
	}
	json_decref(root);
	free(buf);
	fleet_free(fl);
}

/*
 * A report of several targets gives a volume per target, each with the
 * report's host and kind, compared and judged on its own.
 */
static void
t_fleet_several(void **state)
{
	struct fleet			*fl;
	struct report			 r;
	struct check_list		*l;
	const struct fleet_volume	*v;
	char				*cause = NULL;
	size_t				 i;

	(void)state;
	fl = fleet_new(0.20);
	t_add(fl, "a", "gp3", 3000, 280);
	memset(&r, 0, sizeof r);
	snprintf(r.labels.host, sizeof r.labels.host, "m");
	snprintf(r.labels.kind, sizeof r.labels.kind, "gp3");
	snprintf(r.finished_utc, sizeof r.finished_utc, "2026-12-01T00:00Z");
	r.ntargets = 2;
	r.targets = xcalloc(2, sizeof *r.targets);
	for (i = 0; i < 2; i++) {
		t_report_make(&r.targets[i]);
		free(r.targets[i].target.path);
		r.targets[i].target.path = xstrdup(i == 0 ? "/dev/vdb" :
		    "/dev/vdc");
		r.targets[i].limits->iops_ceiling = i == 0 ? 3000 : 1500;
	}
	l = check_list_new();
	if (check_list_add(l, "iops>=2700", "--expect", &cause) != 0)
		fail_msg("%s", cause);
	fleet_add(fl, "m.json", &r, l);
	report_free(&r);
	check_list_free(l);
	fleet_analyse(fl);

	assert_int_equal(fl->nvol, 3);
	assert_int_equal(fl->nkinds, 1);
	for (i = 1; i < 3; i++) {
		v = &fl->vol[i];
		assert_string_equal(v->host, "m");
		assert_string_equal(v->kind, "gp3");
		assert_string_equal(v->file, "m.json");
		assert_string_equal(v->target, i == 1 ? "/dev/vdb" :
		    "/dev/vdc");
		assert_int_equal(v->outlier, i == 2);
		assert_int_equal(v->verdicts[CHECK_MET], i == 1);
		assert_int_equal(v->verdicts[CHECK_MISSED], i == 2);
	}
	fleet_free(fl);
}

/*
 * Copies of one run (same host, target, start, finish and seed) keep the
 * first, the other skipped as a duplicate, never "older than" it; another
 * run of the same times but another seed is no copy.
 */
static void
t_fleet_copies(void **state)
{
	struct fleet	*fl;
	struct report	 r;

	(void)state;
	fl = fleet_new(0.20);
	t_report_make(&r);
	snprintf(r.labels.host, sizeof r.labels.host, "h1");
	snprintf(r.finished_utc, sizeof r.finished_utc,
	    "2024-01-01T00:10:00Z");
	fleet_add(fl, "a.json", &r, NULL);
	fleet_add(fl, "b.json", &r, NULL);
	assert_int_equal(fl->nvol, 1);
	assert_string_equal(fl->vol[0].file, "a.json");
	assert_int_equal(fl->nskip, 1);
	assert_string_equal(fl->skip[0].file, "b.json");
	assert_non_null(strstr(fl->skip[0].why, "a duplicate of a.json"));
	assert_null(strstr(fl->skip[0].why, "older"));
	r.config.seed = 7;
	fleet_add(fl, "c.json", &r, NULL);
	assert_int_equal(fl->nskip, 2);
	assert_non_null(strstr(fl->skip[1].why, "older than"));
	report_free(&r);
	fleet_free(fl);
}

/*
 * A simulated volume's kind is its profile's name (target.profile), the
 * name it was given only in a report without one.
 */
static void
t_fleet_profile_kind(void **state)
{
	struct fleet	*fl;
	struct report	 r;

	(void)state;
	fl = fleet_new(0.20);
	t_report_make(&r);
	free(r.target.path);
	r.target.path = xstrdup("/etc/tierprobe/db01.ini");
	snprintf(r.target.type, sizeof r.target.type, "sim");
	snprintf(r.target.profile, sizeof r.target.profile, "ebs-gp3");
	fleet_add(fl, "a.json", &r, NULL);
	r.target.profile[0] = '\0';
	fleet_add(fl, "b.json", &r, NULL);
	report_free(&r);
	assert_string_equal(fl->vol[0].kind, "ebs-gp3");
	assert_string_equal(fl->vol[0].kind_source, "sim profile");
	assert_string_equal(fl->vol[1].kind, "db01");
	fleet_free(fl);
}

/* All caveats of fl, one a line, into an allocated string. */
static char *
t_caveats(const struct fleet *fl)
{
	char	*out = NULL, *c;
	size_t	 len, i;
	FILE	*f;

	f = open_memstream(&out, &len);
	for (i = 0; (c = fleet_caveat(fl, i)) != NULL; i++) {
		fprintf(f, "%s\n", c);
		free(c);
	}
	fclose(f);
	return (out);
}

/*
 * What a fleet cannot compare is said: each kind too small, volumes of no
 * kind, and a fleet where nothing at all was compared (one sentence, with
 * what gives kinds), never a bare "none".
 */
static void
t_fleet_caveats(void **state)
{
	struct fleet	*fl;
	struct report	 r;
	char		*c, *out = NULL;
	size_t		 len;
	FILE		*f;

	(void)state;
	fl = fleet_new(0.20);
	t_add(fl, "a", "a", 3000, 280);
	t_add(fl, "b", "b", 3000, 280);
	t_add(fl, "c", "c", 1000, 280);
	fleet_analyse(fl);
	c = t_caveats(fl);
	assert_non_null(strstr(c, "nothing compared"));
	assert_non_null(strstr(c, "--kind"));
	assert_string_equal(strchr(c, '\n'), "\n");	/* one sentence */
	free(c);
	assert_false(fl->kinds[0].compared);
	f = open_memstream(&out, &len);
	report_fleet_write(fl, f, 0);
	fclose(f);
	assert_non_null(strstr(out, "nothing compared"));
	assert_null(strstr(out, "  - none"));
	free(out);
	fleet_free(fl);

	fl = fleet_new(0.20);
	t_add(fl, "a", "gp3", 3000, 280);
	t_add(fl, "b", "gp3", 3000, 280);
	t_add(fl, "c", "gp3", 3000, 280);
	t_add(fl, "d", "io1", 4000, 280);
	t_add(fl, "e", "io1", 4000, 280);
	t_report_make(&r);
	fleet_add(fl, "nokind.json", &r, NULL);
	report_free(&r);
	fleet_analyse(fl);
	c = t_caveats(fl);
	assert_string_equal(c, "kind io1: 2 volumes, too few to compare (3 "
	    "needed)\n1 volume of no known kind is not compared: give its "
	    "runs --kind\n");
	free(c);
	assert_true(fl->kinds[0].compared);
	assert_false(fl->kinds[1].compared);
	fleet_free(fl);
}

/* The CSV's figure columns carry their unit; ratios have none. */
static void
t_fleet_csv_units(void **state)
{
	struct fleet	*fl;
	char		*buf = NULL;
	size_t		 len;
	FILE		*f;

	(void)state;
	fl = fleet_new(0.20);
	t_add(fl, "a", "gp3", 3000, 280);
	fleet_analyse(fl);
	f = open_memstream(&buf, &len);
	report_fleet_csv(fl, f);
	fclose(f);
	*strchr(buf, '\n') = '\0';
	assert_non_null(strstr(buf, ",tiers,p50_us,p99_us,iops,"
	    "bandwidth_bytes_per_s,burst.iops,burst.baseline_iops,"
	    "commit.p50_us,commit.p99_us,commit.rate_per_s,ratio_p50,"));
	free(buf);
	fleet_free(fl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fleet_outliers),
		cmocka_unit_test(t_fleet_noise),
		cmocka_unit_test(t_fleet_duplicates),
		cmocka_unit_test(t_fleet_kinds),
		cmocka_unit_test(t_fleet_render),
		cmocka_unit_test(t_fleet_burst),
		cmocka_unit_test(t_fleet_several),
		cmocka_unit_test(t_fleet_copies),
		cmocka_unit_test(t_fleet_profile_kind),
		cmocka_unit_test(t_fleet_caveats),
		cmocka_unit_test(t_fleet_csv_units),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * Description: fleets: medians per kind and ratios, the outlier rule (20%
 * worse, in both directions of "worse", widened by run-to-run noise, only
 * in kinds of 3 or more, never for unknown kinds), duplicates keeping the
 * newer report whatever the order, how a kind is found, verdict counts,
 * and the JSON and CSV renderings of the same fleet.
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
	assert_true(fabs(v->ratio[iops] - 2000.0 / 3000) < 1e-9);
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fleet_outliers),
		cmocka_unit_test(t_fleet_noise),
		cmocka_unit_test(t_fleet_duplicates),
		cmocka_unit_test(t_fleet_kinds),
		cmocka_unit_test(t_fleet_render),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

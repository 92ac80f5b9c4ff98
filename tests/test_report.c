/* SPDX-License-Identifier: ISC */
/*
 * report.c and report-json.c: JSON of a built report (null for unknown
 * figures, escaping, big seeds), write -> load -> write identity,
 * atomic report_json_write, headline figures and --repeat aggregation;
 * report-profile.c: the profile list and one profile's truth.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <jansson.h>
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

#include "profiles.h"
#include "report.h"
#include "t_report.h"
#include "units.h"

static size_t
t_count_entries(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	size_t		 n = 0;

	assert_non_null(d = opendir(dir));
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	}
	closedir(d);
	return (n);
}

/*
 * The text rendering of r into *s, to free; with flat, its wrapped lines
 * joined (a newline and the indent after it read as one space).
 */
static void
t_text(const struct report *r, int flat, char **s)
{
	char	*in, *out;
	size_t	 len;
	FILE	*f;

	assert_non_null(f = open_memstream(s, &len));
	report_text_write(r, f, 0);
	fclose(f);
	if (!flat)
		return;
	for (in = out = *s; *in != '\0'; in++) {
		if (*in == '\n') {
			while (in[1] == ' ')
				in++;
			*in = ' ';
		}
		*out++ = *in;
	}
	*out = '\0';
}

/* s with every run of spaces made one: table cells read as words. */
static void
t_squeeze(char *s)
{
	char	*in, *out;

	for (in = out = s; *in != '\0'; in++)
		if (*in != ' ' || out == s || out[-1] != ' ')
			*out++ = *in;
	*out = '\0';
}

/* r written as JSON and loaded back into back. */
static void
t_reload(const struct report *r, struct report *back)
{
	char	*dir, path[512], *cause = NULL;

	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/r.json", dir);
	if (report_json_write(r, path, &cause) != 0 ||
	    report_load(path, back, &cause) != 0)
		fail_msg("%s: %s", path, cause);
	t_rmdir(dir);
	free(dir);
}

static void
test_json_keys(void **state)
{
	struct report	 r;
	json_t		*root, *p;
	json_error_t	 err;
	char		*s;

	(void)state;
	t_report_make(&r);
	s = t_json(&r);
	root = json_loads(s, 0, &err);
	assert_non_null(root);
	assert_int_equal(json_integer_value(json_object_get(root,
	    "schema_version")), REPORT_SCHEMA_VERSION);
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    root, "tool"), "name")), "tierprobe");
	/* Strings survive escaping exactly. */
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    root, "target"), "path")), "/tmp/a \"quoted\"\\path\n");
	/* A seed above 2^63 is kept exactly, as a string. */
	assert_string_equal(json_string_value(json_object_get(json_object_get(
	    root, "config"), "seed")), "18446744073709551614");
	/* NAN figures are null, never a number. */
	p = json_array_get(json_object_get(json_object_get(root, "scan"),
	    "points"), 0);
	assert_true(json_is_null(json_object_get(json_object_get(p, "lat_us"),
	    "p999")));
	assert_true(json_is_null(json_object_get(json_array_get(
	    json_object_get(json_object_get(root, "scan"), "tiers"), 0),
	    "lat_us_p99")));
	assert_true(json_is_null(json_object_get(json_object_get(root,
	    "limits"), "bandwidth_ceiling_bytes_per_s")));
	assert_true(json_is_null(json_object_get(json_object_get(root,
	    "limits"), "io_accounting_bytes")));
	assert_true(json_is_false(json_object_get(json_object_get(
	    json_object_get(root, "limits"), "burst"), "detected")));
	/* The histogram: nonzero buckets only, counts add up. */
	assert_int_equal(json_array_size(json_object_get(p, "hist")), 3);
	/* Not run: absent. */
	assert_null(json_object_get(root, "repeat"));
	json_decref(root);
	free(s);
	report_free(&r);
	report_free(&r);	/* twice is harmless */
}

static void
test_json_round_trip(void **state)
{
	struct report	 r, back;
	char		*dir, path[512], *a, *b, *cause = NULL;
	size_t		 i, k;

	(void)state;
	t_report_make(&r);
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/r.json", dir);
	assert_int_equal(report_json_write(&r, path, &cause), 0);
	assert_int_equal(report_load(path, &back, &cause), 0);
	assert_string_equal(back.target.path, r.target.path);
	assert_true(back.config.seed == r.config.seed);
	assert_int_equal(back.scan->npoints, 3);
	assert_int_equal(back.limits->nqd, 2);
	assert_int_equal(back.limits->timeline.n, 3);
	assert_true(isnan(back.scan->points[0].lat_us.p999));
	assert_true(isnan(back.limits->bandwidth_ceiling_bytes_per_s));
	assert_int_equal(back.limits->iops_knee_iodepth, 2);
	/* Histograms come back bucket for bucket. */
	for (i = 0; i < 3; i++) {
		assert_non_null(back.scan->points[i].hist);
		assert_true(back.scan->points[i].hist->count == 3);
		for (k = 0; k < HIST_BUCKETS; k++)
			assert_true(back.scan->points[i].hist->bucket[k] ==
			    r.scan->points[i].hist->bucket[k]);
	}
	b = t_json(&back);
	/* Rounding to 6 digits happens once: the second write is equal. */
	report_free(&r);
	assert_int_equal(report_json_write(&back, path, &cause), 0);
	report_free(&back);
	assert_int_equal(report_load(path, &r, &cause), 0);
	a = t_json(&r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	report_free(&r);
	t_rmdir(dir);
	free(dir);
}

static void
test_json_write_atomic(void **state)
{
	struct report	 r;
	char		*dir, path[512], *cause = NULL, *s;

	(void)state;
	t_report_make(&r);
	dir = t_tmpdir();
	snprintf(path, sizeof path, "%s/out.json", dir);

	/* An existing file is replaced; nothing else is left behind. */
	assert_non_null(s = t_json(&r));
	free(s);
	{
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs("old", f);
		fclose(f);
	}
	assert_int_equal(report_json_write(&r, path, &cause), 0);
	assert_int_equal(t_count_entries(dir), 1);
	s = t_slurp(path, NULL);
	assert_non_null(strstr(s, "\"schema_version\": 1"));
	free(s);

	/* Failing after the temp file was written (target is a directory):
	   the directory stays and the temp file is gone. */
	snprintf(path, sizeof path, "%s/adir", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(report_json_write(&r, path, &cause), -1);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "adir"));
	assert_null(strchr(cause, '\n'));
	free(cause);
	cause = NULL;
	assert_int_equal(t_count_entries(dir), 2);

	/* A directory that does not exist: a cause naming the path. */
	snprintf(path, sizeof path, "%s/missing/out.json", dir);
	assert_int_equal(report_json_write(&r, path, &cause), -1);
	assert_non_null(strstr(cause, "missing/out.json"));
	free(cause);

	report_free(&r);
	t_rmdir(dir);
	free(dir);
}

static void
test_headlines(void **state)
{
	struct report		r;
	struct report_figure	fig[REPORT_STATS_MAX];
	size_t			n, i;
	int			seen = 0;

	(void)state;
	t_report_make(&r);
	n = report_headlines(&r, fig, REPORT_STATS_MAX);
	/* 3 per tier, 2 backing, 9 limits. */
	assert_int_equal(n, 3 + 2 + 9);
	for (i = 0; i < n; i++) {
		if (strcmp(fig[i].name, "scan.tiers[0].capacity_bytes") == 0) {
			assert_true(fig[i].value == 128 << 20);
			/* interval 120..136 MiB: half-width 8 of 128 */
			assert_true(fabs(fig[i].rel_noise - 8.0 / 128) < 1e-9);
			seen++;
		}
		if (strcmp(fig[i].name, "limits.iops_ceiling") == 0) {
			assert_true(fig[i].value == 5000);
			/* the knee point's ci95_rel */
			assert_true(fabs(fig[i].rel_noise - 0.02) < 1e-9);
			seen++;
		}
		if (strcmp(fig[i].name, "limits.burst.burst_iops") == 0) {
			assert_true(isnan(fig[i].value));
			seen++;
		}
	}
	assert_int_equal(seen, 3);
	/* A short array is not overrun. */
	assert_int_equal(report_headlines(&r, fig, 2), 2);
	report_free(&r);
}

static void
test_repeat_aggregate(void **state)
{
	struct report			 reps[3];
	struct report_repeat		 rr;
	const struct report_stat	*st;
	int				 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		t_report_make(&reps[i]);
		reps[i].limits->iops_ceiling = 100 + 10 * i;
	}
	reps[1].scan->tiers.backing_p50_us = NAN;	/* not established */
	reps[0].scan->tiers.backing_p50_us = 200;
	reps[2].scan->tiers.backing_p50_us = 300;
	report_repeat_aggregate(reps, 3, &rr);
	assert_int_equal(rr.runs, 3);
	st = report_repeat_find(&rr, "limits.iops_ceiling");
	assert_non_null(st);
	assert_int_equal(st->n, 3);
	assert_true(fabs(st->mean - 110) < 1e-9);
	assert_true(fabs(st->sd - 10) < 1e-9);
	assert_true(fabs(st->cv - 10.0 / 110) < 1e-9);
	st = report_repeat_find(&rr, "scan.backing.lat_us_p50");
	assert_int_equal(st->n, 2);
	assert_true(fabs(st->mean - 250) < 1e-9);
	assert_true(fabs(st->sd - sqrt(5000)) < 1e-9);
	st = report_repeat_find(&rr, "limits.burst.burst_iops");
	assert_int_equal(st->n, 0);
	assert_true(isnan(st->mean));
	assert_null(report_repeat_find(&rr, "no.such"));

	/* One run: no spread. */
	report_repeat_aggregate(reps, 1, &rr);
	st = report_repeat_find(&rr, "limits.iops_ceiling");
	assert_true(isnan(st->sd));
	report_repeat_aggregate(reps, 0, &rr);
	assert_int_equal(rr.runs, 0);
	assert_int_equal(rr.nstats, 0);
	for (i = 0; i < 3; i++)
		report_free(&reps[i]);
}

static void
test_repeat_rendered(void **state)
{
	struct report	 reps[2], back;
	char		*s = NULL;

	(void)state;
	t_report_make(&reps[0]);
	t_report_make(&reps[1]);
	reps[1].limits->iops_ceiling = 6000;
	reps[0].repeat = calloc(1, sizeof *reps[0].repeat);
	report_repeat_aggregate(reps, 2, reps[0].repeat);
	t_text(&reps[0], 0, &s);
	assert_non_null(strstr(s, "Repeatability (2 runs)"));
	/* mean 5,500, sd 707, cv 12.9% */
	assert_non_null(strstr(s, "5,500"));
	assert_non_null(strstr(s, "12.9%"));
	free(s);
	t_reload(&reps[0], &back);
	assert_non_null(back.repeat);
	assert_int_equal(back.repeat->runs, 2);
	assert_true(fabs(report_repeat_find(back.repeat,
	    "limits.iops_ceiling")->mean - 5500) < 1e-6);
	report_free(&back);
	report_free(&reps[0]);
	report_free(&reps[1]);
}

/*
 * A quick run's sustained phase ended once its rate held: the text says
 * after how long of what was asked, what that rules out and at which
 * confidence, and how long a bucket could be and still go unseen.
 */
static void
test_text_held_early(void **state)
{
	struct report	 r;
	char		*s = NULL;

	(void)state;
	t_report_make(&r);
	r.config.sustain_s = 15;
	r.limits->sustain_s = 8;
	r.limits->sustain_early = 1;
	r.limits->burst.held_iops = 5000;
	r.limits->burst.held_s = 5;
	r.limits->burst.ruled_out_below_ios = 61000;
	t_text(&r, 1, &s);
	assert_non_null(strstr(s, "held at 5,000 IOPS over 8.0 s of"));
	assert_non_null(strstr(s, "the 61k I/Os the run drew"));
	assert_non_null(strstr(s, "lasting longer than 5.0 s"));
	assert_non_null(strstr(s, "ended after 8.0 s of the 15.0 s asked"));
	assert_non_null(strstr(s, "(95% confidence)"));
	assert_non_null(strstr(s, "unknown: at most 5,000 IOPS"));
	free(s);
	report_free(&r);
}

/*
 * The accounting size: a unit the sweep could not tell from a bandwidth
 * cap says both, never the unit as a fact, in the text and after a JSON
 * round trip; a unit the probe confirmed, or ruled out, says what the
 * probe saw.
 */
static void
test_text_accounting(void **state)
{
	struct report	 r, back;
	struct point	*p;
	char		*s = NULL;
	int		 pass;

	(void)state;
	t_report_make(&r);
	r.limits->iops_ceiling = 4000;
	r.limits->bandwidth_ceiling_bytes_per_s = 500 << 20;
	r.limits->bandwidth_limit = CEILINGS_BW_UNIT_OR_CAP;
	r.limits->io_accounting_why = CEILINGS_ACCT_UNIT_OR_CAP;
	r.limits->io_accounting_candidate = 128 << 10;
	t_reload(&r, &back);
	for (pass = 0; pass < 2; pass++) {
		t_text(pass ? &back : &r, 1, &s);
		t_squeeze(s);
		assert_non_null(strstr(s, "accounting size 128 KiB units, "
		    "or a 500 MiB/s bandwidth cap: the same rates"));
		assert_non_null(strstr(s, "either the volume counts I/O in "
		    "units of 128 KiB (then one 1 MiB read costs 8 I/Os"));
		assert_non_null(strstr(s, "or it caps bandwidth there"));
		assert_null(strstr(s, "The volume counts I/O in units of"));
		free(s);
	}
	report_free(&back);

	r.limits->bandwidth_limit = CEILINGS_BW_ACCOUNTING;
	r.limits->io_accounting_why = CEILINGS_ACCT_FOUND;
	r.limits->io_accounting_candidate = 0;
	r.limits->io_accounting_bytes = 128 << 10;
	p = &r.limits->acct_probe;
	p->bs = 192 << 10;
	p->ios = 2000;
	p->iops = 2000;
	p->bytes_per_s = 2000.0 * (192 << 10);
	t_reload(&r, &back);
	assert_int_equal(back.limits->acct_probe.bs, 192 << 10);
	t_text(&back, 1, &s);
	t_squeeze(s);
	assert_non_null(strstr(s, "accounting size 128 KiB (larger I/Os count "
	    "as several: 192 KiB ones ran at 2,000 IOPS, 2 units each)"));
	assert_non_null(strstr(s, "The volume counts I/O in units of 128 KiB"));
	assert_null(strstr(s, "caps bandwidth there"));
	free(s);
	report_free(&back);

	/* The probe ran at the cap's rate: no unit, and why. */
	r.limits->bandwidth_limit = CEILINGS_BW_CAP;
	r.limits->io_accounting_why = CEILINGS_ACCT_HIDDEN;
	r.limits->io_accounting_bytes = 0;
	p->iops = 2667;
	p->bytes_per_s = 2667.0 * (192 << 10);
	t_text(&r, 1, &s);
	t_squeeze(s);
	assert_non_null(strstr(s, "accounting size not observable: a bandwidth "
	    "cap holds large I/O first (192 KiB reads ran at 2,667 IOPS"));
	assert_non_null(strstr(s, "units of 128 KiB would have held them"));
	assert_null(strstr(s, "counts I/O in units"));
	free(s);
	report_free(&r);
}

/* A line of text with label, then the three values and word, in order. */
static void
t_runs_line(const char *text, const char *label, const double *v,
    const char *word)
{
	const char	*line, *p;
	char		 want[UNITS_BUFSZ + 1], b[UNITS_BUFSZ];
	size_t		 i;

	for (line = text; line != NULL; line = strchr(line, '\n')) {
		line += *line == '\n';
		p = strstr(line, label);
		if (p == NULL || p > strchr(line, '\n'))
			continue;
		for (i = 0; i < 3 && p != NULL; i++) {
			snprintf(want, sizeof want, " %s", units_format_value(
			    UNITS_IOPS, v[i], b, sizeof b));
			p = strstr(p + 1, want);
		}
		if (p != NULL && (p = strstr(p, word)) != NULL &&
		    p < strchr(line, '\n'))
			return;
	}
	fail_msg("no line \"%s ... %s\" in:\n%s", label, word, text);
}

/*
 * Runs on a volume that keeps its state: a bucket that ran dry in run 2
 * makes the ceiling fall run after run.  The figure is given run by run
 * with the reason, never averaged; noise back and forth, or a small
 * drift, is not a trend.
 */
static void
test_repeat_trend(void **state)
{
	static const struct {
		double	iops[3];
		int	trend;
	} cases[] = {
		{ { 3000, 3000, 300 }, REPORT_TREND_FALLING },
		{ { 300, 3000, 3000 }, REPORT_TREND_RISING },
		{ { 3000, 2000, 3100 }, REPORT_TREND_NONE },
		{ { 3000, 3150, 3300 }, REPORT_TREND_NONE },
	};
	struct report			 reps[3], back;
	const struct report_stat	*st;
	char				*s = NULL;
	size_t				 c;
	int				 i;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (i = 0; i < 3; i++) {
			t_report_make(&reps[i]);
			reps[i].limits->iops_ceiling = cases[c].iops[i];
		}
		reps[1].limits->burst.detected = 1;
		reps[1].limits->burst.baseline_iops = 300;
		reps[0].repeat = calloc(1, sizeof *reps[0].repeat);
		report_repeat_aggregate(reps, 3, reps[0].repeat);
		st = report_repeat_find(reps[0].repeat, "limits.iops_ceiling");
		assert_int_equal(st->trend, cases[c].trend);
		assert_int_equal(st->nrun, 3);
		for (i = 0; i < 3; i++)
			assert_true(st->run[i] == cases[c].iops[i]);
		if (cases[c].trend == REPORT_TREND_NONE) {
			assert_string_equal(reps[0].repeat->reason, "");
			for (i = 0; i < 3; i++)
				report_free(&reps[i]);
			continue;
		}
		assert_non_null(strstr(reps[0].repeat->reason,
		    "ran dry in run 2"));
		t_text(&reps[0], 0, &s);
		assert_non_null(strstr(s, "in a trend: a burst bucket ran dry "
		    "in run 2"));
		t_runs_line(s, "IOPS ceiling", cases[c].iops,
		    report_trend_name(cases[c].trend));
		assert_null(strstr(s, "2,100"));	/* the mean */
		free(s);

		/* Runs and trend survive a JSON round trip. */
		t_reload(&reps[0], &back);
		st = report_repeat_find(back.repeat, "limits.iops_ceiling");
		assert_int_equal(st->trend, cases[c].trend);
		assert_true(st->nrun == 3 && st->run[2] == cases[c].iops[2]);
		assert_string_equal(back.repeat->reason,
		    reps[0].repeat->reason);
		report_free(&back);
		for (i = 0; i < 3; i++)
			report_free(&reps[i]);
	}
}

/*
 * gp2 under --repeat 3: run 1 drains the bucket; runs 2 and 3
 * find only the credits it earned back in between, and their sweeps fall
 * as those run out, so they give no IOPS ceiling.  The reason says so
 * (not a trend, not a bucket "left" by the runs before), and the lost
 * figure and the later runs' small bucket are given run by run.
 */
static void
test_repeat_lost(void **state)
{
	struct report	 reps[3];
	struct burst	*b;
	const char	*why;
	char		*s = NULL;
	int		 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		t_report_make(&reps[i]);
		b = &reps[i].limits->burst;
		b->detected = 1;
		b->burst_iops = i == 0 ? NAN : 1740;
		b->baseline_iops = 300;
		b->duration_s = i == 0 ? NAN : 1.4;
		b->credits_ios = i == 0 ? NAN : 1973;
		b->drop_sweep_t_s = 30;
		if (i > 0)
			reps[i].limits->iops_ceiling = NAN;
	}
	reps[0].repeat = calloc(1, sizeof *reps[0].repeat);
	report_repeat_aggregate(reps, 3, reps[0].repeat);
	why = reps[0].repeat->reason;
	assert_non_null(strstr(why, "ran dry in run 1 "));
	assert_non_null(strstr(why, "~1.97k I/Os of credits it earned back"));
	assert_non_null(strstr(why, "runs 2 and 3 gave no IOPS ceiling"));
	assert_non_null(strstr(why, "sweeps fell as those credits ran out"));
	assert_null(strstr(why, "left in it"));
	t_text(&reps[0], 1, &s);
	t_squeeze(s);
	assert_non_null(strstr(s, "The runs differ in what they could "
	    "measure: a burst bucket"));
	assert_null(strstr(s, "in a trend"));
	assert_non_null(strstr(s, "IOPS ceiling 5,000 n/a n/a lost"));
	assert_non_null(strstr(s, "burst credits n/a 1.97k 1.97k partial"));
	free(s);
	for (i = 0; i < 3; i++)
		report_free(&reps[i]);
}

/*
 * A run that saw no drop gives only the most the long-run rate can be.
 * Among runs that found it, that bound neither moves the mean nor makes a
 * trend; when every run gave a bound, the mean is one and says so, in the
 * text ("<= ") and in the JSON, run by run too.
 */
static void
test_repeat_bounds(void **state)
{
	static const struct {
		double	long_run[3];	/* NAN: held held[] without a drop */
		double	held[3];
		double	mean;
		int	bound;
		unsigned n;
		const char *text;	/* NULL: no "<= " in the table */
	} cases[] = {
		{ { NAN, 300, 300 }, { 3000, NAN, NAN }, 300,
		  REPORT_BOUND_NONE, 2, NULL },
		{ { NAN, NAN, NAN }, { 3000, 3000, 3000 }, 3000,
		  REPORT_BOUND_AT_MOST, 3, "<= 3,000" },
	};
	struct report			 reps[3], back;
	const struct report_stat	*st;
	char				*s = NULL;
	const char			*p;
	size_t				 c;
	int				 i;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		for (i = 0; i < 3; i++) {
			t_report_make(&reps[i]);
			reps[i].limits->long_run_iops = cases[c].long_run[i];
			reps[i].limits->burst.held_iops = cases[c].held[i];
		}
		reps[0].repeat = calloc(1, sizeof *reps[0].repeat);
		report_repeat_aggregate(reps, 3, reps[0].repeat);
		st = report_repeat_find(reps[0].repeat, "limits.long_run_iops");
		assert_non_null(st);
		assert_int_equal(st->trend, REPORT_TREND_NONE);
		assert_int_equal(st->bound, cases[c].bound);
		assert_int_equal(st->n, cases[c].n);
		assert_true(fabs(st->mean - cases[c].mean) < 1e-6);
		assert_int_equal(st->run_bound[0], REPORT_BOUND_AT_MOST);
		t_text(&reps[0], 0, &s);
		p = strstr(s, "Repeatability");
		assert_non_null(p);
		if (cases[c].text != NULL)
			assert_non_null(strstr(p, cases[c].text));
		else
			assert_null(strstr(p, "<= "));
		free(s);

		t_reload(&reps[0], &back);
		st = report_repeat_find(back.repeat, "limits.long_run_iops");
		assert_int_equal(st->bound, cases[c].bound);
		for (i = 0; i < 3; i++)
			assert_int_equal(st->run_bound[i], isnan(
			    cases[c].long_run[i]) ? REPORT_BOUND_AT_MOST :
			    REPORT_BOUND_NONE);
		report_free(&back);
		for (i = 0; i < 3; i++)
			report_free(&reps[i]);
	}
}

/* The time stamp of a report: ISO 8601 UTC. */
static void
test_utc_now(void **state)
{
	char	buf[64];

	(void)state;
	report_utc_now(buf, sizeof buf);
	assert_int_equal(strlen(buf), 20);
	assert_true(buf[4] == '-' && buf[10] == 'T' && buf[19] == 'Z');
}

static void
test_text_unknowns(void **state)
{
	struct report	 r;
	char		*s = NULL, *line;

	(void)state;
	t_report_make(&r);
	r.interrupted = 1;
	t_text(&r, 0, &s);
	assert_non_null(strstr(s, "INTERRUPTED"));
	/* The tier's unknown p99 is said so, not 0. */
	assert_non_null(strstr(s, "p99 unknown"));
	assert_non_null(strstr(s, "bandwidth ceiling  unknown"));
	/* Little's law at 32: 32 / 5000 s = 6.4 ms. */
	assert_non_null(strstr(s, "32/5,000 s"));
	assert_non_null(strstr(s, "6.4 ms (Little's law)"));
	for (line = strtok(s, "\n"); line != NULL; line = strtok(NULL, "\n"))
		assert_true(strlen(line) <= 100);
	free(s);
	report_free(&r);
}

/*
 * A scan not analysed as a whole shows the tiers it found, each marked:
 * one holds when every class of reads no tier explains is slower and grows
 * past its size and its share was seen falling at 2 working sets past it;
 * otherwise it is in doubt, and says why.  Never the backing store's
 * latency, never a tier given as established, and the same after a JSON
 * round trip.
 */
static void
test_text_provisional(void **state)
{
	static const struct {
		uint64_t	cap_mib;	/* interval +-10% */
		double		lat_us;		/* the unexplained class; 0 none */
		uint64_t	from_mib;
		const char	*want;
	} cases[] = {
		{ 40, 200, 128, NULL },
		{ 200, 200, 64, "Tier 1 is in doubt: reads at ~200 us grow from "
		  "64 MiB, inside its size." },
		{ 40, 20, 128, "Tier 1 is in doubt: reads at ~20 us, as fast as "
		  "its own, are not explained." },
		{ 128, 0, 0, "Tier 1 is in doubt: its share was seen falling at "
		  "1 working set past its size only." },
	};
	struct report		 r, back;
	struct tiers_result	*tr;
	char			*s = NULL, *s2 = NULL;
	size_t			 c;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		t_report_make(&r);
		tr = &r.scan->tiers;
		tr->analysed = 0;
		tr->backing_p50_us = 2777;
		tr->backing_p99_us = 4321;
		tr->tier[0].capacity_bytes = cases[c].cap_mib << 20;
		tr->tier[0].capacity_low_bytes = cases[c].cap_mib * 9 << 20;
		tr->tier[0].capacity_low_bytes /= 10;
		tr->tier[0].capacity_high_bytes = cases[c].cap_mib * 11 << 20;
		tr->tier[0].capacity_high_bytes /= 10;
		if (cases[c].lat_us > 0) {
			tr->nunexplained = 1;
			tr->unexplained[0].lat_us_p50 = cases[c].lat_us;
			tr->unexplained[0].share_max = 0.5;
			tr->unexplained[0].from_ws = cases[c].from_mib << 20;
			tr->unexplained[0].to_ws = 256 << 20;
		}
		t_text(&r, 1, &s);
		t_squeeze(s);
		assert_non_null(strstr(s, "Not analysed"));
		assert_non_null(strstr(s, "Found so far, provisional: 1 cache "
		    "tier"));
		assert_non_null(strstr(s, " backing not analysed"));
		/* The backing store's p50 and p99 in memory are not given. */
		assert_null(strstr(s, "2.78 ms"));
		assert_null(strstr(s, "4.32 ms"));
		assert_null(strstr(s, "is served from cache tier 1 (p50"));
		if (cases[c].want == NULL) {
			assert_non_null(strstr(s, "90 us n/a holds"));
			assert_null(strstr(s, "in doubt"));
			assert_non_null(strstr(s, "Provisionally, up to 40 MiB, "
			    "reads are served from cache tier 1"));
		} else {
			assert_non_null(strstr(s, cases[c].want));
			assert_non_null(strstr(s, "90 us n/a in doubt"));
			assert_null(strstr(s, "n/a holds"));
			assert_non_null(strstr(s, "1 cache tier, none holding"));
			assert_null(strstr(s, "Provisionally"));
		}
		t_reload(&r, &back);
		t_text(&back, 1, &s2);
		t_squeeze(s2);
		assert_string_equal(s, s2);
		free(s);
		free(s2);
		report_free(&back);
		report_free(&r);
	}
}

/*
 * A buffered scan with no tier may have read only the page cache: the
 * text says its backing row may be that, not the disk; never when the
 * scan used O_DIRECT or found a tier.
 */
static void
test_text_buffered_no_tier(void **state)
{
	static const struct {
		int	direct;
		size_t	ntiers;
		int	said;
	} cases[] = {
		{ 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 },
	};
	struct report	 r;
	char		*s = NULL;
	size_t		 c;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		t_report_make(&r);
		r.target.direct = cases[c].direct;
		r.scan->tiers.ntiers = cases[c].ntiers;
		t_text(&r, 1, &s);
		assert_int_equal(strstr(s, "the backing row is its latency, "
		    "not the disk's") != NULL, cases[c].said);
		free(s);
		report_free(&r);
	}
}

/*
 * No tier found by a scan its --budget ended short of --max-ws: the text
 * says a larger budget, not a larger --max-ws, would rule out a larger
 * cache; a scan that reached --max-ws, or had no budget, says --max-ws.
 */
static void
test_text_budget_cut(void **state)
{
	static const struct {
		double		budget_s;
		uint64_t	max_ws;		/* points end at 256 MiB */
		const char	*want;
	} cases[] = {
		{ 40, (uint64_t)4 << 30, "the --budget ended the scan short of "
		  "the 4 GiB asked, so a larger --budget is needed to rule one "
		  "out." },
		{ 0, (uint64_t)4 << 30, "(256 MiB) would look the same: raise "
		  "--max-ws to rule one out." },
		{ 40, 256 << 20, "(256 MiB) would look the same: raise --max-ws "
		  "to rule one out." },
	};
	struct report	 r;
	char		*s = NULL;
	size_t		 c;

	(void)state;
	for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		t_report_make(&r);
		r.scan->tiers.ntiers = 0;
		r.config.budget_s = cases[c].budget_s;
		r.config.max_ws = cases[c].max_ws;
		t_text(&r, 1, &s);
		if (strstr(s, cases[c].want) == NULL)
			fail_msg("case %zu: no \"%s\" in:\n%s", c,
			    cases[c].want, s);
		free(s);
		report_free(&r);
	}
}

/* profiles: every built-in one listed; one shown with its truth. */
static void
test_profiles(void **state)
{
	char	**names, *buf = NULL, *cause = NULL;
	size_t	  n, i, len;
	FILE	 *f;

	(void)state;
	names = profiles_names(&n);
	assert_true(n >= 9);
	f = open_memstream(&buf, &len);
	assert_int_equal(report_profile_list(f, &cause), 0);
	fclose(f);
	for (i = 0; i < n; i++)
		assert_non_null(strstr(buf, names[i]));
	assert_null(strstr(buf, "invalid"));
	free(buf);
	profiles_names_free(names, n);

	f = open_memstream(&buf, &len);
	assert_int_equal(report_profile_show("ebs-gp2-100g", f, &cause), 0);
	fclose(f);
	assert_non_null(strstr(buf, "lasts 2000 s"));
	assert_non_null(strstr(buf, "5400000 credits"));
	assert_non_null(strstr(buf,
	    "iops_ceiling      3000 IOPS (burst iops)"));
	free(buf);
	f = open_memstream(&buf, &len);
	assert_int_equal(report_profile_show("nope", f, &cause), -1);
	fclose(f);
	assert_string_equal(buf, "");
	free(buf);
	assert_non_null(strstr(cause, "ebs-gp2-100g"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_keys),
		cmocka_unit_test(test_json_round_trip),
		cmocka_unit_test(test_json_write_atomic),
		cmocka_unit_test(test_headlines),
		cmocka_unit_test(test_repeat_aggregate),
		cmocka_unit_test(test_repeat_rendered),
		cmocka_unit_test(test_repeat_trend),
		cmocka_unit_test(test_repeat_bounds),
		cmocka_unit_test(test_repeat_lost),
		cmocka_unit_test(test_utc_now),
		cmocka_unit_test(test_text_unknowns),
		cmocka_unit_test(test_text_held_early),
		cmocka_unit_test(test_text_accounting),
		cmocka_unit_test(test_text_provisional),
		cmocka_unit_test(test_text_buffered_no_tier),
		cmocka_unit_test(test_text_budget_cut),
		cmocka_unit_test(test_profiles),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

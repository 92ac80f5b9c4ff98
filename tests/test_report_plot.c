/* SPDX-License-Identifier: ISC */
/*
 * report-plot.c: every plot of the fixture reports renders as a valid PNG
 * (1200x800) and SVG of sensible size; sections absent are skipped; other
 * files in outdir are left alone; a missing gnuplot names its package;
 * the timeline marks the drop seen, the full bucket's length apart.
 * Skips (77) without gnuplot.
 */
#include <sys/stat.h>

#include <dirent.h>
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

#include "log.h"
#include "report.h"
#include "t_report.h"
#include "timeline.h"

static const char *const t_plots[] = { "latency-ws", "hit-fraction",
    "iodepth", "bandwidth-bs", "timeline", "commits" };
#define T_NPLOTS	(sizeof t_plots / sizeof t_plots[0])

static uint32_t
t_be32(const unsigned char *p)
{
	return ((uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]);
}

/* Check one image; returns 1 if it exists and is valid, 0 if absent. */
static int
t_check(const char *dir, const char *name, const char *fmt)
{
	static const unsigned char magic[8] = { 0x89, 'P', 'N', 'G', '\r',
	    '\n', 0x1a, '\n' };
	char		 path[1024], *s;
	size_t		 len;

	snprintf(path, sizeof path, "%s/%s.%s", dir, name, fmt);
	if (access(path, F_OK) != 0)
		return (0);
	s = t_slurp(path, &len);
	assert_non_null(s);
	if (strcmp(fmt, "png") == 0) {
		assert_true(len > 20000);
		assert_memory_equal(s, magic, 8);
		assert_memory_equal(s + 12, "IHDR", 4);
		assert_int_equal(t_be32((unsigned char *)s + 16), 1200);
		assert_int_equal(t_be32((unsigned char *)s + 20), 800);
	} else {
		assert_true(len > 10000);
		assert_non_null(strstr(s, "<svg"));
		assert_non_null(strstr(s, "width=\"1200\""));
		assert_non_null(strstr(s, "</svg>"));
		/* Axis labels with units made it in. */
		assert_true(strstr(s, "microseconds") != NULL ||
		    strstr(s, "IOPS") != NULL || strstr(s, "fraction") != NULL);
	}
	free(s);
	return (1);
}

static size_t
t_entries(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	size_t		 n = 0;

	assert_non_null(d = opendir(dir));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.')
			n++;
		else if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0)
			fail_msg("left behind: %s", e->d_name);
	}
	closedir(d);
	return (n);
}

static void
t_render(const char *fixture, const char *fmt, const char *want)
{
	struct report	 r;
	char		*root, out[512], keep[512], *cause = NULL, *s;
	size_t		 i, n = 0;
	FILE		*f;

	assert_int_equal(report_load(t_data(fixture), &r, &cause), 0);
	root = t_tmpdir();
	snprintf(out, sizeof out, "%s/a/b", root);
	snprintf(keep, sizeof keep, "%s/a", root);
	mkdir(keep, 0755);
	snprintf(keep, sizeof keep, "%s/a/b", root);
	mkdir(keep, 0755);
	snprintf(keep, sizeof keep, "%s/a/b/notes.txt", root);
	assert_non_null(f = fopen(keep, "w"));
	fputs("mine", f);
	fclose(f);
	if (report_plot(&r, out, fmt, &cause) != 0)
		fail_msg("%s %s: %s", fixture, fmt, cause);
	for (i = 0; i < T_NPLOTS; i++) {
		if (t_check(out, t_plots[i], fmt)) {
			n++;
			if (strstr(want, t_plots[i]) == NULL)
				fail_msg("%s: %s should be skipped", fixture,
				    t_plots[i]);
		} else if (strstr(want, t_plots[i]) != NULL)
			fail_msg("%s: %s.%s missing", fixture, t_plots[i],
			    fmt);
	}
	assert_int_equal(t_entries(out), n + 1);
	s = t_slurp(keep, NULL);
	assert_string_equal(s, "mine");
	free(s);
	report_free(&r);
	t_rmdir(root);
	free(root);
}

static void
test_png(void **state)
{
	(void)state;
	t_render("report-scan.json", "png", "latency-ws hit-fraction");
	t_render("report-limits.json", "png",
	    "iodepth bandwidth-bs timeline");
	t_render("report-nulls.json", "png", "latency-ws iodepth timeline");
	t_render("report-interrupted.json", "png", "latency-ws iodepth");
	t_render("report-sync.json", "png",
	    "latency-ws iodepth bandwidth-bs timeline commits");
}

static void
test_svg(void **state)
{
	(void)state;
	t_render("report-scan.json", "svg", "latency-ws hit-fraction");
	t_render("report-limits.json", "svg",
	    "iodepth bandwidth-bs timeline");
}

/* The timeline plot of r as SVG text (caller frees). */
static char *
t_timeline_svg(const struct report *r)
{
	char	*root, path[600], *cause = NULL, *s;

	root = t_tmpdir();
	if (report_plot(r, root, "svg", &cause) != 0)
		fail_msg("%s", cause);
	snprintf(path, sizeof path, "%s/timeline.svg", root);
	assert_non_null(s = t_slurp(path, NULL));
	t_rmdir(root);
	free(root);
	return (s);
}

/*
 * The timeline marks where the rate fell, not where a full bucket would
 * have run dry: the sweeps spent credits first, so a drop at 20 s in the
 * run belongs to a bucket lasting 21.3 s from full, labelled apart.  A
 * drop during the sweeps is marked on their clock, the sweeps plotted.
 */
static void
test_timeline_marks(void **state)
{
	struct report		 r;
	struct timeline_sample	 ts;
	char			*cause = NULL, *s;
	int			 i;

	(void)state;
	assert_int_equal(report_load(t_data("report-limits.json"), &r,
	    &cause), 0);
	r.limits->burst.duration_s = 21.3;
	s = t_timeline_svg(&r);
	assert_non_null(strstr(s, "rate fell at 20 s"));
	assert_non_null(strstr(s, "a full bucket lasts 21.3 s at 3,000 IOPS"));
	assert_null(strstr(s, "at 21 s"));
	free(s);

	memset(&ts, 0, sizeof ts);
	for (i = 0; i < 8; i++) {
		ts.t_s = 0.25 * (i + 1);
		ts.dt_s = 0.25;
		ts.iops = i < 6 ? 3000 : 300;
		timeline_add(&r.limits->sweep_timeline, &ts);
	}
	r.limits->sustain_start_s = 2.5;
	r.limits->burst.drop_t_s = NAN;
	r.limits->burst.drop_sweep_t_s = 1.5;
	s = t_timeline_svg(&r);
	assert_non_null(strstr(s, "rate fell at 2 s, during the sweeps"));
	assert_non_null(strstr(s, "first I/O of the sweeps"));
	free(s);
	report_free(&r);
}

static void
test_errors(void **state)
{
	struct report	 r;
	char		*cause = NULL, *root, *path;

	(void)state;
	assert_int_equal(report_load(t_data("report-scan.json"), &r, &cause),
	    0);
	root = t_tmpdir();
	assert_int_equal(report_plot(&r, root, "jpeg", &cause), -1);
	assert_non_null(strstr(cause, "png or svg"));
	free(cause);
	path = getenv("PATH") != NULL ? strdup(getenv("PATH")) : NULL;
	setenv("PATH", "/nonexistent", 1);
	assert_int_equal(report_plot(&r, root, "png", &cause), -1);
	assert_non_null(strstr(cause, "gnuplot-nox"));
	free(cause);
	if (path != NULL) {
		setenv("PATH", path, 1);
		free(path);
	}
	report_free(&r);
	/* outdir is created, parents too. */
	assert_int_equal(report_load(t_data("report-nulls.json"), &r, &cause),
	    0);
	assert_int_equal(asprintf(&path, "%s/new/dir", root) > 0, 1);
	assert_int_equal(report_plot(&r, path, "svg", &cause), 0);
	assert_int_equal(t_check(path, "latency-ws", "svg"), 1);
	free(path);
	report_free(&r);
	t_rmdir(root);
	free(root);
	root = t_tmpdir();
	/* A report with nothing to plot. */
	memset(&r, 0, sizeof r);
	assert_int_equal(report_plot(&r, root, "png", &cause), -1);
	assert_non_null(strstr(cause, "nothing to plot"));
	free(cause);
	assert_int_equal(t_entries(root), 0);
	t_rmdir(root);
	free(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_png),
		cmocka_unit_test(test_svg),
		cmocka_unit_test(test_timeline_marks),
		cmocka_unit_test(test_errors),
	};

	if (system("gnuplot --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "skip: gnuplot missing (Debian: gnuplot-nox)\n");
		return (77);
	}
	setenv("TIERPROBE_DATADIR", getenv("TOP_SRCDIR") != NULL ?
	    getenv("TOP_SRCDIR") : TP_SRCDIR, 1);
	log_set_quiet(1);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

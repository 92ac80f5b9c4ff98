/* SPDX-License-Identifier: ISC */
/*
 * Description: plan.c from real command lines: phases per command, the
 * engine (a simulated volume gets its own, nothing else about it differs;
 * a buffered scan reads by pread unless told, and says why when told),
 * the quick preset reaching the specs, bytes a file is grown to, an
 * existing file bounding the default scan, plan_fit's bounds and refusals,
 * and the limit sweeps' working set and prior work (the scan's points, then
 * its paced reads) after a scan.
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

#include "ceilings.h"
#include "cli.h"
#include "plan.h"

#define MiB	(1024ULL * 1024)
#define GiB	(1024 * MiB)

static char	*t_argv[32];
static char	 t_buf[512];

/* Parse line (without the program name) and plan it. */
static void
t_plan(const char *line, struct cli_opts *o, struct plan *pl)
{
	char	*cause = NULL, *w;
	int	 argc = 0;

	snprintf(t_buf, sizeof t_buf, "%s", line);
	t_argv[argc++] = (char *)(uintptr_t)"tierprobe";
	for (w = strtok(t_buf, " "); w != NULL; w = strtok(NULL, " "))
		t_argv[argc++] = w;
	t_argv[argc] = NULL;
	if (cli_parse(argc, t_argv, o, &cause) != 0)
		fail_msg("%s: %s", line, cause);
	plan_make(pl, o);
}

static void
t_done(struct cli_opts *o, struct plan *pl)
{
	plan_free(pl);
	cli_free(o);
}

/* Phases of each command; one plan target per operand. */
static void
test_phases(void **state)
{
	static const struct {
		const char	*line;
		unsigned	 phases;
	} cases[] = {
		{ "run sim:ebs-gp3", PLAN_SCAN | PLAN_LIMITS | PLAN_SYNC |
		    PLAN_WRITES },
		{ "scan sim:ebs-gp3", PLAN_SCAN },
		{ "limits sim:ebs-gp3", PLAN_LIMITS },
		{ "sync sim:ebs-gp3", PLAN_SYNC },
	};
	struct cli_opts	o;
	struct plan	pl;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_plan(cases[i].line, &o, &pl);
		assert_int_equal(pl.phases, cases[i].phases);
		assert_int_equal(pl.ntargets, 1);
		assert_string_equal(pl.target[0].spec, "sim:ebs-gp3");
		t_done(&o, &pl);
	}
}

/*
 * A simulated volume and a file planned with the same options differ only
 * in the engine, in what opening them needs, and in the first-read check
 * a volume gets as a device does: the same sustained run, sweeps and scan.
 */
static void
test_sim_no_privilege(void **state)
{
	struct cli_opts		 o;
	struct plan		 a, b;
	struct plan_target	*s, *f;

	(void)state;
	t_plan("run sim:ebs-gp2-100g --seed 7", &o, &a);
	cli_free(&o);
	t_plan("run /nonexistent/tierprobe-test.dat --seed 7 --engine psync",
	    &o, &b);
	s = &a.target[0];
	f = &b.target[0];
	assert_int_equal(s->type, TARGET_SIM);
	assert_int_equal(f->type, TARGET_FILE);
	assert_string_equal(s->engine, "sim");
	assert_string_equal(s->limits.engine, "sim");
	assert_string_equal(f->engine, "psync");
	assert_true(s->limits.sustain_s == 120);
	assert_true(f->limits.sustain_s == 120);
	s->limits.engine = f->limits.engine;
	assert_true(s->limits.first_touch && !f->limits.first_touch);
	s->limits.first_touch = 0;
	assert_memory_equal(&s->limits, &f->limits, sizeof s->limits);
	assert_memory_equal(&s->scan, &f->scan, sizeof s->scan);
	assert_int_equal(a.seed, 7);
	assert_int_equal(s->params.seed, 7);
	/* A file is grown to the largest working set; a volume is not. */
	assert_int_equal(f->params.need_bytes, 4 * GiB);
	assert_int_equal(s->params.need_bytes, 0);
	plan_free(&a);
	t_done(&o, &b);
}

/*
 * Device time the quick preset may take on a 1 GiB file, every point at
 * its limit: about a minute (the 120 s default sustained run alone would
 * pass it twice over).
 */
#define T_QUICK_MAX_S	70.0

/* The plan's device-time bound on its first target, a 1 GiB file. */
static double
t_quick_cost(const struct plan *pl)
{
	struct plan_cost	c;
	struct target		t;

	memset(&t, 0, sizeof t);
	t.type = TARGET_FILE;
	t.size = 1 * GiB;
	t.lbs = 512;
	plan_cost(pl, &pl->target[0], &t, &c);
	return (c.scan_s + c.sweeps_s + c.sustain_s + c.writes_s + c.sync_s);
}

/*
 * A buffered scan reads by pread unless --engine is given; the sweeps keep
 * io_uring, O_DIRECT keeps it everywhere, a simulated volume its own.  Only
 * a buffered scan through io_uring has a caveat (and only if it reads by
 * io_uring: not after a fall back to psync).
 */
static void
test_scan_engine(void **state)
{
	static const struct {
		const char	*line;
		const char	*engine, *scan_engine;
		int		 caveat;
	} t[] = {
		{ "scan /nonexistent/t.dat --buffered", "io_uring", "psync",
		  0 },
		{ "run /nonexistent/t.dat --buffered", "io_uring", "psync", 0 },
		{ "scan /nonexistent/t.dat --buffered --engine io_uring",
		  "io_uring", "io_uring", 1 },
		{ "run /nonexistent/t.dat --buffered --engine io_uring",
		  "io_uring", "io_uring", 1 },
		{ "limits /nonexistent/t.dat --buffered --engine io_uring",
		  "io_uring", "io_uring", 0 },
		{ "scan /nonexistent/t.dat", "io_uring", "io_uring", 0 },
		{ "scan /nonexistent/t.dat --engine psync", "psync", "psync",
		  0 },
		{ "scan sim:ebs-gp2-100g --buffered", "sim", "sim", 0 },
		{ "scan sim:ebs-gp2-100g --buffered --engine io_uring", "sim",
		  "sim", 0 },
	};
	struct cli_opts		 o;
	struct plan		 pl;
	struct plan_target	*pt;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		t_plan(t[i].line, &o, &pl);
		pt = &pl.target[0];
		assert_string_equal(pt->engine, t[i].engine);
		assert_string_equal(pt->scan_engine, t[i].scan_engine);
		assert_string_equal(pt->limits.engine, t[i].engine);
		if (t[i].caveat) {
			assert_non_null(plan_scan_caveat(&pl, pt,
			    pt->scan_engine));
			assert_null(plan_scan_caveat(&pl, pt, "psync"));
		} else
			assert_null(plan_scan_caveat(&pl, pt,
			    pt->scan_engine));
		t_done(&o, &pl);
	}
}

/* run without a target, or --quick: the preset reaches every spec. */
static void
test_quick(void **state)
{
	struct cli_opts		 o;
	struct plan		 pl;
	struct plan_target	*pt;
	char			 cwd[4096], dir[] = "/tmp/tp-plan.XXXXXX";

	(void)state;
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_non_null(mkdtemp(dir));
	assert_int_equal(chdir(dir), 0);
	t_plan("run", &o, &pl);
	pt = &pl.target[0];
	assert_string_equal(pt->spec, PLAN_DEFAULT_TARGET);
	assert_true(pt->remove);
	assert_int_equal(pt->scan.max_ws, 1 * GiB);
	assert_int_equal(pt->scan.points, 8);
	assert_true(pt->scan.max_time_s == 2 && pt->limits.max_time_s == 1);
	assert_int_equal(pt->limits.max_iodepth, 64);
	/* Deeper while read IOPS still rise, within the same bound. */
	assert_int_equal(pt->limits.deep_iodepth, 128);
	assert_true(pt->limits.sustain_s == 15);
	assert_true(pt->limits.sustain_min_s == LIMITS_SUSTAIN_QUICK_S);
	/* The write side and the commits: shorter points, writes that end. */
	assert_true(pt->writes.max_time_s == 1);
	assert_true(pt->writes.sustain_s > 0 && pt->writes.sustain_s <= 6);
	assert_true(pt->writes.sustain_min_s > 0 &&
	    pt->writes.sustain_min_s < pt->writes.sustain_s);
	assert_true(pt->writes.no_sustain && pt->writes.no_mixed);
	assert_true(pt->sync.max_time_s == 0.5);
	assert_int_equal(pt->sync.nsizes, 1);
	assert_int_equal(pt->sync.sizes[0], 8192);
	assert_int_equal(pt->sync.methods, 1U << SYNC_FDATASYNC |
	    1U << SYNC_FSYNC);
	/* Every cut is listed, and the whole run stays near a minute. */
	assert_int_equal(pt->cuts, (1U << PLAN_NCUTS) - 1);
	assert_true(t_quick_cost(&pl) <= T_QUICK_MAX_S);
	t_done(&o, &pl);

	/* Without the preset: nothing cut, every phase at its full length. */
	t_plan("run /tmp/tp-plan-full.dat", &o, &pl);
	assert_int_equal(pl.target[0].cuts, 0);
	assert_false(pl.target[0].writes.no_sustain);
	assert_true(t_quick_cost(&pl) > 2 * T_QUICK_MAX_S);
	t_done(&o, &pl);

	/* An option given keeps its part, and the list says so. */
	t_plan("run --methods all --bs 4K --writers 1,2", &o, &pl);
	pt = &pl.target[0];
	assert_false(pt->cuts & (1U << PLAN_CUT_COMMIT_METHODS |
	    1U << PLAN_CUT_FLUSH | 1U << PLAN_CUT_COMMIT_SIZES |
	    1U << PLAN_CUT_WRITERS));
	assert_true(pt->cuts & 1U << PLAN_CUT_WRITE_SUSTAIN);
	assert_int_equal(pt->sync.methods, SYNC_ALL_METHODS);
	assert_false(pt->sync.no_evidence || pt->sync.shared_only);
	t_done(&o, &pl);

	/* Options given win over the preset; --keep keeps the file. */
	t_plan("run --sustain 30 --points 4 --keep --max-iodepth 32", &o, &pl);
	pt = &pl.target[0];
	assert_int_equal(pt->limits.max_iodepth, 32);
	assert_int_equal(pt->limits.deep_iodepth, 0);
	assert_false(pt->remove);
	assert_int_equal(pt->scan.points, 4);
	assert_true(pt->limits.sustain_s == 30);
	assert_true(pt->limits.sustain_min_s == 0);
	assert_true(pt->writes.sustain_min_s == 0);
	t_done(&o, &pl);

	/* --quick: the preset on a target given, which stays. */
	t_plan("run sim:ebs-gp3 --quick", &o, &pl);
	pt = &pl.target[0];
	assert_string_equal(pt->spec, "sim:ebs-gp3");
	assert_false(pt->remove);
	assert_int_equal(pt->scan.points, 8);
	assert_true(pt->limits.sustain_s == 15);
	assert_true(pt->limits.sustain_min_s == LIMITS_SUSTAIN_QUICK_S);
	t_done(&o, &pl);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(rmdir(dir), 0);
}

/* An existing file bounds the default scan; an explicit --max-ws wins. */
static void
test_file_bounds(void **state)
{
	struct cli_opts	 o;
	struct plan	 pl;
	char		 path[] = "/tmp/tp-plan-file.XXXXXX", line[256];
	int		 fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 100 * MiB + 1000), 0);
	close(fd);
	snprintf(line, sizeof line, "scan %s", path);
	t_plan(line, &o, &pl);
	assert_int_equal(pl.target[0].scan.max_ws, 100 * MiB);
	assert_int_equal(pl.target[0].params.need_bytes, 100 * MiB);
	assert_int_equal(pl.target[0].params.write, 0);
	t_done(&o, &pl);
	/* The sweeps' working set (max-ws) and the first-touch span. */
	snprintf(line, sizeof line, "run %s --max-ws 200M --rw write "
	    "--first-touch", path);
	t_plan(line, &o, &pl);
	assert_int_equal(pl.target[0].params.write, 1);
	assert_int_equal(pl.target[0].params.need_bytes,
	    200 * MiB + LIMITS_FT_SPAN);
	t_done(&o, &pl);
	snprintf(line, sizeof line, "scan %s --max-ws 200M", path);
	t_plan(line, &o, &pl);
	assert_int_equal(pl.target[0].scan.max_ws, 200 * MiB);
	t_done(&o, &pl);
	unlink(path);
}

/* plan_fit: the scan within the target, said when cut; bs and min-ws
 * refused. */
static void
test_fit(void **state)
{
	struct cli_opts	 o;
	struct plan	 pl;
	struct target	 t;
	char		*cause = NULL;

	(void)state;
	memset(&t, 0, sizeof t);
	t.path = (char *)(uintptr_t)"vol";
	t.lbs = 4096;
	t.size = 3 * GiB + 512;
	t_plan("scan sim:x", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), 0);
	assert_int_equal(pl.target[0].scan.max_ws, 3 * GiB);
	assert_string_equal(pl.target[0].note, "");
	t_done(&o, &pl);

	/* Sizes given past the end are cut, and the note says so. */
	t_plan("run sim:x --max-ws 20T --ws 1P", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), 0);
	assert_int_equal(pl.target[0].scan.max_ws, 3 * GiB);
	assert_int_equal(pl.target[0].limits.ws_bytes, 3 * GiB);
	assert_non_null(strstr(pl.target[0].note, "--max-ws 20 TiB"));
	assert_non_null(strstr(pl.target[0].note, "--ws 1 PiB"));
	assert_non_null(strstr(pl.target[0].note, "3 GiB used"));
	t_done(&o, &pl);

	t_plan("scan sim:x --bs 512", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), -1);
	assert_non_null(strstr(cause, "--bs 512"));
	free(cause);
	t_done(&o, &pl);

	t.size = 8 * MiB;
	t_plan("scan sim:x", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), -1);
	assert_non_null(strstr(cause, "--min-ws"));
	free(cause);
	t_done(&o, &pl);
}

/* After a scan: sweeps past the last cache, the scan as prior work. */
static void
test_limits_after_scan(void **state)
{
	struct cli_opts		 o;
	struct plan		 pl;
	struct target		 t;
	struct scan_result	 scan;
	struct point		 pts[2];
	struct limits_spec	 ls;
	struct ceilings_prior	*prior;
	char			*cause = NULL;

	(void)state;
	memset(&t, 0, sizeof t);
	t.lbs = 4096;
	t.size = 100 * GiB;
	memset(&scan, 0, sizeof scan);
	memset(pts, 0, sizeof pts);
	pts[0].ios = 1000;
	pts[0].seconds = 1;
	pts[1].ios = 3000;
	pts[1].seconds = 2;
	scan.points = pts;
	scan.npoints = 2;
	scan.tiers.analysed = 1;
	scan.tiers.ntiers = 1;
	scan.tiers.tier[0].capacity_bytes = 1 * GiB;
	scan.tiers.tier[0].capacity_high_bytes = 1 * GiB + 4096 * 100 + 1;

	t_plan("run sim:x --max-ws 2G", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), 0);
	plan_limits(&pl.target[0], &t, &scan, &ls, &prior);
	/* Caches serve 2% of the sweeps' reads: 50 x the last one. */
	assert_int_equal(ls.ws_bytes, 50 * (1 * GiB + 4096 * 100));
	assert_int_equal(ls.cache_bytes, 1 * GiB + 4096 * 100 + 1);
	assert_true(fabs(ls.cache_share - 0.02) < 0.001);
	assert_int_equal(ls.first_touch_from, 2 * GiB);
	assert_int_equal(ls.nprior, 2);
	assert_ptr_equal(ls.prior, prior);
	assert_true(prior[1].ios == 3000 && prior[1].seconds == 2);
	free(prior);
	/* The scan's paced reads after its points, last: a bucket refills. */
	scan.after_ios = 150;
	scan.after_s = 8;
	plan_limits(&pl.target[0], &t, &scan, &ls, &prior);
	assert_int_equal(ls.nprior, 3);
	assert_true(prior[2].ios == 150 && prior[2].seconds == 8);
	free(prior);

	/* No scan: max-ws; --ws: as given; past the caches: in the target. */
	plan_limits(&pl.target[0], &t, NULL, &ls, &prior);
	assert_null(prior);
	assert_int_equal(ls.ws_bytes, 2 * GiB);
	assert_int_equal(ls.first_touch_from, 0);
	t_done(&o, &pl);
	t_plan("limits sim:x --ws 5G", &o, &pl);
	plan_limits(&pl.target[0], &t, NULL, &ls, &prior);
	assert_int_equal(ls.ws_bytes, 5 * GiB);
	t_done(&o, &pl);
	/*
	 * Where the volume is too small for that: all of it but what the
	 * first-touch test reads (a simulated volume gets it), and the
	 * caches' share at that size for the correction.
	 */
	t.size = 10 * GiB;
	t_plan("run sim:x", &o, &pl);
	assert_int_equal(plan_fit(&pl.target[0], &t, &cause), 0);
	scan.tiers.tier[0].capacity_high_bytes = 3 * GiB;
	plan_limits(&pl.target[0], &t, &scan, &ls, &prior);
	assert_int_equal(ls.ws_bytes, 10 * GiB - LIMITS_FT_SPAN);
	assert_true(fabs(ls.cache_share - 1.0 * GiB / ls.ws_bytes) < 1e-6);
	free(prior);
	t_done(&o, &pl);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_phases),
		cmocka_unit_test(test_sim_no_privilege),
		cmocka_unit_test(test_scan_engine),
		cmocka_unit_test(test_quick),
		cmocka_unit_test(test_file_bounds),
		cmocka_unit_test(test_fit),
		cmocka_unit_test(test_limits_after_scan),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

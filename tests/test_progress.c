/* SPDX-License-Identifier: ISC */
/*
 * progress.c: a live line redrawn with \r on a TTY, one line per finished
 * point otherwise, nothing when quiet; the ETA of a fixed-length phase,
 * points an adaptive scan adds, and a fill on one line.
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

#include "point.h"
#include "progress.h"

/* Point i of the phase: ws, iodepth qd, bs bytes, measured in full. */
static void
t_point(size_t i, uint64_t ws, unsigned qd, uint32_t bs)
{
	struct point	p;

	memset(&p, 0, sizeof p);
	p.ws_bytes = ws;
	p.bs = bs;
	p.iodepth = qd;
	p.iops = 12345;
	p.seconds = 2.5;
	p.lat_us.p50 = 75.2;
	p.lat_us.p99 = NAN;
	progress_point_start(i, &p);
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
}

/*
 * The live line in s that begins with prefix, followed by "elapsed M:SS
 * ETA ": its ETA ("?", "0:03"), or NULL.  The elapsed time is the wall
 * clock's, whatever the machine's speed: any is taken.  Returns a pointer
 * into a static buffer.
 */
static const char *
t_eta(const char *s, const char *prefix)
{
	static char	 eta[16];
	const char	*p = s;
	unsigned	 m, sec;
	int		 n;

	while ((p = strstr(p, prefix)) != NULL) {
		p += strlen(prefix);
		if (sscanf(p, "elapsed %u:%2u  ETA %15[^\r\n\033]%n", &m,
		    &sec, eta, &n) == 3)
			return (eta);
	}
	return (NULL);
}

static char *
t_run(int tty, int quiet)
{
	char	*buf = NULL;
	size_t	 len;
	FILE	*f;

	f = open_memstream(&buf, &len);
	progress_set_stream(f, tty);
	progress_init(quiet);
	progress_phase("scan", 2, PROGRESS_WS);
	t_point(0, (uint64_t)1 << 30, 1, 4096);
	t_point(1, (uint64_t)2 << 30, 1, 4096);
	progress_phase("iodepth", 1, PROGRESS_IODEPTH);
	t_point(0, (uint64_t)8 << 30, 32, 4096);
	progress_phase("block size", 1, PROGRESS_BS);
	t_point(0, (uint64_t)8 << 30, 64, 64 << 10);
	progress_phase("sustained", 1, PROGRESS_NONE);
	t_point(0, (uint64_t)8 << 30, 16, 4096);
	progress_end();
	fclose(f);
	return (buf);
}

static void
test_not_tty(void **state)
{
	char	*s;
	char	*nl;
	int	 lines = 0;

	(void)state;
	s = t_run(0, 0);
	assert_null(strchr(s, '\r'));
	for (nl = s; (nl = strchr(nl, '\n')) != NULL; nl++)
		lines++;
	assert_int_equal(lines, 5);
	assert_non_null(strstr(s, "scan 1/2: ws 1 GiB, 12,345 IOPS, p50 75.2 us, "
	    "p99 unknown"));
	assert_non_null(strstr(s, "scan 2/2: ws 2 GiB"));
	assert_non_null(strstr(s, "iodepth 1/1: iodepth 32"));
	assert_non_null(strstr(s, "block size 1/1: bs 64 KiB, 12,345 IOPS"));
	assert_non_null(strstr(s, "sustained 1/1: ws 8 GiB qd 16"));
	free(s);
}

static void
test_tty(void **state)
{
	char	*s;

	(void)state;
	s = t_run(1, 0);
	/* The live line: redrawn in place, then cleared. */
	assert_non_null(t_eta(s, "\r\033[Kscan 1/2  ws 1 GiB  12,345 IOPS  "
	    "p50 75.2 us  "));
	assert_string_equal(t_eta(s, "\r\033[Kscan 1/2  ws 1 GiB  12,345 "
	    "IOPS  p50 75.2 us  "), "?");
	/* After one finished point the ETA is known. */
	assert_non_null(t_eta(s, "\r\033[Kscan 2/2  ws 2 GiB  12,345 IOPS  "
	    "p50 75.2 us  "));
	assert_string_not_equal(t_eta(s, "\r\033[Kscan 2/2  ws 2 GiB  "
	    "12,345 IOPS  p50 75.2 us  "), "?");
	assert_non_null(strstr(s, "iodepth 1/1  iodepth 32"));
	assert_non_null(strstr(s, "block size 1/1  bs 64 KiB"));
	assert_non_null(strstr(s, "scan 1/2: ws 1 GiB"));
	free(s);
}

static void
test_quiet(void **state)
{
	char	*s;

	(void)state;
	s = t_run(1, 1);
	assert_string_equal(s, "");
	free(s);
	s = t_run(0, 1);
	assert_string_equal(s, "");
	free(s);
}

/* Output of f, run on a TTY or not, as a string (caller frees). */
static char *
t_capture(int tty, void (*f)(void))
{
	char	*buf = NULL;
	size_t	 len;
	FILE	*out;

	out = open_memstream(&buf, &len);
	progress_set_stream(out, tty);
	progress_init(0);
	f();
	progress_end();
	fclose(out);
	return (buf);
}

/* A sustained run: one point of known length. */
static void
t_fixed(void)
{
	struct point	p;

	memset(&p, 0, sizeof p);
	p.ws_bytes = (uint64_t)8 << 30;
	p.iodepth = 16;
	p.iops = 3000;
	p.lat_us.p50 = 5300;
	progress_phase("sustained", 1, PROGRESS_NONE);
	progress_phase_length(120);
	progress_point_start(0, &p);
	progress_update(&p, 30, NULL);
}

/* The ETA of a fixed-length phase is known from its first update. */
static void
test_fixed_eta(void **state)
{
	char	*s;

	(void)state;
	s = t_capture(1, t_fixed);
	assert_non_null(strstr(s, "sustained 1/1  ws 8 GiB qd 16  3,000 IOPS"));
	assert_null(strstr(s, "ETA ?"));
	free(s);
}

/* An adaptive scan that adds points says so, once per change. */
static void
t_grow(void)
{
	progress_phase("scan", 14, PROGRESS_WS);
	progress_set_total(14);
	progress_set_total(16);
	progress_set_total(17);
}

static void
test_added_points(void **state)
{
	char	*s;

	(void)state;
	s = t_capture(0, t_grow);
	assert_string_equal(s, "scan: 2 more points, where the curves bend "
	    "(16 in all)\nscan: 1 more point, where the curves bend (17 in "
	    "all)\n");
	free(s);
}

/* A sweep that ends early says so, and its total shrinks. */
static void
t_stop(void)
{
	progress_phase("iodepth", 9, PROGRESS_IODEPTH);
	progress_stop_at(9, "IOPS stopped rising");
	t_point(2, 0, 4, 4096);
	progress_stop_at(3, "IOPS stopped rising");
	progress_stop_at(3, "IOPS stopped rising");
}

static void
test_stopped_early(void **state)
{
	static const char	 said[] = "\niodepth: 3 of 9 points, IOPS "
				    "stopped rising\n";
	char			*s;
	size_t			 lines = 0, i;

	(void)state;
	s = t_capture(0, t_stop);
	assert_true(strncmp(s, "iodepth 3/9: ", 13) == 0);
	for (i = 0; s[i] != '\0'; i++)
		lines += s[i] == '\n';
	/* Two lines, the second the one said: it ends the output. */
	assert_int_equal(lines, 2);
	assert_non_null(strstr(s, said));
	free(s);
}

/* Commits: a size as given, a label for the point, commits/s. */
static void
t_commits(void)
{
	struct point	p;

	memset(&p, 0, sizeof p);
	p.bs = 2300;
	p.iodepth = 1;
	p.iops = 880;
	p.lat_us.p50 = 1120;
	p.lat_us.p99 = 1650;
	p.seconds = 0.5;
	progress_phase("fdatasync", 1, PROGRESS_BS);
	progress_point_start(0, &p);
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
	progress_phase("writers", 1, PROGRESS_IODEPTH);
	p.iodepth = 4;
	progress_point_start(0, &p);
	progress_point_label("4 writers, one shared log", "commits/s");
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
	/* The label and unit are the point's, not the next one's. */
	progress_phase("iodepth", 1, PROGRESS_IODEPTH);
	progress_point_start(0, &p);
	progress_point_done(&p);
}

static void
test_commits(void **state)
{
	char	*s;

	(void)state;
	s = t_capture(0, t_commits);
	assert_non_null(strstr(s, "fdatasync 1/1: bs 2300 B, 880 IOPS"));
	assert_non_null(strstr(s, "writers 1/1: 4 writers, one shared log, "
	    "880 commits/s, p50 1.12 ms"));
	assert_non_null(strstr(s, "iodepth 1/1: iodepth 4, 880 IOPS"));
	free(s);
	s = t_capture(1, t_commits);
	assert_non_null(strstr(s, "writers 1/1  4 writers, one shared log  "
	    "880 commits/s  p50 1.12 ms"));
	free(s);
}

/* A fill of 1 GiB in 1 MiB steps. */
static void
t_fill(void)
{
	uint64_t	done, total = (uint64_t)1 << 30;

	for (done = 0; done < total; done += 1 << 20)
		progress_fill("t.dat", done, total);
	progress_fill("t.dat", total, total);
}

/* Filling redraws one line on a TTY, ending with the total. */
static void
test_fill(void **state)
{
	char	*s, *nl;
	int	 lines = 0;

	(void)state;
	s = t_capture(1, t_fill);
	for (nl = s; (nl = strchr(nl, '\n')) != NULL; nl++)
		lines++;
	assert_int_equal(lines, 1);
	assert_non_null(strstr(s, "\r\033[Kfilling t.dat: 1 GiB of 1 GiB, "));
	assert_non_null(strstr(s, "ETA 0:00\n"));
	assert_true(strstr(s, "filling t.dat: 0 B of 1 GiB") == s);
	free(s);
	/* Off a TTY: the first line and one per tenth at most. */
	s = t_capture(0, t_fill);
	assert_null(strchr(s, '\r'));
	for (nl = s, lines = 0; (nl = strchr(nl, '\n')) != NULL; nl++)
		lines++;
	assert_true(lines >= 2 && lines <= 11);
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_tty),
		cmocka_unit_test(test_tty),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_fixed_eta),
		cmocka_unit_test(test_added_points),
		cmocka_unit_test(test_stopped_early),
		cmocka_unit_test(test_fill),
		cmocka_unit_test(test_commits),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

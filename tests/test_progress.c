/* SPDX-License-Identifier: ISC */
/*
 * progress.c: a live line redrawn with \r on a TTY, one line per finished
 * point otherwise, nothing when quiet.
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

static void
t_pt(struct point *p, uint64_t ws, unsigned qd)
{
	memset(p, 0, sizeof *p);
	p->ws_bytes = ws;
	p->bs = 4096;
	p->iodepth = qd;
	p->iops = 12345;
	p->seconds = 2.5;
	p->lat_us.p50 = 75.2;
	p->lat_us.p99 = NAN;
}

static char *
t_run(int tty, int quiet)
{
	struct point	 p;
	char		*buf = NULL;
	size_t		 len;
	FILE		*f;

	f = open_memstream(&buf, &len);
	progress_set_stream(f, tty);
	progress_init(quiet);
	progress_phase("scan", 2);
	t_pt(&p, (uint64_t)1 << 30, 1);
	progress_point_start(0, &p);
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
	t_pt(&p, (uint64_t)2 << 30, 1);
	progress_point_start(1, &p);
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
	progress_phase("iodepth", 1);
	t_pt(&p, (uint64_t)8 << 30, 32);
	progress_point_start(0, &p);
	progress_update(&p, 0.1, NULL);
	progress_point_done(&p);
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
	assert_int_equal(lines, 3);
	assert_non_null(strstr(s, "scan 1/2: ws 1 GiB, 12,345 IOPS, p50 75.2 us, "
	    "p99 unknown"));
	assert_non_null(strstr(s, "scan 2/2: ws 2 GiB"));
	assert_non_null(strstr(s, "iodepth 1/1: iodepth 32"));
	free(s);
}

static void
test_tty(void **state)
{
	char	*s;

	(void)state;
	s = t_run(1, 0);
	/* The live line: redrawn in place, then cleared. */
	assert_non_null(strstr(s, "\r\033[Kscan 1/2  ws 1 GiB  12,345 IOPS  "
	    "p50 75.2 us  elapsed 0:00  ETA ?"));
	/* After one finished point the ETA is known. */
	assert_non_null(strstr(s, "\r\033[Kscan 2/2  ws 2 GiB"));
	assert_null(strstr(s, "scan 2/2  ws 2 GiB  12,345 IOPS  p50 75.2 us  "
	    "elapsed 0:00  ETA ?"));
	assert_non_null(strstr(s, "iodepth 1/1  iodepth 32"));
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_not_tty),
		cmocka_unit_test(test_tty),
		cmocka_unit_test(test_quiet),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

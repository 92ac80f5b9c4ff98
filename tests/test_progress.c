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
	assert_non_null(strstr(s, "\r\033[Kscan 1/2  ws 1 GiB  12,345 IOPS  "
	    "p50 75.2 us  elapsed 0:00  ETA ?"));
	/* After one finished point the ETA is known. */
	assert_non_null(strstr(s, "\r\033[Kscan 2/2  ws 2 GiB"));
	assert_null(strstr(s, "scan 2/2  ws 2 GiB  12,345 IOPS  p50 75.2 us  "
	    "elapsed 0:00  ETA ?"));
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

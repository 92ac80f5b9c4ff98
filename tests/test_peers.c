/* SPDX-License-Identifier: ISC */
/*
 * peers.c on synthetic commits: etcd's bar is met just under 10 ms and
 * missed at it, read from fdatasync at one writer and the size nearest
 * 2300 bytes (never another method, never several writers); PostgreSQL's
 * method is the fastest of dsync/fdatasync/fsync at one size, mapped
 * (dsync is open_datasync; direct-dsync and uring-datasync, however
 * fast, are no PostgreSQL method), with a tie to fdatasync said and a
 * volatile flush said; when a bucket ran dry among the commits only the
 * rows of the empty state count.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bucket.h"
#include "peers.h"
#include "sync.h"
#include "writepath.h"

struct t_row {
	int		 method;
	uint32_t	 bs;
	unsigned	 writers;
	double		 iops;
	double		 p99_us;
	int		 state;
};

/* Fill s from n rows (ci95_rel 1%); s->rows points into rows. */
static void
t_sync(struct sync_result *s, struct commit_point *rows,
    const struct t_row *t, size_t n)
{
	size_t	i;

	memset(s, 0, sizeof *s);
	memset(rows, 0, n * sizeof *rows);
	for (i = 0; i < n; i++) {
		rows[i].method = t[i].method;
		rows[i].bs = t[i].bs;
		rows[i].writers = t[i].writers;
		rows[i].pt.ios = 1000;
		rows[i].pt.iops = t[i].iops;
		rows[i].pt.ci95_rel = 0.01;
		rows[i].pt.lat_us.p99 = t[i].p99_us;
		rows[i].pt.state = t[i].state;
	}
	s->rows = rows;
	s->nrows = n;
	s->best_method = -1;
	s->flush.suspect = 0;
	s->state = BUCKET_MAY_BE_FULL;
}

/* etcd: the bar at 10 ms, the row it reads. */
static void
test_etcd(void **state)
{
	static const struct {
		struct t_row	rows[4];
		size_t		n;
		int		met;		/* -1: no row */
		uint32_t	bs;		/* of the row read */
	} cases[] = {
		/* Just under the bar; another method faster, ignored. */
		{ { { SYNC_FDATASYNC, 2300, 1, 100, 9999, 2 },
		    { SYNC_DSYNC, 2300, 1, 900, 100, 2 } }, 2, 1, 2300 },
		/* At the bar: missed ("under 10 ms"). */
		{ { { SYNC_FDATASYNC, 2300, 1, 100, 10000, 2 } }, 1, 0, 2300 },
		/* Several writers are not etcd's WAL. */
		{ { { SYNC_FDATASYNC, 2300, 16, 100, 20000, 2 },
		    { SYNC_FDATASYNC, 2300, 1, 100, 500, 2 } }, 2, 1, 2300 },
		/* No 2300-byte row: the nearest size, 4K before 8K. */
		{ { { SYNC_FDATASYNC, 8192, 1, 100, 500, 2 },
		    { SYNC_FDATASYNC, 4096, 1, 100, 20000, 2 } }, 2, 0, 4096 },
		/* No fdatasync at all. */
		{ { { SYNC_FSYNC, 2300, 1, 100, 500, 2 } }, 1, -1, 0 },
	};
	struct sync_result	s;
	struct commit_point	rows[4];
	struct peers_etcd	e;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_sync(&s, rows, cases[i].rows, cases[i].n);
		peers_etcd(&s, &e);
		if (e.met != cases[i].met)
			fail_msg("case %zu: met %d, want %d", i, e.met,
			    cases[i].met);
		if (cases[i].met >= 0 && (e.row == NULL ||
		    e.row->bs != cases[i].bs ||
		    e.row->method != SYNC_FDATASYNC || e.row->writers != 1))
			fail_msg("case %zu: wrong row", i);
	}
	peers_etcd(NULL, &e);
	assert_int_equal(e.met, -1);
	assert_null(e.row);
}

/* PostgreSQL: the fastest mapped method at one size. */
static void
test_pg(void **state)
{
	static const struct {
		struct t_row	rows[5];
		size_t		n;
		int		method;
		int		tied;
		int		suspect;
	} cases[] = {
		/* dsync fastest: open_datasync; direct-dsync ignored. */
		{ { { SYNC_FDATASYNC, 8192, 1, 100, 1, 2 },
		    { SYNC_DSYNC, 8192, 1, 200, 1, 2 },
		    { SYNC_FSYNC, 8192, 1, 90, 1, 2 },
		    { SYNC_DIRECT_DSYNC, 8192, 1, 900, 1, 2 },
		    { SYNC_URING_DATASYNC, 8192, 1, 950, 1, 2 } }, 5,
		  PEERS_PG_OPEN_DATASYNC, 0, 0 },
		/* fsync ahead by less than the noise: tied with fdatasync. */
		{ { { SYNC_FDATASYNC, 8192, 1, 100, 1, 2 },
		    { SYNC_FSYNC, 8192, 1, 101, 1, 2 } }, 2, PEERS_PG_FSYNC,
		  1, 0 },
		/* Faster at another size does not count: one size for all. */
		{ { { SYNC_FDATASYNC, 8192, 1, 100, 1, 2 },
		    { SYNC_FSYNC, 4096, 1, 500, 1, 2 },
		    { SYNC_FSYNC, 8192, 1, 50, 1, 2 } }, 3,
		  PEERS_PG_FDATASYNC, 0, 0 },
		/* A volatile flush: said. */
		{ { { SYNC_FDATASYNC, 8192, 1, 100, 1, 2 } }, 1,
		  PEERS_PG_FDATASYNC, 0, 1 },
		/* Only methods PostgreSQL lacks. */
		{ { { SYNC_DIRECT_DSYNC, 8192, 1, 100, 1, 2 } }, 1, -1, 0, 0 },
	};
	struct sync_result	s;
	struct commit_point	rows[5];
	struct peers_pg		p;
	size_t			i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		t_sync(&s, rows, cases[i].rows, cases[i].n);
		s.flush.suspect = cases[i].suspect;
		peers_pg(&s, &p);
		if (p.method != cases[i].method)
			fail_msg("case %zu: %s, want %s", i,
			    peers_pg_name(p.method) ? peers_pg_name(p.method) :
			    "none", peers_pg_name(cases[i].method) ?
			    peers_pg_name(cases[i].method) : "none");
		if (p.tied_default != cases[i].tied)
			fail_msg("case %zu: tied %d", i, p.tied_default);
		if (cases[i].method >= 0 && p.unsafe != cases[i].suspect)
			fail_msg("case %zu: unsafe %d", i, p.unsafe);
	}
	assert_string_equal(peers_pg_name(PEERS_PG_OPEN_DATASYNC),
	    "open_datasync");
	assert_null(peers_pg_name(PEERS_PG_NMETHODS));
}

/* A bucket ran dry among the commits: the rows of the empty state. */
static void
test_drained(void **state)
{
	static const struct t_row t[] = {
		{ SYNC_FSYNC, 8192, 1, 3000, 400, BUCKET_FULL },
		{ SYNC_FDATASYNC, 2300, 1, 3000, 400, BUCKET_FULL },
		{ SYNC_FDATASYNC, 8192, 1, 3000, 400, BUCKET_FULL },
	};
	struct sync_result	s;
	struct commit_point	rows[3];
	struct peers_etcd	e;
	struct peers_pg		p;

	(void)state;
	t_sync(&s, rows, t, 3);
	s.state = BUCKET_DRAINING;
	s.again = rows[2];
	s.again.pt.iops = 300;
	s.again.pt.lat_us.p99 = 12000;
	s.again.pt.state = BUCKET_EMPTY;
	peers_pg(&s, &p);
	assert_int_equal(p.method, PEERS_PG_FDATASYNC);
	assert_ptr_equal(p.row, &s.again);
	peers_etcd(&s, &e);
	assert_ptr_equal(e.row, &s.again);
	assert_int_equal(e.met, 0);
	/* Not drained: the rows as they are. */
	s.state = BUCKET_MAY_BE_FULL;
	s.again.pt.state = BUCKET_MAY_BE_FULL;
	peers_etcd(&s, &e);
	assert_int_equal(e.row->bs, 2300);
	assert_int_equal(e.met, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_etcd),
		cmocka_unit_test(test_pg),
		cmocka_unit_test(test_drained),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}

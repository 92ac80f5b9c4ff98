/* SPDX-License-Identifier: ISC */
/*
 * Description: scan_run on simulated volumes, for what it decides and
 * costs rather than how well it finds tiers (bench/tiers-accuracy.sh and
 * tests/sim-tiers.sh do that): the tiers it returns are the fit of every
 * point as measured, although it fits them once a point (plus the largest
 * point's top-ups), not after every top-up, also when a budget stops it;
 * a linear grid is fitted once; the same seed gives the same scan.  And
 * a buffered target read at random (target_advise_random, as a scan reads
 * it) brings in only the block read, no read-ahead, until advised again.
 */
#include <sys/mman.h>

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "progress.h"
#include "rng.h"
#include "scan.h"
#include "t_sim.h"
#include "target.h"
#include "tiers.h"

#define MiB	(1024ULL * 1024)

/* Scan profile name with spec and seed into res. */
static void
t_scan(const char *name, const struct scan_spec *sp, uint64_t seed,
    struct scan_result *res)
{
	struct target	t;
	struct engine	e;
	struct rng	r;

	t_sim_open(&t, name, seed);
	assert_int_equal(engine_open(&e, "sim", &t, sp->iodepth, 1 << 20, 1),
	    0);
	rng_seed(&r, seed);
	assert_int_equal(scan_run(&e, &r, sp, res), 0);
	engine_close(&e);
	target_close(&t, 0);
}

static void
t_spec(struct scan_spec *sp, unsigned points, uint64_t step)
{
	memset(sp, 0, sizeof *sp);
	sp->min_ws = 64 * MiB;
	sp->max_ws = 4096 * MiB;
	sp->points = points;
	sp->step = step;
	sp->bs = 4096;
	sp->iodepth = 1;
	sp->precision = 0.02;
	sp->max_time_s = 10;
	sp->align = 4096;
}

/* The tiers of res are what a fit of its points gives now. */
static void
t_fresh(const struct scan_result *res)
{
	struct tiers_result	fresh;
	size_t			i;

	tiers_result_init(&fresh);
	tiers_analyse(res->points, res->npoints, &fresh);
	assert_int_equal(fresh.fitted, res->tiers.fitted);
	assert_int_equal(fresh.ntiers, res->tiers.ntiers);
	for (i = 0; i < fresh.ntiers; i++) {
		assert_true(fresh.tier[i].capacity_bytes ==
		    res->tiers.tier[i].capacity_bytes);
		assert_true(fresh.tier[i].lat_us_p50 ==
		    res->tiers.tier[i].lat_us_p50);
	}
	tiers_result_free(&fresh);
}

/*
 * Adaptive scans of a three-level volume (two caches, points added where
 * the capacities are, most points topped up): fits are one a point and a
 * few for the largest point's top-ups, not one more per topped point, and
 * the result is current.
 */
static void
test_adaptive_fits(void **state)
{
	struct scan_spec	sp;
	struct scan_result	res;
	uint64_t		seed;
	size_t			i, topped;

	(void)state;
	t_spec(&sp, 16, 0);
	for (seed = 1; seed <= 3; seed++) {
		t_scan("classic-three-level", &sp, seed, &res);
		assert_int_equal(res.tiers.ntiers, 2);
		assert_true(res.npoints >= 16);
		/* Past a first look of 400 reads (SCAN_FIRST_IOS): topped. */
		for (topped = i = 0; i < res.npoints; i++)
			topped += res.points[i].ios > 400;
		assert_true(topped >= res.npoints / 2);
		if (res.analyses > res.npoints + 4)
			fail_msg("seed %llu: %u fits for %zu points, %zu of "
			    "them topped up", (unsigned long long)seed,
			    res.analyses, res.npoints, topped);
		t_fresh(&res);
		scan_result_free(&res);
	}
}

/* A budget that stops the scan between top-ups leaves the fit current. */
static void
test_budget_fit(void **state)
{
	struct scan_spec	sp;
	struct scan_result	res;
	double			budget;

	(void)state;
	t_spec(&sp, 16, 0);
	for (budget = 10; budget <= 40; budget += 15) {
		sp.budget_s = budget;
		t_scan("classic-three-level", &sp, 5, &res);
		assert_true(res.npoints > 0);
		assert_true(res.analyses <= res.npoints + 4);
		t_fresh(&res);
		scan_result_free(&res);
	}
}

/* A linear grid is fitted once, at the end. */
static void
test_linear_fit(void **state)
{
	struct scan_spec	sp;
	struct scan_result	res;

	(void)state;
	t_spec(&sp, 0, 512 * MiB);
	sp.max_time_s = 2;
	t_scan("classic-three-level", &sp, 4, &res);
	assert_int_equal(res.npoints, 8);
	assert_int_equal(res.analyses, 1);
	t_fresh(&res);
	scan_result_free(&res);
}

/* The same seed, the same scan. */
static void
test_same_seed(void **state)
{
	struct scan_spec	sp;
	struct scan_result	a, b;
	size_t			i;

	(void)state;
	t_spec(&sp, 8, 0);
	t_scan("classic-three-level", &sp, 9, &a);
	t_scan("classic-three-level", &sp, 9, &b);
	assert_int_equal(a.npoints, b.npoints);
	assert_int_equal(a.analyses, b.analyses);
	assert_true(a.device_time_s == b.device_time_s);
	for (i = 0; i < a.npoints; i++) {
		assert_int_equal(a.points[i].ws_bytes, b.points[i].ws_bytes);
		assert_int_equal(a.points[i].ios, b.points[i].ios);
		assert_memory_equal(a.points[i].hist, b.points[i].hist,
		    sizeof *a.points[i].hist);
	}
	scan_result_free(&a);
	scan_result_free(&b);
}

/* Pages of fd's first bytes in the page cache after one 4 KiB read at 0. */
static size_t
t_read_pages(int fd, size_t bytes)
{
	unsigned char	 vec[256];
	char		 buf[4096];
	void		*m;
	size_t		 i, n = 0;

	assert_true(bytes / 4096 <= sizeof vec);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	assert_int_equal(pread(fd, buf, sizeof buf, 0), sizeof buf);
	m = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
	assert_true(m != MAP_FAILED);
	assert_int_equal(mincore(m, bytes, vec), 0);
	munmap(m, bytes);
	for (i = 0; i < bytes / 4096; i++)
		n += vec[i] & 1;
	return (n);
}

static void
test_buffered_random(void **state)
{
	static char	 buf[1 << 20];
	struct target	 t;
	char		 path[] = "tp-advise.XXXXXX";
	size_t		 normal;

	(void)state;
	memset(&t, 0, sizeof t);
	t.type = TARGET_FILE;
	if ((t.fd = mkstemp(path)) < 0)
		skip();
	unlink(path);
	memset(buf, 'x', sizeof buf);
	assert_int_equal(write(t.fd, buf, sizeof buf), sizeof buf);
	assert_int_equal(fsync(t.fd), 0);
	if (t_read_pages(t.fd, sizeof buf) < 2) {
		close(t.fd);
		skip();		/* tmpfs, or no read-ahead here */
	}
	assert_int_equal(target_advise_random(&t, 1), 0);
	assert_int_equal(t_read_pages(t.fd, sizeof buf), 1);
	assert_int_equal(target_advise_random(&t, 0), 0);
	normal = t_read_pages(t.fd, sizeof buf);
	assert_true(normal > 1);
	/* O_DIRECT and simulated targets have no read-ahead to turn off. */
	t.direct = 1;
	assert_int_equal(target_advise_random(&t, 1), 0);
	assert_int_equal(t_read_pages(t.fd, sizeof buf), normal);
	close(t.fd);
	t.type = TARGET_SIM;
	t.fd = -1;
	assert_int_equal(target_advise_random(&t, 1), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adaptive_fits),
		cmocka_unit_test(test_budget_fit),
		cmocka_unit_test(test_linear_fit),
		cmocka_unit_test(test_same_seed),
		cmocka_unit_test(test_buffered_random),
	};

	progress_init(1);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

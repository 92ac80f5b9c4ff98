/* SPDX-License-Identifier: ISC */
/* Tests for ceilings.c and the knee fit in fit.c on synthetic sweeps:
 * rate caps, unsaturated devices, host-bound plateaus (a lower bound,
 * then), accounting sizes (a candidate from the sweep, told from a
 * bandwidth cap of the same rates by the probe at 1.5 units), bandwidth
 * caps, a plateau still creeping up
 * (the ceiling never below a point, its interval holding them all), the
 * store's ceiling behind caches whose hits do not wait for it, burst
 * buckets (with credits spent before the run, or run dry during the
 * sweeps; what a run without a drop rules out; when a short run's rate
 * held), variability, first-read penalties (and second reads slower,
 * which compare states, not reads); 20 noise seeds each. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ceilings.h"
#include "fit.h"
#include "hist.h"
#include "point.h"
#include "rng.h"
#include "t_rel.h"
#include "timeline.h"

#define T_SEEDS		20
#define KiB		1024.0
#define MiB		(1024.0 * 1024.0)

/* A volume as the synthetic sweeps see it. */
struct t_vol {
	const char	*name;
	double		 lat0_us;	/* 4 KiB, idle */
	double		 conc;		/* I/Os served in parallel */
	double		 iops_cap;	/* INFINITY: none */
	double		 bw_cap;	/* bytes/s; INFINITY: none */
	double		 acct;		/* bytes; 0: none */
	double		 dev_bw;	/* transfer rate per I/O, bytes/s */
	double		 cpu_cap;	/* IOPS at which our CPU is saturated */
	unsigned	 engine_depth;	/* most I/Os the engine keeps in flight */
	double		 noise;		/* relative sd of each point */
};

/* IOPS of v at (depth, bs), noise-free, with what bounds it. */
static double
t_iops(const struct t_vol *v, unsigned depth, double bs, double *cpu)
{
	double	lat, d, units, r;

	d = depth < v->engine_depth ? depth : v->engine_depth;
	lat = v->lat0_us * 1e-6 + (bs - 4096) / v->dev_bw;
	r = fmin(d, v->conc) / lat;
	units = v->acct > 0 ? ceil(bs / v->acct) : 1;
	r = fmin(r, v->iops_cap / units);
	r = fmin(r, v->bw_cap / bs);
	r = fmin(r, v->cpu_cap);
	*cpu = 0.15 + 0.85 * r / v->cpu_cap;
	return (r);
}

static void
t_point(const struct t_vol *v, struct rng *rng, unsigned depth, double bs,
    struct point *p)
{
	double	cpu, iops;

	memset(p, 0, sizeof *p);
	iops = t_iops(v, depth, bs, &cpu) * (1 + v->noise * rng_normal(rng));
	p->iodepth = depth;
	p->bs = bs;
	p->iops = iops;
	p->bytes_per_s = iops * bs;
	p->seconds = 5;
	p->ios = iops * 5;
	p->ci95_rel = 1.96 * v->noise;
	p->cpu_util = cpu;
	/* Little's law with the depth the engine really kept. */
	p->lat_us.mean = 1e6 * (depth < v->engine_depth ? depth :
	    v->engine_depth) / iops;
}

static size_t
t_qd_sweep(const struct t_vol *v, struct rng *rng, unsigned max_depth,
    struct point *pts)
{
	unsigned	d;
	size_t		n = 0;

	for (d = 1; d <= max_depth; d *= 2)
		t_point(v, rng, d, 4096, &pts[n++]);
	return (n);
}

static size_t
t_bs_sweep(const struct t_vol *v, struct rng *rng, unsigned depth,
    double top, struct point *pts)
{
	double	bs;
	size_t	n = 0;

	for (bs = 4096; bs <= top; bs *= 2)
		t_point(v, rng, depth, bs, &pts[n++]);
	return (n);
}

/*
 * No point of a sweep lies above the ceiling's interval, nor above the
 * ceiling by more than twice its own 95% error.
 */
static void
t_not_below(const char *what, const struct point *pts, size_t n, int bw,
    double c, double hi)
{
	double	y;
	size_t	i;

	for (i = 0; i < n; i++) {
		y = bw ? pts[i].bytes_per_s : pts[i].iops;
		if (c < y * (1 - 2 * pts[i].ci95_rel) || hi < y)
			fail_msg("%s: ceiling %.6g (high %.6g) below a point of "
			    "%.6g +- %.1f%%", what, c, hi, y,
			    100 * pts[i].ci95_rel);
	}
}

#define T_NOCAP	INFINITY

static void
t_fit_knee(void **state)
{
	double		x[9], y[9], ys[9];
	struct fit_knee	fk;
	size_t		i;

	(void)state;
	for (i = 0; i < 9; i++) {
		x[i] = 1 << i;
		y[i] = fmin(x[i] / 500e-6, 3000);	/* knee at 1.5 */
		ys[i] = 2000 * x[i] / pow(1 + pow(x[i] / 16, 3), 1 / 3.0);
	}
	assert_int_equal(fit_knee(x, y, 9, &fk), 0);
	T_REL(fk.ceiling, 3000, 0.01);
	T_REL(fk.slope, 2000, 0.05);
	T_REL(fk.knee_x, 1.5, 0.05);

	assert_int_equal(fit_knee(x, ys, 9, &fk), 0);
	T_REL(fk.ceiling, 32000, 0.01);
	T_REL(fk.slope, 2000, 0.01);
	T_REL(fk.sharpness, 3, 0.02);
	assert_true(fk.rms_log < 1e-4);

	/* Too few points, or nothing positive. */
	assert_int_equal(fit_knee(x, y, 2, &fk), -1);
	for (i = 0; i < 9; i++)
		ys[i] = 0;
	assert_int_equal(fit_knee(x, ys, 9, &fk), -1);
}

static const struct {
	struct t_vol			 v;
	unsigned			 max_depth;
	enum ceilings_iops_limit	 limit;
	double				 ceiling;	/* NAN: none */
	unsigned			 knee;		/* 0: don't check */
} t_qd_cases[] = {
	{ { "gp2 burst", 500, 64, 3000, T_NOCAP, 0, 1e9, 1e6, 1024, 0.02 },
	    256, CEILINGS_IOPS_CAP, 3000, 2 },
	{ { "capped at depth 1", 200, 64, 300, T_NOCAP, 0, 1e9, 1e6, 1024,
	    0.02 }, 256, CEILINGS_IOPS_CAP, 300, 1 },
	{ { "io1 16k", 500, 64, 16000, T_NOCAP, 0, 1e9, 1e6, 1024, 0.02 },
	    256, CEILINGS_IOPS_CAP, 16000, 8 },
	{ { "device parallelism", 100, 32, T_NOCAP, T_NOCAP, 0, 1e9, 1e6,
	    1024, 0.02 }, 256, CEILINGS_IOPS_CAP, 320000, 32 },
	{ { "nvme unsaturated", 80, 4096, T_NOCAP, T_NOCAP, 0, 1e9, 1e7,
	    1024, 0.02 }, 256, CEILINGS_IOPS_UNSATURATED, NAN, 0 },
	{ { "our cpu", 80, 4096, T_NOCAP, T_NOCAP, 0, 1e9, 60000, 1024,
	    0.02 }, 256, CEILINGS_IOPS_CPU, NAN, 0 },
	{ { "psync, depth 1 only", 300, 64, T_NOCAP, T_NOCAP, 0, 1e9, 1e6,
	    1, 0.02 }, 64, CEILINGS_IOPS_QUEUE, NAN, 0 },
};

static void
t_iops_cases(void **state)
{
	struct point		pts[16];
	struct ceilings_iops	c;
	struct rng		rng;
	size_t			i, n;
	uint64_t		seed;

	(void)state;
	for (i = 0; i < sizeof t_qd_cases / sizeof t_qd_cases[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			n = t_qd_sweep(&t_qd_cases[i].v, &rng,
			    t_qd_cases[i].max_depth, pts);
			assert_int_equal(ceilings_iops(pts, n, &c), 0);
			if (c.limit != t_qd_cases[i].limit) {
				fail_msg("%s seed %d: limit %s",
				    t_qd_cases[i].v.name, (int)seed,
				    ceilings_iops_limit_name(c.limit));
			}
			assert_true(c.max_seen > 0);
			if (isnan(t_qd_cases[i].ceiling)) {
				/* No cap: the most seen, a lower bound. */
				assert_true(c.at_least);
				assert_true(c.ceiling == c.max_seen);
				assert_true(c.ceiling_low <= c.ceiling);
				assert_true(isnan(c.ceiling_high));
				assert_int_equal(c.knee_iodepth, 0);
				continue;
			}
			assert_false(c.at_least);
			T_REL(c.ceiling, t_qd_cases[i].ceiling, 0.05);
			assert_true(c.ceiling_low <= c.ceiling &&
			    c.ceiling <= c.ceiling_high);
			t_not_below(t_qd_cases[i].v.name, pts, n, 0, c.ceiling,
			    c.ceiling_high);
			if (t_qd_cases[i].knee != 0 &&
			    c.knee_iodepth != t_qd_cases[i].knee) {
				fail_msg("%s seed %d: knee %u, want %u",
				    t_qd_cases[i].v.name, (int)seed,
				    c.knee_iodepth, t_qd_cases[i].knee);
			}
		}
	}
}

/*
 * A sweep goes deeper than planned only while IOPS still rise over its
 * last doubling: a volume serving 4096 at once is rising at 64 and 128,
 * one serving 64 at once at 64 and no more at 128, a 16,000 IOPS cap and
 * a device serving 32 at once are not rising at 64.
 */
static void
t_iops_rising(void **state)
{
	static const struct {
		struct t_vol	 v;
		unsigned	 depth;		/* the deepest swept */
		int		 rising;
	} t[] = {
		{ { "nvme unsaturated", 80, 4096, T_NOCAP, T_NOCAP, 0, 1e9,
		    1e7, 1024, 0.02 }, 64, 1 },
		{ { "nvme unsaturated", 80, 4096, T_NOCAP, T_NOCAP, 0, 1e9,
		    1e7, 1024, 0.02 }, 128, 1 },
		{ { "64 at once", 100, 64, T_NOCAP, T_NOCAP, 0, 1e9, 1e7,
		    1024, 0.02 }, 64, 1 },
		{ { "64 at once", 100, 64, T_NOCAP, T_NOCAP, 0, 1e9, 1e7,
		    1024, 0.02 }, 128, 0 },
		{ { "io1 16k", 500, 64, 16000, T_NOCAP, 0, 1e9, 1e6, 1024,
		    0.02 }, 64, 0 },
		{ { "device parallelism", 100, 32, T_NOCAP, T_NOCAP, 0, 1e9,
		    1e6, 1024, 0.02 }, 64, 0 },
	};
	struct point	pts[16];
	struct rng	rng;
	size_t		i, n;
	uint64_t	seed;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			n = t_qd_sweep(&t[i].v, &rng, t[i].depth, pts);
			if (ceilings_iops_rising(pts, n) != t[i].rising)
				fail_msg("%s to %u, seed %d: rising %d", t[i].v.name,
				    t[i].depth, (int)seed, !t[i].rising);
		}
	}
	assert_false(ceilings_iops_rising(pts, 1));
}

/*
 * An iodepth sweep at depths 1, 2, 4 ...: mean latency as given, or as
 * Little's law makes it (lat_us NULL); 95% errors as given, or 2% (ci
 * NULL); the CPU share cpu.
 */
static void
t_depth_sweep(struct point *pts, size_t n, const double *iops,
    const double *lat_us, const double *ci, double cpu)
{
	size_t	i;

	memset(pts, 0, n * sizeof *pts);
	for (i = 0; i < n; i++) {
		pts[i].iodepth = 1U << i;
		pts[i].iops = iops[i];
		pts[i].lat_us.mean = lat_us != NULL ? lat_us[i] :
		    1e6 * pts[i].iodepth / iops[i];
		pts[i].ci95_rel = ci != NULL ? ci[i] : 0.02;
		pts[i].cpu_util = cpu;
	}
}

/*
 * A fast real disk on a busy machine: past the knee the plateau wanders
 * (90.9k at depth 16, 88k, 92.5k, then 98.1k at 128, each +-2%).  The
 * ceiling is not put at the plateau's median, 5% below the 98.1k a point
 * measured, and its interval holds every point.
 */
static void
t_iops_creeping(void **state)
{
	static const double	iops[] = { 19500, 37000, 66000, 84000, 90917,
				    88000, 92500, 98087 };
	struct point		pts[8];
	struct ceilings_iops	c;

	(void)state;
	t_depth_sweep(pts, 8, iops, NULL, NULL, 0.5);
	assert_int_equal(ceilings_iops(pts, 8, &c), 0);
	assert_int_equal(c.limit, CEILINGS_IOPS_CAP);
	assert_false(c.at_least);
	t_not_below("creeping", pts, 8, 0, c.ceiling, c.ceiling_high);
	assert_true(c.ceiling >= 98087 * 0.95);
	assert_true(c.ceiling_low <= c.ceiling);
	assert_true(c.ceiling <= 98087 * 1.02);
}

/*
 * A file on this machine's disk while others ran (limits --max-time 1):
 * depth 256 measured 30% under 128, within both points' wide intervals.
 * That is noise, not a bucket running dry: no fall, no "still rising at
 * the deepest queue", and the ceiling with its interval holds the points.
 */
static void
t_iops_noisy(void **state)
{
	static const double	iops[] = { 12876, 24776, 29518, 39659, 47879,
				    50873, 48957, 57376, 40193 };
	static const double	lat_us[] = { 77.1, 74.1, 115, 166, 266, 502,
				    1070, 1830, 5480 };
	static const double	ci[] = { 0.121, 0.151, 0.159, 0.165, 0.173,
				    0.157, 0.150, 0.209, 0.137 };
	struct point		pts[9];
	struct ceilings_iops	c;

	(void)state;
	t_depth_sweep(pts, 9, iops, lat_us, ci, 0.3);
	assert_int_equal(ceilings_iops(pts, 9, &c), 0);
	assert_int_equal(c.fell_iodepth, 0);
	assert_true(c.limit != CEILINGS_IOPS_UNSATURATED);
	if (!c.at_least)
		t_not_below("noisy", pts, 9, 0, c.ceiling, c.ceiling_high);
	assert_true(c.ceiling_low <= 50873 && c.ceiling >= 40193);
}

/*
 * Caches served a share h of a sweep's reads: corrected only when the
 * hits stayed fast at the deepest point (they did not wait for the limit).
 */
static void
t_cache_correct(void **state)
{
	static const struct {
		const char	*name;
		double		 h;
		double		 fast;	/* share of the deepest point's reads
					   at 200 us, the rest at 20 ms */
		int		 corrected;
	} cases[] = {
		{ "hits beside a busy store", 0.25, 0.25, 1 },
		{ "hits queued behind a cap", 0.25, 0, 0 },
		{ "the plan's 2%", 0.02, 0.02, 1 },
		{ "a negligible share", 0.003, 0.003, 0 },
	};
	struct point		pts[2];
	struct hist		h[2];
	struct ceilings_iops	c;
	size_t			i, k;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(pts, 0, sizeof pts);
		for (k = 0; k < 2; k++) {
			hist_init(&h[k]);
			pts[k].iodepth = 1 + 7 * k;
			pts[k].hist = &h[k];
		}
		for (k = 0; k < 1000; k++) {
			hist_add(&h[0], k < 1000 * cases[i].h ? 200000 :
			    7000000);
			hist_add(&h[1], k < 1000 * cases[i].fast ? 200000 :
			    20000000);
		}
		memset(&c, 0, sizeof c);
		c.ceiling = 160;
		c.ceiling_low = 150;
		c.ceiling_high = 170;
		if (ceilings_cache_correct(pts, 2, cases[i].h, 500,
		    &c) != cases[i].corrected)
			fail_msg("%s: corrected %d", cases[i].name,
			    !cases[i].corrected);
		if (cases[i].corrected) {
			T_REL(c.ceiling, 160 * (1 - cases[i].h), 1e-9);
			T_REL(c.ceiling_low, 150 * (1 - cases[i].h), 1e-9);
			T_REL(c.ceiling_high, 170 * (1 - cases[i].h), 1e-9);
		} else
			assert_true(c.ceiling == 160 && c.ceiling_low == 150);
	}
}

static void
t_iops_edges(void **state)
{
	struct point		pts[2];
	struct ceilings_iops	c;

	(void)state;
	memset(pts, 0, sizeof pts);
	assert_int_equal(ceilings_iops(pts, 0, &c), -1);
	assert_int_equal(c.limit, CEILINGS_IOPS_UNKNOWN);
	assert_true(isnan(c.ceiling));

	memset(pts, 0, sizeof pts);
	pts[0].iodepth = 4;
	pts[0].iops = 1000;
	pts[0].lat_us.mean = 4000;
	pts[0].cpu_util = NAN;
	assert_int_equal(ceilings_iops(pts, 1, &c), -1);
	assert_true(c.max_seen == 1000 && c.ceiling == 1000 && c.at_least);

	/* Two points, given in reverse order, flat: a cap at depth 1. */
	pts[1] = pts[0];
	pts[1].iodepth = 1;
	pts[1].lat_us.mean = 1000;
	assert_int_equal(ceilings_iops(pts, 2, &c), 0);
	assert_int_equal(c.limit, CEILINGS_IOPS_CAP);
	T_REL(c.ceiling, 1000, 1e-9);
	assert_int_equal(c.knee_iodepth, 1);
	assert_true(isnan(c.cpu_util));
	assert_int_equal(c.fell_iodepth, 0);
}

/*
 * A sweep that falls as the queue deepens (a bucket ran dry after depth
 * 2, as under blk-throttle: 2,628 IOPS, then 366) is no knee: the points
 * before the fall are the sweep, and a mild dip at depth is kept.
 */
static void
t_iops_falling(void **state)
{
	static const double	 fell[] = { 1400, 2628, 366, 366, 367 };
	static const double	 dip[] = { 1400, 2628, 2700, 2600, 2300 };
	struct point		 pts[5];
	struct ceilings_iops	 c;
	size_t			 i;

	(void)state;
	memset(pts, 0, sizeof pts);
	for (i = 0; i < 5; i++) {
		pts[i].iodepth = 1U << i;
		pts[i].iops = fell[i];
		pts[i].lat_us.mean = pts[i].iodepth / fell[i] * 1e6;
		pts[i].cpu_util = NAN;
	}
	assert_int_equal(ceilings_iops(pts, 5, &c), 0);
	assert_int_equal(c.fell_iodepth, 4);
	assert_true(c.limit != CEILINGS_IOPS_CAP || c.ceiling > 2000);
	assert_true(c.max_seen == 2628 && c.max_seen_iodepth == 2);
	assert_true(c.knee_iodepth == 0 || c.knee_iodepth == 2);

	for (i = 0; i < 5; i++) {
		pts[i].iops = dip[i];
		pts[i].lat_us.mean = pts[i].iodepth / dip[i] * 1e6;
	}
	assert_int_equal(ceilings_iops(pts, 5, &c), 0);
	assert_int_equal(c.fell_iodepth, 0);
	assert_int_equal(c.limit, CEILINGS_IOPS_CAP);
	T_REL(c.ceiling, 2600, 0.04);
}

/*
 * The sweep alone cannot tell IOPS counted in units of A from a bandwidth
 * cap of the IOPS cap times A (unit, the candidate it shows; 0: none);
 * the probe at 1.5 A it asks for can.
 */
static const struct {
	struct t_vol		 v;
	unsigned		 depth;
	enum ceilings_bw_limit	 limit;		/* with the probe */
	double			 ceiling;	/* bytes/s; NAN: none */
	double			 acct;		/* bytes; 0: hidden */
	double			 top;		/* largest size; 0: 1 MiB */
	double			 unit;		/* the sweep's candidate */
} t_bs_cases[] = {
	{ { "gp2: bandwidth hides 256k", 500, 64, 3000, 250 * MiB, 256 * KiB,
	    2e9, 1e6, 1024, 0.02 }, 4, CEILINGS_BW_CAP, 250 * MiB, 0, 0, 0 },
	/*
	 * Accounting is told from a bandwidth cap by a 3% margin: these
	 * points carry 1% noise, as rate-capped points do on the simulator
	 * (~0.1%) and under blk-throttle (~0.5%).
	 */
	{ { "256k units under a high cap", 500, 64, 3000, 1000 * MiB,
	    256 * KiB, 2e9, 1e6, 1024, 0.01 }, 8, CEILINGS_BW_ACCOUNTING,
	    750 * MiB, 256 * KiB, 0, 256 * KiB },
	{ { "16k units", 500, 64, 3000, 250 * MiB, 16 * KiB, 2e9, 1e6, 1024,
	    0.01 }, 4, CEILINGS_BW_ACCOUNTING, 3000 * 16 * KiB, 16 * KiB, 0,
	    16 * KiB },
	/* io1 on an m5.large: 4,000 IOPS x 128 KiB is its 500 MiB/s cap. */
	{ { "cap at 128k x iops, 256k units", 500, 64, 4000, 500 * MiB,
	    256 * KiB, 2e9, 1e6, 1024, 0.01 }, 8, CEILINGS_BW_CAP,
	    500 * MiB, 0, 0, 128 * KiB },
	{ { "cap at 64k x iops, no units", 500, 64, 2000, 125 * MiB, 0, 2e9,
	    1e6, 1024, 0.01 }, 8, CEILINGS_BW_CAP, 125 * MiB, 0, 0,
	    64 * KiB },
	{ { "cap 8% below 16k x iops", 600, 32, 4000,
	    0.92 * 4000 * 16 * KiB, 256 * KiB, 2e9, 1e6, 1024, 0.01 }, 8,
	    CEILINGS_BW_CAP, 0.92 * 4000 * 16 * KiB, 0, 0, 0 },
	{ { "1m units (hdd-like)", 2000, 64, 500, 500 * MiB, MiB, 2e9, 1e6,
	    1024, 0.02 }, 4, CEILINGS_BW_UNSATURATED, NAN, 0, 0, 0 },
	/* The same, swept on to 2 MiB while it rose (st1). */
	{ { "1m units to 2m", 2000, 64, 500, 500 * MiB, MiB, 2e9, 1e6, 1024,
	    0.02 }, 4, CEILINGS_BW_CAP, 500 * MiB, 0, 2 * MiB, 0 },
	{ { "cap 30% above 64k x iops", 500, 64, 3000,
	    1.3 * 3000 * 64 * KiB, 0, 2e9, 1e6, 1024, 0.02 }, 4,
	    CEILINGS_BW_CAP, 1.3 * 3000 * 64 * KiB, 0, 0, 0 },
	{ { "halving at the top size only", 50, 64, 2000, 1000 * MiB, 0,
	    2e9, 1e6, 1024, 0.02 }, 2, CEILINGS_BW_CAP, 1000 * MiB, 0, 0,
	    0 },
	{ { "device bandwidth", 100, 64, T_NOCAP, 500e6, 0, 1e9, 1e6, 1024,
	    0.02 }, 32, CEILINGS_BW_CAP, 500e6, 0, 0, 0 },
	/* No cap: the asymptote of d x bs / (lat0 + bs / rate). */
	{ { "transfer time per i/o", 100, 64, T_NOCAP, T_NOCAP, 0, 200e6,
	    1e6, 1024, 0.01 }, 1, CEILINGS_BW_CAP, 200e6, 0, 0, 0 },
	{ { "nvme, 4 in parallel", 90, 4, T_NOCAP, T_NOCAP, 0, 600 * MiB,
	    1e6, 1024, 0.01 }, 8, CEILINGS_BW_CAP, 2400 * MiB, 0, 0, 0 },
};

static void
t_bw_cases(void **state)
{
	struct point		pts[16], probe;
	struct ceilings_bw	c;
	struct rng		rng;
	size_t			i, n;
	uint64_t		seed;
	uint32_t		bs;

	(void)state;
	for (i = 0; i < sizeof t_bs_cases / sizeof t_bs_cases[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			n = t_bs_sweep(&t_bs_cases[i].v, &rng,
			    t_bs_cases[i].depth, t_bs_cases[i].top > 0 ?
			    t_bs_cases[i].top : MiB, pts);
			assert_int_equal(ceilings_bandwidth(pts, n, NULL, &c),
			    0);
			/* The sweep alone: a candidate, never a unit. */
			if ((double)c.acct_candidate != t_bs_cases[i].unit ||
			    c.accounting_bytes != 0 || (c.limit ==
			    CEILINGS_BW_UNIT_OR_CAP) != (c.acct_candidate > 0)
			    || c.acct_why != (c.acct_candidate > 0 ?
			    CEILINGS_ACCT_UNIT_OR_CAP : CEILINGS_ACCT_HIDDEN))
				fail_msg("%s seed %d: sweep alone: %s, "
				    "candidate %llu, accounting %llu",
				    t_bs_cases[i].v.name, (int)seed,
				    ceilings_bw_limit_name(c.limit),
				    (unsigned long long)c.acct_candidate,
				    (unsigned long long)c.accounting_bytes);
			bs = ceilings_acct_probe_bs(&c);
			assert_true(bs == 1.5 * t_bs_cases[i].unit);
			if (bs > 0) {
				t_point(&t_bs_cases[i].v, &rng,
				    t_bs_cases[i].depth, bs, &probe);
				assert_int_equal(ceilings_bandwidth(pts, n,
				    &probe, &c), 0);
			}
			if (c.limit != t_bs_cases[i].limit) {
				fail_msg("%s seed %d: limit %s",
				    t_bs_cases[i].v.name, (int)seed,
				    ceilings_bw_limit_name(c.limit));
			}
			if ((double)c.accounting_bytes != t_bs_cases[i].acct ||
			    c.acct_why != (c.accounting_bytes > 0 ?
			    CEILINGS_ACCT_FOUND : CEILINGS_ACCT_HIDDEN)) {
				fail_msg("%s seed %d: accounting %llu (why %d)",
				    t_bs_cases[i].v.name, (int)seed,
				    (unsigned long long)c.accounting_bytes,
				    (int)c.acct_why);
			}
			if (isnan(t_bs_cases[i].ceiling)) {
				assert_true(c.max_seen > 0);
				assert_true(c.at_least);
				assert_true(c.ceiling == c.max_seen);
				assert_true(isnan(c.ceiling_high));
				continue;
			}
			assert_false(c.at_least);
			T_REL(c.ceiling, t_bs_cases[i].ceiling, 0.05);
			assert_true(c.ceiling_low <= c.ceiling &&
			    c.ceiling <= c.ceiling_high);
			t_not_below(t_bs_cases[i].v.name, pts, n, 1, c.ceiling,
			    c.ceiling_high);
			/* Only a device without a cap has an asymptote. */
			if (c.asymptote != (!isfinite(t_bs_cases[i].v.iops_cap)
			    && !isfinite(t_bs_cases[i].v.bw_cap))) {
				fail_msg("%s seed %d: asymptote %d",
				    t_bs_cases[i].v.name, (int)seed,
				    c.asymptote);
			}
		}
	}
}

/* A sustained run: level(t) per 1 s interval, with counting noise. */
struct t_run {
	const char	*name;
	double		 level[4];	/* IOPS of each phase */
	double		 until[4];	/* phase end, s */
	double		 noise;		/* relative, on top of sqrt(level) */
};

static size_t
t_timeline(const struct t_run *r, struct rng *rng, struct timeline_sample *v)
{
	double	lvl;
	size_t	n, p;

	for (n = 0, p = 0; p < 4 && r->until[p] > 0; n++) {
		if (n + 1 > r->until[p])
			p++;
		if (p == 4 || r->until[p] == 0)
			break;
		lvl = r->level[p];
		/* The second the bucket runs dry mixes both rates. */
		if (p > 0 && n < r->until[p - 1])
			lvl = (r->level[p - 1] + lvl) / 2;
		v[n].t_s = n + 1;
		v[n].iops = lvl + rng_normal(rng) * (sqrt(lvl) +
		    r->noise * lvl);
		v[n].bytes_per_s = v[n].iops * 4096;
		v[n].lat_us_mean = 4e6 / v[n].iops;
	}
	return (n);
}

static void
t_burst_gp2(void **state)
{
	static const struct t_run	 r = { "gp2", { 3000, 300 },
					     { 300.5, 600 }, 0.03 };
	static struct timeline_sample	 v[1000];
	struct burst			 b;
	struct rng			 rng;
	size_t				 n;
	uint64_t			 seed;

	(void)state;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		rng_seed(&rng, seed);
		n = t_timeline(&r, &rng, v);
		assert_int_equal(n, 600);
		assert_int_equal(ceilings_burst(v, n, NULL, 0, 3000, &b), 0);
		assert_true(b.detected && !b.exhausted && !b.variable);
		T_REL(b.burst_iops, 3000, 0.02);
		T_REL(b.baseline_iops, 300, 0.05);
		T_REL(b.credits_ios, 2700 * 300.5, 0.03);
		T_REL(b.duration_s, 300.5, 0.03);
		T_REL(b.observed_s, 300, 0.02);
		assert_true(b.prior_credits_ios == 0);
	}
}

static void
t_burst_prior(void **state)
{
	/* Sweeps drank part of the bucket: 30 s below baseline (no refill:
	 * the bucket was full), 60 s at the burst rate, 10 s at 1,000. */
	static const struct ceilings_prior prior[] = {
		{ 100 * 30.0, 30, 0, 0 }, { 3000 * 60.0, 60, 0, 0 },
		{ 1000 * 10.0, 10, 0, 0 },
	};
	static const struct t_run	 r = { "gp2 after sweeps",
					     { 3000, 300 }, { 200, 400 },
					     0.03 };
	static struct timeline_sample	 v[1000];
	struct burst			 b;
	struct rng			 rng;
	size_t				 n;
	double				 spent;
	uint64_t			 seed;

	(void)state;
	spent = 2700 * 60.0 + 700 * 10.0;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		rng_seed(&rng, seed);
		n = t_timeline(&r, &rng, v);
		assert_int_equal(ceilings_burst(v, n, prior, 3, 3000, &b), 0);
		assert_true(b.detected);
		T_REL(b.prior_credits_ios, spent, 0.05);
		T_REL(b.credits_ios, spent + 2700 * 200.0, 0.03);
		T_REL(b.duration_s, 200 + spent / 2700, 0.03);
		T_REL(b.observed_s, 200, 0.02);
	}
}

static const struct {
	struct t_run	r;
	double		ref;
	int		detected;
	int		variable;
	int		exhausted;
} t_runs[] = {
	{ { "no bucket", { 3000 }, { 600 }, 0.03 }, 3000, 0, 0, 0 },
	{ { "no bucket, noisy", { 3000 }, { 300 }, 0.10 }, 3000, 0, 0, 0 },
	{ { "dip that recovers", { 3000, 1500, 3000 }, { 100, 130, 400 },
	    0.03 }, 3000, 0, 1, 0 },
	{ { "empty before the run", { 300 }, { 200 }, 0.03 }, 3000, 1, 0,
	    1 },
	{ { "queue filling first", { 1000, 3000, 300 }, { 2, 200, 400 },
	    0.03 }, 3000, 1, 0, 0 },
	{ { "short baseline at the end", { 3000, 300 }, { 280, 300 }, 0.03 },
	    3000, 1, 0, 0 },
	{ { "azure p4", { 3500, 120 }, { 100, 200 }, 0.03 }, 3500, 1, 0, 0 },
	{ { "small step down", { 3000, 2800 }, { 100, 200 }, 0.02 }, 3000,
	    0, 0, 0 },
};

static void
t_burst_cases(void **state)
{
	static struct timeline_sample	 v[1000];
	struct burst			 b;
	struct rng			 rng;
	size_t				 i, n;
	uint64_t			 seed;

	(void)state;
	for (i = 0; i < sizeof t_runs / sizeof t_runs[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			n = t_timeline(&t_runs[i].r, &rng, v);
			assert_int_equal(ceilings_burst(v, n, NULL, 0,
			    t_runs[i].ref, &b), 0);
			if (b.detected != t_runs[i].detected ||
			    b.variable != t_runs[i].variable ||
			    b.exhausted != t_runs[i].exhausted) {
				fail_msg("%s seed %d: detected %d variable %d "
				    "exhausted %d", t_runs[i].r.name,
				    (int)seed, b.detected, b.variable,
				    b.exhausted);
			}
			if (!b.detected)
				assert_true(isnan(b.burst_iops));
			if (b.exhausted)
				assert_true(isnan(b.credits_ios));
		}
	}

	/* Too short to tell. */
	assert_int_equal(ceilings_burst(v, 3, NULL, 0, 3000, &b), -1);
	assert_false(b.detected);
	assert_int_equal(ceilings_burst(v, 0, NULL, 0, 3000, &b), -1);
}

/* A gp2-like bucket under sweeps of rising demand, 0.25 s intervals. */
struct t_bucket {
	double	burst;
	double	base;
	double	credits;		/* INFINITY: no bucket */
};

/*
 * The work of sweeps of nload loads (demand in I/Os per second, seconds
 * each) on bucket b, starting full, as prior entries (an idle 0.05 s
 * between loads); *drop_at is the time the bucket ran dry (NAN never).
 */
static size_t
t_sweeps(const double (*load)[2], size_t nload, const struct t_bucket *b,
    struct rng *rng, struct ceilings_prior *p, double *drop_at)
{
	const double	dt = 0.25;
	double		c = b->credits, t = 0, rate, tau, io;
	size_t		n = 0, l, k;

	*drop_at = NAN;
	for (l = 0; l < nload; l++) {
		for (k = 0; k < load[l][1] / dt; k++) {
			rate = fmin(load[l][0], c > 0 ? b->burst : b->base);
			io = rate * dt;
			if (c > 0 && (rate - b->base) * dt > c) {
				tau = c / (rate - b->base);
				io = rate * tau + fmin(load[l][0], b->base) *
				    (dt - tau);
				if (isnan(*drop_at))
					*drop_at = t + tau;
				c = 0;
			} else if (c > 0)
				c = fmin(b->credits, c - (rate - b->base) *
				    dt);
			io += rng_normal(rng) * (sqrt(io) + 0.03 * io);
			p[n].ios = io;
			p[n].seconds = dt;
			p[n].demanding = 0;
			p[n++].load = l + 1;
			t += dt;
		}
		p[n].ios = 0;
		p[n].seconds = 0.05;
		p[n].demanding = 0;
		p[n++].load = 0;
		c = fmin(b->credits, c + b->base * 0.05);
		t += 0.05;
	}
	return (n);
}

/* Depths 1, 2, 4, 8 at 4 KiB, then block sizes up to bandwidth-bound. */
static const double t_sweep_loads[][2] = {
	{ 1800, 3 }, { 3600, 3 }, { 7200, 3 }, { 14400, 3 },
	{ 14400, 3 }, { 14400, 3 }, { 9000, 3 }, { 2000, 3 }, { 512, 3 },
};
#define T_NLOADS	(sizeof t_sweep_loads / sizeof t_sweep_loads[0])

/*
 * The bucket ran dry during the sweeps (inside a load, at the edge of
 * one, or in the last), the run after them holds the baseline: the drop
 * is found in the sweeps, both rates and the bucket recovered.
 */
static void
t_burst_in_sweeps(void **state)
{
	static const struct t_run	 run = { "baseline", { 300 }, { 60 },
					     0.03 };
	static const double		 credits[] = { 20000, 12600, 44000,
					     56000 };
	static struct timeline_sample	 v[1000];
	struct ceilings_prior		 p[400];
	struct t_bucket			 b = { 3000, 300, 0 };
	struct burst			 out;
	struct rng			 rng;
	double				 drop_at, t;
	size_t				 n, np, i, c;
	uint64_t			 seed;

	(void)state;
	for (c = 0; c < sizeof credits / sizeof credits[0]; c++) {
		b.credits = credits[c];
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			np = t_sweeps(t_sweep_loads, T_NLOADS, &b, &rng, p,
			    &drop_at);
			assert_true(isfinite(drop_at));
			/* Depth 8 and the 4 KiB points after: the run's. */
			for (i = 0; i < np; i++)
				p[i].demanding = p[i].load >= 4 &&
				    p[i].load <= 6;
			n = t_timeline(&run, &rng, v);
			assert_int_equal(ceilings_burst(v, n, p, np, 14400,
			    &out), 0);
			if (!out.detected || !out.exhausted)
				fail_msg("%.0f credits seed %d: detected %d "
				    "exhausted %d", b.credits, (int)seed,
				    out.detected, out.exhausted);
			/* 12 intervals of 6.7% noise at least: 4 sd. */
			T_REL(out.burst_iops, 3000, 0.08);
			T_REL(out.baseline_iops, 300, 0.05);
			T_REL(out.credits_ios, b.credits, 0.10);
			T_REL(out.duration_s, b.credits / 2700, 0.10);
			/* The drop is placed within an interval or two. */
			for (i = 0, t = 0; i < out.prior_drop; i++)
				t += p[i].seconds;
			if (!(fabs(t - drop_at) <= 0.5))
				fail_msg("%.0f credits seed %d: drop at %.2f "
				    "s, want %.2f", b.credits, (int)seed, t,
				    drop_at);
			assert_true(isnan(out.held_iops));
		}
	}
}

/*
 * No bucket ran dry: nothing is detected, even with a noisy spike in the
 * sweeps, and the run says what it rules out: the I/O drawn until a drop
 * could last have shown.
 */
static void
t_burst_held(void **state)
{
	static const struct t_run	 run = { "held", { 3000 }, { 120 },
					     0.03 };
	static struct timeline_sample	 v[1000];
	struct ceilings_prior		 p[400];
	struct t_bucket			 b = { 3000, 300, INFINITY };
	struct burst			 out;
	struct rng			 rng;
	double				 drop_at, ios;
	size_t				 n, np, i;
	uint64_t			 seed;

	(void)state;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		rng_seed(&rng, seed);
		np = t_sweeps(t_sweep_loads, T_NLOADS, &b, &rng, p, &drop_at);
		assert_true(isnan(drop_at));
		p[30].ios *= 3;
		n = t_timeline(&run, &rng, v);
		assert_int_equal(ceilings_burst(v, n, p, np, 3000, &out), 0);
		assert_false(out.detected);
		T_REL(out.held_iops, 3000, 0.02);
		assert_true(out.held_s == v[n - 4].t_s);
		for (i = 0, ios = 0; i < np; i++)
			ios += p[i].ios;
		for (i = 0; i + 3 < n; i++)
			ios += v[i].iops;
		T_REL(out.ruled_out_below_ios, ios, 1e-9);

		/* A volume capped at its baseline: a spike is no burst. */
		b.burst = 300;
		np = t_sweeps(t_sweep_loads, T_NLOADS, &b, &rng, p, &drop_at);
		p[40].ios *= 3;
		n = t_timeline(&(struct t_run){ "capped", { 300 }, { 60 },
		    0.03 }, &rng, v);
		assert_int_equal(ceilings_burst(v, n, p, np, 300, &out), 0);
		assert_false(out.detected);
		b.burst = 3000;
	}
}

/*
 * Quick runs on this machine's virtio disk, shared with other runs, that
 * each reported a burst before the check it tests.
 */
static const struct {
	const char	*name;
	double		 loads[16][2];	/* demand (IOPS), seconds */
	unsigned	 demanding[2];	/* loads asking what the run does */
	unsigned	 top;		/* the load that ran highest */
	int		 spike;		/* only its first 3 intervals, x 1.5 */
	double		 run;		/* the sustained run's IOPS */
	double		 base;		/* a bucket's baseline, after top */
} t_wander[] = {
	/*
	 * Three intervals at depth 8 ran at twice the run's rate (at 8);
	 * then depths 16 and 32 and 4 KiB at 8 gave more than the run,
	 * larger sizes less: what asks what the run does never fell to it.
	 */
	{ "spike", { { 32800, 1 }, { 44000, 2 }, { 54700, 2 }, { 57700, 2 },
	  { 49800, 2 }, { 51800, 2.5 }, { 43600, 2 }, { 29000, 2 },
	  { 16100, 2 }, { 10400, 2 }, { 5400, 2 }, { 2650, 1.2 },
	  { 1250, 2 }, { 630, 2 } }, { 4, 7 }, 4, 1, 38600, 38600 },
	/*
	 * The depth-32 point ran at 57,600, the run at 32 held 42,700 and
	 * what came after was near it: a fall by a quarter the run did not
	 * see.
	 */
	{ "quarter", { { 12500, 2 }, { 18900, 2 }, { 25800, 2 },
	  { 34700, 2 }, { 42500, 2.5 }, { 57600, 2 }, { 46000, 2 },
	  { 43000, 2 }, { 36000, 2.5 }, { 26000, 2 }, { 13200, 2.5 },
	  { 7000, 2 } }, { 6, 8 }, 6, 0, 42700, 11520 },
};

/*
 * A disk without a bucket whose rate wanders (12% noise in the run) shows
 * no burst in the sweeps.  The same sweeps on a bucket that ran dry after
 * the load that ran highest and stayed at its baseline do, with the drop
 * placed there.
 */
static void
t_burst_wander(void **state)
{
	static struct timeline_sample	 v[100];
	struct ceilings_prior		 p[200];
	struct t_bucket			 b = { 1e9, 1e9, INFINITY };
	struct burst			 out;
	struct rng			 rng;
	double				 drop_at, top_iops;
	size_t				 n, np, nl, i, c, k, drop;
	uint64_t			 seed;

	(void)state;
	for (c = 0; c < sizeof t_wander / sizeof t_wander[0]; c++) {
		for (nl = 0; nl < 16 && t_wander[c].loads[nl][1] > 0; nl++)
			continue;
		top_iops = t_wander[c].loads[t_wander[c].top - 1][0];
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			np = t_sweeps(t_wander[c].loads, nl, &b, &rng, p,
			    &drop_at);
			for (i = 0, k = 0, drop = 0; i < np; i++) {
				p[i].demanding = p[i].load >=
				    t_wander[c].demanding[0] && p[i].load <=
				    t_wander[c].demanding[1];
				if (p[i].load != t_wander[c].top ||
				    (t_wander[c].spike && k == 3))
					continue;
				if (t_wander[c].spike)
					p[i].ios *= 1.5;
				k++;
				drop = i + 1;
			}
			n = t_timeline(&(struct t_run){ "wander",
			    { t_wander[c].run }, { 10 }, 0.12 }, &rng, v);
			assert_int_equal(ceilings_burst(v, n, p, np, top_iops,
			    &out), 0);
			if (out.detected)
				fail_msg("%s seed %d: a burst of %.0f IOPS for "
				    "%.1f s", t_wander[c].name, (int)seed,
				    out.burst_iops, out.duration_s);

			for (i = drop; i < np; i++)
				p[i].ios = fmin(p[i].ios, t_wander[c].base *
				    p[i].seconds);
			n = t_timeline(&(struct t_run){ "bucket",
			    { t_wander[c].base }, { 10 }, 0.03 }, &rng, v);
			assert_int_equal(ceilings_burst(v, n, p, np, top_iops,
			    &out), 0);
			if (!out.detected || !out.exhausted ||
			    out.prior_drop != drop)
				fail_msg("%s seed %d: bucket detected %d, drop "
				    "after %zu, want %zu", t_wander[c].name,
				    (int)seed, out.detected, out.prior_drop,
				    drop);
		}
	}
}

/*
 * A sustained run's rate held: one level, a drop of a fifth ruled out.
 * A drop at the end, a slide over the run, or too few intervals: not.
 */
static void
t_held(void **state)
{
	static const struct {
		struct t_run	r;
		int		held;
	} cases[] = {
		{ { "flat", { 3000 }, { 10 }, 0.02 }, 1 },
		{ { "flat, noisier", { 45000 }, { 15 }, 0.05 }, 1 },
		{ { "drop at the end", { 3000, 2200 }, { 6, 9 }, 0.02 }, 0 },
		{ { "bucket dry", { 3000, 300 }, { 5, 9 }, 0.03 }, 0 },
		{ { "too short", { 3000 }, { 5 }, 0.03 }, 0 },
	};
	static struct timeline_sample	 v[100];
	struct rng			 rng;
	size_t				 i, n;
	uint64_t			 seed;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			rng_seed(&rng, seed);
			n = t_timeline(&cases[i].r, &rng, v);
			if (ceilings_held(v, n) != cases[i].held)
				fail_msg("%s seed %d: held %d", cases[i].r.name,
				    (int)seed, !cases[i].held);
		}
	}
	/* A slide by a third over 12 s, each step within noise. */
	for (seed = 1; seed <= T_SEEDS; seed++) {
		rng_seed(&rng, seed);
		for (i = 0; i < 12; i++) {
			memset(&v[i], 0, sizeof v[i]);
			v[i].t_s = i + 1;
			v[i].iops = 3000 * (1 - i / 33.0) *
			    (1 + 0.02 * rng_normal(&rng));
		}
		assert_false(ceilings_held(v, 12));
	}
}

static void
t_first_touch(void **state)
{
	double		a[500], b[500], base;
	struct first_touch ft;
	struct rng	rng;
	size_t		i;
	uint64_t	seed;

	(void)state;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		rng_seed(&rng, seed);
		/* Snapshot restore: first reads ~4x slower. */
		for (i = 0; i < 500; i++) {
			base = 500 * exp(0.3 * rng_normal(&rng));
			a[i] = 4 * base * exp(0.3 * rng_normal(&rng));
			b[i] = base * exp(0.3 * rng_normal(&rng));
		}
		ceilings_first_touch(a, b, 500, &ft);
		assert_true(ft.measured && ft.detected);
		assert_int_equal(ft.changed, CEILINGS_FT_SAME);
		assert_int_equal(ft.blocks, 500);
		T_REL(ft.ratio, 4, 0.15);
		assert_true(ft.slower_fraction > 0.9);

		/*
		 * Second reads 6x slower (a bucket ran dry between the
		 * passes, as on a gp2 volume whose small bucket the sweeps
		 * emptied: 577 us, then 3.34 ms): the state changed, no
		 * verdict on first reads either way.
		 */
		for (i = 0; i < 500; i++) {
			a[i] = 577 * exp(0.25 * rng_normal(&rng));
			b[i] = 3340 * exp(0.05 * rng_normal(&rng));
		}
		ceilings_first_touch(a, b, 500, &ft);
		assert_true(ft.measured && !ft.detected);
		assert_int_equal(ft.changed, CEILINGS_FT_SLOWER);

		/* Same distribution both times: no penalty. */
		for (i = 0; i < 500; i++) {
			a[i] = 500 * exp(0.5 * rng_normal(&rng));
			b[i] = 500 * exp(0.5 * rng_normal(&rng));
		}
		ceilings_first_touch(a, b, 500, &ft);
		assert_true(ft.measured && !ft.detected);
		assert_int_equal(ft.changed, CEILINGS_FT_SAME);
		T_REL(ft.ratio, 1, 0.15);
	}
	ceilings_first_touch(a, b, 0, &ft);
	assert_false(ft.measured || ft.detected);
	assert_true(isnan(ft.ratio));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_fit_knee),
		cmocka_unit_test(t_iops_cases),
		cmocka_unit_test(t_iops_creeping),
		cmocka_unit_test(t_iops_edges),
		cmocka_unit_test(t_iops_rising),
		cmocka_unit_test(t_iops_falling),
		cmocka_unit_test(t_cache_correct),
		cmocka_unit_test(t_iops_noisy),
		cmocka_unit_test(t_bw_cases),
		cmocka_unit_test(t_burst_gp2),
		cmocka_unit_test(t_burst_prior),
		cmocka_unit_test(t_burst_cases),
		cmocka_unit_test(t_burst_in_sweeps),
		cmocka_unit_test(t_burst_held),
		cmocka_unit_test(t_burst_wander),
		cmocka_unit_test(t_held),
		cmocka_unit_test(t_first_touch),
	};

	fit_init();
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * The simulated volume: cache hit ratios, token buckets, burst buckets,
 * iodepth saturation, I/O accounting, determinism, first reads, profile
 * parsing errors and the built-in profiles, through sim.h and the engine.
 */
#include <errno.h>
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

#include "engine.h"
#include "profiles.h"
#include "rng.h"
#include "sim.h"
#include "target.h"

#define T_KIB	1024ULL
#define T_MIB	(1024 * T_KIB)
#define T_GIB	(1024 * T_MIB)
#define T_SEC	1000000000ULL

typedef void (*t_done_cb)(const struct engine_done *, uint64_t, void *);

static struct profile *
t_profile(const char *ini)
{
	struct profile	*p;
	char		*cause = NULL;
	FILE		*f;

	f = fmemopen((void *)ini, strlen(ini), "r");
	assert_non_null(f);
	p = profiles_parse(f, "t.ini", &cause);
	fclose(f);
	if (p == NULL)
		fail_msg("profile rejected: %s", cause);
	return (p);
}

static struct sim *
t_sim(const char *ini, uint64_t seed)
{
	struct profile	*p = t_profile(ini);
	struct sim	*s = sim_new(p, seed);

	profiles_free(p);
	return (s);
}

/* The cause for a profile that must be rejected. */
static char *
t_reject(const char *ini)
{
	struct profile	*p;
	char		*cause = NULL;
	FILE		*f;

	f = fmemopen((void *)ini, strlen(ini), "r");
	assert_non_null(f);
	p = profiles_parse(f, "t.ini", &cause);
	fclose(f);
	if (p != NULL)
		fail_msg("profile accepted:\n%s", ini);
	assert_non_null(cause);
	return (cause);
}

/*
 * Drive s through the engine: qd slots of bs-byte I/Os at uniform random
 * offsets in [0, ws) (with replacement) for the given virtual time, then
 * drain.  cb sees every completion with the clock at that moment.
 */
static void
t_drive(struct sim *s, unsigned qd, uint32_t bs, uint64_t ws, int write,
    double seconds, uint64_t seed, t_done_cb cb, void *arg)
{
	struct target		 tg;
	struct engine		 e;
	struct engine_io	 io;
	struct engine_done	*done;
	struct rng		 rng;
	uint64_t		 end;
	unsigned		 i;
	int			 n;

	memset(&tg, 0, sizeof tg);
	tg.type = TARGET_SIM;
	tg.fd = -1;
	tg.direct = 1;
	tg.sim = s;
	tg.size = sim_size(s);
	tg.lbs = sim_block_size(s);
	memset(&e, 0, sizeof e);
	e.ops = &engine_sim_ops;
	e.target = &tg;
	e.iodepth = qd;
	e.max_bs = bs;
	assert_int_equal(e.ops->open(&e), 0);
	done = calloc(qd, sizeof *done);
	assert_non_null(done);
	rng_seed(&rng, seed);

	end = e.ops->now_ns(&e) + (uint64_t)(seconds * 1e9);
	memset(&io, 0, sizeof io);
	for (i = 0; i < qd; i++) {
		io.slot = i;
		io.write = write;
		io.len = bs;
		io.offset = rng_offset(&rng, 0, ws, bs);
		assert_int_equal(e.ops->submit(&e, &io, 1), 0);
	}
	for (;;) {
		n = e.ops->reap(&e, done, qd, 1);
		assert_true(n >= 1);
		for (i = 0; i < (unsigned)n; i++) {
			assert_int_equal(done[i].res, (int)bs);
			if (cb != NULL)
				cb(&done[i], e.ops->now_ns(&e), arg);
			if (e.ops->now_ns(&e) >= end)
				continue;
			io.slot = done[i].slot;
			io.write = write;
			io.len = bs;
			io.offset = rng_offset(&rng, 0, ws, bs);
			assert_int_equal(e.ops->submit(&e, &io, 1), 0);
		}
		if (e.ops->now_ns(&e) >= end)
			break;
	}
	while (e.ops->reap(&e, done, qd, 1) > 0)
		;
	e.ops->close(&e);
	free(done);
}

struct t_count {
	uint64_t	ios;
	uint64_t	first_ns;	/* first completion */
	uint64_t	last_ns;
	double		lat_sum_ns;
};

static void
t_count_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_count	*c = arg;

	if (c->ios == 0)
		c->first_ns = now;
	c->last_ns = now;
	c->ios++;
	c->lat_sum_ns += (double)d->lat_ns;
}

/* IOPS between the first and last completion. */
static double
t_iops(const struct t_count *c)
{
	return ((double)(c->ios - 1) / ((c->last_ns - c->first_ns) * 1e-9));
}

static void
t_assert_rel(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol * fabs(want)))
		fail_msg("%s: got %.6g, want %.6g within %.1f%%", what, got,
		    want, tol * 100);
}

static const char t_two_tiers[] =
    "[device]\nsize = 4G\nblock_size = 4096\n"
    "[tier.0]\ncapacity = 16M\nlatency_us = 100\nsigma = 0.2\n"
    "[tier.1]\ncapacity = 48M\nlatency_us = 1000\nsigma = 0.2\n"
    "[backing]\nlatency_us = 5000\nsigma = 0.3\nconcurrency = 4\n";

/* Uniform random reads over ws: tier i serves (C_i - C_{i-1}) / ws. */
static void
test_hit_ratio(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 4G\nblock_size = 4096\n"
	    "[tier.0]\ncapacity = 16M\nlatency_us = 10\nsigma = 0.2\n"
	    "[tier.1]\ncapacity = 48M\nlatency_us = 50\nsigma = 0.2\n"
	    "[backing]\nlatency_us = 200\nsigma = 0.3\nconcurrency = 8\n";
	static const struct {
		uint64_t	ws;
		uint32_t	bs;
		unsigned	qd;
		double		seconds;
	} cases[] = {
		{ 64 * T_MIB, 4096, 1, 90 },
		{ 128 * T_MIB, 4096, 8, 40 },
		{ 256 * T_MIB, 4096, 8, 40 },
		{ 128 * T_MIB, 16384, 4, 40 },	/* I/Os of 4 cache blocks */
	};
	struct sim_stats a, b;
	struct sim	*s;
	double		 n, want0, want1, wantm;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = t_sim(ini, 1 + i);
		/* Fill the tiers, then measure. */
		t_drive(s, cases[i].qd, cases[i].bs, cases[i].ws, 0, 5,
		    11 + i, NULL, NULL);
		sim_get_stats(s, &a);
		t_drive(s, cases[i].qd, cases[i].bs, cases[i].ws, 0,
		    cases[i].seconds, 21 + i, NULL, NULL);
		sim_get_stats(s, &b);
		n = (double)(b.ios - a.ios);
		if (n < 1e6)
			fail_msg("only %.0f I/Os", n);
		want0 = (16.0 * T_MIB) / cases[i].ws;
		want1 = (32.0 * T_MIB) / cases[i].ws;
		wantm = 1 - want0 - want1;
		t_assert_rel((b.hits[0] - a.hits[0]) / n, want0, 0.02,
		    "tier 0 hit ratio");
		t_assert_rel((b.hits[1] - a.hits[1]) / n, want1, 0.02,
		    "tier 1 hit ratio");
		t_assert_rel((b.misses - a.misses) / n, wantm, 0.02,
		    "miss ratio");
		/* Memory follows the cached blocks, not the 4 GiB volume. */
		assert_int_equal(b.cached_blocks, 48 * T_MIB / 4096);
		assert_true(b.cache_bytes < 48 * T_MIB / 4096 * 48);
		sim_free(s);
	}
}

/* Exact LRU order: which tier serves each access of a known sequence. */
static void
test_lru_order(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 1M\nblock_size = 4096\n"
	    "[tier.0]\ncapacity = 8K\nlatency_us = 10\n"
	    "[tier.1]\ncapacity = 16K\nlatency_us = 100\n"
	    "[backing]\nlatency_us = 1000\n";
	/* Tier 0 holds the 2 most recent blocks, tier 1 the 4 most recent. */
	static const struct {
		unsigned	block;
		unsigned	lat_us;
	} seq[] = {
		{ 0, 1000 }, { 1, 1000 }, { 2, 1000 }, { 3, 1000 },
		{ 3, 10 },	/* stack 3 2 1 0 */
		{ 2, 10 },	/* 2 3 1 0 */
		{ 0, 100 },	/* 0 2 3 1 */
		{ 4, 1000 },	/* 4 0 2 3: 1 evicted */
		{ 1, 1000 },	/* 1 4 0 2: 3 evicted */
		{ 3, 1000 },	/* 3 1 4 0: 2 evicted */
		{ 0, 100 },	/* 0 3 1 4 */
		{ 1, 100 },	/* 1 0 3 4 */
		{ 0, 10 },	/* 0 1 3 4 */
		{ 4, 100 },	/* 4 0 1 3 */
		{ 2, 1000 },	/* 2 4 0 1 */
	};
	struct sim_stats st;
	struct sim	*s;
	uint64_t	 t = 0, done;
	size_t		 i;

	(void)state;
	s = t_sim(ini, 1);
	for (i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		done = sim_submit(s, t, seq[i].block * 4096ULL, 4096, 0);
		if (done - t != seq[i].lat_us * 1000ULL)
			fail_msg("access %zu (block %u): %llu ns, want %u us",
			    i, seq[i].block, (unsigned long long)(done - t),
			    seq[i].lat_us);
		t = done;
	}
	/* An I/O over blocks 2 (in tier 0) and 3 (evicted) is a miss. */
	done = sim_submit(s, t, 2 * 4096ULL, 8192, 0);
	assert_int_equal(done - t, 1000 * 1000ULL);
	sim_get_stats(s, &st);
	assert_int_equal(st.cached_blocks, 4);
	sim_free(s);
}

/*
 * The tier serving each I/O of a long mixed sequence (random blocks, long
 * sequential reads, enough to grow the block table several times and to
 * evict) is the one a plain LRU stack gives.
 */
static void
test_lru_reference(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 64M\nblock_size = 4096\n"
	    "[tier.0]\ncapacity = 256K\nlatency_us = 10\n"
	    "[tier.1]\ncapacity = 1M\nlatency_us = 100\n"
	    "[tier.2]\ncapacity = 4M\nlatency_us = 1000\n"
	    "[backing]\nlatency_us = 10000\n";
	static const unsigned cum[3] = { 64, 256, 1024 };
	static const unsigned lat_us[4] = { 10, 100, 1000, 10000 };
	uint64_t	 stack[1025], t = 0, done, key, first;
	unsigned	 n = 0, level, l, pos, nblk, hits[4] = { 0 }, k, j;
	struct rng	 r;
	struct sim	*s;

	(void)state;
	s = t_sim(ini, 1);
	rng_seed(&r, 5);
	for (k = 0; k < 40000; k++) {
		if (rng_below(&r, 16) == 0) {
			first = rng_below(&r, 16384 - 64);
			nblk = 1 + (unsigned)rng_below(&r, 64);
		} else {
			first = rng_below(&r, 1500);
			nblk = 1;
		}
		level = 0;
		for (key = first; key < first + nblk; key++) {
			for (pos = 0; pos < n && stack[pos] != key; pos++)
				;
			for (l = 0; l < 3 && (pos == n || pos >= cum[l]); l++)
				;
			if (l > level)
				level = l;
			if (pos == n)
				n++;
			for (j = pos; j > 0; j--)
				stack[j] = stack[j - 1];
			stack[0] = key;
			if (n > cum[2])
				n = cum[2];
		}
		hits[level]++;
		done = sim_submit(s, t, first * 4096, nblk * 4096, 0);
		if (done - t != lat_us[level] * 1000ULL)
			fail_msg("I/O %u (blocks %llu+%u): %llu ns, want %u us",
			    k, (unsigned long long)first, nblk,
			    (unsigned long long)(done - t), lat_us[level]);
		t = done;
	}
	for (l = 0; l < 4; l++)
		assert_true(hits[l] > 500);
	sim_free(s);
}

/* An IOPS or bandwidth ceiling delivers its rate over a long run. */
static void
test_token_bucket(void **state)
{
	static const struct {
		const char	*limit;
		uint32_t	 bs;
		double		 want_iops;
	} cases[] = {
		{ "iops = 1000\n", 4096, 1000 },
		{ "iops = 2500\n", 16384, 2500 },
		{ "bandwidth = 100M\n", 65536, 100.0 * T_MIB / 65536 },
		{ "bandwidth = 40M\niops = 5000\n", 4096, 5000 },
		{ "bandwidth = 40M\niops = 5000\n", 65536,
		    40.0 * T_MIB / 65536 },
	};
	struct t_count	 c;
	struct sim	*s;
	char		 ini[512];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(ini, sizeof ini, "[device]\nsize = 10G\n"
		    "[backing]\nlatency_us = 200\nsigma = 0.5\n"
		    "concurrency = 64\n[limit]\n%s", cases[i].limit);
		s = t_sim(ini, 7);
		memset(&c, 0, sizeof c);
		t_drive(s, 64, cases[i].bs, 10 * T_GIB, 0, 100, 3,
		    t_count_cb, &c);
		t_assert_rel(t_iops(&c), cases[i].want_iops, 0.01, "rate");
		/* Little's law: queued I/Os wait qd / rate. */
		t_assert_rel(c.lat_sum_ns / c.ios * 1e-9,
		    64 / cases[i].want_iops, 0.05, "latency under the cap");
		sim_free(s);
	}
}

struct t_timeline {
	uint64_t	start_ns;
	uint64_t	bin_ns;
	unsigned	n[1024];
};

static void
t_timeline_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_timeline	*tl = arg;
	uint64_t		 bin = (now - tl->start_ns) / tl->bin_ns;

	(void)d;
	if (bin < 1024)
		tl->n[bin]++;
}

/* Find the first bin, from start, whose rate is below mid. */
static double
t_drop(const struct t_timeline *tl, unsigned start, double mid)
{
	unsigned	i;

	for (i = start; i < 1024; i++) {
		if (tl->n[i] / (tl->bin_ns * 1e-9) < mid)
			return (i * tl->bin_ns * 1e-9);
	}
	return (NAN);
}

static double
t_rate(const struct t_timeline *tl, unsigned from, unsigned to)
{
	unsigned	i;
	double		n = 0;

	for (i = from; i < to; i++)
		n += tl->n[i];
	return (n / ((to - from) * tl->bin_ns * 1e-9));
}

/* A burst lasts credits / (burst - baseline), refills at the baseline. */
static void
test_burst(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 10G\n"
	    "[backing]\nlatency_us = 300\nsigma = 0.3\nconcurrency = 64\n"
	    "[limit]\niops = 100\n"
	    "[burst]\niops = 1000\ncredits = 90000\n";
	struct t_timeline *tl;
	struct sim_truth t;
	struct sim	*s;
	uint64_t	 idle;
	double		 drop, mid = 550;

	(void)state;
	tl = calloc(1, sizeof *tl);
	assert_non_null(tl);
	tl->bin_ns = T_SEC / 4;
	s = t_sim(ini, 5);
	sim_truth_profile(sim_profile(s), 4096, &t);
	assert_true(t.burst_detected);
	t_assert_rel(t.burst_duration_s, 100, 1e-9, "truth duration");

	t_drive(s, 16, 4096, 10 * T_GIB, 0, 200, 9, t_timeline_cb, tl);
	drop = t_drop(tl, 0, mid);
	t_assert_rel(drop, 100, 0.02, "burst duration");
	t_assert_rel(t_rate(tl, 4, 380), 1000, 0.01, "burst rate");
	t_assert_rel(t_rate(tl, 420, 796), 100, 0.01, "baseline rate");

	/* Idle 100 s: 10,000 credits, a burst of 10000 / 900 s. */
	idle = sim_now(s) + 100 * T_SEC;
	sim_advance(s, idle);
	memset(tl->n, 0, sizeof tl->n);
	tl->start_ns = idle;
	t_drive(s, 16, 4096, 10 * T_GIB, 0, 40, 10, t_timeline_cb, tl);
	drop = t_drop(tl, 0, mid);
	t_assert_rel(drop, 10000.0 / 900, 0.05, "refilled burst");
	sim_free(s);
	free(tl);
}

/* IOPS grows with iodepth until concurrency / mean service time. */
static void
test_iodepth(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 10G\n"
	    "[backing]\nlatency_us = 1000\nsigma = 0.3\nconcurrency = 8\n";
	static const unsigned qds[] = { 1, 2, 4, 8, 16, 32 };
	struct sim_truth t;
	struct t_count	 c;
	struct sim	*s;
	double		 mean_s, want;
	size_t		 i;

	(void)state;
	mean_s = 1e-3 * exp(0.3 * 0.3 / 2);
	for (i = 0; i < sizeof qds / sizeof qds[0]; i++) {
		s = t_sim(ini, 100 + i);
		memset(&c, 0, sizeof c);
		t_drive(s, qds[i], 4096, 10 * T_GIB, 0, 60, 4, t_count_cb,
		    &c);
		want = (qds[i] < 8 ? qds[i] : 8) / mean_s;
		t_assert_rel(t_iops(&c), want, 0.015, "iops at iodepth");
		sim_truth_profile(sim_profile(s), 4096, &t);
		t_assert_rel(t.iops_ceiling, 8 / mean_s, 1e-9, "truth");
		assert_int_equal(t.iops_limiter, SIM_LIMIT_BACKING);
		assert_int_equal(t.knee_iodepth, 8);
		sim_free(s);
	}
}

/* I/O accounting: an I/O costs max(1, ceil(len / io_accounting)). */
static void
test_io_accounting(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 10G\n"
	    "[backing]\nlatency_us = 100\nconcurrency = 256\n"
	    "[limit]\niops = 1000\nio_accounting = 256K\n";
	static const struct {
		uint32_t	bs;
		double		tokens;
	} cases[] = {
		{ 4096, 1 }, { 256 * 1024, 1 }, { 300 * 1024, 2 },
		{ 512 * 1024, 2 }, { 1024 * 1024, 4 },
	};
	struct sim_truth t;
	struct t_count	 c;
	struct sim	*s;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		s = t_sim(ini, 3);
		memset(&c, 0, sizeof c);
		t_drive(s, 32, cases[i].bs, 10 * T_GIB, 0, 60, 2,
		    t_count_cb, &c);
		t_assert_rel(t_iops(&c), 1000 / cases[i].tokens, 0.01,
		    "iops in accounting units");
		sim_truth_profile(sim_profile(s), cases[i].bs, &t);
		t_assert_rel(t.iops_ceiling, 1000 / cases[i].tokens, 1e-9,
		    "truth");
		assert_true(t.io_accounting_observable);
		sim_free(s);
	}
}

/* Transfer time grows with I/O size. */
static void
test_transfer(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 10G\ntransfer = 100M\n"
	    "[backing]\nlatency_us = 500\n";
	struct sim	*s;
	uint64_t	 d;

	(void)state;
	s = t_sim(ini, 1);
	d = sim_submit(s, 0, 0, 4096, 0);
	assert_int_equal(d, 500000 + (uint64_t)(4096 / (100.0 * T_MIB) *
	    1e9 + 0.5));
	d = sim_submit(s, d, 1 * T_MIB, 1 * T_MIB, 0) - d;
	assert_int_equal(d, 500000 + 10000000);
	sim_free(s);
}

struct t_lat {
	uint64_t	*v;
	size_t		 n;
	size_t		 cap;
};

static void
t_lat_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_lat	*l = arg;

	(void)now;
	if (l->n < l->cap)
		l->v[l->n++] = d->lat_ns;
}

/* Same seed, same output byte for byte; other seeds, independent noise. */
static void
test_determinism(void **state)
{
	static const char plain[] =
	    "[device]\nsize = 1G\n"
	    "[backing]\nlatency_us = 300\nsigma = 0.4\n";
	struct t_lat	 l[4];
	struct sim	*s;
	static const uint64_t seeds[4] = { 42, 42, 42, 43 };
	double		 ma = 0, mb = 0, sab = 0, saa = 0, sbb = 0, r, x, y;
	size_t		 i, n;

	(void)state;
	for (i = 0; i < 4; i++) {
		l[i].cap = 20000;
		l[i].n = 0;
		l[i].v = calloc(l[i].cap, sizeof *l[i].v);
		s = t_sim(i < 2 ? t_two_tiers : plain, seeds[i]);
		if (i < 2)
			t_drive(s, 4, 4096, 32 * T_MIB, 0, 5, 1, t_lat_cb,
			    &l[i]);
		else
			t_drive(s, 1, 4096, 1 * T_GIB, 0, 3, 1, t_lat_cb,
			    &l[i]);
		sim_free(s);
	}
	assert_int_equal(l[0].n, l[1].n);
	assert_true(l[0].n > 1000);
	assert_memory_equal(l[0].v, l[1].v, l[0].n * sizeof *l[0].v);

	/* Seeds 42 and 43: log latencies differ and don't correlate. */
	n = l[2].n < l[3].n ? l[2].n : l[3].n;
	assert_true(n > 5000);
	assert_memory_not_equal(l[2].v, l[3].v, n * sizeof *l[2].v);
	for (i = 0; i < n; i++) {
		ma += log((double)l[2].v[i]) / n;
		mb += log((double)l[3].v[i]) / n;
	}
	for (i = 0; i < n; i++) {
		x = log((double)l[2].v[i]) - ma;
		y = log((double)l[3].v[i]) - mb;
		sab += x * y;
		saa += x * x;
		sbb += y * y;
	}
	r = sab / sqrt(saa * sbb);
	if (fabs(r) > 0.05)
		fail_msg("seeds 42 and 43 correlate: r = %.3f", r);
	for (i = 0; i < 4; i++)
		free(l[i].v);
}

/* A first read is slow once; a written block never pays it. */
static void
test_first_read(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 1G\nfirst_read_us = 4000\n"
	    "[backing]\nlatency_us = 500\n";
	struct sim_stats st;
	struct sim	*s;
	uint64_t	 t = 0, d;

	(void)state;
	s = t_sim(ini, 1);
	d = sim_submit(s, t, 0, 4096, 0);
	assert_int_equal(d - t, 4500000);
	t = d;
	d = sim_submit(s, t, 0, 4096, 0);
	assert_int_equal(d - t, 500000);
	t = d;
	d = sim_submit(s, t, 8192, 4096, 1);		/* write */
	assert_int_equal(d - t, 500000);
	t = d;
	d = sim_submit(s, t, 8192, 4096, 0);
	assert_int_equal(d - t, 500000);
	t = d;
	d = sim_submit(s, t, 512 * T_MIB, 8192, 0);	/* two new blocks */
	assert_int_equal(d - t, 4500000);
	sim_get_stats(s, &st);
	assert_int_equal(st.first_reads, 2);
	sim_free(s);
}

/* Writes fill the tiers as reads do, though no tier serves a write. */
static void
test_writes_fill(void **state)
{
	struct sim_stats a, b;
	struct sim	*s;

	(void)state;
	s = t_sim(t_two_tiers, 1);
	/* Write 8 MiB, then read it: all from tier 0. */
	t_drive(s, 1, 4096, 8 * T_MIB, 1, 600, 1, NULL, NULL);
	sim_get_stats(s, &a);
	assert_true(a.writes > 0);
	assert_int_equal(a.hits[0] + a.hits[1] + a.misses, 0);
	t_drive(s, 1, 4096, 8 * T_MIB, 0, 2, 2, NULL, NULL);
	sim_get_stats(s, &b);
	assert_int_equal(b.misses, 0);
	assert_int_equal(b.hits[1], 0);
	assert_true(b.hits[0] > 0);
	sim_free(s);
}

/* The engine checks its input and follows the reap contract. */
static void
test_engine(void **state)
{
	static const char ini[] =
	    "[device]\nsize = 1M\nblock_size = 4096\n"
	    "[backing]\nlatency_us = 100\nconcurrency = 2\n";
	static const struct {
		unsigned	slot;
		uint32_t	len;
		uint64_t	offset;
		int		error;
	} bad[] = {
		{ 4, 4096, 0, -EINVAL },	/* no such slot */
		{ 0, 0, 0, -EINVAL },
		{ 0, 512, 0, -EINVAL },		/* below the block size */
		{ 0, 4096, 512, -EINVAL },	/* misaligned */
		{ 0, 16384, 0, -EINVAL },	/* above max_bs */
		{ 0, 4096, 1048576, -EINVAL },	/* past the end */
	};
	struct engine_done d[4];
	struct engine_io io[3];
	struct target	 tg;
	struct engine	 e;
	struct sim	*s;
	size_t		 i;

	(void)state;
	s = t_sim(ini, 1);
	memset(&tg, 0, sizeof tg);
	tg.direct = 1;
	tg.type = TARGET_FILE;
	memset(&e, 0, sizeof e);
	e.target = &tg;
	e.iodepth = 4;
	e.max_bs = 8192;
	assert_int_equal(engine_sim_ops.open(&e), -EINVAL);
	tg.type = TARGET_SIM;
	tg.sim = s;
	assert_int_equal(engine_sim_ops.open(&e), 0);
	assert_string_equal(engine_sim_ops.name, "sim");
	assert_true(engine_sim_ops.virtual_time);

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(io, 0, sizeof io);
		io[0].slot = bad[i].slot;
		io[0].len = bad[i].len;
		io[0].offset = bad[i].offset;
		assert_int_equal(engine_sim_ops.submit(&e, io, 1),
		    bad[i].error);
	}
	/* A slot used twice in one batch: nothing is submitted. */
	memset(io, 0, sizeof io);
	io[0].len = io[1].len = 4096;
	io[1].offset = 4096;
	assert_int_equal(engine_sim_ops.submit(&e, io, 2), -EBUSY);
	assert_int_equal(engine_sim_ops.reap(&e, d, 4, 0), 0);

	/* Three I/Os on two servers: 100, 100, 200 us. */
	for (i = 0; i < 3; i++) {
		io[i].slot = i;
		io[i].len = 4096;
		io[i].offset = i * 4096;
	}
	assert_int_equal(engine_sim_ops.submit(&e, io, 3), 0);
	assert_int_equal(engine_sim_ops.reap(&e, d, 4, 0), 0);
	assert_int_equal(engine_sim_ops.now_ns(&e), 0);
	assert_int_equal(engine_sim_ops.reap(&e, d, 4, 1), 2);
	assert_int_equal(engine_sim_ops.now_ns(&e), 100000);
	assert_int_equal(d[0].lat_ns, 100000);
	assert_int_equal(d[0].res, 4096);
	assert_int_equal(engine_sim_ops.submit(&e, &io[2], 1), -EBUSY);
	/* Asking for more than is in flight returns what there is. */
	assert_int_equal(engine_sim_ops.reap(&e, d, 4, 4), 1);
	assert_int_equal(d[0].slot, 2);
	assert_int_equal(d[0].lat_ns, 200000);
	assert_int_equal(engine_sim_ops.now_ns(&e), 200000);
	engine_sim_ops.close(&e);
	sim_free(s);
}

static int
t_cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/* Tier latencies the engine measures agree with the truth. */
static void
test_truth_latency(void **state)
{
	struct sim_truth t;
	struct t_lat	 l;
	struct sim	*s;
	uint64_t	 p50, p99;

	(void)state;
	s = t_sim(t_two_tiers, 9);
	sim_truth_profile(sim_profile(s), 4096, &t);
	assert_int_equal(t.ntiers, 2);
	assert_int_equal(t.tier[0].capacity_bytes, 16 * T_MIB);
	l.cap = 100000;
	l.n = 0;
	l.v = calloc(l.cap, sizeof *l.v);
	/* Warm 8 MiB, then read it: all tier 0. */
	t_drive(s, 1, 4096, 8 * T_MIB, 0, 30, 1, NULL, NULL);
	t_drive(s, 1, 4096, 8 * T_MIB, 0, 10, 2, t_lat_cb, &l);
	assert_true(l.n > 50000);
	qsort(l.v, l.n, sizeof *l.v, t_cmp_u64);
	p50 = l.v[l.n / 2];
	p99 = l.v[l.n * 99 / 100];
	t_assert_rel(p50 / 1e3, t.tier[0].lat_us_p50, 0.02, "p50");
	t_assert_rel(p99 / 1e3, t.tier[0].lat_us_p99, 0.03, "p99");
	free(l.v);
	sim_free(s);
}

/*
 * Outliers: their share, and every one within factor to 10 x factor the
 * median; the median and p99 the engine measures are the truth's.
 */
static void
test_outliers(void **state)
{
	static const char ini[] = "[device]\nsize = 1G\n[backing]\n"
	    "latency_us = 100\nsigma = 0.05\noutliers = 0.05\n";
	struct sim_truth t;
	struct t_lat	 l;
	struct sim	*s;
	size_t		 i, out = 0;

	(void)state;
	s = t_sim(ini, 3);
	sim_truth_profile(sim_profile(s), 4096, &t);
	l.cap = 100000;
	l.n = 0;
	l.v = calloc(l.cap, sizeof *l.v);
	t_drive(s, 1, 4096, 64 * T_MIB, 0, 60, 4, t_lat_cb, &l);
	assert_true(l.n > 20000);
	for (i = 0; i < l.n; i++) {
		if (l.v[i] < 2 * 100000)
			continue;
		out++;
		assert_true(l.v[i] >= 100 * 100000 * 0.999);
		assert_true(l.v[i] <= 1000 * 100000 * 1.001);
	}
	t_assert_rel((double)out / l.n, 0.05, 0.1, "outlier share");
	qsort(l.v, l.n, sizeof *l.v, t_cmp_u64);
	t_assert_rel(l.v[l.n / 2] / 1e3, t.backing_p50_us, 0.02, "p50");
	t_assert_rel(l.v[l.n * 99 / 100] / 1e3, t.backing_p99_us, 0.1, "p99");
	free(l.v);
	sim_free(s);
}

struct t_speeds {
	uint64_t	fast;		/* reads under the middle (30 us) */
	uint64_t	slow;		/* 30 to 80 us: the second speed */
};

static void
t_speeds_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_speeds	*c = arg;

	(void)now;
	if (d->lat_ns < 30000)
		c->fast++;
	else if (d->lat_ns < 80000)
		c->slow++;
}

/*
 * A tier whose hits come at two speeds: 20 us, and 50 us for second_share
 * of them while every read hits it, second_share_missed once the reads
 * spend their time missing it (a disk of 200 us behind); the truth's p50
 * is that of the mix at second_share.
 */
static void
test_second_speed(void **state)
{
	static const char ini[] = "[device]\nsize = 4G\n"
	    "[tier.0]\ncapacity = 64M\nlatency_us = 20\nsigma = 0.1\n"
	    "second_us = 50\nsecond_share = 0.2\n"
	    "second_share_missed = 0.6\n"
	    "[backing]\nlatency_us = 200\nsigma = 0.1\n";
	struct sim_truth t;
	struct t_speeds	 c;
	struct t_lat	 l;
	struct sim	*s;

	(void)state;
	s = t_sim(ini, 7);
	sim_truth_profile(sim_profile(s), 4096, &t);
	l.cap = 100000;
	l.n = 0;
	l.v = calloc(l.cap, sizeof *l.v);
	memset(&c, 0, sizeof c);
	t_drive(s, 1, 4096, 4 * T_MIB, 0, 5, 1, NULL, NULL);
	t_drive(s, 1, 4096, 4 * T_MIB, 0, 1, 2, t_speeds_cb, &c);
	t_drive(s, 1, 4096, 4 * T_MIB, 0, 1, 3, t_lat_cb, &l);
	t_assert_rel((double)c.slow / (c.fast + c.slow), 0.2, 0.05,
	    "second share, every read a hit");
	qsort(l.v, l.n, sizeof *l.v, t_cmp_u64);
	t_assert_rel(l.v[l.n / 2] / 1e3, t.tier[0].lat_us_p50, 0.02, "p50");
	/* 1 GiB: 6% hits, nearly all of the time spent missing. */
	memset(&c, 0, sizeof c);
	t_drive(s, 1, 4096, 1 * T_GIB, 0, 20, 4, t_speeds_cb, &c);
	assert_true(c.fast + c.slow > 1000);
	t_assert_rel((double)c.slow / (c.fast + c.slow), 0.6, 0.1,
	    "second share, reads missing");
	free(l.v);
	sim_free(s);
}

struct t_drifted {
	uint64_t	n[3];		/* reads completed in 1-3 s, 4-6 s and
					   after 10 s of the clock */
	uint64_t	slow[3];	/* of them, over 150 us */
};

static void
t_drift_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_drifted	*c = arg;
	double			 t = now * 1e-9;
	int			 w;

	w = t >= 1 && t < 3 ? 0 : t >= 4 && t < 6 ? 1 : t >= 10 ? 2 : -1;
	if (w < 0)
		return;
	c->n[w]++;
	c->slow[w] += d->lat_ns > 150000;
}

/*
 * A store whose latency drifts with the clock: 100 us at the start, a
 * share of its reads at 200 us growing with the clock to all of them at
 * drift_s (10 s): a fifth of them in the 1-3 s window, half in 4-6 s, all
 * after 10 s; the truth gives the start's.
 */
static void
test_drift(void **state)
{
	static const char ini[] = "[device]\nsize = 1G\n[backing]\n"
	    "latency_us = 100\nsigma = 0.05\ndrift_us = 200\n"
	    "drift_s = 10\n";
	static const double want[] = { 0.2, 0.5, 1 };
	struct sim_truth t;
	struct t_drifted c;
	struct sim	*s;
	size_t		 i;

	(void)state;
	s = t_sim(ini, 9);
	sim_truth_profile(sim_profile(s), 4096, &t);
	t_assert_rel(t.backing_p50_us, 100, 0.01, "truth: at the start");
	memset(&c, 0, sizeof c);
	t_drive(s, 1, 4096, 64 * T_MIB, 0, 12, 1, t_drift_cb, &c);
	for (i = 0; i < 3; i++) {
		assert_true(c.n[i] > 5000);
		t_assert_rel((double)c.slow[i] / c.n[i], want[i], 0.05,
		    "share drifted");
	}
	sim_free(s);
}

struct t_throttle {
	uint64_t	ios;
	uint64_t	stalls;		/* reads that waited for a window */
	uint64_t	window;		/* of the last read's dispatch */
	uint64_t	in_window;	/* reads dispatched in it */
	uint64_t	most;		/* most in any window */
	uint64_t	longest;	/* longest latency */
};

static void
t_throttle_cb(const struct engine_done *d, uint64_t now, void *arg)
{
	struct t_throttle	*c = arg;
	uint64_t		 w = (now - 100000) / 50000000;

	c->ios++;
	if (d->lat_ns > 1000000)
		c->stalls++;
	if (d->lat_ns > c->longest)
		c->longest = d->lat_ns;
	if (w != c->window) {
		c->window = w;
		c->in_window = 0;
	}
	if (++c->in_window > c->most)
		c->most = c->in_window;
}

/*
 * A throttled store (1,000 reads/s in windows of 50 ms) read at depth 1
 * with 100 us reads: 50 reads go at once in each window, the next waits
 * for the next window (a stall of ~45 ms), the long-run rate is the cap.
 */
static void
test_throttle(void **state)
{
	static const char ini[] = "[device]\nsize = 1G\n[backing]\n"
	    "latency_us = 100\nthrottle_iops = 1000\n"
	    "throttle_window_ms = 50\n";
	struct t_throttle c;
	struct sim	*s;

	(void)state;
	memset(&c, 0, sizeof c);
	s = t_sim(ini, 5);
	t_drive(s, 1, 4096, 64 * T_MIB, 0, 10, 6, t_throttle_cb, &c);
	t_assert_rel(c.ios / 10.0, 1000, 0.01, "rate");
	assert_int_equal(c.most, 50);
	t_assert_rel((double)c.stalls / c.ios, 1 / 50.0, 0.05, "stalls");
	assert_true(c.longest > 40000000);
	assert_true(c.longest <= 50000000);
	sim_free(s);
}

/* Bad profiles: one line naming the file, line and key. */
static void
test_profile_errors(void **state)
{
	static const char ok_tail[] = "[backing]\nlatency_us = 100\n";
	static const struct {
		const char	*ini;
		const char	*want1;
		const char	*want2;
	} cases[] = {
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 1\n[devise]\n",
		    "t.ini:5: ", "unknown section [devise]" },
		{ "[device]\nsize = 1G\n[tier.9]\n", "t.ini:3: ",
		    "unknown section [tier.9]" },
		{ "[device]\nsize = 1G\ncolour = red\n", "t.ini:3: ",
		    "[device] colour: unknown key" },
		{ "size = 1G\n", "t.ini:1: ", "key outside a section" },
		{ "[device]\nsize = -1G\n", "t.ini:2: ", "[device] size: " },
		{ "[device]\nsize = 0\n", "t.ini:2: ", "more than zero" },
		{ "[device]\nsize = lots\n", "t.ini:2: ", "[device] size: " },
		{ "[device]\nsize = 1G\nsize = 2G\n", "t.ini:3: ",
		    "given twice (first on line 2)" },
		{ "[device]\nsize 1G\n", "t.ini:2: ", "syntax error" },
		{ "[device]\ndescription = "
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "\nsize = 1G\n", "t.ini:2: ", "longer than" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 64M\n"
		    "latency_us = 1\n[tier.1]\ncapacity = 32M\n"
		    "latency_us = 2\n[backing]\nlatency_us = 3\n",
		    "t.ini:4: ", "[tier.0] capacity: 64 MiB is not smaller "
		    "than the next" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1G\n"
		    "latency_us = 1\n[backing]\nlatency_us = 3\n",
		    "t.ini:4: ", "not smaller than the device" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1000\n"
		    "latency_us = 1\n[backing]\nlatency_us = 3\n",
		    "t.ini:4: ", "[tier.0] capacity: not a multiple" },
		{ "[device]\nsize = 1T\n[tier.0]\ncapacity = 256G\n"
		    "latency_us = 1\n[backing]\nlatency_us = 3\n",
		    "t.ini:4: ", "raise [device] cache_block" },
		{ "[device]\nsize = 1G\n[tier.1]\ncapacity = 1M\n"
		    "latency_us = 1\n[backing]\nlatency_us = 3\n",
		    "t.ini:3: ", "[tier.1] without [tier.0]" },
		{ "[device]\nsize = 1G\n[tier.0]\nlatency_us = 1\n"
		    "[backing]\nlatency_us = 3\n",
		    "t.ini:3: ", "[tier.0] capacity is missing" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = fast\n",
		    "t.ini:4: ", "[backing] latency_us: not a number" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 1ms\n",
		    "t.ini:4: ", "[backing] latency_us: not a number" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = -5\n",
		    "t.ini:4: ", "must be more than zero" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 5\n"
		    "sigma = wide\n", "t.ini:5: ", "[backing] sigma: not a "
		    "number" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 5\n"
		    "concurrency = 0\n", "t.ini:5: ", "[backing] concurrency" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 5\n"
		    "concurrency = 2.5\n", "t.ini:5: ",
		    "[backing] concurrency" },
		{ "[device]\nsize = 1G\n[backing]\nsigma = 1\n", "t.ini:3: ",
		    "[backing] latency_us is missing" },
		{ "[device]\nblock_size = 4096\n", "t.ini:1: ",
		    "[device] size is missing" },
		{ "[device]\nsize = 1G\nblock_size = 1000\n", "t.ini:3: ",
		    "[device] block_size" },
		{ "[device]\nsize = 1G\n[limit]\nbandwidth = fast\n",
		    "t.ini:4: ", "[limit] bandwidth: " },
		{ "[device]\nsize = 1G\n[burst]\niops = 3000\n"
		    "credits = 100\n", "t.ini:4: ", "[burst] iops: needs" },
		{ "[device]\nsize = 1G\n[limit]\niops = 300\n[burst]\n"
		    "iops = 200\ncredits = 100\n", "t.ini:6: ",
		    "[burst] iops: must be above" },
		{ "[device]\nsize = 1G\n[limit]\niops = 300\n[burst]\n"
		    "iops = 3000\n", "t.ini:5: ", "go together" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 100\n"
		    "outliers = 0.6\n", "t.ini:5: ", "at most 0.5" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1M\n"
		    "latency_us = 5\noutlier_factor = 0.5\n", "t.ini:6: ",
		    "[tier.0] outlier_factor: must be 1 or more" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 100\n"
		    "throttle_iops = 5\n", "t.ini:5: ",
		    "less than one read a window of 100 ms" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1M\n"
		    "latency_us = 5\nsecond_share = 0.2\n", "t.ini:3: ",
		    "[tier.0] second_sigma, second_share and "
		    "second_share_missed need second_us" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1M\n"
		    "latency_us = 5\nsecond_us = 10\n", "t.ini:6: ",
		    "[tier.0] second_us: needs second_share" },
		{ "[device]\nsize = 1G\n[tier.0]\ncapacity = 1M\n"
		    "latency_us = 5\nsecond_us = 10\nsecond_share = 1.5\n",
		    "t.ini:7: ", "[tier.0] second_share: 1.5 is too large" },
		{ "[device]\nsize = 1G\n[backing]\nlatency_us = 100\n"
		    "drift_us = 150\n", "t.ini:5: ",
		    "[backing] drift_us and drift_s go together" },
	};
	char	*cause, ini[1024];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		/* Append a backing store where the case has none. */
		snprintf(ini, sizeof ini, "%s%s", cases[i].ini,
		    strstr(cases[i].ini, "[backing]") == NULL &&
		    strstr(cases[i].want2, "missing") == NULL ? ok_tail : "");
		cause = t_reject(ini);
		if (strncmp(cause, cases[i].want1, strlen(cases[i].want1))
		    != 0 || strstr(cause, cases[i].want2) == NULL)
			fail_msg("case %zu: \"%s\", want \"%s...%s\"", i, cause,
			    cases[i].want1, cases[i].want2);
		if (strchr(cause, '\n') != NULL)
			fail_msg("case %zu: more than one line", i);
		free(cause);
	}
}

/* Comments, indentation and defaults are accepted. */
static void
test_profile_parse(void **state)
{
	static const char ini[] =
	    "; a comment\n# another\n\n"
	    "[device]\n  size = 2G ; inline comment\n"
	    "   description = two words\n"
	    "[tier.0]\ncapacity = 1.25M\nlatency_us = 2.5e2\n"
	    "[backing]\nlatency_us = 1000\n"
	    "[limit]\nbandwidth = 100M/s\n";
	struct profile	*p;

	(void)state;
	p = t_profile(ini);
	assert_string_equal(p->name, "t");
	assert_string_equal(p->description, "two words");
	assert_int_equal(p->size, 2 * T_GIB);
	assert_int_equal(p->block_size, 4096);
	assert_int_equal(p->cache_block, 4096);
	assert_int_equal(p->ntiers, 1);
	assert_int_equal(p->tier[0].capacity, 1280 * T_KIB);
	assert_true(p->tier[0].latency_us == 250);
	assert_true(p->tier[0].sigma == 0);
	assert_int_equal(p->concurrency, 1);
	assert_true(p->limit_bandwidth == 100.0 * T_MIB);
	profiles_free(p);
}

/* Files: missing, a directory, a good one loaded by path. */
static void
test_profile_files(void **state)
{
	struct profile	*p;
	struct sim	*s;
	char		*cause = NULL, path[] = "/tmp/test_sim.XXXXXX", *big;
	FILE		*f;
	size_t		 i;
	int		 fd;

	(void)state;
	assert_null(profiles_load("/nonexistent/x.ini", &cause));
	assert_non_null(strstr(cause, "/nonexistent/x.ini: "));
	assert_non_null(strstr(cause, strerror(ENOENT)));
	free(cause);
	assert_null(profiles_load("/tmp/", &cause));
	assert_non_null(strstr(cause, "/tmp/: a directory"));
	free(cause);
	/* Devices, endless or not: refused before a byte is read. */
	assert_null(profiles_load("/dev/zero", &cause));
	assert_non_null(strstr(cause, "/dev/zero: a device"));
	free(cause);
	assert_null(profiles_load("/dev/null", &cause));
	assert_non_null(strstr(cause, "/dev/null: a device"));
	free(cause);
	/* A stream (a file growing as it is read) stops at the limit. */
	big = malloc(2 * PROFILES_FILE_MAX);
	assert_non_null(big);
	for (i = 0; i < 2 * PROFILES_FILE_MAX; i++)
		big[i] = i % 64 == 63 ? '\n' : ';';
	f = fmemopen(big, 2 * PROFILES_FILE_MAX, "r");
	assert_non_null(f);
	assert_null(profiles_parse(f, "stream", &cause));
	assert_non_null(strstr(cause, "larger than 1048576 bytes"));
	free(cause);
	fclose(f);
	free(big);

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[device]\nsize = 1G\n[backing]\nlatency_us = 1\n[nope]\n", f);
	fclose(f);
	assert_null(sim_open(path, 1, &cause));
	assert_non_null(strstr(cause, path));
	assert_non_null(strstr(cause, ":5: unknown section [nope]"));
	free(cause);
	f = fopen(path, "w");
	fputs("[device]\nname = mine\nsize = 1G\n"
	    "[backing]\nlatency_us = 1\n", f);
	fclose(f);
	s = sim_open(path, 1, &cause);
	assert_non_null(s);
	assert_string_equal(sim_profile(s)->name, "mine");
	assert_int_equal(sim_size(s), T_GIB);
	assert_int_equal(sim_block_size(s), 4096);
	sim_free(s);
	p = profiles_load(path, &cause);
	assert_non_null(p);
	assert_string_equal(p->path, path);
	profiles_free(p);
	unlink(path);
}

static const char *const t_builtin[] = {
	"classic-three-level", "ebs-gp2-100g", "ebs-gp2-1t", "ebs-gp3",
	"ebs-gp3-restored", "ebs-io1-4000", "ebs-io1-50k-m5", "ebs-st1",
	"nvme-instance-store",
};

/*
 * I/Os one after another (each at the last one's completion) from *t
 * until the clock passes until: their rate per second.
 */
static double
t_back_to_back(struct sim *s, uint64_t *t, uint64_t until)
{
	uint64_t	from = *t, n = 0;

	while (*t < until) {
		*t = sim_submit(s, *t, 0, 4096, 0);
		n++;
	}
	return ((double)n / ((double)(*t - from) / T_SEC));
}

/*
 * An instance bucket (burst 1,000 IOPS for 10 s over a 100 IOPS baseline)
 * earns at the baseline below it, and with burst_period_s is full again
 * at every multiple of the period however it was used: under a demand
 * that never lets up, the burst comes back at 100 s only then.
 */
static void
test_instance_period(void **state)
{
	static const char base[] =
	    "[device]\nsize = 1G\n"
	    "[backing]\nlatency_us = 10\nconcurrency = 64\n"
	    "[instance]\niops = 100\nburst_iops = 1000\n"
	    "burst_duration_s = 10\n";
	char		 ini[256], *cause;
	struct sim	*s;
	uint64_t	 t;
	int		 period;

	(void)state;
	for (period = 0; period <= 1; period++) {
		snprintf(ini, sizeof ini, "%s%s", base, period ?
		    "burst_period_s = 100\n" : "");
		s = t_sim(ini, 3);
		t = 0;
		t_assert_rel(t_back_to_back(s, &t, 8 * T_SEC), 1000, 0.02,
		    "burst from full");
		t_back_to_back(s, &t, 20 * T_SEC);
		t_assert_rel(t_back_to_back(s, &t, 40 * T_SEC), 100, 0.02,
		    "baseline once empty");
		/* 20 s idle earn 2,000 I/Os: 2.2 s more at the burst. */
		t = 60 * T_SEC;
		t_assert_rel(t_back_to_back(s, &t, 62 * T_SEC), 1000, 0.02,
		    "burst earned below the baseline");
		t_back_to_back(s, &t, 70 * T_SEC);
		t_assert_rel(t_back_to_back(s, &t, 99 * T_SEC), 100, 0.02,
		    "baseline under full demand");
		t_back_to_back(s, &t, 101 * T_SEC);
		t_assert_rel(t_back_to_back(s, &t, 108 * T_SEC),
		    period ? 1000 : 100, 0.02, period ?
		    "full again at the period" : "no refill without one");
		sim_free(s);
	}
	cause = t_reject("[device]\nsize = 1G\n[backing]\nlatency_us = 10\n"
	    "[instance]\niops = 100\nburst_iops = 1000\n"
	    "burst_duration_s = 10\nburst_period_s = 5\n");
	assert_non_null(strstr(cause, "no shorter"));
	free(cause);
}

/* Every built-in profile loads, and its truth is what its sources say. */
static void
test_builtin(void **state)
{
	struct sim_truth t;
	struct sim	*s;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof t_builtin / sizeof t_builtin[0]; i++) {
		s = sim_open(t_builtin[i], 1, &cause);
		if (s == NULL)
			fail_msg("%s: %s", t_builtin[i], cause);
		assert_string_equal(sim_profile(s)->name, t_builtin[i]);
		assert_true(strlen(sim_profile(s)->description) > 20);
		sim_free(s);
	}

	s = sim_open("ebs-gp2-100g", 1, &cause);
	sim_truth_profile(sim_profile(s), 4096, &t);
	assert_int_equal(t.size, 100 * T_GIB);
	assert_int_equal(t.ntiers, 0);
	assert_true(t.burst_detected);
	t_assert_rel(t.burst_iops, 3000, 1e-9, "gp2 burst");
	t_assert_rel(t.baseline_iops, 300, 1e-9, "gp2 baseline");
	t_assert_rel(t.burst_duration_s, 2000, 1e-9, "gp2 duration");
	t_assert_rel(t.burst_credits_ios, 5.4e6, 1e-9, "gp2 credits");
	t_assert_rel(t.refill_s, 18000, 1e-9, "gp2 refill");
	t_assert_rel(t.bandwidth_ceiling, 128.0 * T_MIB, 1e-9, "gp2 bw");
	t_assert_rel(t.bandwidth_sustained, 300 * 256.0 * T_KIB, 1e-9,
	    "gp2 bw without credits");
	assert_int_equal(t.io_accounting_bytes, 256 * T_KIB);
	/* 3000 x 256 KiB is above 128 MiB/s; 300 x 256 KiB is below. */
	assert_false(t.io_accounting_observable);
	assert_true(t.io_accounting_observable_sustained);
	assert_int_equal(t.knee_iodepth, 2);
	sim_free(s);

	s = sim_open("ebs-gp2-1t", 1, &cause);
	sim_truth_profile(sim_profile(s), 4096, &t);
	assert_false(t.burst_detected);
	t_assert_rel(t.iops_ceiling, 3000, 1e-9, "gp2 1t iops");
	t_assert_rel(t.bandwidth_ceiling, 250.0 * T_MIB, 1e-9, "gp2 1t bw");
	sim_free(s);

	s = sim_open("ebs-gp3", 1, &cause);
	sim_truth_profile(sim_profile(s), 16384, &t);
	t_assert_rel(t.iops_ceiling, 3000, 1e-9, "gp3 iops");
	t_assert_rel(t.bandwidth_ceiling, 125.0 * T_MIB, 1e-9, "gp3 bw");
	assert_false(t.io_accounting_observable);
	sim_free(s);

	s = sim_open("ebs-io1-50k-m5", 1, &cause);
	sim_truth_profile(sim_profile(s), 16384, &t);
	t_assert_rel(t.iops_ceiling, 30000, 1e-9, "io1 50k iops");
	assert_int_equal(t.iops_limiter, SIM_LIMIT_INSTANCE_IOPS);
	/* 16 KiB per provisioned IOPS, under the instance's 850 MB/s. */
	t_assert_rel(t.bandwidth_ceiling, 50000 * 16384.0, 1e-9, "io1 50k bw");
	assert_int_equal(t.bandwidth_limiter, SIM_LIMIT_VOLUME_BANDWIDTH);
	assert_true(t.knee_iodepth >= 8 && t.knee_iodepth <= 32);
	sim_free(s);

	s = sim_open("classic-three-level", 1, &cause);
	sim_truth_profile(sim_profile(s), 16384, &t);
	assert_int_equal(t.ntiers, 2);
	assert_int_equal(t.tier[0].capacity_bytes, 1280 * T_MIB);
	assert_int_equal(t.tier[1].capacity_bytes, 2304 * T_MIB);
	assert_true(t.tier[0].lat_us_p50 < t.tier[1].lat_us_p50);
	assert_true(t.tier[1].lat_us_p50 < t.backing_p50_us);
	sim_free(s);

	s = sim_open("ebs-st1", 1, &cause);
	sim_truth_profile(sim_profile(s), 1024 * 1024, &t);
	assert_true(t.bw_burst_detected);
	t_assert_rel(t.bandwidth_ceiling, 500.0 * T_MIB, 1e-9, "st1 burst");
	t_assert_rel(t.bandwidth_sustained, 80.0 * T_MIB, 1e-9, "st1 base");
	t_assert_rel(t.bw_burst_duration_s, 2.0 * T_GIB * 1024 /
	    (420.0 * T_MIB), 1e-9, "st1 duration");
	sim_free(s);

	s = sim_open("nvme-instance-store", 1, &cause);
	sim_truth_profile(sim_profile(s), 16384, &t);
	assert_int_equal(t.iops_limiter, SIM_LIMIT_BACKING);
	assert_int_equal(t.knee_iodepth, 4);
	assert_true(isnan(t.optimal_io_bytes));
	sim_free(s);

	/* An unknown name lists the names. */
	assert_null(sim_open("ebs-gp9", 1, &cause));
	assert_non_null(strstr(cause, "\"ebs-gp9\""));
	for (i = 0; i < sizeof t_builtin / sizeof t_builtin[0]; i++)
		assert_non_null(strstr(cause, t_builtin[i]));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hit_ratio),
		cmocka_unit_test(test_lru_order),
		cmocka_unit_test(test_lru_reference),
		cmocka_unit_test(test_token_bucket),
		cmocka_unit_test(test_burst),
		cmocka_unit_test(test_iodepth),
		cmocka_unit_test(test_io_accounting),
		cmocka_unit_test(test_transfer),
		cmocka_unit_test(test_determinism),
		cmocka_unit_test(test_first_read),
		cmocka_unit_test(test_writes_fill),
		cmocka_unit_test(test_engine),
		cmocka_unit_test(test_truth_latency),
		cmocka_unit_test(test_outliers),
		cmocka_unit_test(test_throttle),
		cmocka_unit_test(test_second_speed),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_profile_errors),
		cmocka_unit_test(test_profile_parse),
		cmocka_unit_test(test_profile_files),
		cmocka_unit_test(test_builtin),
		cmocka_unit_test(test_instance_period),
	};
	const char	*top = getenv("TOP_SRCDIR");

	/* Built-in profiles from this source tree, not an installed copy. */
	setenv("TIERPROBE_DATADIR", top != NULL ? top : TP_SRCDIR, 1);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

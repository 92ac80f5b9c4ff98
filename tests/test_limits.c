/* SPDX-License-Identifier: ISC */
/*
 * Description: limits_run end to end on simulated volumes, against each
 * profile's truth: IOPS and bandwidth ceilings within 5% (the block-size
 * sweep going on to 4 MiB while bandwidth rises; where it still rises
 * there, a lower bound that holds), the accounting
 * size exact where the bandwidth cap does not hide it, burst and baseline
 * rates within 10% and the bucket within 15% (also when a scan drained
 * part of it first, or when it runs dry during the sweeps), the long-run
 * rate and the bandwidth left after a drop, what a run without a drop
 * rules out, no burst without a bucket, first-read penalties told from
 * cache tiers, writes, the safety refusal, and lower bounds for both
 * ceilings behind a queue too shallow to show a cap; 20 seeds each.
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
#include "fit.h"
#include "limits.h"
#include "progress.h"
#include "rng.h"
#include "sampler.h"
#include "sim.h"
#include "t_rel.h"
#include "t_sim.h"
#include "target.h"

#define T_SEEDS		20
#define GiB		(1024ULL * 1024 * 1024)

static void
t_target_close(struct target *t)
{
	target_close(t, 0);
}

/*
 * Open simulated volume name for a seed, with its truth in tr and rng
 * seeded alike; what names the case ("label seed N") in failures.
 */
static void
t_case(const char *name, const char *label, uint64_t seed, struct target *t,
    struct sim_truth *tr, struct rng *rng, char *what, size_t len)
{
	snprintf(what, len, "%s seed %d", label, (int)seed);
	t_sim_open(t, name, seed);
	sim_truth_profile(sim_profile(t->sim), 4096, tr);
	rng_seed(rng, seed);
}

/*
 * A sustained run long enough to see a bucket empty: three times as long
 * as it lasts from full (at least the default, at most six hours).  The
 * simulator runs in virtual time, so a long run is cheap; the CLI's
 * default is the same on simulated and real volumes.
 */
static double
t_sustain(const struct sim_truth *tr)
{
	double	s = LIMITS_SUSTAIN_S;

	if (tr->burst_detected && 3 * tr->burst_duration_s > s)
		s = 3 * tr->burst_duration_s;
	return (s < 6 * 3600.0 ? s : 6 * 3600.0);
}

static void
t_spec(struct limits_spec *s, uint64_t ws)
{
	memset(s, 0, sizeof *s);
	s->ws_bytes = ws;
	s->bs = 4096;
	s->max_iodepth = 256;
	s->engine = "sim";
}

static const char *
t_data(const char *name)
{
	static char	path[4096];

	snprintf(path, sizeof path, "%s/tests/data/%s", TP_SRCDIR, name);
	return (path);
}

/*
 * What the run must find on a profile (the figures come from its truth).
 * The sustained run lasts t_sustain() except on the fastest profiles,
 * where a minute keeps the test short; those (no bucket, half the test's
 * time at 20 seeds) and ebs-gp2-100g (a 6,000 s run) get fewer seeds,
 * limits-burst.ini tests the same bucket on all of them.
 */
static const struct {
	const char	*profile;	/* built-in name, or tests/data file */
	int		 data;
	uint64_t	 ws;		/* beyond the caches */
	int		 bw;		/* bandwidth ceiling reached by 4 MiB;
					   else a lower bound (of the store's
					   rate, caches adding their share) */
	double		 sustain_s;	/* 0: t_sustain() */
	int		 seeds;
} t_profiles[] = {
	{ "ebs-gp3", 0, 16 * GiB, 1, 0, T_SEEDS },
	{ "ebs-gp2-1t", 0, 16 * GiB, 1, 0, T_SEEDS },
	{ "ebs-io1-4000", 0, 16 * GiB, 1, 0, T_SEEDS },
	{ "ebs-io1-50k-m5", 0, 16 * GiB, 1, 60, T_SEEDS / 2 },
	{ "nvme-instance-store", 0, 16 * GiB, 1, 60, T_SEEDS / 2 },
	{ "ebs-st1", 0, 16 * GiB, 1, 0, T_SEEDS }, /* flat from 1 MiB */
	{ "classic-three-level", 0, 8 * GiB, 0, 0, T_SEEDS }, /* one disk */
	{ "ebs-gp2-100g", 0, 16 * GiB, 1, 0, 5 },
	{ "limits-acct.ini", 1, 16 * GiB, 1, 0, T_SEEDS },
	{ "limits-burst.ini", 1, 16 * GiB, 1, 0, T_SEEDS },
};

/*
 * The share of reads over ws that miss every cache once they are warm:
 * what the store serves while the caches serve the rest alongside it.
 */
static double
t_miss(const struct sim_truth *tr, uint64_t ws)
{
	if (tr->ntiers == 0)
		return (1);
	return (1 - fmin(1, (double)tr->tier[tr->ntiers - 1].capacity_bytes /
	    ws));
}

/* Accounting shows when the IOPS cap times the unit binds bandwidth. */
static uint64_t
t_acct_expected(const struct sim_truth *tr)
{
	if (tr->io_accounting_bytes == 0 ||
	    tr->io_accounting_bytes > 256 * 1024)
		return (0);
	switch (tr->bandwidth_limiter) {
	case SIM_LIMIT_VOLUME_IOPS:
	case SIM_LIMIT_BURST_IOPS:
	case SIM_LIMIT_INSTANCE_IOPS:
		return (tr->io_accounting_bytes);
	default:
		return (0);
	}
}

static void
t_profiles_truth(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct sim_truth	tr;
	struct target		t;
	struct rng		rng;
	const char		*name;
	size_t			i;
	uint64_t		seed;
	char			what[128];

	(void)state;
	for (i = 0; i < sizeof t_profiles / sizeof t_profiles[0]; i++) {
		name = t_profiles[i].data ? t_data(t_profiles[i].profile) :
		    t_profiles[i].profile;
		for (seed = 1; seed <= (uint64_t)t_profiles[i].seeds; seed++) {
			t_case(name, t_profiles[i].profile, seed, &t, &tr,
			    &rng, what, sizeof what);
			t_spec(&s, t_profiles[i].ws);
			s.sustain_s = t_profiles[i].sustain_s > 0 ?
			    t_profiles[i].sustain_s : t_sustain(&tr);
			if (limits_run(&t, &rng, &s, &r) != 0)
				fail_msg("%s: limits_run failed", what);

			/* Ceilings, while any bucket is full. */
			if (r.iops_limit != CEILINGS_IOPS_CAP)
				fail_msg("%s: limit %s", what,
				    ceilings_iops_limit_name(r.iops_limit));
			T_REL_AT(what, r.iops_ceiling, tr.iops_ceiling, 0.05);
			assert_true(r.iops_knee_iodepth >= 1);
			assert_true(r.iops_knee_iodepth <=
			    2 * tr.knee_iodepth);
			assert_false(r.iops_ceiling_at_least);
			assert_true(r.iops_ceiling_low <= r.iops_ceiling &&
			    r.iops_ceiling <= r.iops_ceiling_high);
			if (t_profiles[i].bw) {
				T_REL_AT(what, r.bandwidth_ceiling_bytes_per_s,
				    tr.bandwidth_ceiling, 0.05);
				assert_false(r.bandwidth_ceiling_at_least);
			} else if (!r.bandwidth_ceiling_at_least ||
			    r.bs_stop != LIMITS_STOP_EDGE ||
			    !(r.bandwidth_ceiling_bytes_per_s <=
			    tr.bandwidth_ceiling / t_miss(&tr, r.ws_bytes)))
				fail_msg("%s: bandwidth %.4g (at least %d, stop "
				    "%s), want a lower bound at 4 MiB", what,
				    r.bandwidth_ceiling_bytes_per_s,
				    r.bandwidth_ceiling_at_least,
				    limits_stop_name(r.bs_stop));
			if (r.io_accounting_bytes != t_acct_expected(&tr))
				fail_msg("%s: accounting %llu, want %llu",
				    what,
				    (unsigned long long)r.io_accounting_bytes,
				    (unsigned long long)t_acct_expected(&tr));

			/* Buckets. */
			if (r.burst.detected != tr.burst_detected)
				fail_msg("%s: burst %d, want %d", what,
				    r.burst.detected, tr.burst_detected);
			if (tr.burst_detected) {
				assert_false(r.burst.exhausted);
				T_REL_AT(what, r.burst.burst_iops,
				    tr.burst_iops, 0.10);
				T_REL_AT(what, r.burst.baseline_iops,
				    tr.baseline_iops, 0.10);
				T_REL_AT(what, r.burst.credits_ios,
				    tr.burst_credits_ios, 0.15);
				T_REL_AT(what, r.burst.duration_s,
				    tr.burst_duration_s, 0.15);
				T_REL_AT(what, r.long_run_iops,
				    tr.baseline_iops, 0.10);
				T_REL_AT(what, r.baseline_bandwidth,
				    tr.bandwidth_sustained, 0.05);
			} else {
				assert_true(isnan(r.burst.burst_iops));
				/* Caches warming up change the rate. */
				if (r.burst.variable && tr.ntiers == 0)
					fail_msg("%s: variable", what);
				assert_true(isnan(r.long_run_iops));
				T_REL_AT(what, r.burst.held_iops,
				    r.sustain.iops, 0.02);
				assert_true(r.burst.ruled_out_below_ios >
				    r.burst.held_iops * r.burst.held_s);
			}
			assert_true(r.timeline.n >= 60);
			assert_false(r.interrupted);
			limits_result_free(&r);
			t_target_close(&t);
		}
	}
}

/* A scan drained part of the bucket first: handed over as prior work. */
static void
t_prior_scan(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct sample_spec	ss;
	struct ceilings_prior	prior;
	struct sim_truth	tr;
	struct target		t;
	struct engine		e;
	struct point		pt;
	struct rng		rng;
	double			spent;
	uint64_t		seed;
	char			what[64];

	(void)state;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		t_case(t_data("limits-burst.ini"), "prior scan", seed, &t,
		    &tr, &rng, what, sizeof what);

		/* 30 s at depth 4: about 81,000 of the 300,000 credits. */
		assert_int_equal(engine_open(&e, "sim", &t, 4, 4096, 0), 0);
		memset(&ss, 0, sizeof ss);
		ss.ws_bytes = ss.warm_from = 16 * GiB;
		ss.bs = 4096;
		ss.iodepth = 4;
		ss.fixed_time = 1;
		ss.max_time_s = ss.min_time_s = 30;
		assert_int_equal(sampler_measure(&e, &rng, &ss, &pt, NULL,
		    NULL, NULL), 0);
		engine_close(&e);
		prior.ios = pt.ios;
		prior.seconds = pt.seconds + pt.warm_seconds;
		point_free(&pt);

		t_spec(&s, 16 * GiB);
		s.prior = &prior;
		s.nprior = 1;
		assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
		assert_true(r.burst.detected);
		T_REL_AT(what, r.burst.credits_ios, tr.burst_credits_ios,
		    0.15);
		spent = prior.ios - tr.baseline_iops * prior.seconds;
		assert_true(r.burst.prior_credits_ios > spent);
		limits_result_free(&r);
		t_target_close(&t);

		/* Without it the bucket looks smaller by what the scan
		 * spent: the prior work is what makes it right. */
		t_sim_open(&t, t_data("limits-burst.ini"), seed);
		rng_seed(&rng, seed);
		assert_int_equal(engine_open(&e, "sim", &t, 4, 4096, 0), 0);
		assert_int_equal(sampler_measure(&e, &rng, &ss, &pt, NULL,
		    NULL, NULL), 0);
		engine_close(&e);
		point_free(&pt);
		s.nprior = 0;
		assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
		assert_true(r.burst.detected);
		T_REL_AT(what, r.burst.credits_ios,
		    tr.burst_credits_ios - spent, 0.15);
		limits_result_free(&r);
		t_target_close(&t);
	}
}

/*
 * A bucket that runs dry during the sweeps (the iodepth sweep, or the
 * block-size sweep): the drop is found in their timeline, never read as a
 * knee; both rates, the bucket and the long-run rate come out, the
 * ceilings are the burst state's, and the bandwidth left at the baseline
 * is measured.
 */
static void
t_drained_in_sweeps(void **state)
{
	static const char *const profiles[] = { "limits-burst-qd.ini",
	    "limits-burst-sweeps.ini" };
	struct limits_result	r;
	struct limits_spec	s;
	struct sim_truth	tr;
	struct target		t;
	struct rng		rng;
	size_t			i;
	uint64_t		seed;
	char			what[128];

	(void)state;
	for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			t_case(t_data(profiles[i]), profiles[i], seed, &t,
			    &tr, &rng, what, sizeof what);
			t_spec(&s, 16 * GiB);
			s.sustain_s = 60;
			assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
			if (!r.burst.detected || !r.burst.exhausted ||
			    !(r.burst.drop_sweep_t_s > 0) ||
			    !(r.burst.drop_sweep_t_s < r.sustain_start_s))
				fail_msg("%s: detected %d exhausted %d drop at "
				    "%.1f s", what, r.burst.detected,
				    r.burst.exhausted,
				    r.burst.drop_sweep_t_s);
			T_REL_AT(what, r.burst.burst_iops, tr.burst_iops,
			    0.10);
			T_REL_AT(what, r.burst.baseline_iops,
			    tr.baseline_iops, 0.10);
			T_REL_AT(what, r.burst.credits_ios,
			    tr.burst_credits_ios, 0.15);
			T_REL_AT(what, r.burst.duration_s,
			    tr.burst_duration_s, 0.15);
			T_REL_AT(what, r.long_run_iops, tr.baseline_iops,
			    0.10);
			/* Unknown if the cap was not reached before. */
			if (!isnan(r.iops_ceiling))
				T_REL_AT(what, r.iops_ceiling,
				    tr.iops_ceiling, 0.05);
			T_REL_AT(what, r.baseline_bandwidth,
			    tr.bandwidth_sustained, 0.05);
			limits_result_free(&r);
			t_target_close(&t);
		}
	}
}

/*
 * The quick preset's sustained run ends once its rate held, after 8 s at
 * least: the report says so and how long a bucket could go unseen.  A
 * fixed run does not end early.
 */
static void
t_quick_sustain(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct target		t;
	struct rng		rng;
	uint64_t		seed;
	char			what[64];

	(void)state;
	for (seed = 1; seed <= T_SEEDS; seed++) {
		snprintf(what, sizeof what, "ebs-gp3 seed %d", (int)seed);
		t_sim_open(&t, "ebs-gp3", seed);
		t_spec(&s, 16 * GiB);
		s.sustain_s = 15;
		s.sustain_min_s = LIMITS_SUSTAIN_QUICK_S;
		rng_seed(&rng, seed);
		assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
		if (!r.sustain_early || r.timeline.n < 8 || r.timeline.n >= 15)
			fail_msg("%s: early %d after %zu s", what,
			    r.sustain_early, r.timeline.n);
		assert_false(r.burst.detected);
		assert_true(r.burst.held_s == r.timeline.v[r.timeline.n -
		    4].t_s);
		limits_result_free(&r);
		t_target_close(&t);

		t_sim_open(&t, "ebs-gp3", seed);
		s.sustain_min_s = 0;
		assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
		assert_false(r.sustain_early);
		assert_int_equal(r.timeline.n, 15);
		limits_result_free(&r);
		t_target_close(&t);
	}
}

/*
 * Past max_iodepth (64) the sweep goes on to deep_iodepth (128) only while
 * IOPS still rise: a store serving 4096 reads at once goes to 128 and is
 * still rising there; one serving 40 goes to 128 and finds its ceiling
 * (40 x 1/ms) instead of a lower bound at 64; one serving 16 stops flat
 * at 64.  The sustained run stays within the depths swept.
 */
static void
t_deeper(void **state)
{
	static const struct {
		unsigned	conc;
		unsigned	deepest;
		int		at_least;
	} t[] = {
		{ 4096, 128, 1 },
		{ 40, 128, 0 },
		{ 16, 64, 0 },
	};
	struct limits_result	r;
	struct limits_spec	s;
	struct target		tg;
	struct rng		rng;
	char			path[] = "/tmp/tp-limits-deep.XXXXXX";
	FILE			*f;
	size_t			i;
	int			fd;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		assert_true((fd = mkstemp(path)) >= 0);
		assert_non_null(f = fdopen(fd, "w"));
		fprintf(f, "[device]\nname = deep\ndescription = %u at once\n"
		    "size = 8G\n[backing]\nlatency_us = 1000\nsigma = 0.1\n"
		    "concurrency = %u\n[limit]\niops = 1000000\n"
		    "bandwidth = 4G\nio_accounting = 4K\n", t[i].conc,
		    t[i].conc);
		assert_int_equal(fclose(f), 0);
		t_sim_open(&tg, path, 1);
		assert_int_equal(unlink(path), 0);
		memcpy(path + strlen(path) - 6, "XXXXXX", 6);
		t_spec(&s, GiB);
		s.max_iodepth = 64;
		s.deep_iodepth = 128;
		s.max_time_s = 1;
		s.no_sustain = 1;
		rng_seed(&rng, 1);
		assert_int_equal(limits_run(&tg, &rng, &s, &r), 0);
		if (r.qd_points[r.nqd - 1].iodepth != t[i].deepest ||
		    r.iops_ceiling_at_least != t[i].at_least)
			fail_msg("%u at once: swept to %u, at least %d",
			    t[i].conc, r.qd_points[r.nqd - 1].iodepth,
			    r.iops_ceiling_at_least);
		if (!t[i].at_least)
			T_REL(r.iops_ceiling, t[i].conc * 1e3, 0.05);
		assert_true(r.sustain_iodepth <= t[i].deepest);
		limits_result_free(&r);
		t_target_close(&tg);
	}
}

/* First reads: a snapshot-restored volume against caches and a plain one. */
static void
t_first_touch(void **state)
{
	static const struct {
		const char	*profile;
		uint64_t	 ws;
		int		 detected;
	} cases[] = {
		{ "ebs-gp3-restored", 16 * GiB, 1 },
		{ "ebs-gp3", 16 * GiB, 0 },
		{ "classic-three-level", 8 * GiB, 0 },	/* caches, no penalty */
	};
	struct limits_result	r;
	struct limits_spec	s;
	struct sim_truth	tr;
	struct target		t;
	struct rng		rng;
	size_t			i;
	uint64_t		seed;
	char			what[128];

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (seed = 1; seed <= T_SEEDS; seed++) {
			t_case(cases[i].profile, cases[i].profile, seed, &t,
			    &tr, &rng, what, sizeof what);
			t_spec(&s, cases[i].ws);
			s.first_touch = 1;
			s.sustain_s = 20;
			assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
			assert_true(r.first_touch.measured);
			assert_true(r.first_touch.blocks >= 64);
			if (r.first_touch.detected != cases[i].detected)
				fail_msg("%s: first touch %d (ratio %.2f)",
				    what, r.first_touch.detected,
				    r.first_touch.ratio);
			if (cases[i].detected)
				T_REL_AT(what, r.first_touch.first_p50_us -
				    r.first_touch.second_p50_us,
				    tr.first_read_p50_us, 0.15);
			/* Ceilings are unaffected by the extra passes. */
			T_REL_AT(what, r.iops_ceiling, tr.iops_ceiling, 0.05);
			limits_result_free(&r);
			t_target_close(&t);
		}
	}
}

/* Writes run the same sweeps; only where writing is allowed. */
static void
t_writes(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct sim_truth	tr;
	struct target		t;
	struct rng		rng;

	(void)state;
	t_sim_open(&t, "ebs-gp3", 7);
	sim_truth_profile(sim_profile(t.sim), 4096, &tr);
	t_spec(&s, 16 * GiB);
	s.write = 1;
	s.sustain_s = 20;
	rng_seed(&rng, 7);
	assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
	assert_true(r.write);
	assert_true(r.nqd > 0 && r.qd_points[0].write);
	T_REL_AT("write", r.iops_ceiling, tr.iops_ceiling, 0.05);
	T_REL_AT("write", r.bandwidth_ceiling_bytes_per_s,
	    tr.bandwidth_ceiling, 0.05);
	limits_result_free(&r);
	t_target_close(&t);

	/* A file not opened for writing is refused before any I/O. */
	memset(&t, 0, sizeof t);
	t.type = TARGET_FILE;
	t.fd = -1;
	t.size = 1 * GiB;
	t.lbs = 512;
	assert_int_equal(limits_run(&t, &rng, &s, &r), -EPERM);
	assert_int_equal(r.nqd, 0);
	limits_result_free(&r);
}

/* A short run: figures it could not establish stay unknown. */
static void
t_short(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct target		t;
	struct rng		rng;

	(void)state;
	t_sim_open(&t, t_data("limits-burst.ini"), 3);
	t_spec(&s, 16 * GiB);
	s.max_iodepth = 1;		/* one depth: no knee to fit */
	s.sustain_s = 4;		/* too short for change points */
	rng_seed(&rng, 3);
	assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
	assert_int_equal(r.nqd, 1);
	assert_int_equal(r.iops_limit, CEILINGS_IOPS_UNKNOWN);
	assert_true(r.iops_ceiling_at_least);
	assert_true(r.iops_ceiling == r.iops_max_seen);
	assert_int_equal(r.qd_stop, LIMITS_STOP_EDGE);
	assert_int_equal(r.iops_knee_iodepth, 0);
	assert_true(r.iops_max_seen > 0);
	assert_false(r.burst.detected);
	assert_true(isnan(r.burst.credits_ios));
	assert_true(strstr(r.note, "too short") != NULL);
	limits_result_free(&r);
	t_target_close(&t);
}

/*
 * A queue kept shallower than the volume's parallelism: IOPS still rise at
 * its deepest, so the block-size sweep at that depth shows the queue's
 * bandwidth, not the volume's: both ceilings are lower bounds that hold.
 */
static void
t_shallow(void **state)
{
	struct limits_result	r;
	struct limits_spec	s;
	struct sim_truth	tr;
	struct target		t;
	struct rng		rng;
	uint64_t		seed;

	(void)state;
	for (seed = 1; seed <= 3; seed++) {
		t_sim_open(&t, "nvme-instance-store", seed);
		sim_truth_profile(sim_profile(t.sim), 4096, &tr);
		t_spec(&s, 4 * GiB);
		s.max_iodepth = 2;
		s.sustain_s = 2;
		s.max_time_s = 0.5;
		rng_seed(&rng, seed);
		assert_int_equal(limits_run(&t, &rng, &s, &r), 0);
		assert_int_equal(r.iops_limit, CEILINGS_IOPS_UNSATURATED);
		assert_true(r.iops_ceiling_at_least);
		assert_true(r.iops_ceiling < tr.iops_ceiling);
		assert_true(r.bandwidth_ceiling_at_least);
		assert_true(isnan(r.bandwidth_ceiling_high));
		assert_true(r.bandwidth_ceiling_bytes_per_s ==
		    r.bandwidth_max_seen);
		assert_true(r.bandwidth_ceiling_bytes_per_s <
		    tr.bandwidth_ceiling);
		assert_true(isnan(r.optimal_io_bytes));
		limits_result_free(&r);
		t_target_close(&t);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_profiles_truth),
		cmocka_unit_test(t_prior_scan),
		cmocka_unit_test(t_drained_in_sweeps),
		cmocka_unit_test(t_quick_sustain),
		cmocka_unit_test(t_first_touch),
		cmocka_unit_test(t_writes),
		cmocka_unit_test(t_short),
		cmocka_unit_test(t_shallow),
		cmocka_unit_test(t_deeper),
	};

	fit_init();
	progress_init(1);
	return (cmocka_run_group_tests(tests, NULL, NULL));
}

/* SPDX-License-Identifier: ISC */
/*
 * A simulated volume in virtual time: LRU cache tiers in front of a backing
 * store, IOPS and bandwidth ceilings, optional burst buckets (profiles.h
 * reads the INI profile), and the truth a perfect detector would report.
 */
#ifndef SIM_H
#define SIM_H

#include <stddef.h>
#include <stdint.h>

#include "profiles.h"

struct sim;
struct sim_host;

/* Which ceiling binds, for the truth of a profile. */
enum sim_limiter {
	SIM_LIMIT_NONE,			/* nothing: unbounded */
	SIM_LIMIT_BACKING,		/* concurrency / service time */
	SIM_LIMIT_VOLUME_IOPS,		/* [limit] iops (sustained) */
	SIM_LIMIT_VOLUME_BANDWIDTH,	/* [limit] bandwidth */
	SIM_LIMIT_BURST_IOPS,		/* [burst] iops, while credits last */
	SIM_LIMIT_BURST_BANDWIDTH,	/* [burst] bandwidth, while they last */
	SIM_LIMIT_INSTANCE_IOPS,	/* [instance] iops */
	SIM_LIMIT_INSTANCE_BANDWIDTH,	/* [instance] bandwidth */
	SIM_LIMIT_INSTANCE_BURST_IOPS,	/* [instance] burst_iops */
	SIM_LIMIT_INSTANCE_BURST_BANDWIDTH, /* [instance] burst_bandwidth */
};

struct sim_tier_truth {
	uint64_t	capacity_bytes;	/* inclusive: counts faster tiers */
	double		lat_us_p50;	/* one I/O of bs bytes, served; a
					   throttle's waits are not in it;
					   a second speed at its share while
					   the tier serves every read */
	double		lat_us_p99;
};

/*
 * What a perfect detector would report for I/Os of bs bytes.  "Fresh"
 * figures hold while burst buckets are full (what a short sweep sees on a
 * new volume), "sustained" ones after the buckets ran dry.  Rates are per
 * second; NAN means no such ceiling (a detector reports null).
 */
struct sim_truth {
	uint32_t	bs;		/* I/O size the figures are for */
	uint64_t	size;		/* volume bytes */
	uint32_t	block_size;

	size_t		ntiers;		/* caches, fastest first */
	struct sim_tier_truth tier[PROFILES_TIERS_MAX];
	double		backing_p50_us;	/* a drifting store's at the start */
	double		backing_p99_us;
	double		backing_mean_us;	/* mean service time at bs */
	unsigned	backing_concurrency;
	double		first_read_p50_us;	/* extra on a first read; 0 */

	double		iops_ceiling;		/* fresh, at high iodepth */
	enum sim_limiter iops_limiter;
	double		iops_sustained;
	enum sim_limiter iops_sustained_limiter;
	unsigned	knee_iodepth;		/* ceiling x mean latency */
	double		bandwidth_ceiling;	/* bytes/s, large I/Os */
	enum sim_limiter bandwidth_limiter;
	double		bandwidth_sustained;
	enum sim_limiter bandwidth_sustained_limiter;
	uint64_t	io_accounting_bytes;	/* 0: every I/O one token */
	int		io_accounting_observable;	/* large I/O shows it */
	int		io_accounting_observable_sustained;
	double		optimal_io_bytes;	/* bandwidth / iops ceilings */

	int		burst_detected;		/* IOPS changes over time */
	int		burst_instance;		/* the instance's bucket */
	double		burst_iops;		/* = iops_ceiling */
	double		baseline_iops;		/* = iops_sustained */
	double		burst_duration_s;	/* from full, at full demand */
	double		burst_credits_ios;	/* I/Os of bs bytes */
	double		refill_s;		/* empty to full when idle */

	int		bw_burst_detected;	/* bandwidth bucket (st1) */
	double		bw_burst_duration_s;	/* large I/Os, full demand */
	double		bw_burst_credit_bytes;

	double		write_p50_us;		/* a write of bs, acknowledged */
	double		write_p99_us;
	double		write_mean_us;
	double		flush_p50_us;		/* 0: flushes cost nothing */
	double		flush_mean_us;
	const char	*write_cache;		/* what the device says */
	int		fua;
	double		commit_mean_us;		/* one writer: write + flush */
	double		commit_ops_per_s;	/* at most, capped by the IOPS */
	double		buffer_bytes;		/* write-back buffer; 0 none */
	double		buffer_fast_bytes_per_s; /* 1 MiB writes into it; NAN
						   when nothing caps them */
	double		buffer_slow_bytes_per_s; /* once it is full */
	double		buffer_drain_s;		/* full to empty, idle */
};

/* Counters of what the model did, for tests. */
struct sim_stats {
	uint64_t	ios;
	uint64_t	hits[PROFILES_TIERS_MAX]; /* I/Os served by each tier */
	uint64_t	misses;			/* served by the backing store */
	uint64_t	first_reads;
	uint64_t	writes;
	uint64_t	cached_blocks;		/* entries in the LRU stack */
	uint64_t	cache_bytes;		/* memory the tiers hold */
};

/*
 * Open a simulated volume: spec is a built-in profile name or a path to
 * an INI file (see profiles_load); seed fixes its noise.  Returns NULL with
 * an allocated message in *cause (a usage error) on failure.
 */
struct sim	*sim_open(const char *, uint64_t, char **);

/*
 * A host for the simulated volumes of one run: they share its clock, and
 * the volumes naming the same [instance] share that instance's ceilings.
 * Free it after every volume on it.
 */
struct sim_host	*sim_host_new(void);
void		 sim_host_free(struct sim_host *);
/*
 * Open a volume on host h, as sim_open; also fails when it names an
 * instance h holds with other ceilings.
 */
struct sim	*sim_host_open(struct sim_host *, const char *, uint64_t,
		    char **);
/* Whether two volumes are on one host (share one clock). */
int		 sim_same_host(const struct sim *, const struct sim *);

/* A volume for profile p (copied) with noise seeded by seed. */
struct sim	*sim_new(const struct profile *, uint64_t);
void		 sim_free(struct sim *);

uint64_t	 sim_size(const struct sim *);
uint32_t	 sim_block_size(const struct sim *);
/* The volume's profile (tests derive its truth with sim_truth_profile). */
const struct profile *sim_profile(const struct sim *);

/* The host's virtual clock in ns: from 0, moved only by sim_advance. */
uint64_t	 sim_now(const struct sim *);
/* Move the virtual clock forward to t (never back). */
void		 sim_advance(struct sim *, uint64_t);

/*
 * Submit one I/O of len bytes at offset at virtual time now (not before
 * any earlier submission): it passes the ceilings in arrival order, then a
 * cache tier or the backing store serves it.  Returns its completion time
 * in virtual ns.  Offsets and lengths are the engine's to check.
 */
uint64_t	 sim_submit(struct sim *, uint64_t, uint64_t, uint32_t, int);

/*
 * A flush asked for at virtual time t, which is not before any earlier
 * flush's: returns when it completes (t itself when flushes cost nothing).
 */
uint64_t	 sim_flush(struct sim *, uint64_t);

/* Copy the model's counters (tests check the hits against the model). */
void		 sim_get_stats(const struct sim *, struct sim_stats *);

/*
 * The truth of profile p for I/Os of bs bytes (0: 4 KiB).  Pure: no state
 * of a running volume is used.
 */
void		 sim_truth_profile(const struct profile *, uint32_t,
		    struct sim_truth *);
/* Short name of a limiter ("volume iops", ...). */
const char	*sim_limiter_name(enum sim_limiter);

#endif

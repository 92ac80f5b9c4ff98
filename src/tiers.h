/* SPDX-License-Identifier: ISC */
/*
 * Cache tiers from a working-set scan: pure analysis of the measured points
 * (latency histograms against working-set size), no I/O.
 */
#ifndef TIERS_H
#define TIERS_H

#include <stddef.h>
#include <stdint.h>

struct hist;
struct point;

#define TIERS_MAX	4		/* caches in front of the store */
#define TIERS_MAX_MODES	5		/* latency classes (places) */
#define TIERS_MAX_CP	16		/* change points kept */
#define TIERS_TARGET_REL 0.05		/* wanted capacity interval, +-5% */

struct tier {
	uint64_t	capacity_bytes;
	uint64_t	capacity_low_bytes;	/* 95% interval */
	uint64_t	capacity_high_bytes;	/* 0 when at_least */
	int		at_least;	/* larger than the largest ws scanned:
					   capacity_bytes is a lower bound */
	double		lat_us_p50;	/* its own, apart from a cap's wait */
	double		lat_us_p99;
	double		capped_lat_us_p50;	/* at the scan's depth when a
						   rate cap holds; else NAN */
	double		capped_lat_us_mean;
	uint64_t	capacity_cp_bytes;	/* change-point estimate: mid
						   shift; 0 none */
	size_t		first_mode;	/* the modes this tier is made of */
	size_t		nmodes;
	double		fit_rchi2;	/* chi2 / dof of the hit-ratio fit */
};

/* Why a boundary between two adjacent latency modes is or is not a tier. */
enum tiers_verdict {
	TIERS_TIER,			/* a cache of fitted capacity */
	TIERS_AT_LEAST,			/* a cache at least max ws */
	TIERS_NO_MISSES,		/* the faster modes serve every point */
	TIERS_NO_FIT,			/* the fit failed */
	TIERS_MISFIT,			/* fractions are not min(1, C/S) */
	TIERS_FLAT,			/* fractions do not depend on ws */
	TIERS_WIDE,			/* interval reaches 0 or max ws */
	TIERS_NOT_LARGER,		/* not above the previous capacity */
	TIERS_OVER,			/* more than TIERS_MAX caches */
	TIERS_UNTESTED,			/* too few points where its share
					   changes to test the law */
	TIERS_SECOND_SPEED,		/* the slower classes serve the faster
					   ones' cache, at a second speed */
	TIERS_DRIFTS			/* its fraction moved between two
					   measurements of one ws: a latency
					   drifting with the clock */
};

/* The split between modes [0, i] and [i + 1, nmodes): a candidate cache. */
struct tiers_boundary {
	enum tiers_verdict verdict;
	double		capacity_bytes;	/* fit, when there was one; else 0 */
	double		low_bytes;	/* 95% interval */
	double		high_bytes;
	double		rchi2;		/* chi2 / dof of min(1, C/S) */
	double		alpha;		/* fit of min(1, (C/S)^alpha): the */
	double		alpha_se;	/* law wants 1; NAN: fit failed */
	double		chi2;
	double		chi2_const;	/* chi2 of a constant fraction */
	double		boot_se_bytes;	/* bootstrap sd of the capacity */
};

/* One place a read is served from: a class of latencies. */
struct tiers_mode {
	double		share;		/* fraction of all reads pooled */
	double		lat_us_p50;
	double		lat_us_p99;
	double		mu;		/* mean and sd of ln(latency ns) */
	double		sigma;
	double		cut_us;		/* where its latency range ends;
					   INFINITY for the slowest */
	int		tier;		/* tier index, or -1: backing */
};

/*
 * A class of reads set apart from its neighbours by a valley of the pooled
 * latency histogram whose share changes with ws, that the tiers do not
 * explain: neither a tier of its own, nor part of one (its share moving
 * with the tier's), nor the backing store's slow tail.
 */
struct tiers_unexplained {
	double		lat_us_p50;
	double		share_max;	/* its largest share of a point's reads */
	uint64_t	from_ws;	/* it grows between these sizes */
	uint64_t	to_ws;
};

/*
 * Why a result is what it is, for the report layer to word (the model's
 * analysis, tiermodel.c, sets it and says it in note too, for JSON; the
 * rules' analysis leaves TIERS_R_NONE and says it in note).
 */
enum tiers_reason {
	TIERS_R_NONE,			/* analysed: nothing to add */
	TIERS_R_TOO_FEW,		/* fewer than 3 points with reads */
	TIERS_R_CANNOT_TELL,		/* reason_ntiers tiers predict held-out
					   points better, but within the
					   margin: the count is not known */
	TIERS_R_MORE_POSSIBLE		/* TIERS_MAX tiers and more would
					   still predict better */
};

#define TIERS_MAX_UNEXPLAINED	4
#define TIERS_MAX_AGAIN		4

struct tiers_result {
	int		fitted;		/* classes, boundaries and tiers were
					   computed: the adaptive scan plans
					   from them */
	int		analysed;	/* fitted, and every class of reads
					   explained: tiers and backing stand */
	size_t		ntiers;
	struct tier	tier[TIERS_MAX];	/* fastest first */
	double		backing_p50_us;	/* NAN when unknown */
	double		backing_p99_us;
	double		backing_p50_se;	/* of ln p50; NAN when unknown */
	double		backing_capped_p50_us;	/* as capped_lat_us_p50 */
	double		backing_capped_mean_us;
	char		note[512];	/* e.g. methods disagree; "" if none */
	size_t		nunexplained;
	struct tiers_unexplained unexplained[TIERS_MAX_UNEXPLAINED];

	uint64_t	min_ws;		/* range of the points analysed */
	uint64_t	max_ws;
	uint64_t	unseen_from;	/* a cache between this and max_ws
					   could go unseen (too few points
					   above it show its misses); 0:
					   fewer than 2 points */
	uint64_t	again_ws[TIERS_MAX_AGAIN];	/* behind the scan's
					   front, worth measuring: again, to
					   tell a drift from a cache; between
					   two capacities, a second speed
					   from a cache behind */
	size_t		nagain;
	size_t		nmodes;
	struct tiers_mode mode[TIERS_MAX_MODES];	/* fastest first */
	struct tiers_boundary boundary[TIERS_MAX_MODES - 1];	/* nmodes - 1 */
	int		shape_bin0;	/* shapes over latency bins */
	size_t		shape_nbins;	/* [bin0, bin0 + nbins) */
	double		*shape;		/* [m * shape_nbins + b]: each mode's
					   reads over the bins, sum 1 */

	/* Per analysed point (ascending ws), arrays owned by the result. */
	size_t		npoints;
	uint64_t	*point_ws;
	uint64_t	*point_ios;
	double		*point_mode_frac;	/* [p * nmodes + m] */
	double		*point_tier_frac;	/* [p * (ntiers + 1) + t],
						   t == ntiers: backing */
	double		*point_mlog;	/* mean ln(latency ns) */

	/* The model's choice of count (tiermodel.c); rules: zero. */
	enum tiers_reason reason;
	size_t		reason_ntiers;	/* the count in the running beside
					   ntiers */
	double		reason_gain;	/* its held-out log-likelihood over
					   ntiers', nats */
	double		reason_z;	/* that gain over its standard error */

	/* Cross-check: change points of point_mlog against ln ws. */
	size_t		ncp;
	uint64_t	cp_ws[TIERS_MAX_CP];	/* first ws after each shift */
	int		agree;		/* 1 agree, 0 disagree, -1 unchecked */
};

/* Which analysis tiers_analyse runs: the rules, or one model. */
enum tiers_method {
	TIERS_RULES,
	TIERS_MODEL
};

/* Choose the analysis for the process (default TIERS_RULES). */
void	tiers_set_method(enum tiers_method);
enum tiers_method tiers_get_method(void);

/* Set up an empty result (nothing owned). */
void	tiers_result_init(struct tiers_result *);
/* Release the arrays of a result and reset it; the struct stays. */
void	tiers_result_free(struct tiers_result *);

/*
 * Find the tiers in n points of a scan (any order; points without a
 * histogram are skipped).  r must be initialised (tiers_result_init or a
 * zeroed struct); what it held is freed first.  Returns 0, or -1 if
 * inconclusive (fewer than 3 points, or no data): then r->analysed is 0 and
 * r->note says why.
 */
int	tiers_analyse(const struct point *, size_t, struct tiers_result *);

/*
 * Plan the adaptive scan: the working-set sizes worth measuring next, given
 * the n points measured so far and r, their analysis (tiers_analyse).
 * Writes up to max_out sizes, ascending, multiples of align within
 * [min_ws, max_ws] and away from the points already measured, to out and
 * returns their number; 0 means done (every capacity known to
 * TIERS_TARGET_REL, or nothing left to refine).
 */
size_t	tiers_next_points(const struct point *, size_t,
	    const struct tiers_result *, uint64_t, uint64_t, uint32_t,
	    uint64_t *, size_t);

/*
 * Per-point stopping rule: whether the partial histogram h of a point at
 * ws_bytes holds enough reads.  For every capacity candidate of r below
 * ws_bytes whose 95% interval is still wider than +-target_rel, the point's
 * own fraction of reads in the faster modes must pin the capacity to
 * target_rel (its Fisher information, which counts the overlap of the
 * modes); points deep in a cache's 1/S tail (fraction < 0.1) are exempt.
 * A point where two classes or more hold 10% of the reads each takes some
 * 600 reads at least, to tell how each class's share moves with ws.
 * Returns 1 enough, 0 not yet, -1 no opinion (r not analysed or no
 * candidate: any rule will do).
 */
int	tiers_point_enough(const struct tiers_result *, uint64_t,
	    const struct hist *, double);

/*
 * Whether every capacity r found, or nearly found (TIERS_WIDE), has a 95%
 * interval within +-target_rel.  0 when r is not analysed.
 */
int	tiers_pinned(const struct tiers_result *, double);
/*
 * Whether the backing store's p50 has a 95% interval within +-target_rel;
 * 1 when too few of its reads were seen to tell (none to pin).
 */
int	tiers_backing_pinned(const struct tiers_result *, double);

/*
 * The model of r at working set ws bytes: tier i serves the reads its
 * capacity holds and the faster tiers do not, min(1, C_i / ws) minus the
 * share before it; the backing store the rest.  share has ntiers + 1
 * entries, the last the backing store's.
 */
void	tiers_model_share(const struct tiers_result *, double, double *);
/*
 * Mean latency (us) of that model at ws from the tiers' and the backing
 * store's p50; NAN if the backing store serves a share and its p50 is
 * unknown.
 */
double	tiers_model_lat_us(const struct tiers_result *, double);

#endif

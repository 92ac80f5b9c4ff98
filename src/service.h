/* SPDX-License-Identifier: ISC */
/*
 * Service latency of each cache tier and of the backing store, apart from
 * the wait a rate cap adds: which scan points to read again, one read at a
 * time well below their rate, and what those reads say.  Pure analysis.
 */
#ifndef SERVICE_H
#define SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "tiers.h"

struct hist;
struct point;

#define SERVICE_STORES	(TIERS_MAX + 1)	/* the tiers, then the backing */
#define SERVICE_PACE	0.25		/* paced rate / the point's rate: at half
					   of it blk-throttle stalled the
					   paced reads too */
#define SERVICE_QUEUED	1.2		/* capped: p50 at the scan's depth
					   this many times the paced p50 */
#define SERVICE_APART_Z	3.0		/* and beyond chance: this many
					   standard errors of the two p50s'
					   ln ratio (slices of a few hundred
					   reads differ by 20% by chance) */
#define SERVICE_DENS_LN	0.1		/* ln units either side: the reads
					   that tell the density at a p50 */
#define SERVICE_STALLED	4.0		/* or: mean this many times the paced
					   mean (a cap that lets bursts
					   through and then stalls) */
#define SERVICE_REST_S	0.2		/* idle before a probe: a cap's slot
					   or slice the scan spent passes */
#define SERVICE_MIN_S	0.5		/* a first look lasts this long at
					   least: what comes with time, not
					   with the rate (a busy CPU), shows
					   in it as in the scan's point */
#define SERVICE_FIRST	100		/* reads of its store to judge by */
#define SERVICE_READS	600		/* reads of its store a probe wants
					   when a cap holds it */
#define SERVICE_MAX_IOS	(20 * SERVICE_READS)
#define SERVICE_MIN_SHARE 0.05		/* a store no point serves this much
					   of is not probed */
#define SERVICE_NEAR	0.5		/* the largest point serves enough of
					   a store: this much of its best */

/* One scan point to read again, paced. */
struct service_probe {
	size_t		point;		/* index into the scan's points */
	uint64_t	ws_bytes;
	double		pace_iops;	/* reads a second at most */
	uint64_t	first_ios;	/* a first look, enough to judge */
	uint64_t	min_ios;	/* reads wanted if a cap holds */
	double		share[SERVICE_STORES];	/* model's, at ws_bytes */
};

struct service_plan {
	size_t		nstores;	/* ntiers + 1 */
	size_t		nprobes;
	struct service_probe probe[SERVICE_STORES];	/* ascending ws */
	int		probe_of[SERVICE_STORES];	/* per store; -1 none */
};

/*
 * Plan the probes for the n points of a scan (ascending ws) and r, their
 * analysis: each store is read again at the largest point if the model
 * gives it SERVICE_NEAR of its largest share there (that point needs no
 * warming after the scan), else where its share is largest; stores that
 * pick the same point share its probe, paced at SERVICE_PACE of that
 * point's rate: a first look of SERVICE_FIRST reads of each store, and
 * SERVICE_READS when a cap holds one.  Returns the number of probes; 0
 * when r is not analysed.
 */
size_t	service_plan(const struct point *, size_t,
	    const struct tiers_result *, struct service_plan *);

/*
 * The q-quantile (0 < q < 1), in us, of the reads that store serves in h,
 * given the shares of the stores (fastest first, summing to 1): stores
 * are told apart by their order in latency.  NAN when h is empty or the
 * store's share is 0.
 */
double	service_slice(const struct hist *, const double *, size_t, size_t,
	    double);
/* The mean, in us, of the reads that store serves in h; as service_slice. */
double	service_slice_mean(const struct hist *, const double *, size_t,
	    size_t);

/*
 * Whether a rate cap holds a store that probe k of plan reads: its p50 in
 * the scan's point (pts) is SERVICE_QUEUED times its p50 in the paced
 * reads of probe or more, or its mean SERVICE_STALLED times their mean.
 */
int	service_held(const struct service_plan *, const struct point *, size_t,
	    const struct point *);

/*
 * Judge every planned store from its scan point (pts, the scan's) and its
 * probe (probed[k] for plan->probe[k]; NULL when not measured), as
 * service_held.  Its lat_us_p99 (backing_p99_us) becomes the paced p99,
 * its lat_us_p50 (backing_p50_us) the paced p50 or, when lower, its p50
 * in the point (a cap that stalls now and then leaves the median
 * unqueued), and capped_lat_us_p50 and capped_lat_us_mean
 * (backing_capped_*) the p50 and mean at the scan's depth; the figures of
 * a store no cap holds are left as they are.  Returns the number of
 * capped stores.
 */
size_t	service_apply(const struct service_plan *, const struct point *,
	    const struct point *const *, struct tiers_result *);

#endif

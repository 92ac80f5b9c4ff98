/* SPDX-License-Identifier: ISC */
/*
 * Fleets: many reports (one per host and volume) in one table, each volume
 * compared with the median of the volumes of its kind.  fleet.c is pure;
 * fleet-load.c reads the report files and directories.
 */
#ifndef FLEET_H
#define FLEET_H

#include <stddef.h>
#include <stdint.h>

#include "check.h"
#include "figures.h"
#include "report.h"

#define FLEET_FIGURES	16
#define FLEET_MIN_KIND	3	/* volumes of a kind to judge any */

/* One volume: a report's figures and how they compare with its kind. */
struct fleet_volume {
	char		*file;
	char		*host;		/* "" unknown */
	char		*target;
	char		*kind;		/* "": never compared */
	const char	*kind_source;	/* how it was found; NULL */
	char		*model;		/* device model, "" */
	char		 when[32];	/* finished (else started) UTC */
	char		 started[32];	/* started UTC */
	uint64_t	 seed;		/* of the run */
	int		 interrupted;
	const char	*fault;		/* its run stopped on a fault: the
					   reason (report_fault_word);
					   NULL: none.  Left out of its
					   kind's medians, listed as
					   FAILED */
	char		 caches[128];	/* tier capacities */
	int		 has_limits;
	double		 burst;		/* 1 a bucket ran dry, 0 none did,
					   NAN run too short to tell */
	int		 ebs_limit;	/* the limit EBS's counters show
					   held its sustained run (enum
					   ebsstats_limit); -1: no
					   counters of one */
	/* By figure: value (NAN unknown), run-to-run noise (2 sd / mean),
	   ratio to the kind's median, the worse-by fraction judged with. */
	double		 value[FLEET_FIGURES];
	double		 noise[FLEET_FIGURES];
	double		 ratio[FLEET_FIGURES];
	double		 limit[FLEET_FIGURES];
	int		 flagged[FLEET_FIGURES];
	int		 state[FLEET_FIGURES];	/* bucket state (bucket.h) */
	int		 lifted[FLEET_FIGURES];	/* a bucket may have lifted
						   it (standing.c) */
	int		 contradicted[FLEET_FIGURES]; /* and a drain says it
						   did: not the long run,
						   never compared */
	int		 outlier;	/* any figure flagged */
	int		 compared;	/* a figure judged against a kind
					   of FLEET_MIN_KIND or more */
	int		 checked;	/* has expectations */
	unsigned	 verdicts[CHECK_NVERDICTS]; /* by enum check_verdict */
};

struct fleet_kind {
	char		*kind;
	size_t		 nvolumes;
	int		 compared;	/* a figure had FLEET_MIN_KIND */
	size_t		 n[FLEET_FIGURES];	/* volumes with it */
	double		 median[FLEET_FIGURES];	/* NAN: none */
	int		 of_burst[FLEET_FIGURES]; /* the median is of figures
						   a bucket may have lifted
						   (too few others) */
};

/* A file left out, and why. */
struct fleet_skip {
	char		*file;
	char		*why;
};

struct fleet {
	double			  outlier;	/* worse-by fraction */
	size_t			  nfig;
	const struct figures_def *fig[FLEET_FIGURES];	/* the columns */
	struct fleet_volume	 *vol;
	size_t			  nvol;
	struct fleet_kind	 *kinds;
	size_t			  nkinds;
	struct fleet_skip	 *skip;
	size_t			  nskip;
};

/*
 * An empty fleet whose outliers are figures more than outlier (a fraction)
 * worse than their kind's median.  Free with fleet_free (NULL: no-op).
 */
struct fleet	*fleet_new(double);
void		 fleet_free(struct fleet *);

/*
 * Add the report r read from file: one volume, or one for each of its
 * targets, each judged on its own.  Its expectations are checks when not
 * NULL, else those it records.  A report of the same known host and target
 * as one already added keeps only the newer (finished_utc; the later added
 * on a tie) and notes the other as skipped; a copy of one run (the same
 * start, finish and seed) keeps the first added.
 */
void		 fleet_add(struct fleet *, const char *,
		    const struct report *, const struct check_list *);

/* Note file as left out for reason why (copied). */
void		 fleet_skip(struct fleet *, const char *, const char *);

/* Medians per kind, each volume's ratios, the outliers. */
void		 fleet_analyse(struct fleet *);

/*
 * The i-th sentence on what an analysed fleet could not compare (kinds
 * too small, volumes of no kind, nothing compared at all), allocated
 * (caller frees); NULL past the last.
 */
char		*fleet_caveat(const struct fleet *, size_t);

/*
 * Load files and directories (searched for *.json, recursively, in name
 * order) into fl and analyse it; files that cannot be read as reports are
 * noted as skipped.  checks as for fleet_add (fleet-load.c).
 */
void		 fleet_load(struct fleet *, char **, int,
		    const struct check_list *);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * Fleets: many reports (one per host and volume) in one table, each volume
 * compared with the median of the volumes of its kind.  fleet.c is pure;
 * fleet-load.c reads the report files and directories.
 */
#ifndef FLEET_H
#define FLEET_H

#include <stddef.h>

#include "figures.h"

#define FLEET_FIGURES	16
#define FLEET_MIN_KIND	3	/* volumes of a kind before any is judged */

struct check_list;

/* One volume: a report's figures and how they compare with its kind. */
struct fleet_volume {
	char		*file;
	char		*host;		/* "" unknown */
	char		*target;
	char		*kind;		/* "" unknown: never compared */
	const char	*kind_source;	/* how the kind was found; NULL */
	char		*model;		/* device model, "" unknown */
	char		 when[32];	/* finished (else started) UTC */
	int		 interrupted;
	char		 caches[128];	/* tier capacities for people */
	int		 has_scan, has_limits;
	double		 value[FLEET_FIGURES];	/* NAN: unknown */
	double		 noise[FLEET_FIGURES];	/* run-to-run 2 sd / mean */
	double		 ratio[FLEET_FIGURES];	/* to the kind's median */
	double		 limit[FLEET_FIGURES];	/* the worse-by fraction used */
	int		 flagged[FLEET_FIGURES];
	int		 outlier;	/* any figure flagged */
	int		 checked;	/* has expectations */
	unsigned	 verdicts[3];	/* by enum check_verdict */
};

struct fleet_kind {
	char		*kind;
	size_t		 nvolumes;
	size_t		 n[FLEET_FIGURES];	/* volumes with the figure */
	double		 median[FLEET_FIGURES];	/* NAN: none */
};

/* A file left out, and why. */
struct fleet_skip {
	char		*file;
	char		*why;
};

struct fleet {
	double			  outlier;	/* fraction worse than median */
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
 * Add the report r read from file.  Its expectations are checks when not
 * NULL, else those it records.  A report of the same known host and target
 * as one already added keeps only the newer (finished_utc; the later added
 * on a tie) and notes the other as skipped.
 */
void		 fleet_add(struct fleet *, const char *, const struct report *,
		    const struct check_list *);

/* Note file as left out for reason why (copied). */
void		 fleet_skip(struct fleet *, const char *, const char *);

/* Medians per kind, each volume's ratios, the outliers. */
void		 fleet_analyse(struct fleet *);

/*
 * Load files and directories (searched for *.json, recursively, in name
 * order) into fl and analyse it; files that cannot be read as reports are
 * noted as skipped.  checks as for fleet_add (fleet-load.c).
 */
void		 fleet_load(struct fleet *, char **, int,
		    const struct check_list *);

#endif

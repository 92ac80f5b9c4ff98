/* SPDX-License-Identifier: ISC */
/*
 * Acceptance checks: expectations such as "iops>=3000" or "p99<=2ms" over
 * the figures of a report (figures.h), parsed with their units; report-
 * check.c judges them met, missed or unknown.  Pure: no I/O.
 */
#ifndef CHECK_H
#define CHECK_H

#include <stddef.h>

#include "figures.h"

enum check_op {
	CHECK_GE,
	CHECK_LE,
	CHECK_GT,
	CHECK_LT,
	CHECK_EQ,
	CHECK_NE,
};

enum check_verdict {
	CHECK_MET,
	CHECK_MISSED,
	CHECK_UNKNOWN,
	CHECK_NVERDICTS
};

/* One expectation. */
struct check_expect {
	char			 *text;		/* "iops>=3000" */
	char			 *origin;	/* where from */
	const struct figures_def *def;
	unsigned		  index;	/* N of tierN, else 0 */
	enum check_op		  op;
	double			  threshold;	/* figure's unit */
	double			  sustain_s;	/* a sustained run must
						   outlast this (a bucket);
						   0: any run */
	int			  of_burst;	/* of a burst rate (a profile
						   with a bucket): measured
						   while it is full is what
						   it asks */
};

/* An expectation judged against one report. */
struct check_result {
	struct figures_value	 fv;
	enum check_verdict	 verdict;
	size_t			 target;	/* of several: 1 + the index of
						   the one judged; 0: one */
	int			 lifted;	/* met on a figure measured
						   while a burst bucket may
						   have been full */
	int			 borderline;	/* threshold inside the
						   interval */
	int			 kind;		/* enum standing_kind of the
						   figure (standing.h) */
	int			 contradicted;	/* a burst figure a drain
						   seen in the run
						   contradicts */
	char			 note[160];	/* why unknown, or */
						/* a caveat */
};

/* The expectations of a run or of the check command. */
struct check_list {
	struct check_expect	*v;
	size_t			 n;
	char			*profile;	/* --expect-profile NAME */
	char			*promise;	/* the tolerance it used */
	int			 accept_burst;	/* --accept-burst: a lifted
						   figure met counts as met */
};

/*
 * Parse text ("FIGURE OP VALUE") into e.  Returns 0, or -1 with an
 * allocated one-line message in *cause naming the token at fault and what
 * is accepted (a usage error).
 */
int	check_parse(const char *, struct check_expect *, char **);

/* An empty list; free with check_list_free (NULL is a no-op). */
struct check_list *check_list_new(void);
void	check_list_free(struct check_list *);

/* Parse text and append it with its origin; check_parse's convention. */
int	check_list_add(struct check_list *, const char *, const char *,
	    char **);

/* "met", "missed", "unknown". */
const char *check_verdict_name(enum check_verdict);

/*
 * Whether a run settles e: measured, whether it measures e's section;
 * sustain_s, its sustained run.  If not, 0 with why and what run would in
 * buf (a sentence without its subject, "is not measured by ...").
 */
int	check_settles(const struct check_expect *, int, double, char *,
	    size_t);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * The verdict of a report: per target what a database owner decides on
 * (reads from each cache and from the store, the IOPS and bandwidth the
 * volume keeps up for the long run, commits of one writer and of
 * several), each figure with its standing (measured, bounded or unknown),
 * the bucket state it was measured in, why, and the command that would
 * settle it.  Pure: a report in, a struct out (report-verdict.c renders
 * it).  Where the run could not measure a long-run figure, the documented
 * volume types that fit what it measured (report->voltypes) say what each
 * would give and how long a run tells them apart; --type's documented
 * figure is the one to plan with.
 */
#ifndef VERDICT_H
#define VERDICT_H

#include <stddef.h>

#include "units.h"

struct report;

/* How far the run establishes a figure (enum standing_kind's values). */
enum verdict_standing {
	VERDICT_UNKNOWN,		/* not at all */
	VERDICT_MEASURED,		/* the figure itself */
	VERDICT_BOUNDED,		/* the most, or the least, it can be */
};

#define VERDICT_ITEMS		24
#define VERDICT_PRACTICAL_S	86400	/* a settling run longer than a
					   day is named, not asked for */
#define VERDICT_SETTLE_FACTOR	10	/* a settling run is this many
					   times as long as the run's (or a
					   default run's) sustained run */

/* One figure of the verdict. */
struct verdict_item {
	char		name[32];	/* "long_run.iops", "tier1.p50" */
	char		line[32];	/* the line it goes on, for people:
					   "long-run IOPS"; items of one
					   line follow one another */
	double		value;		/* the figure, or its bound; NAN */
	enum units_kind	unit;
	int		standing;	/* enum verdict_standing */
	int		bound;		/* enum report_bound when bounded */
	int		state;		/* enum bucket_state it was measured
					   in; 0: none applies */
	char		detail[96];	/* what the figure is of ("16 writers
					   sharing a log"); "" */
	double		documented;	/* what --type's documentation gives
					   for it (long-run items); NAN */
	char		documented_by[96]; /* that type, as given; "" */
	char		reason[256];	/* why this standing, in a few words */
	char		settle[1024];	/* the command that would settle it;
					   "" when none would */
	char		settle_reason[192]; /* what that run would show */
	int		limit;		/* enum voltype_limit: what sets a
					   long-run figure; 0: not known */
	char		limit_of[32];	/* the instance whose limit it is */
};

/* The verdict of one target, or of several run together. */
struct verdict {
	char			target[512];	/* as given: sim:NAME, a path */
	char			bucket[192];	/* what the run saw of a
						   bucket, in a few words */
	char			drained_in[16];	/* the phase a bucket ran dry
						   in (report_drain); "" */
	struct verdict_item	item[VERDICT_ITEMS];
	size_t			nitems;
};

/*
 * The verdict of a report of one target (or of one of several, with the
 * run together in top when not NULL).  Pure.
 */
void	verdict_build(const struct report *, const struct report *,
	    struct verdict *);
/*
 * The verdict of several targets run together: the IOPS of the sum in
 * the long run, and its bandwidth.  Pure.
 */
void	verdict_together(const struct report *, struct verdict *);
/* What bucket state s means for a figure, in a few words; "" for none. */
const char *verdict_state_words(int);
/* "measured", "bounded", "unknown"; NULL past the last. */
const char *verdict_standing_name(int);
/*
 * The target as a user gives it on a command line (sim:NAME, a path),
 * quoted for a shell when it needs to be, into buf.
 */
char	*verdict_target(const struct report *, char *, size_t);

#endif

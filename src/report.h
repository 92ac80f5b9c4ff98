/* SPDX-License-Identifier: ISC */
/*
 * A report: what was measured, on what, with which settings, and what it
 * means.  Renderers read it and never measure; report-load.c reads one back
 * from JSON (schema_version 1, man/tierprobe-report.5).
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "limits.h"
#include "scan.h"
#include "units.h"

#define REPORT_SCHEMA_VERSION	1

struct report_config {			/* the settings of the run */
	char		command[16];	/* run, scan, limits */
	char		engine[16];
	int		direct;
	uint32_t	bs;
	unsigned	iodepth;
	uint64_t	seed;
	uint64_t	min_ws;
	uint64_t	max_ws;
	uint64_t	step;
	unsigned	points;
	double		precision;
	double		max_time_s;
	double		budget_s;
	uint64_t	ws;
	unsigned	max_iodepth;
	double		sustain_s;
	int		write;
};

struct report_context {			/* where it ran; "" when unknown */
	char		hostname[64];
	char		kernel[128];
	char		device[64];	/* e.g. vda */
	char		device_model[128];
	char		scheduler[64];
	int		rotational;	/* -1 unknown */
	unsigned	nr_requests;
	unsigned	read_ahead_kb;
	uint32_t	logical_block;
	uint32_t	physical_block;
	char		fstype[32];
	char		mount_options[256];
};

#define REPORT_RUNS_MAX		100	/* runs of a repeat kept apart */

/* How a figure moved over repeated runs. */
enum report_trend {
	REPORT_TREND_NONE,		/* within noise, or back and forth */
	REPORT_TREND_FALLING,		/* run after run, beyond noise */
	REPORT_TREND_RISING,
};

/* What a figure's value is: the figure, or a bound of it. */
enum report_bound {
	REPORT_BOUND_NONE,		/* the figure itself */
	REPORT_BOUND_AT_MOST,		/* the most it can be */
	REPORT_BOUND_AT_LEAST,		/* the least it can be */
};

/*
 * One headline figure and its spread over repeated runs.  Runs that gave
 * only a bound count when no run gave the figure itself; mean, sd, cv, n
 * and trend are then of those bounds, and bound says which kind.
 */
struct report_stat {
	char		name[48];	/* JSON path: limits.iops_ceiling */
	double		mean;		/* NAN: no run established it */
	double		sd;		/* sample sd; NAN with n < 2 */
	double		cv;		/* sd / mean */
	unsigned	n;		/* runs that established it */
	int		trend;		/* enum report_trend */
	int		bound;		/* enum report_bound of the mean */
	unsigned	nrun;		/* runs in run[] */
	double		run[REPORT_RUNS_MAX]; /* per run; NAN: unknown */
	unsigned char	run_bound[REPORT_RUNS_MAX]; /* per run */
};

#define REPORT_STATS_MAX	40

/* --repeat N: the headline figures of N runs (report_repeat_aggregate). */
struct report_repeat {
	unsigned		runs;
	size_t			nstats;
	struct report_stat	stat[REPORT_STATS_MAX];
	char			reason[256];	/* why figures moved run
						   after run; "" */
};

/* A headline figure of one report (report_headlines). */
struct report_figure {
	char		 name[48];	/* JSON path */
	char		 label[48];	/* for people */
	enum units_kind unit;
	double		 value;		/* NAN: unknown */
	double		 rel_noise;	/* 95% half-width / value, or NAN */
	int		 at_least;	/* value is a lower bound */
	int		 at_most;	/* value is an upper bound */
};

struct report_target {			/* what was measured */
	char		*path;
	char		 type[16];	/* file, blockdev, sim */
	int		 direct;
	char		 engine[16];
	uint32_t	 bs;
	uint64_t	 size_bytes;
};

struct report {
	char			 tool_version[32];
	int			 interrupted;
	char			 started_utc[32];	/* ISO 8601, Z */
	char			 finished_utc[32];
	struct report_config	 config;
	struct report_target	 target;
	struct report_context	 context;
	struct scan_result	*scan;		/* NULL: not run */
	struct limits_result	*limits;	/* NULL: not run */
	struct report_repeat	*repeat;	/* NULL: a single run */
};

/* Release what a report owns (scan, limits, path); not the struct itself. */
void	report_free(struct report *);

/* JSON to a stream (one document, nothing else).  Returns 0 or -1. */
int	report_json_dump(const struct report *, FILE *);
/*
 * JSON to path atomically: temp file in the same directory, fsync, rename.
 * Returns 0 or -1 with an allocated message in *cause.
 */
int	report_json_write(const struct report *, const char *, char **);
/* Read a report back.  Returns 0 or -1 with *cause (bad file: exit 2). */
int	report_load(const char *, struct report *, char **);

/* Text (markdown set: markdown) for people. */
void	report_text_write(const struct report *, FILE *, int);

/*
 * The headline figures of a report (tiers, backing store, ceilings, burst)
 * into fig[max].  Returns how many were filled; unknown ones are NAN.
 */
size_t	report_headlines(const struct report *, struct report_figure *,
	    size_t);
/*
 * Mean, sd and cv of every headline figure over n reports of the same
 * command (pure), and each run's value.  Figures are matched by name;
 * n < 1 gives runs = 0.  A figure that moved one way run after run, by
 * more than the runs' noise and REPORT_TREND_REL, has a trend, and the
 * repeat a reason (state carried between runs: a bucket running dry).
 */
void	report_repeat_aggregate(const struct report *, int,
	    struct report_repeat *);
/* An aligned table for text and markdown renderers; row 0 is the header. */
struct report_table {
	size_t		  ncols;
	size_t		  nrows;
	char		**cell;		/* nrows * ncols, owned */
	char		  align[16];	/* per column: 'l' or 'r' */
};

/* Start a table of strlen(align) columns (at most 15). */
void	report_table_init(struct report_table *, const char *);
/* Add a row of ncols strings (copied; NULL prints empty). */
void	report_table_add(struct report_table *, ...);
/* Print with indent (text) or as a pipe table (markdown); then free it. */
void	report_table_write(struct report_table *, FILE *, int,
	    const char *);

/* The time now as ISO 8601 UTC, for started_utc and finished_utc. */
char	*report_utc_now(char *, size_t);

/* Name of a trend: "none", "falling", "rising"; NULL past the last. */
const char *report_trend_name(int);
/* Name of a bound: "none", "at_most", "at_least"; NULL past the last. */
const char *report_bound_name(int);
/* "<= ", ">= " or "" before a value with this bound. */
const char *report_bound_prefix(int);
/* Find a figure of a repeat summary by name; NULL if absent. */
const struct report_stat *report_repeat_find(const struct report_repeat *,
	    const char *);

/*
 * Plot a report into outdir (created if missing) as png or svg with
 * gnuplot, one file per section present; says on stderr (log_info) which
 * were written and which skipped.  Returns 0, or -1 with *cause.
 */
int	report_plot(const struct report *, const char *, const char *,
	    char **);

/* Print the built-in profiles, one a line.  Returns 0 or -1 with *cause. */
int	report_profile_list(FILE *, char **);
/*
 * Print profile name (or path) for people: its tiers, backing store,
 * ceilings and buckets, and the figures a perfect detector would report
 * (sim_truth_profile).  Returns 0 or -1 with *cause.
 */
int	report_profile_show(const char *, FILE *, char **);

#endif

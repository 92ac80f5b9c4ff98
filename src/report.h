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

#include "ebsstats.h"
#include "instance.h"
#include "limits.h"
#include "scan.h"
#include "sync.h"
#include "together.h"
#include "units.h"
#include "writes.h"

#define REPORT_SCHEMA_VERSION	1
#define REPORT_JSON_DIGITS	17	/* significant digits of a real */

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
	unsigned	cuts;		/* 1 << PLAN_CUT_*: the quick preset's */
	char		type[128];	/* --type: "gp3,iops=6000"; "" */
	uint64_t	volume_size;	/* --size: the volume's; 0 */
};

struct report_context {			/* where it ran; "" when unknown */
	char		hostname[64];
	char		kernel[128];
	char		device[64];	/* e.g. vda */
	char		device_model[128];
	uint64_t	device_size_bytes; /* that disk's; 0 unknown */
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
	int		state;		/* enum bucket_state of the runs
					   counted, merged */
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
	char			reason[512];	/* why figures moved run
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
	int		 state;		/* enum bucket_state it was measured
					   in; 0: none applies */
};

/* Names the user gave a run for fleets (--host, --kind); "" if none. */
struct report_labels {
	char		host[64];
	char		kind[64];
};

struct check_list;
struct voltype_judgement;
struct voltype_measured;

struct report_target {			/* what was measured */
	char		*path;
	char		 type[16];	/* file, blockdev, sim */
	int		 direct;
	char		 engine[16];
	uint32_t	 bs;
	uint64_t	 size_bytes;
	char		 instance[64];	/* a simulated volume's; "" */
	char		 profile[128];	/* sim: the profile's name */
};

/* Why a run stopped on a fault (not a signal), where, and what it said. */
enum report_fault_reason {
	REPORT_FAULT_IO,		/* EIO, a short read: device, shrank */
	REPORT_FAULT_NO_SPACE,		/* ENOSPC, EDQUOT */
	REPORT_FAULT_ENGINE,		/* an engine could not be opened */
	REPORT_FAULT_OTHER,		/* any other errno */
};
struct report_fault {
	int		reason;		/* enum report_fault_reason */
	uint32_t	err;		/* errno; 0 if none */
	char		phase[16];	/* scan, limits, writes, sync,
					   together */
	char		message[512];	/* the line stderr had */
};

/* The word of a fault's reason ("io-error", ...); NULL past the last. */
const char	*report_fault_word(int);

struct report {
	char			 tool_version[32];
	int			 interrupted;
	struct report_fault	*fault;		/* NULL: none, or a report
						   from before the key */
	char			 started_utc[32];	/* ISO 8601, Z */
	char			 finished_utc[32];
	struct report_config	 config;
	struct report_target	 target;
	struct report_context	 context;
	struct report_labels	 labels;
	struct check_list	*checks;	/* NULL: no expectations */
	struct scan_result	*scan;		/* NULL: not run */
	struct limits_result	*limits;	/* NULL: not run */
	struct sync_result	*sync;		/* NULL: not run */
	struct writes_result	*writes;	/* NULL: not run */
	struct report_repeat	*repeat;	/* NULL: a single run */
	struct report		*targets;	/* several targets: a report of
						   each (target, context, scan,
						   limits); NULL for one */
	size_t			 ntargets;
	struct together_result	*together;	/* NULL: not run */
	struct voltype_judgement *voltypes;	/* every documented type
						   judged; NULL: not (no
						   limits) */
	struct ebsstats_run	*ebs;		/* EBS's own counters around
						   each phase; NULL: not
						   read (a simulated
						   volume) */
	struct instance_limits	 instance;	/* the instance assumed and
						   its EBS limits, or none
						   and why (instance.h) */
};

/*
 * Set the state a burst bucket may have been in (bucket.h) on every point
 * and section of r, from where its run saw a drop: after a run and when a
 * report is read.  Pure.
 */
void	report_state_apply(struct report *);
/*
 * Whether a bucket ran dry in any phase of r's run (the reads, the
 * writes, several targets together): then a figure measured while it
 * was full is a burst figure, and the long run is the rate after it.
 */
int	report_state_drained(const struct report *);
/*
 * The burst of the phase a bucket ran dry in (the reads' sweeps or
 * sustained run, else the writes'), with that phase in *phase ("reads",
 * "writes"; phase may be NULL); NULL when none ran dry.  A drain in any
 * phase counts for every figure of the long run, the type judgement,
 * compare, check, fleet and sync alike.  Pure.
 */
const struct burst *report_drain(const struct report *, const char **);

/*
 * Release what a report owns (sections, path, expectations, the reports of
 * several targets); not the struct itself.
 */
void	report_free(struct report *);

/* JSON to a stream (one document, nothing else).  Returns 0 or -1. */
int	report_json_dump(const struct report *, FILE *);
/*
 * JSON to path atomically: temp file in the same directory, fsync, rename.
 * Returns 0 or -1 with an allocated message in *cause.
 */
int	report_json_write(const struct report *, const char *, char **);
/*
 * Write the report to path as report_json_write; when that fails, to a
 * new file in the current directory instead, whose name is returned in
 * *used (caller frees) with why path failed in *cause.  Returns 0 (path
 * written), 1 (the other file written) or -1 (neither; *cause says why).
 */
int	report_json_save(const struct report *, const char *, char **,
	    char **);
/*
 * Whether a file can be written at path (option opt gave it) once a run
 * is over: not a directory, in an existing directory where a file can be
 * created, writable if it exists, and a regular file if replace (it will
 * be renamed over).  Creates nothing that stays.  Returns 0, or -1 with
 * an allocated message in *cause naming opt and path.
 */
int	report_output_check(const char *, const char *, int, char **);
/* Read a report back.  Returns 0 or -1 with *cause (bad file: exit 2). */
int	report_load(const char *, struct report *, char **);
/*
 * LEAN: the points' latency histograms are checked but not kept (each
 * point's hist NULL): for readers that never use them (text, compare,
 * check, fleet), a 31.7 KiB struct hist per point less.
 */
#define REPORT_LOAD_LEAN	0x1
int	report_load_with(const char *, struct report *, int, char **);

/* The report files of check and fleet, and the paths that gave none. */
struct report_files {
	char	**path;		/* in the order to read them */
	size_t	  n;
	struct {
		char	*path;
		char	*why;
	}	 *bad;		/* unreadable, or a directory without a
				   report */
	size_t	  nbad;
};

/*
 * The report files named by paths[n] into fs: each file named, and the
 * *.json files (not hidden) under each directory, recursively, in name
 * order, written without doubled slashes.  Free with report_files_free.
 */
void	report_files_find(struct report_files *, char *const *, int);
void	report_files_free(struct report_files *);

/*
 * Text (markdown set: markdown) for people, of a report of one target:
 * the verdict first, then the detail.
 */
void	report_text_write(const struct report *, FILE *, int);
/* The same without the verdict: one target of a report of several. */
void	report_text_member(const struct report *, FILE *, int);

struct check_expect;
struct check_result;
/* Judge an expectation against a report into the result. */
void	report_check_evaluate(const struct check_expect *,
	    const struct report *, struct check_result *);
/*
 * Whether what r measured rules out the --type it was run with (of
 * several targets: any one's); then a check fails, --accept-burst or not.
 */
int	report_check_type_fails(const struct report *);
/*
 * The outcome of the expectations of a check list on r in one line for
 * the verdict, naming each figure not met, into buf; "" when the list is
 * empty and no --type is ruled out.
 */
char	*report_check_outcome_line(const struct report *,
	    const struct check_list *, char *, size_t);
/*
 * Judge every expectation of l against r; count[CHECK_NVERDICTS] gets how
 * many had each verdict (by enum check_verdict).  Returns 1 if all were
 * met.
 */
int	report_check_tally(const struct check_list *, const struct report *,
	    unsigned *);

/*
 * The expectations l judged against report r as a table (markdown set: a
 * pipe table) ending with the count of each verdict.
 */
void	report_check_write(const struct report *, const struct check_list *,
	    FILE *, int);

/*
 * The line that opens the check of one report (file, target, host, and
 * whether it was interrupted).
 */
void	report_check_heading(const char *, const struct report *, FILE *,
	    int);

/* One report file of a check: the report and what it is judged against. */
struct report_check_file {
	const char		*file;
	struct report		 rep;	/* read, unless why is set */
	const struct check_list	*list;	/* judged against */
	char			*why;	/* skipped: why; NULL */
};

/* How the checks of report files came out, the worst last. */
enum report_check_outcome {
	REPORT_CHECK_MET,	/* every expectation met */
	REPORT_CHECK_SKIPPED,	/* a file could not be judged */
	REPORT_CHECK_NOT_MET,	/* an expectation missed or unknown */
};

/* The worst outcome of the checks of files[n]. */
enum report_check_outcome report_check_files_outcome(
	    const struct report_check_file *, size_t);
/*
 * The checks of files[n] for people (markdown set: pipe tables): each
 * report's table, or why it was skipped; then, of several (or quiet set,
 * alone), a line for each report skipped or interrupted and each
 * expectation missed or unknown, naming host and file, and a summary line.
 */
void	report_check_files_write(const struct report_check_file *, size_t,
	    FILE *, int, int);
/*
 * The checks of files[n] as one JSON document: checks[], skipped[] and the
 * count of each verdict.  Returns 0 or -1.
 */
int	report_check_files_json(const struct report_check_file *, size_t,
	    FILE *);

struct json_t;
/* The "expectations" JSON section of l judged against r (a new object). */
struct json_t *report_check_json(const struct report *,
	    const struct check_list *);
/*
 * Read an "expectations" section's expressions into a new list in *out
 * (freed by the caller even on failure).  Returns 0, or -1 with *cause.
 */
int	report_check_load(const struct json_t *, struct check_list **,
	    char **);

/*
 * A report of several targets for people: the verdict first, their
 * figures side by side with the spread, then each target's own report.
 */
void	report_multi_write(const struct report *, FILE *, int);

/*
 * The headline figures of a report (tiers, backing store, ceilings, burst,
 * long-run IOPS, write ceilings, sequential writes, the 70/30 point,
 * commits of one writer and of several; of several targets: the sums
 * together and alone, the shared limits, then each target's) into
 * fig[max], each with the bucket state it was measured in.  Returns how
 * many were filled; unknown ones are NAN.
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

/* Where text or markdown for people goes: what the renderers share. */
struct report_text {
	FILE	*f;
	int	 md;			/* markdown, else text */
};

#define REPORT_TEXT_INDENT	"  "

/*
 * How text and markdown write what is not known: a table cell (a figure
 * the run could not establish) is REPORT_NA; a sentence or a key-value
 * line says "unknown" or why.  An interval is "LOW to HIGH"
 * (units_format_interval); a "+-95%" column is a point's relative
 * precision, "1.6%"; "+-" before a figure elsewhere is a standard
 * deviation over repeated runs.
 */
#define REPORT_NA		"n/a"

/* A section heading. */
void	report_text_heading(const struct report_text *, const char *);
/*
 * A line of a key-value block: "  key   value" (wrapped at 96 columns
 * under the value) or "- **key**: value".
 */
void	report_text_kv(const struct report_text *, const char *,
	    const char *);
/* A sentence of a summary, wrapped for text at 96 columns. */
void	report_text_sentence(const struct report_text *, const char *);
/*
 * The first words of a report whose run stopped on fault f: what, where,
 * that its figures describe no healthy volume, and the line stderr had.
 */
void	report_text_fault(const struct report_text *,
	    const struct report_fault *);
/*
 * Under a table: why its p99.9 cells are n/a, what (I/Os, commits) it
 * needs and the counts from lo to hi that the rows short of
 * POINT_P999_MIN_IOS made.
 */
void	report_text_p999_note(const struct report_text *, const char *,
	    uint64_t, uint64_t);
/* A figure for a table cell into buf (UNITS_BUFSZ): NAN is REPORT_NA. */
char	*report_text_cell(enum units_kind, double, char *, size_t);

/*
 * The verdict of a report (verdict.h) for people: of one target, or of
 * the targets together and of each (report-verdict.c).
 */
void	report_verdict_text(const struct report_text *,
	    const struct report *);
/* The "verdict" JSON section of r, derived from it (a new object). */
struct json_t *report_verdict_json(const struct report *);

/* The Writes section of a report with writes (report-sync.c). */
void	report_writes_text(const struct report_text *,
	    const struct report *);
/* The Commits section of a report with commits. */
void	report_sync_text(const struct report_text *, const struct report *);
/*
 * The sentences of both for "What it means"; returns whether any was
 * written.
 */
int	report_sync_meaning(const struct report_text *,
	    const struct report *);

/*
 * EBS's own counters for people: per phase the limits demand exceeded and
 * for how long, the device's read latency beside tierprobe's; one line
 * when there are none (why); nothing for a simulated volume
 * (report-ebs.c).
 */
void	report_ebs_text(const struct report_text *, const struct report *);
/* In the header: the one line saying why there are no counters. */
void	report_ebs_none(const struct report_text *, const struct report *);
/*
 * The limit EBS's counters show held the sustained run: an enum
 * ebsstats_limit (EBSSTATS_LIMIT_NONE: none held it), or -1 without
 * counters of one.  For the verdict's naming of the long-run limits.
 */
int	report_ebs_sustained_limit(const struct report *);
/*
 * What EBS's counters say held the sustained run, in a few words, into
 * buf of len; "" when there are no counters of one.
 */
void	report_ebs_held(const struct report *, char *, size_t);
/* An ebsstats limit in words: "the instance's EBS IOPS limit". */
const char *report_ebs_limit_words(int);
/* An ebsstats limit in a table cell: "instance IOPS", "none"; "" else. */
const char *report_ebs_limit_cell(int);
/*
 * One page of EBS's counters (ebs-stats) read from source, to f: JSON
 * (json set), else text or markdown.  Returns 0, or -1 if f failed.
 */
int	report_ebs_page_write(const struct ebsstats_page *, const char *,
	    FILE *, int, int);

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

struct fleet;
/*
 * A fleet for people: its volumes, the medians by kind, the outliers with
 * the rule and why, the files skipped and why (markdown set: pipe tables).
 */
void	report_fleet_write(const struct fleet *, FILE *, int);
/*
 * A fleet as CSV: a header row (a figure's column named with its unit:
 * p50_us, bandwidth_bytes_per_s), then one row per volume.
 */
void	report_fleet_csv(const struct fleet *, FILE *);
/* A fleet as one JSON document (fleet.volumes[]).  Returns 0 or -1. */
int	report_fleet_json(const struct fleet *, FILE *);
/*
 * The fleet chart into outdir as png or svg (fleet.png): a panel per
 * figure, a bar per volume, outliers in red, each kind's median marked.
 * Returns 0, or -1 with *cause.
 */
int	report_plot_fleet(const struct fleet *, const char *, const char *,
	    char **);

/* The time now as ISO 8601 UTC, for started_utc and finished_utc. */
char	*report_utc_now(char *, size_t);

/* Name of a trend: "none", "falling", "rising"; NULL past the last. */
const char *report_trend_name(int);
/* Name of a bound: "none", "at_most", "at_least"; NULL past the last. */
const char *report_bound_name(int);
/* "<= ", ">= " or "" before a value with this bound. */
const char *report_bound_prefix(int);
/* The bound a headline figure's value is (enum report_bound). */
int	report_figure_bound(const struct report_figure *);
/*
 * The IOPS limit r measured in bucket state s (enum bucket_state), so
 * that figures of one state are compared only with a limit of the same:
 * the write sweeps' ceiling, the read sweeps', or the baseline a bucket
 * fell to; NAN when none was.
 */
double	report_iops_cap_in(const struct report *, int);
/*
 * The IOPS several targets (a report of them, or top of one) fell to for
 * good together when a bucket they share ran dry, which bounds each of
 * them in the long run, alone or together; NAN when the run saw none.
 */
double	report_shared_long_iops(const struct report *);
/*
 * What a section's figures' bucket state is, as a note for its lines:
 * "before a bucket ran dry", ... (full, draining, empty); "" otherwise.
 */
const char *report_state_note(int);
/*
 * Device time (seconds) and bytes the measurements of a report spent,
 * warm-ups included (random ones counted at the point's rate); pure.
 */
void	report_cost(const struct report *, double *, double *);
struct figures_def;
struct figures_value;
struct standing_figure;
/*
 * The value of a figure of figures.c (tier index as figures_find gave it)
 * in a report, with its interval; NAN with why when the report cannot
 * give it.
 */
void	report_figure(const struct report *, const struct figures_def *,
	    unsigned, struct figures_value *);
/*
 * The same for r, one of the targets top ran together (top NULL or r: as
 * report_figure): iops bounded by what a bucket they share left them
 * together once it ran dry.
 */
void	report_figure_in(const struct report *, const struct report *,
	    const struct figures_def *, unsigned, struct figures_value *);
/*
 * The figure fv (an expectation's when of_burst says it asks for a burst
 * rate) as standing.c takes it, into sf.
 */
void	report_standing_figure(const struct figures_value *, int,
	    struct standing_figure *);

/* Whether the first run gave the figure of s and a later run gave none. */
int	report_stat_lost(const struct report_stat *);
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

/*
 * The size of the volume a report of one target measured, in bytes: the
 * --size given (unless it contradicts the target's own size, which then
 * stands), else its device's (the disk under a file, the simulated
 * volume), else a block device target's; NAN when unknown, as under a
 * device-mapper or md device (several volumes, or part of one).
 */
double	report_voltype_size(const struct report *);
/*
 * The target's own size as a volume's (a simulated volume's, a whole
 * block device's), which a --size that contradicts it yields to; NAN.
 */
double	report_voltype_own_size(const struct report *);
/* The same from a context alone (no --size, no target). */
double	report_voltype_device_size(const struct report_context *);
/*
 * What a report of one target measured, as the inputs of voltype_judge
 * (no instances known: m->link is NULL); the device's model only when it
 * is one volume (not device-mapper or md).  Pure: reads r only.
 */
void	report_voltype_measured(const struct report *,
	    struct voltype_measured *);
/*
 * Judge every documented volume type (profiles/types) against each
 * target of r, with the instances known (profiles/instances), and the
 * type of r's config.type: into r->voltypes (of each target), replacing
 * what was there; none without limits.  Returns 0, or -1 with *cause when
 * config.type is not a type's spec.
 */
int	report_voltype_judge(struct report *, char **);
/*
 * The command that runs what a judgement's settle options say on the
 * target of report r ("tierprobe limits sim:ebs-gp2-100g --sustain
 * 2100"), into buf of len bytes; returns buf.
 */
char	*report_voltype_command(const struct report *, const char *, char *,
	    size_t);
/* The "Volume type" section of a report of one target, if judged. */
void	report_voltype_text(const struct report_text *,
	    const struct report *);

/* Print the built-in profiles, one a line.  Returns 0 or -1 with *cause. */
int	report_profile_list(FILE *, char **);
/*
 * Print profile name (or path) for people: its tiers, backing store,
 * ceilings and buckets, and the figures a perfect detector would report
 * (sim_truth_profile).  Returns 0 or -1 with *cause.
 */
int	report_profile_show(const char *, FILE *, char **);
/*
 * Append to l what a volume of profile name (or path) promises for I/Os of
 * bs bytes (0: 4 KiB): its IOPS and bandwidth ceilings and burst baseline,
 * less the tolerance of its [promise] section (10% assumed when it has
 * none), the baseline with the sustained run that settles it (longer than
 * the bucket lasts from full); sets l's profile and promise sentence.
 * Returns 0, or -1 with *cause when the profile cannot be read (a usage
 * error).
 */
int	report_profile_expect(const char *, uint32_t, struct check_list *,
	    char **);
/*
 * The same for volume type spec ("gp3,iops=6000"; "gp2:250G" names its
 * size) at size bytes (NAN or 0: the spec must name it): the type's
 * documented figures at that size, marked documented, not measured.
 * Returns 0, or -1 with *cause (an unknown type, settings out of range, no
 * size: a usage error).
 */
int	report_profile_expect_type(const char *, double, uint32_t,
	    struct check_list *, char **);

#endif

/* SPDX-License-Identifier: ISC */
/*
 * The plan of a measuring command (run, scan, limits): which targets and
 * how to open each, which phases, with which settings and engine; decided
 * from the options in one place, then fitted to each target once open.
 */
#ifndef PLAN_H
#define PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "limits.h"
#include "scan.h"
#include "sync.h"
#include "target.h"
#include "writes.h"

struct ceilings_prior;
struct parallel_together;

#define PLAN_DEFAULT_TARGET	"tierprobe.dat"	/* run without a target */

/* Phases, in the order they run on a target. */
#define PLAN_SCAN	0x01		/* working-set scan: tiers */
#define PLAN_LIMITS	0x02		/* iodepth, bs, sustained sweeps */
#define PLAN_WRITES	0x04		/* buffers, write ceilings, mixed */
#define PLAN_SYNC	0x08		/* commits */

/* What the quick preset leaves out or cuts short (bits of cuts). */
enum plan_cut {
	PLAN_CUT_WRITE_SUSTAIN,		/* the write sweeps' sustained run */
	PLAN_CUT_READ_SIZES,		/* read sizes x4 apart */
	PLAN_CUT_WRITE_STEPS,		/* write sweeps: every other point */
	PLAN_CUT_SEQ_WRITES,		/* sequential writes: until known */
	PLAN_CUT_MIXED,			/* the 70/30 point */
	PLAN_CUT_COMMIT_SIZES,		/* commits at one size */
	PLAN_CUT_COMMIT_METHODS,	/* fdatasync and fsync only */
	PLAN_CUT_FLUSH,			/* the flush evidence */
	PLAN_CUT_WRITERS,		/* writers: 1 and 16 sharing a log */
	PLAN_NCUTS,
};

/* One target and what measuring it takes. */
struct plan_target {
	const char		*spec;		/* as given: path or sim:NAME */
	enum target_type	 type;		/* what spec names */
	int			 remove;	/* remove a file it created */
	struct target_params	 params;	/* for target_open */
	const char		*engine;	/* "sim" on a simulated one */
	const char		*scan_engine;	/* psync for a buffered scan */
	unsigned		 skip;		/* PLAN_* of the plan's phases
						   not run on this target */
	struct scan_spec	 scan;		/* each phase's settings, */
	struct limits_spec	 limits;	/* as asked: see plan_limits */
	int			 max_ws_given;	/* --max-ws was on the line */
	char			 note[256];	/* what plan_fit cut to fit the
						   target; "" if nothing */
	struct sync_spec	 sync;
	struct writes_spec	 writes;	/* see plan_writes */
	unsigned		 cuts;		/* 1 << PLAN_CUT_*: the quick
						   preset's */
};

struct plan {
	enum cli_cmd		 cmd;
	unsigned		 phases;	/* PLAN_* */
	uint64_t		 seed;		/* run i of a repeat: seed+i */
	unsigned		 repeat;	/* runs, each a whole one */
	double			 sustain_together_s; /* 0: as sustain_s */
	struct plan_target	*target;
	size_t			 ntargets;
};

/*
 * Plan a measuring command from its options: the targets (the operands,
 * or ./tierprobe.dat with a quick preset when there are none), the phases
 * of the command, the seed, and per target how to open it, which engine
 * to use and the settings of each phase.  run writes (commits) only to a
 * simulated volume or a file tierprobe creates or created before.
 * Nothing is opened.  Free with plan_free.
 */
void	plan_make(struct plan *, const struct cli_opts *);
void	plan_free(struct plan *);

/*
 * Why the scan of a plan's target, read by the named engine, may misplace
 * the tiers (buffered reads through io_uring), in words; NULL when the
 * plan scans nothing or nothing says so.
 */
const char	*plan_scan_caveat(const struct plan *, const struct plan_target *,
		    const char *);

/*
 * Whether the plan writes the report section named ("scan", "limits",
 * "sync") for target pt.
 */
int	plan_measures(const struct plan *, const struct plan_target *,
	    const char *);

/* A cut's JSON word ("write_sustain", ...); NULL past the last. */
const char	*plan_cut_name(int);
/* A cut in words, for the text report; NULL past the last. */
const char	*plan_cut_text(int);

/*
 * Fit the settings of pt to its target t, once open: the scan and the
 * sweeps stay within the target, and pt->note says so when that cuts a
 * size the command line gave.  Returns 0, or -1 with an allocated message
 * in *cause (a usage error: the I/O size or the scan do not fit the
 * target).
 */
int	plan_fit(struct plan_target *, const struct target *, char **);

/* What a plan may cost on one target, said before it runs. */
struct plan_cost {
	double		scan_s;		/* device time: the grid's points at
					   their time limit (the adaptive scan
					   may add some) */
	double		sweeps_s;	/* the sweeps and first-touch test */
	double		sustain_s;	/* the sustained run */
	double		writes_s;	/* the write side */
	double		sync_s;		/* the commits */
	uint64_t	warm_bytes;	/* the scan's sequential warm-ups read
					   these once, at the volume's own
					   speed (not in scan_s) */
	uint64_t	span_bytes;	/* reads fall within [0, span) */
};

/* The device time and span pt may take on t, once plan_fit fitted it. */
void	plan_cost(const struct plan *, const struct plan_target *,
	    const struct target *, struct plan_cost *);

/*
 * The limit sweeps' settings for pt on t, after its scan (NULL if none
 * ran): working set past the last cache the scan found, the scan's I/O as
 * work done before (for the burst credits), what the first-touch test may
 * read.  *prior is allocated for spec->prior (caller frees; may be NULL).
 */
void	plan_limits(const struct plan_target *, const struct target *,
	    const struct scan_result *, struct limits_spec *,
	    struct ceilings_prior **);

/*
 * What makes a plan of several targets impossible, before anything is
 * opened: a target given twice, simulated targets mixed with real ones
 * (virtual and real time cannot run together), more I/Os in flight
 * together than one process keeps, an engine that cannot drive several at
 * once.  Returns 0, or -1 with an allocated message in *cause (a usage
 * error).
 */
int	plan_check(const struct plan *, char **);

/*
 * The together phase's settings after each target's limit sweeps
 * (alone[i], scan[i]: NULL if not run): the IOPS run at the plan's I/O
 * size and the deepest queue any target needed alone, over the sweeps'
 * working sets (ws[n], caller's); the bandwidth run at four times the
 * smallest I/O size with which every target reached its bandwidth ceiling
 * alone (so no IOPS cap binds it), at most the largest size swept; the
 * work done before it, oldest first (*prior allocated; caller frees).
 */
void	plan_together(const struct plan *, struct target **,
	    const struct limits_result *const *,
	    const struct scan_result *const *, uint64_t *,
	    struct parallel_together *, struct ceilings_prior **);

/*
 * The write side's settings for pt on t, after the scan and the read
 * sweeps (NULL if not run): the write sweeps set as plan_limits sets
 * them; sequential writes over all of t (or --ws); the mixed point at the
 * read knee.  *prior is allocated as by plan_limits.
 */
void	plan_writes(const struct plan_target *, const struct target *,
	    const struct scan_result *, const struct limits_result *,
	    struct writes_spec *, struct ceilings_prior **);

#endif

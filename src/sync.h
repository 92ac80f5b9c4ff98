/* SPDX-License-Identifier: ISC */
/*
 * Commits: WAL-style durable writes per durability method, size and number
 * of writers, and the timing that says what a flush does.
 */
#ifndef SYNC_H
#define SYNC_H

#include <stddef.h>
#include <stdint.h>

#include "writepath.h"

struct target;

/* The durability methods, in the order they are measured. */
enum sync_method {
	SYNC_FDATASYNC,			/* write, then fdatasync */
	SYNC_FSYNC,			/* write, then fsync */
	SYNC_DSYNC,			/* write on an O_DSYNC file */
	SYNC_DIRECT_DSYNC,		/* write on an O_DIRECT|O_DSYNC file */
	SYNC_URING_DATASYNC,		/* io_uring write linked to fsync */
	SYNC_NMETHODS,
};

#define SYNC_ALL_METHODS	((1U << SYNC_NMETHODS) - 1)
#define SYNC_MAX_SIZES		8
#define SYNC_MAX_WRITERS	8
#define SYNC_MAX_WRITER_COUNT	64
#define SYNC_SPAN		(16ULL << 20)	/* each writer's log */
#define SYNC_WAL_BS		8192		/* the writers sweep's size */
#define SYNC_PRECISION		0.05		/* a point's, by default */
#define SYNC_MAX_TIME_S		3.0		/* a point's limit, by default */

struct sync_spec {
	unsigned	 methods;	/* 1 << SYNC_*: those to measure */
	uint32_t	 sizes[SYNC_MAX_SIZES];	/* bytes per commit */
	size_t		 nsizes;
	unsigned	 writers[SYNC_MAX_WRITERS];	/* counts, ascending */
	size_t		 nwriters;
	uint32_t	 writers_bs;	/* size of the writers sweep */
	int		 no_evidence;	/* no flush evidence (quick preset) */
	int		 shared_only;	/* writers share one log, never own
					   one each (quick preset) */
	double		 precision;	/* 95% CI of the mean commit latency */
	double		 max_time_s;	/* per point */
	const char	*engine;	/* for the system-call methods */
	const char	*uring_engine;	/* for uring-datasync */
};

struct sync_result {
	struct commit_point	*rows;		/* sync.methods[] */
	size_t			 nrows;
	int			 best_method;	/* fastest at one writer and
						   best_bs (SYNC_*); -1 */
	uint32_t		 best_bs;	/* the size it was chosen at */
	struct commit_point	 again;		/* best_method at best_bs and
						   one writer, again after
						   the writers (pt.ios == 0:
						   not run) */
	struct writepath_flush	 flush;
	char			 write_cache[16]; /* as sysfs says; "" */
	int			 fua;		/* 1, 0; -1 unknown */
	int			 files;		/* writers had files of their
						   own (else parts of one
						   device) */
	int			 interrupted;
	int			 state;		/* enum bucket_state of the
						   commits (set by the report) */
	char			 note[512];	/* what was skipped and why */
	double			 seconds;	/* device time of every point,
						   warm-ups and the flush
						   evidence included */
	double			 bytes;		/* and the bytes written */
};

/* Bytes a file target needs for the commits: a header and one log. */
uint64_t	 sync_need_bytes(void);

/* Name of a method ("fdatasync", ...), NULL past the last. */
const char	*sync_method_name(int);
/*
 * Parse a comma-separated list of method names (or "all") into a mask of
 * 1 << SYNC_*.  Returns 0, or -1 with an allocated message in *cause.
 */
int		 sync_methods_parse(const char *, unsigned *, char **);
/*
 * Parse a comma-separated list of writer counts (1 to
 * SYNC_MAX_WRITER_COUNT, at most SYNC_MAX_WRITERS of them) into spec,
 * sorted and each once.  Returns 0, or -1 with *cause.
 */
int		 sync_writers_parse(const char *, struct sync_spec *, char **);

/* Device time spec's commits may take, every point at its time limit. */
double	sync_max_seconds(const struct sync_spec *);
/* Initialise a result with nothing measured. */
void	sync_result_init(struct sync_result *);
/*
 * Measure commits on target t (opened for writing): every method at every
 * size with one writer, the flush evidence, then the fastest method at
 * writers_bs with each count of writers, each in a file of its own and all
 * in one shared file.  Writers' files are created beside a file target
 * and removed before returning.  A method the platform refuses is skipped
 * with a note.  Returns 0, 1 if interrupted, or -errno (partial result
 * kept; -ENOSPC when the filesystem filled up).
 */
int	sync_run(struct target *, const struct sync_spec *,
	    struct sync_result *);
/* Release what a result owns; NULL is a no-op. */
void	sync_result_free(struct sync_result *);

#endif

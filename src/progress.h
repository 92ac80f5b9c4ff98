/* SPDX-License-Identifier: ISC */
/*
 * Progress on stderr: a live line on a TTY (phase, point i/N, what is being
 * measured, IOPS and p50, elapsed and ETA), one line per finished point
 * otherwise; nothing with --quiet.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct point;

/* What the points of a phase differ in, shown on each line. */
enum progress_vary {
	PROGRESS_WS,			/* "ws 1 GiB" */
	PROGRESS_IODEPTH,		/* "iodepth 32" */
	PROGRESS_BS,			/* "bs 64 KiB", "bs 2300 B" */
	PROGRESS_NONE,			/* "ws 1 GiB qd 32" */
};

void	progress_init(int);			/* quiet */
/* A new phase ("scan", "iodepth", ...) of n points differing in vary. */
void	progress_phase(const char *, size_t, enum progress_vary);
/* Each point of the phase lasts this many seconds of device time. */
void	progress_phase_length(double);
/* The phase has n points after all (an adaptive scan adds some; said). */
void	progress_set_total(size_t);
/* The phase gets n more points (said, with why: "bandwidth still rising"). */
void	progress_more(size_t, const char *);
/* The phase ends after n points, before its total (said, with why). */
void	progress_stop_at(size_t, const char *);
/*
 * Filling path: done of total bytes written, 0 first and total last; a
 * line redrawn on a TTY, one per tenth otherwise, and the last one kept,
 * for fills of 256 MiB and more.
 */
void	progress_fill(const char *, uint64_t, uint64_t);
/* Point i (0-based) of the phase is starting. */
void	progress_point_start(size_t, const struct point *);
/*
 * What the point that just started is ("size 2300 B", "4 writers, one
 * shared log") instead of what the phase varies, and the unit of its rate
 * ("commits/s"; NULL: IOPS).
 */
void	progress_point_label(const char *, const char *);
/* Live figures of the running point; a sampler_progress_cb. */
void	progress_update(const struct point *, double, void *);
/* The point finished. */
void	progress_point_done(const struct point *);
void	progress_end(void);
/* Write to f instead of stderr, as a TTY if tty (tests). */
void	progress_set_stream(FILE *, int);

#endif

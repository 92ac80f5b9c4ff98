/* SPDX-License-Identifier: ISC */
/* --fio-job: an fio job file that repeats the points of a report. */
#ifndef FIOJOB_H
#define FIOJOB_H

#include <stdio.h>

#include "report.h"

/*
 * The job file to a stream: one job per measured point, run in turn
 * (reads, writes, commits with one job per writer); of several targets,
 * then one job per target for each run together.
 */
void	fiojob_dump(const struct report *, FILE *);
/*
 * Jobs the file of a report would hold: one per measured point (scan,
 * sweeps, writes, commits) and per target of each run together.
 */
size_t	fiojob_count(const struct report *);
/*
 * The job file to path.  Returns 0; 1 when the report holds nothing to
 * export (no file written); -1 when writing failed.  Both with an
 * allocated *cause.
 */
int	fiojob_write(const struct report *, const char *, char **);

#endif

/* SPDX-License-Identifier: ISC */
/* --fio-job: an fio job file that repeats the points of a report. */
#ifndef FIOJOB_H
#define FIOJOB_H

#include <stdio.h>

#include "report.h"

/*
 * The job file to a stream: one job per measured point, run in turn; of
 * several targets, then one job per target for each run together.
 */
void	fiojob_dump(const struct report *, FILE *);
/* The job file to path.  Returns 0, or -1 with an allocated *cause. */
int	fiojob_write(const struct report *, const char *, char **);

#endif

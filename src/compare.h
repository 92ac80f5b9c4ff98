/* SPDX-License-Identifier: ISC */
/* Several reports side by side: headline figures, ratios to the first. */
#ifndef COMPARE_H
#define COMPARE_H

#include <stdio.h>

#include "report.h"

#define COMPARE_MAX	7		/* reports side by side */

/*
 * Print reports reps[0..n-1] side by side (markdown set: a pipe table),
 * with ratios to reps[0] marked where larger than run-to-run noise.
 * Returns 0, or -1 if n is not in 1..COMPARE_MAX.
 */
int	compare_write(const struct report *, int, FILE *, int);
/*
 * The same as one JSON document (keys in tierprobe-report(5), COMPARE
 * OUTPUT); files[n] name the reports.  Returns 0, or -1 if n is not in
 * 1..COMPARE_MAX or the document could not be written.
 */
int	compare_json(const struct report *, const char *const *, int, FILE *);

/*
 * Whether b differs from a by more than their noise: 1 yes, 0 no, -1 when
 * either noise is unknown.  Noise is a 95% half-width in the figure's unit.
 */
int	compare_differs(double, double, double, double);

#endif

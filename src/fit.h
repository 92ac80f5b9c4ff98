/* SPDX-License-Identifier: ISC */
/* Thin wrapper over GSL's nonlinear least squares: the only GSL user. */
#ifndef FIT_H
#define FIT_H

#include <stddef.h>

/*
 * Knee of a saturating curve (limits): y = a x / (1 + (a x / c)^k)^(1/k),
 * a smooth min(a x, c).  Fitted on ln y so every point weighs the same.
 */
struct fit_knee {
	double	slope;		/* a: y / x well below the knee */
	double	ceiling;	/* c: the level far above the knee */
	double	sharpness;	/* k: large for a hard corner */
	double	knee_x;		/* c / a: where the two asymptotes cross */
	double	rms_log;	/* RMS residual of ln y */
	int	converged;	/* the solver met its tolerances */
};

/*
 * Fit the knee model to n points (x, y > 0; n >= 3).  Returns 0 with *out
 * filled (out->converged may still be 0: the best point found is kept), or
 * -1 if there are too few usable points or the solver failed outright.
 */
int	fit_knee(const double *, const double *, size_t, struct fit_knee *);

#endif

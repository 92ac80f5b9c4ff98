/* SPDX-License-Identifier: ISC */
/*
 * Numerics on top of GSL: Gaussian mixtures by EM, the cache hit-ratio fit,
 * distribution quantiles and the knee of a saturating curve.  The only
 * module that includes GSL.
 */
#ifndef FIT_H
#define FIT_H

#include <stddef.h>

#define FIT_GMM_MAX	5		/* mixture components at most */

/* A Gaussian mixture on one variable. */
struct fit_gmm {
	size_t	k;			/* components, sorted by mu */
	double	weight[FIT_GMM_MAX];	/* mixing proportions, sum 1 */
	double	mu[FIT_GMM_MAX];
	double	sigma[FIT_GMM_MAX];
	double	loglik;			/* weighted log-likelihood */
	double	bic;			/* -2 loglik + (3k - 1) ln(sum w) */
	int	iterations;
};

/*
 * A start for EM of a k-component mixture on n values x with weights w: means
 * at the weighted quantiles (j + 1/2) / k, equal weights, sd a k-th of the
 * values' (at least min_sigma).  x must hold at least one value.
 */
void	fit_gmm_start(const double *, const double *, size_t, size_t, double,
	    struct fit_gmm *);

/*
 * At most max_iter rounds of EM from the mixture in g on n values x with
 * weights w, no sigma below min_sigma; g keeps its k.  Returns 0, or -1 when
 * a component empties (g is then half updated: keep a copy).
 */
int	fit_gmm_refine(const double *, const double *, size_t, double, int,
	    struct fit_gmm *);

/* A capacity fitted to hit fractions, f(S) = min(1, C / S). */
struct fit_capacity {
	double	c;			/* capacity, units of s */
	double	low;			/* 95% interval (chi2 profile): */
	double	high;			/* 0 and INFINITY when unbounded */
	double	chi2;			/* weighted residuals of the fit */
	double	chi2_const;		/* ... of the best constant f */
	size_t	dof;			/* n - 1 */
	size_t	informative;		/* points with S > c */
	double	alpha;			/* exponent of min(1, (C / S)^alpha), */
	double	alpha_se;		/* fitted alongside to test the law; */
					/* NAN when that fit failed */
};

/*
 * Weighted least squares (gsl_multifit_nlinear) of f[i] = min(1, c / s[i])
 * over n points with variances var[i].  The 95% interval is where chi2 stays
 * within t^2 * max(1, chi2 / dof) of its minimum (Student t): the model's
 * kink at s = c makes the linearised covariance too optimistic.  Then
 * min(1, (c / s)^alpha) is fitted too, alpha with its standard error (from
 * the covariance, chi2-scaled).  Returns 0, or -1 if the fit fails (fewer
 * than two points, no point above the fitted c).
 */
int	fit_capacity(const double *, const double *, const double *, size_t,
	    struct fit_capacity *);

/* Quantiles: Student's t with dof degrees of freedom; standard normal. */
double	fit_t_quantile(double, double);
double	fit_normal_quantile(double);
/* Standard normal cumulative distribution. */
double	fit_normal_cdf(double);

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

/* Call once before any fit: GSL errors become statuses, not aborts. */
void	fit_init(void);

#endif

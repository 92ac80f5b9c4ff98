/* SPDX-License-Identifier: ISC */
/* Thin wrapper over GSL's nonlinear least squares: the only GSL user. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>

#include "fit.h"
#include "xmalloc.h"

/*
 * Knee fit.  Parameters are p = (ln a, ln c, ln(k - 1)) so that a, c > 0 and
 * k > 1 without constraints; k is held below FIT_KNEE_MAX_K, where the
 * curve is a hard corner to within 1%.  The residual of point i is
 * ln model(x_i) - ln y_i:
 *
 *	ln model = ln a + ln x - softplus(k (ln a + ln x - ln c)) / k
 *
 * with softplus(t) = ln(1 + e^t).  Several starting sharpnesses are tried
 * and the smallest residual kept, as a hard corner and a gentle bend have
 * separate basins.
 */
#define FIT_KNEE_MAX_K	200.0

struct fit_knee_data {
	const double	*lx;		/* ln x */
	const double	*ly;		/* ln y */
	size_t		 n;
};

static double
fit_knee_softplus(double t)
{
	if (t > 30)
		return (t);
	if (t < -30)
		return (exp(t));
	return (log1p(exp(t)));
}

static double
fit_knee_k(double p2)
{
	double	k;

	k = 1 + exp(p2);
	return (k > FIT_KNEE_MAX_K ? FIT_KNEE_MAX_K : k);
}

static double
fit_knee_eval(double la, double lc, double k, double lx)
{
	return (la + lx - fit_knee_softplus(k * (la + lx - lc)) / k);
}

static int
fit_knee_f(const gsl_vector *p, void *arg, gsl_vector *f)
{
	const struct fit_knee_data	*d = arg;
	double				 la, lc, k;
	size_t				 i;

	la = gsl_vector_get(p, 0);
	lc = gsl_vector_get(p, 1);
	k = fit_knee_k(gsl_vector_get(p, 2));
	for (i = 0; i < d->n; i++) {
		gsl_vector_set(f, i,
		    fit_knee_eval(la, lc, k, d->lx[i]) - d->ly[i]);
	}
	return (GSL_SUCCESS);
}

static double
fit_knee_ssr(const struct fit_knee_data *d, double la, double lc, double k)
{
	double	r, ssr = 0;
	size_t	i;

	for (i = 0; i < d->n; i++) {
		r = fit_knee_eval(la, lc, k, d->lx[i]) - d->ly[i];
		ssr += r * r;
	}
	return (ssr);
}

/* One solver run from p0; returns 0 and the end point, or -1. */
static int
fit_knee_solve(struct fit_knee_data *d, const double p0[3], double p[3],
    int *converged)
{
	gsl_multifit_nlinear_parameters	 params;
	gsl_multifit_nlinear_workspace	*w;
	gsl_multifit_nlinear_fdf	 fdf;
	gsl_vector			*x;
	int				 status, info, i;

	params = gsl_multifit_nlinear_default_parameters();
	w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params,
	    d->n, 3);
	if (w == NULL)
		return (-1);
	fdf.f = fit_knee_f;
	fdf.df = NULL;			/* finite differences: n is small */
	fdf.fvv = NULL;
	fdf.n = d->n;
	fdf.p = 3;
	fdf.params = d;

	x = gsl_vector_alloc(3);
	for (i = 0; i < 3; i++)
		gsl_vector_set(x, i, p0[i]);
	status = gsl_multifit_nlinear_init(x, &fdf, w);
	if (status == GSL_SUCCESS) {
		status = gsl_multifit_nlinear_driver(200, 1e-10, 1e-10, 0,
		    NULL, NULL, &info, w);
		for (i = 0; i < 3; i++) {
			p[i] = gsl_vector_get(gsl_multifit_nlinear_position(w),
			    i);
		}
	}
	gsl_vector_free(x);
	gsl_multifit_nlinear_free(w);

	if (status != GSL_SUCCESS && status != GSL_EMAXITER &&
	    status != GSL_ENOPROG)
		return (-1);
	for (i = 0; i < 3; i++) {
		if (!isfinite(p[i]))
			return (-1);
	}
	*converged = (status == GSL_SUCCESS);
	return (0);
}

/* Fit the knee model to n points; see fit.h. */
int
fit_knee(const double *x, const double *y, size_t n, struct fit_knee *out)
{
	static const double	 k0[] = { 2, 8, 50 };
	struct fit_knee_data	 d;
	double			*lx, *ly, ymax, p0[3], p[3], best[3] = { 0 };
	double			 ssr, best_ssr = INFINITY, k;
	size_t			 i, m;
	int			 conv, best_conv = 0;

	lx = xcalloc(n ? n : 1, sizeof *lx);
	ly = xcalloc(n ? n : 1, sizeof *ly);
	ymax = 0;
	for (i = m = 0; i < n; i++) {
		if (!(x[i] > 0) || !(y[i] > 0) || !isfinite(x[i]) ||
		    !isfinite(y[i]))
			continue;
		lx[m] = log(x[i]);
		ly[m] = log(y[i]);
		if (y[i] > ymax)
			ymax = y[i];
		m++;
	}
	d.lx = lx;
	d.ly = ly;
	d.n = m;
	if (m < 3)
		goto fail;

	/* Start: slope from the first point, ceiling at the largest y. */
	for (i = 0; i < sizeof k0 / sizeof k0[0]; i++) {
		p0[0] = ly[0] - lx[0];
		p0[1] = log(ymax);
		p0[2] = log(k0[i] - 1);
		if (fit_knee_solve(&d, p0, p, &conv) != 0)
			continue;
		ssr = fit_knee_ssr(&d, p[0], p[1], fit_knee_k(p[2]));
		if (ssr < best_ssr) {
			best_ssr = ssr;
			best[0] = p[0];
			best[1] = p[1];
			best[2] = p[2];
			best_conv = conv;
		}
	}
	if (!isfinite(best_ssr))
		goto fail;

	k = fit_knee_k(best[2]);
	out->slope = exp(best[0]);
	out->ceiling = exp(best[1]);
	out->sharpness = k;
	out->knee_x = exp(best[1] - best[0]);
	out->rms_log = sqrt(best_ssr / m);
	out->converged = best_conv;
	free(lx);
	free(ly);
	return (0);

fail:
	free(lx);
	free(ly);
	return (-1);
}

/* SPDX-License-Identifier: ISC */
/*
 * Numerics on top of GSL: Gaussian mixtures by EM, the cache hit-ratio fit,
 * distribution quantiles and the knee of a saturating curve.  The only
 * module that includes GSL.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_vector.h>

#include "fit.h"
#include "xmalloc.h"

#define FIT_EM_TOL	1e-10		/* relative change of loglik */

/* Index order of x (qsort_r argument), for weighted quantiles. */
static int
fit_sort_cmp(const void *a, const void *b, void *arg)
{
	const double	*x = arg;
	double		 xa = x[*(const size_t *)a], xb = x[*(const size_t *)b];

	return ((xa > xb) - (xa < xb));
}

/* Weighted mean and standard deviation of x. */
static void
fit_moments(const double *x, const double *w, size_t n, double *mean,
    double *sd)
{
	double	sw = 0, sx = 0, sxx = 0, d;
	size_t	i;

	for (i = 0; i < n; i++) {
		sw += w[i];
		sx += w[i] * x[i];
	}
	*mean = sx / sw;
	for (i = 0; i < n; i++) {
		d = x[i] - *mean;
		sxx += w[i] * d * d;
	}
	*sd = sqrt(sxx / sw);
}

/* Sort components by mu, keeping each one's weight and sigma with it. */
static void
fit_gmm_sort(struct fit_gmm *g)
{
	size_t	i, j;
	double	t;

	for (i = 1; i < g->k; i++) {
		for (j = i; j > 0 && g->mu[j - 1] > g->mu[j]; j--) {
			t = g->mu[j]; g->mu[j] = g->mu[j - 1]; g->mu[j - 1] = t;
			t = g->sigma[j]; g->sigma[j] = g->sigma[j - 1];
			g->sigma[j - 1] = t;
			t = g->weight[j]; g->weight[j] = g->weight[j - 1];
			g->weight[j - 1] = t;
		}
	}
}

/* Log of weight[j] * N(x; mu[j], sigma[j]) for every component. */
static void
fit_gmm_logdens(const struct fit_gmm *g, const double *lnorm, double x,
    double *ld)
{
	size_t	j;
	double	z;

	for (j = 0; j < g->k; j++) {
		z = (x - g->mu[j]) / g->sigma[j];
		ld[j] = lnorm[j] - 0.5 * z * z;
	}
}

/* Log of the sum of exp(ld[j]). */
static double
fit_logsumexp(const double *ld, size_t k)
{
	double	m = -INFINITY, s = 0;
	size_t	j;

	for (j = 0; j < k; j++)
		if (ld[j] > m)
			m = ld[j];
	if (m == -INFINITY)
		return (m);
	for (j = 0; j < k; j++)
		s += exp(ld[j] - m);
	return (m + log(s));
}

/*
 * M step of EM for the shapes: each component's mean moves by the
 * responsibility-weighted mean offset sd/sw (offsets were taken from the
 * old mean), its sigma is the weighted sd, at least min_sigma.  Returns -1
 * if a component holds almost none of total.
 */
static int
fit_gmm_mstep(struct fit_gmm *g, size_t k, const double *sw,
    const double *sd, const double *sdd, double total, double min_sigma)
{
	double	mean, d;
	size_t	j;

	for (j = 0; j < k; j++) {
		if (sw[j] <= 1e-9 * total)
			return (-1);
		mean = sd[j] / sw[j];
		g->mu[j] += mean;
		d = sdd[j] / sw[j] - mean * mean;
		g->sigma[j] = d > min_sigma * min_sigma ? sqrt(d) : min_sigma;
	}
	return (0);
}

/*
 * EM from the start in g until the log-likelihood settles.  Returns 0, or -1
 * when a component loses all its weight.
 */
int
fit_gmm_refine(const double *x, const double *w, size_t n, double min_sigma,
    int max_iter, struct fit_gmm *g)
{
	double	ld[FIT_GMM_MAX], sw[FIT_GMM_MAX], sd[FIT_GMM_MAX];
	double	sdd[FIT_GMM_MAX], wt, lse, r, d, ll, prev = -INFINITY;
	double	lnorm[FIT_GMM_MAX];
	size_t	i, j;
	int	it;

	wt = 0;
	for (i = 0; i < n; i++)
		wt += w[i];
	for (it = 0; it < max_iter; it++) {
		memset(sw, 0, sizeof sw);
		memset(sd, 0, sizeof sd);
		memset(sdd, 0, sizeof sdd);
		for (j = 0; j < g->k; j++)
			lnorm[j] = log(g->weight[j]) - log(g->sigma[j]) -
			    0.5 * log(2 * M_PI);
		ll = 0;
		for (i = 0; i < n; i++) {
			if (w[i] <= 0)
				continue;
			fit_gmm_logdens(g, lnorm, x[i], ld);
			lse = fit_logsumexp(ld, g->k);
			ll += w[i] * lse;
			for (j = 0; j < g->k; j++) {
				r = w[i] * exp(ld[j] - lse);
				d = x[i] - g->mu[j];
				sw[j] += r;
				sd[j] += r * d;
				sdd[j] += r * d * d;
			}
		}
		g->loglik = ll;
		g->iterations = it;
		if (it > 0 && fabs(ll - prev) <= FIT_EM_TOL * fabs(ll))
			break;
		prev = ll;
		if (fit_gmm_mstep(g, g->k, sw, sd, sdd, wt, min_sigma) != 0)
			return (-1);
		for (j = 0; j < g->k; j++)
			g->weight[j] = sw[j] / wt;
	}
	g->bic = -2 * g->loglik + (3.0 * g->k - 1) * log(wt);
	fit_gmm_sort(g);
	return (0);
}

/* Start: means at the weighted quantiles (j + 1/2) / k of x. */
void
fit_gmm_start(const double *x, const double *w, size_t n, size_t k,
    double min_sigma, struct fit_gmm *g)
{
	size_t	*idx, i, j;
	double	wt = 0, acc = 0, mean, sd, q;

	idx = xreallocarray(NULL, n, sizeof *idx);
	for (i = 0; i < n; i++) {
		idx[i] = i;
		wt += w[i];
	}
	qsort_r(idx, n, sizeof *idx, fit_sort_cmp, (void *)x);
	fit_moments(x, w, n, &mean, &sd);
	g->k = k;
	for (i = 0, j = 0; j < k; j++) {
		q = (j + 0.5) / k * wt;
		while (i < n - 1 && acc + w[idx[i]] < q)
			acc += w[idx[i++]];
		g->mu[j] = x[idx[i]];
		g->sigma[j] = fmax(sd / k, min_sigma);
		g->weight[j] = 1.0 / k;
	}
	free(idx);
}

struct fit_capacity_data {
	const double	*s;
	const double	*f;
	size_t		 n;
};

/* Residuals min(1, (c / s)^alpha) - f; alpha is 1 with one parameter. */
static int
fit_capacity_f(const gsl_vector *p, void *arg, gsl_vector *res)
{
	const struct fit_capacity_data	*d = arg;
	double				 c = gsl_vector_get(p, 0), a = 1;
	size_t				 i;

	if (p->size > 1)
		a = gsl_vector_get(p, 1);
	for (i = 0; i < d->n; i++) {
		if (c >= d->s[i])
			gsl_vector_set(res, i, 1 - d->f[i]);
		else if (c <= 0)
			gsl_vector_set(res, i, (a == 1 ? c / d->s[i] : 0) -
			    d->f[i]);
		else
			gsl_vector_set(res, i, pow(c / d->s[i], a) - d->f[i]);
	}
	return (GSL_SUCCESS);
}

/* Jacobian of the above: zero where the cache holds the working set. */
static int
fit_capacity_df(const gsl_vector *p, void *arg, gsl_matrix *jac)
{
	const struct fit_capacity_data	*d = arg;
	double				 c = gsl_vector_get(p, 0), a = 1, v;
	size_t				 i;

	if (p->size > 1)
		a = gsl_vector_get(p, 1);
	for (i = 0; i < d->n; i++) {
		if (c >= d->s[i]) {
			gsl_matrix_set(jac, i, 0, 0);
			if (p->size > 1)
				gsl_matrix_set(jac, i, 1, 0);
			continue;
		}
		if (p->size == 1 || c <= 0) {
			gsl_matrix_set(jac, i, 0, 1 / d->s[i]);
			if (p->size > 1)
				gsl_matrix_set(jac, i, 1, 0);
			continue;
		}
		v = pow(c / d->s[i], a);
		gsl_matrix_set(jac, i, 0, a * v / c);
		gsl_matrix_set(jac, i, 1, v * log(c / d->s[i]));
	}
	return (GSL_SUCCESS);
}

/* Weighted chi2 of min(1, c / s) against f. */
static double
fit_capacity_chi2(const double *s, const double *f, const double *var,
    size_t n, double c)
{
	double	chi2 = 0, r;
	size_t	i;

	for (i = 0; i < n; i++) {
		r = fmin(1, c / s[i]) - f[i];
		chi2 += r * r / var[i];
	}
	return (chi2);
}

/* Weighted chi2 of min(1, (c / s)^alpha) against f. */
static double
fit_capacity_chi2_alpha(const double *s, const double *f, const double *var,
    size_t n, double c, double alpha)
{
	double	chi2 = 0, r;
	size_t	i;

	for (i = 0; i < n; i++) {
		r = (c >= s[i] ? 1 : pow(fmax(c, 0) / s[i], alpha)) - f[i];
		chi2 += r * r / var[i];
	}
	return (chi2);
}

/*
 * Run gsl_multifit_nlinear on the model with x0 as start (1 or 2
 * parameters); the result in x0, the covariance in cov (may be NULL).
 */
static int
fit_capacity_solve(const double *s, const double *f, const double *var,
    size_t n, gsl_vector *x0, gsl_matrix *cov)
{
	gsl_multifit_nlinear_parameters	 params;
	gsl_multifit_nlinear_workspace	*ws;
	gsl_multifit_nlinear_fdf	 fdf;
	struct fit_capacity_data	 d = { s, f, n };
	gsl_vector			*wts;
	size_t				 i;
	int				 info, status, rc = -1;

	wts = gsl_vector_alloc(n);
	if (wts == NULL)
		return (-1);
	for (i = 0; i < n; i++)
		gsl_vector_set(wts, i, 1 / var[i]);
	memset(&fdf, 0, sizeof fdf);
	fdf.f = fit_capacity_f;
	fdf.df = fit_capacity_df;
	fdf.n = n;
	fdf.p = x0->size;
	fdf.params = &d;
	params = gsl_multifit_nlinear_default_parameters();
	ws = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params,
	    n, x0->size);
	if (ws == NULL)
		goto out;
	if (gsl_multifit_nlinear_winit(x0, wts, &fdf, ws) != GSL_SUCCESS)
		goto out;
	status = gsl_multifit_nlinear_driver(200, 1e-10, 1e-12, 1e-12, NULL,
	    NULL, &info, ws);
	if (status != GSL_SUCCESS && status != GSL_EMAXITER)
		goto out;
	gsl_vector_memcpy(x0, ws->x);
	if (cov != NULL &&
	    gsl_multifit_nlinear_covar(ws->J, 0.0, cov) != GSL_SUCCESS)
		goto out;
	rc = 0;
out:
	if (ws != NULL)
		gsl_multifit_nlinear_free(ws);
	gsl_vector_free(wts);
	return (rc);
}

/*
 * Walk from the minimum c0 by factor step until chi2 rises by delta, then
 * bisect; returns the crossing, or stop if chi2 never rises that much.
 */
static double
fit_capacity_profile(const double *s, const double *f, const double *var,
    size_t n, double c0, double target, double step, double stop)
{
	double	a = c0, b = c0, m;
	int	i;

	for (;;) {
		b = a * step;
		if ((step < 1 && b <= stop) || (step > 1 && b >= stop))
			return (stop);
		if (fit_capacity_chi2(s, f, var, n, b) >= target)
			break;
		a = b;
	}
	for (i = 0; i < 60; i++) {
		m = (a + b) / 2;
		if (fit_capacity_chi2(s, f, var, n, m) >= target)
			b = m;
		else
			a = m;
	}
	return ((a + b) / 2);
}

/* Fit min(1, c / s) to hit fractions by weighted least squares. */
int
fit_capacity(const double *s, const double *f, const double *var, size_t n,
    struct fit_capacity *out)
{
	gsl_vector	*p1 = NULL, *p2 = NULL;
	gsl_matrix	*cov = NULL;
	double		 best, chi2, smax = 0, sw = 0, swf = 0, fbar, t, scale;
	double		 c, se;
	size_t		 i;
	int		 rc = -1;

	memset(out, 0, sizeof *out);
	out->alpha = out->alpha_se = NAN;
	if (n < 2)
		return (-1);
	for (i = 0; i < n; i++) {
		if (!(var[i] > 0) || !(s[i] > 0))
			return (-1);
		smax = fmax(smax, s[i]);
		sw += 1 / var[i];
		swf += f[i] / var[i];
	}

	/* Start from the best of the per-point estimates f s. */
	best = INFINITY;
	for (i = 0; i < n; i++) {
		c = f[i] * s[i];
		if (c > 0 && c < smax &&
		    (chi2 = fit_capacity_chi2(s, f, var, n, c)) < best) {
			best = chi2;
			out->c = c;
		}
	}
	if (!isfinite(best))
		return (-1);
	p1 = gsl_vector_alloc(1);
	p2 = gsl_vector_alloc(2);
	cov = gsl_matrix_alloc(2, 2);
	if (p1 == NULL || p2 == NULL || cov == NULL)
		goto out;
	gsl_vector_set(p1, 0, out->c);
	if (fit_capacity_solve(s, f, var, n, p1, NULL) == 0 &&
	    fit_capacity_chi2(s, f, var, n, gsl_vector_get(p1, 0)) < best)
		out->c = gsl_vector_get(p1, 0);
	for (i = 0; i < n; i++)
		if (s[i] > out->c)
			out->informative++;
	if (out->informative == 0 || !(out->c > 0))
		goto out;

	out->chi2 = fit_capacity_chi2(s, f, var, n, out->c);
	out->dof = n - 1;
	fbar = swf / sw;
	for (i = 0; i < n; i++)
		out->chi2_const += (f[i] - fbar) * (f[i] - fbar) / var[i];
	scale = fmax(1, out->chi2 / out->dof);
	t = fit_t_quantile(0.975, out->dof);
	out->low = fit_capacity_profile(s, f, var, n, out->c,
	    out->chi2 + t * t * scale, 0.98, out->c * 1e-3);
	if (out->low <= out->c * 1e-3)
		out->low = 0;
	out->high = fit_capacity_profile(s, f, var, n, out->c,
	    out->chi2 + t * t * scale, 1.02, 2 * smax);
	if (out->high >= 2 * smax)
		out->high = INFINITY;

	/* The law itself: is the exponent 1? */
	gsl_vector_set(p2, 0, out->c);
	gsl_vector_set(p2, 1, 1);
	if (n >= 3 && fit_capacity_solve(s, f, var, n, p2, cov) == 0) {
		out->alpha = gsl_vector_get(p2, 1);
		chi2 = fit_capacity_chi2_alpha(s, f, var, n,
		    gsl_vector_get(p2, 0), out->alpha);
		se = sqrt(gsl_matrix_get(cov, 1, 1) * fmax(1, chi2 / (n - 2)));
		if (isfinite(se))
			out->alpha_se = se;
		else
			out->alpha = NAN;
	}
	rc = 0;
out:
	gsl_matrix_free(cov);
	gsl_vector_free(p2);
	gsl_vector_free(p1);
	return (rc);
}

/* Quantile p of Student's t with dof degrees of freedom. */
double
fit_t_quantile(double p, double dof)
{
	return (gsl_cdf_tdist_Pinv(p, dof));
}

/* Quantile p of the standard normal. */
double
fit_normal_quantile(double p)
{
	return (gsl_cdf_ugaussian_Pinv(p));
}

/* Standard normal cumulative distribution at z. */
double
fit_normal_cdf(double z)
{
	return (gsl_cdf_ugaussian_P(z));
}

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

/* Turn GSL's abort-on-error handler off: every status is checked instead. */
void
fit_init(void)
{
	gsl_set_error_handler_off();
}

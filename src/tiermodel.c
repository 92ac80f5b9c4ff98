/* SPDX-License-Identifier: ISC */
/*
 * Cache tiers from one model.  Pure: points in, a result out.
 *
 * The cache law.  Under uniform random reads over a working set S, the
 * caches in front of the store, C_k bytes between the k fastest of them,
 * serve min(1, C_k / S) of the reads, whatever speeds their hits come at.
 * So at a point of working set S, tier k serves
 *	pi_k(S) = min(1, C_k / S) - min(1, C_{k-1} / S)
 * of the reads and the store 1 - min(1, C_K / S).
 *
 * The model.  Every point's reads are binned TIERMODEL_BIN wide in ln
 * latency.  Each place (tier or store) has one latency shape f_k over the
 * bins, shared by all points and free in form (hits at two speeds, a
 * disk's stalls: whatever the reads show), smoothed by a Gaussian kernel
 * TIERMODEL_SMOOTH wide.  A point's reads are multinomial over the bins
 * with probabilities
 *	q_b = (1 - e_p) sum_k pi_k(S_p) f_k(b) + e_p / nbins,
 * e_p the point's own contamination (reads that no place explains there:
 * another process's interference), at least TIERMODEL_EPS_MIN.  And a
 * place's latency may move from point to point (a disk under other
 * readers, a page-cache hit slower once the working set outgrows the
 * CPU's caches): each point shifts each place's shape by its own offset,
 * up to TIERMODEL_SHIFT bins either way, fitted like its contamination.
 * Places whose p50s are less than TIERMODEL_APART apart are one place
 * that moved: a model with two such is not in the running.  A slower
 * place's shape rises, up to the faster place's p99, to its mode
 * (tm_rise): it holds no bump of the faster place's hits.
 *
 * The fit.  With the capacities held, the log-likelihood is concave in
 * the shapes (their mixture enters the logarithm linearly, with weights
 * the law fixes), so EM over the shapes (smoothed at each step: EMS)
 * climbs to the one best set of shapes for those capacities.  The
 * capacities (ln bytes) are searched around it: one at a time, a grid
 * and a golden section over its range between its neighbours, shapes
 * held, then EM again, until the likelihood stops moving.  A model of k
 * + 1 tiers starts from the best of k with one capacity added at each
 * of TIERMODEL_GRID sizes; the few best starts (distinct places first)
 * are fitted in full.
 *
 * The count.  One criterion: the log-likelihood of whole points held out
 * (each point in turn is left out, the model refitted on the others from
 * the full fit, and the point scored with its shares from the law: only
 * its contamination and shifts are its own).  k + 1 tiers replace k when
 * their gain summed over the points is positive and the points' gains
 * rank positive with z >= TIERMODEL_Z_MORE (Wilcoxon's signed-rank test,
 * tm_compare); with z below TIERMODEL_Z_SAME, k stand; in between, the
 * count cannot be told and the result is not analysed (reason
 * TIERS_R_CANNOT_TELL, with the gain and z).  A tier found by one point
 * alone predicts nothing when that point is held out, so it does not pay:
 * the law must hold across points to count.
 *
 * Intervals.  A capacity's 95% interval is the wider of its profile
 * likelihood (shapes and the other capacities held, drop of 1.92) and
 * the jackknife of the held-out fits (+-1.96 sd), which counts the misfit
 * of real shapes the likelihood alone ignores.  The store's p50 has its
 * jackknife standard error of ln p50.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "point.h"
#include "tiermodel.h"
#include "tiers.h"
#include "xmalloc.h"

/* The bins of tiers.c's shapes (tiers_point_enough reads them so). */
#define TIERMODEL_BIN		0.02	/* ln units */
/* ln units: about the sd of a page cache's narrowest hit spike. */
#define TIERMODEL_SMOOTH	0.04
#define TIERMODEL_EPS_MIN	1e-5	/* a point's least contamination */
#define TIERMODEL_EPS_MAX	0.5	/* past this, the point is noise */
/* ln units: capacities closer than 10% share a tier of at most 9% of any
   point's reads, which no scan here can resolve */
#define TIERMODEL_SEP		0.0953
/* Capacities searched from the smallest ws / 16 (a cache below every
   point still shows in its share, C / S, down to some 6%) to the largest
   ws (beyond it a tier would serve every read of every point). */
#define TIERMODEL_BELOW		16.0
#define TIERMODEL_GRID		20	/* starts for a capacity added */
#define TIERMODEL_STARTS	4	/* of those, fitted in full */
#define TIERMODEL_EM_QUICK	20	/* EM rounds to rank a start */
#define TIERMODEL_EM_ROUND	15	/* EM rounds between capacity steps */
#define TIERMODEL_ROUNDS	8	/* capacity steps at most */
#define TIERMODEL_ROUNDS_LOO	3	/* the same, from the full fit */
#define TIERMODEL_EM_FINAL	60
#define TIERMODEL_TOL		1e-3	/* nats: the likelihood stopped */
#define TIERMODEL_CAP_GRID	12	/* sizes per capacity step */
#define TIERMODEL_GOLDEN	12	/* golden-section steps after */
#define TIERMODEL_Z_MORE	2.0	/* one-sided ~98%: more tiers */
#define TIERMODEL_Z_SAME	1.0	/* below: fewer stand */
/* nats: a point scored within this by two models favours neither */
#define TIERMODEL_SAME_NATS	1.0
#define TIERMODEL_PROFILE	1.92	/* chi2(1) 95% / 2 */
#define TIERMODEL_MIN_POINTS	3
/* bins (0.02 ln): a place's latency may move between points by up to
   1.5x (ln 1.5 / 0.02 ~ 20): a disk under other load, a page-cache hit
   slowed by a larger working set; distinct places differ by more */
#define TIERMODEL_SHIFT		20
/* Places this far apart in p50 at least: closer, one place whose latency
   moved by the shift above, as a page-cache hit does from ~0.8 us within
   the CPU's caches to ~1.25 us past them (tests/cgroup-hierarchy.sh, 1.56x
   apart, taken for a tier of 12 MiB at 1.5) */
#define TIERMODEL_APART		2.0

struct tm_data {
	size_t		 np, nb;
	long		 bin0;		/* ln(ns) / TIERMODEL_BIN of bin 0 */
	double		*ws;		/* [np], ascending */
	double		*n;		/* [np] reads */
	size_t		*off;		/* [np + 1]: a point's nonzero bins */
	size_t		*bin;
	double		*cnt;
	unsigned char	*use;		/* [np] in the fit */
	double		 lo, hi;	/* ln bytes: capacity range */
	double		*kern;		/* smoothing kernel, 2 * kh + 1 */
	size_t		 kh;
};

struct tm_model {
	size_t	 k;			/* caches */
	double	 lcap[TIERS_MAX];	/* ln bytes, ascending */
	double	*f;			/* [(k + 1) * nb] */
	double	*eps;			/* [np] */
	int	*sh;			/* [np * (k + 1)]: a point's shift of
					   each place's shape, bins */
	double	 ll;
};

/* Place j's shape at bin b of point p, shifted as the point has it. */
static double
tm_f(const struct tm_data *d, const struct tm_model *m, size_t p, size_t j,
    size_t b)
{
	long	at = (long)b - m->sh[p * (m->k + 1) + j];

	return (at >= 0 && at < (long)d->nb ? m->f[j * d->nb + at] : 0);
}

static void
tm_model_init(struct tm_model *m, const struct tm_data *d, size_t k)
{
	size_t	p;

	memset(m, 0, sizeof *m);
	m->k = k;
	m->f = xcalloc((k + 1) * d->nb, sizeof *m->f);
	m->eps = xcalloc(d->np, sizeof *m->eps);
	m->sh = xcalloc(d->np * (k + 1), sizeof *m->sh);
	for (p = 0; p < d->np; p++)
		m->eps[p] = 1e-3;
	m->ll = -INFINITY;
}

static void
tm_model_free(struct tm_model *m)
{
	free(m->f);
	free(m->eps);
	free(m->sh);
	m->f = m->eps = NULL;
	m->sh = NULL;
}

static void
tm_model_copy(struct tm_model *to, const struct tm_model *from,
    const struct tm_data *d)
{
	tm_model_free(to);
	tm_model_init(to, d, from->k);
	memcpy(to->lcap, from->lcap, sizeof to->lcap);
	memcpy(to->f, from->f, (from->k + 1) * d->nb * sizeof *to->f);
	memcpy(to->eps, from->eps, d->np * sizeof *to->eps);
	memcpy(to->sh, from->sh, d->np * (from->k + 1) * sizeof *to->sh);
	to->ll = from->ll;
}

/* The law: each place's share of the reads at ws (k + 1 entries). */
static void
tm_shares(const struct tm_model *m, double ws, double *pi)
{
	double	prev = 0, hit;
	size_t	i;

	for (i = 0; i < m->k; i++) {
		hit = fmin(1, exp(m->lcap[i]) / ws);
		pi[i] = hit - prev;
		prev = hit;
	}
	pi[m->k] = 1 - prev;
}

/* Log-likelihood of point p under m. */
static double
tm_point_ll(const struct tm_data *d, const struct tm_model *m, size_t p)
{
	double	pi[TIERS_MAX + 1], q, ll = 0, u = 1.0 / d->nb, e;
	size_t	i, j, b;

	tm_shares(m, d->ws[p], pi);
	e = m->eps[p];
	for (j = 0; j <= m->k; j++)
		pi[j] *= 1 - e;
	for (i = d->off[p]; i < d->off[p + 1]; i++) {
		b = d->bin[i];
		q = e * u;
		for (j = 0; j <= m->k; j++)
			q += pi[j] * tm_f(d, m, p, j, b);
		ll += d->cnt[i] * log(q);
	}
	return (ll);
}

static double
tm_ll(const struct tm_data *d, const struct tm_model *m)
{
	double	ll = 0;
	size_t	p;

	for (p = 0; p < d->np; p++)
		if (d->use[p])
			ll += tm_point_ll(d, m, p);
	return (ll);
}

/* Smooth acc into f (normalised); a place with no reads keeps uniform. */
static void
tm_smooth(const struct tm_data *d, const double *acc, double *f)
{
	double	sum = 0, v;
	size_t	b, j, lo, hi;

	for (b = 0; b < d->nb; b++) {
		lo = b >= d->kh ? b - d->kh : 0;
		hi = b + d->kh < d->nb ? b + d->kh : d->nb - 1;
		for (v = 0, j = lo; j <= hi; j++)
			v += acc[j] * d->kern[j + d->kh - b];
		f[b] = v;
		sum += v;
	}
	for (b = 0; b < d->nb; b++)
		f[b] = sum > 0 ? f[b] / sum : 1.0 / d->nb;
}

/*
 * A slower place's shape f rises up to its mode, or up to the faster
 * place's p99 (f0) if that comes first: below, no bin above the next.
 * A free shape for a slower place can hold a bump of the faster place's
 * hits (a page cache's hits slower at a large working set than the
 * shifts allow: 1.6 us at 32 MiB, 2.9 us at 256), and the bump's weight
 * scales with the slower place's share (1 - C / S for the store), so a
 * smaller C paid for it: 58.0 MiB for ~62 on
 * tests/data/tiers-real-paged-a.txt, whose store's shape held 12% of its
 * mass under 10 us.  A place's fastest reads form a rising tail where the
 * faster place's hits are; above the faster place's p99, the shape stays
 * free (a cache whose hits come at two speeds, 11 and 58 us, behind one
 * at 1.6 us).
 */
static void
tm_rise(const struct tm_data *d, const double *f0, double *f)
{
	double	sum = 0, c = 0;
	size_t	b, mode = 0, top;

	for (b = 1; b < d->nb; b++)
		if (f[b] > f[mode])
			mode = b;
	for (top = 0; top + 1 < d->nb && (c += f0[top]) < 0.99; top++)
		;
	if (mode > top)
		mode = top;
	for (b = mode; b-- > 0; )
		if (f[b] > f[b + 1])
			f[b] = f[b + 1];
	for (b = 0; b < d->nb; b++)
		sum += f[b];
	for (b = 0; b < d->nb; b++)
		f[b] = sum > 0 ? f[b] / sum : 1.0 / d->nb;
}

/*
 * EM over the shapes and contaminations, capacities held: iter rounds.
 * Returns the log-likelihood before the last round.
 */
static double
tm_em(const struct tm_data *d, struct tm_model *m, int iter)
{
	double	pi[TIERS_MAX + 1], t[TIERS_MAX + 1], *acc, q, ll = 0, ea;
	double	u = 1.0 / d->nb, e;
	size_t	i, j, b, p, nk = m->k + 1;
	long	at;
	int	it;

	acc = xcalloc(nk * d->nb, sizeof *acc);
	for (it = 0; it < iter; it++) {
		memset(acc, 0, nk * d->nb * sizeof *acc);
		ll = 0;
		for (p = 0; p < d->np; p++) {
			if (!d->use[p])
				continue;
			tm_shares(m, d->ws[p], pi);
			e = m->eps[p];
			for (j = 0; j < nk; j++)
				pi[j] *= 1 - e;
			ea = 0;
			for (i = d->off[p]; i < d->off[p + 1]; i++) {
				b = d->bin[i];
				q = e * u;
				for (j = 0; j < nk; j++)
					q += t[j] = pi[j] * tm_f(d, m, p, j,
					    b);
				ll += d->cnt[i] * log(q);
				for (j = 0; j < nk; j++) {
					at = (long)b - m->sh[p * nk + j];
					if (at >= 0 && at < (long)d->nb)
						acc[j * d->nb + at] +=
						    d->cnt[i] * t[j] / q;
				}
				ea += d->cnt[i] * e * u / q;
			}
			m->eps[p] = fmin(TIERMODEL_EPS_MAX, fmax(
			    TIERMODEL_EPS_MIN, ea / d->n[p]));
		}
		for (j = 0; j < nk; j++)
			tm_smooth(d, acc + j * d->nb, m->f + j * d->nb);
		for (j = 1; j < nk; j++)
			tm_rise(d, m->f + (j - 1) * d->nb, m->f + j * d->nb);
	}
	free(acc);
	m->ll = tm_ll(d, m);
	(void)ll;
	return (m->ll);
}

/* Shapes from the law alone: each point's reads spread by its shares. */
static void
tm_init_shapes(const struct tm_data *d, struct tm_model *m)
{
	double	pi[TIERS_MAX + 1], *acc;
	size_t	i, j, p, nk = m->k + 1;

	acc = xcalloc(nk * d->nb, sizeof *acc);
	for (p = 0; p < d->np; p++) {
		if (!d->use[p])
			continue;
		tm_shares(m, d->ws[p], pi);
		for (i = d->off[p]; i < d->off[p + 1]; i++)
			for (j = 0; j < nk; j++)
				acc[j * d->nb + d->bin[i]] += pi[j] *
				    d->cnt[i] / d->n[p];
	}
	for (j = 0; j < nk; j++)
		tm_smooth(d, acc + j * d->nb, m->f + j * d->nb);
	for (p = 0; p < d->np; p++)
		m->eps[p] = 1e-3;
	free(acc);
}

/* The range capacity i may take between its neighbours. */
static void
tm_cap_range(const struct tm_data *d, const struct tm_model *m, size_t i,
    double *lo, double *hi)
{
	*lo = i > 0 ? m->lcap[i - 1] + TIERMODEL_SEP : d->lo;
	*hi = i + 1 < m->k ? m->lcap[i + 1] - TIERMODEL_SEP : d->hi;
}

static double
tm_ll_at(const struct tm_data *d, struct tm_model *m, size_t i, double x)
{
	m->lcap[i] = x;
	return (tm_ll(d, m));
}

/* One pass over the capacities, shapes held: each to its best. */
static void
tm_cap_step(const struct tm_data *d, struct tm_model *m)
{
	const double	g = 0.6180339887498949;
	double		lo, hi, best, bx, x, v, a, b, x1, x2, v1, v2;
	size_t		i, s;
	int		it;

	for (i = 0; i < m->k; i++) {
		tm_cap_range(d, m, i, &lo, &hi);
		if (!(hi > lo))
			continue;
		bx = m->lcap[i];
		best = tm_ll_at(d, m, i, bx);
		for (s = 0; s < TIERMODEL_CAP_GRID; s++) {
			x = lo + (hi - lo) * (s + 0.5) / TIERMODEL_CAP_GRID;
			if ((v = tm_ll_at(d, m, i, x)) > best) {
				best = v;
				bx = x;
			}
		}
		a = fmax(lo, bx - (hi - lo) / TIERMODEL_CAP_GRID);
		b = fmin(hi, bx + (hi - lo) / TIERMODEL_CAP_GRID);
		x1 = b - g * (b - a);
		x2 = a + g * (b - a);
		v1 = tm_ll_at(d, m, i, x1);
		v2 = tm_ll_at(d, m, i, x2);
		for (it = 0; it < TIERMODEL_GOLDEN; it++) {
			if (v1 > v2) {
				b = x2;
				x2 = x1;
				v2 = v1;
				x1 = b - g * (b - a);
				v1 = tm_ll_at(d, m, i, x1);
			} else {
				a = x1;
				x1 = x2;
				v1 = v2;
				x2 = a + g * (b - a);
				v2 = tm_ll_at(d, m, i, x2);
			}
		}
		if (v1 > best) {
			best = v1;
			bx = x1;
		}
		if (v2 > best) {
			best = v2;
			bx = x2;
		}
		m->lcap[i] = bx;
		m->ll = best;
	}
}

/*
 * Point p's shifts, the rest held: each place's in turn to its best
 * within +-TIERMODEL_SHIFT bins (a place with no share there keeps 0).
 */
static void
tm_shift_point(const struct tm_data *d, struct tm_model *m, size_t p)
{
	double	pi[TIERS_MAX + 1], best, v;
	size_t	j, nk = m->k + 1;
	int	s, bs;

	tm_shares(m, d->ws[p], pi);
	for (j = 0; j < nk; j++) {
		if (pi[j] <= 0) {
			m->sh[p * nk + j] = 0;
			continue;
		}
		bs = m->sh[p * nk + j];
		best = tm_point_ll(d, m, p);
		for (s = -TIERMODEL_SHIFT; s <= TIERMODEL_SHIFT; s++) {
			m->sh[p * nk + j] = s;
			if ((v = tm_point_ll(d, m, p)) > best + 1e-9) {
				best = v;
				bs = s;
			}
		}
		m->sh[p * nk + j] = bs;
	}
}

static void
tm_shift(const struct tm_data *d, struct tm_model *m)
{
	size_t	p;

	if (TIERMODEL_SHIFT == 0)
		return;
	for (p = 0; p < d->np; p++)
		if (d->use[p])
			tm_shift_point(d, m, p);
}

/* Alternate EM and capacity steps until the likelihood stops moving. */
static void
tm_fit(const struct tm_data *d, struct tm_model *m, int rounds)
{
	double	prev = -INFINITY;
	int	r;

	tm_em(d, m, TIERMODEL_EM_ROUND);
	for (r = 0; r < rounds; r++) {
		tm_shift(d, m);
		if (m->k > 0)
			tm_cap_step(d, m);
		tm_em(d, m, TIERMODEL_EM_ROUND);
		if (m->ll - prev < TIERMODEL_TOL)
			break;
		prev = m->ll;
	}
}

static int	tm_distinct(const struct tm_data *, const struct tm_model *);

/*
 * The best model of k + 1 caches grown from from (k caches): a capacity
 * added at each of TIERMODEL_GRID sizes, each start ranked after a few EM
 * rounds (distinct places first, tm_distinct, then likelihood); the
 * TIERMODEL_STARTS first fitted in full, and the likeliest of those whose
 * places are distinct kept, else the likeliest.
 */
static void
tm_grow(const struct tm_data *d, const struct tm_model *from,
    struct tm_model *to)
{
	struct tm_model	 start[TIERMODEL_GRID], tmp;
	int		 dist[TIERMODEL_GRID], t, best_dist = 0, near;
	double		 x;
	size_t		 s, i, j, k = from->k + 1, nstart = 0;

	for (s = 0; s < TIERMODEL_GRID; s++) {
		x = d->lo + (d->hi - d->lo) * (s + 0.5) / TIERMODEL_GRID;
		for (near = 0, i = 0; i < from->k; i++)
			near |= fabs(from->lcap[i] - x) < TIERMODEL_SEP;
		if (near)
			continue;
		tm_model_init(&start[nstart], d, k);
		for (i = j = 0; i < from->k && from->lcap[i] < x; i++)
			start[nstart].lcap[j++] = from->lcap[i];
		start[nstart].lcap[j++] = x;
		for (; i < from->k; i++)
			start[nstart].lcap[j++] = from->lcap[i];
		tm_init_shapes(d, &start[nstart]);
		tm_em(d, &start[nstart], TIERMODEL_EM_QUICK);
		dist[nstart] = tm_distinct(d, &start[nstart]);
		nstart++;
	}
	/* rank: distinct first, then likelihood (insertion sort) */
	for (i = 1; i < nstart; i++) {
		for (j = i; j > 0 && (dist[j] > dist[j - 1] || (dist[j] ==
		    dist[j - 1] && start[j].ll > start[j - 1].ll)); j--) {
			tmp = start[j];
			start[j] = start[j - 1];
			start[j - 1] = tmp;
			t = dist[j];
			dist[j] = dist[j - 1];
			dist[j - 1] = t;
		}
	}
	to->ll = -INFINITY;
	for (s = 0; s < nstart && s < TIERMODEL_STARTS; s++) {
		tm_fit(d, &start[s], TIERMODEL_ROUNDS);
		t = tm_distinct(d, &start[s]);
		if (s == 0 || (t && !best_dist) || (t == best_dist &&
		    start[s].ll > to->ll)) {
			tm_model_copy(to, &start[s], d);
			best_dist = t;
		}
	}
	for (s = 0; s < nstart; s++)
		tm_model_free(&start[s]);
}

/* A point's contamination alone, the rest of m held: its held-out score. */
static double
tm_held_out(const struct tm_data *d, struct tm_model *m, size_t p)
{
	double	pi[TIERS_MAX + 1], base, q, ea, u = 1.0 / d->nb, e;
	size_t	i, j;
	int	it;

	memset(m->sh + p * (m->k + 1), 0, (m->k + 1) * sizeof *m->sh);
	if (TIERMODEL_SHIFT > 0)
		tm_shift_point(d, m, p);
	tm_shares(m, d->ws[p], pi);
	m->eps[p] = 1e-3;
	for (it = 0; it < 30; it++) {
		e = m->eps[p];
		ea = 0;
		for (i = d->off[p]; i < d->off[p + 1]; i++) {
			for (base = 0, j = 0; j <= m->k; j++)
				base += pi[j] * tm_f(d, m, p, j, d->bin[i]);
			q = (1 - e) * base + e * u;
			ea += d->cnt[i] * e * u / q;
		}
		m->eps[p] = fmin(TIERMODEL_EPS_MAX, fmax(TIERMODEL_EPS_MIN,
		    ea / d->n[p]));
	}
	return (tm_point_ll(d, m, p));
}

/* Quantile q of shape f (bin midpoints interpolated), in us. */
static double
tm_quantile(const struct tm_data *d, const double *f, double q)
{
	double	c = 0, x;
	size_t	b;

	for (b = 0; b < d->nb; b++) {
		if (c + f[b] >= q && f[b] > 0) {
			x = (d->bin0 + b + (q - c) / f[b]) * TIERMODEL_BIN;
			return (exp(x) / 1000);
		}
		c += f[b];
	}
	return (exp((d->bin0 + d->nb) * TIERMODEL_BIN) / 1000);
}

/*
 * Whether m's places are places: each median TIERMODEL_APART from its
 * neighbours'.  Closer, they are one place whose latency moved between
 * points, which the shifts already allow.
 */
static int
tm_distinct(const struct tm_data *d, const struct tm_model *m)
{
	size_t	j;

	for (j = 0; j < m->k; j++)
		if (tm_quantile(d, m->f + (j + 1) * d->nb, 0.5) <
		    TIERMODEL_APART * tm_quantile(d, m->f + j * d->nb, 0.5))
			return (0);
	return (1);
}

/* Held-out fits of one count: per point scores, capacities, store p50. */
struct tm_loo {
	double	*ll;			/* [np] */
	double	*lcap;			/* [np * TIERS_MAX] */
	double	*lp50;			/* [np] ln us of the store's p50 */
};

static void
tm_loo(const struct tm_data *d, const struct tm_model *full,
    struct tm_loo *lo)
{
	struct tm_model	m;
	size_t		p, i;

	lo->ll = xcalloc(d->np, sizeof *lo->ll);
	lo->lcap = xcalloc(d->np * TIERS_MAX, sizeof *lo->lcap);
	lo->lp50 = xcalloc(d->np, sizeof *lo->lp50);
	memset(&m, 0, sizeof m);
	for (p = 0; p < d->np; p++) {
		tm_model_copy(&m, full, d);
		d->use[p] = 0;
		tm_fit(d, &m, TIERMODEL_ROUNDS_LOO);
		d->use[p] = 1;
		lo->ll[p] = tm_held_out(d, &m, p);
		for (i = 0; i < m.k; i++)
			lo->lcap[p * TIERS_MAX + i] = m.lcap[i];
		lo->lp50[p] = log(tm_quantile(d, m.f + m.k * d->nb, 0.5));
	}
	tm_model_free(&m);
}

static void
tm_loo_free(struct tm_loo *lo)
{
	free(lo->ll);
	free(lo->lcap);
	free(lo->lp50);
}

/*
 * Gain of b over a on held-out points: its sum, and z, Wilcoxon's
 * signed-rank statistic of the points' gains, standardised (normal
 * approximation): whole points are the units, and one point's gain, a
 * thousand nats where a point held thousands of reads its shapes did not
 * quite fit, weighs as its rank, not as its size.  Points scored alike by
 * both (within TIERMODEL_SAME_NATS: below every capacity either has, both
 * predict the same hits) tell the two apart in no way and are left out.
 */
static int
tm_cmp_abs(const void *a, const void *b)
{
	double	x = fabs(*(const double *)a), y = fabs(*(const double *)b);

	return ((x > y) - (x < y));
}

static void
tm_compare(const struct tm_data *d, const struct tm_loo *a,
    const struct tm_loo *b, double *gain, double *z)
{
	double	*g, s = 0, x, wplus = 0, mean, var, rank;
	size_t	p, n = 0, i, j;

	g = xcalloc(d->np, sizeof *g);
	for (p = 0; p < d->np; p++) {
		x = b->ll[p] - a->ll[p];
		s += x;
		if (fabs(x) >= TIERMODEL_SAME_NATS)
			g[n++] = x;
	}
	*gain = s;
	qsort(g, n, sizeof *g, tm_cmp_abs);
	for (i = 0; i < n; i = j) {
		/* ties share their mean rank */
		for (j = i + 1; j < n && fabs(g[j]) == fabs(g[i]); j++)
			;
		rank = (i + 1 + j) / 2.0;
		for (; i < j; i++)
			if (g[i] > 0)
				wplus += rank;
	}
	mean = n * (n + 1) / 4.0;
	var = n * (n + 1) * (2 * n + 1) / 24.0;
	*z = var > 0 ? (wplus - mean) / sqrt(var) : 0;
	free(g);
}

/* Jackknife sd of n values. */
static double
tm_jackknife_sd(const double *v, size_t stride, size_t n)
{
	double	mean = 0, s2 = 0;
	size_t	i;

	for (i = 0; i < n; i++)
		mean += v[i * stride];
	mean /= n;
	for (i = 0; i < n; i++)
		s2 += (v[i * stride] - mean) * (v[i * stride] - mean);
	return (sqrt(s2 * (n - 1) / n));
}

/* Profile interval of capacity i: where ll drops by TIERMODEL_PROFILE. */
static void
tm_profile(const struct tm_data *d, struct tm_model *m, size_t i,
    double *lo, double *hi)
{
	double	x0 = m->lcap[i], best = tm_ll(d, m), rlo, rhi, a, b, mid;
	int	side, it;

	tm_cap_range(d, m, i, &rlo, &rhi);
	for (side = 0; side < 2; side++) {
		a = x0;
		b = side ? rhi : rlo;
		if (tm_ll_at(d, m, i, b) > best - TIERMODEL_PROFILE) {
			a = b;
		} else {
			for (it = 0; it < 30; it++) {
				mid = (a + b) / 2;
				if (tm_ll_at(d, m, i, mid) >
				    best - TIERMODEL_PROFILE)
					a = mid;
				else
					b = mid;
			}
		}
		if (side)
			*hi = a;
		else
			*lo = a;
	}
	m->lcap[i] = x0;
	m->ll = best;
}

static int
tm_cmp_ws(const void *a, const void *b)
{
	const struct point *const *pa = a, *const *pb = b;

	if ((*pa)->ws_bytes != (*pb)->ws_bytes)
		return ((*pa)->ws_bytes < (*pb)->ws_bytes ? -1 : 1);
	return ((*pa > *pb) - (*pa < *pb));
}

static long
tm_bucket_bin(size_t b)
{
	return ((long)(log(fmax(hist_bucket_value(b), 1)) / TIERMODEL_BIN));
}

/* Bin the points with reads; 0, or -1 with too few. */
static int
tm_data_load(const struct point *pts, size_t n, struct tm_data *d,
    const struct point ***sorted)
{
	const struct point	**sp;
	long			  lo = 0, hi = 0, at;
	size_t			  i, p, b, nz = 0, j;
	double			  sd;

	memset(d, 0, sizeof *d);
	sp = xcalloc(n + 1, sizeof *sp);
	for (i = 0; i < n; i++)
		if (pts[i].hist != NULL && pts[i].hist->count > 0)
			sp[d->np++] = &pts[i];
	*sorted = sp;
	if (d->np < TIERMODEL_MIN_POINTS)
		return (-1);
	qsort(sp, d->np, sizeof *sp, tm_cmp_ws);
	for (p = 0; p < d->np; p++) {
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (sp[p]->hist->bucket[b] == 0)
				continue;
			at = tm_bucket_bin(b);
			if (nz == 0 || at < lo)
				lo = at;
			if (nz == 0 || at > hi)
				hi = at;
			nz++;
		}
	}
	d->bin0 = lo;
	d->nb = (size_t)(hi - lo) + 1;
	d->ws = xcalloc(d->np, sizeof *d->ws);
	d->n = xcalloc(d->np, sizeof *d->n);
	d->off = xcalloc(d->np + 1, sizeof *d->off);
	d->bin = xcalloc(nz, sizeof *d->bin);
	d->cnt = xcalloc(nz, sizeof *d->cnt);
	d->use = xcalloc(d->np, 1);
	for (j = 0, p = 0; p < d->np; p++) {
		d->ws[p] = (double)sp[p]->ws_bytes;
		d->off[p] = j;
		d->use[p] = 1;
		for (b = 0; b < HIST_BUCKETS; b++) {
			if (sp[p]->hist->bucket[b] == 0)
				continue;
			at = tm_bucket_bin(b) - lo;
			if (j > d->off[p] && d->bin[j - 1] == (size_t)at) {
				d->cnt[j - 1] += sp[p]->hist->bucket[b];
			} else {
				d->bin[j] = (size_t)at;
				d->cnt[j++] = sp[p]->hist->bucket[b];
			}
			d->n[p] += sp[p]->hist->bucket[b];
		}
	}
	d->off[d->np] = j;
	d->lo = log(d->ws[0] / TIERMODEL_BELOW);
	d->hi = log(d->ws[d->np - 1]);
	sd = TIERMODEL_SMOOTH / TIERMODEL_BIN;
	d->kh = (size_t)ceil(3 * sd);
	d->kern = xcalloc(2 * d->kh + 1, sizeof *d->kern);
	for (i = 0; i <= 2 * d->kh; i++)
		d->kern[i] = exp(-0.5 * pow(((double)i - d->kh) / sd, 2));
	return (0);
}

static void
tm_data_free(struct tm_data *d)
{
	free(d->ws);
	free(d->n);
	free(d->off);
	free(d->bin);
	free(d->cnt);
	free(d->use);
	free(d->kern);
}

/* Mean and sd of ln latency (ns) of shape f. */
static void
tm_moments(const struct tm_data *d, const double *f, double *mu,
    double *sigma)
{
	double	m = 0, s = 0, x;
	size_t	b;

	for (b = 0; b < d->nb; b++)
		m += f[b] * (d->bin0 + b + 0.5) * TIERMODEL_BIN;
	for (b = 0; b < d->nb; b++) {
		x = (d->bin0 + b + 0.5) * TIERMODEL_BIN - m;
		s += f[b] * x * x;
	}
	*mu = m;
	*sigma = sqrt(s);
}

/* Fill r from the chosen model m and its held-out fits lo. */
static void
tm_result(const struct tm_data *d, const struct point **sp,
    struct tm_model *m, const struct tm_loo *lo, struct tiers_result *r)
{
	double		 pi[TIERS_MAX + 1], t[TIERS_MAX + 1], q, u, e, sd;
	double		 plo = 0, phi = 0, jlo, jhi, *tot, all = 0, x;
	struct tier	*tr;
	size_t		 k = m->k, nk = k + 1, i, j, p, b;

	r->fitted = 1;
	r->ntiers = k;
	r->min_ws = (uint64_t)d->ws[0];
	r->max_ws = (uint64_t)d->ws[d->np - 1];
	r->unseen_from = d->np >= 2 ? (uint64_t)(0.95 * d->ws[d->np - 2]) :
	    0;
	for (i = 0; i < k; i++) {
		tr = &r->tier[i];
		tm_profile(d, m, i, &plo, &phi);
		sd = tm_jackknife_sd(lo->lcap + i, TIERS_MAX, d->np);
		jlo = m->lcap[i] - 1.96 * sd;
		jhi = m->lcap[i] + 1.96 * sd;
		plo = fmin(plo, jlo);
		phi = fmax(phi, jhi);
		tr->capacity_bytes = (uint64_t)exp(m->lcap[i]);
		tr->capacity_low_bytes = (uint64_t)exp(plo);
		tr->capacity_high_bytes = (uint64_t)exp(phi);
		if (phi >= d->hi) {
			tr->at_least = 1;
			tr->capacity_bytes = tr->capacity_low_bytes;
			tr->capacity_high_bytes = 0;
		}
		tr->lat_us_p50 = tm_quantile(d, m->f + i * d->nb, 0.5);
		tr->lat_us_p99 = tm_quantile(d, m->f + i * d->nb, 0.99);
		tr->capped_lat_us_p50 = tr->capped_lat_us_mean = NAN;
		tr->first_mode = i;
		tr->nmodes = 1;
		tr->fit_rchi2 = NAN;
		r->boundary[i].verdict = tr->at_least ? TIERS_AT_LEAST :
		    TIERS_TIER;
		r->boundary[i].capacity_bytes = exp(m->lcap[i]);
		r->boundary[i].low_bytes = exp(plo);
		r->boundary[i].high_bytes = exp(phi);
		r->boundary[i].rchi2 = r->boundary[i].alpha =
		    r->boundary[i].alpha_se = r->boundary[i].chi2 =
		    r->boundary[i].chi2_const = NAN;
		r->boundary[i].boot_se_bytes = sd * exp(m->lcap[i]);
	}
	r->backing_p50_us = tm_quantile(d, m->f + k * d->nb, 0.5);
	r->backing_p99_us = tm_quantile(d, m->f + k * d->nb, 0.99);
	r->backing_p50_se = tm_jackknife_sd(lo->lp50, 1, d->np);

	/* Places as modes; each point's reads by place (responsibilities). */
	r->nmodes = nk;
	r->npoints = d->np;
	r->point_ws = xcalloc(d->np, sizeof *r->point_ws);
	r->point_ios = xcalloc(d->np, sizeof *r->point_ios);
	r->point_mode_frac = xcalloc(d->np * nk, sizeof *r->point_mode_frac);
	r->point_tier_frac = xcalloc(d->np * nk, sizeof *r->point_tier_frac);
	r->point_mlog = xcalloc(d->np, sizeof *r->point_mlog);
	tot = xcalloc(nk, sizeof *tot);
	u = 1.0 / d->nb;
	for (p = 0; p < d->np; p++) {
		r->point_ws[p] = sp[p]->ws_bytes;
		r->point_ios[p] = sp[p]->hist->count;
		tm_shares(m, d->ws[p], pi);
		e = m->eps[p];
		x = 0;
		for (i = d->off[p]; i < d->off[p + 1]; i++) {
			b = d->bin[i];
			q = e * u;
			for (j = 0; j < nk; j++)
				q += t[j] = (1 - e) * pi[j] * tm_f(d, m, p, j,
				    b);
			for (j = 0; j < nk; j++)
				r->point_mode_frac[p * nk + j] += d->cnt[i] *
				    t[j] / q / d->n[p];
			x += d->cnt[i] * (d->bin0 + b + 0.5) * TIERMODEL_BIN;
		}
		r->point_mlog[p] = x / d->n[p];
		for (j = 0; j < nk; j++) {
			r->point_tier_frac[p * nk + j] =
			    r->point_mode_frac[p * nk + j];
			tot[j] += r->point_mode_frac[p * nk + j] * d->n[p];
			all += r->point_mode_frac[p * nk + j] * d->n[p];
		}
	}
	for (j = 0; j < nk; j++) {
		r->mode[j].share = all > 0 ? tot[j] / all : 0;
		r->mode[j].lat_us_p50 = tm_quantile(d, m->f + j * d->nb, 0.5);
		r->mode[j].lat_us_p99 = tm_quantile(d, m->f + j * d->nb,
		    0.99);
		tm_moments(d, m->f + j * d->nb, &r->mode[j].mu,
		    &r->mode[j].sigma);
		r->mode[j].cut_us = j + 1 < nk ? sqrt(r->mode[j].lat_us_p50 *
		    tm_quantile(d, m->f + (j + 1) * d->nb, 0.5)) : INFINITY;
		r->mode[j].tier = j < k ? (int)j : -1;
	}
	free(tot);
	r->shape_bin0 = (int)d->bin0;
	r->shape_nbins = d->nb;
	r->shape = xcalloc(nk * d->nb, sizeof *r->shape);
	memcpy(r->shape, m->f, nk * d->nb * sizeof *r->shape);
}

int
tiermodel_analyse(const struct point *pts, size_t n, struct tiers_result *r)
{
	struct tm_data		  d;
	struct tm_model		  m[TIERS_MAX + 1];
	struct tm_loo		  lo[TIERS_MAX + 1];
	const struct point	**sp;
	double			  gain, z;
	size_t			  k, kmax, best = 0;

	tiers_result_free(r);
	if (tm_data_load(pts, n, &d, &sp) != 0) {
		r->reason = TIERS_R_TOO_FEW;
		tm_data_free(&d);
		free(sp);
		return (-1);
	}
	/* a tier needs points on either side of its capacity: two each */
	kmax = (d.np - 1) / 2;
	if (kmax > TIERS_MAX)
		kmax = TIERS_MAX;
	memset(m, 0, sizeof m);
	memset(lo, 0, sizeof lo);
	tm_model_init(&m[0], &d, 0);
	tm_init_shapes(&d, &m[0]);
	tm_fit(&d, &m[0], TIERMODEL_ROUNDS);
	tm_em(&d, &m[0], TIERMODEL_EM_FINAL);
	tm_loo(&d, &m[0], &lo[0]);
	for (k = 1; k <= kmax; k++) {
		tm_model_init(&m[k], &d, k);
		tm_grow(&d, &m[k - 1], &m[k]);
		if (!isfinite(m[k].ll))
			break;
		tm_em(&d, &m[k], TIERMODEL_EM_FINAL);
		if (!tm_distinct(&d, &m[k])) {
			k++;
			break;
		}
		tm_loo(&d, &m[k], &lo[k]);
		tm_compare(&d, &lo[best], &lo[k], &gain, &z);
		if (gain > 0 && z >= TIERMODEL_Z_MORE) {
			best = k;
			continue;
		}
		if (gain > 0 && z >= TIERMODEL_Z_SAME) {
			r->reason = TIERS_R_CANNOT_TELL;
			r->reason_ntiers = k;
			r->reason_gain = gain;
			r->reason_z = z;
			/* scan.note: the JSON's only place for why */
			snprintf(r->note, sizeof r->note, "%zu tier%s and %zu "
			    "tier%s predict the points held out about as well "
			    "(%zu ahead by %.0f nats, z %.2f, short of %.0f): "
			    "points past the capacities found would tell",
			    best, best == 1 ? "" : "s", k, k == 1 ? "" : "s",
			    k, gain, z, TIERMODEL_Z_MORE);
		}
		k++;
		break;
	}
	if (best == kmax && kmax == TIERS_MAX) {
		r->reason = TIERS_R_MORE_POSSIBLE;
		snprintf(r->note, sizeof r->note, "%d tiers, the most this "
		    "analysis fits, and more might fit better", TIERS_MAX);
	}
	tm_result(&d, sp, &m[best], &lo[best], r);
	r->analysed = r->reason == TIERS_R_NONE;
	r->agree = -1;
	for (k = 0; k <= TIERS_MAX; k++) {
		tm_model_free(&m[k]);
		tm_loo_free(&lo[k]);
	}
	tm_data_free(&d);
	free(sp);
	return (0);
}

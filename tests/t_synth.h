/* SPDX-License-Identifier: ISC */
/*
 * Test helpers: synthetic scan points drawn from a known cache model (tier k
 * serves min(1, C_k / S) of the reads less the faster tiers' share, each
 * place lognormal), so the tiers analysis can be checked against the truth.
 */
#ifndef T_SYNTH_H
#define T_SYNTH_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "point.h"
#include "rng.h"

#define T_MAX_PLACES	6

struct t_place {
	double	capacity;	/* cumulative bytes; 0: backing (last) */
	double	lat_us;		/* median */
	double	sigma;		/* lognormal shape */
	double	share;		/* backing only: fixed share of misses when
				   several backing places; 0 = the rest */
};

struct t_model {
	size_t		nplace;
	struct t_place	place[T_MAX_PLACES];	/* fastest first */
	double		grow;	/* backing median grows by (S/Smin)^grow */
};

static struct rng t_rng;

/* Draw ios reads at working set ws from m into a new point. */
static void
t_point(const struct t_model *m, double ws, double smin, uint64_t ios,
    struct point *p)
{
	const struct t_place	*pl;
	double			 u, lat, med;
	uint64_t		 i;
	size_t			 k;

	memset(p, 0, sizeof *p);
	p->ws_bytes = (uint64_t)ws;
	p->bs = 4096;
	p->iodepth = 1;
	p->ios = ios;
	p->hist = malloc(sizeof *p->hist);
	hist_init(p->hist);
	for (i = 0; i < ios; i++) {
		u = rng_uniform(&t_rng);
		for (k = 0; k < m->nplace; k++) {
			pl = &m->place[k];
			if (pl->capacity > 0 && u < fmin(1, pl->capacity / ws))
				break;
			if (pl->capacity > 0)
				continue;
			/* backing places: split the misses by share */
			if (pl->share > 0 && rng_uniform(&t_rng) >= pl->share)
				continue;
			break;
		}
		if (k == m->nplace)
			k = m->nplace - 1;
		pl = &m->place[k];
		med = pl->lat_us;
		if (pl->capacity == 0 && m->grow != 0)
			med *= pow(ws / smin, m->grow);
		lat = med * 1000 * exp(pl->sigma * rng_normal(&t_rng));
		hist_add(p->hist, (uint64_t)llround(fmax(lat, 1)));
		p->seconds += lat / 1e9;
	}
	p->lat_us.mean = hist_mean(p->hist) / 1000;
}

/* n points on a log grid from smin to smax. */
static struct point *
t_scan(const struct t_model *m, double smin, double smax, size_t n,
    uint64_t ios, uint64_t seed)
{
	struct point	*pts;
	size_t		 i;

	rng_seed(&t_rng, seed);
	pts = calloc(n, sizeof *pts);
	for (i = 0; i < n; i++)
		t_point(m, smin * pow(smax / smin, n > 1 ? (double)i / (n - 1) :
		    0), smin, ios, &pts[i]);
	return (pts);
}

static void
t_free_points(struct point *pts, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(pts[i].hist);
	free(pts);
}

#endif

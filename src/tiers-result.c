/* SPDX-License-Identifier: ISC */
/*
 * The tier analyses' result (tiers.h): set up and released here, apart
 * from either analysis (tiers.c, the rules; tiermodel.c, one model), so
 * that neither depends on the other for it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tiers.h"

/* Set up an empty result. */
void
tiers_result_init(struct tiers_result *r)
{
	size_t	i;

	memset(r, 0, sizeof *r);
	r->backing_p50_us = NAN;
	r->backing_p99_us = NAN;
	r->backing_p50_se = NAN;
	r->backing_capped_p50_us = NAN;
	r->backing_capped_mean_us = NAN;
	for (i = 0; i < TIERS_MAX; i++)
		r->tier[i].capped_lat_us_p50 =
		    r->tier[i].capped_lat_us_mean = NAN;
	r->agree = -1;
}

/* Release what a result owns and reset it. */
void
tiers_result_free(struct tiers_result *r)
{
	if (r == NULL)
		return;
	free(r->point_ws);
	free(r->point_ios);
	free(r->point_mode_frac);
	free(r->point_tier_frac);
	free(r->point_mlog);
	free(r->shape);
	tiers_result_init(r);
}

/* SPDX-License-Identifier: ISC */
/* One measured point: its latency summary and what it owns. */
#include <math.h>
#include <stdlib.h>

#include "hist.h"
#include "point.h"


/* Fill pt->lat_us from pt->hist. */
void
point_summarise(struct point *pt)
{
	const struct hist	*h = pt->hist;

	if (h == NULL || h->count == 0) {
		pt->lat_us.mean = pt->lat_us.p50 = pt->lat_us.p90 = NAN;
		pt->lat_us.p99 = pt->lat_us.p999 = NAN;
		return;
	}
	pt->lat_us.mean = hist_mean(h) / 1e3;
	pt->lat_us.p50 = hist_percentile(h, 0.50) / 1e3;
	pt->lat_us.p90 = hist_percentile(h, 0.90) / 1e3;
	pt->lat_us.p99 = hist_percentile(h, 0.99) / 1e3;
	pt->lat_us.p999 = NAN;
	if (h->count >= POINT_P999_MIN_IOS)
		pt->lat_us.p999 = hist_percentile(h, 0.999) / 1e3;
}

/* Free what a point owns. */
void
point_free(struct point *pt)
{
	if (pt == NULL)
		return;
	free(pt->hist);
	pt->hist = NULL;
}

/* Bytes a point read or wrote, its warm-up counted at its rate. */
double
point_bytes(const struct point *p)
{
	return (((double)p->ios + p->iops * p->warm_seconds) * p->bs);
}

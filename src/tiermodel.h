/* SPDX-License-Identifier: ISC */
/*
 * Cache tiers from one model: the cache law fitted to all the points of a
 * scan at once (tiermodel.c says how).  Pure analysis, no I/O; the same
 * result as tiers_analyse, with a reason code instead of a sentence.
 */
#ifndef TIERMODEL_H
#define TIERMODEL_H

#include <stddef.h>

struct point;
struct tiers_result;

/*
 * Find the tiers in n points of a scan (any order; points without a
 * histogram are skipped).  r must be initialised; what it held is freed
 * first.  Returns 0, or -1 if inconclusive (fewer than 3 points with
 * reads): then r->analysed is 0 and r->reason says why.
 */
int	tiermodel_analyse(const struct point *, size_t,
	    struct tiers_result *);

#endif

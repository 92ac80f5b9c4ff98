/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the EBS log page parser: no crash; a one-line message on every
 * refusal; a page accepted has at most 64 bins each, ordered, counters
 * below the absurd, and subtracted from itself gives nothing.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ebsstats.h"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ebsstats_page	p;
	struct ebsstats_phase	d;
	char			*cause = NULL;
	size_t			 i;
	double			 q;
	int			 l;

	if (ebsstats_parse(data, size, &p, &cause) != 0) {
		t_check_cause(cause, 0);
		free(cause);
		return (0);
	}
	T_ASSERT(cause == NULL && size >= EBSSTATS_PAGE_BYTES);
	T_ASSERT(p.read_hist.nbins <= EBSSTATS_BINS);
	T_ASSERT(p.write_hist.nbins <= EBSSTATS_BINS);
	for (i = 1; i < p.read_hist.nbins; i++)
		T_ASSERT(p.read_hist.bin[i].lower_us >=
		    p.read_hist.bin[i - 1].upper_us);
	for (l = 0; l < EBSSTATS_NLIMITS; l++)
		T_ASSERT(p.exceeded_us[l] < EBSSTATS_ABSURD);
	T_ASSERT(ebsstats_diff(&p, &p, "fuzz", 1, &d, &cause) == 0);
	T_ASSERT(d.read_ops == 0 && d.read_hist.nbins == 0 &&
	    d.write_hist.nbins == 0 && d.note[0] == '\0');
	T_ASSERT(ebsstats_held(&d) == EBSSTATS_LIMIT_NONE);
	q = ebsstats_hist_quantile(&p.read_hist, 0.99);
	T_ASSERT(isnan(q) || (q >= 0 && q < (double)EBSSTATS_ABSURD));
	return (0);
}

/* SPDX-License-Identifier: ISC */
/*
 * Fuzz the size, time and number parsers and feed what they accept to the
 * formatters: no crash, a one-line message on every refusal, results in range.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*s, *cause, buf[UNITS_BUFSZ];
	uint64_t	 v, lo, hi;
	double		 d;
	int		 nl;

	s = t_string(data, size);
	nl = memchr(data, '\n', size) != NULL;

	cause = NULL;
	if (units_parse_size(s, &v, &cause) == 0) {
		T_ASSERT(cause == NULL);
		T_ASSERT(strlen(units_format_size(v, buf, sizeof(buf))) <
		    sizeof(buf));
		units_format_count((double)v, buf, sizeof(buf));
	} else
		t_check_cause(cause, nl);
	free(cause);

	cause = NULL;
	if (units_parse_time(s, &d, &cause) == 0) {
		T_ASSERT(cause == NULL);
		T_ASSERT(d >= 0 && !isnan(d));
		units_format_lat_us(d * 1e6, buf, sizeof(buf));
		units_format_rate(d, buf, sizeof(buf));
	} else
		t_check_cause(cause, nl);
	free(cause);

	/* Bounds from the first bytes, so the range checks get exercised. */
	lo = size > 0 ? data[0] : 0;
	hi = size > 1 ? lo + ((uint64_t)data[1] << (data[1] % 56)) : UINT64_MAX;
	cause = NULL;
	if (units_parse_uint(s, lo, hi, &v, &cause) == 0) {
		T_ASSERT(cause == NULL);
		T_ASSERT(v >= lo && v <= hi);
	} else
		t_check_cause(cause, nl);
	free(cause);

	free(s);
	return (0);
}

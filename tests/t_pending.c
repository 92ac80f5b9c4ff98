/* SPDX-License-Identifier: ISC */
/*
 * Weak stand-ins for hist.c and units.c (branch pure) so the report tests
 * link before those land; the real definitions win once they are built.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "units.h"

#define T_WEAK __attribute__((weak))

T_WEAK void
hist_init(struct hist *h)
{
	memset(h, 0, sizeof *h);
}

T_WEAK size_t
hist_index(uint64_t v)
{
	unsigned	msb;

	if (v >= HIST_MAX_NS)
		return (HIST_BUCKETS - 1);
	if (v < (1U << HIST_SUB_BITS))
		return (v);
	msb = 63 - __builtin_clzll(v);
	return (((size_t)(msb - HIST_SUB_BITS + 2) << (HIST_SUB_BITS - 1)) +
	    ((v >> (msb - HIST_SUB_BITS + 1)) & ((1U << (HIST_SUB_BITS - 1)) - 1)));
}

T_WEAK uint64_t
hist_bucket_low(size_t i)
{
	size_t		 g, sub;
	unsigned	 shift;

	if (i < (1U << HIST_SUB_BITS))
		return (i);
	g = i >> (HIST_SUB_BITS - 1);
	sub = i & ((1U << (HIST_SUB_BITS - 1)) - 1);
	shift = g - 1;
	return (((uint64_t)(sub | (1U << (HIST_SUB_BITS - 1)))) << shift);
}

T_WEAK uint64_t
hist_bucket_high(size_t i)
{
	if (i < (1U << HIST_SUB_BITS))
		return (i + 1);
	return (hist_bucket_low(i) +
	    ((uint64_t)1 << ((i >> (HIST_SUB_BITS - 1)) - 1)));
}

T_WEAK double
hist_bucket_value(size_t i)
{
	return ((hist_bucket_low(i) + hist_bucket_high(i) - 1) / 2.0);
}

T_WEAK void
hist_add(struct hist *h, uint64_t v)
{
	if (h->count == 0 || v < h->min_ns)
		h->min_ns = v;
	if (v > h->max_ns)
		h->max_ns = v;
	if (v >= HIST_MAX_NS)
		h->overflow++;
	h->bucket[hist_index(v)]++;
	h->count++;
	h->sum_ns += v;
}

T_WEAK double
hist_mean(const struct hist *h)
{
	return (h->count ? h->sum_ns / h->count : 0);
}

T_WEAK double
hist_percentile(const struct hist *h, double q)
{
	uint64_t	rank, seen = 0;
	size_t		i;

	if (h->count == 0)
		return (0);
	rank = (uint64_t)ceil(q * h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			return (hist_bucket_value(i));
	}
	return (hist_bucket_value(HIST_BUCKETS - 1));
}

T_WEAK double
hist_fraction_below(const struct hist *h, double ns)
{
	uint64_t	n = 0;
	size_t		i;

	if (h->count == 0)
		return (0);
	for (i = 0; i < HIST_BUCKETS; i++)
		if (hist_bucket_value(i) < ns)
			n += h->bucket[i];
	return ((double)n / h->count);
}

static char *
t_scaled(double v, const char *const *u, size_t nu, double base, char *buf,
    size_t len)
{
	size_t	i = 0;

	while (i + 1 < nu && fabs(v) >= base * 0.9995) {
		v /= base;
		i++;
	}
	if (v == floor(v) && fabs(v) < 1000)
		snprintf(buf, len, "%.0f%s", v, u[i]);
	else if (fabs(v) >= 99.95)
		snprintf(buf, len, "%.0f%s", v, u[i]);
	else if (fabs(v) >= 9.995)
		snprintf(buf, len, "%.1f%s", v, u[i]);
	else
		snprintf(buf, len, "%.2f%s", v, u[i]);
	return (buf);
}

T_WEAK char *
units_format_size(uint64_t v, char *buf, size_t len)
{
	static const char *const u[] = { " B", " KiB", " MiB", " GiB",
	    " TiB", " PiB" };

	return (t_scaled((double)v, u, 6, 1024, buf, len));
}

T_WEAK char *
units_format_rate(double v, char *buf, size_t len)
{
	static const char *const u[] = { " B/s", " KiB/s", " MiB/s",
	    " GiB/s", " TiB/s" };

	return (t_scaled(v, u, 5, 1024, buf, len));
}

T_WEAK char *
units_format_count(double v, char *buf, size_t len)
{
	static const char *const u[] = { "", "k", "M", "G", "T" };

	return (t_scaled(v, u, 5, 1000, buf, len));
}

T_WEAK char *
units_format_lat_us(double v, char *buf, size_t len)
{
	if (v < 1000)
		snprintf(buf, len, v >= 99.95 ? "%.0f us" : v >= 9.995 ?
		    "%.1f us" : "%.2f us", v);
	else if (v < 1e6)
		snprintf(buf, len, v >= 99950 ? "%.0f ms" : v >= 9995 ?
		    "%.1f ms" : "%.2f ms", v / 1e3);
	else
		snprintf(buf, len, "%.2f s", v / 1e6);
	return (buf);
}

#include <stdlib.h>

#include "sampler.h"

T_WEAK void
timeline_add(struct timeline *tl, const struct timeline_sample *s)
{
	if (tl->n == tl->cap) {
		tl->cap = tl->cap ? tl->cap * 2 : 16;
		tl->v = realloc(tl->v, tl->cap * sizeof *tl->v);
		if (tl->v == NULL)
			abort();
	}
	tl->v[tl->n++] = *s;
}

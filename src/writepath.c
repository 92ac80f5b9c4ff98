/* SPDX-License-Identifier: ISC */
/*
 * The write path, analysed: the fastest commit method, flush evidence and
 * write-back buffers.
 *
 * A flush makes the writes before it durable.  On a device that says it
 * has a volatile write cache ("write back"), a flush that reaches stable
 * storage costs at least a write to the medium, so an O_DIRECT|O_DSYNC
 * write costs clearly more than a plain O_DIRECT one.  When the difference
 * is under WRITEPATH_SUSPECT_FRAC of a plain write, the cache acknowledges
 * flushes without persisting anything, or it is protected against power
 * loss: timing cannot tell which, so the finding says what was measured,
 * never "safe" or "unsafe".  A device that says "write through" gets no
 * flushes from Linux at all, so a cheap flush there says nothing.  Under
 * a rate cap, writes back to back each wait for their turn: an O_DSYNC
 * one as long as a plain one when its flush fits in the wait (the flush
 * hidden), or longer when the flush is an I/O the cap counts too (as
 * blk-throttle does).  So both are measured again one at a time, each
 * paced at WRITEPATH_PACE of its own rate back to back, and when either
 * back to back took WRITEPATH_QUEUED times its paced median or more, it
 * waited, and the flush is the paced pair's.  A cheap flush with no paced
 * pair to rule out a cap hiding it is not judged.
 *
 * A write-back buffer (host cache, SLC cache, the page cache under dirty
 * limits) takes writes at a fast rate until it holds its size, then only
 * as fast as it drains.  That is a burst bucket in bytes: the bytes taken
 * above the slow rate before the drop, sum (rate - slow) dt, are its size,
 * found by ceilings_burst on the bytes per second.  Its uncertainty comes
 * from the slow rate: size = bytes written by the drop - slow x drop time,
 * so a standard error se of the slow rate moves it by drop time x se.  The
 * fast rate is the mean of the intervals before the drop that ran at
 * least WRITEPATH_FAST_FRAC of the fastest (the interval the buffer filled
 * in mixes both rates, and a short fast phase shares a segment with slow
 * intervals), and the buffer filled after size / (fast - slow).  After an
 * idle pause, the buffer found again is what drained meanwhile.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "stats.h"
#include "timeline.h"
#include "writepath.h"
#include "xmalloc.h"

#define WRITEPATH_SUSPECT_FRAC	0.10	/* of a plain write */
#define WRITEPATH_WHOLE		0.90	/* refilled this much: whole again */
#define WRITEPATH_FAST_FRAC	0.90	/* of the fastest interval */
#define WRITEPATH_MIXED_FILL	1.10	/* of the first interval */

/* The point with most commits/s at one writer and size bs; -1 if none. */
long
writepath_best(const struct commit_point *rows, size_t n, uint32_t bs)
{
	long	best = -1;
	size_t	i;

	for (i = 0; i < n; i++) {
		if (rows[i].writers != 1 || rows[i].bs != bs ||
		    rows[i].pt.ios == 0 || !(rows[i].pt.iops > 0))
			continue;
		if (best < 0 || rows[i].pt.iops > rows[best].pt.iops)
			best = (long)i;
	}
	return (best);
}

/* Where the commits' state changed; see writepath.h. */
long
writepath_drop(const struct commit_point *rows, size_t n,
    const struct commit_point *c)
{
	const struct point	*first = NULL, *again = &c->pt;
	double			 ea, ef, floor;
	size_t			 i, k;

	for (i = 0; i < n && first == NULL; i++)
		if (rows[i].method == c->method && rows[i].bs == c->bs &&
		    rows[i].writers == 1 && rows[i].pt.ios > 0)
			first = &rows[i].pt;
	if (first == NULL || again->ios == 0 || !(again->iops > 0) ||
	    !(first->iops > 0))
		return (-1);
	ea = isfinite(again->ci95_rel) ? again->ci95_rel : 0;
	ef = isfinite(first->ci95_rel) ? first->ci95_rel : 0;
	if (again->iops >= WRITEPATH_DROP * first->iops ||
	    again->iops * (1 + ea) >= first->iops * (1 - ef))
		return (-1);
	floor = again->iops * (1 + WRITEPATH_FLOOR + ea);
	for (k = n; k > 0; k--)
		if (rows[k - 1].pt.ios > 0 && rows[k - 1].pt.iops > floor)
			break;
	return ((long)k);
}

/* Whether a and b commit equally fast within the noise; see writepath.h. */
int
writepath_tied(const struct commit_point *a, const struct commit_point *b)
{
	double	ea, eb;

	ea = isfinite(a->pt.ci95_rel) ? a->pt.ci95_rel : 0;
	eb = isfinite(b->pt.ci95_rel) ? b->pt.ci95_rel : 0;
	/* Commits/s is one over the mean commit time: the same relative CI. */
	if (a->pt.iops >= b->pt.iops)
		return (a->pt.iops * (1 - ea) <= b->pt.iops * (1 + eb));
	return (b->pt.iops * (1 - eb) <= a->pt.iops * (1 + ea));
}

/* Flush evidence with nothing measured. */
void
writepath_flush_init(struct writepath_flush *fl)
{
	fl->write_us = fl->dsync_write_us = NAN;
	fl->fdatasync_us = fl->empty_fdatasync_us = NAN;
	fl->paced_write_us = fl->paced_dsync_write_us = NAN;
	fl->queued = -1;
	fl->flush_us = NAN;
	fl->suspect = -1;
}

/* What O_DSYNC adds to a write of w us that takes d us with it. */
static double
writepath_flush_cost(double w, double d)
{
	return (d > w ? d - w : 0);
}

/* Whether the paced pair is wanted; see writepath.h. */
int
writepath_flush_pace(const struct writepath_flush *fl, const char *cache)
{
	return (isfinite(fl->write_us) && isfinite(fl->dsync_write_us) &&
	    strcmp(cache, "write through") != 0);
}

/* The plain write the flush is set against; see writepath.h. */
double
writepath_flush_write_us(const struct writepath_flush *fl)
{
	return (fl->queued == 1 ? fl->paced_write_us : fl->write_us);
}

/* Judge the flush evidence; see writepath.h. */
void
writepath_flush(struct writepath_flush *fl, const char *cache)
{
	double	w;

	fl->queued = -1;
	fl->flush_us = NAN;
	fl->suspect = -1;
	if (!isfinite(fl->write_us) || !isfinite(fl->dsync_write_us))
		return;
	if (isfinite(fl->paced_write_us) && isfinite(fl->paced_dsync_write_us))
		fl->queued = fl->write_us >= WRITEPATH_QUEUED *
		    fl->paced_write_us || fl->dsync_write_us >=
		    WRITEPATH_QUEUED * fl->paced_dsync_write_us;
	w = writepath_flush_write_us(fl);
	fl->flush_us = writepath_flush_cost(w, fl->queued == 1 ?
	    fl->paced_dsync_write_us : fl->dsync_write_us);
	if (fl->flush_us >= WRITEPATH_SUSPECT_FRAC * w)
		fl->suspect = 0;
	else if (strcmp(cache, "write back") == 0 && fl->queued >= 0)
		fl->suspect = 1;	/* cheap, and no cap hid it */
}

/* The intervals of a timeline with bytes per second as their rate. */
static struct timeline_sample *
writepath_bytes(const struct timeline_sample *tl, size_t n)
{
	struct timeline_sample	*v;
	size_t			 i;

	v = xcalloc(n > 0 ? n : 1, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i] = tl[i];
		v[i].iops = tl[i].bytes_per_s;
	}
	return (v);
}

static void
writepath_buffer_init(struct wbuffer *out)
{
	memset(out, 0, sizeof *out);
	out->fast_bytes_per_s = out->slow_bytes_per_s = NAN;
	out->bytes = out->low_bytes = out->high_bytes = NAN;
	out->fill_s = out->idle_s = NAN;
	out->refilled_bytes = out->drain_bytes_per_s = out->drain_s = NAN;
}

/* A write-back buffer in a sustained run; see writepath.h. */
int
writepath_buffer(const struct timeline_sample *tl, size_t n,
    struct wbuffer *out)
{
	struct timeline_sample	*v;
	struct burst		 b;
	struct stats		 fast, slow;
	double			 half, top, written;
	size_t			 i, a;
	int			 rc;

	writepath_buffer_init(out);
	v = writepath_bytes(tl, n);
	rc = ceilings_burst(v, n, NULL, 0, NAN, &b);
	free(v);
	out->slow_bytes_per_s = b.baseline_iops;
	if (rc != 0 || !b.detected || b.exhausted || b.variable)
		return (rc);

	/* The first interval after the drop's, and what was written by it. */
	for (a = 0; a < n && tl[a].t_s <= b.drop_t_s; a++)
		;
	if (++a + 2 > n)
		return (0);
	written = 0;
	for (i = 0; i < a; i++)
		written += tl[i].bytes_per_s * (tl[i].t_s - (i > 0 ?
		    tl[i - 1].t_s : 0));
	stats_init(&slow);
	for (i = a; i < n; i++)
		stats_add(&slow, tl[i].bytes_per_s);
	top = 0;
	for (i = 0; i < n && tl[i].t_s <= b.drop_t_s; i++)
		if (tl[i].bytes_per_s > top)
			top = tl[i].bytes_per_s;
	stats_init(&fast);
	for (i = 0; i < n && tl[i].t_s <= b.drop_t_s; i++)
		if (tl[i].bytes_per_s >= WRITEPATH_FAST_FRAC * top)
			stats_add(&fast, tl[i].bytes_per_s);

	out->slow_bytes_per_s = stats_mean(&slow);
	out->fast_bytes_per_s = stats_mean(&fast);
	out->bytes = written - out->slow_bytes_per_s * tl[a - 1].t_s;
	if (!(out->bytes > 0) || !(out->fast_bytes_per_s >
	    out->slow_bytes_per_s)) {
		writepath_buffer_init(out);
		out->slow_bytes_per_s = b.baseline_iops;
		return (0);
	}
	out->detected = 1;
	out->fill_s = out->bytes / (out->fast_bytes_per_s -
	    out->slow_bytes_per_s);
	/*
	 * A lone fast interval is the mixed one if the buffer filled within
	 * it; then it took slow x t + bytes, and the fill comes out as t.
	 */
	out->fast_at_least = fast.n < 2 &&
	    out->fill_s < WRITEPATH_MIXED_FILL * tl[0].t_s;
	half = stats_t95(slow.n - 1) * stats_sd(&slow) / sqrt((double)slow.n) *
	    tl[a - 1].t_s;
	out->low_bytes = out->bytes > half ? out->bytes - half : 0;
	out->high_bytes = out->bytes + half;
	return (0);
}

/* How fast the buffer drains, from a second run after idle_s. */
void
writepath_drain(struct wbuffer *b, const struct timeline_sample *tl,
    size_t n, double idle_s)
{
	struct wbuffer	again;

	b->idle_s = idle_s;
	if (!b->detected || !(idle_s > 0) ||
	    writepath_buffer(tl, n, &again) != 0)
		return;
	b->refilled_bytes = again.detected ? again.bytes : 0;
	b->drain_bytes_per_s = b->refilled_bytes / idle_s;
	if (b->refilled_bytes >= WRITEPATH_WHOLE * b->bytes) {
		b->drain_s = idle_s;
		b->drain_at_most = 1;
	} else if (b->drain_bytes_per_s > 0)
		b->drain_s = b->bytes / b->drain_bytes_per_s;
}

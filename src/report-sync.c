/* SPDX-License-Identifier: ISC */
/*
 * The write path for people: the Writes section (buffer, write ceilings,
 * the mixed point), the Commits section (methods, writers, what a flush
 * costs and what that shows), and their sentences for "What it means".
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "peers.h"
#include "plan.h"
#include "report.h"
#include "units.h"

#define SYNC_AT_CAP		0.95	/* of the IOPS ceiling: capped */
#define SYNC_HELPS		1.1	/* writers together over one: more */

/* The row of the fastest method, or NULL. */
static const struct commit_point *
report_sync_best(const struct sync_result *s)
{
	long	i;

	if (s->best_method < 0)
		return (NULL);
	i = writepath_best(s->rows, s->nrows, s->best_bs);
	return (i >= 0 ? &s->rows[i] : NULL);
}

/*
 * The point of one writer at c's method and size measured in c's state:
 * its row, else the point measured again; NULL when neither was.
 */
static const struct commit_point *
report_sync_one(const struct sync_result *s, const struct commit_point *c)
{
	const struct commit_point	*o;
	size_t				 i;

	for (i = 0; i < s->nrows; i++) {
		o = &s->rows[i];
		if (o->writers == 1 && o->method == c->method &&
		    o->bs == c->bs && o->pt.ios > 0 &&
		    o->pt.state == c->pt.state)
			return (o);
	}
	o = &s->again;
	if (o->pt.ios > 0 && o->method == c->method && o->bs == c->bs &&
	    o->pt.state == c->pt.state)
		return (o);
	return (NULL);
}

/* Whether a bucket ran dry among the commits: their rows' states differ. */
static int
report_sync_mixed(const struct sync_result *s)
{
	return (s->state == BUCKET_DRAINING && s->again.pt.ios > 0);
}

/* A size for people: "8 KiB", "2300 B". */
static char *
report_sync_size(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024 != 0)
		snprintf(buf, len, "%u B", bs);
	else
		units_format_size(bs, buf, len);
	return (buf);
}

/* An interval, "LOW to HIGH", or "unknown" when an end is. */
static char *
report_sync_interval(enum units_kind unit, double lo, double hi, char *buf,
    size_t len)
{
	if (!isfinite(lo) || !isfinite(hi))
		snprintf(buf, len, "unknown");
	else
		units_format_interval(unit, lo, hi, buf, len);
	return (buf);
}

/*
 * Where a bucket ran dry among the commits, from the point measured
 * again: "ran dry among these commits: ...".
 */
static void
report_sync_drop(const struct sync_result *s, char *buf, size_t len)
{
	const struct commit_point	*first = NULL;
	char				 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char				 bs[UNITS_BUFSZ];
	size_t				 i;

	for (i = 0; i < s->nrows && first == NULL; i++)
		if (s->rows[i].writers == 1 &&
		    s->rows[i].method == s->again.method &&
		    s->rows[i].bs == s->again.bs)
			first = &s->rows[i];
	snprintf(buf, len, "a bucket ran dry among these commits: %s at %s, "
	    "one writer, committed %s a second first and %s again after the "
	    "writers; rows marked full ran before, empty after (draining: "
	    "it may have run dry then)", sync_method_name(s->again.method),
	    report_sync_size(s->again.bs, bs, sizeof bs), first != NULL ?
	    units_format_value(UNITS_IOPS, first->pt.iops, a, sizeof a) :
	    REPORT_NA, units_format_value(UNITS_IOPS, s->again.pt.iops, b,
	    sizeof b));
}

/* One writer: every method at every size. */
static void
report_sync_methods(const struct report_text *rt, const struct sync_result *s)
{
	const struct commit_point	*c;
	struct report_table		 tab;
	char				 bs[UNITS_BUFSZ], ops[UNITS_BUFSZ];
	char				 p50[UNITS_BUFSZ], p99[UNITS_BUFSZ];
	char				 p999[UNITS_BUFSZ], ci[16];
	uint64_t			 lo = UINT64_MAX, hi = 0;
	size_t				 i;

	report_table_init(&tab, report_sync_mixed(s) ? "lrrrrrrl" :
	    "lrrrrrr");
	report_table_add(&tab, "method", "size", "commits/s", "p50", "p99",
	    "p99.9", "+-95%", "bucket");
	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->writers != 1)
			continue;
		if (isfinite(c->pt.ci95_rel))
			snprintf(ci, sizeof ci, "%.1f%%", c->pt.ci95_rel * 100);
		else
			snprintf(ci, sizeof ci, "%s", REPORT_NA);
		report_table_add(&tab, sync_method_name(c->method),
		    report_sync_size(c->bs, bs, sizeof bs),
		    report_text_cell(UNITS_IOPS, c->pt.iops, ops, sizeof ops),
		    report_text_cell(UNITS_LAT_US, c->pt.lat_us.p50, p50,
		    sizeof p50), report_text_cell(UNITS_LAT_US,
		    c->pt.lat_us.p99, p99, sizeof p99),
		    report_text_cell(UNITS_LAT_US, c->pt.lat_us.p999, p999,
		    sizeof p999), ci, bucket_state_mark(c->pt.state));
		if (!isfinite(c->pt.lat_us.p999) && c->pt.ios > 0 &&
		    c->pt.ios < POINT_P999_MIN_IOS) {
			lo = c->pt.ios < lo ? c->pt.ios : lo;
			hi = c->pt.ios > hi ? c->pt.ios : hi;
		}
	}
	report_table_write(&tab, rt->f, rt->md, REPORT_TEXT_INDENT);
	if (hi > 0)
		report_text_p999_note(rt, "commits", lo, hi);
}

/* Several writers: the fastest method, each count, own logs or shared. */
static void
report_sync_writers(const struct report_text *rt, const struct sync_result *s,
    const struct commit_point *one)
{
	const struct commit_point	*c, *ref;
	struct report_table		 tab;
	char				 n[16], ops[UNITS_BUFSZ], each[UNITS_BUFSZ];
	char				 p50[UNITS_BUFSZ], p99[UNITS_BUFSZ];
	char				 gain[16], title[128], bs[UNITS_BUFSZ];
	size_t				 i;
	int				 mixed = report_sync_mixed(s);

	snprintf(title, sizeof title, "Writers (%s, %s per commit)",
	    sync_method_name(one->method), report_sync_size(one->bs, bs,
	    sizeof bs));
	report_text_heading(rt, title);
	report_table_init(&tab, mixed ? "rlrrrrrl" : "rlrrrrr");
	report_table_add(&tab, "writers", "log", "commits/s", "each", "p50",
	    "p99", "x one", "bucket");
	/* "x one" against one writer in the same state; after, again. */
	for (i = 0; i <= s->nrows; i++) {
		c = i < s->nrows ? &s->rows[i] : &s->again;
		if (c == &s->again ? !mixed || c->pt.state == one->pt.state :
		    c != one && (c->method != one->method || c->bs != one->bs ||
		    c->writers == 1))
			continue;
		snprintf(n, sizeof n, "%u", c->writers);
		if ((ref = report_sync_one(s, c)) != NULL &&
		    c->pt.state != BUCKET_DRAINING)
			snprintf(gain, sizeof gain, "%.2f", c->pt.iops /
			    ref->pt.iops);
		else
			snprintf(gain, sizeof gain, "%s", REPORT_NA);
		report_table_add(&tab, n, c == &s->again ? "own, again" :
		    c->writers == 1 ? "own" : c->shared ?
		    "shared" : s->files ? "own file" : "own part",
		    report_text_cell(UNITS_IOPS, c->pt.iops, ops, sizeof ops),
		    report_text_cell(UNITS_IOPS, c->pt.iops / c->writers, each,
		    sizeof each), report_text_cell(UNITS_LAT_US,
		    c->pt.lat_us.p50, p50, sizeof p50),
		    report_text_cell(UNITS_LAT_US, c->pt.lat_us.p99, p99,
		    sizeof p99), gain, bucket_state_mark(c->pt.state));
	}
	report_table_write(&tab, rt->f, rt->md, REPORT_TEXT_INDENT);
}

/* What flushes cost, and what the device says. */
static void
report_sync_flush(const struct report_text *rt, const struct sync_result *s,
    unsigned cuts)
{
	const struct writepath_flush	*fl = &s->flush;
	char				 line[320], a[UNITS_BUFSZ];
	char				 b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char				 d[UNITS_BUFSZ], e[UNITS_BUFSZ];

	snprintf(line, sizeof line, "%s, FUA %s (as sysfs says)",
	    s->write_cache[0] ? s->write_cache : "unknown",
	    s->fua < 0 ? "unknown" : s->fua ? "yes" : "no");
	report_text_kv(rt, "write cache", line);
	if (isfinite(fl->flush_us) && fl->queued == 1) {
		snprintf(line, sizeof line, "%s: one at a time, paced, an "
		    "O_DIRECT write takes %s, with O_DSYNC %s; back to back "
		    "they wait for a rate cap (%s, %s), which hides a flush or "
		    "swells it", units_format_value(UNITS_LAT_US,
		    fl->flush_us, a, sizeof a), units_format_value(
		    UNITS_LAT_US, fl->paced_write_us, b, sizeof b),
		    units_format_value(UNITS_LAT_US, fl->paced_dsync_write_us,
		    c, sizeof c), units_format_value(UNITS_LAT_US,
		    fl->write_us, d, sizeof d), units_format_value(
		    UNITS_LAT_US, fl->dsync_write_us, e, sizeof e));
		report_text_kv(rt, "a flush costs", line);
	} else if (isfinite(fl->flush_us)) {
		snprintf(line, sizeof line, "%s: an O_DIRECT write takes %s, "
		    "with O_DSYNC %s%s", units_format_value(UNITS_LAT_US,
		    fl->flush_us, a, sizeof a), units_format_value(
		    UNITS_LAT_US, fl->write_us, b, sizeof b),
		    units_format_value(UNITS_LAT_US, fl->dsync_write_us, c,
		    sizeof c), fl->queued == 0 ? " (one at a time, paced, "
		    "too)" : "");
		report_text_kv(rt, "a flush costs", line);
	} else
		report_text_kv(rt, "a flush costs", cuts & 1U << PLAN_CUT_FLUSH ?
		    "not measured (quick preset)" : "not measured (needs "
		    "O_DIRECT)");
	if (isfinite(fl->fdatasync_us) || isfinite(fl->empty_fdatasync_us)) {
		snprintf(line, sizeof line, "%s after one write, %s with "
		    "nothing written", report_text_cell(UNITS_LAT_US,
		    fl->fdatasync_us, a, sizeof a), report_text_cell(
		    UNITS_LAT_US, fl->empty_fdatasync_us, b, sizeof b));
		report_text_kv(rt, "fdatasync", line);
	}
}

/* The Commits section. */
void
report_sync_text(const struct report_text *rt, const struct report *r)
{
	const struct sync_result	*s = r->sync;
	const struct commit_point	*best;
	char				 line[320];

	if (s == NULL)
		return;
	report_text_heading(rt, "Commits (sequential writes made durable, one "
	    "writer)");
	/* Commits come last: whether a bucket was seen dry before them. */
	if (report_sync_mixed(s)) {
		report_sync_drop(s, line, sizeof line);
		report_text_kv(rt, "bucket state", line);
		if (rt->md)
			fputc('\n', rt->f);
	} else if (*report_state_note(s->state) != '\0' ||
	    s->state == BUCKET_MAY_BE_FULL) {
		report_text_kv(rt, "bucket state", s->state ==
		    BUCKET_MAY_BE_FULL ? "may be full: none was seen to run "
		    "dry before these commits" : report_state_note(s->state));
		if (rt->md)
			fputc('\n', rt->f);
	}
	if (s->nrows == 0) {
		report_text_sentence(rt, "None measured.");
		if (s->note[0] != '\0')
			report_text_kv(rt, "note", s->note);
		return;
	}
	report_sync_methods(rt, s);
	if (rt->md)
		fputc('\n', rt->f);
	report_sync_flush(rt, s, r->config.cuts);
	if (s->note[0] != '\0')
		report_text_kv(rt, "note", s->note);
	if ((best = report_sync_best(s)) != NULL)
		report_sync_writers(rt, s, best);
}

/* Bytes the sequential run wrote, from its timeline. */
static double
report_writes_bytes(const struct writes_result *w)
{
	double	sum = 0;
	size_t	i;

	for (i = 0; i < w->timeline.n; i++)
		sum += w->timeline.v[i].bytes_per_s * (w->timeline.v[i].t_s -
		    (i > 0 ? w->timeline.v[i - 1].t_s : 0));
	return (sum);
}

/* Whether the sequential writes ran too short to rule out a buffer. */
static int
report_writes_short(const struct report *r)
{
	return (r->writes->seq_early ||
	    (r->config.cuts & 1U << PLAN_CUT_SEQ_WRITES));
}

/* The Writes section. */
void
report_writes_text(const struct report_text *rt, const struct report *r)
{
	const struct writes_result	*w = r->writes;
	const struct wbuffer		*b;
	const struct limits_result	*l;
	const char			*note;
	char				 line[256], a[UNITS_BUFSZ];
	char				 c[UNITS_BUFSZ], d[UNITS_BUFSZ];
	char				 e[UNITS_BUFSZ], f[UNITS_BUFSZ];
	char				 iv[UNITS_INTERVAL_BUFSZ];

	if (w == NULL)
		return;
	b = &w->buffer;
	l = w->limits;
	snprintf(line, sizeof line, "Writes (sequential %s at iodepth %u; "
	    "random 4 KiB)", units_format_size(w->seq_bs, a, sizeof a),
	    w->seq_iodepth);
	report_text_heading(rt, line);
	if (*report_state_note(w->state) != '\0')
		report_text_kv(rt, "bucket state", report_state_note(
		    w->state));
	if (b->detected) {
		snprintf(line, sizeof line, "%s (95%%: %s), taken at "
		    "%s%s, then %s", units_format_size((uint64_t)b->bytes, a,
		    sizeof a), report_sync_interval(UNITS_BYTES, b->low_bytes,
		    b->high_bytes, iv, sizeof iv), b->fast_at_least ?
		    "at least " : "",
		    units_format_value(UNITS_RATE,
		    b->fast_bytes_per_s, e, sizeof e), units_format_value(
		    UNITS_RATE, b->slow_bytes_per_s, f, sizeof f));
		report_text_kv(rt, "write buffer", line);
		if (isfinite(b->drain_s))
			snprintf(line, sizeof line, "%s%s (%s drained in a "
			    "pause of %s)", b->drain_at_most ? "at most " : "",
			    units_format_value(UNITS_SECONDS, b->drain_s, a,
			    sizeof a), report_text_cell(UNITS_BYTES,
			    b->refilled_bytes, c, sizeof c),
			    units_format_value(UNITS_SECONDS, b->idle_s, d,
			    sizeof d));
		else
			snprintf(line, sizeof line, "not measured");
		report_text_kv(rt, "drained when idle", line);
	} else if (w->timeline.n > 0 && report_writes_short(r)) {
		snprintf(line, sizeof line, "none seen in %s (%s written), "
		    "%s (95%%: %s)", units_format_value(UNITS_SECONDS,
		    w->timeline.v[w->timeline.n - 1].t_s, a, sizeof a),
		    units_format_size((uint64_t)report_writes_bytes(w), c,
		    sizeof c), units_format_value(UNITS_RATE,
		    b->slow_bytes_per_s, d, sizeof d), report_sync_interval(
		    UNITS_RATE, w->seq_low_bytes_per_s,
		    w->seq_high_bytes_per_s, iv, sizeof iv));
		report_text_kv(rt, "write buffer", line);
	} else if (w->timeline.n > 0) {
		snprintf(line, sizeof line, "none: %s held over %s",
		    units_format_value(UNITS_RATE, b->slow_bytes_per_s, a,
		    sizeof a), units_format_value(UNITS_SECONDS,
		    w->timeline.v[w->timeline.n - 1].t_s, c, sizeof c));
		report_text_kv(rt, "write buffer", line);
	}
	if (l != NULL) {
		/* In another state than the section's, it says which. */
		note = l->iops_state != w->state ? report_state_note(
		    l->iops_state) : "";
		snprintf(line, sizeof line, "%s IOPS, %s%s%s%s",
		    report_text_cell(UNITS_IOPS, l->iops_ceiling, a, sizeof a),
		    report_text_cell(UNITS_RATE,
		    l->bandwidth_ceiling_bytes_per_s, c, sizeof c),
		    *note != '\0' ? " (" : "", note, *note != '\0' ? ")" : "");
		report_text_kv(rt, "write ceilings", line);
	}
	if (w->mixed.ios > 0) {
		snprintf(line, sizeof line, "%s IOPS at iodepth %u, p50 %s, "
		    "p99 %s", units_format_value(UNITS_IOPS, w->mixed.iops, a,
		    sizeof a), w->mixed.iodepth, units_format_value(
		    UNITS_LAT_US, w->mixed.lat_us.p50, c, sizeof c),
		    units_format_value(UNITS_LAT_US, w->mixed.lat_us.p99, d,
		    sizeof d));
		report_text_kv(rt, "70% reads", line);
	}
	if (w->note[0] != '\0')
		report_text_kv(rt, "note", w->note);
}

/* The one sentence on the flush evidence. */
static void
report_sync_evidence(const struct report_text *rt, const struct sync_result *s)
{
	const struct writepath_flush	*fl = &s->flush;
	char				 t[640], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	double				 w = writepath_flush_write_us(fl);

	if (fl->suspect == 1) {
		snprintf(t, sizeof t, "The device says its write cache is "
		    "volatile (write back), yet a flush adds only %s to a "
		    "write of %s%s: either the cache is protected against "
		    "power loss, or flushes do not reach stable storage and "
		    "transactions committed before a power failure can be "
		    "lost. Timing cannot tell which.", units_format_value(
		    UNITS_LAT_US, fl->flush_us, a, sizeof a),
		    units_format_value(UNITS_LAT_US, w, b, sizeof b),
		    fl->queued == 1 ? " (one at a time, below the rate cap "
		    "that writes back to back wait for)" : "");
		report_text_sentence(rt, t);
	} else if (fl->suspect == 0) {
		snprintf(t, sizeof t, "A flush costs %s, %.1f times a plain "
		    "write%s: flushes do work on this device (whether the data "
		    "survives a power failure cannot be seen from timing).",
		    units_format_value(UNITS_LAT_US, fl->flush_us, a,
		    sizeof a), fl->flush_us / w, fl->queued == 1 ? " (both "
		    "one at a time: back to back, writes wait for a rate cap, "
		    "which hides a flush or swells it)" : "");
		report_text_sentence(rt, t);
	} else if (strcmp(s->write_cache, "write through") == 0)
		report_text_sentence(rt, "The device says it has no volatile "
		    "write cache (write through), so Linux sends it no "
		    "flushes: a durable write costs what a write costs, and "
		    "timing says nothing more.");
	else if (isfinite(fl->flush_us) && fl->queued < 0 &&
	    strcmp(s->write_cache, "write back") == 0) {
		snprintf(t, sizeof t, "The device says its write cache is "
		    "volatile (write back); back to back, a flush added only "
		    "%s to a write of %s, but a rate cap the writes waited "
		    "for can hide a flush, and no paced writes were measured "
		    "to rule that out: what a flush costs is unknown.",
		    units_format_value(UNITS_LAT_US, fl->flush_us, a,
		    sizeof a), units_format_value(UNITS_LAT_US, fl->write_us,
		    b, sizeof b));
		report_text_sentence(rt, t);
	}
}

/* The write buffer in a sentence; returns whether one was written. */
static int
report_writes_meaning(const struct report_text *rt, const struct report *r)
{
	const struct wbuffer	*b;
	char			 t[512], a[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char			 d[UNITS_BUFSZ], e[UNITS_BUFSZ], f[UNITS_BUFSZ];
	char			 iv[UNITS_INTERVAL_BUFSZ];

	if (r->writes == NULL || r->writes->timeline.n == 0)
		return (0);
	b = &r->writes->buffer;
	if (!b->detected && report_writes_short(r)) {
		snprintf(t, sizeof t, "Sequential writes ran at %s (95%%: %s) "
		    "for %s; a write buffer larger than the %s they wrote "
		    "could go unseen.", units_format_value(UNITS_RATE,
		    b->slow_bytes_per_s, a, sizeof a), report_sync_interval(
		    UNITS_RATE, r->writes->seq_low_bytes_per_s,
		    r->writes->seq_high_bytes_per_s, iv, sizeof iv),
		    units_format_value(UNITS_SECONDS, r->writes->timeline.v[
		    r->writes->timeline.n - 1].t_s, e, sizeof e),
		    units_format_size((uint64_t)report_writes_bytes(r->writes),
		    f, sizeof f));
		report_text_sentence(rt, t);
		return (1);
	}
	if (!b->detected) {
		snprintf(t, sizeof t, "Sustained writes held %s: no write "
		    "buffer showed.", units_format_value(UNITS_RATE,
		    b->slow_bytes_per_s, a, sizeof a));
		report_text_sentence(rt, t);
		return (1);
	}
	snprintf(t, sizeof t, "Writes go into a buffer of about %s at %s%s; "
	    "once it is full they run at %s%s%s. Benchmarks and bulk loads "
	    "shorter than that overstate the write rate.", units_format_size(
	    (uint64_t)b->bytes, a, sizeof a), b->fast_at_least ? "at least " :
	    "", units_format_value(UNITS_RATE,
	    b->fast_bytes_per_s, c, sizeof c), units_format_value(UNITS_RATE,
	    b->slow_bytes_per_s, d, sizeof d), isfinite(b->drain_s) ?
	    ", and idle it empties in " : "", isfinite(b->drain_s) ?
	    units_format_value(UNITS_SECONDS, b->drain_s, e, sizeof e) : "");
	report_text_sentence(rt, t);
	return (1);
}

/*
 * End sentence t (without its full stop) with the bucket state s it was
 * measured in, among commits where a bucket ran dry.
 */
static void
report_sync_when(char *t, size_t len, int s)
{
	size_t	n = strlen(t);

	if (n > 0 && t[n - 1] == '.')
		snprintf(t + n - 1, len - n + 1, ", %s the bucket ran dry.",
		    s == BUCKET_EMPTY ? "after" : s == BUCKET_DRAINING ?
		    "while" : "before");
}

/* The other methods at best's size and one writer as fast as it, or "". */
static void
report_sync_tied(const struct sync_result *s, const struct commit_point *best,
    char *buf, size_t len)
{
	const struct commit_point	*c;
	size_t				 i, n = 0, at = 0;

	buf[0] = '\0';
	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c == best || c->writers != 1 || c->bs != best->bs ||
		    c->pt.ios == 0 || c->pt.state != best->pt.state ||
		    !writepath_tied(c, best))
			continue;
		at += snprintf(buf + at, len - at, "%s%s", n++ > 0 ? ", " : "",
		    sync_method_name(c->method));
		if (at >= len)
			break;
	}
}

/*
 * What the state the commits ran in means: baseline figures after a
 * drop; while a bucket may be full, that they may not last.
 */
static void
report_sync_state(const struct report_text *rt, const struct report *r)
{
	const struct sync_result	*s = r->sync;
	char				 t[512];

	switch (report_sync_mixed(s) ? BUCKET_UNKNOWN : s->state) {
	case BUCKET_UNKNOWN:
		report_text_sentence(rt, "A burst bucket ran dry among these "
		    "commits: the rows measured after it (marked empty) are "
		    "what the volume keeps up; those before it (full) do not "
		    "last.");
		break;
	case BUCKET_EMPTY:
		report_text_sentence(rt, "These commits ran after a burst "
		    "bucket ran dry: they are what the volume keeps up.");
		break;
	case BUCKET_MAY_BE_FULL:
		snprintf(t, sizeof t, "These commits ran while a burst bucket "
		    "may have been full (%s): once one runs dry, every "
		    "commit's write waits for its baseline, so all writers "
		    "together commit at most about as many times a second as "
		    "the baseline allows I/Os.", r->limits != NULL ? "the run saw "
		    "none run dry before them" : "a sync alone cannot see one "
		    "run dry");
		report_text_sentence(rt, t);
		break;
	}
}

/*
 * What more writers did in bucket state st, against one writer of that
 * state (best's method and size).
 */
static void
report_sync_group(const struct report_text *rt, const struct report *r,
    const struct commit_point *best, int st)
{
	const struct sync_result	*s = r->sync;
	const struct commit_point	*c, *one, *top = NULL;
	char				 t[512], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char				 when[64];
	double				 cap;
	size_t				 i;

	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->method != best->method || c->bs != best->bs ||
		    c->writers == 1 || c->pt.state != st)
			continue;
		if (top == NULL || c->pt.iops > top->pt.iops)
			top = c;
	}
	if (top == NULL)
		return;
	one = report_sync_one(s, top);
	when[0] = '\0';
	if (report_sync_mixed(s))
		snprintf(when, sizeof when, " %s the bucket ran dry",
		    st == BUCKET_EMPTY ? "after" : "before");
	/* Only a limit of the commits' own state explains them. */
	cap = report_iops_cap_in(r, st);
	if (!isfinite(cap))
		cap = INFINITY;
	if (one != NULL && top->pt.iops >= SYNC_HELPS * one->pt.iops) {
		snprintf(t, sizeof t, "Group commit helps%s: %u writers%s "
		    "commit %s times a second together, %.1f times one "
		    "writer%s%s%s.", when, top->writers, top->shared ?
		    " sharing one log" : "", units_format_value(UNITS_IOPS,
		    top->pt.iops, a, sizeof a), top->pt.iops / one->pt.iops,
		    top->pt.iops >= SYNC_AT_CAP * cap ? ", as far as the IOPS "
		    "limit measured in the same state lets them (" : "",
		    top->pt.iops >= SYNC_AT_CAP * cap ? units_format_value(
		    UNITS_IOPS, cap, b, sizeof b) : "",
		    top->pt.iops >= SYNC_AT_CAP * cap ? ")" : "");
		report_text_sentence(rt, t);
	} else if (one != NULL && one->pt.iops >= SYNC_AT_CAP * cap) {
		snprintf(t, sizeof t, "More writers did not commit more%s: one "
		    "writer already reaches the IOPS limit measured in the "
		    "same state (%s%s%s).", when, units_format_value(
		    UNITS_IOPS, cap, a, sizeof a),
		    *report_state_note(st) != '\0' ? ", " : "",
		    report_state_note(st));
		report_text_sentence(rt, t);
	} else if (one != NULL && report_sync_mixed(s) &&
	    st == BUCKET_EMPTY) {
		snprintf(t, sizeof t, "More writers did not commit more%s: %u "
		    "writers together commit %s times a second, as one writer "
		    "did then: the rate the volume is left with binds them "
		    "all.", when, top->writers, units_format_value(UNITS_IOPS,
		    top->pt.iops, a, sizeof a));
		report_text_sentence(rt, t);
	} else if (one != NULL) {
		snprintf(t, sizeof t, "More writers did not commit more%s: "
		    "their flushes are served one after another.", when);
		report_text_sentence(rt, t);
	} else
		report_text_sentence(rt, "Whether more writers commit more is "
		    "unknown: no one writer was measured in their state.");
}

/* Sentences for "What it means"; returns whether any was written. */
int
report_sync_meaning(const struct report_text *rt, const struct report *r)
{
	const struct sync_result	*s = r->sync;
	const struct commit_point	*best, *c;
	char				 t[512], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char				 bs[UNITS_BUFSZ], tied[128], at[96];
	struct peers_etcd		 etcd;
	struct peers_pg			 pg;
	int				 any;

	any = report_writes_meaning(rt, r);
	if (s == NULL || (best = report_sync_best(s)) == NULL)
		return (any);
	report_sync_tied(s, best, tied, sizeof tied);
	snprintf(t, sizeof t, "The fastest way to commit here is %s%s%s%s: a "
	    "single connection commits at most %s times a second (p99 %s, %s "
	    "commits).", sync_method_name(best->method), tied[0] != '\0' ?
	    " (" : "", tied, tied[0] != '\0' ? " as fast within the noise)" :
	    "", units_format_value(UNITS_IOPS, best->pt.iops, a, sizeof a),
	    units_format_value(UNITS_LAT_US, best->pt.lat_us.p99, b,
	    sizeof b), report_sync_size(best->bs, bs, sizeof bs));
	if (report_sync_mixed(s))
		report_sync_when(t, sizeof t, best->pt.state);
	report_text_sentence(rt, t);
	if (report_sync_mixed(s)) {
		snprintf(t, sizeof t, "Once it ran dry, one writer committed "
		    "%s times a second (p99 %s, %s at %s, measured again after "
		    "the writers).", units_format_value(UNITS_IOPS,
		    s->again.pt.iops, a, sizeof a), units_format_value(
		    UNITS_LAT_US, s->again.pt.lat_us.p99, b, sizeof b),
		    sync_method_name(s->again.method), report_sync_size(
		    s->again.bs, bs, sizeof bs));
		report_text_sentence(rt, t);
	}
	/* Writers against one writer of their own state. */
	if (report_sync_mixed(s))
		report_sync_group(rt, r, best, BUCKET_FULL);
	report_sync_group(rt, r, best, report_sync_mixed(s) ? BUCKET_EMPTY :
	    best->pt.state);
	peers_etcd(s, &etcd);
	if ((c = etcd.row) != NULL) {
		at[0] = '\0';
		if (c->bs != PEERS_ETCD_BS)
			snprintf(at, sizeof at, " (of %s writes: no %u-byte "
			    "ones were measured)", report_sync_size(c->bs, bs,
			    sizeof bs), PEERS_ETCD_BS);
		snprintf(t, sizeof t, "etcd's bar (p99 of a %u-byte WAL write "
		    "with fdatasync under %s) is %s: p99 %s%s.",
		    PEERS_ETCD_BS, units_format_value(UNITS_LAT_US,
		    PEERS_ETCD_P99_US, b, sizeof b), etcd.met ? "met" :
		    "missed", units_format_value(UNITS_LAT_US,
		    c->pt.lat_us.p99, a, sizeof a), at);
		if (report_sync_mixed(s))
			report_sync_when(t, sizeof t, c->pt.state);
		report_text_sentence(rt, t);
	}
	peers_pg(s, &pg);
	if ((c = pg.row) != NULL) {
		snprintf(t, sizeof t, "PostgreSQL's fastest wal_sync_method "
		    "here is %s (tierprobe's %s): %s commits a second at %s%s%s.",
		    peers_pg_name(pg.method), sync_method_name(c->method),
		    units_format_value(UNITS_IOPS, c->pt.iops, a, sizeof a),
		    report_sync_size(c->bs, bs, sizeof bs), pg.tied_default ?
		    ", as fast within the noise as fdatasync, its default" : "",
		    pg.unsafe ? "; but the flush looks volatile: no method is "
		    "safe until it is explained" : "");
		if (report_sync_mixed(s))
			report_sync_when(t, sizeof t, c->pt.state);
		report_text_sentence(rt, t);
	}
	report_sync_evidence(rt, s);
	report_sync_state(rt, r);
	return (1);
}

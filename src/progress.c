/* SPDX-License-Identifier: ISC */
/*
 * Progress on stderr: a live line redrawn with \r on a TTY, one summary
 * line per finished point otherwise, nothing when quiet.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"
#include "point.h"
#include "units.h"

#define PROGRESS_REDRAW_S	0.1	/* at most ten redraws a second */
#define PROGRESS_FILL_BIG	(256ULL << 20)	/* fills said off a TTY */

static struct {
	FILE		*f;
	int		 tty;
	int		 quiet;
	int		 live;		/* a live line is on screen */
	char		 phase[32];
	enum progress_vary vary;
	size_t		 n;		/* points in the phase */
	size_t		 i;		/* current point, 0-based */
	size_t		 done;		/* points finished */
	double		 length_s;	/* device time of each point: a fixed
					   length, or 0 */
	uint64_t	 fill_shown;	/* bytes of a fill last shown */
	double		 t0;		/* start of everything */
	double		 phase_t0;
	double		 point_t0;
	double		 last_draw;
	uint64_t	 ws;
	uint32_t	 bs;
	unsigned	 iodepth;
	char		 label[64];	/* what the point is, when set */
	char		 unit[16];	/* of its rate: "IOPS", "commits/s" */
} progress;

static double
progress_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec + ts.tv_nsec / 1e9);
}

static char *
progress_clock(double s, char *buf, size_t len)
{
	long	t;

	if (!isfinite(s) || s < 0) {
		snprintf(buf, len, "?");
		return (buf);
	}
	t = lround(s);
	if (t >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60,
		    t % 60);
	else
		snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
	return (buf);
}

/* A size as given: "2300 B", "64 KiB". */
static char *
progress_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes % 1024 != 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		units_format_size(bytes, buf, len);
	return (buf);
}

/*
 * What the point is: its label, else what the phase varies (ws for a
 * scan, iodepth or bs for limits).
 */
static char *
progress_what(const struct point *p, char *buf, size_t len)
{
	char	b[UNITS_BUFSZ];

	if (progress.label[0] != '\0') {
		snprintf(buf, len, "%s", progress.label);
		return (buf);
	}
	switch (progress.vary) {
	case PROGRESS_WS:
		snprintf(buf, len, "ws %s", units_format_size(p->ws_bytes, b,
		    sizeof b));
		break;
	case PROGRESS_IODEPTH:
		snprintf(buf, len, "iodepth %u", p->iodepth);
		break;
	case PROGRESS_BS:
		snprintf(buf, len, "bs %s", progress_size(p->bs, b, sizeof b));
		break;
	case PROGRESS_NONE:
		snprintf(buf, len, "ws %s qd %u", units_format_size(
		    p->ws_bytes, b, sizeof b), p->iodepth);
		break;
	}
	return (buf);
}

/* Start reporting; quiet silences everything. */
void
progress_init(int quiet)
{
	FILE	*f = progress.f != NULL ? progress.f : stderr;
	int	 tty = progress.f != NULL ? progress.tty : isatty(2);

	memset(&progress, 0, sizeof progress);
	progress.f = f;
	progress.tty = tty;
	progress.quiet = quiet;
	progress.t0 = progress_now();
}

/* Write to f instead of stderr, as a TTY if tty (tests). */
void
progress_set_stream(FILE *f, int tty)
{
	progress.f = f;
	progress.tty = tty;
}

static void
progress_clear(void)
{
	if (progress.live) {
		fputs("\r\033[K", progress.f);
		progress.live = 0;
	}
}

/* A new phase of n points differing in vary. */
void
progress_phase(const char *name, size_t n, enum progress_vary vary)
{
	if (progress.f == NULL)
		progress_init(0);
	snprintf(progress.phase, sizeof progress.phase, "%s", name);
	progress.label[0] = '\0';
	snprintf(progress.unit, sizeof progress.unit, "IOPS");
	progress.vary = vary;
	progress.n = n;
	progress.i = 0;
	progress.done = 0;
	progress.length_s = 0;
	progress.phase_t0 = progress_now();
}

/* Each point of the phase lasts seconds of device time. */
void
progress_phase_length(double seconds)
{
	progress.length_s = seconds;
}

/* The phase gets n more points, for the reason why. */
void
progress_more(size_t n, const char *why)
{
	if (n > 0 && !progress.quiet && progress.f != NULL) {
		progress_clear();
		fprintf(progress.f, "%s: %zu more point%s, %s (%zu in all)\n",
		    progress.phase, n, n == 1 ? "" : "s", why, progress.n + n);
		fflush(progress.f);
	}
	progress.n += n;
}

/* The phase ends after n points, before its total; see progress.h. */
void
progress_stop_at(size_t n, const char *why)
{
	if (n < progress.n && !progress.quiet && progress.f != NULL) {
		progress_clear();
		fprintf(progress.f, "%s: %zu of %zu points, %s\n",
		    progress.phase, n, progress.n, why);
		fflush(progress.f);
	}
	if (n < progress.n)
		progress.n = n;
}

/* The phase turned out to have n points: the scan added some. */
void
progress_set_total(size_t n)
{
	if (n > progress.n)
		progress_more(n - progress.n, "where the curves bend");
	progress.n = n;
}

/* Point i of the phase is starting. */
void
progress_point_start(size_t i, const struct point *p)
{
	progress.label[0] = '\0';
	snprintf(progress.unit, sizeof progress.unit, "IOPS");
	progress.i = i;
	progress.point_t0 = progress_now();
	progress.last_draw = 0;
	if (p != NULL) {
		progress.ws = p->ws_bytes;
		progress.bs = p->bs;
		progress.iodepth = p->iodepth;
	}
}

/* What the running point is and the unit of its rate; see progress.h. */
void
progress_point_label(const char *what, const char *unit)
{
	snprintf(progress.label, sizeof progress.label, "%s", what);
	snprintf(progress.unit, sizeof progress.unit, "%s", unit != NULL ?
	    unit : "IOPS");
}

/* Live figures of the running point, redrawn at most ten times a second. */
void
progress_update(const struct point *p, double elapsed, void *arg)
{
	char	what[64], iops[UNITS_BUFSZ], p50[UNITS_BUFSZ], el[32];
	char	eta[32];
	double	now, per, left = NAN;

	(void)arg;
	if (progress.quiet || !progress.tty || progress.f == NULL)
		return;
	now = progress_now();
	if (now - progress.last_draw < PROGRESS_REDRAW_S)
		return;
	progress.last_draw = now;
	if (progress.length_s > 0 && elapsed > 0) {
		/* Fixed length: what is left of it, at this point's pace. */
		per = (now - progress.point_t0) / elapsed * progress.length_s;
		left = per * (progress.n - progress.i) -
		    (now - progress.point_t0);
		if (left < 0)
			left = 0;
	} else if (progress.done > 0) {
		per = (progress.point_t0 - progress.phase_t0) / progress.done;
		left = per * (progress.n - progress.done) -
		    (now - progress.point_t0);
		if (left < 0)
			left = 0;
	}
	fprintf(progress.f, "\r\033[K%s %zu/%zu  %s  %s %s  p50 %s  "
	    "elapsed %s  ETA %s", progress.phase, progress.i + 1, progress.n,
	    progress_what(p, what, sizeof what),
	    units_format_value(UNITS_IOPS, p->iops, iops, sizeof iops),
	    progress.unit[0] != '\0' ? progress.unit : "IOPS",
	    isfinite(p->lat_us.p50) && p->lat_us.p50 > 0 ?
	    units_format_lat_us(p->lat_us.p50, p50, sizeof p50) : "?",
	    progress_clock(now - progress.t0, el, sizeof el),
	    progress_clock(left, eta, sizeof eta));
	fflush(progress.f);
	progress.live = 1;
}

/* The point finished: one summary line. */
void
progress_point_done(const struct point *p)
{
	char	what[64], iops[UNITS_BUFSZ], p50[UNITS_BUFSZ];
	char	p99[UNITS_BUFSZ], secs[UNITS_BUFSZ];

	progress.done++;
	if (progress.quiet || progress.f == NULL)
		return;
	progress_clear();
	fprintf(progress.f, "%s %zu/%zu: %s, %s %s, p50 %s, p99 %s, %s\n",
	    progress.phase, progress.i + 1, progress.n,
	    progress_what(p, what, sizeof what),
	    units_format_value(UNITS_IOPS, p->iops, iops, sizeof iops),
	    progress.unit[0] != '\0' ? progress.unit : "IOPS",
	    units_format_value(UNITS_LAT_US, p->lat_us.p50, p50,
	    sizeof p50), units_format_value(UNITS_LAT_US,
	    p->lat_us.p99, p99, sizeof p99), units_format_value(
	    UNITS_SECONDS, p->seconds, secs, sizeof secs));
	fflush(progress.f);
}

/* Bytes done of total of a fill of path: one line redrawn on a TTY. */
void
progress_fill(const char *path, uint64_t done, uint64_t total)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], rate[UNITS_BUFSZ], eta[32];
	double	now, el;
	int	big = total >= PROGRESS_FILL_BIG;

	if (progress.quiet || progress.f == NULL || total == 0)
		return;
	now = progress_now();
	if (done == 0) {
		progress.point_t0 = now;
		progress.fill_shown = 0;
	}
	if (done < total && (now - progress.last_draw < PROGRESS_REDRAW_S ||
	    (!progress.tty && (!big ||
	    done * 10 / total == progress.fill_shown * 10 / total))))
		return;
	progress_clear();
	if (done == total && !big) {
		fflush(progress.f);
		return;
	}
	progress.last_draw = now;
	progress.fill_shown = done;
	el = now - progress.point_t0;
	if (el > 0 && done > 0)
		units_format_rate(done / el, rate, sizeof rate);
	else
		snprintf(rate, sizeof rate, "? MiB/s");
	fprintf(progress.f, "filling %s: %s of %s, %s, ETA %s", path,
	    units_format_size(done, a, sizeof a),
	    units_format_size(total, b, sizeof b), rate,
	    progress_clock(done > 0 ? el * (total - done) / done : NAN, eta,
	    sizeof eta));
	if (progress.tty && done < total)
		progress.live = 1;
	else
		fputc('\n', progress.f);
	fflush(progress.f);
}

/* Clear the live line. */
void
progress_end(void)
{
	if (progress.quiet || progress.f == NULL)
		return;
	progress_clear();
	fflush(progress.f);
}

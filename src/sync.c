/* SPDX-License-Identifier: ISC */
/*
 * Commits, measured.  A commit is a sequential write appended to a log and
 * made durable before the next one starts, as a database's WAL writer
 * does: each writer keeps one commit in flight (the engine's slot), its
 * log a SYNC_SPAN region that wraps around (a WAL recycles segments).
 *
 * 1. Every method at every size with one writer, each point run until the
 *    95% CI of its mean commit latency is within the precision (the
 *    sampler, warmed up until steady).  A method the platform refuses
 *    (O_DIRECT on tmpfs, a size O_DIRECT cannot take, no io_uring) is
 *    skipped with a note.
 * 2. Unless no_evidence, the flush evidence at 4 KiB (or the logical
 *    block): a plain O_DIRECT write, an O_DIRECT|O_DSYNC write, a write
 *    then fdatasync, and an fdatasync with nothing written; and, on a
 *    device that may get flushes, the first two again one at a time, each
 *    paced below its rate back to back (a rate cap they waited for hides
 *    the flush, or counts it as one more I/O), in step 4.
 * 3. The fastest method at writers_bs with each count of writers: first
 *    each in a log of its own (files created beside a file target, parts
 *    of a device or simulated volume), then all appending to one shared
 *    log (each takes the next offset, as a shared WAL's writers do);
 *    shared_only: the shared log alone.
 * 4. The paced writes of the flush evidence, last: between them a burst
 *    bucket refills, which would change the state the writers ran in.
 *
 * System-call methods go through the psync engine (pwrite, then fdatasync
 * or fsync; a thread per writer), uring-datasync through io_uring, and a
 * simulated volume through its engine in virtual time: the same loop.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "interrupt.h"
#include "progress.h"
#include "sampler.h"
#include "sync.h"
#include "target.h"
#include "units.h"
#include "xmalloc.h"

#define SYNC_FLUSH_BS		4096
#define SYNC_MIN_TIME_S		0.5
#define SYNC_SKIPPED		2	/* sync_measure: refused, noted */
#define SYNC_PACED_TIME		2	/* x max_time: a paced point's */

/* How a point makes its writes durable. */
struct sync_how {
	const char	*name;
	int		 direct;	/* O_DIRECT */
	int		 dsync;		/* O_DSYNC */
	int		 sync;		/* ENGINE_SYNC_* after each write */
	int		 uring;		/* through io_uring */
	int		 empty;		/* a flush alone, nothing written */
};

static const struct sync_how sync_methods[SYNC_NMETHODS] = {
	[SYNC_FDATASYNC] = { "fdatasync", 0, 0, ENGINE_SYNC_DATA, 0, 0 },
	[SYNC_FSYNC] = { "fsync", 0, 0, ENGINE_SYNC_FULL, 0, 0 },
	[SYNC_DSYNC] = { "dsync", 0, 1, ENGINE_SYNC_NONE, 0, 0 },
	[SYNC_DIRECT_DSYNC] = { "direct-dsync", 1, 1, ENGINE_SYNC_NONE, 0, 0 },
	[SYNC_URING_DATASYNC] = { "uring-datasync", 0, 0, ENGINE_SYNC_DATA, 1,
	    0 },
};

/* The flush evidence's points besides the methods. */
static const struct sync_how sync_plain_write =
    { "plain O_DIRECT write", 1, 0, ENGINE_SYNC_NONE, 0, 0 };
static const struct sync_how sync_empty_fdatasync =
    { "fdatasync alone", 0, 0, ENGINE_SYNC_DATA, 0, 1 };

/* Where each writer's next commit goes. */
struct sync_cursor {
	struct target	*file[SYNC_MAX_WRITER_COUNT];	/* NULL: the target */
	uint64_t	 base[SYNC_MAX_WRITER_COUNT];	/* its log's start */
	uint64_t	 pos[SYNC_MAX_WRITER_COUNT];	/* next offset */
	uint64_t	 span;		/* bytes of a log */
	uint32_t	 len;		/* bytes of a commit (0: a flush) */
	int		 sync;		/* ENGINE_SYNC_* */
	int		 shared;	/* all append to log 0 */
};

/* A run: the target, the writers' files beside it, the result. */
struct sync_run {
	struct target		*t;
	const struct sync_spec	*spec;
	struct sync_result	*r;
	struct target		 file[SYNC_MAX_WRITER_COUNT]; /* [0]: unused */
	unsigned		 nfiles;	/* file[1 .. nfiles] open */
	uint64_t		 base;		/* first log on the target */
	uint64_t		 span;
	double			 pace[2];	/* plain and O_DSYNC writes a
						   second, back to back */
	int			 evidence;	/* in the flush evidence */
};

/* Bytes a file target needs for the commits. */
uint64_t
sync_need_bytes(void)
{
	return (4096 + SYNC_SPAN);
}

/* Name of a method, NULL past the last. */
const char *
sync_method_name(int m)
{
	if (m < 0 || m >= SYNC_NMETHODS)
		return (NULL);
	return (sync_methods[m].name);
}

/* Parse a list of method names into a mask; see sync.h. */
int
sync_methods_parse(const char *s, unsigned *mask, char **cause)
{
	char	*copy, *tok, *save;
	int	 m;

	*mask = 0;
	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (strcmp(tok, "all") == 0) {
			*mask = SYNC_ALL_METHODS;
			continue;
		}
		for (m = 0; m < SYNC_NMETHODS; m++)
			if (strcmp(tok, sync_methods[m].name) == 0)
				break;
		if (m == SYNC_NMETHODS) {
			xasprintf(cause, "unknown method '%s': use fdatasync, "
			    "fsync, dsync, direct-dsync, uring-datasync or all, "
			    "comma-separated", tok);
			free(copy);
			return (-1);
		}
		*mask |= 1U << m;
	}
	free(copy);
	if (*mask == 0) {
		xasprintf(cause, "no method given: use fdatasync, fsync, "
		    "dsync, direct-dsync, uring-datasync or all");
		return (-1);
	}
	return (0);
}

static int
sync_cmp_unsigned(const void *a, const void *b)
{
	unsigned	x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x < y ? -1 : x > y);
}

/* Parse a list of writer counts; see sync.h. */
int
sync_writers_parse(const char *s, struct sync_spec *spec, char **cause)
{
	char		*copy, *tok, *save, *why = NULL;
	uint64_t	 v;
	size_t		 i, n = 0;

	copy = xstrdup(s);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if (units_parse_uint(tok, 1, SYNC_MAX_WRITER_COUNT, &v,
		    &why) != 0) {
			xasprintf(cause, "writers '%s': %s", tok, why);
			free(why);
			free(copy);
			return (-1);
		}
		for (i = 0; i < n && spec->writers[i] != v; i++)
			;
		if (i < n)
			continue;
		if (n == SYNC_MAX_WRITERS) {
			xasprintf(cause, "at most %d writer counts",
			    SYNC_MAX_WRITERS);
			free(copy);
			return (-1);
		}
		spec->writers[n++] = (unsigned)v;
	}
	free(copy);
	if (n == 0) {
		xasprintf(cause, "no writer count given: e.g. 1,2,4,8,16");
		return (-1);
	}
	qsort(spec->writers, n, sizeof(spec->writers[0]), sync_cmp_unsigned);
	spec->nwriters = n;
	return (0);
}

/* Device time the commits may take at most; see sync.h. */
double
sync_max_seconds(const struct sync_spec *sp)
{
	double	per, n = 0;
	size_t	i;
	int	m;

	for (m = 0; m < SYNC_NMETHODS; m++)
		if (sp->methods & (1U << m))
			n += sp->nsizes;
	if (!sp->no_evidence)	/* the flush evidence, at most */
		n += 4 + 2 * SYNC_PACED_TIME;
	n++;			/* the first point again */
	for (i = 0; i < sp->nwriters; i++)
		if (sp->writers[i] != 1)
			n += sp->shared_only ? 1 : 2; /* own logs, one shared */
	per = sp->max_time_s > 0 ? sp->max_time_s : SYNC_MAX_TIME_S;
	/* Each point settles for up to a quarter of its time first. */
	return (n * per * 1.25);
}

/* Initialise a result with nothing measured. */
void
sync_result_init(struct sync_result *r)
{
	memset(r, 0, sizeof(*r));
	r->best_method = -1;
	r->fua = -1;
	writepath_flush_init(&r->flush);
}

/* Release what a result owns. */
void
sync_result_free(struct sync_result *r)
{
	size_t	i;

	if (r == NULL)
		return;
	for (i = 0; i < r->nrows; i++)
		point_free(&r->rows[i].pt);
	point_free(&r->again.pt);
	free(r->rows);
	r->rows = NULL;
	r->nrows = 0;
}

/* Append a note, "; "-separated (cut short when full). */
static void
sync_note(struct sync_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
sync_note(struct sync_result *r, const char *fmt, ...)
{
	va_list	ap;
	size_t	len = strlen(r->note);

	if (len > 0 && len + 2 < sizeof(r->note))
		len += snprintf(r->note + len, sizeof(r->note) - len, "; ");
	if (len >= sizeof(r->note))
		return;
	va_start(ap, fmt);
	vsnprintf(r->note + len, sizeof(r->note) - len, fmt, ap);
	va_end(ap);
}

/* The next commit of the writer in io->slot. */
static void
sync_next(struct engine_io *io, void *arg)
{
	struct sync_cursor	*c = arg;
	unsigned		 w = c->shared ? 0 : io->slot;

	io->write = 1;
	io->sync = c->sync;
	io->len = c->len;
	io->file = c->file[w];
	if (c->pos[w] + c->len > c->base[w] + c->span)
		c->pos[w] = c->base[w];
	io->offset = c->pos[w];
	c->pos[w] += c->len;
}

/*
 * Open the files of n writers with how's flags: the target, and beside a
 * file target (unless shared) one more file for each further writer.
 * Returns 0, SYNC_SKIPPED (noted), or -errno.
 */
static int
sync_files(struct sync_run *sr, const struct sync_how *how, unsigned n,
    int shared, const char *what)
{
	char		*path, *cause = NULL;
	unsigned	 i;
	int		 rc;

	if ((rc = target_reopen(sr->t, how->direct, how->dsync)) != 0) {
		sync_note(sr->r, "%s: %s refuses %s (%s)", what,
		    sr->t->path, how->direct ? "O_DIRECT" : "O_DSYNC",
		    strerror(-rc));
		return (rc == -EINVAL || rc == -EOPNOTSUPP ? SYNC_SKIPPED : rc);
	}
	if (shared || !sr->r->files)
		return (0);
	for (i = 1; i < n; i++) {
		if (i > sr->nfiles) {
			xasprintf(&path, "%s.w%u", sr->t->path, i);
			rc = target_open_beside(&sr->file[i], sr->t, path,
			    sync_need_bytes(), &cause);
			free(path);
			if (rc != 0) {
				sync_note(sr->r, "%s", cause);
				free(cause);
				return (rc == -ENOSPC ? -ENOSPC : SYNC_SKIPPED);
			}
			sr->nfiles = i;
		}
		if ((rc = target_reopen(&sr->file[i], how->direct,
		    how->dsync)) != 0)
			return (rc);
	}
	return (0);
}

/* The logs of n writers into c. */
static void
sync_cursor_init(struct sync_run *sr, const struct sync_how *how,
    uint32_t bs, unsigned n, int shared, struct sync_cursor *c)
{
	unsigned	i;

	memset(c, 0, sizeof(*c));
	c->span = sr->span;
	c->len = how->empty ? 0 : bs;
	c->sync = how->sync;
	c->shared = shared;
	for (i = 0; i < n; i++) {
		if (shared || i == 0)
			c->base[i] = sr->base;
		else if (sr->r->files) {
			c->file[i] = &sr->file[i];
			c->base[i] = sr->file[i].keep_bytes;
		} else
			c->base[i] = sr->base + i * sr->span;
		c->pos[i] = c->base[i];
	}
}

/* A size as given: "2300 B", "8 KiB". */
static char *
sync_size(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024 != 0)
		snprintf(buf, len, "%u B", bs);
	else
		units_format_size(bs, buf, len);
	return (buf);
}

/* Say on the progress line what the point of how at bs with n writers is. */
static void
sync_progress(const struct sync_run *sr, const struct sync_how *how,
    uint32_t bs, unsigned n, int shared)
{
	char	what[64], b[UNITS_BUFSZ];

	sync_size(bs, b, sizeof b);
	if (n > 1)
		snprintf(what, sizeof what, "%u writers, %s", n, shared ?
		    "one shared log" : sr->r->files ? "a file each" :
		    "a part each");
	else if (how->empty)
		snprintf(what, sizeof what, "%s", how->name);
	else if (sr->evidence)
		snprintf(what, sizeof what, "%s, %s", how->name, b);
	else
		snprintf(what, sizeof what, "size %s", b);
	progress_point_label(what, how->empty ? "flushes/s" : how ==
	    &sync_plain_write ? "writes/s" : "commits/s");
}

/*
 * Measure how at bs with n writers into *pt, pace_iops > 0: one at a time
 * at most that many a second.  Returns 0, 1 if interrupted, SYNC_SKIPPED
 * when the platform refused it (noted), or -errno.
 */
static int
sync_measure(struct sync_run *sr, const struct sync_how *how, uint32_t bs,
    unsigned n, int shared, double pace_iops, size_t i, struct point *pt)
{
	const struct sync_spec	*sp = sr->spec;
	struct sample_spec	 ss;
	struct sync_cursor	 c;
	struct engine		 e;
	char			 what[64];
	int			 rc;

	memset(pt, 0, sizeof(*pt));
	snprintf(what, sizeof(what), "%s at %u bytes", how->name, bs);
	if (how->direct && !how->empty && bs % sr->t->lbs != 0) {
		sync_note(sr->r, "%s: O_DIRECT needs multiples of %u bytes",
		    what, sr->t->lbs);
		return (SYNC_SKIPPED);
	}
	if ((rc = sync_files(sr, how, n, shared, what)) != 0)
		return (rc);
	rc = engine_open(&e, how->uring ? sp->uring_engine : sp->engine, sr->t,
	    n, bs, 0);
	if (rc != 0) {
		sync_note(sr->r, "%s: %s engine unavailable (%s)", what,
		    how->uring ? sp->uring_engine : sp->engine, strerror(-rc));
		return (rc == -ENOMEM ? rc : SYNC_SKIPPED);
	}
	sync_cursor_init(sr, how, bs, n, shared, &c);
	memset(&ss, 0, sizeof(ss));
	ss.ws_bytes = ss.warm_from = sr->span;
	ss.warm_random = 1;
	ss.bs = bs;
	ss.iodepth = n;
	ss.write = 1;
	ss.precision = sp->precision > 0 ? sp->precision : SYNC_PRECISION;
	ss.max_time_s = sp->max_time_s > 0 ? sp->max_time_s : SYNC_MAX_TIME_S;
	ss.min_time_s = ss.max_time_s < SYNC_MIN_TIME_S ? ss.max_time_s :
	    SYNC_MIN_TIME_S;
	/*
	 * Paced writes are few a second: twice the time for their median;
	 * sleeping between them leaves the CPU to the threads a flush needs.
	 */
	if (pace_iops > 0)
		ss.max_time_s *= SYNC_PACED_TIME;
	ss.pace_iops = pace_iops;
	ss.pace_sleep = 1;
	ss.next = sync_next;
	ss.next_arg = &c;
	pt->ws_bytes = sr->span;
	pt->bs = bs;
	pt->iodepth = n;
	pt->write = 1;
	progress_point_start(i, pt);
	sync_progress(sr, how, bs, n, shared);
	rc = sampler_measure(&e, NULL, &ss, pt, NULL, progress_update, NULL);
	progress_point_done(pt);
	engine_close(&e);
	sr->r->seconds += pt->seconds + pt->warm_seconds;
	sr->r->bytes += point_bytes(pt);
	if (rc == -EINVAL || rc == -EOPNOTSUPP) {
		sync_note(sr->r, "%s: refused (%s)", what, strerror(-rc));
		point_free(pt);
		return (SYNC_SKIPPED);
	}
	return (rc);
}

/* Keep a measured point as a row of the result. */
static void
sync_keep(struct sync_result *r, int method, uint32_t bs, unsigned n,
    int shared, struct point *pt)
{
	struct commit_point	*row;

	r->rows = xreallocarray(r->rows, r->nrows + 1, sizeof(*r->rows));
	row = &r->rows[r->nrows++];
	row->method = method;
	row->bs = bs;
	row->writers = n;
	row->shared = shared;
	row->pt = *pt;
}

/* Every method at every size, one writer.  Returns 0, 1 or -errno. */
static int
sync_methods_sweep(struct sync_run *sr)
{
	const struct sync_spec	*sp = sr->spec;
	struct point		 pt;
	size_t			 i;
	int			 m, rc;

	for (m = 0; m < SYNC_NMETHODS; m++) {
		if (!(sp->methods & (1U << m)))
			continue;
		progress_phase(sync_methods[m].name, sp->nsizes, PROGRESS_BS);
		for (i = 0; i < sp->nsizes; i++) {
			if (interrupt_requested()) {
				progress_end();
				return (1);
			}
			rc = sync_measure(sr, &sync_methods[m], sp->sizes[i],
			    1, 0, 0, i, &pt);
			if (rc == SYNC_SKIPPED)
				continue;
			if (rc < 0) {
				point_free(&pt);
				progress_end();
				return (rc);
			}
			sync_keep(sr->r, m, sp->sizes[i], 1, 0, &pt);
			if (rc != 0) {
				progress_end();
				return (rc);
			}
		}
		progress_end();
	}
	return (0);
}

/*
 * The median and rate of one point of how at bs (pace_iops > 0: paced);
 * NAN if it could not be had.  Returns 0, 1 or -errno.
 */
static int
sync_evidence_point(struct sync_run *sr, const struct sync_how *how,
    uint32_t bs, double pace_iops, size_t i, double *p50, double *iops)
{
	struct point	pt;
	int		rc;

	*p50 = *iops = NAN;
	rc = sync_measure(sr, how, bs, 1, 0, pace_iops, i, &pt);
	if (rc == SYNC_SKIPPED)
		return (0);
	if (rc >= 0 && pt.ios > 0) {
		*p50 = pt.lat_us.p50;
		*iops = pt.iops;
	}
	point_free(&pt);
	return (rc);
}

/*
 * A method's median at bs and one writer from the rows, and its rate in
 * *iops; NAN if none.
 */
static double
sync_row(const struct sync_result *r, int method, uint32_t bs, double *iops)
{
	size_t	i;

	*iops = NAN;
	for (i = 0; i < r->nrows; i++) {
		if (r->rows[i].method == method && r->rows[i].bs == bs &&
		    r->rows[i].writers == 1) {
			*iops = r->rows[i].pt.iops;
			return (r->rows[i].pt.lat_us.p50);
		}
	}
	return (NAN);
}

/*
 * The plain and the O_DSYNC write again, each paced at WRITEPATH_PACE of
 * its rate back to back (sr->pace), and the evidence judged again.  Last
 * of all: paced writes leave a burst bucket time to refill.  Returns 0, 1
 * or -errno.
 */
static int
sync_evidence_paced(struct sync_run *sr)
{
	struct writepath_flush	*fl = &sr->r->flush;
	uint32_t		 bs = sr->t->lbs > SYNC_FLUSH_BS ? sr->t->lbs :
				    SYNC_FLUSH_BS;
	double			 rate;
	int			 rc;

	if (!writepath_flush_pace(fl, sr->r->write_cache) ||
	    !(sr->pace[0] > 0) || !(sr->pace[1] > 0))
		return (0);
	progress_phase("flush, paced", 2, PROGRESS_NONE);
	sr->evidence = 1;
	rc = sync_evidence_point(sr, &sync_plain_write, bs,
	    WRITEPATH_PACE * sr->pace[0], 0, &fl->paced_write_us, &rate);
	if (rc == 0)
		rc = sync_evidence_point(sr, &sync_methods[SYNC_DIRECT_DSYNC],
		    bs, WRITEPATH_PACE * sr->pace[1], 1,
		    &fl->paced_dsync_write_us, &rate);
	sr->evidence = 0;
	progress_end();
	writepath_flush(fl, sr->r->write_cache);
	return (rc);
}

/* The flush evidence.  Returns 0, 1 or -errno. */
static int
sync_evidence(struct sync_run *sr)
{
	struct sync_result	*r = sr->r;
	struct writepath_flush	*fl = &r->flush;
	uint32_t		 bs = sr->t->lbs > SYNC_FLUSH_BS ? sr->t->lbs :
				    SYNC_FLUSH_BS;
	double			 iops[2], rate;
	size_t			 k = 0;
	int			 rc;

	writepath_flush_init(fl);
	/* The methods' rows give two points when they were measured. */
	fl->dsync_write_us = sync_row(r, SYNC_DIRECT_DSYNC, bs, &iops[1]);
	fl->fdatasync_us = sync_row(r, SYNC_FDATASYNC, bs, &rate);
	progress_phase("flush", 2 + !isfinite(fl->dsync_write_us) +
	    !isfinite(fl->fdatasync_us), PROGRESS_NONE);
	sr->evidence = 1;
	rc = sync_evidence_point(sr, &sync_plain_write, bs, 0, k++,
	    &fl->write_us, &iops[0]);
	if (rc == 0 && !isfinite(fl->dsync_write_us))
		rc = sync_evidence_point(sr, &sync_methods[SYNC_DIRECT_DSYNC],
		    bs, 0, k++, &fl->dsync_write_us, &iops[1]);
	if (rc == 0 && !isfinite(fl->fdatasync_us))
		rc = sync_evidence_point(sr, &sync_methods[SYNC_FDATASYNC], bs,
		    0, k++, &fl->fdatasync_us, &rate);
	if (rc == 0)
		rc = sync_evidence_point(sr, &sync_empty_fdatasync, bs, 0, k++,
		    &fl->empty_fdatasync_us, &rate);
	sr->evidence = 0;
	progress_end();
	sr->pace[0] = iops[0];
	sr->pace[1] = iops[1];
	writepath_flush(fl, r->write_cache);
	return (rc);
}

/* The fastest method at one writer, at writers_bs if it was measured. */
static void
sync_best(struct sync_run *sr)
{
	struct sync_result	*r = sr->r;
	long			 best;

	r->best_bs = sr->spec->writers_bs;
	if ((best = writepath_best(r->rows, r->nrows, r->best_bs)) < 0 &&
	    sr->spec->nsizes > 0) {
		r->best_bs = sr->spec->sizes[0];
		best = writepath_best(r->rows, r->nrows, r->best_bs);
	}
	r->best_method = best >= 0 ? r->rows[best].method : -1;
}

/* The fastest method with each count of writers.  Returns 0, 1, -errno. */
static int
sync_writers_sweep(struct sync_run *sr)
{
	const struct sync_spec	*sp = sr->spec;
	struct sync_result	*r = sr->r;
	const struct sync_how	*how;
	struct point		 pt;
	size_t			 i, k = 0;
	int			 m, shared, rc;

	if ((m = r->best_method) < 0)
		return (0);
	how = &sync_methods[m];
	for (i = 0; i < sp->nwriters; i++)
		if (sp->writers[i] != 1)
			k += sp->shared_only ? 1 : 2;
	progress_phase("writers", k, PROGRESS_IODEPTH);
	k = 0;
	for (i = 0; i < sp->nwriters; i++) {
		for (shared = 0; shared < 2; shared++) {
			/* One writer is both: measured with the methods. */
			if (sp->writers[i] == 1 || (sp->shared_only && !shared))
				continue;
			if (interrupt_requested()) {
				progress_end();
				return (1);
			}
			rc = sync_measure(sr, how, r->best_bs, sp->writers[i],
			    shared, 0, k++, &pt);
			if (rc == SYNC_SKIPPED)
				continue;
			if (rc < 0) {
				point_free(&pt);
				progress_end();
				return (rc);
			}
			sync_keep(r, m, r->best_bs, sp->writers[i], shared,
			    &pt);
			if (rc != 0) {
				progress_end();
				return (rc);
			}
		}
	}
	progress_end();
	return (0);
}

/*
 * The fastest method at one writer again, after the writers: a rate well
 * below its first says the volume's state changed during the commits (a
 * burst bucket ran dry; writepath_drop).  Returns 0, 1 or -errno.
 */
static int
sync_again(struct sync_run *sr)
{
	struct sync_result	*r = sr->r;
	int			 rc;

	if (r->best_method < 0 || interrupt_requested())
		return (0);
	progress_phase("again", 1, PROGRESS_NONE);
	r->again.method = r->best_method;
	r->again.bs = r->best_bs;
	r->again.writers = 1;
	rc = sync_measure(sr, &sync_methods[r->best_method], r->best_bs, 1, 0,
	    0, 0, &r->again.pt);
	progress_end();
	if (rc == SYNC_SKIPPED || rc < 0) {
		point_free(&r->again.pt);
		memset(&r->again.pt, 0, sizeof r->again.pt);
	}
	return (rc == SYNC_SKIPPED ? 0 : rc);
}

/* Measure commits on target t; see sync.h. */
int
sync_run(struct target *t, const struct sync_spec *spec,
    struct sync_result *r)
{
	struct sync_run	 sr;
	unsigned	 most;
	int		 direct = t->direct, rc;
	uint64_t	 room;

	sync_result_init(r);
	if (!t->writable)
		return (-EPERM);
	memset(&sr, 0, sizeof(sr));
	sr.t = t;
	sr.spec = spec;
	sr.r = r;
	snprintf(r->write_cache, sizeof(r->write_cache), "%s", t->write_cache);
	r->fua = t->fua;
	r->files = t->type == TARGET_FILE;

	/* The target's logs: after its header, one each unless files. */
	most = spec->nwriters > 0 ? spec->writers[spec->nwriters - 1] : 1;
	sr.base = (t->keep_bytes + 4095) / 4096 * 4096;
	room = t->size > sr.base ? t->size - sr.base : 0;
	sr.span = room / (r->files ? 1 : most) / 4096 * 4096;
	if (sr.span > SYNC_SPAN)
		sr.span = SYNC_SPAN;
	if (sr.span < 4 * 65536) {
		sync_note(r, "%s is too small for the commits' logs", t->path);
		return (-EINVAL);
	}

	rc = sync_methods_sweep(&sr);
	sync_best(&sr);
	if (rc == 0 && !spec->no_evidence)
		rc = sync_evidence(&sr);
	if (rc == 0)
		rc = sync_writers_sweep(&sr);
	if (rc == 0)
		rc = sync_again(&sr);
	if (rc == 0 && !spec->no_evidence)
		rc = sync_evidence_paced(&sr);

	for (most = 1; most <= sr.nfiles; most++)
		target_close(&sr.file[most], 1);
	target_reopen(t, direct, 0);
	if (rc == 1 || (rc == 0 && interrupt_requested())) {
		r->interrupted = 1;
		rc = 1;
	}
	return (rc);
}

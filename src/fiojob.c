/* SPDX-License-Identifier: ISC */
/*
 * An fio job file equivalent to the points of a report, so a figure can be
 * cross-checked with fio: same engine, O_DIRECT, rw, bs, iodepth and working
 * set, offsets drawn with replacement, about the same time per point.  The
 * write side too: sequential writes, the write sweeps, the 70/30 point,
 * and each commit with its method's fio options (fdatasync=1, fsync=1,
 * sync=dsync, direct=1) and a job per writer.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fiojob.h"
#include "sync.h"
#include "units.h"
#include "xmalloc.h"

/* fio separates file names with ':'; a literal one is written "\:". */
static void
fiojob_filename(FILE *f, const char *path)
{
	fputs("filename=", f);
	for (; *path != '\0'; path++) {
		if (*path == ':' || *path == '\\')
			fputc('\\', f);
		fputc(*path, f);
	}
	fputc('\n', f);
}

/*
 * Bytes at the start of a target that write jobs leave alone: a test
 * file's header block, by which tierprobe knows it made the file.
 */
#define FIOJOB_HEADER	4096

/* fio's options for the commits of each method, as sync.c makes them. */
static const struct {
	const char	*engine;
	int		 direct;
	const char	*durable;	/* what makes each write durable */
} fiojob_methods[SYNC_NMETHODS] = {
	[SYNC_FDATASYNC] = { "psync", 0, "fdatasync=1" },
	[SYNC_FSYNC] = { "psync", 0, "fsync=1" },
	[SYNC_DSYNC] = { "psync", 0, "sync=dsync" },
	[SYNC_DIRECT_DSYNC] = { "psync", 1, "sync=dsync" },
	[SYNC_URING_DATASYNC] = { "io_uring", 0, "fdatasync=1" },
};

/* The jobs' region: offset, and size up to end (at least one block). */
static void
fiojob_region(FILE *f, uint64_t offset, uint64_t end)
{
	fprintf(f, "offset=%llu\nsize=%llu\n", (unsigned long long)offset,
	    (unsigned long long)(end > offset + 4096 ? end - offset : 4096));
}

/* fio's engine for one of tierprobe's: psync, else io_uring (sim too). */
static const char *
fiojob_engine(const char *name)
{
	return (strcmp(name, "psync") == 0 ? "psync" : "io_uring");
}

/*
 * The job of point p, read by engine (fio's name) under [global]'s
 * ioengine.  tierprobe's psync keeps a queue with a thread per I/O in
 * flight: in fio, as many psync jobs reported as one.
 */
static void
fiojob_point(FILE *f, const char *kind, size_t i, const struct point *p,
    int write, const char *engine, const char *global)
{
	char	ws[UNITS_BUFSZ], bs[UNITS_BUFSZ], *s;
	double	secs;

	units_format_size(p->ws_bytes, ws, sizeof ws);
	units_format_size(p->bs, bs, sizeof bs);
	for (s = ws; *s != '\0'; s++) {
		if (*s == ' ')
			*s = '-';
	}
	for (s = bs; *s != '\0'; s++) {
		if (*s == ' ')
			*s = '-';
	}
	secs = isfinite(p->seconds) ? ceil(p->seconds) : 0;
	if (secs < 1)
		secs = 1;
	fprintf(f, "\n[%s-%02zu-ws-%s-bs-%s-qd-%u]\n", kind, i + 1, ws, bs,
	    p->iodepth);
	fprintf(f, "; tierprobe measured %.0f IOPS, p50 %.1f us, p99 %.1f us\n",
	    isfinite(p->iops) ? p->iops : 0, isfinite(p->lat_us.p50) ?
	    p->lat_us.p50 : 0, isfinite(p->lat_us.p99) ? p->lat_us.p99 : 0);
	write = p->write == 1 || write;
	fprintf(f, "rw=%s\n", p->write == POINT_MIXED ? "randrw" : write ?
	    "randwrite" : "randread");
	if (p->write == POINT_MIXED)
		fprintf(f, "rwmixread=%.0f\n", 100 * WRITES_READ_FRACTION);
	fprintf(f, "bs=%u\n", p->bs ? p->bs : 4096);
	if (strcmp(engine, global) != 0)
		fprintf(f, "ioengine=%s\n", engine);
	if (strcmp(engine, "psync") == 0 && p->iodepth > 1)
		fprintf(f, "iodepth=1\nnumjobs=%u\n", p->iodepth);
	else
		fprintf(f, "iodepth=%u\n", p->iodepth ? p->iodepth : 1);
	fiojob_region(f, p->write ? FIOJOB_HEADER : 0, p->ws_bytes);
	fprintf(f, "runtime=%.0f\n", secs);
}

/* Seconds a job runs: the point's, rounded up, at least 1. */
static double
fiojob_seconds(double s)
{
	return (isfinite(s) && s >= 1 ? ceil(s) : 1);
}

/*
 * The sequential writes of a writes section: bs at its depth from past the
 * header to the working set of its other points (else the target's size).
 */
static void
fiojob_sequential(FILE *f, const char *kind, const struct report *r,
    const char *engine, const char *global)
{
	const struct writes_result	*w = r->writes;
	uint64_t			 end = r->target.size_bytes;

	if (w->mixed.ios > 0 && w->mixed.ws_bytes > 0)
		end = w->mixed.ws_bytes;
	else if (w->limits != NULL && w->limits->nqd > 0)
		end = w->limits->qd_points[0].ws_bytes;
	fprintf(f, "\n[%s-sequential-bs-%u-qd-%u]\n", kind, w->seq_bs,
	    w->seq_iodepth);
	fprintf(f, "; tierprobe measured a write buffer%s; the run after an "
	    "idle pause is not repeated here\n", w->buffer.detected ? "" :
	    ": none");
	fputs("rw=write\n", f);
	fprintf(f, "bs=%u\n", w->seq_bs);
	if (strcmp(engine, global) != 0)
		fprintf(f, "ioengine=%s\n", engine);
	if (strcmp(engine, "psync") == 0 && w->seq_iodepth > 1)
		fprintf(f, "iodepth=1\nnumjobs=%u\n", w->seq_iodepth);
	else
		fprintf(f, "iodepth=%u\n", w->seq_iodepth ? w->seq_iodepth : 1);
	fiojob_region(f, w->seq_bs > FIOJOB_HEADER ? w->seq_bs : FIOJOB_HEADER,
	    end);
	fprintf(f, "runtime=%.0f\n", fiojob_seconds(w->timeline.n > 0 ?
	    w->timeline.v[w->timeline.n - 1].t_s : 0));
}

/*
 * The jobs of a writes section: the sequential run, the write sweeps and
 * the 70/30 point, each after the last (stonewall); file is written into
 * every job when given (several targets), else [global] has it.
 */
static size_t
fiojob_writes(FILE *f, const char *kind, const struct report *r,
    const char *engine, const char *file)
{
	const struct writes_result	*w = r->writes;
	const struct limits_result	*l;
	struct point			 mixed;
	char				 name[48];
	size_t				 i, n = 0;

	if (w == NULL)
		return (0);
	if (w->timeline.n > 0 && w->seq_bs > 0) {
		if (f != NULL) {
			fiojob_sequential(f, kind, r, engine, engine);
			if (file != NULL)
				fiojob_filename(f, file);
			fputs("stonewall\n", f);
		}
		n++;
	}
	l = w->limits;
	for (i = 0; l != NULL && i < l->nqd + l->nbs; i++, n++) {
		if (f == NULL)
			continue;
		snprintf(name, sizeof name, "%s-%s", kind, i < l->nqd ?
		    "iodepth" : "bs");
		fiojob_point(f, name, i < l->nqd ? i : i - l->nqd, i < l->nqd ?
		    &l->qd_points[i] : &l->bs_points[i - l->nqd], 1, engine,
		    engine);
		if (file != NULL)
			fiojob_filename(f, file);
		fputs("stonewall\n", f);
	}
	if (w->mixed.ios > 0) {
		if (f != NULL) {
			mixed = w->mixed;
			mixed.write = POINT_MIXED;
			snprintf(name, sizeof name, "%s-70-30", kind);
			fiojob_point(f, name, 0, &mixed, 0, engine, engine);
			if (file != NULL)
				fiojob_filename(f, file);
			fputs("stonewall\n", f);
		}
		n++;
	}
	return (n);
}

/* The file of writer k of a commit job: the target's, or one beside it. */
static void
fiojob_writer_file(FILE *f, const char *file, unsigned k)
{
	char	*path;

	if (k == 0) {
		fiojob_filename(f, file);
		return;
	}
	xasprintf(&path, "%s.w%u", file, k);
	fiojob_filename(f, path);
	free(path);
	fputs("unlink=1\n", f);
}

/*
 * One commit point: its method's fio options, one job per writer (a job
 * of its own with its own file when the writers had files of their own,
 * else numjobs and, for parts of one device, offset_increment).
 */
static void
fiojob_commit(FILE *f, const char *kind, size_t i, const struct report *r,
    const struct commit_point *c, const char *file)
{
	const struct sync_result	*s = r->sync;
	uint64_t			 span = c->pt.ws_bytes;
	unsigned			 k, jobs;
	int				 m = c->method;
	int				 own = s->files && !c->shared;

	if (span == 0)
		span = SYNC_SPAN;	/* reports do not keep it */

	jobs = own ? c->writers : 1;
	for (k = 0; k < jobs; k++) {
		fprintf(f, "\n[%s-%02zu-%s-bs-%u-writers-%u%s", kind, i + 1,
		    sync_method_name(m), c->bs, c->writers, c->shared ?
		    "-shared" : "");
		if (own && c->writers > 1)
			fprintf(f, "-w%u]\n", k + 1);
		else
			fputs("]\n", f);
		if (k == 0)
			fprintf(f, "; tierprobe measured %.0f commits/s, p50 "
			    "%.1f us, p99 %.1f us\n", isfinite(c->pt.iops) ?
			    c->pt.iops : 0, isfinite(c->pt.lat_us.p50) ?
			    c->pt.lat_us.p50 : 0, isfinite(c->pt.lat_us.p99) ?
			    c->pt.lat_us.p99 : 0);
		if (k == 0 && c->shared && c->writers > 1)
			fputs("; fio cannot make writers append to one shared "
			    "log: each writes it from its start\n", f);
		fprintf(f, "rw=write\nbs=%u\nioengine=%s\ndirect=%d\n%s\n",
		    c->bs, fiojob_methods[m].engine, fiojob_methods[m].direct,
		    fiojob_methods[m].durable);
		fputs("iodepth=1\n", f);
		if (!own && c->writers > 1)
			fprintf(f, "numjobs=%u\n", c->writers);
		if (!own && !c->shared && c->writers > 1)
			fprintf(f, "offset_increment=%llu\n",
			    (unsigned long long)span);
		fiojob_region(f, FIOJOB_HEADER, FIOJOB_HEADER + span);
		fprintf(f, "runtime=%.0f\n", fiojob_seconds(c->pt.seconds));
		if (own)
			fiojob_writer_file(f, file, k);
		else if (k == 0 && r->ntargets > 0)
			fiojob_filename(f, file);
		fputs(k == 0 ? "stonewall\n" : "", f);
	}
}

/*
 * The commit jobs of a report (f NULL: only counted), on file: every
 * commit measured, in the report's order.  Returns how many.
 */
static size_t
fiojob_commits(FILE *f, const char *kind, const struct report *r,
    const char *file)
{
	const struct sync_result	*s = r->sync;
	size_t				 i, n = 0;

	for (i = 0; s != NULL && i < s->nrows; i++) {
		if (s->rows[i].pt.ios == 0 || s->rows[i].method < 0 ||
		    s->rows[i].method >= SYNC_NMETHODS)
			continue;
		if (f != NULL)
			fiojob_commit(f, kind, n, r, &s->rows[i], file);
		n++;
	}
	return (n);
}

/* The file of target i of a report of several (a placeholder for sim). */
static const char *
fiojob_target_name(const struct report *t, size_t i, char *buf, size_t len)
{
	if (t->target.path != NULL && strcmp(t->target.type, "sim") != 0)
		return (t->target.path);
	snprintf(buf, len, "tierprobe-%zu.dat", i + 1);
	return (buf);
}

static void
fiojob_target_file(FILE *f, const struct report *t, size_t i)
{
	char	name[48];

	fiojob_filename(f, fiojob_target_name(t, i, name, sizeof name));
}

/* Whether any job of r writes. */
static int
fiojob_writes_any(const struct report *r)
{
	size_t	i;

	if (r->config.write || r->writes != NULL || r->sync != NULL)
		return (1);
	for (i = 0; i < r->ntargets; i++)
		if (fiojob_writes_any(&r->targets[i]))
			return (1);
	return (0);
}

/* One job of a run together on target i, in parallel with the others. */
static void
fiojob_together(FILE *f, const char *kind, const struct report *r, size_t i,
    uint32_t bs, unsigned depth, double seconds, double iops)
{
	const struct report	*t = &r->targets[i];

	fprintf(f, "\n[together-%s-t%zu]\n", kind, i + 1);
	fprintf(f, "; tierprobe measured %.0f IOPS on this target\n",
	    isfinite(iops) ? iops : 0);
	fiojob_target_file(f, t, i);
	fprintf(f, "rw=%s\n", r->config.write ? "randwrite" : "randread");
	fprintf(f, "bs=%u\niodepth=%u\noffset=0\n", bs, depth);
	fprintf(f, "size=%llu\n", (unsigned long long)(t->limits != NULL ?
	    t->limits->ws_bytes : t->target.size_bytes));
	fprintf(f, "runtime=%.0f\n", isfinite(seconds) && seconds >= 1 ?
	    ceil(seconds) : 1);
	if (i == 0)
		fputs("stonewall\nnew_group\n", f);
}

/*
 * A report of several targets: each target's points in turn, then the
 * runs together, one job per target started at once and reported as a
 * group (group_reporting), as tierprobe drove them.
 */
static void
fiojob_several(const struct report *r, FILE *f)
{
	const struct together_result	*tg = r->together;
	const struct report		*t;
	const struct limits_result	*l;
	const char			*sweeps, *file;
	char				 kind[32], name[48];
	size_t				 i, k;
	int				 sim = 0;

	for (i = 0; i < r->ntargets; i++)
		sim |= strcmp(r->targets[i].target.type, "sim") == 0;
	fprintf(f, "; fio job file written by tierprobe %s from a %s report "
	    "of %zu targets\n", r->tool_version, r->config.command[0] ?
	    r->config.command : "run", r->ntargets);
	fputs("; Each target's points one after another (stonewall), then "
	    "the runs together:\n; one job per target, started at once, "
	    "summed per run (group_reporting).\n"
	    "; Offsets are drawn with replacement (norandommap).\n", f);
	if (sim)
		fputs("; The report is of simulated volumes: point each "
		    "filename at a real one.\n; Their sizes are the "
		    "simulation's, so they are commented out: fio sizes\n; "
		    "each job to the file named, never beyond it.\n", f);
	if (fiojob_writes_any(r))
		fputs("; WARNING: some jobs write: they destroy data on the "
		    "targets (past their first 4 KiB).\n", f);
	sweeps = fiojob_engine(r->config.engine);
	fprintf(f, "\n[global]\nioengine=%s\n", sweeps);
	fprintf(f, "direct=%d\n", r->config.direct ? 1 : 0);
	fputs("randrepeat=0\nnorandommap=1\ntime_based=1\n"
	    "group_reporting=1\n", f);
	for (i = 0; i < r->ntargets; i++) {
		t = &r->targets[i];
		for (k = 0; t->scan != NULL && k < t->scan->npoints; k++) {
			snprintf(kind, sizeof kind, "t%zu-scan", i + 1);
			fiojob_point(f, kind, k, &t->scan->points[k],
			    r->config.write, fiojob_engine(t->target.engine),
			    sweeps);
			fiojob_target_file(f, t, i);
			fputs("stonewall\n", f);
		}
		l = t->limits;
		for (k = 0; l != NULL && k < l->nqd + l->nbs; k++) {
			snprintf(kind, sizeof kind, "t%zu-%s", i + 1,
			    k < l->nqd ? "iodepth" : "bs");
			fiojob_point(f, kind, k < l->nqd ? k : k - l->nqd,
			    k < l->nqd ? &l->qd_points[k] :
			    &l->bs_points[k - l->nqd], r->config.write, sweeps,
			    sweeps);
			fiojob_target_file(f, t, i);
			fputs("stonewall\n", f);
		}
		file = fiojob_target_name(t, i, name, sizeof name);
		snprintf(kind, sizeof kind, "t%zu-writes", i + 1);
		fiojob_writes(f, kind, t, sweeps, file);
		snprintf(kind, sizeof kind, "t%zu-commit", i + 1);
		fiojob_commits(f, kind, t, file);
	}
	if (tg == NULL)
		return;
	for (i = 0; i < r->ntargets && i < tg->ntargets; i++)
		fiojob_together(f, "bw", r, i, tg->bandwidth_bs,
		    tg->bandwidth_iodepth, tg->bandwidth_seconds,
		    tg->per_target[i].bandwidth_bytes_per_s /
		    tg->bandwidth_bs);
	for (i = 0; i < r->ntargets && i < tg->ntargets; i++)
		fiojob_together(f, "iops", r, i, tg->bs, tg->iodepth,
		    tg->seconds, tg->per_target[i].iops);
}

/* Jobs the file of r would hold; see fiojob.h. */
size_t
fiojob_count(const struct report *r)
{
	const struct limits_result	*l = r->limits;
	size_t				 i, n = 0;

	if (r->scan != NULL)
		n += r->scan->npoints;
	if (l != NULL)
		n += l->nqd + l->nbs;
	n += fiojob_writes(NULL, "", r, "", NULL);
	n += fiojob_commits(NULL, "", r, NULL);
	for (i = 0; i < r->ntargets; i++)
		n += fiojob_count(&r->targets[i]);
	if (r->together != NULL)
		n += 2 * r->together->ntargets;
	return (n);
}

/* Whether r (or a target of it) is of a simulated volume. */
static int
fiojob_simulated(const struct report *r)
{
	size_t	i;

	if (r->ntargets == 0)
		return (r->target.path == NULL ||
		    strcmp(r->target.type, "sim") == 0);
	for (i = 0; i < r->ntargets; i++)
		if (strcmp(r->targets[i].target.type, "sim") == 0)
			return (1);
	return (0);
}

static void	fiojob_dump_jobs(const struct report *, FILE *);

/*
 * The job file to a stream: one job per measured point, run in turn.  Of
 * a simulated volume, whose sizes are the simulation's (100 GiB for a
 * sim:gp2:100G) and whose filename is a placeholder, each size= is
 * written commented out: fio then sizes a job to the file it is pointed
 * at, never beyond it.
 */
void
fiojob_dump(const struct report *r, FILE *f)
{
	char	*buf = NULL, *line, *next;
	size_t	 len = 0;
	FILE	*m;

	if (!fiojob_simulated(r) || (m = open_memstream(&buf, &len)) ==
	    NULL) {
		fiojob_dump_jobs(r, f);
		return;
	}
	fiojob_dump_jobs(r, m);
	fclose(m);
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "size=", 5) == 0)
			fprintf(f, "; %s (the simulated volume's: fio sizes the "
			    "job to its file)\n", line);
		else
			fprintf(f, "%s\n", line);
	}
	free(buf);
}

static void
fiojob_dump_jobs(const struct report *r, FILE *f)
{
	const struct limits_result	*l = r->limits;
	const char			*path = r->target.path;
	const char			*sweeps, *scan, *file;
	size_t				 i;
	int				 sim;

	if (r->ntargets > 0) {
		fiojob_several(r, f);
		return;
	}
	sim = path == NULL || strcmp(r->target.type, "sim") == 0;
	file = sim ? "tierprobe.dat" : path;
	fprintf(f, "; fio job file written by tierprobe %s from a %s report "
	    "of %s\n", r->tool_version, r->config.command[0] ?
	    r->config.command : "run", path != NULL ? path : "?");
	fputs("; One job per measured point, run one after another "
	    "(stonewall).\n; Offsets are drawn with replacement "
	    "(norandommap), as tierprobe draws them.\n"
	    "; tierprobe warms each working set before measuring; fio does "
	    "not here,\n; so the first seconds of a job may differ.\n", f);
	if (r->sync != NULL)
		fputs("; Commits: each method's own engine, O_DIRECT and "
		    "flush; one job per writer.\n", f);
	if (sim)
		fputs("; The report is of a simulated volume: point filename "
		    "at a real one.\n; Its sizes are the simulation's, so "
		    "they are commented out: fio sizes each\n; job to the "
		    "file named, never beyond it.\n", f);
	if (fiojob_writes_any(r))
		fputs("; WARNING: some jobs write: they destroy data on the "
		    "target (past its first 4 KiB).\n", f);
	/* [global] has the sweeps' engine; the scan's may differ. */
	sweeps = fiojob_engine(r->config.engine);
	scan = fiojob_engine(r->target.engine);
	fprintf(f, "\n[global]\nioengine=%s\n", sweeps);
	fprintf(f, "direct=%d\n", r->target.direct ? 1 : 0);
	fiojob_filename(f, file);
	fputs("randrepeat=0\nnorandommap=1\ntime_based=1\n"
	    "group_reporting=1\n", f);
	for (i = 0; r->scan != NULL && i < r->scan->npoints; i++) {
		fiojob_point(f, "scan", i, &r->scan->points[i],
		    r->config.write, scan, sweeps);
		fputs("stonewall\n", f);
	}
	for (i = 0; l != NULL && i < l->nqd; i++) {
		fiojob_point(f, "iodepth", i, &l->qd_points[i],
		    r->config.write, sweeps, sweeps);
		fputs("stonewall\n", f);
	}
	for (i = 0; l != NULL && i < l->nbs; i++) {
		fiojob_point(f, "bs", i, &l->bs_points[i], r->config.write,
		    sweeps, sweeps);
		fputs("stonewall\n", f);
	}
	if (l != NULL && l->timeline.n > 0)
		fputs("\n; The sustained run (burst detection) is not "
		    "repeated here.\n", f);
	fiojob_writes(f, "writes", r, sweeps, NULL);
	fiojob_commits(f, "commit", r, file);
}

/* The job file to path; see fiojob.h. */
int
fiojob_write(const struct report *r, const char *path, char **cause)
{
	FILE	*f;
	int	 saved;

	if (fiojob_count(r) == 0) {
		xasprintf(cause, "--fio-job %s: the report holds no measured "
		    "point to export (no scan, sweep, write or commit point); "
		    "no job file written", path);
		return (1);
	}

	if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	fiojob_dump(r, f);
	if (fflush(f) != 0 || ferror(f)) {
		saved = errno;
		fclose(f);
		unlink(path);
		xasprintf(cause, "%s: %s", path, strerror(saved));
		return (-1);
	}
	if (fclose(f) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

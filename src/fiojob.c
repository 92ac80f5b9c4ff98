/* SPDX-License-Identifier: ISC */
/*
 * An fio job file equivalent to the points of a report, so a figure can be
 * cross-checked with fio: same engine, O_DIRECT, rw, bs, iodepth and working
 * set, offsets drawn with replacement, about the same time per point.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "fiojob.h"
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
	fprintf(f, "rw=%s\n", p->write || write ? "randwrite" : "randread");
	fprintf(f, "bs=%u\n", p->bs ? p->bs : 4096);
	if (strcmp(engine, global) != 0)
		fprintf(f, "ioengine=%s\n", engine);
	if (strcmp(engine, "psync") == 0 && p->iodepth > 1)
		fprintf(f, "iodepth=1\nnumjobs=%u\n", p->iodepth);
	else
		fprintf(f, "iodepth=%u\n", p->iodepth ? p->iodepth : 1);
	fprintf(f, "offset=0\n");
	fprintf(f, "size=%llu\n", (unsigned long long)p->ws_bytes);
	fprintf(f, "runtime=%.0f\n", secs);
}

/* The file of target i of a report of several (a placeholder for sim). */
static void
fiojob_target_file(FILE *f, const struct report *t, size_t i)
{
	char	name[32];

	if (t->target.path == NULL || strcmp(t->target.type, "sim") == 0) {
		snprintf(name, sizeof name, "tierprobe-%zu.dat", i + 1);
		fiojob_filename(f, name);
	} else
		fiojob_filename(f, t->target.path);
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
	const char			*sweeps;
	char				 kind[32];
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
		    "filename at a real one.\n", f);
	if (r->config.write)
		fputs("; WARNING: the jobs write: they destroy data on the "
		    "targets.\n", f);
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
		if ((l = t->limits) == NULL)
			continue;
		for (k = 0; k < l->nqd + l->nbs; k++) {
			snprintf(kind, sizeof kind, "t%zu-%s", i + 1,
			    k < l->nqd ? "iodepth" : "bs");
			fiojob_point(f, kind, k < l->nqd ? k : k - l->nqd,
			    k < l->nqd ? &l->qd_points[k] :
			    &l->bs_points[k - l->nqd], r->config.write, sweeps,
			    sweeps);
			fiojob_target_file(f, t, i);
			fputs("stonewall\n", f);
		}
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

/* The job file to a stream: one job per measured point, run in turn. */
void
fiojob_dump(const struct report *r, FILE *f)
{
	const struct limits_result	*l = r->limits;
	const char			*path = r->target.path;
	const char			*sweeps, *scan;
	size_t				 i;
	int				 sim;

	if (r->ntargets > 0) {
		fiojob_several(r, f);
		return;
	}
	sim = path == NULL || strcmp(r->target.type, "sim") == 0;
	fprintf(f, "; fio job file written by tierprobe %s from a %s report "
	    "of %s\n", r->tool_version, r->config.command[0] ?
	    r->config.command : "run", path != NULL ? path : "?");
	fputs("; One job per measured point, run one after another "
	    "(stonewall).\n; Offsets are drawn with replacement "
	    "(norandommap), as tierprobe draws them.\n"
	    "; tierprobe warms each working set before measuring; fio does "
	    "not here,\n; so the first seconds of a job may differ.\n", f);
	if (sim)
		fputs("; The report is of a simulated volume: point filename "
		    "at a real one.\n", f);
	if (r->config.write)
		fputs("; WARNING: the jobs write: they destroy data on the "
		    "target.\n", f);
	/* [global] has the sweeps' engine; the scan's may differ. */
	sweeps = fiojob_engine(r->config.engine);
	scan = fiojob_engine(r->target.engine);
	fprintf(f, "\n[global]\nioengine=%s\n", sweeps);
	fprintf(f, "direct=%d\n", r->target.direct ? 1 : 0);
	if (sim)
		fiojob_filename(f, "tierprobe.dat");
	else
		fiojob_filename(f, path);
	fputs("randrepeat=0\nnorandommap=1\ntime_based=1\n"
	    "group_reporting=1\nstonewall\n", f);
	if (r->scan != NULL) {
		for (i = 0; i < r->scan->npoints; i++)
			fiojob_point(f, "scan", i, &r->scan->points[i],
			    r->config.write, scan, sweeps);
	}
	if (l != NULL) {
		for (i = 0; i < l->nqd; i++)
			fiojob_point(f, "iodepth", i, &l->qd_points[i],
			    r->config.write, sweeps, sweeps);
		for (i = 0; i < l->nbs; i++)
			fiojob_point(f, "bs", i, &l->bs_points[i],
			    r->config.write, sweeps, sweeps);
		if (l->timeline.n > 0)
			fputs("\n; The sustained run (burst detection) is not "
			    "repeated here.\n", f);
	}
}

/* The job file to path.  Returns 0, or -1 with an allocated *cause. */
int
fiojob_write(const struct report *r, const char *path, char **cause)
{
	FILE	*f;
	int	 saved;

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

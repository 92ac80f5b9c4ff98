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

static void
fiojob_point(FILE *f, const char *kind, size_t i, const struct point *p,
    int write)
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
	fprintf(f, "iodepth=%u\n", p->iodepth ? p->iodepth : 1);
	fprintf(f, "offset=0\n");
	fprintf(f, "size=%llu\n", (unsigned long long)p->ws_bytes);
	fprintf(f, "runtime=%.0f\n", secs);
}

/* The job file to a stream: one job per measured point, run in turn. */
void
fiojob_dump(const struct report *r, FILE *f)
{
	const struct limits_result	*l = r->limits;
	const char			*path = r->target.path;
	size_t				 i;
	int				 sim;

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
	fputs("\n[global]\n", f);
	fputs("ioengine=io_uring\n", f);
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
			    r->config.write);
	}
	if (l != NULL) {
		for (i = 0; i < l->nqd; i++)
			fiojob_point(f, "iodepth", i, &l->qd_points[i],
			    r->config.write);
		for (i = 0; i < l->nbs; i++)
			fiojob_point(f, "bs", i, &l->bs_points[i],
			    r->config.write);
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

/* SPDX-License-Identifier: ISC */
/*
 * Plots of a report with gnuplot: data files and a small variables file go
 * to a private directory inside outdir, gnuplot runs there (fork and exec,
 * no shell) with the scripts of plots/, and each image is renamed into
 * outdir.  Nothing else in outdir is touched.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "report.h"
#include "units.h"
#include "xmalloc.h"

#define PLOT_GNUPLOT	"gnuplot"
#define PLOT_PACKAGE	"gnuplot-nox"
#define PLOT_MISSING	"gnuplot not found: install the Debian package " \
	PLOT_PACKAGE " (apt-get install " PLOT_PACKAGE ")"

struct report_plot {
	const struct report	*r;
	const char		*outdir;
	const char		*format;
	const char		*scripts;	/* where the .gp files are */
	char			*tmp;		/* work directory */
	char			 written[512];
	char			 skipped[512];
};

/* The directory holding the gnuplot scripts, or NULL. */
static char *
report_plot_scripts(void)
{
	const char	*env = getenv("TIERPROBE_DATADIR");
	const char	*dirs[3];
	char		 path[PATH_MAX];
	size_t		 i;

	dirs[0] = env != NULL && *env != '\0' ? env : NULL;
	dirs[1] = TP_PKGDATADIR;
	dirs[2] = TP_SRCDIR;
	for (i = 0; i < 3; i++) {
		if (dirs[i] == NULL)
			continue;
		snprintf(path, sizeof path, "%s/plots/common.gp", dirs[i]);
		if (access(path, R_OK) == 0) {
			snprintf(path, sizeof path, "%s/plots", dirs[i]);
			return (xstrdup(path));
		}
	}
	return (NULL);
}

/* Whether an executable named name is on PATH. */
static int
report_plot_on_path(const char *name)
{
	const char	*path = getenv("PATH");
	char		*copy, *dir, *save, full[PATH_MAX];
	int		 found = 0;

	if (path == NULL)
		path = "/usr/bin:/bin";
	copy = xstrdup(path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && !found;
	    dir = strtok_r(NULL, ":", &save)) {
		snprintf(full, sizeof full, "%s/%s", *dir ? dir : ".", name);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return (found);
}

/* mkdir -p. */
static int
report_plot_mkdirs(const char *dir)
{
	char	*p, *s;
	int	 rc = 0;

	p = xstrdup(dir);
	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) == -1 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = '/';
	}
	if (rc == 0 && mkdir(p, 0777) == -1 && errno != EEXIST)
		rc = -1;
	free(p);
	return (rc);
}

static FILE *
report_plot_open(struct report_plot *rp, const char *name)
{
	char	path[PATH_MAX];

	snprintf(path, sizeof path, "%s/%s", rp->tmp, name);
	return (fopen(path, "w"));
}

/* A gnuplot single-quoted string: '' for ', control characters dropped. */
static void
report_plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s != NULL && *s != '\0'; s++) {
		if (*s == '\'')
			fputs("''", f);
		else if ((unsigned char)*s >= 0x20 && *s != 0x7f)
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The variables file every script reads: output, titles, sizes. */
static FILE *
report_plot_vars(struct report_plot *rp, const char *title)
{
	FILE	*f;
	char	 t[512];

	if ((f = report_plot_open(rp, "vars.gp")) == NULL)
		return (NULL);
	fprintf(f, "fmt = '%s'\n", rp->format);
	fprintf(f, "outfile = 'out.%s'\n", rp->format);
	snprintf(t, sizeof t, "%s: %s", title, rp->r->target.path != NULL ?
	    rp->r->target.path : "?");
	fputs("plot_title = ", f);
	report_plot_quote(f, t);
	fputc('\n', f);
	snprintf(t, sizeof t, "tierprobe %s, %s%s", rp->r->tool_version,
	    rp->r->started_utc[0] ? rp->r->started_utc : "",
	    rp->r->interrupted ? " (INTERRUPTED: partial)" : "");
	fputs("plot_subtitle = ", f);
	report_plot_quote(f, t);
	fputc('\n', f);
	return (f);
}

/* Run gnuplot on vars.gp, common.gp and script in the work directory. */
static int
report_plot_run(struct report_plot *rp, const char *script, char **cause)
{
	char	 common[PATH_MAX], gp[PATH_MAX], log[PATH_MAX], line[256];
	char	 last[256];
	char	*argv[5];
	pid_t	 pid;
	int	 status, fd;
	FILE	*f;

	snprintf(common, sizeof common, "%s/common.gp", rp->scripts);
	snprintf(gp, sizeof gp, "%s/%s", rp->scripts, script);
	snprintf(log, sizeof log, "%s/gnuplot.log", rp->tmp);
	argv[0] = (char *)PLOT_GNUPLOT;
	argv[1] = (char *)"vars.gp";
	argv[2] = common;
	argv[3] = gp;
	argv[4] = NULL;
	fflush(NULL);
	if ((pid = fork()) == -1) {
		xasprintf(cause, "fork: %s", strerror(errno));
		return (-1);
	}
	if (pid == 0) {
		if (chdir(rp->tmp) == -1)
			_exit(126);
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd != -1) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) == -1) {
		if (errno != EINTR) {
			xasprintf(cause, "waitpid: %s", strerror(errno));
			return (-1);
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return (0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		xasprintf(cause, "%s", PLOT_MISSING);
		return (-1);
	}
	last[0] = '\0';
	if ((f = fopen(log, "r")) != NULL) {
		while (fgets(line, sizeof line, f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			if (line[0] != '\0')
				snprintf(last, sizeof last, "%s", line);
		}
		fclose(f);
	}
	xasprintf(cause, "gnuplot failed on %s%s%s", script,
	    last[0] ? ": " : "", last);
	return (-1);
}

/* Move the image into outdir under its final name. */
static int
report_plot_keep(struct report_plot *rp, const char *name, char **cause)
{
	char	from[PATH_MAX], to[PATH_MAX + 32];

	snprintf(from, sizeof from, "%s/out.%s", rp->tmp, rp->format);
	snprintf(to, sizeof to, "%s/%s.%s", rp->outdir, name, rp->format);
	if (rename(from, to) == -1) {
		xasprintf(cause, "%s: %s", to, strerror(errno));
		return (-1);
	}
	log_info("plot: wrote %s", to);
	snprintf(rp->written + strlen(rp->written), sizeof rp->written -
	    strlen(rp->written), "%s%s.%s", rp->written[0] ? " " : "", name,
	    rp->format);
	return (0);
}

static void
report_plot_skip(struct report_plot *rp, const char *name, const char *why)
{
	log_info("plot: skipped %s: %s", name, why);
	snprintf(rp->skipped + strlen(rp->skipped), sizeof rp->skipped -
	    strlen(rp->skipped), "%s%s", rp->skipped[0] ? " " : "", name);
}

static int
report_plot_latency(struct report_plot *rp, char **cause)
{
	const struct scan_result	*s = rp->r->scan;
	const struct tiers_result	*tr = &s->tiers;
	const struct tier		*t;
	const struct point		*p;
	FILE				*f;
	char				 b[UNITS_BUFSZ];
	double				 lo, hi, ws, m;
	size_t				 i;
	int				 model = 0;

	if ((f = report_plot_open(rp, "scan.dat")) == NULL)
		goto fail;
	fputs("# ws_bytes p50_us p99_us mean_us\n", f);
	for (i = 0; i < s->npoints; i++) {
		p = &s->points[i];
		fprintf(f, "%llu %.6g %.6g %.6g\n",
		    (unsigned long long)p->ws_bytes,
		    isfinite(p->lat_us.p50) ? p->lat_us.p50 : NAN,
		    isfinite(p->lat_us.p99) ? p->lat_us.p99 : NAN,
		    isfinite(p->lat_us.mean) ? p->lat_us.mean : NAN);
	}
	fclose(f);
	if (tr->analysed && tr->ntiers + isfinite(tr->backing_p50_us) > 0) {
		if ((f = report_plot_open(rp, "model.dat")) == NULL)
			goto fail;
		lo = (double)s->points[0].ws_bytes;
		hi = (double)s->points[s->npoints - 1].ws_bytes;
		for (i = 0; i <= 200 && hi > lo; i++) {
			ws = lo * pow(hi / lo, i / 200.0);
			if (isfinite(m = tiers_model_lat_us(tr, ws))) {
				fprintf(f, "%.6g %.6g\n", ws, m);
				model = 1;
			}
		}
		fclose(f);
	}
	if ((f = report_plot_vars(rp, "Latency vs working set")) == NULL)
		goto fail;
	fprintf(f, "has_model = %d\n", model);
	for (i = 0; tr->analysed && i < tr->ntiers; i++) {
		t = &tr->tier[i];
		if (!t->at_least && t->capacity_low_bytes &&
		    t->capacity_high_bytes > t->capacity_low_bytes)
			fprintf(f, "set object %zu rect from %llu, graph 0 to "
			    "%llu, graph 1 fc rgb '#d8e4f0' fs solid 0.6 "
			    "noborder behind\n", i + 1,
			    (unsigned long long)t->capacity_low_bytes,
			    (unsigned long long)t->capacity_high_bytes);
		fprintf(f, "set arrow %zu from %llu, graph 0 to %llu, graph 1 "
		    "nohead lc rgb '#4060a0' dt 2 lw 1.5\n", i + 1,
		    (unsigned long long)t->capacity_bytes,
		    (unsigned long long)t->capacity_bytes);
		/* Staggered heights keep close boundaries' labels apart. */
		fprintf(f, "set label %zu '%s%zu: %s%s' at %llu, graph %.2f "
		    "offset 0.5, 0 left tc rgb '#203060' noenhanced\n", i + 1,
		    "tier ", i + 1, t->at_least ? ">= " : "",
		    units_format_size(t->capacity_bytes, b, sizeof b),
		    (unsigned long long)t->capacity_bytes, 0.96 - 0.05 * i);
	}
	fclose(f);
	if (report_plot_run(rp, "latency-ws.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "latency-ws", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

/*
 * Share of each point's reads served by each tier: the histogram split at
 * the geometric means between consecutive tier latencies.
 */
static int
report_plot_hits(struct report_plot *rp, char **cause)
{
	const struct scan_result	*s = rp->r->scan;
	const struct tiers_result	*tr = &s->tiers;
	const struct point		*p;
	double				 thr[TIERS_MAX], below, prev;
	double				 share[TIERS_MAX + 1];
	size_t				 i, k, nthr;
	int				 backing;
	FILE				*f;

	backing = isfinite(tr->backing_p50_us);
	nthr = backing ? tr->ntiers : tr->ntiers - 1;
	for (k = 0; k < nthr; k++)
		thr[k] = sqrt(tr->tier[k].lat_us_p50 * (k + 1 < tr->ntiers ?
		    tr->tier[k + 1].lat_us_p50 : tr->backing_p50_us)) * 1e3;
	if ((f = report_plot_open(rp, "hits.dat")) == NULL)
		goto fail;
	fputs("# ws_bytes, per tier: measured share, model share\n", f);
	for (i = 0; i < s->npoints; i++) {
		p = &s->points[i];
		if (p->hist == NULL || p->hist->count == 0)
			continue;
		fprintf(f, "%llu", (unsigned long long)p->ws_bytes);
		prev = 0;
		for (k = 0; k <= nthr; k++) {
			below = k < nthr ? hist_fraction_below(p->hist,
			    thr[k]) : 1;
			fprintf(f, " %.6g", below - prev);
			prev = below;
		}
		tiers_model_share(tr, (double)p->ws_bytes, share);
		for (k = 0; k <= nthr; k++)
			fprintf(f, " %.6g", share[k]);
		fputc('\n', f);
	}
	fclose(f);
	if ((f = report_plot_vars(rp, "Reads served by each tier")) == NULL)
		goto fail;
	fprintf(f, "nseries = %zu\nhas_backing = %d\n", nthr + 1, backing);
	fclose(f);
	if (report_plot_run(rp, "hit-fraction.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "hit-fraction", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

static int
report_plot_points(struct report_plot *rp, const char *name,
    const struct point *v, size_t n)
{
	FILE	*f;
	size_t	 i;

	if ((f = report_plot_open(rp, name)) == NULL)
		return (-1);
	fputs("# iodepth bs_bytes iops bytes_per_s p50_us p99_us mean_us\n",
	    f);
	for (i = 0; i < n; i++)
		fprintf(f, "%u %u %.6g %.6g %.6g %.6g %.6g\n", v[i].iodepth,
		    v[i].bs, v[i].iops, v[i].bytes_per_s, v[i].lat_us.p50,
		    v[i].lat_us.p99, v[i].lat_us.mean);
	fclose(f);
	return (0);
}

static int
report_plot_iodepth(struct report_plot *rp, char **cause)
{
	const struct limits_result	*l = rp->r->limits;
	FILE				*f;
	char				 b[UNITS_BUFSZ];

	if (report_plot_points(rp, "qd.dat", l->qd_points, l->nqd) != 0)
		goto fail;
	if ((f = report_plot_vars(rp, "IOPS and latency vs iodepth")) == NULL)
		goto fail;
	fprintf(f, "knee = %u\n", l->iops_knee_iodepth);
	fprintf(f, "ceiling = %.6g\n", isfinite(l->iops_ceiling) ?
	    l->iops_ceiling : 0);
	fputs("ceiling_label = ", f);
	report_plot_quote(f, isfinite(l->iops_ceiling) ? units_format_value(
	    UNITS_IOPS, l->iops_ceiling, b, sizeof b) : "");
	fputc('\n', f);
	fclose(f);
	if (report_plot_run(rp, "iodepth.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "iodepth", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

static int
report_plot_bs(struct report_plot *rp, char **cause)
{
	const struct limits_result	*l = rp->r->limits;
	FILE				*f;
	char				 b[UNITS_BUFSZ];

	if (report_plot_points(rp, "bs.dat", l->bs_points, l->nbs) != 0)
		goto fail;
	if ((f = report_plot_vars(rp, "Bandwidth vs block size")) == NULL)
		goto fail;
	fprintf(f, "ceiling = %.6g\n", isfinite(
	    l->bandwidth_ceiling_bytes_per_s) ?
	    l->bandwidth_ceiling_bytes_per_s : 0);
	fputs("ceiling_label = ", f);
	report_plot_quote(f, isfinite(l->bandwidth_ceiling_bytes_per_s) ?
	    units_format_rate(l->bandwidth_ceiling_bytes_per_s, b, sizeof b) :
	    "");
	fputc('\n', f);
	fprintf(f, "accounting = %llu\n",
	    (unsigned long long)l->io_accounting_bytes);
	fclose(f);
	if (report_plot_run(rp, "bandwidth-bs.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "bandwidth-bs", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

static int
report_plot_timeline(struct report_plot *rp, char **cause)
{
	const struct limits_result	*l = rp->r->limits;
	const struct burst		*bu = &l->burst;
	FILE				*f;
	double				 end;
	size_t				 i;

	if ((f = report_plot_open(rp, "timeline.dat")) == NULL)
		goto fail;
	fputs("# t_s iops bytes_per_s lat_us_mean\n", f);
	for (i = 0; i < l->timeline.n; i++)
		fprintf(f, "%.6g %.6g %.6g %.6g\n", l->timeline.v[i].t_s,
		    l->timeline.v[i].iops, l->timeline.v[i].bytes_per_s,
		    l->timeline.v[i].lat_us_mean);
	fclose(f);
	end = l->timeline.v[l->timeline.n - 1].t_s;
	if ((f = report_plot_open(rp, "segments.dat")) == NULL)
		goto fail;
	if (bu->detected && isfinite(bu->burst_iops) &&
	    isfinite(bu->baseline_iops) && isfinite(bu->duration_s)) {
		fprintf(f, "0 %.6g\n%.6g %.6g\n\n", bu->burst_iops,
		    bu->duration_s, bu->burst_iops);
		fprintf(f, "%.6g %.6g\n%.6g %.6g\n", bu->duration_s,
		    bu->baseline_iops, end > bu->duration_s ? end :
		    bu->duration_s, bu->baseline_iops);
	}
	fclose(f);
	if ((f = report_plot_vars(rp, "IOPS over time")) == NULL)
		goto fail;
	fprintf(f, "burst = %d\nburst_end = %.6g\n", bu->detected &&
	    isfinite(bu->duration_s), isfinite(bu->duration_s) ?
	    bu->duration_s : 0);
	fclose(f);
	if (report_plot_run(rp, "timeline.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "timeline", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

/* A commit size in a label: "8K", "2300". */
static void
report_plot_commit_bs(uint32_t bs, char *buf, size_t len)
{
	if (bs % 1024 == 0)
		snprintf(buf, len, "%uK", bs / 1024);
	else
		snprintf(buf, len, "%u", bs);
}

/* One writer's commit latency per method; commits against writers. */
static int
report_plot_commits(struct report_plot *rp, char **cause)
{
	const struct sync_result	*s = rp->r->sync;
	const struct commit_point	*c, *one = NULL;
	FILE				*f, *own = NULL, *shared = NULL;
	char				 bs[16], title[128];
	size_t				 i;
	long				 b;
	int				 nshared = 0;

	if ((f = report_plot_open(rp, "methods.dat")) == NULL)
		goto fail;
	fputs("# label ops_per_s p50_us p99_us\n", f);
	for (i = 0; i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->writers != 1)
			continue;
		report_plot_commit_bs(c->bs, bs, sizeof bs);
		fprintf(f, "\"%s %s\" %.6g %.6g %.6g\n",
		    sync_method_name(c->method), bs, c->pt.iops,
		    c->pt.lat_us.p50, c->pt.lat_us.p99);
	}
	fclose(f);
	if ((b = writepath_best(s->rows, s->nrows, s->best_bs)) >= 0)
		one = &s->rows[b];
	if ((own = report_plot_open(rp, "own.dat")) == NULL ||
	    (shared = report_plot_open(rp, "shared.dat")) == NULL)
		goto fail;
	for (i = 0; one != NULL && i < s->nrows; i++) {
		c = &s->rows[i];
		if (c->method != one->method || c->bs != one->bs)
			continue;
		if (c->writers == 1 || !c->shared)
			fprintf(own, "%u %.6g %.6g\n", c->writers, c->pt.iops,
			    c->pt.lat_us.p99);
		if (c->writers == 1 || c->shared) {
			fprintf(shared, "%u %.6g %.6g\n", c->writers,
			    c->pt.iops, c->pt.lat_us.p99);
			nshared += c->shared;
		}
	}
	fclose(own);
	fclose(shared);
	if ((f = report_plot_vars(rp, "Commits")) == NULL)
		goto fail;
	if (one != NULL) {
		report_plot_commit_bs(one->bs, bs, sizeof bs);
		snprintf(title, sizeof title, "%s, %s per commit",
		    sync_method_name(one->method), bs);
	} else
		snprintf(title, sizeof title, "no writers measured");
	fputs("writers_title = ", f);
	report_plot_quote(f, title);
	fprintf(f, "\nhas_shared = %d\n", nshared > 0);
	fclose(f);
	if (report_plot_run(rp, "commits.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "commits", cause));
fail:
	if (own != NULL)
		fclose(own);
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

static void
report_plot_cleanup(struct report_plot *rp)
{
	static const char *const files[] = { "vars.gp", "gnuplot.log",
	    "scan.dat", "model.dat", "hits.dat", "qd.dat", "bs.dat",
	    "timeline.dat", "segments.dat", "methods.dat", "own.dat",
	    "shared.dat", "out.png", "out.svg", NULL };
	char	path[PATH_MAX];
	size_t	i;

	if (rp->tmp == NULL)
		return;
	for (i = 0; files[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", rp->tmp, files[i]);
		unlink(path);
	}
	rmdir(rp->tmp);
	free(rp->tmp);
	rp->tmp = NULL;
}

/* Whether any scan point carries a histogram and tier latencies are known. */
static int
report_plot_has_hist(const struct scan_result *s)
{
	size_t	i;

	for (i = 0; i < s->tiers.ntiers; i++) {
		if (!isfinite(s->tiers.tier[i].lat_us_p50) ||
		    s->tiers.tier[i].lat_us_p50 <= 0)
			return (0);
	}
	for (i = 0; i < s->npoints; i++) {
		if (s->points[i].hist != NULL && s->points[i].hist->count > 0)
			return (1);
	}
	return (0);
}

/* Plot a report into outdir as png or svg; log which plots were written. */
int
report_plot(const struct report *r, const char *outdir, const char *format,
    char **cause)
{
	struct report_plot		 rp;
	const struct scan_result	*s = r->scan;
	const struct limits_result	*l = r->limits;
	char				*scripts;
	int				 rc = 0;

	if (format == NULL)
		format = "png";
	if (strcmp(format, "png") != 0 && strcmp(format, "svg") != 0) {
		xasprintf(cause, "--format %s: expected png or svg", format);
		return (-1);
	}
	if (!report_plot_on_path(PLOT_GNUPLOT)) {
		xasprintf(cause, "%s", PLOT_MISSING);
		return (-1);
	}
	if ((scripts = report_plot_scripts()) == NULL) {
		xasprintf(cause, "plot scripts not found (set "
		    "TIERPROBE_DATADIR to the directory holding plots/)");
		return (-1);
	}
	if (report_plot_mkdirs(outdir) != 0) {
		xasprintf(cause, "%s: %s", outdir, strerror(errno));
		free(scripts);
		return (-1);
	}
	memset(&rp, 0, sizeof rp);
	rp.r = r;
	rp.outdir = outdir;
	rp.format = format;
	rp.scripts = scripts;
	xasprintf(&rp.tmp, "%s/.tierprobe-plot.XXXXXX", outdir);
	if (mkdtemp(rp.tmp) == NULL) {
		xasprintf(cause, "%s: %s", outdir, strerror(errno));
		free(rp.tmp);
		free(scripts);
		return (-1);
	}

	if (s == NULL || s->npoints == 0)
		report_plot_skip(&rp, "latency-ws", "no scan points");
	else
		rc = report_plot_latency(&rp, cause);
	if (rc == 0) {
		if (s == NULL || !s->tiers.analysed || s->tiers.ntiers == 0)
			report_plot_skip(&rp, "hit-fraction", "no tiers found");
		else if (!report_plot_has_hist(s))
			report_plot_skip(&rp, "hit-fraction",
			    "no latency histograms or tier latencies");
		else
			rc = report_plot_hits(&rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->nqd == 0)
			report_plot_skip(&rp, "iodepth", "no iodepth sweep");
		else
			rc = report_plot_iodepth(&rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->nbs == 0)
			report_plot_skip(&rp, "bandwidth-bs",
			    "no block-size sweep");
		else
			rc = report_plot_bs(&rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->timeline.n == 0)
			report_plot_skip(&rp, "timeline", "no sustained run");
		else
			rc = report_plot_timeline(&rp, cause);
	}
	if (rc == 0) {
		if (r->sync == NULL || r->sync->nrows == 0)
			report_plot_skip(&rp, "commits", "no commits measured");
		else
			rc = report_plot_commits(&rp, cause);
	}
	report_plot_cleanup(&rp);
	free(scripts);
	if (rc == 0 && rp.written[0] == '\0') {
		xasprintf(cause, "nothing to plot: the report has no scan, "
		    "limits or sync results");
		return (-1);
	}
	return (rc);
}

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

#include "fleet.h"
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
	char			 what[256];	/* after the title */
	char			 subtitle[256];
	const char		*outdir;
	const char		*format;
	char			*scripts;	/* the .gp files' dir */
	const char		*prefix;	/* of each image's name: "" or
						   "target1-" */
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
	snprintf(t, sizeof t, "%s: %s", title, rp->what);
	fputs("plot_title = ", f);
	report_plot_quote(f, t);
	fputc('\n', f);
	fputs("plot_subtitle = ", f);
	report_plot_quote(f, rp->subtitle);
	fputc('\n', f);
	return (f);
}

/* Run gnuplot on vars.gp, common.gp and script in the work directory. */
static int
report_plot_run(struct report_plot *rp, const char *script, char **cause)
{
	char	 common[PATH_MAX], gp[PATH_MAX], log[PATH_MAX], line[256];
	char	 first[256];
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
	first[0] = '\0';
	if ((f = fopen(log, "r")) != NULL) {
		while (first[0] == '\0' && fgets(line, sizeof line, f) != NULL) {
			line[strcspn(line, "\n")] = '\0';
			if (line[strspn(line, " \t^")] != '\0')
				snprintf(first, sizeof first, "%s",
				    line + strspn(line, " \t"));
		}
		fclose(f);
	}
	if (WIFSIGNALED(status))
		xasprintf(cause, "gnuplot was killed by signal %d (%s) on %s%s%s",
		    WTERMSIG(status), strsignal(WTERMSIG(status)), script,
		    first[0] ? ": " : "", first);
	else
		xasprintf(cause, "gnuplot failed on %s (exit %d)%s%s", script,
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1,
		    first[0] ? ": " : "", first);
	return (-1);
}

/* Move the image into outdir under its final name. */
static int
report_plot_keep(struct report_plot *rp, const char *name, char **cause)
{
	char	from[PATH_MAX], to[PATH_MAX + 32];

	snprintf(from, sizeof from, "%s/out.%s", rp->tmp, rp->format);
	snprintf(to, sizeof to, "%s/%s%s.%s", rp->outdir, rp->prefix, name,
	    rp->format);
	if (rename(from, to) == -1) {
		xasprintf(cause, "%s: %s", to, strerror(errno));
		return (-1);
	}
	log_info("plot: wrote %s", to);
	snprintf(rp->written + strlen(rp->written), sizeof rp->written -
	    strlen(rp->written), "%s%s%s.%s", rp->written[0] ? " " : "",
	    rp->prefix, name, rp->format);
	return (0);
}

static void
report_plot_skip(struct report_plot *rp, const char *name, const char *why)
{
	log_info("plot: skipped %s%s: %s", rp->prefix, name, why);
	snprintf(rp->skipped + strlen(rp->skipped), sizeof rp->skipped -
	    strlen(rp->skipped), "%s%s%s", rp->skipped[0] ? " " : "",
	    rp->prefix, name);
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

/*
 * A ceiling's variables for a script: ceiling, its 95% interval
 * (ceiling_low, ceiling_high; 0 when unknown) and a label ("at least ..."
 * for a lower bound).
 */
static void
report_plot_ceiling(FILE *f, enum units_kind unit, double c, double lo,
    double hi, int at_least)
{
	char	b[UNITS_BUFSZ], label[UNITS_BUFSZ + 16];

	fprintf(f, "ceiling = %.6g\n", isfinite(c) ? c : 0);
	fprintf(f, "ceiling_low = %.6g\n", isfinite(lo) ? lo : 0);
	fprintf(f, "ceiling_high = %.6g\n", isfinite(hi) ? hi : 0);
	label[0] = '\0';
	if (isfinite(c))
		snprintf(label, sizeof label, "%s%s", at_least ? "at least " :
		    "", units_format_value(unit, c, b, sizeof b));
	fputs("ceiling_label = ", f);
	report_plot_quote(f, label);
	fputc('\n', f);
}

static int
report_plot_iodepth(struct report_plot *rp, char **cause)
{
	const struct limits_result	*l = rp->r->limits;
	FILE				*f;

	if (report_plot_points(rp, "qd.dat", l->qd_points, l->nqd) != 0)
		goto fail;
	if ((f = report_plot_vars(rp, "IOPS and latency vs iodepth")) == NULL)
		goto fail;
	fprintf(f, "knee = %u\n", l->iops_knee_iodepth);
	report_plot_ceiling(f, UNITS_IOPS, l->iops_ceiling, l->iops_ceiling_low,
	    l->iops_ceiling_high, l->iops_ceiling_at_least);
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

	if (report_plot_points(rp, "bs.dat", l->bs_points, l->nbs) != 0)
		goto fail;
	if ((f = report_plot_vars(rp, "Bandwidth vs block size")) == NULL)
		goto fail;
	report_plot_ceiling(f, UNITS_RATE, l->bandwidth_ceiling_bytes_per_s,
	    l->bandwidth_ceiling_low, l->bandwidth_ceiling_high,
	    l->bandwidth_ceiling_at_least);
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

/* Write a timeline's t (shifted by off) and IOPS to name. */
static int
report_plot_series(struct report_plot *rp, const char *name,
    const struct timeline *tl, double off)
{
	FILE	*f;
	size_t	 i;

	if ((f = report_plot_open(rp, name)) == NULL)
		return (-1);
	fputs("# t_s iops\n", f);
	for (i = 0; i < tl->n; i++)
		fprintf(f, "%.6g %.6g\n", off + tl->v[i].t_s, tl->v[i].iops);
	return (fclose(f));
}

/*
 * IOPS over time: the sustained run, after the sweeps on their clock when
 * the report has them.  A drop is marked where the rate fell (in the run,
 * or during the sweeps); how long a full bucket lasts is a label apart,
 * since the sweeps spent credits before the run.
 */
static int
report_plot_timeline(struct report_plot *rp, char **cause)
{
	const struct limits_result	*l = rp->r->limits;
	const struct burst		*bu = &l->burst;
	FILE				*f;
	char				 t[160], b1[UNITS_BUFSZ];
	char				 b2[UNITS_BUFSZ];
	double				 off = 0, end, drop = NAN;
	int				 sweeps;

	sweeps = l->sweep_timeline.n > 0 && isfinite(l->sustain_start_s);
	if (sweeps)
		off = l->sustain_start_s;
	if (report_plot_series(rp, "timeline.dat", &l->timeline, off) != 0 ||
	    report_plot_series(rp, "sweeps.dat", &l->sweep_timeline, 0) != 0)
		goto fail;
	end = off + l->timeline.v[l->timeline.n - 1].t_s;
	if (bu->detected && isfinite(bu->drop_t_s))
		drop = off + bu->drop_t_s;
	else if (bu->detected && sweeps)
		drop = bu->drop_sweep_t_s;
	if ((f = report_plot_open(rp, "segments.dat")) == NULL)
		goto fail;
	if (isfinite(drop) && isfinite(bu->burst_iops) &&
	    isfinite(bu->baseline_iops))
		fprintf(f, "0 %.6g\n%.6g %.6g\n\n%.6g %.6g\n%.6g %.6g\n",
		    bu->burst_iops, drop, bu->burst_iops, drop,
		    bu->baseline_iops, end > drop ? end : drop,
		    bu->baseline_iops);
	fclose(f);

	if ((f = report_plot_vars(rp, "IOPS over time")) == NULL)
		goto fail;
	fprintf(f, "sweeps = %d\nburst = %d\ndrop_t = %.6g\n", sweeps,
	    isfinite(drop), isfinite(drop) ? drop : 0);
	fputs("xlabel_text = ", f);
	report_plot_quote(f, sweeps ? "time since the first I/O of the "
	    "sweeps (seconds)" : "time since the start of the sustained run "
	    "(seconds)");
	snprintf(t, sizeof t, "rate fell at %.0f s%s", drop,
	    isfinite(bu->drop_sweep_t_s) ? ", during the sweeps" : "");
	fputs("\ndrop_label = ", f);
	report_plot_quote(f, isfinite(drop) ? t : "");
	t[0] = '\0';
	if (bu->detected && isfinite(bu->duration_s))
		snprintf(t, sizeof t, "a full bucket lasts %s at %s IOPS",
		    units_format_value(UNITS_SECONDS, bu->duration_s, b1,
		    sizeof b1), units_format_value(UNITS_IOPS, bu->burst_iops,
		    b2, sizeof b2));
	fputs("\nbucket_label = ", f);
	report_plot_quote(f, t);
	fputc('\n', f);
	fclose(f);
	if (report_plot_run(rp, "timeline.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "timeline", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

/*
 * The runs together over time: the sum and each target's IOPS per
 * interval, with the burst and baseline of a bucket on the sum.
 */
static int
report_plot_together_timeline(struct report_plot *rp, char **cause)
{
	const struct together_result	*t = rp->r->together;
	const struct burst		*bu = &t->burst;
	FILE				*f;
	size_t				 i, k;
	int				 burst;

	if ((f = report_plot_open(rp, "together.dat")) == NULL)
		goto fail;
	fputs("# t_s sum_iops, then each target's iops\n", f);
	for (i = 0; i < t->timeline.n; i++) {
		fprintf(f, "%.6g %.6g", t->timeline.v[i].t_s,
		    t->timeline.v[i].iops);
		for (k = 0; k < t->ntargets; k++)
			fprintf(f, " %.6g", i < t->per_target[k].timeline.n ?
			    t->per_target[k].timeline.v[i].iops : NAN);
		fputc('\n', f);
	}
	fclose(f);
	burst = bu->detected && !bu->exhausted && isfinite(bu->burst_iops) &&
	    isfinite(bu->baseline_iops) && isfinite(bu->drop_t_s);
	if ((f = report_plot_open(rp, "segments.dat")) == NULL)
		goto fail;
	if (burst)
		fprintf(f, "0 %.6g\n%.6g %.6g\n\n%.6g %.6g\n%.6g %.6g\n",
		    bu->burst_iops, bu->drop_t_s, bu->burst_iops, bu->drop_t_s,
		    bu->baseline_iops, t->timeline.v[t->timeline.n - 1].t_s,
		    bu->baseline_iops);
	fclose(f);
	if ((f = report_plot_vars(rp, "IOPS together over time")) == NULL)
		goto fail;
	fprintf(f, "ntargets = %zu\nburst = %d\n", t->ntargets, burst);
	fprintf(f, "burst_end = %.6g\nshared = %d\n",
	    burst ? bu->drop_t_s : 0, t->burst_shared == 1);
	fclose(f);
	if (report_plot_run(rp, "together-timeline.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "together-timeline", cause));
fail:
	xasprintf(cause, "%s: %s", rp->tmp, strerror(errno));
	return (-1);
}

/* Alone against together, per target and for the sum, both resources. */
static int
report_plot_together_bars(struct report_plot *rp, char **cause)
{
	const struct together_result	*t = rp->r->together;
	const struct together_target	*p;
	FILE				*f;
	size_t				 i;

	if ((f = report_plot_open(rp, "bars.dat")) == NULL)
		goto fail;
	fputs("# label alone_iops together_iops alone_bytes_per_s "
	    "together_bytes_per_s\n", f);
	for (i = 0; i < t->ntargets; i++) {
		p = &t->per_target[i];
		fprintf(f, "%zu %.6g %.6g %.6g %.6g\n", i + 1, p->alone_iops,
		    p->iops, p->alone_bandwidth_bytes_per_s,
		    p->bandwidth_bytes_per_s);
	}
	fprintf(f, "sum %.6g %.6g %.6g %.6g\n", t->iops.sum_alone,
	    t->iops.ceiling, t->bandwidth.sum_alone, t->bandwidth.ceiling);
	fclose(f);
	if ((f = report_plot_vars(rp, "Alone and together")) == NULL)
		goto fail;
	fprintf(f, "shared_iops = %.6g\nshared_bw = %.6g\n",
	    isfinite(t->iops.shared) ? t->iops.shared : 0,
	    isfinite(t->bandwidth.shared) ? t->bandwidth.shared : 0);
	fclose(f);
	if (report_plot_run(rp, "together-bars.gp", cause) != 0)
		return (-1);
	return (report_plot_keep(rp, "together-bars", cause));
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
	double				 lo = INFINITY, hi = 0;
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
		/* The bars' range, for the tics of their log axis. */
		if (c->pt.lat_us.p50 > 0 && c->pt.lat_us.p50 < lo)
			lo = c->pt.lat_us.p50;
		if (c->pt.lat_us.p99 > hi)
			hi = c->pt.lat_us.p99;
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
	fprintf(f, "lat_lo = %.6g\nlat_hi = %.6g\n", isfinite(lo) ? lo : 0,
	    hi > 0 && isfinite(hi) ? hi : 0);
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
	    "timeline.dat", "sweeps.dat", "segments.dat", "together.dat",
	    "bars.dat", "methods.dat", "own.dat", "shared.dat", "out.png",
	    "out.svg", NULL };
	char	path[PATH_MAX];
	size_t	i;

	if (rp->tmp == NULL)
		return;
	for (i = 0; files[i] != NULL; i++) {
		snprintf(path, sizeof path, "%s/%s", rp->tmp, files[i]);
		unlink(path);
	}
	for (i = 1; i <= FLEET_FIGURES; i++) {
		snprintf(path, sizeof path, "%s/fleet%zu.dat", rp->tmp, i);
		unlink(path);
	}
	rmdir(rp->tmp);
	free(rp->tmp);
	rp->tmp = NULL;
	free(rp->scripts);
	rp->scripts = NULL;
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

/* The plots of one target's sections.  Returns 0 or -1 with *cause. */
static int
report_plot_one(struct report_plot *rp, char **cause)
{
	const struct scan_result	*s = rp->r->scan;
	const struct limits_result	*l = rp->r->limits;
	int				 rc = 0;

	if (s == NULL || s->npoints == 0)
		report_plot_skip(rp, "latency-ws", "no scan points");
	else
		rc = report_plot_latency(rp, cause);
	if (rc == 0) {
		if (s == NULL || !s->tiers.analysed || s->tiers.ntiers == 0)
			report_plot_skip(rp, "hit-fraction", "no tiers found");
		else if (!report_plot_has_hist(s))
			report_plot_skip(rp, "hit-fraction",
			    "no latency histograms or tier latencies");
		else
			rc = report_plot_hits(rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->nqd == 0)
			report_plot_skip(rp, "iodepth", "no iodepth sweep");
		else
			rc = report_plot_iodepth(rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->nbs == 0)
			report_plot_skip(rp, "bandwidth-bs",
			    "no block-size sweep");
		else
			rc = report_plot_bs(rp, cause);
	}
	if (rc == 0) {
		if (l == NULL || l->timeline.n == 0)
			report_plot_skip(rp, "timeline", "no sustained run");
		else
			rc = report_plot_timeline(rp, cause);
	}
	if (rc == 0) {
		if (rp->r->sync == NULL || rp->r->sync->nrows == 0)
			report_plot_skip(rp, "commits", "no commits measured");
		else
			rc = report_plot_commits(rp, cause);
	}
	return (rc);
}

/*
 * Check format and gnuplot, find the scripts, make outdir and a private
 * work directory in it.  Returns 0, or -1 with *cause.
 */
static int
report_plot_begin(struct report_plot *rp, const char *outdir,
    const char *format, char **cause)
{
	char	*scripts;

	memset(rp, 0, sizeof *rp);
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
	rp->outdir = outdir;
	rp->format = format;
	rp->scripts = scripts;
	rp->prefix = "";
	xasprintf(&rp->tmp, "%s/.tierprobe-plot.XXXXXX", outdir);
	if (mkdtemp(rp->tmp) == NULL) {
		xasprintf(cause, "%s: %s", outdir, strerror(errno));
		free(rp->tmp);
		free(scripts);
		rp->tmp = NULL;
		return (-1);
	}
	return (0);
}

/* Plot a report into outdir as png or svg; log which plots were written. */
int
report_plot(const struct report *r, const char *outdir, const char *format,
    char **cause)
{
	struct report_plot		 rp;
	struct report			 m;
	char				 prefix[32];
	size_t				 i;
	int				 rc = 0;

	if (report_plot_begin(&rp, outdir, format, cause) != 0)
		return (-1);
	rp.r = r;
	if (r->ntargets > 0)
		snprintf(rp.what, sizeof rp.what, "%zu targets", r->ntargets);
	else
		snprintf(rp.what, sizeof rp.what, "%s", r->target.path !=
		    NULL ? r->target.path : "?");
	snprintf(rp.subtitle, sizeof rp.subtitle, "tierprobe %s, %s%s",
	    r->tool_version, r->started_utc[0] ? r->started_utc : "",
	    r->interrupted ? " (INTERRUPTED: partial)" : "");

	if (r->ntargets == 0)
		rc = report_plot_one(&rp, cause);
	for (i = 0; i < r->ntargets && rc == 0; i++) {
		/* Each target as a report of one, its images prefixed. */
		m = r->targets[i];
		memcpy(m.tool_version, r->tool_version, sizeof m.tool_version);
		memcpy(m.started_utc, r->started_utc, sizeof m.started_utc);
		m.interrupted = r->interrupted;
		snprintf(prefix, sizeof prefix, "target%zu-", i + 1);
		rp.r = &m;
		rp.prefix = prefix;
		snprintf(rp.what, sizeof rp.what, "%s", m.target.path != NULL ?
		    m.target.path : "?");
		rc = report_plot_one(&rp, cause);
	}
	rp.r = r;
	rp.prefix = "";
	if (r->ntargets > 0)
		snprintf(rp.what, sizeof rp.what, "%zu targets", r->ntargets);
	if (rc == 0 && r->ntargets > 0 && r->together == NULL)
		report_plot_skip(&rp, "together", "the targets were not run "
		    "together");
	else if (rc == 0 && r->together != NULL) {
		if (r->together->timeline.n == 0)
			report_plot_skip(&rp, "together-timeline",
			    "no IOPS run together");
		else
			rc = report_plot_together_timeline(&rp, cause);
		if (rc == 0)
			rc = report_plot_together_bars(&rp, cause);
	}
	report_plot_cleanup(&rp);
	if (rc == 0 && rp.written[0] == '\0') {
		xasprintf(cause, "nothing to plot: the report has no scan, "
		    "limits, sync or together results");
		return (-1);
	}
	return (rc);
}

/*
 * The length of the domain all hosts of fl end with (".prod.example"), to
 * leave out of their labels; 0 when some volume has no host or it would
 * leave a host empty.
 */
static size_t
report_plot_fleet_domain(const struct fleet *fl)
{
	const char	*a, *b, *dot;
	size_t		 i, n, la, lb;

	if (fl->nvol < 2)
		return (0);
	a = fl->vol[0].host;
	n = la = strlen(a);
	for (i = 1; i < fl->nvol && n > 0; i++) {
		b = fl->vol[i].host;
		lb = strlen(b);
		if (lb == 0)
			return (0);
		while (n > 0 && (n > lb || strcmp(a + la - n, b + lb - n) != 0))
			n--;
	}
	/* Cut at a dot, and keep a name before it in every host. */
	dot = strchr(a + la - n, '.');
	if (n == 0 || dot == NULL)
		return (0);
	n = strlen(dot);
	for (i = 0; i < fl->nvol; i++) {
		if (strlen(fl->vol[i].host) <= n)
			return (0);
	}
	return (n);
}

/*
 * Volume i's bar label into buf: its host, without the domain all share,
 * alone when every volume has a host of its own, else host and target
 * (its last path part); quotes and control characters made harmless for
 * gnuplot.
 */
static void
report_plot_fleet_label(const struct fleet *fl, size_t i, char *buf,
    size_t len)
{
	const struct fleet_volume	*v = &fl->vol[i];
	const char			*base = strrchr(v->target, '/');
	char				*c;
	size_t				 j, hl;
	int				 unique = v->host[0] != '\0';

	for (j = 0; unique && j < fl->nvol; j++) {
		if (j != i && strcmp(fl->vol[j].host, v->host) == 0)
			unique = 0;
	}
	hl = strlen(v->host) - report_plot_fleet_domain(fl);
	if (unique)
		snprintf(buf, len, "%.*s", (int)hl, v->host);
	else
		snprintf(buf, len, "%.*s%s%s", (int)hl, v->host,
		    hl > 0 ? " " : "", base != NULL ? base + 1 : v->target);
	for (c = buf; *c != '\0'; c++) {
		if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20)
			*c = '\'';
	}
}

/*
 * A figure in a data file; one not known as NaN, the word gnuplot reads
 * as a missing value ("nan" as printf writes it made gnuplot 5.4 crash
 * on the fleet chart's boxes).
 */
static void
report_plot_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("NaN", f);
}

/*
 * A fleet panel's data: index, label, value, flagged, kind median; adds
 * the volumes flagged on it to *nflagged.
 */
static int
report_plot_fleet_panel(struct report_plot *rp, const struct fleet *fl,
    size_t fig, size_t panel, double scale, size_t *nflagged)
{
	const struct fleet_volume	*v;
	const struct fleet_kind		*k;
	FILE				*f;
	char				 name[32], label[160];
	double				 median;
	size_t				 i, j;

	snprintf(name, sizeof name, "fleet%zu.dat", panel);
	if ((f = report_plot_open(rp, name)) == NULL)
		return (-1);
	fputs("# index label value flagged kind_median\n", f);
	for (i = 0; i < fl->nvol; i++) {
		v = &fl->vol[i];
		median = NAN;
		for (j = 0; j < fl->nkinds; j++) {
			k = &fl->kinds[j];
			if (strcmp(k->kind, v->kind) == 0)
				median = k->median[fig];
		}
		report_plot_fleet_label(fl, i, label, sizeof label);
		fprintf(f, "%zu \"%s\" ", i, label);
		report_plot_number(f, v->value[fig] / scale);
		fprintf(f, " %d ", v->flagged[fig]);
		if (v->flagged[fig] && isfinite(v->value[fig]))
			(*nflagged)++;
		report_plot_number(f, median / scale);
		fputc('\n', f);
	}
	fclose(f);
	return (0);
}

/*
 * How far to turn the bar labels so none overlaps the next: 0 degrees
 * when they fit across; 45 when they are short and a red bar's name fits
 * above it (*across); else 90, each label upright under its bar.  *extra:
 * the height turned labels take (pixels).  A panel is ~520 pixels wide, a
 * label character ~7.
 */
static int
report_plot_fleet_rotation(const struct fleet *fl, size_t *extra,
    int *across)
{
	char	label[160];
	size_t	i, longest = 0, room;

	for (i = 0; i < fl->nvol; i++) {
		report_plot_fleet_label(fl, i, label, sizeof label);
		if (strlen(label) > longest)
			longest = strlen(label);
	}
	room = fl->nvol > 0 ? 520 / fl->nvol : 520;
	*across = longest * 7 <= 3 * room;
	*extra = 0;
	if ((longest + 1) * 7 <= room)
		return (0);
	if (longest <= 12 && *across) {
		*extra = longest * 5;
		return (45);
	}
	*across = 0;
	*extra = longest * 7;
	return (90);
}

/* Plot the fleet chart into outdir: one bar per volume per figure. */
int
report_plot_fleet(const struct fleet *fl, const char *outdir,
    const char *format, char **cause)
{
	struct report_plot	 rp;
	const struct figures_def *d;
	FILE			*f;
	double			 scale;
	const char		*unit;
	size_t			 i, j, n = 0, extra, domain, flagged;
	int			 rc = -1, rotate, across;

	if (report_plot_begin(&rp, outdir, format, cause) != 0)
		return (-1);
	snprintf(rp.what, sizeof rp.what, "%zu volume%s of %zu kind%s",
	    fl->nvol, fl->nvol == 1 ? "" : "s", fl->nkinds,
	    fl->nkinds == 1 ? "" : "s");
	snprintf(rp.subtitle, sizeof rp.subtitle, "red: more than %.0f%% "
	    "worse than the median of its kind (black)", fl->outlier * 100);
	if ((domain = report_plot_fleet_domain(fl)) > 0)
		snprintf(rp.subtitle + strlen(rp.subtitle),
		    sizeof rp.subtitle - strlen(rp.subtitle), "; hosts of %s",
		    fl->vol[0].host + strlen(fl->vol[0].host) - domain + 1);
	if ((f = report_plot_vars(&rp, "Fleet")) == NULL)
		goto fail;
	fprintf(f, "array ptitle[%zu]\narray punit[%zu]\narray pflagged[%zu]\n",
	    fl->nfig, fl->nfig, fl->nfig);
	for (i = 0; i < fl->nfig; i++) {
		d = fl->fig[i];
		for (j = 0; j < fl->nvol; j++) {
			if (isfinite(fl->vol[j].value[i]))
				break;
		}
		if (d->better == 0 || j == fl->nvol)
			continue;
		scale = d->unit == UNITS_RATE ? 1048576 : 1;
		unit = d->axis != NULL ? d->axis : d->unit == UNITS_RATE ?
		    "MiB/s" : d->unit == UNITS_LAT_US ? "microseconds" : "IOPS";
		flagged = 0;
		if (report_plot_fleet_panel(&rp, fl, i, ++n, scale,
		    &flagged) != 0) {
			fclose(f);
			goto fail;
		}
		fprintf(f, "pflagged[%zu] = %zu\nptitle[%zu] = ", n, flagged,
		    n);
		report_plot_quote(f, d->label);
		fprintf(f, "\npunit[%zu] = '%s'\n", n, unit);
	}
	rotate = report_plot_fleet_rotation(fl, &extra, &across);
	fprintf(f, "npanels = %zu\nnvol = %zu\nxrot = %d\nname_across = %d\n"
	    "plot_height = %zu\n", n, fl->nvol, rotate, across,
	    120 + (300 + extra) * ((n + 1) / 2));
	fclose(f);
	if (n == 0) {
		xasprintf(cause, "nothing to plot: no volume has a figure to "
		    "compare");
		goto out;
	}
	if (report_plot_run(&rp, "fleet.gp", cause) == 0 &&
	    report_plot_keep(&rp, "fleet", cause) == 0)
		rc = 0;
	goto out;
fail:
	xasprintf(cause, "%s: %s", rp.tmp, strerror(errno));
out:
	report_plot_cleanup(&rp);
	return (rc);
}

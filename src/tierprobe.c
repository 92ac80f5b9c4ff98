/* SPDX-License-Identifier: ISC */
/* tierprobe: parse -> plan -> run -> analyse -> report. */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#include "cli.h"
#include "compare.h"
#include "context.h"
#include "engine.h"
#include "fiojob.h"
#include "fit.h"
#include "interrupt.h"
#include "limits.h"
#include "log.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "rng.h"
#include "scan.h"
#include "sync.h"
#include "target.h"
#include "units.h"
#include "xmalloc.h"

#define EXIT_USAGE		2
#define EXIT_INTERRUPTED	130
#define WARM_BS			(1U << 20)	/* sequential warm-up reads */

/* Fill the settings part of a report from the plan. */
static void
report_begin(struct report *rep, const struct plan *pl,
    const struct plan_target *pt, const struct target *t, uint64_t seed)
{
	struct report_config	*c = &rep->config;

	memset(rep, 0, sizeof(*rep));
	snprintf(rep->tool_version, sizeof(rep->tool_version), "%s",
	    PACKAGE_VERSION);
	report_utc_now(rep->started_utc, sizeof(rep->started_utc));
	snprintf(c->command, sizeof(c->command), "%s", cli_cmd_name(pl->cmd));
	snprintf(c->engine, sizeof(c->engine), "%s", pt->engine);
	c->direct = t->direct;
	c->bs = pt->scan.bs;
	c->iodepth = pt->scan.iodepth;
	c->seed = seed;
	c->min_ws = pt->scan.min_ws;
	c->max_ws = pt->scan.max_ws;
	c->step = pt->scan.step;
	c->points = pt->scan.points;
	c->precision = pt->scan.precision;
	c->max_time_s = pt->scan.max_time_s;
	c->budget_s = pt->scan.budget_s;
	c->ws = pt->limits.ws_bytes;
	c->max_iodepth = pt->limits.max_iodepth;
	c->sustain_s = pt->limits.sustain_s;
	c->write = pt->limits.write;
	rep->target.path = xstrdup(t->path);
	snprintf(rep->target.type, sizeof(rep->target.type), "%s",
	    target_type_name(t->type));
	rep->target.direct = t->direct;
	snprintf(rep->target.engine, sizeof(rep->target.engine), "%s",
	    pt->engine);
	rep->target.bs = pt->scan.bs;
	rep->target.size_bytes = t->size;
	if (t->type != TARGET_SIM)
		context_fill(&rep->context, t->path);
}

/*
 * Run the phases of the plan on target t into rep.  Returns 0, 1 if
 * interrupted, -errno on an I/O error, 2 if an engine could not be opened
 * (said on stderr).
 */
static int
probe_measure(const struct plan *pl, const struct plan_target *pt,
    struct target *t, uint64_t seed, struct report *rep)
{
	struct engine		 e;
	struct rng		 r;
	struct limits_spec	 ls;
	struct writes_spec	 ws;
	struct ceilings_prior	*prior;
	int			 ret = 0, err;

	rng_seed(&r, seed);
	if (pl->phases & PLAN_SCAN) {
		err = engine_open(&e, pt->engine, t, pt->scan.iodepth,
		    pt->scan.bs > WARM_BS ? pt->scan.bs : WARM_BS, 1);
		if (err != 0) {
			log_warnx("%s engine on %s: %s", pt->engine, t->path,
			    strerror(-err));
			return (2);
		}
		snprintf(rep->target.engine, sizeof(rep->target.engine), "%s",
		    e.ops->name);
		rep->scan = xcalloc(1, sizeof(*rep->scan));
		ret = scan_run(&e, &r, &pt->scan, rep->scan);
		engine_close(&e);
	}
	if ((pl->phases & PLAN_LIMITS) && ret == 0) {
		plan_limits(pt, t, rep->scan, &ls, &prior);
		rep->limits = xcalloc(1, sizeof(*rep->limits));
		limits_result_init(rep->limits);
		ret = limits_run(t, &r, &ls, rep->limits);
		free(prior);
	}
	if ((pl->phases & ~pt->skip & PLAN_WRITES) && ret == 0) {
		plan_writes(pt, t, rep->scan, rep->limits, &ws, &prior);
		rep->writes = xcalloc(1, sizeof(*rep->writes));
		ret = writes_run(t, &r, &ws, rep->writes);
		free(prior);
	}
	if ((pl->phases & ~pt->skip & PLAN_SYNC) && ret == 0) {
		rep->sync = xcalloc(1, sizeof(*rep->sync));
		ret = sync_run(t, &pt->sync, rep->sync);
	}
	return (ret);
}

/* Write the report where it was asked for.  Returns 0 or 1. */
static int
report_output(const struct report *rep, const struct cli_opts *o)
{
	char	*cause = NULL;
	int	 ret = 0;

	if (o->json_path != NULL &&
	    report_json_write(rep, o->json_path, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		ret = 1;
	}
	if (o->fio_job != NULL && fiojob_write(rep, o->fio_job, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		ret = 1;
	}
	switch (o->format) {
	case CLI_FMT_JSON:
		if (report_json_dump(rep, stdout) != 0)
			ret = 1;
		break;
	case CLI_FMT_MARKDOWN:
		report_text_write(rep, stdout, 1);
		break;
	case CLI_FMT_TEXT:
		report_text_write(rep, stdout, 0);
		break;
	}
	if (fflush(stdout) != 0)
		ret = 1;
	return (ret);
}

/* Say what an I/O error means and where. */
static void
probe_error(const struct target *t, int err)
{
	if (err == -EIO)
		log_warnx("%s: I/O error or short read: the device failed or "
		    "the target shrank (see dmesg); partial results kept",
		    t->path);
	else
		log_warnx("%s: %s; partial results kept", t->path,
		    strerror(-err));
}

/*
 * Interrupted before measuring anything (while the test file was filled):
 * the report still says so.  Returns EXIT_INTERRUPTED.
 */
static int
probe_stopped(const struct plan *pl, const struct plan_target *pt,
    const struct cli_opts *o)
{
	struct target	t;
	struct report	rep;

	memset(&t, 0, sizeof(t));
	t.fd = -1;
	t.path = (char *)pt->spec;
	t.type = TARGET_FILE;
	t.direct = pt->params.direct;
	report_begin(&rep, pl, pt, &t, pl->seed);
	rep.interrupted = 1;
	report_utc_now(rep.finished_utc, sizeof(rep.finished_utc));
	report_output(&rep, o);
	report_free(&rep);
	return (EXIT_INTERRUPTED);
}

/*
 * Measure an open target as often as the plan says into rep (the first
 * run, with the spread of all when repeated).  Returns 0, or 1 if a run
 * failed (said on stderr); rep->interrupted says if one was interrupted,
 * *full if the filesystem filled up.
 */
static int
probe_target(const struct plan *pl, const struct plan_target *pt,
    struct target *t, struct report *rep, int *full)
{
	struct report	*reps;
	unsigned	 i, runs;
	int		 ret = 0, status = 0;

	reps = xcalloc(pl->repeat, sizeof(*reps));
	for (i = 0; i < pl->repeat; i++) {
		report_begin(&reps[i], pl, pt, t, pl->seed + i);
		ret = probe_measure(pl, pt, t, pl->seed + i, &reps[i]);
		report_utc_now(reps[i].finished_utc,
		    sizeof(reps[i].finished_utc));
		if (ret != 0)
			break;
	}
	runs = i < pl->repeat ? i + 1 : pl->repeat;
	*rep = reps[0];
	if (pl->repeat > 1 && runs > 1) {
		rep->repeat = xcalloc(1, sizeof(*rep->repeat));
		report_repeat_aggregate(reps, (int)runs, rep->repeat);
	}
	for (i = 1; i < runs; i++)
		report_free(&reps[i]);
	free(reps);
	*full = ret == -ENOSPC;
	if (ret < 0) {
		probe_error(t, ret);
		status = 1;
	} else if (ret > 1)
		status = 1;
	rep->interrupted = ret == 1 || interrupt_requested();
	report_utc_now(rep->finished_utc, sizeof(rep->finished_utc));
	return (status);
}

/* run, scan and limits: plan, measure, report. */
static int
probe(const struct cli_opts *o)
{
	struct plan		 pl;
	struct plan_target	*pt;
	struct target		 t;
	struct report		 rep;
	char			*cause = NULL;
	int			 status, interrupted, full;

	plan_make(&pl, o);
	pt = &pl.target[0];
	if (target_open(&t, pt->spec, &pt->params, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		if (interrupt_requested())
			status = probe_stopped(&pl, pt, o);
		else
			status = pt->type == TARGET_SIM ? EXIT_USAGE : 1;
		plan_free(&pl);
		return (status);
	}
	if (plan_fit(pt, &t, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		target_close(&t, 1);
		plan_free(&pl);
		return (EXIT_USAGE);
	}
	status = probe_target(&pl, pt, &t, &rep, &full);
	if (report_output(&rep, o) != 0 && status == 0)
		status = 1;
	interrupted = rep.interrupted;
	report_free(&rep);
	target_close(&t, pt->remove || interrupted || full);
	plan_free(&pl);
	return (interrupted ? EXIT_INTERRUPTED : status);
}

/* prep: create and fill a test file. */
static int
prep(struct cli_opts *o)
{
	struct target		t;
	struct target_params	tp;
	struct stat		st;
	char			*cause = NULL, a[UNITS_BUFSZ];

	if (stat(o->args[0], &st) == 0 && !S_ISREG(st.st_mode)) {
		log_warnx("%s is not a regular file: prep creates test files "
		    "only", o->args[0]);
		return (1);
	}
	memset(&tp, 0, sizeof(tp));
	tp.direct = 1;
	tp.write = 1;		/* prep writes: no foreign file unforced */
	tp.force = o->force;
	tp.need_bytes = o->size;
	tp.quiet = o->quiet;
	if (target_open(&t, o->args[0], &tp, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (interrupt_requested() ? EXIT_INTERRUPTED : 1);
	}
	log_info("%s: %s of real data ready", t.path,
	    units_format_size(t.size, a, sizeof(a)));
	interrupt_drop_cleanup(t.path);
	target_close(&t, 0);
	return (0);
}

/* report: re-render a saved report. */
static int
rerender(struct cli_opts *o)
{
	struct report	 rep;
	char		*cause = NULL;
	int		 ret;

	if (report_load(o->args[0], &rep, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (EXIT_USAGE);
	}
	ret = report_output(&rep, o);
	report_free(&rep);
	return (ret);
}

/* compare: saved reports side by side. */
static int
compare(struct cli_opts *o)
{
	struct report	*reps;
	char		*cause = NULL;
	int		 i, ret = 0;

	reps = xcalloc(o->nargs, sizeof(*reps));
	for (i = 0; i < o->nargs; i++) {
		if (report_load(o->args[i], &reps[i], &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			ret = EXIT_USAGE;
			break;
		}
	}
	if (ret == 0 && compare_write(reps, o->nargs, stdout,
	    o->format == CLI_FMT_MARKDOWN) != 0) {
		log_warnx("compare takes at most %d reports", COMPARE_MAX);
		ret = EXIT_USAGE;
	}
	while (i-- > 0)
		report_free(&reps[i]);
	free(reps);
	return (ret);
}

/* plot: a report's plots through gnuplot. */
static int
plot(struct cli_opts *o)
{
	struct report	 rep;
	char		*cause = NULL;
	int		 ret = 0;

	if (report_load(o->args[0], &rep, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (EXIT_USAGE);
	}
	if (report_plot(&rep, o->outdir, o->plot_format, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		ret = 1;
	}
	report_free(&rep);
	return (ret);
}

/* profiles: list the simulated volumes, or show one's truth. */
static int
profiles(struct cli_opts *o)
{
	char	*cause = NULL;
	int	 ret;

	if (o->show != NULL)
		ret = report_profile_show(o->show, stdout, &cause);
	else
		ret = report_profile_list(stdout, &cause);
	if (ret != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (EXIT_USAGE);
	}
	return (0);
}

int
main(int argc, char **argv)
{
	struct cli_opts	 o;
	char		*cause = NULL;
	int		 ret = 0;

	fit_init();
	if (cli_parse(argc, argv, &o, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		free(o.args);
		return (EXIT_USAGE);
	}
	if (o.help || o.version) {
		if (o.help)
			cli_usage(stdout, o.cmd);
		else
			printf("tierprobe %s\n", PACKAGE_VERSION);
		free(o.args);
		return (0);
	}
	log_set_quiet(o.quiet);
	progress_init(o.quiet);
	interrupt_install();

	switch (o.cmd) {
	case CLI_RUN:
	case CLI_SCAN:
	case CLI_LIMITS:
	case CLI_SYNC:
		ret = probe(&o);
		break;
	case CLI_PREP:
		ret = prep(&o);
		break;
	case CLI_REPORT:
		ret = rerender(&o);
		break;
	case CLI_COMPARE:
		ret = compare(&o);
		break;
	case CLI_PLOT:
		ret = plot(&o);
		break;
	case CLI_PROFILES:
		ret = profiles(&o);
		break;
	case CLI_NONE:
		break;
	}
	free(o.args);
	return (ret);
}

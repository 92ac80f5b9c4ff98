/* SPDX-License-Identifier: ISC */
/* tierprobe: parse -> plan -> run -> analyse -> report. */
#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"

#include "check.h"
#include "cli.h"
#include "compare.h"
#include "context.h"
#include "ebsstats-read.h"
#include "ebsstats.h"
#include "engine.h"
#include "fiojob.h"
#include "fit.h"
#include "fleet.h"
#include "instance.h"
#include "interrupt.h"
#include "ioprops.h"
#include "limits.h"
#include "log.h"
#include "parallel.h"
#include "plan.h"
#include "progress.h"
#include "report.h"
#include "rng.h"
#include "scan.h"
#include "sync.h"
#include "target.h"
#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

#define EXIT_USAGE		2
#define EXIT_MISSED		3	/* expectation missed, unknown; an
						   outlier (fleet) */
#define EXIT_INTERRUPTED	130
#define WARM_BS			(1U << 20)	/* sequential warm-up reads */

/* Fill the settings part of a report from the plan. */
static void
report_begin_config(struct report *rep, const struct plan *pl,
    const struct plan_target *pt, int direct, uint64_t seed)
{
	struct report_config	*c = &rep->config;

	memset(rep, 0, sizeof(*rep));
	snprintf(rep->tool_version, sizeof(rep->tool_version), "%s",
	    PACKAGE_VERSION);
	report_utc_now(rep->started_utc, sizeof(rep->started_utc));
	snprintf(c->command, sizeof(c->command), "%s", cli_cmd_name(pl->cmd));
	snprintf(c->engine, sizeof(c->engine), "%s", pt->engine);
	c->direct = direct;
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
	c->cuts = pt->cuts;
}

/* Fill the settings and target parts of a report from the plan. */
static void
report_begin(struct report *rep, const struct plan *pl,
    const struct plan_target *pt, const struct target *t, uint64_t seed)
{
	report_begin_config(rep, pl, pt, t->direct, seed);
	rep->target.path = xstrdup(t->path);
	snprintf(rep->target.type, sizeof(rep->target.type), "%s",
	    target_type_name(t->type));
	rep->target.direct = t->direct;
	snprintf(rep->target.engine, sizeof(rep->target.engine), "%s",
	    pt->engine);
	rep->target.bs = pt->scan.bs;
	rep->target.size_bytes = t->size;
	snprintf(rep->target.instance, sizeof(rep->target.instance), "%s",
	    t->instance);
	snprintf(rep->target.profile, sizeof(rep->target.profile), "%s",
	    t->profile);
	if (t->type != TARGET_SIM)
		context_fill(&rep->context, t->path);
	else
		context_fill_sim(&rep->context, t->model, t->size);
}

/*
 * The instance a simulated volume is on: what follows the last @ of its
 * name (path as given, "sim:" prefix or not); NULL for other targets.
 */
static const char *
expect_instance(const char *path, int sim)
{
	const char	*at;

	if (!sim || path == NULL || (at = strrchr(path, '@')) == NULL)
		return (NULL);
	return (at + 1);
}

/*
 * The expectations of --expect and --expect-profile (for I/Os of bs
 * bytes, of a simulated volume on instance on, or NULL) into *out, NULL
 * when none were given.  A profile named without an instance is taken on
 * the volume's: what it promises there.  Returns 0, or -1 when one is
 * malformed (said on stderr: a usage error).
 */
static int
expectations(const struct cli_opts *o, uint32_t bs, const char *on,
    struct check_list **out)
{
	struct check_list	*l;
	char			*cause = NULL, *name = NULL;
	int			 i, rc = 0;

	*out = NULL;
	if (o->expect.n == 0 && o->expect_profile == NULL)
		return (0);
	l = check_list_new();
	if (o->expect_profile != NULL && on != NULL &&
	    strchr(o->expect_profile, '@') == NULL) {
		xasprintf(&name, "%s@%s", o->expect_profile, on);
		log_info("--expect-profile %s: what it promises on %s, the "
		    "instance the volume is on", o->expect_profile, on);
	}
	if (o->expect_profile != NULL && report_profile_expect(name != NULL ?
	    name : o->expect_profile, bs, l, &cause) != 0) {
		log_warnx("--expect-profile: %s", cause);
		rc = -1;
	}
	free(name);
	for (i = 0; rc == 0 && i < o->expect.n; i++) {
		if (check_list_add(l, o->expect.v[i], "--expect",
		    &cause) != 0) {
			log_warnx("--expect: %s", cause);
			rc = -1;
		}
	}
	free(cause);
	l->accept_burst = o->accept_burst;
	if (rc != 0)
		check_list_free(l);
	else
		*out = l;
	return (rc);
}

/*
 * Append to *l (made when NULL) the expectations of --type for a volume of
 * size bytes (NAN: unknown) read in I/Os of bs.  Returns 0, or -1 when
 * the type or its settings are wrong or the size is unknown (said on
 * stderr: a usage error).
 */
static int
expect_type(const struct cli_opts *o, double size, uint32_t bs,
    struct check_list **l)
{
	char	*cause = NULL;

	if (o->type == NULL)
		return (0);
	if (o->size > 0)
		size = (double)o->size;
	if (*l == NULL) {
		*l = check_list_new();
		(*l)->accept_burst = o->accept_burst;
	}
	if (report_profile_expect_type(o->type, size, bs, *l, &cause) != 0) {
		log_warnx("--type %s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}

/*
 * The size of the volume under target spec of type type (a simulated one:
 * size): its device's, as the context says; NAN when unknown (or not one
 * volume).
 */
static double
volume_size(const char *spec, enum target_type type, uint64_t size)
{
	struct report_context	ctx;

	if (type == TARGET_SIM)
		return ((double)size);
	context_fill(&ctx, spec);
	return (report_voltype_device_size(&ctx));
}

/*
 * What --type and --size say of the volume, into the settings of a report
 * of one target; then every volume type judged against it.
 */
static void
judge_types(struct report *rep, const struct cli_opts *o)
{
	struct voltype_spec	 spec;
	char			*cause = NULL;

	if (o->type != NULL) {
		snprintf(rep->config.type, sizeof rep->config.type, "%s",
		    o->type);
		if (o->size == 0 && voltype_spec_parse(o->type, 0, &spec,
		    &cause) == 0)
			rep->config.volume_size = spec.size_bytes;
		free(cause);
		cause = NULL;
	}
	if (o->size > 0)
		rep->config.volume_size = o->size;
	if (report_voltype_judge(rep, &cause) != 0) {
		log_warnx("--type %s", cause);
		free(cause);
	}
}

/*
 * The instance the simulated targets of a plan are on, when they share
 * one; NULL otherwise.
 */
static const char *
probe_instance(const struct plan *pl)
{
	const char	*on = NULL, *at;
	size_t		 i;

	for (i = 0; i < pl->ntargets; i++) {
		at = expect_instance(pl->target[i].spec,
		    pl->target[i].type == TARGET_SIM);
		if (at == NULL || (on != NULL && strcmp(on, at) != 0))
			return (NULL);
		on = at;
	}
	return (on);
}

/* Whether every target of a plan is a simulated volume. */
static int
probe_simulated(const struct plan *pl)
{
	size_t	i;

	for (i = 0; i < pl->ntargets; i++)
		if (pl->target[i].type != TARGET_SIM)
			return (0);
	return (pl->ntargets > 0);
}

/*
 * Say, before measuring, which expectations the plan cannot settle (a
 * phase it does not run, a sustained run shorter than a bucket lasts) and
 * what run would.
 */
static void
probe_unsettled(const struct plan *pl, const struct check_list *l)
{
	const struct plan_target	*pt;
	char				 why[320];
	size_t				 i, j;

	for (i = 0; l != NULL && i < l->n; i++) {
		for (j = 0; j < pl->ntargets; j++) {
			pt = &pl->target[j];
			if (check_settles(&l->v[i], plan_measures(pl, pt,
			    l->v[i].def->section), pt->limits.sustain_s,
			    why, sizeof why))
				continue;
			log_warnx("warning: %s cannot be settled by this run: "
			    "%s", l->v[i].text, why);
			break;
		}
	}
}

/* EBS's counters of one run: where they are read and what they gave. */
struct probe_ebs {
	struct ebsstats_dev	 dev;
	struct ebsstats_run	*run;	/* NULL: none to read */
};

/*
 * Find the counters of target t for rep: none for a simulated volume
 * (no section); else rep->ebs, which says why when there are none.
 */
static void
probe_ebs_open(struct probe_ebs *pe, const struct target *t,
    struct report *rep)
{
	char	*why = NULL;
	int	 rc;

	pe->run = NULL;
	rc = ebsstats_dev_open(&pe->dev, t->path, t->type == TARGET_SIM,
	    &why);
	if (rc == 1)
		return;
	rep->ebs = xcalloc(1, sizeof *rep->ebs);
	rep->ebs->sustained_limit = -1;
	if (rc != 0) {
		snprintf(rep->ebs->why, sizeof rep->ebs->why, "%s", why);
		free(why);
		return;
	}
	pe->run = rep->ebs;
	if (pe->dev.seam)
		snprintf(pe->run->source, sizeof pe->run->source, "%s=%s",
		    EBSSTATS_ENV, pe->dev.path);
	else
		snprintf(pe->run->source, sizeof pe->run->source, "%s",
		    pe->dev.path);
	snprintf(pe->run->kind, sizeof pe->run->kind, "%s",
	    ebsstats_kind_name(pe->dev.kind));
}

/*
 * A phase begins (name) or ends (NULL, of seconds of device time, NAN
 * when only the clock knows): EBS's counters read.
 */
static void
probe_ebs_phase(void *arg, const char *name, double seconds)
{
	struct probe_ebs	*pe = arg;

	if (pe->run == NULL)
		return;
	if (name != NULL)
		ebsstats_dev_begin(&pe->dev, pe->run, name);
	else
		ebsstats_dev_end(&pe->dev, pe->run, seconds);
}

/*
 * A working set of the scan begins (p NULL, after its warm-ups) or was
 * measured (its point p): a phase of EBS's counters, "scan 64 MiB", with
 * tierprobe's own read latency beside the device's.
 */
static void
probe_ebs_point(void *arg, uint64_t ws, const struct point *p)
{
	struct probe_ebs	*pe = arg;
	struct ebsstats_phase	*d;
	char			 name[24], b[UNITS_BUFSZ];

	if (pe->run == NULL)
		return;
	snprintf(name, sizeof name, "scan %s", units_format_size(ws, b,
	    sizeof b));
	if (p == NULL) {
		ebsstats_dev_begin(&pe->dev, pe->run, name);
		return;
	}
	ebsstats_dev_end(&pe->dev, pe->run, p->seconds);
	d = pe->run->nphases > 0 ? &pe->run->phases[pe->run->nphases - 1] :
	    NULL;
	if (d != NULL && strcmp(d->phase, name) == 0 && p->ios > 0 &&
	    p->write == 0) {
		d->own_read_p50_us = p->lat_us.p50;
		d->own_read_p99_us = p->lat_us.p99;
	}
}

/*
 * The run is over: the counters closed, tierprobe's own read latency of
 * the sustained run set beside the device's, the limit that held it.
 */
static void
probe_ebs_close(struct probe_ebs *pe, const struct report *rep)
{
	const struct limits_result	*l = rep->limits;
	struct ebsstats_phase		*d;
	size_t				 i;

	probe_ebs_phase(pe, NULL, NAN);
	ebsstats_dev_close(&pe->dev);
	if (pe->run == NULL)
		return;
	for (i = 0; i < pe->run->nphases; i++) {
		d = &pe->run->phases[i];
		if (strcmp(d->phase, "sustained") == 0 && l != NULL &&
		    !l->write && l->sustain.ios > 0) {
			d->own_read_p50_us = l->sustain.lat_us.p50;
			d->own_read_p99_us = l->sustain.lat_us.p99;
		}
	}
	pe->run->sustained_limit = ebsstats_sustained_limit(pe->run);
}

/* The device time the writes of rep spent; NAN if none. */
static double
probe_writes_seconds(const struct report *rep)
{
	struct report	only;
	double		seconds, bytes;

	memset(&only, 0, sizeof only);
	only.writes = rep->writes;
	only.target.bs = rep->target.bs;
	report_cost(&only, &seconds, &bytes);
	return (seconds > 0 ? seconds : NAN);
}

/*
 * Run the phases of the plan on target t into rep.  Returns 0, 1 if
 * interrupted, -errno on an I/O error, 2 if an engine could not be opened
 * (said on stderr).
 */
static int
probe_measure(const struct plan *pl, const struct plan_target *pt,
    struct target *t, uint64_t seed, struct report *rep, const char **phase)
{
	struct engine		 e;
	struct rng		 r;
	struct limits_spec	 ls;
	struct writes_spec	 ws;
	struct ceilings_prior	*prior;
	struct scan_spec	 sc;
	struct probe_ebs	 pe;
	const char		*caveat;
	int			 ret = 0, err;

	rng_seed(&r, seed);
	*phase = "";
	probe_ebs_open(&pe, t, rep);
	if (pl->phases & PLAN_SCAN) {
		*phase = "scan";
		err = engine_open(&e, pt->scan_engine, t, pt->scan.iodepth,
		    pt->scan.bs > WARM_BS ? pt->scan.bs : WARM_BS, 1);
		if (err != 0) {
			log_warnx("%s engine on %s: %s", pt->scan_engine,
			    t->path, strerror(-err));
			probe_ebs_close(&pe, rep);
			return (2);
		}
		snprintf(rep->target.engine, sizeof(rep->target.engine), "%s",
		    e.ops->name);
		rep->scan = xcalloc(1, sizeof(*rep->scan));
		(void)target_advise_random(t, 1);
		sc = pt->scan;
		sc.on_point = probe_ebs_point;
		sc.on_point_arg = &pe;
		ret = scan_run(&e, &r, &sc, rep->scan);
		if ((caveat = plan_scan_caveat(pl, pt, e.ops->name)) != NULL)
			snprintf(rep->scan->caveat, sizeof(rep->scan->caveat),
			    "%s", caveat);
		(void)target_advise_random(t, 0);
		engine_close(&e);
	}
	if ((pl->phases & PLAN_LIMITS) && ret == 0) {
		*phase = "limits";
		plan_limits(pt, t, rep->scan, &ls, &prior);
		rep->limits = xcalloc(1, sizeof(*rep->limits));
		limits_result_init(rep->limits);
		ls.on_phase = probe_ebs_phase;
		ls.on_phase_arg = &pe;
		ret = limits_run(t, &r, &ls, rep->limits);
		probe_ebs_phase(&pe, NULL, NAN);
		free(prior);
	}
	if ((pl->phases & ~pt->skip & PLAN_WRITES) && ret == 0) {
		*phase = "writes";
		plan_writes(pt, t, rep->scan, rep->limits, &ws, &prior);
		rep->writes = xcalloc(1, sizeof(*rep->writes));
		probe_ebs_phase(&pe, "writes", NAN);
		ret = writes_run(t, &r, &ws, rep->writes);
		probe_ebs_phase(&pe, NULL, probe_writes_seconds(rep));
		free(prior);
	}
	if ((pl->phases & ~pt->skip & PLAN_SYNC) && ret == 0) {
		*phase = "sync";
		rep->sync = xcalloc(1, sizeof(*rep->sync));
		probe_ebs_phase(&pe, "commits", NAN);
		ret = sync_run(t, &pt->sync, rep->sync);
		probe_ebs_phase(&pe, NULL, rep->sync->seconds);
	}
	probe_ebs_close(&pe, rep);
	return (ret);
}

/*
 * Write the report where it was asked for.  Returns 0, 1, or 2 when the
 * report holds nothing for --fio-job (said on stderr).
 */
static int
report_output(const struct report *rep, const struct cli_opts *o)
{
	char	*cause = NULL, *used = NULL;
	int	 ret = 0, rc;

	if (o->json_path != NULL &&
	    (rc = report_json_save(rep, o->json_path, &used, &cause)) != 0) {
		if (rc > 0)
			log_warnx("%s; the JSON report is in %s instead", cause,
			    used);
		else
			log_warnx("%s: the JSON report is lost", cause);
		free(cause);
		free(used);
		ret = 1;
	}
	if (o->fio_job != NULL &&
	    (rc = fiojob_write(rep, o->fio_job, &cause)) != 0) {
		log_warnx("%s", cause);
		free(cause);
		ret = rc > 0 ? 2 : 1;
	}
	if (o->io_properties != NULL && (rc = ioprops_write(rep,
	    o->io_properties, o->mountpoint, o->accept_burst,
	    &cause)) != 0) {
		log_warnx("%s", cause);
		free(cause);
		ret = rc > 0 ? 2 : 1;
	}
	switch (o->format) {
	case CLI_FMT_JSON:
		if (report_json_dump(rep, stdout) != 0)
			ret = 1;
		break;
	case CLI_FMT_MARKDOWN:
	case CLI_FMT_TEXT:
	case CLI_FMT_CSV:	/* cli_parse accepts csv for fleet only */
		(rep->ntargets > 0 ? report_multi_write : report_text_write)(
		    rep, stdout, o->format == CLI_FMT_MARKDOWN);
		break;
	}
	if (fflush(stdout) != 0)
		ret = 1;
	return (ret);
}

/*
 * Record in rep the fault that stopped its run in phase (-errno err, or 0
 * when an engine could not be opened, which was said already), and say
 * what it means and where.
 */
static void
probe_fault(struct report *rep, const char *path, const char *phase,
    int err)
{
	struct report_fault	*f;

	free(rep->fault);
	rep->fault = f = xcalloc(1, sizeof(*f));
	f->err = (uint32_t)-err;
	snprintf(f->phase, sizeof(f->phase), "%s", phase);
	if (err == 0) {
		f->reason = REPORT_FAULT_ENGINE;
		snprintf(f->message, sizeof(f->message), "%s: the I/O engine "
		    "could not be opened; partial results kept", path);
		return;
	}
	if (err == -EIO) {
		f->reason = REPORT_FAULT_IO;
		snprintf(f->message, sizeof(f->message), "%s: I/O error or "
		    "short read: the device failed or the target shrank (see "
		    "dmesg); partial results kept", path);
	} else if (err == -ENOSPC || err == -EDQUOT) {
		f->reason = REPORT_FAULT_NO_SPACE;
		snprintf(f->message, sizeof(f->message), "%s: the filesystem "
		    "filled up: stopped, the files this run created removed, "
		    "partial results kept", path);
	} else {
		f->reason = REPORT_FAULT_OTHER;
		snprintf(f->message, sizeof(f->message), "%s: %s; partial "
		    "results kept", path, strerror(-err));
	}
	log_warnx("%s", f->message);
}

/*
 * Say in one line where an interrupted run's report went and which test
 * files were removed and kept (comma-separated, "" for none).
 */
static void
probe_say_stopped(const struct cli_opts *o, const char *removed,
    const char *kept)
{
	const char	*them = " (this run created them)";
	const char	*not = " (this run did not create them)";

	if (strchr(removed, ',') == NULL)
		them = " (this run created it)";
	if (strchr(kept, ',') == NULL)
		not = " (this run did not create it)";
	log_warnx("interrupted: the partial report is on standard output%s%s"
	    "%s%s%s%s%s%s", o->json_path != NULL ? " and in " : "",
	    o->json_path != NULL ? o->json_path : "", *removed != '\0' ?
	    "; removed " : "", removed, *removed != '\0' ? them : "",
	    *kept != '\0' ? "; kept " : "", kept, *kept != '\0' ? not : "");
}

/* Append path to a comma-separated list. */
static void
probe_list_add(char *list, size_t len, const char *path)
{
	size_t	o = strlen(list);

	if (o < len)
		snprintf(list + o, len - o, "%s%s", o > 0 ? ", " : "", path);
}

/*
 * Interrupted before measuring anything (while a test file was filled):
 * the report still says so, naming every target.  Returns
 * EXIT_INTERRUPTED.
 */
static int
probe_stopped(const struct plan *pl, const struct cli_opts *o)
{
	struct target	t;
	struct report	rep, *r = &rep;
	size_t		i;

	memset(&t, 0, sizeof(t));
	t.fd = -1;
	t.type = TARGET_FILE;
	report_begin_config(&rep, pl, &pl->target[0],
	    pl->target[0].params.direct, pl->seed);
	if (pl->ntargets > 1) {
		rep.ntargets = pl->ntargets;
		rep.targets = xcalloc(rep.ntargets, sizeof(*rep.targets));
	}
	for (i = 0; i < pl->ntargets; i++) {
		if (pl->ntargets > 1)
			r = &rep.targets[i];
		t.path = (char *)pl->target[i].spec;
		t.direct = pl->target[i].params.direct;
		report_begin(r, pl, &pl->target[i], &t, pl->seed);
	}
	rep.interrupted = 1;
	report_utc_now(rep.finished_utc, sizeof(rep.finished_utc));
	report_output(&rep, o);
	report_free(&rep);
	return (EXIT_INTERRUPTED);
}

/*
 * Measure an open target as often as the plan says into rep (the first
 * run, with the spread of all when repeated), run i with seed + i.
 * Returns 0, or 1 if a run failed (said on stderr); rep->interrupted says
 * if one was interrupted, *full if the filesystem filled up.
 */
static int
probe_target(const struct plan *pl, const struct plan_target *pt,
    struct target *t, uint64_t seed, struct report *rep, int *full)
{
	struct report	*reps;
	const char	*phase = "";
	unsigned	 i, runs;
	int		 ret = 0, status = 0;

	reps = xcalloc(pl->repeat, sizeof(*reps));
	for (i = 0; i < pl->repeat; i++) {
		report_begin(&reps[i], pl, pt, t, seed + i);
		ret = probe_measure(pl, pt, t, seed + i, &reps[i], &phase);
		report_state_apply(&reps[i]);
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
	if (ret < 0 || ret > 1) {
		probe_fault(rep, t->path, phase, ret < 0 ? ret : 0);
		status = 1;
	}
	rep->interrupted = ret == 1 || interrupt_requested();
	report_utc_now(rep->finished_utc, sizeof(rep->finished_utc));
	return (status);
}

/*
 * Whether the reports asked for can be written, before any I/O: a run
 * whose report cannot be saved loses its measurements.  Returns 0, or -1
 * (said on stderr).
 */
static int
probe_outputs(const struct cli_opts *o)
{
	char	*cause = NULL;

	if ((o->json_path != NULL && report_output_check("--json",
	    o->json_path, 1, &cause) != 0) || (o->fio_job != NULL &&
	    report_output_check("--fio-job", o->fio_job, 1, &cause) != 0) ||
	    (o->io_properties != NULL && report_output_check(
	    "--io-properties", o->io_properties, 1, &cause) != 0)) {
		log_warnx("%s", cause);
		free(cause);
		return (-1);
	}
	return (0);
}

/*
 * The n targets of t together, after each was measured alone into
 * rep->targets[].  Returns 0, or 1 if the run failed (said on stderr).
 */
static int
probe_together(const struct plan *pl, struct target *t, struct report *rep)
{
	struct parallel_together	  spec;
	struct ceilings_prior		 *prior;
	const struct limits_result	**alone;
	const struct scan_result	**scan;
	struct target			**tp;
	struct rng			  r;
	uint64_t			 *ws;
	size_t				  i, n = rep->ntargets;
	int				  rc;

	tp = xcalloc(n, sizeof(*tp));
	alone = xcalloc(n, sizeof(*alone));
	scan = xcalloc(n, sizeof(*scan));
	ws = xcalloc(n, sizeof(*ws));
	for (i = 0; i < n; i++) {
		tp[i] = &t[i];
		alone[i] = rep->targets[i].limits;
		scan[i] = rep->targets[i].scan;
	}
	plan_together(pl, tp, alone, scan, ws, &spec, &prior);
	rng_seed(&r, pl->seed + n);
	log_info("together: %zu targets at iodepth %u each", n,
	    spec.iops.iodepth);
	rep->together = xcalloc(1, sizeof(*rep->together));
	rc = parallel_together(tp, n, &r, &spec, alone, rep->together);
	if (rc < 0)
		probe_fault(rep, "the targets together", "together", rc);
	free(prior);
	free(ws);
	free(scan);
	free(alone);
	free(tp);
	return (rc < 0 ? 1 : 0);
}

/*
 * Several targets: each alone (target i with seed + i), then together
 * when the plan measures limits, into rep.  Returns 0 or 1; *full if a
 * filesystem filled up.
 */
static int
probe_several(const struct plan *pl, struct target *t, struct report *rep,
    int *full)
{
	const struct plan_target	*pt;
	size_t				 i, n = pl->ntargets;
	int				 status = 0, stop = 0, one_full;

	report_begin_config(rep, pl, &pl->target[0], t[0].direct, pl->seed);
	rep->ntargets = n;
	rep->targets = xcalloc(n, sizeof(*rep->targets));
	for (i = 0; i < n; i++) {
		pt = &pl->target[i];
		if (stop) {
			report_begin(&rep->targets[i], pl, pt, &t[i],
			    pl->seed + i);
			continue;
		}
		log_info("target %zu of %zu: %s", i + 1, n, t[i].path);
		status |= probe_target(pl, pt, &t[i], pl->seed + i,
		    &rep->targets[i], &one_full);
		*full |= one_full;
		stop = status != 0 || rep->targets[i].interrupted;
		/* The report's top says so too, for its readers. */
		if (rep->targets[i].fault != NULL && rep->fault == NULL) {
			rep->fault = xmalloc(sizeof(*rep->fault));
			*rep->fault = *rep->targets[i].fault;
		}
	}
	if (!stop && (pl->phases & PLAN_LIMITS))
		status |= probe_together(pl, t, rep);
	report_state_apply(rep);
	rep->interrupted = interrupt_requested();
	report_utc_now(rep->finished_utc, sizeof(rep->finished_utc));
	return (status);
}

/*
 * Open the targets of the plan on host, those that exist first, so that a
 * target that cannot be opened stops the run before a test file is
 * filled for nothing.  Returns 0, or the exit status (said on stderr);
 * open[i] says which are open.
 */
static int
probe_open(struct plan *pl, const struct cli_opts *o, struct sim_host *host,
    struct target *t, int *open)
{
	struct plan_target	*pt;
	char			*cause = NULL;
	size_t			 i;
	int			 pass, exists, rc;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < pl->ntargets; i++) {
			pt = &pl->target[i];
			exists = pt->type != TARGET_FILE ||
			    access(pt->spec, F_OK) == 0;
			if (exists != (pass == 0))
				continue;
			pt->params.host = host;
			if (target_open(&t[i], pt->spec, &pt->params,
			    &cause) == 0) {
				open[i] = 1;
				continue;
			}
			progress_end();
			log_warnx("%s", cause);
			free(cause);
			if (interrupt_requested()) {
				rc = probe_stopped(pl, o);
				/* A file it was creating is gone, one it was
				   growing cut back. */
				probe_say_stopped(o, exists ? "" : pt->spec,
				    exists ? pt->spec : "");
				return (rc);
			}
			return (pt->type == TARGET_SIM ? EXIT_USAGE : 1);
		}
	}
	return (0);
}

/* Append ", NAME TIME" to parts at *o when s > 0. */
static void
probe_cost_part(char *parts, size_t size, size_t *o, const char *name,
    double s)
{
	char	b[UNITS_BUFSZ];
	int	n;

	if (s <= 0 || *o >= size)
		return;
	n = snprintf(parts + *o, size - *o, "%s%s %s", *o > 0 ? ", " : "",
	    name, units_format_value(UNITS_SECONDS, s, b, sizeof b));
	if (n > 0)
		*o += (size_t)n;
}

/* Say what the plan may cost the target before it runs. */
static void
probe_cost(const struct plan *pl, const struct plan_target *pt,
    const struct target *t)
{
	struct plan_cost	c;
	char			all[UNITS_BUFSZ], span[UNITS_BUFSZ];
	char			b[UNITS_BUFSZ], parts[256], warm[96];
	size_t			o = 0;

	parts[0] = '\0';
	plan_cost(pl, pt, t, &c);
	probe_cost_part(parts, sizeof parts, &o, "scan", c.scan_s);
	if (c.scan_s > 0 && o < sizeof parts)
		o += snprintf(parts + o, sizeof parts - o, " and the points "
		    "it may add");
	probe_cost_part(parts, sizeof parts, &o, "sweeps", c.sweeps_s);
	probe_cost_part(parts, sizeof parts, &o, "sustained", c.sustain_s);
	probe_cost_part(parts, sizeof parts, &o, "writes", c.writes_s);
	probe_cost_part(parts, sizeof parts, &o, "commits", c.sync_s);
	warm[0] = '\0';
	if (c.warm_bytes > 0)
		snprintf(warm, sizeof warm, " and a sequential read of %s to "
		    "warm the working sets", units_format_size(c.warm_bytes,
		    b, sizeof b));
	log_info("%sup to %s of device time if every point runs to its time "
	    "limit (%s)%s, %s within %s",
	    pl->repeat > 1 ? "each run: " : "", units_format_value(
	    UNITS_SECONDS, c.scan_s + c.sweeps_s + c.sustain_s + c.writes_s +
	    c.sync_s, all, sizeof all), parts, warm, c.writes_s > 0 ||
	    c.sync_s > 0 ? "reading and writing" : "reading",
	    units_format_size(c.span_bytes, span, sizeof span));
}

/* run, scan and limits: plan, measure, report, judge expectations. */
/* The device time and I/O the report's measurements took. */
static void
probe_spent(const struct report *rep)
{
	char	b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	double	secs = 0, bytes = 0, s, b;
	size_t	i;

	if (rep->ntargets == 0)
		report_cost(rep, &secs, &bytes);
	for (i = 0; i < rep->ntargets; i++) {
		report_cost(&rep->targets[i], &s, &b);
		secs += s;
		bytes += b;
	}
	log_info("spent %s of device time, %s of I/O",
	    units_format_value(UNITS_SECONDS, secs, b1, sizeof b1),
	    units_format_value(UNITS_BYTES, bytes, b2, sizeof b2));
}

/* run, scan and limits: plan, measure, report, judge expectations. */
static int
probe(const struct cli_opts *o)
{
	struct plan		 pl;
	struct plan_target	*pt;
	struct sim_host		*host;
	struct target		*t;
	struct report		 rep;
	struct check_list	*checks;
	struct instance_limits	 inst;
	const char		*caveat;
	char			*cause = NULL, removed[1024], kept[1024];
	unsigned		 verdicts[CHECK_NVERDICTS];
	size_t			 i;
	int			*open, status, interrupted = 0, measured = 0;
	int			 full = 0;

	if (probe_outputs(o) != 0)
		return (EXIT_USAGE);
	plan_make(&pl, o);
	if (expectations(o, o->bs, probe_instance(&pl), &checks) != 0) {
		plan_free(&pl);
		return (EXIT_USAGE);
	}
	if (instance_resolve(o->instance, probe_instance(&pl),
	    probe_simulated(&pl), &inst, &cause) != 0) {
		log_warnx("--instance %s", cause);
		free(cause);
		plan_free(&pl);
		check_list_free(checks);
		return (EXIT_USAGE);
	}
	if (plan_check(&pl, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		plan_free(&pl);
		check_list_free(checks);
		return (EXIT_USAGE);
	}
	/* --type before a test file is made; a simulated volume's once open. */
	if (pl.target[0].type != TARGET_SIM && expect_type(o, volume_size(
	    pl.target[0].spec, pl.target[0].type, 0), o->bs, &checks) != 0) {
		plan_free(&pl);
		check_list_free(checks);
		return (EXIT_USAGE);
	}
	for (i = 0; i < pl.ntargets; i++) {
		pt = &pl.target[i];
		if ((caveat = plan_scan_caveat(&pl, pt, pt->scan_engine)) !=
		    NULL) {
			log_warnx("warning: %s: %s", pt->spec, caveat);
			break;
		}
	}
	host = target_host_new();
	t = xcalloc(pl.ntargets, sizeof(*t));
	open = xcalloc(pl.ntargets, sizeof(*open));
	if ((status = probe_open(&pl, o, host, t, open)) != 0)
		goto out;
	if (t[0].type == TARGET_SIM && expect_type(o, volume_size(t[0].path,
	    TARGET_SIM, t[0].size), o->bs, &checks) != 0) {
		status = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < pl.ntargets; i++) {
		if (plan_fit(&pl.target[i], &t[i], &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			status = EXIT_USAGE;
			goto out;
		}
		if (pl.target[i].note[0] != '\0')
			log_info("%s", pl.target[i].note);
		probe_cost(&pl, &pl.target[i], &t[i]);
	}
	probe_unsettled(&pl, checks);
	measured = 1;
	if (pl.ntargets == 1)
		status = probe_target(&pl, &pl.target[0], &t[0], pl.seed, &rep,
		    &full);
	else
		status = probe_several(&pl, t, &rep, &full);
	probe_spent(&rep);
	rep.instance = inst;
	for (i = 0; i < rep.ntargets; i++)
		rep.targets[i].instance = inst;
	if (o->host != NULL)
		snprintf(rep.labels.host, sizeof rep.labels.host, "%s",
		    o->host);
	if (o->kind != NULL)
		snprintf(rep.labels.kind, sizeof rep.labels.kind, "%s",
		    o->kind);
	judge_types(&rep, o);
	rep.checks = checks;
	checks = NULL;		/* report_free frees them now */
	if (report_output(&rep, o) != 0 && status == 0)
		status = 1;
	if (status == 0 && rep.checks != NULL &&
	    !report_check_tally(rep.checks, &rep, verdicts))
		status = EXIT_MISSED;
	interrupted = rep.interrupted;
	report_free(&rep);
out:
	removed[0] = kept[0] = '\0';
	for (i = 0; i < pl.ntargets; i++) {
		if (!open[i])
			continue;
		if (interrupted && t[i].type == TARGET_FILE)
			probe_list_add(t[i].created ? removed : kept,
			    sizeof removed, t[i].path);
		target_close(&t[i], !measured || pl.target[i].remove ||
		    interrupted || full);
	}
	if (interrupted)
		probe_say_stopped(o, removed, kept);
	check_list_free(checks);
	free(open);
	free(t);
	target_host_free(host);
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
	tp.fill_only = 1;
	tp.force = o->force;
	tp.need_bytes = o->size;
	tp.fill_progress = progress_fill;
	if (target_open(&t, o->args[0], &tp, &cause) != 0) {
		progress_end();
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

	if (probe_outputs(o) != 0)
		return (EXIT_USAGE);
	/* Text and markdown never use the points' histograms. */
	if (report_load_with(o->args[0], &rep, o->format == CLI_FMT_JSON ||
	    o->json_path != NULL ? 0 : REPORT_LOAD_LEAN, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (EXIT_USAGE);
	}
	ret = report_output(&rep, o);
	report_free(&rep);
	return (ret == 2 ? EXIT_USAGE : ret);
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
		if (report_load_with(o->args[i], &reps[i], REPORT_LOAD_LEAN,
		    &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			ret = EXIT_USAGE;
			break;
		}
	}
	if (ret == 0 && o->nargs > COMPARE_MAX) {
		log_warnx("compare takes at most %d reports", COMPARE_MAX);
		ret = EXIT_USAGE;
	} else if (ret == 0 && o->format == CLI_FMT_JSON) {
		if (compare_json(reps, (const char *const *)o->args,
		    o->nargs, stdout) != 0) {
			log_warn("compare: writing the JSON document");
			ret = 1;
		}
	} else if (ret == 0)
		compare_write(reps, o->nargs, stdout,
		    o->format == CLI_FMT_MARKDOWN);
	while (i-- > 0)
		report_free(&reps[i]);
	free(reps);
	return (ret);
}

/* Say on stderr which files a fleet skipped and why. */
static void
fleet_log_skipped(const struct fleet *fl)
{
	size_t	i;

	for (i = 0; i < fl->nskip; i++)
		log_warnx("skipped %s: %s", fl->skip[i].file,
		    fl->skip[i].why);
}

/* plot: a report's plots through gnuplot; of several, the fleet chart. */
static int
plot(struct cli_opts *o)
{
	struct report	 rep;
	struct fleet	*fl;
	struct stat	 st;
	char		*cause = NULL;
	int		 ret = 0;

	if (o->nargs > 1 || (stat(o->args[0], &st) == 0 &&
	    S_ISDIR(st.st_mode))) {
		fl = fleet_new(o->outlier);
		fleet_load(fl, o->args, o->nargs, NULL);
		fleet_log_skipped(fl);
		if (report_plot_fleet(fl, o->outdir, o->plot_format,
		    &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			ret = 1;
		} else if (fl->nskip > 0)
			ret = 1;
		fleet_free(fl);
		return (ret);
	}
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

/*
 * Read file into cf and choose what it is judged against (given, else
 * what it records); if it cannot be judged, say why in cf->why.
 */
static void
check_file(const struct cli_opts *o, const char *file,
    struct report_check_file *cf, struct check_list **given)
{
	char	*cause = NULL;
	size_t	 len = strlen(file);

	cf->file = file;
	if (report_load_with(file, &cf->rep, REPORT_LOAD_LEAN, &cause) != 0) {
		cf->why = xstrdup(strncmp(cause, file, len) == 0 &&
		    cause[len] == ':' ? cause + len + 2 : cause);
		free(cause);
		return;
	}
	if (expectations(o, cf->rep.target.bs, expect_instance(
	    cf->rep.target.path, strcmp(cf->rep.target.type, "sim") == 0),
	    given) != 0)
		xasprintf(&cf->why, "--expect-profile %s does not apply to "
		    "it (said above)", o->expect_profile);
	else if (expect_type(o, report_voltype_size(&cf->rep),
	    cf->rep.target.bs, given) != 0)
		xasprintf(&cf->why, "--type %s does not apply to it (said "
		    "above)", o->type);
	else if ((cf->list = *given != NULL ? *given : cf->rep.checks) ==
	    NULL)
		xasprintf(&cf->why, "records no expectations: give --expect "
		    "EXPR, --expect-profile NAME or --type TYPE");
	else if (*given == NULL && o->accept_burst)
		cf->rep.checks->accept_burst = 1;
}

/*
 * check: judge saved reports (files, directories of them) against
 * expectations; every file is judged, and the exit status is the worst:
 * 3 an expectation missed or unknown, else 2 a file skipped, else 0.
 */
static int
check(struct cli_opts *o)
{
	struct report_files	  found;
	struct report_check_file *cf;
	struct check_list	**given, *first;
	size_t			  i, n;
	int			  ret;

	/* A malformed expectation is refused before any file is read. */
	if (expectations(o, 0, NULL, &first) != 0)
		return (EXIT_USAGE);
	check_list_free(first);
	report_files_find(&found, o->args, o->nargs);
	n = found.nbad + found.n;
	cf = xcalloc(n, sizeof *cf);
	given = xcalloc(n, sizeof *given);
	for (i = 0; i < found.nbad; i++) {
		cf[i].file = found.bad[i].path;
		cf[i].why = xstrdup(found.bad[i].why);
	}
	for (i = 0; i < found.n; i++)
		check_file(o, found.path[i], &cf[found.nbad + i],
		    &given[found.nbad + i]);
	for (i = 0; i < n; i++) {
		if (cf[i].why != NULL)
			log_warnx("skipped %s: %s", cf[i].file, cf[i].why);
	}
	if (o->format == CLI_FMT_JSON)
		ret = report_check_files_json(cf, n, stdout);
	else {
		report_check_files_write(cf, n, stdout,
		    o->format == CLI_FMT_MARKDOWN, o->quiet);
		ret = fflush(stdout);
	}
	if (ret != 0)
		ret = 1;
	else if (report_check_files_outcome(cf, n) == REPORT_CHECK_NOT_MET)
		ret = EXIT_MISSED;
	else if (report_check_files_outcome(cf, n) == REPORT_CHECK_SKIPPED)
		ret = EXIT_USAGE;
	for (i = 0; i < n; i++) {
		report_free(&cf[i].rep);
		free(cf[i].why);
		check_list_free(given[i]);
	}
	free(cf);
	free(given);
	report_files_free(&found);
	return (ret);
}

/*
 * fleet: many reports in one table, and what it could not compare (on
 * stderr too); exit 3 with --fail-on-outlier when a volume is an outlier,
 * else 1 if any file was skipped or a volume's run stopped on a fault
 * (FAILED).
 */
static int
fleet(struct cli_opts *o)
{
	struct fleet		*fl;
	struct check_list	*checks;
	char			*caveat;
	size_t			 i;
	int			 ret = 0, outliers = 0, failed = 0;

	if (expectations(o, 0, NULL, &checks) != 0)
		return (EXIT_USAGE);
	fl = fleet_new(o->outlier);
	fleet_load(fl, o->args, o->nargs, checks);
	switch (o->format) {
	case CLI_FMT_JSON:
		ret = report_fleet_json(fl, stdout);
		break;
	case CLI_FMT_CSV:
		report_fleet_csv(fl, stdout);
		break;
	case CLI_FMT_TEXT:
	case CLI_FMT_MARKDOWN:
		report_fleet_write(fl, stdout, o->format == CLI_FMT_MARKDOWN);
		break;
	}
	if (fflush(stdout) != 0)
		ret = -1;
	fleet_log_skipped(fl);
	for (i = 0; (caveat = fleet_caveat(fl, i)) != NULL; i++) {
		log_warnx("warning: %s", caveat);
		free(caveat);
	}
	for (i = 0; i < fl->nvol; i++) {
		outliers += fl->vol[i].outlier;
		if (fl->vol[i].fault != NULL) {
			log_warnx("%s: FAILED: its run stopped on a fault (%s);"
			    " left out of the medians", fl->vol[i].file,
			    fl->vol[i].fault);
			failed++;
		}
	}
	if (ret != 0)
		ret = 1;
	else if (o->fail_on_outlier && outliers > 0)
		ret = EXIT_MISSED;
	else if (fl->nskip > 0 || failed > 0)
		ret = 1;
	fleet_free(fl);
	check_list_free(checks);
	return (ret);
}

/*
 * TIERPROBE_TIERS: "rules" (the default) or "model" (tiermodel.c), the
 * tier analysis to run while the model is proved against the rules.
 */
static int
tiers_method_from_env(void)
{
	const char	*v = getenv("TIERPROBE_TIERS");

	if (v == NULL || *v == '\0' || strcmp(v, "rules") == 0)
		tiers_set_method(TIERS_RULES);
	else if (strcmp(v, "model") == 0)
		tiers_set_method(TIERS_MODEL);
	else {
		log_warnx("TIERPROBE_TIERS=%s: accepted values are rules and "
		    "model", v);
		return (-1);
	}
	return (0);
}

/*
 * ebs-stats: EBS's own counters of the volume under a device or file, on
 * their own (for those without nvme-cli).
 */
static int
ebs_stats(struct cli_opts *o)
{
	struct ebsstats_dev	 dev;
	struct ebsstats_page	 p;
	struct stat		 st;
	uint8_t			 buf[EBSSTATS_PAGE_BYTES];
	char			*cause = NULL, src[320];
	size_t			 len;
	int			 ret = 0;

	if (getenv(EBSSTATS_ENV) == NULL && stat(o->args[0], &st) != 0) {
		log_warnx("%s: %s: ebs-stats takes a block device or a file on "
		    "one", o->args[0], strerror(errno));
		return (EXIT_USAGE);
	}
	if (ebsstats_dev_open(&dev, o->args[0], 0, &cause) != 0) {
		log_warnx("no EBS counters: %s", cause);
		free(cause);
		return (1);
	}
	if (ebsstats_dev_read(&dev, "ebs-stats", 0, buf, &len, &cause) != 0 ||
	    ebsstats_parse(buf, len, &p, &cause) != 0) {
		log_warnx("%s: %s", dev.path, cause);
		free(cause);
		ebsstats_dev_close(&dev);
		return (1);
	}
	snprintf(src, sizeof src, "%s%s%s", dev.seam ? EBSSTATS_ENV : "",
	    dev.seam ? "=" : "", dev.path);
	ebsstats_dev_close(&dev);
	if (report_ebs_page_write(&p, src, stdout, o->format == CLI_FMT_JSON,
	    o->format == CLI_FMT_MARKDOWN) != 0)
		ret = 1;
	return (ret);
}

int
main(int argc, char **argv)
{
	struct cli_opts	 o;
	char		*cause = NULL;
	int		 ret = 0;

	fit_init();
	if (tiers_method_from_env() != 0)
		return (EXIT_USAGE);
	if (cli_parse(argc, argv, &o, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		cli_free(&o);
		return (EXIT_USAGE);
	}
	if (o.help || o.version) {
		if (o.help)
			cli_usage(stdout, o.cmd);
		else
			printf("tierprobe %s\n", PACKAGE_VERSION);
		cli_free(&o);
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
	case CLI_CHECK:
		ret = check(&o);
		break;
	case CLI_FLEET:
		ret = fleet(&o);
		break;
	case CLI_EBS_STATS:
		ret = ebs_stats(&o);
		break;
	case CLI_NONE:
		break;
	}
	cli_free(&o);
	return (ret);
}

/* SPDX-License-Identifier: ISC */
/* tierprobe: parse -> plan -> run -> analyse -> report. */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

#include "check.h"
#include "cli.h"
#include "compare.h"
#include "context.h"
#include "engine.h"
#include "fiojob.h"
#include "fit.h"
#include "fleet.h"
#include "interrupt.h"
#include "limits.h"
#include "log.h"
#include "profiles.h"
#include "progress.h"
#include "report.h"
#include "rng.h"
#include "scan.h"
#include "target.h"
#include "units.h"
#include "xmalloc.h"

#define EXIT_USAGE		2
#define EXIT_MISSED		3	/* expectation missed, unknown */
#define EXIT_INTERRUPTED	130
#define DEFAULT_TARGET		"tierprobe.dat"
#define WARM_BS			(1U << 20)	/* sequential warm-up reads */

/* The quick preset of 'run' without a target: about a minute here. */
static void
preset_quick(struct cli_opts *o)
{
	if (!(o->set_mask & CLI_SET_MAX_WS))
		o->max_ws = 1ULL << 30;
	if (!(o->set_mask & CLI_SET_POINTS))
		o->points = 8;
	if (!(o->set_mask & CLI_SET_MAX_TIME))
		o->max_time_s = 2;
	if (!(o->set_mask & CLI_SET_MAX_IODEPTH))
		o->max_iodepth = 64;
	if (!(o->set_mask & CLI_SET_SUSTAIN))
		o->sustain_s = 15;
}

/* Fill the settings part of a report from the options. */
static void
report_begin(struct report *rep, const struct cli_opts *o,
    const struct target *t, const char *engine, uint64_t seed)
{
	struct report_config	*c = &rep->config;

	memset(rep, 0, sizeof(*rep));
	snprintf(rep->tool_version, sizeof(rep->tool_version), "%s",
	    PACKAGE_VERSION);
	report_utc_now(rep->started_utc, sizeof(rep->started_utc));
	snprintf(c->command, sizeof(c->command), "%s", cli_cmd_name(o->cmd));
	snprintf(c->engine, sizeof(c->engine), "%s", engine);
	c->direct = t->direct;
	c->bs = o->bs;
	c->iodepth = o->iodepth;
	c->seed = seed;
	c->min_ws = o->min_ws;
	c->max_ws = o->max_ws;
	c->step = o->step;
	c->points = o->points;
	c->precision = o->precision;
	c->max_time_s = o->max_time_s;
	c->budget_s = o->budget_s;
	c->ws = o->ws;
	c->max_iodepth = o->max_iodepth;
	c->sustain_s = o->sustain_s;
	c->write = o->write;
	rep->target.path = xstrdup(t->path);
	snprintf(rep->target.type, sizeof(rep->target.type), "%s",
	    target_type_name(t->type));
	rep->target.direct = t->direct;
	snprintf(rep->target.engine, sizeof(rep->target.engine), "%s", engine);
	rep->target.bs = o->bs;
	rep->target.size_bytes = t->size;
	if (t->type != TARGET_SIM)
		context_fill(&rep->context, t->path);
	if (o->host != NULL)
		snprintf(rep->labels.host, sizeof rep->labels.host, "%s",
		    o->host);
	if (o->kind != NULL)
		snprintf(rep->labels.kind, sizeof rep->labels.kind, "%s",
		    o->kind);
}

/*
 * The expectations of --expect and --expect-profile (for I/Os of bs
 * bytes) into *out, NULL when none were given.  Returns 0, or -1 when one
 * is malformed (said on stderr: a usage error).
 */
static int
expectations(const struct cli_opts *o, uint32_t bs, struct check_list **out)
{
	struct check_list	*l;
	char			*cause = NULL;
	int			 i, rc = 0;

	*out = NULL;
	if (o->expect.n == 0 && o->expect_profile == NULL)
		return (0);
	l = check_list_new();
	if (o->expect_profile != NULL && profiles_promise_expect(
	    o->expect_profile, bs, l, &cause) != 0) {
		log_warnx("--expect-profile: %s", cause);
		rc = -1;
	}
	for (i = 0; rc == 0 && i < o->expect.n; i++) {
		if (check_list_add(l, o->expect.v[i], "--expect",
		    &cause) != 0) {
			log_warnx("--expect: %s", cause);
			rc = -1;
		}
	}
	free(cause);
	if (rc != 0)
		check_list_free(l);
	else
		*out = l;
	return (rc);
}

/* Working set of the limit sweeps: past the last cache the scan found. */
static uint64_t
limits_ws(const struct cli_opts *o, const struct scan_result *scan,
    const struct target *t)
{
	const struct tier	*last;
	uint64_t		 ws = o->max_ws;

	if (o->ws != 0)
		return (o->ws);
	if (scan != NULL && scan->tiers.analysed && scan->tiers.ntiers > 0) {
		last = &scan->tiers.tier[scan->tiers.ntiers - 1];
		if (!last->at_least)
			ws = 4 * last->capacity_high_bytes;
	}
	if (ws > t->size)
		ws = t->size;
	return (ws - ws % o->bs);
}

/* The scan's I/O, as prior work for the burst credits of the limits. */
static struct ceilings_prior *
probe_prior(const struct scan_result *scan, size_t *n)
{
	struct ceilings_prior	*prior;
	size_t			 i;

	*n = 0;
	if (scan == NULL || scan->npoints == 0)
		return (NULL);
	prior = xcalloc(scan->npoints, sizeof(*prior));
	for (i = 0; i < scan->npoints; i++)
		limits_prior_from_point(&scan->points[i], &prior[i]);
	*n = scan->npoints;
	return (prior);
}

/* Largest cache the scan found, in bytes; 0 if none. */
static uint64_t
probe_cache_bytes(const struct scan_result *scan)
{
	const struct tiers_result	*tr;

	if (scan == NULL || !scan->tiers.analysed || scan->tiers.ntiers == 0)
		return (0);
	tr = &scan->tiers;
	return (tr->tier[tr->ntiers - 1].capacity_high_bytes);
}

/* The limit sweeps' settings, after the scan (NULL if none ran). */
static void
limits_spec_from(const struct cli_opts *o, const struct scan_result *scan,
    const struct target *t, struct limits_spec *ls)
{
	memset(ls, 0, sizeof(*ls));
	ls->ws_bytes = limits_ws(o, scan, t);
	ls->bs = o->bs;
	ls->max_iodepth = o->max_iodepth;
	ls->sustain_s = (o->set_mask & CLI_SET_SUSTAIN) ? o->sustain_s : 0;
	ls->write = o->write;
	ls->precision = o->precision;
	ls->max_time_s = o->max_time_s;
	ls->engine = o->engine;
	/* A device may be a restored snapshot: look for first-read cost. */
	ls->first_touch = o->first_touch || t->type == TARGET_BLOCKDEV;
	ls->first_touch_from = scan != NULL ? o->max_ws : 0;
	ls->cache_bytes = probe_cache_bytes(scan);
}

/*
 * One measurement of target into rep: the scan, then the limit sweeps.
 * Returns 0, 1 if interrupted, -errno on an I/O error, 2 if an engine
 * could not be opened (said on stderr).
 */
static int
probe_measure(struct cli_opts *o, struct target *t, uint64_t seed,
    struct report *rep)
{
	struct engine		 e;
	struct rng		 r;
	struct scan_spec	 ss;
	struct limits_spec	 ls;
	struct ceilings_prior	*prior = NULL;
	int			 ret = 0, err;

	rng_seed(&r, seed);
	if (o->cmd != CLI_LIMITS) {
		memset(&ss, 0, sizeof(ss));
		ss.min_ws = o->min_ws;
		ss.max_ws = o->max_ws;
		ss.step = o->step;
		ss.points = o->points;
		ss.bs = o->bs;
		ss.iodepth = o->iodepth;
		ss.precision = o->precision;
		ss.max_time_s = o->max_time_s;
		ss.budget_s = o->budget_s;
		ss.align = o->bs;
		err = engine_open(&e, o->engine, t, o->iodepth,
		    o->bs > WARM_BS ? o->bs : WARM_BS, 1);
		if (err != 0) {
			log_warnx("%s engine on %s: %s", o->engine, t->path,
			    strerror(-err));
			return (2);
		}
		snprintf(rep->target.engine, sizeof(rep->target.engine), "%s",
		    e.ops->name);
		rep->scan = xcalloc(1, sizeof(*rep->scan));
		ret = scan_run(&e, &r, &ss, rep->scan);
		engine_close(&e);
	}
	if (o->cmd != CLI_SCAN && ret == 0) {
		limits_spec_from(o, rep->scan, t, &ls);
		prior = probe_prior(rep->scan, &ls.nprior);
		ls.prior = prior;
		rep->limits = xcalloc(1, sizeof(*rep->limits));
		limits_result_init(rep->limits);
		ret = limits_run(t, &r, &ls, rep->limits);
		free(prior);
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
	case CLI_FMT_CSV:	/* cli_parse accepts csv for fleet only */
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
probe_stopped(const struct cli_opts *o, const char *spec, int direct,
    uint64_t seed)
{
	struct target	t;
	struct report	rep;

	memset(&t, 0, sizeof(t));
	t.fd = -1;
	t.path = (char *)spec;
	t.type = TARGET_FILE;
	t.direct = direct;
	report_begin(&rep, o, &t, o->engine, seed);
	rep.interrupted = 1;
	report_utc_now(rep.finished_utc, sizeof(rep.finished_utc));
	report_output(&rep, o);
	report_free(&rep);
	return (EXIT_INTERRUPTED);
}

/* run, scan and limits: measure a target and report. */
static int
probe(struct cli_opts *o)
{
	struct target		 t;
	struct target_params	 tp;
	struct report		 rep, *reps;
	struct limits_spec	 ls;
	struct stat		 st;
	struct check_list	*checks;
	const char		*spec;
	char			*cause = NULL;
	uint64_t		 seed;
	unsigned		 i, runs, verdicts[3];
	int			 is_default, do_scan, do_limits, ret = 0;
	int			 status = 0;

	if (expectations(o, o->bs, &checks) != 0)
		return (EXIT_USAGE);
	is_default = o->nargs == 0;
	spec = is_default ? DEFAULT_TARGET : o->args[0];
	if (is_default)
		preset_quick(o);
	do_scan = o->cmd != CLI_LIMITS;
	do_limits = o->cmd != CLI_SCAN;
	seed = (o->set_mask & CLI_SET_SEED) ? o->seed :
	    (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	/* An existing file bounds the default scan; don't grow it. */
	if (!(o->set_mask & CLI_SET_MAX_WS) && stat(spec, &st) == 0 &&
	    S_ISREG(st.st_mode) && (uint64_t)st.st_size >= o->min_ws &&
	    (uint64_t)st.st_size < o->max_ws)
		o->max_ws = (uint64_t)st.st_size - st.st_size % o->bs;

	memset(&tp, 0, sizeof(tp));
	tp.direct = !o->buffered;
	tp.write = do_limits && o->write;
	tp.force = o->force;
	tp.force_device = o->force_device;
	tp.seed = seed;
	tp.quiet = o->quiet;
	memset(&ls, 0, sizeof(ls));
	ls.ws_bytes = o->ws ? o->ws : o->max_ws;
	ls.first_touch = o->first_touch;
	tp.need_bytes = do_limits ? limits_need_bytes(&ls) : 0;
	if (do_scan && o->max_ws > tp.need_bytes)
		tp.need_bytes = o->max_ws;
	if (strncmp(spec, "sim:", 4) == 0 || (stat(spec, &st) == 0 &&
	    S_ISBLK(st.st_mode) && !(o->set_mask & CLI_SET_MAX_WS)))
		tp.need_bytes = o->ws;
	if (target_open(&t, spec, &tp, &cause) != 0) {
		log_warnx("%s", cause);
		free(cause);
		check_list_free(checks);
		if (interrupt_requested())
			return (probe_stopped(o, spec, tp.direct, seed));
		return (strncmp(spec, "sim:", 4) == 0 ? EXIT_USAGE : 1);
	}
	if (o->bs % t.lbs != 0) {
		log_warnx("--bs %" PRIu32 ": not a multiple of %s's logical "
		    "block size (%" PRIu32 " bytes)", o->bs, t.path, t.lbs);
		target_close(&t, 1);
		check_list_free(checks);
		return (EXIT_USAGE);
	}
	if (o->max_ws > t.size)
		o->max_ws = t.size - t.size % o->bs;
	if (o->min_ws > o->max_ws) {
		log_warnx("%s holds only %" PRIu64 " bytes, less than "
		    "--min-ws: lower --min-ws", t.path, t.size);
		target_close(&t, 1);
		check_list_free(checks);
		return (EXIT_USAGE);
	}

	if (t.type == TARGET_SIM)
		o->engine = "sim";
	reps = xcalloc(o->repeat, sizeof(*reps));
	for (i = 0; i < o->repeat; i++) {
		report_begin(&reps[i], o, &t, o->engine, seed + i);
		ret = probe_measure(o, &t, seed + i, &reps[i]);
		report_utc_now(reps[i].finished_utc,
		    sizeof(reps[i].finished_utc));
		if (ret != 0)
			break;
	}
	runs = i < o->repeat ? i + 1 : o->repeat;
	rep = reps[0];
	if (o->repeat > 1 && runs > 1) {
		rep.repeat = xcalloc(1, sizeof(*rep.repeat));
		report_repeat_aggregate(reps, (int)runs, rep.repeat);
	}
	for (i = 1; i < runs; i++)
		report_free(&reps[i]);
	free(reps);
	if (ret < 0) {
		probe_error(&t, ret);
		status = 1;
	} else if (ret > 1)
		status = 1;
	rep.interrupted = ret == 1 || interrupt_requested();
	report_utc_now(rep.finished_utc, sizeof(rep.finished_utc));
	rep.checks = checks;

	if (report_output(&rep, o) != 0 && status == 0)
		status = 1;
	if (status == 0 && checks != NULL &&
	    !check_tally(checks, &rep, verdicts))
		status = EXIT_MISSED;
	report_free(&rep);
	target_close(&t, (is_default && !o->keep) || rep.interrupted);
	if (rep.interrupted)
		return (EXIT_INTERRUPTED);
	return (status);
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
	interrupt_set_cleanup(NULL);
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
		ret = profiles_show(o->show, stdout, &cause);
	else
		ret = profiles_list(stdout, &cause);
	if (ret != 0) {
		log_warnx("%s", cause);
		free(cause);
		return (EXIT_USAGE);
	}
	return (0);
}

/* check: judge saved reports against expectations. */
static int
check(struct cli_opts *o)
{
	struct report		 *reps;
	struct check_list	**given;
	const struct check_list	**use;
	char			 *cause = NULL;
	unsigned		  verdicts[3];
	int			  i, n, ret = 0;

	reps = xcalloc(o->nargs, sizeof *reps);
	given = xcalloc(o->nargs, sizeof *given);
	use = xcalloc(o->nargs, sizeof *use);
	for (n = 0; n < o->nargs && ret == 0; n++) {
		if (report_load(o->args[n], &reps[n], &cause) != 0) {
			log_warnx("%s", cause);
			free(cause);
			ret = EXIT_USAGE;
		} else if (expectations(o, reps[n].target.bs, &given[n]) != 0)
			ret = EXIT_USAGE;
		else if ((use[n] = given[n] != NULL ? given[n] :
		    reps[n].checks) == NULL) {
			log_warnx("%s records no expectations: give --expect "
			    "EXPR or --expect-profile NAME", o->args[n]);
			ret = EXIT_USAGE;
		}
	}
	if (ret == 0 && o->format == CLI_FMT_JSON)
		ret = report_check_json_dump(o->args, reps, use, n,
		    stdout) != 0;
	for (i = 0; ret == 0 && o->format != CLI_FMT_JSON && i < n; i++) {
		report_check_heading(o->args[i], &reps[i], stdout,
		    o->format == CLI_FMT_MARKDOWN);
		report_check_write(&reps[i], use[i], stdout,
		    o->format == CLI_FMT_MARKDOWN);
	}
	for (i = 0; ret == 0 && i < n; i++) {
		if (!check_tally(use[i], &reps[i], verdicts))
			ret = EXIT_MISSED;
	}
	for (i = 0; i < n; i++) {
		report_free(&reps[i]);
		check_list_free(given[i]);
	}
	free(reps);
	free(given);
	free(use);
	return (ret);
}

/* fleet: many reports in one table; exit 1 if any file was skipped. */
static int
fleet(struct cli_opts *o)
{
	struct fleet		*fl;
	struct check_list	*checks;
	int			 ret = 0;

	if (expectations(o, 0, &checks) != 0)
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
	if (ret != 0 || fl->nskip > 0)
		ret = 1;
	fleet_free(fl);
	check_list_free(checks);
	return (ret);
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
	case CLI_NONE:
		break;
	}
	cli_free(&o);
	return (ret);
}

/* SPDX-License-Identifier: ISC */
/*
 * A report as JSON (schema in man/tierprobe-report.5), built with jansson
 * and dumped once; unknown figures are null, sections not run are absent.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <jansson.h>
#include <libgen.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "xmalloc.h"

#define REPORT_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(6) | \
	JSON_ENSURE_ASCII)

/* A double, or null when it is not a number. */
static json_t *
report_json_real(double v)
{
	if (!isfinite(v))
		return (json_null());
	return (json_real(v));
}

static json_t *
report_json_uint(uint64_t v)
{
	return (json_integer((json_int_t)v));
}

/* A count where 0 means unknown. */
static json_t *
report_json_uint_or_null(uint64_t v)
{
	return (v ? report_json_uint(v) : json_null());
}

/* A string where "" means unknown. */
static json_t *
report_json_str_or_null(const char *s)
{
	return (s != NULL && *s != '\0' ? json_string(s) : json_null());
}

static void
report_json_set(json_t *o, const char *key, json_t *v)
{
	json_object_set_new(o, key, v);
}

static json_t *
report_json_hist(const struct hist *h)
{
	json_t	*a, *pair;
	size_t	 i;

	a = json_array();
	for (i = 0; i < HIST_BUCKETS; i++) {
		if (h->bucket[i] == 0)
			continue;
		pair = json_array();
		json_array_append_new(pair, report_json_uint(
		    hist_bucket_low(i)));
		json_array_append_new(pair, report_json_uint(h->bucket[i]));
		json_array_append_new(a, pair);
	}
	return (a);
}

static json_t *
report_json_point(const struct point *p)
{
	json_t	*o, *lat;

	o = json_object();
	report_json_set(o, "ws_bytes", report_json_uint(p->ws_bytes));
	report_json_set(o, "bs", report_json_uint(p->bs));
	report_json_set(o, "iodepth", report_json_uint(p->iodepth));
	report_json_set(o, "rw", json_string(p->write ? "randwrite" :
	    "randread"));
	report_json_set(o, "ios", report_json_uint(p->ios));
	report_json_set(o, "seconds", report_json_real(p->seconds));
	report_json_set(o, "warm_seconds", report_json_real(p->warm_seconds));
	report_json_set(o, "iops", report_json_real(p->iops));
	report_json_set(o, "bytes_per_s", report_json_real(p->bytes_per_s));
	report_json_set(o, "ci95_rel", report_json_real(p->ci95_rel));
	report_json_set(o, "cpu_util", report_json_real(p->cpu_util));
	lat = json_object();
	report_json_set(lat, "mean", report_json_real(p->lat_us.mean));
	report_json_set(lat, "p50", report_json_real(p->lat_us.p50));
	report_json_set(lat, "p90", report_json_real(p->lat_us.p90));
	report_json_set(lat, "p99", report_json_real(p->lat_us.p99));
	report_json_set(lat, "p999", report_json_real(p->lat_us.p999));
	report_json_set(o, "lat_us", lat);
	if (p->hist != NULL) {
		report_json_set(o, "hist", report_json_hist(p->hist));
		report_json_set(o, "hist_sum_ns",
		    report_json_real(p->hist->sum_ns));
		report_json_set(o, "hist_min_ns",
		    report_json_uint(p->hist->min_ns));
		report_json_set(o, "hist_max_ns",
		    report_json_uint(p->hist->max_ns));
		report_json_set(o, "hist_overflow",
		    report_json_uint(p->hist->overflow));
	}
	return (o);
}

static json_t *
report_json_points(const struct point *v, size_t n)
{
	json_t	*a;
	size_t	 i;

	a = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(a, report_json_point(&v[i]));
	return (a);
}

static json_t *
report_json_scan(const struct scan_result *s)
{
	const struct tiers_result	*tr = &s->tiers;
	const struct tier		*t;
	json_t				*o, *a, *to, *b;
	size_t				 i;

	o = json_object();
	report_json_set(o, "interrupted", json_boolean(s->interrupted));
	report_json_set(o, "device_time_s", report_json_real(
	    s->device_time_s));
	report_json_set(o, "analysed", json_boolean(tr->analysed));
	a = json_array();
	for (i = 0; tr->analysed && i < tr->ntiers && i < TIERS_MAX; i++) {
		t = &tr->tier[i];
		to = json_object();
		report_json_set(to, "capacity_bytes",
		    report_json_uint_or_null(t->capacity_bytes));
		report_json_set(to, "capacity_low_bytes",
		    report_json_uint_or_null(t->capacity_low_bytes));
		report_json_set(to, "capacity_high_bytes",
		    report_json_uint_or_null(t->capacity_high_bytes));
		report_json_set(to, "capacity_at_least",
		    json_boolean(t->at_least));
		report_json_set(to, "lat_us_p50",
		    report_json_real(t->lat_us_p50));
		report_json_set(to, "lat_us_p99",
		    report_json_real(t->lat_us_p99));
		json_array_append_new(a, to);
	}
	report_json_set(o, "tiers", a);
	b = json_object();
	report_json_set(b, "lat_us_p50", report_json_real(tr->analysed ?
	    tr->backing_p50_us : NAN));
	report_json_set(b, "lat_us_p99", report_json_real(tr->analysed ?
	    tr->backing_p99_us : NAN));
	report_json_set(o, "backing", b);
	report_json_set(o, "note", report_json_str_or_null(tr->note));
	report_json_set(o, "points", report_json_points(s->points,
	    s->npoints));
	return (o);
}

/* The first-touch comparison of a limits run. */
static json_t *
report_json_first_touch(const struct first_touch *ft)
{
	json_t	*o = json_object();

	report_json_set(o, "detected", json_boolean(ft->detected));
	report_json_set(o, "blocks", report_json_uint(ft->blocks));
	report_json_set(o, "first_p50_us", report_json_real(ft->first_p50_us));
	report_json_set(o, "first_mean_us",
	    report_json_real(ft->first_mean_us));
	report_json_set(o, "second_p50_us",
	    report_json_real(ft->second_p50_us));
	report_json_set(o, "second_mean_us",
	    report_json_real(ft->second_mean_us));
	report_json_set(o, "ratio", report_json_real(ft->ratio));
	report_json_set(o, "slower_fraction",
	    report_json_real(ft->slower_fraction));
	return (o);
}

static json_t *
report_json_limits(const struct limits_result *l)
{
	const struct timeline_sample	*ts;
	json_t				*o, *b, *a, *so;
	size_t				 i;

	o = json_object();
	report_json_set(o, "interrupted", json_boolean(l->interrupted));
	report_json_set(o, "ws_bytes", report_json_uint(l->ws_bytes));
	report_json_set(o, "iops_ceiling", report_json_real(l->iops_ceiling));
	report_json_set(o, "iops_knee_iodepth",
	    report_json_uint_or_null(l->iops_knee_iodepth));
	report_json_set(o, "iops_max_seen",
	    report_json_real(l->iops_max_seen));
	report_json_set(o, "cpu_bound", json_boolean(l->cpu_bound));
	report_json_set(o, "bandwidth_ceiling_bytes_per_s",
	    report_json_real(l->bandwidth_ceiling_bytes_per_s));
	report_json_set(o, "io_accounting_bytes",
	    report_json_uint_or_null(l->io_accounting_bytes));
	report_json_set(o, "iops_limit", json_string(
	    ceilings_iops_limit_name(l->iops_limit)));
	report_json_set(o, "iops_max_seen_iodepth",
	    report_json_uint_or_null(l->iops_max_seen_iodepth));
	report_json_set(o, "cpu_util", report_json_real(l->cpu_util));
	report_json_set(o, "little_ratio", report_json_real(l->little_ratio));
	report_json_set(o, "lat0_us", report_json_real(l->lat0_us));
	report_json_set(o, "bs_iodepth", report_json_uint_or_null(
	    l->bs_iodepth));
	report_json_set(o, "bandwidth_max_seen_bytes_per_s",
	    report_json_real(l->bandwidth_max_seen));
	report_json_set(o, "bandwidth_limit", json_string(
	    ceilings_bw_limit_name(l->bandwidth_limit)));
	report_json_set(o, "optimal_io_bytes",
	    report_json_real(l->optimal_io_bytes));
	report_json_set(o, "sustain_iodepth", report_json_uint_or_null(
	    l->sustain_iodepth));
	report_json_set(o, "sustain_s", report_json_real(l->sustain_s));
	report_json_set(o, "note", report_json_str_or_null(l->note));
	if (l->first_touch.measured)
		report_json_set(o, "first_touch",
		    report_json_first_touch(&l->first_touch));
	b = json_object();
	report_json_set(b, "detected", json_boolean(l->burst.detected));
	report_json_set(b, "burst_iops", report_json_real(
	    l->burst.detected ? l->burst.burst_iops : NAN));
	report_json_set(b, "baseline_iops", report_json_real(
	    l->burst.detected ? l->burst.baseline_iops : NAN));
	report_json_set(b, "duration_s", report_json_real(
	    l->burst.detected ? l->burst.duration_s : NAN));
	report_json_set(b, "credits_ios", report_json_real(
	    l->burst.detected ? l->burst.credits_ios : NAN));
	report_json_set(b, "observed_s", report_json_real(
	    l->burst.detected ? l->burst.observed_s : NAN));
	report_json_set(b, "drop_t_s", report_json_real(
	    l->burst.detected ? l->burst.drop_t_s : NAN));
	report_json_set(b, "prior_credits_ios", report_json_real(
	    l->burst.detected ? l->burst.prior_credits_ios : NAN));
	report_json_set(b, "exhausted", json_boolean(l->burst.exhausted));
	report_json_set(b, "variable", json_boolean(l->burst.variable));
	report_json_set(o, "burst", b);
	report_json_set(o, "qd_points", report_json_points(l->qd_points,
	    l->nqd));
	report_json_set(o, "bs_points", report_json_points(l->bs_points,
	    l->nbs));
	a = json_array();
	for (i = 0; i < l->timeline.n; i++) {
		ts = &l->timeline.v[i];
		so = json_object();
		report_json_set(so, "t_s", report_json_real(ts->t_s));
		report_json_set(so, "iops", report_json_real(ts->iops));
		report_json_set(so, "bytes_per_s",
		    report_json_real(ts->bytes_per_s));
		report_json_set(so, "lat_us_mean",
		    report_json_real(ts->lat_us_mean));
		json_array_append_new(a, so);
	}
	report_json_set(o, "timeline", a);
	return (o);
}

static json_t *
report_json_repeat(const struct report_repeat *rr)
{
	const struct report_stat	*s;
	json_t				*o, *a, *so;
	size_t				 i;

	o = json_object();
	report_json_set(o, "runs", report_json_uint(rr->runs));
	a = json_array();
	for (i = 0; i < rr->nstats && i < REPORT_STATS_MAX; i++) {
		s = &rr->stat[i];
		so = json_object();
		report_json_set(so, "name", json_string(s->name));
		report_json_set(so, "n", report_json_uint(s->n));
		report_json_set(so, "mean", report_json_real(s->mean));
		report_json_set(so, "sd", report_json_real(s->sd));
		report_json_set(so, "cv", report_json_real(s->cv));
		json_array_append_new(a, so);
	}
	report_json_set(o, "figures", a);
	return (o);
}

static json_t *
report_json_build(const struct report *r)
{
	const struct report_config	*c = &r->config;
	const struct report_context	*x = &r->context;
	json_t				*root, *o;
	char				 seed[32];

	root = json_object();
	report_json_set(root, "schema_version",
	    json_integer(REPORT_SCHEMA_VERSION));
	o = json_object();
	report_json_set(o, "name", json_string("tierprobe"));
	report_json_set(o, "version", json_string(r->tool_version));
	report_json_set(root, "tool", o);
	report_json_set(root, "command", json_string(c->command));
	report_json_set(root, "interrupted", json_boolean(r->interrupted));
	report_json_set(root, "started_utc",
	    report_json_str_or_null(r->started_utc));
	report_json_set(root, "finished_utc",
	    report_json_str_or_null(r->finished_utc));

	o = json_object();
	report_json_set(o, "command", json_string(c->command));
	report_json_set(o, "engine", json_string(c->engine));
	report_json_set(o, "direct", json_boolean(c->direct));
	report_json_set(o, "bs", report_json_uint(c->bs));
	report_json_set(o, "iodepth", report_json_uint(c->iodepth));
	if (c->seed > INT64_MAX) {
		snprintf(seed, sizeof seed, "%" PRIu64, c->seed);
		report_json_set(o, "seed", json_string(seed));
	} else
		report_json_set(o, "seed", report_json_uint(c->seed));
	report_json_set(o, "min_ws_bytes", report_json_uint(c->min_ws));
	report_json_set(o, "max_ws_bytes", report_json_uint(c->max_ws));
	report_json_set(o, "step_bytes", report_json_uint(c->step));
	report_json_set(o, "points", report_json_uint(c->points));
	report_json_set(o, "precision", report_json_real(c->precision));
	report_json_set(o, "max_time_s", report_json_real(c->max_time_s));
	report_json_set(o, "budget_s", report_json_real(c->budget_s));
	report_json_set(o, "ws_bytes", report_json_uint(c->ws));
	report_json_set(o, "max_iodepth", report_json_uint(c->max_iodepth));
	report_json_set(o, "sustain_s", report_json_real(c->sustain_s));
	report_json_set(o, "rw", json_string(c->write ? "write" : "read"));
	report_json_set(root, "config", o);

	o = json_object();
	report_json_set(o, "path", report_json_str_or_null(r->target.path));
	report_json_set(o, "type", json_string(r->target.type));
	report_json_set(o, "direct", json_boolean(r->target.direct));
	report_json_set(o, "engine", json_string(r->target.engine));
	report_json_set(o, "bs", report_json_uint(r->target.bs));
	report_json_set(o, "size_bytes",
	    report_json_uint_or_null(r->target.size_bytes));
	report_json_set(root, "target", o);

	o = json_object();
	report_json_set(o, "hostname", report_json_str_or_null(x->hostname));
	report_json_set(o, "kernel", report_json_str_or_null(x->kernel));
	report_json_set(o, "device", report_json_str_or_null(x->device));
	report_json_set(o, "device_model",
	    report_json_str_or_null(x->device_model));
	report_json_set(o, "scheduler",
	    report_json_str_or_null(x->scheduler));
	report_json_set(o, "rotational", x->rotational < 0 ? json_null() :
	    json_boolean(x->rotational));
	report_json_set(o, "nr_requests",
	    report_json_uint_or_null(x->nr_requests));
	report_json_set(o, "read_ahead_kb", x->device[0] == '\0' ?
	    json_null() : report_json_uint(x->read_ahead_kb));
	report_json_set(o, "logical_block_bytes",
	    report_json_uint_or_null(x->logical_block));
	report_json_set(o, "physical_block_bytes",
	    report_json_uint_or_null(x->physical_block));
	report_json_set(o, "fstype", report_json_str_or_null(x->fstype));
	report_json_set(o, "mount_options",
	    report_json_str_or_null(x->mount_options));
	report_json_set(root, "context", o);

	o = json_object();
	report_json_set(o, "host", report_json_str_or_null(r->labels.host));
	report_json_set(o, "kind", report_json_str_or_null(r->labels.kind));
	report_json_set(root, "labels", o);

	if (r->scan != NULL)
		report_json_set(root, "scan", report_json_scan(r->scan));
	if (r->limits != NULL)
		report_json_set(root, "limits", report_json_limits(r->limits));
	if (r->repeat != NULL)
		report_json_set(root, "repeat", report_json_repeat(r->repeat));
	if (r->checks != NULL)
		report_json_set(root, "expectations",
		    report_check_json(r, r->checks));
	return (root);
}

/* JSON to a stream (one document and a newline).  Returns 0 or -1. */
int
report_json_dump(const struct report *r, FILE *f)
{
	json_t	*root;
	int	 rc;

	root = report_json_build(r);
	rc = json_dumpf(root, f, REPORT_JSON_FLAGS);
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0 || ferror(f))
		return (-1);
	return (0);
}

/* JSON to path atomically: temp file beside it, fsync, rename. */
static int
report_json_write_file(const struct report *r, const char *path,
    char **cause)
{
	char	*copy, *copy2, *tmp = NULL;
	FILE	*f = NULL;
	mode_t	 mask;
	int	 fd = -1, dfd, saved;

	copy = xstrdup(path);
	copy2 = xstrdup(path);
	xasprintf(&tmp, "%s/.%s.XXXXXX", dirname(copy), basename(copy2));
	free(copy2);
	free(copy);
	if ((fd = mkstemp(tmp)) == -1) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		free(tmp);
		return (-1);
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) == -1)
		goto fail;
	if ((f = fdopen(fd, "w")) == NULL)
		goto fail;
	fd = -1;
	if (report_json_dump(r, f) != 0) {
		if (errno == 0)
			errno = EIO;
		goto fail;
	}
	if (fsync(fileno(f)) == -1)
		goto fail;
	if (fclose(f) != 0) {
		f = NULL;
		goto fail;
	}
	f = NULL;
	if (rename(tmp, path) == -1)
		goto fail;
	/* Make the rename itself durable. */
	copy = xstrdup(path);
	if ((dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY)) != -1) {
		fsync(dfd);
		close(dfd);
	}
	free(copy);
	free(tmp);
	return (0);

fail:
	saved = errno;
	if (f != NULL)
		fclose(f);
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	xasprintf(cause, "%s: %s", path, strerror(saved));
	return (-1);
}

/*
 * Write the report atomically, with SIGINT and SIGTERM held off meanwhile:
 * a second interrupt (which exits at once) then lands after the rename and
 * never leaves the temp file behind.
 */
int
report_json_write(const struct report *r, const char *path, char **cause)
{
	sigset_t	block, old;
	int		ret;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	ret = report_json_write_file(r, path, cause);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return (ret);
}

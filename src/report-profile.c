/* SPDX-License-Identifier: ISC */
/*
 * Simulated-volume profiles for people: the list of built-in ones, one
 * profile's settings with the truth a perfect detector would report, and
 * the expectations that truth gives (--expect-profile).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "formula.h"
#include "profiles.h"
#include "report.h"
#include "sim.h"
#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

/* The tolerance of --expect-profile when a profile states none. */
#define REPORT_PROFILE_ASSUMED_PCT	10

/* An IOPS figure, or "none". */
static const char *
report_profile_iops(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "none");
	else if (v >= 100)
		snprintf(buf, len, "%.0f IOPS", v);
	else
		snprintf(buf, len, "%.3g IOPS", v);
	return (buf);
}

/* A rate in bytes per second, or "none". */
static const char *
report_profile_rate(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "none");
	else
		units_format_rate(v, buf, len);
	return (buf);
}

/* An instance's ceilings and bucket, and who shares them. */
static void
report_profile_instance(const struct profile *p, FILE *out)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	double	s = p->instance_burst_s;

	if (p->instance_name != NULL)
		fprintf(out, "\nInstance %s (shared by every simulated volume "
		    "of a run on %s)\n", p->instance_name, p->instance_name);
	else
		fprintf(out, "\nInstance (unnamed: this volume's own)\n");
	if (!p->instance_only && p->instance_description != NULL &&
	    *p->instance_description != '\0')
		fprintf(out, "  %s\n", p->instance_description);
	if (p->instance_iops > 0)
		fprintf(out, "  IOPS              %s%s%s\n",
		    report_profile_iops(p->instance_iops, a, sizeof a),
		    p->instance_burst_iops > 0 ? " baseline, burst " : "",
		    p->instance_burst_iops > 0 ? report_profile_iops(
		    p->instance_burst_iops, b, sizeof b) : "");
	if (p->instance_bandwidth > 0)
		fprintf(out, "  bandwidth         %s%s%s\n",
		    report_profile_rate(p->instance_bandwidth, a, sizeof a),
		    p->instance_burst_bandwidth > 0 ? " baseline, burst " : "",
		    p->instance_burst_bandwidth > 0 ? report_profile_rate(
		    p->instance_burst_bandwidth, b, sizeof b) : "");
	if (s > 0)
		fprintf(out, "  bucket            starts full, lasts %.0f s at "
		    "the burst rates, earns at the baseline: %.0f I/O "
		    "credits, %s of bandwidth credits\n", s,
		    p->instance_burst_iops > 0 ? (p->instance_burst_iops -
		    p->instance_iops) * s : 0, units_format_size((uint64_t)(
		    p->instance_burst_bandwidth > 0 ?
		    (p->instance_burst_bandwidth - p->instance_bandwidth) * s :
		    0), c, sizeof c));
	if (p->instance_burst_period_s > 0)
		fprintf(out, "  refill            full again every %.0f s, "
		    "however it was used\n", p->instance_burst_period_s);
	if (p->instance_only)
		fprintf(out, "  use               put a volume on it: "
		    "sim:ebs-gp3@%s\n", p->instance_name);
}

/* A place's outliers, when it has any. */
static void
report_profile_outliers(double share, double factor, FILE *out)
{
	if (share > 0)
		fprintf(out, "  outliers          %g%% of reads, %gx to %gx the "
		    "median\n", 100 * share, factor, 10 * factor);
}

/* A tier's hits at a second speed, when it has one. */
static void
report_profile_second(const struct profile_tier *t, FILE *out)
{
	char	a[UNITS_BUFSZ];

	if (t->second_us <= 0)
		return;
	fprintf(out, "  second speed      median %s, sigma %g, %g%% of the "
	    "hits", units_format_lat_us(t->second_us, a, sizeof a),
	    t->second_sigma, 100 * t->second_share);
	if (t->second_share_missed != t->second_share)
		fprintf(out, ", moving to %g%% as the recent reads miss the "
		    "tier", 100 * t->second_share_missed);
	fprintf(out, " (the truth: at %g%%)\n", 100 * t->second_share);
}

/* The ceilings and buckets a profile imposes, as written in it. */
static void
report_profile_ceilings(const struct profile *p, FILE *out)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];

	fprintf(out, "\nCeilings\n");
	if (p->limit_iops == 0 && p->limit_bandwidth == 0)
		fprintf(out, "  none imposed%s\n", p->instance_iops == 0 &&
		    p->instance_bandwidth == 0 ? ": the backing store sets "
		    "the pace" : " by the volume: see its instance");
	if (p->limit_iops > 0)
		fprintf(out, "  volume IOPS       %s%s\n",
		    report_profile_iops(p->limit_iops, a, sizeof a),
		    p->burst_iops > 0 ? " (baseline)" : "");
	if (p->limit_bandwidth > 0)
		fprintf(out, "  volume bandwidth  %s%s\n",
		    report_profile_rate(p->limit_bandwidth, a, sizeof a),
		    p->burst_bandwidth > 0 ? " (baseline)" : "");
	if (p->io_accounting > 0)
		fprintf(out, "  I/O accounting    %s: a larger I/O costs "
		    "ceil(size / %s) IOPS tokens\n",
		    units_format_size(p->io_accounting, a, sizeof a),
		    units_format_size(p->io_accounting, b, sizeof b));
	else if (p->limit_iops > 0 || p->instance_iops > 0)
		fprintf(out, "  I/O accounting    none: every I/O costs one "
		    "token\n");

	if (p->burst_iops > 0 || p->burst_bandwidth > 0)
		fprintf(out, "\nBurst bucket (starts full, earns at the "
		    "baseline rate, each I/O spends its cost)\n");
	if (p->burst_iops > 0)
		fprintf(out, "  IOPS              %.0f burst, %.0f baseline, "
		    "%.0f credits: %.0f s at full demand, %.0f s to refill\n",
		    p->burst_iops, p->limit_iops, p->burst_credits,
		    p->burst_credits / (p->burst_iops - p->limit_iops),
		    p->burst_credits / p->limit_iops);
	if (p->burst_bandwidth > 0)
		fprintf(out, "  bandwidth         %s burst, %s baseline, "
		    "%s of credits: %.0f s at full demand\n",
		    report_profile_rate(p->burst_bandwidth, a, sizeof a),
		    report_profile_rate(p->limit_bandwidth, b, sizeof b),
		    units_format_size((uint64_t)p->burst_credit_bytes, c,
		    sizeof c),
		    p->burst_credit_bytes /
		    (p->burst_bandwidth - p->limit_bandwidth));
	if (p->instance_name != NULL || p->instance_iops > 0 ||
	    p->instance_bandwidth > 0)
		report_profile_instance(p, out);
}

/* The write side as written in the profile. */
static void
report_profile_writes(const struct profile *p, FILE *out)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ];

	fprintf(out, "\nWrites (reads and writes share the ceilings and "
	    "buckets)\n");
	fprintf(out, "  latency           median %s, sigma %g\n",
	    units_format_lat_us(p->write_latency_us, a, sizeof a),
	    p->write_sigma);
	fprintf(out, "  write cache       %s, FUA %s (what sysfs says)\n",
	    p->write_cache, p->fua ? "yes" : "no");
	if (!p->write_back)
		fprintf(out, "  flush             never sent (write through)\n");
	else if (p->flush_us > 0)
		fprintf(out, "  flush             median %s, sigma %g, one at a "
		    "time\n", units_format_lat_us(p->flush_us, a, sizeof a),
		    p->flush_sigma);
	else
		fprintf(out, "  flush             acknowledged at once: nothing "
		    "is persisted\n");
	if (p->buffer_bytes > 0)
		fprintf(out, "  write-back buffer %s, draining at %s\n",
		    units_format_size((uint64_t)p->buffer_bytes, a, sizeof a),
		    report_profile_rate(p->buffer_drain, b, sizeof b));
}

/* What a perfect detector would report of writes and commits. */
static void
report_profile_write_truth(const struct sim_truth *t, FILE *out)
{
	char	a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];

	fprintf(out, "  write latency     p50 %s, p99 %s\n",
	    units_format_lat_us(t->write_p50_us, a, sizeof a),
	    units_format_lat_us(t->write_p99_us, b, sizeof b));
	fprintf(out, "  sync.flush_us     %s; sync.write_cache \"%s\", "
	    "sync.fua %s\n", units_format_lat_us(t->flush_p50_us, a,
	    sizeof a), t->write_cache, t->fua ? "true" : "false");
	fprintf(out, "  commits           %.0f a second at most from one "
	    "writer (write and flush: mean %s)\n", t->commit_ops_per_s,
	    units_format_lat_us(t->commit_mean_us, b, sizeof b));
	if (t->buffer_bytes > 0)
		fprintf(out, "  writes.buffer     %s, at %s then %s (1 MiB "
		    "writes), empties in %.0f s when idle\n", units_format_size(
		    (uint64_t)t->buffer_bytes, a, sizeof a),
		    report_profile_rate(t->buffer_fast_bytes_per_s, b,
		    sizeof b), report_profile_rate(t->buffer_slow_bytes_per_s,
		    c, sizeof c), t->buffer_drain_s);
	else
		fprintf(out, "  writes.buffer     none\n");
}

/* What a perfect detector would report, from sim_truth_profile. */
static void
report_profile_truth(const struct sim_truth *t, FILE *out)
{
	char		a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	size_t		i;

	fprintf(out, "\nWhat a perfect detector reports (%s I/O, "
	    "full buckets unless said)\n",
	    units_format_size(t->bs, a, sizeof a));
	for (i = 0; i < t->ntiers; i++)
		fprintf(out, "  tier %zu            capacity %s, p50 %s, "
		    "p99 %s\n", i + 1,
		    units_format_size(t->tier[i].capacity_bytes, a, sizeof a),
		    units_format_lat_us(t->tier[i].lat_us_p50, b, sizeof b),
		    units_format_lat_us(t->tier[i].lat_us_p99, c, sizeof c));
	if (t->ntiers == 0)
		fprintf(out, "  tiers             none\n");
	fprintf(out, "  scan.backing      p50 %s, p99 %s\n",
	    units_format_lat_us(t->backing_p50_us, a, sizeof a),
	    units_format_lat_us(t->backing_p99_us, b, sizeof b));
	fprintf(out, "  iops_ceiling      %s (%s), reached at iodepth %u\n",
	    report_profile_iops(t->iops_ceiling, a, sizeof a),
	    sim_limiter_name(t->iops_limiter), t->knee_iodepth);
	if (t->iops_sustained < t->iops_ceiling * (1 - 1e-9))
		fprintf(out, "  sustained IOPS    %s (%s)\n",
		    report_profile_iops(t->iops_sustained, a, sizeof a),
		    sim_limiter_name(t->iops_sustained_limiter));
	fprintf(out, "  bandwidth_ceiling %s (%s, large I/O)\n",
	    report_profile_rate(t->bandwidth_ceiling, a, sizeof a),
	    sim_limiter_name(t->bandwidth_limiter));
	if (t->bandwidth_sustained < t->bandwidth_ceiling * (1 - 1e-9))
		fprintf(out, "  sustained bandwidth %s (%s)\n",
		    report_profile_rate(t->bandwidth_sustained, a, sizeof a),
		    sim_limiter_name(t->bandwidth_sustained_limiter));
	if (t->io_accounting_bytes == 0 || (!t->io_accounting_observable &&
	    !t->io_accounting_observable_sustained))
		fprintf(out, "  io_accounting     not observable%s\n",
		    t->io_accounting_bytes > 0 ? " (a bandwidth cap binds "
		    "first)" : "");
	else if (t->io_accounting_observable)
		fprintf(out, "  io_accounting     %s\n",
		    units_format_size(t->io_accounting_bytes, a, sizeof a));
	else
		fprintf(out, "  io_accounting     %s once the bucket is empty; "
		    "not observable before (a bandwidth cap binds first)\n",
		    units_format_size(t->io_accounting_bytes, a, sizeof a));
	if (isfinite(t->optimal_io_bytes))
		fprintf(out, "  optimal I/O size  %s (bandwidth / IOPS "
		    "ceiling)\n", units_format_size(
		    (uint64_t)(t->optimal_io_bytes + 0.5), a, sizeof a));
	if (t->burst_detected)
		fprintf(out, "  burst             %s then %s, lasts %.0f s, "
		    "%.0f credits (I/Os), refills in %.0f s%s\n",
		    report_profile_iops(t->burst_iops, a, sizeof a),
		    report_profile_iops(t->baseline_iops, b, sizeof b),
		    t->burst_duration_s, t->burst_credits_ios, t->refill_s,
		    t->burst_instance ? " (the instance's bucket)" : "");
	else
		fprintf(out, "  burst             none\n");
	if (t->bw_burst_detected)
		fprintf(out, "  bandwidth burst   %s then %s, lasts %.0f s "
		    "with large I/O\n",
		    report_profile_rate(t->bandwidth_ceiling, a, sizeof a),
		    report_profile_rate(t->bandwidth_sustained, b, sizeof b),
		    t->bw_burst_duration_s);
	if (t->first_read_p50_us > 0)
		fprintf(out, "  first touch       +%s on a block's first read "
		    "(not a cache tier)\n",
		    units_format_lat_us(t->first_read_p50_us, a, sizeof a));
	report_profile_write_truth(t, out);
}

/* The documented volume types, one a line. */
static void
report_profile_list_types(FILE *out)
{
	struct voltype	*t;
	char		**v, *why;
	size_t		 n, i;

	v = profiles_type_names(&n);
	if (n > 0)
		fprintf(out, "\nVolume types (a volume of one: sim:TYPE:SIZE"
		    "[,SETTING=VALUE...]; judged against every run; --type "
		    "TYPE)\n");
	for (i = 0; i < n; i++) {
		why = NULL;
		if ((t = profiles_type_load(v[i], &why)) == NULL) {
			fprintf(out, "%-22s (invalid: %s)\n", v[i], why);
			free(why);
			continue;
		}
		fprintf(out, "%-22s %9s  %s\n", v[i], "", t->description);
		voltype_free(t);
	}
	profiles_names_free(v, n);
}

/* Print the built-in profiles, one a line. */
int
report_profile_list(FILE *out, char **cause)
{
	const char *const	*dirs;
	struct profile		*p;
	char			**v, *why, size[UNITS_BUFSZ];
	size_t			 i, n;

	v = profiles_names(&n);
	if (n == 0) {
		dirs = profiles_dirs();
		xasprintf(cause, "no simulated volume profiles found in %s "
		    "or %s", dirs[0], dirs[1]);
		return (-1);
	}
	for (i = 0; i < n; i++) {
		why = NULL;
		if ((p = profiles_load(v[i], &why)) == NULL) {
			fprintf(out, "%-22s (invalid: %s)\n", v[i], why);
			free(why);
			continue;
		}
		fprintf(out, "%-22s %9s  %s\n", v[i],
		    units_format_size(p->size, size, sizeof size),
		    p->description);
		profiles_free(p);
	}
	profiles_names_free(v, n);
	v = profiles_instance_names(&n);
	if (n > 0)
		fprintf(out, "\nInstances (put a volume on one: "
		    "sim:VOLUME@INSTANCE)\n");
	for (i = 0; i < n; i++) {
		why = NULL;
		if ((p = profiles_load_instance(v[i], &why)) == NULL) {
			fprintf(out, "%-22s (invalid: %s)\n", v[i], why);
			free(why);
			continue;
		}
		fprintf(out, "%-22s %9s  %s\n", v[i], "", p->description);
		profiles_free(p);
	}
	profiles_names_free(v, n);
	report_profile_list_types(out);
	return (0);
}

/* Print instance profile name (or path) for people. */
static int
report_profile_show_instance(const char *name, FILE *out, char **cause)
{
	struct profile	*p;

	if ((p = profiles_load_instance(name, cause)) == NULL)
		return (-1);
	fprintf(out, "%s: %s\n", p->name, p->description);
	fprintf(out, "  file              %s\n", p->path);
	report_profile_instance(p, out);
	profiles_free(p);
	return (0);
}

/* Print volume type name (or path) for people: its rules. */
static int
report_profile_show_type(const char *name, FILE *out, char **cause)
{
	static const char *const figs[VOLTYPE_NFIGS] = {
		"iops", "bandwidth", "io_accounting", "burst_iops",
		"burst_credits", "burst_bandwidth", "burst_credit_gib",
		"charge_min" };
	const struct voltype_setting	*s;
	struct voltype			*t;
	size_t				 i;

	if ((t = profiles_type_load(name, cause)) == NULL)
		return (-1);
	fprintf(out, "%s: %s\n", t->name, t->description);
	fprintf(out, "  file              %s\n", t->path);
	fprintf(out, "  source            %s\n", t->source);
	fprintf(out, "  model             %s\n", t->model != NULL ? t->model :
	    "not given: any device may be one");
	fprintf(out, "  sizes             %g to %g GiB\n", t->size_min,
	    t->size_max);
	if (isfinite(t->tolerance_pct))
		fprintf(out, "  promise           at least %g%% of its figures"
		    "%s%.4g%s\n", 100 - t->tolerance_pct,
		    isfinite(t->of_time_pct) ? ", " : "", isfinite(
		    t->of_time_pct) ? t->of_time_pct : 0,
		    isfinite(t->of_time_pct) ? "% of the time" : "");
	if (t->note != NULL)
		fprintf(out, "  note              %s\n", t->note);
	fprintf(out, "\nSettings (provisioned; formulas over size in GiB)\n");
	if (t->nsettings == 0)
		fprintf(out, "  none\n");
	for (i = 0; i < t->nsettings; i++) {
		s = &t->setting[i];
		fprintf(out, "  %-17s %s%s%sfrom %s to %s\n", s->name,
		    s->dflt != NULL ? "default " : "required, ",
		    s->dflt != NULL ? formula_text(s->dflt) : "",
		    s->dflt != NULL ? ", " : "", formula_text(s->min),
		    formula_text(s->max));
	}
	fprintf(out, "\nFigures (IOPS, MiB/s, KiB, I/Os and GiB; none: not "
	    "imposed)\n");
	for (i = 0; i < VOLTYPE_NFIGS; i++)
		fprintf(out, "  %-17s %s\n", figs[i], t->fig[i] != NULL ?
		    formula_text(t->fig[i]) : "none");
	fprintf(out, "\nUse\n  tierprobe profiles --show %s:SIZE%s, "
	    "sim:%s:SIZE%s, --type %s\n", t->name, t->nsettings > 0 ?
	    "[,SETTING=VALUE...]" : "", t->name, t->nsettings > 0 ?
	    "[,...]" : "", t->name);
	voltype_free(t);
	return (0);
}

/* Print profile name (or path) for people, with its truth. */
int
report_profile_show(const char *name, FILE *out, char **cause)
{
	struct profile	*p;
	struct sim_truth t;
	char		 a[UNITS_BUFSZ], b[UNITS_BUFSZ], c[UNITS_BUFSZ];
	char		*why = NULL, *why_type = NULL, *both;
	unsigned	 i;

	if ((p = profiles_load(name, cause)) == NULL) {
		/* Not a volume: an instance, a type, or the volume's error. */
		if (report_profile_show_instance(name, out, &why) == 0 ||
		    report_profile_show_type(name, out, &why_type) == 0) {
			free(*cause);
			*cause = NULL;
			free(why);
			return (0);
		}
		if (why_type != NULL && strchr(name, ':') == NULL) {
			/* Neither a profile nor a type: say both lists. */
			xasprintf(&both, "%s; %s", *cause, why_type);
			free(*cause);
			*cause = both;
		}
		free(why);
		free(why_type);
		return (-1);
	}
	sim_truth_profile(p, 4096, &t);

	fprintf(out, "%s: %s\n", p->name, p->description);
	fprintf(out, "  file              %s\n", p->path);
	if (p->model != NULL)
		fprintf(out, "  model             %s (what the device says)\n",
		    p->model);
	if (p->type != NULL)
		fprintf(out, "  type              %s (its figures are the "
		    "type's rules at its size)\n", p->type);
	fprintf(out, "  size              %s, %s logical blocks, cache "
	    "blocks of %s\n", units_format_size(p->size, a, sizeof a),
	    units_format_size(p->block_size, b, sizeof b),
	    units_format_size(p->cache_block, c, sizeof c));
	if (p->transfer > 0)
		fprintf(out, "  transfer          %s per I/O (+%s for 4 KiB)\n",
		    report_profile_rate(p->transfer, a, sizeof a),
		    units_format_lat_us(4096 / p->transfer * 1e6, b,
		    sizeof b));

	fprintf(out, "\nCache tiers (inclusive LRU)\n");
	if (p->ntiers == 0)
		fprintf(out, "  none: every read goes to the backing store\n");
	for (i = 0; i < p->ntiers; i++) {
		fprintf(out, "  tier %u ([tier.%u]) %s, median %s, sigma %g\n",
		    i + 1, i, units_format_size(p->tier[i].capacity, a, sizeof a),
		    units_format_lat_us(p->tier[i].latency_us, b, sizeof b),
		    p->tier[i].sigma);
		report_profile_outliers(p->tier[i].outliers,
		    p->tier[i].outlier_factor, out);
		report_profile_second(&p->tier[i], out);
	}
	fprintf(out, "\nBacking store\n");
	fprintf(out, "  latency           median %s, sigma %g, mean %s\n",
	    units_format_lat_us(p->backing_latency_us, a, sizeof a),
	    p->backing_sigma, units_format_lat_us(t.backing_mean_us, b,
	    sizeof b));
	report_profile_outliers(p->backing_outliers,
	    p->backing_outlier_factor, out);
	fprintf(out, "  concurrency       %u I/O%s in service at once\n",
	    p->concurrency, p->concurrency == 1 ? "" : "s");
	if (p->drift_s > 0)
		fprintf(out, "  drift             median %s for a share of the "
		    "reads growing with the clock to all of them at %g s "
		    "(the truth: at the start)\n", units_format_lat_us(
		    p->drift_us, a, sizeof a), p->drift_s);
	if (p->throttle_iops > 0)
		fprintf(out, "  throttle          %.0f reads/s, released in "
		    "windows of %g ms (waits not in the truth)\n",
		    p->throttle_iops, p->throttle_window_ms);
	if (p->first_read_us > 0)
		fprintf(out, "  first read        +%s median, sigma %g "
		    "(restored from a snapshot)\n",
		    units_format_lat_us(p->first_read_us, a, sizeof a),
		    p->first_read_sigma);

	report_profile_ceilings(p, out);
	report_profile_writes(p, out);
	report_profile_truth(&t, out);
	profiles_free(p);
	return (0);
}

/*
 * Append to l what a volume promises: its IOPS (I/Os of bs bytes) and
 * bandwidth ceilings and a burst bucket's baseline (NAN: none), each less
 * the tolerance of profile p's [promise]; sets l->profile to what (and
 * l->promise to a sentence saying which tolerance, and where it is from,
 * with a note after what).  Each expectation's origin is origin.  Returns
 * 0, or -1 with *cause.
 */
static int
report_profile_expect_from(const struct profile *p, double iops, double bw,
    double baseline, double baseline_s, const char *what, const char *note,
    const char *origin, struct check_list *l, char **cause)
{
	char		*text[3];
	double		 pct, keep, sustain[3] = { NAN, NAN, NAN };
	int		 of_burst = isfinite(baseline);
	size_t		 i, n = 0;
	int		 rc = 0;

	pct = isfinite(p->promise_pct) ? p->promise_pct :
	    REPORT_PROFILE_ASSUMED_PCT;
	keep = 1 - pct / 100;
	free(l->profile);
	free(l->promise);
	l->profile = xstrdup(what);
	if (isfinite(p->promise_pct) && isfinite(p->promise_of_time_pct))
		xasprintf(&l->promise, "%s%s: at least %g%% of the %s's "
		    "figures, %g%% of the time (%s)", what, note, 100 - pct,
		    *note != '\0' ? "type" : "profile", p->promise_of_time_pct,
		    p->promise_source != NULL ? p->promise_source :
		    "source not given");
	else if (isfinite(p->promise_pct))
		xasprintf(&l->promise, "%s%s: at least %g%% of the %s's "
		    "figures (%s)", what, note, 100 - pct, *note != '\0' ?
		    "type" : "profile", p->promise_source != NULL ?
		    p->promise_source : "source not given");
	else
		xasprintf(&l->promise, "%s%s: the %s documents no tolerance; "
		    "%g%% below its figures is assumed", what, note,
		    *note != '\0' ? "type" : "profile", pct);
	if (isfinite(iops))
		xasprintf(&text[n++], "iops>=%.0f", floor(keep * iops));
	if (isfinite(bw))
		xasprintf(&text[n++], "bandwidth>=%.1fM",
		    floor(keep * bw / 1048576 * 10) / 10);
	if (isfinite(baseline)) {
		/* Only a sustained run that empties the bucket shows it. */
		sustain[n] = baseline_s;
		xasprintf(&text[n++], "burst.baseline_iops>=%.0f",
		    floor(keep * baseline));
	}
	for (i = 0; i < n; i++) {
		if (rc == 0 && check_list_add(l, text[i], origin, cause) != 0)
			rc = -1;
		if (rc == 0 && isfinite(sustain[i]))
			l->v[l->n - 1].sustain_s = sustain[i];
		/* With a bucket, the ceilings promised are its burst's. */
		if (rc == 0 && !isfinite(sustain[i]))
			l->v[l->n - 1].of_burst = of_burst;
		free(text[i]);
	}
	return (rc);
}

/*
 * Append to l what a volume of profile name promises for I/Os of bs bytes;
 * see report.h.
 */
int
report_profile_expect(const char *name, uint32_t bs, struct check_list *l,
    char **cause)
{
	struct profile	*p;
	struct sim_truth t;
	char		*origin;
	int		 rc;

	if ((p = profiles_load(name, cause)) == NULL)
		return (-1);
	sim_truth_profile(p, bs, &t);
	xasprintf(&origin, "--expect-profile %s", p->name);
	rc = report_profile_expect_from(p, t.iops_ceiling, t.bandwidth_ceiling,
	    t.burst_detected ? t.baseline_iops : NAN, t.burst_duration_s,
	    p->name, "", origin, l, cause);
	free(origin);
	profiles_free(p);
	return (rc);
}

/* Append to l what type spec documents at size bytes; see report.h. */
int
report_profile_expect_type(const char *spec_text, double size, uint32_t bs,
    struct check_list *l, char **cause)
{
	struct voltype_spec	 spec;
	struct voltype_figures	 f;
	struct voltype		*t;
	struct profile		*p;
	double			 values[VOLTYPE_SETTINGS_MAX], gib;
	char			*origin, *what, *why = NULL;
	char			 sz[UNITS_BUFSZ], set[96];
	int			 rc;

	if (voltype_spec_parse(spec_text, 0, &spec, cause) != 0)
		return (-1);
	if (spec.size_bytes == 0 && size > 0)
		spec.size_bytes = (uint64_t)size;
	if (spec.size_bytes == 0) {
		xasprintf(cause, "%s: the volume's size is unknown: give "
		    "--size, or %s:SIZE", spec_text, spec.name);
		return (-1);
	}
	if ((t = profiles_type_load(spec.name, &why)) == NULL) {
		xasprintf(cause, "%s: %s", spec_text, why);
		free(why);
		return (-1);
	}
	if ((p = profiles_from_type(t, &spec, spec_text, &why)) == NULL) {
		voltype_free(t);
		*cause = why;
		return (-1);
	}
	/* Only what the type documents: no simulated store's figure. */
	gib = (double)spec.size_bytes / 1073741824.0;
	if (voltype_settings(t, &spec, gib, values, cause) != 0) {
		voltype_free(t);
		profiles_free(p);
		return (-1);
	}
	voltype_eval(t, gib, values, bs, &f);
	voltype_settings_text(t, values, set, sizeof set);
	xasprintf(&what, "%s at %s%s%s%s", t->name, units_format_size(p->size,
	    sz, sizeof sz), *set != '\0' ? " (" : "", set, *set != '\0' ?
	    ")" : "");
	voltype_free(t);
	xasprintf(&origin, "--type %s", spec_text);
	rc = report_profile_expect_from(p, f.fresh_iops, f.fresh_bandwidth,
	    isfinite(f.burst_iops) ? f.long_iops : NAN, isfinite(
	    f.burst_iops) && f.burst_iops > f.long_iops ? f.burst_credits /
	    (f.burst_iops - f.long_iops) : NAN, what,
	    " (documented, not measured)", origin, l, cause);
	free(what);
	free(origin);
	profiles_free(p);
	return (rc);
}

/* SPDX-License-Identifier: ISC */
/*
 * The volume types of a report: what it measured as the judgement's
 * inputs, every documented type judged against it (and the one --type
 * named), and the "Volume type" section for people.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profiles.h"
#include "report.h"
#include "units.h"
#include "voltype.h"
#include "xmalloc.h"

#define REPORT_VOLTYPE_LINKS	64	/* instances known, at most */
#define REPORT_VOLTYPE_SIZE_TOL	0.01	/* --size this far off the volume's
					   own contradicts it */

/* Seconds since the epoch of an ISO 8601 UTC time; NAN if it is not one. */
static double
report_voltype_time(const char *iso)
{
	struct tm	tm;
	const char	*end;

	memset(&tm, 0, sizeof tm);
	if ((end = strptime(iso, "%Y-%m-%dT%H:%M:%SZ", &tm)) == NULL ||
	    *end != '\0')
		return (NAN);
	return ((double)timegm(&tm));
}

/*
 * Whether the device of a context is one volume: not a device-mapper
 * (LVM, crypt) or md (RAID) device, whose size and model are not those
 * of the volumes under it.
 */
static int
report_voltype_one_volume(const struct report_context *x)
{
	return (strncmp(x->device, "dm-", 3) != 0 &&
	    strncmp(x->device, "md", 2) != 0);
}

/* The size of the volume of a context's device; see report.h. */
double
report_voltype_device_size(const struct report_context *x)
{
	if (!report_voltype_one_volume(x) || x->device_size_bytes == 0)
		return (NAN);
	return ((double)x->device_size_bytes);
}

/*
 * The target's own size as a volume's: a simulated volume's, or a whole
 * block device's (not a device-mapper or md one); NAN when it has none.
 */
double
report_voltype_own_size(const struct report *r)
{
	if (strcmp(r->target.type, "sim") == 0 && r->target.size_bytes > 0)
		return ((double)r->target.size_bytes);
	if (strcmp(r->target.type, "blockdev") == 0 &&
	    report_voltype_one_volume(&r->context) &&
	    r->context.device_size_bytes > 0)
		return ((double)r->context.device_size_bytes);
	return (NAN);
}

/* The size of the volume a report measured; see report.h. */
double
report_voltype_size(const struct report *r)
{
	double	own = report_voltype_own_size(r);

	/* --size that contradicts the volume's own (1%) yields to it. */
	if (r->config.volume_size > 0 && isfinite(own) &&
	    fabs((double)r->config.volume_size - own) >
	    REPORT_VOLTYPE_SIZE_TOL * own)
		return (own);
	if (r->config.volume_size > 0)
		return ((double)r->config.volume_size);
	if (!report_voltype_one_volume(&r->context))
		return (NAN);
	if (r->context.device_size_bytes > 0)
		return ((double)r->context.device_size_bytes);
	if (strcmp(r->target.type, "blockdev") == 0 && r->target.size_bytes > 0)
		return ((double)r->target.size_bytes);
	return (NAN);
}

/* What a report of one target measured; see report.h. */
void
report_voltype_measured(const struct report *r, struct voltype_measured *m)
{
	const struct limits_result	*l = r->limits;
	const struct burst		*b;
	const char			*phase;
	double				 drawn, wall;

	voltype_measured_init(m);
	m->size_bytes = report_voltype_size(r);
	if (report_voltype_one_volume(&r->context))
		snprintf(m->model, sizeof m->model, "%s",
		    r->context.device_model);
	if (r->target.bs > 0)
		m->bs = r->target.bs;
	if (l == NULL)
		return;
	if (!l->cpu_bound) {
		m->iops = l->iops_ceiling;
		m->iops_low = l->iops_ceiling_low;
		m->iops_high = l->iops_ceiling_high;
		m->iops_at_least = l->iops_ceiling_at_least;
	}
	m->bandwidth = l->bandwidth_ceiling_bytes_per_s;
	m->bandwidth_low = l->bandwidth_ceiling_low;
	m->bandwidth_high = l->bandwidth_ceiling_high;
	m->bandwidth_at_least = l->bandwidth_ceiling_at_least;
	m->long_run_iops = l->long_run_iops;
	m->long_run_bandwidth = l->baseline_bandwidth;
	m->io_accounting = l->io_accounting_bytes;
	m->burst = l->burst;
	if (r->scan != NULL)
		m->read_p50_us = r->scan->tiers.backing_p50_us;
	/* A bucket that ran dry in the writes ran dry for the reads too. */
	if ((b = report_drain(r, &phase)) != NULL &&
	    strcmp(phase, "writes") == 0) {
		m->burst = *b;
		if (isfinite(r->writes->limits->long_run_iops))
			m->long_run_iops = r->writes->limits->long_run_iops;
		return;
	}
	/*
	 * The I/O the run drew was drawn from the start of the scan to the
	 * end of what the sustained run held; the wall clock from start to
	 * finish bounds it too, and counts the idle time a bucket refilled
	 * in.  The larger is the bound.
	 */
	if (!isfinite(l->burst.held_s))
		return;
	drawn = (r->scan != NULL ? r->scan->device_time_s : 0) +
	    (isfinite(l->sustain_start_s) ? l->sustain_start_s : 0) +
	    l->burst.held_s;
	wall = report_voltype_time(r->finished_utc) -
	    report_voltype_time(r->started_utc);
	m->drawn_s = isfinite(wall) && wall > drawn ? wall : drawn;
}

/* The instances known (profiles/instances) as links into l[max]. */
static size_t
report_voltype_links(struct voltype_link *l, size_t max)
{
	struct profile	*p;
	char		**v, *why;
	size_t		 n, i, k = 0;

	v = profiles_instance_names(&n);
	for (i = 0; i < n && k < max; i++) {
		why = NULL;
		if ((p = profiles_load_instance(v[i], &why)) == NULL) {
			free(why);
			continue;
		}
		memset(&l[k], 0, sizeof l[k]);
		snprintf(l[k].name, sizeof l[k].name, "%s", p->instance_name);
		l[k].iops = p->instance_iops > 0 ? p->instance_iops : NAN;
		l[k].bandwidth = p->instance_bandwidth > 0 ?
		    p->instance_bandwidth : NAN;
		l[k].burst_iops = p->instance_burst_iops > 0 ?
		    p->instance_burst_iops : NAN;
		l[k].burst_bandwidth = p->instance_burst_bandwidth > 0 ?
		    p->instance_burst_bandwidth : NAN;
		l[k].burst_s = p->instance_burst_s > 0 ? p->instance_burst_s :
		    NAN;
		l[k].period_s = p->instance_burst_period_s > 0 ?
		    p->instance_burst_period_s : NAN;
		k++;
		profiles_free(p);
	}
	profiles_names_free(v, n);
	return (k);
}

/* Judge one report of one target into r->voltypes. */
static int
report_voltype_one(struct report *r, struct voltype *const *types,
    size_t ntypes, const struct voltype_link *links, size_t nlinks,
    char **cause)
{
	struct voltype_measured	 m;
	struct voltype_judgement *j;
	struct voltype_spec	 spec;
	struct voltype		*t;
	size_t			 i;
	int			 rc = 0;

	voltype_judgement_free(r->voltypes);
	free(r->voltypes);
	r->voltypes = NULL;
	if (r->limits == NULL)
		return (0);
	report_voltype_measured(r, &m);
	m.link = links;
	m.nlinks = nlinks;
	for (i = 0; i < nlinks; i++)
		if (r->target.instance[0] != '\0' &&
		    strcmp(links[i].name, r->target.instance) == 0)
			m.on = &links[i];
	j = xcalloc(1, sizeof *j);
	voltype_judge((const struct voltype *const *)types, ntypes, &m, j);
	if (m.on != NULL)
		j->on = *m.on;
	if (r->config.type[0] != '\0') {
		if (voltype_spec_parse(r->config.type, 0, &spec, cause) != 0 ||
		    (t = profiles_type_load(spec.name, cause)) == NULL)
			rc = -1;
		else {
			if (voltype_judge_given(t, &spec, &m, &j->given_result,
			    cause) != 0)
				rc = -1;
			else {
				j->given = 1;
				snprintf(j->given_spec, sizeof j->given_spec,
				    "%s", r->config.type);
			}
			voltype_free(t);
		}
	}
	r->voltypes = j;
	return (rc);
}

/* Judge every volume type against each target of r; see report.h. */
int
report_voltype_judge(struct report *r, char **cause)
{
	struct voltype_link	 links[REPORT_VOLTYPE_LINKS];
	struct voltype		**types;
	char			*why = NULL;
	size_t			 ntypes, nlinks, i;
	int			 rc = 0;

	*cause = NULL;
	types = profiles_types_load(&ntypes, &why);
	free(why);
	nlinks = report_voltype_links(links, REPORT_VOLTYPE_LINKS);
	if (r->ntargets == 0)
		rc = report_voltype_one(r, types, ntypes, links, nlinks, cause);
	for (i = 0; i < r->ntargets && rc == 0; i++)
		rc = report_voltype_one(&r->targets[i], types, ntypes, links,
		    nlinks, cause);
	for (i = 0; i < ntypes; i++)
		voltype_free(types[i]);
	free(types);
	return (rc);
}

/* The command that would settle a judgement, into buf; see report.h. */
char *
report_voltype_command(const struct report *r, const char *options,
    char *buf, size_t len)
{
	const char	*path = r->target.path != NULL ? r->target.path :
			    "TARGET";

	snprintf(buf, len, "tierprobe limits %s%s %s",
	    strcmp(r->target.type, "sim") == 0 ? "sim:" : "", path, options);
	return (buf);
}

/* A long-run figure for a table cell: "none imposed" when there is none. */
static const char *
report_voltype_cell(enum units_kind unit, double v, char *buf)
{
	if (!isfinite(v))
		return ("none imposed");
	return (units_format_value(unit, v, buf, UNITS_BUFSZ));
}

/* What a type's bucket does, for a table cell. */
static const char *
report_voltype_bucket(const struct voltype_result *v, char *buf, size_t len)
{
	char	a[UNITS_BUFSZ];

	if (v->bucket == VOLTYPE_BUCKET_NONE)
		return ("none");
	if (!isfinite(v->drain_s))
		snprintf(buf, len, "%s, not drawn here", v->bucket ==
		    VOLTYPE_BUCKET_IOPS ? "I/Os" : "bytes");
	else
		snprintf(buf, len, "%s, dry in %s", v->drain_by ==
		    VOLTYPE_LIMIT_INSTANCE ? "instance's" : v->bucket ==
		    VOLTYPE_BUCKET_IOPS ? "I/Os" : "bytes", units_format_value(
		    UNITS_SECONDS, v->drain_s, a, sizeof a));
	return (buf);
}

/* The "Volume type" section of a report of one target. */
void
report_voltype_text(const struct report_text *rt, const struct report *r)
{
	const struct voltype_judgement	*j = r->voltypes;
	const struct voltype_result	*v;
	struct report_table		 tab;
	char				 line[1024], a[UNITS_BUFSZ];
	char				 b[UNITS_BUFSZ], c[96], names[256];
	char				 cmd[512];
	size_t				 i, o = 0;

	if (j == NULL || j->n == 0)
		return;
	report_text_heading(rt, "Volume type");
	snprintf(line, sizeof line, "%s%s%s%s%s", j->size_bytes > 0 ?
	    units_format_size(j->size_bytes, a, sizeof a) :
	    "size unknown", j->model[0] != '\0' ? ", device model \"" : "",
	    j->model, j->model[0] != '\0' ? "\"" : "", r->config.volume_size >
	    0 && j->size_bytes == r->config.volume_size ?
	    " (size from --size)" : r->config.volume_size > 0 ? " (its own "
	    "size: --size contradicts it and is not used)" : "");
	report_text_kv(rt, "volume", line);
	if (j->nconsistent > 0) {
		report_table_init(&tab, "llrrl");
		/* Within the 100 columns of a text report, settings long. */
		report_table_add(&tab, "fits", "settings", "long-run IOPS",
		    "long-run bw", "bucket, from full");
		names[0] = '\0';
		for (i = 0; i < j->n; i++) {
			v = &j->result[i];
			if (v->consistent != 1)
				continue;
			report_table_add(&tab, v->name, *v->settings != '\0' ?
			    v->settings : "-", report_voltype_cell(UNITS_IOPS,
			    v->long_run_iops, a), report_voltype_cell(
			    UNITS_RATE, v->long_run_bandwidth, b),
			    report_voltype_bucket(v, c, sizeof c));
			o += snprintf(names + o, o < sizeof names ?
			    sizeof names - o : 0, "%s%s", o > 0 ? ", " : "",
			    v->name);
		}
		report_table_write(&tab, rt->f, rt->md, REPORT_TEXT_INDENT);
		if (j->apart && isfinite(j->settle_sustain_s)) {
			report_voltype_command(r, j->settle, cmd, sizeof cmd);
			snprintf(line, sizeof line, "%s fit what was "
			    "measured and differ in the long run: %s%s%s tells "
			    "them apart (a bucket runs dry in it, or none "
			    "exists).", names, rt->md ? "`" : "the run below",
			    rt->md ? cmd : "", rt->md ? "`" : "");
			report_text_sentence(rt, line);
			/* The command whole on a line, to be copied. */
			if (!rt->md)
				fprintf(rt->f, "%s    %s\n", REPORT_TEXT_INDENT,
				    cmd);
			line[0] = '\0';
		} else if (j->apart)
			snprintf(line, sizeof line, "%s fit what was measured "
			    "and differ in the long run, and no longer run "
			    "tells them apart.", names);
		else if (j->nconsistent > 1)
			snprintf(line, sizeof line, "%s fit what was measured "
			    "and give the same in the long run, as far as they "
			    "document.", names);
		else
			snprintf(line, sizeof line, "Only %s fits what was "
			    "measured.", names);
		if (line[0] != '\0')
			report_text_sentence(rt, line);
		for (i = 0; i < j->n; i++) {
			v = &j->result[i];
			if (v->consistent == 1 && *v->caveat != '\0') {
				snprintf(line, sizeof line, "%s: %s.", v->name,
				    v->caveat);
				report_text_sentence(rt, line);
			}
			if (v->consistent == 1 && *v->note != '\0') {
				snprintf(line, sizeof line, "%s: %s.", v->name,
				    v->note);
				report_text_sentence(rt, line);
			}
		}
	} else
		report_text_sentence(rt, j->size_bytes > 0 ? "No "
		    "documented volume type fits what was measured." : "The "
		    "volume's size is unknown, so no type is judged by its "
		    "figures: give --size.");
	for (i = 0; i < j->n; i++) {
		v = &j->result[i];
		if (v->consistent == 0) {
			snprintf(line, sizeof line, "Not %s: %s.", v->name,
			    v->ruled_out_by);
			report_text_sentence(rt, line);
		}
	}
	if (j->given) {
		v = &j->given_result;
		if (isfinite(v->long_run_iops) ||
		    isfinite(v->long_run_bandwidth))
			snprintf(c, sizeof c, "%s%s and %s in the long run",
			    report_voltype_cell(UNITS_IOPS, v->long_run_iops,
			    a), isfinite(v->long_run_iops) ? " IOPS" : "",
			    report_voltype_cell(UNITS_RATE,
			    v->long_run_bandwidth, b));
		else
			snprintf(c, sizeof c, "no limit imposed");
		snprintf(line, sizeof line, "--type %s (documented, not "
		    "measured): %s; %s%s.", j->given_spec, c,
		    v->consistent == 1 ? "this run agrees with it" :
		    v->consistent == 0 ? "but this run rules it out: " :
		    "not judged: ", v->consistent == 1 ? "" : v->ruled_out_by);
		report_text_sentence(rt, line);
	}
}

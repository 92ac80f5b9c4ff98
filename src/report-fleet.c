/* SPDX-License-Identifier: ISC */
/*
 * A fleet for people (text, markdown), for spreadsheets (CSV) and as JSON
 * (fleet.volumes[], man/tierprobe-report.5): one row per volume with its
 * figures, ratios to its kind's median, outlier flag and reason.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bucket.h"
#include "check.h"
#include "fleet.h"
#include "report.h"
#include "units.h"
#include "xmalloc.h"

#define FLEET_JSON_FLAGS (JSON_INDENT(2) | JSON_REAL_PRECISION(6) | \
	JSON_ENSURE_ASCII)

/* Index of the fleet figure named alias, or -1. */
static int
report_fleet_fig(const struct fleet *fl, const char *alias)
{
	size_t	i;

	for (i = 0; i < fl->nfig; i++) {
		if (strcmp(fl->fig[i]->alias, alias) == 0)
			return ((int)i);
	}
	return (-1);
}

static const struct fleet_kind *
report_fleet_kind(const struct fleet *fl, const char *kind)
{
	size_t	i;

	for (i = 0; i < fl->nkinds; i++) {
		if (strcmp(fl->kinds[i].kind, kind) == 0)
			return (&fl->kinds[i]);
	}
	return (NULL);
}

/*
 * The label of figure i of v: iops and bandwidth after a bucket ran dry
 * are the long run's.
 */
static const char *
report_fleet_label(const struct fleet *fl, const struct fleet_volume *v,
    size_t i)
{
	if (fl->fig[i]->source != FIGURES_LONG_RUN ||
	    v->state[i] != BUCKET_EMPTY)
		return (fl->fig[i]->label);
	return (fl->fig[i]->unit == UNITS_RATE ? "long-run bandwidth" :
	    "long-run IOPS");
}

/* Why v is an outlier, one clause per flagged figure; "" if it is not. */
static char *
report_fleet_reason(const struct fleet *fl, const struct fleet_volume *v,
    char *buf, size_t len)
{
	const struct fleet_kind	*k = report_fleet_kind(fl, v->kind);
	char			 a[UNITS_BUFSZ], m[UNITS_BUFSZ];
	double			 pct;
	size_t			 i, o = 0;

	buf[0] = '\0';
	for (i = 0; k != NULL && i < fl->nfig && o < len; i++) {
		if (!v->flagged[i])
			continue;
		pct = fl->fig[i]->better > 0 ? v->limit[i] * 100 :
		    (1 / (1 - v->limit[i]) - 1) * 100;
		o += snprintf(buf + o, len - o, "%s%s %s is %.2fx the %s "
		    "median (%s): more than %.0f%% %s%s", o ? "; " : "",
		    report_fleet_label(fl, v, i), units_format_value(
		    fl->fig[i]->unit, v->value[i], a, sizeof a), v->ratio[i],
		    v->kind,
		    units_format_value(fl->fig[i]->unit, k->median[i], m,
		    sizeof m), pct, fl->fig[i]->better > 0 ? "below" : "above",
		    v->limit[i] > fl->outlier ? " (its run-to-run noise)" :
		    "");
	}
	return (buf);
}

/*
 * A figure cell: value, its bucket state's mark ("full?"), "!" when
 * flagged, "n/a" when unknown.
 */
static char *
report_fleet_value(const struct fleet *fl, const struct fleet_volume *v,
    int i, char *buf, size_t len)
{
	char		 s[UNITS_BUFSZ];
	const char	*m;

	if (i < 0 || !isfinite(v->value[i])) {
		snprintf(buf, len, "n/a");
		return (buf);
	}
	m = bucket_state_mark(v->state[i]);
	snprintf(buf, len, "%s%s%s%s", units_format_value(fl->fig[i]->unit,
	    v->value[i], s, sizeof s), *m != '\0' ? " " : "", m,
	    v->flagged[i] ? " !" : "");
	return (buf);
}

/* Whether a cell of the volumes table carries a bucket state's mark. */
static int
report_fleet_marked(const struct fleet *fl)
{
	size_t	i, j;

	for (i = 0; i < fl->nvol; i++)
		for (j = 0; j < fl->nfig; j++)
			if (isfinite(fl->vol[i].value[j]) &&
			    *bucket_state_mark(fl->vol[i].state[j]) != '\0')
				return (1);
	return (0);
}

static char *
report_fleet_ratio(const struct fleet_volume *v, int i, char *buf,
    size_t len)
{
	if (i < 0 || !isfinite(v->ratio[i]))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.2f", v->ratio[i]);
	return (buf);
}

/* The verdicts of a volume's expectations: "2/2 met", "1 missed". */
static char *
report_fleet_checks(const struct fleet_volume *v, char *buf, size_t len)
{
	unsigned	n = v->verdicts[0] + v->verdicts[1] + v->verdicts[2];

	if (!v->checked)
		snprintf(buf, len, "n/a");
	else if (v->verdicts[CHECK_MET] == n)
		snprintf(buf, len, "%u/%u met", n, n);
	else if (v->verdicts[CHECK_UNKNOWN] == 0)
		snprintf(buf, len, "%u missed", v->verdicts[CHECK_MISSED]);
	else
		snprintf(buf, len, "%u missed, %u unknown",
		    v->verdicts[CHECK_MISSED], v->verdicts[CHECK_UNKNOWN]);
	return (buf);
}

/* Tiers: "0", "2: 64 MiB, 1 GiB", "n/a" without a scan. */
static char *
report_fleet_tiers(const struct fleet *fl, const struct fleet_volume *v,
    char *buf, size_t len)
{
	int	i = report_fleet_fig(fl, "tiers");

	if (i < 0 || !isfinite(v->value[i]))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.0f%s%s", v->value[i],
		    v->caches[0] ? ": " : "", v->caches);
	return (buf);
}

/*
 * Burst: "3,000 -> 300", "none seen" when no bucket ran dry over the run,
 * "unknown" when the run was too short to tell, "n/a" without limits.
 */
static char *
report_fleet_burst(const struct fleet *fl, const struct fleet_volume *v,
    char *buf, size_t len)
{
	char	a[UNITS_BUFSZ + 4], b[UNITS_BUFSZ + 4];
	int	bi = report_fleet_fig(fl, "burst.iops");
	int	ba = report_fleet_fig(fl, "burst.baseline_iops");

	if (!v->has_limits)
		snprintf(buf, len, "n/a");
	else if (isnan(v->burst))
		snprintf(buf, len, "unknown");
	else if (v->burst == 0 || bi < 0 || !isfinite(v->value[bi]))
		snprintf(buf, len, "none seen");
	else
		snprintf(buf, len, "%s -> %s",
		    report_fleet_value(fl, v, bi, a, sizeof a),
		    report_fleet_value(fl, v, ba, b, sizeof b));
	/* What EBS's counters show held the sustained run, if they do. */
	if (v->ebs_limit >= 0)
		snprintf(buf + strlen(buf), len - strlen(buf), "; EBS held: %s",
		    report_ebs_limit_cell(v->ebs_limit));
	return (buf);
}

/* Whether any volume of fl has EBS's counters of a sustained run. */
static int
report_fleet_any_ebs(const struct fleet *fl)
{
	size_t	i;

	for (i = 0; i < fl->nvol; i++)
		if (fl->vol[i].ebs_limit >= 0)
			return (1);
	return (0);
}

static void
report_fleet_heading(FILE *f, int markdown, const char *title)
{
	if (markdown)
		fprintf(f, "\n## %s\n\n", title);
	else
		fprintf(f, "\n%s\n", title);
}

/* The volumes, one row each. */
static void
report_fleet_volumes(const struct fleet *fl, FILE *f, int markdown)
{
	const struct fleet_volume *v;
	struct report_table	 tab;
	char			 tiers[160], p99[40], iops[40], iopsr[16];
	char			 bw[40], bwr[16], burst[96], checks[40];
	char			 commit[40];
	int			 ip99 = report_fleet_fig(fl, "p99");
	int			 icommit = report_fleet_fig(fl, "commit.p99");
	int			 iiops = report_fleet_fig(fl, "iops");
	int			 ibw = report_fleet_fig(fl, "bandwidth");
	size_t			 i;

	report_table_init(&tab, "lllllrrrrrlrlll");
	report_table_add(&tab, "host", "target", "model", "kind", "tiers",
	    "p99", "IOPS", "x med", "bandwidth", "x med", "burst",
	    "commit p99", "checks", "outlier", "file");
	for (i = 0; i < fl->nvol; i++) {
		v = &fl->vol[i];
		report_table_add(&tab, v->host[0] ? v->host : "n/a",
		    v->target, v->model[0] ? v->model : "n/a",
		    v->kind[0] ? v->kind : "n/a",
		    report_fleet_tiers(fl, v, tiers, sizeof tiers),
		    report_fleet_value(fl, v, ip99, p99, sizeof p99),
		    report_fleet_value(fl, v, iiops, iops, sizeof iops),
		    report_fleet_ratio(v, iiops, iopsr, sizeof iopsr),
		    report_fleet_value(fl, v, ibw, bw, sizeof bw),
		    report_fleet_ratio(v, ibw, bwr, sizeof bwr),
		    report_fleet_burst(fl, v, burst, sizeof burst),
		    report_fleet_value(fl, v, icommit, commit, sizeof commit),
		    report_fleet_checks(v, checks, sizeof checks),
		    v->fault != NULL ? "FAILED" : v->outlier ? "OUTLIER" :
		    v->interrupted ? "interrupted" : "", v->file);
	}
	report_table_write(&tab, f, markdown, "  ");
}

/* The median of each figure per kind. */
static void
report_fleet_kinds(const struct fleet *fl, FILE *f, int markdown)
{
	const struct fleet_kind	*k;
	struct report_table	 tab;
	char			 cell[FLEET_FIGURES][UNITS_BUFSZ];
	char			 align[16], nv[16];
	const char		*c[15];
	size_t			 i, j;

	if (fl->nkinds == 0)
		return;
	report_fleet_heading(f, markdown, "Medians by kind");
	memset(align, 0, sizeof align);
	align[0] = 'l';
	for (j = 1; j < 2 + fl->nfig && j < 15; j++)
		align[j] = 'r';
	report_table_init(&tab, align);
	memset(c, 0, sizeof c);
	c[0] = "kind";
	c[1] = "volumes";
	for (j = 0; j < fl->nfig && j < 13; j++)
		c[2 + j] = fl->fig[j]->label;
	report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
	    c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	for (i = 0; i < fl->nkinds; i++) {
		k = &fl->kinds[i];
		c[0] = k->kind;
		snprintf(nv, sizeof nv, "%zu", k->nvolumes);
		c[1] = nv;
		for (j = 0; j < fl->nfig && j < 13; j++)
			c[2 + j] = isfinite(k->median[j]) ?
			    units_format_value(fl->fig[j]->unit,
			    k->median[j], cell[j], sizeof cell[j]) : "n/a";
		report_table_add(&tab, c[0], c[1], c[2], c[3], c[4], c[5],
		    c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
	}
	report_table_write(&tab, f, markdown, "  ");
}

/* Print a fleet for people (markdown set: pipe tables). */
void
report_fleet_write(const struct fleet *fl, FILE *f, int markdown)
{
	const char	*item = markdown ? "- " : "  - ";
	char		 reason[1024], *caveat;
	size_t		 i, n = 0, caveats, compared = 0;

	fprintf(f, "%stierprobe fleet: %zu volume%s of %zu kind%s%s\n",
	    markdown ? "# " : "", fl->nvol, fl->nvol == 1 ? "" : "s",
	    fl->nkinds, fl->nkinds == 1 ? "" : "s", fl->nskip > 0 ?
	    ", some files skipped (below)" : "");
	if (fl->nvol > 0) {
		fputc('\n', f);
		report_fleet_volumes(fl, f, markdown);
		if (report_fleet_marked(fl))
			fprintf(f, "%sStates: full? the run saw no burst "
			    "bucket run dry, so one may still have been full; "
			    "full before one ran dry; draining while one ran "
			    "dry; empty after (a baseline figure). Volumes "
			    "compared in different states differ by their "
			    "buckets, not only their hardware.\n",
			    markdown ? "\n" : "  ");
		if (report_fleet_any_ebs(fl))
			fprintf(f, "%sEBS held: the limit EBS's own counters "
			    "show demand exceeded longest in the sustained "
			    "run, for 5%% of it at least (none: no limit "
			    "did).\n", markdown ? "\n" : "  ");
	}
	report_fleet_kinds(fl, f, markdown);

	report_fleet_heading(f, markdown, "Outliers");
	fprintf(f, "%sRule: a figure more than %.0f%% worse than the median "
	    "of the volumes of its kind (or than the volume's run-to-run "
	    "noise when that is wider), in kinds of %d volumes or more "
	    "with that figure.\n", markdown ? "" : "  ", fl->outlier * 100,
	    FLEET_MIN_KIND);
	for (i = 0; (caveat = fleet_caveat(fl, i)) != NULL; i++) {
		fprintf(f, "%s%s\n", item, caveat);
		free(caveat);
		n++;
	}
	caveats = n;
	for (i = 0; i < fl->nkinds; i++)
		compared += fl->kinds[i].compared;
	for (i = 0; i < fl->nvol; i++) {
		if (!fl->vol[i].outlier)
			continue;
		fprintf(f, "%s%s %s: %s\n", item, fl->vol[i].host[0] ?
		    fl->vol[i].host : "n/a", fl->vol[i].target,
		    report_fleet_reason(fl, &fl->vol[i], reason,
		    sizeof reason));
		n++;
	}
	if (n == caveats && (compared > 0 || fl->nvol == 0))
		fprintf(f, "%snone%s\n", item, caveats > 0 ? " among the "
		    "volumes compared" : "");
	if (fl->nskip > 0) {
		report_fleet_heading(f, markdown, "Skipped");
		for (i = 0; i < fl->nskip; i++)
			fprintf(f, "%s%s: %s\n", item, fl->skip[i].file,
			    fl->skip[i].why);
	}
}

/* A CSV field: quoted when it holds a comma, quote or line break. */
static void
report_fleet_csv_str(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\r\n") != NULL) {
		fputc('"', f);
		for (; *s != '\0'; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else
		fputs(s, f);
	fputc(last ? '\n' : ',', f);
}

static void
report_fleet_csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.10g,", v);
	else
		fputc(',', f);
}

/*
 * A figure's CSV column: its name with its unit, "p50_us",
 * "bandwidth_bytes_per_s", "commit.rate_per_s"; "iops" is one already.
 */
static char *
report_fleet_csv_name(const struct figures_def *d, char *buf, size_t len)
{
	const char	*unit = "";

	switch (d->unit) {
	case UNITS_LAT_US:
		unit = "_us";
		break;
	case UNITS_RATE:
		unit = "_bytes_per_s";
		break;
	case UNITS_BYTES:
		unit = "_bytes";
		break;
	case UNITS_SECONDS:
		unit = "_s";
		break;
	case UNITS_IOPS:
		if (strstr(d->alias, "iops") == NULL)
			unit = "_per_s";
		break;
	case UNITS_COUNT:
	case UNITS_PLAIN:
		break;
	}
	snprintf(buf, len, "%s%s", d->alias, unit);
	return (buf);
}

/* Print a fleet as CSV: a header row, then one row per volume. */
void
report_fleet_csv(const struct fleet *fl, FILE *f)
{
	const struct fleet_volume *v;
	char			 reason[1024], name[64];
	size_t			 i, j;
	int			 ebs;

	fputs("file,host,target,kind,kind_source,device_model,burst,", f);
	for (j = 0; j < fl->nfig; j++)
		fprintf(f, "%s,", report_fleet_csv_name(fl->fig[j], name,
		    sizeof name));
	for (j = 0; j < fl->nfig; j++) {
		if (fl->fig[j]->better != 0)
			fprintf(f, "ratio_%s,", fl->fig[j]->alias);
	}
	fputs("outlier,outlier_reason,expectations_met,expectations_missed,"
	    "expectations_unknown,fault", f);
	/* Only a fleet with EBS's counters has their column. */
	ebs = report_fleet_any_ebs(fl);
	fputs(ebs ? ",ebs_sustained_limit\n" : "\n", f);
	for (i = 0; i < fl->nvol; i++) {
		v = &fl->vol[i];
		report_fleet_csv_str(f, v->file, 0);
		report_fleet_csv_str(f, v->host, 0);
		report_fleet_csv_str(f, v->target, 0);
		report_fleet_csv_str(f, v->kind, 0);
		report_fleet_csv_str(f, v->kind_source != NULL ?
		    v->kind_source : "", 0);
		report_fleet_csv_str(f, v->model, 0);
		report_fleet_csv_num(f, v->burst);
		for (j = 0; j < fl->nfig; j++)
			report_fleet_csv_num(f, v->value[j]);
		for (j = 0; j < fl->nfig; j++) {
			if (fl->fig[j]->better != 0)
				report_fleet_csv_num(f, v->ratio[j]);
		}
		fputs(!v->compared ? "," : v->outlier ? "true," : "false,", f);
		report_fleet_csv_str(f, report_fleet_reason(fl, v, reason,
		    sizeof reason), 0);
		if (v->checked)
			fprintf(f, "%u,%u,%u,", v->verdicts[CHECK_MET],
			    v->verdicts[CHECK_MISSED],
			    v->verdicts[CHECK_UNKNOWN]);
		else
			fputs(",,,", f);
		fprintf(f, "%s", v->fault != NULL ? v->fault : "");
		if (ebs)
			fprintf(f, ",%s", v->ebs_limit >= 0 ?
			    ebsstats_limit_name(v->ebs_limit) : "");
		fputc('\n', f);
	}
}

static json_t *
report_fleet_real(double v)
{
	return (isfinite(v) ? json_real(v) : json_null());
}

static json_t *
report_fleet_str(const char *s)
{
	return (s != NULL && *s != '\0' ? json_string(s) : json_null());
}

static json_t *
report_fleet_json_volume(const struct fleet *fl, const struct fleet_volume *v)
{
	json_t	*o, *figs, *ratios, *states, *e;
	char	 reason[1024];
	size_t	 j;

	o = json_object();
	json_object_set_new(o, "file", json_string(v->file));
	json_object_set_new(o, "host", report_fleet_str(v->host));
	json_object_set_new(o, "target", json_string(v->target));
	json_object_set_new(o, "kind", report_fleet_str(v->kind));
	json_object_set_new(o, "kind_source",
	    report_fleet_str(v->kind_source));
	json_object_set_new(o, "device_model", report_fleet_str(v->model));
	json_object_set_new(o, "finished_utc", report_fleet_str(v->when));
	json_object_set_new(o, "interrupted", json_boolean(v->interrupted));
	json_object_set_new(o, "fault", v->fault != NULL ?
	    json_string(v->fault) : json_null());
	json_object_set_new(o, "burst_detected", isnan(v->burst) ?
	    json_null() : json_boolean(v->burst != 0));
	if (v->ebs_limit >= 0)
		json_object_set_new(o, "ebs_sustained_limit",
		    json_string(ebsstats_limit_name(v->ebs_limit)));
	figs = json_object();
	ratios = json_object();
	states = json_object();
	for (j = 0; j < fl->nfig; j++) {
		json_object_set_new(figs, fl->fig[j]->alias,
		    report_fleet_real(v->value[j]));
		json_object_set_new(states, fl->fig[j]->alias,
		    isfinite(v->value[j]) && bucket_state_name(v->state[j]) !=
		    NULL ? json_string(bucket_state_name(v->state[j])) :
		    json_null());
		if (fl->fig[j]->better != 0)
			json_object_set_new(ratios, fl->fig[j]->alias,
			    report_fleet_real(v->ratio[j]));
	}
	json_object_set_new(o, "figures", figs);
	json_object_set_new(o, "states", states);
	json_object_set_new(o, "ratio_to_median", ratios);
	json_object_set_new(o, "outlier", v->compared ?
	    json_boolean(v->outlier) : json_null());
	json_object_set_new(o, "outlier_reason", report_fleet_str(
	    report_fleet_reason(fl, v, reason, sizeof reason)));
	if (v->checked) {
		e = json_object();
		json_object_set_new(e, "met",
		    json_integer(v->verdicts[CHECK_MET]));
		json_object_set_new(e, "missed",
		    json_integer(v->verdicts[CHECK_MISSED]));
		json_object_set_new(e, "unknown",
		    json_integer(v->verdicts[CHECK_UNKNOWN]));
	} else
		e = json_null();
	json_object_set_new(o, "expectations", e);
	return (o);
}

/* Print a fleet as one JSON document.  Returns 0 or -1. */
int
report_fleet_json(const struct fleet *fl, FILE *f)
{
	const struct fleet_kind	*k;
	json_t			*root, *o, *a, *ko, *m;
	char			*caveat;
	size_t			 i, j;
	int			 rc;

	root = json_object();
	json_object_set_new(root, "schema_version",
	    json_integer(REPORT_SCHEMA_VERSION));
	o = json_object();
	json_object_set_new(o, "outlier_fraction",
	    report_fleet_real(fl->outlier));
	json_object_set_new(o, "min_kind_volumes",
	    json_integer(FLEET_MIN_KIND));
	a = json_array();
	for (i = 0; i < fl->nvol; i++)
		json_array_append_new(a, report_fleet_json_volume(fl,
		    &fl->vol[i]));
	json_object_set_new(o, "volumes", a);
	a = json_array();
	for (i = 0; i < fl->nkinds; i++) {
		k = &fl->kinds[i];
		ko = json_object();
		json_object_set_new(ko, "kind", json_string(k->kind));
		json_object_set_new(ko, "volumes", json_integer(k->nvolumes));
		json_object_set_new(ko, "compared", json_boolean(k->compared));
		m = json_object();
		for (j = 0; j < fl->nfig; j++)
			json_object_set_new(m, fl->fig[j]->alias,
			    report_fleet_real(k->median[j]));
		json_object_set_new(ko, "medians", m);
		json_array_append_new(a, ko);
	}
	json_object_set_new(o, "kinds", a);
	a = json_array();
	for (i = 0; (caveat = fleet_caveat(fl, i)) != NULL; i++) {
		json_array_append_new(a, json_string(caveat));
		free(caveat);
	}
	json_object_set_new(o, "not_compared", a);
	a = json_array();
	for (i = 0; i < fl->nskip; i++) {
		ko = json_object();
		json_object_set_new(ko, "file", json_string(fl->skip[i].file));
		json_object_set_new(ko, "reason",
		    json_string(fl->skip[i].why));
		json_array_append_new(a, ko);
	}
	json_object_set_new(o, "skipped", a);
	json_object_set_new(root, "fleet", o);
	rc = json_dumpf(root, f, FLEET_JSON_FLAGS);
	json_decref(root);
	if (rc != 0 || fputc('\n', f) == EOF || fflush(f) != 0)
		return (-1);
	return (0);
}

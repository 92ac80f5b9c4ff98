/* SPDX-License-Identifier: ISC */
/*
 * EBS's own counters for people: which limit demand exceeded in each
 * phase and for how long, the device's read latency beside tierprobe's,
 * and the words the verdict gives the limit that held the sustained run.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "ebsstats.h"
#include "report.h"
#include "units.h"

/* A phase as a sentence names it. */
static const char *
report_ebs_phase_words(const char *phase)
{
	static const struct {
		const char	*name;
		const char	*words;
	} w[] = {
		{ "scan", "scan" }, { "sweeps", "sweeps" },
		{ "sustained", "sustained run" },
		{ "after-drop", "point after the drop" },
		{ "writes", "writes" }, { "commits", "commits" },
	};
	size_t	i;

	for (i = 0; i < sizeof w / sizeof w[0]; i++)
		if (strcmp(phase, w[i].name) == 0)
			return (w[i].words);
	return (phase);
}

/* Limit l in a table cell; see report.h. */
const char *
report_ebs_limit_cell(int l)
{
	static const char *const w[] = {
		[EBSSTATS_VOLUME_IOPS] = "volume IOPS",
		[EBSSTATS_VOLUME_TP] = "volume throughput",
		[EBSSTATS_INSTANCE_IOPS] = "instance IOPS",
		[EBSSTATS_INSTANCE_TP] = "instance throughput",
		[EBSSTATS_LIMIT_NONE] = "none",
	};

	return (l >= 0 && l <= EBSSTATS_LIMIT_NONE ? w[l] : "");
}

/* What limit l is, in words ("the instance's EBS IOPS limit"). */
const char *
report_ebs_limit_words(int l)
{
	static const char *const w[] = {
		[EBSSTATS_VOLUME_IOPS] = "the volume's IOPS limit",
		[EBSSTATS_VOLUME_TP] = "the volume's throughput limit",
		[EBSSTATS_INSTANCE_IOPS] = "the instance's EBS IOPS limit",
		[EBSSTATS_INSTANCE_TP] = "the instance's EBS throughput limit",
		[EBSSTATS_LIMIT_NONE] = "no EBS limit",
	};

	if (l < 0 || l > EBSSTATS_LIMIT_NONE)
		return ("");
	return (w[l]);
}

/*
 * The limit EBS's counters show held r's sustained run (enum
 * ebsstats_limit, EBSSTATS_LIMIT_NONE when none did); -1 without
 * counters of one.
 */
int
report_ebs_sustained_limit(const struct report *r)
{
	return (r->ebs != NULL ? r->ebs->sustained_limit : -1);
}

/*
 * What the counters say held r's sustained run, into buf: "the
 * instance's EBS IOPS limit held it: demand exceeded it 41.0 s of 120 s"
 * or "no EBS limit was exceeded"; "" without counters of one.
 */
void
report_ebs_held(const struct report *r, char *buf, size_t len)
{
	const struct ebsstats_phase	*d;
	char				 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	int				 l;

	buf[0] = '\0';
	if ((l = report_ebs_sustained_limit(r)) < 0 ||
	    (d = ebsstats_phase_find(r->ebs, "sustained")) == NULL)
		return;
	if (l == EBSSTATS_LIMIT_NONE) {
		snprintf(buf, len, "no EBS limit was exceeded for 5%% of it");
		return;
	}
	snprintf(buf, len, "%s held it: demand exceeded it for %s of %s",
	    report_ebs_limit_words(l), units_format_value(UNITS_SECONDS,
	    (double)d->exceeded_us[l] / 1e6, a, sizeof a),
	    units_format_value(UNITS_SECONDS, d->seconds, b, sizeof b));
}

/* One sentence per limit a phase exceeded, longest first. */
static void
report_ebs_exceeded(const struct report_text *rt,
    const struct ebsstats_phase *d)
{
	char		line[256], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	uint64_t	done = 0, most;
	int		i, l;

	for (;;) {
		for (i = 0, l = -1, most = 0; i < EBSSTATS_NLIMITS; i++) {
			if (!(done & (1U << i)) && d->exceeded_us[i] > most) {
				most = d->exceeded_us[i];
				l = i;
			}
		}
		if (l < 0)
			return;
		done |= 1U << l;
		snprintf(line, sizeof line, "%s was exceeded for %s of the %s "
		    "%s%s.", report_ebs_limit_words(l),
		    units_format_value(UNITS_SECONDS, (double)most / 1e6, a,
		    sizeof a), units_format_value(UNITS_SECONDS, d->seconds, b,
		    sizeof b), report_ebs_phase_words(d->phase),
		    l == (int)ebsstats_held(d) ? ": it held the phase" : "");
		line[0] = (char)(line[0] - 'a' + 'A');
		report_text_sentence(rt, line);
	}
}

/* In the header, the one line that says why there are no counters. */
void
report_ebs_none(const struct report_text *rt, const struct report *r)
{
	char	line[320];

	if (r->ebs == NULL || r->ebs->why[0] == '\0')
		return;
	snprintf(line, sizeof line, "none: %s", r->ebs->why);
	report_text_kv(rt, "EBS counters", line);
}

/* The EBS counters section of a report; nothing without r->ebs. */
void
report_ebs_text(const struct report_text *rt, const struct report *r)
{
	const struct ebsstats_run	*e = r->ebs;
	const struct ebsstats_phase	*d;
	struct report_table		 tab;
	char				 s[UNITS_BUFSZ], rd[UNITS_BUFSZ];
	char				 wr[UNITS_BUFSZ], c[4][UNITS_BUFSZ];
	char				 line[400];
	size_t				 i;
	int				 any = 0;

	if (e == NULL || e->why[0] != '\0')
		return;
	report_text_heading(rt, "EBS's own counters (NVMe log page 0xD0)");
	snprintf(line, sizeof line, "%s (%s)", e->source, e->kind);
	report_text_kv(rt, "read from", line);
	if (e->note[0] != '\0')
		report_text_kv(rt, "note", e->note);
	if (e->nphases == 0)
		return;
	if (rt->md)
		fputc('\n', rt->f);
	report_table_init(&tab, "lrrrlrrrr");
	report_table_add(&tab, "phase", "time", "reads", "writes",
	    "held by", "device p50", "p99", "tierprobe p50", "p99");
	for (i = 0; i < e->nphases; i++) {
		d = &e->phases[i];
		report_table_add(&tab, d->phase,
		    units_format_value(UNITS_SECONDS, d->seconds, s, sizeof s),
		    units_format_value(UNITS_COUNT, (double)d->read_ops, rd,
		    sizeof rd),
		    units_format_value(UNITS_COUNT, (double)d->write_ops, wr,
		    sizeof wr),
		    report_ebs_limit_cell(ebsstats_held(d)),
		    report_text_cell(UNITS_LAT_US, d->read_p50_us, c[0],
		    sizeof c[0]),
		    report_text_cell(UNITS_LAT_US, d->read_p99_us, c[1],
		    sizeof c[1]),
		    report_text_cell(UNITS_LAT_US, d->own_read_p50_us, c[2],
		    sizeof c[2]),
		    report_text_cell(UNITS_LAT_US, d->own_read_p99_us, c[3],
		    sizeof c[3]));
	}
	report_table_write(&tab, rt->f, rt->md, REPORT_TEXT_INDENT);
	if (rt->md)
		fputc('\n', rt->f);
	for (i = 0; i < e->nphases; i++) {
		d = &e->phases[i];
		report_ebs_exceeded(rt, d);
		if (d->note[0] != '\0') {
			snprintf(line, sizeof line, "%s: %s.", d->phase,
			    d->note);
			report_text_sentence(rt, line);
		}
		/* The scan's points: in the table only. */
		if (!isfinite(d->read_p50_us) ||
		    !isfinite(d->own_read_p50_us) ||
		    strncmp(d->phase, "scan ", 5) == 0)
			continue;
		any = 1;
		units_format_value(UNITS_LAT_US, d->own_read_p50_us, c[0],
		    sizeof c[0]);
		units_format_value(UNITS_LAT_US, d->read_p50_us, c[1],
		    sizeof c[1]);
		if (d->own_read_p50_us >= d->read_p50_us)
			snprintf(line, sizeof line, "In the %s tierprobe saw "
			    "reads at p50 %s, the device at %s: %s is spent "
			    "where the device does not count it (the guest's "
			    "queues and driver, the instance's NVMe path).",
			    report_ebs_phase_words(d->phase), c[0], c[1],
			    units_format_value(UNITS_LAT_US,
			    d->own_read_p50_us - d->read_p50_us, c[2],
			    sizeof c[2]));
		else
			snprintf(line, sizeof line, "In the %s tierprobe saw "
			    "reads at p50 %s, the device at %s: its bins are "
			    "coarser than the difference.",
			    report_ebs_phase_words(d->phase), c[0], c[1]);
		report_text_sentence(rt, line);
	}
	if (!any)
		return;
	report_text_sentence(rt, "The device's percentiles are read off its "
	    "histogram's bins (linear within a bin): as coarse as its bins.");
}

/* A histogram's bins as JSON: every bin the device keeps. */
static json_t *
report_ebs_hist_json(const struct ebsstats_hist *h)
{
	json_t	*a = json_array(), *o;
	size_t	 i;

	for (i = 0; i < h->nbins; i++) {
		o = json_object();
		json_object_set_new(o, "lower_us",
		    json_integer((json_int_t)h->bin[i].lower_us));
		json_object_set_new(o, "upper_us",
		    json_integer((json_int_t)h->bin[i].upper_us));
		json_object_set_new(o, "count",
		    json_integer((json_int_t)h->bin[i].count));
		json_array_append_new(a, o);
	}
	return (a);
}

/* One page as JSON (ebs-stats --output-format json).  Returns 0 or -1. */
static int
report_ebs_page_json(const struct ebsstats_page *p, const char *source,
    FILE *f)
{
	static const char *const keys[EBSSTATS_NLIMITS] = {
		"volume_iops_exceeded_us", "volume_throughput_exceeded_us",
		"instance_iops_exceeded_us", "instance_throughput_exceeded_us",
	};
	json_t	*o = json_object();
	int	 i, rc;

	json_object_set_new(o, "source", json_string(source));
	json_object_set_new(o, "kind", json_string(ebsstats_kind_name(
	    p->kind)));
	json_object_set_new(o, "read_ops", json_integer(p->read_ops));
	json_object_set_new(o, "write_ops", json_integer(p->write_ops));
	json_object_set_new(o, "read_bytes", json_integer(p->read_bytes));
	json_object_set_new(o, "write_bytes", json_integer(p->write_bytes));
	json_object_set_new(o, "read_time_us", json_integer(p->read_time_us));
	json_object_set_new(o, "write_time_us",
	    json_integer(p->write_time_us));
	for (i = 0; i < EBSSTATS_NLIMITS; i++)
		json_object_set_new(o, keys[i],
		    json_integer((json_int_t)p->exceeded_us[i]));
	json_object_set_new(o, "queue_length",
	    json_integer(p->queue_length));
	json_object_set_new(o, "read_latency_histogram",
	    report_ebs_hist_json(&p->read_hist));
	json_object_set_new(o, "write_latency_histogram",
	    report_ebs_hist_json(&p->write_hist));
	rc = json_dumpf(o, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(o);
	if (rc != 0 || fputc('\n', f) == EOF)
		return (-1);
	return (0);
}

/* The bin of h with the bounds of bin, or NULL. */
static const struct ebsstats_bin *
report_ebs_bin_find(const struct ebsstats_hist *h,
    const struct ebsstats_bin *bin)
{
	size_t	i;

	for (i = 0; i < h->nbins; i++)
		if (h->bin[i].lower_us == bin->lower_us &&
		    h->bin[i].upper_us == bin->upper_us)
			return (&h->bin[i]);
	return (NULL);
}

/*
 * Rows of tab for the bins of h that hold I/Os, with the count of the
 * same bin of other; of the writes (reads 0), only bins the reads lack.
 */
static void
report_ebs_bins(struct report_table *tab, const struct ebsstats_hist *h,
    const struct ebsstats_hist *other, int reads)
{
	const struct ebsstats_bin	*o;
	char				 bin[64], n[32], m[32];
	uint64_t			 oc;
	size_t				 i;

	for (i = 0; i < h->nbins; i++) {
		o = report_ebs_bin_find(other, &h->bin[i]);
		oc = o != NULL ? o->count : 0;
		if ((h->bin[i].count == 0 && oc == 0) || (!reads && o != NULL))
			continue;
		snprintf(bin, sizeof bin, "%" PRIu64 " to %" PRIu64 " us",
		    h->bin[i].lower_us, h->bin[i].upper_us);
		snprintf(n, sizeof n, "%" PRIu64, reads ? h->bin[i].count : oc);
		snprintf(m, sizeof m, "%" PRIu64, reads ? oc : h->bin[i].count);
		report_table_add(tab, bin, n, m);
	}
}

/* One page for people (ebs-stats).  Returns 0 or -1. */
static int
report_ebs_page_text(const struct ebsstats_page *p, const char *source,
    FILE *f, int markdown)
{
	struct report_text	 rt = { f, markdown };
	struct report_table	 tab;
	char			 line[320], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	char			 c[UNITS_BUFSZ];
	int			 i;

	if (markdown)
		fprintf(f, "# tierprobe ebs-stats: `%s`\n\n", source);
	else
		fprintf(f, "tierprobe ebs-stats: %s\n", source);
	snprintf(line, sizeof line, "%s, counted since the volume was "
	    "attached", p->kind == EBSSTATS_KIND_EBS ? "an EBS volume" :
	    "an instance-store volume");
	report_text_kv(&rt, "volume", line);
	snprintf(line, sizeof line, "%" PRIu64 " (%s, %s in all)",
	    p->read_ops, units_format_value(UNITS_BYTES,
	    (double)p->read_bytes, a, sizeof a), units_format_value(
	    UNITS_SECONDS, (double)p->read_time_us / 1e6, b, sizeof b));
	report_text_kv(&rt, "reads", line);
	snprintf(line, sizeof line, "%" PRIu64 " (%s, %s in all)",
	    p->write_ops, units_format_value(UNITS_BYTES,
	    (double)p->write_bytes, a, sizeof a), units_format_value(
	    UNITS_SECONDS, (double)p->write_time_us / 1e6, c, sizeof c));
	report_text_kv(&rt, "writes", line);
	snprintf(line, sizeof line, "%" PRIu64, p->queue_length);
	report_text_kv(&rt, "queue length", line);
	for (i = 0; i < EBSSTATS_NLIMITS; i++) {
		snprintf(line, sizeof line, "%s: demand exceeded it for %s",
		    report_ebs_limit_words(i), units_format_value(
		    UNITS_SECONDS, (double)p->exceeded_us[i] / 1e6, a,
		    sizeof a));
		report_text_kv(&rt, i == 0 ? "limits" : "", line);
	}
	report_text_heading(&rt, "Latency histograms (I/Os per bin)");
	report_table_init(&tab, "lrr");
	report_table_add(&tab, "latency", "reads", "writes");
	report_ebs_bins(&tab, &p->read_hist, &p->write_hist, 1);
	report_ebs_bins(&tab, &p->write_hist, &p->read_hist, 0);
	report_table_write(&tab, f, markdown, REPORT_TEXT_INDENT);
	return (fflush(f) != 0 ? -1 : 0);
}

/* A page as ebs-stats prints it; see report.h. */
int
report_ebs_page_write(const struct ebsstats_page *p, const char *source,
    FILE *f, int json, int markdown)
{
	if (json)
		return (report_ebs_page_json(p, source, f));
	return (report_ebs_page_text(p, source, f, markdown));
}

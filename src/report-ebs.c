/* SPDX-License-Identifier: ISC */
/*
 * EBS's own counters for people: which limit demand exceeded in each
 * phase and for how long, the device's read latency beside tierprobe's,
 * and the words the verdict gives the limit that held the sustained run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* Limit l in a table cell. */
static const char *
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
	if (r->ebs == NULL || (l = r->ebs->sustained_limit) < 0 ||
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
	for (i = 0; i < e->nphases; i++) {
		d = &e->phases[i];
		report_ebs_exceeded(rt, d);
		if (d->note[0] != '\0') {
			snprintf(line, sizeof line, "%s: %s.", d->phase,
			    d->note);
			report_text_sentence(rt, line);
		}
		if (!isfinite(d->read_p50_us) || !isfinite(d->own_read_p50_us))
			continue;
		any = 1;
		units_format_value(UNITS_LAT_US, d->own_read_p50_us, c[0],
		    sizeof c[0]);
		units_format_value(UNITS_LAT_US, d->read_p50_us, c[1],
		    sizeof c[1]);
		if (d->own_read_p50_us >= d->read_p50_us)
			snprintf(line, sizeof line, "In the %s tierprobe saw "
			    "reads at p50 %s, the device at %s: %s is the "
			    "guest's (queueing in the kernel, the driver, the "
			    "instance's NVMe path).",
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

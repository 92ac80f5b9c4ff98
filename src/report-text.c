/* SPDX-License-Identifier: ISC */
/*
 * A report for people: the answer first (tiers, ceilings, burst and what
 * they mean for a database), then the measured points; text or markdown.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "units.h"

#define TEXT_INDENT	REPORT_TEXT_INDENT
#define TEXT_DB_IODEPTH	32	/* the queue a busy database keeps */


static char *
report_text_size(uint64_t v, char *buf, size_t len)
{
	return (units_format_size(v, buf, len));
}

static const char *
report_text_type(const struct report *r)
{
	return (r->target.type[0] != '\0' ? r->target.type : "target");
}

static void
report_text_header(struct report_text *rt, const struct report *r)
{
	char	b1[UNITS_BUFSZ], b2[UNITS_BUFSZ], line[512];
	const char *cmd = r->config.command[0] ? r->config.command : "run";

	if (rt->md)
		fprintf(rt->f, "# tierprobe %s: %s of `%s`\n\n",
		    r->tool_version, cmd, r->target.path != NULL ? r->target.path : "?");
	else
		fprintf(rt->f, "tierprobe %s: %s of %s\n", r->tool_version, cmd,
		    r->target.path != NULL ? r->target.path : "?");
	if (r->interrupted) {
		if (rt->md)
			fprintf(rt->f, "**INTERRUPTED: the run was stopped "
			    "early; the figures cover only what was measured."
			    "**\n\n");
		else
			fprintf(rt->f, "\n*** INTERRUPTED: the run was stopped "
			    "early; the figures cover only what was measured "
			    "***\n\n");
	}
	snprintf(line, sizeof line, "%s%s%s, %s, %s, %s I/Os",
	    report_text_type(r), r->target.size_bytes ? " of " : "",
	    r->target.size_bytes ? report_text_size(r->target.size_bytes, b1,
	    sizeof b1) : "", r->target.direct ? "O_DIRECT" : "buffered",
	    r->target.engine[0] ? r->target.engine : "unknown engine",
	    r->target.bs ? report_text_size(r->target.bs, b2, sizeof b2) :
	    "?");
	report_text_kv(rt, "target", line);
	snprintf(line, sizeof line, "%s to %s, seed %llu",
	    r->started_utc[0] ? r->started_utc : "unknown",
	    r->finished_utc[0] ? r->finished_utc : "unknown",
	    (unsigned long long)r->config.seed);
	report_text_kv(rt, "run", line);
}

static void
report_text_tiers(struct report_text *rt, const struct report *r)
{
	const struct scan_result	*s = r->scan;
	const struct tiers_result	*tr = &s->tiers;
	const struct tier		*t;
	struct report_table		 tab;
	char				 n[8], cap[48], iv[80];
	char				 p50[UNITS_BUFSZ];
	char				 p99[UNITS_BUFSZ], b1[UNITS_BUFSZ];
	char				 b2[UNITS_BUFSZ], title[128];
	size_t				 i;

	snprintf(title, sizeof title, "Cache tiers (random %s %s, "
	    "iodepth %u)", report_text_size(r->config.bs ? r->config.bs :
	    r->target.bs, b1, sizeof b1), r->config.write ? "writes" : "reads",
	    r->config.iodepth ? r->config.iodepth : 1);
	report_text_heading(rt, title);
	if (!tr->analysed) {
		report_text_sentence(rt, "Not analysed: the tiers could not be "
		    "established from the points measured.");
		if (tr->note[0] != '\0')
			report_text_kv(rt, "note", tr->note);
		return;
	}
	report_table_init(&tab, "lllrr");
	report_table_add(&tab, "tier", "capacity", "95% interval", "p50",
	    "p99");
	for (i = 0; i < tr->ntiers && i < TIERS_MAX; i++) {
		t = &tr->tier[i];
		snprintf(n, sizeof n, "%zu", i + 1);
		snprintf(cap, sizeof cap, "%s%s", t->at_least ? "at least " :
		    "", t->capacity_bytes ? report_text_size(t->capacity_bytes,
		    b1, sizeof b1) : "unknown");
		if (!t->at_least && t->capacity_low_bytes &&
		    t->capacity_high_bytes)
			snprintf(iv, sizeof iv, "%s - %s",
			    report_text_size(t->capacity_low_bytes, b1,
			    sizeof b1), report_text_size(
			    t->capacity_high_bytes, b2, sizeof b2));
		else
			snprintf(iv, sizeof iv, "%s", t->at_least ?
			    "beyond the scan" : "n/a");
		report_table_add(&tab, n, cap, iv,
		    report_text_cell(UNITS_LAT_US, t->lat_us_p50, p50,
		    sizeof p50), report_text_cell(UNITS_LAT_US,
		    t->lat_us_p99, p99, sizeof p99));
	}
	report_table_add(&tab, "backing", "", "",
	    report_text_cell(UNITS_LAT_US, tr->backing_p50_us, p50,
	    sizeof p50), report_text_cell(UNITS_LAT_US,
	    tr->backing_p99_us, p99, sizeof p99));
	report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
	if (tr->note[0] != '\0') {
		if (rt->md)
			fputc('\n', rt->f);
		report_text_kv(rt, "note", tr->note);
	}
}

/* The first-read comparison, when the run made one. */
static void
report_text_first_touch(struct report_text *rt, const struct first_touch *ft)
{
	char	line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];

	if (!ft->measured)
		return;
	if (ft->detected)
		snprintf(line, sizeof line, "first reads %.1fx slower (%s vs "
		    "%s): snapshot restore, not a cache",
		    ft->ratio, units_format_value(UNITS_LAT_US,
		    ft->first_mean_us, b1, sizeof b1), units_format_value(
		    UNITS_LAT_US, ft->second_mean_us, b2, sizeof b2));
	else
		snprintf(line, sizeof line, "none (mean %s on a first read, "
		    "%s on a second)", units_format_value(
		    UNITS_LAT_US, ft->first_mean_us, b1, sizeof b1),
		    units_format_value(UNITS_LAT_US, ft->second_mean_us,
		    b2, sizeof b2));
	report_text_kv(rt, "first-read cost", line);
}

static void
report_text_limits(struct report_text *rt, const struct report *r)
{
	const struct limits_result	*l = r->limits;
	const struct burst		*b = &l->burst;
	char				 line[256], b1[UNITS_BUFSZ];
	char				 b2[UNITS_BUFSZ], b3[UNITS_BUFSZ];
	char				 b4[UNITS_BUFSZ], title[96];

	snprintf(title, sizeof title, "Ceilings (random %s, working set %s)",
	    r->config.write ? "writes" : "reads", report_text_size(
	    l->ws_bytes, b1, sizeof b1));
	report_text_heading(rt, title);
	if (isfinite(l->iops_ceiling)) {
		if (l->iops_knee_iodepth)
			snprintf(line, sizeof line, "%s IOPS, reached at "
			    "iodepth %u", units_format_value(UNITS_IOPS,
			    l->iops_ceiling, b1, sizeof b1),
			    l->iops_knee_iodepth);
		else
			snprintf(line, sizeof line, "%s IOPS",
			    units_format_value(UNITS_IOPS,
			    l->iops_ceiling, b1, sizeof b1));
	} else if (isfinite(l->iops_max_seen) && l->iops_max_seen > 0)
		snprintf(line, sizeof line, "none found (at most %s IOPS "
		    "seen)", units_format_value(
		    UNITS_IOPS, l->iops_max_seen, b1, sizeof b1));
	else
		snprintf(line, sizeof line, "unknown");
	report_text_kv(rt, "IOPS ceiling", line);
	if (l->cpu_bound)
		report_text_kv(rt, "CPU-bound", "yes: this machine's CPU "
		    "limited the IOPS measured");
	report_text_kv(rt, "bandwidth ceiling",
	    units_format_value(UNITS_RATE,
	    l->bandwidth_ceiling_bytes_per_s, b1, sizeof b1));
	if (l->io_accounting_bytes) {
		snprintf(line, sizeof line, "%s (larger I/Os count as "
		    "several)", report_text_size(l->io_accounting_bytes, b1,
		    sizeof b1));
		report_text_kv(rt, "accounting size", line);
	} else
		report_text_kv(rt, "accounting size", "not observable");
	if (b->detected) {
		snprintf(line, sizeof line, "%s IOPS for %s, then %s IOPS; "
		    "bucket %s I/Os", units_format_value(UNITS_IOPS,
		    b->burst_iops, b1, sizeof b1),
		    units_format_value(UNITS_SECONDS, b->duration_s, b2,
		    sizeof b2), units_format_value(UNITS_IOPS,
		    b->baseline_iops, b3, sizeof b3),
		    units_format_value(UNITS_COUNT, b->credits_ios, b4,
		    sizeof b4));
		report_text_kv(rt, "burst", line);
	} else if (l->timeline.n > 0) {
		snprintf(line, sizeof line, "none detected over %s of "
		    "sustained load", units_format_value(UNITS_SECONDS,
		    l->timeline.v[l->timeline.n - 1].t_s, b1, sizeof b1));
		report_text_kv(rt, "burst", line);
	} else
		report_text_kv(rt, "burst", "not measured");
	report_text_first_touch(rt, &l->first_touch);
	if (l->note[0] != '\0')
		report_text_kv(rt, "note", l->note);
}

/* Plain sentences: what the figures mean for a database on this volume. */
static void
report_text_meaning(struct report_text *rt, const struct report *r)
{
	const struct tiers_result	*tr;
	const struct limits_result	*l = r->limits;
	const struct tier		*t;
	char				 s[512], b1[UNITS_BUFSZ];
	char				 b2[UNITS_BUFSZ], b3[UNITS_BUFSZ];
	size_t				 i;
	int				 any = 0;

	report_text_heading(rt, "What it means for a database");
	if (r->scan != NULL && r->scan->tiers.analysed) {
		tr = &r->scan->tiers;
		for (i = 0; i < tr->ntiers && i < TIERS_MAX; i++) {
			t = &tr->tier[i];
			if (i == 0)
				snprintf(s, sizeof s, "A working set up to "
				    "%s%s is served from cache tier 1 (p50 %s, "
				    "p99 %s).", t->at_least ? "at least " : "",
				    report_text_size(t->capacity_bytes, b1,
				    sizeof b1), units_format_value(
				    UNITS_LAT_US, t->lat_us_p50, b2,
				    sizeof b2), units_format_value(
				    UNITS_LAT_US, t->lat_us_p99, b3,
				    sizeof b3));
			else
				snprintf(s, sizeof s, "Up to %s%s, reads that "
				    "miss tier %zu are served from cache tier "
				    "%zu (p50 %s, p99 %s).", t->at_least ?
				    "at least " : "", report_text_size(
				    t->capacity_bytes, b1, sizeof b1), i, i + 1,
				    units_format_value(UNITS_LAT_US,
				    t->lat_us_p50, b2, sizeof b2),
				    units_format_value(UNITS_LAT_US,
				    t->lat_us_p99, b3, sizeof b3));
			report_text_sentence(rt, s);
			any = 1;
		}
		if (tr->ntiers > 0 && tr->tier[tr->ntiers - 1].at_least) {
			snprintf(s, sizeof s, "The scan never outgrew tier %zu:"
			    " scan larger working sets to find what lies "
			    "behind it.", tr->ntiers);
			report_text_sentence(rt, s);
		} else if (tr->ntiers > 0) {
			snprintf(s, sizeof s, "A working set above %s is "
			    "served at backing-store latency (p50 %s, p99 %s).",
			    report_text_size(tr->tier[tr->ntiers -
			    1].capacity_bytes, b1, sizeof b1),
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p50_us, b2, sizeof b2),
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p99_us, b3, sizeof b3));
			report_text_sentence(rt, s);
		} else {
			snprintf(s, sizeof s, "No cache tier was found: every "
			    "working set scanned was served at p50 %s, p99 %s.",
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p50_us, b2, sizeof b2),
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p99_us, b3, sizeof b3));
			report_text_sentence(rt, s);
			/* Warmed reads cannot see a cache beyond the scan. */
			if (r->scan->npoints > 0) {
				snprintf(s, sizeof s, "A cache larger than the "
				    "largest working set scanned (%s) would "
				    "look the same: raise --max-ws to rule one "
				    "out.", report_text_size(r->scan->points[
				    r->scan->npoints - 1].ws_bytes, b1,
				    sizeof b1));
				report_text_sentence(rt, s);
			}
		}
		any = 1;
	}
	if (l != NULL && isfinite(l->iops_ceiling) && l->iops_ceiling > 0) {
		snprintf(s, sizeof s, "A workload needing more than %s IOPS "
		    "will queue: at iodepth %d, latency ~ %d/%s s = %s "
		    "(Little's law).", units_format_value(UNITS_IOPS,
		    l->iops_ceiling, b1, sizeof b1), TEXT_DB_IODEPTH,
		    TEXT_DB_IODEPTH, units_format_value(UNITS_IOPS,
		    l->iops_ceiling, b2, sizeof b2),
		    units_format_value(UNITS_LAT_US,
		    TEXT_DB_IODEPTH / l->iops_ceiling * 1e6, b3, sizeof b3));
		report_text_sentence(rt, s);
		any = 1;
		if (l->cpu_bound) {
			report_text_sentence(rt, "This machine's CPU was the "
			    "bottleneck: the volume may sustain more.");
		}
	}
	if (l != NULL && isfinite(l->bandwidth_ceiling_bytes_per_s)) {
		snprintf(s, sizeof s, "Large reads (table scans, backups, "
		    "bulk loads) top out at %s.", units_format_value(
		    UNITS_RATE, l->bandwidth_ceiling_bytes_per_s, b1,
		    sizeof b1));
		report_text_sentence(rt, s);
		any = 1;
	}
	if (l != NULL && l->io_accounting_bytes &&
	    l->io_accounting_bytes < (1 << 20)) {
		snprintf(s, sizeof s, "The volume counts I/O in units of %s: "
		    "one 1 MiB read costs %llu I/Os against the IOPS limit.",
		    report_text_size(l->io_accounting_bytes, b1, sizeof b1),
		    (unsigned long long)(((1 << 20) + l->io_accounting_bytes -
		    1) / l->io_accounting_bytes));
		report_text_sentence(rt, s);
		any = 1;
	}
	if (l != NULL && l->burst.detected) {
		snprintf(s, sizeof s, "Sustained load drains a burst bucket: "
		    "after about %s at %s IOPS the volume drops to %s IOPS. "
		    "Benchmarks shorter than that overstate it.",
		    units_format_value(UNITS_SECONDS,
		    l->burst.duration_s, b1, sizeof b1),
		    units_format_value(UNITS_IOPS, l->burst.burst_iops,
		    b2, sizeof b2), units_format_value(UNITS_IOPS,
		    l->burst.baseline_iops, b3, sizeof b3));
		report_text_sentence(rt, s);
		any = 1;
	} else if (l != NULL && l->timeline.n > 0) {
		report_text_sentence(rt, "No burst bucket showed: the rate "
		    "held over the sustained run.");
		any = 1;
	}
	any |= report_sync_meaning(rt, r);
	if (r->interrupted)
		report_text_sentence(rt, "The run was interrupted: figures "
		    "above may be missing or rest on fewer points.");
	else if (!any)
		report_text_sentence(rt, "Nothing was established.");
}

static void
report_text_repeat(struct report_text *rt, const struct report *r)
{
	const struct report_repeat	*rr = r->repeat;
	const struct report_stat	*st;
	struct report_figure		 fig[REPORT_STATS_MAX];
	struct report_table		 tab;
	char				 title[64], m[UNITS_BUFSZ];
	char				 sd[UNITS_BUFSZ], cv[16], n[16];
	const char			*label;
	enum units_kind		 unit;
	size_t				 nf, i, j;

	nf = report_headlines(r, fig, REPORT_STATS_MAX);
	snprintf(title, sizeof title, "Repeatability (%u runs)", rr->runs);
	report_text_heading(rt, title);
	report_table_init(&tab, "lrrrr");
	report_table_add(&tab, "figure", "mean", "sd", "cv", "runs");
	for (i = 0; i < rr->nstats; i++) {
		st = &rr->stat[i];
		label = st->name;
		unit = UNITS_COUNT;
		for (j = 0; j < nf; j++) {
			if (strcmp(fig[j].name, st->name) == 0) {
				label = fig[j].label;
				unit = fig[j].unit;
			}
		}
		if (isfinite(st->cv))
			snprintf(cv, sizeof cv, "%.1f%%", st->cv * 100);
		else
			snprintf(cv, sizeof cv, "n/a");
		snprintf(n, sizeof n, "%u", st->n);
		report_table_add(&tab, label, report_text_cell(unit, st->mean,
		    m, sizeof m), report_text_cell(unit, st->sd, sd, sizeof sd),
		    cv, n);
	}
	report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
}

static void
report_text_context(struct report_text *rt, const struct report *r)
{
	const struct report_context	*x = &r->context;
	char				 line[512], b1[UNITS_BUFSZ];
	char				 b2[UNITS_BUFSZ];
	size_t				 o;

	report_text_heading(rt, "Machine");
	if (x->hostname[0] != '\0')
		report_text_kv(rt, "host", x->hostname);
	report_text_kv(rt, "kernel", x->kernel[0] ? x->kernel : "unknown");
	if (x->device[0] == '\0')
		report_text_kv(rt, "device", "unknown");
	else {
		o = snprintf(line, sizeof line, "%s", x->device);
		if (x->device_model[0] != '\0')
			o += snprintf(line + o, sizeof line - o, " (%s)",
			    x->device_model);
		report_text_kv(rt, "device", line);
		/* As sysfs queue/ says: virtio disks always say rotational. */
		o = snprintf(line, sizeof line, "scheduler %s, nr_requests %u, "
		    "read_ahead %u KiB", x->scheduler[0] ? x->scheduler :
		    "unknown", x->nr_requests, x->read_ahead_kb);
		if (x->rotational >= 0 && o < sizeof line)
			snprintf(line + o, sizeof line - o, ", rotational %d",
			    x->rotational);
		report_text_kv(rt, "queue", line);
	}
	if (x->logical_block || x->physical_block) {
		snprintf(line, sizeof line, "logical %s, physical %s",
		    x->logical_block ? report_text_size(x->logical_block, b1,
		    sizeof b1) : "unknown", x->physical_block ?
		    report_text_size(x->physical_block, b2, sizeof b2) :
		    "unknown");
		report_text_kv(rt, "blocks", line);
	}
	if (x->fstype[0] != '\0') {
		snprintf(line, sizeof line, "%s (%s)", x->fstype,
		    x->mount_options[0] ? x->mount_options : "options unknown");
		report_text_kv(rt, "filesystem", line);
	}
}

/* A table of points; key picks the first column (ws, iodepth or bs). */
enum report_text_key {
	TEXT_KEY_WS,
	TEXT_KEY_IODEPTH,
	TEXT_KEY_BS,
};

static void
report_text_points(struct report_text *rt, const char *title,
    const struct point *v, size_t n, enum report_text_key key,
    unsigned knee)
{
	const struct point	*p;
	struct report_table	 tab;
	char			 k[UNITS_BUFSZ + 8], ios[UNITS_BUFSZ];
	char			 secs[UNITS_BUFSZ], iops[UNITS_BUFSZ];
	char			 bw[UNITS_BUFSZ], mean[UNITS_BUFSZ];
	char			 p50[UNITS_BUFSZ];
	char			 p99[UNITS_BUFSZ], p999[UNITS_BUFSZ];
	char			 ci[16];
	char			 t[128];
	size_t			 i;

	snprintf(t, sizeof t, "%s (%zu)", title, n);
	report_text_heading(rt, t);
	if (n == 0) {
		report_text_sentence(rt, "None measured.");
		return;
	}
	/* Bandwidth matters across bs and depth; p90 across ws. */
	report_table_init(&tab, "rrrrrrrrrr");
	if (key == TEXT_KEY_WS)
		report_table_add(&tab, "ws", "IOPS", "mean", "p50", "p90",
		    "p99", "p99.9", "+-95%", "ios", "time");
	else
		report_table_add(&tab, key == TEXT_KEY_IODEPTH ? "iodepth" :
		    "bs", "IOPS", "bandwidth", "mean", "p50", "p99", "p99.9",
		    "+-95%", "ios", "time");
	for (i = 0; i < n; i++) {
		p = &v[i];
		switch (key) {
		case TEXT_KEY_WS:
			report_text_size(p->ws_bytes, k, sizeof k);
			break;
		case TEXT_KEY_IODEPTH:
			snprintf(k, sizeof k, "%s%u", knee && p->iodepth ==
			    knee ? "knee " : "", p->iodepth);
			break;
		case TEXT_KEY_BS:
			report_text_size(p->bs, k, sizeof k);
			break;
		}
		if (isfinite(p->ci95_rel))
			snprintf(ci, sizeof ci, "%.1f%%", p->ci95_rel * 100);
		else
			snprintf(ci, sizeof ci, "n/a");
		report_text_cell(UNITS_IOPS, p->iops, iops, sizeof iops);
		report_text_cell(UNITS_LAT_US, p->lat_us.mean, mean,
		    sizeof mean);
		report_text_cell(UNITS_LAT_US, p->lat_us.p50, p50,
		    sizeof p50);
		report_text_cell(UNITS_LAT_US, p->lat_us.p99, p99,
		    sizeof p99);
		report_text_cell(UNITS_LAT_US, p->lat_us.p999, p999,
		    sizeof p999);
		report_text_cell(UNITS_COUNT, (double)p->ios, ios,
		    sizeof ios);
		report_text_cell(UNITS_SECONDS, p->seconds, secs,
		    sizeof secs);
		if (key == TEXT_KEY_WS) {
			report_text_cell(UNITS_LAT_US, p->lat_us.p90, bw,
			    sizeof bw);
			report_table_add(&tab, k, iops, mean, p50, bw, p99,
			    p999, ci, ios, secs);
		} else {
			report_text_cell(UNITS_RATE, p->bytes_per_s, bw,
			    sizeof bw);
			report_table_add(&tab, k, iops, bw, mean, p50, p99,
			    p999, ci, ios, secs);
		}
	}
	report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
}

static void
report_text_timeline(struct report_text *rt, const struct timeline *tl)
{
	char	line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char	b3[UNITS_BUFSZ];
	double	lo = INFINITY, hi = -INFINITY;
	size_t	i;

	for (i = 0; i < tl->n; i++) {
		if (!isfinite(tl->v[i].iops))
			continue;
		if (tl->v[i].iops < lo)
			lo = tl->v[i].iops;
		if (tl->v[i].iops > hi)
			hi = tl->v[i].iops;
	}
	snprintf(line, sizeof line, "%zu intervals over %s, IOPS from %s to "
	    "%s (the JSON report and the timeline plot hold them all)", tl->n,
	    units_format_value(UNITS_SECONDS, tl->v[tl->n - 1].t_s, b1,
	    sizeof b1), units_format_value(UNITS_IOPS, lo, b2,
	    sizeof b2), units_format_value(UNITS_IOPS, hi, b3,
	    sizeof b3));
	report_text_heading(rt, "Sustained run");
	report_text_sentence(rt, line);
}

/* Text (markdown set: markdown) for people: summary first, then points. */
void
report_text_write(const struct report *r, FILE *f, int markdown)
{
	struct report_text	 rt = { f, markdown };
	const struct limits_result *l = r->limits;

	report_text_header(&rt, r);
	if (r->scan != NULL)
		report_text_tiers(&rt, r);
	if (l != NULL)
		report_text_limits(&rt, r);
	report_writes_text(&rt, r);
	report_sync_text(&rt, r);
	report_text_meaning(&rt, r);
	if (r->repeat != NULL && r->repeat->runs > 0)
		report_text_repeat(&rt, r);
	report_text_context(&rt, r);
	if (r->scan != NULL)
		report_text_points(&rt, "Scan points", r->scan->points,
		    r->scan->npoints, TEXT_KEY_WS, 0);
	if (l != NULL) {
		report_text_points(&rt, "Queue-depth sweep", l->qd_points,
		    l->nqd, TEXT_KEY_IODEPTH, l->iops_knee_iodepth);
		report_text_points(&rt, "Block-size sweep", l->bs_points,
		    l->nbs, TEXT_KEY_BS, 0);
		if (l->timeline.n > 0)
			report_text_timeline(&rt, &l->timeline);
	}
}

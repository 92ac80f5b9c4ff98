/* SPDX-License-Identifier: ISC */
/*
 * A report for people: the answer first (tiers, ceilings, burst and what
 * they mean for a database), then the measured points; text or markdown.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bucket.h"
#include "plan.h"
#include "report.h"
#include "units.h"

#define TEXT_INDENT	REPORT_TEXT_INDENT
#define TEXT_DB_IODEPTH	32	/* the queue a busy database keeps */
#define TEXT_NEAR	0.97	/* a working set this close to --max-ws
				   reached it (grid alignment) */
#define TEXT_TESTED	2	/* working sets past a cache that test
				   its law, as the analysis asks */

/* A table cell for v with "<= " or ">= " when it is a bound. */
static const char *
report_text_bounded(enum units_kind unit, double v, int bound, char *buf,
    size_t len)
{
	char	tmp[UNITS_BUFSZ];

	if (!isfinite(v))
		return (report_text_cell(unit, v, buf, len));
	snprintf(buf, len, "%s%s", report_bound_prefix(bound),
	    units_format_value(unit, v, tmp, sizeof tmp));
	return (buf);
}

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

/*
 * Whether the scan reached the end of a volume (a device or a simulated
 * one), which no --max-ws can take it past; a test file can grow.
 */
static int
report_text_whole(const struct report *r)
{
	const struct scan_result	*s = r->scan;

	return (s != NULL && s->npoints > 0 && r->target.size_bytes > 0 &&
	    strcmp(r->target.type, "file") != 0 && s->points[s->npoints -
	    1].ws_bytes + r->target.bs >= r->target.size_bytes);
}

/* What the quick preset left out, in one line; nothing for a full run. */
static void
report_text_cuts(struct report_text *rt, const struct report *r)
{
	char	line[1024];
	size_t	len = 0;
	int	i;

	if (r->config.cuts == 0)
		return;
	for (i = 0; plan_cut_text(i) != NULL; i++)
		if (r->config.cuts & (1U << i))
			len += snprintf(line + len, sizeof line - len, "%s%s",
			    len == 0 ? "not measured: " : "; ",
			    plan_cut_text(i));
	snprintf(line + len, sizeof line - len, "; run with a TARGET and "
	    "without --quick for them");
	report_text_kv(rt, "quick preset", line);
}

/*
 * What was measured and how: "file of 100 GiB, O_DIRECT, io_uring, 4 KiB
 * I/Os", "simulated ebs-gp2-100g, 100 GiB, O_DIRECT, in virtual time, 4
 * KiB I/Os"; commits open the target each method's way.
 */
static void
report_text_target(const struct report *r, char *line, size_t len)
{
	const char	*path = r->target.path != NULL ? r->target.path : "?";
	const char	*at;
	char		 b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	size_t		 o;
	int		 sim = strcmp(r->target.type, "sim") == 0;
	int		 sync = strcmp(r->config.command, "sync") == 0;

	units_format_size(r->target.size_bytes, b1, sizeof b1);
	if (sim) {
		/* The volume's name; the instance is said apart. */
		if (strncmp(path, "sim:", 4) == 0)
			path += 4;
		at = strrchr(path, '@');
		o = snprintf(line, len, "simulated %.*s", at != NULL ?
		    (int)(at - path) : (int)strlen(path), path);
		if (r->target.size_bytes && o < len)
			o += snprintf(line + o, len - o, ", %s", b1);
		if (r->target.instance[0] != '\0' && o < len)
			o += snprintf(line + o, len - o, ", on a simulated %s",
			    r->target.instance);
	} else
		o = snprintf(line, len, "%s%s%s", report_text_type(r),
		    r->target.size_bytes ? " of " : "", r->target.size_bytes ?
		    b1 : "");
	if (o >= len)
		return;
	if (sync)
		snprintf(line + o, len - o, ", %s, each commit method's own "
		    "flags", sim ? "in virtual time" : r->target.engine[0] ?
		    r->target.engine : "unknown engine");
	else
		snprintf(line + o, len - o, ", %s, %s, %s I/Os",
		    r->target.direct ? "O_DIRECT" : "buffered", sim ?
		    "in virtual time" : r->target.engine[0] ?
		    r->target.engine : "unknown engine", r->target.bs ?
		    report_text_size(r->target.bs, b2, sizeof b2) : "?");
}

/*
 * The device time the measurements took: "580 s", "504 s, simulated
 * (virtual time)": a simulated volume's clock times say nothing of it.
 * Nothing when none was recorded.
 */
static void
report_text_device_time(struct report_text *rt, const struct report *r)
{
	char	line[64], b[UNITS_BUFSZ];
	double	secs, bytes;

	report_cost(r, &secs, &bytes);
	if (!(secs > 0))
		return;
	snprintf(line, sizeof line, "%s%s", units_format_value(UNITS_SECONDS,
	    secs, b, sizeof b), strcmp(r->target.type, "sim") == 0 ?
	    ", simulated (virtual time)" : "");
	report_text_kv(rt, "device time", line);
}

/* The first words of a report of a run stopped on a fault; see report.h. */
void
report_text_fault(const struct report_text *rt, const struct report_fault *f)
{
	char	what[256], where[64];

	switch (f->reason) {
	case REPORT_FAULT_IO:
		snprintf(what, sizeof what, "an I/O error or short read "
		    "(errno %u): the device failed or the target shrank",
		    f->err);
		break;
	case REPORT_FAULT_NO_SPACE:
		snprintf(what, sizeof what, "the filesystem filled up "
		    "(errno %u)", f->err);
		break;
	case REPORT_FAULT_ENGINE:
		snprintf(what, sizeof what, "its I/O engine could not be "
		    "opened");
		break;
	default:
		snprintf(what, sizeof what, "an error (errno %u: %s)", f->err,
		    strerror((int)f->err));
		break;
	}
	where[0] = '\0';
	if (f->phase[0] != '\0')
		snprintf(where, sizeof where, " in its %s phase", f->phase);
	fprintf(rt->f, rt->md ? "**STOPPED ON A FAULT%s: %s. The figures "
	    "cover only what was measured before it and say nothing of a "
	    "healthy volume: fix the fault and run again.**\n\n" :
	    "\n*** STOPPED ON A FAULT%s: %s. The figures cover only what "
	    "was measured before it and say nothing of a healthy volume: "
	    "fix the fault and run again ***\n", where, what);
	if (f->message[0] != '\0')
		report_text_kv(rt, "fault", f->message);
	if (!rt->md)
		fputc('\n', rt->f);
}

static void
report_text_header(struct report_text *rt, const struct report *r)
{
	char		 line[512];
	const char	*cmd = r->config.command[0] ? r->config.command : "run";
	const char	*path = r->target.path != NULL ? r->target.path : "?";
	const char	*sim = strcmp(r->target.type, "sim") == 0 &&
			    strncmp(path, "sim:", 4) != 0 ? "sim:" : "";

	/* As the target was named: sim:NAME for a simulated volume. */
	if (rt->md)
		fprintf(rt->f, "# tierprobe %s: %s of `%s%s`\n\n",
		    r->tool_version, cmd, sim, path);
	else
		fprintf(rt->f, "tierprobe %s: %s of %s%s\n", r->tool_version,
		    cmd, sim, path);
	if (r->fault != NULL)
		report_text_fault(rt, r->fault);
	else if (r->interrupted) {
		if (rt->md)
			fprintf(rt->f, "**INTERRUPTED: the run was stopped "
			    "early; the figures cover only what was measured."
			    "**\n\n");
		else
			fprintf(rt->f, "\n*** INTERRUPTED: the run was stopped "
			    "early; the figures cover only what was measured "
			    "***\n\n");
	}
	report_text_target(r, line, sizeof line);
	report_text_kv(rt, "target", line);
	snprintf(line, sizeof line, "%s to %s, seed %llu",
	    r->started_utc[0] ? r->started_utc : "unknown",
	    r->finished_utc[0] ? r->finished_utc : "unknown",
	    (unsigned long long)r->config.seed);
	report_text_kv(rt, "run", line);
	report_text_device_time(rt, r);
	report_ebs_none(rt, r);
	report_text_cuts(rt, r);
}

/*
 * A sentence for each store a rate cap holds at the scan's depth; the cap
 * is about depth reads per mean latency.
 */
static void
report_text_capped(struct report_text *rt, const struct tiers_result *tr,
    unsigned depth)
{
	char	s[512], who[32], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char	b3[UNITS_BUFSZ], b4[UNITS_BUFSZ];
	double	own, p50, mean;
	size_t	i;

	for (i = 0; i <= tr->ntiers && i <= TIERS_MAX; i++) {
		if (i < tr->ntiers) {
			own = tr->tier[i].lat_us_p50;
			p50 = tr->tier[i].capped_lat_us_p50;
			mean = tr->tier[i].capped_lat_us_mean;
			snprintf(who, sizeof who, "Tier %zu", i + 1);
		} else {
			own = tr->backing_p50_us;
			p50 = tr->backing_capped_p50_us;
			mean = tr->backing_capped_mean_us;
			snprintf(who, sizeof who, "The backing store");
		}
		if (isnan(p50) || !(mean > 0))
			continue;
		snprintf(s, sizeof s, "%s serves a read in %s (p50); at "
		    "iodepth %u its reads wait for a rate cap of about %s "
		    "IOPS: p50 %s, mean %s.", who, units_format_value(
		    UNITS_LAT_US, own, b1, sizeof b1), depth,
		    units_format_value(UNITS_IOPS, depth * 1e6 / mean, b2,
		    sizeof b2), units_format_value(UNITS_LAT_US, p50, b3,
		    sizeof b3), units_format_value(UNITS_LAT_US, mean, b4,
		    sizeof b4));
		report_text_sentence(rt, s);
	}
}

/* A tier's row: capacity, interval, p50, p99 and what its evidence says. */
static void
report_text_tier_row(struct report_table *tab, const struct tier *t,
    const char *n, const char *evidence)
{
	char	cap[48], iv[UNITS_INTERVAL_BUFSZ], p50[UNITS_BUFSZ];
	char	p99[UNITS_BUFSZ], b1[UNITS_BUFSZ];

	snprintf(cap, sizeof cap, "%s%s", t->at_least ? "at least " : "",
	    t->capacity_bytes ? report_text_size(t->capacity_bytes, b1,
	    sizeof b1) : REPORT_NA);
	if (!t->at_least && t->capacity_low_bytes && t->capacity_high_bytes)
		units_format_interval(UNITS_BYTES, t->capacity_low_bytes,
		    t->capacity_high_bytes, iv, sizeof iv);
	else
		snprintf(iv, sizeof iv, "%s", t->at_least ? "beyond the scan" :
		    REPORT_NA);
	report_table_add(tab, n, cap, iv, report_text_cell(UNITS_LAT_US,
	    t->lat_us_p50, p50, sizeof p50), report_text_cell(UNITS_LAT_US,
	    t->lat_us_p99, p99, sizeof p99), evidence);
}

/*
 * Whether tier i of a scan that was not analysed as a whole stands on its
 * own evidence: its share seen falling at TEXT_TESTED working sets
 * above its interval at least, and every class of reads no tier explains
 * slower than it and growing only past its size.  Why not into why.
 */
static int
report_text_tier_holds(const struct scan_result *s, size_t i, char *why,
    size_t len)
{
	const struct tier		*t = &s->tiers.tier[i];
	const struct tiers_unexplained	*u;
	char				 a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	size_t				 k, n = 0;

	for (k = 0; k < s->tiers.nunexplained; k++) {
		u = &s->tiers.unexplained[k];
		if (u->lat_us_p50 <= t->lat_us_p50)
			snprintf(why, len, "reads at ~%s, as fast as its own, "
			    "are not explained", units_format_lat_us(
			    u->lat_us_p50, a, sizeof a));
		else if (u->from_ws < t->capacity_bytes)
			snprintf(why, len, "reads at ~%s grow from %s, inside "
			    "its size", units_format_lat_us(u->lat_us_p50, a,
			    sizeof a), units_format_size(u->from_ws, b,
			    sizeof b));
		else
			continue;
		return (0);
	}
	if (t->at_least)
		return (1);
	for (k = 0; k < s->npoints; k++)	/* one measured again: once */
		n += s->points[k].ws_bytes > t->capacity_high_bytes &&
		    (k == 0 || s->points[k].ws_bytes !=
		    s->points[k - 1].ws_bytes);
	if (n >= TEXT_TESTED)
		return (1);
	snprintf(why, len, "its share was seen falling at %zu working set%s "
	    "past its size only", n, n == 1 ? "" : "s");
	return (0);
}

/*
 * What a scan not analysed as a whole found so far: each tier with
 * whether its own evidence holds, never the backing store.
 */
static void
report_text_provisional(struct report_text *rt, const struct scan_result *s,
    struct report_table *tab)
{
	char	why[TIERS_MAX][160], line[sizeof why + 64], n[8], some[48];
	int	holds[TIERS_MAX];
	size_t	i, nholds = 0;

	for (i = 0; i < s->tiers.ntiers && i < TIERS_MAX; i++) {
		why[i][0] = '\0';
		holds[i] = report_text_tier_holds(s, i, why[i],
		    sizeof why[i]);
		nholds += holds[i];
	}
	if (nholds == i)
		snprintf(some, sizeof some, "%s", i == 1 ? "holding" :
		    "each holding");
	else if (nholds == 0)
		snprintf(some, sizeof some, "none holding");
	else
		snprintf(some, sizeof some, "%zu of them holding", nholds);
	snprintf(line, sizeof line, "Found so far, provisional: %zu cache "
	    "tier%s, %s on %s own evidence; the backing store and whatever "
	    "lies past the tiers are not analysed.", i, i == 1 ? "" : "s",
	    some, i == 1 ? "its" : "their");
	report_text_sentence(rt, line);
	for (i = 0; i < s->tiers.ntiers && i < TIERS_MAX; i++) {
		if (holds[i])
			continue;
		snprintf(line, sizeof line, "Tier %zu is in doubt: %s.", i + 1,
		    why[i]);
		report_text_sentence(rt, line);
	}
	if (rt->md)
		fputc('\n', rt->f);
	for (i = 0; i < s->tiers.ntiers && i < TIERS_MAX; i++) {
		snprintf(n, sizeof n, "%zu", i + 1);
		report_text_tier_row(tab, &s->tiers.tier[i], n,
		    holds[i] ? "holds" : "in doubt");
	}
	report_table_add(tab, "backing", "", "", "", "", "not analysed");
}

/*
 * With two caches or more: what their capacities are, cumulative and as
 * measured over the scan (an exclusive lower cache adds its own size).
 */
static void
report_text_cumulative(struct report_text *rt, size_t ntiers)
{
	if (ntiers < 2)
		return;
	if (rt->md)
		fputc('\n', rt->f);
	report_text_sentence(rt, "Capacities are cumulative, as measured over "
	    "this scan's duration (tier 2's includes tier 1's); a lower cache "
	    "that is exclusive, or partly so under long reads, shows as a "
	    "larger cumulative capacity.");
}

/*
 * A buffered scan that found no tier may have read the page cache only:
 * then the backing row is its latency, not the store's.
 */
static void
report_text_buffered(struct report_text *rt, const struct report *r)
{
	if (r->target.direct || r->scan->tiers.ntiers > 0)
		return;
	report_text_sentence(rt, "No tier showed while reading through the "
	    "page cache (--buffered): if it held every block read, the backing "
	    "row is its latency, not the disk's; a working set larger than "
	    "the memory it may use, or a scan without --buffered, reaches "
	    "the disk.");
}

/*
 * The sentence for the tier model's reason (tiermodel.c) a result is not
 * analysed, into buf; 0 when it gave none (the rules' analysis says its
 * own in the note) or its note says why (so JSON has it too).
 */
static int
report_text_tiers_reason(const struct tiers_result *tr, char *buf,
    size_t len)
{
	if (tr->note[0] != '\0' && tr->reason != TIERS_R_TOO_FEW)
		return (0);	/* the note says why (and does in JSON) */
	switch (tr->reason) {
	case TIERS_R_TOO_FEW:
		snprintf(buf, len, "Not analysed: fewer than 3 points held "
		    "reads.");
		return (1);
	case TIERS_R_CANNOT_TELL:
		snprintf(buf, len, "Not analysed: %zu tier%s and %zu tier%s "
		    "predict the points held out about as well (%zu ahead by "
		    "%.0f nats, z %.1f, short of 2): points past the "
		    "capacities found would tell.", tr->ntiers, tr->ntiers ==
		    1 ? "" : "s", tr->reason_ntiers, tr->reason_ntiers == 1 ?
		    "" : "s", tr->reason_ntiers, tr->reason_gain,
		    tr->reason_z);
		return (1);
	case TIERS_R_MORE_POSSIBLE:
		snprintf(buf, len, "Not analysed: %d tiers, the most this "
		    "analysis fits, and more might fit better.", TIERS_MAX);
		return (1);
	case TIERS_R_NONE:
		break;
	}
	return (0);
}

static void
report_text_tiers(struct report_text *rt, const struct report *r)
{
	const struct scan_result	*s = r->scan;
	const struct tiers_result	*tr = &s->tiers;
	struct report_table		 tab;
	char				 why[256];
	char				 n[8], p50[UNITS_BUFSZ];
	char				 p99[UNITS_BUFSZ], b1[UNITS_BUFSZ];
	char				 title[128];
	size_t				 i;

	snprintf(title, sizeof title, "Cache tiers (random %s %s, "
	    "iodepth %u)", report_text_size(r->config.bs ? r->config.bs :
	    r->target.bs, b1, sizeof b1), r->config.write ? "writes" : "reads",
	    r->config.iodepth ? r->config.iodepth : 1);
	report_text_heading(rt, title);
	if (s->caveat[0] != '\0') {
		report_text_kv(rt, "caveat", s->caveat);
		if (rt->md)
			fputc('\n', rt->f);
	}
	if (*report_state_note(s->state) != '\0') {
		report_text_kv(rt, "bucket state", report_state_note(s->state));
		if (rt->md)
			fputc('\n', rt->f);
	}
	if (!tr->analysed) {
		if (report_text_tiers_reason(tr, why, sizeof why))
			report_text_sentence(rt, why);
		else
			report_text_sentence(rt, tr->nunexplained > 0 ?
			    "Not analysed: a class of reads changes with the "
			    "working set and no tier explains it." : "Not "
			    "analysed: the tiers could not be established "
			    "from the points measured.");
		if (tr->ntiers > 0) {
			report_table_init(&tab, "lllrrl");
			report_table_add(&tab, "tier", "capacity",
			    "95% interval", "p50", "p99", "own evidence");
			report_text_provisional(rt, s, &tab);
			report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
			report_text_cumulative(rt, tr->ntiers);
		}
		if (tr->note[0] != '\0') {
			if (rt->md && tr->ntiers > 0)
				fputc('\n', rt->f);
			report_text_kv(rt, "note", tr->note);
		}
		return;
	}
	report_table_init(&tab, "lllrr");
	report_table_add(&tab, "tier", "capacity", "95% interval", "p50",
	    "p99");
	for (i = 0; i < tr->ntiers && i < TIERS_MAX; i++) {
		snprintf(n, sizeof n, "%zu", i + 1);
		report_text_tier_row(&tab, &tr->tier[i], n, NULL);
	}
	report_table_add(&tab, "backing", "", "",
	    report_text_cell(UNITS_LAT_US, tr->backing_p50_us, p50,
	    sizeof p50), report_text_cell(UNITS_LAT_US,
	    tr->backing_p99_us, p99, sizeof p99));
	report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
	report_text_cumulative(rt, tr->ntiers);
	report_text_buffered(rt, r);
	report_text_capped(rt, tr, r->config.iodepth ? r->config.iodepth : 1);
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
	if (ft->changed != CEILINGS_FT_SAME)
		snprintf(line, sizeof line, "unknown: %s (mean %s on a first "
		    "read, %s on a second)", ft->changed == CEILINGS_FT_BUCKET ?
		    "the bucket ran dry between the two passes" : "second "
		    "reads were slower, so the volume changed between the "
		    "passes", units_format_value(UNITS_LAT_US,
		    ft->first_mean_us, b1, sizeof b1), units_format_value(
		    UNITS_LAT_US, ft->second_mean_us, b2, sizeof b2));
	else if (ft->detected)
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

/* The accounting size, or why it is not known. */
static void
report_text_accounting(struct report_text *rt, const struct limits_result *l)
{
	const struct point	*p = &l->acct_probe;
	char			 line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char			 b3[UNITS_BUFSZ], b4[UNITS_BUFSZ];

	if (l->io_accounting_bytes && p->ios > 0)
		snprintf(line, sizeof line, "%s (larger I/Os count as "
		    "several: %s ones ran at %s IOPS, %llu units each)",
		    report_text_size(l->io_accounting_bytes, b1, sizeof b1),
		    report_text_size(p->bs, b2, sizeof b2), units_format_value(
		    UNITS_IOPS, p->iops, b3, sizeof b3),
		    (unsigned long long)((p->bs + l->io_accounting_bytes - 1) /
		    l->io_accounting_bytes));
	else if (l->io_accounting_bytes)
		snprintf(line, sizeof line, "%s (larger I/Os count as "
		    "several)", report_text_size(l->io_accounting_bytes, b1,
		    sizeof b1));
	else if (l->io_accounting_why == CEILINGS_ACCT_UNIT_OR_CAP)
		snprintf(line, sizeof line, "%s units, or a %s bandwidth cap: "
		    "the same rates at every size measured",
		    report_text_size(l->io_accounting_candidate, b1,
		    sizeof b1), units_format_value(UNITS_RATE,
		    l->bandwidth_ceiling_bytes_per_s, b2, sizeof b2));
	else if (p->ios > 0) {
		report_text_size(p->bs / 3 * 2, b4, sizeof b4);
		snprintf(line, sizeof line, "not observable: a bandwidth cap "
		    "holds large I/O first (%s reads ran at %s IOPS, %s; units "
		    "of %s would have held them to half the IOPS ceiling)",
		    report_text_size(p->bs, b1, sizeof b1), units_format_value(
		    UNITS_IOPS, p->iops, b2, sizeof b2), units_format_value(
		    UNITS_RATE, p->bytes_per_s, b3, sizeof b3), b4);
	} else
		snprintf(line, sizeof line, "not observable");
	report_text_kv(rt, "accounting size", line);
}

/* The burst line, the long-run rate and the bandwidth after a drop. */
static void
report_text_burst(struct report_text *rt, const struct limits_result *l)
{
	const struct burst	*b = &l->burst;
	char			 line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char			 b3[UNITS_BUFSZ], b4[UNITS_BUFSZ];
	size_t			 o;

	if (b->detected && b->exhausted && isnan(b->credits_ios))
		snprintf(line, sizeof line, "%s%s IOPS, then %s IOPS; empty "
		    "before the sustained run, size unknown",
		    b->burst_at_least ? "at least " : "", units_format_value(
		    UNITS_IOPS, b->burst_iops, b1, sizeof b1),
		    units_format_value(UNITS_IOPS, b->baseline_iops, b2,
		    sizeof b2));
	else if (b->detected) {
		o = snprintf(line, sizeof line, "%s%s IOPS for %s%s, then %s "
		    "IOPS; bucket %s I/Os", b->burst_at_least ? "at least " :
		    "", units_format_value(UNITS_IOPS, b->burst_iops, b1,
		    sizeof b1), b->burst_at_least ? "at most " : "",
		    units_format_value(UNITS_SECONDS, b->duration_s, b2,
		    sizeof b2), units_format_value(UNITS_IOPS,
		    b->baseline_iops, b3, sizeof b3),
		    units_format_value(UNITS_COUNT, b->credits_ios, b4,
		    sizeof b4));
		if (isfinite(b->drop_sweep_t_s) && o < sizeof line)
			o += snprintf(line + o, sizeof line - o, " (ran dry "
			    "during the sweeps, at %s)", units_format_value(
			    UNITS_SECONDS, b->drop_sweep_t_s, b1, sizeof b1));
		if (b->burst_at_least && o < sizeof line)
			snprintf(line + o, sizeof line - o, "; no depth "
			    "reached a ceiling before it ran dry, so the burst "
			    "rate is unknown");
	} else if (l->timeline.n > 0 && isfinite(b->held_iops))
		snprintf(line, sizeof line, "none ran dry: %s IOPS held over "
		    "%s of sustained load%s", units_format_value(UNITS_IOPS,
		    b->held_iops, b1, sizeof b1), units_format_value(
		    UNITS_SECONDS, l->sustain_s, b2, sizeof b2), b->variable ?
		    ", with changes that recovered" : "");
	else if (l->timeline.n > 0)
		snprintf(line, sizeof line, "none detected over %s of "
		    "sustained load", units_format_value(UNITS_SECONDS,
		    l->timeline.v[l->timeline.n - 1].t_s, b1, sizeof b1));
	else
		snprintf(line, sizeof line, "not measured");
	report_text_kv(rt, "burst", line);

	if (isfinite(l->long_run_iops))
		snprintf(line, sizeof line, "%s IOPS, the baseline",
		    units_format_value(UNITS_IOPS, l->long_run_iops, b1,
		    sizeof b1));
	else if (isfinite(b->held_iops))
		snprintf(line, sizeof line, "unknown: at most %s IOPS, held "
		    "for %s", units_format_value(UNITS_IOPS, b->held_iops, b1,
		    sizeof b1), units_format_value(UNITS_SECONDS,
		    l->sustain_s, b2, sizeof b2));
	else
		return;
	/* Measured over the sweeps' working set, where caches served some. */
	o = strlen(line);
	if (l->iops_ceiling_corrected && o < sizeof line)
		snprintf(line + o, sizeof line - o, " (%.0f%% of it from the "
		    "caches)", 100 * l->cache_share);
	report_text_kv(rt, "long-run IOPS", line);
	if (isfinite(l->baseline_bandwidth))
		report_text_kv(rt, "baseline bandwidth", units_format_value(
		    UNITS_RATE, l->baseline_bandwidth, b1, sizeof b1));
}

/*
 * A ceiling for the Ceilings block: "3,000 IOPS (95%: 2,940 to 3,060)",
 * "at least 1.16 GiB/s", "unknown".
 */
static void
report_text_ceiling(enum units_kind unit, double v, double lo, double hi,
    int at_least, char *line, size_t len)
{
	char	b1[UNITS_BUFSZ], iv[UNITS_INTERVAL_BUFSZ];

	units_format_value(unit, v, b1, sizeof b1);
	if (!isfinite(v))
		snprintf(line, len, "unknown");
	else if (at_least)
		snprintf(line, len, "at least %s%s", b1, unit == UNITS_IOPS ?
		    " IOPS" : "");
	else if (isfinite(lo) && isfinite(hi))
		snprintf(line, len, "%s%s (95%%: %s)", b1, unit == UNITS_IOPS ?
		    " IOPS" : "", units_format_interval(unit, lo, hi, iv,
		    sizeof iv));
	else
		snprintf(line, len, "%s%s", b1, unit == UNITS_IOPS ? " IOPS" :
		    "");
}

/*
 * The bandwidth is a lower bound because the size sweep ran no deeper than
 * a queue where IOPS still rose, not because it still rose with size.
 */
static int
report_text_bw_queue(const struct limits_result *l)
{
	return (l->bandwidth_ceiling_at_least &&
	    l->bs_stop != LIMITS_STOP_EDGE && l->bs_stop != LIMITS_STOP_TARGET &&
	    l->iops_limit == CEILINGS_IOPS_UNSATURATED);
}

/*
 * The most an interval of the sustained run moved (bytes/s) when no drop
 * gave a bandwidth after a bucket and that is under half the bandwidth
 * ceiling, so that a bucket of bandwidth credits (st1's) may never have
 * been drawn on; else NAN.
 */
static double
report_text_bw_unsustained(const struct limits_result *l)
{
	double	most = 0;
	size_t	i;

	if (!isnan(l->baseline_bandwidth) || l->timeline.n == 0)
		return (NAN);
	for (i = 0; i < l->timeline.n; i++)
		most = fmax(most, l->timeline.v[i].bytes_per_s);
	return (most < l->bandwidth_ceiling_bytes_per_s / 2 ? most : NAN);
}

/* Why the iodepth sweep shows no cap, in words, into buf. */
static char *
report_text_iops_why(const struct limits_result *l, char *buf, size_t len)
{
	unsigned	fell = 0;
	size_t		i;

	/* Deeper points than the last one analysed: the sweep fell there. */
	for (i = 0; i < l->nqd; i++) {
		if (l->qd_points[i].iodepth > l->iops_max_seen_iodepth &&
		    (fell == 0 || l->qd_points[i].iodepth < fell))
			fell = l->qd_points[i].iodepth;
	}
	switch (l->iops_limit) {
	case CEILINGS_IOPS_UNSATURATED:
		if (fell != 0)
			snprintf(buf, len, "still rising there; at iodepth %u "
			    "IOPS fell, a change of state, not a cap", fell);
		else
			snprintf(buf, len, "still rising at the deepest queue");
		break;
	case CEILINGS_IOPS_CPU:
		snprintf(buf, len, "this machine's CPU was the limit, not the "
		    "volume");
		break;
	case CEILINGS_IOPS_QUEUE:
		snprintf(buf, len, "tierprobe kept only %.0f%% of the I/Os "
		    "asked in flight (Little's law), so this machine, not the "
		    "volume, set the pace", 100 * l->little_ratio);
		break;
	default:
		snprintf(buf, len, "too few depths to tell");
		break;
	}
	return (buf);
}

/* What the caches added to the sweeps, and what was done about it. */
static void
report_text_cache_share(struct report_text *rt, const struct limits_result *l)
{
	char	line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];

	if (!isfinite(l->cache_share) || l->cache_share < 0.005)
		return;
	report_text_size(l->ws_bytes, b1, sizeof b1);
	if (l->iops_ceiling_corrected)
		snprintf(line, sizeof line, "served %.0f%% of the reads over "
		    "%s (as fitted), without waiting for the limit: the IOPS "
		    "ceiling is the store's, %.0f%% of the %s IOPS measured",
		    100 * l->cache_share, b1, 100 * (1 - l->cache_share),
		    units_format_value(UNITS_IOPS, l->iops_ceiling /
		    (1 - l->cache_share), b2, sizeof b2));
	else
		snprintf(line, sizeof line, "served %.0f%% of the reads over "
		    "%s (as fitted)%s", 100 * l->cache_share, b1,
		    l->cache_share < 0.02 ? "" : "; their reads waited for "
		    "the limit like the store's: the ceiling holds for all");
	report_text_kv(rt, "caches", line);
}

/* Why a sweep stopped where it did, on a line of its own. */
static void
report_text_sweep(struct report_text *rt, const char *key,
    enum limits_stop stop, const struct point *v, size_t n, int by_bs,
    unsigned max)
{
	static const char *const why[][2] = {	/* depth, size */
		[LIMITS_STOP_FLAT] = { "two doublings gained under 5% each",
		    "bandwidth stopped rising" },
		[LIMITS_STOP_EDGE] = { "the deepest queue allowed "
		    "(--max-iodepth goes deeper)", "the largest size "
		    "tried, still rising" },
		[LIMITS_STOP_ENGINE] = { "the engine holds no more I/Os in "
		    "flight", "the engine holds no more I/Os in flight" },
		[LIMITS_STOP_TARGET] = { "the target", "larger I/Os do not "
		    "fit the working set" },
		[LIMITS_STOP_INTERRUPTED] = { "interrupted", "interrupted" },
		[LIMITS_STOP_ERROR] = { "an I/O error", "an I/O error" },
	};
	char	line[256], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ], of[32];

	if (stop == LIMITS_STOP_NONE || n == 0 ||
	    (size_t)stop >= sizeof why / sizeof why[0])
		return;
	of[0] = '\0';
	if (by_bs) {
		report_text_size(v[0].bs, b1, sizeof b1);
		report_text_size(v[n - 1].bs, b2, sizeof b2);
	} else {
		snprintf(b1, sizeof b1, "%u", v[0].iodepth);
		snprintf(b2, sizeof b2, "%u", v[n - 1].iodepth);
		if (max > v[n - 1].iodepth)
			snprintf(of, sizeof of, " of %u", max);
	}
	snprintf(line, sizeof line, "%s %s to %s%s, stopped: %s", by_bs ?
	    "bs" : "iodepth", b1, b2, of, why[stop][by_bs]);
	report_text_kv(rt, key, line);
}

static void
report_text_limits(struct report_text *rt, const struct report *r)
{
	const struct limits_result	*l = r->limits;
	char				 line[256], b1[UNITS_BUFSZ];
	char				 title[96], why[160];
	size_t				 o;

	snprintf(title, sizeof title, "Ceilings (random %s, working set %s)",
	    r->config.write ? "writes" : "reads", report_text_size(
	    l->ws_bytes, b1, sizeof b1));
	report_text_heading(rt, title);
	if (*report_state_note(l->iops_state) != '\0')
		report_text_kv(rt, "bucket state", report_state_note(
		    l->iops_state));
	report_text_ceiling(UNITS_IOPS, l->iops_ceiling, l->iops_ceiling_low,
	    l->iops_ceiling_high, l->iops_ceiling_at_least, line, sizeof line);
	o = strlen(line);
	/* A report of an older tierprobe: no lower bound, the most seen. */
	if (!isfinite(l->iops_ceiling) && isfinite(l->iops_max_seen) &&
	    l->iops_max_seen > 0)
		snprintf(line, sizeof line, "none found (at most %s IOPS "
		    "seen)", units_format_value(UNITS_IOPS, l->iops_max_seen,
		    b1, sizeof b1));
	else if (l->iops_ceiling_at_least && o < sizeof line)
		snprintf(line + o, sizeof line - o, " (at iodepth %u): %s",
		    l->iops_max_seen_iodepth, report_text_iops_why(l, why,
		    sizeof why));
	else if (l->iops_knee_iodepth && o < sizeof line)
		snprintf(line + o, sizeof line - o, ", reached at iodepth %u",
		    l->iops_knee_iodepth);
	report_text_kv(rt, "IOPS ceiling", line);
	report_text_cache_share(rt, l);
	if (l->cpu_bound)
		report_text_kv(rt, "CPU-bound", "yes: this machine's CPU "
		    "limited the IOPS measured");
	report_text_sweep(rt, "depth sweep", l->qd_stop, l->qd_points, l->nqd,
	    0, r->config.max_iodepth);
	report_text_ceiling(UNITS_RATE, l->bandwidth_ceiling_bytes_per_s,
	    l->bandwidth_ceiling_low, l->bandwidth_ceiling_high,
	    l->bandwidth_ceiling_at_least, line, sizeof line);
	o = strlen(line);
	if (report_text_bw_queue(l) && o < sizeof line)
		snprintf(line + o, sizeof line - o, " (at iodepth %u): IOPS "
		    "still rose at the deepest queue", l->bs_iodepth);
	report_text_kv(rt, "bandwidth ceiling", line);
	report_text_sweep(rt, "size sweep", l->bs_stop, l->bs_points, l->nbs,
	    1, 0);
	report_text_accounting(rt, l);
	report_text_burst(rt, l);
	report_text_first_touch(rt, &l->first_touch);
	if (l->note[0] != '\0')
		report_text_kv(rt, "note", l->note);
}

/*
 * What a bucket that ran dry, or one that could not, means (sustain_asked:
 * the length of the sustained run asked for).
 */
static void
report_text_burst_meaning(struct report_text *rt,
    const struct limits_result *l, double sustain_asked)
{
	const struct burst	*b = &l->burst;
	char			 s[640], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char			 b3[UNITS_BUFSZ], b4[UNITS_BUFSZ];
	char			 b5[UNITS_BUFSZ], bw[UNITS_BUFSZ + 32];
	size_t			 o;

	if (b->detected) {
		bw[0] = '\0';
		if (isfinite(l->baseline_bandwidth))
			snprintf(bw, sizeof bw, ", and large reads to %s",
			    units_format_value(UNITS_RATE,
			    l->baseline_bandwidth, b1, sizeof b1));
		if (isnan(b->duration_s))
			o = snprintf(s, sizeof s, "A burst bucket ran dry "
			    "before the sustained run: the volume dropped from "
			    "%s%s to %s IOPS%s.", b->burst_at_least ?
			    "at least " : "", units_format_value(UNITS_IOPS,
			    b->burst_iops, b2, sizeof b2), units_format_value(
			    UNITS_IOPS, b->baseline_iops, b3, sizeof b3), bw);
		else if (b->burst_at_least)
			o = snprintf(s, sizeof s, "Sustained load drains a "
			    "burst bucket: after at most %s at %s IOPS or more "
			    "the volume drops to %s IOPS%s%s. The burst rate "
			    "itself is unknown: the bucket ran dry before any "
			    "queue depth reached a ceiling. Benchmarks shorter "
			    "than that overstate the volume.",
			    units_format_value(UNITS_SECONDS, b->duration_s,
			    b2, sizeof b2), units_format_value(UNITS_IOPS,
			    b->burst_iops, b3, sizeof b3), units_format_value(
			    UNITS_IOPS, b->baseline_iops, b4, sizeof b4), bw,
			    isfinite(b->drop_sweep_t_s) ?
			    " (here it ran dry during the sweeps)" : "");
		else
			o = snprintf(s, sizeof s, "Sustained load drains a "
			    "burst bucket: after about %s at %s IOPS the "
			    "volume drops to %s IOPS%s%s. Benchmarks shorter "
			    "than that overstate it.", units_format_value(
			    UNITS_SECONDS, b->duration_s, b2, sizeof b2),
			    units_format_value(UNITS_IOPS, b->burst_iops, b3,
			    sizeof b3), units_format_value(UNITS_IOPS,
			    b->baseline_iops, b4, sizeof b4), bw,
			    isfinite(b->drop_sweep_t_s) ?
			    " (here it ran dry during the sweeps)" : "");
		if (b->baseline_iops > 0 && o < sizeof s)
			snprintf(s + o, sizeof s - o, " For the long run, plan "
			    "for %s IOPS: at iodepth %d, latency ~ %d/%s s = "
			    "%s.", units_format_value(UNITS_IOPS,
			    b->baseline_iops, b1, sizeof b1), TEXT_DB_IODEPTH,
			    TEXT_DB_IODEPTH, units_format_value(UNITS_IOPS,
			    b->baseline_iops, b2, sizeof b2),
			    units_format_value(UNITS_LAT_US, TEXT_DB_IODEPTH /
			    b->baseline_iops * 1e6, b5, sizeof b5));
		report_text_sentence(rt, s);
		return;
	}
	if (!isfinite(b->held_iops))
		return;
	snprintf(s, sizeof s, "No burst bucket ran dry: the rate held at %s "
	    "IOPS over %s of sustained load%s. Any bucket of I/O credits "
	    "smaller than the %s I/Os the run drew is ruled out; one lasting "
	    "longer than %s at this rate could go unseen, so the long-run rate "
	    "is unknown.", units_format_value(UNITS_IOPS, b->held_iops, b1,
	    sizeof b1), units_format_value(UNITS_SECONDS, l->sustain_s, b2,
	    sizeof b2), b->variable ? " (with changes that recovered)" : "",
	    units_format_value(UNITS_COUNT, b->ruled_out_below_ios, b3,
	    sizeof b3), units_format_value(UNITS_SECONDS, b->held_s, b4,
	    sizeof b4));
	report_text_sentence(rt, s);
	if (!l->sustain_early)
		return;
	snprintf(s, sizeof s, "The sustained run ended after %s of the %s "
	    "asked, once it had ruled out a drop of a fifth or more within it "
	    "(95%% confidence): a longer one would rule out larger buckets.",
	    units_format_value(UNITS_SECONDS, l->sustain_s, b1, sizeof b1),
	    units_format_value(UNITS_SECONDS, sustain_asked, b2, sizeof b2));
	report_text_sentence(rt, s);
}

/*
 * Past the last cache (C bytes), a share 1 - C/S of the reads over a
 * working set of S bytes misses every cache: said at 2C, at the largest
 * working set scanned (with the p50 measured there) and at 10C or over
 * the whole volume, whichever is smaller, in order of size.
 */
static void
report_text_beyond(struct report_text *rt, const struct report *r,
    const struct tiers_result *tr)
{
	const struct point	*top = NULL;
	char			 s[640], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	char			 b3[UNITS_BUFSZ];
	uint64_t		 c = tr->tier[tr->ntiers - 1].capacity_bytes;
	uint64_t		 at[3], far, v = 0, x;
	size_t			 o, n = 0, i, j;

	if (c == 0)
		return;
	/* A file is not the volume: what lies past it is unknown. */
	if (strcmp(r->target.type, "file") != 0)
		v = r->target.size_bytes;
	far = v > 0 && v < 10 * c ? v : 10 * c;
	if (2 * c <= far)
		at[n++] = 2 * c;
	if (r->scan->npoints > 0)
		top = &r->scan->points[r->scan->npoints - 1];
	if (top != NULL && top->ws_bytes > c && top->ws_bytes < far &&
	    top->ws_bytes != 2 * c)
		at[n++] = top->ws_bytes;
	if (far > c && far != 2 * c)
		at[n++] = far;
	for (i = 1; i < n; i++) {
		for (j = i; j > 0 && at[j] < at[j - 1]; j--) {
			x = at[j];
			at[j] = at[j - 1];
			at[j - 1] = x;
		}
	}

	report_text_size(c, b1, sizeof b1);
	o = snprintf(s, sizeof s, "Above %s, a growing share of the reads "
	    "misses every cache and pays the backing store's latency (p50 "
	    "%s, p99 %s): 1 - %s/S of them at a working set of S", b1,
	    units_format_value(UNITS_LAT_US, tr->backing_p50_us, b2,
	    sizeof b2), units_format_value(UNITS_LAT_US, tr->backing_p99_us,
	    b3, sizeof b3), b1);
	for (i = 0; i < n && o < sizeof s; i++) {
		report_text_size(at[i], b2, sizeof b2);
		if (at[i] == 2 * c)
			o += snprintf(s + o, sizeof s - o, ", half at %s", b2);
		else if (top != NULL && at[i] == top->ws_bytes)
			o += snprintf(s + o, sizeof s - o, ", %.0f%% at %s (the "
			    "largest working set scanned, where p50 was %s)",
			    100 * (1 - (double)c / at[i]), b2,
			    units_format_value(UNITS_LAT_US, top->lat_us.p50,
			    b3, sizeof b3));
		else if (at[i] == v)
			o += snprintf(s + o, sizeof s - o, ", %.0f%% over the "
			    "whole volume (%s)", 100 * (1 - (double)c / at[i]),
			    b2);
		else
			o += snprintf(s + o, sizeof s - o, ", %.0f%% at %s",
			    100 * (1 - (double)c / at[i]), b2);
	}
	if (o < sizeof s)
		snprintf(s + o, sizeof s - o, ".");
	report_text_sentence(rt, s);
}

/* What first reads cost, for a database: a restored volume or not. */
static void
report_text_restored(struct report_text *rt, const struct first_touch *ft)
{
	char	s[512], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];

	units_format_value(UNITS_LAT_US, ft->first_mean_us, b1, sizeof b1);
	units_format_value(UNITS_LAT_US, ft->second_mean_us, b2, sizeof b2);
	if (ft->changed == CEILINGS_FT_BUCKET)
		snprintf(s, sizeof s, "Whether first reads of blocks cost more "
		    "than second reads is unknown: a burst bucket ran dry "
		    "between the two passes, so their means (%s, then %s) "
		    "compare its two states, not first and second reads.",
		    b1, b2);
	else if (ft->changed == CEILINGS_FT_SLOWER)
		snprintf(s, sizeof s, "Whether first reads of blocks cost more "
		    "than second reads is unknown: second reads were slower "
		    "(mean %s against %s on a first read), which no first-read "
		    "cost makes, so the volume changed between the two "
		    "passes.", b2, b1);
	else if (ft->detected)
		snprintf(s, sizeof s, "The first read of a block costs %.1fx "
		    "a second one (mean %s against %s): the volume is still "
		    "being restored from a snapshot, block by block. Until "
		    "every block has been read once, a database's first pass "
		    "over its data (a cold start, a full scan, a backup) runs "
		    "at that speed, slower than this report's other figures, "
		    "which are for blocks read before; reading the whole "
		    "device once beforehand (dd or fio) removes the penalty.",
		    ft->ratio, b1, b2);
	else
		snprintf(s, sizeof s, "First reads of blocks cost what second "
		    "reads do (mean %s against %s): no sign of a volume still "
		    "being restored from a snapshot.", b1, b2);
	report_text_sentence(rt, s);
}

/*
 * The working set asked (--max-ws, or the volume's end) when the scan's
 * --budget ended it short of that; else 0.
 */
static uint64_t
report_text_budget_cut(const struct report *r)
{
	const struct scan_result	*s = r->scan;
	uint64_t			 want = r->config.max_ws;

	if (!(r->config.budget_s > 0) || s == NULL || s->npoints == 0 ||
	    want == 0)
		return (0);
	if (r->target.size_bytes > 0 && r->target.size_bytes < want &&
	    strcmp(r->target.type, "file") != 0)
		want = r->target.size_bytes;
	return (s->points[s->npoints - 1].ws_bytes + r->target.bs < want *
	    TEXT_NEAR ? want : 0);
}

/*
 * For a scan not analysed as a whole: the caches from the fastest on that
 * hold on their own evidence, said as provisional.  Returns 1 if any.
 */
static int
report_text_meaning_provisional(struct report_text *rt,
    const struct scan_result *s)
{
	const struct tier	*t;
	char			 line[320], why[160], b1[UNITS_BUFSZ];
	char			 b2[UNITS_BUFSZ], b3[UNITS_BUFSZ];
	size_t			 i;

	for (i = 0; i < s->tiers.ntiers && i < TIERS_MAX; i++) {
		if (!report_text_tier_holds(s, i, why, sizeof why))
			break;
		t = &s->tiers.tier[i];
		snprintf(line, sizeof line, "Provisionally, up to %s%s, reads %s"
		    "are served from cache tier %zu (p50 %s, p99 %s).",
		    t->at_least ? "at least " : "", report_text_size(
		    t->capacity_bytes, b1, sizeof b1), i > 0 ? "that miss the "
		    "faster tiers " : "", i + 1,
		    units_format_value(UNITS_LAT_US, t->lat_us_p50, b2,
		    sizeof b2), units_format_value(UNITS_LAT_US,
		    t->lat_us_p99, b3, sizeof b3));
		report_text_sentence(rt, line);
	}
	if (i == 0)
		return (0);
	snprintf(line, sizeof line, "Past %s nothing is established: the "
	    "scan is not analysed there.", report_text_size(
	    s->tiers.tier[i - 1].capacity_bytes, b1, sizeof b1));
	report_text_sentence(rt, line);
	return (1);
}

/*
 * The size above which a cache below the largest working set could go
 * unseen (too few points lie above it to show it), unless the last tier
 * found is at least that large already; 0 when none could.
 */
static uint64_t
report_text_unseen_from(const struct report *r, const struct tiers_result *tr)
{
	uint64_t	top;

	if (tr->unseen_from == 0 || r->scan->npoints == 0)
		return (0);
	top = r->scan->points[r->scan->npoints - 1].ws_bytes;
	if (tr->unseen_from >= top || (tr->ntiers > 0 &&
	    tr->tier[tr->ntiers - 1].capacity_bytes >= tr->unseen_from))
		return (0);
	return (tr->unseen_from);
}

/*
 * Such a cache, and how to see it: a scan past the largest working set,
 * or, when that was the whole volume, more working sets below it (with no
 * tier, the sentence on the whole volume says so).
 */
static void
report_text_unseen(struct report_text *rt, const struct report *r,
    const struct tiers_result *tr)
{
	char		s[320], b1[UNITS_BUFSZ], b2[UNITS_BUFSZ];
	uint64_t	from;

	if ((from = report_text_unseen_from(r, tr)) == 0 ||
	    (tr->ntiers == 0 && report_text_whole(r)))
		return;
	report_text_size(from, b1, sizeof b1);
	report_text_size(r->scan->points[r->scan->npoints - 1].ws_bytes, b2,
	    sizeof b2);
	if (report_text_whole(r))
		snprintf(s, sizeof s, "A cache larger than %s (up to the whole "
		    "volume, %s) could go unseen: fewer than two working sets "
		    "above %s show its misses; more --points put more there.",
		    b1, b2, b1);
	else
		snprintf(s, sizeof s, "A cache larger than %s (up to the "
		    "largest working set, %s) could go unseen: scan past %s to "
		    "see it.", b1, b2, b2);
	report_text_sentence(rt, s);
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
	char				 why[160];
	double				 most;
	uint64_t			 cut;
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
		if (tr->ntiers > 0 && tr->tier[tr->ntiers - 1].at_least &&
		    report_text_whole(r)) {
			snprintf(s, sizeof s, "The scan covered the whole "
			    "volume (%s) and never outgrew tier %zu: it holds "
			    "every block read.", report_text_size(
			    r->target.size_bytes, b1, sizeof b1), tr->ntiers);
			report_text_sentence(rt, s);
		} else if (tr->ntiers > 0 && tr->tier[tr->ntiers - 1].at_least) {
			snprintf(s, sizeof s, "The scan never outgrew tier %zu:"
			    " scan larger working sets to find what lies "
			    "behind it.", tr->ntiers);
			report_text_sentence(rt, s);
		} else if (tr->ntiers > 0) {
			report_text_beyond(rt, r, tr);
		} else {
			snprintf(s, sizeof s, "No cache tier was found: every "
			    "working set scanned was served at p50 %s, p99 %s.",
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p50_us, b2, sizeof b2),
			    units_format_value(UNITS_LAT_US,
			    tr->backing_p99_us, b3, sizeof b3));
			report_text_sentence(rt, s);
			/* Warmed reads cannot see a cache beyond the scan. */
			if (report_text_whole(r) &&
			    (cut = report_text_unseen_from(r, tr)) > 0) {
				snprintf(s, sizeof s, "The scan covered the "
				    "whole volume (%s), so there is nothing "
				    "past it to scan; but a cache larger than "
				    "%s could still go unseen, as fewer than "
				    "two working sets above %s show its "
				    "misses: more --points put more there.",
				    report_text_size(r->target.size_bytes, b1,
				    sizeof b1), report_text_size(cut, b2,
				    sizeof b2), b2);
				report_text_sentence(rt, s);
			} else if (report_text_whole(r)) {
				snprintf(s, sizeof s, "The scan covered the "
				    "whole volume (%s): no larger cache can "
				    "hide behind it.", report_text_size(
				    r->target.size_bytes, b1, sizeof b1));
				report_text_sentence(rt, s);
			} else if (r->scan->npoints > 0) {
				report_text_size(r->scan->points[
				    r->scan->npoints - 1].ws_bytes, b1,
				    sizeof b1);
				if ((cut = report_text_budget_cut(r)) > 0)
					snprintf(why, sizeof why, "the --budget "
					    "ended the scan short of the %s "
					    "asked, so a larger --budget is "
					    "needed", report_text_size(cut, b2,
					    sizeof b2));
				else
					snprintf(why, sizeof why, "raise "
					    "--max-ws");
				snprintf(s, sizeof s, "A cache larger than the "
				    "largest working set scanned (%s) would "
				    "look the same: %s to rule one out.", b1,
				    why);
				report_text_sentence(rt, s);
			}
		}
		report_text_unseen(rt, r, tr);
		any = 1;
	} else if (r->scan != NULL)
		any = report_text_meaning_provisional(rt, r->scan);
	if (l != NULL && l->first_touch.measured) {
		report_text_restored(rt, &l->first_touch);
		any = 1;
	}
	if (l != NULL && l->iops_ceiling_at_least && l->iops_ceiling > 0) {
		snprintf(s, sizeof s, "The volume gave %s IOPS at iodepth %u "
		    "without showing a cap: its ceiling is higher (%s).",
		    units_format_value(UNITS_IOPS, l->iops_ceiling, b1,
		    sizeof b1), l->iops_max_seen_iodepth,
		    report_text_iops_why(l, why, sizeof why));
		report_text_sentence(rt, s);
		any = 1;
	} else if (l != NULL && isfinite(l->iops_ceiling) &&
	    l->iops_ceiling > 0) {
		snprintf(s, sizeof s, "%s workload needing more than %s "
		    "IOPS%s will queue: at iodepth %d, latency ~ %d/%s s = %s "
		    "(Little's law).", isnan(l->long_run_iops) ?
		    "While this rate holds, a" : l->iops_state == BUCKET_FULL ?
		    "Until the bucket runs dry, a" : "A", units_format_value(
		    UNITS_IOPS, l->iops_ceiling, b1, sizeof b1),
		    l->iops_ceiling_corrected ?
		    " from the store (reads the caches miss)" : "",
		    TEXT_DB_IODEPTH, TEXT_DB_IODEPTH, units_format_value(
		    UNITS_IOPS, l->iops_ceiling, b2, sizeof b2),
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
		if (report_text_bw_queue(l))
			snprintf(s, sizeof s, "Large reads (table scans, "
			    "backups, bulk loads) get at least %s at iodepth "
			    "%u, where IOPS still rose: a deeper queue may get "
			    "more.", units_format_value(UNITS_RATE,
			    l->bandwidth_ceiling_bytes_per_s, b1, sizeof b1),
			    l->bs_iodepth);
		else
			snprintf(s, sizeof s, l->bandwidth_ceiling_at_least ?
			    "Large reads (table scans, backups, bulk loads) "
			    "get at least %s; bandwidth still rose at the "
			    "largest I/Os tried, so larger ones may get more." :
			    "Large reads (table scans, backups, bulk loads) "
			    "top out at %s.", units_format_value(UNITS_RATE,
			    l->bandwidth_ceiling_bytes_per_s, b1, sizeof b1));
		report_text_sentence(rt, s);
		most = report_text_bw_unsustained(l);
		if (isfinite(most)) {
			snprintf(s, sizeof s, "That is the rate of the size "
			    "sweep's short runs; the sustained run moved %s "
			    "at most, which may leave a bucket of bandwidth "
			    "credits full, so how long large reads keep it is "
			    "unknown.", units_format_value(UNITS_RATE, most,
			    b1, sizeof b1));
			report_text_sentence(rt, s);
		}
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
	} else if (l != NULL &&
	    l->io_accounting_why == CEILINGS_ACCT_UNIT_OR_CAP) {
		report_text_size(l->io_accounting_candidate, b3, sizeof b3);
		snprintf(s, sizeof s, "Large reads are held to %s, which is "
		    "%s IOPS of %s: either the volume counts I/O in units of "
		    "%s (then one 1 MiB read costs %llu I/Os against the IOPS "
		    "limit, and large reads crowd out small ones) or it caps "
		    "bandwidth there; the sizes measured give the same rates "
		    "either way.", units_format_value(UNITS_RATE,
		    l->bandwidth_ceiling_bytes_per_s, b1, sizeof b1),
		    units_format_value(UNITS_IOPS, l->iops_ceiling, b2,
		    sizeof b2), b3, b3, (unsigned long long)(((1 << 20) +
		    l->io_accounting_candidate - 1) /
		    l->io_accounting_candidate));
		report_text_sentence(rt, s);
		any = 1;
	}
	if (l != NULL && (l->burst.detected || isfinite(l->burst.held_iops))) {
		report_text_burst_meaning(rt, l, r->config.sustain_s);
		any = 1;
	} else if (l != NULL && l->timeline.n > 0) {
		report_text_sentence(rt, "No burst bucket ran dry during the "
		    "sustained run; that does not make its rate the long-run "
		    "rate.");
		any = 1;
	}
	any |= report_sync_meaning(rt, r);
	if (r->interrupted)
		report_text_sentence(rt, "The run was interrupted: figures "
		    "above may be missing or rest on fewer points.");
	else if (!any)
		report_text_sentence(rt, "Nothing was established.");
}

#define TEXT_RUNS_SHOWN	12	/* runs of a moving figure, at most */

/* Whether some runs gave the figure of st and others none at all. */
static int
report_text_partial(const struct report_stat *st)
{
	size_t	k, known = 0;

	for (k = 0; k < st->nrun; k++)
		known += isfinite(st->run[k]) != 0;
	return (known > 0 && known < st->nrun);
}

/* A moving figure's values run by run: all, or the first and last few. */
static void
report_text_runs(struct report_table *tab, const struct report_stat *st,
    const char *label, enum units_kind unit)
{
	char		 v[TEXT_RUNS_SHOWN + 2][UNITS_BUFSZ];
	const char	*c[15];
	size_t		 i, k, n = st->nrun;

	for (i = 0; i < 15; i++)
		c[i] = NULL;
	c[0] = label;
	for (i = 0, k = 1; i < n; i++) {
		if (n > TEXT_RUNS_SHOWN && i == TEXT_RUNS_SHOWN / 2) {
			c[k++] = "...";
			i = n - TEXT_RUNS_SHOWN / 2;
		}
		if (label != NULL)
			report_text_bounded(unit, st->run[i],
			    st->run_bound[i], v[k], sizeof v[k]);
		else
			snprintf(v[k], sizeof v[k], "run %zu", i + 1);
		c[k] = v[k];
		k++;
	}
	if (label == NULL)
		c[k] = "trend";
	else if (st->trend == REPORT_TREND_NONE && report_stat_lost(st))
		c[k] = "lost";
	else if (st->trend == REPORT_TREND_NONE)
		c[k] = "partial";
	else
		c[k] = report_trend_name(st->trend);
	if (label == NULL)
		c[0] = "figure";
	report_table_add(tab, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7],
	    c[8], c[9], c[10], c[11], c[12], c[13], c[14]);
}

/*
 * Mean, sd and cv over the runs; a figure that moved run after run is
 * given run by run instead, with the reason.
 */
static void
report_text_repeat(struct report_text *rt, const struct report *r)
{
	const struct report_repeat	*rr = r->repeat;
	const struct report_stat	*st;
	struct report_figure		 fig[REPORT_STATS_MAX];
	struct report_table		 tab, runs;
	char				 title[64], m[UNITS_BUFSZ];
	char				 sd[UNITS_BUFSZ], cv[16], n[16];
	char				 align[16], line[sizeof rr->reason + 64];
	const char			*label;
	enum units_kind		 unit;
	size_t				 nf, i, j, cols, moved = 0, lifted = 0;
	int				 trend = 0, state;

	nf = report_headlines(r, fig, REPORT_STATS_MAX);
	snprintf(title, sizeof title, "Repeatability (%u runs)", rr->runs);
	report_text_heading(rt, title);
	for (i = 0; i < rr->nstats; i++)
		trend |= rr->stat[i].trend != REPORT_TREND_NONE;
	if (rr->reason[0] != '\0') {
		snprintf(line, sizeof line, "The runs differ %s: %s.", trend ?
		    "beyond noise, in a trend" : "in what they could measure",
		    rr->reason);
		report_text_sentence(rt, line);
		report_text_sentence(rt, "Figures that moved, or that some "
		    "runs could not give, are given run by run, not averaged; "
		    "the sections above are run 1's.");
		if (rt->md)
			fputc('\n', rt->f);
	}
	cols = rr->runs > TEXT_RUNS_SHOWN ? TEXT_RUNS_SHOWN + 1 : rr->runs;
	memset(align, 0, sizeof align);
	memset(align, 'r', cols + 2);
	align[0] = 'l';
	report_table_init(&tab, "lrrrrl");
	report_table_init(&runs, align);
	report_table_add(&tab, "figure", "mean", "sd", "cv", "runs", "state");
	for (i = 0; i < rr->nstats; i++) {
		st = &rr->stat[i];
		label = st->name;
		unit = UNITS_COUNT;
		/* An older report's runs have no state: run 1's. */
		state = st->state;
		for (j = 0; j < nf; j++) {
			if (strcmp(fig[j].name, st->name) == 0) {
				label = fig[j].label;
				unit = fig[j].unit;
				if (state == BUCKET_UNKNOWN)
					state = fig[j].state;
			}
		}
		if (st->trend != REPORT_TREND_NONE ||
		    report_text_partial(st)) {
			if (moved++ == 0)
				report_text_runs(&runs, st, NULL, unit);
			report_text_runs(&runs, st, label, unit);
			continue;
		}
		if (isfinite(st->cv))
			snprintf(cv, sizeof cv, "%.1f%%", st->cv * 100);
		else
			snprintf(cv, sizeof cv, "%s", REPORT_NA);
		snprintf(n, sizeof n, "%u", st->n);
		lifted += st->n >= 2 && bucket_state_lifted(state);
		report_table_add(&tab, label, report_text_bounded(unit,
		    st->mean, st->bound, m, sizeof m), report_text_cell(unit,
		    st->sd, sd, sizeof sd), cv, n, st->n > 0 ?
		    bucket_state_mark(state) : "");
	}
	report_table_write(&tab, rt->f, rt->md, TEXT_INDENT);
	if (lifted > 0) {
		if (rt->md)
			fputc('\n', rt->f);
		report_text_sentence(rt, "A state of full? or full says the "
		    "runs measured the figure while a burst bucket may have "
		    "been full (no run saw one run dry), or before one did: a "
		    "small cv then says the runs agree while the bucket lasts, "
		    "not that the volume keeps the rate. Only figures measured "
		    "after a drop (empty) are long-run figures.");
	}
	if (moved > 0)
		fputc('\n', rt->f);
	report_table_write(&runs, rt->f, rt->md, TEXT_INDENT);
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
	/* A simulated volume says its model and size as a device does. */
	o = snprintf(line, sizeof line, "%s", strcmp(r->target.type, "sim") ==
	    0 ? "none: a simulated volume, in virtual time" : x->device[0] !=
	    '\0' ? x->device : "unknown");
	if (x->device_model[0] != '\0' && o < sizeof line)
		o += snprintf(line + o, sizeof line - o, " (%s)",
		    x->device_model);
	if (x->device_size_bytes > 0 && o < sizeof line)
		snprintf(line + o, sizeof line - o, ", %s",
		    report_text_size(x->device_size_bytes, b1, sizeof b1));
	report_text_kv(rt, "device", line);
	if (x->device[0] != '\0' && strcmp(r->target.type, "sim") != 0) {
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
	uint64_t		 lo = UINT64_MAX, hi = 0;
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
			snprintf(ci, sizeof ci, "%s", REPORT_NA);
		report_text_cell(UNITS_IOPS, p->iops, iops, sizeof iops);
		report_text_cell(UNITS_LAT_US, p->lat_us.mean, mean,
		    sizeof mean);
		report_text_cell(UNITS_LAT_US, p->lat_us.p50, p50,
		    sizeof p50);
		report_text_cell(UNITS_LAT_US, p->lat_us.p99, p99,
		    sizeof p99);
		report_text_cell(UNITS_LAT_US, p->lat_us.p999, p999,
		    sizeof p999);
		if (!isfinite(p->lat_us.p999) && p->ios > 0 &&
		    p->ios < POINT_P999_MIN_IOS) {
			lo = p->ios < lo ? p->ios : lo;
			hi = p->ios > hi ? p->ios : hi;
		}
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
	if (hi > 0)
		report_text_p999_note(rt, "I/Os", lo, hi);
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

/* A report after its header and verdict: the summary, then the points. */
static void
report_text_body(struct report_text *rt, const struct report *r)
{
	const struct limits_result *l = r->limits;

	if (r->scan != NULL)
		report_text_tiers(rt, r);
	if (l != NULL)
		report_text_limits(rt, r);
	report_voltype_text(rt, r);
	report_writes_text(rt, r);
	report_sync_text(rt, r);
	report_ebs_text(rt, r);
	report_text_meaning(rt, r);
	if (r->checks != NULL) {
		report_text_heading(rt, "Expectations");
		report_check_write(r, r->checks, rt->f, rt->md);
	}
	if (r->repeat != NULL && r->repeat->runs > 0)
		report_text_repeat(rt, r);
	report_text_context(rt, r);
	if (r->scan != NULL)
		report_text_points(rt, "Scan points", r->scan->points,
		    r->scan->npoints, TEXT_KEY_WS, 0);
	if (l != NULL) {
		report_text_points(rt, "Queue-depth sweep", l->qd_points,
		    l->nqd, TEXT_KEY_IODEPTH, l->iops_knee_iodepth);
		report_text_points(rt, "Block-size sweep", l->bs_points,
		    l->nbs, TEXT_KEY_BS, 0);
		if (l->timeline.n > 0)
			report_text_timeline(rt, &l->timeline);
	}
}

/* Text (markdown set: markdown) for people: the verdict, then the rest. */
void
report_text_write(const struct report *r, FILE *f, int markdown)
{
	struct report_text	rt = { f, markdown };

	report_text_header(&rt, r);
	report_verdict_text(&rt, r);
	report_text_body(&rt, r);
}

/* The same without the verdict, for a target of several. */
void
report_text_member(const struct report *r, FILE *f, int markdown)
{
	struct report_text	rt = { f, markdown };

	report_text_header(&rt, r);
	report_text_body(&rt, r);
}

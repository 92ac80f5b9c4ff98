/* SPDX-License-Identifier: ISC */
/*
 * io_properties.yaml for ScyllaDB/Seastar from the long-run figures,
 * never a burst's unless asked, and then marked.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bucket.h"
#include "ioprops.h"
#include "report.h"
#include "units.h"
#include "verdict.h"
#include "xmalloc.h"

static const char *ioprops_keys[IOPROPS_NKEYS] = {
	[IOPROPS_READ_IOPS] = "read_iops",
	[IOPROPS_READ_BANDWIDTH] = "read_bandwidth",
	[IOPROPS_WRITE_IOPS] = "write_iops",
	[IOPROPS_WRITE_BANDWIDTH] = "write_bandwidth",
};

/* A state in which a figure is the long run's: after a drop, or none. */
static int
ioprops_long_state(int s)
{
	return (s == BUCKET_EMPTY || s == BUCKET_UNAFFECTED);
}

/* A figure measured in state s (at_least: only a lower bound). */
static void
ioprops_figure(struct ioprops *x, int k, double v, int s, int at_least)
{
	x->state[k] = s;
	if (!isfinite(v) || v <= 0) {
		x->why[k] = IOPROPS_NOT_MEASURED;
		return;
	}
	x->value[k] = v;
	if (at_least)
		x->why[k] = IOPROPS_BOUNDED;
	else if (!ioprops_long_state(s))
		x->why[k] = IOPROPS_BURST;
	else
		x->why[k] = IOPROPS_OK;
}

/* A long-run figure of the verdict: measured, in a long-run state. */
static void
ioprops_verdict_figure(struct ioprops *x, int k,
    const struct verdict *v, const char *name)
{
	const struct verdict_item	*it;
	size_t				 i;

	x->why[k] = IOPROPS_NOT_MEASURED;
	for (i = 0; i < v->nitems; i++) {
		it = &v->item[i];
		if (strcmp(it->name, name) != 0)
			continue;
		x->state[k] = it->state;
		if (it->standing == VERDICT_UNKNOWN || !isfinite(it->value))
			;
		else if (it->standing == VERDICT_BOUNDED) {
			x->value[k] = it->value;
			x->why[k] = ioprops_long_state(it->state) ?
			    IOPROPS_BOUNDED : IOPROPS_BURST;
		} else
			ioprops_figure(x, k, it->value, it->state, 0);
		if (x->why[k] != IOPROPS_OK && x->settle[0] == '\0')
			snprintf(x->settle, sizeof x->settle, "%s",
			    it->settle);
	}
}

/* The long-run figures for io_properties.yaml; see ioprops.h. */
int
ioprops_figures(const struct report *r, struct ioprops *x)
{
	struct verdict			*v;
	const struct limits_result	*w = NULL;
	int				 k;

	memset(x, 0, sizeof *x);
	for (k = 0; k < IOPROPS_NKEYS; k++)
		x->value[k] = NAN;
	v = xmalloc(sizeof *v);
	verdict_build(r, NULL, v);
	ioprops_verdict_figure(x, IOPROPS_READ_IOPS, v, "long_run.iops");
	ioprops_verdict_figure(x, IOPROPS_READ_BANDWIDTH, v,
	    "long_run.bandwidth");
	snprintf(x->bucket, sizeof x->bucket, "%s", v->bucket);
	free(v);

	if (r->writes != NULL)
		w = r->writes->limits;
	x->why[IOPROPS_WRITE_IOPS] = x->why[IOPROPS_WRITE_BANDWIDTH] =
	    IOPROPS_NOT_MEASURED;
	if (w != NULL && isfinite(w->long_run_iops))
		ioprops_figure(x, IOPROPS_WRITE_IOPS, w->long_run_iops,
		    w->long_run_state, 0);
	else if (w != NULL && !w->cpu_bound)
		ioprops_figure(x, IOPROPS_WRITE_IOPS, w->iops_ceiling,
		    w->iops_state, w->iops_ceiling_at_least);
	if (w != NULL && isfinite(w->baseline_bandwidth))
		ioprops_figure(x, IOPROPS_WRITE_BANDWIDTH, w->baseline_bandwidth,
		    w->long_run_state, 0);
	else if (w != NULL)
		ioprops_figure(x, IOPROPS_WRITE_BANDWIDTH,
		    w->bandwidth_ceiling_bytes_per_s, w->bandwidth_state,
		    w->bandwidth_ceiling_at_least);
	for (k = 0; k < IOPROPS_NKEYS; k++)
		if (x->why[k] != IOPROPS_OK)
			return (k);
	return (-1);
}

/* The file itself, to a stream. */
void
ioprops_dump(const struct report *r, const struct ioprops *x,
    const char *mountpoint, FILE *f)
{
	const char	*w;
	char		 tgt[512];
	int		 k;

	fprintf(f, "# io_properties.yaml for ScyllaDB/Seastar, written by "
	    "tierprobe %s\n", r->tool_version);
	fprintf(f, "# from %s, measured %s to %s\n", verdict_target(r, tgt,
	    sizeof tgt), r->started_utc, r->finished_utc);
	fprintf(f, "# instance: %s\n", r->target.instance[0] != '\0' ?
	    r->target.instance : "not recorded in the report");
	fprintf(f, "# host: %s\n", r->labels.host[0] != '\0' ?
	    r->labels.host : r->context.hostname[0] != '\0' ?
	    r->context.hostname : "unknown");
	fprintf(f, "# bucket: %s\n", x->bucket);
	for (k = 0; k < IOPROPS_NKEYS && x->why[k] == IOPROPS_OK; k++)
		;
	if (k < IOPROPS_NKEYS)
		fprintf(f, "# WARNING: burst figures below, written with "
		    "--accept-burst: a bucket that runs dry later lowers "
		    "them%s%s\n", x->settle[0] != '\0' ? "; to settle it: " :
		    "", x->settle);
	for (k = 0; k < IOPROPS_NKEYS; k++) {
		w = verdict_state_words(x->state[k]);
		fprintf(f, "# %s: %s, measured %s%s\n", ioprops_keys[k],
		    x->why[k] == IOPROPS_OK ? "a long-run figure" : "a BURST "
		    "figure", *w == '\0' ? "where no bucket applies" :
		    strncmp(w, "a ", 2) == 0 ? "while " : "", w);
	}
	fputs("# bandwidth in bytes per second\n", f);
	fputs("disks:\n  - mountpoint: \"", f);
	for (; *mountpoint != '\0'; mountpoint++) {
		if (*mountpoint == '"' || *mountpoint == '\\')
			fputc('\\', f);
		fputc(*mountpoint, f);
	}
	fputs("\"\n", f);
	/* As the JSON report records them, so run and report agree. */
	for (k = 0; k < IOPROPS_NKEYS; k++) {
		snprintf(tgt, sizeof tgt, "%.*g", REPORT_JSON_DIGITS,
		    x->value[k]);
		fprintf(f, "    %s: %.0f\n", ioprops_keys[k],
		    floor(strtod(tgt, NULL)));
	}
}

/* io_properties.yaml to path; see ioprops.h. */
int
ioprops_write(const struct report *r, const char *path,
    const char *mountpoint, int accept_burst, char **cause)
{
	static const char	*why[] = {
		[IOPROPS_NOT_MEASURED] = "was not measured",
		[IOPROPS_BURST] = "is a burst figure (measured while a bucket "
		    "may have been full, or before it ran dry)",
		[IOPROPS_BOUNDED] = "is only a bound",
	};
	struct ioprops	 x;
	FILE			*f;
	int			 k, saved;

	if (r->ntargets > 0) {
		xasprintf(cause, "--io-properties %s: the report holds several "
		    "targets and the file describes one volume: run each "
		    "target alone; no file written", path);
		return (1);
	}
	for (k = ioprops_figures(r, &x); k >= 0 && k < IOPROPS_NKEYS;
	    k++)
		if (x.why[k] != IOPROPS_OK && (x.why[k] != IOPROPS_BURST ||
		    !accept_burst))
			break;
	if (k >= 0 && k < IOPROPS_NKEYS) {
		xasprintf(cause, "--io-properties %s: %s %s, and Seastar "
		    "needs all four long-run figures; no file written%s%s%s",
		    path, ioprops_keys[k], why[x.why[k]],
		    x.why[k] == IOPROPS_BURST ? " (--accept-burst writes it "
		    "all the same, marked)" : "", x.settle[0] != '\0' ?
		    "; to settle it: " : "", x.settle);
		return (1);
	}
	if ((f = fopen(path, "w")) == NULL) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	ioprops_dump(r, &x, mountpoint, f);
	if (fflush(f) != 0 || ferror(f)) {
		saved = errno;
		fclose(f);
		unlink(path);
		xasprintf(cause, "%s: %s", path, strerror(saved));
		return (-1);
	}
	if (fclose(f) != 0) {
		xasprintf(cause, "%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}
